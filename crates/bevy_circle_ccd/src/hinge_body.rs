//! [`Hinge`] and [`HingePart`]: the components of a body that turns about its entity's
//! origin when balls push it (a spinner, a one-way gate, a motorised flipper), with its
//! [`HingeStops`]. The systems that drive hinged bodies each step are in `hinge.rs`.

use crate::remote::{OptionalHingeMotor, OptionalHingeSpring};
use bevy::prelude::*;
use ccd_core::{HingeBody, HingeDrive, HingeMotor, HingeSpring, ShapeError};

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

    /// The value written in `field` ([`validate`](Self::validate)'s names), to quote back
    /// in a refusal.
    pub(crate) fn given(&self, field: &str) -> Option<String> {
        Some(match field {
            "Hinge.inertia" => self.inertia.to_string(),
            "Hinge.angular_velocity" => self.angular_velocity.to_string(),
            "Hinge.angle" => self.angle.to_string(),
            "Hinge.damping" => self.damping.to_string(),
            "Hinge.spring" => format!("{:?}", self.spring?),
            "Hinge.stops" => format!("{:?}", self.stops?),
            "Hinge.motor" => format!("{:?}", self.motor?),
            _ => return None,
        })
    }

    /// The core's body for this hinge, as part `id`, at `angle`.
    pub(crate) fn body(&self, id: u32, angle: f32) -> HingeBody {
        let body = HingeBody::new(id, self.inertia, angle);
        match self.stops {
            Some(s) => {
                body.with_limits(ccd_core::HingeLimits::new(s.min, s.max).with_restitution(s.restitution))
            }
            None => body,
        }
    }

    /// The core's drive for this hinge.
    pub(crate) fn drive(&self) -> HingeDrive {
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

/// Another shape of the [`Hinge`] on entity `.0`: its [`StaticSegment`](crate::StaticSegment)
/// is in that body's local space, and the plugin keeps its `Transform` on the body's.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub struct HingePart(pub Entity);
