//! What turns a hinge between steps: a spring towards a rest angle, a motor with a torque
//! limit, and damping.

use super::HingeBody;
use crate::tolerance::HINGE_RESTING_PUSHES;

/// A torsion spring towards `rest_angle`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeSpring {
    /// The angle it pulls towards, radians.
    pub rest_angle: f32,
    /// Torque per radian away from rest (mass · length² / s² per radian).
    pub stiffness: f32,
}

/// A motor that drives the body towards `target_speed` with at most `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeMotor {
    /// Angular velocity it drives towards, radians per second.
    pub target_speed: f32,
    /// The largest torque it gives, mass · length² / s².
    pub max_torque: f32,
}

/// Spring, motor and damping of a hinged body, applied once per step before the sweep.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HingeDrive {
    /// Angular damping, 1/s: with nothing else acting, `ω(t) = ω₀·e^(−damping·t)`, so a
    /// body set turning at `ω₀` turns `ω₀ / damping` radians in all.
    pub damping: f32,
    /// Optional spring.
    pub spring: Option<HingeSpring>,
    /// Optional motor.
    pub motor: Option<HingeMotor>,
}

impl HingeDrive {
    /// The angular velocity a body at `angle` turning at `angular_velocity` should have
    /// over the next step of `dt` seconds: the spring's torque over `dt` (semi-implicit
    /// Euler), then the damping's exact decay `e^(−damping·dt)`, then the motor's torque
    /// (as much as reaches its target, at most its limit). A body held by one of its
    /// limits does not turn further into it. Kinematic bodies (`inverse_inertia` 0) keep
    /// their speed except for the damping.
    ///
    /// ```
    /// use ccd_core::{HingeBody, HingeDrive, HingeMotor};
    /// // Inertia 2, a motor of 10 towards 100 rad/s: it gains 10/2 rad/s² · 0.01 s = 0.05
    /// // rad/s per step of 10 ms.
    /// let body = HingeBody::new(0, 2.0, 0.0);
    /// let drive = HingeDrive { motor: Some(HingeMotor { target_speed: 100.0, max_torque: 10.0 }), ..Default::default() };
    /// assert!((drive.angular_velocity_after(&body, 0.0, 0.01) - 0.05).abs() < 1e-6);
    /// ```
    #[must_use]
    pub fn angular_velocity_after(&self, body: &HingeBody, angular_velocity: f32, dt: f32) -> f32 {
        if !(dt > 0.0) || !angular_velocity.is_finite() {
            return if angular_velocity.is_finite() {
                angular_velocity
            } else {
                0.0
            };
        }
        let inv_i = body.inverse_inertia.max(0.0);
        let mut w = angular_velocity;
        if let Some(spring) = self.spring {
            w -= spring.stiffness * (body.angle - spring.rest_angle) * inv_i * dt;
        }
        if self.damping > 0.0 {
            w *= (-self.damping * dt).exp();
        }
        if let Some(motor) = self.motor
            && inv_i > 0.0
        {
            let wanted = (motor.target_speed - w) / (inv_i * dt);
            let torque = wanted.clamp(-motor.max_torque.abs(), motor.max_torque.abs());
            w += torque * inv_i * dt;
        }
        if body.held(body.angle, w) || !w.is_finite() {
            0.0
        } else {
            w
        }
    }

    /// The slowest limit hit that should bounce, radians per second: for
    /// [`HingeLimits::resting_speed`](crate::HingeLimits::resting_speed).
    /// [`HINGE_RESTING_PUSHES`] times the most the spring and the motor add to the angular
    /// velocity in one step of `dt` seconds, at either limit, from rest.
    ///
    /// ```
    /// use ccd_core::{HingeBody, HingeDrive, HingeLimits, HingeSpring, HINGE_RESTING_PUSHES};
    /// // Inertia 1000 on stops 0..1.6, a spring of 9e5 towards −0.2: at the stop at 0 it
    /// // pushes 9e5 · 0.2 / 1000 · (1/60) = 3 rad/s in a step of 1/60 s (at 1.6, 27).
    /// let body = HingeBody::new(0, 1000.0, 0.0).with_limits(HingeLimits::new(0.0, 1.6));
    /// let drive = HingeDrive { spring: Some(HingeSpring { rest_angle: -0.2, stiffness: 9e5 }), ..Default::default() };
    /// let resting = drive.resting_speed(&body, 1.0 / 60.0);
    /// assert!((resting - HINGE_RESTING_PUSHES * 27.0).abs() < 1e-3);
    /// ```
    #[must_use]
    pub fn resting_speed(&self, body: &HingeBody, dt: f32) -> f32 {
        let (Some(limits), true) = (body.limits, dt > 0.0) else {
            return 0.0;
        };
        let inv_i = body.inverse_inertia.max(0.0);
        let push = |angle: f32| {
            let spring = self
                .spring
                .map_or(0.0, |s| (s.stiffness * (angle - s.rest_angle)).abs());
            let motor = self.motor.map_or(0.0, |m| m.max_torque.abs());
            (spring + motor) * inv_i * dt
        };
        let most = push(limits.min).max(push(limits.max));
        if most.is_finite() {
            HINGE_RESTING_PUSHES * most
        } else {
            0.0
        }
    }
}
