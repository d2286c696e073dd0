//! The tape: every change of the player's inputs (the keys or the autoplayer) recorded
//! with the fixed step it took effect on, or fed back from a recording, step for step. The
//! physics and the rules are deterministic and the game draws no random numbers (the
//! autoplayer varies its plunger pulls by the score), so the inputs alone reproduce a
//! game: the same score and the same ball positions, bit for bit. Writing a recording to
//! its file and reading one back (`--record`, `--replay`) is the harness's
//! (`harness/replay.rs`).

use crate::game::rules::{Nudge, Requests};
use crate::table::Table;
use crate::table::parts::Controls;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A recorded game.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// The table it was played on (a replay on another table is refused).
    pub table: String,
    /// The table file's fingerprint ([`crate::table::fingerprint`]), as 16 hex digits: a
    /// replay on the same table's file once edited is refused too.
    pub table_fingerprint: String,
    /// The version of the code that recorded it (`CARGO_PKG_VERSION`): another version
    /// may play the same inputs differently.
    pub version: String,
    /// The fixed physics rate, Hz.
    pub hz: f64,
    /// Fixed steps recorded.
    pub steps: u64,
    /// Every change of the inputs, in step order.
    pub inputs: Vec<InputAt>,
}

/// The inputs in force from fixed step `step` on (counting from 1), and the one-shot
/// requests made on that step.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(deny_unknown_fields)]
pub struct InputAt {
    pub step: u64,
    pub left: bool,
    pub right: bool,
    pub plunger: bool,
    pub new_game: bool,
    pub add_ball: bool,
    #[serde(default)]
    pub nudge: Option<Nudge>,
}

impl InputAt {
    fn read(step: u64, c: &Controls, r: &Requests) -> Self {
        Self {
            step,
            left: c.left,
            right: c.right,
            plunger: c.plunger,
            new_game: r.new_game,
            add_ball: r.add_ball,
            nudge: r.nudge,
        }
    }

    /// The same inputs, ignoring the step.
    fn same(&self, other: &Self) -> bool {
        Self { step: 0, ..*self } == Self { step: 0, ..*other }
    }
}

/// A fingerprint as the replay file writes it.
pub fn hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

/// Recording (`Some(file)` to write on exit) or playing back a replay.
#[derive(Resource)]
pub enum Tape {
    /// Recording into `replay`, to be written to `file` on exit.
    Record { replay: Replay, file: Option<PathBuf> },
    /// Playing `replay`: the next input to apply, and the steps played so far.
    Play {
        replay: Replay,
        next: usize,
        played: u64,
    },
}

impl Tape {
    /// A new recording for `table` at `hz`.
    pub fn record(table: &Table, hz: f64, file: Option<PathBuf>) -> Self {
        Self::Record {
            replay: Replay {
                table: table.def.name.clone(),
                table_fingerprint: hex(table.def.fingerprint),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                hz,
                steps: 0,
                inputs: Vec::new(),
            },
            file,
        }
    }

    /// The replay recorded or played.
    pub fn replay(&self) -> &Replay {
        match self {
            Self::Record { replay, .. } | Self::Play { replay, .. } => replay,
        }
    }
}

/// Records or plays back: runs every fixed step after the player's inputs (keys or
/// autoplayer) are in and before the rules read them.
pub fn tape(tape: Option<ResMut<Tape>>, mut controls: ResMut<Controls>, mut requests: ResMut<Requests>) {
    let Some(mut tape) = tape else {
        return;
    };
    match &mut *tape {
        Tape::Record { replay, .. } => {
            replay.steps += 1;
            let now = InputAt::read(replay.steps, &controls, &requests);
            let last = replay.inputs.last().copied().unwrap_or_default();
            if !now.same(&last) || now.new_game || now.add_ball || now.nudge.is_some() {
                replay.inputs.push(now);
            }
        }
        Tape::Play { replay, next, played } => {
            *played += 1;
            // The player's own requests do not count during a replay.
            *requests = Requests::default();
            while let Some(input) = replay.inputs.get(*next).filter(|i| i.step <= *played) {
                *controls = Controls {
                    left: input.left,
                    right: input.right,
                    plunger: input.plunger,
                };
                requests.new_game = input.new_game;
                requests.add_ball = input.add_ball;
                requests.nudge = input.nudge;
                *next += 1;
            }
        }
    }
}

/// Play `replay` back from its first step.
pub fn player(replay: Replay) -> Tape {
    Tape::Play {
        replay,
        next: 0,
        played: 0,
    }
}
