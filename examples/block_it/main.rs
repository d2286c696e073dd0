//! Block it: the game the circle-against-segments method was written for. A ball bounces
//! inside a turning room; its upper and lower walls are gates that appear for a moment
//! when you tap. Block the ball with them to score: every block makes it faster, and the
//! room turns faster. A ball that leaves the room ends the game.
//!
//! ```text
//! cargo run --release --example block_it
//! cargo run --release --example block_it -- --autoplay
//! cargo run --release --example block_it -- --headless --seconds 600
//! cargo run --release --example block_it -- --headless --seconds 60 --record game.ron
//! cargo run --release --example block_it -- --replay game.ron
//! cargo run --example block_it -- --screenshot target/block_it.png --frames 120
//! ```
//!
//! Keys: Space, a click or a touch taps (with no game on, it starts one); N new game;
//! A the aim line; G the ghost ball; S slow motion.
//!
//! The code by role: `room/` is the data (the room file and its checks) and its walls and
//! ball in the world; `game/` the rules and the players (the keys, the autoplayer), the
//! prediction and the ghost; `view/` the looks; `panel.rs` the panel; `harness/` what runs
//! it from outside (the apps, the command line, the headless run, record and replay, the
//! window and its screenshot). This file only hands the command line to the harness.

mod game;
mod harness;
mod panel;
mod room;
#[path = "../support/mod.rs"]
mod support;
mod view;

use clap::Parser;
use harness::cli::Args;
use std::process::ExitCode;

/// Loads the room and any replay, then plays headless or in a window.
fn main() -> ExitCode {
    let args = Args::parse();
    let (def, played, hz) = match harness::cli::load_inputs(&args) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("block_it: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.headless {
        return harness::headless::run(def, &args, played, hz);
    }
    harness::window::run(def, &args, played, hz)
}
