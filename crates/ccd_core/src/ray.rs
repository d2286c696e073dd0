//! The one primitive every pair query reduces to: a ray against a circle.

use glam::{DVec2, Vec2};

/// The first `t` in `[0, 1]` at which the point `start + t · motion` reaches distance
/// `radius` from the origin, for a start strictly outside that circle.
///
/// `start` is given relative to the circle's centre. This is the classic ray against a
/// circle, written to keep its digits: with `m` the distance along the ray to the closest
/// approach and `n` the perpendicular miss distance (from a cross product, never from
/// `|start|² − m²`),
///
/// ```text
///   t·|motion| = m − sqrt(r² − n²) = (|start|² − r²) / (m + sqrt(r² − n²))
/// ```
///
/// and the right-hand form has no cancellation when the start is close to the circle. It
/// is evaluated in f64 from the exact f32 inputs (every product of two f32 values is exact
/// in f64), with a single square root, and only for rays that do reach the circle.
///
/// Returns `None` when the start is inside or on the circle, when the ray points away
/// (`m <= 0`), misses or only grazes (`n >= r`, unless `r == 0` and the ray passes
/// through the point), or reaches the circle after `t = 1`.
///
/// ```
/// use ccd_core::{ray_circle_toi, Vec2};
/// // From (-10, 0) moving 20 to the right, a circle of radius 2 at the origin is reached
/// // after 8 units: t = 8 / 20 = 0.4.
/// let t = ray_circle_toi(Vec2::new(-10.0, 0.0), Vec2::new(20.0, 0.0), 2.0);
/// assert_eq!(t, Some(0.4));
/// ```
#[inline]
#[must_use]
pub fn ray_circle_toi(start: Vec2, motion: Vec2, radius: f32) -> Option<f32> {
    ray_circle_toi_f64(start.as_dvec2(), motion.as_dvec2(), f64::from(radius)).map(|t| t as f32)
}

/// [`ray_circle_toi`] on f64 values, with the time in f64 too (the crate computes relative
/// positions in f64 first, so a subtraction of two far-away f32 points loses nothing, and
/// orders contacts that tie in f32 by this time).
#[inline]
pub(crate) fn ray_circle_toi_f64(w: DVec2, m: DVec2, r: f64) -> Option<f64> {
    let m2 = m.length_squared();
    let r2 = r * r;
    // |w|² − r², > 0 outside.
    let gap = w.length_squared() - r2;
    if !(gap > 0.0) || !(m2 > 0.0) {
        return None;
    }
    // m·|motion|: how far along the ray the closest approach lies.
    let along = -w.dot(m);
    if !(along > 0.0) {
        return None;
    }
    // (r² − n²)·|motion|², with n·|motion| = |motion × w|.
    let cross = m.perp_dot(w);
    let disc = r2 * m2 - cross * cross;
    // A tangent line only grazes, except for a circle of radius 0: a point is reached
    // head on exactly when the ray passes through it.
    if disc < 0.0 || (disc == 0.0 && r > 0.0) {
        return None;
    }
    let t = gap / (along + disc.sqrt());
    (t <= 1.0 && t.is_finite()).then_some(t.clamp(0.0, 1.0))
}
