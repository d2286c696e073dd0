//! The autoplayer: flips when a ball comes down over a flipper, plunges served balls and
//! starts a new game after game over. It writes the same `Controls` and `Requests` the
//! keys do.

use crate::game::{Controls, Table};
use crate::parts::Flipper;
use crate::rules::{Game, Requests};
use crate::spawn::Ball;
use crate::table::Side;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// A ball slower than this in the plunger lane waits to be launched, mm/s.
const WAITING_SPEED: f32 = 30.0;
/// Seconds after game over before the autoplayer starts a new game.
const NEW_GAME_WAIT: f32 = 1.0;
/// A ball threatens a flipper over the bat's length from this fraction of it to the tip.
const REACH_FROM: f32 = 0.25;
/// ... and from the blade's top to this height above it plus the ball's radius, mm.
const THREAT_HEIGHT: f32 = 45.0;
/// ... and not rising faster than this, mm/s.
const THREAT_RISE: f32 = 120.0;
/// How long the autoplayer holds a flip, and how long it waits before the next, s.
const FLIP_HOLD: f32 = 0.14;
const FLIP_COOLDOWN: f32 = 0.30;
/// Seconds a served ball rests before the autoplayer pulls the plunger.
const PLUNGE_DELAY: f32 = 0.4;
/// The shortest pull, as a fraction of a full one, and the step between the seven pulls.
const PULL_MIN: f32 = 0.7;
const PULL_STEP: f32 = 0.05;
/// Different pulls the autoplayer cycles through.
const PULL_KINDS: u64 = 7;

/// The autoplayer's switch and state.
#[derive(Resource)]
pub struct Autoplay {
    pub on: bool,
    hold: [f32; 2],
    cooldown: [f32; 2],
    rest_time: f32,
    pull_target: f32,
    game_over_wait: f32,
}

impl Autoplay {
    /// On or off, at rest.
    pub fn new(on: bool) -> Self {
        Self {
            on,
            hold: [0.0; 2],
            cooldown: [0.0; 2],
            rest_time: 0.0,
            pull_target: 0.0,
            game_over_wait: 0.0,
        }
    }
}

/// One step of the autoplayer.
#[allow(clippy::too_many_arguments)]
pub fn autoplay(
    time: Res<Time>,
    mut auto: ResMut<Autoplay>,
    mut controls: ResMut<Controls>,
    mut requests: ResMut<Requests>,
    game: Res<Game>,
    table: Res<Table>,
    balls: Query<(&Transform, &MovingCircle), With<Ball>>,
    flippers: Query<&Flipper>,
) {
    if !auto.on {
        return;
    }
    let dt = time.delta_secs();
    if game.game_over {
        auto.game_over_wait += dt;
        if auto.game_over_wait > NEW_GAME_WAIT {
            requests.new_game = true;
            auto.game_over_wait = 0.0;
        }
        return;
    }
    for f in &flippers {
        let k = usize::from(f.side == Side::Right);
        let rest_dir = match f.side {
            Side::Left => Vec2::from_angle(f.rest),
            Side::Right => Vec2::from_angle(std::f32::consts::PI - f.rest),
        };
        let threat = balls.iter().any(|(tf, c)| {
            let p = tf.translation.truncate() - f.pivot;
            let along = p.dot(rest_dir);
            // Height above the resting blade (its left normal on the left side).
            let normal = match f.side {
                Side::Left => rest_dir.perp(),
                Side::Right => -rest_dir.perp(),
            };
            let above = p.dot(normal);
            let reach = along > REACH_FROM * f.length && along < f.length + c.radius;
            reach && above < c.radius + THREAT_HEIGHT && above > 0.0 && c.velocity.y < THREAT_RISE
        });
        auto.cooldown[k] = (auto.cooldown[k] - dt).max(0.0);
        auto.hold[k] = (auto.hold[k] - dt).max(0.0);
        if threat && auto.cooldown[k] == 0.0 && auto.hold[k] == 0.0 {
            auto.hold[k] = FLIP_HOLD;
            auto.cooldown[k] = FLIP_COOLDOWN;
        }
    }
    controls.left = auto.hold[0] > 0.0;
    controls.right = auto.hold[1] > 0.0;
    // Plunger: a ball waiting in the lane is pulled back a varying amount, then released.
    let pl = &table.def.plunger;
    let waiting = balls.iter().any(|(tf, c)| {
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
