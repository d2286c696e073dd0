//! A game in a window: the app of `main.rs` with the command line's options (the
//! high-score file, the replay or the recording, `--state-out`, `--screenshot`,
//! `--trace`), run until the window closes.

use crate::game::highscores::{self, HighScores};
use crate::game::tape::{Replay, Tape, player};
use crate::harness::cli::Args;
use crate::harness::screenshot::add_screenshot;
use crate::harness::state_out::StateOutPlugin;
use crate::harness::trace;
use crate::table::{Table, TableDef};
use bevy::prelude::*;
use std::process::ExitCode;

/// The game in a window, with the options of `args`, until the window closes.
pub fn run(def: TableDef, args: Args, played: Option<Replay>, hz: f64) -> ExitCode {
    let autoplay = played.is_none() && (args.autoplay || args.screenshot.is_some());
    let tape = window_tape(&def, &args, played, hz);
    let def_name = def.name.clone();
    let mut app = crate::window_app(def, &args, autoplay, hz);
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
