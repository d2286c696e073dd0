//! The autoplayer: a player that taps at the right time, by the prediction. Before each
//! step it predicts the room's next `lead_steps` steps with the gates as they are; if the
//! ball would leave through a gate in them, it taps (the gates are then on from this
//! step). After `retire_after_blocks` blocks in a game it stops tapping, so that the game
//! ends, and it starts the next one after `restart_seconds`.

use super::predict::{Ahead, Horizon};
use super::state::{Game, Requests};
use bevy::prelude::*;

/// Whether the autoplayer plays.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Autoplay(pub bool);

impl Autoplay {
    /// Who a high score is by.
    #[must_use]
    pub const fn by(self) -> &'static str {
        if self.0 { "AUTOPLAY" } else { "PLAYER" }
    }
}

/// Decides this step's tap or new game.
pub fn play(autoplay: Res<Autoplay>, ahead: Ahead, game: Res<Game>, mut requests: ResMut<Requests>) {
    if !autoplay.0 {
        return;
    }
    let def = ahead.def();
    if !game.playing {
        requests.new_game |= game.games == 0 || game.over_for >= def.autoplay.restart_seconds;
        return;
    }
    if game.score >= u64::from(def.autoplay.retire_after_blocks) {
        return;
    }
    let horizon = Horizon {
        contacts: usize::MAX,
        steps: def.autoplay.lead_steps,
    };
    let forecast = ahead.forecast(horizon);
    if forecast.exit.is_some_and(|e| e.wall.is_gate() && !e.wall_on) {
        requests.tap = true;
    }
}
