//! The state of one step: balls with their own clocks, moving along their legs.

use super::ball::{Ball, MovingObstacle};
use super::report::Contact;
use super::scratch::{BallState, Clock, MultiballScratch, NO_SENSOR};
use super::settings::MultiballSettings;
use crate::obstacle::Obstacles;
use crate::shape::Aabb;
use crate::tolerance::MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG;
use glam::Vec2;

pub(super) struct Sim<'a, O: ?Sized> {
    pub(super) balls: &'a mut [Ball],
    pub(super) dt: f32,
    pub(super) obstacles: &'a O,
    pub(super) moving: &'a mut [MovingObstacle],
    pub(super) settings: &'a MultiballSettings,
    pub(super) scratch: &'a mut MultiballScratch,
    /// The largest ball radius, for neighbour searches.
    pub(super) max_radius: f32,
    /// Every usable ball is on the same layers, which interact with themselves: pair
    /// searches need not read each candidate's layers.
    pub(super) shared_layers: bool,
}

pub(super) fn usable(b: &Ball) -> bool {
    b.circle().validate().is_ok()
        && b.velocity.is_finite()
        && b.inverse_mass.is_finite()
        && b.inverse_mass >= 0.0
}

/// Per-ball clocks and legs over one step.
impl<O: Obstacles + ?Sized> Sim<'_, O> {
    pub(super) fn prepare(&mut self) {
        let n = self.balls.len();
        self.scratch.state.clear();
        self.scratch.state.resize(
            n,
            BallState {
                allowed: self.settings.max_bounces,
                ..BallState::default()
            },
        );
        // Read only up to each ball's `sensor_count`: grown, never cleared.
        if self.scratch.sensors.len() < n {
            self.scratch.sensors.resize(n, [NO_SENSOR; SENSORS_PER_LEG]);
        }
        // One pass: each ball's clock, and over the usable balls the largest radius and
        // whether they all share one layer set.
        let scratch = &mut *self.scratch;
        scratch.clock.clear();
        let (mut max_radius, mut layers, mut same_layers) = (0.0_f32, None, true);
        for (k, ball) in self.balls.iter().enumerate() {
            let ok = usable(ball);
            if ok {
                max_radius = max_radius.max(ball.radius);
                same_layers &= *layers.get_or_insert(ball.layers) == ball.layers;
            }
            // A bad ball sits out the whole step, and so does one swept on its own.
            let valid = ok && scratch.member.get(k).copied().unwrap_or(true);
            scratch.clock.push(Clock {
                valid,
                frozen: !valid,
                ..Clock::default()
            });
        }
        self.max_radius = max_radius;
        self.shared_layers = layers.is_none_or(|l| same_layers && l.interacts(l));
        self.scratch.queue.reset(n);
        self.scratch.due.reset(n);
        self.scratch.moving_boxes.clear();
        self.scratch
            .moving_boxes
            .extend(self.moving.iter().map(MovingObstacle::swept_aabb));
        if self.settings.ball_ball {
            self.scratch.boxes.clear();
            for k in 0..n {
                // A ball swept on its own is in the grid by its whole path's box (a leg that
                // may reach it pulls it in first); a member by its leg.
                let b = match self.scratch.solo.get(self.scratch.order.caller(k)) {
                    Some(solo) if !self.scratch.clock[k].valid => {
                        solo.bounds.unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO))
                    }
                    _ => self.swept_box(k),
                };
                self.scratch.boxes.push(b);
            }
            self.scratch.grid.rebuild(&self.scratch.boxes);
        }
    }

    /// The box ball `k` sweeps from its clock to the end of the step (a point box for a
    /// waiting or bad ball).
    #[inline]
    pub(super) fn swept_box(&self, k: usize) -> Aabb {
        let b = &self.balls[k];
        let s = &self.scratch.clock[k];
        if !b.center.is_finite() {
            return Aabb::new(Vec2::ZERO, Vec2::ZERO);
        }
        let motion = if s.frozen {
            Vec2::ZERO
        } else {
            b.velocity * (self.dt - s.time)
        };
        let r = if b.radius.is_finite() {
            b.radius.max(0.0)
        } else {
            0.0
        };
        let swept = Aabb::swept(b.center, motion, r);
        if swept.is_finite() {
            swept
        } else {
            Aabb::new(b.center, b.center)
        }
    }

    /// The velocity ball `k` moves with for the rest of the step.
    pub(super) fn effective_velocity(&self, k: usize) -> Vec2 {
        if self.scratch.clock[k].frozen {
            Vec2::ZERO
        } else {
            self.balls[k].velocity
        }
    }

    /// Move ball `k` along its leg to time `t`, reporting the sensors it entered before.
    pub(super) fn advance(&mut self, k: usize, t: f32, on_contact: &mut impl FnMut(&Contact)) {
        self.flush_sensors(k, t, on_contact);
        let s = &mut self.scratch.clock[k];
        if !s.frozen && t > s.time {
            self.balls[k].center += self.balls[k].velocity * (t - s.time);
        }
        if t > s.time {
            s.time = t;
        }
    }

    #[inline]
    pub(super) fn flush_sensors(&mut self, k: usize, until: f32, on_contact: &mut impl FnMut(&Contact)) {
        let clock = &mut self.scratch.clock[k];
        let count = usize::from(clock.sensors);
        clock.sensors = 0;
        for &(time, with, hit) in &self.scratch.sensors[k][..count] {
            if time <= until {
                let approach = -self.balls[k].velocity.dot(hit.normal);
                on_contact(&Contact {
                    ball: k,
                    with,
                    time,
                    hit,
                    approach_speed: approach,
                    sensor: true,
                    kick: 0.0,
                });
            }
        }
    }

    /// Ball `k` changed course: update its swept box in the pair grid.
    pub(super) fn moved(&mut self, k: usize) {
        if self.settings.ball_ball {
            let b = self.swept_box(k);
            self.scratch.boxes[k] = b;
            self.scratch.grid.update(k, b);
        }
    }
}
