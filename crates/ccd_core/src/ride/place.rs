//! Where a ride's run leaves the ball in f32: its state at a step's end, which the next
//! step starts from (lone sweeps carry nothing else from step to step).
//!
//! Rounded without care, three things go wrong, each measured on a frictionless ball
//! swinging in a bowl or sliding off a post:
//! - **A hair off the part**, the next step flies before it lands again; at 1 kHz near
//!   where the press vanishes, for whole steps, and it leaves 1.5e-3 rad early. So the
//!   centre is put on the part's side of the exact circle, and the velocity rounded so
//!   that it does not turn away from the part: the next step meets the part at once.
//! - **The energy**: moving the centre by the rounding moves it in gravity's field.
//!   Gravity's work over the move is put into the speed (the next ride takes back the
//!   radial part as it puts the centre on the circle again), so that the energy is kept;
//!   but the work of the move along the circle only where it changes the speed by little
//!   ([`RIDE_ROUNDING_WORK_MAX_REL`]). Near a turning point a slow ball given an ulp's
//!   work as speed runs ahead of its swing (a bowl's passes jumped by up to 1e-4 of a
//!   period at a turn); there the energy changes by that ulp's work instead.
//! - **A bias along the circle**: of the f32 points on the part's side, the nearest is
//!   most often the one a step down the coordinate that points into the part, which near
//!   a bowl's bottom lies a little down the slope too: a loss of 5e-7 of the energy a
//!   step. The point taken is the one least moved along the circle.

use crate::ride::{RideState, Track};
use crate::tolerance::RIDE_ROUNDING_WORK_MAX_REL;
use glam::{DVec2, Vec2};

/// The ball's centre and velocity at `at` on `track` (its velocity `velocity`, exact), in
/// f32: on the part's side when the ride goes on (`stays`), else off it (a ball that
/// leaves the part then flies off without touching it again).
pub(crate) fn in_f32(track: &Track, at: RideState, velocity: DVec2, stays: bool) -> (Vec2, Vec2) {
    let exact = track.position(at.angle);
    let out = track.radial(at.angle);
    let toward = if track.inside == stays { out } else { -out };
    let center = on_side(exact, toward);
    let off = center.as_dvec2() - exact;
    // Gravity's work over the move: across the circle always (the next ride takes it
    // back); along it only where it changes the speed by little, and the ball can pay.
    let across = track.gravity.dot(out) * off.dot(out);
    let along = track.gravity.dot(off) - across;
    let speed_sq = velocity.length_squared();
    let work = if speed_sq + 2.0 * (across + along) >= 0.0
        && (2.0 * along).abs() <= RIDE_ROUNDING_WORK_MAX_REL * speed_sq
    {
        across + along
    } else {
        across
    };
    let velocity = with_work(velocity, work);
    if !stays {
        return (center, velocity.as_vec2());
    }
    // Towards the part as the next step's sweep sees it: from where the centre is.
    let placed = center.as_dvec2() - track.center;
    let into = if track.inside { placed } else { -placed };
    (center, nearest_not_against(velocity, into))
}

/// Of the f32 points next to `exact` (each coordinate rounded down or up) whose offset
/// does not point against `toward`, the one least moved across `toward`.
fn on_side(exact: DVec2, toward: DVec2) -> Vec2 {
    let mut best = exact.as_vec2();
    let mut least = (f64::INFINITY, f64::INFINITY);
    for candidate in neighbours(exact.as_vec2()) {
        let off = candidate.as_dvec2() - exact;
        let cost = (off.perp_dot(toward).abs(), off.dot(toward));
        if off.dot(toward) >= 0.0 && cost < least {
            best = candidate;
            least = cost;
        }
    }
    best
}

/// Of the f32 vectors next to `exact` with its part against `toward` taken out, the
/// nearest that does not point against `toward`. (Taken as it is, a velocity a rounding
/// turned a hair against `toward` had no such neighbour, and left the part: the next
/// step flew 3e-7 s before it landed, in 15% of a slow bowl's steps.)
pub(crate) fn nearest_not_against(exact: DVec2, toward: DVec2) -> Vec2 {
    let unit = toward.normalize_or_zero();
    let exact = exact - unit * exact.dot(unit).min(0.0);
    let mut best = exact.as_vec2();
    let mut least = f64::INFINITY;
    for candidate in neighbours(exact.as_vec2()) {
        let gap = (candidate.as_dvec2() - exact).length_squared();
        if candidate.as_dvec2().dot(toward) >= 0.0 && gap < least {
            best = candidate;
            least = gap;
        }
    }
    best
}

/// `near` and the eight f32 vectors around it, each coordinate one step down or up.
fn neighbours(near: Vec2) -> impl Iterator<Item = Vec2> {
    let around = |v: f32| [v.next_down(), v, v.next_up()];
    around(near.x)
        .into_iter()
        .flat_map(move |x| around(near.y).into_iter().map(move |y| Vec2::new(x, y)))
}

/// `velocity` with its kinetic energy per unit mass changed by `work`, in the same
/// direction (at least zero).
pub(crate) fn with_work(velocity: DVec2, work: f64) -> DVec2 {
    let speed_sq = velocity.length_squared();
    if speed_sq > 0.0 {
        velocity * ((speed_sq + 2.0 * work).max(0.0) / speed_sq).sqrt()
    } else {
        velocity
    }
}
