//! Replays: `--record FILE` writes the game's tape (`game/tape.rs`: every change of the
//! player's inputs with the fixed step it took effect on) to a file; `--replay FILE` reads
//! one back for the tape to feed, step for step, in a window or headless.
//!
//! The file is RON: the table's name and its file's fingerprint, the version of the code
//! that recorded it, the fixed rate, the steps recorded, and the inputs. A replay is
//! refused, with a message saying why, on another table, on the same table's file once
//! changed, and by another version.

use crate::game::tape::{Replay, Tape, hex};
use crate::table::TableDef;
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// What is wrong with a replay file.
#[derive(Debug)]
pub enum ReplayError {
    Io(PathBuf, std::io::Error),
    Parse(PathBuf, String),
    /// Recorded on another table.
    Table {
        recorded: String,
        loaded: String,
    },
    /// Recorded on another version of the same table's file.
    TableFile {
        table: String,
        recorded: String,
        loaded: String,
    },
    /// Recorded by another version of the code.
    Version {
        recorded: String,
        running: String,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(p, e) => write!(f, "replay file {}: {e}", p.display()),
            Self::Parse(p, e) => write!(f, "replay file {} does not parse: {e}", p.display()),
            Self::Table { recorded, loaded } => {
                write!(f, "the replay was recorded on table `{recorded}`, not `{loaded}`")
            }
            Self::TableFile {
                table,
                recorded,
                loaded,
            } => write!(
                f,
                "the replay was recorded on another version of table `{table}`'s file (fingerprint {recorded}, this file's is {loaded})"
            ),
            Self::Version { recorded, running } => {
                write!(
                    f,
                    "the replay was recorded by version {recorded}, this is {running}"
                )
            }
        }
    }
}

/// The replay file: the recording as RON text, written and read back.
impl Replay {
    /// The replay as RON text.
    pub fn to_ron(&self) -> Result<String, String> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default().compact_structs(true))
            .map_err(|e| e.to_string())
    }

    /// Write it to `path`.
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        let text = self.to_ron().map_err(|e| ReplayError::Parse(path.into(), e))?;
        std::fs::write(path, text).map_err(|e| ReplayError::Io(path.into(), e))
    }

    /// Read one from `path`, for the table `table`: refused if recorded on another table,
    /// on another version of its file, or by another version of the code.
    pub fn load(path: &Path, table: &TableDef) -> Result<Self, ReplayError> {
        let text = std::fs::read_to_string(path).map_err(|e| ReplayError::Io(path.into(), e))?;
        let replay: Self =
            ron::from_str(&text).map_err(|e| ReplayError::Parse(path.into(), e.to_string()))?;
        if replay.table != table.name {
            return Err(ReplayError::Table {
                recorded: replay.table,
                loaded: table.name.clone(),
            });
        }
        if replay.table_fingerprint != hex(table.fingerprint) {
            return Err(ReplayError::TableFile {
                table: table.name.clone(),
                recorded: replay.table_fingerprint,
                loaded: hex(table.fingerprint),
            });
        }
        if replay.version != env!("CARGO_PKG_VERSION") {
            return Err(ReplayError::Version {
                recorded: replay.version,
                running: env!("CARGO_PKG_VERSION").to_owned(),
            });
        }
        Ok(replay)
    }
}

/// Writes a recording to its file when the app exits (the window closed).
pub fn save_on_exit(mut exits: MessageReader<AppExit>, tape: Option<Res<Tape>>) {
    if exits.read().next().is_none() {
        return;
    }
    if let Some(Tape::Record {
        replay,
        file: Some(path),
    }) = tape.as_deref()
    {
        match replay.save(path) {
            Ok(()) => info!("replay written to {}", path.display()),
            Err(e) => error!("{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::game::rules::Requests;
    use crate::game::tape::player;
    use crate::table::parts::Ball;
    use crate::table::{self, Table};
    use bevy_circle_ccd::prelude::*;

    const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");
    const STARFALL: &str = include_str!("../../../assets/tables/starfall.ron");

    /// The score, and every ball's position and velocity as bits, in a fixed order.
    fn state(app: &mut App) -> (u64, Vec<[u32; 4]>) {
        let score = app.world().resource::<crate::game::rules::Game>().score;
        let mut q = app
            .world_mut()
            .query_filtered::<(&Transform, &MovingCircle), With<Ball>>();
        let mut balls: Vec<[u32; 4]> = q
            .iter(app.world())
            .map(|(t, c)| {
                let p = t.translation;
                [
                    p.x.to_bits(),
                    p.y.to_bits(),
                    c.velocity.x.to_bits(),
                    c.velocity.y.to_bits(),
                ]
            })
            .collect();
        balls.sort_unstable();
        (score, balls)
    }

    /// 60 s at 1 kHz of `table` played by the autoplayer and recorded; the inputs written
    /// as RON and read back, then played on a fresh app with the autoplayer off: the same
    /// score and the same balls, bit for bit.
    fn a_replay_reproduces_a_recorded_game(table: &str) {
        const STEPS: u64 = 60_000;
        let def = table::parse(table).unwrap();
        let mut recorded_app = crate::harness::headless::headless_app(def.clone(), true, 1000.0);
        let tape = Tape::record(recorded_app.world().resource::<Table>(), 1000.0, None);
        recorded_app.insert_resource(tape);
        recorded_app.world_mut().resource_mut::<Requests>().new_game = true;
        for _ in 0..STEPS {
            recorded_app.update();
        }
        let recorded = recorded_app.world().resource::<Tape>().replay().clone();
        // One fixed step per update (the first update runs the startup only).
        assert!(
            recorded.steps + 1 >= STEPS && recorded.steps <= STEPS,
            "{} steps",
            recorded.steps
        );
        let back: Replay = ron::from_str(&recorded.to_ron().unwrap()).unwrap();
        assert_eq!(back, recorded);
        let mut played_app = crate::harness::headless::headless_app(def, false, 1000.0);
        played_app.insert_resource(player(back));
        for _ in 0..STEPS {
            played_app.update();
        }
        let (a, b) = (state(&mut recorded_app), state(&mut played_app));
        println!(
            "{} inputs; score {}, {} balls in play",
            recorded.inputs.len(),
            a.0,
            a.1.len()
        );
        // A real game: flips, plunges and points, not an empty recording.
        assert!(recorded.inputs.len() > 20, "{} inputs", recorded.inputs.len());
        assert!(a.0 > 0, "no score");
        assert_eq!(a, b);
    }

    #[test]
    fn a_replay_reproduces_a_recorded_game_bit_for_bit() {
        a_replay_reproduces_a_recorded_game(CLASSIC);
    }

    #[test]
    fn a_replay_of_starfall_reproduces_a_recorded_game_bit_for_bit() {
        // The richer table: whatever its ramp, saucer, kickback, nudges and ball save did
        // in the game must come back from the inputs alone.
        a_replay_reproduces_a_recorded_game(STARFALL);
    }

    #[test]
    fn a_bad_replay_file_is_refused_with_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("pinball-replay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let classic = table::parse(CLASSIC).unwrap();
        let corrupt = dir.join("corrupt.ron");
        std::fs::write(&corrupt, "(table: 3").unwrap();
        let e = Replay::load(&corrupt, &classic).unwrap_err().to_string();
        assert!(e.contains("corrupt.ron") && e.contains("does not parse"), "{e}");
        let good = Replay {
            table: classic.name.clone(),
            table_fingerprint: hex(classic.fingerprint),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            hz: 1000.0,
            steps: 1,
            inputs: Vec::new(),
        };
        let path = dir.join("replay.ron");
        let refusal = |replay: &Replay, table: &TableDef| {
            replay.save(&path).unwrap();
            Replay::load(&path, table).err().map(|e| e.to_string())
        };
        assert_eq!(refusal(&good, &classic), None);
        let other = Replay {
            table: "Another".into(),
            ..good.clone()
        };
        let e = refusal(&other, &classic).unwrap();
        assert!(e.contains("Another") && e.contains(&classic.name), "{e}");
        // The same table's file with one number changed: same name, another fingerprint.
        let edited = table::parse(&CLASSIC.replace("ball_radius: 13.5", "ball_radius: 13.0")).unwrap();
        assert_eq!(edited.name, classic.name);
        let e = refusal(&good, &edited).unwrap();
        assert!(
            e.contains("another version of table") && e.contains(&hex(classic.fingerprint)),
            "{e}"
        );
        let old = Replay {
            version: "0.0.1".into(),
            ..good.clone()
        };
        let e = refusal(&old, &classic).unwrap();
        assert!(
            e.contains("0.0.1") && e.contains(env!("CARGO_PKG_VERSION")),
            "{e}"
        );
        // A replay from before fingerprints (no such fields) does not parse, and says so.
        std::fs::write(&path, "(table: \"Classic\", hz: 1000.0, steps: 1, inputs: [])").unwrap();
        let e = Replay::load(&path, &classic).unwrap_err().to_string();
        assert!(e.contains("table_fingerprint"), "{e}");
        let e = Replay::load(&dir.join("missing.ron"), &classic)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.ron"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_fingerprint_is_fnv_1a() {
        // FNV-1a 64 of the empty input is its offset basis, and of "a" the published
        // test vector.
        assert_eq!(table::fingerprint(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(table::fingerprint(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
