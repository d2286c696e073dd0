//! The step when nothing but walls can meet a circle: ball–ball contacts off and no
//! moving obstacle (`ccd_core`'s [`MultiballScratch::steps_all_lone`]). Then `ccd_core`
//! would sweep each circle on its own, and here each is stepped as a lone ball
//! ([`step_lone_ball`]) as it is read: checked, swept and its hits made in one pass, on
//! the pool's threads, with no list of balls gathered first. Only the write-back of the
//! ends is a second pass.
//!
//! The results are those of the gathered path, bit for bit, on any number of threads:
//! each thread takes one run of the query's order (the first circles, the next, ...),
//! and keeps what must follow that order (its hits, refusals, lost time, the circles that
//! met a wall) in its own lists, which are joined run by run. So the hits come circle by
//! circle in the query's order, each circle's in time order; the lost time is summed in
//! that order; and the core's scratch carries the step on as its own step would
//! ([`MultiballScratch::carry_lone_step`]).
//!
//! (The gathered path spends a serial pass on the gather, 140 µs for 10,000 circles on
//! this project's machine, which a second thread cannot share; here the reading is part
//! of each thread's run.)

use crate::circles::{Defaults, Stepped, checked_ball, write};
use crate::query::CircleParts;
use crate::{CcdWorld, CircleHit};
use bevy::prelude::*;
use ccd_core::{ContactWith, MultiballReport, MultiballScratch, MultiballSettings, Parallel, step_lone_ball};

/// At most this many runs (one a thread): each run skips the circles before its own in
/// the query, so more runs than threads would only add skipping.
const MAX_RUNS: usize = 64;

/// Where a circle's step ends.
#[derive(Clone, Copy, Debug)]
struct End {
    center: Vec2,
    velocity: Vec2,
}

/// What the lone step keeps between steps, so that a warm step allocates nothing.
#[derive(Default)]
pub(crate) struct LoneBuffers {
    /// Per circle, in the query's order: its end (`None`: refused, not written).
    ends: Vec<Option<End>>,
    /// Per run: what it found.
    found: Vec<Found>,
}

/// What a run of circles found, in the query's order.
#[derive(Default)]
struct Found {
    hits: Vec<CircleHit>,
    /// Circles refused, and circles marked invalid that are fine again.
    marks: Vec<Mark>,
    /// The lost time of each circle that lost some.
    lost: Vec<f32>,
    /// The circles that met a wall, by their index among the run's valid circles.
    met: Vec<u32>,
    tally: Tally,
}

/// A change to a circle's [`CcdInvalid`](crate::CcdInvalid) mark.
enum Mark {
    /// Refused: its bad field and why (`marked`: it is marked already).
    Refused {
        entity: Entity,
        marked: bool,
        field: &'static str,
        reason: String,
    },
    /// Marked, and valid now.
    Cleared(Entity),
}

/// A run's counts.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    valid: u32,
    stepped: u32,
    bounces: u32,
    max_bounces: u32,
    capped: u32,
}

/// What every run reads.
#[derive(Clone, Copy)]
pub(crate) struct LoneInput<'a> {
    pub(crate) dt: f32,
    pub(crate) world: &'a CcdWorld,
    pub(crate) settings: &'a MultiballSettings,
    /// Threads the pool offers: a run each.
    pub(crate) threads: usize,
}

/// One task: a run of the query's circles, from `first`.
struct Run<'a> {
    first: usize,
    ends: &'a mut [Option<End>],
    found: &'a mut Found,
}

/// Step every circle as a lone ball, `pool` taking the runs; write the ends back. Returns the
/// report the core's step would, and how many circles were refused; pushes the hits to
/// `hits` and the marks to `commands`, in the query's order.
pub(crate) fn step_lone(
    circles: &mut Query<CircleParts>,
    input: LoneInput,
    pool: &impl Parallel,
    buffers: &mut LoneBuffers,
    scratch: &mut MultiballScratch,
    hits: &mut Vec<CircleHit>,
    commands: &mut Commands,
) -> Stepped {
    let n = circles.iter().len();
    let LoneBuffers { ends, found } = buffers;
    ends.clear();
    ends.resize(n, None);
    let runs = input
        .threads
        .min(n / ccd_core::tolerance::MIN_ITEMS_PER_THREAD)
        .clamp(1, MAX_RUNS);
    let length = n.div_ceil(runs).max(1);
    if found.len() < runs {
        found.resize_with(runs, Found::default);
    }
    let mut cut = ends.chunks_mut(length).zip(found.iter_mut()).enumerate();
    // On the stack: a warm step allocates nothing.
    let mut tasks: [Option<Run>; MAX_RUNS] = std::array::from_fn(|_| {
        cut.next().map(|(r, (ends, found))| Run {
            first: r * length,
            ends,
            found,
        })
    });
    let query = &*circles;
    // The last run (which passes over the most circles before its own) on the calling
    // thread, which starts at once; the first, which passes over none, on a thread of the
    // pool, which must wake up first.
    tasks[..runs].reverse();
    pool.for_each_task(&mut tasks[..runs], &|run: &mut Option<Run>| {
        if let Some(run) = run {
            step_run(query, input, run);
        }
    });
    // With no circles at all there is no run.
    let runs = runs.min(n.div_ceil(length));
    for (mut parts, end) in circles.iter_mut().zip(ends.iter()) {
        if let Some(end) = *end {
            write(&mut parts, end.center, end.velocity);
        }
    }
    join_runs(&mut found[..runs], scratch, hits, commands)
}

/// Read, check and step each circle of `run`, in the query's order.
fn step_run(circles: &Query<CircleParts>, input: LoneInput, run: &mut Run) {
    let found = &mut *run.found;
    found.hits.clear();
    found.marks.clear();
    found.lost.clear();
    found.met.clear();
    let mut tally = Tally::default();
    let defaults = Defaults::new();
    let grid = input.world.grid();
    let (first, ends) = (run.first, &mut *run.ends);
    // The run's circles: those before it passed over (no iterator adaptors around the
    // query's: with them each item went through memory, at twice the cost).
    for (n, parts) in circles.iter().enumerate() {
        let Some(end) = n.checked_sub(first).and_then(|k| ends.get_mut(k)) else {
            if n < first {
                continue;
            }
            break;
        };
        let entity = parts.entity;
        let ball = match checked_ball(&parts, &defaults) {
            Ok(ball) => ball,
            Err((field, reason)) => {
                found.marks.push(Mark::Refused {
                    entity,
                    marked: parts.invalid,
                    field,
                    reason,
                });
                *end = None;
                continue;
            }
        };
        if parts.invalid {
            found.marks.push(Mark::Cleared(entity));
        }
        let hits = &mut found.hits;
        let on_contact = |c: &ccd_core::Contact| {
            // Only walls meet a lone ball.
            if let ContactWith::Obstacle(id) = c.with
                && let Some(other) = input.world.hit_other(id, c.hit.point, c.hit.normal)
            {
                hits.push(CircleHit::of_contact(c, entity, other));
            }
        };
        let mut ends_at = End {
            center: ball.center,
            velocity: ball.velocity,
        };
        if let Some(step) = step_lone_ball(&ball, 0, input.dt, grid, input.settings, on_contact) {
            ends_at = End {
                center: step.outcome.center,
                velocity: step.outcome.velocity,
            };
            tally.stepped += 1;
            tally.bounces += step.solid_contacts;
            tally.max_bounces = tally.max_bounces.max(step.outcome.bounces);
            tally.capped += u32::from(step.outcome.capped);
            if step.solid_contacts > 0 {
                found.met.push(tally.valid);
            }
            if step.outcome.lost_time != 0.0 {
                found.lost.push(step.outcome.lost_time);
            }
        }
        tally.valid += 1;
        *end = Some(ends_at);
    }
    found.tally = tally;
}

/// Join the runs in order: the report, the hits, the marks and what the scratch carries.
fn join_runs(
    runs: &mut [Found],
    scratch: &mut MultiballScratch,
    hits: &mut Vec<CircleHit>,
    commands: &mut Commands,
) -> Stepped {
    let mut report = MultiballReport::default();
    let mut skipped = 0;
    let mut valid = 0_usize;
    for found in runs.iter_mut() {
        let t = found.tally;
        report.lone_balls += t.stepped;
        report.bounces += t.bounces;
        report.max_bounces_per_ball = report.max_bounces_per_ball.max(t.max_bounces);
        report.capped_balls += t.capped;
        for &lost in &found.lost {
            report.lost_time += lost;
        }
        hits.append(&mut found.hits);
        for mark in found.marks.drain(..) {
            match mark {
                Mark::Refused {
                    entity,
                    marked,
                    field,
                    reason,
                } => {
                    skipped += 1;
                    crate::mark_invalid(commands, entity, marked, field, reason);
                }
                Mark::Cleared(entity) => {
                    commands.entity(entity).try_remove::<crate::CcdInvalid>();
                }
            }
        }
        valid += t.valid as usize;
    }
    let mut first = 0;
    let met = runs.iter().flat_map(|found| {
        let offset = first;
        first += found.tally.valid as usize;
        found.met.iter().map(move |&k| offset + k as usize)
    });
    scratch.carry_lone_step(valid, met);
    Stepped {
        report,
        circles: valid as u32,
        skipped,
    }
}
