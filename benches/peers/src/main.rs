//! The ball-pit benchmark scene (`benches/pit_scene.rs`) on two peer engines, Avian 2D
//! and bevy_rapier2d, headless on one thread at 120 Hz, so their numbers can sit next to
//! the ones `cargo bench -p bevy_circle_ccd --bench ball_pit` prints for bevy_circle_ccd.
//!
//! ```text
//! cd benches/peers
//! cargo run --release -- --balls 1000,2000
//! cargo run --release -- --balls 1000,2000 --ball-ball
//! cargo run --release -- --engine rapier --balls 10000 --steps 600
//! ```
//!
//! For each engine and ball count it prints the median µs per physics step (the engine's
//! own systems, and the whole `app.update()`), escapes (balls whose centre ended a step
//! closer to the outer wall than r - 0.001, as the plugin's bench counts them, and by the
//! radial test |p| > inradius - r + 0.01), and the kinetic-energy ratio Σ|v|² (end) /
//! Σ|v|² (spawn); then diagnostics: the first second alone, balls that went through the
//! outer wall, the closest approach to it, and a check that each update ran one step.

#[path = "../../pit_scene.rs"]
mod pit;

mod avian;
mod rapier;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use clap::{Parser, ValueEnum};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(about = "Ball-pit benchmark scene on Avian 2D and bevy_rapier2d")]
struct Args {
    /// Ball counts to run, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "1000,2000")]
    balls: Vec<usize>,
    /// Timed physics steps per run (after one warm-up update).
    #[arg(long, default_value_t = 1200)]
    steps: u32,
    /// Scene seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Stop a run after this many wall-clock seconds (the row then covers the steps done).
    #[arg(long, default_value_t = 300.0)]
    time_limit: f64,
    /// Which engine(s) to run.
    #[arg(long, value_enum, default_value_t = EngineChoice::Both)]
    engine: EngineChoice,
    /// Let balls collide with each other too (default: balls only hit walls and pillars).
    #[arg(long)]
    ball_ball: bool,
    /// Engine length unit (Avian `PhysicsPlugins::with_length_unit`, Rapier
    /// `IntegrationParameters::length_unit`); both engines default to 1.
    #[arg(long, default_value_t = 1.0)]
    length_unit: f32,
    /// Keep Rapier's default speed cap (`normalized_max_linear_velocity` = 400 × length
    /// unit). By default the cap is lifted, because it clamps the scene's 500–4000 u/s.
    #[arg(long)]
    rapier_speed_cap: bool,
    /// Build the 512-gon outer wall as one closed polyline collider instead of 512
    /// segment colliders (baffles are always single segments).
    #[arg(long)]
    polyline: bool,
    /// Diagnostic: leave CCD off the balls (no `SweptCcd` / `Ccd`), to see what CCD costs.
    #[arg(long)]
    no_ccd: bool,
}

/// Engine settings shared by both engines.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Balls collide with balls.
    pub ball_ball: bool,
    /// Engine length unit.
    pub length_unit: f32,
    /// Keep Rapier's default max linear velocity.
    pub rapier_speed_cap: bool,
    /// Outer wall as one polyline.
    pub polyline: bool,
    /// Balls without CCD (diagnostic).
    pub no_ccd: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineChoice {
    Avian,
    Rapier,
    Both,
}

/// Marker on every ball, whichever engine simulates it.
#[derive(Component)]
pub struct Ball;

/// Wall-clock time of the engine's own systems in the last fixed step, written by two
/// marker systems placed before and after the engine's system sets.
#[derive(Resource, Default)]
pub struct StepTimer {
    start: Option<Instant>,
    /// Microseconds between the two markers in the last step.
    pub last_us: f64,
    /// Physics steps run so far.
    pub steps: u64,
}

/// Marker system: runs right before the engine's systems.
pub fn step_begin(mut timer: ResMut<StepTimer>) {
    timer.start = Some(Instant::now());
}

/// Marker system: runs right after the engine's systems.
pub fn step_end(mut timer: ResMut<StepTimer>) {
    if let Some(start) = timer.start.take() {
        timer.last_us = start.elapsed().as_secs_f64() * 1e6;
        timer.steps += 1;
    }
}

/// One simulated ball, as the engine reports it after a step.
#[derive(Clone, Copy)]
pub struct Sample {
    entity: Entity,
    position: Vec2,
    velocity: Vec2,
}

/// An engine: builds an app with the scene spawned, and reads the balls back.
pub trait Engine {
    /// Short name for the table.
    const NAME: &'static str;
    /// A headless one-thread app stepping at `pit::HZ`, with the scene spawned.
    fn build(scene: &pit::Pit, config: Config) -> App;
    /// Every ball's position and linear velocity.
    fn sample(world: &mut World, out: &mut Vec<Sample>);
    /// What the engine itself says about CCD on the balls, read after the warm-up step.
    fn ccd_report(world: &mut World) -> String;
}

/// The outer 512-gon as polyline vertices and closed-loop indices.
pub fn outer_polyline(scene: &pit::Pit) -> (Vec<Vec2>, Vec<[u32; 2]>) {
    let vertices = scene.walls[..pit::SIDES].iter().map(|w| w.0).collect();
    let indices = (0..pit::SIDES as u32)
        .map(|i| [i, (i + 1) % pit::SIDES as u32])
        .collect();
    (vertices, indices)
}

/// The engine-independent part of the app: MinimalPlugins on one thread, the transform
/// plugin, a 120 Hz fixed clock that advances exactly one fixed step per `app.update()`,
/// and the step timer.
pub fn base_app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(1),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(Time::<Fixed>::from_hz(pit::HZ))
    .insert_resource(Time::<Virtual>::from_max_delta(Duration::from_secs(1)))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .init_resource::<StepTimer>();
    app
}

struct Row {
    engine: &'static str,
    balls: usize,
    physics_us: f64,
    update_us: f64,
    escapes: usize,
    radial_escapes: usize,
    energy_ratio: f64,
    /// Median physics µs over the first `EARLY` steps only.
    early_physics_us: f64,
    /// Energy ratio after `EARLY` steps.
    early_energy_ratio: f64,
    outside: usize,
    first_outside: Option<u32>,
    closest: f32,
    step_ratio: f64,
    multi_step_updates: u32,
    empty_updates: u32,
    seconds: f64,
    /// Steps actually timed (less than asked if the time limit hit).
    steps_done: u32,
    /// Median over balls of |v| at the end / |v| after the warm-up step.
    median_speed_ratio: f64,
    /// The engine's own CCD state for the balls after the warm-up step.
    ccd: String,
}

/// Steps in the "first second" diagnostics (1 s at 120 Hz).
const EARLY: u32 = 120;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn run<E: Engine>(balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> Row {
    let wall = Instant::now();
    let scene = pit::build(balls, seed);
    let e0: f64 = scene
        .balls
        .iter()
        .map(|b| b.velocity.as_dvec2().length_squared())
        .sum();
    let mut app = E::build(&scene, config);
    app.finish();
    app.cleanup();

    // Warm-up: the first update runs the startup schedules and (normally) the first step.
    let mut warmups = 0;
    while app.world().resource::<StepTimer>().steps == 0 {
        app.update();
        warmups += 1;
        assert!(
            warmups < 10,
            "{}: no physics step after {warmups} updates",
            E::NAME
        );
    }

    // The plugin's bench: a ball has escaped once its centre ends a step closer to the
    // outer wall than its radius less 1e-3. The radial test: |p| > inradius - r + 0.01.
    let clearance_limit = pit::BALL_RADIUS - 1e-3;
    let radial_limit = pit::inradius() - pit::BALL_RADIUS + 1e-2;
    let dt = 1.0 / pit::HZ as f32;
    let mut samples = Vec::with_capacity(balls);
    E::sample(app.world_mut(), &mut samples);
    assert_eq!(samples.len(), balls, "{}: wrong ball count", E::NAME);
    let ccd = E::ccd_report(app.world_mut());
    let before: HashMap<Entity, (Vec2, Vec2)> = samples
        .iter()
        .map(|s| (s.entity, (s.position, s.velocity)))
        .collect();

    let mut physics = Vec::with_capacity(steps as usize);
    let mut update = Vec::with_capacity(steps as usize);
    let mut escaped = HashSet::new();
    let mut radial_escaped = HashSet::new();
    let mut outside = HashSet::new();
    let mut first_outside = None;
    let mut early_physics_us = f64::NAN;
    let mut early_energy_ratio = f64::NAN;
    let mut closest = f32::INFINITY;
    let mut step_ratio = f64::NAN;
    let mut multi_step_updates = 0;
    let mut empty_updates = 0;
    let mut done = 0;
    while done < steps && wall.elapsed().as_secs_f64() < time_limit {
        let steps_before = app.world().resource::<StepTimer>().steps;
        let t = Instant::now();
        app.update();
        let elapsed = t.elapsed().as_secs_f64() * 1e6;
        let timer = app.world().resource::<StepTimer>();
        let ran = timer.steps - steps_before;
        if ran == 0 {
            empty_updates += 1;
            assert!(empty_updates < 10, "{}: updates without a physics step", E::NAME);
            continue;
        }
        if ran > 1 {
            multi_step_updates += 1;
        }
        physics.push(timer.last_us);
        update.push(elapsed);
        done += 1;
        E::sample(app.world_mut(), &mut samples);
        if done == 1 {
            // Did the engine advance by exactly one 1/120 s step? Compare each ball's
            // displacement with |v|·dt; the median over balls (most hit nothing) is ~1.
            let mut ratios: Vec<f64> = samples
                .iter()
                .filter_map(|s| {
                    let (p0, v0) = before.get(&s.entity)?;
                    Some(f64::from((s.position - *p0).length() / (v0.length() * dt)))
                })
                .collect();
            step_ratio = median(&mut ratios);
        }
        for s in &samples {
            let clearance = pit::clearance(s.position);
            closest = closest.min(clearance);
            if !(clearance >= clearance_limit) {
                escaped.insert(s.entity);
            }
            if !(s.position.length() <= radial_limit) {
                radial_escaped.insert(s.entity);
            }
            if !(clearance >= 0.0) {
                outside.insert(s.entity);
                first_outside.get_or_insert(done);
            }
        }
        if done == EARLY.min(steps) {
            early_physics_us = median(&mut physics.clone());
            early_energy_ratio = samples
                .iter()
                .map(|s| s.velocity.as_dvec2().length_squared())
                .sum::<f64>()
                / e0;
        }
    }
    let e1: f64 = samples
        .iter()
        .map(|s| s.velocity.as_dvec2().length_squared())
        .sum();
    let mut speed_ratios: Vec<f64> = samples
        .iter()
        .filter_map(|s| Some(f64::from(s.velocity.length() / before.get(&s.entity)?.1.length())))
        .collect();
    Row {
        engine: E::NAME,
        balls,
        physics_us: median(&mut physics),
        update_us: median(&mut update),
        escapes: escaped.len(),
        radial_escapes: radial_escaped.len(),
        energy_ratio: e1 / e0,
        early_physics_us,
        early_energy_ratio,
        outside: outside.len(),
        first_outside,
        closest,
        step_ratio,
        multi_step_updates,
        empty_updates,
        seconds: wall.elapsed().as_secs_f64(),
        steps_done: done,
        median_speed_ratio: median(&mut speed_ratios),
        ccd,
    }
}

fn main() {
    let args = Args::parse();
    let config = Config {
        ball_ball: args.ball_ball,
        length_unit: args.length_unit,
        rapier_speed_cap: args.rapier_speed_cap,
        polyline: args.polyline,
        no_ccd: args.no_ccd,
    };
    let mode = if args.ball_ball {
        "ball-ball ON"
    } else {
        "ball-ball OFF (balls hit only walls and pillars)"
    };
    println!(
        "ball pit: 512-gon r=1000, 300 baffles, 64 pillars, balls r=4 at 500-4000 u/s, 120 Hz, 1 thread, seed {}, {mode}",
        args.seed
    );
    println!(
        "length unit {}, outer wall: {}, ball CCD: {}, rapier speed cap: {}",
        args.length_unit,
        if args.polyline {
            "one closed polyline"
        } else {
            "512 segments"
        },
        if args.no_ccd { "OFF" } else { "on" },
        if args.rapier_speed_cap {
            "default (400 x length unit)"
        } else {
            "off"
        }
    );
    println!(
        "{:>6} | {:>7} | {:>14} | {:>15} | {:>7} | {:>7} | {:>14}",
        "engine", "balls", "step µs/step", "update µs/step", "escapes", "radial", "energy ratio"
    );
    let engines: &[EngineChoice] = match args.engine {
        EngineChoice::Both => &[EngineChoice::Avian, EngineChoice::Rapier],
        EngineChoice::Avian => &[EngineChoice::Avian],
        EngineChoice::Rapier => &[EngineChoice::Rapier],
    };
    let mut rows = Vec::new();
    for &n in &args.balls {
        for &engine in engines {
            let row = match engine {
                EngineChoice::Avian => run::<avian::Avian>(n, args.steps, args.seed, config, args.time_limit),
                EngineChoice::Rapier => {
                    run::<rapier::Rapier>(n, args.steps, args.seed, config, args.time_limit)
                }
                EngineChoice::Both => unreachable!(),
            };
            let cut = if row.steps_done < args.steps {
                format!("  (time limit: {} steps)", row.steps_done)
            } else {
                String::new()
            };
            println!(
                "{:>6} | {:>7} | {:>14.1} | {:>15.1} | {:>7} | {:>7} | {:>14.8}{cut}",
                row.engine,
                row.balls,
                row.physics_us,
                row.update_us,
                row.escapes,
                row.radial_escapes,
                row.energy_ratio
            );
            rows.push(row);
        }
    }
    println!(
        "(median over {} steps after one warm-up update; step = the engine's systems in its fixed schedule, \
         update = the whole app.update(); escapes = balls whose centre ended a step closer to the outer wall \
         than r - 0.001 (the plugin bench's test); radial = balls whose centre ended a step farther than \
         inradius - r + 0.01 from the origin; each ball counted once; energy ratio = Σ|v|² after the last step / at spawn)",
        args.steps
    );
    println!();
    println!("diagnostics:");
    println!(
        "{:>6} | {:>7} | {:>17} | {:>14} | {:>10} | {:>7} | {:>13} | {:>11} | {:>10} | {:>6} | {:>5}",
        "engine",
        "balls",
        "step µs, 1st 1 s",
        "energy @ 1 s",
        "med |v|/v0",
        "outside",
        "first outside",
        "closest",
        "step check",
        "run s",
        "steps"
    );
    for row in &rows {
        let first = row
            .first_outside
            .map_or_else(|| "-".to_string(), |s| format!("step {s}"));
        let (early_us, early_energy) = if row.early_physics_us.is_nan() {
            ("-".to_string(), "-".to_string())
        } else {
            (
                format!("{:.1}", row.early_physics_us),
                format!("{:.8}", row.early_energy_ratio),
            )
        };
        println!(
            "{:>6} | {:>7} | {:>17} | {:>14} | {:>10.4} | {:>7} | {:>13} | {:>11.5} | {:>10.4} | {:>6.1} | {:>5}",
            row.engine,
            row.balls,
            early_us,
            early_energy,
            row.median_speed_ratio,
            row.outside,
            first,
            row.closest,
            row.step_ratio,
            row.seconds,
            row.steps_done
        );
        println!("  {} {}: {}", row.engine, row.balls, row.ccd);
        if row.multi_step_updates > 0 || row.empty_updates > 0 {
            println!(
                "  {} {}: {} updates ran more than one physics step, {} ran none",
                row.engine, row.balls, row.multi_step_updates, row.empty_updates
            );
        }
    }
    println!(
        "(1st 1 s = median over the first {EARLY} steps; outside = balls whose centre ended a step beyond the \
         outer wall's line, i.e. through the wall; med |v|/v0 = median over balls of the final speed over \
         the speed after the warm-up step; closest = the smallest distance from a ball centre to the outer \
         wall at any step end (r = {} when nothing penetrates); \
         step check = median over balls of |Δp| / (|v|·dt) in the first timed step, 1 when one 1/120 s step ran; \
         run s = wall-clock seconds for the whole run)",
        pit::BALL_RADIUS
    );
}
