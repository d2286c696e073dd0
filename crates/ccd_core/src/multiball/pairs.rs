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
use super::lcp::{BatchContact, LcpScratch, balanced_sum, coupling};
use super::queue::BallEvent;
use super::report::Contact;
use super::sim::Sim;
use super::state::{Pair, Retry};
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::obstacle::Obstacles;
use crate::response::{Body, limit_speed, pair_friction, push_ball};
use crate::shape::Aabb;
use crate::tolerance::{RESTING_EVENT_FRACTION, SEPARATION_SPEED_REL, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL};
use glam::DVec2;

/// The buffers of the ball–ball batches, kept between events: the events gathered at one
/// instant, the balls and links of the batch they grow into, its contacts and their
/// solve's buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct PairBuffers {
    /// The ball–ball events taken together at one instant.
    batch: Vec<Pair>,
    /// Balls whose partner changed course: predicted again after the batch.
    retry: Vec<Retry>,
    /// The batch's balls, grown by the contacts that close in at the same instant.
    cluster: Vec<usize>,
    links: Vec<Pair>,
    contacts: Vec<BatchContact>,
    solve: BatchSolve,
    /// Balls found near one (a grid query's answer).
    found: Vec<usize>,
}

/// A batch growing: its balls and its links.
struct Grown<'a> {
    cluster: &'a mut Vec<usize>,
    links: &'a mut Vec<Pair>,
}

/// The buffers of a batch's solve: its matrix, right-hand side and impulses, and the LCP's
/// own (see `lcp.rs`).
#[derive(Clone, Debug, Default)]
struct BatchSolve {
    matrix: Vec<f64>,
    rhs: Vec<f64>,
    impulses: Vec<f64>,
    lcp: LcpScratch,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `i` meets `partner.other` at `partner.time` (if the partner has not changed
    /// course since): resolve it with every other ball–ball event at the same instant.
    pub(super) fn ball_event(&mut self, i: usize, partner: BallEvent, bufs: &mut PairBuffers) {
        let (j, time) = (partner.other as usize, partner.time);
        if self.step.clock[j].version != partner.other_version {
            // The partner changed course: this ball's leg goes on; look again.
            self.advance(i, time);
            self.repredict(i);
            return;
        }
        bufs.batch.clear();
        bufs.retry.clear();
        bufs.batch.push(Pair { a: i, b: j });
        self.gather_simultaneous(time, &mut bufs.batch, &mut bufs.retry);
        self.resolve_pairs(time, bufs);
        for &Retry { ball: a, time: t } in &bufs.retry {
            if !bufs.batch.iter().any(|p| p.has(a)) {
                self.advance(a, t);
                self.repredict(a);
            }
        }
    }

    /// Take every other ball–ball event within [`SIMULTANEOUS_TIME_REL`] of the step after
    /// `time` into `batch`; a ball whose partner has changed course goes to `retry`.
    fn gather_simultaneous(&mut self, time: f32, batch: &mut Vec<Pair>, retry: &mut Vec<Retry>) {
        let window = time + SIMULTANEOUS_TIME_REL * self.dt;
        while let Some(key) = self.step.queue.peek() {
            if key.time > window {
                break;
            }
            let a = key.ball as usize;
            let Some(BallEvent {
                time: at,
                other,
                other_version,
            }) = self.step.due.ball(a)
            else {
                break;
            };
            self.step.queue.pop();
            self.step.due.take(a);
            let b = other as usize;
            if self.step.clock[b].version != other_version {
                retry.push(Retry { ball: a, time: at });
            } else if !batch.iter().any(|p| p.is(a, b)) {
                batch.push(Pair { a, b });
            }
        }
    }

    /// Resolve the batch of ball–ball contacts of `bufs` at `time` (see the module docs),
    /// report each pushing contact once, and predict every ball involved again.
    fn resolve_pairs(&mut self, time: f32, bufs: &mut PairBuffers) {
        let PairBuffers {
            batch,
            cluster,
            links,
            contacts,
            solve,
            found,
            ..
        } = bufs;
        cluster.clear();
        links.clear();
        for &Pair { a: i, b: j } in batch.iter() {
            for k in [i, j] {
                if !cluster.contains(&k) {
                    cluster.push(k);
                }
            }
            links.push(Pair { a: i, b: j });
        }
        for &k in cluster.iter() {
            self.advance(k, time);
        }
        // Contacts of these balls that close in at this same instant join the batch: a ball
        // schedules only its earliest partner, so the second of two equal contacts (a
        // symmetric break) is looked for here, around the balls whose forecast found one.
        let mut grown = 0;
        while grown < cluster.len() {
            let k = cluster[grown];
            grown += 1;
            if self.step.due.tied(k) {
                self.closing_now(k, time, Grown { cluster, links }, found);
            }
        }
        self.settle_batch(cluster, links);
        self.batch_contacts(links, contacts);
        let passes = self.solve_batch(contacts, cluster, solve);
        self.report.max_batch_passes = self.report.max_batch_passes.max(passes);
        for &k in cluster.iter() {
            let ball = &mut self.balls[k];
            ball.velocity = limit_speed(ball.velocity, ball.max_speed);
        }
        for c in contacts.iter().filter(|c| c.impulse > 0.0) {
            self.apply_contact(c, time);
        }
        self.after_batch(cluster);
    }

    /// Before a batch: a sliding ball in it settles (an impulse may turn it off its wall's
    /// line), and a ball in flight meeting a settled (or waiting) one settles first: the
    /// settled one carries the rest of the step's gravity in its velocity, and an exchange
    /// with a ball in flight would hand that on to a ball that gains it along its curve
    /// too.
    fn settle_batch(&mut self, cluster: &[usize], links: &[Pair]) {
        for &k in cluster {
            if self.step.clock[k].sliding {
                self.settle(k);
            }
        }
        for l in links {
            let flies = |k: usize| self.step.clock[k].curved && !self.step.clock[k].waiting;
            match (flies(l.a), flies(l.b)) {
                (true, false) => self.settle(l.a),
                (false, true) => self.settle(l.b),
                _ => {}
            }
        }
    }

    /// After a batch: each of its balls waits at the cap, has changed course (its box
    /// moved), and is predicted again.
    fn after_batch(&mut self, cluster: &[usize]) {
        for &k in cluster {
            let capped = self.step.state[k].bounces.capped();
            let clock = &mut self.step.clock[k];
            clock.waiting |= capped;
            clock.version = clock.version.wrapping_add(1);
            self.moved(k);
        }
        for &k in cluster {
            self.repredict(k);
        }
    }

    /// Add to `grown` every ball touching ball `k` at `time` and closing in on it, as
    /// [`predict`](Sim::predict) judges an event between touching balls.
    fn closing_now(&mut self, k: usize, time: f32, grown: Grown<'_>, found: &mut Vec<usize>) {
        let Grown { cluster, links } = grown;
        let b = self.balls[k];
        let reach =
            Aabb::new(b.center, b.center).inflated(b.radius * (1.0 + TOUCH_SLOP_REL) + self.max_radius);
        found.clear();
        self.step.grid.query_except(reach, k, |j| found.push(j));
        let floor = self.settings.resting_speed * RESTING_EVENT_FRACTION;
        for &j in found.iter() {
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
                self.advance(j, time);
                links.push(Pair { a: k, b: j });
                if !cluster.contains(&j) {
                    cluster.push(j);
                }
            }
        }
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
    fn solve_batch(&mut self, batch: &mut [BatchContact], cluster: &[usize], solve: &mut BatchSolve) -> u32 {
        if let [c] = batch {
            self.solve_alone(c);
            return 0;
        }
        let n = batch.len();
        let BatchSolve {
            matrix: a,
            rhs: q,
            impulses: p,
            lcp: lcp_scratch,
        } = solve;
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
        let passes = lcp::solve(a, q, p, lcp_scratch);
        for (c, &impulse) in batch.iter_mut().zip(p.iter()) {
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
                let dx = balanced_sum(pushes().map(|d| d.x), &mut lcp_scratch.sums);
                let dy = balanced_sum(pushes().map(|d| d.y), &mut lcp_scratch.sums);
                let push = DVec2::new(dx, dy) * f64::from(inverse);
                self.balls[k].velocity = push_ball(self.balls[k].velocity, push);
            }
        }
        for c in batch.iter().filter(|c| c.impulse > 0.0 && c.friction > 0.0) {
            self.rub(c);
        }
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
    fn apply_contact(&mut self, c: &BatchContact, time: f32) {
        let (a, b) = (self.balls[c.a], self.balls[c.b]);
        self.contacts.push(Contact {
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
        self.report.bounces += 1;
        for k in [c.a, c.b] {
            self.step.state[k].bounces.count += 1;
        }
    }
}
