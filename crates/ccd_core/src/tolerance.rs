//! Every tolerance used by `ccd_core`, in one place, each with its units and its reason.
//!
//! The pair queries themselves use no tolerance at all: they decide with exact sign tests
//! (approaching means `motion · normal < 0`). Tolerances appear only where a float result
//! is turned back into a decision.

/// Dimensionless. A length whose magnitude is below this fraction of the query's
/// coordinate scale is rounding noise, so a direction taken from it is meaningless.
///
/// 8 ulps of `1.0`: the error of a handful of f32 subtractions and products.
pub const DEGENERATE_LENGTH_REL: f32 = 8.0 * f32::EPSILON;

/// Dimensionless. After a contact removes the normal component of a velocity (resting
/// contact, [`ResponseMode::Slide`](crate::ResponseMode::Slide), or restitution 0), this
/// fraction of the remaining tangential speed is added along the normal, pointing away.
///
/// Without it, rounding leaves `velocity · normal` at about ±1e-7 of the speed, and half
/// the time the next sweep sees a new approach at toi 0 against the same surface, which
/// would spend the bounce budget on nothing. 1e-5 is 100 times that noise and changes the
/// kinetic energy by 1e-10 relative.
pub const SEPARATION_SPEED_REL: f32 = 1e-5;
