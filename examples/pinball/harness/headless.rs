//! `--headless`: the table and rules without a window, played by the autoplayer or a
//! replay for `--seconds` (or the replay's steps), with a progress line every
//! [`PROGRESS_SECONDS`] on stderr and a summary (`summary.rs`) on stdout; the exit code
//! says whether the run failed.

use crate::game::GamePlugin;
use crate::game::highscores::HighScores;
use crate::game::rules::Requests;
use crate::game::stats::RunStats;
use crate::game::tape::{Replay, Tape, player};
use crate::harness::cli::Args;
use crate::harness::{state_out, summary, trace};
use crate::table::{Table, TableDef};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use std::process::ExitCode;

/// Simulated seconds between progress lines.
const PROGRESS_SECONDS: f64 = 30.0;

/// The headless mode: plays (autoplay, or the replay's steps) until the time is up or the
/// run fails ([`RunStats::failed`]), saves what was asked for, and prints a summary.
pub fn run(def: TableDef, args: &Args, played: Option<Replay>, hz: f64) -> ExitCode {
    let steps = played.as_ref().map(|r| r.steps);
    let mut app = headless_game(def, args, played, hz);
    let started = std::time::Instant::now();
    play_headless(&mut app, args, steps);
    if !save_headless_outputs(&mut app, args) {
        return ExitCode::FAILURE;
    }
    summary::print(app.world(), hz, steps, started);
    let stats = app.world().resource::<RunStats>();
    if stats.failed() {
        eprintln!("pinball: FAILED: a ball escaped, sat inside a surface or was repaired, or a NaN appeared");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The headless app with `--scores` and `--trace`, and either the replay's tape or a new
/// game (with a recording tape for `--record`).
fn headless_game(def: TableDef, args: &Args, played: Option<Replay>, hz: f64) -> App {
    let mut app = headless_app(def, played.is_none(), hz);
    if let Some(path) = args.scores.clone() {
        app.insert_resource(HighScores::load(path));
    }
    if args.trace {
        trace::add(&mut app);
    }
    match played {
        Some(r) => {
            app.insert_resource(player(r));
        }
        None => {
            if args.record.is_some() {
                let tape = Tape::record(app.world().resource::<Table>(), hz, None);
                app.insert_resource(tape);
            }
            app.world_mut().resource_mut::<Requests>().new_game = true;
        }
    }
    app
}

/// Updates the app until `steps` fixed steps (a replay) or `--seconds` simulated seconds
/// are done, or a ball escapes or a NaN appears; a progress line every
/// [`PROGRESS_SECONDS`], each followed by the balls' places with `--trace`.
fn play_headless(app: &mut App, args: &Args, steps: Option<u64>) {
    let mut next_report = PROGRESS_SECONDS;
    let mut show_balls = false;
    loop {
        app.update();
        let stats = app.world().resource::<RunStats>();
        if stats.simulated >= next_report {
            eprintln!(
                "  {:>6.0} s simulated, {} served, {} drained, {:.1} µs/step, escapes {}",
                stats.simulated,
                stats.served,
                stats.drained,
                stats.mean_micros(),
                stats.escapes
            );
            next_report += PROGRESS_SECONDS;
            show_balls = args.trace;
        }
        let done = match steps {
            Some(n) => stats.steps >= n,
            None => stats.simulated >= args.seconds,
        };
        if done || stats.failed() {
            break;
        }
        if std::mem::take(&mut show_balls) {
            trace::balls(app);
        }
    }
}

/// Writes the `--record` tape and the `--state-out` state, each if asked for; false (after
/// saying why) if one could not be written.
fn save_headless_outputs(app: &mut App, args: &Args) -> bool {
    if let (Some(path), Some(tape)) = (&args.record, app.world().get_resource::<Tape>())
        && let Err(e) = tape.replay().save(path)
    {
        eprintln!("pinball: {e}");
        return false;
    }
    if let Some(path) = &args.state_out
        && !state_out::write_world(app.world_mut(), path)
    {
        return false;
    }
    true
}

/// The table and rules on MinimalPlugins, one fixed step of `1/hz` s per `app.update()`
/// (the headless mode and the tests).
pub fn headless_app(def: TableDef, autoplay: bool, hz: f64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        // The game's rules run in `FixedUpdate`, ordered around the step.
        CircleCcdPlugin {
            interpolation: false,
            ..CircleCcdPlugin::new(FixedUpdate)
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
