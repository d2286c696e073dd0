//! [`CcdQuery`]: questions a game asks of the world from any system: what a moving
//! circle or a ray meets first, and which bodies hold a point or overlap a circle. Static
//! obstacles of every shape, moving (kinematic and hinged) parts where they are now (the
//! last step's end), and the moving circles where they are now, each filtered by layers.
//! A body drawn with `TransformInterpolation` is where the last step left it, not where
//! it is drawn between steps (`stepped.rs`).
//!
//! Each cast is the crate's exact sweep of a circle along a straight motion
//! ([`ccd_core::Obstacle::sweep`]), against each body the motion's box meets: the same
//! query the step makes, with the same result.

use crate::components::{CcdDisabled, CcdInvalid, CcdLayers, CcdSensor, Kinematic, MovingCircle};
use crate::events::HitFeature;
use crate::hinge_body::{Hinge, HingePart};
use crate::kinematic::{Kinematics, Pose};
use crate::shape::{CcdShape, polygons_of};
use crate::stepped::SteppedPoses;
use crate::world::CcdWorld;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{Aabb, Circle, Hit, Layers, Obstacle, Obstacles, Polygon, clearance};

/// What a [`CcdQuery`] looks at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdQueryFilter {
    /// The layers the query is on: it meets a body whose layers interact with these (as a
    /// circle with these [`CcdLayers`] would). Default: all.
    pub layers: CcdLayers,
    /// Whether sensors count. Default `false`.
    pub sensors: bool,
    /// Whether moving circles count. Default `true`.
    pub circles: bool,
    /// A body to ignore (the circle a game asks for). Default none.
    pub exclude: Option<Entity>,
}

impl Default for CcdQueryFilter {
    fn default() -> Self {
        Self {
            layers: CcdLayers::default(),
            sensors: false,
            circles: true,
            exclude: None,
        }
    }
}

impl CcdQueryFilter {
    /// The default filter, ignoring `entity`.
    #[must_use]
    pub fn excluding(entity: Entity) -> Self {
        Self {
            exclude: Some(entity),
            ..default()
        }
    }
}

/// The first thing a cast meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdCastHit {
    /// The body: an obstacle's entity (as [`CircleHit::other`](crate::CircleHit::other)
    /// names it) or a moving circle.
    pub entity: Entity,
    /// Which part of its shape ([`CircleHit::part`](crate::CircleHit::part)).
    pub part: u32,
    /// Where on that part.
    pub feature: HitFeature,
    /// How far along the motion, from 0 (at once) to 1 (its end).
    pub fraction: f32,
    /// The cast circle's centre at the contact.
    pub center: Vec2,
    /// The contact point on the body's surface.
    pub point: Vec2,
    /// Unit normal from the body towards the cast circle's centre.
    pub normal: Vec2,
    /// The body's velocity at the point: zero for a static obstacle, a moving part's mean
    /// velocity over the last step, a circle's own.
    pub other_velocity: Vec2,
}

/// Questions of the world, as a system parameter.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn aim(query: CcdQuery, balls: Query<(Entity, &Transform, &MovingCircle)>) {
///     for (entity, at, ball) in &balls {
///         let motion = ball.velocity * 0.5; // where it goes in half a second
///         let filter = CcdQueryFilter::excluding(entity);
///         if let Some(hit) = query.cast_circle(at.translation.truncate(), ball.radius, motion, &filter) {
///             println!("{entity} meets {} at {}", hit.entity, hit.point);
///         }
///     }
/// }
/// # App::new().add_systems(Update, aim);
/// ```
#[derive(SystemParam)]
pub struct CcdQuery<'w, 's> {
    world: Res<'w, CcdWorld>,
    kinematics: Res<'w, Kinematics>,
    time: Res<'w, Time<Fixed>>,
    circles: Query<
        'w,
        's,
        (
            Entity,
            &'static Transform,
            &'static MovingCircle,
            Option<&'static CcdLayers>,
        ),
        Without<CcdDisabled>,
    >,
    /// Where the last step left an interpolated body.
    stepped: SteppedPoses<'w, 's>,
    /// The moving bodies' shapes, for the insides of their solid polygons.
    moving_shapes: Query<'w, 's, MovingShape, (Moves, Without<CcdInvalid>)>,
}

/// A moving body's shape, where it is now.
type MovingShape = (
    Entity,
    &'static CcdShape,
    &'static Transform,
    Option<&'static CcdLayers>,
    Has<CcdSensor>,
);

/// The bodies that move: kinematic and hinged.
type Moves = Or<(With<Kinematic>, With<Hinge>, With<HingePart>)>;

/// One cast: its circle and motion, and what it meets.
struct Cast<'a> {
    circle: Circle,
    motion: Vec2,
    layers: Layers,
    filter: &'a CcdQueryFilter,
}

impl Cast<'_> {
    /// Whether the filter lets it meet `o`.
    fn meets(&self, o: &Obstacle) -> bool {
        (self.filter.sensors || !o.sensor) && o.layers.interacts(self.layers)
    }

    /// Where it meets `o` (from `o`'s front, for a one-sided part).
    fn sweep(&self, o: &Obstacle) -> Option<Hit> {
        o.sweep(self.circle, self.motion)
            .filter(|h| o.takes_contact(h.point, h.normal))
    }
}

/// A body met along a cast, before the nearest is kept.
struct Met {
    entity: Entity,
    part: u32,
    feature: HitFeature,
    hit: Hit,
    other_velocity: Vec2,
}

impl CcdQuery<'_, '_> {
    /// The first body a circle of `radius` at `origin` meets moving by `motion`, if any
    /// (a body it already touches and moves into is met at fraction 0).
    #[must_use]
    pub fn cast_circle(
        &self,
        origin: Vec2,
        radius: f32,
        motion: Vec2,
        filter: &CcdQueryFilter,
    ) -> Option<CcdCastHit> {
        let circle = Circle::new(origin, radius);
        if circle.validate().is_err() || !motion.is_finite() {
            return None;
        }
        let cast = Cast {
            circle,
            motion,
            layers: filter.layers.into(),
            filter,
        };
        let mut best: Option<Met> = None;
        let mut keep = |met: Met| {
            if best.as_ref().is_none_or(|b| met.hit.toi < b.hit.toi) {
                best = Some(met);
            }
        };
        self.cast_statics(&cast, &mut keep);
        self.cast_moving(&cast, &mut keep);
        for (entity, o, velocity) in self.circle_bodies(filter) {
            if let Some(hit) = cast.sweep(&o) {
                let (part, feature, other_velocity) = (0, HitFeature::Round, velocity);
                keep(Met {
                    entity,
                    part,
                    feature,
                    hit,
                    other_velocity,
                });
            }
        }
        best.map(|m| CcdCastHit {
            entity: m.entity,
            part: m.part,
            feature: m.feature,
            fraction: m.hit.toi,
            center: m.hit.center,
            point: m.hit.point,
            normal: m.hit.normal,
            other_velocity: m.other_velocity,
        })
    }

    /// A cast against the static obstacles its motion's box meets.
    fn cast_statics(&self, cast: &Cast, keep: &mut impl FnMut(Met)) {
        let bounds = Aabb::swept(cast.circle.center, cast.motion, cast.circle.radius);
        self.world.grid().query(bounds, |id, o| {
            let Some(part) = self.world.part(id) else {
                return;
            };
            if Some(part.entity) == cast.filter.exclude || !cast.meets(o) {
                return;
            }
            if let Some(hit) = cast.sweep(o) {
                keep(Met {
                    entity: part.entity,
                    part: part.part,
                    feature: HitFeature::of(&o.shape, part.ends, hit.point, hit.normal),
                    hit,
                    other_velocity: Vec2::ZERO,
                });
            }
        });
    }

    /// A cast against every moving part, where it is now.
    fn cast_moving(&self, cast: &Cast, keep: &mut impl FnMut(Met)) {
        let k = &*self.kinematics;
        for ((&entity, m), of) in k.entities.iter().zip(&k.moving).zip(&k.parts) {
            let o = m.at_end();
            if Some(entity) == cast.filter.exclude || !cast.meets(&o) {
                continue;
            }
            if let Some(hit) = cast.sweep(&o) {
                keep(Met {
                    entity,
                    part: of.part,
                    feature: HitFeature::of(&o.shape, of.ends, hit.point, hit.normal),
                    hit,
                    other_velocity: self.part_velocity(m, hit.point),
                });
            }
        }
    }

    /// The first body a ray from `origin` along `motion` meets: [`CcdQuery::cast_circle`]
    /// with radius 0.
    #[must_use]
    pub fn cast_ray(&self, origin: Vec2, motion: Vec2, filter: &CcdQueryFilter) -> Option<CcdCastHit> {
        self.cast_circle(origin, 0.0, motion, filter)
    }

    /// Every body whose solid holds `point` (on its surface counts), each once.
    #[must_use]
    pub fn point(&self, point: Vec2, filter: &CcdQueryFilter) -> Vec<Entity> {
        self.overlap(point, 0.0, filter)
    }

    /// Every body a circle of `radius` at `center` overlaps or touches, each once: a
    /// surface within its radius, or a solid polygon around its centre (a moving body's
    /// where its `Transform` is now).
    #[must_use]
    pub fn overlap(&self, center: Vec2, radius: f32, filter: &CcdQueryFilter) -> Vec<Entity> {
        let circle = Circle::new(center, radius);
        let mut found: Vec<Entity> = Vec::new();
        if circle.validate().is_err() {
            return found;
        }
        let layers: Layers = filter.layers.into();
        let meets = |o: &Obstacle| (filter.sensors || !o.sensor) && o.layers.interacts(layers);
        let mut add = |e: Entity| {
            if Some(e) != filter.exclude && !found.contains(&e) {
                found.push(e);
            }
        };
        self.world.grid().query(circle.aabb(), |id, o| {
            if let Some(part) = self.world.part(id)
                && meets(o)
                && clearance(circle, o) <= 0.0
            {
                add(part.entity);
            }
        });
        // A circle inside a solid polygon, clear of its edges (on its entity's layers).
        for (entity, polygons) in self.world.polygon_bodies() {
            let on_layers = self.world.obstacles(entity).next().is_some_and(&meets);
            if on_layers && polygons.iter().any(|p| p.contains(center)) {
                add(entity);
            }
        }
        for (&entity, m) in self.kinematics.entities.iter().zip(&self.kinematics.moving) {
            let o = m.at_end();
            if meets(&o) && clearance(circle, &o) <= 0.0 {
                add(entity);
            }
        }
        let mut polygons: Vec<Polygon> = Vec::new();
        for (entity, shape, transform, their, sensor) in &self.moving_shapes {
            let theirs: Layers = their.copied().unwrap_or_default().into();
            if (sensor && !filter.sensors) || !theirs.interacts(layers) {
                continue;
            }
            let transform = self.stepped.of(entity, transform);
            let (pose, scale) = (Pose::of(&transform), transform.scale.truncate());
            polygons.clear();
            polygons_of(shape, &|local| pose.place(local, scale), &mut polygons);
            if polygons.iter().any(|p| p.contains(center)) {
                add(entity);
            }
        }
        for (entity, o, _) in self.circle_bodies(filter) {
            if clearance(circle, &o) <= 0.0 {
                add(entity);
            }
        }
        found
    }

    /// The moving circles the filter lets in, as round obstacles where they are now, with
    /// their velocities.
    fn circle_bodies<'a>(
        &'a self,
        filter: &'a CcdQueryFilter,
    ) -> impl Iterator<Item = (Entity, Obstacle, Vec2)> + 'a {
        let layers: Layers = filter.layers.into();
        self.circles
            .iter()
            .filter(move |(e, ..)| filter.circles && Some(*e) != filter.exclude)
            .filter_map(move |(e, t, c, l)| {
                let body = Circle::new(self.stepped.of(e, t).translation.truncate(), c.radius);
                let theirs: Layers = l.copied().unwrap_or_default().into();
                (body.validate().is_ok() && theirs.interacts(layers))
                    .then(|| (e, Obstacle::pillar(body).with_layers(theirs), c.velocity))
            })
    }

    /// A moving part's mean velocity at `point` over the last step: its pivot's travel
    /// and its turn about the pivot's end, over the step.
    fn part_velocity(&self, m: &ccd_core::MovingObstacle, point: Vec2) -> Vec2 {
        let dt = self.time.delta_secs();
        if !(dt > 0.0) {
            return Vec2::ZERO;
        }
        let motion = m.motion;
        let pivot = motion.pivot + motion.pivot_motion;
        (motion.pivot_motion + motion.angle * (point - pivot).perp()) / dt
    }
}
