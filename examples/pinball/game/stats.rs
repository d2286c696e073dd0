//! Run statistics (the headless summary and the panel's live figures) and the watch over
//! the balls: escapes, NaN, the ball search for a stuck ball, and the ramp's layer kept
//! to the ramp.

use crate::table::parts::{Ball, Part};
use crate::table::ramp::{
    ON_PLAYFIELD, ON_RAMP, PLAYFIELD_BALL_Z, RampPlace, channel, on_lip, overlaps_playfield, ramp_place,
};
use crate::table::{Table, TableDef, inside};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_circle_ccd::{CcdFaults, MAX_FAULT_WARNINGS};
use std::collections::VecDeque;

/// A ball that moves less than this (mm) for [`STUCK_SECONDS`] gets a ball-search nudge.
const STUCK_DISTANCE: f32 = 2.0;
/// Seconds a ball may stay still before the ball search.
const STUCK_SECONDS: f32 = 10.0;
/// The ball search's nudge, mm/s up the table (a real machine pulses its coils).
const BALL_SEARCH_NUDGE: f32 = 600.0;
/// Seconds of ball-speed history kept for the panel's plot.
pub const SPEED_HISTORY_SECONDS: f32 = 6.0;
/// Seconds between two points of the speed history.
const SPEED_HISTORY_INTERVAL: f64 = 0.01;
/// The window of the per-second figures, seconds.
const RATE_WINDOW: f64 = 1.0;

/// Counts over the whole run (the headless summary) and the live panel figures.
#[derive(Resource, Default)]
pub struct RunStats {
    pub steps: u64,
    pub simulated: f64,
    pub served: u32,
    pub drained: u32,
    pub bounces: u64,
    pub max_bounces_step: u32,
    /// Steps in which a ball reached the bounce cap or the event budget ran out.
    pub capped_steps: u64,
    /// Ball-seconds those caps lost.
    pub lost_time: f64,
    pub max_bounces_circle: u32,
    pub max_speed: f32,
    pub micros_sum: f64,
    pub escapes: u32,
    pub nan: u32,
    /// Faults the plugin's audit found: a ball inside a solid surface on its layer (wall,
    /// post, flipper, gate, ramp wire) or across a one-way part backwards.
    pub faults: u64,
    /// The deepest a ball sat inside a surface, mm.
    pub deepest: f32,
    /// Balls the rules had to put back where they belong (a ball on the ramp's layer
    /// found outside the ramp): each is a fault too, printed when it happens.
    pub repairs: u32,
    pub ball_searches: u32,
    pub multiballs: u32,
    /// Richer-table counts: jackpots, top lanes rolled, kickbacks fired, extra balls won,
    /// ball saves, nudges, tilt warnings and tilts.
    pub jackpots: u32,
    pub top_lanes: u32,
    pub kickbacks: u32,
    pub extra_balls: u32,
    pub saves: u32,
    pub nudges: u32,
    pub tilt_warnings: u32,
    pub tilts: u32,
    /// Major shots made, by name (orbits, ramp, saucer).
    pub shots: Vec<(String, u32)>,
    /// Free flight: the worst energy drift between two contacts (`drift.rs`).
    pub flight: DriftFigures,
    /// Rides of round parts: the worst energy drift over a ride, friction's take added
    /// back (`drift.rs`).
    pub ride: DriftFigures,
    /// Ball-seconds the balls rode round parts ([`CcdRide::time`]).
    pub ride_seconds: f64,
    /// Seconds each finished ball lasted (from its serve to its end, ball saves included).
    pub ball_times: Vec<f32>,
    /// Where balls drained: left outlane, centre, right outlane.
    pub drains: [u32; 3],
    /// (simulated time, fastest ball speed), for the plot.
    pub speed_history: VecDeque<(f64, f32)>,
    /// Hits per second over the last second.
    pub hits_per_second: f32,
    hit_window: VecDeque<(f64, u32, u32)>,
    /// The most bounces in one step over the last second.
    pub recent_max_bounces: u32,
    /// Mean bounces per step over the last second.
    pub bounces_per_step_avg: f32,
    pub fastest_now: f32,
}

/// The run's figures of energy drift over free flights or rides (`drift.rs`), for the
/// summary.
#[derive(Clone, Copy, Debug, Default)]
pub struct DriftFigures {
    /// Flights (or rides) that lasted at least one step.
    pub runs: u64,
    /// The longest, steps.
    pub longest: u32,
    /// The worst energy drift over one, as a height: `|ΔE| / |g|`, mm.
    pub worst_height: f64,
    /// The same drift over its energy above the table's lowest point.
    pub worst_relative: f64,
    /// Where the ball with the worst relative drift was then, and how many steps its run
    /// had lasted.
    pub worst_at: (Vec2, u32),
}

impl RunStats {
    /// Count a major shot by its name.
    pub fn count_shot(&mut self, names: &[String], k: usize) {
        let Some(name) = names.get(k) else {
            return;
        };
        match self.shots.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => *count += 1,
            None => self.shots.push((name.clone(), 1)),
        }
    }

    /// Count a drain by where the ball left: left of the left flipper's pivot is the left
    /// outlane, right of the right flipper's is the right one, between them the centre.
    pub fn count_drain(&mut self, def: &TableDef, at: Vec2) {
        let pivots = def.flippers.iter().map(|f| f.pivot.0);
        let left = pivots.clone().fold(f32::INFINITY, f32::min);
        let right = pivots.fold(f32::NEG_INFINITY, f32::max);
        let k = if at.x < left {
            0
        } else if at.x > right {
            2
        } else {
            1
        };
        self.drains[k] += 1;
    }

    /// Median and mean of the finished balls' times, s (None before the first).
    pub fn ball_time_median_mean(&self) -> Option<(f32, f32)> {
        if self.ball_times.is_empty() {
            return None;
        }
        let mut t = self.ball_times.clone();
        t.sort_by(f32::total_cmp);
        let n = t.len();
        let median = if n % 2 == 1 {
            t[n / 2]
        } else {
            0.5 * (t[n / 2 - 1] + t[n / 2])
        };
        Some((median, t.iter().sum::<f32>() / n as f32))
    }

    /// Whether the run has failed: a ball escaped the table, a NaN appeared, the audit
    /// found a ball inside a surface, or the rules had to repair a ball's place.
    pub fn failed(&self) -> bool {
        self.escapes > 0 || self.nan > 0 || self.faults > 0 || self.repairs > 0
    }

    pub fn mean_micros(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.micros_sum / self.steps as f64
        }
    }
}

/// Escapes (a centre outside the outline), NaN, and the ball search for stuck balls.
pub fn watch_balls(
    time: Res<Time>,
    table: Res<Table>,
    mut stats: ResMut<RunStats>,
    mut balls: Query<(Entity, &Transform, &mut MovingCircle, &mut Ball), Without<CcdDisabled>>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs();
    for (e, tf, mut c, mut ball) in &mut balls {
        let p = tf.translation.truncate();
        if !p.is_finite() || !c.velocity.is_finite() {
            stats.nan += 1;
            eprintln!("ball {e}: non-finite state at {p} velocity {}", c.velocity);
            commands.entity(e).despawn();
            continue;
        }
        if !inside(&table.ring, p) {
            stats.escapes += 1;
            eprintln!("ball {e} escaped the table at {p} (velocity {})", c.velocity);
            commands.entity(e).despawn();
            continue;
        }
        let waiting = table.def.in_plunger_lane(p);
        let since = *ball.still_since.get_or_insert(now);
        if p.distance(ball.still_at) > STUCK_DISTANCE || waiting {
            ball.still_at = p;
            ball.still_since = Some(now);
        } else if now - since > STUCK_SECONDS {
            // Ball search: a real machine pulses its coils; we nudge the ball.
            eprintln!("ball search: ball {e} still at {p} for {STUCK_SECONDS} s");
            c.velocity += Vec2::new(0.0, BALL_SEARCH_NUDGE);
            ball.still_since = Some(now);
            stats.ball_searches += 1;
        }
    }
}

/// Turns the plugin's audit on: every step checks every ball against every surface.
pub fn audit_every_step(mut settings: ResMut<CcdSettings>) {
    settings.audit = true;
}

/// Copies the audit's figures into the run's and prints each new fault (the first
/// [`MAX_FAULT_WARNINGS`] of a run in full, then the count).
pub fn watch_faults(faults: Res<CcdFaults>, parts: Query<&Part>, mut stats: ResMut<RunStats>) {
    if faults.count > stats.faults
        && let Some(f) = faults.last
    {
        if stats.faults < MAX_FAULT_WARNINGS {
            let part = parts.get(f.obstacle).ok();
            eprintln!(
                "fault at {:.3} s: ball {} at {} {:?} obstacle {} ({part:?}; {} this step)",
                stats.simulated, f.circle, f.center, f.kind, f.obstacle, faults.last_step
            );
        }
        stats.faults = faults.count;
    }
    stats.deepest = faults.deepest;
}

/// Counts the step's figures (the CCD's work, the fastest ball) and keeps the panel's
/// recent ones (the speed history, hits and bounces over the last second).
pub fn collect_stats(
    time: Res<Time>,
    ccd: Res<CcdStats>,
    mut stats: ResMut<RunStats>,
    balls: Query<(&Transform, &MovingCircle), With<Ball>>,
) {
    stats.steps += 1;
    stats.simulated += time.delta_secs_f64();
    stats.bounces += u64::from(ccd.bounces);
    stats.max_bounces_step = stats.max_bounces_step.max(ccd.bounces);
    stats.capped_steps = ccd.capped_steps;
    stats.lost_time = ccd.total_lost_time;
    stats.max_bounces_circle = stats.max_bounces_circle.max(ccd.max_bounces_per_circle);
    stats.micros_sum += f64::from(ccd.step_micros);
    let fastest = balls.iter().map(|(_, c)| c.velocity.length()).fold(0.0, f32::max);
    stats.fastest_now = fastest;
    stats.max_speed = stats.max_speed.max(fastest);
    let now = stats.simulated;
    if stats
        .speed_history
        .back()
        .is_none_or(|(t, _)| now - t >= SPEED_HISTORY_INTERVAL)
    {
        stats.speed_history.push_back((now, fastest));
    }
    while stats
        .speed_history
        .front()
        .is_some_and(|(t, _)| now - t > f64::from(SPEED_HISTORY_SECONDS))
    {
        stats.speed_history.pop_front();
    }
    let hits = ccd.bounces + ccd.sensor_hits;
    stats.hit_window.push_back((now, hits, ccd.bounces));
    while stats
        .hit_window
        .front()
        .is_some_and(|(t, _, _)| now - t > RATE_WINDOW)
    {
        stats.hit_window.pop_front();
    }
    stats.hits_per_second = stats.hit_window.iter().map(|(_, h, _)| *h).sum::<u32>() as f32;
    stats.recent_max_bounces = stats.hit_window.iter().map(|(_, _, b)| *b).max().unwrap_or(0);
    let window = stats.hit_window.len().max(1) as f32;
    stats.bounces_per_step_avg = stats.hit_window.iter().map(|(_, _, b)| *b).sum::<u32>() as f32 / window;
}

/// The invariant of the layers: a ball on the ramp's layer is in the ramp's channel or
/// its mouth. One that rolled back out of the mouth (below it, or on its lip beside it) is
/// on the playfield again as soon as it is clear of the playfield's parts; one found
/// anywhere else (it cannot pass the wires, so only by a bug) is put back on the
/// playfield rather than falling through every wall, and the repair is a fault: counted
/// in [`RunStats::repairs`], printed, and failing a headless run.
pub fn keep_ramp_balls_on_ramp(
    table: Res<Table>,
    world: Res<CcdWorld>,
    mut stats: ResMut<RunStats>,
    mut balls: Query<(Entity, &MovingCircle, &mut CcdLayers, &mut Transform)>,
    mut ring: Local<Option<Vec<Vec2>>>,
) {
    let Some(ramp) = &table.def.playfield.ramp else {
        return;
    };
    let ring = ring.get_or_insert_with(|| channel(ramp));
    for (e, c, mut layers, mut tf) in &mut balls {
        if *layers != ON_RAMP {
            continue;
        }
        let p = tf.translation.truncate();
        // Beside the mouth, below its line, a ball that rolled back out is on the lip.
        let place = match ramp_place(ramp, ring, p, c.radius) {
            RampPlace::Elsewhere if on_lip(ramp, p, c.radius) => RampPlace::BelowMouth,
            place => place,
        };
        match place {
            RampPlace::Channel | RampPlace::Mouth => continue,
            // It lands on the playfield where it is clear of the playfield's parts (one
            // that fell back out past a post beside the mouth lands beyond it): landing
            // inside one would leave it there.
            RampPlace::BelowMouth if overlaps_playfield(&world, p, c.radius) => continue,
            RampPlace::BelowMouth => {}
            RampPlace::Elsewhere => {
                stats.repairs += 1;
                eprintln!(
                    "fault (repaired) at {:.3} s: ball {e} on the ramp's layer outside the ramp at {p}: put back on the playfield",
                    stats.simulated
                );
            }
        }
        *layers = ON_PLAYFIELD;
        tf.translation.z = PLAYFIELD_BALL_Z;
    }
}
