//! `--headless`: the room and rules on MinimalPlugins, autoplayed (or replayed) for
//! `--seconds` of game time (or the replay's steps), with the plugin's audit on; a
//! progress line every simulated minute and a summary at the end. The exit code is
//! non-zero on any fault: an escape through a wall that was on, a ball found inside a
//! wall by the audit, or a NaN.

use crate::game::ghost::Ghost;
use crate::game::highscores::HighScores;
use crate::game::tape::{Replay, Tape, player};
use crate::game::{Game, Tally};
use crate::harness::app::headless_app;
use crate::harness::cli::Args;
use crate::harness::replay;
use crate::room::RoomDef;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::process::ExitCode;

/// Simulated seconds between progress lines.
const PROGRESS_SECONDS: f64 = 60.0;

/// Runs the headless game and prints its summary; the exit code says whether it was clean.
pub fn run(def: RoomDef, args: &Args, played: Option<Replay>, hz: u32) -> ExitCode {
    let autoplay = played.is_none();
    let mut app = headless_app(def.clone(), autoplay, hz);
    app.world_mut().resource_mut::<CcdSettings>().audit = true;
    app.world_mut().resource_mut::<Ghost>().on = true;
    // Nobody looks at the aim line here (the autoplayer makes its own prediction).
    app.world_mut().resource_mut::<crate::game::predict::AimLine>().on = false;
    if let Some(path) = &args.scores {
        app.insert_resource(HighScores::load(path.clone()));
    }
    let steps = match played {
        Some(replay) => {
            let steps = replay.steps;
            app.insert_resource(player(replay));
            steps
        }
        None => {
            app.insert_resource(Tape::Record {
                replay: Replay::new(&def, hz),
                file: args.record.clone(),
            });
            (args.seconds * f64::from(hz)).round() as u64
        }
    };
    let wall = std::time::Instant::now();
    let every = (PROGRESS_SECONDS * f64::from(hz)).round() as u64;
    for step in 1..=steps {
        app.update();
        if step % every == 0 {
            let t = app.world().resource::<Tally>();
            println!(
                "t = {:>5.0} s: {} blocks, top speed {:.0} u/s, {} games lost, {} faults",
                step as f64 / f64::from(hz),
                t.blocks,
                t.top_speed,
                t.lost_through_open_gate,
                t.faults()
            );
        }
    }
    if let Some(tape) = app.world().get_resource::<Tape>() {
        replay::save(tape);
    }
    summary(&mut app, steps, hz, wall.elapsed().as_secs_f64())
}

/// Prints the summary; the exit code says whether the run was clean.
fn summary(app: &mut App, steps: u64, hz: u32, wall_seconds: f64) -> ExitCode {
    let world = app.world();
    let t = *world.resource::<Tally>();
    let game = *world.resource::<Game>();
    let ghost = *world.resource::<Ghost>();
    let faults = world.resource::<CcdFaults>();
    let stats = world.resource::<CcdStats>();
    let crossing = 2.0 * app.world().resource::<crate::game::Room>().def.half_size;
    println!("block_it summary");
    println!(
        "  simulated:                  {:.1} s at {hz} Hz ({steps} steps, {wall_seconds:.1} s wall clock)",
        steps as f64 / f64::from(hz)
    );
    println!(
        "  games:                      {} (best score {})",
        game.games, t.best_score
    );
    println!("  blocks:                     {}", t.blocks);
    println!(
        "  top speed:                  {:.0} u/s ({:.2} room widths a step)",
        t.top_speed,
        t.top_speed / hz as f32 / crossing
    );
    println!("  most bounces in a step:     {}", t.most_bounces_in_a_step);
    println!("  capped steps:               {}", stats.capped_steps);
    println!(
        "  games lost by an open gate: {} (not a fault)",
        t.lost_through_open_gate
    );
    println!("  escapes through a solid wall:   {}", t.escapes_through_solid);
    println!(
        "  escapes through an active gate: {}",
        t.escapes_through_active_gate
    );
    println!(
        "  audit faults (inside a wall):   {} (deepest {})",
        faults.count, faults.deepest
    );
    println!("  NaN:                        {}", t.nan);
    println!(
        "  ghost ball tunnels:         {} (naive steps, not a fault)",
        ghost.tunnels
    );
    let bad = t.faults() + faults.count;
    if bad > 0 {
        println!("FAULTS: {bad}");
        return ExitCode::FAILURE;
    }
    println!("no faults");
    ExitCode::SUCCESS
}
