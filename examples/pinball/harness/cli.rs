//! The command line: every flag of the pinball program ([`Args`]), and loading the table
//! and the replay it names.

use crate::game::tape::Replay;
use crate::harness::screenshot::Moment;
use crate::support::cli::{parse_seconds, parse_window};
use crate::table::{self, TableDef};
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug, Clone)]
#[command(about = "A pinball table on bevy_circle_ccd")]
pub struct Args {
    /// The table file (RON).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tables/starfall.ron"))]
    pub table: PathBuf,
    /// A simple player flips and plunges by itself.
    #[arg(long)]
    pub autoplay: bool,
    /// Save a PNG of the window after `--frames` frames (with autoplay), then exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames to play before the screenshot.
    #[arg(long, default_value_t = 240)]
    pub frames: u32,
    /// Hold the screenshot, after its frames, until this moment of play.
    #[arg(long, value_enum, requires = "screenshot")]
    pub screenshot_when: Option<Moment>,
    /// Start with the debug gizmos on (F1 toggles them).
    #[arg(long)]
    pub gizmos: bool,
    /// No window: run the same table and rules on MinimalPlugins with autoplay, print a
    /// summary, and exit non-zero if a ball escaped, sat inside any surface (the plugin's
    /// audit) or had to be repaired, or a NaN appeared.
    #[arg(long)]
    pub headless: bool,
    /// Simulated seconds for `--headless`: finite and above 0.
    #[arg(long, default_value_t = 120.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Start with the motorised (hinged) flippers instead of the kinematic ones (the
    /// panel switches between them).
    #[arg(long)]
    pub motor_flippers: bool,
    /// Record the game's inputs (with their fixed-step numbers) to this file: on exit
    /// with a window, at the end with `--headless`.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Play back a recorded game (in a window, or with `--headless` for as many steps as
    /// were recorded). The recording's fixed rate is used.
    #[arg(long, conflicts_with = "record")]
    pub replay: Option<PathBuf>,
    /// The high-score file (default: under the user's data directory, for a window; a
    /// headless run keeps its scores in memory unless given one).
    #[arg(long)]
    pub scores: Option<PathBuf>,
    /// Write the game's state (score, balls, flippers, plunger, tuning) to this file as
    /// RON: on exit, at the end with `--headless`, and on each F9 with a window.
    #[arg(long)]
    pub state_out: Option<PathBuf>,
    /// Print where the panel's marked widgets are (`ui-rect NAME x0 y0 x1 y1`, physical
    /// pixels) on stdout whenever they move; for tests that drive the window.
    #[arg(long)]
    pub print_ui_rects: bool,
    /// The window's size, `WIDTHxHEIGHT` in logical pixels (the default shows the whole
    /// table at a readable scale beside the panel; CI's 1280x720 screen needs
    /// `--window 1280x720`).
    #[arg(long, value_parser = parse_window, default_value = DEFAULT_WINDOW)]
    pub window: (u32, u32),
    /// Fixed physics rate, Hz (60–1000).
    #[arg(long, default_value_t = 1000.0)]
    pub hz: f64,
    /// Print every ball's place and velocity at each fixed step that reached the bounce
    /// cap and, with `--headless`, after each progress line (a diagnostic, on stderr).
    #[arg(long)]
    pub trace: bool,
}

/// The window's default size: the panel (330 px) beside the display and the table at
/// about 0.9 px per mm.
const DEFAULT_WINDOW: &str = "1440x1000";

/// The table (with `--motor-flippers` applied), the replay if `--replay` names one, and the
/// fixed rate (the replay's, else `--hz`), checked to be in 60..=1000 Hz; or why not.
pub fn load_inputs(args: &Args) -> Result<(TableDef, Option<Replay>, f64), String> {
    let mut def = table::load(&args.table).map_err(|e| e.to_string())?;
    def.tuning.motor_flippers |= args.motor_flippers;
    let played = args
        .replay
        .as_deref()
        .map(|p| Replay::load(p, &def))
        .transpose()
        .map_err(|e| e.to_string())?;
    let hz = played.as_ref().map_or(args.hz, |r| r.hz);
    if !(60.0..=1000.0).contains(&hz) {
        return Err(format!("--hz must be in 60..=1000, got {hz}"));
    }
    Ok((def, played, hz))
}
