//! A game in a window: Bevy's default plugins, the game, its looks, input and panel;
//! with `--screenshot`, the smoke picture after `--frames` frames of autoplay.

use crate::game::highscores::{self, HighScores};
use crate::game::tape::{Replay, Tape, player};
use crate::harness::app::add_game;
use crate::harness::cli::Args;
use crate::harness::replay;
use crate::room::RoomDef;
use crate::support::SmokeScreenshotPlugin;
use bevy::prelude::*;
use bevy_circle_ccd::TransformInterpolation;
use std::process::ExitCode;

/// Opens the window and plays until it closes.
pub fn run(def: RoomDef, args: &Args, played: Option<Replay>, hz: u32) -> ExitCode {
    let autoplay = args.autoplay || args.screenshot.is_some();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: format!("bevy_circle_ccd: {}", def.name),
            resolution: args.window.into(),
            ..default()
        }),
        ..default()
    }));
    let scores = args
        .scores
        .clone()
        .or_else(|| highscores::default_path("block_it", &def.name))
        .map(HighScores::load)
        .unwrap_or_default();
    let tape = match played {
        Some(r) => Some(player(r)),
        None => args.record.clone().map(|file| Tape::Record {
            replay: Replay::new(&def, hz),
            file: Some(file),
        }),
    };
    add_game(&mut app, def, autoplay && tape.is_none(), hz, true);
    app.add_plugins((
        crate::view::ViewPlugin,
        crate::game::input::InputPlugin,
        crate::panel::PanelPlugin,
    ))
    .insert_resource(scores)
    .add_systems(Startup, smooth)
    .add_systems(Last, replay::save_on_exit.after(bevy::window::ExitSystems));
    if let Some(tape) = tape {
        app.insert_resource(tape);
    }
    if let Some(path) = args.screenshot.clone() {
        // The picture shows the pitch too: the naive ghost beside the real ball.
        app.world_mut().resource_mut::<crate::game::ghost::Ghost>().on = true;
        app.add_plugins(SmokeScreenshotPlugin {
            path,
            frames: args.frames,
        });
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}

/// The ball and the walls are drawn between fixed steps.
fn smooth(room: Res<crate::game::Room>, mut commands: Commands) {
    let e = &room.entities;
    for entity in e.walls.iter().chain([&e.ball]) {
        commands.entity(*entity).insert(TransformInterpolation);
    }
}
