//! The contacts of one instant, solved as one contact with restitution: balls against each
//! other, against walls and kinematic parts, against the parts of hinged bodies, and hinged
//! bodies against their stops, all at once. One ball in a corner, in a V or against a
//! hinged flipper on its stop is a [`OneBall`]; balls touching each other at one instant,
//! with every surface and hinged part they touch, are a [`Cluster`] (gathered by
//! `multiball/cluster.rs`).
//!
//! **Capacity, and no allocation.** A [`Problem`] holds its unknowns, its rows and every
//! buffer of its solve in fixed arrays, sized by its const parameters (`ROWS`, `BALLS`,
//! `HINGES`): a solve never allocates, and neither does building one. Adding a ball, a
//! hinged body or a row past the capacity is refused ([`Problem::ball`] gives `None`,
//! [`Problem::push`] `false`), and the caller counts it. A [`OneBall`] is 824 bytes,
//! built on the stack for each contact (the lone sweep has no scratch to keep one in); a
//! [`Cluster`] is 43 KB, three quarters of it its `64²` matrix, and its caller keeps it
//! boxed in a scratch.
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
//! The velocity this gives is the one nearest the old (in the kinetic-energy metric) that
//! moves into no surface. Up to [`MAX_EXACT_ROWS`] rows it is solved exactly, every active
//! set tried, fewest rows first. Above that, by projected Jacobi, every sum taken with [`balanced_sum`], so the result does not depend on the order
//! of the rows and mirror images stay mirror images to the bit; [`Solved::passes`] counts
//! the passes (a solve that reaches [`MAX_SIMULTANEOUS_PASSES`] counts the cap).
//!
//! **Applying the impulses.** With one ball, row by row in row order
//! (`v += n·(x·(1/m))`, `ω += s·x·(1/I)`): the results are the bits of the one-ball solver
//! this replaced (`simultaneous.rs`), velocities and impulses alike (the test
//! `one_ball_gives_the_bits_of_the_one_ball_solver`). With more balls, each unknown's
//! change is the balanced sum of its rows' pushes, per component, `v + (p₁ + p₂)` in an
//! order that depends only on the values, so that mirror images stay mirror images.
//!
//! **Restitution**, by Poisson's hypothesis with one `e` for the whole contact: the impulses
//! applied are `(1 + e)·x`, `e` the least restitution of the rows approaching (speed below
//! `−tolerance`). With no target, the energy changes by `x·c·(1 + e)(1 − e)/2 ≤ 0` (since
//! `x·K·x = −x·c`): kept at `e = 1`, lost below, never made. In a 90° corner this is the
//! two reflections; exactly into a symmetric V, the ball leaves straight back at `−e·v`.
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
//!    ends it ([`Solved::capped`]): that round only ever takes energy away (`x·c/2 ≤ 0`);
//! 3. the finish: a ball stopped dead against still walls is at rest, exactly; a ball that
//!    ends on a surface (a wall, a kinematic or hinged part) leaves it at least at
//!    [`SEPARATION_SPEED_REL`] of its speed, as [`reflect`](crate::reflect) leaves a
//!    resting contact; a ball–ball row gets no bias beyond its target.
//!
//! **A free cradle.** Balls that touch are ONE contact: four touching balls in a row, the
//! first struck at `v` with `e = 1`, leave at `(−v/2, v/2, v/2, v/2)`, which keeps both
//! momentum and energy (the textbook `(0, 0, 0, v)` is another answer that keeps both; one
//! contact with one `e` gives this one). A real cradle's balls are never quite touching: with
//! gaps the impact passes ball by ball, each a separate instant, and the last ball leaves.
//!
//! **No solution.** Two surfaces closing in across a ball that neither can push away (two
//! kinematic parts, or one and a wall) leave no velocity that moves into neither: the solve
//! returns `None`, and the caller squeezes the ball (`response::two_surfaces`). Up to
//! [`MAX_EXACT_ROWS`] rows no active set solves it. Above, it shows in the Jacobi solve: it
//! settles on impulses that leave a row approaching (a row nothing can push), or its
//! impulses grow without end, so it stops at [`MAX_SIMULTANEOUS_PASSES`] and the next round
//! starts with an approach no smaller than the last one's. A solvable problem so slow to
//! converge that a whole capped round does not lessen its approach would be taken for one
//! with no solution.
//!
//! **Jacobi's pace.** Projected Jacobi is slow on a chain of touching balls (the damping of
//! Gershgorin's bound is 1/2, and the chain's matrix is ill-conditioned): five balls in a
//! row against a wall need about 1,070 passes to converge, a free row of five about 270. A
//! round stopped at the cap applies restitution to the compression found so far, and the
//! rounds go on from what is left; the result is then only as good as the passes allowed
//! (see the test `a_longer_chain_reports_the_passes_it_took`).

use crate::tolerance::{
    CONTACT_SOLVE_TOLERANCE, MAX_INSTANT_BALLS, MAX_INSTANT_HINGES, MAX_INSTANT_ROWS,
    MAX_SIMULTANEOUS_PASSES, MAX_SIMULTANEOUS_ROUNDS, SEPARATION_SPEED_REL, SIMULTANEOUS_SOLVE_TOLERANCE_REL,
};
use glam::DVec2;

/// The most rows solved exactly, by trying every active set (`2^4` small solves); more are
/// solved by projected Jacobi iteration.
pub(crate) const MAX_EXACT_ROWS: usize = 4;

/// The most rows of a [`OneBall`]: two surfaces and a stop for each of two hinged bodies
/// (a ball between two flippers, each on its stop). Within [`MAX_EXACT_ROWS`]: a one-ball
/// contact is always solved exactly.
pub(crate) const ONE_BALL_ROWS: usize = 4;

/// The most hinged bodies a [`OneBall`] involves: the two flippers a ball can lie between.
pub(crate) const ONE_BALL_HINGES: usize = 2;

/// One ball touching up to two surfaces (walls, kinematic parts, parts of hinged bodies)
/// and the stops of up to two hinged bodies: a corner, a V, a ball against a flipper on its
/// stop, a ball between two flippers. 824 bytes: built on the stack for each contact
/// ([`OneBall::around`]).
pub(crate) type OneBall = Problem<ONE_BALL_ROWS, 1, ONE_BALL_HINGES>;

/// The balls touching each other at one instant, with the surfaces, hinged parts and stops
/// they touch: up to [`MAX_INSTANT_ROWS`] rows, [`MAX_INSTANT_BALLS`] balls and
/// [`MAX_INSTANT_HINGES`] hinged bodies (beyond them the caller solves in parts). 43 KB:
/// its caller keeps it boxed in a scratch and [`Problem::clear`]s it for each. (Its
/// callers, the ball–ball batches and the resting contacts, come next; until then it and
/// what only it needs serve the tests alone.)
pub(crate) type Cluster = Problem<MAX_INSTANT_ROWS, MAX_INSTANT_BALLS, MAX_INSTANT_HINGES>;

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

/// The unknowns of the contact: up to `BALLS` balls and `HINGES` hinged bodies, by index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bodies<const BALLS: usize, const HINGES: usize> {
    /// The balls, as [`Bodies::ball`] numbered them (the first `ball_count`).
    balls: [BallUnknown; BALLS],
    /// How many balls there are.
    ball_count: usize,
    /// The hinged bodies, as [`Bodies::hinge`] numbered them (the first `hinge_count`).
    hinges: [HingeUnknown; HINGES],
    /// How many hinged bodies there are.
    hinge_count: usize,
}

impl<const BALLS: usize, const HINGES: usize> Default for Bodies<BALLS, HINGES> {
    fn default() -> Self {
        Self {
            balls: [BallUnknown::default(); BALLS],
            ball_count: 0,
            hinges: [HingeUnknown::default(); HINGES],
            hinge_count: 0,
        }
    }
}

impl<const BALLS: usize, const HINGES: usize> Bodies<BALLS, HINGES> {
    /// Add a ball; returns its index for the rows, `None` (and nothing added) when there
    /// are `BALLS` already.
    pub(crate) fn ball(&mut self, velocity: DVec2, inverse_mass: f64) -> Option<usize> {
        let index = self.ball_count;
        *self.balls.get_mut(index)? = BallUnknown {
            velocity,
            inverse_mass,
        };
        self.ball_count += 1;
        Some(index)
    }

    /// Add a hinged body; returns its index for the rows, `None` (and nothing added) when
    /// there are `HINGES` already.
    pub(crate) fn hinge(&mut self, spin: f64, inverse_inertia: f64) -> Option<usize> {
        let index = self.hinge_count;
        *self.hinges.get_mut(index)? = HingeUnknown {
            spin,
            inverse_inertia,
        };
        self.hinge_count += 1;
        Some(index)
    }

    /// The balls so far.
    pub(crate) fn balls(&self) -> &[BallUnknown] {
        &self.balls[..self.ball_count]
    }

    /// The hinged bodies so far.
    pub(crate) fn hinges(&self) -> &[HingeUnknown] {
        &self.hinges[..self.hinge_count]
    }

    /// No unknowns.
    pub(crate) fn clear(&mut self) {
        self.ball_count = 0;
        self.hinge_count = 0;
    }

    /// Every value finite and every inverse mass and inertia non-negative.
    fn valid(&self) -> bool {
        let ball =
            |b: &BallUnknown| b.velocity.is_finite() && b.inverse_mass.is_finite() && b.inverse_mass >= 0.0;
        let hinge = |h: &HingeUnknown| {
            h.spin.is_finite() && h.inverse_inertia.is_finite() && h.inverse_inertia >= 0.0
        };
        self.balls().iter().all(ball) && self.hinges().iter().all(hinge)
    }
}

/// One speed of the contact that must not end below its target:
/// `n·v_first − n·v_second + spin·ω_hinge + bias`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
            normal,
            ..Self::default()
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

    /// The sign ball `k` is read with, if the row reads it.
    fn reads(&self, k: usize) -> Option<f64> {
        if self.first == Some(k) {
            Some(1.0)
        } else if self.second == Some(k) {
            Some(-1.0)
        } else {
            None
        }
    }

    /// Finite, and naming only unknowns that exist (`balls` balls, `hinges` hinged bodies;
    /// and two different balls).
    fn valid(&self, balls: usize, hinges: usize) -> bool {
        let finite = self.normal.is_finite()
            && self.spin.is_finite()
            && self.bias.is_finite()
            && self.target.is_finite()
            && self.restitution.is_finite();
        let names = self.first.is_none_or(|a| a < balls)
            && self.second.is_none_or(|b| b < balls && Some(b) != self.first)
            && self.hinge.is_none_or(|h| h < hinges);
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
fn coupling<const BALLS: usize, const HINGES: usize>(
    r: &Row,
    s: &Row,
    bodies: &Bodies<BALLS, HINGES>,
) -> f64 {
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

/// The lists of [`balanced_sum`], room for `N` terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SumScratch<const N: usize> {
    /// The positive terms.
    positive: [f64; N],
    /// The negative terms, negated.
    negative: [f64; N],
}

impl<const N: usize> Default for SumScratch<N> {
    fn default() -> Self {
        Self {
            positive: [0.0; N],
            negative: [0.0; N],
        }
    }
}

/// A single term as [`balanced_sum`] sums it: itself, and `0` for a zero or NaN term.
#[inline]
fn lone(term: f64) -> f64 {
    if term.abs() > 0.0 { term } else { 0.0 }
}

/// The sum of `terms` in an order that depends only on their values: the positive ones
/// from the smallest up, the negative ones likewise, then the difference. Negating every
/// term negates the sum exactly, and reordering the terms changes nothing. A single term is
/// its own sum, without the lists. Each list holds `N` terms: more than `N` positive or
/// `N` negative terms (the solver never sums more than `N` terms in all) sum to NaN, which
/// its checks turn into no solution.
pub(crate) fn balanced_sum<const N: usize>(
    mut terms: impl Iterator<Item = f64>,
    scratch: &mut SumScratch<N>,
) -> f64 {
    let Some(first) = terms.next() else {
        return 0.0;
    };
    let Some(second) = terms.next() else {
        return lone(first);
    };
    let (mut positive, mut negative) = (0, 0);
    for t in [first, second].into_iter().chain(terms) {
        let (list, len, value) = if t > 0.0 {
            (&mut scratch.positive, &mut positive, t)
        } else if t < 0.0 {
            (&mut scratch.negative, &mut negative, -t)
        } else {
            continue;
        };
        let Some(slot) = list.get_mut(*len) else {
            return f64::NAN;
        };
        *slot = value;
        *len += 1;
    }
    let pos = &mut scratch.positive[..positive];
    let neg = &mut scratch.negative[..negative];
    // Terms equal by `total_cmp` are the same bits: an unstable sort (which never
    // allocates) gives the same lists as a stable one.
    pos.sort_unstable_by(f64::total_cmp);
    neg.sort_unstable_by(f64::total_cmp);
    pos.iter().sum::<f64>() - neg.iter().sum::<f64>()
}

/// The working state and buffers of a solve (the first `n` entries of each for `n` rows,
/// balls or hinged bodies).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Work<const ROWS: usize, const BALLS: usize, const HINGES: usize> {
    /// The balls' velocities as the solve goes.
    velocities: [DVec2; BALLS],
    /// The hinged bodies' angular velocities as the solve goes.
    spins: [f64; HINGES],
    /// Each row's speed less its target (or, in the finish, less its bias).
    speeds: [f64; ROWS],
    /// `K`.
    matrix: [[f64; ROWS]; ROWS],
    /// The impulses of the current solve.
    x: [f64; ROWS],
    /// Each row's total impulse.
    impulses: [f64; ROWS],
    /// Which rows take part in the current solve.
    taking: [bool; ROWS],
    /// The Jacobi solve's next impulses.
    jacobi: [f64; ROWS],
    /// The balanced sums' lists.
    sums: SumScratch<ROWS>,
}

impl<const ROWS: usize, const BALLS: usize, const HINGES: usize> Default for Work<ROWS, BALLS, HINGES> {
    fn default() -> Self {
        Self {
            velocities: [DVec2::ZERO; BALLS],
            spins: [0.0; HINGES],
            speeds: [0.0; ROWS],
            matrix: [[0.0; ROWS]; ROWS],
            x: [0.0; ROWS],
            impulses: [0.0; ROWS],
            taking: [false; ROWS],
            jacobi: [0.0; ROWS],
            sums: SumScratch::default(),
        }
    }
}

/// The contact of one instant: its unknowns, its rows and the solver's buffers, up to
/// `ROWS` rows, `BALLS` balls and `HINGES` hinged bodies (see [`OneBall`] and
/// [`Cluster`]). Nothing in it is on the heap: a solve never allocates.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Problem<const ROWS: usize, const BALLS: usize, const HINGES: usize> {
    /// The unknowns.
    pub(crate) bodies: Bodies<BALLS, HINGES>,
    /// The rows (the first `row_count`).
    rows: [Row; ROWS],
    /// How many rows there are.
    row_count: usize,
    /// The solve's state and buffers.
    work: Work<ROWS, BALLS, HINGES>,
}

impl<const ROWS: usize, const BALLS: usize, const HINGES: usize> Default for Problem<ROWS, BALLS, HINGES> {
    fn default() -> Self {
        Self {
            bodies: Bodies::default(),
            rows: [Row::default(); ROWS],
            row_count: 0,
            work: Work::default(),
        }
    }
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

impl OneBall {
    /// The index of the ball of a problem made by [`OneBall::around`].
    pub(crate) const BALL: usize = 0;

    /// One ball moving at `velocity`, of inverse mass `inverse_mass` (any positive value
    /// when only walls and kinematic parts take part: they do not care), as unknown
    /// [`OneBall::BALL`]; no hinged body and no rows yet.
    pub(crate) fn around(velocity: DVec2, inverse_mass: f64) -> Self {
        let mut problem = Self::default();
        problem.bodies.balls[Self::BALL] = BallUnknown {
            velocity,
            inverse_mass,
        };
        problem.bodies.ball_count = 1;
        problem
    }
}

impl<const ROWS: usize, const BALLS: usize, const HINGES: usize> Problem<ROWS, BALLS, HINGES> {
    /// No unknowns and no rows.
    pub(crate) fn clear(&mut self) {
        self.bodies.clear();
        self.row_count = 0;
    }

    /// Add a ball (see [`Bodies::ball`]); `None` when there are `BALLS` already.
    pub(crate) fn ball(&mut self, velocity: DVec2, inverse_mass: f64) -> Option<usize> {
        self.bodies.ball(velocity, inverse_mass)
    }

    /// Add a hinged body (see [`Bodies::hinge`]); `None` when there are `HINGES` already.
    pub(crate) fn hinge(&mut self, spin: f64, inverse_inertia: f64) -> Option<usize> {
        self.bodies.hinge(spin, inverse_inertia)
    }

    /// Add `row` (checked when solving); `false` (and nothing added) when there are `ROWS`
    /// already.
    pub(crate) fn push(&mut self, row: Row) -> bool {
        let Some(slot) = self.rows.get_mut(self.row_count) else {
            return false;
        };
        *slot = row;
        self.row_count += 1;
        true
    }

    /// The rows so far.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> &[Row] {
        &self.rows[..self.row_count]
    }

    /// The velocities after the contact (see the module doc). `None` when no velocity moves
    /// into no surface (a squeeze), or the input is not finite or names a missing unknown.
    pub(crate) fn solve(&mut self) -> Option<Solved<'_>> {
        let Self {
            bodies,
            rows,
            row_count,
            work,
        } = self;
        let rows = &rows[..*row_count];
        let (balls, hinges) = (bodies.balls().len(), bodies.hinges().len());
        if !bodies.valid() || !rows.iter().all(|r| r.valid(balls, hinges)) {
            return None;
        }
        work.start(bodies, rows);
        let rounds = work.rounds(bodies, rows)?;
        let finish = work.finish(bodies, rows)?;
        Some(Solved {
            velocities: &work.velocities[..balls],
            spins: &work.spins[..hinges],
            impulses: &work.impulses[..rows.len()],
            rounds: rounds.rounds,
            passes: rounds.passes + finish,
            capped: rounds.capped,
        })
    }
}

impl<const ROWS: usize, const BALLS: usize, const HINGES: usize> Work<ROWS, BALLS, HINGES> {
    /// The state before, the matrix, and no impulses yet.
    fn start(&mut self, bodies: &Bodies<BALLS, HINGES>, rows: &[Row]) {
        for (v, ball) in self.velocities.iter_mut().zip(bodies.balls()) {
            *v = ball.velocity;
        }
        for (w, hinge) in self.spins.iter_mut().zip(bodies.hinges()) {
            *w = hinge.spin;
        }
        for (line, r) in self.matrix.iter_mut().zip(rows) {
            for (entry, s) in line.iter_mut().zip(rows) {
                *entry = coupling(r, s, bodies);
            }
        }
        for v in [&mut self.speeds, &mut self.x, &mut self.impulses] {
            v.fill(0.0);
        }
        self.taking.fill(false);
    }

    /// Each row's speed less its target, into `speeds`.
    fn measure(&mut self, rows: &[Row]) {
        for (c, row) in self.speeds.iter_mut().zip(rows) {
            *c = row.speed(&self.velocities, &self.spins) - row.target;
        }
    }

    /// The rounds of compression and restitution (see the module doc).
    fn rounds(&mut self, bodies: &Bodies<BALLS, HINGES>, rows: &[Row]) -> Option<Rounds> {
        let n = rows.len();
        self.measure(rows);
        let scale = self.speeds[..n].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
        let mut out = Rounds::default();
        // The worst approach at the start of a round whose Jacobi solve reached its cap.
        let mut stalled = f64::INFINITY;
        loop {
            self.measure(rows);
            let speeds = &self.speeds[..n];
            if !speeds.iter().all(|x| x.is_finite()) {
                return None;
            }
            let worst = speeds.iter().fold(0.0_f64, |m, &c| m.max(-c));
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
                self.taking[..n].fill(true);
                out.passes += self.compress(n)?.spent;
                self.apply(bodies, rows);
                self.record(n);
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
            let passes = self.compress(n)?;
            out.passes += passes.spent;
            stalled = if passes.capped { worst } else { f64::INFINITY };
            for x in &mut self.x[..n] {
                *x *= 1.0 + e;
            }
            self.apply(bodies, rows);
            self.record(n);
            out.rounds += 1;
        }
    }

    /// The compression impulses of the `taking` rows among the first `n` for the speeds
    /// `speeds`, into `x`; `None` when there is no solution.
    fn compress(&mut self, n: usize) -> Option<Passes> {
        if n <= MAX_EXACT_ROWS {
            let mut k = [[0.0; MAX_EXACT_ROWS]; MAX_EXACT_ROWS];
            let mut c = [0.0; MAX_EXACT_ROWS];
            let mut taking = 0_u32;
            for a in 0..n {
                k[a][..n].copy_from_slice(&self.matrix[a][..n]);
                c[a] = self.speeds[a];
                if self.taking[a] {
                    taking |= 1 << a;
                }
            }
            let x = complementary(&k, &c, n, taking)?;
            self.x[..n].copy_from_slice(&x[..n]);
            return Some(Passes::default());
        }
        let lcp = Lcp {
            k: &self.matrix[..n],
            c: &self.speeds[..n],
            taking: &self.taking[..n],
        };
        lcp.jacobi(&mut self.x[..n], &mut self.jacobi[..n], &mut self.sums)
    }

    /// The impulses `x` applied to the unknowns: with one ball row by row, else balanced.
    fn apply(&mut self, bodies: &Bodies<BALLS, HINGES>, rows: &[Row]) {
        if let [ball] = bodies.balls() {
            self.apply_in_order(ball, bodies.hinges(), rows);
        } else {
            self.apply_balanced(bodies, rows);
        }
    }

    /// The impulses `x` applied to the one `ball` and the `hinges`, row by row in row
    /// order, each row's push added to every unknown (a zero one where the row does not
    /// read it): `v += n·(x·(1/m))`, `ω += s·x·(1/I)`, as the one-ball solver this replaced
    /// did, so the velocities are its bits.
    fn apply_in_order(&mut self, ball: &BallUnknown, hinges: &[HingeUnknown], rows: &[Row]) {
        for (row, &x) in rows.iter().zip(&self.x) {
            // A stop's normal is zero: it adds a zero, as the old solver's did.
            let along = row.normal * row.reads(0).unwrap_or(1.0);
            self.velocities[0] += along * (x * ball.inverse_mass);
            for (h, (spin, hinge)) in self.spins.iter_mut().zip(hinges).enumerate() {
                let coefficient = if row.hinge == Some(h) { row.spin } else { 0.0 };
                *spin += coefficient * x * hinge.inverse_inertia;
            }
        }
    }

    /// The impulses `x` applied to the unknowns: each unknown's change is the balanced sum
    /// of its rows' pushes (per component for a ball), so that it does not depend on the
    /// order of the rows. An unknown no row reads, or nothing can push, is left as it is.
    fn apply_balanced(&mut self, bodies: &Bodies<BALLS, HINGES>, rows: &[Row]) {
        let Self {
            velocities,
            spins,
            x,
            sums,
            ..
        } = self;
        for (k, (v, ball)) in velocities.iter_mut().zip(bodies.balls()).enumerate() {
            if !(ball.inverse_mass > 0.0) || !rows.iter().any(|r| r.reads(k).is_some()) {
                continue;
            }
            let push = || {
                let read = rows.iter().zip(x.iter());
                read.filter_map(move |(r, &x)| r.reads(k).map(|sign| r.normal * (sign * x)))
            };
            let dx = balanced_sum(push().map(|d| d.x), sums);
            let dy = balanced_sum(push().map(|d| d.y), sums);
            *v += DVec2::new(dx, dy) * ball.inverse_mass;
        }
        for (h, (w, hinge)) in spins.iter_mut().zip(bodies.hinges()).enumerate() {
            let on = |r: &Row| r.hinge == Some(h);
            if !(hinge.inverse_inertia > 0.0) || !rows.iter().any(on) {
                continue;
            }
            let turns = rows.iter().zip(x.iter()).filter(|(r, _)| on(r));
            let turn = balanced_sum(turns.map(|(r, &x)| r.spin * x), sums);
            *w += turn * hinge.inverse_inertia;
        }
    }

    /// The first `n` of `x` added to the rows' totals.
    fn record(&mut self, n: usize) {
        for (total, v) in self.impulses[..n].iter_mut().zip(&self.x) {
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
    fn finish(&mut self, bodies: &Bodies<BALLS, HINGES>, rows: &[Row]) -> Option<u32> {
        let n = rows.len();
        for (k, ball) in bodies.balls().iter().enumerate() {
            if self.still(k, ball, rows) {
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
        if self.speeds[..n].iter().any(|&c| c < 0.0) {
            self.taking[..n].fill(true);
            if let Some(spent) = self.compress(n) {
                passes = spent.spent;
                self.apply(bodies, rows);
            }
        }
        let velocities = &self.velocities[..bodies.balls().len()];
        let spins = &self.spins[..bodies.hinges().len()];
        let finite = velocities.iter().all(|v| v.is_finite()) && spins.iter().all(|w| w.is_finite());
        finite.then_some(passes)
    }

    /// Whether ball `k` (`ball` before the contact) ends stopped dead against still walls:
    /// it has rows, all of them walls or hinged parts that do not move, with no target, and
    /// its speed is rounding.
    fn still(&self, k: usize, ball: &BallUnknown, rows: &[Row]) -> bool {
        let wall = |row: &Row| {
            let moving = row.hinge.is_some_and(|h| self.spins[h] != 0.0);
            row.second.is_none() && row.bias == 0.0 && row.target == 0.0 && !moving
        };
        let mut its = rows.iter().filter(|r| r.reads(k).is_some()).peekable();
        let speed = self.velocities[k].length();
        its.peek().is_some()
            && its.all(wall)
            && speed <= SIMULTANEOUS_SOLVE_TOLERANCE_REL * ball.velocity.length()
    }
}

/// A complementarity problem for the Jacobi path, over `n` rows (the length of `c`).
struct Lcp<'a, const ROWS: usize> {
    /// `K`'s first `n` lines (of which the first `n` entries count).
    k: &'a [[f64; ROWS]],
    /// The speeds before any impulse.
    c: &'a [f64],
    /// The rows taking part.
    taking: &'a [bool],
}

impl<const ROWS: usize> Lcp<'_, ROWS> {
    /// `w_r = c_r + Σ_d K_rd·x_d`, the sum balanced.
    fn speed(&self, r: usize, x: &[f64], sums: &mut SumScratch<ROWS>) -> f64 {
        let n = self.c.len();
        self.c[r] + balanced_sum((0..n).map(|d| self.k[r][d] * x[d]), sums)
    }

    /// Projected Jacobi over the taking rows (every impulse updated from the same previous
    /// ones, damped so that it converges), to [`CONTACT_SOLVE_TOLERANCE`] or
    /// [`MAX_SIMULTANEOUS_PASSES`]; the impulses into `x`, `next` the buffer of each pass
    /// (both of length `n`). `None` when it converged to impulses that leave a taking row
    /// approaching by more than the tolerance (a row that nothing can push), or to
    /// impulses not finite. A solve stopped by the cap is kept as it is: the rounds go on
    /// from there (see [`Work::rounds`]).
    fn jacobi(&self, x: &mut [f64], next: &mut [f64], sums: &mut SumScratch<ROWS>) -> Option<Passes> {
        let n = self.c.len();
        let scale = self.c.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
        x.fill(0.0);
        let rows = || (0..n).filter(|&r| self.taking[r]);
        if rows().all(|r| self.c[r] >= -tolerance) {
            return Some(Passes::default());
        }
        let omega = self.damping(sums);
        next.fill(0.0);
        let mut out = Passes {
            spent: MAX_SIMULTANEOUS_PASSES,
            capped: true,
        };
        for pass in 1..=MAX_SIMULTANEOUS_PASSES {
            let (mut change, mut largest) = (0.0_f64, 0.0_f64);
            for r in 0..n {
                let diag = self.k[r][r];
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
    fn damping(&self, sums: &mut SumScratch<ROWS>) -> f64 {
        let n = self.c.len();
        let mut spread = 0.0_f64;
        for r in (0..n).filter(|&r| self.taking[r]) {
            let diag = self.k[r][r];
            if diag > 0.0 {
                let off = (0..n)
                    .filter(|&d| d != r && self.taking[d])
                    .map(|d| self.k[r][d].abs());
                spread = spread.max(balanced_sum(off, sums) / diag);
            }
        }
        1.0 / (1.0 + spread)
    }
}

/// Every non-empty active set of [`MAX_EXACT_ROWS`] rows, as bit masks, fewest rows first
/// and in increasing order among sets of as many: the order a stable sort of `1..16` by
/// the count of ones gives, without the sort.
const ACTIVE_SETS: [u32; (1 << MAX_EXACT_ROWS) - 1] = active_sets();

/// [`ACTIVE_SETS`], computed.
const fn active_sets() -> [u32; (1 << MAX_EXACT_ROWS) - 1] {
    let mut sets = [0; (1 << MAX_EXACT_ROWS) - 1];
    let mut next = 0;
    let mut ones = 1;
    while ones <= MAX_EXACT_ROWS as u32 {
        let mut mask = 1_u32;
        while mask < 1 << MAX_EXACT_ROWS {
            if mask.count_ones() == ones {
                sets[next] = mask;
                next += 1;
            }
            mask += 1;
        }
        ones += 1;
    }
    sets
}

/// The `x ≥ 0` with `w = c + K·x ≥ 0` and `x·w = 0` over the rows of `taking` (among the
/// first `n`; the others take no impulse and are not checked), by trying each active set,
/// fewest rows first (at most `2^MAX_EXACT_ROWS` small solves). `None` when no active set
/// gives one: the rows contradict each other.
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
    // The sets of the first n rows, in the table's order (those of fewer rows keep theirs).
    for &mask in ACTIVE_SETS.iter().filter(|&&mask| mask >> n == 0) {
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
    use glam::Vec2;

    /// A problem of the tests' sizes: past the exact solve, small on the stack.
    type Small = Problem<8, 8, 2>;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// One ball of mass 1 moving at `v` against still walls of normals `normals`, each of
    /// restitution `e`.
    fn walls(normals: &[Vec2], e: f32, v: DVec2) -> Small {
        let mut p = Small::default();
        let ball = p.ball(v, 1.0).unwrap();
        for &n in normals {
            assert!(p.push(Row::surface(ball, n.as_dvec2(), DVec2::ZERO).with_restitution(e)));
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
        fn problem(&self) -> Small {
            let mut p = Small::default();
            for &v in &self.velocities {
                p.ball(DVec2::new(v, 0.0), 1.0).unwrap();
            }
            for k in 1..self.velocities.len() {
                let approach = self.velocities[k - 1] > self.velocities[k];
                let e = if approach { self.e } else { self.resting };
                assert!(p.push(Row::pair(k, k - 1, DVec2::X).with_restitution(e)));
            }
            if let Some(e) = self.wall {
                let last = self.velocities.len() - 1;
                assert!(p.push(Row::surface(last, -DVec2::X, DVec2::ZERO).with_restitution(e)));
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
            let mut p = Small::default();
            let ball = p.ball(v, 1.0).unwrap();
            let h = p.hinge(0.0, 1.0 / inertia).unwrap();
            assert!(p.push(Row::surface(ball, DVec2::Y, DVec2::ZERO).with_restitution(1.0)));
            assert!(p.push(Row::hinged(ball, normal, arm, DVec2::ZERO, h).with_restitution(1.0)));
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
        assert!(p.push(Row::surface(0, DVec2::X, DVec2::ZERO).with_restitution(0.5)));
        let out = p.solve().unwrap();
        assert!((out.velocities[0] - DVec2::new(1.0, 1.0)).length() < 1e-12);
    }

    #[test]
    fn closing_walls_have_no_solution() {
        // Two facing walls, one moving in at 1: no velocity moves into neither.
        let mut p = walls(&[Vec2::Y], 1.0, DVec2::new(0.0, -1.0));
        assert!(p.push(Row::surface(0, -DVec2::Y, -DVec2::Y)));
        assert!(p.solve().is_none());
        // The same with three more walls the ball leaves (five rows: the Jacobi path).
        for n in [DVec2::X, -DVec2::X, DVec2::new(0.6, 0.8)] {
            assert!(p.push(Row::surface(0, n, -n)));
        }
        assert!(p.rows().len() > MAX_EXACT_ROWS);
        assert!(p.solve().is_none());
    }

    #[test]
    fn a_hinge_on_its_stop_is_a_wall() {
        // A ball of mass 1 falls at 2 onto an arm 1 from the pivot (inertia 1), which rests
        // on its lower stop: the stop holds the arm, and the ball bounces as off a wall.
        let hinge = |normal: DVec2, v: DVec2| {
            let mut p = Small::default();
            let ball = p.ball(v, 1.0).unwrap();
            let h = p.hinge(0.0, 1.0).unwrap();
            assert!(p.push(Row::hinged(ball, normal, DVec2::X, DVec2::ZERO, h).with_restitution(1.0)));
            assert!(p.push(Row::stop(1.0, h).with_restitution(0.2)));
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
        let mut p = Small::default();
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
                    let ball = p.ball(v, 1.0).unwrap();
                    for n in normals {
                        assert!(p.push(Row::surface(ball, n.as_dvec2(), DVec2::ZERO).with_restitution(e)));
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

    /// One part of a one-ball case.
    #[derive(Clone, Copy, Debug)]
    enum Part {
        /// A wall or a kinematic part ([`Row::surface`]).
        Surface { normal: Vec2, velocity: Vec2 },
        /// A part of hinged body `body` ([`Row::hinged`]).
        Hinged {
            normal: Vec2,
            arm: Vec2,
            pivot: Vec2,
            body: usize,
        },
        /// Body `body` on a stop ([`Row::stop`]).
        Stop { toward: f64, body: usize },
    }

    /// A one-ball contact: the ball, two hinged bodies (of inverse inertia 0 when none takes
    /// part), and its parts in row order, each with its restitution. The figures are f32,
    /// as the callers give them.
    #[derive(Clone, Debug)]
    struct Case {
        inverse_mass: f64,
        inertia: [f64; ONE_BALL_HINGES],
        velocity: Vec2,
        spin: [f64; ONE_BALL_HINGES],
        parts: Vec<(Part, f32)>,
    }

    impl Case {
        fn walls(normals: &[Vec2], e: f32, v: Vec2) -> Self {
            let wall = |&normal: &Vec2| {
                let velocity = Vec2::ZERO;
                (Part::Surface { normal, velocity }, e)
            };
            Self {
                inverse_mass: 1.0,
                inertia: [0.0; ONE_BALL_HINGES],
                velocity: v,
                spin: [0.0; ONE_BALL_HINGES],
                parts: normals.iter().map(wall).collect(),
            }
        }

        fn problem(&self) -> OneBall {
            let mut p = OneBall::around(self.velocity.as_dvec2(), self.inverse_mass);
            for b in 0..ONE_BALL_HINGES {
                assert_eq!(p.hinge(self.spin[b], self.inertia[b]), Some(b));
            }
            let ball = OneBall::BALL;
            for &(part, e) in &self.parts {
                let row = match part {
                    Part::Surface { normal, velocity } => {
                        Row::surface(ball, normal.as_dvec2(), velocity.as_dvec2())
                    }
                    Part::Hinged {
                        normal,
                        arm,
                        pivot,
                        body,
                    } => Row::hinged(ball, normal.as_dvec2(), arm.as_dvec2(), pivot.as_dvec2(), body),
                    Part::Stop { toward, body } => Row::stop(toward, body),
                };
                assert!(p.push(row.with_restitution(e)));
            }
            p
        }

        /// The bits of its outcome, into `digest`.
        fn digest(&self, digest: &mut Digest) {
            let mut p = self.problem();
            let Some(out) = p.solve() else {
                digest.word(u64::MAX);
                return;
            };
            assert_eq!(out.passes, 0, "the exact solve");
            digest.word(u64::from(out.rounds));
            digest.word(u64::from(out.capped));
            let velocity = out.velocities.iter().flat_map(|v| [v.x, v.y]);
            for value in out
                .impulses
                .iter()
                .copied()
                .chain(velocity)
                .chain(out.spins.iter().copied())
            {
                digest.word(value.to_bits());
            }
        }
    }

    /// FNV-1a, 64 bits, over words: the same on every platform.
    struct Digest(u64);

    impl Digest {
        fn new() -> Self {
            Self(0xcbf2_9ce4_8422_2325)
        }

        fn word(&mut self, word: u64) {
            for byte in word.to_le_bytes() {
                self.0 ^= u64::from(byte);
                self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }

    /// The one-ball cases of [`one_ball_gives_the_bits_of_the_one_ball_solver`]: corners,
    /// V's of eight openings at 24 aims (every direction from integer figures, through
    /// `sqrt` alone, so the same on every platform), a kinematic part, closing walls, a
    /// hinge on its stop, a ball between two flippers.
    fn one_ball_cases() -> Vec<Case> {
        let mut cases = Vec::new();
        let corner = [Vec2::Y, Vec2::X];
        for e in [1.0, 0.5, 0.0] {
            cases.push(Case::walls(&corner, e, Vec2::new(-3.0, -4.0)));
        }
        cases.push(Case::walls(&corner, 1.0, Vec2::new(2.0, -4.0)));
        let mut mixed = Case::walls(&corner, 1.0, Vec2::new(-2.0, -2.0));
        mixed.parts[1].1 = 0.5;
        cases.push(mixed);
        // V's from about 0.5° (a normal of (229, 1)) to about 179.5° (of (1, 229)).
        for (c, s) in [
            (229.0, 1.0),
            (23.0, 1.0),
            (11.0, 1.0),
            (5.0, 2.0),
            (1.0, 1.0),
            (2.0, 5.0),
            (1.0, 11.0),
            (1.0, 229.0),
        ] {
            let normals = [Vec2::new(c, s).normalize(), Vec2::new(-c, s).normalize()];
            for i in -3..=3_i8 {
                for j in -3..=3_i8 {
                    if i.abs().max(j.abs()) != 3 {
                        continue;
                    }
                    let v = Vec2::new(f32::from(i), f32::from(j)).normalize() * 7.0;
                    for e in [1.0, 0.5] {
                        cases.push(Case::walls(&normals, e, v));
                    }
                }
            }
        }
        // A kinematic part and a wall; two facing walls closing (no solution).
        let mut moving = Case::walls(&[Vec2::Y], 0.7, Vec2::new(-1.0, -3.0));
        let (normal, velocity) = (Vec2::new(0.6, 0.8), Vec2::new(1.0, 0.5));
        moving.parts.push((Part::Surface { normal, velocity }, 0.0));
        cases.push(moving);
        let mut closing = Case::walls(&[Vec2::Y], 1.0, Vec2::new(0.0, -1.0));
        let (normal, velocity) = (-Vec2::Y, -Vec2::Y);
        closing.parts.push((Part::Surface { normal, velocity }, 0.0));
        cases.push(closing);
        // A hinge on its stop, from above and below.
        for (normal, v) in [(Vec2::Y, -2.0), (-Vec2::Y, 2.0)] {
            let mut hinge = Case::walls(&[], 1.0, Vec2::new(0.0, v));
            hinge.inertia = [1.0, 0.0];
            let (arm, pivot, body) = (Vec2::X, Vec2::ZERO, 0);
            hinge.parts.push((
                Part::Hinged {
                    normal,
                    arm,
                    pivot,
                    body,
                },
                1.0,
            ));
            hinge.parts.push((Part::Stop { toward: 1.0, body }, 0.2));
            cases.push(hinge);
        }
        // A ball between two flippers, each on its stop (four rows).
        let mut flippers = Case::walls(&[], 1.0, Vec2::new(0.3, -4.0));
        (flippers.inverse_mass, flippers.inertia, flippers.spin) = (2.0, [0.7, 0.4], [0.5, -0.25]);
        let left = Part::Hinged {
            normal: Vec2::new(0.6, 0.8),
            arm: Vec2::new(1.2, -0.3),
            pivot: Vec2::ZERO,
            body: 0,
        };
        let right = Part::Hinged {
            normal: Vec2::new(-0.6, 0.8),
            arm: Vec2::new(-1.0, -0.4),
            pivot: Vec2::new(0.1, 0.0),
            body: 1,
        };
        let stops = [(1.0, 0), (-1.0, 1)].map(|(toward, body)| (Part::Stop { toward, body }, 0.3));
        flippers.parts = [(left, 0.6), (right, 0.8)].into_iter().chain(stops).collect();
        cases.push(flippers);
        cases
    }

    /// The one-ball cases give the bits the one-ball solver this replaced
    /// (`simultaneous.rs`) gave: impulses, velocities, spins, rounds, all of them, so its
    /// callers' results did not change. Checked against it case by case (these 394, and the
    /// 514 it was first compared on, whose directions came from `sin_cos`) before it was
    /// removed; the digest of these outcomes is kept here.
    #[test]
    fn one_ball_gives_the_bits_of_the_one_ball_solver() {
        let cases = one_ball_cases();
        let mut digest = Digest::new();
        for case in &cases {
            case.digest(&mut digest);
        }
        assert_eq!(
            (cases.len(), digest.0),
            (394, 0xc390_804a_4525_d3f5),
            "{:#018x}",
            digest.0
        );
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
    /// `order` (indices into the angles), the balls likewise, into `p`.
    fn star<const R: usize, const B: usize, const H: usize>(
        p: &mut Problem<R, B, H>,
        order: [usize; 5],
        e: f32,
    ) -> [usize; 5] {
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
        p.clear();
        let mut index = [0; 5];
        for &k in &order {
            let inverse = if k == 0 { 0.5 } else { 1.0 };
            index[k] = p.ball(outward[k] * -2.0, inverse).unwrap();
        }
        let centre = p.ball(DVec2::new(1.0, 0.0), 1.0).unwrap();
        for &k in &order {
            assert!(p.push(Row::pair(centre, index[k], -outward[k]).with_restitution(e)));
        }
        index
    }

    /// Test 6. More rows than the exact solve takes (the Jacobi path): mirror images leave
    /// as mirror images to the bit, whatever the order of the rows and balls; the impulses
    /// are complementary; energy and momentum are kept at e = 1.
    #[test]
    fn a_symmetric_star_stays_symmetric_to_the_bit() {
        let masses = [2.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let mut p = Small::default();
        let index = star(&mut p, [0, 1, 2, 3, 4], 1.0);
        let before: Vec<DVec2> = p.bodies.balls().iter().map(|b| b.velocity).collect();
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
        // Another order of rows and balls, in a cluster of full size: the same bits for
        // each ball.
        let mut q = Box::<Cluster>::default();
        let other = star(&mut *q, [4, 2, 0, 3, 1], 1.0);
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
        star(&mut p, [0, 1, 2, 3, 4], 0.0);
        let out = p.solve().unwrap();
        let out_v = out.velocities.to_vec();
        let x = out.impulses.to_vec();
        for (r, row) in p.rows().iter().enumerate() {
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
        assert!(p.push(Row::surface(0, DVec2::new(f64::NAN, 0.0), DVec2::ZERO)));
        assert!(p.solve().is_none(), "a NaN normal");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        assert!(p.push(Row::surface(0, DVec2::X, DVec2::new(f64::INFINITY, 0.0))));
        assert!(p.solve().is_none(), "an infinite surface velocity");
        let mut p = walls(&[Vec2::Y], 1.0, DVec2::new(f64::INFINITY, -1.0));
        assert!(p.solve().is_none(), "an infinite ball velocity");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        p.bodies.balls[0].inverse_mass = f64::NAN;
        assert!(p.solve().is_none(), "a NaN mass");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        assert!(p.push(Row::surface(0, DVec2::X, DVec2::ZERO).with_target(f64::NAN)));
        assert!(p.solve().is_none(), "a NaN target");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        assert!(p.push(Row::pair(0, 3, DVec2::X)));
        assert!(p.solve().is_none(), "a missing ball");
        let mut p = walls(&[Vec2::Y], 1.0, v);
        assert!(p.push(Row::stop(1.0, 0)));
        assert!(p.solve().is_none(), "a missing hinge");
        // Five rows (the Jacobi path), one not finite.
        let mut p = walls(&[Vec2::Y, Vec2::X, -Vec2::X, -Vec2::Y], 1.0, v);
        assert!(p.push(Row::surface(0, DVec2::Y, DVec2::new(0.0, f64::NAN))));
        assert!(p.solve().is_none(), "a NaN row among five");
        // No rows: nothing changes, to the bit.
        let mut p = Small::default();
        p.ball(v, 1.0).unwrap();
        p.ball(DVec2::new(-0.0, 3.5), 0.25).unwrap();
        p.hinge(-1.25, 2.0).unwrap();
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
        let mut p = Small::default();
        let a = p.ball(DVec2::new(0.05, 0.0), 1.0).unwrap();
        let b = p.ball(DVec2::new(-0.05, 0.0), 1.0).unwrap();
        assert!(p.push(Row::pair(a, b, -DVec2::X).with_target(0.01)));
        let out = p.solve().unwrap();
        let speed = (out.velocities[a] - out.velocities[b]).dot(-DVec2::X);
        assert!(close(speed, 0.01, 1e-15), "{speed}");
        assert!(close(out.impulses[0], 0.055, 1e-15));
    }

    /// A problem is plain data: nothing in it is on the heap (it has no drop glue), so
    /// neither building one nor solving it allocates. A `OneBall` is small enough for the
    /// stack; a `Cluster` is the size its capacity says.
    #[test]
    fn a_problem_holds_nothing_on_the_heap() {
        const {
            assert!(!std::mem::needs_drop::<OneBall>());
            assert!(!std::mem::needs_drop::<Cluster>());
        };
        assert!(size_of::<OneBall>() < 1024, "{}", size_of::<OneBall>());
        let matrix = MAX_INSTANT_ROWS * MAX_INSTANT_ROWS * size_of::<f64>();
        assert!(
            size_of::<Cluster>() < matrix + 16 * 1024,
            "{}",
            size_of::<Cluster>()
        );
    }

    /// A full problem refuses more, and says so; a cleared one takes them again.
    #[test]
    fn a_full_problem_refuses_more() {
        let mut p = OneBall::around(DVec2::new(1.0, -2.0), 1.0);
        assert_eq!(p.ball(DVec2::ZERO, 1.0), None);
        assert_eq!(p.hinge(0.5, 1.0), Some(0));
        assert_eq!(p.hinge(0.5, 1.0), Some(1));
        assert_eq!(p.hinge(0.5, 1.0), None);
        for _ in 0..ONE_BALL_ROWS {
            assert!(p.push(Row::surface(OneBall::BALL, DVec2::Y, DVec2::ZERO)));
        }
        assert!(!p.push(Row::stop(1.0, 0)));
        assert_eq!(p.rows().len(), ONE_BALL_ROWS);
        assert_eq!(p.bodies.hinges().len(), ONE_BALL_HINGES);
        p.clear();
        assert!(p.rows().is_empty() && p.bodies.balls().is_empty());
        assert_eq!(p.ball(DVec2::ZERO, 1.0), Some(OneBall::BALL));
        let mut cluster = Box::<Cluster>::default();
        for k in 0..MAX_INSTANT_BALLS {
            assert_eq!(cluster.ball(DVec2::ZERO, 1.0), Some(k));
        }
        assert_eq!(cluster.ball(DVec2::ZERO, 1.0), None);
        for _ in 0..MAX_INSTANT_ROWS {
            assert!(cluster.push(Row::pair(1, 0, DVec2::X)));
        }
        assert!(!cluster.push(Row::pair(1, 0, DVec2::X)));
    }

    /// The table of active sets is the stable sort it stands for, for every count of rows.
    #[test]
    fn the_active_sets_come_fewest_rows_first() {
        assert_eq!(ACTIVE_SETS, [1, 2, 4, 8, 3, 5, 6, 9, 10, 12, 7, 11, 13, 14, 15]);
        for n in 1..=MAX_EXACT_ROWS {
            let mut sorted: Vec<u32> = (1..1 << n).collect();
            sorted.sort_by_key(|m| m.count_ones());
            let table: Vec<u32> = ACTIVE_SETS.iter().copied().filter(|&m| m >> n == 0).collect();
            assert_eq!(sorted, table, "{n} rows");
        }
    }

    #[test]
    fn balanced_sums_ignore_order_and_mirror_exactly() {
        let mut s = SumScratch::<8>::default();
        let terms = [1e16, 1.0, -1e16, 3.5, -0.25, 1e-9];
        let forward = balanced_sum(terms.iter().copied(), &mut s);
        let backward = balanced_sum(terms.iter().rev().copied(), &mut s);
        let mirrored = balanced_sum(terms.iter().map(|t| -t), &mut s);
        assert_eq!(forward.to_bits(), backward.to_bits());
        assert_eq!(forward.to_bits(), (-mirrored).to_bits());
        // Each list holds as many terms as the scratch's size, and no more: beyond, NaN.
        let mut small = SumScratch::<4>::default();
        let sum = balanced_sum(terms.iter().copied(), &mut small);
        assert_eq!(sum.to_bits(), forward.to_bits());
        let five = terms.iter().copied().chain([2.0]);
        assert!(balanced_sum(five, &mut small).is_nan(), "five positive terms");
    }
}
