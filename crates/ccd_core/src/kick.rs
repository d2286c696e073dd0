//! [`Kick`]: an active surface that fires at the instant of impact (a pop bumper, a
//! slingshot, a kicker).
//!
//! When a ball meets it faster than `threshold` along the normal, the ball leaves with
//! the normal speed `max(e·v_in, min_out) + speed` instead of `e·v_in`, and spends the rest
//! of the step on that velocity: the kick is part of the contact response, not a patch
//! applied after the step. Friction sees the whole normal change, as for any bounce.
//!
//! Where the kick does not fire: slower approaches (at or below `threshold`); contacts
//! resolved as one with a second surface (a corner or a squeeze, where the kick would
//! push the ball into the other surface); resting contacts of `step_balls`' resting solve
//! (slower than its resting speed by definition); and ball–ball contacts.

use crate::shape::ShapeError;

/// A kick at the instant of impact, in world units per second. The default
/// ([`Kick::NONE`]) never fires and leaves every bounce as it was.
///
/// ```
/// use ccd_core::{reflect, Kick, Material, Vec2};
/// // A bumper (e = 0.5) that sends a ball away at 600 or more, plus 100.
/// let bumper = Material::new(0.5, 0.0).with_kick(Kick::new(50.0, 600.0, 100.0));
/// // In at 400: max(0.5·400, 600) + 100 = 700 out.
/// assert_eq!(reflect(Vec2::new(0.0, -400.0), Vec2::Y, bumper, 0.0), Vec2::new(0.0, 700.0));
/// // In at 40, below the threshold of 50: a plain bounce, 0.5·40 = 20 out.
/// assert_eq!(reflect(Vec2::new(0.0, -40.0), Vec2::Y, bumper, 0.0), Vec2::new(0.0, 20.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kick {
    /// Approach speed along the normal above which the surface fires, units/s (`≥ 0`).
    pub threshold: f32,
    /// The least normal speed the ball leaves with when it fires, units/s (`≥ 0`).
    pub min_out: f32,
    /// Normal speed added when it fires, on top of `max(e·v_in, min_out)`, units/s
    /// (`≥ 0`).
    pub speed: f32,
}

impl Kick {
    /// Never fires.
    pub const NONE: Self = Self::new(0.0, 0.0, 0.0);

    /// Fires above `threshold`, leaving at `max(e·v_in, min_out) + speed`.
    #[inline]
    #[must_use]
    pub const fn new(threshold: f32, min_out: f32, speed: f32) -> Self {
        Self {
            threshold,
            min_out,
            speed,
        }
    }

    /// Whether it can ever fire: some `min_out` or `speed` (bad values count as 0).
    #[inline]
    #[must_use]
    pub fn is_active(self) -> bool {
        usable(self.min_out) > 0.0 || usable(self.speed) > 0.0
    }

    /// Whether it fires for a ball approaching at `approach` units/s along the normal.
    #[inline]
    #[must_use]
    pub fn fires(self, approach: f64) -> bool {
        self.is_active() && approach > f64::from(usable(self.threshold))
    }

    /// The outgoing normal speed of a ball approaching at `approach` through a contact of
    /// restitution `e`: `max(e·approach, min_out) + speed` when it fires, else
    /// `e·approach`.
    #[inline]
    #[must_use]
    pub fn outgoing(self, approach: f64, e: f64) -> f64 {
        let bounce = e * approach;
        if self.fires(approach) {
            bounce.max(f64::from(usable(self.min_out))) + f64::from(usable(self.speed))
        } else {
            bounce
        }
    }

    /// The normal speed the kick adds to a bounce of restitution `e` at `approach`
    /// (0 when it does not fire), as a contact reports it.
    #[inline]
    #[must_use]
    pub fn added(self, approach: f32, e: f32) -> f32 {
        let (a, e) = (f64::from(approach), f64::from(usable(e)));
        (self.outgoing(a, e) - e * a) as f32
    }

    /// The first field that is negative or not finite.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeRadius`] (a negative speed)
    /// naming `kick.threshold`, `kick.min_out` or `kick.speed`.
    pub fn validate(&self) -> Result<(), ShapeError> {
        ShapeError::non_negative("kick.threshold", self.threshold)?;
        ShapeError::non_negative("kick.min_out", self.min_out)?;
        ShapeError::non_negative("kick.speed", self.speed)
    }
}

impl Default for Kick {
    fn default() -> Self {
        Self::NONE
    }
}

/// A non-negative finite value, or 0: a bad kick never fires or adds NaN.
#[inline]
fn usable(x: f32) -> f32 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_changes_nothing() {
        for approach in [0.0, 1e-3, 1.0, 500.0, 1e6] {
            for e in [0.0, 0.5, 1.0] {
                assert_eq!(Kick::NONE.outgoing(approach, e), e * approach);
            }
        }
        assert!(!Kick::NONE.fires(1e9));
    }

    #[test]
    fn hand_computed_outgoing_speeds() {
        let k = Kick::new(100.0, 800.0, 250.0);
        // Above the threshold: max(0.6·1000, 800) + 250 = 1050; max(0.6·2000, 800) + 250 = 1450.
        assert_eq!(k.outgoing(1000.0, 0.6), 1050.0);
        assert_eq!(k.outgoing(2000.0, 0.6), 1450.0);
        // At the threshold it does not fire: 0.6·100 = 60.
        assert!((k.outgoing(100.0, 0.6) - 60.0).abs() < 1e-9);
        assert!((k.added(1000.0, 0.6) - 450.0).abs() < 1e-3);
        assert_eq!(k.added(50.0, 0.6), 0.0);
    }

    #[test]
    fn bad_fields_are_named_and_never_fire() {
        let k = Kick::new(f32::NAN, -1.0, f32::INFINITY);
        assert_eq!(
            k.validate(),
            Err(ShapeError::NonFinite {
                field: "kick.threshold"
            })
        );
        assert_eq!(
            Kick::new(0.0, -1.0, 0.0).validate(),
            Err(ShapeError::NegativeRadius {
                field: "kick.min_out"
            })
        );
        assert!(!k.is_active());
        assert_eq!(k.outgoing(10.0, 1.0), 10.0);
    }
}
