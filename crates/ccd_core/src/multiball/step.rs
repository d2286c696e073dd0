//! [`step_balls`]: the public entry, and the loop over events.

use super::ball::{Ball, MovingObstacle};
use super::queue::EventKind;
use super::report::{Contact, ContactWith, MultiballReport};
use super::scratch::MultiballScratch;
use super::settings::MultiballSettings;
use super::sim::Sim;
use super::walls::WallHit;
use crate::obstacle::Obstacles;
use crate::tolerance::{DEFAULT_EVENTS_PER_BALL, MAX_WEDGE_BOUNCES, MIN_EVENT_BUDGET, SIMULTANEOUS_TIME_REL};
use glam::Vec2;

/// Move every ball through `dt` seconds: against the static `obstacles`, the `moving`
/// obstacles and (if enabled) each other, event by event in time order.
///
/// Contacts are passed to `on_contact` in the order they are resolved (sensors when the
/// leg that crossed them ends). Bad balls (non-finite values, negative radius) are left
/// untouched and never interact.
///
/// ```
/// use ccd_core::{step_balls, Ball, MultiballScratch, MultiballSettings, Obstacle, Vec2};
/// // Equal balls head on at ±10 units/s, 10 apart (radius 1): they meet after 0.4 s and
/// // swap velocities; in the last 0.6 s each goes 6 units back: the first ends at x = −1 − 6.
/// let mut balls = [Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0), 1.0), Ball::new(Vec2::new(5.0, 0.0), Vec2::new(-10.0, 0.0), 1.0)];
/// let none: [Obstacle; 0] = [];
/// let mut scratch = MultiballScratch::default();
/// let report = step_balls(&mut balls, 1.0, &none, &[], &MultiballSettings::default(), &mut scratch, |_| {});
/// assert_eq!(report.bounces, 1);
/// assert!((balls[0].center - Vec2::new(-7.0, 0.0)).length() < 1e-4);
/// assert!((balls[0].velocity - Vec2::new(-10.0, 0.0)).length() < 1e-4);
/// ```
pub fn step_balls<O: Obstacles + ?Sized>(
    balls: &mut [Ball],
    dt: f32,
    obstacles: &O,
    moving: &[MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
    mut on_contact: impl FnMut(&Contact),
) -> MultiballReport {
    let mut report = MultiballReport::default();
    if !(dt > 0.0) || !dt.is_finite() || balls.is_empty() {
        return report;
    }
    let mut sim = Sim {
        balls,
        dt,
        obstacles,
        moving,
        settings,
        scratch,
        max_radius: 0.0,
    };
    sim.prepare();
    sim.solve_resting(&mut report, &mut on_contact);
    let budget = if settings.max_events > 0 {
        settings.max_events
    } else {
        (sim.balls.len() as u32)
            .saturating_mul(DEFAULT_EVENTS_PER_BALL)
            .saturating_add(MIN_EVENT_BUDGET)
    };
    for i in 0..sim.balls.len() {
        sim.predict(i, &mut on_contact);
    }
    while let Some(event) = sim.scratch.heap.pop() {
        let i = event.ball as usize;
        if sim.scratch.state[i].version != event.version {
            continue;
        }
        if report.events >= budget {
            report.event_budget_hit = true;
            // Everything before `event.time` is resolved: hold every ball there.
            for k in 0..sim.balls.len() {
                sim.advance(k, event.time, &mut on_contact);
                sim.scratch.state[k].frozen = true;
            }
            sim.scratch.heap.clear();
            break;
        }
        report.events += 1;
        match event.kind {
            EventKind::Ball { other, other_version } => {
                let j = other as usize;
                if sim.scratch.state[j].version != other_version {
                    // The partner changed course: this ball's leg goes on; look again.
                    sim.advance(i, event.time, &mut on_contact);
                    sim.predict(i, &mut on_contact);
                    continue;
                }
                // Gather every other valid pair event at (nearly) the same time.
                let mut batch = std::mem::take(&mut sim.scratch.batch);
                let mut retry = std::mem::take(&mut sim.scratch.retry);
                batch.clear();
                retry.clear();
                batch.push((i, j));
                let window = event.time + SIMULTANEOUS_TIME_REL * dt;
                while let Some(next) = sim.scratch.heap.peek().copied() {
                    let EventKind::Ball { other, other_version } = next.kind else {
                        break;
                    };
                    if next.time > window {
                        break;
                    }
                    sim.scratch.heap.pop();
                    let (a, b) = (next.ball as usize, other as usize);
                    if sim.scratch.state[a].version != next.version {
                        continue;
                    }
                    if sim.scratch.state[b].version != other_version {
                        retry.push((a, next.time));
                        continue;
                    }
                    if !batch.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)) {
                        batch.push((a, b));
                    }
                }
                sim.resolve_pairs(&batch, event.time, &mut report, &mut on_contact);
                for &(a, t) in &retry {
                    if !batch.iter().any(|&(x, y)| x == a || y == a) {
                        sim.advance(a, t, &mut on_contact);
                        sim.predict(a, &mut on_contact);
                    }
                }
                sim.scratch.batch = batch;
                sim.scratch.retry = retry;
            }
            EventKind::Obstacle { id, material, hit } => {
                let contact = WallHit {
                    with: ContactWith::Obstacle(id),
                    material,
                    hit,
                    surface_velocity: Vec2::ZERO,
                };
                sim.resolve_wall(i, event.time, contact, &mut report, &mut on_contact);
            }
            EventKind::Moving {
                index,
                hit,
                surface_velocity,
            } => {
                let contact = WallHit {
                    with: ContactWith::Moving(index),
                    material: sim.moving[index].obstacle.material,
                    hit,
                    surface_velocity,
                };
                sim.resolve_wall(i, event.time, contact, &mut report, &mut on_contact);
            }
        }
    }
    for k in 0..sim.balls.len() {
        if !sim.scratch.state[k].frozen {
            sim.advance(k, dt, &mut on_contact);
        }
        sim.flush_sensors(k, dt, &mut on_contact);
        sim.ride_to_end(k);
        sim.squeeze_out(k);
        let s = sim.scratch.state[k];
        report.max_bounces_per_ball = report.max_bounces_per_ball.max(s.bounces);
        report.capped_balls += u32::from(s.valid && s.bounces >= s.allowed.min(MAX_WEDGE_BOUNCES));
    }
    report
}
