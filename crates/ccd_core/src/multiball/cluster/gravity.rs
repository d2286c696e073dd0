//! The rest of the step's gravity around a contact of one instant (see `settle.rs` for
//! what settling is).
//!
//! A contact that is no impact (every row slower than the resting speed) settles its
//! balls first, as the resting solve does, and is solved once. An impact is solved on the
//! balls' velocities at its instant, and gravity comes after it:
//!
//! 1. what a settled ball's velocity carries ahead of the instant (gravity's part along
//!    the one surface it rests on) is taken out ([`Sim::carried_gravity`]), and given back
//!    after the solve;
//! 2. the impact is solved (each row with its restitution);
//! 3. the balls that rest after it settle: a sliding ball, unless it slides on along its
//!    still face ([`Sim::slides_on`]), and a ball in flight that a settled
//!    one does not leave faster than the rest of the step's gravity would bring it back;
//! 4. if any did, a second solve with no restitution holds them against what they touch.
//!
//! Taken before the impact, that gravity was struck back with it: a ball dropped onto a
//! resting one at `e = 1` gained `2·u·g·τ` of energy (`u` its speed, `τ` the rest of the
//! step); a ball struck while sliding down a slope, the slope's share of it.

use super::{ClusterBuffers, Solve, Touching};
use crate::multiball::sim::Sim;
use crate::obstacle::Obstacles;
use crate::tolerance::DEGENERATE_LENGTH_REL;
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Solve the contact at `time` (an `impact` or not) and take the rest of the step's
    /// gravity, as the module docs say; `false` when it has no solution or does not fit
    /// (an impact's balls unchanged then; a contact that is no impact leaves its balls
    /// settled). When the second solve fails, the impact's stands.
    pub(super) fn solve_under_gravity(&mut self, time: f32, impact: bool, bufs: &mut ClusterBuffers) -> bool {
        // Balls that all fly carry no gravity ahead, and none settles after: one solve, as
        // for a contact that is no impact (in the ball pit, nearly every impact).
        let all_fly = bufs.balls.iter().all(|&k| {
            let clock = self.step.clock[k];
            clock.curved && !clock.waiting
        });
        if !impact || all_fly {
            self.settle_cluster(bufs);
            return self.solve_cluster(time, Solve::Contact, bufs);
        }
        let left = self.dt - time;
        bufs.carried.clear();
        for n in 0..bufs.balls.len() {
            let k = bufs.balls[n];
            let ahead = self.carried_gravity(k, &bufs.surfaces) * left;
            bufs.carried.push((self.balls[k].velocity, ahead));
            self.balls[k].velocity -= ahead;
        }
        let struck = self.solve_cluster(time, Solve::Contact, bufs);
        for (n, &k) in bufs.balls.iter().enumerate() {
            let (before, ahead) = bufs.carried[n];
            if !struck {
                self.balls[k].velocity = before;
                continue;
            }
            bufs.velocities[n] += ahead.as_dvec2();
            let v = bufs.velocities[n].as_vec2();
            if v.is_finite() && !self.step.clock[k].waiting {
                self.balls[k].velocity = v;
            }
        }
        if !struck {
            return false;
        }
        if !self.settle_struck(time, bufs) {
            return true;
        }
        bufs.struck.clear();
        bufs.struck.extend_from_slice(&bufs.impulses);
        if self.solve_cluster(time, Solve::Rest, bufs) {
            for (held, struck) in bufs.impulses.iter_mut().zip(&bufs.struck) {
                *held += struck;
            }
        } else {
            bufs.velocities.clear();
            bufs.velocities
                .extend(bufs.balls.iter().map(|&k| self.balls[k].velocity.as_dvec2()));
            std::mem::swap(&mut bufs.impulses, &mut bufs.struck);
        }
        true
    }

    /// The gravity, per second left in the step, that settled ball `k`'s velocity carries
    /// ahead of the instant: a settled ball took the rest of the step's gravity at once
    /// (`settle.rs`), and where it rests on one surface, which holds gravity's part into
    /// it, the part along it is ahead (on a level floor, none). An impact is solved on the
    /// velocities of its instant; this is taken out before it and given back after (a
    /// ball struck on a post it had settled on, at 60 Hz: 1e-3 of the impact's energy
    /// gained). None for a ball in flight, sliding or waiting (its velocity is the
    /// instant's), nor for one held by two surfaces or by other balls.
    fn carried_gravity(&self, k: usize, surfaces: &[Touching]) -> Vec2 {
        let clock = self.step.clock[k];
        if clock.curved || clock.sliding || clock.waiting {
            return Vec2::ZERO;
        }
        let g = self.gravity_of(k);
        let mut pressed = surfaces.iter().filter(|s| s.ball == k && g.dot(s.normal) < 0.0);
        match (pressed.next(), pressed.next()) {
            (Some(s), None) => g - s.normal * g.dot(s.normal),
            _ => Vec2::ZERO,
        }
    }

    /// Before the solve of a contact that is no impact: a sliding ball settles (an
    /// impulse may turn it off its face), and a ball in flight meeting a settled (or
    /// waiting) one settles first (see `settle.rs`).
    pub(super) fn settle_cluster(&mut self, bufs: &ClusterBuffers) {
        self.settle_resting(bufs, |_, _| true, |_, _| true);
    }

    /// After an impact at `time`: a sliding ball settles unless it slides on
    /// ([`Sim::slides_on`]), and a ball in flight that a settled (or waiting) one leaves no
    /// faster than the rest of the step's gravity would bring it back. Whether any ball
    /// settled.
    fn settle_struck(&mut self, time: f32, bufs: &ClusterBuffers) -> bool {
        let left = self.dt - time;
        let flier_rests = |sim: &Self, [flier, other]: [usize; 2]| {
            let (a, b) = (sim.balls[flier], sim.balls[other]);
            let leaving = (a.center - b.center)
                .try_normalize()
                .map_or(0.0, |n| (a.velocity - sim.effective_velocity(other)).dot(n));
            leaving <= sim.gravity_of(flier).length() * left
        };
        self.settle_resting(bufs, |sim, k| !sim.slides_on(k, bufs), flier_rests)
    }

    /// Whether sliding ball `k`, after an impact, slides on along its face from the
    /// impact: the face is a still surface of the contact, and the ball neither presses
    /// into it nor leaves it faster than a touching row ([`Sim::touching_velocity`]). Its
    /// pull is gravity's part along the face, less friction against the motion the impact
    /// left it ([`Sim::pull_again`], once the contact is carried). Settled instead, it
    /// would take the rest of the step's gravity at once and move straight: `½·g·τ²` off
    /// along the face, and on a rough face none of friction's take for the rest of the
    /// step (two balls meeting head-on down a rough slope were 7.7e-4 off the closed form
    /// at 30 Hz).
    fn slides_on(&self, k: usize, bufs: &ClusterBuffers) -> bool {
        let Some(on) = self.step.state[k].slide else {
            return false;
        };
        let ball = self.balls[k];
        let Some(normal) = on.face.normal_toward(ball.center - on.face.a) else {
            return false;
        };
        bufs.surfaces.iter().any(|s| {
            s.ball == k
                && s.velocity == Vec2::ZERO
                && s.normal.dot(normal) >= 1.0 - DEGENERATE_LENGTH_REL
                && ball.velocity.dot(s.normal).abs() <= bufs.touching
        })
    }

    /// Settle every sliding ball of the contact that `settles` says, then every ball in
    /// flight touching a settled (or waiting) one where `rests([flier, settled])` says;
    /// whether any settled.
    fn settle_resting(
        &mut self,
        bufs: &ClusterBuffers,
        settles: impl Fn(&Self, usize) -> bool,
        rests: impl Fn(&Self, [usize; 2]) -> bool,
    ) -> bool {
        let mut any = false;
        for &k in &bufs.balls {
            if self.step.clock[k].sliding && settles(self, k) {
                self.settle(k);
                any = true;
            }
        }
        for l in &bufs.pairs {
            let flies = |k: usize| self.step.clock[k].curved && !self.step.clock[k].waiting;
            let flier = match (flies(l.a), flies(l.b)) {
                (true, false) => [l.a, l.b],
                (false, true) => [l.b, l.a],
                _ => continue,
            };
            if rests(self, flier) {
                self.settle(flier[0]);
                any = true;
            }
        }
        any
    }
}
