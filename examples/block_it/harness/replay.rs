//! Replays: `--record FILE` writes every tap and new game with the fixed step it took
//! effect on; `--replay FILE` feeds them back, step for step. The physics and the rules
//! are deterministic and the game draws no random numbers, so the inputs alone reproduce a
//! game, bit for bit.
//!
//! The file is RON: the room's name and its file's fingerprint, the version of the code
//! that recorded it, the fixed rate (fixed while recording: the panel's rate switch is
//! off), the steps recorded, and the inputs. A replay is refused, with a message saying
//! why, on another room, on the same room's file once changed, and by another version.

use crate::game::Requests;
use crate::room::RoomDef;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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

fn hex(fingerprint: u64) -> String {
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

    /// Write it to `path`.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().compact_structs(true))
            .map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("replay file {}: {e}", path.display()))
    }

    /// Read one from `path` for the room `def`: refused if recorded on another room, on
    /// another version of its file, or by another version of the code.
    pub fn load(path: &Path, def: &RoomDef) -> Result<Self, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("replay file {}: {e}", path.display()))?;
        let replay: Self = ron::from_str(&text)
            .map_err(|e| format!("replay file {} does not parse: {e}", path.display()))?;
        if replay.room != def.name {
            return Err(format!(
                "the replay was recorded in room `{}`, not `{}`",
                replay.room, def.name
            ));
        }
        if replay.room_fingerprint != hex(def.fingerprint) {
            return Err(format!(
                "the replay was recorded on another version of room `{}`'s file (fingerprint {}, this file's is {})",
                def.name,
                replay.room_fingerprint,
                hex(def.fingerprint)
            ));
        }
        if replay.version != env!("CARGO_PKG_VERSION") {
            return Err(format!(
                "the replay was recorded by version {}, this is {}",
                replay.version,
                env!("CARGO_PKG_VERSION")
            ));
        }
        Ok(replay)
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

/// Writes a recording to its file.
pub fn save(tape: &Tape) {
    if let Tape::Record {
        replay,
        file: Some(path),
    } = tape
    {
        match replay.save(path) {
            Ok(()) => info!("replay written to {}", path.display()),
            Err(e) => error!("{e}"),
        }
    }
}

/// Writes a recording when the window closes.
pub fn save_on_exit(mut exits: MessageReader<AppExit>, tape: Option<Res<Tape>>) {
    if exits.read().next().is_some()
        && let Some(tape) = tape
    {
        save(&tape);
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
