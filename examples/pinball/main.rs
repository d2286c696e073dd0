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
//! `harness/` what runs it from outside (the command line, the headless run, record and
//! replay, the screenshot, the state file). This file assembles the app.

mod game;
mod harness;
mod panel;
#[path = "../support/mod.rs"]
mod support;
mod table;
mod view;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use game::GamePlugin;
use game::input::InputPlugin;
use harness::cli::Args;
use harness::replay;
use std::process::ExitCode;
use table::TableDef;

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

/// The windowed app: Bevy's default plugins, the CCD and its gizmos, the game, its view,
/// input and panel, the fixed rate, and saving the recording on exit.
fn window_app(def: TableDef, args: &Args, autoplay: bool, hz: f64) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("bevy_circle_ccd pinball: {}", def.name),
            resolution: args.window.into(),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((
        CircleCcdPlugin::default(),
        CcdDebugPlugin,
        GamePlugin { table: def, autoplay },
        view::ViewPlugin,
        InputPlugin,
        panel::PanelPlugin {
            print_ui_rects: args.print_ui_rects,
        },
    ))
    .insert_resource(Time::<Fixed>::from_hz(hz))
    .insert_resource(view::ViewToggles {
        gizmos: args.gizmos,
        ..default()
    })
    // After the window plugin's exit systems, which write a closed window's `AppExit`.
    .add_systems(Last, replay::save_on_exit.after(bevy::window::ExitSystems));
    app
}

/// The table and rules on MinimalPlugins, one fixed step of `1/hz` s per `app.update()`
/// (the headless mode and the tests).
fn headless_app(def: TableDef, autoplay: bool, hz: f64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        CircleCcdPlugin {
            interpolation: false,
            ..default()
        },
        GamePlugin { table: def, autoplay },
    ))
    .insert_resource(Time::<Fixed>::from_hz(hz))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    single_threaded(&mut app);
    app
}

/// Puts every schedule on the single-threaded executor. A headless update is a few
/// microseconds of work; handing its systems to worker threads and back costs far more
/// (on a two-core VM about 1.4 ms per update, nearly all of it in futex calls), so the
/// headless mode and the tests run 13 times faster this way.
fn single_threaded(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<bevy::ecs::schedule::Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}
