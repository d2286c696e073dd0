//! Hinged bodies: a [`Hinge`] turns its entity (and the [`HingePart`]s that point at it)
//! about the entity's origin, and the balls that hit it push it back. Each step the
//! plugin drives its spring, motor and damping ([`ccd_core::HingeDrive`]), hands its parts
//! to the sweep as one [`ccd_core::HingeBody`], and writes back the angle and angular
//! velocity the step left it with, and its `Transform`.

use crate::components::{CcdInvalid, Kinematic, placement_given, quoted};
use crate::hinge_body::{Hinge, HingePart, MAX_SPRING_OMEGA_DT};
use crate::kinematic::{Kinematics, Pose, shortest_turn};
use crate::query::{ObstacleParts, ObstaclePartsItem};
use crate::shape::Part;
use crate::world::PartOf;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{HingeBody, MovingObstacle, SegmentMotion, ShapeError};

/// `Ok` when `hinge`'s spring, if any, is stable for steps of `dt` seconds.
fn check_spring_step(hinge: &Hinge, dt: f32) -> Result<(), (&'static str, ShapeError)> {
    match hinge.spring {
        Some(s) if (s.stiffness / hinge.inertia).sqrt() * dt >= MAX_SPRING_OMEGA_DT => Err((
            "Hinge.spring",
            ShapeError::OutOfRange {
                field: "spring.stiffness",
                range: "below 4·inertia/dt² for the fixed step dt (ω·dt < 2, or the spring adds energy every step)",
            },
        )),
        _ => Ok(()),
    }
}

/// This step's hinged bodies: each body's entity and its first part's index among the
/// moving obstacles.
#[derive(Resource, Default, Debug)]
pub(crate) struct Hinges {
    bodies: Vec<(Entity, usize)>,
    parts: Vec<(Entity, Entity)>,
}

/// A hinge body: its state, its pose, whether it has a parent (it must not) or is marked bad.
type BodyParts<'a> = (
    Entity,
    &'a mut Hinge,
    &'a Transform,
    Has<ChildOf>,
    Has<CcdInvalid>,
);

/// A hinge's shape: its own or a [`HingePart`]'s.
pub(crate) type PartQuery<'w, 's> = Query<
    'w,
    's,
    (Entity, ObstacleParts, Option<&'static HingePart>),
    (Or<(With<Hinge>, With<HingePart>)>, Without<Kinematic>),
>;

/// What preparing the hinges writes: the step's moving obstacles, the hinges' list, and
/// the commands that mark bad entities.
#[derive(SystemParam)]
pub(crate) struct HingeOut<'w, 's> {
    kinematics: ResMut<'w, Kinematics>,
    hinges: ResMut<'w, Hinges>,
    commands: Commands<'w, 's>,
}

/// Drive every hinge and add its parts to this step's moving obstacles. Runs in
/// [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare), after the kinematic
/// obstacles.
pub(crate) fn prepare_hinges(
    time: Res<Time>,
    mut out: HingeOut,
    mut bodies: Query<BodyParts>,
    parts: PartQuery,
    mut built: Local<Vec<Part>>,
) {
    let dt = time.delta_secs();
    let HingeOut {
        kinematics,
        hinges,
        commands,
    } = &mut out;
    let Hinges {
        bodies: done,
        parts: list,
    } = &mut **hinges;
    done.clear();
    list.clear();
    list.extend(parts.iter().map(|(e, _, part)| (part.map_or(e, |p| p.0), e)));
    // Sorted by body, then part: each body's parts are one run, in a stable order.
    list.sort_unstable();
    for run in list.chunk_by(|x, y| x.0 == y.0) {
        let body_entity = run[0].0;
        let Ok((_, mut hinge, transform, parented, invalid)) = bodies.get_mut(body_entity) else {
            refuse_orphans(run, &parts, commands);
            continue;
        };
        if parented {
            crate::components::mark_invalid(
                commands,
                body_entity,
                invalid,
                "ChildOf",
                crate::components::PARENTED,
            );
            continue;
        }
        let placed = match place_body(&mut hinge, transform, done.len() as u32, dt) {
            Ok(placed) => placed,
            Err((field, error)) => {
                let reason = quoted(error, hinge.given(field));
                crate::components::mark_invalid(commands, body_entity, invalid, field, reason);
                continue;
            }
        };
        let first = kinematics.moving.len();
        for &(_, part) in run {
            if let Ok((_, p, _)) = parts.get(part) {
                add_part(part, &p, &placed, &mut built, kinematics, commands);
            }
        }
        if kinematics.moving.len() > first {
            done.push((body_entity, first));
        }
    }
}

/// Mark the parts of `run` bad: they point at an entity without a [`Hinge`], and would be
/// ghost walls.
fn refuse_orphans(run: &[(Entity, Entity)], parts: &PartQuery, commands: &mut Commands) {
    for &(_, part) in run {
        if let Ok((_, p, _)) = parts.get(part) {
            let error = ShapeError::OutOfRange {
                field: "HingePart",
                range: "an entity that has a Hinge",
            };
            crate::components::mark_invalid(commands, part, p.invalid, "HingePart", error);
        }
    }
}

/// The body `hinge` is this step (as body `id`), placed by `transform` and driven over
/// `dt` ([`drive`]), or the field that refuses it.
pub(crate) fn place_body(
    hinge: &mut Hinge,
    transform: &Transform,
    id: u32,
    dt: f32,
) -> Result<PlacedBody, (&'static str, ShapeError)> {
    hinge.validate().and_then(|()| check_spring_step(hinge, dt))?;
    let (body, motion) = drive(hinge, transform, id, dt);
    Ok(PlacedBody {
        pose: Pose::of(transform),
        scale: transform.scale.truncate(),
        body,
        motion,
    })
}

/// The body `hinge` is this step (as body `id`), after its drive over `dt`, and its
/// motion: its angle follows its `transform`'s, and its stops rest what arrives slower
/// than the drive's push of a step (no chatter).
fn drive(hinge: &mut Hinge, transform: &Transform, id: u32, dt: f32) -> (HingeBody, SegmentMotion) {
    let pose = Pose::of(transform);
    hinge.angle += shortest_turn(pose.angle - hinge.angle);
    let drive = hinge.drive();
    let mut body = hinge.body(id, hinge.angle);
    let resting = drive.resting_speed(&body, dt);
    if let Some(limits) = &mut body.limits {
        limits.resting_speed = resting;
    }
    hinge.angular_velocity = drive.angular_velocity_after(&body, hinge.angular_velocity, dt);
    let motion = SegmentMotion {
        pivot: pose.translation,
        angle: hinge.angular_velocity * dt,
        pivot_motion: Vec2::ZERO,
    };
    (body, motion)
}

/// A hinge body where it is this step: its pose and scale, the body and its motion.
pub(crate) struct PlacedBody {
    pose: Pose,
    scale: Vec2,
    body: HingeBody,
    motion: SegmentMotion,
}

/// Add part `part` (with components `p`) of the body `placed` to the step's moving
/// obstacles ([`push_part`]), or mark it bad.
fn add_part(
    part: Entity,
    p: &ObstaclePartsItem,
    placed: &PlacedBody,
    built: &mut Vec<Part>,
    kinematics: &mut Kinematics,
    commands: &mut Commands,
) {
    match push_part(part, p, placed, built, kinematics) {
        Ok(()) if p.invalid => {
            commands.entity(part).try_remove::<CcdInvalid>();
        }
        Ok(()) => {}
        Err((field, error)) => {
            let body = || {
                let PlacedBody { pose, scale, .. } = placed;
                let rotation = Quat::from_rotation_z(pose.angle);
                placement_given(pose.translation.extend(0.0), rotation, scale.extend(1.0))
            };
            let given = p.given(field).or_else(|| (field == "Transform").then(body));
            crate::components::mark_invalid(commands, part, p.invalid, field, quoted(error, given));
        }
    }
}

/// Add part `part` (with components `p`) of the body `placed` to the step's moving
/// obstacles, each shape of it one ([`Kinematics::push_hinged`]); or the field that
/// refuses it.
pub(crate) fn push_part(
    part: Entity,
    p: &ObstaclePartsItem,
    placed: &PlacedBody,
    built: &mut Vec<Part>,
    kinematics: &mut Kinematics,
) -> Result<(), (&'static str, ShapeError)> {
    if p.segment.is_none() && p.shape.is_none() {
        let error = ShapeError::ZeroLength {
            field: "StaticSegment",
        };
        return Err(("HingePart (needs a StaticSegment or a CcdShape)", error));
    }
    let PlacedBody {
        pose,
        scale,
        body,
        motion,
    } = *placed;
    let place = |local: Vec2| pose.place(local, scale);
    built.clear();
    match p.build(&pose.placement(&place, scale), pose.translation, built) {
        Some(Ok(())) => {
            for (index, built) in built.iter().enumerate() {
                let moving = MovingObstacle::new(built.obstacle, motion).with_hinge(body);
                let of = PartOf {
                    part: index as u32,
                    ends: built.ends,
                };
                kinematics.push_hinged(part, of, moving);
            }
            Ok(())
        }
        Some(Err(fault)) => Err(fault),
        None => Ok(()),
    }
}

/// The angle and angular velocity a hinge body whose first part is `m` ends a step of
/// `dt` with, if both are finite.
pub(crate) fn turned(m: &MovingObstacle, dt: f32) -> Option<(f32, f32)> {
    let (Some(angle), spin) = (m.end_angle(), m.angular_velocity(dt)) else {
        return None;
    };
    (angle.is_finite() && spin.is_finite()).then_some((angle, spin))
}

/// Write back each hinge's angle, angular velocity and pose, and put its parts on it.
/// Runs right after the step.
pub(crate) fn finish_hinges(
    time: Res<Time>,
    kinematics: Res<Kinematics>,
    hinges: Res<Hinges>,
    mut bodies: Query<(&mut Hinge, &mut Transform), Without<HingePart>>,
    mut part_transforms: Query<&mut Transform, (With<HingePart>, Without<Hinge>)>,
) {
    let dt = time.delta_secs();
    for &(entity, first) in &hinges.bodies {
        let Some(m) = kinematics.moving.get(first) else {
            continue;
        };
        let Ok((mut hinge, mut transform)) = bodies.get_mut(entity) else {
            continue;
        };
        let Some((angle, spin)) = turned(m, dt) else {
            continue;
        };
        hinge.angle = angle;
        hinge.angular_velocity = spin;
        transform.rotation = Quat::from_rotation_z(angle);
    }
    for &(body, part) in &hinges.parts {
        if body == part {
            continue;
        }
        let (Ok((_, body_transform)), Ok(mut t)) = (bodies.get(body), part_transforms.get_mut(part)) else {
            continue;
        };
        t.translation.x = body_transform.translation.x;
        t.translation.y = body_transform.translation.y;
        t.rotation = body_transform.rotation;
        t.scale = body_transform.scale;
    }
}
