//! The command line: every flag of Block it ([`Args`]), and loading the room and the
//! replay it names.

use crate::game::RATES;
use crate::game::tape::Replay;
use crate::room::{self, RoomDef};
use crate::support::cli::{parse_seconds, parse_window};
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug, Clone)]
#[command(about = "Block it: tap to put up the gates of a turning room, on bevy_circle_ccd")]
pub struct Args {
    /// The room file (RON).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/block_it/room.ron"))]
    pub room: PathBuf,
    /// A player taps by itself, by the prediction.
    #[arg(long)]
    pub autoplay: bool,
    /// No window: the same room and rules on MinimalPlugins with autoplay; print a summary
    /// and exit non-zero on a fault (an escape through a wall that was on, a ball inside a
    /// wall by the plugin's audit) or a NaN.
    #[arg(long)]
    pub headless: bool,
    /// Simulated seconds for `--headless`: finite and above 0.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Fixed physics rate, Hz: 30, 60 or 120 (the panel switches between them).
    #[arg(long, default_value_t = 60, value_parser = parse_hz)]
    pub hz: u32,
    /// Record the inputs (with their fixed-step numbers) to this file: on exit with a
    /// window, at the end with `--headless`.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Play back a recorded game (in a window, or with `--headless` for as many steps as
    /// were recorded), at the recording's rate.
    #[arg(long, conflicts_with = "record")]
    pub replay: Option<PathBuf>,
    /// Save a PNG of the window after `--frames` frames (with autoplay), then exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames to play before the screenshot.
    #[arg(long, default_value_t = 120)]
    pub frames: u32,
    /// The window's size, `WIDTHxHEIGHT` in logical pixels.
    #[arg(long, value_parser = parse_window, default_value = "1280x720")]
    pub window: (u32, u32),
    /// The high-score file (default: under the user's data directory, for a window; a
    /// headless run keeps its scores in memory unless given one).
    #[arg(long)]
    pub scores: Option<PathBuf>,
}

fn parse_hz(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(hz) if RATES.contains(&hz) => Ok(hz),
        _ => Err(format!("must be one of {RATES:?}, got `{text}`")),
    }
}

/// The room, the replay if `--replay` names one, and the fixed rate (the replay's, else
/// `--hz`); or why not.
pub fn load_inputs(args: &Args) -> Result<(RoomDef, Option<Replay>, u32), String> {
    let def = room::def::load(&args.room).map_err(|e| e.to_string())?;
    let played = args
        .replay
        .as_deref()
        .map(|p| Replay::load(p, &def))
        .transpose()
        .map_err(|e| e.to_string())?;
    let hz = played.as_ref().map_or(args.hz, |r| r.hz);
    Ok((def, played, hz))
}
