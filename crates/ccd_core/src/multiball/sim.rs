//! The state of one step: balls with their own clocks, moving along their legs.

use super::hinge_clocks::HingeClocks;
use super::lone::Lone;
use super::lone::wall_contact;
use super::moving::MovingObstacle;
use super::report::{Contact, MultiballReport};
use super::settings::MultiballSettings;
use super::state::{BallState, Clock, EventBuffers, EventState, SensorHit};
use crate::ball::Ball;
use crate::bounce::{RideTally, SweepSettings, sweep_bounces};
use crate::contact_with::ContactWith;
use crate::meet::Bounces;
use crate::obstacle::Obstacles;
use crate::parabola::Parabola;
use crate::shape::Aabb;
use crate::tolerance::MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG;
use glam::Vec2;

/// The event machinery at work: the event balls (in its order) with their clocks, and
/// what it reads and writes of the rest of the step.
pub(super) struct Sim<'a, O: ?Sized> {
    /// The event balls, in the machinery's order (`order.rs`).
    pub(super) balls: &'a mut [Ball],
    pub(super) dt: f32,
    pub(super) obstacles: &'a O,
    pub(super) moving: &'a mut [MovingObstacle],
    /// The moving obstacles' swept boxes over the step.
    pub(super) moving_boxes: &'a [Aabb],
    pub(super) settings: &'a MultiballSettings,
    /// The event phase's state, and its buffers of one event.
    pub(super) step: &'a mut EventState,
    pub(super) event: &'a mut EventBuffers,
    /// Every ball's lone sweep, by the caller's place (ball `k`'s at `order.caller(k)`).
    pub(super) lone: &'a [Lone],
    /// Per ball, in the machinery's order: in the event machinery (a lone ball joins).
    pub(super) in_events: &'a mut [bool],
    /// The hinged bodies' clocks.
    pub(super) hinges: &'a mut HingeClocks,
    /// The largest ball radius, for neighbour searches.
    pub(super) max_radius: f32,
    /// Every usable ball is on the same layers, which interact with themselves: pair
    /// searches need not read each candidate's layers.
    pub(super) shared_layers: bool,
    /// Every ball feels the step's gravity itself (its scale is 1): a leg's acceleration
    /// need not read the ball ([`Sim::gravity_of`]; reading it cost 1.3 % of a 2,000-ball
    /// pit's step with ball–ball contacts, 1,356 µs against 1,339).
    pub(super) one_gravity: bool,
    /// `Carried::met`: which balls met something last step, in the caller's order.
    pub(super) met_before: &'a [bool],
    /// The contacts found, in the order resolved (sensors when the leg that crossed them
    /// ends).
    pub(super) contacts: &'a mut Vec<Contact>,
    /// The counts so far.
    pub(super) report: MultiballReport,
}

/// Per-ball clocks and legs over one step.
impl<O: Obstacles + ?Sized> Sim<'_, O> {
    pub(super) fn prepare(&mut self) {
        let n = self.balls.len();
        self.step.state.clear();
        self.step.state.resize(
            n,
            BallState {
                bounces: Bounces::new(self.settings.max_bounces),
                ..BallState::default()
            },
        );
        self.step.rides.clear();
        self.step.rides.resize(n, RideTally::default());
        self.step.riders.clear();
        // Read only up to each ball's `sensor_count`: grown, never cleared.
        if self.step.sensors.len() < n {
            self.step.sensors.resize(n, [SensorHit::NONE; SENSORS_PER_LEG]);
        }
        // One pass: each ball's clock, and over the usable balls the largest radius and
        // whether they all share one layer set.
        let step = &mut *self.step;
        step.clock.clear();
        let (mut max_radius, mut layers, mut same_layers) = (0.0_f32, None, true);
        let mut one_gravity = true;
        for (k, ball) in self.balls.iter().enumerate() {
            let ok = ball.usable();
            if ok {
                max_radius = max_radius.max(ball.radius);
                one_gravity &= ball.gravity_scale == 1.0;
                same_layers &= *layers.get_or_insert(ball.layers) == ball.layers;
            }
            // A bad ball sits out the whole step, and so does one swept on its own.
            let valid = ok && self.in_events.get(k).copied().unwrap_or(true);
            // Under gravity a ball starts in flight, on its curve (`start_gravity` settles
            // the ones at rest).
            step.clock.push(Clock {
                valid,
                waiting: !valid,
                curved: valid && ball.gravity(self.settings.gravity) != Vec2::ZERO,
                ..Clock::default()
            });
        }
        self.max_radius = max_radius;
        self.one_gravity = one_gravity;
        self.shared_layers = layers.is_none_or(|l| same_layers && l.interacts(l));
        self.step.queue.reset(n);
        self.step.due.reset(n);
        if self.settings.ball_ball {
            self.step.boxes.clear();
            for k in 0..n {
                // A ball swept on its own is in the grid by its whole path's box (a leg that
                // may reach it makes it join first); an event ball by its leg.
                let b = match self.lone.get(self.step.order.caller(k)) {
                    Some(lone) if !self.step.clock[k].valid => {
                        lone.bounds.unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO))
                    }
                    _ => self.swept_box(k),
                };
                self.step.boxes.push(b);
            }
            self.step.grid.rebuild(&self.step.boxes);
        }
    }

    /// The box ball `k` sweeps from its clock to the end of the step (a point box for a
    /// waiting or bad ball).
    #[inline]
    pub(super) fn swept_box(&self, k: usize) -> Aabb {
        let b = &self.balls[k];
        let s = &self.step.clock[k];
        if !b.center.is_finite() {
            return Aabb::new(Vec2::ZERO, Vec2::ZERO);
        }
        let motion = if s.waiting {
            Vec2::ZERO
        } else {
            b.velocity * (self.dt - s.time)
        };
        let r = if b.radius.is_finite() {
            b.radius.max(0.0)
        } else {
            0.0
        };
        let swept = match self.curve_of(k) {
            Some(curve) => curve.aabb(b.center, r),
            None => Aabb::swept(b.center, motion, r),
        };
        if swept.is_finite() {
            swept
        } else {
            Aabb::new(b.center, b.center)
        }
    }

    /// The velocity ball `k` moves with from its clock (a ball in flight: at its clock).
    pub(super) fn effective_velocity(&self, k: usize) -> Vec2 {
        if self.step.clock[k].waiting {
            Vec2::ZERO
        } else {
            self.balls[k].velocity
        }
    }

    /// The gravity ball `k` feels: the step's, by its [`gravity_scale`](crate::Ball::gravity_scale).
    #[inline(always)]
    pub(super) fn gravity_of(&self, k: usize) -> Vec2 {
        if self.one_gravity {
            self.settings.gravity
        } else {
            self.balls[k].gravity(self.settings.gravity)
        }
    }

    /// The acceleration of ball `k`'s leg, if it is curved: the step's gravity for a ball
    /// in flight, its part along the face for a sliding ball; `None` for a straight leg
    /// (no gravity, settled, or waiting).
    #[inline(always)]
    fn leg_acceleration(&self, k: usize) -> Option<Vec2> {
        let s = &self.step.clock[k];
        if s.waiting {
            None
        } else if s.curved {
            Some(self.gravity_of(k))
        } else if s.sliding {
            // Read only for a sliding ball: the state is larger than the clock.
            Some(self.step.state[k].slide.map_or(Vec2::ZERO, |on| on.acceleration))
        } else {
            None
        }
    }

    /// Ball `k`'s leg from its clock to the end of the step as a parabola, if it is in
    /// flight or sliding.
    #[inline]
    pub(super) fn curve_of(&self, k: usize) -> Option<Parabola> {
        let left = self.dt - self.step.clock[k].time;
        self.leg_acceleration(k)
            .map(|a| Parabola::new(self.balls[k].velocity, a, left))
    }

    /// Where ball `k` is at `t` (not before its clock), on its leg.
    #[inline]
    pub(super) fn center_at(&self, k: usize, t: f32) -> Vec2 {
        let (b, s) = (&self.balls[k], &self.step.clock[k]);
        if s.waiting {
            return b.center;
        }
        let tau = t - s.time;
        match self.curve_of(k) {
            Some(curve) => (b.center.as_dvec2()
                + Parabola {
                    duration: tau,
                    ..curve
                }
                .offset_f64(1.0))
            .as_vec2(),
            None => b.center + b.velocity * tau,
        }
    }

    /// Where ball `k` is at `t` (not before its clock), its velocity then, and the gravity
    /// its leg feels (the step's in flight, its part along the face sliding, else none):
    /// [`Sim::center_at`] and [`Sim::velocity_at`] with one read of its clock (every
    /// candidate pair asks this of both balls).
    #[inline(always)]
    pub(super) fn leg_at(&self, k: usize, t: f32) -> (Vec2, Vec2, Vec2) {
        let (b, s) = (&self.balls[k], &self.step.clock[k]);
        if s.waiting {
            return (b.center, Vec2::ZERO, Vec2::ZERO);
        }
        let tau = t - s.time;
        match self.leg_acceleration(k) {
            Some(a) => {
                let curve = Parabola::new(b.velocity, a, tau);
                let center = (b.center.as_dvec2() + curve.offset_f64(1.0)).as_vec2();
                let velocity = (b.velocity.as_dvec2() + a.as_dvec2() * f64::from(tau)).as_vec2();
                (center, velocity, a)
            }
            None => (b.center + b.velocity * tau, b.velocity, Vec2::ZERO),
        }
    }

    /// The velocity of `with`'s surface at `point` at time `t` (seconds into the step):
    /// zero for a wall, the moving part's there, the other ball's.
    pub(super) fn other_velocity(&self, with: ContactWith, point: Vec2, t: f32) -> Vec2 {
        match with {
            ContactWith::Obstacle(_) => Vec2::ZERO,
            ContactWith::Moving(index) => self.moving[index].surface_velocity(point, t / self.dt, self.dt),
            ContactWith::Ball(j) => self.velocity_at(j, t),
        }
    }

    /// Ball `k`'s velocity at `t` (not before its clock).
    #[inline]
    pub(super) fn velocity_at(&self, k: usize, t: f32) -> Vec2 {
        let s = &self.step.clock[k];
        if s.waiting {
            return Vec2::ZERO;
        }
        match self.leg_acceleration(k) {
            Some(a) => (self.balls[k].velocity.as_dvec2() + a.as_dvec2() * f64::from(t - s.time)).as_vec2(),
            None => self.balls[k].velocity,
        }
    }

    /// Move ball `k` along its leg to time `t`, reporting the sensors it entered before
    /// (a ball riding a round part: [`Sim::ride_to`]).
    pub(super) fn advance(&mut self, k: usize, t: f32) {
        self.flush_sensors(k, t);
        let s = self.step.clock[k];
        if s.on_round {
            self.ride_to(k, t);
            return;
        }
        if !s.waiting && t > s.time {
            if s.curved || s.sliding {
                let (center, velocity) = (self.center_at(k, t), self.velocity_at(k, t));
                self.balls[k].center = center;
                self.balls[k].velocity = velocity;
            } else {
                self.balls[k].center += self.balls[k].velocity * (t - s.time);
            }
        }
        let s = &mut self.step.clock[k];
        if t > s.time {
            s.time = t;
        }
    }

    #[inline]
    pub(super) fn flush_sensors(&mut self, k: usize, until: f32) {
        let count = usize::from(self.step.clock[k].sensors);
        for n in 0..count {
            let SensorHit { time, with, hit } = self.step.sensors[k][n];
            if time <= until {
                let approach = -self.velocity_at(k, time).dot(hit.normal);
                self.contacts.push(Contact {
                    ball: k,
                    with,
                    time,
                    hit,
                    approach_speed: approach,
                    other_velocity: self.other_velocity(with, hit.point, time),
                    sensor: true,
                    kick: 0.0,
                });
            }
        }
        self.step.clock[k].sensors = 0;
    }

    /// Ball `k` changed course: update its swept box in the pair grid.
    pub(super) fn moved(&mut self, k: usize) {
        if self.settings.ball_ball {
            let b = self.swept_box(k);
            self.step.boxes[k] = b;
            self.step.grid.update(k, b);
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `j`, swept on its own so far, joins the event machinery at `now`: its own sweep
    /// replayed to `now` (reporting its contacts), then a clock at `now`. `false` if it
    /// cannot (already in, or a bad ball).
    pub(super) fn join(&mut self, j: usize, now: f32) -> bool {
        if self.in_events[j] {
            return false;
        }
        let Some(start) = self.lone[self.step.order.caller(j)].ball else {
            return false;
        };
        let mut ball = start;
        let mut bounces = 0;
        if now > 0.0 {
            let sweep = SweepSettings {
                max_bounces: self.settings.max_bounces,
                resting_speed: self.settings.resting_speed,
                response: ball.response,
                material: ball.material,
                layers: ball.layers,
                max_speed: ball.max_speed,
                gravity: ball.gravity(self.settings.gravity),
            };
            let contacts = &mut self.step.joined_contacts;
            let result = sweep_bounces(ball.circle(), ball.velocity, now, self.obstacles, &sweep, |h| {
                contacts.push(wall_contact(j, h));
            });
            let Ok(out) = result else {
                return false;
            };
            (ball.center, ball.velocity, bounces) = (out.center, out.velocity, out.bounces);
        }
        self.balls[j] = ball;
        self.in_events[j] = true;
        self.step.clock[j] = Clock {
            time: now,
            version: 0,
            waiting: false,
            valid: true,
            squeezed: false,
            sensors: 0,
            curved: self.gravity_of(j) != Vec2::ZERO,
            sliding: false,
            on_round: false,
        };
        self.step.state[j].bounces.count = bounces;
        self.moved(j);
        true
    }
}
