//! The free-flight energy watch: a ball that meets nothing in a fixed step follows its
//! exact parabola (the plugin sweeps it), so its kinetic plus potential energy holds from
//! one contact to the next but for f32 rounding. The run's worst drift over a whole flight,
//! as a height, goes into the headless summary.
//!
//! A flight is the run of steps in which a ball meets nothing (no [`CircleHit`] names it,
//! as the circle or as the other ball, sensors included, and it is in no contact that
//! lasts: none started, went on or ended, [`CcdContactStarted`]) and nothing else changes
//! its state between two steps (the rules' nudges, holds and ejections start a new
//! flight). Its energy is read just before the plugin's
//! step and just after it, so nothing but the sweep acts between the two readings.

use crate::game::stats::RunStats;
use crate::table::Table;
use crate::table::parts::InPlay;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::collections::HashMap;

/// A flight in progress: its energy at its start and at the end of its last step, per unit
/// mass (mm²/s²), and its height scale (its energy above the table's lowest point).
#[derive(Clone, Copy, Debug)]
struct Flight {
    start: f64,
    last: f64,
    scale: f64,
    steps: u32,
}

/// Each ball's energy before this step's sweep, its flight so far, and how many contacts
/// that last it is in.
#[derive(Resource, Default)]
pub struct FlightWatch {
    before: HashMap<Entity, f64>,
    flights: HashMap<Entity, Flight>,
    touching: HashMap<Entity, u32>,
}

/// What a ball met in the step: its hits, and its contacts that started and ended.
#[derive(SystemParam)]
pub struct Met<'w, 's> {
    hits: MessageReader<'w, 's, CircleHit>,
    started: MessageReader<'w, 's, CcdContactStarted>,
    ended: MessageReader<'w, 's, CcdContactEnded>,
}

impl Met<'_, '_> {
    /// Every ball that met something this step or is in a contact that lasts.
    fn balls(&mut self, touching: &mut HashMap<Entity, u32>) -> Vec<Entity> {
        // Both balls of a ball–ball hit (`other` is then a ball); a contact is written
        // from each ball.
        let mut met: Vec<Entity> = self.hits.read().flat_map(|h| [h.circle, h.other]).collect();
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
        met
    }
}

/// Kinetic plus potential energy per unit mass, `½|v|² − g·p`, in f64.
fn energy(p: Vec2, v: Vec2, g: Vec2) -> f64 {
    0.5 * v.as_dvec2().length_squared() - g.as_dvec2().dot(p.as_dvec2())
}

/// Reads every ball's energy just before the sweep.
pub fn read_before(
    settings: Res<CcdSettings>,
    mut watch: ResMut<FlightWatch>,
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

/// After the sweep: a ball that met nothing goes on with its flight (or starts one), and
/// the flight's drift so far is checked against the run's worst; a ball that met something
/// ends its flight.
pub fn read_after(
    settings: Res<CcdSettings>,
    table: Res<Table>,
    mut met: Met,
    mut watch: ResMut<FlightWatch>,
    mut stats: ResMut<RunStats>,
    balls: Query<(Entity, &Transform, &MovingCircle), InPlay>,
) {
    let g = settings.gravity;
    let g_len = f64::from(g.length());
    if !(g_len > 0.0) {
        return;
    }
    let up = (-g).normalize_or_zero();
    let lowest = table
        .ring
        .iter()
        .map(|p| up.dot(*p))
        .fold(f32::INFINITY, f32::min);
    let watch = &mut *watch;
    for e in met.balls(&mut watch.touching) {
        watch.flights.remove(&e);
        watch.before.remove(&e);
    }
    let figures = &mut stats.flight;
    watch.flights.retain(|e, _| watch.before.contains_key(e));
    for (e, tf, c) in &balls {
        let Some(&before) = watch.before.get(&e) else {
            continue;
        };
        let p = tf.translation.truncate();
        let now = energy(p, c.velocity, g);
        let flight = watch
            .flights
            .entry(e)
            .and_modify(|f| {
                if f.last != before {
                    // Something between two steps changed the ball: a new flight.
                    *f = new_flight(before, p, c.velocity, up, lowest, g_len);
                }
            })
            .or_insert_with(|| new_flight(before, p, c.velocity, up, lowest, g_len));
        flight.last = now;
        flight.steps += 1;
        if flight.steps == 1 {
            figures.flights += 1;
        }
        figures.longest = figures.longest.max(flight.steps);
        let drift = (now - flight.start).abs();
        figures.worst_height = figures.worst_height.max(drift / g_len);
        if flight.scale > 0.0 && drift / flight.scale > figures.worst_relative {
            figures.worst_relative = drift / flight.scale;
            figures.worst_at = (p, flight.steps);
        }
    }
}

/// A flight starting at the energy `start`; `p` and `v` are the ball's place and velocity
/// after its first step, near enough to give its height scale.
fn new_flight(start: f64, p: Vec2, v: Vec2, up: Vec2, lowest: f32, g_len: f64) -> Flight {
    let height = f64::from(up.dot(p) - lowest).max(0.0);
    Flight {
        start,
        last: start,
        scale: 0.5 * v.as_dvec2().length_squared() + g_len * height,
        steps: 0,
    }
}
