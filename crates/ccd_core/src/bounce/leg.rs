//! One leg of a sweep, from one contact to the next: its path (a straight motion, or a
//! curve under gravity) and what it meets first (the earliest solid contact and the
//! sensors entered).

use crate::hit::{ContactOrder, Feature, Hit};
use crate::material::Material;
use crate::obstacle::{Layers, Obstacle, ObstacleId, ObstacleShape, Obstacles};
use crate::parabola::{Parabola, PathLeg};
use crate::ride::arc_joining;
use crate::shape::{Aabb, Circle, Segment, is_point};
use crate::sweep::met_again_from_behind;
use crate::tolerance::{CHAIN_VERTEX_SLOP_REL, MAX_SENSOR_HITS_PER_LEG, SEAM_FLAT_SIN};
use glam::Vec2;

/// The path of a leg's centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Course {
    /// A straight motion: no gravity. The centre moves by this over the leg.
    Straight(Vec2),
    /// A curve under gravity (or, sliding on a face, under gravity's part along it).
    Curved(Parabola),
}

impl Course {
    /// The part of this leg (of `duration` seconds, from `start` at `velocity`) travelled
    /// up to the fraction `until` (the whole leg for `None`).
    #[inline]
    pub(crate) fn travelled(self, start: Vec2, velocity: Vec2, duration: f32, until: Option<f32>) -> PathLeg {
        let gravity = match self {
            Self::Straight(_) => Vec2::ZERO,
            Self::Curved(curve) => curve.gravity,
        };
        PathLeg {
            start,
            curve: Parabola::new(velocity, gravity, duration * until.unwrap_or(1.0)),
        }
    }

    /// The centre's displacement and velocity after the `fraction` of the leg; a straight
    /// leg keeps `velocity`.
    #[inline]
    pub(crate) fn at(self, fraction: f32, velocity: Vec2) -> (Vec2, Vec2) {
        match self {
            Self::Straight(motion) => (motion * fraction, velocity),
            Self::Curved(curve) => (curve.offset(fraction), curve.velocity_at(fraction)),
        }
    }
}

/// What a leg's search needs of its path: its box and its sweep against one obstacle. The
/// search is written once and compiled once per kind of path, so the straight sweep's
/// inner loop holds no curved code.
trait SearchedCourse: Copy {
    /// The box a circle of `radius` from `from` sweeps.
    fn bounds(self, from: Vec2, radius: f32) -> Aabb;
    /// The first contact with `obstacle`, its `toi` a fraction of the leg.
    fn sweep(self, obstacle: &Obstacle, circle: Circle) -> Option<(Hit, ContactOrder)>;
}

/// A straight leg: the motion.
impl SearchedCourse for Vec2 {
    #[inline]
    fn bounds(self, from: Vec2, radius: f32) -> Aabb {
        Aabb::swept(from, self, radius)
    }

    #[inline]
    fn sweep(self, obstacle: &Obstacle, circle: Circle) -> Option<(Hit, ContactOrder)> {
        obstacle.sweep_ordered(circle, self)
    }
}

/// A curved leg, with the box its circle sweeps (computed once, for every obstacle).
#[derive(Clone, Copy)]
struct Curved {
    curve: Parabola,
    reach: Aabb,
}

impl Curved {
    #[inline]
    fn new(curve: Parabola, circle: Circle) -> Self {
        Self {
            curve,
            reach: curve.aabb(circle.center, circle.radius),
        }
    }
}

impl SearchedCourse for Curved {
    #[inline]
    fn bounds(self, _from: Vec2, _radius: f32) -> Aabb {
        self.reach
    }

    #[inline]
    fn sweep(self, obstacle: &Obstacle, circle: Circle) -> Option<(Hit, ContactOrder)> {
        obstacle
            .sweep_curved_within(circle, self.curve, self.reach)
            .map(|(found, order)| (found.hit, order))
    }
}

/// The earliest solid contact of a leg: the obstacle and its material, the contact, the
/// feature touched (a face or a round part), and whether the obstacle is an arc (whose
/// end may join a face: see `bounce/joint.rs`; known here without another lookup).
pub(crate) struct Solid {
    pub(crate) id: ObstacleId,
    pub(crate) material: Material,
    pub(crate) hit: Hit,
    pub(crate) feature: Feature,
    pub(crate) arc: bool,
}

/// The sensors one leg enters: the earliest [`MAX_SENSOR_HITS_PER_LEG`], in time order.
/// One list serves every leg of a sweep (cleared at each), so a leg returns only its
/// solid contact and copies no list.
pub(crate) struct SensorHits {
    list: [(ObstacleId, Hit); MAX_SENSOR_HITS_PER_LEG],
    len: usize,
}

impl SensorHits {
    /// An empty list.
    #[inline]
    pub(crate) fn new() -> Self {
        let placeholder = (
            ObstacleId(u32::MAX),
            Hit {
                toi: 0.0,
                center: Vec2::ZERO,
                point: Vec2::ZERO,
                normal: Vec2::ZERO,
            },
        );
        Self {
            list: [placeholder; MAX_SENSOR_HITS_PER_LEG],
            len: 0,
        }
    }

    /// Empty the list for the next leg.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The sensors entered, in time order.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(ObstacleId, Hit)] {
        &self.list[..self.len]
    }

    /// Keep sensor hits sorted by toi; when full, drop the latest.
    fn push(&mut self, id: ObstacleId, hit: Hit) {
        keep_earliest(&mut self.list, &mut self.len, (id, hit), |e| e.1.toi);
    }
}

/// Insert `entry` into the first `*len` of `list`, kept sorted by `time`: the earliest
/// `list.len()` entries stay, and when the list is full the latest goes (which may be
/// `entry` itself).
pub(crate) fn keep_earliest<T: Copy>(list: &mut [T], len: &mut usize, entry: T, time: impl Fn(&T) -> f32) {
    let Some(&last) = list.last() else {
        return;
    };
    let mut k = *len;
    if k >= list.len() {
        if time(&entry) >= time(&last) {
            return;
        }
        k = list.len() - 1;
    } else {
        *len += 1;
    }
    while k > 0 && time(&list[k - 1]) > time(&entry) {
        list[k] = list[k - 1];
        k -= 1;
    }
    list[k] = entry;
}

/// Which obstacles a leg's search counts: those on `layers`, but `skip`; and `just_met`,
/// the solid contact the leg starts from, if any: that obstacle met again at once from the
/// other side is the same contact (the circle's centre lies on it) and is dropped, so the
/// side the first contact chose holds (see [`met_again_from_behind`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counted {
    pub(crate) layers: Layers,
    pub(crate) skip: Option<ObstacleId>,
    pub(crate) just_met: Option<JustMet>,
}

/// The solid contact a leg starts from: the obstacle, and the normal it was met with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JustMet {
    pub(crate) id: ObstacleId,
    pub(crate) normal: Vec2,
}

impl Counted {
    /// Every obstacle on `layers`.
    pub(crate) fn on(layers: Layers) -> Self {
        Self {
            layers,
            skip: None,
            just_met: None,
        }
    }
}

/// The earliest solid contact of the leg `path` from `circle` among the `counted`
/// obstacles, with the sensors it enters put in `sensors` (the earliest
/// [`MAX_SENSOR_HITS_PER_LEG`], in time order; the list is cleared first). `seam`, the
/// face a lone ball slides on: the end of another segment flat with it, at a point of it,
/// is a seam ([`is_seam_end`]), not a contact, and so is the end of an arc the face runs
/// into flat ([`is_arc_joint`]). Inlined into each loop of legs: the loop then keeps the
/// leg in registers instead of copying it out.
#[inline(always)]
pub(crate) fn earliest_on_path<O: Obstacles + ?Sized>(
    circle: Circle,
    path: Course,
    obstacles: &O,
    counted: Counted,
    seam: Option<Segment>,
    sensors: &mut SensorHits,
) -> Option<Solid> {
    sensors.clear();
    let at_seam = |o: &Obstacle, hit: &Hit| {
        seam.is_some_and(|face| is_seam_end(o, hit, face) || is_arc_joint(o, hit, face, circle.radius))
    };
    solid_on(circle, path, obstacles, counted, at_seam, |id, hit| {
        sensors.push(id, hit);
    })
}

/// [`earliest_on_path`] without the sensor list: the earliest solid contact, with every
/// sensor entered passed to `on_sensor` as found (in no time order). For callers that
/// only count sensors, or keep them their own way: no list to fill.
#[inline]
pub(crate) fn earliest_solid<O: Obstacles + ?Sized>(
    circle: Circle,
    path: Course,
    obstacles: &O,
    counted: Counted,
    on_sensor: impl FnMut(ObstacleId, Hit),
) -> Option<Solid> {
    solid_on(
        circle,
        path,
        obstacles,
        counted,
        |_: &Obstacle, _: &Hit| false,
        on_sensor,
    )
}

/// [`earliest_solid_on_path`] for a leg of either kind: the search compiled once for a
/// straight motion and once for a curve (with its box computed once for every obstacle).
/// Inlined, as [`earliest_on_path`] is.
#[inline(always)]
pub(crate) fn solid_on<O: Obstacles + ?Sized>(
    circle: Circle,
    path: Course,
    obstacles: &O,
    counted: Counted,
    passed: impl Fn(&Obstacle, &Hit) -> bool,
    on_sensor: impl FnMut(ObstacleId, Hit),
) -> Option<Solid> {
    match path {
        Course::Straight(motion) => {
            earliest_solid_on_path(circle, motion, obstacles, counted, passed, on_sensor)
        }
        Course::Curved(curve) => {
            let curved = Curved::new(curve, circle);
            earliest_solid_on_path(circle, curved, obstacles, counted, passed, on_sensor)
        }
    }
}

/// [`earliest_solid`] on a path of either kind, with its obstacle and order; a contact
/// that `passed` says is not one (a seam a slide passes) is left out.
#[inline]
fn earliest_solid_on_path<O: Obstacles + ?Sized, C: SearchedCourse>(
    circle: Circle,
    path: C,
    obstacles: &O,
    counted: Counted,
    passed: impl Fn(&Obstacle, &Hit) -> bool,
    mut on_sensor: impl FnMut(ObstacleId, Hit),
) -> Option<Solid> {
    let Counted {
        layers,
        skip,
        just_met,
    } = counted;
    let mut solid = None;
    let mut best = ContactOrder {
        toi: f64::INFINITY,
        feature: Feature::Round,
    };
    obstacles.query(path.bounds(circle.center, circle.radius), |id, obstacle| {
        if !layers.interacts(obstacle.layers) || skip == Some(id) {
            return;
        }
        let Some((hit, order)) = path.sweep(obstacle, circle) else {
            return;
        };
        if obstacle.sensor {
            // A sensor the circle already overlaps was entered earlier: not a new contact.
            if hit.toi > 0.0 {
                on_sensor(id, hit);
            }
        } else if order.before(best)
            && !just_met.is_some_and(|met| met.id == id && met_again_from_behind(&hit, met.normal))
            && !passed(obstacle, &hit)
        {
            solid = Some(Solid {
                id,
                material: obstacle.material,
                hit,
                feature: order.feature,
                arc: matches!(obstacle.shape, ObstacleShape::Arc(_)),
            });
            best = order;
        }
    });
    solid
}

/// Whether `hit`, a contact with `obstacle`, is at the end of a segment that lies flat
/// with `face` (the face a ball slides on: they turn by less than [`SEAM_FLAT_SIN`]) at a
/// point of it: a seam. Before the seam the ball's foot is still on `face`, its centre a
/// few f32 ulps below the face's line, and it would touch the next segment's end cap a
/// hair before the seam, with a normal tilted by the distance to it over the radius (up
/// to 8.2e-4 rad on a slope of separate segments); just past it, the end of the segment
/// it came from, still touching. Neither is a contact: the slide goes on to the face's
/// end, and on along the next face from there.
pub(crate) fn is_seam_end(obstacle: &Obstacle, hit: &Hit, face: Segment) -> bool {
    let Some(other) = obstacle.shape.line() else {
        return false;
    };
    // The cap's point, to f32 rounding, and where it lies along the face.
    let Some(end) = [other.a, other.b]
        .into_iter()
        .find(|&end| is_point(hit.point, end))
    else {
        return false;
    };
    let d = face.direction();
    let along = (end - face.a).dot(d) / d.length_squared();
    let on_face = (-CHAIN_VERTEX_SLOP_REL..=1.0 + CHAIN_VERTEX_SLOP_REL).contains(&along);
    let (Some(u), Some(w)) = (d.try_normalize(), other.direction().try_normalize()) else {
        return false;
    };
    on_face && u.perp_dot(w).abs() < SEAM_FLAT_SIN
}

/// Whether `hit`, a contact with `obstacle` of a ball of `radius` sliding on `face`, is
/// the end of an arc the face runs into flat ([`arc_joining`]), at that end of the face:
/// the ball's f32 centre, a few ulps into the face, touches it a hair before the foot
/// reaches the face's end. Not a contact: the slide goes on to the end, and the ball
/// rides the arc from there.
pub(crate) fn is_arc_joint(obstacle: &Obstacle, hit: &Hit, face: Segment, radius: f32) -> bool {
    let ObstacleShape::Arc(arc) = obstacle.shape else {
        return false;
    };
    // The ball's side of the face.
    let across = face.direction().perp().as_dvec2();
    let side = across * across.dot((hit.center - face.a).as_dvec2()).signum();
    [face.a, face.b]
        .into_iter()
        .filter(|&end| is_point(hit.point, end))
        .any(|end| arc_joining(arc, face, end, side, f64::from(radius)).is_some())
}
