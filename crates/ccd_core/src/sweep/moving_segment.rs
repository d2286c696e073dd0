//! A moving circle against a segment that turns about a pivot (and may slide) during the
//! step: a flipper.

use crate::hit::Hit;
use crate::parabola::Parabola;
use crate::shape::{Circle, Segment};
use crate::sweep::moving_search::{MovingGap, MovingHit, Probe, frame_bounds, leg_terms, safe_time, search};
use crate::sweep::usable;
use crate::tolerance::MOVING_SEGMENT_TOLERANCE_REL;
use glam::Vec2;

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

/// First contact of `circle` moving by `motion` with `segment` (given at toi 0) moving by
/// `segment_motion` over the step.
///
/// The circle's path relative to a turning segment is curved, so there is no closed form.
/// The search works on the gap `g(t)` (centre-to-segment distance minus the radius) and its
/// rate `g'(t)`, both exact at any instant, and two bounds on how fast they can change from
/// an instant `t` on: a speed bound `L` on `|g'|` (the centre's speed relative to the
/// turning segment) and a curvature bound `M` on `|g''|` (from the turn, and from the
/// rounded end caps). Then `g` cannot come down to the contact level before the first root
/// of `g(t) + g'(t)·δ − M·δ²/2`, nor before `(g(t) − level)/L`: the search jumps by the
/// larger of the two, and so never skips the first contact. Far from the segment the
/// jumps are long; near a crossing they become Newton steps. For a circle that starts
/// clear of the segment it never reports a contact later than the true one by more than
/// the tolerance ([`MOVING_SEGMENT_TOLERANCE_REL`] of the query's scale): the gap at the
/// reported contact is at most [`MOVING_SEGMENT_ACCEPT_BAND`](crate::tolerance::MOVING_SEGMENT_ACCEPT_BAND) tolerances and never below
/// minus one (`tests/moving_properties.rs`).
///
/// Same contract as [`sweep_circle_segment`](crate::sweep_circle_segment): `None` when there
/// is no approached contact in `[0, 1]`; `toi == 0` for a circle that starts touching while
/// the relative motion at the contact point closes in. A circle that starts touching but
/// separating (after a bounce) is hit again when the segment catches up with it later in
/// the step and presses in by more than twice the tolerance (beyond the start's overlap,
/// if any), reported by the time it does (a press of one to two tolerances may pass for
/// the same touch); a touch that does not close in (a graze) never ends the search, which
/// goes on after it (at most [`MAX_MOVING_SEGMENT_RESTARTS`](crate::tolerance::MAX_MOVING_SEGMENT_RESTARTS) times).
///
/// A search that reaches [`MAX_MOVING_SEGMENT_ITERATIONS`](crate::tolerance::MAX_MOVING_SEGMENT_ITERATIONS) (a near-grazing path, where the
/// safe steps stay tiny) reports a contact at the earliest time it has not proven clear,
/// with [`MovingHit::iterations`] at the cap: early, never late and never missed, and then
/// possibly a contact that does not close in.
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
    search(&Query::new(circle, motion, Vec2::ZERO, segment, segment_motion)?)
}

/// [`sweep_circle_moving_segment`] for a circle whose centre follows the curve `path` under
/// gravity, while the segment moves by `segment_motion` over `path.duration`: the same
/// search, its bounds grown by what the bend adds to the centre's speed (`|g|·T` over the
/// leg) and to the rate of change of that speed. `hit.toi` is the fraction of the leg.
///
/// ```
/// use ccd_core::{sweep_parabola_moving_segment, Circle, Parabola, Segment, SegmentMotion, Vec2};
/// // A still arm along y = 0 from x = −10 to 10; a ball of radius 1 dropped from y = 6
/// // under g = 10 lands on it after falling 5: at t = 1 s, the fraction 0.5 of a 2 s leg.
/// let arm = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
/// let still = SegmentMotion { pivot: Vec2::ZERO, angle: 0.0, pivot_motion: Vec2::ZERO };
/// let path = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
/// let found = sweep_parabola_moving_segment(Circle::new(Vec2::new(0.0, 6.0), 1.0), path, arm, still).unwrap();
/// assert!((found.hit.toi - 0.5).abs() < 1e-5);
/// assert_eq!(found.hit.normal, Vec2::Y);
/// ```
#[must_use]
pub fn sweep_parabola_moving_segment(
    circle: Circle,
    path: Parabola,
    segment: Segment,
    segment_motion: SegmentMotion,
) -> Option<MovingHit> {
    let (motion, bend) = leg_terms(path)?;
    search(&Query::new(circle, motion, bend, segment, segment_motion)?)
}

/// One query's inputs, scale and bounds.
struct Query {
    circle: Circle,
    /// The centre's motion over the leg; under gravity its path is
    /// `center + motion·t + bend·t²` (zero `bend`: a straight leg).
    motion: Vec2,
    /// `½·g·T²`: how far gravity bends the centre's path over the leg.
    bend: Vec2,
    segment: Segment,
    m: SegmentMotion,
    /// `motion − pivot_motion`: the centre's motion relative to the pivot at `t = 0`.
    relative: Vec2,
    /// `2·|bend|`: how fast the bend changes the centre's motion, per unit toi.
    bend_rate: f32,
    /// A bound on `|g'|` over the whole step: the centre's speed plus the speed of the
    /// segment's farthest point.
    bound: f32,
    /// The contact tolerance, world units.
    tol: f32,
}

/// The contact tolerance of [`sweep_circle_moving_segment`] for these inputs, world units:
/// [`MOVING_SEGMENT_TOLERANCE_REL`] of the query's scale, the largest of the coordinates of
/// the centre and of the end points, the radius, and the bound on the relative speed (the
/// motion, plus the turn times the longer lever from the pivot, plus the pivot's motion),
/// at least 1. A reported contact's gap lies within −1 and
/// [`MOVING_SEGMENT_ACCEPT_BAND`](crate::tolerance::MOVING_SEGMENT_ACCEPT_BAND) of it.
///
/// ```
/// use ccd_core::{moving_segment_tolerance, Circle, Segment, SegmentMotion, Vec2};
/// // Coordinates up to 100 and a motion of 10: the scale is 100, the tolerance 1e-6 of it.
/// let tol = moving_segment_tolerance(
///     Circle::new(Vec2::new(0.0, 5.0), 1.0),
///     Vec2::new(10.0, 0.0),
///     Segment::new(Vec2::ZERO, Vec2::new(100.0, 0.0)),
///     SegmentMotion::default(),
/// );
/// assert_eq!(tol, 1e-6 * 100.0);
/// ```
#[must_use]
pub fn moving_segment_tolerance(circle: Circle, motion: Vec2, segment: Segment, m: SegmentMotion) -> f32 {
    speed_bound_and_tolerance(circle, motion, 0.0, segment, m).1
}

/// A bound on the centre's speed relative to the segment's farthest point (per unit toi),
/// and the query's contact tolerance; `bend_rate` (`2·|bend|`) is what gravity adds to the
/// centre's speed over the leg.
fn speed_bound_and_tolerance(
    circle: Circle,
    motion: Vec2,
    bend_rate: f32,
    segment: Segment,
    m: SegmentMotion,
) -> (f32, f32) {
    let lever = (segment.a - m.pivot).length().max((segment.b - m.pivot).length());
    let bound = motion.length() + bend_rate + m.angle.abs() * lever + m.pivot_motion.length();
    let scale = [
        circle.center.abs().max_element(),
        segment.a.abs().max_element(),
        segment.b.abs().max_element(),
        circle.radius,
        bound,
    ]
    .into_iter()
    .fold(1.0_f32, f32::max);
    (bound, MOVING_SEGMENT_TOLERANCE_REL * scale)
}

impl Query {
    fn new(circle: Circle, motion: Vec2, bend: Vec2, segment: Segment, m: SegmentMotion) -> Option<Self> {
        if !usable(circle, motion)
            || !bend.is_finite()
            || !segment.a.is_finite()
            || !segment.b.is_finite()
            || !m.pivot.is_finite()
            || !m.angle.is_finite()
            || !m.pivot_motion.is_finite()
        {
            return None;
        }
        let bend_rate = 2.0 * bend.length();
        let (bound, tol) = speed_bound_and_tolerance(circle, motion, bend_rate, segment, m);
        if !(bound > 0.0) || !bound.is_finite() {
            return None;
        }
        Some(Self {
            circle,
            motion,
            bend,
            segment,
            m,
            relative: motion - m.pivot_motion,
            bend_rate,
            bound,
            tol,
        })
    }

    /// The centre at `t`.
    #[inline]
    fn center_at(&self, t: f32) -> Vec2 {
        self.circle.center + self.motion * t + self.bend * (t * t)
    }
}

impl MovingGap for Query {
    fn tol(&self) -> f32 {
        self.tol
    }

    /// The gap and its rates at `t`.
    fn probe(&self, t: f32) -> Probe {
        let center = self.center_at(t);
        let s = self.m.segment_at(self.segment, t);
        let point = s.closest_point(center);
        let offset = center - point;
        let distance = offset.length();
        let relative = self.relative + self.bend * (2.0 * t);
        let frame = relative - (center - self.m.pivot_at(t)).perp() * self.m.angle;
        // On the segment itself the rate has no direction: take the fastest closing.
        let rate = offset.try_normalize().map_or(-frame.length(), |n| {
            (self.motion_at(t) - self.m.point_motion(point, t)).dot(n)
        });
        Probe {
            gap: distance - self.circle.radius,
            rate,
            frame_speed: frame.length(),
        }
    }

    /// How far past `t` the gap surely stays above `level`, from the probe `p` at `t`.
    ///
    /// With `u` the centre relative to the pivot, the centre moves in the segment's frame at
    /// `w' = R(−θ)(μ − θ'·u⊥)`, `μ = motion − pivot_motion` (plus `2·bend·t` under
    /// gravity, so `|μ| ≤ |μ(0)| + 2·|bend|` and `|μ'| = 2·|bend|`), so `|w'|` grows by at
    /// most `|θ'|·|μ| + 2·|bend|` per unit toi and `|w''| ≤ |θ'|·(|w'| + |μ|) + 2·|bend|`.
    /// The distance to a fixed segment has a unit gradient and, around the end caps, a
    /// Hessian of norm `1/distance`. So on `[t, 1]`:
    /// `|g'| ≤ V = |w'(t)| + (|θ'|·|μ| + 2·|bend|)·(1 − t)` and
    /// `|g''| ≤ M = |θ'|·(V + |μ|) + 2·|bend| + V²/(r + level)` while the gap is above `level`.
    fn safe_step(&self, t: f32, p: Probe, level: f32) -> f32 {
        let excess = f64::from(p.gap - level);
        let b = frame_bounds(
            t,
            p.frame_speed,
            self.m.angle,
            self.relative,
            self.bend_rate,
            self.bound,
        );
        let clearance = f64::from(self.circle.radius + level);
        let curvature = b.turning
            + if clearance > 0.0 {
                b.frame * b.frame / clearance
            } else {
                f64::INFINITY
            };
        safe_time(excess, f64::from(p.rate), b.speed, curvature) as f32
    }

    /// The contact geometry at `toi` (the centre, the closest point of the segment there,
    /// and the normal), and the displacement rate of the segment's surface at that point.
    /// The normal points away from the segment; for a centre on the segment itself, it is
    /// the face normal against the relative motion.
    fn geometry_at(&self, toi: f32) -> Option<(Hit, Vec2)> {
        let center = self.center_at(toi);
        let s = self.m.segment_at(self.segment, toi);
        let point = s.closest_point(center);
        let surface_motion = self.m.point_motion(point, toi);
        let relative = self.motion_at(toi) - surface_motion;
        let normal = (center - point).try_normalize().or_else(|| {
            let face = s.direction().perp().try_normalize()?;
            Some(if relative.dot(face) < 0.0 { face } else { -face })
        })?;
        let hit = Hit {
            toi,
            center,
            point,
            normal,
        };
        Some((hit, surface_motion))
    }

    /// The centre's motion rate (per unit toi) at `t`.
    #[inline]
    fn motion_at(&self, t: f32) -> Vec2 {
        self.motion + self.bend * (2.0 * t)
    }

    fn bend(&self) -> Vec2 {
        self.bend
    }
}

#[cfg(test)]
mod tests;
