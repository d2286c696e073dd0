//! `step_balls` alone on the ball-pit scene (the plugin's `ball_pit` bench without Bevy):
//! for profiling the event-driven stepper and timing it without the app around it.
//!
//! ```text
//! cargo bench -p ccd_core --bench multiball_pit -- --balls 10000 --steps 600 --threads 2
//! cargo bench -p ccd_core --bench multiball_pit -- --ball-ball false
//! cargo bench -p ccd_core --bench multiball_pit -- --balls 2000 --gravity 1000
//! cargo bench -p ccd_core --bench multiball_pit -- --balls 10000 --steps 120 --split-study
//! ```
//!
//! Prints µs per step, events per step, µs per event, escapes, the audit's faults (a ball
//! inside the outline, a baffle or a pillar by more than `penetration_slop` of its radius,
//! checked after every step, outside the timing) and the deepest any ball sat inside a
//! surface, the energy ratio at the end, and a fingerprint of the balls' end state (equal
//! across builds that step them alike, bit for bit); exits 1 on any escape or fault. With
//! `--split-study`, exits 1 if the prototype split step ends with more overlapping pairs
//! than the whole step.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/pit.rs"]
mod pit;
#[path = "common/split_step.rs"]
mod split_step;
#[path = "common/split_study.rs"]
mod split_study;

use ccd_core::{Ball, MultiballScratch, MultiballSettings, MultiballStep, Threads, step_balls_parallel};
use clap::Parser;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(about = "The ball pit on ccd_core's step_balls alone")]
struct Args {
    /// Balls in the pit.
    #[arg(long, default_value_t = 10_000)]
    balls: usize,
    /// Steps to run (120 per second).
    #[arg(long, default_value_t = 600)]
    steps: usize,
    /// Threads for the per-ball work.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Ball–ball contacts.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    ball_ball: bool,
    /// Gravity, downwards, units/s² (0: a top-down pit).
    #[arg(long, default_value_t = 0.0)]
    gravity: f32,
    /// Instead of the timing, what stepping the two halves of the pit apart would give
    /// and cost (on two threads, whatever `--threads` says; see `common/split_study.rs`).
    #[arg(long)]
    split_study: bool,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn main() {
    let Args {
        balls,
        steps,
        threads,
        ball_ball,
        gravity,
        split_study,
        ..
    } = Args::parse();
    let (grid, mut state) = pit::build(balls, 7);
    let dt = (1.0 / pit::HZ) as f32;
    let settings = MultiballSettings {
        ball_ball,
        gravity: ccd_core::Vec2::new(0.0, -gravity),
        ..MultiballSettings::default()
    };
    if split_study {
        if let Err(fault) = split_study::run(&grid, state, steps, dt, &settings) {
            eprintln!("FAILED: {fault}");
            std::process::exit(1);
        }
        return;
    }
    let energy = |bs: &[Ball]| -> f64 {
        bs.iter()
            .map(|b| b.velocity.as_dvec2().length_squared() / f64::from(b.inverse_mass))
            .sum()
    };
    let e0 = energy(&state);
    let mut scratch = MultiballScratch::default();
    let (mut events, mut escapes, mut rounds) = (0_u64, 0_usize, 0_u64);
    let (mut faults, mut deepest) = (0_usize, 0.0_f32);
    let mut times = Vec::with_capacity(steps);
    for _ in 0..steps {
        let started = Instant::now();
        let step = MultiballStep {
            balls: &mut state,
            dt,
            obstacles: &grid,
            moving: &mut [],
        };
        let report = step_balls_parallel(&Threads(threads), step, &settings, &mut scratch, |_| {});
        times.push(started.elapsed().as_secs_f64() * 1e6);
        events += u64::from(report.events);
        rounds += u64::from(report.joined_balls);
        escapes += state
            .iter()
            .filter(|b| pit::clearance(b.center) < b.radius - 1e-2)
            .count();
        let (step_faults, inside) = pit::audit(&grid, &state);
        faults += step_faults;
        deepest = deepest.max(inside);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let per_step = events as f64 / steps as f64;
    println!(
        "{balls} balls, {steps} steps, {threads} thread(s): median {median:.1} µs/step, \
         {per_step:.0} events/step, {:.3} µs/event, {:.1} balls joined/step, escapes {escapes}, \
         faults {faults} (deepest inside a surface {deepest:.2e}), energy ratio {:.9}, end state {:016x}",
        median / per_step.max(1.0),
        rounds as f64 / steps as f64,
        energy(&state) / e0,
        pit::fingerprint(state.iter().map(|b| (b.center, b.velocity))),
    );
    if escapes > 0 || faults > 0 {
        eprintln!("FAILED: {escapes} escapes, {faults} faults");
        std::process::exit(1);
    }
}
