//! The game: the rules, the players that feed them (the keys and the autoplayer), and the
//! game plugin with the table's resources and the order of its systems. Each idea has its
//! own file:
//! - `rules.rs`: the requests, the game's state, scoring and multiball; `serve.rs`:
//!   serving, the queued balls, game over;
//! - `progress.rs`: the richer table's progression (arrows, combos, bonus, lock,
//!   jackpot, kickback, extra ball, ball save), and `playfield.rs`: the rules that move
//!   it on;
//! - `tilt.rs`: nudges and the tilt;
//! - `tuning.rs`: the live tuning pushed into the parts' materials and kicks, which a
//!   tilt cuts;
//! - `highscores` (shared with Block it, in `examples/support/`): the top-5 file;
//! - `stats.rs`: run statistics and the watch over the balls (escapes, NaN, faults,
//!   the ball search);
//! - `drift.rs`: the energy drift watch (a ball's energy over free flights and rides);
//! - `autoplay.rs`: the autoplayer, with `aim.rs` (what it reads from the trajectory
//!   prediction);
//! - `input.rs` (window only): keys and mouse buttons;
//! - `tape.rs`: the inputs recorded, or fed back from a recording, step for step.
//!
//! The machine the rules play on (its parts, spawned from the table file, and their
//! physics) is in `table/`; the recording's file (`--record`, `--replay`) is in
//! `harness/replay.rs`.
//! Everything here runs the same with a window or headless.

pub mod aim;
pub mod autoplay;
pub mod drift;
pub use crate::support::highscores;
pub mod input;
pub mod playfield;
pub mod progress;
pub mod rules;
pub mod serve;
pub mod stats;
pub mod tape;
pub mod tilt;
pub mod trap_shot;
pub mod tuning;

use crate::game::autoplay::{Autoplay, autoplay};
use crate::game::drift::{DriftWatch, read_after, read_before};
use crate::game::playfield::{ball_save_clock, kickback_plate, lane_change, on_playfield_hits};
use crate::game::progress::Progress;
use crate::game::rules::{Game, PartHit, Requests, on_hits, prepare_game, rules_requests, score_spinners};
use crate::game::serve::serve;
use crate::game::stats::{
    RunStats, audit_every_step, collect_stats, keep_ramp_balls_on_ramp, watch_balls, watch_faults,
};
use crate::game::tape::tape;
use crate::game::tilt::nudge_and_tilt;
use crate::game::tuning::apply_tuning;
use crate::table::parts::{Controls, PlungerShown, drive_flippers, plunger};
use crate::table::ramp::{playfield_layer_by_default, switch_layers};
use crate::table::saucer::{Caught, catch, eject};
use crate::table::spawn::spawn_table;
use crate::table::{Table, TableDef, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The rules and the table's entities.
pub struct GamePlugin {
    pub table: TableDef,
    pub autoplay: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let def = self.table.clone();
        let ring = def.outline_points();
        app.add_plugins(crate::table::hinged::HingedPartsPlugin)
            .add_systems(FixedUpdate, score_spinners.after(CircleCcdSystems::Report))
            .add_message::<PartHit>()
            .add_message::<Caught>()
            .add_observer(playfield_layer_by_default)
            .insert_resource(Progress::new(&def))
            .insert_resource(Tune(def.tuning.clone()))
            .insert_resource(Table { def, ring })
            .insert_resource(Autoplay::new(self.autoplay))
            .init_resource::<Controls>()
            .init_resource::<Requests>()
            .init_resource::<Game>()
            .init_resource::<crate::game::highscores::HighScores>()
            .init_resource::<RunStats>()
            .init_resource::<DriftWatch>()
            .init_resource::<PlungerShown>()
            .add_systems(Startup, (spawn_table, prepare_game, audit_every_step))
            .add_systems(
                FixedUpdate,
                (
                    autoplay,
                    tape,
                    rules_requests,
                    nudge_and_tilt,
                    lane_change,
                    drive_flippers,
                    plunger,
                    eject,
                    kickback_plate,
                    apply_tuning,
                )
                    .chain()
                    .before(CircleCcdSystems::Prepare),
            )
            .add_systems(
                FixedUpdate,
                (
                    read_after,
                    on_hits,
                    switch_layers,
                    keep_ramp_balls_on_ramp,
                    catch,
                    on_playfield_hits,
                    serve,
                    ball_save_clock,
                    watch_balls,
                    watch_faults,
                    collect_stats,
                )
                    .chain()
                    .after(CircleCcdSystems::Report),
            )
            .add_systems(
                FixedUpdate,
                read_before
                    .after(CircleCcdSystems::Prepare)
                    .before(CircleCcdSystems::Step),
            );
    }
}

#[cfg(test)]
mod progress_tests;
#[cfg(test)]
mod rules_tests;
