//! Property tests of the two moving-obstacle queries against a brute-force reference:
//! the gap between the shapes evaluated in f64 at densely sampled times, the first
//! sign change refined by bisection.
//!
//! Contract checked for both: a reported toi is never later than the true first contact
//! (beyond a small tolerance) and the shapes touch there; a contact is never missed unless
//! it is a graze (the deepest press stays within the tolerance).

use ccd_core::{
    Circle, Segment, SegmentMotion, Vec2, sweep_circle_moving_circle, sweep_circle_moving_segment,
};
use glam::DVec2;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Samples of the step for the brute-force search (a contact shorter than 1/20,000 of a
/// step can only be a graze in these scenes).
const SAMPLES: usize = 20_000;
/// Bisection rounds after the first sampled contact (2^-60 of a sample: exact in f64).
const BISECTIONS: usize = 60;
/// How much later than the truth a toi may be, as a fraction of the step.
const TOI_TOLERANCE: f64 = 1e-4;
/// Gap allowed at a reported contact, and press depth a miss may have, in world units
/// (scenes are about 100 units across).
const GAP_TOLERANCE: f64 = 1e-2;
/// How far a segment presses into a ball before the press is clear, in world units: a
/// thousand tolerances of these scenes, and a hundredth of the smallest radius.
const PRESS: f64 = 1e-2;

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

/// Compare a query's answer with the reference for the gap function `gap`.
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
    /// outside it (−1 to +3 tolerances), leaving it (or sliding along it) no faster than
    /// the surface under it moves. Whenever the segment catches up with it later in the
    /// step and presses in clearly (more than `PRESS` into it), the sweep reports a contact
    /// no later than that, and not deep inside; when the segment never presses in clearly,
    /// a reported contact is a touch.
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
        let point = a.lerp(b, along);
        let face = (b - a).perp().normalize() * if side { 1.0 } else { -1.0 };
        // The query's tolerance: 1e-6 of its largest coordinate, motion or reach.
        let surface = m.point_motion(point, 0.0);
        let scale = [a.abs().max_element(), b.abs().max_element(), point.abs().max_element() + radius, 150.0]
            .into_iter()
            .fold(1.0_f32, f32::max);
        let tol = 1e-6 * scale;
        let center = point + face * (radius + hair * tol);
        let speed = surface.length().max(1.0);
        let motion = surface + face * (leaving * speed) + (b - a).normalize() * (sliding * speed);
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
        let hit = sweep_circle_moving_segment(Circle::new(center, radius), motion, Segment::new(a, b), m);
        // The first clear press, by dense sampling then bisection.
        let pressed = |t: f64| gap(t) <= -PRESS;
        let first_press = (0..=SAMPLES).map(|i| i as f64 / SAMPLES as f64).position(pressed).map(|i| {
            let (mut lo, mut hi) = (i.saturating_sub(1) as f64 / SAMPLES as f64, i as f64 / SAMPLES as f64);
            for _ in 0..BISECTIONS {
                let mid = 0.5 * (lo + hi);
                if pressed(mid) { hi = mid } else { lo = mid }
            }
            hi
        });
        match (hit, first_press) {
            (Some(h), Some(press)) => {
                let toi = f64::from(h.hit.toi);
                prop_assert!(toi <= press, "late: toi {toi}, clear press from {press}");
                prop_assert!(gap(toi) > -PRESS, "deep: gap {} at toi {toi}", gap(toi));
            }
            (None, Some(press)) => prop_assert!(false, "missed: pressed in from {press}"),
            (Some(h), None) => {
                let toi = f64::from(h.hit.toi);
                prop_assert!(gap(toi).abs() < PRESS, "phantom hit at {toi}, gap {}", gap(toi));
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
        let hit = sweep_circle_moving_segment(Circle::new(center, radius), motion, Segment::new(a, b), m);
        check(hit.map(|h| h.hit.toi), gap)?;
    }
}
