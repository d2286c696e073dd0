//! The multi-bounce sweep: move a circle through a whole time step, bouncing as often as
//! it must, with no time lost and no tunnelling.

use crate::ball::Ball;
use crate::contact_with::ContactWith;
use crate::hit::{Feature, Hit};
use crate::material::Material;
use crate::meet::{
    Bounces, Halt, Meeting, Pushed, Rest, RestRule, Rules, SurfaceOf, Surroundings, Touch, meet,
};
use crate::obstacle::{Layers, Obstacle, ObstacleId, ObstacleShape, Obstacles};
use crate::parabola::{Parabola, PathLeg};
use crate::response::{ResponseMode, rested};
use crate::shape::{Aabb, ChainEdge, Circle, Segment, ShapeError};
use crate::tolerance::{DEFAULT_MAX_BOUNCES, TOUCH_SLOP_REL};
use glam::Vec2;

/// How [`sweep_bounces`] treats the moving circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepSettings {
    /// Solid contacts allowed in one call before the circle is held at its last contact
    /// for the rest of the step. Default [`DEFAULT_MAX_BOUNCES`]. In a corner (two walls
    /// at an angle α, bounced off in turn) it is raised by the `⌈π/α⌉ + 1` bounces an
    /// elastic ball can take there before it comes out, up to
    /// [`MAX_WEDGE_BOUNCES`](crate::MAX_WEDGE_BOUNCES): a ball never waits in a corner it
    /// can leave.
    pub max_bounces: u32,
    /// Approach speed, in world units per second, below which a contact removes the
    /// normal velocity instead of bouncing it (resting contact). Default `0.0`: every
    /// contact bounces.
    pub resting_speed: f32,
    /// Bounce, slide or stop. Default [`ResponseMode::Bounce`].
    pub response: ResponseMode,
    /// The circle's material. Default [`Material::ELASTIC`].
    pub material: Material,
    /// The circle's collision layers. Default [`Layers::ALL`].
    pub layers: Layers,
    /// The fastest the circle leaves a contact, units per second: each contact's response
    /// is scaled down to it ([`limit_speed`](crate::limit_speed)). Default
    /// `f32::INFINITY`: no limit.
    pub max_speed: f32,
    /// Constant acceleration, in units per second². Default zero: every leg is straight.
    /// Otherwise each leg is a [`Parabola`] and each contact is found on it, with the
    /// velocity of that instant; a ball that gravity presses onto a face, with no speed to
    /// leave it, slides along it (see the crate's `bounce/slide.rs`).
    pub gravity: Vec2,
}

impl Default for SweepSettings {
    fn default() -> Self {
        Self {
            max_bounces: DEFAULT_MAX_BOUNCES,
            resting_speed: 0.0,
            response: ResponseMode::Bounce,
            material: Material::ELASTIC,
            layers: Layers::ALL,
            max_speed: f32::INFINITY,
            gravity: Vec2::ZERO,
        }
    }
}

/// One contact met during a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BounceHit {
    /// The obstacle.
    pub obstacle: ObstacleId,
    /// Seconds since the start of the step.
    pub time: f32,
    /// Where the circle's centre was, the contact point and the normal (see [`Hit`]).
    /// `hit.toi` is the fraction of the leg that led here.
    pub hit: Hit,
    /// Approach speed along the normal, `−v·n`, in world units per second (`> 0`).
    pub approach_speed: f32,
    /// Whether the obstacle is a sensor (reported, not bounced off).
    pub sensor: bool,
    /// Normal speed the surface's [`Kick`](crate::Kick) added, units/s (0 when it did
    /// not fire).
    pub kick: f32,
}

/// Where a sweep left the circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepOutcome {
    /// Final centre.
    pub center: Vec2,
    /// Final velocity.
    pub velocity: Vec2,
    /// Solid contacts resolved.
    pub bounces: u32,
    /// Whether the bounce cap was reached (`max_bounces`, raised in corners), holding the
    /// circle at its last contact for the rest of the step.
    pub capped: bool,
    /// Seconds of the step lost to the cap: the circle waited at its last contact instead
    /// of moving on (0 unless `capped`).
    pub lost_time: f32,
    /// What its rides of round parts did in the step.
    pub ride: RideTally,
}

/// What a sweep's rides of round parts (pillars, caps, arcs; see `ride/`) did in its step:
/// how long the circle rode, and what friction took on the way, so that a ride's energy
/// can be checked from outside (kinetic plus potential energy, plus this, holds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RideTally {
    /// Seconds of the step the circle rode a round part, moving along it (not held still
    /// on it, on a post's top or by friction).
    pub time: f32,
    /// The kinetic plus potential energy per unit mass friction took on those rides,
    /// units²/s²: `∫ μ·(N/m)·|v| dt`, the ride's own f64 energy at its start less at its
    /// end (0 without friction).
    pub friction_loss: f32,
}

/// Move `circle` with `velocity` for `dt` seconds through `obstacles`.
///
/// Each leg finds the earliest solid contact among the obstacles near that leg, moves
/// there, changes the velocity by `settings.response`, and spends the rest of the step
/// with the new velocity (time-based: the next leg is `v'·(1 − toi)·t_left`). It stops
/// when the step is used up or after `settings.max_bounces` contacts, in which case the
/// circle stays at its last contact point. It never tunnels and never allocates.
///
/// `on_hit` receives every contact in time order: solid ones, and sensors the circle
/// enters (a sensor it starts inside is not reported again). Obstacles whose layers do not
/// [interact](Layers::interacts) with `settings.layers` are ignored.
///
/// # Errors
/// [`ShapeError`] naming `center`, `radius`, `velocity` or `dt` when one is not finite or
/// a radius or `dt` is negative; nothing moves then.
///
/// ```
/// use ccd_core::{sweep_bounces, Circle, Obstacle, Segment, SweepSettings, Vec2};
/// // A floor at y = 0 and a wall at x = 10. A ball of radius 1 at (5, 5) moves at
/// // (10, -10) for 1 s: it hits the floor at t = 0.4 s (centre (9, 1)), bounces up at
/// // once into the wall (centre x = 9 already touches x = 10), bounces left, and spends
/// // the last 0.6 s going (−10, 10): it ends at (3, 7).
/// let walls = [
///     Obstacle::segment(Segment::new(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0))),
///     Obstacle::segment(Segment::new(Vec2::new(10.0, -20.0), Vec2::new(10.0, 20.0))),
/// ];
/// let mut hits = Vec::new();
/// let out = sweep_bounces(
///     Circle::new(Vec2::new(5.0, 5.0), 1.0),
///     Vec2::new(10.0, -10.0),
///     1.0,
///     &walls,
///     &SweepSettings::default(),
///     |h| hits.push(h.time),
/// )
/// .unwrap();
/// assert!((out.center - Vec2::new(3.0, 7.0)).length() < 1e-4);
/// assert!((out.velocity - Vec2::new(-10.0, 10.0)).length() < 1e-4);
/// assert_eq!(out.bounces, 2);
/// assert!((hits[0] - 0.4).abs() < 1e-6 && (hits[1] - 0.4).abs() < 1e-6);
/// ```
pub fn sweep_bounces<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    dt: f32,
    obstacles: &O,
    settings: &SweepSettings,
    on_hit: impl FnMut(&BounceHit),
) -> Result<SweepOutcome, ShapeError> {
    sweep_legs(circle, velocity, dt, obstacles, settings, &mut OnHit(on_hit))
}

/// What a sweep tells its caller as it goes: every contact, and every leg travelled.
pub(crate) trait SweepWatch {
    /// A contact, in time order: solid ones, and sensors the circle enters.
    fn hit(&mut self, hit: &BounceHit);
    /// A leg travelled, in order: from the start or a contact to the next contact, a
    /// slide's end or the step's end, each on one curve.
    fn leg(&mut self, _leg: PathLeg) {}
}

/// A watch of the contacts alone.
struct OnHit<F>(F);

impl<F: FnMut(&BounceHit)> SweepWatch for OnHit<F> {
    #[inline]
    fn hit(&mut self, hit: &BounceHit) {
        (self.0)(hit);
    }
}

/// A watch of the contacts (the first) and the legs (the second).
pub(crate) struct Watch<H, L>(pub(crate) H, pub(crate) L);

impl<H: FnMut(&BounceHit), L: FnMut(PathLeg)> SweepWatch for Watch<H, L> {
    #[inline]
    fn hit(&mut self, hit: &BounceHit) {
        (self.0)(hit);
    }

    #[inline]
    fn leg(&mut self, leg: PathLeg) {
        (self.1)(leg);
    }
}

/// [`sweep_bounces`], telling `watch` every contact and every leg it travels.
pub(crate) fn sweep_legs<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    dt: f32,
    obstacles: &O,
    settings: &SweepSettings,
    watch: &mut impl SweepWatch,
) -> Result<SweepOutcome, ShapeError> {
    check_inputs(circle, velocity, dt)?;
    if !settings.gravity.is_finite() {
        return Err(ShapeError::NonFinite { field: "gravity" });
    }
    let mut sweep = Sweep {
        obstacles,
        settings,
        radius: circle.radius,
        rules: Rules {
            dt,
            resting_speed: settings.resting_speed,
            gravity: settings.gravity,
        },
        out: SweepOutcome {
            center: circle.center,
            velocity,
            bounces: 0,
            capped: false,
            lost_time: 0.0,
            ride: RideTally::default(),
        },
        elapsed: 0.0,
        slide: None,
        ride: None,
        left: None,
        ran_off: false,
        bounces: Bounces::new(settings.max_bounces),
        runs: 0,
        sensors: SensorHits::new(),
    };
    // Each pass is one leg; every pass but the last resolves a bounce, ends a slide at
    // its face's end (after which the next contact is a bounce), or is a run of a ride,
    // so the bounce cap (at most `MAX_WEDGE_BOUNCES`) and the runs' (`MAX_RIDE_RUNS`)
    // bound the loop.
    while sweep.leg(watch) {}
    Ok(sweep.out)
}

/// A lone sweep under way.
struct Sweep<'a, O: ?Sized> {
    obstacles: &'a O,
    settings: &'a SweepSettings,
    radius: f32,
    rules: Rules,
    out: SweepOutcome,
    /// Seconds of the step travelled.
    elapsed: f32,
    /// The face it slides on under gravity, if it does (see [`meet`]'s rest); else it flies
    /// its parabola.
    slide: Option<Slide>,
    /// The round part it rides (see [`meet`]'s rest and `ride_leg.rs`); else it flies or
    /// slides.
    ride: Option<RideOn>,
    /// The round part a ride just left from its outside (the press vanished there): the
    /// next leg skips it (see `ride_leg.rs`).
    left: Option<ObstacleId>,
    /// Its slide ended (off the face's end, or at a contact), and it has not slid on
    /// another face since (see [`RestRule::Lone`]).
    ran_off: bool,
    bounces: Bounces,
    /// The runs of rides so far (see `ride_leg.rs`; at most `MAX_RIDE_RUNS`).
    runs: u32,
    /// One list for every leg's sensors.
    sensors: SensorHits,
}

impl<O: Obstacles + ?Sized> Sweep<'_, O> {
    /// Travel one leg, to its first solid contact (met) or its end; whether another leg
    /// follows.
    #[inline(always)]
    fn leg(&mut self, watch: &mut impl SweepWatch) -> bool {
        let time_left = self.rules.dt - self.elapsed;
        if !(time_left > 0.0) {
            return false;
        }
        if let Some(on) = self.ride {
            return self.ride_leg(on, time_left, watch);
        }
        let here = Circle::new(self.out.center, self.radius);
        let Some(Leg {
            path,
            duration,
            stops,
        }) = leg_path(
            self.out.velocity,
            self.rules.gravity,
            self.slide,
            here.center,
            time_left,
        )
        else {
            return false;
        };
        // The wall just met, if the circle's centre lies on it, is met again at once from
        // the other side: that contact is dropped (see `met_again_from_behind`).
        let just_met = self.bounces.last.and_then(|l| match l.with {
            ContactWith::Obstacle(id) => Some(JustMet { id, normal: l.normal }),
            _ => None,
        });
        let counted = Counted {
            layers: self.settings.layers,
            skip: self.slide.map(|s| s.obstacle).or(self.left.take()),
            just_met,
        };
        let seam = self.slide.map(|s| s.segment);
        let found = earliest_on_path(here, path, self.obstacles, counted, seam, &mut self.sensors);
        for sensor in self.sensors.as_slice() {
            if found.as_ref().is_none_or(|solid| sensor.1.toi <= solid.hit.toi) {
                let (_, at) = path.at(sensor.1.toi, self.out.velocity);
                watch.hit(&leg_hit(sensor.0, sensor.1, self.elapsed, duration, at, true));
            }
        }
        watch.leg(path.travelled(
            here.center,
            self.out.velocity,
            duration,
            found.as_ref().map(|f| f.hit.toi),
        ));
        let Some(solid) = found else {
            let (moved, end_velocity) = path.at(1.0, self.out.velocity);
            self.out.center += moved;
            self.elapsed += duration;
            if stops {
                // Friction brought it to rest on its face: it stays, or slides back.
                self.out.velocity = Vec2::ZERO;
                return true;
            }
            self.out.velocity = end_velocity;
            return self.after_free_leg(duration < time_left);
        };
        let solid = if solid.arc && solid.feature == Feature::Round {
            self.onto_joint_face(solid)
        } else {
            solid
        };
        self.meet_solid(&solid, path, duration, watch)
    }

    /// After a leg that met nothing and ended `early` (before the step's end: a slide
    /// that ran off its face), what follows: whether another leg does.
    #[inline(always)]
    fn after_free_leg(&mut self, early: bool) -> bool {
        // At a seam, a slide goes on along the next face, flat beyond it; at a flat joint
        // with an arc, it rides the arc.
        if let Some(slide) = self.slide
            && early
        {
            match self.beyond_face(slide) {
                Some(Beyond::Slide(next)) => {
                    self.slide = Some(next);
                    return true;
                }
                Some(Beyond::Ride(ride)) => {
                    self.slide = None;
                    self.ran_off = true;
                    self.ride = Some(ride);
                    return true;
                }
                None => {}
            }
        }
        // A slide that reached its face's end flies on from there. Past a chain's joint,
        // the edge it leaves has no part there (the joint is the next edge's): the next
        // leg skips it, so its face's end, touched at once, is not taken for a new
        // contact over and over.
        self.ran_off |= self.slide.is_some();
        if let Some(slide) = self.slide.take()
            && early
            && joint_ahead(self.obstacles, slide, self.out.center)
        {
            self.left = Some(slide.obstacle);
        }
        early
    }

    /// Meet the leg's solid contact ([`meet`]); whether another leg follows.
    fn meet_solid(
        &mut self,
        solid: &Solid,
        path: Course,
        duration: f32,
        watch: &mut impl SweepWatch,
    ) -> bool {
        let (id, hit) = (solid.id, solid.hit);
        let (_, at_contact) = path.at(hit.toi, self.out.velocity);
        let mut event = leg_hit(id, hit, self.elapsed, duration, at_contact, false);
        self.out.center = hit.center;
        self.elapsed = event.time;
        self.out.bounces += 1;
        let settings = self.settings;
        let ball = Ball {
            center: hit.center,
            velocity: at_contact,
            radius: self.radius,
            inverse_mass: 1.0,
            material: settings.material,
            layers: settings.layers,
            response: settings.response,
            max_speed: settings.max_speed,
            // The sweep's gravity is already this ball's (the rules carry it).
            gravity_scale: 1.0,
        };
        let meeting = Meeting {
            with: ContactWith::Obstacle(id),
            hit,
            time: self.elapsed,
            material: solid.material,
            surface_velocity: Vec2::ZERO,
            rule: RestRule::Lone {
                on_face: solid.feature == Feature::Face,
                sliding_on: self.slide.map(|s| s.normal),
                ran_off: self.ran_off,
            },
        };
        let met = meet(
            &mut Walls(self.obstacles),
            &ball,
            &meeting,
            &self.rules,
            &mut self.bounces,
        );
        self.out.velocity = met.velocity;
        event.approach_speed = met.approach;
        event.kick = met.kick;
        watch.hit(&event);
        match met.halt {
            Some(Halt::Stopped) => return false,
            Some(Halt::Capped) => {
                self.out.capped = true;
                self.out.lost_time = (self.rules.dt - self.elapsed).max(0.0);
                return false;
            }
            None => {}
        }
        // (`meet` turned the velocity along the face, or, held, stopped it.)
        self.ran_off |= self.slide.is_some();
        self.slide = None;
        self.ride = None;
        match met.rest {
            Some(Rest::Slide { face, friction, .. }) => {
                self.ran_off = false;
                self.out.center = seat(hit.center, face, hit.normal, self.radius);
                self.slide = Some(Slide {
                    obstacle: id,
                    normal: hit.normal,
                    segment: face,
                    friction,
                });
            }
            Some(Rest::Ride {
                on: ContactWith::Obstacle(obstacle),
                ridden,
                friction,
                speed,
            }) => self.ride = Some(RideOn::landed(obstacle, ridden, friction, speed)),
            Some(Rest::Held) => return false,
            Some(Rest::Leaves) => (self.out.center, self.out.velocity) = leave_clear(&hit, self.out.velocity),
            // (The lone rule settles no ball, `Settle` is the event machinery's; it meets
            // walls only, and rides nothing else.)
            Some(Rest::Settle | Rest::Ride { .. }) | None => {}
        }
        true
    }
}

impl<O: Obstacles + ?Sized> Sweep<'_, O> {
    /// What goes on flat from the end of `slide`'s face that the ball's foot has just
    /// left, if anything: the slide along a segment there ([`Segment::flat_beyond`]), with the
    /// ball's velocity turned along it (its speed kept) and friction as that segment's
    /// material gives it; or the ride of an arc there (`bounce/joint.rs`).
    fn beyond_face(&mut self, slide: Slide) -> Option<Beyond> {
        let face = slide.segment;
        let end = end_left(face, self.out.center);
        let mut next = None;
        let mut ride = None;
        self.obstacles.query(Aabb::new(end, end), |id, o| {
            if id == slide.obstacle || o.sensor || !self.settings.layers.interacts(o.layers) {
                return;
            }
            match o.shape {
                ObstacleShape::Segment(other) | ObstacleShape::Edge(ChainEdge { segment: other, .. })
                    if next.is_none() =>
                {
                    next = face
                        .flat_beyond(end, other)
                        .map(|far| (id, o.material, Segment::new(end, far)));
                }
                ObstacleShape::Arc(arc) if ride.is_none() => {
                    ride = self.arc_beyond(id, o.material, arc, slide, end);
                }
                _ => {}
            }
        });
        let Some((id, material, on)) = next else {
            return ride.map(Beyond::Ride);
        };
        let along = on.direction().try_normalize()?;
        if !(self.out.velocity.dot(along) > 0.0) {
            return None;
        }
        let normal = if along.perp().dot(slide.normal) > 0.0 {
            along.perp()
        } else {
            -along.perp()
        };
        self.out.velocity = along * self.out.velocity.length();
        let press = -self.rules.gravity.dot(normal);
        let friction = self.settings.material.combine(material).friction * press;
        // The foot stands at the seam, the face's very end: the face is taken from a touch
        // slop behind it, so that the foot is on it (at its end it would leave at once).
        let behind = along * (TOUCH_SLOP_REL * self.radius);
        Some(Beyond::Slide(Slide {
            obstacle: id,
            normal,
            segment: Segment::new(on.a - behind, on.b),
            friction: if friction > 0.0 { friction } else { 0.0 },
        }))
    }
}

/// What a slide goes on to at its face's end ([`Sweep::beyond_face`]).
enum Beyond {
    /// A slide along the next segment, across a seam.
    Slide(Slide),
    /// A ride of an arc, from a flat joint.
    Ride(RideOn),
}

/// The walls around a lone ball, as [`meet`] asks after them: nothing moves, no hinged
/// body takes part.
struct Walls<'a, O: ?Sized>(&'a O);

impl<O: Obstacles + ?Sized> Surroundings for Walls<'_, O> {
    #[inline]
    fn surfaces_near(
        &self,
        area: Aabb,
        _center: Vec2,
        _moving: bool,
        mut visit: impl FnMut(ContactWith, &Obstacle, Vec2),
    ) {
        self.0
            .query(area, |id, o| visit(ContactWith::Obstacle(id), o, Vec2::ZERO));
    }

    #[inline]
    fn moving_near(&self, _area: Aabb) -> bool {
        false
    }

    fn still_shape(&self, with: ContactWith, point: Vec2) -> Option<ObstacleShape> {
        still_wall(self.0, with, point)
    }

    #[inline]
    fn push(&mut self, _touch: Touch, _second: Option<SurfaceOf>) -> Option<Pushed> {
        None
    }
}

/// The shape of wall `with` of `obstacles`, looked up at `point` (`None` for anything
/// but a wall).
pub(crate) fn still_wall<O: Obstacles + ?Sized>(
    obstacles: &O,
    with: ContactWith,
    point: Vec2,
) -> Option<ObstacleShape> {
    let ContactWith::Obstacle(id) = with else {
        return None;
    };
    let mut shape = None;
    obstacles.query(Aabb::new(point, point), |found, o| {
        if found == id {
            shape = Some(o.shape);
        }
    });
    shape
}

/// The end of `face` that a slide's foot, from the ball centred at `center`, has just
/// left: the nearer (rounded to f32, the foot may lie a hair inside the face).
pub(crate) fn end_left(face: Segment, center: Vec2) -> Vec2 {
    let d = face.b - face.a;
    if (center - face.a).dot(d) <= 0.5 * d.length_squared() {
        face.a
    } else {
        face.b
    }
}

/// Whether the face of `slide`, which the ball centred at `center` has just slid off, is a
/// chain's edge whose next edge owns the joint there.
fn joint_ahead<O: Obstacles + ?Sized>(obstacles: &O, slide: Slide, center: Vec2) -> bool {
    let Some(ObstacleShape::Edge(edge)) =
        still_wall(obstacles, ContactWith::Obstacle(slide.obstacle), slide.segment.a)
    else {
        return false;
    };
    let s = edge.segment;
    if (center - s.a).dot(s.b - s.a) <= 0.0 {
        edge.has_before()
    } else {
        edge.has_after()
    }
}

/// A leg's path, its duration, and whether friction brings the ball to rest at its end.
struct Leg {
    path: Course,
    duration: f32,
    stops: bool,
}

/// The next leg from `center`: straight without gravity (`None` when it does not move), a
/// curve in flight, or, sliding on a face, a curve under gravity's part along it and
/// friction, cut where the centre's foot leaves the face or friction brings it to rest
/// (`None` when friction holds it there).
#[inline(always)]
fn leg_path(
    velocity: Vec2,
    gravity: Vec2,
    slide: Option<Slide>,
    center: Vec2,
    time_left: f32,
) -> Option<Leg> {
    let whole = |path, duration| Leg {
        path,
        duration,
        stops: false,
    };
    if gravity == Vec2::ZERO {
        let motion = velocity * time_left;
        return (motion != Vec2::ZERO).then_some(whole(Course::Straight(motion), time_left));
    }
    let Some(slide) = slide else {
        return Some(whole(
            Course::Curved(Parabola::new(velocity, gravity, time_left)),
            time_left,
        ));
    };
    let acceleration = slide.acceleration(gravity, velocity)?;
    let stop = slide.stops_at(velocity, acceleration, time_left);
    let span = stop.unwrap_or(time_left);
    let along = Parabola::new(velocity, acceleration, span);
    let (duration, stops) = match slide.leaves_at(center, along) {
        Some(s) => ((s * f64::from(span)) as f32, false),
        None => (span, stop.is_some()),
    };
    Some(Leg {
        path: Course::Curved(Parabola { duration, ..along }),
        duration,
        stops,
    })
}

/// The circle, its velocity and the step, or the first bad one.
#[inline]
fn check_inputs(circle: Circle, velocity: Vec2, dt: f32) -> Result<(), ShapeError> {
    // All good, by one branch (every test taken); the first bad one named below.
    let good = circle.center.is_finite()
        & circle.radius.is_finite()
        & (circle.radius >= 0.0)
        & velocity.is_finite()
        & dt.is_finite()
        & (dt >= 0.0);
    if good {
        return Ok(());
    }
    circle.validate()?;
    if !velocity.is_finite() {
        return Err(ShapeError::NonFinite { field: "velocity" });
    }
    if !dt.is_finite() {
        return Err(ShapeError::NonFinite { field: "dt" });
    }
    if dt < 0.0 {
        return Err(ShapeError::NegativeRadius { field: "dt" });
    }
    Ok(())
}

/// The contact `hit` of a leg of `duration` seconds that started at `elapsed`, met at
/// `velocity`.
fn leg_hit(
    obstacle: ObstacleId,
    hit: Hit,
    elapsed: f32,
    duration: f32,
    velocity: Vec2,
    sensor: bool,
) -> BounceHit {
    BounceHit {
        obstacle,
        time: elapsed + hit.toi * duration,
        hit,
        approach_speed: -velocity.dot(hit.normal),
        sensor,
        kick: 0.0,
    }
}

mod joint;
mod leg;
mod ride_leg;
mod slide;

pub(crate) use leg::{Counted, Course, JustMet, Solid, earliest_solid, is_seam_end, keep_earliest, solid_on};
use leg::{SensorHits, earliest_on_path};
use ride_leg::RideOn;
use slide::Slide;
pub(crate) use slide::{foot_leaves_face, reseats, seat};

#[cfg(test)]
mod tests;

/// A ball at `hit` with `velocity` off the outside of a round part along its tangent
/// (`Rest::Leaves`): its flight starts clear of it, an f32 step out
/// along the normal, its velocity leaving it at the separation bias (from the touch it met
/// it again at once, leg after leg of no length, to the bounce cap; with the velocity only
/// rounded not to point into it, the step out turned the normal by an ulp, and the next
/// leg met the part again at an approach of 1e-7 of the speed, at a segment's end where
/// the flight curves little less than the cap). The part is not skipped: off a segment's
/// end, the flight may come down on its face. Returns the centre and velocity.
pub(crate) fn leave_clear(hit: &Hit, velocity: Vec2) -> (Vec2, Vec2) {
    (step_out(hit.center, hit.normal), rested(velocity, hit.normal))
}

/// `center` moved out along `normal` by the f32 spacing of its coordinates (one ulp of the
/// larger): the nearest place clear of a surface it touched there.
fn step_out(center: Vec2, normal: Vec2) -> Vec2 {
    let scale = center.abs().max_element().max(1.0);
    let moved = center + normal * (scale * f32::EPSILON);
    if moved == center {
        center + normal * (2.0 * scale * f32::EPSILON)
    } else {
        moved
    }
}
