//! Aimed shots from a trapped ball. A ball trapped on a raised flipper is a repeatable
//! start: let go, it rolls down the blade, and where it is along the blade when the
//! flipper fires sets the direction it leaves in. The autoplayer aims as a player does:
//! - it finds the direction that makes the lit shot by prediction: from where its earlier
//!   trap shots from this flipper left the blade, at the speed they left at, it predicts
//!   the path every [`SCAN_STEP`] degrees over the flipper's reach
//!   ([`CcdWorld::predict_path`], through the table's static parts), and takes the middle
//!   of the widest band of directions whose path reaches the shot's target;
//! - it turns that direction into a flip point by what it saw of its own trap shots (the
//!   flip point and the direction the ball left in), between the two nearest on either
//!   side, so it aims better with each shot. Its first shot from a flipper flips at
//!   [`FIRST_ALONG`], to learn from.

use crate::game::aim::{AimInputs, Forecast, Line};
use crate::game::progress::Progress;
use crate::table::{Side, TableDef, v};
use bevy::prelude::*;

/// Where along the blade (a fraction of its length) the first trap shot from a flipper
/// fires, before there is anything to aim by: near the tip, where most of the flipper's
/// reach lies (the direction turns fastest with the flip point there).
const FIRST_ALONG: f32 = 0.9;
/// The flip points the autoplayer will choose: from past the blade's middle (nearer the
/// pivot every flip point sends the ball straight up) to just short of its tip (a ball
/// past it has left the blade before the stroke meets it), fractions of its length.
const ALONG_RANGE: (f32, f32) = (0.5, 0.97);
/// How the direction turns with the flip point near the tip, degrees per blade length,
/// for a left flipper (a right one turns the other way): the slope the autoplayer assumes
/// while it has seen only one shot. (Starfall's bats turn by about 150.)
const TURN_PER_ALONG: f32 = -150.0;
/// The directions a trap shot can leave in, degrees counter-clockwise from +x, for a left
/// flipper (a right one mirrors them): from across the table to straight up.
const REACH_DEGREES: (f32, f32) = (30.0, 90.0);
/// How far outside the reach a watched shot may leave and still be learnt from, degrees
/// (beyond it the stroke missed the ball, or the ball met something within [`WATCH`]).
const REACH_SLACK: f32 = 15.0;
/// The step between the directions the scan predicts, degrees.
const SCAN_STEP: f32 = 0.5;
/// How long after the flip the ball's flight is read, s: it has left the blade and met
/// nothing yet.
pub const WATCH: f32 = 0.03;
/// Trap shots remembered per flipper (the oldest is forgotten first).
const MAX_LAUNCHES: usize = 32;

/// One trap shot watched: where along the blade the ball was when the flipper fired (a
/// fraction of its length), and where and how fast the ball was [`WATCH`] s later.
#[derive(Clone, Copy, Debug)]
struct Launch {
    along: f32,
    point: Vec2,
    velocity: Vec2,
}

impl Launch {
    /// The direction the ball left in, degrees.
    fn degrees(&self) -> f32 {
        self.velocity.to_angle().to_degrees()
    }
}

/// A trap shot fired and not yet watched: its flip point and when it fired.
#[derive(Clone, Copy, Debug)]
struct Fired {
    along: f32,
    at: f32,
}

/// What the autoplayer has learnt of each flipper's trap shots (left, right).
#[derive(Default)]
pub struct TrapShots {
    launches: [Vec<Launch>; 2],
    fired: [Option<Fired>; 2],
}

/// What a shot must reach to be made: a line it crosses (an orbit's, the ramp's mouth),
/// or a point it passes within a distance of (the saucer's centre, its catch radius).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    pub line: Line,
    pub within: f32,
}

/// The target of major shot `k` on `def` (see [`Progress::shot_names`]).
#[must_use]
pub fn target(def: &TableDef, progress: &Progress, k: usize) -> Option<Target> {
    let p = &def.playfield;
    if let Some(shot) = p.shots.get(k) {
        return Some(Target {
            line: (v(shot.a), v(shot.b)),
            within: 0.0,
        });
    }
    if progress.ramp_shot() == Some(k) {
        let ramp = p.ramp.as_ref()?;
        return Some(Target {
            line: (v(ramp.entry.0), v(ramp.entry.1)),
            within: 0.0,
        });
    }
    if progress.saucer_shot() == Some(k) {
        let saucer = p.saucer.as_ref()?;
        let c = v(saucer.center);
        return Some(Target {
            line: (c, c),
            within: saucer.catch_radius,
        });
    }
    None
}

impl TrapShots {
    /// The flip point (a fraction of the blade's length) that sends a ball trapped on
    /// flipper `side` to `target`, or `None` when no direction in the flipper's reach does.
    #[must_use]
    pub fn flip_point(&self, side: Side, target: Target, inputs: &AimInputs) -> Option<f32> {
        let seen = &self.launches[index(side)];
        // Predicted from the last shot's flight: where and how fast it left the blade.
        let Some(last) = seen.last() else {
            return Some(FIRST_ALONG);
        };
        let degrees = direction_to(side, target, *last, inputs)?;
        Some(along_for(side, seen, degrees).clamp(ALONG_RANGE.0, ALONG_RANGE.1))
    }

    /// The flipper on `side` fired at a trap shot with the ball at `along` at time `now`.
    pub fn fired(&mut self, side: Side, along: f32, now: f32) {
        self.fired[index(side)] = Some(Fired { along, at: now });
    }

    /// Watch the shots fired [`WATCH`] s ago: the lone ball at `point` moving at `velocity`.
    pub fn watch(&mut self, now: f32, point: Vec2, velocity: Vec2) {
        for (k, side) in [(0, Side::Left), (1, Side::Right)] {
            let Some(f) = self.fired[k] else { continue };
            if now - f.at < WATCH {
                continue;
            }
            self.fired[k] = None;
            if now - f.at > 2.0 * WATCH {
                // Not watched in time (a second ball came into play): not a clean shot.
                continue;
            }
            let degrees = mirrored(side, velocity.to_angle().to_degrees());
            if !(REACH_DEGREES.0 - REACH_SLACK..=REACH_DEGREES.1 + REACH_SLACK).contains(&degrees) {
                continue;
            }
            let seen = &mut self.launches[k];
            if seen.len() == MAX_LAUNCHES {
                seen.remove(0);
            }
            seen.push(Launch {
                along: f.along,
                point,
                velocity,
            });
        }
    }
}

/// 0 for the left flipper, 1 for the right.
fn index(side: Side) -> usize {
    usize::from(side == Side::Right)
}

/// A left flipper's angle in degrees, or its mirror for a right one.
fn mirrored(side: Side, degrees: f32) -> f32 {
    match side {
        Side::Left => degrees,
        Side::Right => 180.0 - degrees,
    }
}

/// The middle of the widest band of directions within the flipper's reach whose predicted
/// path, from where `launch` left the blade and at its speed, reaches `target`.
fn direction_to(side: Side, target: Target, launch: Launch, inputs: &AimInputs) -> Option<f32> {
    let speed = launch.velocity.length();
    let steps = ((REACH_DEGREES.1 - REACH_DEGREES.0) / SCAN_STEP) as u32;
    let mut best: Option<(u32, u32)> = None;
    let mut run: Option<u32> = None;
    for i in 0..=steps + 1 {
        let hit = i <= steps && {
            let degrees = mirrored(side, REACH_DEGREES.0 + SCAN_STEP * i as f32);
            let velocity = Vec2::from_angle(degrees.to_radians()) * speed;
            Forecast::aimed(inputs, launch.point, velocity).passes(target.line, target.within)
        };
        match (hit, run) {
            (true, None) => run = Some(i),
            (false, Some(first)) => {
                if best.is_none_or(|(a, b)| i - first > b - a) {
                    best = Some((first, i));
                }
                run = None;
            }
            _ => {}
        }
    }
    let (first, end) = best?;
    let middle = 0.5 * (first + end - 1) as f32;
    Some(mirrored(side, REACH_DEGREES.0 + SCAN_STEP * middle))
}

/// The flip point that sends the ball in direction `degrees`, from the shots `seen`: on
/// the line through the nearest seen direction on each side of it, else through the
/// nearest one at the assumed slope.
fn along_for(side: Side, seen: &[Launch], degrees: f32) -> f32 {
    let below = seen
        .iter()
        .filter(|l| l.degrees() <= degrees)
        .max_by(|a, b| a.degrees().total_cmp(&b.degrees()));
    let above = seen
        .iter()
        .filter(|l| l.degrees() > degrees)
        .min_by(|a, b| a.degrees().total_cmp(&b.degrees()));
    match (below, above) {
        (Some(a), Some(b)) if (b.along - a.along).abs() > f32::EPSILON => {
            let t = (degrees - a.degrees()) / (b.degrees() - a.degrees());
            a.along + t * (b.along - a.along)
        }
        (Some(l), _) | (_, Some(l)) => {
            let slope = match side {
                Side::Left => TURN_PER_ALONG,
                Side::Right => -TURN_PER_ALONG,
            };
            l.along + (degrees - l.degrees()) / slope
        }
        (None, None) => FIRST_ALONG,
    }
}

#[cfg(test)]
#[path = "trap_shot_tests.rs"]
mod tests;
