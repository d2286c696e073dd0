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

mod aim;
mod autoplay;
mod flipper_shape;
mod game;
mod highscores;
mod hinged;
mod input;
mod layout_check;
mod moment;
mod panel;
mod parts;
mod playfield;
mod progress;
mod ramp;
mod replay;
mod rules;
mod saucer;
mod spawn;
mod spawn_playfield;
mod state_out;
mod stats;
#[path = "../support/mod.rs"]
mod support;
mod table;
mod table_check;
mod tilt;
mod view;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use game::GamePlugin;
use rules::Requests;
use stats::RunStats;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug, Clone)]
#[command(about = "A pinball table on bevy_circle_ccd")]
struct Args {
    /// The table file (RON).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tables/starfall.ron"))]
    table: PathBuf,
    /// A simple player flips and plunges by itself.
    #[arg(long)]
    autoplay: bool,
    /// Save a PNG of the window after `--frames` frames (with autoplay), then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to play before the screenshot.
    #[arg(long, default_value_t = 240)]
    frames: u32,
    /// Hold the screenshot, after its frames, until this moment of play.
    #[arg(long, value_enum, requires = "screenshot")]
    screenshot_when: Option<moment::Moment>,
    /// Start with the debug gizmos on (F1 toggles them).
    #[arg(long)]
    gizmos: bool,
    /// No window: run the same table and rules on MinimalPlugins with autoplay, print a
    /// summary, and exit non-zero if a ball escaped, sat inside any surface (the plugin's
    /// audit) or had to be repaired, or a NaN appeared.
    #[arg(long)]
    headless: bool,
    /// Simulated seconds for `--headless`: finite and above 0.
    #[arg(long, default_value_t = 120.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Start with the motorised (hinged) flippers instead of the kinematic ones (the
    /// panel switches between them).
    #[arg(long)]
    motor_flippers: bool,
    /// Record the game's inputs (with their fixed-step numbers) to this file: on exit
    /// with a window, at the end with `--headless`.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Play back a recorded game (in a window, or with `--headless` for as many steps as
    /// were recorded). The recording's fixed rate is used.
    #[arg(long, conflicts_with = "record")]
    replay: Option<PathBuf>,
    /// The high-score file (default: under the user's data directory, for a window; a
    /// headless run keeps its scores in memory unless given one).
    #[arg(long)]
    scores: Option<PathBuf>,
    /// Write the game's state (score, balls, flippers, plunger, tuning) to this file as
    /// RON: on exit, at the end with `--headless`, and on each F9 with a window.
    #[arg(long)]
    state_out: Option<PathBuf>,
    /// Print where the panel's marked widgets are (`ui-rect NAME x0 y0 x1 y1`, physical
    /// pixels) on stdout whenever they move; for tests that drive the window.
    #[arg(long)]
    print_ui_rects: bool,
    /// The window's size, `WIDTHxHEIGHT` in logical pixels (the default shows the whole
    /// table at a readable scale beside the panel; CI's 1280x720 screen needs
    /// `--window 1280x720`).
    #[arg(long, value_parser = parse_window, default_value = DEFAULT_WINDOW)]
    window: (u32, u32),
    /// Fixed physics rate, Hz (60–1000).
    #[arg(long, default_value_t = 1000.0)]
    hz: f64,
}

/// The window's default size: the panel (330 px) beside the display and the table at
/// about 0.9 px per mm.
const DEFAULT_WINDOW: &str = "1440x1000";

/// A number of seconds: finite and above 0 (NaN, an infinity, 0 or a negative number would
/// never end the run, or end it at once).
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(s) => Err(format!("must be a finite number of seconds above 0, got {s}")),
        Err(e) => Err(format!("expected a number of seconds, got `{text}`: {e}")),
    }
}

/// `WIDTHxHEIGHT`, each at least 1.
fn parse_window(text: &str) -> Result<(u32, u32), String> {
    let size = text
        .split_once('x')
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
    match size {
        Some((w, h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => Err(format!("expected WIDTHxHEIGHT such as 1280x720, got `{text}`")),
    }
}

/// Loads the table and any replay, then plays headless or in a window.
fn main() -> ExitCode {
    let args = Args::parse();
    let (def, played, hz) = match load_inputs(&args) {
        Ok(inputs) => inputs,
        Err(e) => {
            eprintln!("pinball: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.headless {
        return headless(def, &args, played, hz);
    }
    windowed(def, args, played, hz)
}

/// The table (with `--motor-flippers` applied), the replay if `--replay` names one, and the
/// fixed rate (the replay's, else `--hz`), checked to be in 60..=1000 Hz; or why not.
fn load_inputs(args: &Args) -> Result<(table::TableDef, Option<replay::Replay>, f64), String> {
    let mut def = table::load(&args.table).map_err(|e| e.to_string())?;
    def.tuning.motor_flippers |= args.motor_flippers;
    let played = args
        .replay
        .as_deref()
        .map(|p| replay::Replay::load(p, &def))
        .transpose()
        .map_err(|e| e.to_string())?;
    let hz = played.as_ref().map_or(args.hz, |r| r.hz);
    if !(60.0..=1000.0).contains(&hz) {
        return Err(format!("--hz must be in 60..=1000, got {hz}"));
    }
    Ok((def, played, hz))
}

/// The game in a window, with the options of `args`, until the window closes.
fn windowed(def: table::TableDef, args: Args, played: Option<replay::Replay>, hz: f64) -> ExitCode {
    let autoplay = played.is_none() && (args.autoplay || args.screenshot.is_some());
    let tape = window_tape(&def, &args, played, hz);
    let def_name = def.name.clone();
    let mut app = window_app(def, &args, autoplay, hz);
    if let Some(path) = args
        .scores
        .clone()
        .or_else(|| highscores::default_path(&def_name))
    {
        app.insert_resource(highscores::HighScores::load(path));
    }
    if let Some(tape) = tape {
        app.insert_resource(tape);
    }
    if let Some(path) = args.state_out.clone() {
        app.add_plugins(state_out::StateOutPlugin(path));
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
fn window_tape(
    def: &table::TableDef,
    args: &Args,
    played: Option<replay::Replay>,
    hz: f64,
) -> Option<replay::Tape> {
    match played {
        Some(r) => Some(replay::player(r)),
        None => args.record.clone().map(|file| {
            let ring = def.outline_points();
            let table = game::Table {
                def: def.clone(),
                ring,
            };
            replay::Tape::record(&table, hz, Some(file))
        }),
    }
}

/// The windowed app: Bevy's default plugins, the CCD and its gizmos, the game, its view,
/// input and panel, the fixed rate, and saving the recording on exit.
fn window_app(def: table::TableDef, args: &Args, autoplay: bool, hz: f64) -> App {
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
        input::InputPlugin,
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

/// `--screenshot`: save `path` after `frames` frames (held until `when`, if given), with
/// a new game started at once.
fn add_screenshot(app: &mut App, path: PathBuf, frames: u32, when: Option<moment::Moment>) {
    app.add_plugins(support::SmokeScreenshotPlugin { path, frames });
    if let Some(m) = when {
        app.insert_resource(support::SmokeGate(false))
            .insert_resource(m)
            .add_systems(Update, moment::open_at_moment);
    }
    app.world_mut().resource_mut::<Requests>().new_game = true;
}

/// Simulated seconds between progress lines.
const PROGRESS_SECONDS: f64 = 30.0;

/// The table and rules on MinimalPlugins, one fixed step of `1/hz` s per `app.update()`
/// (the headless mode and the tests).
fn headless_app(def: table::TableDef, autoplay: bool, hz: f64) -> App {
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

/// The headless mode: plays (autoplay, or the replay's steps) until the time is up or the
/// run fails ([`RunStats::failed`]), saves what was asked for, and prints a summary.
fn headless(def: table::TableDef, args: &Args, played: Option<replay::Replay>, hz: f64) -> ExitCode {
    let steps = played.as_ref().map(|r| r.steps);
    let mut app = headless_game(def, args, played, hz);
    let started = std::time::Instant::now();
    play_headless(&mut app, args, steps);
    if !save_headless_outputs(&mut app, args) {
        return ExitCode::FAILURE;
    }
    print_headless_summary(app.world(), hz, steps, started);
    let stats = app.world().resource::<RunStats>();
    if stats.failed() {
        eprintln!("pinball: FAILED: a ball escaped, sat inside a surface or was repaired, or a NaN appeared");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The headless app with `--scores`, and either the replay's tape or a new game (with a
/// recording tape for `--record`).
fn headless_game(def: table::TableDef, args: &Args, played: Option<replay::Replay>, hz: f64) -> App {
    let mut app = headless_app(def, played.is_none(), hz);
    if let Some(path) = args.scores.clone() {
        app.insert_resource(highscores::HighScores::load(path));
    }
    match played {
        Some(r) => {
            app.insert_resource(replay::player(r));
        }
        None => {
            if args.record.is_some() {
                let tape = replay::Tape::record(app.world().resource::<game::Table>(), hz, None);
                app.insert_resource(tape);
            }
            app.world_mut().resource_mut::<Requests>().new_game = true;
        }
    }
    app
}

/// Updates the app until `steps` fixed steps (a replay) or `--seconds` simulated seconds
/// are done, or a ball escapes or a NaN appears; a progress line every
/// [`PROGRESS_SECONDS`], each followed by the balls' places when `PINBALL_TRACE` is set.
fn play_headless(app: &mut App, args: &Args, steps: Option<u64>) {
    let mut next_report = PROGRESS_SECONDS;
    let mut trace = false;
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
            trace = std::env::var_os("PINBALL_TRACE").is_some();
        }
        let done = match steps {
            Some(n) => stats.steps >= n,
            None => stats.simulated >= args.seconds,
        };
        if done || stats.failed() {
            break;
        }
        if std::mem::take(&mut trace) {
            trace_balls(app);
        }
    }
}

/// Writes the `--record` tape and the `--state-out` state, each if asked for; false (after
/// saying why) if one could not be written.
fn save_headless_outputs(app: &mut App, args: &Args) -> bool {
    if let (Some(path), Some(tape)) = (&args.record, app.world().get_resource::<replay::Tape>())
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

/// The headless summary: the run, the CCD's work, the play, the score and the failures;
/// `started` is when play began.
fn print_headless_summary(world: &World, hz: f64, steps: Option<u64>, started: std::time::Instant) {
    let stats = world.resource::<RunStats>();
    let game = world.resource::<rules::Game>();
    let mode = if steps.is_some() { "replay" } else { "autoplay" };
    println!("pinball headless summary ({hz} Hz, {mode})");
    println!("  simulated seconds:     {:.1}", stats.simulated);
    println!("  wall-clock seconds:    {:.1}", started.elapsed().as_secs_f64());
    println!("  fixed steps:           {}", stats.steps);
    println!("  games started:         {}", game.games);
    println!("  balls served:          {}", stats.served);
    println!("  balls drained:         {}", stats.drained);
    println!("  multiballs:            {}", stats.multiballs);
    println!("  bounces:               {}", stats.bounces);
    println!(
        "  max bounces in a step: {} (one ball: {})",
        stats.max_bounces_step, stats.max_bounces_circle
    );
    println!(
        "  capped steps:          {} ({:.3e} ball-seconds lost)",
        stats.capped_steps, stats.lost_time
    );
    println!("  max ball speed:        {:.0} mm/s", stats.max_speed);
    println!("  CCD µs per step:       {:.2}", stats.mean_micros());
    println!("  ball searches:         {}", stats.ball_searches);
    print_play_summary(stats);
    println!("  score:                 {}", game.score);
    println!("  high score:            {}", game.high_score.max(game.score));
    println!("  escapes:               {}", stats.escapes);
    println!("  NaN:                   {}", stats.nan);
    println!(
        "  faults:                {} (deepest inside a surface {:.5} mm, a fault past {} of the radius; repairs {})",
        stats.faults,
        stats.deepest,
        bevy_circle_ccd::ccd_core::PENETRATION_SLOP_REL,
        stats.repairs
    );
}

/// Where every ball is (with `PINBALL_TRACE` set, at each progress line).
fn trace_balls(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&Transform, Option<&MovingCircle>), With<spawn::Ball>>();
    for (tf, c) in q.iter(app.world()) {
        let v = c.map(|c| c.velocity);
        eprintln!("    ball at {} moving {v:?}", tf.translation.truncate());
    }
}

/// The play part of the headless summary: ball times, shots, drains, multiball, tilts.
fn print_play_summary(stats: &RunStats) {
    if let Some((median, mean)) = stats.ball_time_median_mean() {
        println!(
            "  ball time:             median {median:.1} s, mean {mean:.1} s ({} balls)",
            stats.ball_times.len()
        );
    }
    let minutes = stats.simulated / 60.0;
    let major: u32 = stats.shots.iter().map(|(_, n)| n).sum();
    println!(
        "  major shots:           {major} ({:.2} a minute)",
        f64::from(major) / minutes.max(f64::MIN_POSITIVE)
    );
    for (name, n) in &stats.shots {
        println!("    {name:<20} {n}");
    }
    println!("    {:<20} {}", "top lanes", stats.top_lanes);
    let [left, centre, right] = stats.drains;
    println!("  drains:                left outlane {left}, centre {centre}, right outlane {right}");
    println!(
        "  jackpots:              {} (ball saves {}, kickbacks {}, extra balls {})",
        stats.jackpots, stats.saves, stats.kickbacks, stats.extra_balls
    );
    println!(
        "  nudges:                {} (tilt warnings {}, tilts {})",
        stats.nudges, stats.tilt_warnings, stats.tilts
    );
}

#[cfg(test)]
mod input_tests;
#[cfg(test)]
mod physics_tests;
#[cfg(test)]
mod playfield_tests;
#[cfg(test)]
mod tests;
