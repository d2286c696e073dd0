//! A moving circle against a segment that turns about a pivot (and may slide) during the
//! step: a flipper.

use crate::{Circle, Hit, Segment, sweep::usable};
use glam::Vec2;

/// Dimensionless. The contact tolerance of [`sweep_circle_moving_segment`], as a fraction of
/// the query's scale (the largest coordinate, motion, radius or lever sweep involved).
///
/// The distance function is evaluated in f32, whose noise is about 1e-7 of that scale, so
/// 1e-6 is ten times the noise: small enough that a contact is found within a micrometre
/// on a metre-sized table, large enough to never chase rounding.
pub const MOVING_SEGMENT_TOLERANCE_REL: f32 = 1e-6;

/// Hard cap on the root search of [`sweep_circle_moving_segment`]. Each iteration is one or
/// two distance evaluations. A plain contact needs about 10 to 40; the cap is reached only
/// by near-grazing paths, and then the earliest uncertified time is reported, so the cap
/// can make a contact early, never late.
pub const MAX_MOVING_SEGMENT_ITERATIONS: u32 = 256;

/// How a segment moves over one step: a rigid turn by `angle` radians (counter-clockwise)
/// about `pivot` at constant angular velocity, while the pivot slides by `pivot_motion`,
/// both spread evenly over toi ∈ [0, 1].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SegmentMotion {
    /// The pivot at toi 0, world space.
    pub pivot: Vec2,
    /// Turn over the whole step, radians, counter-clockwise (`ω · dt`).
    pub angle: f32,
    /// Displacement of the pivot over the whole step (`v · dt`).
    pub pivot_motion: Vec2,
}

impl SegmentMotion {
    /// The pivot at `toi`.
    #[inline]
    #[must_use]
    pub fn pivot_at(&self, toi: f32) -> Vec2 {
        self.pivot + self.pivot_motion * toi
    }

    /// Where `segment` (given at toi 0) is at `toi`.
    ///
    /// ```
    /// use ccd_core::{Segment, SegmentMotion, Vec2};
    /// use std::f32::consts::FRAC_PI_2;
    /// let arm = Segment::new(Vec2::ZERO, Vec2::new(10.0, 0.0));
    /// let turn = SegmentMotion { pivot: Vec2::ZERO, angle: FRAC_PI_2, pivot_motion: Vec2::ZERO };
    /// let end = turn.segment_at(arm, 1.0);
    /// assert!((end.b - Vec2::new(0.0, 10.0)).length() < 1e-5);
    /// ```
    #[inline]
    #[must_use]
    pub fn segment_at(&self, segment: Segment, toi: f32) -> Segment {
        let rotation = Vec2::from_angle(self.angle * toi);
        let pivot = self.pivot_at(toi);
        Segment::new(
            pivot + rotation.rotate(segment.a - self.pivot),
            pivot + rotation.rotate(segment.b - self.pivot),
        )
    }

    /// Displacement rate (per unit toi) of the material point that is at `point` at `toi`:
    /// `pivot_motion + angle · (point − pivot(toi))⊥`. Divide by `dt` for a velocity.
    #[inline]
    #[must_use]
    pub fn point_motion(&self, point: Vec2, toi: f32) -> Vec2 {
        self.pivot_motion + (point - self.pivot_at(toi)).perp() * self.angle
    }
}

/// The first contact with a moving obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingHit {
    /// The contact, with the obstacle where it is at `hit.toi`.
    pub hit: Hit,
    /// Displacement rate of the obstacle's surface at the contact point, per unit toi (the
    /// same units as `motion`). Divide by `dt` for the surface velocity; a bounce must use
    /// the velocity relative to it.
    pub surface_motion: Vec2,
    /// Root-search iterations spent (at most [`MAX_MOVING_SEGMENT_ITERATIONS`]).
    pub iterations: u32,
}

/// First contact of `circle` moving by `motion` with `segment` (given at toi 0) moving by
/// `segment_motion` over the step.
///
/// The circle's path relative to a turning segment is curved, so there is no closed form.
/// The distance `f(t)` between the centre and the segment can change no faster than
/// `K = |motion| + |angle|·(max lever arm) + |pivot_motion|` per unit toi, and the search
/// uses that bound twice: conservative advancement (no contact can happen before
/// `t + (f(t) − r)/K`) and a Lipschitz envelope that rules out whole intervals, visited
/// leftmost first. So it never skips the first contact and never reports one later than it
/// by more than the tolerance ([`MOVING_SEGMENT_TOLERANCE_REL`] of the query's scale).
///
/// Same contract as [`sweep_circle_segment`](crate::sweep_circle_segment): `None` when there
/// is no approached contact in `[0, 1]`; `toi == 0` for a circle that starts touching while
/// the relative motion at the contact point closes in. A circle that starts touching but
/// separating (after a bounce) is hit again only if the segment catches up with it and
/// presses in by more than the tolerance.
///
/// ```
/// use ccd_core::{sweep_circle_moving_segment, Circle, Segment, SegmentMotion, Vec2};
/// use std::f32::consts::FRAC_PI_2;
/// // An arm from the origin to (10, 0) turns a quarter turn; a ball of radius 1 rests at
/// // (5, 3). At angle θ the arm's line is at distance √34·sin(atan2(3, 5) − θ) from the
/// // centre, which is 1 at θ = 0.5404 − asin(1/√34) = 0.3680: toi = θ / (π/2) = 0.2343.
/// let arm = Segment::new(Vec2::ZERO, Vec2::new(10.0, 0.0));
/// let turn = SegmentMotion { pivot: Vec2::ZERO, angle: FRAC_PI_2, pivot_motion: Vec2::ZERO };
/// let ball = Circle::new(Vec2::new(5.0, 3.0), 1.0);
/// let contact = sweep_circle_moving_segment(ball, Vec2::ZERO, arm, turn).unwrap();
/// assert!((contact.hit.toi - 0.2343).abs() < 1e-3);
/// // The arm's surface moves at (π/2)·|foot| = (π/2)·5.744 = 9.02 per step along the normal.
/// assert!((contact.surface_motion.length() - 9.02).abs() < 1e-2);
/// ```
#[must_use]
pub fn sweep_circle_moving_segment(
    circle: Circle,
    motion: Vec2,
    segment: Segment,
    segment_motion: SegmentMotion,
) -> Option<MovingHit> {
    let m = segment_motion;
    if !usable(circle, motion)
        || !segment.a.is_finite()
        || !segment.b.is_finite()
        || !m.pivot.is_finite()
        || !m.angle.is_finite()
        || !m.pivot_motion.is_finite()
    {
        return None;
    }
    let lever = (segment.a - m.pivot).length().max((segment.b - m.pivot).length());
    let bound = motion.length() + m.angle.abs() * lever + m.pivot_motion.length();
    if !(bound > 0.0) || !bound.is_finite() {
        return None;
    }
    let scale = [
        circle.center.abs().max_element(),
        segment.a.abs().max_element(),
        segment.b.abs().max_element(),
        circle.radius,
        bound,
    ]
    .into_iter()
    .fold(1.0_f32, f32::max);
    let tol = MOVING_SEGMENT_TOLERANCE_REL * scale;
    let gap = |t: f32| {
        let center = circle.center + motion * t;
        let s = m.segment_at(segment, t);
        (center - s.closest_point(center)).length() - circle.radius
    };

    let start_gap = gap(0.0);
    let level = if start_gap <= tol {
        // Starting in touch: a hit now if the contact closes in.
        if let Some(contact) = contact_at(circle, motion, segment, m, 0.0, 0) {
            return Some(contact);
        }
        // Separating: only a new press deeper than the tolerance counts.
        start_gap.min(0.0) - tol
    } else {
        tol
    };
    let (toi, iterations) = first_crossing(gap, level, bound, start_gap, tol)?;
    contact_at(circle, motion, segment, m, toi, iterations)
}

/// The contact at `toi` if the circle and the segment close in there.
fn contact_at(
    circle: Circle,
    motion: Vec2,
    segment: Segment,
    m: SegmentMotion,
    toi: f32,
    iterations: u32,
) -> Option<MovingHit> {
    let center = circle.center + motion * toi;
    let s = m.segment_at(segment, toi);
    let point = s.closest_point(center);
    let surface_motion = m.point_motion(point, toi);
    let relative = motion - surface_motion;
    // Away from the segment; on the segment itself, the face normal against the relative
    // motion.
    let normal = (center - point).try_normalize().or_else(|| {
        let face = s.direction().perp().try_normalize()?;
        Some(if relative.dot(face) < 0.0 { face } else { -face })
    })?;
    let hit = Hit {
        toi,
        center,
        point,
        normal,
    }
    .approached_by(relative)?;
    Some(MovingHit {
        hit,
        surface_motion,
        iterations,
    })
}

/// The first `t` in `[0, 1]` where `f(t) <= level`, for `f(0) = f0 > level` and
/// `|f'| <= bound`: leftmost-first search with conservative advancement and Lipschitz
/// envelopes, on a fixed stack. Returns the time and the iterations spent.
fn first_crossing(f: impl Fn(f32) -> f32, level: f32, bound: f32, f0: f32, tol: f32) -> Option<(f32, u32)> {
    /// Pending intervals; the search is depth-first, so this many levels of halving suffice
    /// for any interval longer than f32 resolution.
    const STACK: usize = 48;
    let mut stack = [(0.0_f32, 0.0_f32, 0.0_f32, 0.0_f32); STACK];
    let mut depth = 0;
    stack[depth] = (0.0, f0, 1.0, f(1.0));
    depth += 1;
    let mut iterations = 0;
    while depth > 0 {
        depth -= 1;
        let (a, fa, b, fb) = stack[depth];
        iterations += 1;
        if iterations > MAX_MOVING_SEGMENT_ITERATIONS {
            // Out of budget: report the earliest time not yet ruled out (early, never late).
            return Some((a, iterations - 1));
        }
        // The Lipschitz envelope's lowest point on [a, b]; above the level, no contact.
        if (fa + fb - bound * (b - a)) * 0.5 > level {
            continue;
        }
        // Conservative advancement: nothing can reach the level before `a2`.
        let a2 = a + (fa - level) / bound;
        if a2 >= b {
            if fb <= level + tol {
                return Some((b, iterations));
            }
            continue;
        }
        let fa2 = f(a2);
        if fa2 <= level + tol {
            return Some((a2, iterations));
        }
        let mid = a2 + (b - a2) * 0.5;
        if mid <= a2 || mid >= b {
            // The interval is below f32 resolution and still undecided.
            return Some((a2, iterations));
        }
        let fm = f(mid);
        if depth + 2 > STACK {
            return Some((a2, iterations));
        }
        // Right half first, so the left half is examined first.
        stack[depth] = (mid, fm, b, fb);
        stack[depth + 1] = (a2, fa2, mid, fm);
        depth += 2;
    }
    None
}

#[cfg(test)]
mod tests;
