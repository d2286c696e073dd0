//! A moving circle against a [`CircleArc`] that turns about a pivot (and may slide)
//! during the step: a curved flipper, a paddle's round end, a turning rail.
//!
//! The search is the moving segment's (`moving_search.rs`), in the arc's own frame: there
//! the arc stands still and the centre moves on a curve. The arc's distance is the least
//! of three pieces, each with its own bounds:
//! - the curve, for a centre within the angle range: the distance to the circle, whose
//!   rate of turn is `1/ρ` (ρ the centre's distance from the circle's centre) — outside
//!   the circle at most `1/R`; inside it grows towards the circle's centre, where the
//!   distance has a peak, so a step there keeps ρ above half its value (at the frame
//!   speed `V`, `ρ/(2V)` at most);
//! - out of the range the curve's piece waits for the centre to come back into it (no
//!   sooner than its distance to the range's two boundary rays over its speed);
//! - the two end caps, points, as the segment's caps.
//!
//! The search steps by the least of the three safe steps, so it never steps past the
//! first contact of any of them.

use super::moving_search::{MovingGap, MovingHit, Probe, frame_bounds, leg_terms, safe_time, search};
use super::moving_segment::SegmentMotion;
use crate::hit::Hit;
use crate::parabola::Parabola;
use crate::shape::{ArcFrame, Circle, CircleArc};
use crate::sweep::usable;
use crate::tolerance::MOVING_SEGMENT_TOLERANCE_REL;
use glam::{DVec2, Vec2};

/// First contact of `circle` moving by `motion` with `arc` (given at toi 0) moving by
/// `arc_motion` over the step: the contract of
/// [`sweep_circle_moving_segment`](crate::sweep_circle_moving_segment), at the tolerance
/// [`moving_arc_tolerance`].
///
/// ```
/// use ccd_core::{sweep_circle_moving_arc, Circle, CircleArc, SegmentMotion, Vec2};
/// use std::f32::consts::{FRAC_PI_2, PI};
/// // The upper half of the circle of radius 10 about the origin turns a quarter turn about
/// // its centre. A ball of radius 1 waits still at (0, −10), in the gap below. The arc's
/// // end at angle π + φ meets it when the chord from it to the ball is 1 long:
/// // 2·10·sin(Δ/2) = 1, Δ = 0.10004 short of 3π/2, so φ = π/2 − 0.10004 and
/// // toi = φ / (π/2) = 0.93631.
/// let half = CircleArc::new(Vec2::ZERO, 10.0, 0.0, PI);
/// let turn = SegmentMotion { pivot: Vec2::ZERO, angle: FRAC_PI_2, pivot_motion: Vec2::ZERO };
/// let ball = Circle::new(Vec2::new(0.0, -10.0), 1.0);
/// let contact = sweep_circle_moving_arc(ball, Vec2::ZERO, half, turn).unwrap();
/// assert!((contact.hit.toi - 0.93631).abs() < 1e-4);
/// ```
#[must_use]
pub fn sweep_circle_moving_arc(
    circle: Circle,
    motion: Vec2,
    arc: CircleArc,
    arc_motion: SegmentMotion,
) -> Option<MovingHit> {
    search(&ArcQuery::new(circle, motion, Vec2::ZERO, arc, arc_motion)?)
}

/// [`sweep_circle_moving_arc`] for a circle whose centre follows the curve `path` under
/// gravity, while the arc moves by `arc_motion` over `path.duration`. `hit.toi` is the
/// fraction of the leg.
#[must_use]
pub fn sweep_parabola_moving_arc(
    circle: Circle,
    path: Parabola,
    arc: CircleArc,
    arc_motion: SegmentMotion,
) -> Option<MovingHit> {
    let (motion, bend) = leg_terms(path)?;
    search(&ArcQuery::new(circle, motion, bend, arc, arc_motion)?)
}

/// The contact tolerance of [`sweep_circle_moving_arc`] for these inputs, world units:
/// [`MOVING_SEGMENT_TOLERANCE_REL`] of the query's scale (the largest of the centre's
/// coordinates, the arc's reach from the origin, the radius with the band's thickness, and
/// the bound on the relative speed), at least 1.
#[must_use]
pub fn moving_arc_tolerance(circle: Circle, motion: Vec2, arc: CircleArc, m: SegmentMotion) -> f32 {
    speed_bound_and_tolerance(circle, motion, 0.0, arc, m).1
}

/// A bound on the centre's speed relative to the arc's farthest point (per unit toi), and
/// the query's contact tolerance.
fn speed_bound_and_tolerance(
    circle: Circle,
    motion: Vec2,
    bend_rate: f32,
    arc: CircleArc,
    m: SegmentMotion,
) -> (f32, f32) {
    let lever = (arc.center - m.pivot).length() + arc.radius + arc.thickness;
    let bound = motion.length() + bend_rate + m.angle.abs() * lever + m.pivot_motion.length();
    let scale = [
        circle.center.abs().max_element(),
        arc.center.abs().max_element() + arc.radius + arc.thickness,
        circle.radius + arc.thickness,
        bound,
    ]
    .into_iter()
    .fold(1.0_f32, f32::max);
    (bound, MOVING_SEGMENT_TOLERANCE_REL * scale)
}

/// One query's inputs, frame, scale and bounds.
struct ArcQuery {
    circle: Circle,
    /// The centre's path is `center + motion·t + bend·t²`.
    motion: Vec2,
    bend: Vec2,
    arc: CircleArc,
    frame: ArcFrame,
    /// The curve's end points at toi 0.
    ends: [Vec2; 2],
    m: SegmentMotion,
    /// `motion − pivot_motion`.
    relative: Vec2,
    /// `2·|bend|`.
    bend_rate: f32,
    /// A bound on `|g'|` over the whole step.
    bound: f32,
    tol: f32,
    /// How far the centre stays from the curve at touch: the band's thickness plus the
    /// radius.
    reach: f32,
}

impl ArcQuery {
    fn new(circle: Circle, motion: Vec2, bend: Vec2, arc: CircleArc, m: SegmentMotion) -> Option<Self> {
        if !usable(circle, motion)
            || !bend.is_finite()
            || arc.validate().is_err()
            || !m.pivot.is_finite()
            || !m.angle.is_finite()
            || !m.pivot_motion.is_finite()
        {
            return None;
        }
        let bend_rate = 2.0 * bend.length();
        let (bound, tol) = speed_bound_and_tolerance(circle, motion, bend_rate, arc, m);
        if !(bound > 0.0) || !bound.is_finite() {
            return None;
        }
        let (a, b) = arc.ends();
        Some(Self {
            circle,
            motion,
            bend,
            arc,
            frame: arc.frame(),
            ends: [a, b],
            m,
            relative: motion - m.pivot_motion,
            bend_rate,
            bound,
            tol,
            reach: arc.thickness + circle.radius,
        })
    }

    /// The centre at `t`, in the world.
    #[inline]
    fn center_at(&self, t: f32) -> Vec2 {
        self.circle.center + self.motion * t + self.bend * (t * t)
    }

    /// A world point at `t` in the arc's frame (where the arc is as at toi 0).
    #[inline]
    fn local(&self, p: Vec2, t: f32) -> Vec2 {
        self.m.pivot + Vec2::from_angle(-self.m.angle * t).rotate(p - self.m.pivot_at(t))
    }

    /// The centre's motion rate at `t` in the arc's frame, with the frame's axes.
    #[inline]
    fn local_motion(&self, t: f32) -> Vec2 {
        let center = self.center_at(t);
        let frame =
            self.relative + self.bend * (2.0 * t) - (center - self.m.pivot_at(t)).perp() * self.m.angle;
        Vec2::from_angle(-self.m.angle * t).rotate(frame)
    }
}

/// The distance from `p` to the ray from `origin` along the unit `dir`.
#[inline]
fn ray_distance(p: DVec2, origin: DVec2, dir: DVec2) -> f64 {
    let d = p - origin;
    if d.dot(dir) >= 0.0 {
        d.perp_dot(dir).abs()
    } else {
        d.length()
    }
}

impl MovingGap for ArcQuery {
    fn tol(&self) -> f32 {
        self.tol
    }

    fn probe(&self, t: f32) -> Probe {
        let q = self.local(self.center_at(t), t);
        let v = self.local_motion(t);
        let offset = q - self.arc.closest_point(q);
        let distance = offset.length();
        let rate = offset.try_normalize().map_or(-v.length(), |n| v.dot(n));
        Probe {
            gap: distance - self.reach,
            rate,
            frame_speed: v.length(),
        }
    }

    fn safe_step(&self, t: f32, p: Probe, level: f32) -> f32 {
        let q = self.local(self.center_at(t), t).as_dvec2();
        let v = self.local_motion(t).as_dvec2();
        let b = frame_bounds(
            t,
            p.frame_speed,
            self.m.angle,
            self.relative,
            self.bend_rate,
            self.bound,
        );
        // The gap's first-order bound, and the frame speed `V` that bounds how fast any
        // distance from the centre changes (the curvature terms, and the way back into
        // the range, need `V` itself).
        let (speed, frame, turn) = (b.speed, b.frame, b.turning);
        let reach = f64::from(self.reach);
        let level = f64::from(level);
        // The caps: points, whose distance turns at most at 1/(reach + level) while the gap
        // stays above the level.
        let clearance = reach + level;
        let cap_curvature = turn
            + if clearance > 0.0 {
                frame * frame / clearance
            } else {
                f64::INFINITY
            };
        let mut step = f64::INFINITY;
        for end in self.ends {
            let d = q - end.as_dvec2();
            let distance = d.length();
            let rate = d.try_normalize().map_or(-speed, |n| v.dot(n));
            step = step.min(safe_time(distance - reach - level, rate, speed, cap_curvature));
        }
        // The curve's piece.
        let center = self.arc.center.as_dvec2();
        let radius = f64::from(self.arc.radius);
        let from_center = q - center;
        let rho = from_center.length();
        // The whole circle's distance, a lower bound on the curve's anywhere.
        let outside = rho > radius;
        let excess = (rho - radius).abs() - reach - level;
        let radial = from_center.try_normalize().unwrap_or(DVec2::ZERO);
        let rate = if outside { v.dot(radial) } else { -v.dot(radial) };
        let first = if speed > 0.0 {
            excess / speed
        } else {
            f64::INFINITY
        };
        let circle_step = if outside {
            safe_time(excess, rate, speed, turn + frame * frame / (radius + clearance))
        } else {
            // Inside: within `ρ / (2V)` the centre stays at least `ρ/2` from the circle's
            // centre, where the distance turns at most at `2/ρ`.
            let keep = if frame > 0.0 {
                0.5 * rho / frame
            } else {
                f64::INFINITY
            };
            let second = safe_time(excess, rate, speed, turn + 2.0 * frame * frame / rho);
            first.max(second.min(keep))
        };
        let curve_step = if self.frame.holds(from_center) || !(frame > 0.0) {
            circle_step
        } else {
            // Out of the range the curve is met no sooner than the circle is, nor than the
            // centre gets back to one of the range's boundary rays.
            let back = ray_distance(q, center, self.frame.start_dir).min(ray_distance(
                q,
                center,
                self.frame.end_dir,
            ));
            circle_step.max(back / frame)
        };
        step.min(curve_step) as f32
    }

    fn geometry_at(&self, toi: f32) -> Option<(Hit, Vec2)> {
        let center = self.center_at(toi);
        let q = self.local(center, toi);
        let on_curve = self.arc.closest_point(q);
        let turn = Vec2::from_angle(self.m.angle * toi);
        let n_local = (q - on_curve).try_normalize().or_else(|| {
            // The centre on the curve itself: the radial direction, against the motion.
            let radial = (on_curve - self.arc.center).try_normalize()?;
            Some(if self.local_motion(toi).dot(radial) < 0.0 {
                radial
            } else {
                -radial
            })
        })?;
        let surface = on_curve + n_local * self.arc.thickness;
        let point = self.m.pivot_at(toi) + turn.rotate(surface - self.m.pivot);
        let hit = Hit {
            toi,
            center,
            point,
            normal: turn.rotate(n_local),
        };
        Some((hit, self.m.point_motion(point, toi)))
    }

    fn motion_at(&self, t: f32) -> Vec2 {
        self.motion + self.bend * (2.0 * t)
    }

    fn bend(&self) -> Vec2 {
        self.bend
    }
}
