//! The game: its rules and the players that feed them. Each idea has its own file:
//! - `rules.rs`: taps switch the gates, a block scores and speeds the room's turn, a
//!   ball out through an open gate ends the game, a ball out through a wall that was on
//!   is a fault;
//! - `predict.rs`: the aim line, the room stepped ahead by the plugin's `CcdPredict`
//!   with the rules as its hook;
//! - `ghost.rs`: the naive ball, moved by position plus velocity times dt and pushed out;
//! - `autoplay.rs`: a player that taps when the prediction shows the ball leaving;
//! - `input.rs`: Space, a click or a tap;
//! - `tape.rs`: the requests recorded, or fed back from a recording, step for step;
//! - `highscores` (shared, in `examples/support/`): the best scores, in the user's data directory.
//!
//! Every fixed step runs, in order: [`GameSystems::Input`] (the autoplayer, the tape),
//! [`GameSystems::Rules`] (requests, gates, the step's start noted), the plugin's step,
//! then [`GameSystems::Watch`] (hits, escapes, the ghost).

pub mod autoplay;
pub mod ghost;
pub use crate::support::highscores;
pub mod input;
pub mod predict;
pub mod rules;
pub mod state;
pub mod tape;

#[cfg(test)]
mod predict_tests;
#[cfg(test)]
mod rules_tests;

pub use state::{Game, Gates, RATES, Requests, Room, Tally};

use crate::room::{self, RoomDef};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The game's systems in the fixed step, in order around the plugin's.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// The autoplayer and the tape decide the step's requests.
    Input,
    /// Requests applied, gates switched, the step's start noted.
    Rules,
    /// After the plugin's report: hits, escapes, the ghost.
    Watch,
}

/// The room, its rules and its players.
pub struct GamePlugin {
    pub def: RoomDef,
    pub autoplay: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let entities = room::spawn(&mut app.world_mut().commands(), &self.def);
        app.world_mut().flush();
        app.insert_resource(Room {
            def: self.def.clone(),
            entities,
        })
        .init_resource::<Requests>()
        .init_resource::<Gates>()
        .init_resource::<Game>()
        .init_resource::<Tally>()
        .init_resource::<rules::StepStart>()
        .init_resource::<ghost::Ghost>()
        .init_resource::<predict::AimLine>()
        .init_resource::<highscores::HighScores>()
        .insert_resource(autoplay::Autoplay(self.autoplay))
        .configure_sets(
            FixedUpdate,
            (
                GameSystems::Input,
                GameSystems::Rules.before(CircleCcdSystems::Prepare),
                GameSystems::Watch.after(CircleCcdSystems::Report),
            )
                .chain(),
        )
        .add_systems(FixedUpdate, autoplay::play.in_set(GameSystems::Input))
        .add_systems(
            FixedUpdate,
            (rules::apply_requests, rules::switch_gates, rules::note_start)
                .chain()
                .in_set(GameSystems::Rules),
        )
        .add_systems(Update, predict::update_aim)
        .add_systems(
            FixedUpdate,
            (rules::watch_step, ghost::step_ghost, predict::note_aim)
                .chain()
                .in_set(GameSystems::Watch),
        );
    }
}
