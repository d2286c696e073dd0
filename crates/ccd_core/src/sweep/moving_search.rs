//! The search the moving-obstacle sweeps share (`moving_segment.rs`, `moving_arc.rs`):
//! conservative advancement on the gap between a circle and a shape that turns about a
//! pivot and slides. Each shape gives the gap and its rate at an instant, and a step over
//! which the gap surely stays above a level ([`MovingGap`]); the search here walks those
//! steps to the first contact that closes in, goes on past grazes, and stops early, never
//! late, when it runs out of iterations.

use crate::hit::Hit;
use crate::parabola::Parabola;
use crate::tolerance::{
    MAX_MOVING_SEGMENT_ITERATIONS, MAX_MOVING_SEGMENT_RESTARTS, MOVING_SEGMENT_ACCEPT_BAND,
};
use glam::Vec2;

/// The first contact with a moving obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingHit {
    /// The contact, with the obstacle where it is at `hit.toi`.
    pub hit: Hit,
    /// Displacement rate of the obstacle's surface at the contact point, per unit toi (the
    /// same units as `motion`). Divide by `dt` for the surface velocity; a bounce must use
    /// the velocity relative to it.
    pub surface_motion: Vec2,
    /// Root-search iterations spent (at most [`MAX_MOVING_SEGMENT_ITERATIONS`](crate::tolerance::MAX_MOVING_SEGMENT_ITERATIONS)).
    ///
    /// At [`MAX_MOVING_SEGMENT_ITERATIONS`](crate::tolerance::MAX_MOVING_SEGMENT_ITERATIONS) the search ran out of iterations, and the
    /// contact may be conservative: it is at the earliest time the search had not proven
    /// clear (early, never late), where the shapes need not touch yet nor close in. Then
    /// `hit.normal` still points from the segment's closest point towards the centre, but
    /// the relative motion may not approach it: [`reflect`](crate::reflect) leaves such a
    /// velocity as it is, so the circle only stops there, and the next sweep from there
    /// searches on.
    pub iterations: u32,
    /// Times the search went on past a time where the shapes touched without closing in
    /// (at most [`MAX_MOVING_SEGMENT_RESTARTS`](crate::tolerance::MAX_MOVING_SEGMENT_RESTARTS)).
    pub restarts: u32,
}

/// The gap between the circle and the shape at one instant, and how fast it changes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// Distance from the centre to the shape's core, minus the radius and the shape's own
    /// rounding.
    pub(crate) gap: f32,
    /// `d gap / d toi`: the centre's motion relative to the shape's material point under
    /// it, along the normal.
    pub(crate) rate: f32,
    /// The centre's speed (per unit toi) in the shape's moving frame: a bound on `|rate|`.
    pub(crate) frame_speed: f32,
}

/// One query of a moving shape, as the search sees it.
pub(crate) trait MovingGap {
    /// The contact tolerance, world units.
    fn tol(&self) -> f32;
    /// The gap and its rates at `t`.
    fn probe(&self, t: f32) -> Probe;
    /// How far past `t` the gap surely stays above `level`, from the probe `p` at `t`.
    fn safe_step(&self, t: f32, p: Probe, level: f32) -> f32;
    /// The contact geometry at `toi` (the normal points away from the shape), and the
    /// displacement rate of the shape's surface at the contact point.
    fn geometry_at(&self, toi: f32) -> Option<(Hit, Vec2)>;
    /// The centre's motion rate (per unit toi) at `t`.
    fn motion_at(&self, t: f32) -> Vec2;
    /// `½·g·T²`: how far gravity bends the centre's path over the leg (zero: straight).
    fn bend(&self) -> Vec2;
}

/// The first contact of one query: see
/// [`sweep_circle_moving_segment`](crate::sweep_circle_moving_segment) for the contract.
pub(crate) fn search<Q: MovingGap>(query: &Q) -> Option<MovingHit> {
    // Each pass searches from `from` for the first time the gap comes down to a level. A
    // time found there that does not close in (a graze, or a ball still separating right
    // after a contact) is not the answer, but it must not end the search either: the next
    // pass starts from it, as from a start in touch.
    let tol = query.tol();
    let mut from = 0.0_f32;
    let mut probe = query.probe(0.0);
    let mut iterations = 0;
    let mut restarts = 0;
    loop {
        let level = if probe.gap <= MOVING_SEGMENT_ACCEPT_BAND * tol {
            // In touch at `from` (a search would accept it at once). A hit now if the
            // contact closes in; otherwise only a new press counts, one tolerance deeper
            // than the gap is now (the search accepts a gap within one tolerance of its
            // level).
            if from == 0.0
                && let Some(contact) = contact_at(query, 0.0, 0, 0)
            {
                return Some(contact);
            }
            probe.gap.min(0.0) - 2.0 * tol
        } else {
            tol
        };
        let budget = MAX_MOVING_SEGMENT_ITERATIONS - iterations;
        let (toi, at, spent) = advance(query, from, probe, level, budget)?;
        iterations += spent;
        if let Some(contact) = contact_at(query, toi, iterations, restarts) {
            return Some(contact);
        }
        if iterations >= MAX_MOVING_SEGMENT_ITERATIONS {
            // Out of budget: nothing after `toi` is proven clear, so the contact is taken
            // there, early rather than late or not at all.
            return capped_contact_at(query, toi, restarts);
        }
        if restarts == MAX_MOVING_SEGMENT_RESTARTS {
            return None;
        }
        restarts += 1;
        (from, probe) = (toi, at);
    }
}

/// From `t` (where the probe is `p`, above `level`), the first time the gap comes down to
/// `level` (within the tolerance): the time, its probe and the iterations spent, at most
/// `budget`. `None` when it stays above until the end of the step.
fn advance<Q: MovingGap>(
    query: &Q,
    mut t: f32,
    mut p: Probe,
    level: f32,
    budget: u32,
) -> Option<(f32, Probe, u32)> {
    let mut iterations = 0;
    loop {
        if p.gap <= level + query.tol() || iterations >= budget {
            // At the level, or out of budget: the earliest time not yet ruled out (early,
            // never late).
            return Some((t, p, iterations));
        }
        iterations += 1;
        let next = t + query.safe_step(t, p, level);
        if !(next < 1.0) {
            return None;
        }
        if next <= t {
            // Below f32 resolution and still undecided.
            return Some((t, p, iterations));
        }
        t = next;
        p = query.probe(t);
    }
}

/// The contact at `toi` if the circle and the shape close in there. Under gravity a ball
/// in touch at the leg's start that moves along the surface (neither approaching nor
/// leaving) while gravity bends it in is pressed on: a contact now, as the static curved
/// sweeps take it, not one found only after it has sunk in.
fn contact_at<Q: MovingGap>(query: &Q, toi: f32, iterations: u32, restarts: u32) -> Option<MovingHit> {
    let (hit, surface_motion) = query.geometry_at(toi)?;
    let closing = (query.motion_at(toi) - surface_motion).dot(hit.normal);
    let pressed = toi == 0.0 && closing <= 0.0 && query.bend().dot(hit.normal) < 0.0;
    Some(MovingHit {
        hit: hit.finite_if(closing < 0.0 || pressed)?,
        surface_motion,
        iterations,
        restarts,
    })
}

/// The contact a search that ran out of iterations reports at `toi`, the earliest time it
/// has not proven clear: the geometry there, whether or not the shapes close in (the
/// search could not look further, so it stops early rather than late or never).
/// `iterations` is [`MAX_MOVING_SEGMENT_ITERATIONS`], which marks it. `None` only for a
/// geometry that is not finite.
fn capped_contact_at<Q: MovingGap>(query: &Q, toi: f32, restarts: u32) -> Option<MovingHit> {
    let (hit, surface_motion) = query.geometry_at(toi)?;
    let finite = hit.toi.is_finite()
        && hit.center.is_finite()
        && hit.point.is_finite()
        && hit.normal.is_finite()
        && surface_motion.is_finite();
    finite.then_some(MovingHit {
        hit,
        surface_motion,
        iterations: MAX_MOVING_SEGMENT_ITERATIONS,
        restarts,
    })
}

/// How long a gap `excess` above its level surely stays above it, when it changes at
/// `rate` now, at most at `speed`, and its rate changes at most at `curvature`: the larger
/// of `excess / speed` and the first root of `excess + rate·δ − curvature·δ²/2` (in the
/// form without cancellation for either sign of the rate). An infinite curvature leaves
/// the speed bound alone.
pub(crate) fn safe_time(excess: f64, rate: f64, speed: f64, curvature: f64) -> f64 {
    let first_order = if speed > 0.0 {
        excess / speed
    } else {
        f64::INFINITY
    };
    let root = (rate * rate + 2.0 * curvature * excess).sqrt();
    let second_order = if !curvature.is_finite() {
        0.0
    } else if !(curvature > 0.0) {
        if rate >= 0.0 {
            f64::INFINITY
        } else {
            excess / -rate
        }
    } else if rate >= 0.0 {
        (rate + root) / curvature
    } else {
        2.0 * excess / (root - rate)
    };
    first_order.max(second_order)
}

/// Bounds over `[t, 1]` on the centre's motion in the moving shape's frame (see the
/// moving segment's `safe_step` for their derivation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FrameBounds {
    /// `V`: the centre's speed in the frame, per unit toi: a bound on how fast any
    /// distance from it to a point fixed in the frame changes.
    pub(crate) frame: f64,
    /// `V`, or the query's bound on `|g'|` if smaller: the first-order bound on the gap.
    pub(crate) speed: f64,
    /// How fast the frame motion itself changes: `|θ'|·(V + |μ|) + 2·|bend|`.
    pub(crate) turning: f64,
}

/// The [`FrameBounds`] from `t`, for a centre moving at `frame_speed` in the frame now, a
/// frame that turns by `angle` over the step, `relative` the centre's motion less the
/// pivot's, `bend_rate` gravity's `2·|bend|`, and `bound` the query's bound on `|g'|`.
pub(crate) fn frame_bounds(
    t: f32,
    frame_speed: f32,
    angle: f32,
    relative: Vec2,
    bend_rate: f32,
    bound: f32,
) -> FrameBounds {
    let turn = f64::from(angle.abs());
    let bend_rate = f64::from(bend_rate);
    let mu = f64::from(relative.length()) + bend_rate;
    let frame = f64::from(frame_speed) + (turn * mu + bend_rate) * f64::from(1.0 - t);
    FrameBounds {
        frame,
        speed: frame.min(f64::from(bound)),
        turning: turn * (frame + mu) + bend_rate,
    }
}

/// A curved leg as the moving searches take it: the centre's path `motion·t + bend·t²`
/// over the leg's fraction `t` (`v·T` and `½·g·T²`); `None` for a leg that cannot be used.
pub(crate) fn leg_terms(path: Parabola) -> Option<(Vec2, Vec2)> {
    if !path.is_usable() {
        return None;
    }
    let (motion, bend) = path.terms();
    Some((motion.as_vec2(), bend.as_vec2()))
}
