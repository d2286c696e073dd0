//! Property tests of the moving-obstacle queries (a moving circle, a turning segment, a
//! turning arc on a straight and on a curved leg) against a brute-force reference: the gap
//! between the shapes evaluated in f64 at densely sampled times, the first sign change
//! refined by bisection. The turning arcs run `MOVING_ARC_CASES` cases each (2,000 by
//! default), at the turning segment's contract.
//!
//! Contract checked for both: a reported toi is never later than the true first contact
//! (beyond a small tolerance) and the shapes touch there; a contact is never missed unless
//! it is a graze (the deepest press stays within the tolerance). For the turning segment
//! the tolerance is the one its docs promise, [`MOVING_SEGMENT_TOLERANCE_REL`] of the
//! query's scale: no press deeper than that before the reported toi, the gap there at most
//! [`MOVING_SEGMENT_ACCEPT_BAND`] tolerances, and no miss deeper than one.

use ccd_core::tolerance::MOVING_SEGMENT_ACCEPT_BAND;
use ccd_core::{
    Circle, CircleArc, Parabola, Segment, SegmentMotion, Vec2, moving_arc_tolerance,
    moving_segment_tolerance, sweep_circle_moving_arc, sweep_circle_moving_circle,
    sweep_circle_moving_segment, sweep_parabola_moving_arc,
};
use glam::DVec2;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Samples of the step for the brute-force search (a contact shorter than 1/20,000 of a
/// step can only be a graze in these scenes).
const SAMPLES: usize = 20_000;
/// Bisection rounds after the first sampled contact (2^-60 of a sample: exact in f64).
const BISECTIONS: usize = 60;
/// Moving circles (an exact ray in f64, no documented tolerance): how much later than the
/// truth a toi may be, as a fraction of the step.
const TOI_TOLERANCE: f64 = 1e-4;
/// Moving circles: gap allowed at a reported contact, and press depth a miss may have, in
/// world units (scenes are about 100 units across).
const GAP_TOLERANCE: f64 = 1e-2;
/// The f64 reference against the query's f32 evaluation of the gap, in tolerances: the
/// tolerance is ten times that noise (see [`MOVING_SEGMENT_TOLERANCE_REL`]), so half a
/// tolerance covers it five times over.
const NOISE: f64 = 0.5;

/// The contact tolerance of `sweep_circle_moving_segment` for these inputs, world units
/// (the crate's own [`moving_segment_tolerance`]: the contract is stated in it).
fn segment_tolerance(circle: Circle, motion: Vec2, segment: Segment, m: SegmentMotion) -> f64 {
    f64::from(moving_segment_tolerance(circle, motion, segment, m))
}

/// The first time in [0, 1] where `gap` ≤ 0.
fn brute_first_contact(gap: impl Fn(f64) -> f64) -> Option<f64> {
    if gap(0.0) <= 0.0 {
        return Some(0.0);
    }
    let mut prev = 0.0;
    for i in 1..=SAMPLES {
        let t = i as f64 / SAMPLES as f64;
        if gap(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..BISECTIONS {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

fn deepest(gap: impl Fn(f64) -> f64) -> f64 {
    (0..=SAMPLES)
        .map(|i| gap(i as f64 / SAMPLES as f64))
        .fold(f64::MAX, f64::min)
}

/// Compare a moving-circle query's answer with the reference for the gap function `gap`.
fn check(toi: Option<f32>, gap: impl Fn(f64) -> f64) -> Result<(), TestCaseError> {
    match (toi, brute_first_contact(&gap)) {
        (Some(toi), Some(truth)) => {
            let toi = f64::from(toi);
            prop_assert!(toi <= truth + TOI_TOLERANCE, "late: toi {toi}, truth {truth}");
            prop_assert!(gap(toi).abs() < GAP_TOLERANCE, "gap {} at toi {toi}", gap(toi));
        }
        (None, Some(truth)) => {
            let press = deepest(&gap);
            prop_assert!(
                press > -GAP_TOLERANCE,
                "missed the contact at {truth} (press {press})"
            );
        }
        (Some(toi), None) => {
            let toi = f64::from(toi);
            prop_assert!(gap(toi) < GAP_TOLERANCE, "phantom hit at {toi}, gap {}", gap(toi));
        }
        (None, None) => {}
    }
    Ok(())
}

/// Compare a turning-segment query's answer with the reference, at the query's own
/// tolerance `tol`, for a start clear of the segment: never later than the first press
/// deeper than `tol`, touching there (a gap from −`tol` to the accept band), and a miss
/// only of a graze no deeper than `tol`.
fn check_segment(toi: Option<f32>, gap: impl Fn(f64) -> f64, tol: f64) -> Result<(), TestCaseError> {
    let noise = NOISE * tol;
    let first_press = brute_first_contact(|t| gap(t) + tol + noise);
    match toi {
        Some(toi) => {
            let toi = f64::from(toi);
            prop_assert!(
                first_press.is_none_or(|press| toi <= press),
                "late: toi {toi}, pressed in by more than the tolerance {tol} from {first_press:?}"
            );
            let at = gap(toi);
            prop_assert!(
                at >= -tol - noise && at <= f64::from(MOVING_SEGMENT_ACCEPT_BAND) * tol + noise,
                "gap {at} at toi {toi}, tolerance {tol}"
            );
        }
        None => {
            let press = deepest(&gap);
            prop_assert!(
                press > -tol - noise,
                "missed a press of {press} (tolerance {tol}), first deeper than it at {first_press:?}"
            );
        }
    }
    Ok(())
}

/// Cases of the turning-arc properties: `MOVING_ARC_CASES` if set (the closing note's
/// long run), else a quick default.
fn arc_cases() -> u32 {
    std::env::var("MOVING_ARC_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// The reference distance in f64 from `p` to the curve of `arc` turned by `turn` about
/// `pivot` and moved by `shift`: on the circle within the angle range (the angle measured
/// with `atan2` from the turned start), else the nearer turned end point.
fn arc_distance(p: DVec2, arc: CircleArc, pivot: DVec2, turn: f64, shift: DVec2) -> f64 {
    let (sin, cos) = turn.sin_cos();
    let place = |q: DVec2| {
        let d = q - pivot;
        pivot + shift + DVec2::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos)
    };
    let center = place(arc.center.as_dvec2());
    let radius = f64::from(arc.radius);
    let start = f64::from(arc.start) + turn;
    let span = f64::from(arc.end) - f64::from(arc.start);
    let rel = p - center;
    let angle = (rel.y.atan2(rel.x) - start).rem_euclid(std::f64::consts::TAU);
    if angle <= span {
        return (rel.length() - radius).abs();
    }
    let end = |a: f64| center + DVec2::new(a.cos(), a.sin()) * radius;
    p.distance(end(start)).min(p.distance(end(start + span)))
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/moving_properties.txt",
        ))),
        ..ProptestConfig::with_cases(cases)
    }
}

fn point(range: f32) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

proptest! {
    #![proptest_config(config(1_000))]

    #[test]
    fn moving_circles_match_the_reference(
        a in point(100.0),
        b in point(100.0),
        ra in 0.0_f32..15.0,
        rb in 0.0_f32..15.0,
        ma in point(150.0),
        mb in point(150.0),
    ) {
        let gap = |t: f64| {
            let pa = a.as_dvec2() + ma.as_dvec2() * t;
            let pb = b.as_dvec2() + mb.as_dvec2() * t;
            pa.distance(pb) - f64::from(ra) - f64::from(rb)
        };
        // Starting in contact has its own rule (toi 0 iff closing in), tested by hand.
        prop_assume!(gap(0.0) > 0.0);
        let hit = sweep_circle_moving_circle(Circle::new(a, ra), ma, Circle::new(b, rb), mb);
        if let Some(h) = hit {
            // The reported centre is where the circle is at toi.
            let expected = a.as_dvec2() + ma.as_dvec2() * f64::from(h.toi);
            prop_assert!(h.center.as_dvec2().distance(expected) < GAP_TOLERANCE);
        }
        check(hit.map(|h| h.toi), gap)?;
    }

    /// A ball that has just bounced off a moving segment starts the next leg a hair
    /// outside it (−1 to +3 of the query's tolerances), leaving it (or sliding along it) no
    /// faster than the surface under it moves. Whenever the segment catches up with it
    /// later in the step and presses in by more than the tolerance (beyond the start's
    /// overlap, if any), the sweep reports a contact no later than that, and not deeper
    /// than one more tolerance; when it never does, a reported contact is a touch.
    #[test]
    fn a_ball_that_just_left_a_moving_segment_is_caught_again(
        length in 20.0_f32..100.0,
        heading in -std::f32::consts::PI..std::f32::consts::PI,
        pivot in point(10.0),
        offset in point(10.0),
        angle in -2.0_f32..2.0,
        pivot_motion in point(20.0),
        along in 0.05_f32..0.95,
        side in prop::bool::ANY,
        radius in 1.0_f32..20.0,
        hair in -1.0_f32..3.0,
        leaving in 0.0_f32..0.5,
        sliding in -1.0_f32..1.0,
    ) {
        let a = pivot + offset;
        let b = a + Vec2::from_angle(heading) * length;
        let m = SegmentMotion { pivot, angle, pivot_motion };
        let segment = Segment::new(a, b);
        let point = a.lerp(b, along);
        let face = (b - a).perp().normalize() * if side { 1.0 } else { -1.0 };
        let surface = m.point_motion(point, 0.0);
        let speed = surface.length().max(1.0);
        let motion = surface + face * (leaving * speed) + (b - a).normalize() * (sliding * speed);
        // The query's tolerance, from the centre at exact touch (the hair moves it by a
        // few tolerances, which changes the scale by nothing visible).
        let touching = Circle::new(point + face * radius, radius);
        let hair_tol = segment_tolerance(touching, motion, segment, m) as f32;
        let circle = Circle::new(point + face * (radius + hair * hair_tol), radius);
        let tol = segment_tolerance(circle, motion, segment, m);
        let noise = NOISE * tol;
        let center = circle.center;
        let gap = |t: f64| {
            let c = center.as_dvec2() + motion.as_dvec2() * t;
            let (sin, cos) = (f64::from(angle) * t).sin_cos();
            let place = |p: Vec2| {
                let d = (p - pivot).as_dvec2();
                pivot.as_dvec2() + pivot_motion.as_dvec2() * t + DVec2::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos)
            };
            let (pa, pb) = (place(a), place(b));
            let d = pb - pa;
            let s = ((c - pa).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            (c - (pa + d * s)).length() - f64::from(radius)
        };
        let hit = sweep_circle_moving_segment(circle, motion, segment, m);
        // Pressed in by more than twice the tolerance beyond where it started (0 if
        // outside): the search accepts a gap within one tolerance of a level two below the
        // start, so a press of one to two tolerances may pass for the same touch.
        let start = gap(0.0).min(0.0);
        let first_press = brute_first_contact(|t| gap(t) - start + 2.0 * tol + noise);
        let band = f64::from(MOVING_SEGMENT_ACCEPT_BAND) * tol + noise;
        match (hit, first_press) {
            (Some(h), Some(press)) => {
                let toi = f64::from(h.hit.toi);
                prop_assert!(toi <= press, "late: toi {toi}, pressed in from {press} (tolerance {tol})");
                prop_assert!(
                    gap(toi) >= start - 2.0 * tol - noise,
                    "deep: gap {} at toi {toi} (tolerance {tol})",
                    gap(toi)
                );
            }
            (None, Some(press)) => prop_assert!(false, "missed: pressed in from {press} (tolerance {tol})"),
            (Some(h), None) => {
                let toi = f64::from(h.hit.toi);
                let at = gap(toi);
                prop_assert!(
                    at >= start - 2.0 * tol - noise && at <= band,
                    "phantom hit at {toi}, gap {at} (tolerance {tol})"
                );
            }
            (None, None) => {}
        }
    }

    #[test]
    fn moving_segment_matches_the_reference(
        a in point(20.0),
        b in point(80.0),
        pivot in point(10.0),
        angle in -std::f32::consts::PI..std::f32::consts::PI,
        pivot_motion in point(20.0),
        center in point(120.0),
        radius in 0.0_f32..15.0,
        motion in point(150.0),
    ) {
        prop_assume!(a.distance(b) > 1.0);
        let m = SegmentMotion { pivot, angle, pivot_motion };
        let gap = |t: f64| {
            let c = center.as_dvec2() + motion.as_dvec2() * t;
            let (sin, cos) = (f64::from(angle) * t).sin_cos();
            let place = |p: Vec2| {
                let d = (p - pivot).as_dvec2();
                pivot.as_dvec2() + pivot_motion.as_dvec2() * t + DVec2::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos)
            };
            let (pa, pb) = (place(a), place(b));
            let d = pb - pa;
            let s = ((c - pa).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            (c - (pa + d * s)).length() - f64::from(radius)
        };
        prop_assume!(gap(0.0) > 0.0);
        let (circle, segment) = (Circle::new(center, radius), Segment::new(a, b));
        let tol = segment_tolerance(circle, motion, segment, m);
        let hit = sweep_circle_moving_segment(circle, motion, segment, m);
        check_segment(hit.map(|h| h.hit.toi), gap, tol)?;
    }
}

/// A turning, sliding arc (a rail or a band, of any span up to a whole turn) and its
/// motion over the step.
fn turning_arc() -> impl Strategy<Value = (CircleArc, SegmentMotion)> {
    (
        point(40.0),
        5.0_f32..60.0,
        -3.2_f32..3.2,
        0.1_f32..std::f32::consts::TAU,
        prop_oneof![Just(0.0_f32), 0.5_f32..8.0],
        point(40.0),
        -std::f32::consts::PI..std::f32::consts::PI,
        point(20.0),
    )
        .prop_map(
            |(center, radius, start, span, thickness, pivot, angle, pivot_motion)| {
                let arc = CircleArc::new(center, radius, start, start + span).with_thickness(thickness);
                (
                    arc,
                    SegmentMotion {
                        pivot,
                        angle,
                        pivot_motion,
                    },
                )
            },
        )
}

/// The first fault the arc's reference found: a ball out of the angle range, near a
/// boundary ray but far from the curve, took steps no longer than its way back into the
/// range, ran out of iterations and was stopped 35 units short of the arc. (The curve's
/// piece now waits for the circle too.)
#[test]
fn a_ball_beside_a_turning_arcs_range_is_not_stopped_short() {
    let arc = CircleArc::new(Vec2::new(0.0, -26.93063), 50.244713, 1.7153698, 1.8153698);
    let m = SegmentMotion {
        pivot: Vec2::new(-1.1255269, 0.0),
        angle: 2.3089752,
        pivot_motion: Vec2::ZERO,
    };
    let (center, motion) = (Vec2::new(9.524277, 0.0), Vec2::new(0.0, -11.380199));
    let circle = Circle::new(center, 0.0);
    let gap = |t: f64| {
        let c = center.as_dvec2() + motion.as_dvec2() * t;
        arc_distance(c, arc, m.pivot.as_dvec2(), f64::from(m.angle) * t, DVec2::ZERO)
    };
    let tol = f64::from(moving_arc_tolerance(circle, motion, arc, m));
    let hit = sweep_circle_moving_arc(circle, motion, arc, m);
    check_segment(hit.map(|h| h.hit.toi), gap, tol).unwrap();
}

/// The turning arcs' config: a start already touching is rejected (about one case in
/// twenty), so a long run may reject that many.
fn arc_config() -> ProptestConfig {
    let cases = arc_cases();
    ProptestConfig {
        max_global_rejects: cases,
        ..config(cases)
    }
}

proptest! {
    #![proptest_config(arc_config())]

    /// A turning, sliding arc (rail or band, any span) against a ball on a straight leg,
    /// at the query's own tolerance: the contract of the turning segment.
    #[test]
    fn moving_arc_matches_the_reference(
        (arc, m) in turning_arc(),
        center in point(120.0),
        radius in 0.0_f32..15.0,
        motion in point(150.0),
    ) {
        let reach = f64::from(radius + arc.thickness);
        let gap = |t: f64| {
            let c = center.as_dvec2() + motion.as_dvec2() * t;
            arc_distance(c, arc, m.pivot.as_dvec2(), f64::from(m.angle) * t, m.pivot_motion.as_dvec2() * t) - reach
        };
        prop_assume!(gap(0.0) > 0.0);
        let circle = Circle::new(center, radius);
        let tol = f64::from(moving_arc_tolerance(circle, motion, arc, m));
        let hit = sweep_circle_moving_arc(circle, motion, arc, m);
        if let Some(h) = hit {
            // The reported centre is where the ball is at toi, and the normal points from the
            // contact point to it.
            let expected = center.as_dvec2() + motion.as_dvec2() * f64::from(h.hit.toi);
            prop_assert!(h.hit.center.as_dvec2().distance(expected) < 1e-3);
            let towards = (h.hit.center - h.hit.point).normalize_or_zero();
            prop_assert!(towards.dot(h.hit.normal) > 0.99, "normal {:?} against {towards:?}", h.hit.normal);
        }
        check_segment(hit.map(|h| h.hit.toi), gap, tol)?;
    }

    /// The same on a curved leg: the ball under gravity, the arc turning and sliding.
    #[test]
    fn moving_arc_on_a_curved_leg_matches_the_reference(
        (arc, m) in turning_arc(),
        center in point(120.0),
        radius in 0.0_f32..15.0,
        velocity in point(150.0),
        gravity in point(400.0),
    ) {
        let path = Parabola::new(velocity, gravity, 1.0);
        let reach = f64::from(radius + arc.thickness);
        let gap = |t: f64| {
            let c = center.as_dvec2() + velocity.as_dvec2() * t + gravity.as_dvec2() * (0.5 * t * t);
            arc_distance(c, arc, m.pivot.as_dvec2(), f64::from(m.angle) * t, m.pivot_motion.as_dvec2() * t) - reach
        };
        prop_assume!(gap(0.0) > 0.0);
        let circle = Circle::new(center, radius);
        // The tolerance's scale grows by what the bend adds to the speed bound (`|g|·T²`
        // over a leg of 1 s): the query's own, for a straight motion that long.
        let bound = Vec2::new(velocity.length() + gravity.length(), 0.0);
        let tol = f64::from(moving_arc_tolerance(circle, bound, arc, m));
        let hit = sweep_parabola_moving_arc(circle, path, arc, m);
        check_segment(hit.map(|h| h.hit.toi), gap, tol)?;
    }
}
