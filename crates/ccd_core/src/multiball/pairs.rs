//! Ball–ball contacts at one instant, resolved together.
//!
//! Contacts found at the same instant (within [`SIMULTANEOUS_TIME_REL`] of the step) form
//! a batch, solved at once and so independently of their order: a symmetric break stays
//! symmetric. The model (Poisson's, on the contacts' complementarity problem, see
//! [`lcp`](super::lcp)): first the compression impulses `P` that stop every approach, then
//! `(1 + e)·P` is applied. With `e = 1` and no friction this keeps the kinetic energy
//! exactly (the energy change is `P·w` summed over the contacts, zero by
//! complementarity), and with `e < 1` it can only lose energy; the momentum is always
//! kept. Contacts that only appear because of the batch's impulses (Newton's cradle: the
//! second ball now closes on the third) are the next batch, at the same instant, so an
//! impact travels through a row of touching balls one pair after the other, as through
//! a real cradle.
//!
//! Why this model: resolving near-simultaneous contacts one pair at a time in a fixed
//! order keeps energy but breaks symmetry by the order; sharing out pairwise impulses (the
//! previous solver) keeps symmetry but loses energy whenever a ball meets two others at
//! once (7.5 % in 5 s at 10,000 balls). The complementarity problem is the one
//! simultaneous model that keeps both.

use super::lcp;
use super::lcp::{BatchContact, balanced_sum, coupling};
use super::report::{Contact, MultiballReport};
use super::sim::Sim;
use super::state::Pair;
use crate::hit::ContactWith;
use crate::hit::Hit;
use crate::obstacle::Obstacles;
use crate::response::{Body, limit_speed, pair_friction, push_ball};
use crate::shape::Aabb;
use crate::tolerance::{RESTING_EVENT_FRACTION, SEPARATION_SPEED_REL, TOUCH_SLOP_REL};
use glam::DVec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Resolve a batch of ball–ball contacts at `time` (see the module docs), report each
    /// pushing contact once, and predict every ball involved again.
    pub(super) fn resolve_pairs(
        &mut self,
        pairs: &[Pair],
        time: f32,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let mut cluster = std::mem::take(&mut self.event.cluster);
        let mut links = std::mem::take(&mut self.event.links);
        cluster.clear();
        links.clear();
        for &Pair { a: i, b: j } in pairs {
            for k in [i, j] {
                if !cluster.contains(&k) {
                    cluster.push(k);
                }
            }
            links.push(Pair { a: i, b: j });
        }
        for &k in &cluster {
            self.advance(k, time, on_contact);
        }
        // Contacts of these balls that close in at this same instant join the batch: a ball
        // schedules only its earliest partner, so the second of two equal contacts (a
        // symmetric break) is looked for here, around the balls whose prediction found one.
        let mut grown = 0;
        while grown < cluster.len() {
            let k = cluster[grown];
            grown += 1;
            if self.step.due.tied(k) {
                self.closing_now(k, time, &mut cluster, &mut links, on_contact);
            }
        }
        // A sliding ball in the batch settles: an impulse may turn it off its wall's line.
        for &k in &cluster {
            if self.step.clock[k].sliding {
                self.settle(k);
            }
        }
        // A ball in flight meeting a settled (or waiting) one settles first: the settled
        // one carries the rest of the step's gravity in its velocity, and an exchange with
        // a ball in flight would hand that on to a ball that gains it along its curve too.
        for l in links.iter() {
            let flies = |k: usize| self.step.clock[k].curved && !self.step.clock[k].waiting;
            match (flies(l.a), flies(l.b)) {
                (true, false) => self.settle(l.a),
                (false, true) => self.settle(l.b),
                _ => {}
            }
        }
        let mut batch = std::mem::take(&mut self.event.batch_contacts);
        self.batch_contacts(&links, &mut batch);
        let passes = self.solve_batch(&mut batch, &cluster);
        report.max_batch_passes = report.max_batch_passes.max(passes);
        for &k in &cluster {
            let ball = &mut self.balls[k];
            ball.velocity = limit_speed(ball.velocity, ball.max_speed);
        }
        for c in batch.iter().filter(|c| c.impulse > 0.0) {
            self.apply_contact(c, time, report, on_contact);
        }

        for &k in &cluster {
            let s = &self.step.state[k];
            let capped = s.bounces.capped();
            let clock = &mut self.step.clock[k];
            clock.waiting |= capped;
            clock.version = clock.version.wrapping_add(1);
            self.moved(k);
        }
        for &k in &cluster {
            self.repredict(k);
        }
        self.event.batch_contacts = batch;
        self.event.cluster = cluster;
        self.event.links = links;
    }

    /// Add to `links` (and `cluster`) every ball touching ball `k` at `time` and closing in
    /// on it, as [`predict`](Sim::predict) judges an event between touching balls.
    fn closing_now(
        &mut self,
        k: usize,
        time: f32,
        cluster: &mut Vec<usize>,
        links: &mut Vec<Pair>,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let b = self.balls[k];
        let reach =
            Aabb::new(b.center, b.center).inflated(b.radius * (1.0 + TOUCH_SLOP_REL) + self.max_radius);
        let mut found = std::mem::take(&mut self.event.found);
        found.clear();
        self.step.grid.query_except(reach, k, |j| found.push(j));
        let floor = self.settings.resting_speed * RESTING_EVENT_FRACTION;
        for &j in &found {
            if !b.layers.interacts(self.balls[j].layers)
                || !self.step.clock[j].valid
                || links.iter().any(|l| l.is(k, j))
            {
                continue;
            }
            let o = self.balls[j];
            let at = self.center_at(j, time);
            let offset = b.center - at;
            let Some(n) = offset.try_normalize() else {
                continue;
            };
            let touching = offset.length() <= (b.radius + o.radius) * (1.0 + TOUCH_SLOP_REL);
            let closing = -(self.velocity_at(k, time) - self.velocity_at(j, time)).dot(n) > floor;
            if touching && closing {
                self.advance(j, time, on_contact);
                links.push(Pair { a: k, b: j });
                if !cluster.contains(&j) {
                    cluster.push(j);
                }
            }
        }
        self.event.found = found;
    }

    /// The batch's contacts: normals, inverse masses (a waiting ball cannot be pushed),
    /// materials and approach speeds.
    fn batch_contacts(&self, pairs: &[Pair], out: &mut Vec<BatchContact>) {
        out.clear();
        for &Pair { a: i, b: j } in pairs {
            let (a, b) = (self.balls[i], self.balls[j]);
            let (va, vb) = (self.effective_velocity(i), self.effective_velocity(j));
            // In f64, renormalised: an f32 unit vector is off by up to 1e-7 in length, and
            // that error would change every elastic contact's energy in the same direction.
            let Some(normal) = (a.center.as_dvec2() - b.center.as_dvec2())
                .try_normalize()
                .or_else(|| (vb - va).as_dvec2().try_normalize())
            else {
                continue;
            };
            let inverse = |k: usize| {
                if self.step.clock[k].waiting {
                    0.0
                } else {
                    self.balls[k].inverse_mass
                }
            };
            let material = a.material.combine(b.material);
            let approach = -(va - vb).as_dvec2().dot(normal) as f32;
            // A slow (resting) contact does not bounce; it leaves at the separation bias
            // (never faster than it came).
            let e = material.restitution_at(approach);
            let resting = approach < self.settings.resting_speed || e == 0.0;
            out.push(BatchContact {
                a: i,
                b: j,
                normal,
                inverse_a: inverse(i),
                inverse_b: inverse(j),
                restitution: if resting { 0.0 } else { e },
                friction: material.friction,
                target: if resting {
                    (SEPARATION_SPEED_REL * (va.length() + vb.length())).min(approach.max(0.0))
                } else {
                    0.0
                },
                approach,
                impulse: 0.0,
            });
        }
    }

    /// Normal impulses for the batch (each contact's `impulse`), applied to the balls
    /// with restitution, then friction pair by pair. Returns the solver's passes.
    fn solve_batch(&mut self, batch: &mut [BatchContact], cluster: &[usize]) -> u32 {
        if let [c] = batch {
            self.solve_alone(c);
            return 0;
        }
        let n = batch.len();
        let (mut a, mut q, mut p) = (
            std::mem::take(&mut self.event.lcp_matrix),
            std::mem::take(&mut self.event.lcp_rhs),
            std::mem::take(&mut self.event.lcp_impulses),
        );
        a.clear();
        a.resize(n * n, 0.0);
        q.clear();
        p.clear();
        p.resize(n, 0.0);
        for (r, c) in batch.iter().enumerate() {
            for (k, d) in batch.iter().enumerate() {
                a[r * n + k] = coupling(c, d);
            }
            let (va, vb) = (self.effective_velocity(c.a), self.effective_velocity(c.b));
            q.push((va - vb).as_dvec2().dot(c.normal) - f64::from(c.target));
        }
        let mut lcp_scratch = std::mem::take(&mut self.event.lcp);
        let passes = lcp::solve(&a, &q, &mut p, &mut lcp_scratch);
        for (c, &impulse) in batch.iter_mut().zip(&p) {
            c.impulse = impulse;
        }
        // Each ball's change is the sum of its contacts' pushes, taken in an order that does
        // not depend on the contacts' (so mirror images stay mirror images to the bit).
        for &k in cluster {
            let pushes = || {
                batch.iter().filter_map(move |c| {
                    let sign = if c.a == k {
                        1.0
                    } else if c.b == k {
                        -1.0
                    } else {
                        return None;
                    };
                    Some(c.normal * (sign * c.impulse * (1.0 + f64::from(c.restitution))))
                })
            };
            let inverse = self.batch_inverse(batch, k);
            if inverse > 0.0 {
                let dx = balanced_sum(pushes().map(|d| d.x), &mut lcp_scratch);
                let dy = balanced_sum(pushes().map(|d| d.y), &mut lcp_scratch);
                let push = DVec2::new(dx, dy) * f64::from(inverse);
                self.balls[k].velocity = push_ball(self.balls[k].velocity, push);
            }
        }
        self.event.lcp = lcp_scratch;
        for c in batch.iter().filter(|c| c.impulse > 0.0 && c.friction > 0.0) {
            self.rub(c);
        }
        self.event.lcp_matrix = a;
        self.event.lcp_rhs = q;
        self.event.lcp_impulses = p;
        passes
    }

    /// [`Sim::solve_batch`] for a batch of one contact (nearly every batch), without the
    /// general solve's buffers: the same impulse ([`lcp::one`]), and each of the two balls
    /// pushed by its one term, as the general sum takes it ([`lcp::lone`]); the same
    /// numbers to the bit.
    fn solve_alone(&mut self, c: &mut BatchContact) {
        let (va, vb) = (self.effective_velocity(c.a), self.effective_velocity(c.b));
        let q = (va - vb).as_dvec2().dot(c.normal) - f64::from(c.target);
        c.impulse = lcp::one(coupling(c, c), q);
        for (k, sign, inverse) in [(c.a, 1.0, c.inverse_a), (c.b, -1.0, c.inverse_b)] {
            if inverse > 0.0 {
                let term = c.normal * (sign * c.impulse * (1.0 + f64::from(c.restitution)));
                let push = DVec2::new(lcp::lone(term.x), lcp::lone(term.y)) * f64::from(inverse);
                self.balls[k].velocity = push_ball(self.balls[k].velocity, push);
            }
        }
        if c.impulse > 0.0 && c.friction > 0.0 {
            self.rub(c);
        }
    }

    /// Coulomb friction at a pushing contact: at most `μ` times its normal impulse, never
    /// reversing the sliding.
    fn rub(&mut self, c: &BatchContact) {
        let (a, b) = self.bodies(c);
        let limit = f64::from(c.friction) * c.impulse * (1.0 + f64::from(c.restitution));
        if let Some(impulse) = pair_friction(a, b, c.normal, limit) {
            self.balls[c.a].velocity += impulse * c.inverse_a;
            self.balls[c.b].velocity -= impulse * c.inverse_b;
        }
    }

    /// The inverse mass the batch gave ball `k` (zero for a ball that cannot be pushed).
    fn batch_inverse(&self, batch: &[BatchContact], k: usize) -> f32 {
        batch
            .iter()
            .find_map(|c| {
                if c.a == k {
                    Some(c.inverse_a)
                } else if c.b == k {
                    Some(c.inverse_b)
                } else {
                    None
                }
            })
            .unwrap_or(0.0)
    }

    /// The two balls of a contact as the response sees them (their velocities for the
    /// rest of the step, their inverse masses as the batch took them).
    fn bodies(&self, c: &BatchContact) -> (Body, Body) {
        let body = |k: usize, inverse_mass: f32| Body {
            velocity: self.effective_velocity(k),
            inverse_mass,
        };
        (body(c.a, c.inverse_a), body(c.b, c.inverse_b))
    }

    /// Report a pushing contact and count it.
    fn apply_contact(
        &mut self,
        c: &BatchContact,
        time: f32,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let (a, b) = (self.balls[c.a], self.balls[c.b]);
        on_contact(&Contact {
            ball: c.a,
            with: ContactWith::Ball(c.b),
            time,
            hit: Hit {
                toi: 0.0,
                center: a.center,
                point: b.center + c.normal.as_vec2() * b.radius,
                normal: c.normal.as_vec2(),
            },
            approach_speed: c.approach,
            other_velocity: self.effective_velocity(c.b),
            sensor: false,
            kick: 0.0,
        });
        report.bounces += 1;
        for k in [c.a, c.b] {
            self.step.state[k].bounces.count += 1;
        }
    }
}
