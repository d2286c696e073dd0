//! The contacts of one instant, solved as one contact with restitution: balls against each
//! other, against walls and kinematic parts, against the parts of hinged bodies, and hinged
//! bodies against their stops, all at once. It generalises `simultaneous.rs` (one ball) to
//! many balls, and `multiball/lcp.rs` (ball–ball only) to every kind of row.
//!
//! **The unknowns** ([`Bodies`]) are the velocity of each ball taking part, with its inverse
//! mass (0 for a ball nothing can push), and the angular velocity of each hinged body, with
//! its inverse moment of inertia (0 for a body held fast).
//!
//! **The rows** ([`Row`]) are the speeds that must not end negative, each linear in the
//! unknowns:
//! - two balls `a`, `b`, unit normal `n` from `b` to `a`: `n·(v_a − v_b)` ([`Row::pair`]);
//! - a ball and a wall, or a kinematic part whose point under the ball moves at `u`:
//!   `n·v_a − n·u` ([`Row::surface`]);
//! - a ball and a part of hinged body `h`: `n·v_a + s·ω_h − n·u_pivot` with
//!   `s = −(arm × n)` ([`Row::hinged`]);
//! - a hinged body on a stop: `σ·ω_h`, `σ = ±1` ([`Row::stop`]).
//!
//! Each row has its own restitution (the combined material's at its approach; 0 for a
//! resting contact) and a target, the speed it is to leave at instead of zero (a resting
//! contact's separation speed; 0 for a bounce): the row's speed `c` counts as `c − target`.
//!
//! **Compression.** Impulses `x ≥ 0` along the rows change the speeds to `w = c + K·x`, with
//! `K = J·M⁻¹·Jᵀ`. The compression impulses are the `x` with `w ≥ 0` and `x·w = 0`: every
//! approach stopped, and only the rows that must push do (a linear complementarity problem).
//! Up to [`MAX_EXACT_ROWS`] rows it is solved exactly, every active set tried, fewest rows
//! first, as `simultaneous.rs` does (the same impulses to the bit; see the balanced sums
//! below for the velocities' last bit). Above that, by
//! projected Jacobi as `multiball/lcp.rs` does, every sum taken with [`balanced_sum`], so
//! the result does not depend on the order of the rows and mirror images stay mirror images
//! to the bit; [`Solved::passes`] counts the passes (a solve that reaches
//! [`MAX_SIMULTANEOUS_PASSES`] counts the cap). Each unknown's change is likewise the
//! balanced sum of its rows' pushes, per component: `v + (p₁ + p₂)` where `simultaneous.rs`
//! adds them one by one, `(v + p₁) + p₂`, so a component that takes two pushes in a round
//! may differ from it in the last bit (32 of the 514 one-ball cases compared in the tests).
//!
//! **Restitution**, by Poisson's hypothesis with one `e` for the whole contact: the impulses
//! applied are `(1 + e)·x`, `e` the least restitution of the rows approaching (speed below
//! `−tolerance`). With no target, the energy changes by `x·c·(1 + e)(1 − e)/2 ≤ 0` (since
//! `x·K·x = −x·c`): kept at `e = 1`, lost below, never made.
//!
//! **Why touching rows take part.** A row touching but not approaching (a ball resting in a
//! row of others, the wall that row leans on, a hinge on its stop) must push if the other
//! rows' impulses would drive it in; left out, the impulse would pass through it. It does
//! not lower `e`: it is not struck, and its own restitution (0 for a resting contact) says
//! nothing about the bounce of the contact that is.
//!
//! **The order of work** ([`Problem::solve`]):
//! 1. the input is checked: anything not finite, or a row naming a missing unknown, gives
//!    `None`;
//! 2. rounds: the rows at speed ≤ tolerance take part (the tolerance is
//!    [`SIMULTANEOUS_SOLVE_TOLERANCE_REL`] of the largest first speed); their compression
//!    impulses are applied with `(1 + e)`; another round follows while some row approaches
//!    (a row that was leaving can be approached by the outcome: a ball meeting one wall of a
//!    narrow V while touching the other goes round by round as its reflections would, in no
//!    time). After [`MAX_SIMULTANEOUS_ROUNDS`] rounds a last, inelastic round over every row
//!    ends it ([`Solved::capped`]);
//! 3. the finish: a ball stopped dead against still walls is at rest, exactly; a ball that
//!    ends on a surface (a wall, a kinematic or hinged part) leaves it at least at
//!    [`SEPARATION_SPEED_REL`] of its speed, as `simultaneous.rs` leaves it; a ball–ball
//!    row gets no bias beyond its target.
//!
//! **A free cradle.** Balls that touch are ONE contact: four touching balls in a row, the
//! first struck at `v` with `e = 1`, leave at `(−v/2, v/2, v/2, v/2)`, which keeps both
//! momentum and energy (the textbook `(0, 0, 0, v)` is another answer that keeps both; one
//! contact with one `e` gives this one). A real cradle's balls are never quite touching: with
//! gaps the impact passes ball by ball, each a separate instant, and the last ball leaves.
//!
//! **No solution.** Two surfaces closing in across a ball that neither can push away (two
//! kinematic parts, or one and a wall) leave no velocity that moves into neither: the solve
//! returns `None`, and the caller squeezes the ball. Up to [`MAX_EXACT_ROWS`] rows no
//! active set solves it. Above, it shows in the Jacobi solve: it settles on impulses that
//! leave a row approaching (a row nothing can push), or its impulses grow without end, so
//! it stops at [`MAX_SIMULTANEOUS_PASSES`] and the next round starts with an approach no
//! smaller than the last one's. A solvable problem so slow to converge that a whole capped
//! round does not lessen its approach would be taken for one with no solution.
//!
//! **Jacobi's pace.** Projected Jacobi is slow on a chain of touching balls (the damping of
//! Gershgorin's bound is 1/2, and the chain's matrix is ill-conditioned): five balls in a
//! row against a wall need about 1,070 passes to converge, a free row of five about 270. A
//! round stopped at the cap applies restitution to the compression found so far, and the
//! rounds go on from what is left; the result is then only as good as the passes allowed
//! (see the test `a_longer_chain_reports_the_passes_it_took`).

use crate::tolerance::{
    CONTACT_SOLVE_TOLERANCE, MAX_SIMULTANEOUS_PASSES, MAX_SIMULTANEOUS_ROUNDS, SEPARATION_SPEED_REL,
    SIMULTANEOUS_SOLVE_TOLERANCE_REL,
};
use glam::DVec2;

/// The most rows solved exactly, by trying every active set (`2^4` small solves); more are
/// solved by projected Jacobi iteration.
pub(crate) const MAX_EXACT_ROWS: usize = 4;

/// A ball among the unknowns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct BallUnknown {
    /// Its velocity before the contact.
    pub(crate) velocity: DVec2,
    /// `1/m`; 0 for a ball nothing can push.
    pub(crate) inverse_mass: f64,
}

/// A hinged body among the unknowns.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct HingeUnknown {
    /// Its angular velocity before the contact (counter-clockwise positive).
    pub(crate) spin: f64,
    /// `1/I` about its pivot; 0 for a body held fast.
    pub(crate) inverse_inertia: f64,
}

/// The unknowns of the contact: the balls and the hinged bodies, by index.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Bodies {
    /// The balls, as [`Bodies::ball`] numbered them.
    pub(crate) balls: Vec<BallUnknown>,
    /// The hinged bodies, as [`Bodies::hinge`] numbered them.
    pub(crate) hinges: Vec<HingeUnknown>,
}

impl Bodies {
    /// Add a ball; returns its index for the rows.
    pub(crate) fn ball(&mut self, velocity: DVec2, inverse_mass: f64) -> usize {
        self.balls.push(BallUnknown {
            velocity,
            inverse_mass,
        });
        self.balls.len() - 1
    }

    /// Add a hinged body; returns its index for the rows.
    pub(crate) fn hinge(&mut self, spin: f64, inverse_inertia: f64) -> usize {
        self.hinges.push(HingeUnknown {
            spin,
            inverse_inertia,
        });
        self.hinges.len() - 1
    }

    /// No unknowns, the buffers kept.
    pub(crate) fn clear(&mut self) {
        self.balls.clear();
        self.hinges.clear();
    }

    /// Every value finite and every inverse mass and inertia non-negative.
    fn valid(&self) -> bool {
        let ball =
            |b: &BallUnknown| b.velocity.is_finite() && b.inverse_mass.is_finite() && b.inverse_mass >= 0.0;
        let hinge = |h: &HingeUnknown| {
            h.spin.is_finite() && h.inverse_inertia.is_finite() && h.inverse_inertia >= 0.0
        };
        self.balls.iter().all(ball) && self.hinges.iter().all(hinge)
    }
}

/// One speed of the contact that must not end below its target:
/// `n·v_first − n·v_second + spin·ω_hinge + bias`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Row {
    /// The ball read along `+normal` (none for a stop).
    first: Option<usize>,
    /// The ball read along `−normal` (ball–ball rows only).
    second: Option<usize>,
    /// Unit, from the second ball or the surface towards the first ball (zero for a stop).
    normal: DVec2,
    /// The hinged body the row reads, with coefficient `spin`.
    hinge: Option<usize>,
    /// The coefficient of the hinged body's angular velocity.
    spin: f64,
    /// The part that does not change: minus the surface's own speed along the normal.
    bias: f64,
    /// The restitution of this row when it is approached (0 to 1 as the materials give it).
    restitution: f64,
    /// The speed the row is to leave at instead of zero (≥ 0).
    target: f64,
}

impl Row {
    /// A row of `first` along `normal`, nothing else yet.
    fn new(first: Option<usize>, normal: DVec2) -> Self {
        Self {
            first,
            second: None,
            normal,
            hinge: None,
            spin: 0.0,
            bias: 0.0,
            restitution: 0.0,
            target: 0.0,
        }
    }

    /// Balls `a` and `b` touching; `normal` is the unit vector from `b` towards `a`.
    pub(crate) fn pair(a: usize, b: usize, normal: DVec2) -> Self {
        Self {
            second: Some(b),
            ..Self::new(Some(a), normal)
        }
    }

    /// Ball `ball` against a wall (`velocity` zero) or a kinematic part whose point under the
    /// ball moves at `velocity`; `normal` is a unit vector towards the ball.
    pub(crate) fn surface(ball: usize, normal: DVec2, velocity: DVec2) -> Self {
        Self {
            bias: -normal.dot(velocity),
            ..Self::new(Some(ball), normal)
        }
    }

    /// Ball `ball` against a part of hinged body `hinge`: the contact point is `arm` from the
    /// pivot, which moves at `pivot_velocity`; `normal` is a unit vector towards the ball.
    pub(crate) fn hinged(
        ball: usize,
        normal: DVec2,
        arm: DVec2,
        pivot_velocity: DVec2,
        hinge: usize,
    ) -> Self {
        // The point under the ball moves at u_pivot + ω·arm⊥, whose part along n is
        // n·u_pivot + ω·(arm × n): the ball's speed away from it is n·v − ω·(arm × n) − n·u.
        Self {
            hinge: Some(hinge),
            spin: -arm.perp_dot(normal),
            bias: -normal.dot(pivot_velocity),
            ..Self::new(Some(ball), normal)
        }
    }

    /// Hinged body `hinge` against a stop that holds it from turning the way of `−toward`'s
    /// sign (`toward = 1` at the lower stop: it may only turn up from there).
    pub(crate) fn stop(toward: f64, hinge: usize) -> Self {
        Self {
            hinge: Some(hinge),
            spin: toward.signum(),
            ..Self::new(None, DVec2::ZERO)
        }
    }

    /// With restitution `e` (a non-finite or negative one counts as 0).
    pub(crate) fn with_restitution(mut self, e: f32) -> Self {
        self.restitution = if e.is_finite() { f64::from(e.max(0.0)) } else { 0.0 };
        self
    }

    /// With a target speed to leave at (a negative one counts as 0; a non-finite one makes
    /// the solve return `None`).
    pub(crate) fn with_target(mut self, target: f64) -> Self {
        self.target = if target < 0.0 { 0.0 } else { target };
        self
    }

    /// The row's balls with the sign each is read with.
    fn balls(&self) -> impl Iterator<Item = (usize, f64)> {
        let first = self.first.map(|a| (a, 1.0));
        first.into_iter().chain(self.second.map(|b| (b, -1.0)))
    }

    /// Finite, and naming only unknowns that exist (and two different balls).
    fn valid(&self, bodies: &Bodies) -> bool {
        let finite = self.normal.is_finite()
            && self.spin.is_finite()
            && self.bias.is_finite()
            && self.target.is_finite()
            && self.restitution.is_finite();
        let balls = bodies.balls.len();
        let names = self.first.is_none_or(|a| a < balls)
            && self.second.is_none_or(|b| b < balls && Some(b) != self.first)
            && self.hinge.is_none_or(|h| h < bodies.hinges.len());
        finite && names
    }

    /// Its speed for the balls' `velocities` and the bodies' `spins`, target not taken off.
    fn speed(&self, velocities: &[DVec2], spins: &[f64]) -> f64 {
        let mut s = match (self.first, self.second) {
            (Some(a), Some(b)) => (velocities[a] - velocities[b]).dot(self.normal),
            (Some(a), None) => self.normal.dot(velocities[a]),
            _ => 0.0,
        };
        if let Some(h) = self.hinge {
            s += self.spin * spins[h];
        }
        s + self.bias
    }

    /// A row between a ball and a surface or a hinged part (where the finish's separation
    /// bias applies).
    fn on_surface(&self) -> Option<usize> {
        if self.second.is_none() { self.first } else { None }
    }
}

/// `(K)_rs = J_r·M⁻¹·J_sᵀ`: how an impulse along row `s` changes the speed of row `r`.
fn coupling(r: &Row, s: &Row, bodies: &Bodies) -> f64 {
    let dot = r.normal.dot(s.normal);
    let mut sum = 0.0;
    for (ball, sign_r) in r.balls() {
        for (other, sign_s) in s.balls() {
            if ball == other {
                sum += sign_r * sign_s * (bodies.balls[ball].inverse_mass * dot);
            }
        }
    }
    if let (Some(h), Some(g)) = (r.hinge, s.hinge)
        && h == g
    {
        sum += bodies.hinges[h].inverse_inertia * r.spin * s.spin;
    }
    sum
}

/// Buffers for [`balanced_sum`], kept between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct SumScratch {
    /// The positive terms.
    positive: Vec<f64>,
    /// The negative terms, negated.
    negative: Vec<f64>,
}

/// A single term as [`balanced_sum`] sums it: itself, and `0` for a zero or NaN term.
#[inline]
fn lone(term: f64) -> f64 {
    if term.abs() > 0.0 { term } else { 0.0 }
}

/// The sum of `terms` in an order that depends only on their values: the positive ones
/// from the smallest up, the negative ones likewise, then the difference. Negating every
/// term negates the sum exactly, and reordering the terms changes nothing. A single term is
/// its own sum, without the lists.
pub(crate) fn balanced_sum(mut terms: impl Iterator<Item = f64>, scratch: &mut SumScratch) -> f64 {
    let Some(first) = terms.next() else {
        return 0.0;
    };
    let Some(second) = terms.next() else {
        return lone(first);
    };
    let (pos, neg) = (&mut scratch.positive, &mut scratch.negative);
    pos.clear();
    neg.clear();
    for t in [first, second].into_iter().chain(terms) {
        if t > 0.0 {
            pos.push(t);
        } else if t < 0.0 {
            neg.push(-t);
        }
    }
    pos.sort_by(f64::total_cmp);
    neg.sort_by(f64::total_cmp);
    pos.iter().sum::<f64>() - neg.iter().sum::<f64>()
}

/// One unknown's share of a row: the row, and the sign (a ball) or coefficient (a hinged
/// body) its impulse is taken with.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Link {
    /// The ball or hinged body.
    owner: usize,
    /// The row.
    row: usize,
    /// The sign or coefficient.
    factor: f64,
}

/// The working state and buffers of a solve, kept between solves.
#[derive(Clone, Debug, Default)]
struct Work {
    /// The balls' velocities as the solve goes.
    velocities: Vec<DVec2>,
    /// The hinged bodies' angular velocities as the solve goes.
    spins: Vec<f64>,
    /// Each row's speed less its target (or, in the finish, less its bias).
    speeds: Vec<f64>,
    /// `K`, row-major.
    matrix: Vec<f64>,
    /// The impulses of the current solve.
    x: Vec<f64>,
    /// Each row's total impulse.
    impulses: Vec<f64>,
    /// Which rows take part in the current solve.
    taking: Vec<bool>,
    /// Each ball's rows, by ball.
    ball_links: Vec<Link>,
    /// Each hinged body's rows, by body.
    hinge_links: Vec<Link>,
    /// The Jacobi solve's next impulses.
    jacobi: Vec<f64>,
    /// The balanced sums' lists.
    sums: SumScratch,
}

/// The contact of one instant: its unknowns, its rows, and the solver's buffers (keep one
/// and [`Problem::clear`] it: once warmed, a solve allocates nothing).
#[derive(Clone, Debug, Default)]
pub(crate) struct Problem {
    /// The unknowns.
    pub(crate) bodies: Bodies,
    rows: Vec<Row>,
    work: Work,
}

/// What [`Problem::solve`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Solved<'a> {
    /// Each ball's velocity after the contact (in the order of [`Bodies::balls`]).
    pub(crate) velocities: &'a [DVec2],
    /// Each hinged body's angular velocity after the contact.
    pub(crate) spins: &'a [f64],
    /// Each row's impulse over every round, restitution included (in row order; the
    /// finish's separation bias not included).
    pub(crate) impulses: &'a [f64],
    /// The rounds taken (see the module doc); 1 for most contacts, 0 for none approaching.
    pub(crate) rounds: u32,
    /// The projected Jacobi passes over every solve (0 up to [`MAX_EXACT_ROWS`] rows); a
    /// solve that reached [`MAX_SIMULTANEOUS_PASSES`] counts the cap.
    pub(crate) passes: u32,
    /// Whether the rounds reached [`MAX_SIMULTANEOUS_ROUNDS`] and the last one was inelastic.
    pub(crate) capped: bool,
}

/// The projected Jacobi passes of one solve (none for the exact one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Passes {
    /// The passes spent.
    spent: u32,
    /// Whether they reached [`MAX_SIMULTANEOUS_PASSES`].
    capped: bool,
}

/// What the rounds did (see [`Solved`]'s fields of the same names).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Rounds {
    /// The rounds taken.
    rounds: u32,
    /// The Jacobi passes spent.
    passes: u32,
    /// Whether the rounds reached their cap.
    capped: bool,
}

impl Problem {
    /// No unknowns and no rows, the buffers kept.
    pub(crate) fn clear(&mut self) {
        self.bodies.clear();
        self.rows.clear();
    }

    /// Add a ball (see [`Bodies::ball`]).
    pub(crate) fn ball(&mut self, velocity: DVec2, inverse_mass: f64) -> usize {
        self.bodies.ball(velocity, inverse_mass)
    }

    /// Add a hinged body (see [`Bodies::hinge`]).
    pub(crate) fn hinge(&mut self, spin: f64, inverse_inertia: f64) -> usize {
        self.bodies.hinge(spin, inverse_inertia)
    }

    /// Add `row` (checked when solving).
    pub(crate) fn push(&mut self, row: Row) {
        self.rows.push(row);
    }

    /// The rows so far.
    pub(crate) fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The velocities after the contact (see the module doc). `None` when no velocity moves
    /// into no surface (a squeeze), or the input is not finite or names a missing unknown.
    pub(crate) fn solve(&mut self) -> Option<Solved<'_>> {
        let Self { bodies, rows, work } = self;
        if !bodies.valid() || !rows.iter().all(|r| r.valid(bodies)) {
            return None;
        }
        work.start(bodies, rows);
        let rounds = work.rounds(bodies, rows)?;
        let finish = work.finish(bodies, rows)?;
        Some(Solved {
            velocities: &work.velocities,
            spins: &work.spins,
            impulses: &work.impulses,
            rounds: rounds.rounds,
            passes: rounds.passes + finish,
            capped: rounds.capped,
        })
    }
}

impl Work {
    /// The state before, the matrix, the links and no impulses yet.
    fn start(&mut self, bodies: &Bodies, rows: &[Row]) {
        let n = rows.len();
        self.velocities.clear();
        self.velocities.extend(bodies.balls.iter().map(|b| b.velocity));
        self.spins.clear();
        self.spins.extend(bodies.hinges.iter().map(|h| h.spin));
        self.matrix.clear();
        for r in rows {
            self.matrix.extend(rows.iter().map(|s| coupling(r, s, bodies)));
        }
        for v in [&mut self.speeds, &mut self.x, &mut self.impulses] {
            v.clear();
            v.resize(n, 0.0);
        }
        self.taking.clear();
        self.taking.resize(n, false);
        self.ball_links.clear();
        self.hinge_links.clear();
        for (row, r) in rows.iter().enumerate() {
            for (owner, factor) in r.balls() {
                self.ball_links.push(Link { owner, row, factor });
            }
            if let Some(owner) = r.hinge {
                let factor = r.spin;
                self.hinge_links.push(Link { owner, row, factor });
            }
        }
        let key = |l: &Link| (l.owner, l.row);
        self.ball_links.sort_unstable_by_key(key);
        self.hinge_links.sort_unstable_by_key(key);
    }

    /// Each row's speed less its target, into `speeds`.
    fn measure(&mut self, rows: &[Row]) {
        for (c, row) in self.speeds.iter_mut().zip(rows) {
            *c = row.speed(&self.velocities, &self.spins) - row.target;
        }
    }

    /// The rounds of compression and restitution (see the module doc).
    fn rounds(&mut self, bodies: &Bodies, rows: &[Row]) -> Option<Rounds> {
        self.measure(rows);
        let scale = self.speeds.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
        let mut out = Rounds::default();
        // The worst approach at the start of a round whose Jacobi solve reached its cap.
        let mut stalled = f64::INFINITY;
        loop {
            self.measure(rows);
            if !self.speeds.iter().all(|x| x.is_finite()) {
                return None;
            }
            let worst = self.speeds.iter().fold(0.0_f64, |m, &c| m.max(-c));
            if worst <= tolerance {
                return Some(out);
            }
            if worst >= stalled {
                // A capped round that did not lessen the approach: the impulses grow
                // without end, as they do when there is no solution.
                return None;
            }
            if out.rounds == MAX_SIMULTANEOUS_ROUNDS {
                // The last, inelastic round over every row.
                self.taking.fill(true);
                out.passes += self.compress()?.spent;
                self.apply(bodies, rows);
                self.record();
                out.capped = true;
                return Some(out);
            }
            // The rows approaching or touching take part; the least restitution of the
            // approaching ones is the contact's.
            let mut e = f64::INFINITY;
            for ((take, &c), row) in self.taking.iter_mut().zip(&self.speeds).zip(rows) {
                *take = c <= tolerance;
                if c < -tolerance {
                    e = e.min(row.restitution);
                }
            }
            let passes = self.compress()?;
            out.passes += passes.spent;
            stalled = if passes.capped { worst } else { f64::INFINITY };
            for x in &mut self.x {
                *x *= 1.0 + e;
            }
            self.apply(bodies, rows);
            self.record();
            out.rounds += 1;
        }
    }

    /// The compression impulses of the `taking` rows for the speeds `speeds`, into `x`;
    /// `None` when there is no solution.
    fn compress(&mut self) -> Option<Passes> {
        let n = self.speeds.len();
        if n <= MAX_EXACT_ROWS {
            let mut k = [[0.0; MAX_EXACT_ROWS]; MAX_EXACT_ROWS];
            let mut c = [0.0; MAX_EXACT_ROWS];
            let mut taking = 0_u32;
            for a in 0..n {
                k[a][..n].copy_from_slice(&self.matrix[a * n..(a + 1) * n]);
                c[a] = self.speeds[a];
                if self.taking[a] {
                    taking |= 1 << a;
                }
            }
            let x = complementary(&k, &c, n, taking)?;
            self.x.copy_from_slice(&x[..n]);
            return Some(Passes::default());
        }
        let lcp = Lcp {
            k: &self.matrix,
            c: &self.speeds,
            taking: &self.taking,
        };
        lcp.jacobi(&mut self.x, &mut self.jacobi, &mut self.sums)
    }

    /// The impulses `x` applied to the unknowns: each unknown's change is the balanced sum
    /// of its rows' pushes (per component for a ball).
    fn apply(&mut self, bodies: &Bodies, rows: &[Row]) {
        let (x, sums) = (&self.x, &mut self.sums);
        for group in self.ball_links.chunk_by(|p, q| p.owner == q.owner) {
            let k = group[0].owner;
            let inverse = bodies.balls[k].inverse_mass;
            if inverse > 0.0 {
                let push = || group.iter().map(|l| rows[l.row].normal * (l.factor * x[l.row]));
                let dx = balanced_sum(push().map(|d| d.x), sums);
                let dy = balanced_sum(push().map(|d| d.y), sums);
                self.velocities[k] += DVec2::new(dx, dy) * inverse;
            }
        }
        for group in self.hinge_links.chunk_by(|p, q| p.owner == q.owner) {
            let h = group[0].owner;
            let inverse = bodies.hinges[h].inverse_inertia;
            if inverse > 0.0 {
                let turn = balanced_sum(group.iter().map(|l| l.factor * x[l.row]), sums);
                self.spins[h] += turn * inverse;
            }
        }
    }

    /// `x` added to the rows' totals.
    fn record(&mut self) {
        for (total, v) in self.impulses.iter_mut().zip(&self.x) {
            *total += v;
        }
    }

    /// The separation bias (see [`Problem::solve`]'s steps in the module doc); returns the
    /// Jacobi passes it spent, `None` when the state is not finite.
    ///
    /// A ball that the contact stopped dead against walls that do not move (in a V, no
    /// speed left but rounding: 1e-14 of what it came with) is at rest, exactly: a bias
    /// there would lift it out of a narrow V along its axis, `1/sin(α/2)` times faster.
    /// Otherwise a ball on a surface leaves it at [`SEPARATION_SPEED_REL`] of its speed:
    /// without it, the f32 rounding of a velocity that ends exactly on the surface would
    /// make the ball's next sweep see it approach again. The bias is found as the
    /// compression was (every row short of it counted as approaching), so it pushes no
    /// surface into another; it adds about `ε² = 1e-10` of the ball's energy.
    fn finish(&mut self, bodies: &Bodies, rows: &[Row]) -> Option<u32> {
        for group in self.ball_links.chunk_by(|p, q| p.owner == q.owner) {
            let k = group[0].owner;
            if self.still(group, &bodies.balls[k], rows) {
                self.velocities[k] = DVec2::ZERO;
            }
        }
        self.measure(rows);
        let least = f64::from(SEPARATION_SPEED_REL);
        for (c, row) in self.speeds.iter_mut().zip(rows) {
            if let Some(k) = row.on_surface() {
                // The speed less max(target, bias), with the target already taken off.
                *c -= (least * self.velocities[k].length() - row.target).max(0.0);
            }
        }
        let mut passes = 0;
        if self.speeds.iter().any(|&c| c < 0.0) {
            self.taking.fill(true);
            if let Some(spent) = self.compress() {
                passes = spent.spent;
                self.apply(bodies, rows);
            }
        }
        let finite =
            self.velocities.iter().all(|v| v.is_finite()) && self.spins.iter().all(|w| w.is_finite());
        finite.then_some(passes)
    }

    /// Whether the ball of `links` (all its rows) ends stopped dead against still walls:
    /// all its rows are walls or hinged parts that do not move, with no target, and its
    /// speed is rounding.
    fn still(&self, links: &[Link], ball: &BallUnknown, rows: &[Row]) -> bool {
        let wall = |l: &Link| {
            let row = &rows[l.row];
            let moving = row.hinge.is_some_and(|h| self.spins[h] != 0.0);
            row.second.is_none() && row.bias == 0.0 && row.target == 0.0 && !moving
        };
        let speed = links.first().map_or(0.0, |l| self.velocities[l.owner].length());
        links.iter().all(wall) && speed <= SIMULTANEOUS_SOLVE_TOLERANCE_REL * ball.velocity.length()
    }
}

/// A complementarity problem for the Jacobi path.
struct Lcp<'a> {
    /// `K`, row-major.
    k: &'a [f64],
    /// The speeds before any impulse.
    c: &'a [f64],
    /// The rows taking part.
    taking: &'a [bool],
}

impl Lcp<'_> {
    /// `w_r = c_r + Σ_d K_rd·x_d`, the sum balanced.
    fn speed(&self, r: usize, x: &[f64], sums: &mut SumScratch) -> f64 {
        let n = self.c.len();
        self.c[r] + balanced_sum((0..n).map(|d| self.k[r * n + d] * x[d]), sums)
    }

    /// Projected Jacobi over the taking rows (every impulse updated from the same previous
    /// ones, damped so that it converges), to [`CONTACT_SOLVE_TOLERANCE`] or
    /// [`MAX_SIMULTANEOUS_PASSES`]; the impulses into `x`. `None` when it converged to
    /// impulses that leave a taking row approaching by more than the tolerance (a row that
    /// nothing can push), or to impulses not finite. A solve stopped by the cap is kept as it
    /// is: the rounds go on from there (see [`Work::rounds`]).
    fn jacobi(&self, x: &mut [f64], next: &mut Vec<f64>, sums: &mut SumScratch) -> Option<Passes> {
        let n = self.c.len();
        let scale = self.c.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
        x.fill(0.0);
        let rows = || (0..n).filter(|&r| self.taking[r]);
        if rows().all(|r| self.c[r] >= -tolerance) {
            return Some(Passes::default());
        }
        let omega = self.damping(sums);
        next.clear();
        next.resize(n, 0.0);
        let mut out = Passes {
            spent: MAX_SIMULTANEOUS_PASSES,
            capped: true,
        };
        for pass in 1..=MAX_SIMULTANEOUS_PASSES {
            let (mut change, mut largest) = (0.0_f64, 0.0_f64);
            for r in 0..n {
                let diag = self.k[r * n + r];
                if !self.taking[r] || !(diag > 0.0) {
                    next[r] = 0.0;
                    continue;
                }
                let w = self.speed(r, x, sums);
                next[r] = (x[r] - omega * w / diag).max(0.0);
                change = change.max((next[r] - x[r]).abs());
                largest = largest.max(next[r]);
            }
            x.copy_from_slice(next);
            if change <= largest * CONTACT_SOLVE_TOLERANCE {
                out = Passes {
                    spent: pass,
                    capped: false,
                };
                break;
            }
        }
        let solved = out.capped || rows().all(|r| self.speed(r, x, sums) >= -tolerance);
        (solved && x.iter().all(|v| v.is_finite())).then_some(out)
    }

    /// The step `1/(1 + spread)` from Gershgorin's bound: every eigenvalue of `D⁻¹K` over
    /// the taking rows is at most `1 + spread`, so such steps never overshoot. The sums are
    /// balanced, so the step does not depend on the order of the rows either.
    fn damping(&self, sums: &mut SumScratch) -> f64 {
        let n = self.c.len();
        let mut spread = 0.0_f64;
        for r in (0..n).filter(|&r| self.taking[r]) {
            let diag = self.k[r * n + r];
            if diag > 0.0 {
                let off = (0..n)
                    .filter(|&d| d != r && self.taking[d])
                    .map(|d| self.k[r * n + d].abs());
                spread = spread.max(balanced_sum(off, sums) / diag);
            }
        }
        1.0 / (1.0 + spread)
    }
}

/// The `x ≥ 0` with `w = c + K·x ≥ 0` and `x·w = 0` over the rows of `taking` (among the
/// first `n`; the others take no impulse and are not checked), by trying each active set,
/// fewest rows first (at most `2^MAX_EXACT_ROWS` small solves). `None` when no active set
/// gives one: the rows contradict each other. (As `simultaneous.rs`'s, to the bit.)
fn complementary(
    k: &[[f64; MAX_EXACT_ROWS]; MAX_EXACT_ROWS],
    c: &[f64; MAX_EXACT_ROWS],
    n: usize,
    taking: u32,
) -> Option<[f64; MAX_EXACT_ROWS]> {
    let scale = c[..n].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
    let part = |a: usize| taking & (1 << a) != 0;
    if (0..n).filter(|&a| part(a)).all(|a| c[a] >= -tolerance) {
        return Some([0.0; MAX_EXACT_ROWS]);
    }
    let mut sets: [u32; 1 << MAX_EXACT_ROWS] = [0; 1 << MAX_EXACT_ROWS];
    let count = 1usize << n;
    for (mask, slot) in sets.iter_mut().enumerate().take(count) {
        *slot = mask as u32;
    }
    sets[1..count].sort_by_key(|m| m.count_ones());
    for &mask in &sets[1..count] {
        if mask & !taking != 0 {
            continue;
        }
        let Some(x) = solve_active(k, c, n, mask) else {
            continue;
        };
        let valid = (0..n).filter(|&a| part(a)).all(|a| {
            let w = c[a] + (0..n).map(|b| k[a][b] * x[b]).sum::<f64>();
            let active = mask & (1 << a) != 0;
            if active { x[a] >= 0.0 } else { w >= -tolerance }
        });
        if valid {
            return Some(x);
        }
    }
    None
}

/// The impulses that make the speeds of the rows in `mask` exactly zero (the others take
/// none): `K_SS·x_S = −c_S`, by Gauss–Jordan elimination with partial pivoting. `None` when
/// `K_SS` is singular (two rows that say the same thing).
fn solve_active(
    k: &[[f64; MAX_EXACT_ROWS]; MAX_EXACT_ROWS],
    c: &[f64; MAX_EXACT_ROWS],
    n: usize,
    mask: u32,
) -> Option<[f64; MAX_EXACT_ROWS]> {
    let mut index = [0usize; MAX_EXACT_ROWS];
    let mut m = 0;
    for a in 0..n {
        if mask & (1 << a) != 0 {
            index[m] = a;
            m += 1;
        }
    }
    let mut a = [[0.0; MAX_EXACT_ROWS + 1]; MAX_EXACT_ROWS];
    let mut largest = 0.0_f64;
    for r in 0..m {
        for s in 0..m {
            a[r][s] = k[index[r]][index[s]];
            largest = largest.max(a[r][s].abs());
        }
        a[r][m] = -c[index[r]];
    }
    let singular = SIMULTANEOUS_SOLVE_TOLERANCE_REL * largest;
    for col in 0..m {
        let pivot = (col..m).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
        if !(a[pivot][col].abs() > singular) {
            return None;
        }
        a.swap(col, pivot);
        for r in 0..m {
            if r != col {
                let f = a[r][col] / a[col][col];
                let pivot_row = a[col];
                for (entry, p) in a[r].iter_mut().zip(pivot_row).take(m + 1).skip(col) {
                    *entry -= f * p;
                }
            }
        }
    }
    let mut x = [0.0; MAX_EXACT_ROWS];
    for r in 0..m {
        x[index[r]] = a[r][m] / a[r][r];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simultaneous;
    use glam::Vec2;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// One ball of mass 1 moving at `v` against still walls of normals `normals`, each of
    /// restitution `e`.
    fn walls(normals: &[Vec2], e: f32, v: DVec2) -> Problem {
        let mut p = Problem::default();
        let ball = p.ball(v, 1.0);
        for &n in normals {
            p.push(Row::surface(ball, n.as_dvec2(), DVec2::ZERO).with_restitution(e));
        }
        p
    }

    /// A row of equal balls (m = 1) touching along +x, the first at `velocities[0]`; each
    /// pair row of restitution `e`, except the touching ones, of `resting`. With `wall`, the
    /// last ball touches a wall on its right, of restitution `e_wall`.
    struct Line {
        velocities: Vec<f64>,
        e: f32,
        resting: f32,
        wall: Option<f32>,
    }

    impl Line {
        fn problem(&self) -> Problem {
            let mut p = Problem::default();
            for &v in &self.velocities {
                p.ball(DVec2::new(v, 0.0), 1.0);
            }
            for k in 1..self.velocities.len() {
                let approach = self.velocities[k - 1] > self.velocities[k];
                let e = if approach { self.e } else { self.resting };
                p.push(Row::pair(k, k - 1, DVec2::X).with_restitution(e));
            }
            if let Some(e) = self.wall {
                let last = self.velocities.len() - 1;
                p.push(Row::surface(last, -DVec2::X, DVec2::ZERO).with_restitution(e));
            }
            p
        }
    }

    /// Test 1. A ball strikes the first of three at rest in a row whose last touches a wall:
    /// one contact of four rows. The compression impulses are m·v on every row (the row is
    /// a rigid link to the wall), so each row's total is (1 + e)·m·v, the striker leaves at
    /// −e·v and the row stays at rest. The touching rows' own restitution does not matter.
    #[test]
    fn a_struck_row_against_a_wall_stays_at_rest() {
        let v = 3.0;
        for (e, touching) in [(1.0, 1.0), (0.5, 0.5), (1.0, 0.0), (0.5, 0.0)] {
            let line = Line {
                velocities: vec![v, 0.0, 0.0, 0.0],
                e,
                resting: touching,
                wall: Some(touching),
            };
            let mut p = line.problem();
            let out = p.solve().unwrap();
            let e = f64::from(e);
            assert_eq!(out.rounds, 1);
            assert_eq!(out.passes, 0, "four rows: the exact path");
            for (r, &x) in out.impulses.iter().enumerate() {
                assert!(close(x, (1.0 + e) * v, 1e-9), "e = {e}, row {r}: {x}");
            }
            assert!((out.velocities[0] - DVec2::new(-e * v, 0.0)).length() < 1e-9);
            for (k, u) in out.velocities[1..].iter().enumerate() {
                assert!(u.length() < 1e-12, "e = {e}, ball {}: {u:?}", k + 1);
            }
        }
    }

    /// Test 1 with one more ball in the row: five rows, past the exact solve. Projected
    /// Jacobi converges slowly on a chain against a wall (its damping is 1/2 and the chain's
    /// matrix is ill-conditioned: about 1,070 passes to converge, by a model of the same
    /// iteration), so each round stops at the cap, which the result counts, and the rounds
    /// go on from what is left: three rounds. The row still ends at rest, but the striker
    /// leaves at −1.4969 rather than −1.5 (2e-3 short), and no energy is made.
    #[test]
    fn a_longer_chain_reports_the_passes_it_took() {
        let v = 3.0;
        let line = Line {
            velocities: vec![v, 0.0, 0.0, 0.0, 0.0],
            e: 0.5,
            resting: 0.0,
            wall: Some(0.0),
        };
        let mut p = line.problem();
        let out = p.solve().unwrap();
        assert_eq!((out.rounds, out.passes), (3, 3 * MAX_SIMULTANEOUS_PASSES));
        assert!(
            out.velocities[1..].iter().all(|u| u.length() < 1e-9),
            "{:?}",
            out.velocities
        );
        let striker = out.velocities[0].x;
        assert!(close(striker, -1.5, 5e-3) && striker > -1.5, "{striker}");
        assert!(
            out.impulses.iter().all(|&x| close(x, 1.5 * v, 1e-2)),
            "{:?}",
            out.impulses
        );
    }

    /// Test 2. Three touching balls moving together into a wall at v: the compression
    /// impulses are m·v, 2m·v, 3m·v (the last on the wall: it stops all three), the totals
    /// (1 + e) times those, and all three leave at −e·v.
    #[test]
    fn a_row_moving_into_a_wall_leaves_as_one() {
        let v = 2.0;
        for (e, touching) in [(1.0, 1.0), (0.5, 0.5), (1.0, 0.0), (0.5, 0.0)] {
            let line = Line {
                velocities: vec![v, v, v],
                e: touching,
                resting: touching,
                wall: Some(e),
            };
            let mut p = line.problem();
            let out = p.solve().unwrap();
            let e = f64::from(e);
            assert_eq!(out.rounds, 1);
            for (r, &x) in out.impulses.iter().enumerate() {
                let compression = (r + 1) as f64 * v;
                assert!(close(x, (1.0 + e) * compression, 1e-9), "e = {e}, row {r}: {x}");
            }
            for u in out.velocities {
                assert!((*u - DVec2::new(-e * v, 0.0)).length() < 1e-9, "e = {e}: {u:?}");
            }
        }
    }

    /// Test 3. A ball (m = 1) into a floor and a hinged gate at once, e = 1: the kinetic
    /// energy ½m|v|² + ½Iω² is kept, and the gate's change of angular momentum is the moment
    /// of the ball's impulse on it about the pivot.
    ///
    /// The sign: the gate pushes the ball with `P·n` (`P ≥ 0`, `n` towards the ball), so the
    /// ball pushes the gate with `−P·n` at the contact point, `arm` from the pivot; its
    /// moment is `arm × (−P·n) = −P·(arm × n) = P·s`, with `s = −(arm × n)` the row's
    /// coefficient of `ω`: so `I·Δω = P·s`, as the solver's `Δω = (1/I)·s·P`.
    #[test]
    fn a_ball_between_a_wall_and_a_gate_keeps_its_energy() {
        let inertia = 2.0;
        let gate = |normal: DVec2, arm: DVec2, v: DVec2| {
            let mut p = Problem::default();
            let ball = p.ball(v, 1.0);
            let h = p.hinge(0.0, 1.0 / inertia);
            p.push(Row::surface(ball, DVec2::Y, DVec2::ZERO).with_restitution(1.0));
            p.push(Row::hinged(ball, normal, arm, DVec2::ZERO, h).with_restitution(1.0));
            p
        };
        // By hand: the floor (+y) and the gate's face (+x, 1 above the pivot: s = 1)
        // are square to each other, so K = diag(1, 1 + s²/I) = diag(1, 1.5); the ball
        // at (−2, −1) approaches them at 1 and 2: x = (1, 4/3), applied twice.
        let mut p = gate(DVec2::X, DVec2::Y, DVec2::new(-2.0, -1.0));
        let out = p.solve().unwrap();
        assert!((out.velocities[0] - DVec2::new(2.0 / 3.0, 1.0)).length() < 1e-12);
        assert!(close(out.spins[0], 4.0 / 3.0, 1e-12));
        assert!(close(out.impulses[0], 2.0, 1e-12) && close(out.impulses[1], 8.0 / 3.0, 1e-12));
        // Faces at other angles (coupled to the floor through the ball), other arms.
        for (angle, arm, v) in [
            (30.0_f64, DVec2::new(-0.5, 1.2), DVec2::new(-2.0, -1.0)),
            (60.0, DVec2::new(0.3, -0.9), DVec2::new(-1.0, -3.0)),
            (100.0, DVec2::new(1.5, 0.4), DVec2::new(0.5, -2.0)),
        ] {
            let normal = DVec2::from_angle(angle.to_radians());
            let mut p = gate(normal, arm, v);
            assert!(p.rows().len() == 2);
            let out = p.solve().unwrap();
            let (after, spin) = (out.velocities[0], out.spins[0]);
            let before_energy = 0.5 * v.length_squared();
            let energy = 0.5 * after.length_squared() + 0.5 * inertia * spin * spin;
            assert!(
                close(energy, before_energy, 1e-6 * before_energy),
                "{angle}: {energy}"
            );
            let on_gate = -out.impulses[1] * normal;
            assert!(
                close(inertia * spin, arm.perp_dot(on_gate), 1e-9),
                "{angle}: {spin}"
            );
            // And the ball's momentum changed by both impulses.
            let pushed = out.impulses[0] * DVec2::Y + out.impulses[1] * normal;
            assert!((after - v - pushed).length() < 1e-9, "{angle}");
            assert!(out.impulses[1] > 0.0, "{angle}: the gate takes part");
        }
    }

    #[test]
    fn right_angle_corner_sends_the_ball_back() {
        // Floor and wall: the two reflections, −e·v, whatever the order.
        let v = DVec2::new(-3.0, -4.0);
        for e in [1.0, 0.5] {
            let mut p = walls(&[Vec2::Y, Vec2::X], e, v);
            let out = p.solve().unwrap();
            let expected = v * -f64::from(e);
            assert!(
                (out.velocities[0] - expected).length() < 1e-12,
                "e = {e}: {:?}",
                out.velocities
            );
            assert_eq!(out.rounds, 1);
        }
        // At e = 0 it stops dead, exactly.
        let mut p = walls(&[Vec2::Y, Vec2::X], 0.0, v);
        assert_eq!(p.solve().unwrap().velocities[0], DVec2::ZERO);
    }

    #[test]
    fn symmetric_v_sends_the_ball_straight_back() {
        // Walls at ±5° from the vertical, opening upwards; the ball falls into the apex.
        let half = 5.0_f32.to_radians();
        let normals = [
            Vec2::new(half.cos(), half.sin()),
            Vec2::new(-half.cos(), half.sin()),
        ];
        let v = DVec2::new(0.0, -10.0);
        let mut p = walls(&normals, 1.0, v);
        assert!((p.solve().unwrap().velocities[0] - DVec2::new(0.0, 10.0)).length() < 1e-9);
        let mut p = walls(&normals, 0.5, v);
        assert!((p.solve().unwrap().velocities[0] - DVec2::new(0.0, 5.0)).length() < 1e-9);
    }

    #[test]
    fn a_leaving_surface_takes_no_impulse() {
        // Moving into the floor and away from the wall: the floor's reflection alone.
        let mut p = walls(&[Vec2::Y, Vec2::X], 1.0, DVec2::new(2.0, -4.0));
        let out = p.solve().unwrap();
        assert!((out.velocities[0] - DVec2::new(2.0, 4.0)).length() < 1e-12);
        assert_eq!(out.impulses[1], 0.0);
    }

    #[test]
    fn the_least_restitution_of_the_approached_rows_counts() {
        // Into a right-angle corner of an e = 1 floor and an e = 0.5 wall: −0.5·v.
        let mut p = walls(&[Vec2::Y], 1.0, DVec2::new(-2.0, -2.0));
        p.push(Row::surface(0, DVec2::X, DVec2::ZERO).with_restitution(0.5));
        let out = p.solve().unwrap();
        assert!((out.velocities[0] - DVec2::new(1.0, 1.0)).length() < 1e-12);
    }

    #[test]
    fn closing_walls_have_no_solution() {
        // Two facing walls, one moving in at 1: no velocity moves into neither.
        let mut p = walls(&[Vec2::Y], 1.0, DVec2::new(0.0, -1.0));
        p.push(Row::surface(0, -DVec2::Y, -DVec2::Y));
        assert!(p.solve().is_none());
        // The same with three more walls the ball leaves (five rows: the Jacobi path).
        for n in [DVec2::X, -DVec2::X, DVec2::new(0.6, 0.8)] {
            p.push(Row::surface(0, n, -n));
        }
        assert!(p.rows().len() > MAX_EXACT_ROWS);
        assert!(p.solve().is_none());
    }

    #[test]
    fn a_hinge_on_its_stop_is_a_wall() {
        // A ball of mass 1 falls at 2 onto an arm 1 from the pivot (inertia 1), which rests
        // on its lower stop: the stop holds the arm, and the ball bounces as off a wall.
        let hinge = |normal: DVec2, v: DVec2| {
            let mut p = Problem::default();
            let ball = p.ball(v, 1.0);
            let h = p.hinge(0.0, 1.0);
            p.push(Row::hinged(ball, normal, DVec2::X, DVec2::ZERO, h).with_restitution(1.0));
            p.push(Row::stop(1.0, h).with_restitution(0.2));
            p
        };
        let mut p = hinge(DVec2::Y, DVec2::new(0.0, -2.0));
        let out = p.solve().unwrap();
        assert!((out.velocities[0] - DVec2::new(0.0, 2.0)).length() < 1e-12);
        assert!(out.spins[0].abs() < 1e-12);
        // Hit from below instead, the arm is free to swing up: J = 2·2/(1 + 1) = 2, the
        // ball stops and the arm turns at ω = d·J/I = 2 (d = 1), as `hinge_impulse` gives.
        let mut p = hinge(-DVec2::Y, DVec2::new(0.0, 2.0));
        let out = p.solve().unwrap();
        assert!(out.velocities[0].length() < 1e-12);
        assert!(close(out.spins[0], 2.0, 1e-12));
    }

    #[test]
    fn energy_is_kept_at_e_one_and_lost_below() {
        // Every V opening from 0.5° to 179.5° and 36 directions (those that approach
        // neither wall are left alone): ½|v|² is kept at e = 1, and never grows at e = 0.5,
        // to f64 rounding amplified by the conditioning 1/sin²α of the corner: 1e-9.
        let mut p = Problem::default();
        for step in 1..360 {
            let opening = step as f32 * 0.5_f32.to_radians();
            let (s, c) = (opening / 2.0).sin_cos();
            let normals = [Vec2::new(c, s), Vec2::new(-c, s)];
            for aim in 0..36 {
                let angle = f64::from(aim) * std::f64::consts::TAU / 36.0;
                let v = DVec2::from_angle(angle) * 7.0;
                let before = v.length_squared();
                for e in [1.0, 0.5] {
                    p.clear();
                    let ball = p.ball(v, 1.0);
                    for n in normals {
                        p.push(Row::surface(ball, n.as_dvec2(), DVec2::ZERO).with_restitution(e));
                    }
                    let out = p.solve().unwrap();
                    let after = out.velocities[0].length_squared();
                    if e == 1.0 {
                        assert!(!out.capped);
                        assert!(
                            (after - before).abs() <= 1e-9 * before,
                            "{opening} {angle}: {after}"
                        );
                    } else {
                        assert!(after <= before * (1.0 + 1e-9), "{opening} {angle}: {after}");
                    }
                }
            }
        }
    }

    /// An old problem and the same through the new API.
    struct Case {
        inverse: simultaneous::Inverse,
        rows: Vec<simultaneous::Row>,
        before: simultaneous::State,
    }

    impl Case {
        fn walls(normals: &[Vec2], e: f32, v: Vec2) -> Self {
            Self {
                inverse: simultaneous::Inverse {
                    mass: 1.0,
                    inertia: [0.0; 2],
                },
                rows: normals
                    .iter()
                    .map(|&n| simultaneous::Row::surface(n, Vec2::ZERO).with_restitution(e))
                    .collect(),
                before: simultaneous::State::ball(v),
            }
        }

        /// The new problem: every old row's coefficients, with the bodies that take part.
        fn new_problem(&self) -> Problem {
            let mut p = Problem::default();
            let ball = p.ball(self.before.velocity, self.inverse.mass);
            for b in 0..simultaneous::MAX_BODIES {
                p.hinge(self.before.spin[b], self.inverse.inertia[b]);
            }
            for old in &self.rows {
                let hinge = (0..simultaneous::MAX_BODIES).find(|&b| old.spin[b] != 0.0);
                p.push(Row {
                    first: (old.ball != DVec2::ZERO).then_some(ball),
                    normal: old.ball,
                    hinge,
                    spin: hinge.map_or(0.0, |b| old.spin[b]),
                    bias: old.bias,
                    restitution: old.restitution,
                    ..Row::new(None, DVec2::ZERO)
                });
            }
            p
        }

        /// Both solves give the same impulses to the bit (or both none), the same rounds,
        /// and the same velocities: to the bit when `exact`, else within the rounding of
        /// the one difference between them. A ball's change here is the balanced sum of
        /// its rows' pushes, `v + (p₁ + p₂)`, where `simultaneous.rs` adds them one by one,
        /// `(v + p₁) + p₂`: the two differ by at most an ulp of the largest of `v`, `p₁`,
        /// `p₂` per round. Returns whether the velocities were the same bits.
        fn compare(&self, exact: bool) -> bool {
            let mut old = simultaneous::Problem::new(self.inverse);
            for &r in &self.rows {
                assert!(old.push(r));
            }
            let old = old.solve(self.before);
            let mut new = self.new_problem();
            let new = new.solve();
            let (Some(old), Some(new)) = (old, new) else {
                assert_eq!(old.is_none(), new.is_none(), "{:?}", self.rows);
                return true;
            };
            for (o, n) in old.impulses.iter().zip(new.impulses) {
                assert_eq!(o.to_bits(), n.to_bits(), "{:?}", self.rows);
            }
            assert_eq!((old.rounds, old.capped, new.passes), (new.rounds, new.capped, 0));
            let mut same = true;
            let total: f64 = new.impulses.iter().sum();
            let mut check = |before: f64, o: f64, n: f64, inverse: f64| {
                let bound = 2.0 * f64::EPSILON * (before.abs() + inverse * total) * f64::from(old.rounds);
                assert!(!exact || o.to_bits() == n.to_bits(), "{o} {n}: {:?}", self.rows);
                assert!((o - n).abs() <= bound, "{o} {n}, bound {bound}: {:?}", self.rows);
                same &= o.to_bits() == n.to_bits();
            };
            let (v, u) = (old.state.velocity, new.velocities[0]);
            let m = self.inverse.mass;
            check(self.before.velocity.x, v.x, u.x, m);
            check(self.before.velocity.y, v.y, u.y, m);
            for b in 0..simultaneous::MAX_BODIES {
                let lever = self.rows.iter().fold(0.0_f64, |l, r| l.max(r.spin[b].abs()));
                let inverse = self.inverse.inertia[b] * lever;
                check(self.before.spin[b], old.state.spin[b], new.spins[b], inverse);
            }
            same
        }
    }

    /// Test 4's comparison: the one-ball problems of `simultaneous.rs`'s tests, and more,
    /// through both. The impulses are the same bits in every case (the exact solve is the
    /// same to the bit), and so are the velocities wherever no component of a ball's or
    /// body's velocity takes two pushes in a round; where one does (most V's), they may
    /// differ in the last bit (see [`Case::compare`]): 482 of the 514 cases here are the
    /// same bits.
    #[test]
    fn one_ball_gives_the_bits_of_simultaneous() {
        let mut cases = 0;
        let mut same = 0;
        let mut compare = |case: &Case, exact: bool| {
            cases += 1;
            same += usize::from(case.compare(exact));
        };
        let corner = [Vec2::Y, Vec2::X];
        for e in [1.0, 0.5, 0.0] {
            compare(&Case::walls(&corner, e, Vec2::new(-3.0, -4.0)), true);
        }
        compare(&Case::walls(&corner, 1.0, Vec2::new(2.0, -4.0)), true);
        let mut mixed = Case::walls(&corner, 1.0, Vec2::new(-2.0, -2.0));
        mixed.rows[1] = mixed.rows[1].with_restitution(0.5);
        compare(&mixed, true);
        // Every V of the energy test, at a few openings and every aim.
        for degrees in [0.5_f32, 5.0, 10.0, 45.0, 90.0, 135.0, 179.5] {
            let (s, c) = (degrees.to_radians() / 2.0).sin_cos();
            for aim in 0..36 {
                let v = Vec2::from_angle(aim as f32 * std::f32::consts::TAU / 36.0) * 7.0;
                for e in [1.0, 0.5] {
                    compare(&Case::walls(&[Vec2::new(c, s), Vec2::new(-c, s)], e, v), false);
                }
            }
        }
        // A kinematic part and a wall; two facing walls closing (both none).
        let mut moving = Case::walls(&[Vec2::Y], 0.7, Vec2::new(-1.0, -3.0));
        moving.rows.push(simultaneous::Row::surface(
            Vec2::new(0.6, 0.8),
            Vec2::new(1.0, 0.5),
        ));
        compare(&moving, false);
        let mut closing = Case::walls(&[Vec2::Y], 1.0, Vec2::new(0.0, -1.0));
        closing.rows.push(simultaneous::Row::surface(-Vec2::Y, -Vec2::Y));
        compare(&closing, true);
        // A hinge on its stop, from above and below; a ball between two flippers, each on
        // its stop (four rows).
        for (normal, v) in [(Vec2::Y, -2.0), (-Vec2::Y, 2.0)] {
            let mut hinge = Case::walls(&[], 1.0, Vec2::new(0.0, v));
            hinge.inverse.inertia = [1.0, 0.0];
            hinge
                .rows
                .push(simultaneous::Row::hinged(normal, Vec2::X, Vec2::ZERO, 0).with_restitution(1.0));
            hinge
                .rows
                .push(simultaneous::Row::stop(1.0, 0).with_restitution(0.2));
            compare(&hinge, true);
        }
        let mut flippers = Case::walls(&[], 1.0, Vec2::new(0.3, -4.0));
        flippers.inverse = simultaneous::Inverse {
            mass: 2.0,
            inertia: [0.7, 0.4],
        };
        flippers.before.spin = [0.5, -0.25];
        let (left, right) = (Vec2::new(0.6, 0.8), Vec2::new(-0.6, 0.8));
        flippers.rows = vec![
            simultaneous::Row::hinged(left, Vec2::new(1.2, -0.3), Vec2::ZERO, 0).with_restitution(0.6),
            simultaneous::Row::hinged(right, Vec2::new(-1.0, -0.4), Vec2::new(0.1, 0.0), 1)
                .with_restitution(0.8),
            simultaneous::Row::stop(1.0, 0).with_restitution(0.3),
            simultaneous::Row::stop(-1.0, 1).with_restitution(0.3),
        ];
        compare(&flippers, false);
        assert_eq!((same, cases), (482, 514));
    }

    /// Test 5. A free row of four touching balls, the first moving at v, e = 1: one contact,
    /// K the chain's [[2, −1, 0], [−1, 2, −1], [0, −1, 2]], compression (3v/4, v/2, v/4),
    /// applied twice: (−v/2, v/2, v/2, v/2). Momentum and energy are kept.
    #[test]
    fn a_free_cradle_of_touching_balls_is_one_contact() {
        let v = 4.0;
        let line = Line {
            velocities: vec![v, 0.0, 0.0, 0.0],
            e: 1.0,
            resting: 1.0,
            wall: None,
        };
        let mut p = line.problem();
        let out = p.solve().unwrap();
        for (k, expected) in [-v / 2.0, v / 2.0, v / 2.0, v / 2.0].into_iter().enumerate() {
            assert!(
                (out.velocities[k] - DVec2::new(expected, 0.0)).length() < 1e-9,
                "{k}: {:?}",
                out.velocities
            );
        }
        for (x, compression) in out.impulses.iter().zip([0.75 * v, 0.5 * v, 0.25 * v]) {
            assert!(close(*x, 2.0 * compression, 1e-9), "{:?}", out.impulses);
        }
        let momentum: DVec2 = out.velocities.iter().sum();
        assert!((momentum - DVec2::new(v, 0.0)).length() < 1e-9);
        let energy: f64 = out.velocities.iter().map(|u| 0.5 * u.length_squared()).sum();
        assert!(close(energy, 0.5 * v * v, 1e-9));
    }

    /// The star of test 6: a centre ball moving along +x, and five balls at 0°, ±72°, ±144°
    /// around it, each moving in at 2 (the one at 0° twice as heavy); the rows listed in
    /// `order` (indices into the angles), the balls likewise.
    fn star(order: [usize; 5], e: f32) -> (Problem, [usize; 5]) {
        let (s72, c72) = 72.0_f64.to_radians().sin_cos();
        let (s144, c144) = 144.0_f64.to_radians().sin_cos();
        // Mirror images from the same figures, so they are mirror images to the bit.
        let outward = [
            DVec2::X,
            DVec2::new(c72, s72),
            DVec2::new(c72, -s72),
            DVec2::new(c144, s144),
            DVec2::new(c144, -s144),
        ];
        let mut p = Problem::default();
        let mut index = [0; 5];
        for &k in &order {
            let inverse = if k == 0 { 0.5 } else { 1.0 };
            index[k] = p.ball(outward[k] * -2.0, inverse);
        }
        let centre = p.ball(DVec2::new(1.0, 0.0), 1.0);
        for &k in &order {
            p.push(Row::pair(centre, index[k], -outward[k]).with_restitution(e));
        }
        (p, index)
    }

    /// Test 6. More rows than the exact solve takes (the Jacobi path): mirror images leave
    /// as mirror images to the bit, whatever the order of the rows and balls; the impulses
    /// are complementary; energy and momentum are kept at e = 1.
    #[test]
    fn a_symmetric_star_stays_symmetric_to_the_bit() {
        let masses = [2.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let (mut p, index) = star([0, 1, 2, 3, 4], 1.0);
        let before: Vec<DVec2> = p.bodies.balls.iter().map(|b| b.velocity).collect();
        let out = p.solve().unwrap();
        assert!(
            out.passes > 0 && out.passes < MAX_SIMULTANEOUS_PASSES,
            "{}",
            out.passes
        );
        let v = out.velocities.to_vec();
        let bits = |u: DVec2| [u.x.to_bits(), u.y.to_bits()];
        for (up, down) in [(1, 2), (3, 4)] {
            let (a, b) = (v[index[up]], v[index[down]]);
            assert_eq!(bits(a), bits(DVec2::new(b.x, -b.y)), "{a:?} {b:?}");
        }
        assert_eq!(v[index[0]].y, 0.0);
        assert_eq!(v[5].y, 0.0);
        // Another order of rows and balls: the same bits for each ball.
        let (mut q, other) = star([4, 2, 0, 3, 1], 1.0);
        let w = q.solve().unwrap().velocities.to_vec();
        for k in 0..5 {
            assert_eq!(bits(v[index[k]]), bits(w[other[k]]), "ball at {k}");
        }
        assert_eq!(bits(v[5]), bits(w[5]));
        // Energy and momentum (masses by the first order's indices: the centre is last).
        let mass = |k: usize| if k == index[0] { masses[0] } else { 1.0 };
        let energy = |u: &[DVec2]| {
            u.iter()
                .enumerate()
                .map(|(k, u)| 0.5 * mass(k) * u.length_squared())
                .sum::<f64>()
        };
        let momentum = |u: &[DVec2]| u.iter().enumerate().map(|(k, u)| mass(k) * *u).sum::<DVec2>();
        assert!(close(energy(&v), energy(&before), 1e-9 * energy(&before)));
        assert!((momentum(&v) - momentum(&before)).length() < 1e-9);
        // At e = 0 the speeds after are the complementarity problem's w: w ≥ 0, x·w = 0.
        let (mut p, _) = star([0, 1, 2, 3, 4], 0.0);
        let out = p.solve().unwrap();
        let out_v = out.velocities.to_vec();
        let x = out.impulses.to_vec();
        for (r, row) in p.rows.iter().enumerate() {
            let w = row.speed(&out_v, &[]);
            assert!(
                w >= -1e-9 && x[r] >= 0.0 && (w * x[r]).abs() <= 1e-9,
                "row {r}: w {w}, x {}",
                x[r]
            );
        }
        assert!(x.iter().all(|&x| x > 0.0), "every ball pushes: {x:?}");
    }

    /// Test 7. Bad input gives `None`, never NaN; no rows leave the state as it was.
    #[test]
    fn bad_input_gives_none() {
        let v = DVec2::new(1.0, -2.0);
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.push(Row::surface(0, DVec2::new(f64::NAN, 0.0), DVec2::ZERO));
        assert!(p.solve().is_none(), "a NaN normal");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.push(Row::surface(0, DVec2::X, DVec2::new(f64::INFINITY, 0.0)));
        assert!(p.solve().is_none(), "an infinite surface velocity");
        let mut p = walls(&[Vec2::Y], 1.0, DVec2::new(f64::INFINITY, -1.0));
        assert!(p.solve().is_none(), "an infinite ball velocity");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.bodies.balls[0].inverse_mass = f64::NAN;
        assert!(p.solve().is_none(), "a NaN mass");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.push(Row::surface(0, DVec2::X, DVec2::ZERO).with_target(f64::NAN));
        assert!(p.solve().is_none(), "a NaN target");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.push(Row::pair(0, 3, DVec2::X));
        assert!(p.solve().is_none(), "a missing ball");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.push(Row::stop(1.0, 0));
        assert!(p.solve().is_none(), "a missing hinge");
        // Five rows (the Jacobi path), one not finite.
        let mut p = walls(&[Vec2::Y, Vec2::X, -Vec2::X, -Vec2::Y], 1.0, v);
        p.push(Row::surface(0, DVec2::Y, DVec2::new(0.0, f64::NAN)));
        assert!(p.solve().is_none(), "a NaN row among five");
        // No rows: nothing changes, to the bit.
        let mut p = Problem::default();
        p.ball(v, 1.0);
        p.ball(DVec2::new(-0.0, 3.5), 0.25);
        p.hinge(-1.25, 2.0);
        let out = p.solve().unwrap();
        assert_eq!(out.velocities, [v, DVec2::new(-0.0, 3.5)]);
        assert_eq!(out.velocities[1].x.to_bits(), (-0.0_f64).to_bits());
        assert_eq!(out.spins, [-1.25]);
        assert!(out.impulses.is_empty());
        assert_eq!((out.rounds, out.passes, out.capped), (0, 0, false));
    }

    /// A ball sliding into a floor at e = 0 leaves it at the separation bias, a share
    /// `SEPARATION_SPEED_REL` of its speed along it; one stopped dead in a corner is at rest,
    /// exactly.
    #[test]
    fn the_finish_lifts_a_sliding_ball_off_its_surface() {
        let mut p = walls(&[Vec2::Y], 0.0, DVec2::new(3.0, -1.0));
        let out = p.solve().unwrap();
        let lift = f64::from(SEPARATION_SPEED_REL) * 3.0;
        assert!(
            (out.velocities[0] - DVec2::new(3.0, lift)).length() < 1e-15,
            "{:?}",
            out.velocities
        );
        assert_eq!(out.impulses, [1.0]);
        // Into a V of 40° at e = 0, from directions within the cone of its normals: what
        // rounding leaves of the speed (up to 1e-15) is not kept.
        let half = 20.0_f32.to_radians();
        let normals = [
            Vec2::new(half.cos(), half.sin()),
            Vec2::new(-half.cos(), half.sin()),
        ];
        for x in [-0.5, -0.3, -0.1, 0.0, 0.1, 0.2, 0.3, 0.7] {
            let mut p = walls(&normals, 0.0, DVec2::new(x, -2.0));
            assert_eq!(p.solve().unwrap().velocities[0], DVec2::ZERO, "{x}");
        }
    }

    /// A resting contact with a target leaves at it.
    #[test]
    fn a_target_is_the_speed_a_resting_contact_leaves_at() {
        // Two balls resting on each other (closing at 0.1), target 0.01, e = 0.
        let mut p = Problem::default();
        let a = p.ball(DVec2::new(0.05, 0.0), 1.0);
        let b = p.ball(DVec2::new(-0.05, 0.0), 1.0);
        p.push(Row::pair(a, b, -DVec2::X).with_target(0.01));
        let out = p.solve().unwrap();
        let speed = (out.velocities[a] - out.velocities[b]).dot(-DVec2::X);
        assert!(close(speed, 0.01, 1e-15), "{speed}");
        assert!(close(out.impulses[0], 0.055, 1e-15));
    }

    /// Once warm, a solve of the same size allocates nothing: every buffer is where it was.
    #[test]
    fn a_warm_solve_keeps_its_buffers() {
        let (mut p, _) = star([0, 1, 2, 3, 4], 1.0);
        p.solve().unwrap();
        let w = &p.work;
        let where_ = |w: &Work| {
            [
                w.velocities.as_ptr() as usize,
                w.spins.as_ptr() as usize,
                w.speeds.as_ptr() as usize,
                w.matrix.as_ptr() as usize,
                w.x.as_ptr() as usize,
                w.impulses.as_ptr() as usize,
                w.taking.as_ptr() as usize,
                w.ball_links.as_ptr() as usize,
                w.jacobi.as_ptr() as usize,
                w.sums.positive.as_ptr() as usize,
                w.sums.negative.as_ptr() as usize,
            ]
        };
        let first = where_(w);
        let (q, _) = star([4, 2, 0, 3, 1], 0.5);
        p.clear();
        p.bodies.balls.extend(&q.bodies.balls);
        p.rows.extend(&q.rows);
        p.solve().unwrap();
        assert_eq!(first, where_(&p.work));
    }

    #[test]
    fn balanced_sums_ignore_order_and_mirror_exactly() {
        let mut s = SumScratch::default();
        let terms = [1e16, 1.0, -1e16, 3.5, -0.25, 1e-9];
        let forward = balanced_sum(terms.iter().copied(), &mut s);
        let backward = balanced_sum(terms.iter().rev().copied(), &mut s);
        let mirrored = balanced_sum(terms.iter().map(|t| -t), &mut s);
        assert_eq!(forward.to_bits(), backward.to_bits());
        assert_eq!(forward.to_bits(), (-mirrored).to_bits());
    }
}
