//! The contacts of one instant among the event balls, solved as one contact
//! ([`crate::instant`]): the balls that meet or touch at that instant, the walls and moving
//! obstacles they touch, and the hinged bodies whose parts they touch, all rows of one
//! problem. A ball pressed between a wall and another ball, a row of touching balls struck
//! at one end, a pile against a flipper: each is one solve, with one restitution for the
//! whole contact (the least of the rows struck; rows only touching take part and do not
//! lower it).
//!
//! **Who takes part.** A contact starts from a batch of ball–ball events at one instant
//! (`pairs.rs`), or from a ball meeting a wall or a moving obstacle while it touches
//! another ball (`obstacle_contact.rs`; a ball that touches no ball is [`meet`]'s alone).
//! When it is an impact (a row of the seed approaching at the resting speed or faster), it
//! grows through every touching pair that is not leaving (closing in, or at rest with each
//! other), up to [`MAX_INSTANT_BALLS`] balls and half of [`MAX_INSTANT_ROWS`] pairs (the
//! other half is for the surfaces they touch); a contact that would pass them stops
//! growing, and the report counts it. Every wall, moving obstacle or hinged part a ball
//! of the contact touches is a row, leaving or not: the solve's rounds take it only if
//! the contact drives the ball into it.
//!
//! **When it does not fit or has no solution.** Grown, it is tried again as its seed
//! alone; a batch of ball–ball events then without its surfaces (each ball meets them as
//! events of their own, where a squeeze is handled); a ball meeting a surface is
//! [`meet`]'s alone. Every ball it moved to its instant or settled but did not solve is
//! predicted again.
//!
//! **What follows.** Each ball takes its new velocity (within its speed limit) and Coulomb
//! friction at each of its rows that pushed; each row that pushed is reported as a contact
//! and counted against its balls' bounce caps; a hinged body turns anew from the instant
//! on. Under gravity an impact is solved on the balls' velocities at its instant and the
//! rest of the step's gravity comes after it; a contact that is no impact settles its balls
//! first (`cluster/gravity.rs`). A ball in flight that comes to rest on a surface (slower
//! than the resting speed, gravity pressing it on) settles there, as
//! [`RestRule::Event`](crate::meet::RestRule::Event) says.
//!
//! **Touching.** A ball that a resting contact or a contact's finish left on a surface
//! leaves it at the separation bias: the solve takes that row as touching, not leaving
//! ([`Sim::touching_velocity`]).
//!
//! [`meet`]: crate::meet::meet

mod gravity;

use super::hinge_clocks::turn_body;
use super::report::Contact;
use super::round_pair::LandingPair;
use super::sim::Sim;
use super::state::Pair;
use crate::contact_with::ContactWith;
use crate::hinge::HingeBody;
use crate::hit::Hit;
use crate::instant::{Cluster, Row};
use crate::material::Material;
use crate::meet::{LastContact, count_contact, settling_speed};
use crate::obstacle::Obstacles;
use crate::response::{Body, contact_restitution, limit_speed, pair_friction, rested, rub_on_surface};
use crate::shape::Aabb;
use crate::tolerance::{
    HINGE_LIMIT_SLOP, MAX_INSTANT_BALLS, MAX_INSTANT_HINGES, MAX_INSTANT_ROWS, RESTING_EVENT_FRACTION,
    SEPARATION_SPEED_REL, TOUCH_SLOP_REL,
};
use glam::{DVec2, Vec2};

/// What starts a contact of one instant.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seed<'a> {
    /// Ball–ball events taken together at one instant.
    Pairs(&'a [Pair]),
    /// A ball meeting a surface while it touches another ball.
    Surface(Touching),
}

/// A ball touching a wall, a moving obstacle or a hinged part at the contact's instant.
#[derive(Clone, Copy, Debug)]
pub(super) struct Touching {
    pub(super) ball: usize,
    pub(super) with: ContactWith,
    /// The surface's point nearest the ball's centre.
    pub(super) point: Vec2,
    /// Unit, from the surface towards the ball.
    pub(super) normal: Vec2,
    /// The velocity of the surface's point (zero for a wall).
    pub(super) velocity: Vec2,
    pub(super) material: Material,
}

/// Whether a ball at rest on a surface after a contact of one instant touches nothing
/// else there: no other surface, and no other ball.
#[derive(Clone, Copy, Debug)]
pub(super) struct Alone {
    pub(super) surface: bool,
    pub(super) ball: bool,
}

/// A hinged body taking part: the body, and the index of the part that brought it in.
#[derive(Clone, Copy, Debug)]
struct TakingPart {
    body: HingeBody,
    part: usize,
}

/// What a row of the problem stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RowOf {
    /// The ball–ball contact `pairs[k]`.
    Pair(usize),
    /// The surface `surfaces[k]`.
    Surface(usize),
    /// A hinged body on its stop.
    Stop,
}

/// The buffers of one contact of one instant, kept between events.
#[derive(Clone, Debug, Default)]
pub(super) struct ClusterBuffers {
    /// Its balls, in the order they joined (their index in the problem).
    balls: Vec<usize>,
    /// Its ball–ball contacts.
    pairs: Vec<Pair>,
    /// Each pair's approach speed and materials' friction, in `pairs`' order.
    pair_facts: Vec<PairFacts>,
    /// The surfaces its balls touch, and each one's approach speed before the solve.
    surfaces: Vec<Touching>,
    approaches: Vec<f32>,
    /// The hinged bodies taking part, in the problem's order.
    bodies: Vec<TakingPart>,
    /// What each row of the problem stands for.
    rows: Vec<RowOf>,
    problem: Box<Cluster>,
    /// What the solve found: each ball's velocity, each body's spin, each row's impulse.
    velocities: Vec<DVec2>,
    spins: Vec<f64>,
    impulses: Vec<f64>,
    /// An impact's impulses, while the second solve holds the balls that rest after it.
    struck: Vec<f64>,
    /// Each ball's velocity before an impact, and the gravity it carries ahead of the
    /// impact's instant (see [`Sim::carried_gravity`]), in `balls`' order.
    carried: Vec<(Vec2, Vec2)>,
    /// The last solve's bound on a touching surface's leaving speed (see
    /// [`Sim::touching_velocity`]).
    touching: f32,
    /// Balls found near one (a grid query's answer).
    found: Vec<usize>,
    /// Every ball the contact took in before it was solved (grown or not).
    touched: Vec<usize>,
}

/// Which solve of a contact a problem is (see [`Sim::solve_under_gravity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solve {
    /// The contact itself, each row with its restitution, from the balls' velocities.
    Contact,
    /// After an impact, the rest of the step's gravity on the balls that rest: no row
    /// bounces, the hinged bodies turn at the impact's speeds, and the rows' facts (the
    /// approaches reported) stay the impact's.
    Rest,
}

impl Solve {
    /// The restitution a row of restitution `e` takes in this solve.
    fn restitution(self, e: f32) -> f32 {
        match self {
            Self::Contact => e,
            Self::Rest => 0.0,
        }
    }
}

/// A ball–ball row's facts, as the report and friction need them.
#[derive(Clone, Copy, Debug, Default)]
struct PairFacts {
    normal: DVec2,
    approach: f32,
    friction: f32,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Solve the contact of one instant that `seed` starts, at `time`, and carry it into
    /// every ball it touched (see the module docs). Returns whether it was solved; when not
    /// (a ball meeting a surface whose rows contradict: a squeeze), nothing changed.
    pub(super) fn resolve_instant(&mut self, time: f32, seed: Seed<'_>, bufs: &mut ClusterBuffers) -> bool {
        self.start_cluster(time, seed, bufs);
        let seeded = bufs.balls.len();
        let impact = self.is_impact(seed);
        if impact {
            self.grow_cluster(time, bufs);
        }
        bufs.touched.clear();
        bufs.touched.extend_from_slice(&bufs.balls);
        self.gather_surfaces(time, seed, bufs);
        let mut solved = self.solve_under_gravity(time, impact, bufs);
        if !solved && bufs.balls.len() > seeded {
            // Too big to fit, or no solution with the balls it grew to: the seed alone.
            self.start_cluster(time, seed, bufs);
            self.gather_surfaces(time, seed, bufs);
            solved = self.solve_under_gravity(time, impact, bufs);
        }
        if !solved && matches!(seed, Seed::Pairs(_)) {
            bufs.surfaces.clear();
            bufs.bodies.clear();
            solved = self.solve_under_gravity(time, impact, bufs);
        }
        if solved {
            self.carry_cluster(time, bufs);
        }
        self.forget_unsolved(seed, solved, bufs);
        solved
    }

    /// The balls the contact moved to its instant or settled but did not solve (all of
    /// them when it failed, but the seed's ball meeting a surface, which [`meet`] takes
    /// on): their course may have changed, so they are predicted again.
    fn forget_unsolved(&mut self, seed: Seed<'_>, solved: bool, bufs: &ClusterBuffers) {
        for &k in &bufs.touched {
            let kept = solved && bufs.balls.contains(&k);
            let met = matches!(seed, Seed::Surface(t) if t.ball == k);
            if !kept && !met {
                let clock = &mut self.step.clock[k];
                clock.version = clock.version.wrapping_add(1);
                self.moved(k);
                self.repredict(k);
            }
        }
    }

    /// The seed's balls (moved to `time`) and contacts.
    fn start_cluster(&mut self, time: f32, seed: Seed<'_>, bufs: &mut ClusterBuffers) {
        bufs.balls.clear();
        bufs.pairs.clear();
        bufs.surfaces.clear();
        bufs.bodies.clear();
        match seed {
            Seed::Pairs(pairs) => {
                for &p in pairs {
                    for k in [p.a, p.b] {
                        if !bufs.balls.contains(&k) {
                            bufs.balls.push(k);
                        }
                    }
                    bufs.pairs.push(p);
                }
            }
            Seed::Surface(t) => bufs.balls.push(t.ball),
        }
        for &k in &bufs.balls {
            self.advance(k, time);
        }
    }

    /// Whether `seed` strikes: a surface or a pair of it approaching at the resting speed
    /// or faster. Only an impact spreads through the balls touching it; slower contacts
    /// are resting ones, which the resting solve holds together (`resting.rs`).
    fn is_impact(&self, seed: Seed<'_>) -> bool {
        let resting = self.settings.resting_speed;
        match seed {
            Seed::Surface(t) => -(self.effective_velocity(t.ball) - t.velocity).dot(t.normal) >= resting,
            Seed::Pairs(pairs) => pairs.iter().any(|p| {
                let offset = self.balls[p.a].center - self.balls[p.b].center;
                let relative = self.effective_velocity(p.a) - self.effective_velocity(p.b);
                offset
                    .try_normalize()
                    .is_some_and(|n| -relative.dot(n) >= resting)
            }),
        }
    }

    /// Grow the contact through every touching pair of balls that is not leaving, breadth
    /// first, up to the caps.
    fn grow_cluster(&mut self, time: f32, bufs: &mut ClusterBuffers) {
        let mut next = 0;
        while next < bufs.balls.len() {
            let k = bufs.balls[next];
            next += 1;
            let b = self.balls[k];
            let reach =
                Aabb::new(b.center, b.center).inflated(b.radius * (1.0 + TOUCH_SLOP_REL) + self.max_radius);
            bufs.found.clear();
            let found = &mut bufs.found;
            self.step.grid.query_except(reach, k, |j| found.push(j));
            for n in 0..bufs.found.len() {
                let j = bufs.found[n];
                if bufs.pairs.iter().any(|p| p.is(k, j)) || !self.touches_now(k, j, time, false) {
                    continue;
                }
                if bufs.pairs.len() >= MAX_INSTANT_ROWS / 2
                    || (!bufs.balls.contains(&j) && bufs.balls.len() >= MAX_INSTANT_BALLS)
                {
                    self.report.instant_caps += 1;
                    return;
                }
                if !bufs.balls.contains(&j) {
                    self.advance(j, time);
                    bufs.balls.push(j);
                }
                bufs.pairs.push(Pair { a: k, b: j });
            }
        }
    }

    /// Whether ball `i` (at `time` already) touches another ball at `time` that it is not
    /// leaving (always `false` with ball–ball off).
    pub(super) fn touches_a_ball(&self, i: usize, time: f32, bufs: &mut ClusterBuffers) -> bool {
        self.any_ball_touching(i, time, bufs, false)
    }

    /// Whether ball `i` (at `time` already) touches another ball at `time`, whichever way
    /// the two move (leaving each other too).
    pub(super) fn beside_a_ball(&self, i: usize, time: f32, bufs: &mut ClusterBuffers) -> bool {
        self.any_ball_touching(i, time, bufs, true)
    }

    /// Whether ball `i` touches another ball at `time` ([`Sim::touches_now`]).
    fn any_ball_touching(&self, i: usize, time: f32, bufs: &mut ClusterBuffers, leaving: bool) -> bool {
        if !self.settings.ball_ball {
            return false;
        }
        let b = self.balls[i];
        let reach =
            Aabb::new(b.center, b.center).inflated(b.radius * (1.0 + TOUCH_SLOP_REL) + self.max_radius);
        bufs.found.clear();
        let found = &mut bufs.found;
        self.step.grid.query_except(reach, i, |j| found.push(j));
        bufs.found.iter().any(|&j| self.touches_now(i, j, time, leaving))
    }

    /// Whether balls `k` (at `time` already) and `j` touch at `time` and are not leaving
    /// each other (closing in, or at rest with each other), or also `leaving`.
    fn touches_now(&self, k: usize, j: usize, time: f32, leaving: bool) -> bool {
        let (a, o) = (self.balls[k], self.balls[j]);
        if !a.layers.interacts(o.layers) || !self.step.clock[j].valid {
            return false;
        }
        let offset = a.center - self.center_at(j, time);
        let Some(n) = offset.try_normalize() else {
            return false;
        };
        let apart = (self.velocity_at(k, time) - self.velocity_at(j, time)).dot(n);
        offset.length() <= (a.radius + o.radius) * (1.0 + TOUCH_SLOP_REL) && (leaving || apart <= 0.0)
    }

    /// Every wall, moving obstacle and hinged part the contact's balls touch at `time`
    /// (the seed's surface first), and the hinged bodies they bring.
    fn gather_surfaces(&mut self, time: f32, seed: Seed<'_>, bufs: &mut ClusterBuffers) {
        if let Seed::Surface(t) = seed {
            bufs.surfaces.push(t);
        }
        for n in 0..bufs.balls.len() {
            let k = bufs.balls[n];
            let start = bufs.surfaces.len();
            self.surfaces_touching(k, time, |t| {
                let known = bufs.surfaces[..start]
                    .iter()
                    .any(|s| s.ball == k && s.with == t.with)
                    || bufs.surfaces[start..].iter().any(|s| s.with == t.with);
                if !known {
                    bufs.surfaces.push(t);
                }
            });
        }
        for s in &bufs.surfaces {
            if let Some(body) = self.pushable(s.with)
                && let ContactWith::Moving(part) = s.with
                && !bufs.bodies.iter().any(|b| b.body.id == body.id)
                && bufs.bodies.len() < MAX_INSTANT_HINGES
            {
                bufs.bodies.push(TakingPart { body, part });
            }
        }
    }

    /// Calls `visit` with every surface ball `k` touches at `time`.
    fn surfaces_touching(&self, k: usize, time: f32, mut visit: impl FnMut(Touching)) {
        let b = self.balls[k];
        let reach = b.radius * (1.0 + TOUCH_SLOP_REL);
        let near = Aabb::new(b.center, b.center).inflated(reach);
        self.surfaces_near(near, time, b.center, true, |with, obstacle, velocity| {
            if obstacle.sensor || !b.layers.interacts(obstacle.layers) {
                return;
            }
            let Some((point, normal)) = obstacle.closest_to(b.center) else {
                return;
            };
            if (b.center - point).length() <= reach && obstacle.takes_contact(point, normal) {
                visit(Touching {
                    ball: k,
                    with,
                    point,
                    normal,
                    velocity,
                    material: obstacle.material,
                });
            }
        });
    }

    /// Build the contact's problem and solve it; `false` when it has no solution or does
    /// not fit.
    fn solve_cluster(&mut self, time: f32, solve: Solve, bufs: &mut ClusterBuffers) -> bool {
        let ClusterBuffers {
            balls,
            pairs,
            pair_facts,
            surfaces,
            approaches,
            bodies,
            rows,
            problem,
            velocities,
            spins,
            impulses,
            touching,
            ..
        } = &mut *bufs;
        problem.clear();
        rows.clear();
        let facts_kept = solve == Solve::Rest;
        if !facts_kept {
            pair_facts.clear();
            approaches.clear();
        }
        let Some(bound) = self.unknowns((balls, surfaces), (bodies, spins), solve, problem) else {
            return false;
        };
        *touching = bound;
        let index = |k: usize| balls.iter().position(|&b| b == k);
        for (n, p) in pairs.iter().enumerate() {
            let (Some(a), Some(b)) = (index(p.a), index(p.b)) else {
                return false;
            };
            let (row, facts) = self.pair_row(*p, [a, b], solve);
            if !facts_kept {
                pair_facts.push(facts);
            }
            if !problem.push(row) {
                return false;
            }
            rows.push(RowOf::Pair(n));
        }
        for (n, s) in surfaces.iter().enumerate() {
            let Some(a) = index(s.ball) else {
                return false;
            };
            let (row, approach) = self.surface_row(s, a, time, (bodies, solve));
            if !facts_kept {
                approaches.push(approach);
            }
            if !problem.push(row) {
                return false;
            }
            rows.push(RowOf::Surface(n));
        }
        if !self.stop_rows(time, (bodies, solve), problem, rows) {
            return false;
        }
        let Some(out) = problem.solve() else {
            return false;
        };
        self.report.max_batch_passes = self.report.max_batch_passes.max(out.passes);
        velocities.clear();
        velocities.extend_from_slice(out.velocities);
        spins.clear();
        spins.extend_from_slice(out.spins);
        impulses.clear();
        impulses.extend_from_slice(out.impulses);
        true
    }

    /// The problem's unknowns: each of `balls`' velocity (a waiting ball's, which nothing
    /// can push, with no inverse mass), and each of `bodies`' spin (after an impact, the
    /// impact's `spins`). Returns the bound on a touching surface's leaving speed
    /// ([`Sim::touching_velocity`]); `None` when the problem is full.
    fn unknowns(
        &self,
        (balls, surfaces): (&[usize], &[Touching]),
        (bodies, spins): (&[TakingPart], &[f64]),
        solve: Solve,
        problem: &mut Cluster,
    ) -> Option<f32> {
        // (With no surface, no row is a surface's to be touching.)
        let fastest = if surfaces.is_empty() {
            0.0
        } else {
            balls
                .iter()
                .map(|&k| self.effective_velocity(k).length())
                .fold(0.0, f32::max)
        };
        let touching = 2.0 * SEPARATION_SPEED_REL * fastest;
        for &k in balls {
            let inverse = if self.step.clock[k].waiting {
                0.0
            } else {
                self.balls[k].inverse_mass
            };
            let velocity = self.touching_velocity(k, surfaces, touching);
            problem.ball(velocity, f64::from(inverse))?;
        }
        for (h, b) in bodies.iter().enumerate() {
            let spin = match solve {
                Solve::Contact => f64::from(self.moving[b.part].angular_velocity(self.dt)),
                Solve::Rest => spins[h],
            };
            problem.hinge(spin, f64::from(b.body.inverse_inertia))?;
        }
        Some(touching)
    }

    /// Ball `k`'s velocity for the solve, in f64: of each surface it touches and leaves
    /// no faster than `touching` (the separation bias a resting contact or a contact's
    /// finish left it at, [`SEPARATION_SPEED_REL`] of its speed then: twice that of the
    /// contact's fastest ball), that speed is taken out, and the solve takes the row as
    /// touching, as it is. Left leaving, the rounds struck the row only once the others
    /// drove the ball in: a ball sliding on a face, struck through another, bounced off
    /// the face as off a wall met an instant later. Left as the row's target, the impulse
    /// that kept it made energy (4e-5 of a ball's dropped onto a sliding one). The
    /// solve's finish gives the bias back.
    fn touching_velocity(&self, k: usize, surfaces: &[Touching], touching: f32) -> DVec2 {
        let mut v = self.effective_velocity(k).as_dvec2();
        for s in surfaces.iter().filter(|s| s.ball == k) {
            let normal = s.normal.as_dvec2();
            let leaving = (v - s.velocity.as_dvec2()).dot(normal);
            if leaving > 0.0 && leaving <= f64::from(touching) {
                v -= normal * leaving;
            }
        }
        v
    }

    /// The row of ball–ball contact `p` (its balls `a` and `b` in the problem), and its
    /// facts: a slow (resting) contact does not bounce, and leaves at the separation bias
    /// (never faster than it came).
    fn pair_row(&self, p: Pair, [a, b]: [usize; 2], solve: Solve) -> (Row, PairFacts) {
        let (ba, bb) = (self.balls[p.a], self.balls[p.b]);
        let (va, vb) = (self.effective_velocity(p.a), self.effective_velocity(p.b));
        // In f64, renormalised: an f32 unit vector is off by up to 1e-7 in length, and that
        // error would change every elastic contact's energy in the same direction.
        let normal = (ba.center.as_dvec2() - bb.center.as_dvec2())
            .try_normalize()
            .or_else(|| (vb - va).as_dvec2().try_normalize())
            .unwrap_or(DVec2::X);
        let material = ba.material.combine(bb.material);
        let approach = -(va - vb).as_dvec2().dot(normal) as f32;
        let e = row_restitution(material, approach, self.settings.resting_speed);
        let resting = (0.0..self.settings.resting_speed).contains(&approach) || solve.restitution(e) == 0.0;
        let mut row = Row::pair(a, b, normal).with_restitution(if resting { 0.0 } else { e });
        if resting {
            let target = (SEPARATION_SPEED_REL * (va.length() + vb.length())).min(approach.max(0.0));
            row = row.with_target(f64::from(target));
        }
        let facts = PairFacts {
            normal,
            approach,
            friction: material.friction,
        };
        (row, facts)
    }

    /// The row of surface `s` (its ball `a` in the problem) at `time`, a hinged part's when
    /// it is one of `bodies`', for `solve`; and its approach speed.
    fn surface_row(
        &self,
        s: &Touching,
        a: usize,
        time: f32,
        (bodies, solve): (&[TakingPart], Solve),
    ) -> (Row, f32) {
        let ball = self.balls[s.ball];
        let combined = ball.material.combine(s.material);
        let approach = -(self.effective_velocity(s.ball) - s.velocity).dot(s.normal);
        let e = row_restitution(combined, approach, self.settings.resting_speed);
        let normal = s.normal.as_dvec2();
        let hinge = self
            .pushable(s.with)
            .and_then(|body| bodies.iter().position(|b| b.body.id == body.id));
        let row = match (hinge, s.with) {
            (Some(h), ContactWith::Moving(index)) => {
                let m = self.moving[index];
                let from = time / self.dt;
                let arm = s.point - m.motion.pivot_at(from);
                let pivot_velocity = m.motion.pivot_motion / self.dt;
                Row::hinged(a, normal, arm.as_dvec2(), pivot_velocity.as_dvec2(), h)
            }
            _ => Row::surface(a, normal, s.velocity.as_dvec2()),
        };
        (row.with_restitution(solve.restitution(e)), approach)
    }

    /// A row for each hinged body of `bodies` resting on a stop at `time`; `false` when the
    /// problem is full.
    fn stop_rows(
        &self,
        time: f32,
        (bodies, solve): (&[TakingPart], Solve),
        problem: &mut Cluster,
        rows: &mut Vec<RowOf>,
    ) -> bool {
        let from = time / self.dt;
        for (h, b) in bodies.iter().enumerate() {
            let Some(limits) = b.body.limits else { continue };
            let m = self.moving[b.part];
            let angle = m.angle_at(from);
            // A body arriving slower than the stop's resting speed does not bounce off it.
            let arriving = m.angular_velocity(self.dt).abs();
            let e = if arriving >= limits.resting_speed {
                limits.restitution
            } else {
                0.0
            };
            for (toward, on) in [
                (1.0, angle <= limits.min + HINGE_LIMIT_SLOP),
                (-1.0, angle >= limits.max - HINGE_LIMIT_SLOP),
            ] {
                if on {
                    if !problem.push(Row::stop(toward, h).with_restitution(solve.restitution(e))) {
                        return false;
                    }
                    rows.push(RowOf::Stop);
                }
            }
        }
        true
    }

    /// Carry the solved contact into its balls and bodies: velocities, friction, the speed
    /// limit, the hinged bodies' new turn, the contacts reported and counted, rest under
    /// gravity, and every ball (and the balls near a turned body) predicted again.
    fn carry_cluster(&mut self, time: f32, bufs: &mut ClusterBuffers) {
        for (n, &k) in bufs.balls.iter().enumerate() {
            let v = bufs.velocities[n].as_vec2();
            if v.is_finite() && !self.step.clock[k].waiting {
                self.balls[k].velocity = v;
            }
        }
        self.rub_cluster(bufs);
        self.keep_off_surfaces(bufs);
        for &k in &bufs.balls {
            let ball = &mut self.balls[k];
            ball.velocity = limit_speed(ball.velocity, ball.max_speed);
            if self.step.clock[k].sliding {
                self.pull_again(k);
            }
        }
        let mut turned: Option<Aabb> = None;
        for (h, b) in bufs.bodies.iter().enumerate() {
            self.carry_riders(b.part, time);
            let spin = bufs.spins[h] as f32;
            let from = time / self.dt;
            if let Some(near) = turn_body(self.moving, self.hinges, b.body.id, from, spin * self.dt, 0.0) {
                turned = Some(turned.map_or(near, |t| t.union(near)));
            }
        }
        let landing = self.landing_pair(bufs);
        self.report_cluster(time, bufs);
        if let Some(landing) = landing {
            self.ride_landed(landing);
        }
        if turned.is_some() {
            self.report.hinge_impacts += 1;
        }
        for &k in &bufs.balls {
            let clock = &mut self.step.clock[k];
            clock.version = clock.version.wrapping_add(1);
            clock.time = clock.time.max(time);
            self.moved(k);
        }
        for &k in &bufs.balls {
            self.repredict(k);
        }
        if let Some(near) = turned {
            self.repredict_near(near, time, None);
        }
    }

    /// Coulomb friction at every row that pushed: between two balls (`pair_friction`), and
    /// between a ball and a surface, at most μ times the row's impulse.
    fn rub_cluster(&mut self, bufs: &ClusterBuffers) {
        for (r, row) in bufs.rows.iter().enumerate() {
            let impulse = bufs.impulses[r];
            if !(impulse > 0.0) {
                continue;
            }
            match *row {
                RowOf::Pair(n) => {
                    let (p, facts) = (bufs.pairs[n], bufs.pair_facts[n]);
                    if facts.friction > 0.0 {
                        self.rub_pair(p, facts, impulse);
                    }
                }
                RowOf::Surface(n) => {
                    let s = bufs.surfaces[n];
                    let ball = self.balls[s.ball];
                    let mu = ball.material.combine(s.material).friction;
                    if mu > 0.0 && !self.step.clock[s.ball].waiting {
                        let loss = mu * impulse as f32 * ball.inverse_mass;
                        let relative = rub_on_surface(ball.velocity - s.velocity, s.normal, loss);
                        self.balls[s.ball].velocity = relative + s.velocity;
                    }
                }
                RowOf::Stop => {}
            }
        }
    }

    /// A ball whose velocity friction changed after the solve (`rub_cluster`, row by row)
    /// is kept from moving into the surfaces of the contact it touches: friction at one row
    /// turns its velocity, and the turn may have a part into another (a ball struck from
    /// above onto one sliding down a rough slope: the two balls' friction, across their
    /// near-vertical normal, took its speed along the level, and so drove it into the
    /// slope; it met the slope again at once and bounced off it, 6.5e-2 off the slope at
    /// 30 Hz). That part is taken away, as a resting contact takes it (friction does no
    /// work into a surface).
    fn keep_off_surfaces(&mut self, bufs: &ClusterBuffers) {
        for s in &bufs.surfaces {
            let n = bufs.balls.iter().position(|&k| k == s.ball);
            let Some(solved) = n.map(|n| bufs.velocities[n].as_vec2()) else {
                continue;
            };
            let ball = &mut self.balls[s.ball];
            let relative = ball.velocity - s.velocity;
            if ball.velocity != solved && relative.dot(s.normal) < 0.0 {
                ball.velocity = rested(relative, s.normal) + s.velocity;
            }
        }
    }

    /// The contact's two balls, if they may come to rest together on one round part (see
    /// [`Sim::ride_landed`]): two balls in flight, touching each other with no friction
    /// between them and no relative motion along their normal left (the contact stopped
    /// it, or it was a rounding's), and each one surface, of the same wall. Their
    /// velocities are the contact's, before the rest of the step's gravity that their
    /// settling would add.
    fn landing_pair(&self, bufs: &ClusterBuffers) -> Option<LandingPair> {
        let ([a, b], [p], [s, t], [facts]) = (
            bufs.balls.as_slice(),
            bufs.pairs.as_slice(),
            bufs.surfaces.as_slice(),
            bufs.pair_facts.as_slice(),
        ) else {
            return None;
        };
        let (a, b) = (*a, *b);
        let ContactWith::Obstacle(obstacle) = s.with else {
            return None;
        };
        let floor = self.settings.resting_speed * RESTING_EVENT_FRACTION;
        let relative = (self.balls[a].velocity - self.balls[b].velocity).dot(facts.normal.as_vec2());
        let one_each = (s.ball == a && t.ball == b) || (s.ball == b && t.ball == a);
        let flying = self.step.clock[a].curved && self.step.clock[b].curved;
        (p.is(a, b)
            && one_each
            && t.with == s.with
            && flying
            && facts.friction == 0.0
            && relative.abs() <= floor)
            .then(|| LandingPair {
                balls: [a, b],
                velocities: [self.balls[a].velocity, self.balls[b].velocity],
                obstacle,
                material: s.material,
            })
    }

    /// Coulomb friction between the balls of `p`, at most μ times `impulse`.
    fn rub_pair(&mut self, p: Pair, facts: PairFacts, impulse: f64) {
        let inverse = |k: usize| {
            if self.step.clock[k].waiting {
                0.0
            } else {
                self.balls[k].inverse_mass
            }
        };
        let body = |k: usize| Body {
            velocity: self.effective_velocity(k),
            inverse_mass: inverse(k),
        };
        let limit = f64::from(facts.friction) * impulse;
        if let Some(j) = pair_friction(body(p.a), body(p.b), facts.normal, limit) {
            let (ia, ib) = (inverse(p.a), inverse(p.b));
            self.balls[p.a].velocity += j * ia;
            self.balls[p.b].velocity -= j * ib;
        }
    }

    /// Report every row that pushed as a contact, count it against its balls' caps (a
    /// ball at its cap waits), and let a ball in flight that came to rest on a surface
    /// settle there.
    fn report_cluster(&mut self, time: f32, bufs: &ClusterBuffers) {
        for (r, row) in bufs.rows.iter().enumerate() {
            if !(bufs.impulses[r] > 0.0) {
                continue;
            }
            match *row {
                RowOf::Pair(n) => self.report_pair(bufs.pairs[n], bufs.pair_facts[n], time),
                RowOf::Surface(n) => {
                    let s = &bufs.surfaces[n];
                    let alone = Alone {
                        surface: bufs.surfaces.iter().filter(|o| o.ball == s.ball).count() == 1,
                        ball: !bufs.pairs.iter().any(|p| p.has(s.ball)),
                    };
                    self.report_surface(s, bufs.approaches[n], time, alone);
                }
                RowOf::Stop => {}
            }
        }
        for &k in &bufs.balls {
            if self.step.state[k].bounces.capped() {
                self.step.clock[k].waiting = true;
            }
        }
    }

    /// Report ball–ball contact `p` and count it.
    fn report_pair(&mut self, p: Pair, facts: PairFacts, time: f32) {
        let (a, b) = (self.balls[p.a], self.balls[p.b]);
        let normal = facts.normal.as_vec2();
        self.contacts.push(Contact {
            ball: p.a,
            with: ContactWith::Ball(p.b),
            time,
            hit: Hit {
                toi: 0.0,
                center: a.center,
                point: b.center + normal * b.radius,
                normal,
            },
            approach_speed: facts.approach,
            other_velocity: self.effective_velocity(p.b),
            sensor: false,
            kick: 0.0,
        });
        self.report.bounces += 1;
        for k in [p.a, p.b] {
            self.step.state[k].bounces.count += 1;
        }
    }

    /// Report the contact of a ball with surface `s`, count it (a corner raises the cap,
    /// as [`meet`](crate::meet::meet) counts it), and bring a ball in flight that came to
    /// rest there under gravity to rest (`alone`: what else it touches;
    /// [`Sim::come_to_rest`]).
    fn report_surface(&mut self, s: &Touching, approach: f32, time: f32, alone: Alone) {
        let k = s.ball;
        let ball = self.balls[k];
        self.contacts.push(Contact {
            ball: k,
            with: s.with,
            time,
            hit: Hit {
                toi: 0.0,
                center: ball.center,
                point: s.point,
                normal: s.normal,
            },
            approach_speed: approach,
            other_velocity: s.velocity,
            sensor: false,
            kick: 0.0,
        });
        self.report.bounces += 1;
        let combined = ball.material.combine(s.material);
        let this = LastContact {
            with: s.with,
            normal: s.normal,
            surface_velocity: s.velocity,
            restitution: contact_restitution(combined, approach, self.settings.resting_speed),
            time,
        };
        count_contact(&mut self.step.state[k].bounces, this);
        let g = self.gravity_of(k);
        let pressing = -g.dot(s.normal);
        let settling = settling_speed(pressing, ball.radius);
        if self.step.clock[k].curved && pressing > 0.0 && approach < self.settings.resting_speed.max(settling)
        {
            self.come_to_rest(k, s, alone);
        }
    }
}

/// The restitution of a row of `material` that approaches at `approach` before the solve:
/// a resting contact's 0 (slower than `resting_speed`, as [`contact_restitution`] says),
/// else the material's at that speed. A row leaving before the solve is struck only if
/// the contact's impulses drive it in, in a later round: it bounces with the material's
/// restitution then (as it would meeting the surface an instant later), not a resting
/// contact's 0, which would take that round's energy away.
fn row_restitution(material: Material, approach: f32, resting_speed: f32) -> f32 {
    if approach < 0.0 {
        material.restitution_at(0.0)
    } else {
        contact_restitution(material, approach, resting_speed)
    }
}
