//! The rules: what the player asks for (a new game, another ball, a nudge), the game's
//! state, scoring on hits and on the spinners' turns, and multiball (serving balls and
//! the end of the game: `serve.rs`). Rules tell the view what was hit with a [`PartHit`]
//! message; they never touch the looks.

use crate::game::progress::Progress;
use crate::game::stats::RunStats;
use crate::table::Table;
use crate::table::hinged::SpinnerTurns;
use crate::table::parts::{Ball, Part};
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use serde::{Deserialize, Serialize};
use std::f32::consts::TAU;

/// Balls a completed target bank adds (multiball).
const MULTIBALL_EXTRA_BALLS: u32 = 2;
/// Points for each scoring hit.
pub mod points {
    /// A slingshot that fired.
    pub const SLING: u64 = 10;
    /// A pop bumper that fired.
    pub const BUMPER: u64 = 100;
    /// Every rollover lane lit.
    pub const ALL_LANES: u64 = 5000;
    /// One drop target down.
    pub const TARGET: u64 = 250;
    /// The whole bank down (and multiball).
    pub const BANK: u64 = 5000;
}

/// Requests from keys and buttons, taken by the next fixed step.
#[derive(Resource, Default)]
pub struct Requests {
    pub new_game: bool,
    pub add_ball: bool,
    /// A nudge of the cabinet (`tilt.rs`).
    pub nudge: Option<Nudge>,
}

/// A nudge, named by the side of the cabinet the player shoves from.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nudge {
    /// Shoved from the left: the balls jump to the right.
    Left,
    /// Shoved from the right: the balls jump to the left.
    Right,
    /// Shoved from the front: the balls jump up the table.
    Front,
}

impl Nudge {
    /// The direction the balls are pushed, relative to the table.
    #[must_use]
    pub fn direction(self) -> Vec2 {
        match self {
            Self::Left => Vec2::X,
            Self::Right => Vec2::NEG_X,
            Self::Front => Vec2::Y,
        }
    }
}

#[derive(Resource, Default)]
pub struct Game {
    pub score: u64,
    pub high_score: u64,
    pub ball_number: u32,
    pub game_over: bool,
    pub rollovers_lit: Vec<bool>,
    pub targets_down: Vec<bool>,
    pub launch_queue: u32,
    /// Seconds until the next queued ball is launched (`serve.rs`).
    pub(super) launch_timer: f32,
    /// The drop targets are to come back up, once no ball is in their way (`serve.rs`).
    pub(super) reset_targets: bool,
    pub message: String,
    pub games: u32,
}

impl Game {
    /// Add `points` while a game is running; returns the points scored.
    pub fn add(&mut self, points: u64) -> u64 {
        if self.game_over {
            0
        } else {
            self.score += points;
            points
        }
    }
}

/// A part the rules counted a hit on, for the view to light it up.
#[derive(Message, Clone, Copy, Debug)]
pub struct PartHit {
    pub entity: Entity,
    pub part: Part,
    /// Where the ball touched it, table mm.
    pub point: Vec2,
    /// Points the hit scored (0 when none, or when no game is running).
    pub points: u64,
}

/// The game in play, as the systems that score change it: the score, the balls and the
/// lamps (`Game`), the progression (`Progress`) and the run's counts (`RunStats`).
#[derive(SystemParam)]
pub struct PlayState<'w> {
    /// Score, ball number, lit lanes and targets down, the launch queue, the message.
    pub game: ResMut<'w, Game>,
    /// The richer table's progression: arrows, bonus, locks, ball save, tilt.
    pub progress: ResMut<'w, Progress>,
    /// The run's counts for the summary.
    pub stats: ResMut<'w, RunStats>,
}

/// The rules before the first game (startup): a lamp for each rollover and a flag for
/// each drop target, none lit or down, and game over until a new game is asked for.
pub fn prepare_game(table: Res<Table>, mut game: ResMut<Game>) {
    let t = &table.def;
    game.rollovers_lit = vec![false; t.rollovers.len()];
    game.targets_down = vec![false; t.targets.len()];
    game.game_over = true;
    game.message = "Press N for a new game".into();
}

pub fn rules_requests(
    mut requests: ResMut<Requests>,
    mut game: ResMut<Game>,
    mut progress: ResMut<Progress>,
    table: Res<Table>,
    mut commands: Commands,
    balls: Query<Entity, With<Ball>>,
) {
    if requests.new_game {
        requests.new_game = false;
        for b in &balls {
            commands.entity(b).despawn();
        }
        let lit = game.rollovers_lit.len();
        let down = game.targets_down.len();
        *game = Game {
            high_score: game.high_score,
            games: game.games + 1,
            rollovers_lit: vec![false; lit],
            targets_down: vec![false; down],
            message: "Ball 1: hold Space to pull the plunger".into(),
            ..default()
        };
        *progress = Progress::new(&table.def);
    }
    if requests.add_ball {
        requests.add_ball = false;
        game.launch_queue += 1;
    }
}

/// Scores the step's hits on parts: slings and bumpers that kicked, rollovers, drop targets;
/// despawns drained balls (their later hits are skipped) and tells the view what lit up.
pub fn on_hits(
    mut hits: MessageReader<CircleHit>,
    parts: Query<&Part>,
    play: PlayState,
    table: Res<Table>,
    mut commands: Commands,
    mut gone: Local<EntityHashSet>,
    mut lit: MessageWriter<PartHit>,
) {
    let PlayState {
        mut game,
        mut progress,
        mut stats,
    } = play;
    gone.clear();
    for hit in hits.read() {
        if gone.contains(&hit.circle) {
            continue;
        }
        let Ok(part) = parts.get(hit.other) else {
            continue;
        };
        let mut flash = false;
        let before = game.score;
        match *part {
            // The kicks themselves happened in the sweep, at the instant of impact.
            Part::Sling(_) if hit.kick > 0.0 => {
                game.add(points::SLING);
                flash = true;
            }
            Part::Bumper(_) if hit.kick > 0.0 => {
                game.add(points::BUMPER);
                flash = true;
            }
            Part::Rollover(k) => {
                light_rollover(&mut game, &table.def, k);
                flash = true;
            }
            Part::Target(k) => {
                if game.targets_down.get(k) == Some(&false) {
                    game.targets_down[k] = true;
                    commands.entity(hit.other).remove::<StaticSegment>();
                    score_target(&mut game, progress.reborrow(), stats.reborrow(), &table.def);
                }
                flash = true;
            }
            Part::Drain => {
                commands.entity(hit.circle).despawn();
                gone.insert(hit.circle);
                stats.drained += 1;
                stats.count_drain(&table.def, hit.center);
            }
            _ => {}
        }
        if flash {
            lit.write(PartHit {
                entity: hit.other,
                part: *part,
                point: hit.point,
                points: game.score - before,
            });
        }
    }
}

/// Score each spinner's new whole turns (either way round).
pub fn score_spinners(mut spinners: Query<(&Hinge, &mut SpinnerTurns)>, mut game: ResMut<Game>) {
    for (hinge, mut turns) in &mut spinners {
        let now = (hinge.angle / TAU).trunc() as i64;
        let new = (now - turns.scored).unsigned_abs();
        if new > 0 {
            turns.scored = now;
            if !game.game_over {
                game.score += new * u64::from(turns.points_per_turn);
            }
        }
    }
}

/// Rollover lane `k` scores its points and lights; with every lane lit, the all-lanes
/// bonus, and the lanes go out.
fn light_rollover(game: &mut Game, def: &crate::table::TableDef, k: usize) {
    let lane_points = def.rollovers.get(k).map_or(0, |r| r.points);
    game.add(u64::from(lane_points));
    if let Some(lit) = game.rollovers_lit.get_mut(k) {
        *lit = true;
    }
    if game.rollovers_lit.iter().all(|l| *l) {
        game.add(points::ALL_LANES);
        game.message = "All lanes lit: 5,000".into();
        game.rollovers_lit.iter_mut().for_each(|l| *l = false);
    }
}

/// A drop target just went down: its points; the last of the bank scores the bank and
/// lights the lock or starts multiball. `progress` and `stats` come as [`Mut`] so that
/// only a real change marks them changed (the view watches `Progress`).
fn score_target(
    game: &mut Game,
    mut progress: Mut<Progress>,
    mut stats: Mut<RunStats>,
    def: &crate::table::TableDef,
) {
    game.add(points::TARGET);
    if game.targets_down.iter().all(|d| *d) {
        game.add(points::BANK);
        if def.playfield.saucer.is_some() {
            // The richer table: the bank lights the lock at the saucer,
            // and comes back up at once. No lock during multiball (the
            // jackpot is lit then): multiballs do not stack.
            game.reset_targets = true;
            if !progress.jackpot_lit {
                progress.lock_lit = true;
                game.message = "LOCK IS LIT at the saucer".into();
            }
        } else {
            game.message = "MULTIBALL!".into();
            // The bank stays down until the next ball is served.
            game.launch_queue += MULTIBALL_EXTRA_BALLS;
            stats.multiballs += 1;
        }
    }
}
