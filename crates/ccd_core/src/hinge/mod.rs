//! Hinged bodies: a segment (or several, and pillars) that turns about a fixed pivot with
//! its own angular velocity, which a ball changes on impact. Spinners, one-way gates and
//! motorised flippers.
//!
//! | question | answer |
//! |---|---|
//! | what a hinge is made of: inertia, angle, limits | [`HingeBody`], [`HingeLimits`] (this file) |
//! | what an impact does to the ball and the hinge | [`hinge_impulse`] (`impulse.rs`) |
//! | spring, motor and damping between steps | [`HingeDrive`] (`drive.rs`) |
//! | how [`step_balls`](crate::step_balls) sweeps it | `multiball/hinges.rs` |
//!
//! **The model.** Within a step a hinge turns at a constant angular velocity, which
//! changes only at an instant: when a ball hits it (the impulse exchange of
//! [`hinge_impulse`]) or when it reaches an angle limit (it stops, or bounces back with
//! the limit's restitution). From that instant the rest of the step is swept against the
//! new motion, so no contact is ever late. Between steps the spring, the motor and the
//! damping change the angular velocity ([`HingeDrive::angular_velocity_after`]), as a
//! pinball simulator's hit loop does between its ticks.
//!
//! A hinge against one of its limits and pushed further into it by a ball is held by the
//! stop: the stop is part of the same contact as the ball (`instant.rs`), so the
//! hinge is as solid as a wall there, and neither it nor the ball gains energy. That is
//! what makes a one-way gate.

mod drive;
mod impulse;

pub use drive::{HingeDrive, HingeMotor, HingeSpring};
pub use impulse::{HingeContact, HingeImpulse, hinge_impulse};

use crate::shape::ShapeError;
use crate::tolerance::HINGE_LIMIT_SLOP;

/// Where a hinge stops turning: the range of its angle, and how it bounces off either end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeLimits {
    /// The lowest angle, radians (counter-clockwise, the same measure as
    /// [`HingeBody::angle`]).
    pub min: f32,
    /// The highest angle, radians; at least `min`.
    pub max: f32,
    /// The angular velocity after hitting a limit is `−restitution` times the one before
    /// (0: it stops there). Dimensionless, at least 0.
    pub restitution: f32,
    /// Radians per second, at least 0. A body that reaches a limit slower than this stops
    /// there instead of bouncing: a resting contact, as a ball's
    /// [`resting_speed`](crate::MultiballSettings::resting_speed). Set it to what the
    /// body's spring or motor adds in a step ([`HingeDrive::resting_speed`]): a body held
    /// against its stop by its drive would otherwise bounce off it, be pushed back in the
    /// next step, and chatter for ever. Default 0: every hit bounces.
    pub resting_speed: f32,
}

impl HingeLimits {
    /// Limits from `min` to `max` radians that stop the hinge dead.
    #[inline]
    #[must_use]
    pub const fn new(min: f32, max: f32) -> Self {
        Self {
            min,
            max,
            restitution: 0.0,
            resting_speed: 0.0,
        }
    }

    /// With `restitution` at both ends.
    #[inline]
    #[must_use]
    pub const fn with_restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    /// With `resting_speed` radians per second.
    #[inline]
    #[must_use]
    pub const fn with_resting_speed(mut self, resting_speed: f32) -> Self {
        self.resting_speed = resting_speed;
        self
    }

    /// Whether a hinge at `angle`, turning (or pushed) the way of `direction`'s sign, presses
    /// into a limit it touches (within [`HINGE_LIMIT_SLOP`]).
    ///
    /// ```
    /// use ccd_core::HingeLimits;
    /// let gate = HingeLimits::new(0.0, 1.5);
    /// assert!(gate.blocks(0.0, -1.0), "at its rest stop, pushed back");
    /// assert!(!gate.blocks(0.0, 1.0), "at its rest stop, pushed open");
    /// assert!(!gate.blocks(0.7, -1.0), "halfway");
    /// ```
    #[inline]
    #[must_use]
    pub fn blocks(&self, angle: f32, direction: f32) -> bool {
        (direction > 0.0 && angle >= self.max - HINGE_LIMIT_SLOP)
            || (direction < 0.0 && angle <= self.min + HINGE_LIMIT_SLOP)
    }

    /// The limit a hinge at `angle` turning at `rate` (radians per step) reaches first,
    /// from step fraction `since` to 1, on the way it turns: `(fraction, limit angle)`. A
    /// hinge already at or past the limit it turns towards reaches it at `since`.
    #[must_use]
    pub(crate) fn next_hit(&self, angle_at_zero: f32, rate: f32, since: f32) -> Option<(f32, f32)> {
        let limit = if rate > 0.0 {
            self.max
        } else if rate < 0.0 {
            self.min
        } else {
            return None;
        };
        let at = ((limit - angle_at_zero) / rate).max(since);
        (at <= 1.0 && at.is_finite()).then_some((at, limit))
    }

    fn validate(&self) -> Result<(), ShapeError> {
        if !(self.min.is_finite() && self.max.is_finite()) {
            return Err(ShapeError::NonFinite { field: "limits" });
        }
        // The range `max − min` must not be negative.
        ShapeError::non_negative("limits (max − min)", self.max - self.min)?;
        ShapeError::non_negative("limit restitution", self.restitution)?;
        ShapeError::non_negative("limit resting speed", self.resting_speed)
    }
}

/// What makes a [`MovingObstacle`](crate::MovingObstacle) a hinged body: the ball can push
/// it. Its [`SegmentMotion`](crate::SegmentMotion) is its turn at the step's start (`angle
/// = ω·dt` about `pivot`; a hinge's pivot does not slide), and
/// [`step_balls`](crate::step_balls) leaves its turn and shape updated to what happened in
/// the step: read the end state with [`MovingObstacle::angular_velocity`](crate::MovingObstacle::angular_velocity)
/// and [`MovingObstacle::end_angle`](crate::MovingObstacle::end_angle).
///
/// Several obstacles with the same `id` are parts of one body (a flipper's faces and tip):
/// they turn together, and share one inertia and one angle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeBody {
    /// Which body the part belongs to, among the step's moving obstacles.
    pub id: u32,
    /// `1 / I`, the inverse moment of inertia about the pivot, in 1 / (mass · length²) with
    /// the balls' mass ([`Ball::inverse_mass`](crate::Ball::inverse_mass)) and the world's
    /// length. 0 makes it kinematic: it moves balls, and balls never move it.
    pub inverse_inertia: f32,
    /// The body's angle at the step's start, radians, counter-clockwise: the measure its
    /// limits are in. The caller picks the zero (a flipper's rest, say).
    pub angle: f32,
    /// Optional stops.
    pub limits: Option<HingeLimits>,
}

impl HingeBody {
    /// A free body `id` with inertia `inertia` (mass · length²) at `angle` radians. A
    /// non-positive or non-finite inertia is refused by [`HingeBody::validate`].
    ///
    /// ```
    /// use ccd_core::HingeBody;
    /// let spinner = HingeBody::new(7, 0.5, 0.0);
    /// assert_eq!(spinner.inverse_inertia, 2.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn new(id: u32, inertia: f32, angle: f32) -> Self {
        Self {
            id,
            inverse_inertia: 1.0 / inertia,
            angle,
            limits: None,
        }
    }

    /// With `limits`.
    #[inline]
    #[must_use]
    pub const fn with_limits(mut self, limits: HingeLimits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// `Ok` when every field is usable: a finite angle, a finite non-negative inverse
    /// inertia, limits with `min <= max` and a non-negative restitution.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !self.angle.is_finite() {
            return Err(ShapeError::NonFinite { field: "angle" });
        }
        ShapeError::non_negative("inverse_inertia", self.inverse_inertia)?;
        match self.limits {
            Some(l) => l.validate(),
            None => Ok(()),
        }
    }

    /// Whether a limit holds the body at `angle` against a push the way of `direction`.
    #[inline]
    #[must_use]
    pub fn held(&self, angle: f32, direction: f32) -> bool {
        self.limits.is_some_and(|l| l.blocks(angle, direction))
    }
}
