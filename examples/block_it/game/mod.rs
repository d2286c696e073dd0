//! The game: its rules and the players that feed them. Each idea has its own file:
//! - `rules.rs`: taps switch the gates, a block scores and speeds the room's turn, a
//!   ball out through an open gate ends the game, a ball out through a wall that was on
//!   is a fault;
//! - `predict.rs`: the aim line, the room stepped ahead by the core's own `step_balls`;
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
pub mod tape;

#[cfg(test)]
mod predict_tests;
#[cfg(test)]
mod rules_tests;

use crate::room::{self, RoomDef, RoomEntities};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The fixed physics rates the game offers, Hz (`--hz` and the panel's switch).
pub const RATES: [u32; 3] = [30, 60, 120];

/// The room's definition, and its entities once spawned.
#[derive(Resource, Clone, Debug)]
pub struct Room {
    pub def: RoomDef,
    pub entities: RoomEntities,
}

/// What the player (or the autoplayer, or a replay) asks of the next fixed step.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    /// Switch both gates on for the room's `gate_seconds` (again, if they are on).
    pub tap: bool,
    /// Start a new game.
    pub new_game: bool,
}

/// The gates: on for `steps_left` more fixed steps.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gates {
    pub steps_left: u32,
}

impl Gates {
    /// Whether the gates are on in the coming step.
    #[must_use]
    pub const fn on(self) -> bool {
        self.steps_left > 0
    }
}

/// The game in play.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Game {
    /// Blocks this game: its score.
    pub score: u64,
    /// Whether a game is on (the ball in play).
    pub playing: bool,
    /// Seconds since the last game ended (the autoplayer waits before the next).
    pub over_for: f32,
    /// Games started.
    pub games: u64,
}

/// The whole run's figures, for the panel and the headless summary. Faults are an
/// escape through a wall that was on (a solid wall, or a gate during its steps) and a
/// NaN; a ball out through an open gate only ends its game.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub blocks: u64,
    pub best_score: u64,
    pub top_speed: f32,
    /// The ball's speed after the last step.
    pub speed: f32,
    /// Contacts of the ball in the last step.
    pub bounces_last_step: u32,
    pub most_bounces_in_a_step: u32,
    pub escapes_through_solid: u64,
    pub escapes_through_active_gate: u64,
    pub lost_through_open_gate: u64,
    pub nan: u64,
    pub steps: u64,
}

impl Tally {
    /// Faults: escapes through a wall that was on, and NaN.
    #[must_use]
    pub const fn faults(&self) -> u64 {
        self.escapes_through_solid + self.escapes_through_active_gate + self.nan
    }
}

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
