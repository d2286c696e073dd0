//! The headless summary on stdout: the run, the CCD's work, the play, the score and the
//! failures. CI's smoke run (`.ci/run`) reads it: a replay must print the recorded game's
//! score, balls, bounces and steps, and escapes, NaN, faults and capped steps must be 0.

use crate::game::autoplay::Autoplay;
use crate::game::progress::Progress;
use crate::game::rules::Game;
use crate::game::stats::{DriftFigures, RunStats};
use bevy::prelude::*;

/// The headless summary: the run, the CCD's work, the play, the score and the failures;
/// `started` is when play began.
pub fn print(world: &World, hz: f64, steps: Option<u64>, started: std::time::Instant) {
    let stats = world.resource::<RunStats>();
    let game = world.resource::<Game>();
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
    print_drift("free flight:          ", "flight", &stats.flight);
    print_drift("rides:                ", "ride", &stats.ride);
    println!(
        "  ride time:             {:.1} s, {:.2} s per ball served",
        stats.ride_seconds,
        stats.ride_seconds / f64::from(stats.served.max(1))
    );
    print_play_summary(stats);
    print_aimed(world);
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

/// The autoplayer's aimed trap shots, by the shot aimed at.
fn print_aimed(world: &World) {
    let (Some(auto), Some(progress)) = (world.get_resource::<Autoplay>(), world.get_resource::<Progress>())
    else {
        return;
    };
    if !auto.on {
        return;
    }
    let total: u32 = auto.aimed.iter().sum();
    let each: Vec<String> = auto
        .aimed
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{} {n}", progress.shot_names.get(k).map_or("?", String::as_str)))
        .collect();
    println!("  aimed trap shots:      {total} ({})", each.join(", "));
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

/// One line of energy drift over flights or rides (`game/drift.rs`).
fn print_drift(label: &str, one: &str, drift: &DriftFigures) {
    println!(
        "  {label} worst energy drift {:.2e} mm of height ({:.2e} of the {one}'s energy, at {:.0} after {} steps) over {} {one}s, the longest {} steps",
        drift.worst_height,
        drift.worst_relative,
        drift.worst_at.0,
        drift.worst_at.1,
        drift.runs,
        drift.longest
    );
}
