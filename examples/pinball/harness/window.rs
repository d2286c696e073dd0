//! A game in a window: the windowed app ([`window_app`]: Bevy's default plugins, the
//! game, its view, input and panel) with the command line's options (the high-score file,
//! the replay or the recording, `--state-out`, `--screenshot`, `--trace`), run until the
//! window closes.

use crate::game::GamePlugin;
use crate::game::highscores::{self, HighScores};
use crate::game::input::InputPlugin;
use crate::game::tape::{Replay, Tape, player};
use crate::harness::cli::Args;
use crate::harness::screenshot::add_screenshot;
use crate::harness::state_out::StateOutPlugin;
use crate::harness::{replay, trace};
use crate::table::{Table, TableDef};
use crate::{panel, view};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::process::ExitCode;

/// The game in a window, with the options of `args`, until the window closes.
pub fn run(def: TableDef, args: Args, played: Option<Replay>, hz: f64) -> ExitCode {
    let autoplay = played.is_none() && (args.autoplay || args.screenshot.is_some());
    let tape = window_tape(&def, &args, played, hz);
    let def_name = def.name.clone();
    let mut app = window_app(def, &args, autoplay, hz);
    if let Some(path) = args
        .scores
        .clone()
        .or_else(|| highscores::default_path("pinball", &def_name))
    {
        app.insert_resource(HighScores::load(path));
    }
    if let Some(tape) = tape {
        app.insert_resource(tape);
    }
    if let Some(path) = args.state_out.clone() {
        app.add_plugins(StateOutPlugin(path));
    }
    if args.trace {
        trace::add(&mut app);
    }
    if let Some(path) = args.screenshot {
        add_screenshot(&mut app, path, args.frames, args.screenshot_when);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}

/// The tape of a windowed game: playing the replay, or recording to `--record`, or none.
fn window_tape(def: &TableDef, args: &Args, played: Option<Replay>, hz: f64) -> Option<Tape> {
    match played {
        Some(r) => Some(player(r)),
        None => args.record.clone().map(|file| {
            let ring = def.outline_points();
            let table = Table {
                def: def.clone(),
                ring,
            };
            Tape::record(&table, hz, Some(file))
        }),
    }
}

/// The windowed app: Bevy's default plugins, the CCD and its gizmos, the game, its view,
/// input and panel, the fixed rate, and saving the recording on exit.
pub fn window_app(def: TableDef, args: &Args, autoplay: bool, hz: f64) -> App {
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
        // The game's rules run in `FixedUpdate`, ordered around the step.
        CircleCcdPlugin::new(FixedUpdate),
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
