//! The high-score table of a game (pinball's of each table, Block it's of each room): the
//! best five scores, kept in a RON file under the user's data directory (`dirs::data_dir()`, for example `~/.local/share` on Linux).
//! The file is created on the first score; a file that cannot be read or written gives a
//! warning naming it, and the game goes on with a fresh table (never a panic).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Scores kept.
pub const HIGH_SCORES_KEPT: usize = 5;
/// The folder under the user's data directory.
const DATA_FOLDER: &str = "bevy_circle_ccd";

/// One entry of the table.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct HighScore {
    pub score: u64,
    /// Who played: "PLAYER" or "AUTOPLAY".
    pub by: String,
}

/// The best scores, best first, and the file they live in (none: kept in memory only,
/// as the headless runs and the tests do unless given a file).
#[derive(Resource, Default, Clone, Debug)]
pub struct HighScores {
    pub entries: Vec<HighScore>,
    pub path: Option<PathBuf>,
}

/// The default file of `game` on the table (or room) named `table`:
/// `<data dir>/bevy_circle_ccd/<game>-<name>-scores.ron`.
#[must_use]
pub fn default_path(game: &str, table: &str) -> Option<PathBuf> {
    let slug: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    dirs::data_dir().map(|d| d.join(DATA_FOLDER).join(format!("{game}-{slug}-scores.ron")))
}

impl HighScores {
    /// The table kept in `path`: read if it exists, fresh (with a warning naming the file)
    /// if it cannot be read or parsed.
    #[must_use]
    pub fn load(path: PathBuf) -> Self {
        let entries = match std::fs::read_to_string(&path) {
            Ok(text) => match ron::from_str::<Vec<HighScore>>(&text) {
                Ok(mut e) => {
                    e.sort_by_key(|h| std::cmp::Reverse(h.score));
                    e.truncate(HIGH_SCORES_KEPT);
                    e
                }
                Err(err) => {
                    warn!(
                        "high-score file {} is corrupt ({err}); starting a fresh table",
                        path.display()
                    );
                    Vec::new()
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => {
                warn!(
                    "cannot read high-score file {}: {e}; starting a fresh table",
                    path.display()
                );
                Vec::new()
            }
        };
        Self {
            entries,
            path: Some(path),
        }
    }

    /// The best score, 0 when there is none.
    #[must_use]
    pub fn best(&self) -> u64 {
        self.entries.first().map_or(0, |e| e.score)
    }

    /// Whether `score` would enter the table.
    #[must_use]
    pub fn qualifies(&self, score: u64) -> bool {
        score > 0 && (self.entries.len() < HIGH_SCORES_KEPT || self.entries.iter().any(|e| score > e.score))
    }

    /// Enter a finished game's score; returns its place (0 = best) if it made the table,
    /// and writes the file.
    pub fn enter(&mut self, score: u64, by: &str) -> Option<usize> {
        if !self.qualifies(score) {
            return None;
        }
        let place = self
            .entries
            .iter()
            .position(|e| score > e.score)
            .unwrap_or(self.entries.len());
        self.entries.insert(
            place,
            HighScore {
                score,
                by: by.to_owned(),
            },
        );
        self.entries.truncate(HIGH_SCORES_KEPT);
        if let Some(path) = &self.path {
            save(path, &self.entries);
        }
        Some(place)
    }
}

/// Write the table, creating the folder; a failure is a warning naming the file.
fn save(path: &Path, entries: &[HighScore]) {
    let text = match ron::ser::to_string_pretty(entries, ron::ser::PrettyConfig::default()) {
        Ok(t) => t,
        Err(e) => {
            warn!("cannot write high scores: {e}");
            return;
        }
    };
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text));
    if let Err(e) = written {
        warn!("cannot write high-score file {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("highscores-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("sub").join("scores.ron")
    }

    #[test]
    fn the_table_survives_a_restart_and_keeps_the_best_five() {
        let path = scratch("restart");
        let mut scores = HighScores::load(path.clone());
        assert!(scores.entries.is_empty(), "first run: no file yet");
        for s in [300, 100, 700, 500, 200, 600, 50] {
            scores.enter(s, "PLAYER");
        }
        assert!(path.exists(), "created on the first score, with its folder");
        let again = HighScores::load(path);
        let kept: Vec<u64> = again.entries.iter().map(|e| e.score).collect();
        assert_eq!(kept, [700, 600, 500, 300, 200]);
        assert!(!again.qualifies(150) && again.qualifies(250));
    }

    #[test]
    fn a_corrupt_or_unwritable_file_gives_a_fresh_table_not_a_panic() {
        let path = scratch("corrupt");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "this is not RON [").unwrap();
        let mut scores = HighScores::load(path.clone());
        assert!(scores.entries.is_empty());
        // The file's folder is a file: writing fails with a warning, the table goes on.
        let blocked = path.parent().unwrap().join("blocked");
        std::fs::write(&blocked, "").unwrap();
        scores.path = Some(blocked.join("scores.ron"));
        assert_eq!(scores.enter(1000, "PLAYER"), Some(0));
        assert_eq!(scores.best(), 1000);
    }
}
