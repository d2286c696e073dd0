//! Gravity in the event machinery: which balls fly and which are settled.
//!
//! A ball in *flight* follows the parabola of the step's gravity: its leg from its clock is
//! a [`Parabola`](crate::Parabola), every contact is found on that curve (`next_event.rs`)
//! and met with the velocity of its instant, as a lone ball's sweep does. Two balls in
//! flight fall alike, so between them the motion stays straight (`pair_sweep.rs`).
//!
//! A ball that *rests* on something (a floor, a held flipper, a pile) is *settled*: it takes
//! the rest of the step's gravity at once (`v += g·(dt − t)`) and moves on straight, and the
//! resting contacts take away what presses it in, as they always have: at the step's start
//! the resting solve (`resting.rs`) runs on the velocities with the step's gravity added,
//! and the balls it finds resting stay so; every other ball gets its velocity back and
//! flies. A ball in flight that comes to rest on a wall or a moving obstacle during the
//! step (a contact slower than the resting speed, or than a fall from within the touch
//! slop, with gravity pressing it in) settles there (`Sim::settle`, `sim.rs`); so does one
//! that meets a settled ball (`pairs.rs`): the settled ball carries the rest of the step's
//! gravity in its velocity, and an exchange would hand that on to a ball that also gains it
//! along its curve. Settling is one way within a step, so it cannot go back and forth.

use super::report::{Contact, MultiballReport};
use super::sim::Sim;
use crate::obstacle::Obstacles;
use crate::tolerance::TOUCH_SLOP_REL;
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// The step's start: the resting solve on the velocities with the step's gravity added,
    /// then every ball it did not find resting flies (its velocity back, its leg curved).
    ///
    /// Every ball starts the step curved (`prepare` puts it in the ball grid by its curve's
    /// box). For the solve each is taken as settled; the balls it presses on stay settled,
    /// and every other is put back as it was, curve and box. A ball that only touches a
    /// surface, with nothing pressing it on (running down along a wall), flies its curve.
    pub(super) fn start_gravity(
        &mut self,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let g = self.settings.gravity;
        if g == Vec2::ZERO {
            self.solve_resting(report, on_contact);
            return;
        }
        let mut saved = std::mem::take(&mut self.start.flight_velocities);
        saved.clear();
        saved.extend(self.balls.iter().map(|b| b.velocity));
        let dt = self.dt;
        for (b, clock) in self.balls.iter_mut().zip(self.step.clock.iter_mut()) {
            if !clock.frozen {
                b.velocity += g * dt;
                clock.curved = false;
            }
        }
        self.solve_resting(report, on_contact);
        for (k, &flight_velocity) in saved.iter().enumerate() {
            if !self.step.clock[k].frozen && !self.start.resting_balls[k] {
                self.balls[k].velocity = flight_velocity;
                self.step.clock[k].curved = true;
                if self.start.touched_balls[k] {
                    // Its box was updated as a settled ball's.
                    self.moved(k);
                }
            }
        }
        self.start.flight_velocities = saved;
    }

    /// Whether a contact of ball `k` (in flight), approached at `approach` along `normal`
    /// (towards the ball), brings it to rest there: gravity presses it in, and it came
    /// slower than the resting speed or than a fall from within the touch slop,
    /// `sqrt(2·g_n·slop)` (a centre rounded a hair off the surface falls back onto it).
    pub(super) fn comes_to_rest(&self, k: usize, approach: f32, normal: Vec2) -> bool {
        let pressing = -self.settings.gravity.dot(normal);
        if !self.step.clock[k].curved || !(pressing > 0.0) {
            return false;
        }
        let settling = (2.0 * pressing * TOUCH_SLOP_REL * self.balls[k].radius).sqrt();
        approach < self.settings.resting_speed.max(settling)
    }
}
