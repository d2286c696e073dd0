//! A centre's path under constant acceleration over one leg, and the primitive every
//! curved sweep reduces to: when does that path first reach a circle?
//!
//! Under gravity a ball does not move on a straight line between contacts but on a
//! parabola, `p(t) = p₀ + v·t + ½·g·t²`. The curved sweeps find each contact on that
//! curve, so a contact in the middle of a step reflects the velocity of that instant, not
//! one that already holds the whole step's gravity.
//!
//! Inside the crate a leg is written in its fraction `s ∈ [0, 1]` of the duration `T`:
//! `offset(s) = m·s + k·s²`, with `m = v·T` (the straight leg's motion) and `k = ½·g·T²`
//! (how far gravity bends it). A straight leg is `k = 0`.

use crate::roots::{Poly, Root, first_crossing_between};
use crate::shape::Aabb;
use crate::tolerance::CHORD_WINDOW_MARGIN_REL;
use glam::{DVec2, Vec2};

/// The motion of a circle's centre over one leg of `duration` seconds that starts with
/// `velocity` under the constant acceleration `gravity`: after `t` seconds it has moved
/// `velocity·t + ½·gravity·t²` and moves at `velocity + gravity·t`.
///
/// ```
/// use ccd_core::{Parabola, Vec2};
/// // Thrown at (3, 4) under g = (0, −10) for 0.8 s: it climbs for 0.4 s, to
/// // 4·0.4 − 5·0.16 = 0.8, and lands back on its start height at (2.4, 0).
/// let throw = Parabola::new(Vec2::new(3.0, 4.0), Vec2::new(0.0, -10.0), 0.8);
/// assert!((throw.offset(1.0) - Vec2::new(2.4, 0.0)).length() < 1e-6);
/// assert!((throw.offset(0.5) - Vec2::new(1.2, 0.8)).length() < 1e-6);
/// assert!((throw.velocity_at(1.0) - Vec2::new(3.0, -4.0)).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parabola {
    /// Velocity at the leg's start, in units per second.
    pub velocity: Vec2,
    /// Constant acceleration, in units per second².
    pub gravity: Vec2,
    /// The leg's length in seconds.
    pub duration: f32,
}

impl Parabola {
    /// A leg of `duration` seconds from `velocity` under `gravity`.
    #[inline]
    #[must_use]
    pub const fn new(velocity: Vec2, gravity: Vec2, duration: f32) -> Self {
        Self {
            velocity,
            gravity,
            duration,
        }
    }

    /// The displacement after the `fraction` of the leg (rounded once from f64).
    #[inline]
    #[must_use]
    pub fn offset(self, fraction: f32) -> Vec2 {
        self.offset_f64(f64::from(fraction)).as_vec2()
    }

    /// The velocity after the `fraction` of the leg (rounded once from f64).
    #[inline]
    #[must_use]
    pub fn velocity_at(self, fraction: f32) -> Vec2 {
        let t = f64::from(fraction) * f64::from(self.duration);
        (self.velocity.as_dvec2() + self.gravity.as_dvec2() * t).as_vec2()
    }

    /// The straight leg's motion `m = v·T` and the bend `k = ½·g·T²`, in f64 (exact
    /// products of f32 values, up to one rounding of `½·T²`).
    #[inline]
    pub(crate) fn terms(self) -> (DVec2, DVec2) {
        let t = f64::from(self.duration);
        (
            self.velocity.as_dvec2() * t,
            self.gravity.as_dvec2() * (0.5 * t * t),
        )
    }

    /// [`Parabola::offset`] in f64.
    #[inline]
    pub(crate) fn offset_f64(self, s: f64) -> DVec2 {
        let (m, k) = self.terms();
        m * s + k * (s * s)
    }

    /// Whether every field is finite and the duration is not negative.
    #[inline]
    #[must_use]
    pub fn is_usable(self) -> bool {
        self.velocity.is_finite()
            && self.gravity.is_finite()
            && self.duration.is_finite()
            && self.duration >= 0.0
    }

    /// The box a circle of `radius` sweeps when its centre starts at `from` and follows
    /// this leg: its ends and, on each axis, the turning point if the leg reaches it.
    ///
    /// ```
    /// use ccd_core::{Aabb, Parabola, Vec2};
    /// // Thrown up at 4 units/s under g = −10 for 0.8 s: it climbs to 0.8 at 0.4 s.
    /// let b = Parabola::new(Vec2::new(3.0, 4.0), Vec2::new(0.0, -10.0), 0.8).aabb(Vec2::ZERO, 0.0);
    /// assert!((b.max - Vec2::new(2.4, 0.8)).length() < 1e-6);
    /// assert!(b.min.length() < 1e-6);
    /// ```
    #[inline]
    #[must_use]
    pub fn aabb(self, from: Vec2, radius: f32) -> Aabb {
        let (m, k) = self.terms();
        let (lo, hi) = offset_bounds(m, k);
        let from = from.as_dvec2();
        Aabb::new((from + lo).as_vec2(), (from + hi).as_vec2()).inflated(radius)
    }
}

/// The smallest and largest corner of the box of `m·s + k·s²` over `s ∈ [0, 1]`: its ends
/// and, on each axis, its turning point if the leg reaches it.
#[inline]
pub(crate) fn offset_bounds(m: DVec2, k: DVec2) -> (DVec2, DVec2) {
    let end = m + k;
    // offset'(s) = m + 2·k·s = 0 at s = −m / (2k), kept to the leg: a turning point outside
    // it (or none, k = 0, where the quotient is infinite or NaN) gives an end, already in
    // the box. Without branches: the sign of the turn is as often one way as the other.
    let s = -m / (2.0 * k);
    let keep = |s: f64| if s > 0.0 { s.min(1.0) } else { 0.0 };
    let s = DVec2::new(keep(s.x), keep(s.y));
    let turn = m * s + k * (s * s);
    (DVec2::ZERO.min(end).min(turn), DVec2::ZERO.max(end).max(turn))
}

/// One leg of a centre's path, from a contact (or the start) to the next contact, a
/// slide's end or the end of the time asked for: where it starts and the curve it follows
/// ([`predict_path`](crate::predict_path) gives them; gravity zero makes a straight leg).
///
/// ```
/// use ccd_core::{Parabola, PathLeg, Vec2};
/// // From (1, 2), thrown at (3, 4) under g = (0, −10) for 0.8 s: back at height 2, at x = 3.4.
/// let leg = PathLeg { start: Vec2::new(1.0, 2.0), curve: Parabola::new(Vec2::new(3.0, 4.0), Vec2::new(0.0, -10.0), 0.8) };
/// assert!((leg.end() - Vec2::new(3.4, 2.0)).length() < 1e-5);
/// // Drawn with four pieces: five points, the middle one at the apex (2.2, 2.8).
/// let points: Vec<Vec2> = leg.points(4).collect();
/// assert_eq!(points.len(), 5);
/// assert!((points[2] - Vec2::new(2.2, 2.8)).length() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathLeg {
    /// Where the centre is at the leg's start.
    pub start: Vec2,
    /// The curve it follows from there: the velocity at the start, the acceleration (zero
    /// for a straight leg; gravity's part along a face for a slide) and the duration.
    pub curve: Parabola,
}

impl PathLeg {
    /// The centre after the `fraction` of the leg.
    #[inline]
    #[must_use]
    pub fn point(&self, fraction: f32) -> Vec2 {
        (self.start.as_dvec2() + self.curve.offset_f64(f64::from(fraction))).as_vec2()
    }

    /// The centre at the leg's end.
    #[inline]
    #[must_use]
    pub fn end(&self) -> Vec2 {
        self.point(1.0)
    }

    /// `pieces + 1` points evenly spaced in time from the start to the end, for drawing; a
    /// straight leg (no acceleration) gives its two ends whatever `pieces` asks.
    pub fn points(&self, pieces: u32) -> impl Iterator<Item = Vec2> + '_ {
        let pieces = if self.curve.gravity == Vec2::ZERO {
            1
        } else {
            pieces.max(1)
        };
        (0..=pieces).map(move |k| self.point(k as f32 / pieces as f32))
    }
}

/// How far the curve `m·s + k·s²` strays from its chord `(m + k)·s` over `s ∈ [0, 1]`:
/// `|k·(s² − s)|` is largest at `s = ½`, `|k|/4`. A point farther than this plus a reach
/// from the chord is out of the curve's reach.
#[inline]
pub(crate) fn sag(k: DVec2) -> f64 {
    0.25 * k.length()
}

/// The first fraction `s` of the leg `offset(s) = m·s + k·s²`, from `w` (relative to a
/// circle's centre), at which the point reaches distance `r` from that centre, coming
/// from outside: the first fall of the quartic `|w + m·s + k·s²|² − r²`, found by
/// [`first_crossing_between`] (early, never late).
///
/// The search runs only where the contact can be. The curve stays within [`sag`] of its
/// chord `w + (m + k)·s`, so it cannot reach `r` before the chord reaches `r + sag`, and it
/// is within `r` once the chord is within `r − sag`. Both instants are a quadratic's root,
/// in closed form. A chord that never comes within `r + sag` is a miss without a search.
///
/// A start on or inside the circle must leave it first: the caller decides a contact at
/// the start. With `k = 0` this is the ray of [`ray_circle_toi`](crate::ray_circle_toi).
#[inline]
pub(crate) fn parabola_circle_toi_f64(w: DVec2, m: DVec2, k: DVec2, r: f64) -> Option<Root> {
    // |w + m·s + k·s²|² expanded by powers of s.
    let poly = Poly([
        w.length_squared() - r * r,
        2.0 * w.dot(m),
        m.length_squared() + 2.0 * w.dot(k),
        2.0 * m.dot(k),
        k.length_squared(),
    ]);
    let chord = m + k;
    let sag = sag(k);
    // The window's radii are widened (outer) and narrowed (inner) by a margin far above
    // the closed form's rounding, so a contact is never outside the window.
    let outer = (r + sag) * (1.0 + CHORD_WINDOW_MARGIN_REL);
    let start = if w.length_squared() <= outer * outer {
        0.0
    } else {
        // Never within `r + sag`: never within `r`.
        let reached = chord_reaches(w, chord, outer).filter(|&s| s <= 1.0)?;
        if poly.at(reached) > 0.0 { reached } else { 0.0 }
    };
    let inner = (r - sag) * (1.0 - CHORD_WINDOW_MARGIN_REL);
    let end = if inner > 0.0 {
        chord_reaches(w, chord, inner)
            .filter(|&s| s > start && s <= 1.0 && !(poly.at(s) > 0.0))
            .unwrap_or(1.0)
    } else {
        1.0
    };
    first_crossing_between(poly, start, end)
}

/// The first `s ≥ 0` at which the line `w + chord·s` comes within `radius` of the origin,
/// from a `w` farther than that; `None` if it never does.
#[inline]
fn chord_reaches(w: DVec2, chord: DVec2, radius: f64) -> Option<f64> {
    // |w + chord·s|² = radius²: a·s² + b·s + c = 0, with c > 0; it comes closer only if
    // b < 0, and first reaches the radius at the smaller root, c / q in the form without
    // cancellation (q = (−b + √disc) / 2 > 0).
    let a = chord.length_squared();
    let b = 2.0 * w.dot(chord);
    let c = w.length_squared() - radius * radius;
    let disc = b * b - 4.0 * a * c;
    if !(b < 0.0) || !(disc >= 0.0) {
        return None;
    }
    let s = c / (0.5 * (disc.sqrt() - b));
    s.is_finite().then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_point_reaches_a_circle_below_when_the_closed_form_says() {
        // From 10 above a circle of radius 1, dropped under g = 10 for 2 s: it falls 9 in
        // sqrt(2·9/10) = 1.3416 s, the fraction 0.67082 of the leg.
        let leg = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
        let (m, k) = leg.terms();
        let root = parabola_circle_toi_f64(DVec2::new(0.0, 10.0), m, k, 1.0).unwrap();
        let expected = (2.0_f64 * 9.0 / 10.0).sqrt() / 2.0;
        assert!(root.s <= expected && expected - root.s < 1e-11, "{root:?}");
    }

    #[test]
    fn a_throw_over_a_circle_misses_it_and_one_into_it_does_not() {
        // Thrown from (−2, 0) at (2, 4) under g = −10 for 0.8 s: the apex is (−1.2, 0.8)
        // at 0.4 s; a circle of radius 0.1 at (−1.2, 1.0) is missed by 0.1, one at
        // (−1.2, 0.85) is reached.
        let leg = Parabola::new(Vec2::new(2.0, 4.0), Vec2::new(0.0, -10.0), 0.8);
        let (m, k) = leg.terms();
        let start = DVec2::new(-2.0, 0.0);
        assert!(parabola_circle_toi_f64(start - DVec2::new(-1.2, 1.0), m, k, 0.1).is_none());
        let reached = parabola_circle_toi_f64(start - DVec2::new(-1.2, 0.85), m, k, 0.1).unwrap();
        assert!(reached.s > 0.3 && reached.s < 0.5, "{reached:?}");
    }

    #[test]
    fn a_curve_that_bows_into_a_circle_its_chord_misses_reaches_it() {
        // From (−1, 0) with offset (2s, 4s − 4s²): the chord runs along y = 0 to (1, 0),
        // 1.5 from the centre (0, 1.5) of a circle of radius 1, so the chord misses it; the
        // curve bows up by |k|/4 = 1 to (0, 1), inside. Reference: the first fall of the
        // distance, by dense sampling and bisection in f64.
        let (w, m, k) = (
            DVec2::new(-1.0, -1.5),
            DVec2::new(2.0, 4.0),
            DVec2::new(0.0, -4.0),
        );
        let gap = |s: f64| (w + m * s + k * (s * s)).length_squared() - 1.0;
        let samples = 100_000;
        let first_in = (1..=samples)
            .map(|i| f64::from(i) / f64::from(samples))
            .find(|&s| gap(s) <= 0.0)
            .unwrap();
        let (mut lo, mut hi) = (first_in - 1.0 / f64::from(samples), first_in);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if gap(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        let root = parabola_circle_toi_f64(w, m, k, 1.0).unwrap();
        assert!(root.s <= hi && hi - root.s < 1e-11, "{root:?} against {hi}");
        // Lifted 0.6 higher, the curve's top (0, 1) is 1.1 from the centre: no contact,
        // though the chord is within the reach plus the sag.
        assert!(parabola_circle_toi_f64(w - DVec2::new(0.0, 0.6), m, k, 1.0).is_none());
    }
}
