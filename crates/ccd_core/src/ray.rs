//! The one primitive every pair query reduces to: a ray against a circle.

use glam::Vec2;

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
/// and the right-hand form has no cancellation when the start is close to the circle.
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
    let dir = motion.try_normalize()?;
    let motion_len = motion.length();
    let start_len = start.length();
    if !(start_len > radius) {
        // Inside, touching, or NaN: not this primitive's job.
        return None;
    }
    // Distance along the ray to the closest approach.
    let along = -start.dot(dir);
    if along <= 0.0 {
        return None;
    }
    // Perpendicular miss distance.
    let miss = dir.perp_dot(start).abs();
    // A tangent line only grazes, except for a circle of radius 0: a point is reached
    // head on exactly when the ray passes through it.
    if miss > radius || (miss == radius && radius > 0.0) {
        return None;
    }
    let half_chord = ((radius - miss) * (radius + miss)).sqrt();
    let gap = (start_len - radius) * (start_len + radius);
    let t = gap / (along + half_chord) / motion_len;
    (t <= 1.0 && t.is_finite()).then_some(t.max(0.0))
}
