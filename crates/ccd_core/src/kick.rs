//! [`Kick`]: an active surface that fires at the instant of impact (a pop bumper, a
//! slingshot, a kicker).
//!
//! When a ball meets it faster than `threshold` along the normal, the ball leaves with
//! the normal speed `max(e·v_in, min_out) + speed` instead of `e·v_in`, and spends the rest
//! of the step on that velocity: the kick is part of the contact response, not a patch
//! applied after the step. Friction sees the whole normal change, as for any bounce.
//!
//! A kick may also scale the ball's speed ([`Kick::speed_scale`], [`Kick::scaling`]): when
//! it fires, the whole outgoing velocity relative to the surface (the kicked normal part
//! and the tangential part after friction) is multiplied by it. Against a still wall that
//! is the ball's speed: "every block makes the ball 5% faster" is `Kick::scaling(0.0,
//! 1.05)`, and the ball flies the rest of the step at the new speed.
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
///
/// // A block that makes the ball 50% faster on every hit: an elastic bounce of (3, −4)
/// // is (3, 4), times 1.5 = (4.5, 6).
/// let block = Material::ELASTIC.with_kick(Kick::scaling(0.0, 1.5));
/// assert_eq!(reflect(Vec2::new(3.0, -4.0), Vec2::Y, block, 0.0), Vec2::new(4.5, 6.0));
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
    /// When it fires, the whole outgoing velocity relative to the surface (the normal part
    /// after `min_out` and `speed`, the tangential part after friction) is multiplied by
    /// this (`> 0`; 1 leaves it as it is, 1.05 is 5% faster). A bad value (not finite, or
    /// not above 0) counts as 1.
    pub speed_scale: f32,
}

/// The speed scale that leaves the outgoing velocity as it is (a factor, no unit).
const UNSCALED: f32 = 1.0;

impl Kick {
    /// Never fires.
    pub const NONE: Self = Self::new(0.0, 0.0, 0.0);

    /// Fires above `threshold`, leaving at `max(e·v_in, min_out) + speed`, unscaled
    /// (`speed_scale` 1).
    #[inline]
    #[must_use]
    pub const fn new(threshold: f32, min_out: f32, speed: f32) -> Self {
        Self {
            threshold,
            min_out,
            speed,
            speed_scale: UNSCALED,
        }
    }

    /// A pure speed scale: above `threshold` the ball leaves with its plain bounce (and
    /// friction) times `scale`, relative to the surface; `min_out` and `speed` are 0.
    /// `Kick::scaling(0.0, 1.05)` makes every hit 5% faster.
    /// A ball that rolls on a surface scaling at any approach is scaled at every touch:
    /// give such a surface a `threshold` above its rolling bounces.
    #[inline]
    #[must_use]
    pub const fn scaling(threshold: f32, scale: f32) -> Self {
        Self::new(threshold, 0.0, 0.0).with_speed_scale(scale)
    }

    /// With `speed_scale` set to `scale`.
    #[inline]
    #[must_use]
    pub const fn with_speed_scale(mut self, scale: f32) -> Self {
        self.speed_scale = scale;
        self
    }

    /// Whether it can ever fire: some `min_out` or `speed`, or a `speed_scale` other than
    /// 1 (bad values count as 0, and a bad scale as 1).
    #[inline]
    #[must_use]
    pub fn is_active(self) -> bool {
        usable(self.min_out) > 0.0 || usable(self.speed) > 0.0 || usable_scale(self.speed_scale) != UNSCALED
    }

    /// The factor the outgoing velocity relative to the surface is multiplied by for a
    /// ball approaching at `approach`: the usable `speed_scale` when it fires, else 1.
    #[inline]
    #[must_use]
    pub fn scale_at(self, approach: f64) -> f64 {
        if self.fires(approach) {
            f64::from(usable_scale(self.speed_scale))
        } else {
            f64::from(UNSCALED)
        }
    }

    /// Whether it fires for a ball approaching at `approach` units/s along the normal.
    #[inline]
    #[must_use]
    pub fn fires(self, approach: f64) -> bool {
        self.is_active() && approach > f64::from(usable(self.threshold))
    }

    /// The outgoing normal speed of a ball approaching at `approach` through a contact of
    /// restitution `e`: `(max(e·approach, min_out) + speed)·speed_scale` when it fires,
    /// else `e·approach`.
    #[inline]
    #[must_use]
    pub fn outgoing(self, approach: f64, e: f64) -> f64 {
        self.unscaled_outgoing(approach, e) * self.scale_at(approach)
    }

    /// [`Kick::outgoing`] before the speed scale: `max(e·approach, min_out) + speed` when it
    /// fires, else `e·approach`. Friction is taken on this normal change, and then the
    /// scale multiplies the whole velocity.
    #[inline]
    pub(crate) fn unscaled_outgoing(self, approach: f64, e: f64) -> f64 {
        let bounce = e * approach;
        if self.fires(approach) {
            bounce.max(f64::from(usable(self.min_out))) + f64::from(usable(self.speed))
        } else {
            bounce
        }
    }

    /// The normal speed the kick adds to a bounce of restitution `e` at `approach`
    /// (0 when it does not fire; below 0 for a `speed_scale` that slows the ball more than
    /// `min_out` and `speed` speed it up), as a contact reports it. The scale is included:
    /// `Kick::scaling(0.0, 1.5)` at an elastic approach of 4 adds `1.5·4 − 4 = 2`.
    #[inline]
    #[must_use]
    pub fn added(self, approach: f32, e: f32) -> f32 {
        let (a, e) = (f64::from(approach), f64::from(usable(e)));
        (self.outgoing(a, e) - e * a) as f32
    }

    /// The first field that is negative or not finite, or a `speed_scale` not above 0.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeRadius`] (a negative speed)
    /// naming `kick.threshold`, `kick.min_out` or `kick.speed`; [`ShapeError::NonFinite`]
    /// or [`ShapeError::OutOfRange`] (0 or below) naming `kick.speed_scale`.
    pub fn validate(&self) -> Result<(), ShapeError> {
        ShapeError::non_negative("kick.threshold", self.threshold)?;
        ShapeError::non_negative("kick.min_out", self.min_out)?;
        ShapeError::non_negative("kick.speed", self.speed)?;
        let field = "kick.speed_scale";
        if !self.speed_scale.is_finite() {
            Err(ShapeError::NonFinite { field })
        } else if self.speed_scale <= 0.0 {
            Err(ShapeError::OutOfRange {
                field,
                range: "above 0 (1 leaves the speed as it is)",
            })
        } else {
            Ok(())
        }
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

/// A finite scale above 0, or 1: a bad scale never scales or gives NaN.
#[inline]
fn usable_scale(x: f32) -> f32 {
    if x.is_finite() && x > 0.0 { x } else { UNSCALED }
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

    #[test]
    fn the_constructors_leave_the_scale_at_one() {
        assert_eq!(Kick::NONE.speed_scale, 1.0);
        assert_eq!(Kick::default().speed_scale, 1.0);
        assert_eq!(Kick::new(1.0, 2.0, 3.0).speed_scale, 1.0);
        let k = Kick::scaling(5.0, 1.05);
        assert_eq!(
            (k.threshold, k.min_out, k.speed, k.speed_scale),
            (5.0, 0.0, 0.0, 1.05)
        );
        assert_eq!(Kick::new(1.0, 2.0, 3.0).with_speed_scale(0.5).speed_scale, 0.5);
        // A scale alone makes a kick that can fire; a scale of 1 alone does not.
        assert!(k.is_active());
        assert!(!Kick::scaling(0.0, 1.0).is_active());
    }

    #[test]
    fn hand_computed_scaled_speeds() {
        // A pure scale of 1.5 above 10, e = 0.8: in at 20, out 0.8·20·1.5 = 24, of which
        // 24 − 16 = 8 is reported as added.
        let k = Kick::scaling(10.0, 1.5);
        assert!((k.outgoing(20.0, 0.8) - 24.0).abs() < 1e-9);
        assert!((k.added(20.0, 0.8) - 8.0).abs() < 1e-5);
        assert_eq!(k.scale_at(20.0), 1.5);
        // At the threshold it does not fire: 0.8·10 = 8, scale 1, nothing added.
        assert!((k.outgoing(10.0, 0.8) - 8.0).abs() < 1e-9);
        assert_eq!(k.scale_at(10.0), 1.0);
        assert_eq!(k.added(10.0, 0.8), 0.0);
        // Scale with min_out and speed: (max(0.5·100, 80) + 20)·2 = 200; added 200 − 50.
        let k = Kick::new(0.0, 80.0, 20.0).with_speed_scale(2.0);
        assert!((k.outgoing(100.0, 0.5) - 200.0).abs() < 1e-9);
        assert!((k.added(100.0, 0.5) - 150.0).abs() < 1e-4);
        // A scale below 1 slows the ball: 0.5·(1·10) = 5, reported as 5 − 10 = −5.
        let k = Kick::scaling(0.0, 0.5);
        assert!((k.added(10.0, 1.0) + 5.0).abs() < 1e-5);
    }

    #[test]
    fn a_bad_scale_counts_as_one_and_is_named() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -1.5] {
            let k = Kick::scaling(0.0, bad);
            assert!(!k.is_active(), "{bad}");
            assert_eq!(k.scale_at(10.0), 1.0, "{bad}");
            assert_eq!(k.outgoing(10.0, 0.5), 5.0, "{bad}");
            assert_eq!(k.added(10.0, 0.5), 0.0, "{bad}");
            // With a kick speed it still fires, unscaled: 0.5·10 + 3 = 8.
            let k = Kick::new(0.0, 0.0, 3.0).with_speed_scale(bad);
            assert_eq!(k.outgoing(10.0, 0.5), 8.0, "{bad}");
            let field = k.validate().map_err(|e| e.field());
            assert_eq!(field, Err("kick.speed_scale"), "{bad}");
        }
        assert_eq!(
            Kick::scaling(0.0, f32::NAN).validate(),
            Err(ShapeError::NonFinite {
                field: "kick.speed_scale"
            })
        );
        assert!(matches!(
            Kick::scaling(0.0, -1.0).validate(),
            Err(ShapeError::OutOfRange {
                field: "kick.speed_scale",
                ..
            })
        ));
        assert_eq!(Kick::scaling(0.0, 1.05).validate(), Ok(()));
    }
}
