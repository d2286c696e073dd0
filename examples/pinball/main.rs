//! Pinball: a real, playable table on `bevy_circle_ccd`, in millimetres and seconds, with
//! a bevy_egui panel for live tuning and stats.
//!
//! ```text
//! cargo run --release --example pinball
//! cargo run --release --example pinball -- --autoplay
//! cargo run --example pinball -- --screenshot target/pinball.png --frames 240
//! cargo run --release --example pinball -- --headless --seconds 600
//! cargo run --release --example pinball -- --headless --seconds 60 --record game.ron
//! cargo run --release --example pinball -- --replay game.ron
//! ```
//!
//! Keys: Left/Right Shift, Z/M, the arrow keys or the mouse buttons flip; Space or Down
//! pulls the plunger; N new game; B adds a ball; P pauses; period steps while paused; F1
//! debug gizmos; F9 writes `--state-out`.
//!
//! The table is `assets/tables/starfall.ron` (or `--table PATH`, for example the plainer
//! `classic.ron`): walls, flippers, bumpers, slingshots, lanes, orbits, the ramp, the
//! saucer and the rules' numbers are data, validated on load. Left/Right Ctrl and Up
//! nudge.
//!
//! The code by role: `table/` is the machine (the table file, its checks, its parts
//! spawned and their physics); `game/` the rules and the players that feed them (the
//! keys, the autoplayer); `view/` the looks; `panel/` the tuning and stats panel;
//! `harness/` what runs it from outside (the command line, the headless and the windowed
//! app, record and replay, the screenshot, the state file). This file only hands the
//! command line to the harness.

mod game;
mod harness;
mod panel;
#[path = "../support/mod.rs"]
mod support;
mod table;
mod view;

use clap::Parser;
use harness::cli::Args;
use std::process::ExitCode;

/// Loads the table and any replay, then plays headless or in a window.
fn main() -> ExitCode {
    let args = Args::parse();
    let (def, played, hz) = match harness::cli::load_inputs(&args) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("pinball: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.headless {
        return harness::headless::run(def, &args, played, hz);
    }
    harness::window::run(def, args, played, hz)
}
