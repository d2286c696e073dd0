//! The ball-pit benchmark scene (`benches/pit_scene.rs`) on our plugin (bevy_circle_ccd),
//! Box2D v3 (through boxdd, without Bevy), Avian 2D and bevy_rapier2d, and on a Bevy floor
//! (the same app moving the balls in straight lines, no physics), headless on one thread at
//! 120 Hz, so their numbers can sit next to the ones
//! `cargo bench -p bevy_circle_ccd --bench ball_pit` prints for bevy_circle_ccd.
//!
//! ```text
//! cd benches/peers
//! cargo run --release -- --interleaved                   # ours, box2d, floor: 3 rounds
//! cargo run --release -- --balls 1000,2000
//! cargo run --release -- --balls 1000,2000 --ball-ball
//! cargo run --release -- --engine rapier --balls 10000 --steps 600
//! cargo run --release -- --engine ours,box2d --balls 2000 --top-speed 20000 --ball-ball
//! ```
//!
//! For each engine and ball count it prints the median µs per physics step (the engine's
//! own systems, and the whole `app.update()`; for Box2D the `world.step` call, and that
//! call plus reading the balls out), escapes (balls whose centre ended a step closer to the
//! outer wall than r - 0.001, as the plugin's bench counts them, and by the radial test
//! |p| > inradius - r + 0.01), and the kinetic-energy ratio Σ|v|² (end) / Σ|v|² (spawn);
//! then diagnostics: the first second alone, balls that went through the outer wall, the
//! closest approach to it, and a check that each update ran one step. `--interleaved`
//! runs every configuration on every engine in turn, round after round, and prints the
//! medians over rounds (`src/rounds.rs`).

#[path = "../../pit_scene.rs"]
mod pit;

mod avian;
mod box2d;
mod floor;
mod ours;
mod rapier;
mod rounds;
mod run;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use clap::{Parser, ValueEnum};
use run::{EARLY, Row, run};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(about = "Ball-pit benchmark scene on bevy_circle_ccd, Box2D v3, Avian 2D and bevy_rapier2d")]
pub struct Args {
    /// Ball counts to run, comma separated (default 1000,2000; with --interleaved
    /// 2000,10000).
    #[arg(long, value_delimiter = ',')]
    balls: Option<Vec<usize>>,
    /// Timed physics steps per run, after one warm-up step (default 1200; with
    /// --interleaved, the runs of fewer than 5,000 balls: default 1200).
    #[arg(long)]
    steps: Option<u32>,
    /// With --interleaved: timed steps per run of 5,000 balls or more (default 360).
    #[arg(long)]
    large_steps: Option<u32>,
    /// Scene seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// The scene's top speeds, units/s, comma separated: each ball's speed is drawn in
    /// [500, top) (default 4000, the scene of every other bench; with --interleaved
    /// 4000,20000).
    #[arg(long, value_delimiter = ',')]
    top_speed: Option<Vec<f32>>,
    /// Stop a run after this many wall-clock seconds (the row then covers the steps done).
    #[arg(long, default_value_t = 300.0)]
    time_limit: f64,
    /// Which engines to run, comma separated: avian, rapier, box2d, ours, floor, or both
    /// (= avian,rapier). Default both; with --interleaved, ours,box2d,floor.
    #[arg(long, value_enum, value_delimiter = ',')]
    engine: Option<Vec<EngineChoice>>,
    /// Let balls collide with each other too (default: balls only hit walls and pillars).
    /// With --interleaved: run only ball-ball on (see --ball-ball-modes).
    #[arg(long)]
    ball_ball: bool,
    /// With --interleaved: the ball-ball settings to run, comma separated (default off,on).
    #[arg(long, value_enum, value_delimiter = ',')]
    ball_ball_modes: Option<Vec<Toggle>>,
    /// Run every configuration (ball counts × top speeds × ball-ball off and on) on every
    /// engine, one after another, `--rounds` times over, and print the medians over rounds
    /// with ours against Box2D and against the floor.
    #[arg(long)]
    interleaved: bool,
    /// With --interleaved: how many rounds (at least 3 for a median worth the name).
    #[arg(long, default_value_t = 3)]
    rounds: u32,
    /// Engine length unit (Avian `PhysicsPlugins::with_length_unit`, Rapier
    /// `IntegrationParameters::length_unit`, Box2D `b2SetLengthUnitsPerMeter`); every
    /// engine defaults to 1.
    #[arg(long, default_value_t = 1.0)]
    length_unit: f32,
    /// Keep Rapier's default speed cap (`normalized_max_linear_velocity` = 400 × length
    /// unit). By default the cap is lifted, because it clamps the scene's 500–4000 u/s.
    #[arg(long)]
    rapier_speed_cap: bool,
    /// Box2D substeps per step (Box2D's default: 4).
    #[arg(long, default_value_t = 4)]
    box2d_substeps: i32,
    /// Box2D's restitution threshold, units/s: contacts approaching slower than this do
    /// not bounce. Default 0, so that every contact bounces (Box2D's default is 1 m/s).
    #[arg(long, default_value_t = 0.0)]
    box2d_restitution_threshold: f32,
    /// Build the 512-gon outer wall as one closed polyline collider instead of 512
    /// segment colliders (baffles are always single segments). Avian and Rapier only.
    #[arg(long)]
    polyline: bool,
    /// Diagnostic: leave CCD off the balls (no `SweptCcd` / `Ccd`; for Box2D, no bullets
    /// and continuous collision off in the world), to see what CCD costs.
    #[arg(long)]
    no_ccd: bool,
}

/// Engine settings shared by the engines.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Balls collide with balls.
    pub ball_ball: bool,
    /// The scene's top speed, units/s.
    pub top_speed: f32,
    /// Engine length unit.
    pub length_unit: f32,
    /// Keep Rapier's default max linear velocity.
    pub rapier_speed_cap: bool,
    /// Box2D substeps per step.
    pub box2d_substeps: i32,
    /// Box2D restitution threshold, units/s.
    pub box2d_restitution_threshold: f32,
    /// Outer wall as one polyline.
    pub polyline: bool,
    /// Balls without CCD (diagnostic).
    pub no_ccd: bool,
}

/// An engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ValueEnum)]
pub enum EngineChoice {
    /// Our plugin, bevy_circle_ccd.
    Ours,
    /// Box2D v3 through boxdd, without Bevy.
    Box2d,
    /// The Bevy floor: the same app moving the balls in straight lines, no physics.
    Floor,
    /// Avian 2D.
    Avian,
    /// bevy_rapier2d.
    Rapier,
    /// Avian and Rapier.
    Both,
}

impl EngineChoice {
    /// The engines `list` names, `both` spelt out, each once, in the order given.
    fn expand(list: &[Self]) -> Vec<Self> {
        let mut out = Vec::new();
        for &e in list {
            let each: &[Self] = if e == Self::Both {
                &[Self::Avian, Self::Rapier]
            } else {
                &[e]
            };
            for &e in each {
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// This engine on `balls` balls.
    pub fn run(self, balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> Row {
        match self {
            Self::Ours => run::<ours::Ours>(balls, steps, seed, config, time_limit),
            Self::Box2d => box2d::run(balls, steps, seed, config, time_limit),
            Self::Floor => run::<floor::Floor>(balls, steps, seed, config, time_limit),
            Self::Avian => run::<avian::Avian>(balls, steps, seed, config, time_limit),
            Self::Rapier => run::<rapier::Rapier>(balls, steps, seed, config, time_limit),
            Self::Both => unreachable!("expanded"),
        }
    }
}

/// On or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Toggle {
    Off,
    On,
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
    /// Called after `app.finish()` and `app.cleanup()`, before the first update.
    fn finished(_app: &mut App) {}
    /// Every ball's position and linear velocity.
    fn sample(world: &mut World, out: &mut Vec<Sample>);
    /// What the engine itself says about CCD on the balls, read after the warm-up step.
    fn ccd_report(world: &mut World) -> String;
    /// What the engine says about its work, read after the last step (empty: nothing).
    fn end_report(_world: &mut World) -> String {
        String::new()
    }
}

/// The walls spawned as one segment collider each: every wall, or only the baffles when
/// the outer wall is one polyline ([`outer_polyline`]).
pub fn single_segments(scene: &pit::Pit, polyline: bool) -> &[(Vec2, Vec2)] {
    if polyline {
        &scene.walls[pit::SIDES..]
    } else {
        &scene.walls[..]
    }
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

fn main() {
    let args = Args::parse();
    if args.interleaved {
        rounds::interleaved(&args);
        return;
    }
    let config = Config {
        ball_ball: args.ball_ball,
        top_speed: pit::TOP_SPEED,
        length_unit: args.length_unit,
        rapier_speed_cap: args.rapier_speed_cap,
        box2d_substeps: args.box2d_substeps,
        box2d_restitution_threshold: args.box2d_restitution_threshold,
        polyline: args.polyline,
        no_ccd: args.no_ccd,
    };
    let steps = args.steps.unwrap_or(1200);
    let tops = args.top_speed.clone().unwrap_or_else(|| vec![pit::TOP_SPEED]);
    for &top in &tops {
        let config = Config {
            top_speed: top,
            ..config
        };
        print_header(&args, config);
        let rows = run_all(&args, config, steps);
        print_diagnostics(&rows, steps);
    }
}

/// The scene and settings, and the main table's column names.
fn print_header(args: &Args, config: Config) {
    let mode = if args.ball_ball {
        "ball-ball ON"
    } else {
        "ball-ball OFF (balls hit only walls and pillars)"
    };
    println!(
        "ball pit: 512-gon r=1000, 300 baffles, 64 pillars, balls r=4 at 500-{} u/s, 120 Hz, 1 thread, seed {}, {mode}",
        config.top_speed, args.seed
    );
    println!(
        "length unit {}, outer wall: {}, ball CCD: {}, rapier speed cap: {}, box2d: {} substeps, restitution threshold {}",
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
        },
        args.box2d_substeps,
        args.box2d_restitution_threshold
    );
    println!(
        "{:>6} | {:>7} | {:>14} | {:>15} | {:>7} | {:>7} | {:>14}",
        "engine", "balls", "step µs/step", "update µs/step", "escapes", "radial", "energy ratio"
    );
}

/// Every ball count on every chosen engine, each row printed as it finishes.
fn run_all(args: &Args, config: Config, steps: u32) -> Vec<Row> {
    let engines = EngineChoice::expand(args.engine.as_deref().unwrap_or(&[EngineChoice::Both]));
    let balls = args.balls.clone().unwrap_or_else(|| vec![1000, 2000]);
    let mut rows = Vec::new();
    for &n in &balls {
        for &engine in &engines {
            let row = engine.run(n, steps, args.seed, config, args.time_limit);
            let cut = if row.steps_done < steps {
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
    rows
}

/// The main table's legend, then the diagnostics table and its legend.
fn print_diagnostics(rows: &[Row], steps: u32) {
    println!(
        "(median over {} steps after one warm-up update; step = the engine's systems in its fixed schedule \
         (box2d: the world.step call), update = the whole app.update() (box2d: the step and reading every \
         ball out); escapes = balls whose centre ended a step closer to the outer wall \
         than r - 0.001 (the plugin bench's test); radial = balls whose centre ended a step farther than \
         inradius - r + 0.01 from the origin; each ball counted once; energy ratio = Σ|v|² after the last step / at spawn)",
        steps
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
    for row in rows {
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
