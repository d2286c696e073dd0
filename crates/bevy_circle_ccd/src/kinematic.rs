//! Kinematic obstacles: each step, every [`Kinematic`] segment or pillar becomes a
//! [`MovingObstacle`] from its pose at the step's start to its pose at the end, and its
//! `Transform` ends at the target. A `Kinematic` entity with neither shape at the moment
//! is moved all the same (and a followed one's pose remembered), so that it comes back
//! where it would have been when it gets a shape again.

use crate::components::{CcdInvalid, Kinematic, placement_given, quoted};
use crate::events::{HitFeature, HitOther};
use crate::hinge_body::{Hinge, HingePart};
use crate::query::ObstacleParts;
use crate::shape::{Part, ShapePlacement};
use crate::world::PartOf;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::query::QueryItem;
use bevy::prelude::*;
use ccd_core::{MovingObstacle, SegmentMotion, ShapeError};
use std::f32::consts::{PI, TAU};

/// A 2D pose: where the entity's origin is and how far it is turned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pose {
    pub(crate) translation: Vec2,
    pub(crate) angle: f32,
}

impl Pose {
    pub(crate) fn of(transform: &Transform) -> Self {
        Self {
            translation: transform.translation.truncate(),
            angle: transform.rotation.to_euler(EulerRot::ZYX).0,
        }
    }

    pub(crate) fn place(&self, local: Vec2, scale: Vec2) -> Vec2 {
        self.translation + Vec2::from_angle(self.angle).rotate(local * scale)
    }

    /// The placement of a shape's local space by this pose and `scale`, through `place`
    /// (this pose's [`Pose::place`]).
    pub(crate) fn placement<'a>(&self, place: &'a dyn Fn(Vec2) -> Vec2, scale: Vec2) -> ShapePlacement<'a> {
        // A scale of −1 on both axes is a half turn.
        let half_turn = if scale.x < 0.0 && scale.y < 0.0 { PI } else { 0.0 };
        ShapePlacement {
            place,
            angle: self.angle + half_turn,
            scale,
            mirrored: scale.x * scale.y < 0.0,
            field: "Transform",
        }
    }
}

/// The kinematic obstacles of the current step.
#[derive(Resource, Default, Debug)]
pub(crate) struct Kinematics {
    /// Obstacles at the step's start with their motion, in a stable (entity) order.
    pub(crate) moving: Vec<MovingObstacle>,
    /// Their entities, index for index (an entity of several parts once per part).
    pub(crate) entities: Vec<Entity>,
    /// Which part of its entity's shape each is, index for index.
    pub(crate) parts: Vec<PartOf>,
    /// Their poses at the step's end.
    end_poses: Vec<Pose>,
    /// Kinematic entities without a shape this step, with their poses at the step's end:
    /// nothing to sweep, but they move all the same (a gate whose segment is off for a
    /// while comes back where it would have been).
    shapeless: Vec<(Entity, Pose)>,
    /// Pose at the end of the last step, for [`Kinematic::FollowTransform`].
    previous: EntityHashMap<Pose>,
}

impl Kinematics {
    /// An empty set that remembers this one's followed poses (for a prediction, which
    /// steps its own copy).
    pub(crate) fn followed(&self) -> Self {
        Self {
            previous: self.previous.clone(),
            ..default()
        }
    }

    /// Forget the last step's obstacles (not the followed bodies' poses).
    pub(crate) fn clear(&mut self) {
        self.moving.clear();
        self.entities.clear();
        self.parts.clear();
        self.end_poses.clear();
        self.shapeless.clear();
    }

    /// Hand every kinematic body, shaped or not, its pose at the step's end (`moved`), and
    /// note that pose as its last (for [`Kinematic::FollowTransform`]).
    pub(crate) fn finish(&mut self, mut moved: impl FnMut(Entity, Pose)) {
        let Self {
            entities,
            end_poses,
            shapeless,
            previous,
            ..
        } = self;
        let swept = entities.iter().copied().zip(end_poses.iter().copied());
        for (entity, end) in swept.chain(shapeless.iter().copied()) {
            moved(entity, end);
            previous.insert(entity, end);
        }
    }

    /// What a contact with moving obstacle `k` at `point` with `normal`, `fraction` of the
    /// way through the step, names of it: its entity, part and feature, where the part was
    /// then (a hinge's pose from its last change of motion on).
    pub(crate) fn hit_other(&self, k: usize, point: Vec2, normal: Vec2, fraction: f32) -> Option<HitOther> {
        let (m, &entity, of) = (self.moving.get(k)?, self.entities.get(k)?, self.parts.get(k)?);
        let shape = m.motion.shape_at(m.obstacle.shape, fraction);
        Some(HitOther {
            entity,
            part: of.part,
            feature: HitFeature::of(&shape, of.ends, point, normal),
        })
    }

    /// Move `entity`, driven by `kinematic` from `transform`, through a step of `dt` with no
    /// shape (a part a prediction switched off): its motion goes on. A pose that is not
    /// finite is left out (the step itself names it).
    pub(crate) fn add_shapeless(
        &mut self,
        entity: Entity,
        kinematic: Kinematic,
        transform: &Transform,
        dt: f32,
    ) {
        let (_, end, _) = poses(
            kinematic,
            Pose::of(transform),
            self.previous.get(&entity).copied(),
            dt,
        );
        if end.translation.is_finite() && end.angle.is_finite() {
            self.shapeless.push((entity, end));
        }
    }

    /// Add a moving obstacle that something else puts in place after the step (a hinged
    /// part: `hinge.rs`); [`finish_kinematics`] leaves it alone.
    pub(crate) fn push_hinged(&mut self, entity: Entity, part: PartOf, moving: MovingObstacle) {
        self.moving.push(moving);
        self.entities.push(entity);
        self.parts.push(part);
        self.end_poses.push(Pose {
            translation: moving.motion.pivot,
            angle: 0.0,
        });
    }
}

/// What a kinematic obstacle is read by: its motion, its own pose, its CCD components,
/// and whether it has a parent (it must not: its `Transform` is its pose in the world).
pub(crate) type KinematicParts<'a> = (
    Entity,
    &'a Kinematic,
    &'a Transform,
    ObstacleParts,
    Has<ChildOf>,
    Has<Hinge>,
    Has<HingePart>,
);

/// Why an entity that is both kinematic and hinged is skipped.
const KINEMATIC_AND_HINGED: &str =
    "an entity is Kinematic (its motion given) or hinged (pushed by the balls), not both: remove one";

/// `transform` quoted for a refusal that names it.
fn placed(transform: &Transform) -> String {
    placement_given(transform.translation, transform.rotation, transform.scale)
}

/// Turn `delta` into the equivalent turn in (−π, π].
pub(crate) fn shortest_turn(delta: f32) -> f32 {
    let wrapped = (delta + PI).rem_euclid(TAU) - PI;
    if wrapped == -PI { PI } else { wrapped }
}

/// Build this step's moving obstacles. Runs in
/// [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare).
pub(crate) fn prepare_kinematics(
    time: Res<Time>,
    mut kinematics: ResMut<Kinematics>,
    query: Query<KinematicParts>,
    mut order: Local<Vec<Entity>>,
    mut built: Local<Vec<Part>>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    built.clear();
    let k = &mut *kinematics;
    k.clear();
    order.clear();
    order.extend(query.iter().map(|p| p.0));
    order.sort_unstable();
    k.previous.retain(|e, _| query.contains(*e));
    for &entity in order.iter() {
        let Ok(item) = query.get(entity) else {
            continue;
        };
        let marked = item.3.invalid;
        match k.add(item, dt, &mut built) {
            Ok(()) if marked => {
                commands.entity(entity).try_remove::<CcdInvalid>();
            }
            Ok(()) => {}
            Err(Refused { field, reason }) => {
                crate::components::mark_invalid(&mut commands, entity, marked, field, reason)
            }
        }
    }
}

/// Why an entity is skipped: its bad field, and why.
pub(crate) struct Refused {
    field: &'static str,
    reason: String,
}

impl Refused {
    fn new(field: &'static str, reason: impl ToString) -> Self {
        Self {
            field,
            reason: reason.to_string(),
        }
    }
}

impl Kinematics {
    /// Add the kinematic obstacle `item` for a step of `dt`: its parts (built in `built`)
    /// with its motion, or, without a shape now, its end pose alone (the motion goes on).
    pub(crate) fn add(
        &mut self,
        item: QueryItem<KinematicParts<'static>>,
        dt: f32,
        built: &mut Vec<Part>,
    ) -> Result<(), Refused> {
        let (entity, kinematic, transform, parts, parented, hinge, hinge_part) = item;
        if hinge || hinge_part {
            return Err(Refused::new("Kinematic", KINEMATIC_AND_HINGED));
        }
        if parented {
            // The rule: what the plugin moves is simulated in world space, from its own
            // `Transform`; a child's would be read as world space and be wrong.
            return Err(Refused::new("ChildOf", crate::components::PARENTED));
        }
        let current = Pose::of(transform);
        let (start, end, turn) = poses(*kinematic, current, self.previous.get(&entity).copied(), dt);
        let scale = transform.scale.truncate();
        let place = |local: Vec2| start.place(local, scale);
        let at = start.placement(&place, scale);
        let motion = SegmentMotion {
            pivot: start.translation,
            angle: turn,
            pivot_motion: end.translation - start.translation,
        };
        let finite = motion.pivot_motion.is_finite() && turn.is_finite();
        let first = built.len();
        let shaped = match parts.build(&at, start.translation, built) {
            Some(Err((field, error))) => {
                let given = parts
                    .given(field)
                    .or_else(|| (field == "Transform").then(|| placed(transform)));
                return Err(Refused::new(field, quoted(error, given)));
            }
            _ if !finite => {
                built.truncate(first);
                // With a shape, a bad Transform was named above; without one, name it here.
                return Err(if current.translation.is_finite() && current.angle.is_finite() {
                    let error = ShapeError::NonFinite { field: "velocity" };
                    Refused::new("Kinematic", quoted(error, Some(format!("{kinematic:?}"))))
                } else {
                    let error = ShapeError::NonFinite { field: "translation" };
                    Refused::new("Transform", quoted(error, Some(placed(transform))))
                });
            }
            Some(Ok(())) => true,
            // No shape now: nothing to sweep, but the motion goes on.
            None => false,
        };
        if !shaped {
            self.shapeless.push((entity, end));
        }
        for (index, part) in built[first..].iter().enumerate() {
            self.moving.push(MovingObstacle::new(part.obstacle, motion));
            self.entities.push(entity);
            self.parts.push(PartOf {
                part: index as u32,
                ends: part.ends,
            });
            self.end_poses.push(end);
        }
        Ok(())
    }
}

/// The poses at the start and the end of the step, and the turn between them. A
/// velocity-driven obstacle turns by exactly `ω·dt`, which may exceed half a turn (a fast
/// spinner, or a low fixed rate): wrapping it into (−π, π] would sweep it the wrong way
/// round. Only a followed transform, which gives just two poses, is taken the shorter way.
fn poses(kinematic: Kinematic, current: Pose, previous: Option<Pose>, dt: f32) -> (Pose, Pose, f32) {
    match kinematic {
        Kinematic::Velocity { angular, linear } => {
            let turn = angular * dt;
            let end = Pose {
                translation: current.translation + linear * dt,
                angle: current.angle + turn,
            };
            (current, end, turn)
        }
        Kinematic::FollowTransform => {
            let start = previous.unwrap_or(current);
            (start, current, shortest_turn(current.angle - start.angle))
        }
    }
}

/// Put every kinematic body at its end-of-step pose, with a shape or without one. Runs
/// right after the step.
pub(crate) fn finish_kinematics(
    mut kinematics: ResMut<Kinematics>,
    mut transforms: Query<(&Kinematic, &mut Transform)>,
) {
    kinematics.finish(|entity, end| {
        if let Ok((kinematic, mut transform)) = transforms.get_mut(entity) {
            move_to(kinematic, &mut transform, end);
        }
    });
}

/// Put a body moved by `kinematic` at its end-of-step pose `end` (a followed body's
/// `Transform` is the game's, and stays).
pub(crate) fn move_to(kinematic: &Kinematic, transform: &mut Transform, end: Pose) {
    if matches!(kinematic, Kinematic::Velocity { .. }) {
        transform.translation.x = end.translation.x;
        transform.translation.y = end.translation.y;
        transform.rotation = Quat::from_rotation_z(end.angle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_turn_wraps() {
        assert!((shortest_turn(0.5) - 0.5).abs() < 1e-6);
        assert!((shortest_turn(TAU - 0.5) + 0.5).abs() < 1e-5);
        assert!((shortest_turn(-TAU + 0.25) - 0.25).abs() < 1e-5);
        assert_eq!(shortest_turn(PI), PI);
    }
}
