//! The first root of a polynomial of degree at most four on an interval: the one search
//! every curved sweep reduces to (a parabola against a line is a quadratic in time,
//! against a point a quartic).
//!
//! No closed form is used for degrees three and four: they lose digits exactly where
//! contacts live (near double roots, a ball grazing a cap). Instead the interval is cut at
//! the polynomial's turning points, found the same way one degree down (a quadratic's and
//! a line's in closed form), so each piece is monotone and holds at most one root. The
//! first piece whose end is not outside holds the first root, and a bracketed search
//! (regula falsi with the Illinois step, falling back on halving) closes in on it, keeping
//! the side where the polynomial is still positive. So the time returned is never late,
//! and a root between two samples is never missed.

use crate::tolerance::{MAX_ROOT_ITERATIONS, ROOT_BRACKET_REL};

/// The most turning points a polynomial of degree four has on an interval.
const MAX_TURNING_POINTS: usize = 3;

/// `c[0] + c[1]·s + c[2]·s² + c[3]·s³ + c[4]·s⁴`, in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Poly(pub(crate) [f64; 5]);

impl Poly {
    /// The value at `s` (Horner's rule).
    #[inline]
    pub(crate) fn at(self, s: f64) -> f64 {
        let c = self.0;
        (((c[4] * s + c[3]) * s + c[2]) * s + c[1]) * s + c[0]
    }

    /// The derivative.
    #[inline]
    fn derivative(self) -> Self {
        let c = self.0;
        Self([c[1], 2.0 * c[2], 3.0 * c[3], 4.0 * c[4], 0.0])
    }

    /// Whether `p` may fall to zero from above on `[0, end]`, by a bound from its
    /// coefficients alone (`0 ≤ sⁱ ≤ endⁱ` there): one that starts above zero and stays
    /// above even if every falling term fell its most cannot; nor can one that starts at
    /// or below zero and cannot rise above it.
    #[inline]
    fn may_cross(self, end: f64) -> bool {
        let (mut least, mut most, mut size, mut power) = (self.0[0], self.0[0], self.0[0].abs(), 1.0);
        for &c in &self.0[1..] {
            power *= end;
            least += c.min(0.0) * power;
            most += c.max(0.0) * power;
            size += c.abs() * power;
        }
        // The sums round by a few ulps of the terms' size: within that, it may.
        let slack = size * BOUND_ROUNDING_REL;
        if self.0[0] > 0.0 {
            !(least > slack)
        } else {
            most > -slack
        }
    }

    /// The highest power with a non-zero coefficient (0 for a constant).
    #[inline]
    fn degree(self) -> usize {
        self.0.iter().rposition(|&c| c != 0.0).unwrap_or(0)
    }
}

/// Where [`first_crossing`] found the polynomial reach zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Root {
    /// The last instant known to be outside (the polynomial `> 0` there), at most
    /// [`ROOT_BRACKET_REL`] of the interval before the root itself.
    pub(crate) s: f64,
    /// Search steps taken, over every degree of the cascade (each capped at
    /// [`MAX_ROOT_ITERATIONS`] per root).
    pub(crate) iterations: u32,
}

/// The turning points of `p` inside `(lo, hi)`, in increasing order, and their count;
/// search steps are added to `iterations`.
fn turning_points(p: Poly, lo: f64, hi: f64, iterations: &mut u32) -> ([f64; MAX_TURNING_POINTS], usize) {
    let mut out = [0.0; MAX_TURNING_POINTS];
    let mut count = 0;
    let d = p.derivative();
    match d.degree() {
        0 => {}
        1 => {
            // A line: its root, exactly.
            let s = -d.0[0] / d.0[1];
            if s > lo && s < hi {
                out[0] = s;
                count = 1;
            }
        }
        2 => {
            // A parabola: its roots in closed form, in the form without cancellation
            // (`q = −(b + sign(b)·√disc)/2`, roots `q/a` and `c/q`). A root off by rounding
            // only moves a piece's end by as much, where the polynomial is flat.
            let [c, b, a, _, _] = d.0;
            let disc = b * b - 4.0 * a * c;
            if disc >= 0.0 {
                let q = -0.5 * (b + b.signum() * disc.sqrt());
                let (x, y) = (q / a, c / q);
                let (x, y) = if x <= y { (x, y) } else { (y, x) };
                for root in [x, y] {
                    if root > lo && root < hi && root.is_finite() && (count == 0 || root > out[count - 1]) {
                        out[count] = root;
                        count += 1;
                    }
                }
            }
        }
        _ => {
            let (inner, n) = turning_points(d, lo, hi, iterations);
            let mut from = lo;
            for &to in inner[..n].iter().chain(std::iter::once(&hi)) {
                let (a, b) = (d.at(from), d.at(to));
                if count < MAX_TURNING_POINTS && (a > 0.0) != (b > 0.0) && a != 0.0 {
                    let sign = if a > 0.0 { 1.0 } else { -1.0 };
                    let (s, steps) = bracket(|s| sign * d.at(s), from, to, (hi - lo) * ROOT_BRACKET_REL);
                    *iterations += steps;
                    if s > lo && s < hi {
                        out[count] = s;
                        count += 1;
                    }
                }
                from = to;
            }
        }
    }
    (out, count)
}

/// Close in on the one sign change of a monotone piece: `f(lo) > 0 >= f(hi)`. Returns the
/// last point seen with `f > 0` once the bracket is `width` or narrower (or after
/// [`MAX_ROOT_ITERATIONS`] steps), and the steps taken.
fn bracket(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, width: f64) -> (f64, u32) {
    let (mut f_lo, mut f_hi) = (f(lo), f(hi));
    let mut steps = 0;
    // Which end the last two steps moved: two in a row halve the other's value (Illinois).
    let mut last_side = 0_i8;
    while hi - lo > width && steps < MAX_ROOT_ITERATIONS {
        steps += 1;
        let secant = lo + (hi - lo) * f_lo / (f_lo - f_hi);
        // Every fourth step halves, whatever the secant says: a bound on the worst case.
        let s = if secant > lo && secant < hi && steps % 4 != 0 {
            secant
        } else {
            0.5 * (lo + hi)
        };
        if !(s > lo && s < hi) {
            break;
        }
        let v = f(s);
        if v > 0.0 {
            lo = s;
            f_lo = v;
            if last_side == 1 {
                f_hi *= 0.5;
            }
            last_side = 1;
        } else {
            hi = s;
            f_hi = v;
            if last_side == -1 {
                f_lo *= 0.5;
            }
            last_side = -1;
        }
    }
    (lo, steps)
}

/// The first `s` in `(0, end]` at which `p` falls from above zero to zero or below: the
/// last instant still known to be above. A `p` that starts at or below zero must rise
/// above it first (a curve that starts on the far side of a line, crosses to the near side
/// and comes back). `None` when there is no such fall on the interval.
pub(crate) fn first_crossing(p: Poly, end: f64) -> Option<Root> {
    if !(end > 0.0) || !p.0.iter().all(|c| c.is_finite()) || !p.may_cross(end) {
        return None;
    }
    if p.degree() <= 2
        && let Some(found) = quadratic_crossing(p, end)
    {
        return found;
    }
    first_crossing_between(p, 0.0, end)
}

/// [`first_crossing`] on `(start, end]` by the search alone, for a caller that knows `p`
/// stays above zero on `[0, start]`: the cascade then cuts only the window, where it finds
/// fewer turning points and closes in on a shorter piece.
pub(crate) fn first_crossing_between(p: Poly, start: f64, end: f64) -> Option<Root> {
    if !(end > start) || !(start >= 0.0) || !p.0.iter().all(|c| c.is_finite()) {
        return None;
    }
    let mut iterations = 0;
    let (inner, n) = turning_points(p, start, end, &mut iterations);
    let mut from = start;
    for &to in inner[..n].iter().chain(std::iter::once(&end)) {
        if p.at(from) > 0.0 && !(p.at(to) > 0.0) {
            // Within [`ROOT_BRACKET_REL`] of the interval from 0 (the leg), however short
            // the piece.
            let (s, steps) = bracket(|s| p.at(s), from, to, end * ROOT_BRACKET_REL);
            return Some(Root {
                s,
                iterations: iterations + steps,
            });
        }
        from = to;
    }
    None
}

/// [`first_crossing`] for a polynomial of degree two at most (a face's line), in closed
/// form: the first fall is the smaller root of an upward parabola or the larger of a
/// downward one, taken back to the last f64 still above zero (a few ulps at most).
/// `Some(None)` when there is no fall, `None` when the closed form cannot decide (the
/// search decides then).
fn quadratic_crossing(p: Poly, end: f64) -> Option<Option<Root>> {
    let [c, b, a, _, _] = p.0;
    let root = if a == 0.0 {
        // A line falls once, through −c/b, only if it starts above zero and goes down.
        if !(c > 0.0) || !(b < 0.0) {
            return Some(None);
        }
        -c / b
    } else {
        let disc = b * b - 4.0 * a * c;
        if !(disc >= 0.0) {
            return Some(None);
        }
        // The roots without cancellation: q = −(b + sign(b)·√disc)/2, then q/a and c/q.
        let q = -0.5 * (b + b.signum() * disc.sqrt());
        let (x, y) = (q / a, c / q);
        let (low, high) = if x <= y { (x, y) } else { (y, x) };
        // Upward: above zero before the smaller root. Downward: above zero between them.
        if a > 0.0 { low } else { high }
    };
    if !root.is_finite() {
        return None;
    }
    if !(root > 0.0) || root > end {
        return Some(None);
    }
    // Back to the last instant still above zero.
    let mut s = root;
    for steps in 1..=MAX_NUDGES {
        if p.at(s) > 0.0 {
            return Some(Some(Root { s, iterations: steps }));
        }
        s -= s * (4.0 * f64::EPSILON);
    }
    None
}

/// Dimensionless. How much of the size of a polynomial's terms the coefficient bound of
/// `Poly::may_cross` leaves for the rounding of its five products and sums: 16 ulps.
const BOUND_ROUNDING_REL: f64 = 16.0 * f64::EPSILON;

/// Steps back from a closed-form root before the search takes over: each is four ulps.
const MAX_NUDGES: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// `(s − a)(s − b)(s − c)(s − d)` expanded.
    fn with_roots(r: [f64; 4]) -> Poly {
        let mut c = [1.0, 0.0, 0.0, 0.0, 0.0];
        for (k, root) in r.iter().enumerate() {
            // Multiply by (s − root).
            for i in (0..=k + 1).rev() {
                let shifted = if i > 0 { c[i - 1] } else { 0.0 };
                c[i] = shifted - root * c[i];
            }
        }
        Poly(c)
    }

    #[test]
    fn the_first_of_four_roots() {
        // (s − 0.3)(s − 0.5)(s − 0.7)(s − 0.9) is positive at 0 and first reaches zero at 0.3.
        let p = with_roots([0.3, 0.5, 0.7, 0.9]);
        let root = first_crossing(p, 1.0).unwrap();
        assert!(root.s <= 0.3 && 0.3 - root.s <= 1e-12, "{root:?}");
        assert!(p.at(root.s) > 0.0);
        assert!(root.iterations <= 4 * MAX_ROOT_ITERATIONS);
    }

    #[test]
    fn a_quadratic_and_a_line() {
        // 1 − 4s² reaches zero at s = 0.5; 2 − 8s at 0.25.
        let q = first_crossing(Poly([1.0, 0.0, -4.0, 0.0, 0.0]), 1.0).unwrap();
        assert!(q.s <= 0.5 && 0.5 - q.s <= 1e-12);
        let l = first_crossing(Poly([2.0, -8.0, 0.0, 0.0, 0.0]), 1.0).unwrap();
        assert!(l.s <= 0.25 && 0.25 - l.s <= 1e-12);
    }

    #[test]
    fn a_dip_that_stays_above_zero_is_no_root() {
        // (s − 0.5)² + 1e-9: a near miss, never zero.
        assert_eq!(
            first_crossing(Poly([0.25 + 1e-9, -1.0, 1.0, 0.0, 0.0]), 1.0),
            None
        );
        // A quartic with a minimum of 1e-6 between two humps.
        let p = Poly([1.0, -4.0, 6.0, -4.0, 1.0]); // (s − 1)⁴, touching 0 only at s = 1
        let lifted = Poly([p.0[0] + 1e-6, p.0[1], p.0[2], p.0[3], p.0[4]]);
        assert_eq!(first_crossing(lifted, 2.0), None);
    }

    #[test]
    fn a_narrow_dip_between_samples_is_found() {
        // (s − 0.4)(s − 0.4001)·(s² + 1): below zero only on (0.4, 0.4001), far narrower
        // than any fixed sampling would see.
        let ab = [0.4 * 0.4001, -(0.4 + 0.4001), 1.0];
        let p = Poly([ab[0], ab[1], ab[2] + ab[0], ab[1], ab[2]]);
        let root = first_crossing(p, 1.0).unwrap();
        assert!(root.s <= 0.4 && 0.4 - root.s <= 1e-12, "{root:?}");
    }

    #[test]
    fn a_start_below_zero_must_rise_first() {
        // −(s − 0.2)(s − 0.6): below zero until 0.2, above until 0.6, then below: the fall is at 0.6.
        let p = Poly([-0.12, 0.8, -1.0, 0.0, 0.0]);
        let root = first_crossing(p, 1.0).unwrap();
        assert!(root.s <= 0.6 && 0.6 - root.s <= 1e-12, "{root:?}");
        // Staying at or below zero, or an empty interval: no fall.
        assert_eq!(first_crossing(Poly([0.0, -1.0, 0.0, 0.0, 0.0]), 1.0), None);
        assert_eq!(first_crossing(Poly([-1.0, 0.0, 0.0, 0.0, 0.0]), 1.0), None);
        assert_eq!(first_crossing(Poly([1.0, -1.0, 0.0, 0.0, 0.0]), 0.0), None);
        assert_eq!(first_crossing(Poly([1.0, f64::NAN, 0.0, 0.0, 0.0]), 1.0), None);
    }

    #[test]
    fn a_window_finds_the_same_first_root_and_a_bound_rejects_what_cannot_cross() {
        // (s − 0.3)(s − 0.5)(s − 0.7)(s − 0.9) is above zero on [0, 0.3): searched from 0.25
        // it falls first at 0.3, as from 0. From 0.6 (above zero again, between 0.5 and
        // 0.7) it falls at 0.7: there the answer is the last f64 the rounded polynomial
        // still has above zero, within rounding of 0.7.
        let p = with_roots([0.3, 0.5, 0.7, 0.9]);
        let root = first_crossing_between(p, 0.25, 1.0).unwrap();
        assert!(root.s <= 0.3 && 0.3 - root.s <= 1e-12, "{root:?}");
        let later = first_crossing_between(p, 0.6, 1.0).unwrap();
        assert!((later.s - 0.7).abs() <= 1e-12 && p.at(later.s) > 0.0, "{later:?}");
        // 1 − s + 0.1·s² on [0, 0.5]: its falling term falls by 0.5 at most, so it stays
        // above 0.5 and is not searched. On [0, 2] that bound is 1 − 2 < 0: it may cross
        // (it does: 1 − 2 + 0.4 = −0.6 at s = 2).
        assert!(!Poly([1.0, -1.0, 0.1, 0.0, 0.0]).may_cross(0.5));
        assert!(Poly([1.0, -1.0, 0.1, 0.0, 0.0]).may_cross(2.0));
        // Starting below zero, a bound of −1 + 0.5 < 0 cannot rise above it on [0, 1].
        assert!(!Poly([-1.0, 0.5, 0.0, 0.0, 0.0]).may_cross(1.0));
        assert!(Poly([-1.0, 0.5, 1.0, 0.0, 0.0]).may_cross(1.0));
    }
}
