//! One engine on one ball count: build the app, warm it up, time the steps, and measure
//! the balls against the outer wall and their energy.

use crate::Config;
use crate::{Engine, Sample, StepTimer, pit};
use bevy::prelude::*;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// One row of the tables.
#[derive(Clone)]
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

pub fn median(v: &mut [f64]) -> f64 {
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

/// What the timed steps measured, whatever the engine: each step's times and the balls
/// after it go in ([`Recorder::step`]), a [`Row`] comes out ([`Recorder::finish`]).
pub struct Recorder {
    /// µs of the engine's own step.
    physics: Vec<f64>,
    /// µs of the whole `app.update()` (for Box2D: the step and reading the balls out).
    update: Vec<f64>,
    tally: WallTally,
    /// Every ball's position and velocity after the warm-up step.
    before: HashMap<Entity, (Vec2, Vec2)>,
    /// Σ|v|² at spawn.
    e0: f64,
    /// Steps asked for (the early figures are taken after `EARLY.min(steps)`).
    steps: u32,
    /// Median physics µs and energy ratio after the first `EARLY` steps.
    early_physics_us: f64,
    early_energy_ratio: f64,
    step_ratio: f64,
    /// Updates that ran more than one physics step, and none.
    pub multi_step_updates: u32,
    pub empty_updates: u32,
    /// Steps recorded.
    pub done: u32,
}

impl Recorder {
    /// Ready for `steps` steps of balls that were `warm` after the warm-up step, with
    /// Σ|v|² = `e0` at spawn.
    pub fn new(warm: &[Sample], e0: f64, steps: u32) -> Self {
        Self {
            physics: Vec::with_capacity(steps as usize),
            update: Vec::with_capacity(steps as usize),
            tally: WallTally::new(),
            before: warm
                .iter()
                .map(|s| (s.entity, (s.position, s.velocity)))
                .collect(),
            e0,
            steps,
            early_physics_us: f64::NAN,
            early_energy_ratio: f64::NAN,
            step_ratio: f64::NAN,
            multi_step_updates: 0,
            empty_updates: 0,
            done: 0,
        }
    }

    /// One timed step took `physics_us` (`update_us` with what surrounds it) and left the
    /// balls as `samples`.
    pub fn step(&mut self, physics_us: f64, update_us: f64, samples: &[Sample]) {
        self.physics.push(physics_us);
        self.update.push(update_us);
        self.done += 1;
        if self.done == 1 {
            self.step_ratio = one_step_ratio(&self.before, samples);
        }
        self.tally.record(samples, self.done);
        if self.done == EARLY.min(self.steps) {
            self.early_physics_us = median(&mut self.physics.clone());
            self.early_energy_ratio = kinetic(samples) / self.e0;
        }
    }

    /// The row, given the balls after the last step.
    pub fn finish(mut self, engine: &'static str, samples: &[Sample], ccd: String, wall: Instant) -> Row {
        let mut speed_ratios: Vec<f64> = samples
            .iter()
            .filter_map(|s| {
                Some(f64::from(
                    s.velocity.length() / self.before.get(&s.entity)?.1.length(),
                ))
            })
            .collect();
        Row {
            engine,
            balls: samples.len(),
            physics_us: median(&mut self.physics),
            update_us: median(&mut self.update),
            escapes: self.tally.escaped.len(),
            radial_escapes: self.tally.radial_escaped.len(),
            energy_ratio: kinetic(samples) / self.e0,
            early_physics_us: self.early_physics_us,
            early_energy_ratio: self.early_energy_ratio,
            outside: self.tally.outside.len(),
            first_outside: self.tally.first_outside,
            closest: self.tally.closest,
            step_ratio: self.step_ratio,
            multi_step_updates: self.multi_step_updates,
            empty_updates: self.empty_updates,
            seconds: wall.elapsed().as_secs_f64(),
            steps_done: self.done,
            median_speed_ratio: median(&mut speed_ratios),
            ccd,
        }
    }
}

/// Σ|v|² over the balls.
pub fn kinetic(samples: &[Sample]) -> f64 {
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
    recorder: &mut Recorder,
    steps: u32,
    (wall, time_limit): (Instant, f64),
) {
    while recorder.done < steps && wall.elapsed().as_secs_f64() < time_limit {
        let steps_before = app.world().resource::<StepTimer>().steps;
        let clock = Instant::now();
        app.update();
        let elapsed = clock.elapsed().as_secs_f64() * 1e6;
        let timer = app.world().resource::<StepTimer>();
        let ran = timer.steps - steps_before;
        if ran == 0 {
            recorder.empty_updates += 1;
            assert!(
                recorder.empty_updates < 10,
                "{}: updates without a physics step",
                E::NAME
            );
            continue;
        }
        if ran > 1 {
            recorder.multi_step_updates += 1;
        }
        let physics_us = timer.last_us;
        E::sample(app.world_mut(), samples);
        recorder.step(physics_us, elapsed, samples);
    }
}

/// Σ|v|² of the scene's balls at spawn.
pub fn spawn_energy(scene: &pit::Pit) -> f64 {
    scene
        .balls
        .iter()
        .map(|b| b.velocity.as_dvec2().length_squared())
        .sum()
}

/// One engine on one ball count: build, warm up, time the steps, summarise.
pub fn run<E: Engine>(balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> Row {
    let wall = Instant::now();
    let scene = pit::build_with_top_speed(balls, seed, config.top_speed);
    let e0 = spawn_energy(&scene);
    let mut app = E::build(&scene, config);
    app.finish();
    app.cleanup();
    E::finished(&mut app);
    warm_up::<E>(&mut app);

    let mut samples = Vec::with_capacity(balls);
    E::sample(app.world_mut(), &mut samples);
    assert_eq!(samples.len(), balls, "{}: wrong ball count", E::NAME);
    let ccd = E::ccd_report(app.world_mut());
    let mut recorder = Recorder::new(&samples, e0, steps);
    timed_steps::<E>(&mut app, &mut samples, &mut recorder, steps, (wall, time_limit));
    let end = E::end_report(app.world_mut());
    let ccd = if end.is_empty() {
        ccd
    } else {
        format!("{ccd}; {end}")
    };
    recorder.finish(E::NAME, &samples, ccd, wall)
}
