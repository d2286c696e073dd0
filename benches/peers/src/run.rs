//! One engine on one ball count: build the app, warm it up, time the steps, and measure
//! the balls against the outer wall and their energy.

use crate::Config;
use crate::{Engine, Sample, StepTimer, pit};
use bevy::prelude::*;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// One row of the tables.
pub struct Row {
    pub engine: &'static str,
    pub balls: usize,
    pub physics_us: f64,
    pub update_us: f64,
    pub escapes: usize,
    pub radial_escapes: usize,
    pub energy_ratio: f64,
    /// Median physics µs over the first `EARLY` steps only.
    pub early_physics_us: f64,
    /// Energy ratio after `EARLY` steps.
    pub early_energy_ratio: f64,
    pub outside: usize,
    pub first_outside: Option<u32>,
    pub closest: f32,
    pub step_ratio: f64,
    pub multi_step_updates: u32,
    pub empty_updates: u32,
    pub seconds: f64,
    /// Steps actually timed (less than asked if the time limit hit).
    pub steps_done: u32,
    /// Median over balls of |v| at the end / |v| after the warm-up step.
    pub median_speed_ratio: f64,
    /// The engine's own CCD state for the balls after the warm-up step.
    pub ccd: String,
}

/// Steps in the "first second" diagnostics (1 s at 120 Hz).
pub const EARLY: u32 = 120;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The balls against the outer wall over the timed steps, each ball counted once.
struct WallTally {
    /// Centre ended a step closer to the outer wall than r - 0.001 (the plugin bench's test).
    escaped: HashSet<Entity>,
    /// Centre ended a step farther than inradius - r + 0.01 from the origin.
    radial_escaped: HashSet<Entity>,
    /// Centre ended a step beyond the outer wall's line.
    outside: HashSet<Entity>,
    first_outside: Option<u32>,
    /// The smallest distance from a ball centre to the outer wall at any step end.
    closest: f32,
}

impl WallTally {
    fn new() -> Self {
        Self {
            escaped: HashSet::new(),
            radial_escaped: HashSet::new(),
            outside: HashSet::new(),
            first_outside: None,
            closest: f32::INFINITY,
        }
    }

    /// Count the balls of timed step `step` (from 1).
    #[allow(
        clippy::neg_cmp_op_on_partial_ord,
        reason = "negated: a NaN position counts as out"
    )]
    fn record(&mut self, samples: &[Sample], step: u32) {
        // The plugin's bench: a ball has escaped once its centre ends a step closer to the
        // outer wall than its radius less 1e-3. The radial test: |p| > inradius - r + 0.01.
        let clearance_limit = pit::BALL_RADIUS - 1e-3;
        let radial_limit = pit::inradius() - pit::BALL_RADIUS + 1e-2;
        for s in samples {
            let clearance = pit::clearance(s.position);
            self.closest = self.closest.min(clearance);
            if !(clearance >= clearance_limit) {
                self.escaped.insert(s.entity);
            }
            if !(s.position.length() <= radial_limit) {
                self.radial_escaped.insert(s.entity);
            }
            if !(clearance >= 0.0) {
                self.outside.insert(s.entity);
                self.first_outside.get_or_insert(step);
            }
        }
    }
}

/// What the timed steps measured.
struct Timed {
    /// µs of the engine's systems, a step.
    physics: Vec<f64>,
    /// µs of the whole `app.update()`, a step.
    update: Vec<f64>,
    tally: WallTally,
    /// Median physics µs and energy ratio after the first `EARLY` steps.
    early_physics_us: f64,
    early_energy_ratio: f64,
    step_ratio: f64,
    multi_step_updates: u32,
    empty_updates: u32,
    /// Steps actually timed.
    done: u32,
}

/// Σ|v|² over the balls.
fn kinetic(samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| s.velocity.as_dvec2().length_squared())
        .sum()
}

/// Update until the first physics step has run: the first update runs the startup
/// schedules and (normally) the first step.
fn warm_up<E: Engine>(app: &mut App) {
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
}

/// Did the engine advance by exactly one 1/120 s step? Each ball's displacement over
/// |v|·dt, the median over balls (most hit nothing): about 1 when it did.
fn one_step_ratio(before: &HashMap<Entity, (Vec2, Vec2)>, samples: &[Sample]) -> f64 {
    let dt = 1.0 / pit::HZ as f32;
    let mut ratios: Vec<f64> = samples
        .iter()
        .filter_map(|s| {
            let (p0, v0) = before.get(&s.entity)?;
            Some(f64::from((s.position - *p0).length() / (v0.length() * dt)))
        })
        .collect();
    median(&mut ratios)
}

/// Run up to `steps` timed updates (or until `time_limit` seconds since `wall`),
/// sampling the balls into `samples` after each.
fn timed_steps<E: Engine>(
    app: &mut App,
    samples: &mut Vec<Sample>,
    before: &HashMap<Entity, (Vec2, Vec2)>,
    e0: f64,
    steps: u32,
    (wall, time_limit): (Instant, f64),
) -> Timed {
    let mut t = Timed {
        physics: Vec::with_capacity(steps as usize),
        update: Vec::with_capacity(steps as usize),
        tally: WallTally::new(),
        early_physics_us: f64::NAN,
        early_energy_ratio: f64::NAN,
        step_ratio: f64::NAN,
        multi_step_updates: 0,
        empty_updates: 0,
        done: 0,
    };
    while t.done < steps && wall.elapsed().as_secs_f64() < time_limit {
        let steps_before = app.world().resource::<StepTimer>().steps;
        let clock = Instant::now();
        app.update();
        let elapsed = clock.elapsed().as_secs_f64() * 1e6;
        let timer = app.world().resource::<StepTimer>();
        let ran = timer.steps - steps_before;
        if ran == 0 {
            t.empty_updates += 1;
            assert!(
                t.empty_updates < 10,
                "{}: updates without a physics step",
                E::NAME
            );
            continue;
        }
        if ran > 1 {
            t.multi_step_updates += 1;
        }
        t.physics.push(timer.last_us);
        t.update.push(elapsed);
        t.done += 1;
        E::sample(app.world_mut(), samples);
        if t.done == 1 {
            t.step_ratio = one_step_ratio(before, samples);
        }
        t.tally.record(samples, t.done);
        if t.done == EARLY.min(steps) {
            t.early_physics_us = median(&mut t.physics.clone());
            t.early_energy_ratio = kinetic(samples) / e0;
        }
    }
    t
}

/// One engine on one ball count: build, warm up, time the steps, summarise.
pub fn run<E: Engine>(balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> Row {
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
    warm_up::<E>(&mut app);

    let mut samples = Vec::with_capacity(balls);
    E::sample(app.world_mut(), &mut samples);
    assert_eq!(samples.len(), balls, "{}: wrong ball count", E::NAME);
    let ccd = E::ccd_report(app.world_mut());
    let before: HashMap<Entity, (Vec2, Vec2)> = samples
        .iter()
        .map(|s| (s.entity, (s.position, s.velocity)))
        .collect();
    let mut t = timed_steps::<E>(&mut app, &mut samples, &before, e0, steps, (wall, time_limit));
    let mut speed_ratios: Vec<f64> = samples
        .iter()
        .filter_map(|s| Some(f64::from(s.velocity.length() / before.get(&s.entity)?.1.length())))
        .collect();
    Row {
        engine: E::NAME,
        balls,
        physics_us: median(&mut t.physics),
        update_us: median(&mut t.update),
        escapes: t.tally.escaped.len(),
        radial_escapes: t.tally.radial_escaped.len(),
        energy_ratio: kinetic(&samples) / e0,
        early_physics_us: t.early_physics_us,
        early_energy_ratio: t.early_energy_ratio,
        outside: t.tally.outside.len(),
        first_outside: t.tally.first_outside,
        closest: t.tally.closest,
        step_ratio: t.step_ratio,
        multi_step_updates: t.multi_step_updates,
        empty_updates: t.empty_updates,
        seconds: wall.elapsed().as_secs_f64(),
        steps_done: t.done,
        median_speed_ratio: median(&mut speed_ratios),
        ccd,
    }
}
