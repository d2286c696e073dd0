//! The autoplayer. It reads the balls' futures from the trajectory prediction
//! (`aim.rs`, on the plugin's `predict_path`):
//! - it traps a slow ball on a raised flipper when only one ball is in play, lets it
//!   settle, then drops it and shoots it as it rolls down the blade: at the first lit shot
//!   it can make from there, at the flip point it learns from its own trap shots, else as
//!   soon as the ball rolls (`autoplay/trap.rs`, `trap_shot.rs`);
//! - it aims at the first lit shot by choosing when to flip: the lead before the ball's
//!   predicted arrival at the blade is taken from a small table per shot (a later flip
//!   meets the ball higher in the stroke, sending it more across the table);
//! - it nudges (from the side of the danger, never past the tilt's warning) when a ball
//!   is heading for an outlane;
//! - it plunges served balls and starts a new game after game over.
//!
//! It writes the same `Controls` and `Requests` the keys do, so replays record it.
use crate::game::aim::{AimInputs, Forecast, outlanes, resting_direction};

mod state;
mod trap;
use crate::game::progress::Progress;
use crate::game::rules::{Game, Nudge, Requests};
use crate::table::flipper_shape::BatShape;
use crate::table::parts::{Controls, Flipper, InPlay};
use crate::table::ramp::ON_PLAYFIELD;
use crate::table::{Side, Table, Tune};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
pub use state::Autoplay;
use state::{BallView, FLIP_COOLDOWN, FLIP_HOLD, REACH_FROM, Trap, lit_shots};
use trap::{Scene, trap};

/// A ball slower than this in the plunger lane waits to be launched, mm/s.
const WAITING_SPEED: f32 = 30.0;
/// Seconds after game over before the autoplayer starts a new game.
const NEW_GAME_WAIT: f32 = 1.0;
/// ... and from the blade's top to this height above it plus the ball's radius, mm...
const THREAT_HEIGHT: f32 = 45.0;
/// ... and not rising faster than this, mm/s.
const THREAT_RISE: f32 = 120.0;
/// Balls are predicted only below this height above the flippers' pivots, mm (the
/// prediction costs about 50 µs; far balls need none).
const PREDICT_BELOW: f32 = 350.0;
/// Seconds between two predictions of the balls.
const PREDICT_INTERVAL: f32 = 0.004;
/// Nudge only while the tilt bob is at most this (one nudge more stays under the
/// warning on the shipped tables), and not more often than this, s.
const NUDGE_SAFE_BOB: f32 = 0.3;
const NUDGE_COOLDOWN: f32 = 2.0;
/// The lead (s before the predicted arrival at the blade) for each shot, by the shot's
/// side relative to the flipper: across the table (a late meeting, high in the stroke),
/// up the middle, and up its own side (an early one).
const LEAD_ACROSS: f32 = 0.004;
const LEAD_MIDDLE: f32 = 0.010;
const LEAD_SAME_SIDE: f32 = 0.018;
/// Seconds a served ball rests before the autoplayer pulls the plunger.
const PLUNGE_DELAY: f32 = 0.4;
/// The shortest pull, as a fraction of a full one, and the step between the seven pulls.
const PULL_MIN: f32 = 0.7;
const PULL_STEP: f32 = 0.05;
/// Different pulls the autoplayer cycles through.
const PULL_KINDS: u64 = 7;

/// What the autoplayer watches: the game and its progression, the table with its tuning,
/// and the CCD world the balls' futures are predicted in.
#[derive(SystemParam)]
pub struct Watched<'w> {
    /// Game over or not, the score and ball number (which vary the plunge).
    game: Res<'w, Game>,
    /// The lit shots to aim at, and the tilt bob a nudge must respect.
    progress: Res<'w, Progress>,
    /// The physics tuning (gravity for the predictions).
    tune: Res<'w, Tune>,
    /// The table's definition.
    table: Res<'w, Table>,
    /// The world the predictions sweep through.
    world: Res<'w, CcdWorld>,
}

/// What the autoplayer works, as a player would: the flippers and plunger, and the
/// requests (a new game, a nudge).
#[derive(SystemParam)]
pub struct Hands<'w> {
    /// Flippers and plunger.
    controls: ResMut<'w, Controls>,
    /// A new game, a nudge.
    requests: ResMut<'w, Requests>,
}

/// One step of the autoplayer.
pub fn autoplay(
    time: Res<Time>,
    mut auto: ResMut<Autoplay>,
    hands: Hands,
    watched: Watched,
    balls: Query<BallView, InPlay>,
    flippers: Query<(&Flipper, &BatShape)>,
) {
    let Hands {
        mut controls,
        mut requests,
    } = hands;
    let Watched {
        game,
        progress,
        tune,
        table,
        world,
    } = watched;
    if !auto.on {
        return;
    }
    let dt = time.delta_secs();
    let now = time.elapsed_secs();
    if game.game_over {
        auto.game_over_wait += dt;
        if auto.game_over_wait > NEW_GAME_WAIT {
            requests.new_game = true;
            auto.game_over_wait = 0.0;
        }
        return;
    }
    if now >= auto.next_prediction {
        auto.next_prediction = now + PREDICT_INTERVAL;
        predict(&mut auto, &table, &tune, &world, &balls, &flippers);
    }
    let lone = balls.iter().count() == 1;
    if let Ok((tf, c, _, _)) = balls.single() {
        auto.trap_shots.watch(now, tf.translation.truncate(), c.velocity);
    }
    let aim = first_lit_shot(&progress);
    let gravity = table.def.rolling_gravity(&tune.0);
    for (f, _) in &flippers {
        let k = usize::from(f.side == Side::Right);
        auto.cooldown[k] = (auto.cooldown[k] - dt).max(0.0);
        auto.hold[k] = (auto.hold[k] - dt).max(0.0);
        let scene = Scene {
            now,
            lone,
            world: &world,
            progress: &progress,
            def: &table.def,
            gravity,
        };
        if matches!(auto.trap[1 - k], Trap::Aiming { .. }) {
            // The other flipper is about to shoot a trapped ball: this one stays down.
            continue;
        }
        if trap(&mut auto, k, &scene, f, &balls) {
            continue;
        }
        let lead = aim.map_or(LEAD_MIDDLE, |shot| lead_for(shot, f.side, &progress));
        let arriving = auto.arrivals[k].is_some_and(|(t, along, _)| t <= lead && along >= REACH_FROM);
        if (arriving || on_blade(f, &balls)) && auto.cooldown[k] == 0.0 && auto.hold[k] == 0.0 {
            auto.hold[k] = FLIP_HOLD;
            auto.cooldown[k] = FLIP_COOLDOWN;
        }
    }
    let trapping = |k: usize| matches!(auto.trap[k], Trap::Holding { .. });
    controls.left = auto.hold[0] > 0.0 || trapping(0);
    controls.right = auto.hold[1] > 0.0 || trapping(1);
    if let Some(nudge) = auto.outlane_danger
        && now >= auto.next_nudge
        && progress.tilt_bob <= NUDGE_SAFE_BOB
    {
        requests.nudge = Some(nudge);
        auto.next_nudge = now + NUDGE_COOLDOWN;
    }
    plunge(&mut auto, &mut controls, &game, &table, dt, &balls);
}

/// Predict every ball low on the table: its arrival at each flipper, and whether it is
/// heading for an outlane.
fn predict(
    auto: &mut Autoplay,
    table: &Table,
    tune: &Tune,
    world: &CcdWorld,
    balls: &Query<BallView, InPlay>,
    flippers: &Query<(&Flipper, &BatShape)>,
) {
    let def = &table.def;
    let gravity = def.rolling_gravity(&tune.0);
    let floor = flippers
        .iter()
        .map(|(f, _)| f.pivot.y)
        .fold(f32::INFINITY, f32::min);
    let (left_out, right_out) = outlanes(def);
    auto.arrivals = [None; 2];
    auto.outlane_danger = None;
    for (tf, c, layers, material) in balls {
        let p = tf.translation.truncate();
        if *layers != ON_PLAYFIELD || p.y > floor + PREDICT_BELOW || def.in_plunger_lane(p) {
            continue;
        }
        let inputs = AimInputs {
            world,
            layers: *layers,
            material: *material,
            radius: c.radius,
            gravity,
        };
        let forecast = Forecast::new(&inputs, p, c.velocity);
        for (f, bat) in flippers {
            let k = usize::from(f.side == Side::Right);
            if let Some(a) = forecast.arrival(f, bat, c.radius) {
                let speed = c.velocity.length();
                if auto.arrivals[k].is_none_or(|(t, _, _)| a.time < t) {
                    auto.arrivals[k] = Some((a.time, a.along, speed));
                }
            }
        }
        if left_out.is_some_and(|l| forecast.reaches(l, c.radius)) {
            auto.outlane_danger = Some(Nudge::Left);
        } else if right_out.is_some_and(|l| forecast.reaches(l, c.radius)) {
            auto.outlane_danger = Some(Nudge::Right);
        }
    }
}

/// Whether a ball is resting or rolling on the blade of `f` (near it and not rising).
fn on_blade(f: &Flipper, balls: &Query<BallView, InPlay>) -> bool {
    let dir = resting_direction(f);
    let normal = match f.side {
        Side::Left => dir.perp(),
        Side::Right => -dir.perp(),
    };
    balls.iter().any(|(tf, c, _, _)| {
        let p = tf.translation.truncate() - f.pivot;
        let along = p.dot(dir);
        let above = p.dot(normal);
        let reach = along > REACH_FROM * f.length && along < f.length + c.radius;
        reach && above < c.radius + THREAT_HEIGHT && above > 0.0 && c.velocity.y < THREAT_RISE
    })
}

/// The first major shot whose arrow is lit (the jackpot's ramp during multiball).
fn first_lit_shot(progress: &Progress) -> Option<usize> {
    lit_shots(progress).next()
}

/// The lead for `shot` from a flipper on `side`: across the table, up the middle (the
/// ramp and the saucer from the far flipper), or up the flipper's own side.
fn lead_for(shot: usize, side: Side, progress: &Progress) -> f32 {
    let name = progress.shot_names.get(shot).map_or("", String::as_str);
    match (name, side) {
        ("left orbit", Side::Right) | ("right orbit", Side::Left) => LEAD_ACROSS,
        ("left orbit", Side::Left) | ("right orbit", Side::Right) => LEAD_SAME_SIDE,
        _ => LEAD_MIDDLE,
    }
}

/// Plunger: a ball waiting in the lane is pulled back a varying amount, then released.
fn plunge(
    auto: &mut Autoplay,
    controls: &mut Controls,
    game: &Game,
    table: &Table,
    dt: f32,
    balls: &Query<BallView, InPlay>,
) {
    let pl = &table.def.plunger;
    let waiting = balls.iter().any(|(tf, c, _, _)| {
        let p = tf.translation.truncate();
        table.def.in_plunger_lane(p) && c.velocity.length() < WAITING_SPEED
    });
    if waiting {
        auto.rest_time += dt;
        if auto.rest_time > PLUNGE_DELAY {
            if auto.pull_target == 0.0 {
                // 0.7–1.0 of a full pull, varying from ball to ball.
                let phase =
                    (game.score / 10 + u64::from(game.ball_number) + 3 * u64::from(game.games)) % PULL_KINDS;
                auto.pull_target = pl.full_pull_seconds * (PULL_MIN + PULL_STEP * phase as f32);
            }
            controls.plunger = auto.rest_time - PLUNGE_DELAY < auto.pull_target;
        }
    } else {
        auto.rest_time = 0.0;
        auto.pull_target = 0.0;
        controls.plunger = false;
    }
}
