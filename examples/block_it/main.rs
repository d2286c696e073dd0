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
//! it from outside (the command line, the headless run, record and replay, the window and
//! its screenshot). This file assembles the app.

mod game;
mod harness;
mod panel;
mod room;
#[path = "../support/mod.rs"]
mod support;
mod view;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use game::{GamePlugin, GameSystems};
use harness::cli::Args;
use room::RoomDef;
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

/// The game on any app: the plugin (with interpolation for a window), the rules, the
/// tape, the fixed rate.
fn add_game(app: &mut App, def: RoomDef, autoplay: bool, hz: u32, interpolation: bool) {
    app.add_plugins((
        CircleCcdPlugin {
            interpolation,
            ..default()
        },
        GamePlugin { def, autoplay },
    ))
    .add_systems(
        FixedUpdate,
        game::tape::tape
            .in_set(GameSystems::Input)
            .after(game::autoplay::play),
    )
    .insert_resource(Time::<Fixed>::from_hz(f64::from(hz)));
}

/// The room and rules on MinimalPlugins, one fixed step of `1/hz` s per `app.update()`
/// (the headless mode and the tests).
fn headless_app(def: RoomDef, autoplay: bool, hz: u32) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin));
    add_game(&mut app, def, autoplay, hz, false);
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    let mut schedules = app.world_mut().resource_mut::<bevy::ecs::schedule::Schedules>();
    // A headless step is microseconds of work: worker threads would cost more than it.
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    // The first update runs the startup systems and starts the clocks, but no fixed step:
    // after it, every update is one step.
    app.update();
    app
}
