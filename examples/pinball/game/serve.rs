//! Serving: the next ball (or the same one again, saved; or an extra ball), the balls a
//! multiball (or the B key) has queued, the drop targets back up, and the end of the game
//! with its high score.

use crate::game::autoplay::Autoplay;
use crate::game::progress::Progress;
use crate::game::rules::{Game, PlayState};
use crate::game::stats::RunStats;
use crate::support::highscores::HighScores;
use crate::table::parts::{Ball, Part};
use crate::table::spawn::spawn_ball;
use crate::table::{Table, Tune, v};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core;
use bevy_circle_ccd::prelude::*;

/// Seconds between the balls a multiball (or the B key) launches.
const LAUNCH_INTERVAL: f32 = 0.8;
/// Auto-launch speed of multiball balls, mm/s.
const AUTO_LAUNCH_SPEED: f32 = 2600.0;
/// A ball is served only where no ball is within this many radii.
const SERVE_CLEARANCE_RADII: f32 = 2.5;
/// A target comes back up only where no ball is within this many radii of it.
const TARGET_CLEARANCE_RADII: f32 = 1.5;

/// The table as serving sees it: its definition and tuning, the balls on it, the drop
/// targets, and the commands that spawn balls and raise targets.
#[derive(SystemParam)]
pub struct ServeTable<'w, 's> {
    /// The table's definition.
    table: Res<'w, Table>,
    /// The physics tuning new balls take.
    tune: Res<'w, Tune>,
    /// The balls on the table.
    balls: Query<'w, 's, &'static Transform, With<Ball>>,
    /// The parts, searched for the drop targets.
    targets: Query<'w, 's, (Entity, &'static Part)>,
    /// Spawns balls and puts targets back up.
    commands: Commands<'w, 's>,
}

/// Serve the next ball, launch queued balls, bring targets back, end the game.
pub fn serve(
    time: Res<Time>,
    play: PlayState,
    auto: Res<Autoplay>,
    mut scores: ResMut<HighScores>,
    on_table: ServeTable,
) {
    let PlayState {
        mut game,
        mut progress,
        mut stats,
    } = play;
    let ServeTable {
        table,
        tune,
        balls,
        targets,
        mut commands,
    } = on_table;
    let dt = time.delta_secs();
    let def = &table.def;
    let in_play = balls.iter().count() as u32;
    if !game.game_over && in_play == 0 && game.launch_queue == 0 {
        let by = if auto.on { "AUTOPLAY" } else { "PLAYER" };
        let now = time.elapsed_secs();
        if next_ball(now, &mut game, &mut progress, &mut stats, def, &mut scores, by) {
            spawn_ball(&mut commands, &table, &tune.0, v(def.plunger.ball_at), Vec2::ZERO);
            stats.served += 1;
            game.reset_targets = true;
        }
    }
    if game.launch_queue > 0 {
        game.launch_timer -= dt;
        if game.launch_timer <= 0.0 {
            game.launch_timer = LAUNCH_INTERVAL;
            game.launch_queue -= 1;
            let at = Vec2::new(
                def.plunger.ball_at.0,
                def.plunger.zone_top + def.ball_radius * 2.0,
            );
            // Never on top of another ball.
            if balls
                .iter()
                .all(|tf| tf.translation.truncate().distance(at) > def.ball_radius * SERVE_CLEARANCE_RADII)
            {
                spawn_ball(
                    &mut commands,
                    &table,
                    &tune.0,
                    at,
                    Vec2::new(0.0, AUTO_LAUNCH_SPEED),
                );
                stats.served += 1;
            } else {
                game.launch_queue += 1;
            }
        }
    }
    if game.reset_targets && game.launch_queue == 0 {
        // Up again only where no ball is in the way.
        let clear = |(a, b): &((f32, f32), (f32, f32))| {
            let s = ccd_core::Segment::new(v(*a), v(*b));
            balls.iter().all(|tf| {
                let p = tf.translation.truncate();
                s.closest_point(p).distance(p) > def.ball_radius * TARGET_CLEARANCE_RADII
            })
        };
        if def.targets.iter().all(clear) {
            game.reset_targets = false;
            for (e, part) in &targets {
                if let Part::Target(k) = *part
                    && let Some((a, b)) = def.targets.get(k)
                    && game.targets_down.get(k) == Some(&true)
                {
                    commands.entity(e).insert(StaticSegment::new(v(*a), v(*b)));
                    game.targets_down[k] = false;
                }
            }
        }
    }
}

/// The last ball in play is gone: end the ball (its bonus, unless tilted) and decide what
/// comes next: the same ball again (ball save), an extra ball, the next ball, or game
/// over. Returns whether a ball is to be served.
fn next_ball(
    now: f32,
    game: &mut Game,
    progress: &mut Progress,
    stats: &mut RunStats,
    def: &crate::table::TableDef,
    scores: &mut HighScores,
    by: &str,
) -> bool {
    let saved = progress.ball_live && progress.saving(now) && !progress.tilted;
    if saved {
        // Once per ball: the clock does not start again.
        progress.save_until = Some(now);
        game.message = "BALL SAVED".into();
        stats.saves += 1;
        return true;
    }
    if progress.ball_live {
        let bonus = game.add(progress.end_of_ball_bonus());
        stats.ball_times.push(now - progress.ball_started);
        progress.ball_live = false;
        if bonus > 0 {
            game.message = format!("BONUS {} x {}", progress.bonus, progress.multiplier);
        }
    }
    if progress.extra_balls > 0 && game.ball_number >= 1 {
        progress.extra_balls -= 1;
        game.message = "SHOOT AGAIN".into();
        progress.new_ball(now);
        return true;
    }
    if game.ball_number < def.balls_per_game {
        game.ball_number += 1;
        if game.ball_number > 1 {
            game.message = format!("Ball {}", game.ball_number);
        }
        progress.new_ball(now);
        return true;
    }
    game.game_over = true;
    game.high_score = game.high_score.max(game.score);
    scores.enter(game.score, by);
    game.high_score = game.high_score.max(scores.best());
    game.message = "GAME OVER: press N for a new game".into();
    false
}
