//! The normal impulses of ball–ball contacts that happen at the same instant, as a small
//! linear complementarity problem.
//!
//! For contacts `c` between balls `i` and `j` (normal `n_c` from `j` to `i`), the impulses
//! `P ≥ 0` along the normals change the closing speeds to `w = A·P + q`, where
//! `A_cd = J_c M⁻¹ J_dᵀ` (the sum of the two balls' inverse masses for `c = d`;
//! `±(1/m_k)·n_c·n_d` when `c` and `d` share ball `k`) and `q_c` is the speed at which the
//! pair separates before any impulse, less its target. The contact impulses are the `P`
//! with `w ≥ 0` and `P·w = 0`: each pair ends separating, and a pair pushes only if it must.
//!
//! One contact is solved in closed form. Several are solved by projected Jacobi iteration
//! (every impulse updated from the same previous ones, damped so that it converges) to
//! [`CONTACT_SOLVE_TOLERANCE`], with every sum taken in an order that does not depend on the
//! order of the contacts ([`balanced_sum`]): mirror-image contacts get bit-identical
//! impulses, so a symmetric break stays symmetric to the last bit.

use crate::tolerance::{CONTACT_SOLVE_TOLERANCE, MAX_SIMULTANEOUS_PASSES};
use glam::DVec2;

/// Buffers for [`solve`], kept between calls: the next impulses of a pass, and the sums'.
#[derive(Clone, Debug, Default)]
pub(super) struct LcpScratch {
    pub(super) sums: SumScratch,
    next: Vec<f64>,
}

/// Buffers for [`balanced_sum`], kept between calls.
#[derive(Clone, Debug, Default)]
pub(super) struct SumScratch {
    positive: Vec<f64>,
    negative: Vec<f64>,
}

/// Solve for `p` (overwritten) given the `n × n` matrix `a` (row-major) and `q`. Returns
/// the passes spent (0 for one contact or none pushing).
pub(super) fn solve(a: &[f64], q: &[f64], p: &mut [f64], scratch: &mut LcpScratch) -> u32 {
    let n = q.len();
    p.fill(0.0);
    if n == 0 || q.iter().all(|&x| x >= 0.0) {
        return 0;
    }
    if n == 1 {
        p[0] = one(a[0], q[0]);
        return 0;
    }
    // Damping from Gershgorin's bound: every eigenvalue of D⁻¹A is at most 1 + `spread`,
    // so steps of 1/(1 + spread) never overshoot.
    let spread = (0..n)
        .filter(|&c| a[c * n + c] > 0.0)
        .map(|c| {
            (0..n)
                .filter(|&d| d != c)
                .map(|d| a[c * n + d].abs())
                .sum::<f64>()
                / a[c * n + c]
        })
        .fold(0.0_f64, f64::max);
    let omega = 1.0 / (1.0 + spread);
    let LcpScratch { sums, next } = scratch;
    next.clear();
    next.resize(n, 0.0);
    let mut passes = MAX_SIMULTANEOUS_PASSES;
    for pass in 1..=MAX_SIMULTANEOUS_PASSES {
        let (mut change, mut largest) = (0.0_f64, 0.0_f64);
        for c in 0..n {
            let diag = a[c * n + c];
            if !(diag > 0.0) {
                next[c] = 0.0;
                continue;
            }
            let w = q[c] + balanced_sum((0..n).map(|d| a[c * n + d] * p[d]), sums);
            next[c] = (p[c] - omega * w / diag).max(0.0);
            change = change.max((next[c] - p[c]).abs());
            largest = largest.max(next[c]);
        }
        p.copy_from_slice(next);
        if change <= largest * CONTACT_SOLVE_TOLERANCE {
            passes = pass;
            break;
        }
    }
    passes
}

/// The impulse of a contact alone, with `a` and `q` as in [`solve`]: what stops its
/// approach (`q < 0`), and none for a contact already separating or that nothing can push
/// (`a <= 0`), or for NaN.
#[inline]
pub(super) fn one(a: f64, q: f64) -> f64 {
    if q >= 0.0 || !(a > 0.0) {
        return 0.0;
    }
    (-q / a).max(0.0)
}

/// A single term as [`balanced_sum`] sums it: itself, and `0` for a zero or NaN term.
#[inline]
pub(super) fn lone(term: f64) -> f64 {
    if term.abs() > 0.0 { term } else { 0.0 }
}

/// The sum of `terms` in an order that depends only on their values: the positive ones
/// from the smallest up, the negative ones likewise, then the difference. Negating every
/// term negates the sum exactly, and reordering the terms changes nothing.
///
/// A single term (a ball in one contact, the common case) is its own sum, as the general
/// path would give it (`t − 0` or `0 − (−t)`, and `0` for a zero or NaN term), without
/// the lists.
pub(super) fn balanced_sum(mut terms: impl Iterator<Item = f64>, scratch: &mut SumScratch) -> f64 {
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

/// One contact of a batch.
#[derive(Clone, Copy, Debug)]
pub(super) struct BatchContact {
    pub(super) a: usize,
    pub(super) b: usize,
    /// From `b` towards `a`, unit in f64.
    pub(super) normal: DVec2,
    /// `1/m` of `a` and of `b` (zero for a ball that cannot be pushed).
    pub(super) inverse_a: f32,
    pub(super) inverse_b: f32,
    pub(super) restitution: f32,
    pub(super) friction: f32,
    /// The separation speed a resting contact leaves at (zero for a bounce).
    pub(super) target: f32,
    pub(super) approach: f32,
    /// The compression impulse found.
    pub(super) impulse: f64,
}

/// `J_c M⁻¹ J_dᵀ`: how an impulse along contact `d` changes the closing speed of `c`.
pub(super) fn coupling(c: &BatchContact, d: &BatchContact) -> f64 {
    let dot = c.normal.dot(d.normal);
    let mut sum = 0.0;
    // Ball `a` of `c` moves with +n_c; ball `b` with −n_c (and the same for `d`).
    if c.a == d.a {
        sum += f64::from(c.inverse_a) * dot;
    }
    if c.a == d.b {
        sum -= f64::from(c.inverse_a) * dot;
    }
    if c.b == d.a {
        sum -= f64::from(c.inverse_b) * dot;
    }
    if c.b == d.b {
        sum += f64::from(c.inverse_b) * dot;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: &[f64], q: &[f64], p: &[f64]) {
        let n = q.len();
        for c in 0..n {
            let w: f64 = q[c] + (0..n).map(|d| a[c * n + d] * p[d]).sum::<f64>();
            assert!(
                w >= -1e-12 && p[c] >= 0.0 && (w * p[c]).abs() < 1e-12,
                "contact {c}: w {w}, p {}",
                p[c]
            );
        }
    }

    #[test]
    fn one_contact_stops_the_approach() {
        // Two unit masses closing at 3: A = 2, q = −3, P = 1.5.
        let mut s = LcpScratch::default();
        let mut p = [0.0];
        assert_eq!(solve(&[2.0], &[-3.0], &mut p, &mut s), 0);
        assert_eq!(p, [1.5]);
        // Separating already: no impulse.
        solve(&[2.0], &[1.0], &mut p, &mut s);
        assert_eq!(p, [0.0]);
    }

    #[test]
    fn a_symmetric_star_gets_equal_impulses() {
        // A ball (inverse mass 1) between two others (1 each) at ±60° from its motion,
        // each contact closing at 1: A = [[2, c], [c, 2]] with c = cos 120° = −0.5 for the
        // shared ball. P = 1/(2 − 0.5) each, bit for bit equal.
        let a = [2.0, -0.5, -0.5, 2.0];
        let mut p = [0.0; 2];
        let passes = solve(&a, &[-1.0, -1.0], &mut p, &mut LcpScratch::default());
        assert!(passes < MAX_SIMULTANEOUS_PASSES);
        assert!((p[0] - 1.0 / 1.5).abs() < 1e-12, "{p:?}");
        assert_eq!(p[0].to_bits(), p[1].to_bits());
    }

    #[test]
    fn only_the_contacts_that_must_push_do() {
        // The second contact opens once the first pushes (a coupling of 1 pushes it apart
        // at 1·P1 = 1.5 > its closing 0.5).
        let a = [2.0, 1.0, 1.0, 2.0];
        let mut p = [0.0; 2];
        solve(&a, &[-3.0, -0.5], &mut p, &mut LcpScratch::default());
        assert!((p[0] - 1.5).abs() < 1e-12 && p[1] == 0.0, "{p:?}");
        check(&a, &[-3.0, -0.5], &p);
    }

    #[test]
    fn a_chain_meets_the_complementarity_conditions() {
        // Five contacts in a chain, each coupled to its neighbours.
        let n = 5;
        let mut a = vec![0.0; n * n];
        for c in 0..n {
            a[c * n + c] = 2.0;
            if c + 1 < n {
                a[c * n + c + 1] = -0.7;
                a[(c + 1) * n + c] = -0.7;
            }
        }
        let q = [-1.0, -0.2, 0.3, -2.0, -0.1];
        let mut p = vec![0.0; n];
        let passes = solve(&a, &q, &mut p, &mut LcpScratch::default());
        assert!(passes < MAX_SIMULTANEOUS_PASSES, "{passes}");
        check(&a, &q, &p);
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
