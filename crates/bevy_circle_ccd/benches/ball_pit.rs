//! The ball-pit benchmark: the plugin's fixed step on thousands of fast balls.
//!
//! 1k, 2k and 10k balls of radius 4 at 500–4000 units/s inside a closed 512-gon of
//! circumradius 1000, with 300 baffles and 64 pillars; no gravity, e = 1, μ = 0, 120 Hz,
//! headless (MinimalPlugins), on 1 thread unless `--threads` says otherwise. Prints, for
//! each size, the median CCD µs per fixed step (the sweep system alone, and the whole app
//! update), events and event-driven balls per step, µs per event, escapes, the audit's
//! faults and deepest penetration, and the energy ratio at the end (1,200 steps: 10 s).
//!
//! The plugin's audit ([`CcdFaults`]) is on unless `--audit off`: after every step each
//! ball is checked against every surface (the outline, the baffles, the pillars), so the
//! update column includes its cost (the sweep column does not). The run fails (exit 1) on any escape
//! (a centre closer to the outer wall than the radius, or outside it), any fault, or an
//! energy ratio off 1 by more than [`ENERGY_TOLERANCE`]: with e = 1 and μ = 0 every
//! contact keeps Σ v².
//!
//! Ball–ball collisions are off unless `--ball-ball` is given (`--ball-ball` alone means
//! `on`; `--ball-ball both` runs every size both ways). The scene spawns balls at least
//! 0.5 units apart, so none starts overlapping another. With equal masses and e = 1 the
//! kinetic energy Σ v² is conserved by ball–ball contacts too.
//!
//! ```text
//! cargo bench -p bevy_circle_ccd --bench ball_pit
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000 --steps 600
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 1000,2000,10000 --steps 600 --ball-ball
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000,10000 --ball-ball both --threads 1,2
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000 --steps 600 --gravity 1000
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000 --steps 600 --static-transforms off
//! ```
//!
//! `--static-transforms off` turns off Bevy's static-scene transform optimization, as a
//! scene whose circles all move every step should; `--audit off` runs without the audit, as
//! a game ships (no faults are counted then; escapes still are). Both change the update
//! column only. The run also prints a fingerprint of the balls' end state: builds that
//! print the same one stepped every ball alike, bit for bit.
//!
//! `--gravity G` adds gravity of `G` units/s² pointing down; the energy checked is then
//! kinetic plus potential.
//!
//! `--shapes` puts something else where the 64 pillars stand, to time one shape against
//! the segments that would stand for it (each its own run, in one invocation):
//! - `gon`: a closed 64-gon of circumradius 8 as one [`CcdShape::polygon`], and
//!   `gon-segments`: the same 64 edges as separate [`StaticSegment`]s;
//! - `arc`: a quarter turn of radius 8 as one exact [`CcdShape::arc`], and
//!   `arc-segments`: its 32-segment approximation.
//!
//! ```text
//! cargo bench -p bevy_circle_ccd --bench ball_pit -- --balls 2000 --steps 600 --shapes gon,gon-segments,arc,arc-segments
//! ```

#[path = "../../../benches/pit_scene.rs"]
mod pit;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::systems::StaticTransformOptimizations;
use bevy_circle_ccd::CcdFaults;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use std::time::Instant;

/// The kinetic energy's allowed drift over a run, relative: what the README states for
/// e = 1, μ = 0 (within 1e-6 after 10 s, with or without ball–ball).
const ENERGY_TOLERANCE: f64 = 1e-6;

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
    /// Ball–ball collisions: `off`, `on` (the value when the flag is given alone) or
    /// `both`.
    #[arg(long, value_enum, num_args = 0..=1, default_value = "off", default_missing_value = "on")]
    ball_ball: BallBall,
    /// Threads for the step (`CcdSettings::threads`), comma separated: each is a run.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    threads: Vec<usize>,
    /// Gravity, units/s², pointing down (`CcdSettings::gravity`); 0 for none. The energy
    /// kept is then kinetic plus potential.
    #[arg(long, default_value_t = 0.0)]
    gravity: f32,
    /// What stands where the pillars are: `pillars`, `gon`, `gon-segments`, `arc` or
    /// `arc-segments`, comma separated: each is a run.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "pillars")]
    shapes: Vec<Shapes>,
    /// Bevy's static-scene transform optimization (`StaticTransformOptimizations`): `on`
    /// (Bevy's default) or `off`. It marks which transform trees changed so that
    /// propagation can skip the others; in a pit where every ball moves every step there is
    /// nothing to skip, and `off` is what such a scene should set (the plugin's docs say
    /// so). It changes the update column only.
    #[arg(long, value_enum, default_value = "on")]
    static_transforms: Toggle,
    /// The plugin's audit (`CcdSettings::audit`): `on` (checks every ball against every
    /// surface after every step, and the run fails on a fault) or `off`, as a game ships
    /// (the update column then holds no audit; escapes are still counted).
    #[arg(long, value_enum, default_value = "on")]
    audit: Toggle,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

/// On or off.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Toggle {
    On,
    Off,
}

/// What stands at each of the 64 pillar places.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Shapes {
    /// A pillar of radius 8.
    Pillars,
    /// A closed 64-gon of circumradius 8, one shape.
    Gon,
    /// The same 64-gon as 64 segments.
    GonSegments,
    /// A quarter turn of radius 8, one exact arc.
    Arc,
    /// The same quarter turn as 32 segments.
    ArcSegments,
}

/// Corners of the benchmark's polygon.
const GON_SIDES: usize = 64;
/// Segments of the benchmark's arc approximation.
const ARC_SEGMENTS: usize = 32;

impl Shapes {
    fn name(self) -> &'static str {
        match self {
            Self::Pillars => "pillars",
            Self::Gon => "64-gon",
            Self::GonSegments => "64 segs",
            Self::Arc => "arc",
            Self::ArcSegments => "32 segs",
        }
    }

    /// Spawn this kind at `center`.
    fn spawn(self, world: &mut World, center: Vec2) {
        let at = Transform::from_translation(center.extend(0.0));
        let r = pit::PILLAR_RADIUS;
        let on_circle = |k: usize, n: usize, turn: f32| Vec2::from_angle(turn * k as f32 / n as f32) * r;
        let quarter = std::f32::consts::FRAC_PI_2;
        match self {
            Self::Pillars => {
                world.spawn((Pillar::new(r), at));
            }
            Self::Gon => {
                let corners: Vec<Vec2> = (0..GON_SIDES)
                    .map(|k| on_circle(k, GON_SIDES, std::f32::consts::TAU))
                    .collect();
                world.spawn((CcdShape::polygon(corners), at));
            }
            Self::GonSegments => {
                for k in 0..GON_SIDES {
                    let (a, b) = (
                        on_circle(k, GON_SIDES, std::f32::consts::TAU),
                        on_circle(k + 1, GON_SIDES, std::f32::consts::TAU),
                    );
                    world.spawn((StaticSegment::new(a, b), at));
                }
            }
            Self::Arc => {
                world.spawn((CcdShape::arc(Vec2::ZERO, r, 0.0, quarter), at));
            }
            Self::ArcSegments => {
                for k in 0..ARC_SEGMENTS {
                    let (a, b) = (
                        on_circle(k, ARC_SEGMENTS, quarter),
                        on_circle(k + 1, ARC_SEGMENTS, quarter),
                    );
                    world.spawn((StaticSegment::new(a, b), at));
                }
            }
        }
    }
}

/// Which ball–ball settings to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BallBall {
    Off,
    On,
    Both,
}

impl BallBall {
    fn modes(self) -> &'static [bool] {
        match self {
            Self::Off => &[false],
            Self::On => &[true],
            Self::Both => &[false, true],
        }
    }
}

struct Row {
    shapes: Shapes,
    balls: usize,
    ball_ball: bool,
    threads: usize,
    event_balls_per_step: f64,
    events_per_step: f64,
    budget_hits: u32,
    sweep_us: f64,
    mean_sweep_us: f64,
    update_us: f64,
    bounces_per_step: f64,
    escapes: usize,
    /// The audit's faults and deepest penetration; `None` with the audit off.
    faults: Option<u64>,
    deepest: Option<f32>,
    energy_ratio: f64,
}

impl Row {
    /// Why the run failed, if it did.
    fn failure(&self) -> Option<String> {
        let drift = (self.energy_ratio - 1.0).abs();
        if self.escapes > 0 || self.faults.is_some_and(|n| n > 0) {
            Some(format!(
                "{} escapes, {} faults (deepest {})",
                self.escapes,
                self.faults.unwrap_or(0),
                self.deepest.unwrap_or(0.0)
            ))
        } else if !(drift <= ENERGY_TOLERANCE) {
            Some(format!(
                "energy ratio {} is off 1 by more than {ENERGY_TOLERANCE}",
                self.energy_ratio
            ))
        } else {
            None
        }
    }
}

fn main() {
    let args = Args::parse();
    println!(
        "ball pit: 512-gon r=1000, 300 baffles, 64 pillars (or shapes), balls r=4 at 500-4000 u/s, 120 Hz; Bevy's static transform optimizations {}",
        if args.static_transforms == Toggle::On {
            "on"
        } else {
            "off"
        }
    );
    if args.audit == Toggle::Off {
        println!("audit off: no faults counted (escapes are)");
    }
    println!(
        "{:>7} | {:>7} | {:>9} | {:>7} | {:>13} | {:>14} | {:>12} | {:>11} | {:>11} | {:>8} | {:>7} | {:>6} | {:>8} | {:>12}",
        "shapes",
        "balls",
        "ball-ball",
        "threads",
        "sweep µs/step",
        "update µs/step",
        "bounces/step",
        "events/step",
        "event balls",
        "µs/event",
        "escapes",
        "faults",
        "deepest",
        "energy ratio"
    );
    let mut failed = false;
    for &shapes in &args.shapes {
        for &n in &args.balls {
            for &ball_ball in args.ball_ball.modes() {
                for &threads in &args.threads {
                    let pool = args.threads.iter().copied().max().unwrap_or(1);
                    let setup = Setup {
                        balls: n,
                        seed: args.seed,
                        ball_ball,
                        threads: threads.max(1),
                        pool,
                        gravity: args.gravity,
                        shapes,
                        static_transforms: args.static_transforms,
                        audit: args.audit == Toggle::On,
                    };
                    let row = run(&setup, args.steps);
                    print_row(&row);
                    if let Some(why) = row.failure() {
                        let kind = shapes.name();
                        eprintln!(
                            "  FAILED: {kind}, {n} balls, ball-ball {ball_ball}, {threads} threads: {why}"
                        );
                        failed = true;
                    }
                }
            }
        }
    }
    println!(
        "(median over {} steps; sweep = the CCD system alone, update = the whole app frame; \
         event balls = balls per step that went through the event machinery; µs/event = \
         mean sweep time over mean events, for the runs with ball-ball)",
        args.steps
    );
    if failed {
        eprintln!("FAILED: an escape, a fault, or energy not kept");
        std::process::exit(1);
    }
}

fn print_row(row: &Row) {
    println!(
        "{:>7} | {:>7} | {:>9} | {:>7} | {:>13.1} | {:>14.1} | {:>12.1} | {:>11.1} | {:>11.1} | {:>8} | {:>7} | {:>6} | {:>8} | {:>12.8}",
        row.shapes.name(),
        row.balls,
        if row.ball_ball { "on" } else { "off" },
        row.threads,
        row.sweep_us,
        row.update_us,
        row.bounces_per_step,
        row.events_per_step,
        row.event_balls_per_step,
        // No events (ball–ball off, or nothing met): no time per event to give.
        if row.events_per_step > 0.0 {
            format!("{:.3}", row.mean_sweep_us / row.events_per_step)
        } else {
            "–".to_owned()
        },
        row.escapes,
        row.faults.map_or("–".to_owned(), |n| n.to_string()),
        row.deepest.map_or("–".to_owned(), |d| format!("{d:.5}")),
        row.energy_ratio
    );
    if row.budget_hits > 0 {
        eprintln!(
            "  {} steps ran out of events (time lost, nothing tunnelled)",
            row.budget_hits
        );
    }
}

/// Σ (v² + 2·g·y): twice the kinetic plus potential energy per unit mass, under `gravity`
/// pointing down.
fn energy(app: &mut App, gravity: f32) -> f64 {
    let mut q = app.world_mut().query::<(&MovingCircle, &Transform)>();
    q.iter(app.world())
        .map(|(c, t)| {
            c.velocity.as_dvec2().length_squared() + 2.0 * f64::from(gravity) * f64::from(t.translation.y)
        })
        .sum()
}

/// [`pit::fingerprint`] of every ball's end state, in spawn order.
fn fingerprint(app: &mut App) -> u64 {
    let mut q = app.world_mut().query::<(Entity, &MovingCircle, &Transform)>();
    let mut balls: Vec<_> = q.iter(app.world()).collect();
    balls.sort_by_key(|(e, _, _)| *e);
    pit::fingerprint(
        balls
            .into_iter()
            .map(|(_, c, t)| (t.translation.truncate(), c.velocity)),
    )
}

/// One run's setup.
struct Setup {
    balls: usize,
    seed: u64,
    ball_ball: bool,
    /// Threads for the step, of a pool sized for `pool`.
    threads: usize,
    pool: usize,
    gravity: f32,
    shapes: Shapes,
    static_transforms: Toggle,
    audit: bool,
}

/// The pit as a headless app on one schedule thread, as `setup` says.
fn pit_app(setup: &Setup) -> App {
    let Setup {
        balls,
        seed,
        ball_ball,
        threads,
        pool,
        gravity,
        shapes,
        static_transforms,
        audit,
    } = *setup;
    let scene = pit::build(balls, seed);
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: pool_options(pool),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(match static_transforms {
        Toggle::On => StaticTransformOptimizations::Enabled,
        Toggle::Off => StaticTransformOptimizations::Disabled,
    })
    .add_plugins(CircleCcdPlugin {
        interpolation: false,
        ..default()
    })
    .insert_resource(Time::<Fixed>::from_hz(pit::HZ))
    .insert_resource(Time::<Virtual>::from_max_delta(std::time::Duration::from_secs(1)))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .insert_resource(CcdSettings {
        entity_events: false,
        ball_ball,
        threads,
        audit,
        gravity: Vec2::new(0.0, -gravity),
        ..default()
    });
    for (a, b) in &scene.walls {
        app.world_mut()
            .spawn((StaticSegment::new(*a, *b), Transform::default()));
    }
    for c in &scene.pillars {
        shapes.spawn(app.world_mut(), *c);
    }
    for b in &scene.balls {
        app.world_mut().spawn((
            MovingCircle::new(pit::BALL_RADIUS, b.velocity),
            Transform::from_translation(b.position.extend(0.0)),
        ));
    }
    app.finish();
    app.cleanup();
    // The schedule on one thread: handing each system to a worker thread and back costs
    // about a millisecond per update on a two-core VM (futex calls), which would swamp
    // what the plugin itself costs. The step spreads its own work with `threads`.
    for (_, schedule) in app
        .world_mut()
        .resource_mut::<bevy::ecs::schedule::Schedules>()
        .iter_mut()
    {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    app
}

fn run(setup: &Setup, steps: u32) -> Row {
    let Setup {
        balls,
        ball_ball,
        threads,
        gravity,
        ..
    } = *setup;
    let mut app = pit_app(setup);
    // Warm-up frame: startup, transform propagation, broadphase build.
    app.update();
    let e0 = energy(&mut app, gravity);
    let mut sweep = Vec::with_capacity(steps as usize);
    let mut update = Vec::with_capacity(steps as usize);
    let mut bounces = 0u64;
    let mut events = 0u64;
    let mut event_balls = 0u64;
    let mut budget_hits = 0u32;
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
        events += u64::from(stats.events);
        event_balls += u64::from(stats.event_circles);
        budget_hits += u32::from(stats.event_budget_hit);
        for (e, t) in positions.iter(app.world()) {
            let clearance = pit::clearance(t.translation.truncate());
            closest = closest.min(clearance);
            if !(clearance >= limit) {
                escaped.insert(e);
            }
        }
    }
    let e1 = energy(&mut app, gravity);
    let faults = app.world().resource::<CcdFaults>().clone();
    eprintln!(
        "  {balls} balls (ball-ball {}): closest approach of a ball centre to the outer wall {closest:.5} (radius {}); end state {:016x}",
        if ball_ball { "on" } else { "off" },
        pit::BALL_RADIUS,
        fingerprint(&mut app),
    );
    let mean_sweep_us = sweep.iter().sum::<f64>() / sweep.len().max(1) as f64;
    Row {
        shapes: setup.shapes,
        balls,
        ball_ball,
        threads,
        event_balls_per_step: event_balls as f64 / f64::from(steps),
        mean_sweep_us,
        events_per_step: events as f64 / f64::from(steps),
        budget_hits,
        sweep_us: median(&mut sweep),
        update_us: median(&mut update),
        bounces_per_step: bounces as f64 / f64::from(steps),
        escapes: escaped.len(),
        faults: setup.audit.then_some(faults.count),
        deepest: setup.audit.then_some(faults.deepest),
        energy_ratio: e1 / e0,
    }
}

/// Bevy's task pools for a step on up to `threads` threads. The compute pool is a
/// process-wide global made by the first app, so it is sized once for the most threads of
/// any run, and each run limits itself with `CcdSettings::threads`: the step runs one
/// chunk on the calling thread and the others on `threads − 1` compute threads.
fn pool_options(threads: usize) -> TaskPoolOptions {
    let mut options = TaskPoolOptions::with_num_threads(threads + 1);
    options.compute.min_threads = threads.saturating_sub(1).max(1);
    options.compute.max_threads = options.compute.min_threads;
    options
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
