//! The game plugin: the table's resources and the order of its systems. Each idea has
//! its own file:
//! - `spawn.rs`: the table's parts and the balls, from the table file (the richer
//!   table's parts in `spawn_playfield.rs`, their data in `playfield.rs`);
//! - `parts.rs`: the machine's parts (flipper stroke, plunger, kickers, materials);
//! - `hinged.rs`: the hinged parts (lane gate, spinner, motorised flippers);
//! - `rules.rs`: scoring, serving, multiball, game over;
//! - `progress.rs`: the richer table's progression (arrows, combos, bonus, lock,
//!   jackpot, kickback, extra ball, ball save), with `ramp.rs` (the collision layers),
//!   `saucer.rs` and `tilt.rs` (nudges and the tilt);
//! - `highscores.rs`: the top-5 file;
//! - `autoplay.rs`: the autoplayer;
//! - `stats.rs`: run statistics and the watch over the balls;
//! - `input.rs` (window only): keys and mouse buttons;
//! - `replay.rs`: recording the inputs and playing them back.
//!
//! Everything here runs the same with a window or headless.

use crate::autoplay::{Autoplay, autoplay};
use crate::parts::{PlungerShown, apply_tuning, drive_flippers, plunger};
use crate::progress::{Progress, ball_save_clock, kickback_plate, lane_change, on_playfield_hits};
use crate::ramp::{keep_ramp_balls_on_ramp, playfield_layer_by_default, switch_layers};
use crate::replay::tape;
use crate::rules::{Game, PartHit, Requests, on_hits, rules_requests, serve};
use crate::saucer::{Caught, catch, eject};
use crate::spawn::spawn_table;
use crate::stats::{RunStats, audit_every_step, collect_stats, watch_balls, watch_faults};
use crate::table::{Side, TableDef, Tuning};
use crate::tilt::nudge_and_tilt;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The table in use.
#[derive(Resource, Clone)]
pub struct Table {
    pub def: TableDef,
    pub ring: Vec<Vec2>,
}

/// Live tuning, edited by the panel.
#[derive(Resource, Clone, PartialEq)]
pub struct Tune(pub Tuning);

/// What the player (or the autoplayer) is holding.
#[derive(Resource, Default, Clone, Copy)]
pub struct Controls {
    pub left: bool,
    pub right: bool,
    pub plunger: bool,
}

impl Controls {
    /// Whether the flipper button of `side` is held.
    pub fn held(&self, side: Side) -> bool {
        match side {
            Side::Left => self.left,
            Side::Right => self.right,
        }
    }
}

/// The rules and the table's entities.
pub struct GamePlugin {
    pub table: TableDef,
    pub autoplay: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let def = self.table.clone();
        let ring = def.outline_points();
        app.add_plugins(crate::hinged::HingedPartsPlugin)
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
            .init_resource::<crate::highscores::HighScores>()
            .init_resource::<RunStats>()
            .init_resource::<PlungerShown>()
            .add_systems(Startup, (spawn_table, audit_every_step))
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
            );
    }
}
