//! The energy drift watch, over free flights and rides. A ball that meets nothing in a
//! fixed step follows its exact parabola, and a ball that rides a round part (a post, the
//! top arch, an orbit's or the ramp's turns) follows its exact circle (the plugin solves
//! both), so its kinetic plus potential energy holds from one contact to the next but for
//! f32 rounding: on a ride, once what friction took ([`CcdRide::friction_loss`]) is added
//! back. The run's worst drift over a whole flight and over a whole ride, as a height, go
//! into the headless summary, with the time the balls rode ([`CcdRide::time`]).
//!
//! A flight is the run of steps in which a ball meets nothing (no [`CircleHit`] names it,
//! as the circle or as the other ball, sensors included, and it is in no contact that
//! lasts: none started, went on or ended, [`CcdContactStarted`]). A ride is the run of
//! steps a ball rode whole, named by no [`CircleHit`] (its ride is one contact that
//! lasts). The steps it lands and leaves in are not the ride's: a landing takes its speed
//! into the part, and a ride may end at a touch too slow to be a hit, with its own loss
//! (at 240 Hz, 5e-4 of the energy where an orbit's foot turns into a straight wall).
//! Either
//! ends when something else changes the ball's state between two steps (the rules'
//! nudges, holds and ejections start a new one). Energy is read just before the plugin's
//! step and just after it, so nothing but the sweep acts between the two readings.

use crate::game::stats::{DriftFigures, RunStats};
use crate::table::Table;
use crate::table::parts::InPlay;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::collections::HashMap;

/// A flight or a ride in progress: its energy at its start and at the end of its last
/// step, and what friction took on the way, per unit mass (mm²/s²), its height scale (its
/// energy above the table's lowest point) and its steps.
#[derive(Clone, Copy, Debug)]
struct Watched {
    start: f64,
    last: f64,
    taken: f64,
    scale: f64,
    steps: u32,
}

/// Each ball's energy before this step's sweep, its flight and its ride so far, and how
/// many contacts that last it is in.
#[derive(Resource, Default)]
pub struct DriftWatch {
    before: HashMap<Entity, f64>,
    flights: HashMap<Entity, Watched>,
    rides: HashMap<Entity, Watched>,
    touching: HashMap<Entity, u32>,
}

/// What a ball met in the step: its hits, and its contacts that started and ended.
#[derive(SystemParam)]
pub struct Met<'w, 's> {
    hits: MessageReader<'w, 's, CircleHit>,
    started: MessageReader<'w, 's, CcdContactStarted>,
    ended: MessageReader<'w, 's, CcdContactEnded>,
}

/// The balls a step's hits name, and those that met anything or are in a contact that
/// lasts.
struct MetBalls {
    hit: Vec<Entity>,
    met: Vec<Entity>,
}

impl Met<'_, '_> {
    /// The balls the step's hits name, and every ball that met something this step or is
    /// in a contact that lasts.
    fn balls(&mut self, touching: &mut HashMap<Entity, u32>) -> MetBalls {
        // Both balls of a ball–ball hit (`other` is then a ball); a contact is written
        // from each ball.
        let hit: Vec<Entity> = self.hits.read().flat_map(|h| [h.circle, h.other]).collect();
        let mut met = hit.clone();
        for s in self.started.read() {
            *touching.entry(s.circle).or_default() += 1;
            met.push(s.circle);
        }
        for e in self.ended.read() {
            if let Some(n) = touching.get_mut(&e.circle) {
                *n = n.saturating_sub(1);
            }
            met.push(e.circle);
        }
        touching.retain(|_, n| *n > 0);
        met.extend(touching.keys().copied());
        MetBalls { hit, met }
    }
}

/// Kinetic plus potential energy per unit mass, `½|v|² − g·p`, in f64.
fn energy(p: Vec2, v: Vec2, g: Vec2) -> f64 {
    0.5 * v.as_dvec2().length_squared() - g.as_dvec2().dot(p.as_dvec2())
}

/// A step is ridden whole when the ball rode all but this fraction of it (it begins a
/// hair off the part, in f32, and lands at once: 1e-4 of a step at 480 Hz on a post).
const WHOLE_STEP_SLACK: f32 = 1e-3;

/// What the watch reads of the table and the step: gravity, the table's lowest point and
/// the step's length.
#[derive(SystemParam)]
pub struct TableFacts<'w> {
    settings: Res<'w, CcdSettings>,
    table: Res<'w, Table>,
    time: Res<'w, Time>,
}

/// Reads every ball's energy just before the sweep.
pub fn read_before(
    settings: Res<CcdSettings>,
    mut watch: ResMut<DriftWatch>,
    balls: Query<(Entity, &Transform, &MovingCircle), InPlay>,
) {
    let g = settings.gravity;
    watch.before.clear();
    for (e, tf, c) in &balls {
        watch
            .before
            .insert(e, energy(tf.translation.truncate(), c.velocity, g));
    }
}

/// The table's height scale: up, its lowest point along up, and |g|.
#[derive(Clone, Copy)]
struct Heights {
    up: Vec2,
    lowest: f32,
    g_len: f64,
}

/// A ball's step as the watch sees it: its energy before and after, what friction took,
/// and where it ended.
#[derive(Clone, Copy)]
struct Stepped {
    before: f64,
    now: f64,
    taken: f64,
    p: Vec2,
    v: Vec2,
}

/// After the sweep: a ball that met nothing goes on with its flight (or starts one), a
/// ball that rode the whole step and hit nothing with its ride, and each one's drift so
/// far is checked against the run's worst; a ball that met something ends its flight,
/// one that did not ride the whole step, or hit something, its ride.
pub fn read_after(
    facts: TableFacts,
    mut met: Met,
    mut watch: ResMut<DriftWatch>,
    mut stats: ResMut<RunStats>,
    balls: Query<(Entity, &Transform, &MovingCircle, Option<&CcdRide>), InPlay>,
) {
    let g = facts.settings.gravity;
    let g_len = f64::from(g.length());
    if !(g_len > 0.0) {
        return;
    }
    let whole = facts.time.delta_secs() * (1.0 - WHOLE_STEP_SLACK);
    let up = (-g).normalize_or_zero();
    let lowest = facts
        .table
        .ring
        .iter()
        .map(|p| up.dot(*p))
        .fold(f32::INFINITY, f32::min);
    let heights = Heights { up, lowest, g_len };
    let watch = &mut *watch;
    let MetBalls { hit, met } = met.balls(&mut watch.touching);
    let before = &watch.before;
    watch
        .flights
        .retain(|e, _| before.contains_key(e) && !met.contains(e));
    watch
        .rides
        .retain(|e, _| before.contains_key(e) && !hit.contains(e));
    let stats = &mut *stats;
    for (e, tf, c, ride) in &balls {
        let Some(&before) = watch.before.get(&e) else {
            continue;
        };
        let ride = ride.copied().unwrap_or_default();
        stats.ride_seconds += f64::from(ride.time);
        let step = Stepped {
            before,
            now: energy(tf.translation.truncate(), c.velocity, g),
            taken: 0.0,
            p: tf.translation.truncate(),
            v: c.velocity,
        };
        if !met.contains(&e) {
            follow(watch.flights.entry(e), step, heights, &mut stats.flight);
        }
        // Whole steps only: the steps it lands and leaves in are not the ride's.
        if ride.time >= whole && !hit.contains(&e) {
            let step = Stepped {
                taken: f64::from(ride.friction_loss),
                ..step
            };
            follow(watch.rides.entry(e), step, heights, &mut stats.ride);
        } else {
            watch.rides.remove(&e);
        }
    }
}

/// A flight or ride goes on by `step` (or starts with it), and its drift so far is
/// checked against the run's worst in `figures`.
fn follow(
    entry: std::collections::hash_map::Entry<'_, Entity, Watched>,
    step: Stepped,
    heights: Heights,
    figures: &mut DriftFigures,
) {
    let run = entry
        .and_modify(|w| {
            if w.last != step.before {
                // Something between two steps changed the ball: a new run.
                *w = watched(step, heights);
            }
        })
        .or_insert_with(|| watched(step, heights));
    run.taken += step.taken;
    run.last = step.now;
    run.steps += 1;
    if run.steps == 1 {
        figures.runs += 1;
    }
    figures.longest = figures.longest.max(run.steps);
    let drift = (run.last + run.taken - run.start).abs();
    figures.worst_height = figures.worst_height.max(drift / heights.g_len);
    if run.scale > 0.0 && drift / run.scale > figures.worst_relative {
        figures.worst_relative = drift / run.scale;
        figures.worst_at = (step.p, run.steps);
    }
}

/// A run starting with `step`: its energy before the step; the ball's place and velocity
/// after it, near enough, give its height scale.
fn watched(step: Stepped, heights: Heights) -> Watched {
    let height = f64::from(heights.up.dot(step.p) - heights.lowest).max(0.0);
    Watched {
        start: step.before,
        last: step.before,
        taken: 0.0,
        scale: 0.5 * step.v.as_dvec2().length_squared() + heights.g_len * height,
        steps: 0,
    }
}
