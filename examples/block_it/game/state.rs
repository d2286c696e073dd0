//! The game's state: the room, the requests of the next step, the gates, the game in
//! play and the run's figures, which the rules, the players and the views share.

use crate::room::{RoomDef, RoomEntities};
use bevy::prelude::*;

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
