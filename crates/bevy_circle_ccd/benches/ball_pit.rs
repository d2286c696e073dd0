//! The ball-pit benchmark: the plugin's fixed step on thousands of fast balls.
//!
//! 1k, 2k and 10k balls of radius 4 at 500–4000 units/s inside a closed 512-gon of
//! circumradius 1000, with 300 baffles and 64 pillars; no gravity, e = 1, μ = 0, 120 Hz,
//! headless (MinimalPlugins), one thread. Prints, for each size, the median CCD µs per
//! fixed step (the sweep system alone, and the whole app update), escapes and the energy
//! ratio after 1,200 steps.
//!
//! ```text
//! cargo bench -p bevy_circle_ccd --bench ball_pit
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000 --steps 600
//! ```

#[path = "../../../benches/pit_scene.rs"]
mod pit;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(about = "Ball-pit benchmark of the CCD plugin")]
struct Args {
    /// Ball counts to run, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "1000,2000,10000")]
    balls: Vec<usize>,
    /// Fixed steps per run.
    #[arg(long, default_value_t = 1200)]
    steps: u32,
    /// Scene seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

struct Row {
    balls: usize,
    sweep_us: f64,
    update_us: f64,
    bounces_per_step: f64,
    escapes: usize,
    energy_ratio: f64,
}

fn main() {
    let args = Args::parse();
    println!(
        "ball pit: 512-gon r=1000, 300 baffles, 64 pillars, balls r=4 at 500-4000 u/s, 120 Hz, 1 thread"
    );
    println!(
        "{:>7} | {:>14} | {:>15} | {:>12} | {:>7} | {:>12}",
        "balls", "sweep µs/step", "update µs/step", "bounces/step", "escapes", "energy ratio"
    );
    let mut failed = false;
    for &n in &args.balls {
        let row = run(n, args.steps, args.seed);
        println!(
            "{:>7} | {:>14.1} | {:>15.1} | {:>12.1} | {:>7} | {:>12.8}",
            row.balls, row.sweep_us, row.update_us, row.bounces_per_step, row.escapes, row.energy_ratio
        );
        failed |= row.escapes > 0 || !row.energy_ratio.is_finite();
    }
    println!(
        "(median over {} steps; sweep = the CCD system alone, update = the whole app frame)",
        args.steps
    );
    if failed {
        eprintln!("FAILED: escapes or non-finite energy");
        std::process::exit(1);
    }
}

fn energy(app: &mut App) -> f64 {
    let mut q = app.world_mut().query::<&MovingCircle>();
    q.iter(app.world())
        .map(|c| c.velocity.as_dvec2().length_squared())
        .sum()
}

fn run(balls: usize, steps: u32, seed: u64) -> Row {
    let scene = pit::build(balls, seed);
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(1),
    }))
    .add_plugins(TransformPlugin)
    .add_plugins(CircleCcdPlugin {
        interpolation: false,
        ..default()
    })
    .insert_resource(Time::<Fixed>::from_hz(pit::HZ))
    .insert_resource(Time::<Virtual>::from_max_delta(std::time::Duration::from_secs(1)))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .insert_resource(CcdSettings {
        entity_events: false,
        ..default()
    });
    for (a, b) in &scene.walls {
        app.world_mut()
            .spawn((StaticSegment::new(*a, *b), Transform::default()));
    }
    for c in &scene.pillars {
        app.world_mut().spawn((
            Pillar::new(pit::PILLAR_RADIUS),
            Transform::from_translation(c.extend(0.0)),
        ));
    }
    for b in &scene.balls {
        app.world_mut().spawn((
            MovingCircle::new(pit::BALL_RADIUS, b.velocity),
            Transform::from_translation(b.position.extend(0.0)),
        ));
    }
    app.finish();
    app.cleanup();
    // Warm-up frame: startup, transform propagation, broadphase build.
    app.update();
    let e0 = energy(&mut app);
    let mut sweep = Vec::with_capacity(steps as usize);
    let mut update = Vec::with_capacity(steps as usize);
    let mut bounces = 0u64;
    // A ball has escaped if its centre comes closer to the outer wall than its radius
    // (less a rounding allowance of 1e-3 units).
    let limit = pit::BALL_RADIUS - 1e-3;
    let mut closest = f32::INFINITY;
    let mut escaped = std::collections::HashSet::new();
    let mut positions = app
        .world_mut()
        .query_filtered::<(Entity, &Transform), With<MovingCircle>>();
    let mut done = 0;
    while done < steps {
        let before = app.world().resource::<CcdStats>().steps;
        let t = Instant::now();
        app.update();
        let elapsed = t.elapsed().as_secs_f64() * 1e6;
        let stats = app.world().resource::<CcdStats>().clone();
        if stats.steps == before {
            continue;
        }
        done += 1;
        update.push(elapsed);
        sweep.push(f64::from(stats.step_micros));
        bounces += u64::from(stats.bounces);
        for (e, t) in positions.iter(app.world()) {
            let clearance = pit::clearance(t.translation.truncate());
            closest = closest.min(clearance);
            if !(clearance >= limit) {
                escaped.insert(e);
            }
        }
    }
    let e1 = energy(&mut app);
    eprintln!(
        "  {balls} balls: closest approach of a ball centre to the outer wall {closest:.5} (radius {})",
        pit::BALL_RADIUS
    );
    Row {
        balls,
        sweep_us: median(&mut sweep),
        update_us: median(&mut update),
        bounces_per_step: bounces as f64 / f64::from(steps),
        escapes: escaped.len(),
        energy_ratio: e1 / e0,
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
