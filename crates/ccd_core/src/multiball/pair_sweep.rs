//! Pair forecast's primitive: when two balls, each on its own leg, first touch.
//!
//! Most candidate pairs are turned away by [`clearly_apart`], a closest-approach test
//! with no branch; the rest go to the exact sweep of two moving circles
//! ([`moving_circles_toi`]). Used by each ball's forecast (`next_event.rs`) and by the step's
//! first forecasts, pair by pair (`first_forecasts.rs`).

use super::sim::Sim;
use crate::obstacle::Obstacles;
use crate::parabola::Parabola;
use crate::shape::Circle;
use crate::sweep::{moving_circles_toi, sweep_parabola_circle_ordered};
use crate::tolerance::{
    CLEARLY_APART_MARGIN, CLEARLY_SEPARATING_COS, PAIR_HORIZON_SLACK_REL, RESTING_EVENT_FRACTION,
    SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL,
};
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Seconds past `until` a pair contact is still looked for: the window of contacts
    /// that count as simultaneous with the earliest, twice, and some slack (a contact
    /// there can still change the forecast's batch, see `pairs.rs`).
    #[inline]
    pub(super) fn pair_window(&self) -> f32 {
        (2.0 * SIMULTANEOUS_TIME_REL + PAIR_HORIZON_SLACK_REL) * self.dt
    }

    /// When balls `i` and `j` (both usable) first touch, each on its own leg, if that is
    /// before `until` (or within the window after it; a contact later may or may not be
    /// found): the time, or `None` if they do not meet, or touch without closing in
    /// faster than the resting floor. The same for `(j, i)` as for `(i, j)`.
    #[inline(always)]
    pub(super) fn pair_contact(&self, i: usize, j: usize, until: f32) -> Option<f32> {
        let (a, b) = (&self.balls[i], &self.balls[j]);
        let (sa, sb) = (self.step.clock[i], self.step.clock[j]);
        let dt = self.dt;
        let common = later(sa.time, sb.time);
        let (pa, va, ga) = self.leg_at(i, common);
        let (pb, vb, gb) = self.leg_at(j, common);
        let rest = dt - common;
        let horizon = earlier(until - common + self.pair_window(), rest);
        // Two balls in flight fall alike: their relative motion is straight. One in flight
        // against a settled one curves.
        let bend = ga - gb;
        if !(rest > 0.0) || !(horizon >= 0.0) || (sa.on_round && sb.on_round && self.ride_together(i, j)) {
            return None;
        }
        let toi = if bend == Vec2::ZERO {
            if clearly_apart(pa - pb, (va - vb) * horizon, a.radius + b.radius) {
                return None;
            }
            moving_circles_toi(
                Circle::new(pa, a.radius),
                va * rest,
                Circle::new(pb, b.radius),
                vb * rest,
            )?
        } else {
            let relative = Parabola::new(va - vb, bend, rest);
            let moving = Circle::new(pa, a.radius);
            let reach = relative.aabb(pa, a.radius);
            let (found, _) =
                sweep_parabola_circle_ordered(moving, relative, reach, Circle::new(pb, b.radius))?;
            found.hit.toi
        };
        // Already touching (at the legs' common time, or within the touch slop of it: a
        // pair a contact left at its separation bias meets again just past it): an event
        // only if the pair closes in by the measure the impulse uses (the line of
        // centres, strictly closing); the sweep's own normal may differ from it in the
        // last bit, and a contact the sweep calls closing but the impulse does not was
        // resolved to nothing and found again at the same instant, over and over.
        // Closing slower than the resting floor: the next resting solve's job. (Within
        // the slop but just apart, such a pair in a pile on a bowl met again and again,
        // at a few thousandths of the resting speed, to the bounce cap.)
        // One in flight resting on a settled one is pressed in by gravity alone: an event
        // all the same, where it settles (`settle.rs`).
        let touch = (a.radius + b.radius) * (1.0 + TOUCH_SLOP_REL);
        if toi == 0.0 || (pa - pb).length_squared() <= touch * touch {
            // (Coincident centres: against the relative motion, as the full sweep.)
            let normal = (pa - pb).try_normalize().unwrap_or((vb - va).normalize_or_zero());
            let pressed = bend.dot(normal) < 0.0;
            if !pressed && -(va - vb).dot(normal) <= self.settings.resting_speed * RESTING_EVENT_FRACTION {
                return None;
            }
        }
        Some(common + toi * rest)
    }
}

/// The earlier of two times, neither of them NaN: one compare (`f32::min` also handles
/// NaN, at several instructions more on every candidate pair).
#[inline(always)]
pub(super) fn earlier(a: f32, b: f32) -> f32 {
    if b < a { b } else { a }
}

/// The later of two times, neither of them NaN (see [`earlier`]).
#[inline(always)]
fn later(a: f32, b: f32) -> f32 {
    if b > a { b } else { a }
}

/// Whether two circles whose centres are `offset` apart, moving by `relative` against each
/// other over the rest of the step, surely stay more than `reach` apart: moving apart
/// from outside, clearly moving apart from a touch, or passing at a closest distance beyond `reach` by a margin far above
/// f32 rounding. Most candidate pairs end here, before the exact sweep.
#[inline]
fn clearly_apart(offset: Vec2, relative: Vec2, reach: f32) -> bool {
    let margin = reach * (1.0 + CLEARLY_APART_MARGIN);
    let margin2 = margin * margin;
    let along = offset.dot(relative);
    let dist2 = offset.length_squared();
    let m2 = relative.length_squared();
    // Every case is worked out and one is picked, with no branch: which case holds is a
    // coin toss from one candidate pair to the next, and a mispredicted branch costs more
    // than the arithmetic.
    // Moving apart (`along ≥ 0`): never closer than now; apart if so now, or if clearly
    // moving apart.
    let cos2 = CLEARLY_SEPARATING_COS * CLEARLY_SEPARATING_COS;
    let leaving = (dist2 > margin2) | (along * along > cos2 * dist2 * m2);
    // Closing in: the closest approach within the step, at t = −along/m² if that is
    // before 1 (then m² > 0: `along < 0` needs motion), else at the end.
    let at_closest = dist2 - along * along / m2;
    let at_end = (offset + relative).length_squared();
    let closest2 = if -along < m2 { at_closest } else { at_end };
    // (As arithmetic on the two answers, `&` and `|`: written as an `if`, the compiler
    // made it a branch.)
    ((along >= 0.0) & leaving) | ((along < 0.0) & (closest2 > margin2))
}
