//! A ball touching several surfaces at one instant, solved as one contact with restitution:
//! a corner, the apex of a V, a hinge held by its stop, a ball between two flippers.
//!
//! **The unknowns** are the ball's velocity `v` and the angular velocity `ω_b` of each
//! hinged body the contact involves (at most [`MAX_BODIES`]).
//!
//! **The rows** ([`Row`], at most [`MAX_ROWS`]) are the speeds that must not end negative:
//! - a surface: the ball's speed away from it along its normal `n`, relative to the
//!   surface's point under the ball: `n·v − n·u` for a wall or a kinematic part moving at
//!   `u` ([`Row::surface`]); `n·v − d·ω − n·u_pivot` for a part of a hinge, with lever
//!   `d = arm × n` ([`Row::hinged`]);
//! - a hinge on a stop: its turn away from the stop, `σ·ω` (`σ = +1` at the lower stop,
//!   `−1` at the upper one, [`Row::stop`]).
//!
//! **Compression.** Impulses `x ≥ 0` along the rows change the speeds `c` to
//! `w = c + K·x`, with `K = J·M⁻¹·Jᵀ` (the ball's `1/m`, each body's `1/I`). The
//! compression impulses are the `x` with `w ≥ 0` and `x·w = 0`: every approach stopped,
//! and only the rows that must push do (a linear complementarity problem). With at most
//! [`MAX_ROWS`] rows it is solved exactly: every active set is tried, smallest first
//! ([`complementary`]). The velocity this gives is the one nearest the old (in the
//! kinetic-energy metric) that moves into no surface: a perfectly inelastic contact.
//!
//! **Restitution** (Poisson's hypothesis): the impulses applied are `(1 + e)·x`, with one `e`
//! for the whole contact: the least of the approaching rows' own ([`Row::restitution`]; a
//! row only touching, such as a hinge resting on its stop, does not lower it). Then the
//! energy changes by `(1 + e)·x·c + ½(1 + e)²·x·K·x = x·c·(1 + e)(1 − e)/2` (since
//! `x·K·x = −x·c`), which is zero at `e = 1` and a loss below it: a corner keeps its bounce,
//! and never adds any. In a 90° corner this is the two reflections; exactly into a
//! symmetric V, the ball leaves straight back at `−e·v`.
//!
//! **Rounds.** Only the rows approaching or touching take part (`c ≤ 0` within rounding):
//! restitution applied to a row that was leaving could turn it into an approach. If the
//! outcome approaches a row that was leaving (a ball that met one wall of a narrow V while
//! touching the other), the contact goes another round from there, as the reflections of
//! the ball would, in no time. After [`MAX_SIMULTANEOUS_ROUNDS`] rounds a last, inelastic
//! round over every row ends it ([`Solved::capped`]): that round only ever takes energy
//! away (`x·c/2 ≤ 0`).
//!
//! **No solution.** Two surfaces closing in on each other across a ball that neither can
//! push away (two kinematic parts, or a wall) leave no velocity that moves into neither:
//! the problem has no solution ([`Problem::solve`] returns `None`), and the caller
//! squeezes the ball instead (`response::two_surfaces`).

use crate::tolerance::{MAX_SIMULTANEOUS_ROUNDS, SEPARATION_SPEED_REL, SIMULTANEOUS_SOLVE_TOLERANCE_REL};
use glam::{DVec2, Vec2};

/// The most rows one contact has: two surfaces and a stop for each of two hinges.
pub(crate) const MAX_ROWS: usize = 4;

/// The most hinged bodies one contact involves.
pub(crate) const MAX_BODIES: usize = 2;

/// One speed of the contact that must not end negative: `ball·v + Σ spin_b·ω_b + bias`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Row {
    /// The coefficient of the ball's velocity: the unit normal, towards the ball (zero for
    /// a stop).
    pub(crate) ball: DVec2,
    /// The coefficient of each body's angular velocity.
    pub(crate) spin: [f64; MAX_BODIES],
    /// The part that does not change: minus the surface's own speed along the normal.
    pub(crate) bias: f64,
    /// The restitution of this row when it is approached (the materials' combined one at
    /// this approach speed; 0 for a resting contact; a stop's own for a stop).
    pub(crate) restitution: f64,
}

impl Row {
    /// A wall (`velocity` zero) or a kinematic part whose point under the ball moves at
    /// `velocity`; `normal` is a unit vector towards the ball.
    pub(crate) fn surface(normal: Vec2, velocity: Vec2) -> Self {
        let n = normal.as_dvec2();
        Self {
            ball: n,
            spin: [0.0; MAX_BODIES],
            bias: -n.dot(velocity.as_dvec2()),
            restitution: 0.0,
        }
    }

    /// A part of hinged body `body` (its slot, below [`MAX_BODIES`]): the contact point is
    /// `arm` from the pivot, which moves at `pivot_velocity`.
    pub(crate) fn hinged(normal: Vec2, arm: Vec2, pivot_velocity: Vec2, body: usize) -> Self {
        let n = normal.as_dvec2();
        let mut spin = [0.0; MAX_BODIES];
        // The point under the ball moves at u_pivot + ω·arm⊥, whose part along n is
        // n·u_pivot + ω·(arm × n).
        spin[body] = -arm.as_dvec2().perp_dot(n);
        Self {
            ball: n,
            spin,
            bias: -n.dot(pivot_velocity.as_dvec2()),
            restitution: 0.0,
        }
    }

    /// Body `body` against a stop that holds it from turning the way of `−toward`'s sign
    /// (`toward = 1` at the lower stop: it may only turn up from there).
    pub(crate) fn stop(toward: f64, body: usize) -> Self {
        let mut spin = [0.0; MAX_BODIES];
        spin[body] = toward.signum();
        Self {
            ball: DVec2::ZERO,
            spin,
            bias: 0.0,
            restitution: 0.0,
        }
    }

    /// With restitution `e` (a non-finite or negative one counts as 0).
    pub(crate) fn with_restitution(mut self, e: f32) -> Self {
        self.restitution = if e.is_finite() { f64::from(e.max(0.0)) } else { 0.0 };
        self
    }

    fn speed(&self, s: State) -> f64 {
        self.ball.dot(s.velocity) + self.spin[0] * s.spin[0] + self.spin[1] * s.spin[1] + self.bias
    }
}

/// The velocities a contact changes: the ball's, and each body's angular velocity.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct State {
    pub(crate) velocity: DVec2,
    pub(crate) spin: [f64; MAX_BODIES],
}

/// How hard each unknown is to change: the ball's `1/m` and each body's `1/I`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Inverse {
    pub(crate) mass: f64,
    pub(crate) inertia: [f64; MAX_BODIES],
}

/// The contact: its rows and the inverse masses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Problem {
    rows: [Row; MAX_ROWS],
    len: usize,
    inverse: Inverse,
}

/// What [`Problem::solve`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Solved {
    /// The velocities after the contact.
    pub(crate) state: State,
    /// Each row's impulse over every round, restitution included (in row order).
    pub(crate) impulses: [f64; MAX_ROWS],
    /// The rounds taken (see the module doc); 1 for most contacts.
    pub(crate) rounds: u32,
    /// Whether the rounds reached [`MAX_SIMULTANEOUS_ROUNDS`] and the last one was inelastic.
    pub(crate) capped: bool,
}

impl State {
    /// A ball moving at `velocity`, with no body taking part.
    pub(crate) fn ball(velocity: Vec2) -> Self {
        Self {
            velocity: velocity.as_dvec2(),
            spin: [0.0; MAX_BODIES],
        }
    }
}

impl Problem {
    /// A contact of a ball with walls and kinematic parts only, no rows yet: the ball's
    /// mass does not matter against them, so it is taken as 1.
    pub(crate) fn against_surfaces() -> Self {
        Self::new(Inverse {
            mass: 1.0,
            inertia: [0.0; MAX_BODIES],
        })
    }

    /// A contact with no rows yet, for a ball of inverse mass `inverse.mass` (any positive
    /// value when only walls and kinematic parts take part: they do not care) and bodies of
    /// inverse inertia `inverse.inertia`.
    pub(crate) fn new(inverse: Inverse) -> Self {
        Self {
            inverse,
            ..Self::default()
        }
    }

    /// Add `row`; `false` (and nothing added) when the problem is full.
    pub(crate) fn push(&mut self, row: Row) -> bool {
        if self.len == MAX_ROWS || !(row.ball.is_finite() && row.bias.is_finite()) {
            return false;
        }
        self.rows[self.len] = row;
        self.len += 1;
        true
    }

    /// The rows so far.
    pub(crate) fn rows(&self) -> &[Row] {
        &self.rows[..self.len]
    }

    /// Each row's speed at `s`.
    fn speeds(&self, s: State) -> [f64; MAX_ROWS] {
        let mut c = [0.0; MAX_ROWS];
        for (k, row) in self.rows().iter().enumerate() {
            c[k] = row.speed(s);
        }
        c
    }

    /// `K = J·M⁻¹·Jᵀ`.
    fn matrix(&self) -> [[f64; MAX_ROWS]; MAX_ROWS] {
        let mut k = [[0.0; MAX_ROWS]; MAX_ROWS];
        let inv = self.inverse;
        for (a, ra) in self.rows().iter().enumerate() {
            for (b, rb) in self.rows().iter().enumerate() {
                k[a][b] = inv.mass * ra.ball.dot(rb.ball)
                    + inv.inertia[0] * ra.spin[0] * rb.spin[0]
                    + inv.inertia[1] * ra.spin[1] * rb.spin[1];
            }
        }
        k
    }

    /// `s` after impulses `x` along the rows.
    fn apply(&self, s: State, x: &[f64; MAX_ROWS]) -> State {
        let mut out = s;
        for (row, &xk) in self.rows().iter().zip(x) {
            out.velocity += row.ball * (xk * self.inverse.mass);
            for b in 0..MAX_BODIES {
                out.spin[b] += row.spin[b] * xk * self.inverse.inertia[b];
            }
        }
        out
    }

    /// The velocities after the contact, from `before` (see the module doc). `None` when no
    /// velocity moves into no surface (a squeeze) or the input is not finite.
    pub(crate) fn solve(&self, before: State) -> Option<Solved> {
        let k = self.matrix();
        let mut state = before;
        let mut impulses = [0.0; MAX_ROWS];
        let first = self.speeds(before);
        let scale = first[..self.len].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
        let mut rounds = 0;
        loop {
            let c = self.speeds(state);
            if !c.iter().all(|x| x.is_finite()) {
                return None;
            }
            if c[..self.len].iter().all(|&w| w >= -tolerance) {
                break;
            }
            if rounds == MAX_SIMULTANEOUS_ROUNDS {
                // The last, inelastic round over every row.
                let x = complementary(&k, &c, self.len, self.len_mask())?;
                state = self.apply(state, &x);
                add(&mut impulses, &x);
                return self.finish(before, state, impulses, rounds, true);
            }
            // The rows approaching or touching take part; the least restitution of the
            // approaching ones is the contact's.
            let mut taking = 0_u32;
            let mut e = f64::INFINITY;
            for (a, row) in self.rows().iter().enumerate() {
                if c[a] <= tolerance {
                    taking |= 1 << a;
                }
                if c[a] < -tolerance {
                    e = e.min(row.restitution);
                }
            }
            let x = complementary(&k, &c, self.len, taking)?;
            let x = x.map(|v| v * (1.0 + e));
            state = self.apply(state, &x);
            add(&mut impulses, &x);
            rounds += 1;
        }
        self.finish(before, state, impulses, rounds, false)
    }

    /// Every row.
    fn len_mask(&self) -> u32 {
        (1_u32 << self.len) - 1
    }

    /// The solved state, with the ball leaving every surface it ends on at least at the
    /// separation bias, as [`reflect`](crate::reflect) leaves a resting contact: a share
    /// [`SEPARATION_SPEED_REL`] of its speed. Without it, the f32 rounding of a velocity
    /// that ends exactly on the surfaces would make the ball's next sweep see it approach
    /// again. The bias is found as the compression was, with every surface's speed short
    /// of it as the approach, so it pushes no surface into another; the energy it adds is
    /// about `ε² = 1e-10` of the ball's, far below the rounding of the velocity stored.
    ///
    /// A ball that the contact stopped dead against walls that do not move (in a V, no
    /// speed left but rounding: 1e-14 of what it came with) is at rest, exactly: a bias
    /// there would lift it out of a narrow V along its axis, `1/sin(α/2)` times faster.
    fn finish(
        &self,
        before: State,
        mut state: State,
        impulses: [f64; MAX_ROWS],
        rounds: u32,
        capped: bool,
    ) -> Option<Solved> {
        let still = self.rows().iter().all(|r| r.bias == 0.0)
            && state.spin.iter().all(|&w| w == 0.0)
            && state.velocity.length() <= SIMULTANEOUS_SOLVE_TOLERANCE_REL * before.velocity.length();
        if still {
            state.velocity = DVec2::ZERO;
        } else {
            let least = f64::from(SEPARATION_SPEED_REL) * state.velocity.length();
            let mut short = self.speeds(state);
            for (c, row) in short.iter_mut().zip(self.rows()) {
                if row.ball != DVec2::ZERO {
                    *c -= least;
                }
            }
            if short[..self.len].iter().any(|&c| c < 0.0)
                && let Some(x) = complementary(&self.matrix(), &short, self.len, self.len_mask())
            {
                state = self.apply(state, &x);
            }
        }
        let finite = state.velocity.is_finite() && state.spin.iter().all(|w| w.is_finite());
        finite.then_some(Solved {
            state,
            impulses,
            rounds,
            capped,
        })
    }
}

fn add(total: &mut [f64; MAX_ROWS], x: &[f64; MAX_ROWS]) {
    for (t, v) in total.iter_mut().zip(x) {
        *t += v;
    }
}

/// The `x ≥ 0` with `w = c + K·x ≥ 0` and `x·w = 0` over the rows of `taking` (among the
/// first `n`; the others take no impulse and are not checked), by trying each active set,
/// fewest rows first (at most `2^MAX_ROWS` small solves). `None` when no active set gives
/// one: the rows contradict each other.
fn complementary(
    k: &[[f64; MAX_ROWS]; MAX_ROWS],
    c: &[f64; MAX_ROWS],
    n: usize,
    taking: u32,
) -> Option<[f64; MAX_ROWS]> {
    let scale = c[..n].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    let tolerance = SIMULTANEOUS_SOLVE_TOLERANCE_REL * scale;
    let part = |a: usize| taking & (1 << a) != 0;
    if (0..n).filter(|&a| part(a)).all(|a| c[a] >= -tolerance) {
        return Some([0.0; MAX_ROWS]);
    }
    let mut sets: [u32; 1 << MAX_ROWS] = [0; 1 << MAX_ROWS];
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
/// none): `K_SS·x_S = −c_S`, by Gaussian elimination with partial pivoting. `None` when
/// `K_SS` is singular (two rows that say the same thing).
fn solve_active(
    k: &[[f64; MAX_ROWS]; MAX_ROWS],
    c: &[f64; MAX_ROWS],
    n: usize,
    mask: u32,
) -> Option<[f64; MAX_ROWS]> {
    let mut index = [0usize; MAX_ROWS];
    let mut m = 0;
    for a in 0..n {
        if mask & (1 << a) != 0 {
            index[m] = a;
            m += 1;
        }
    }
    let mut a = [[0.0; MAX_ROWS + 1]; MAX_ROWS];
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
    let mut x = [0.0; MAX_ROWS];
    for r in 0..m {
        x[index[r]] = a[r][m] / a[r][r];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(normals: &[Vec2], e: f32) -> Problem {
        let mut p = Problem::against_surfaces();
        for &n in normals {
            assert!(p.push(Row::surface(n, Vec2::ZERO).with_restitution(e)));
        }
        p
    }

    /// In f64, exactly as the test's figures are computed.
    fn ball(v: DVec2) -> State {
        State {
            velocity: v,
            spin: [0.0; MAX_BODIES],
        }
    }

    #[test]
    fn right_angle_corner_sends_the_ball_back() {
        // Floor and wall: the two reflections, −e·v, whatever the order.
        let v = DVec2::new(-3.0, -4.0);
        for e in [1.0, 0.5] {
            let out = walls(&[Vec2::Y, Vec2::X], e).solve(ball(v)).unwrap();
            let expected = v * -f64::from(e);
            assert!(
                (out.state.velocity - expected).length() < 1e-12,
                "e = {e}: {:?}",
                out.state.velocity
            );
            assert_eq!(out.rounds, 1);
        }
        // At e = 0 it stops dead, exactly.
        let out = walls(&[Vec2::Y, Vec2::X], 0.0).solve(ball(v)).unwrap();
        assert_eq!(out.state.velocity, DVec2::ZERO);
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
        let out = walls(&normals, 1.0).solve(ball(v)).unwrap();
        assert!((out.state.velocity - DVec2::new(0.0, 10.0)).length() < 1e-9);
        let out = walls(&normals, 0.5).solve(ball(v)).unwrap();
        assert!((out.state.velocity - DVec2::new(0.0, 5.0)).length() < 1e-9);
    }

    #[test]
    fn a_leaving_surface_takes_no_impulse() {
        // Moving into the floor and away from the wall: the floor's reflection alone.
        let out = walls(&[Vec2::Y, Vec2::X], 1.0)
            .solve(ball(DVec2::new(2.0, -4.0)))
            .unwrap();
        assert!((out.state.velocity - DVec2::new(2.0, 4.0)).length() < 1e-12);
        assert_eq!(out.impulses[1], 0.0);
    }

    #[test]
    fn the_least_restitution_of_the_approached_rows_counts() {
        // Into a right-angle corner of an e = 1 floor and an e = 0.5 wall: −0.5·v.
        let mut p = walls(&[Vec2::Y], 1.0);
        assert!(p.push(Row::surface(Vec2::X, Vec2::ZERO).with_restitution(0.5)));
        let out = p.solve(ball(DVec2::new(-2.0, -2.0))).unwrap();
        assert!((out.state.velocity - DVec2::new(1.0, 1.0)).length() < 1e-12);
    }

    #[test]
    fn closing_walls_have_no_solution() {
        // Two facing walls, one moving in at 1: no velocity moves into neither.
        let mut p = walls(&[Vec2::Y], 1.0);
        assert!(p.push(Row::surface(-Vec2::Y, -Vec2::Y)));
        assert!(p.solve(ball(DVec2::new(0.0, -1.0))).is_none());
    }

    #[test]
    fn a_hinge_on_its_stop_is_a_wall() {
        // A ball of mass 1 falls at 2 onto an arm 1 from the pivot (inertia 1), which rests
        // on its lower stop: the stop holds the arm, and the ball bounces as off a wall.
        let hinge = |normal: Vec2| {
            let mut p = Problem::new(Inverse {
                mass: 1.0,
                inertia: [1.0, 0.0],
            });
            assert!(p.push(Row::hinged(normal, Vec2::X, Vec2::ZERO, 0).with_restitution(1.0)));
            assert!(p.push(Row::stop(1.0, 0).with_restitution(0.2)));
            p
        };
        let out = hinge(Vec2::Y).solve(ball(DVec2::new(0.0, -2.0))).unwrap();
        assert!((out.state.velocity - DVec2::new(0.0, 2.0)).length() < 1e-12);
        assert!(out.state.spin[0].abs() < 1e-12);
        // Hit from below instead, the arm is free to swing up: J = 2·2/(1 + 1) = 2, the
        // ball stops and the arm turns at ω = d·J/I = 2 (d = 1), as `hinge_impulse` gives.
        let out = hinge(-Vec2::Y).solve(ball(DVec2::new(0.0, 2.0))).unwrap();
        assert!(out.state.velocity.length() < 1e-12);
        assert!((out.state.spin[0] - 2.0).abs() < 1e-12);
    }

    #[test]
    fn energy_is_kept_at_e_one_and_lost_below() {
        // Every V opening from 0.5° to 179.5° and 36 directions (those that approach
        // neither wall are left alone): ½|v|² is kept at e = 1, and never grows at e = 0.5,
        // to f64 rounding amplified by the conditioning 1/sin²α of the corner (2e-12 at
        // α = 0.5°): 1e-9, a thousand times below the crate's claim of 1e-6.
        for step in 1..360 {
            let opening = step as f32 * 0.5_f32.to_radians();
            let (s, c) = (opening / 2.0).sin_cos();
            let normals = [Vec2::new(c, s), Vec2::new(-c, s)];
            for aim in 0..36 {
                let angle = f64::from(aim) * std::f64::consts::TAU / 36.0;
                let v = DVec2::from_angle(angle) * 7.0;
                let before = v.length_squared();
                let out = walls(&normals, 1.0).solve(ball(v)).unwrap();
                assert!(!out.capped);
                let after = out.state.velocity.length_squared();
                assert!(
                    (after - before).abs() <= 1e-9 * before,
                    "{opening} {angle}: {after} vs {before}"
                );
                let out = walls(&normals, 0.5).solve(ball(v)).unwrap();
                assert!(out.state.velocity.length_squared() <= before * (1.0 + 1e-9));
            }
        }
    }
}
