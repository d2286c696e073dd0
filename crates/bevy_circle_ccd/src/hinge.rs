//! Hinged bodies: a [`Hinge`] turns its entity (and the [`HingePart`]s that point at it)
//! about the entity's origin, and the balls that hit it push it back. Each step the
//! plugin drives its spring, motor and damping ([`ccd_core::HingeDrive`]), hands its parts
//! to the sweep as one [`ccd_core::HingeBody`], and writes back the angle and angular
//! velocity the step left it with, and its `Transform`.

use crate::kinematic::{Kinematics, Pose, shortest_turn};
use crate::query::{ObstacleParts, ObstaclePartsItem};
use crate::remote::{OptionalHingeMotor, OptionalHingeSpring};
use crate::shape::Part;
use crate::world::PartOf;
use crate::{CcdInvalid, Kinematic};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{HingeBody, HingeDrive, HingeMotor, HingeSpring, MovingObstacle, SegmentMotion, ShapeError};

/// Stops at both ends of a hinge's travel.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct HingeStops {
    /// Lowest angle, radians (the measure of [`Hinge::angle`]).
    pub min: f32,
    /// Highest angle, radians.
    pub max: f32,
    /// Angular velocity after a stop is `−restitution` times the one before (0: it stops).
    pub restitution: f32,
}

/// A body that turns about its entity's origin and that balls push: a spinner, a one-way
/// gate, a motorised flipper. Put it on a root entity with a [`StaticSegment`](crate::StaticSegment)
/// (its own shape, in its local space), add more shapes as entities with a [`HingePart`]
/// pointing at it, and read [`Hinge::angle`] and [`Hinge::angular_velocity`] after each step.
///
/// Masses are those of [`CcdMass`](crate::CcdMass) (by default a ball's area), so an
/// `inertia` of `m·L²/3` is a rod of mass `m` and length `L` turning about one end.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
/// // A ball of mass 1 falls at 100 onto a free arm of inertia 2,500, 50 from its pivot:
/// // J = 2·100 / (1/1 + 50²/2500) = 100, so the ball stops and the arm turns at
/// // ω = −50·J/2500 = −2 rad/s (clockwise).
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, TransformPlugin, CircleCcdPlugin::default()))
///     .insert_resource(Time::<Fixed>::from_hz(100.0))
///     .insert_resource(bevy::time::TimeUpdateStrategy::FixedTimesteps(1));
/// let arm = app.world_mut().spawn((StaticSegment::new(Vec2::ZERO, Vec2::new(100.0, 0.0)), Hinge::new(2500.0), Transform::default())).id();
/// app.world_mut().spawn((MovingCircle::new(1.0, Vec2::new(0.0, -100.0)), CcdMass(1.0), Transform::from_xyz(50.0, 1.5, 0.0)));
/// for _ in 0..3 {
///     app.update();
/// }
/// let hinge = app.world().get::<Hinge>(arm).unwrap();
/// assert!((hinge.angular_velocity + 2.0).abs() < 1e-3);
/// assert!(hinge.angle < 0.0, "it turned down: {}", hinge.angle);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub struct Hinge {
    /// Moment of inertia about the pivot, mass · length². Must be above 0.
    pub inertia: f32,
    /// Angular velocity, radians per second, counter-clockwise. The plugin sets it after
    /// every step; set it yourself to spin the body.
    pub angular_velocity: f32,
    /// The angle of the `Transform`'s rotation, radians, counting whole turns (a spinner's
    /// angle grows without wrapping). The plugin sets it after every step from the
    /// rotation, which stays the authority: turn the `Transform` to move the body.
    pub angle: f32,
    /// Angular damping, 1/s.
    pub damping: f32,
    /// Optional stops.
    pub stops: Option<HingeStops>,
    /// Optional spring.
    #[reflect(remote = OptionalHingeSpring)]
    pub spring: Option<HingeSpring>,
    /// Optional motor.
    #[reflect(remote = OptionalHingeMotor)]
    pub motor: Option<HingeMotor>,
}

impl Hinge {
    /// A free body of moment of inertia `inertia`, at rest.
    #[must_use]
    pub const fn new(inertia: f32) -> Self {
        Self {
            inertia,
            angular_velocity: 0.0,
            angle: 0.0,
            damping: 0.0,
            stops: None,
            spring: None,
            motor: None,
        }
    }

    /// With `damping` (1/s).
    #[must_use]
    pub const fn with_damping(mut self, damping: f32) -> Self {
        self.damping = damping;
        self
    }

    /// With stops at `min` and `max` radians, bouncing with `restitution`.
    #[must_use]
    pub const fn with_stops(mut self, min: f32, max: f32, restitution: f32) -> Self {
        self.stops = Some(HingeStops {
            min,
            max,
            restitution,
        });
        self
    }

    /// With a spring towards `rest_angle` of `stiffness` per radian.
    #[must_use]
    pub const fn with_spring(mut self, rest_angle: f32, stiffness: f32) -> Self {
        self.spring = Some(HingeSpring {
            rest_angle,
            stiffness,
        });
        self
    }

    /// With a motor towards `target_speed` of at most `max_torque`.
    #[must_use]
    pub const fn with_motor(mut self, target_speed: f32, max_torque: f32) -> Self {
        self.motor = Some(HingeMotor {
            target_speed,
            max_torque,
        });
        self
    }

    /// `Ok`, or the field at fault: an inertia that is not positive and finite with a finite
    /// inverse, a negative
    /// damping or spring stiffness, stops with `max < min` or a stop restitution outside
    /// `0..=1`, anything not finite. (A spring too stiff for the fixed step is refused
    /// when the step's length is known: see [`MAX_SPRING_OMEGA_DT`].)
    pub fn validate(&self) -> Result<(), (&'static str, ShapeError)> {
        let finite = |field: &'static str, v: f32| {
            if v.is_finite() {
                Ok(())
            } else {
                Err((field, ShapeError::NonFinite { field }))
            }
        };
        crate::components::check_mass("inertia", self.inertia).map_err(|e| ("Hinge.inertia", e))?;
        finite("Hinge.angular_velocity", self.angular_velocity)?;
        finite("Hinge.angle", self.angle)?;
        ShapeError::non_negative("damping", self.damping).map_err(|e| ("Hinge.damping", e))?;
        if let Some(s) = self.spring {
            finite("Hinge.spring", s.rest_angle + s.stiffness)?;
            ShapeError::non_negative("spring.stiffness", s.stiffness).map_err(|e| ("Hinge.spring", e))?;
        }
        if let Some(s) = self.stops
            && !(0.0..=1.0).contains(&s.restitution)
        {
            let error = ShapeError::OutOfRange {
                field: "stops.restitution",
                range: "in 0..=1 (above 1 a stop would add energy)",
            };
            return Err(("Hinge.stops", error));
        }
        if let Some(m) = self.motor {
            finite("Hinge.motor", m.target_speed + m.max_torque)?;
        }
        self.body(0, self.angle)
            .validate()
            .map_err(|e| ("Hinge.stops", e))
    }

    /// The core's body for this hinge, as part `id`, at `angle`.
    fn body(&self, id: u32, angle: f32) -> HingeBody {
        let body = HingeBody::new(id, self.inertia, angle);
        match self.stops {
            Some(s) => {
                body.with_limits(ccd_core::HingeLimits::new(s.min, s.max).with_restitution(s.restitution))
            }
            None => body,
        }
    }

    /// The core's drive for this hinge.
    fn drive(&self) -> HingeDrive {
        HingeDrive {
            damping: self.damping,
            spring: self.spring,
            motor: self.motor,
        }
    }
}

/// The spring's stability bound. The spring is applied once per step (semi-implicit
/// Euler), which is stable only while `ω·dt < 2`, with `ω = √(stiffness / inertia)` the
/// spring's angular frequency; at or past it every step adds energy and the body swings
/// ever wider. A hinge whose spring reaches it for the current fixed step is refused with
/// a warning naming `Hinge.spring`.
pub const MAX_SPRING_OMEGA_DT: f32 = 2.0;

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

/// Another shape of the [`Hinge`] on entity `.0`: its [`StaticSegment`](crate::StaticSegment)
/// is in that body's local space, and the plugin keeps its `Transform` on the body's.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub struct HingePart(pub Entity);

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
type PartQuery<'w, 's> = Query<
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
            crate::mark_invalid(commands, body_entity, invalid, "ChildOf", crate::PARENTED);
            continue;
        }
        if let Err((field, error)) = hinge.validate().and_then(|()| check_spring_step(&hinge, dt)) {
            crate::mark_invalid(commands, body_entity, invalid, field, error);
            continue;
        }
        let (body, motion) = drive(&mut hinge, transform, done.len() as u32, dt);
        let first = kinematics.moving.len();
        let placed = PlacedBody {
            pose: Pose::of(transform),
            scale: transform.scale.truncate(),
            body,
            motion,
        };
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
            crate::mark_invalid(commands, part, p.invalid, "HingePart", error);
        }
    }
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
struct PlacedBody {
    pose: Pose,
    scale: Vec2,
    body: HingeBody,
    motion: SegmentMotion,
}

/// Add part `part` (with components `p`) of the body `placed` to the step's moving
/// obstacles, each shape of it one ([`Kinematics::push_hinged`]), or mark it bad.
fn add_part(
    part: Entity,
    p: &ObstaclePartsItem,
    placed: &PlacedBody,
    built: &mut Vec<Part>,
    kinematics: &mut Kinematics,
    commands: &mut Commands,
) {
    if p.segment.is_none() && p.shape.is_none() {
        let error = ShapeError::ZeroLength {
            field: "StaticSegment",
        };
        let field = "HingePart (needs a StaticSegment or a CcdShape)";
        crate::mark_invalid(commands, part, p.invalid, field, error);
        return;
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
            if p.invalid {
                commands.entity(part).try_remove::<CcdInvalid>();
            }
            for (index, built) in built.iter().enumerate() {
                let moving = MovingObstacle::new(built.obstacle, motion).with_hinge(body);
                let of = PartOf {
                    part: index as u32,
                    ends: built.ends,
                };
                kinematics.push_hinged(part, of, moving);
            }
        }
        Some(Err((field, error))) => crate::mark_invalid(commands, part, p.invalid, field, error),
        None => {}
    }
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
        let (Some(angle), spin) = (m.end_angle(), m.angular_velocity(dt)) else {
            continue;
        };
        if !(angle.is_finite() && spin.is_finite()) {
            continue;
        }
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
