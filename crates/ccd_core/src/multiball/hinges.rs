//! Hinged bodies in the event loop.
//!
//! A hinge turns at a constant rate between its events: an impact (the impulse exchange
//! of [`hinge_impulse`]) or a limit. At an event at time `t` every part of the body is
//! rebased ([`MovingObstacle::rebase`]): its shape becomes the pose the new motion would
//! have started from, so the motion is exact from `t` to the end of the step and every
//! sweep code path reads it unchanged. The balls whose legs may reach the body are then
//! moved along their (unchanged) legs to `t` and predicted again, against the new motion:
//! events are processed in time order, so none of them had an event before `t`.
//!
//! Limits are events too: before each ball event, the first limit any body reaches
//! before it is resolved (it stops, or turns back with the limit's restitution, and the
//! body is snapped onto the limit angle). A step with no ball near a body still takes its
//! limits ([`finish_hinges`]).

use super::hinge_clocks::{next_limit, resolve_limit, turn_body};
use super::sim::Sim;
use crate::ball::Ball;
use crate::contact_with::ContactWith;
use crate::hinge::{HingeBody, HingeContact, hinge_impulse};
use crate::instant::{ONE_BALL_HINGES, OneBall, Row};
use crate::meet::{Pushed, SurfaceOf, Touch};
use crate::obstacle::Obstacles;
use crate::response::ResponseMode;
use crate::shape::Aabb;
use crate::tolerance::{HINGE_LIMIT_SLOP, SEPARATION_SPEED_REL};

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Resolve the first limit reached before `until` seconds, if any: the body turns
    /// anew, and the balls near it are predicted again. Returns whether there was one.
    pub(super) fn limit_before(&mut self, until: f32) -> bool {
        if !self.hinges.any {
            return false;
        }
        let Some(hit) = next_limit(self.moving, self.hinges, until / self.dt) else {
            return false;
        };
        self.report.hinge_limit_hits += 1;
        self.carry_riders(hit.part, hit.at * self.dt);
        if let Some(near) = resolve_limit(self.moving, self.hinges, hit) {
            self.repredict_near(near, hit.at * self.dt, None);
        }
        true
    }

    /// The ball of `touch` hits hinged part `index`: the impulse exchange, unless the body
    /// is held by a limit against this push (then it is immovable and the caller's
    /// kinematic response applies). Returns the ball's new velocity and the box of the
    /// body, whose nearby balls must be predicted again ([`Sim::repredict_near`]) once the
    /// ball is done.
    fn hinge_velocity(&mut self, touch: &Touch, index: usize) -> Option<Pushed> {
        let Touch {
            ball,
            time,
            hit,
            material,
            approach,
            ..
        } = *touch;
        let m = self.moving[index];
        let body = self
            .hinges
            .body(self.moving, index)
            .filter(|b| b.inverse_inertia > 0.0)?;
        let combined = ball.material.combine(material);
        let restitution = match ball.response {
            ResponseMode::Bounce if approach >= self.settings.resting_speed => {
                combined.restitution_at(approach)
            }
            ResponseMode::Bounce | ResponseMode::Slide => 0.0,
            ResponseMode::Stop => return None,
        };
        let from = time / self.dt;
        let spin = m.angular_velocity(self.dt);
        let contact = HingeContact {
            ball_velocity: ball.velocity,
            inverse_mass: ball.inverse_mass,
            arm: hit.center - hit.normal * ball.radius - m.motion.pivot_at(from),
            normal: hit.normal,
            pivot_velocity: m.motion.pivot_motion / self.dt,
            angular_velocity: spin,
            inverse_inertia: body.inverse_inertia,
        };
        let out = hinge_impulse(contact, restitution, combined.friction);
        if body.held(m.angle_at(from), out.angular_velocity - spin) {
            return None;
        }
        self.carry_riders(index, time);
        let near = turn_body(
            self.moving,
            self.hinges,
            body.id,
            from,
            out.angular_velocity * self.dt,
            0.0,
        )?;
        // The surface's point under the ball, after the impact: a ball that took no bounce
        // leaves it a hair faster than it, as a resting contact does.
        let after = self.moving[index];
        let surface = after
            .motion
            .point_motion(hit.center - hit.normal * ball.radius, from)
            / self.dt;
        let relative = out.ball_velocity - surface;
        let normal_speed = relative.dot(hit.normal);
        let tangent = relative - hit.normal * normal_speed;
        // A share of the ball's own speed too: a ball that took no bounce moves with the
        // surface, and the f32 rounding of its velocity (not of the relative one, which is
        // nearly zero) would make it approach again, contact after contact.
        let least = SEPARATION_SPEED_REL
            * tangent
                .length()
                .max(relative.length())
                .max(out.ball_velocity.length());
        let velocity = if normal_speed < least {
            out.ball_velocity + hit.normal * (least - normal_speed)
        } else {
            out.ball_velocity
        };
        let mut turned = [None; ONE_BALL_HINGES];
        turned[0] = Some(near);
        Some(Pushed { velocity, turned })
    }

    /// The ball of `touch` meets its surface (with a `second` surface it touches, if any),
    /// and at least one of them is a part of a hinged body: alone against a free hinge,
    /// the impulse exchange (with friction, [`Sim::hinge_velocity`]); against a hinge its
    /// stop holds, or with a second surface, one contact with all of them
    /// ([`Sim::joint_velocity`]). Returns the ball's new velocity and the box of each body
    /// turned anew; `None` when no hinge takes part (or none can: a squeeze), and the
    /// surfaces' response applies.
    pub(super) fn hinge_contact(&mut self, touch: Touch, second: Option<SurfaceOf>) -> Option<Pushed> {
        let (with, surface) = (touch.with, touch.surface);
        if self.pushable(with).is_none() && second.is_none_or(|s| self.pushable(s.with).is_none()) {
            return None;
        }
        if let (ContactWith::Moving(index), None) = (with, second)
            && let Some(response) = self.hinge_velocity(&touch, index)
        {
            return Some(response);
        }
        let first = SurfaceOf { with, surface };
        self.joint_velocity(&touch.ball, touch.time, &[Some(first), second])
    }

    /// The hinged body a ball can push, if `with` is a part of one.
    pub(super) fn pushable(&self, with: ContactWith) -> Option<HingeBody> {
        match with {
            ContactWith::Moving(index) => self
                .hinges
                .body(self.moving, index)
                .filter(|b| b.inverse_inertia > 0.0),
            _ => None,
        }
    }

    /// `ball` touches `surfaces` at `time`, at least one a part of a hinged body: one
    /// contact with restitution ([`OneBall`]) over the surfaces and the stop each body
    /// rests on, if any. So a hinge its stop holds is as solid as a wall, and a ball
    /// between two flippers pushes both at once. Returns the ball's new velocity and the box
    /// of each body turned anew (whose nearby balls must be predicted again); `None` when
    /// no velocity moves into no surface (the caller squeezes the ball).
    fn joint_velocity(&mut self, ball: &Ball, time: f32, surfaces: &[Option<SurfaceOf>]) -> Option<Pushed> {
        let from = time / self.dt;
        // A ball nothing can push still moves the bodies; against walls alone its mass
        // would not matter, but at least one body takes part here.
        let mut problem = OneBall::around(ball.velocity.as_dvec2(), f64::from(ball.inverse_mass));
        // Each body's slot, its index among the problem's hinged bodies (both fill in
        // order): its id and one of its parts.
        let mut slots: [Option<(HingeBody, usize)>; ONE_BALL_HINGES] = [None; ONE_BALL_HINGES];
        for &SurfaceOf { with, surface } in surfaces.iter().flatten() {
            let point = ball.center - surface.normal * ball.radius;
            let row = match (with, self.pushable(with)) {
                (ContactWith::Moving(index), Some(body)) => {
                    let slot = slots
                        .iter()
                        .position(|s| s.is_none_or(|(b, _)| b.id == body.id))?;
                    let m = self.moving[index];
                    if slots[slot].is_none() {
                        slots[slot] = Some((body, index));
                        let spin = f64::from(m.angular_velocity(self.dt));
                        problem.hinge(spin, f64::from(body.inverse_inertia))?;
                    }
                    let arm = (point - m.motion.pivot_at(from)).as_dvec2();
                    let pivot_velocity = (m.motion.pivot_motion / self.dt).as_dvec2();
                    Row::hinged(
                        OneBall::BALL,
                        surface.normal.as_dvec2(),
                        arm,
                        pivot_velocity,
                        slot,
                    )
                }
                _ => Row::surface(
                    OneBall::BALL,
                    surface.normal.as_dvec2(),
                    surface.velocity.as_dvec2(),
                ),
            };
            problem.push(row.with_restitution(surface.restitution));
        }
        if !self.push_stops(&mut problem, &slots, from) {
            return None;
        }
        let out = problem.solve()?;
        let mut turned = [None; ONE_BALL_HINGES];
        for (slot, entry) in slots.iter().enumerate() {
            let Some((body, index)) = *entry else { continue };
            self.carry_riders(index, time);
            let spin = out.spins[slot] as f32;
            turned[slot] = turn_body(self.moving, self.hinges, body.id, from, spin * self.dt, 0.0);
        }
        Some(Pushed {
            velocity: out.velocities[OneBall::BALL].as_vec2(),
            turned,
        })
    }

    /// The stop each body of `slots` rests on at `from` (a fraction of the step), if any,
    /// as rows of `problem`; `false` when the problem has no room for them.
    fn push_stops(
        &self,
        problem: &mut OneBall,
        slots: &[Option<(HingeBody, usize)>; ONE_BALL_HINGES],
        from: f32,
    ) -> bool {
        for (slot, entry) in slots.iter().enumerate() {
            let Some((body, index)) = *entry else { continue };
            let Some(limits) = body.limits else { continue };
            let angle = self.moving[index].angle_at(from);
            // A body arriving slower than the stop's resting speed does not bounce off it.
            let arriving = problem.bodies.hinges()[slot].spin.abs() as f32;
            let restitution = if arriving >= limits.resting_speed {
                limits.restitution
            } else {
                0.0
            };
            for (toward, on) in [
                (1.0, angle <= limits.min + HINGE_LIMIT_SLOP),
                (-1.0, angle >= limits.max - HINGE_LIMIT_SLOP),
            ] {
                if on && !problem.push(Row::stop(toward, slot).with_restitution(restitution)) {
                    return false;
                }
            }
        }
        true
    }

    /// Every event ball but `skip` whose leg may reach `near`: moved along its leg to
    /// `time`, and predicted again. With ball–ball on, the pair grid (which holds every
    /// ball's box) lists the candidates; otherwise every ball is one.
    pub(super) fn repredict_near(&mut self, near: Aabb, time: f32, skip: Option<usize>) {
        let found = &mut self.event.found;
        found.clear();
        if self.settings.ball_ball {
            self.step.grid.query(near, |k| found.push(k));
            found.sort_unstable();
            found.dedup();
        } else {
            found.extend(0..self.balls.len());
        }
        // By index: moving and predicting a ball never asks for the balls near a body.
        for n in 0..self.event.found.len() {
            let k = self.event.found[n];
            let clock = self.step.clock[k];
            if Some(k) == skip || !clock.valid || clock.waiting || !self.swept_box(k).intersects(&near) {
                continue;
            }
            self.advance(k, time);
            self.repredict(k);
        }
    }
}
