//! The tape: every tap and new game recorded with the fixed step it took effect on, or
//! fed back from a recording, step for step. The physics and the rules are deterministic
//! and the game draws no random numbers, so the inputs alone reproduce a game, bit for
//! bit. Writing a recording to its file and reading one back (`--record`, `--replay`) is
//! the harness's (`harness/replay.rs`).

use crate::game::Requests;
use crate::room::RoomDef;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A recorded game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    pub room: String,
    /// The room file's fingerprint, 16 hex digits.
    pub room_fingerprint: String,
    pub version: String,
    /// The fixed rate, Hz.
    pub hz: u32,
    /// Fixed steps recorded.
    pub steps: u64,
    /// Every step with a request, in order.
    pub inputs: Vec<InputAt>,
}

/// The requests made on fixed step `step` (counting from 1).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct InputAt {
    pub step: u64,
    #[serde(default)]
    pub tap: bool,
    #[serde(default)]
    pub new_game: bool,
}

/// A fingerprint as the replay file writes it: 16 hex digits.
pub fn hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

impl Replay {
    /// An empty recording of `def` at `hz`.
    #[must_use]
    pub fn new(def: &RoomDef, hz: u32) -> Self {
        Self {
            room: def.name.clone(),
            room_fingerprint: hex(def.fingerprint),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            hz,
            steps: 0,
            inputs: Vec::new(),
        }
    }
}

/// Recording (to `file` at the end, if any) or playing back.
#[derive(Resource, Clone, Debug)]
pub enum Tape {
    Record {
        replay: Replay,
        file: Option<PathBuf>,
    },
    Play {
        replay: Replay,
        next: usize,
        played: u64,
    },
}

/// Records or plays back the step's requests: after the player's (keys or autoplayer),
/// before the rules read them.
pub fn tape(tape: Option<ResMut<Tape>>, mut requests: ResMut<Requests>) {
    let Some(mut tape) = tape else {
        return;
    };
    match &mut *tape {
        Tape::Record { replay, .. } => {
            replay.steps += 1;
            if requests.tap || requests.new_game {
                replay.inputs.push(InputAt {
                    step: replay.steps,
                    tap: requests.tap,
                    new_game: requests.new_game,
                });
            }
        }
        Tape::Play { replay, next, played } => {
            *played += 1;
            *requests = Requests::default();
            while let Some(input) = replay.inputs.get(*next).filter(|i| i.step <= *played) {
                requests.tap |= input.tap;
                requests.new_game |= input.new_game;
                *next += 1;
            }
        }
    }
}

/// Play `replay` back from its first step.
#[must_use]
pub fn player(replay: Replay) -> Tape {
    Tape::Play {
        replay,
        next: 0,
        played: 0,
    }
}
