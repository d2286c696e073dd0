//! Replays: `--record FILE` writes the game's tape (`game/tape.rs`: every tap and new
//! game with the fixed step it took effect on) to a file; `--replay FILE` reads one back
//! for the tape to feed, step for step.
//!
//! The file is RON: the room's name and its file's fingerprint, the version of the code
//! that recorded it, the fixed rate (fixed while recording: the panel's rate switch is
//! off), the steps recorded, and the inputs. A replay is refused, with a message saying
//! why, on another room, on the same room's file once changed, and by another version.

use crate::game::tape::{Replay, Tape, hex};
use crate::room::RoomDef;
use bevy::prelude::*;
use std::path::Path;

/// The replay file: the recording as RON text, written and read back.
impl Replay {
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
