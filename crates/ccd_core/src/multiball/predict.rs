//! Wall and pair prediction: each ball's next event.

use super::queue::{Event, EventKind};
use super::report::{Contact, ContactWith};
use super::sim::Sim;
use crate::bounce::earliest_on_leg;
use crate::hit::Hit;
use crate::obstacle::{ObstacleShape, Obstacles};
use crate::response::takes_contact;
use crate::shape::{Aabb, Circle};
use crate::sweep::{sweep_circle_moving_circle, sweep_circle_moving_segment};
use crate::tolerance::{MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG, RESTING_EVENT_FRACTION, TOUCH_SLOP_REL};
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Find ball `i`'s next event from its clock and schedule it.
    pub(super) fn predict(&mut self, i: usize, _on_contact: &mut impl FnMut(&Contact)) {
        let state = self.scratch.state[i];
        if state.frozen {
            return;
        }
        let ball = self.balls[i];
        let start = state.time;
        let left = self.dt - start;
        let motion = ball.velocity * left;
        if !(left > 0.0) || (motion == Vec2::ZERO && self.moving.is_empty()) {
            return;
        }
        let circle = ball.circle();
        let mut best: Option<(f32, EventKind)> = None;
        let mut consider = |toi: f32, kind: EventKind| {
            let time = start + toi * left;
            if best.is_none_or(|(t, _)| time < t) {
                best = Some((time, kind));
            }
        };

        // A squeezed ball ignores the faster of the two surfaces squeezing it.
        let ignored = state.pinched.map(|p| p.faster);
        let skip = match ignored {
            Some(ContactWith::Obstacle(id)) => Some(id),
            _ => None,
        };
        // Static obstacles, with the sensors on the way.
        let leg = earliest_on_leg(circle, motion, self.obstacles, ball.layers, skip);
        if let Some((id, material, hit)) = leg.solid {
            consider(hit.toi, EventKind::Obstacle { id, material, hit });
        }
        let mut sensors = [(0.0, ContactWith::Ball(0), leg_placeholder()); SENSORS_PER_LEG];
        let mut sensor_count = 0;
        for &(id, hit) in leg.sensors() {
            sensors[sensor_count] = (start + hit.toi * left, ContactWith::Obstacle(id), hit);
            sensor_count += 1;
        }

        // Moving obstacles.
        let bounds = Aabb::swept(ball.center, motion, ball.radius);
        let from = start / self.dt;
        for (index, m) in self.moving.iter().enumerate() {
            if !ball.layers.interacts(m.obstacle.layers)
                || !self.scratch.moving_boxes[index].intersects(&bounds)
                || ignored == Some(ContactWith::Moving(index))
            {
                continue;
            }
            let (obstacle, rest) = m.rest_of_step(from);
            let found = match obstacle.shape {
                ObstacleShape::Segment(s) => {
                    sweep_circle_moving_segment(circle, motion, s, rest).and_then(|h| {
                        takes_contact(&obstacle, h.hit.normal).then_some((h.hit, h.surface_motion))
                    })
                }
                ObstacleShape::Circle(c) => {
                    let other_motion = self.moving[index].circle_center_at(c, 1.0)
                        - self.moving[index].circle_center_at(c, from);
                    sweep_circle_moving_circle(circle, motion, c, other_motion).map(|h| (h, other_motion))
                }
            };
            let Some((hit, surface_motion)) = found else {
                continue;
            };
            if obstacle.sensor {
                if hit.toi > 0.0 && sensor_count < SENSORS_PER_LEG {
                    sensors[sensor_count] = (start + hit.toi * left, ContactWith::Moving(index), hit);
                    sensor_count += 1;
                }
                continue;
            }
            consider(
                hit.toi,
                EventKind::Moving {
                    index,
                    hit,
                    surface_velocity: surface_motion / left,
                },
            );
        }

        // Other balls.
        if self.settings.ball_ball {
            let balls = &*self.balls;
            let states = &self.scratch.state;
            let boxes = &self.scratch.boxes;
            let dt = self.dt;
            let resting_floor = self.settings.resting_speed * RESTING_EVENT_FRACTION;
            // Two balls whose swept boxes for the rest of the step are apart cannot touch:
            // skip the pair sweep (most grid candidates; the sweeps were most of a dense
            // step's time). The margin keeps f32 rounding of the boxes from dropping a
            // contact at their very edge.
            let reach = bounds.inflated(self.max_radius * TOUCH_SLOP_REL);
            self.scratch.grid.query(bounds, |j| {
                if j == i
                    || !ball.layers.interacts(balls[j].layers)
                    || !states[j].valid
                    || !boxes[j].intersects(&reach)
                {
                    return;
                }
                let other = balls[j];
                let os = states[j];
                let common = start.max(os.time);
                let vj = if os.frozen { Vec2::ZERO } else { other.velocity };
                let pi = ball.center + ball.velocity * (common - start);
                let pj = other.center + vj * (common - os.time);
                let rest = dt - common;
                if !(rest > 0.0) {
                    return;
                }
                if let Some(hit) = sweep_circle_moving_circle(
                    Circle::new(pi, ball.radius),
                    ball.velocity * rest,
                    Circle::new(pj, other.radius),
                    vj * rest,
                ) {
                    // Already touching: an event only if the pair closes in by the measure
                    // the impulse uses (`pair_impulse`: the line of centres, strictly
                    // closing). The sweep's own normal may differ from it in the last bit,
                    // and a contact the sweep calls closing but the impulse does not was
                    // resolved to nothing and found again at the same instant, over and
                    // over until the event budget ran out (a dense gas hit it within ten
                    // steps). Closing slower than the resting floor: the next resting
                    // solve's job.
                    if hit.toi == 0.0 {
                        let normal = (pi - pj).try_normalize().unwrap_or(hit.normal);
                        if -(ball.velocity - vj).dot(normal) <= resting_floor {
                            return;
                        }
                    }
                    let time = common + hit.toi * rest;
                    if best.is_none_or(|(t, _)| time < t) {
                        best = Some((
                            time,
                            EventKind::Ball {
                                other: j as u32,
                                other_version: os.version,
                            },
                        ));
                    }
                }
            });
        }

        let end = best.map_or(self.dt, |(t, _)| t);
        let s = &mut self.scratch.state[i];
        s.sensor_count = 0;
        // Sensors count only up to the leg's end (an earlier solid contact cuts the leg).
        let mut n = 0;
        for entry in sensors.iter().take(sensor_count) {
            if entry.0 <= end {
                s.sensors[n] = *entry;
                n += 1;
            }
        }
        s.sensors[..n].sort_by(|a, b| a.0.total_cmp(&b.0));
        s.sensor_count = n as u8;
        if let Some((time, kind)) = best {
            self.scratch.heap.push(Event {
                time,
                ball: i as u32,
                version: s.version,
                kind,
            });
        }
    }
}

pub(super) fn leg_placeholder() -> Hit {
    Hit {
        toi: 0.0,
        center: Vec2::ZERO,
        point: Vec2::ZERO,
        normal: Vec2::ZERO,
    }
}
