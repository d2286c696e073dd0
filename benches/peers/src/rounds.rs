//! `--interleaved`: every configuration on every engine, one after another, round after
//! round, then the medians over rounds, ours against Box2D and against the floor, and the
//! project's aims beside them.
//!
//! Interleaving spreads the machine's drift (other builds, thermal and frequency changes)
//! over every engine alike: on a shared 2-core machine absolute times move by some 30%
//! from run to run, far more than they move within a few seconds.

use crate::run::{Row, median};
use crate::{Args, Config, EngineChoice, Toggle, pit};

/// Runs of at least this many balls take `--large-steps` steps.
const LARGE: usize = 5000;

/// Our energy ratio is exact when it is off 1 by no more than this (the plugin's ball_pit
/// bench's tolerance).
const ENERGY_EXACT: f64 = 1e-6;

/// One configuration of the scene.
#[derive(Clone, Copy)]
struct Setup {
    balls: usize,
    top_speed: f32,
    ball_ball: bool,
    steps: u32,
}

impl Setup {
    fn name(&self) -> String {
        format!(
            "{} balls, top speed {} u/s, ball-ball {}",
            thousands(self.balls as f64, 0),
            thousands(f64::from(self.top_speed), 0),
            if self.ball_ball { "on" } else { "off" }
        )
    }
}

/// `x` with thousands separators and `decimals` decimals.
fn thousands(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    let (int, frac) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// The figure each engine is compared by: Box2D's `world.step` call, and for the Bevy
/// engines the whole `app.update()` that ran one fixed step.
fn timed_us(row: &Row) -> f64 {
    if row.engine == "box2d" {
        row.physics_us
    } else {
        row.update_us
    }
}

/// The other time printed: for the Bevy engines their own systems in the fixed schedule,
/// for Box2D the step plus reading every ball out.
fn other_us(row: &Row) -> f64 {
    if row.engine == "box2d" {
        row.update_us
    } else {
        row.physics_us
    }
}

/// The CPU model, from /proc/cpuinfo.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The machine's load averages, from /proc/loadavg.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// Today's date and time (UTC), from `date`.
fn now() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The configurations, in run order.
fn setups(args: &Args) -> Vec<Setup> {
    let balls = args.balls.clone().unwrap_or_else(|| vec![2000, 10000]);
    let tops = args.top_speed.clone().unwrap_or_else(|| vec![4000.0, 20000.0]);
    let modes: Vec<bool> = match &args.ball_ball_modes {
        Some(m) => m.iter().map(|t| *t == Toggle::On).collect(),
        None if args.ball_ball => vec![true],
        None => vec![false, true],
    };
    let small = args.steps.unwrap_or(1200);
    let large = args.large_steps.unwrap_or(360);
    let mut out = Vec::new();
    for &n in &balls {
        for &top in &tops {
            for &ball_ball in &modes {
                out.push(Setup {
                    balls: n,
                    top_speed: top,
                    ball_ball,
                    steps: if n >= LARGE { large } else { small },
                });
            }
        }
    }
    out
}

/// Every configuration on every engine, `--rounds` times, then the tables.
pub fn interleaved(args: &Args) {
    let setups = setups(args);
    let engines = EngineChoice::expand(args.engine.as_deref().unwrap_or(&[
        EngineChoice::Ours,
        EngineChoice::Box2d,
        EngineChoice::Floor,
    ]));
    let rounds = args.rounds.max(1);
    println!("ball pit, interleaved rounds: {}", now());
    println!(
        "CPU: {} ({} threads available); load average at the start: {}",
        cpu_model(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    println!(
        "scene: 512-gon r=1000, 300 baffles, 64 pillars, balls r=4 at 500..top u/s, seed {}, 120 Hz, one thread; \
         {rounds} rounds; engines {}; box2d {} substeps, restitution threshold {}, length unit {}",
        args.seed,
        engines
            .iter()
            .map(|e| format!("{e:?}").to_lowercase())
            .collect::<Vec<_>>()
            .join(", "),
        args.box2d_substeps,
        args.box2d_restitution_threshold,
        args.length_unit
    );
    let mut rows: Vec<Vec<Vec<Row>>> = vec![vec![Vec::new(); engines.len()]; setups.len()];
    let started = std::time::Instant::now();
    for round in 0..rounds {
        for (si, setup) in setups.iter().enumerate() {
            let config = Config {
                ball_ball: setup.ball_ball,
                top_speed: setup.top_speed,
                length_unit: args.length_unit,
                rapier_speed_cap: args.rapier_speed_cap,
                box2d_substeps: args.box2d_substeps,
                box2d_restitution_threshold: args.box2d_restitution_threshold,
                polyline: args.polyline,
                no_ccd: args.no_ccd,
            };
            for (ei, engine) in engines.iter().enumerate() {
                let row = engine.run(setup.balls, setup.steps, args.seed, config, args.time_limit);
                println!(
                    "round {}/{rounds} | {} | {:>6} | {:>11.1} µs | escapes {:>5} | energy {:.8} | {} steps in {:.1} s",
                    round + 1,
                    setup.name(),
                    row.engine,
                    timed_us(&row),
                    row.escapes,
                    row.energy_ratio,
                    row.steps_done,
                    row.seconds
                );
                rows[si][ei].push(row);
            }
        }
    }
    println!(
        "(all rounds took {:.0} s; load average at the end: {})",
        started.elapsed().as_secs_f64(),
        load_average()
    );
    println!();
    for (si, setup) in setups.iter().enumerate() {
        print_setup(setup, &engines, &rows[si], rounds);
    }
    print_legend();
    print_aims(&setups, &engines, &rows);
}

/// The median of `f` over rounds, and its smallest and largest.
fn spread(rows: &[Row], f: impl Fn(&Row) -> f64) -> (f64, f64, f64) {
    let mut v: Vec<f64> = rows.iter().map(f).collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (median(&mut v), lo, hi)
}

/// Per round, `a`'s figure over `b`'s: the median over rounds, the smallest and largest.
fn ratio(a: &[Row], b: &[Row]) -> (f64, f64, f64) {
    let mut v: Vec<f64> = a.iter().zip(b).map(|(a, b)| timed_us(a) / timed_us(b)).collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (median(&mut v), lo, hi)
}

/// The rows of engine `name`, if it ran.
fn of<'a>(engines: &[EngineChoice], rows: &'a [Vec<Row>], which: EngineChoice) -> Option<&'a [Row]> {
    engines
        .iter()
        .position(|&e| e == which)
        .map(|i| rows[i].as_slice())
}

/// One configuration's table.
fn print_setup(setup: &Setup, engines: &[EngineChoice], rows: &[Vec<Row>], rounds: u32) {
    println!(
        "== {}: {} steps a run, median of {rounds} rounds ==",
        setup.name(),
        setup.steps
    );
    println!(
        "{:>6} | {:>12} | {:>23} | {:>12} | {:>7} | {:>7} | {:>8} | {:>14} | {:>6}",
        "engine",
        "µs/step",
        "rounds min - max",
        "other µs",
        "escapes",
        "outside",
        "closest",
        "energy ratio",
        "steps"
    );
    for (ei, engine) in engines.iter().enumerate() {
        let r = &rows[ei];
        let (us, lo, hi) = spread(r, timed_us);
        let (other, _, _) = spread(r, other_us);
        let (escapes, e_lo, e_hi) = spread(r, |r| r.escapes as f64);
        let (outside, _, _) = spread(r, |r| r.outside as f64);
        let (closest, _, _) = spread(r, |r| f64::from(r.closest));
        let (energy, en_lo, en_hi) = spread(r, |r| r.energy_ratio);
        let steps = r.iter().map(|r| r.steps_done).min().unwrap_or(0);
        let floor = *engine == EngineChoice::Floor;
        println!(
            "{:>6} | {:>12} | {:>23} | {:>12} | {:>7} | {:>7} | {:>8} | {:>14} | {:>6}",
            r[0].engine,
            thousands(us, 1),
            format!("{} - {}", thousands(lo, 1), thousands(hi, 1)),
            thousands(other, 1),
            if floor {
                "-".to_string()
            } else {
                thousands(escapes, 0)
            },
            if floor {
                "-".to_string()
            } else {
                thousands(outside, 0)
            },
            if floor {
                "-".to_string()
            } else {
                format!("{closest:.4}")
            },
            if floor {
                "-".to_string()
            } else {
                format!("{energy:.8}")
            },
            steps
        );
        if !floor && (e_lo != e_hi || en_lo != en_hi) {
            println!(
                "       ({} rounds differ: escapes {e_lo}..{e_hi}, energy {en_lo:.8}..{en_hi:.8})",
                r[0].engine
            );
        }
    }
    for which in [EngineChoice::Ours, EngineChoice::Box2d] {
        if let Some(r) = of(engines, rows, which)
            && let Some(last) = r.last()
        {
            println!("  {} (last round): {}", last.engine, last.ccd);
        }
    }
    let ours = of(engines, rows, EngineChoice::Ours);
    if let (Some(ours), Some(b2)) = (ours, of(engines, rows, EngineChoice::Box2d)) {
        let (m, lo, hi) = ratio(b2, ours);
        println!("box2d / ours: {m:.2}x (rounds {lo:.2}x - {hi:.2}x): ours is {m:.2}x as fast as Box2D");
    }
    if let (Some(ours), Some(floor)) = (ours, of(engines, rows, EngineChoice::Floor)) {
        let (m, lo, hi) = ratio(ours, floor);
        println!("ours / floor: {m:.2}x (rounds {lo:.2}x - {hi:.2}x)");
    }
    for peer in [EngineChoice::Avian, EngineChoice::Rapier] {
        if let (Some(ours), Some(p)) = (ours, of(engines, rows, peer)) {
            let (m, lo, hi) = ratio(p, ours);
            println!("{} / ours: {m:.2}x (rounds {lo:.2}x - {hi:.2}x)", p[0].engine);
        }
    }
    println!();
}

fn print_legend() {
    println!(
        "(µs/step: the median over a run's steps, then the median over rounds. For ours, the floor, \
         avian and rapier it is the whole app.update() that ran one fixed step; for box2d the \
         world.step call alone, Box2D run in a plain loop without Bevy. other µs: for the Bevy \
         engines their own systems in the fixed schedule, for box2d the step plus reading every \
         ball's position and velocity out. escapes: balls whose centre ended a step closer to the \
         outer wall than r - 0.001 (pit::clearance, as the plugin's ball_pit bench counts them), \
         each ball once; outside: balls whose centre ended a step beyond the wall's line; closest: \
         the smallest distance of a ball centre to the outer wall at any step end (r = {}); \
         energy ratio: Σ|v|² after the last step over Σ|v|² at spawn. The floor moves balls in \
         straight lines through the walls, so it has no escapes or energy to speak of. Ratios: \
         per round, then the median over rounds.)",
        pit::BALL_RADIUS
    );
    println!();
}

/// The aims of the project's issue, beside each configuration's figures.
fn print_aims(setups: &[Setup], engines: &[EngineChoice], rows: &[Vec<Vec<Row>>]) {
    println!("aims:");
    println!(
        "{:>48} | {:>12} | {:>15} | {:>12} | {:>14} | {:>12} | {:>12} | {:>12} | {:>13}",
        "configuration",
        "box2d / ours",
        "aim",
        "ours / floor",
        "aim",
        "ours energy",
        "exact (1e-6)",
        "box2d energy",
        "box2d escapes"
    );
    for (si, setup) in setups.iter().enumerate() {
        let r = &rows[si];
        let (Some(ours), Some(b2)) = (
            of(engines, r, EngineChoice::Ours),
            of(engines, r, EngineChoice::Box2d),
        ) else {
            continue;
        };
        let (speedup, _, _) = ratio(b2, ours);
        let over_floor = of(engines, r, EngineChoice::Floor).map(|f| ratio(ours, f).0);
        let (ours_energy, _, _) = spread(ours, |r| r.energy_ratio);
        let (b2_energy, _, _) = spread(b2, |r| r.energy_ratio);
        let (b2_escapes, _, _) = spread(b2, |r| r.escapes as f64);
        let met = |ok: bool| if ok { "met" } else { "NOT met" };
        let exact = ours.iter().all(|r| (r.energy_ratio - 1.0).abs() <= ENERGY_EXACT);
        let (speed_aim, floor_aim) = if setup.ball_ball {
            (format!(">= 4x: {}", met(speedup >= 4.0)), "-".to_string())
        } else if setup.balls == 2000 {
            (
                format!(">= 10x: {}", met(speedup >= 10.0)),
                format!("<= 3x: {}", met(over_floor.is_some_and(|f| f <= 3.0))),
            )
        } else {
            ("-".to_string(), "-".to_string())
        };
        println!(
            "{:>48} | {:>11.2}x | {:>15} | {:>12} | {:>14} | {:>12.8} | {:>12} | {:>12.8} | {:>13}",
            setup.name(),
            speedup,
            speed_aim,
            over_floor.map_or("-".to_string(), |f| format!("{f:.2}x")),
            floor_aim,
            ours_energy,
            if exact { "yes" } else { "NO" },
            b2_energy,
            b2_escapes
        );
    }
    println!(
        "(the aims, from the project's issue 50: with ball-ball off at 2,000 balls, ours >= 10x as fast as \
         Box2D v3 and <= 3x the floor; with ball-ball on at 2,000 and 10,000 balls, >= 4x as fast as Box2D \
         with bullets, with energy exact: our energy ratio within {ENERGY_EXACT:e} of 1 in every round)"
    );
}
