//! Hand-computed cases and a dense brute-force check for the moving segment sweep.

use super::*;
use crate::sweep_circle_segment;
use crate::tolerance::{MAX_MOVING_SEGMENT_ITERATIONS, MOVING_SEGMENT_ACCEPT_BAND};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::{FRAC_PI_2, PI, TAU};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn turn(angle: f32) -> SegmentMotion {
    SegmentMotion {
        pivot: Vec2::ZERO,
        angle,
        pivot_motion: Vec2::ZERO,
    }
}

/// Gap between circle and moving segment at toi `t`, in f64.
fn gap64(circle: Circle, motion: Vec2, segment: Segment, m: SegmentMotion, t: f64) -> f64 {
    bent_gap64(circle, motion, Vec2::ZERO, segment, m, t)
}

/// [`gap64`] for a centre on the curve `center + motion·t + bend·t²`.
fn bent_gap64(circle: Circle, motion: Vec2, bend: Vec2, segment: Segment, m: SegmentMotion, t: f64) -> f64 {
    let c = circle.center.as_dvec2() + motion.as_dvec2() * t + bend.as_dvec2() * (t * t);
    let (sin, cos) = (m.angle as f64 * t).sin_cos();
    let rot = |p: Vec2| {
        let d = (p - m.pivot).as_dvec2();
        m.pivot.as_dvec2()
            + m.pivot_motion.as_dvec2() * t
            + glam::DVec2::new(d.x * cos - d.y * sin, d.x * sin + d.y * cos)
    };
    let (a, b) = (rot(segment.a), rot(segment.b));
    let d = b - a;
    let s = ((c - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (c - (a + d * s)).length() - circle.radius as f64
}

/// The first toi where the gap is ≤ `level`, by dense sampling then bisection, in f64.
fn brute_first_below(
    circle: Circle,
    motion: Vec2,
    segment: Segment,
    m: SegmentMotion,
    level: f64,
) -> Option<f64> {
    bent_first_below(circle, motion, Vec2::ZERO, segment, m, level)
}

/// [`brute_first_below`] on a curved path.
fn bent_first_below(
    circle: Circle,
    motion: Vec2,
    bend: Vec2,
    segment: Segment,
    m: SegmentMotion,
    level: f64,
) -> Option<f64> {
    const SAMPLES: usize = 20_000;
    let g = |t| bent_gap64(circle, motion, bend, segment, m, t) - level;
    if g(0.0) <= 0.0 {
        return Some(0.0);
    }
    let mut prev = 0.0;
    for i in 1..=SAMPLES {
        let t = i as f64 / SAMPLES as f64;
        if g(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if g(mid) <= 0.0 { hi = mid } else { lo = mid }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

/// The query's contact tolerance, world units (as the sweep computes it).
fn tolerance(circle: Circle, motion: Vec2, segment: Segment, m: SegmentMotion) -> f64 {
    bent_tolerance(circle, motion, Vec2::ZERO, segment, m)
}

/// [`tolerance`] on a curved path.
fn bent_tolerance(circle: Circle, motion: Vec2, bend: Vec2, segment: Segment, m: SegmentMotion) -> f64 {
    Query::new(circle, motion, bend, segment, m).map_or(0.0, |q| f64::from(q.tol))
}

/// The f64 gap against the sweep's f32 evaluation of it, in tolerances: the tolerance is
/// ten times that noise (see [`MOVING_SEGMENT_TOLERANCE_REL`]), half of one covers it five
/// times over.
const NOISE: f64 = 0.5;

/// The sweep against the brute force, for a circle that starts clear of the segment, at
/// the documented tolerance: a reported contact is no later than the first press deeper
/// than one tolerance, and touches (a gap from −1 tolerance to the accept band); a miss
/// is a graze no deeper than one tolerance. Whether it hit.
fn agrees_with_brute_force(circle: Circle, motion: Vec2, segment: Segment, m: SegmentMotion) -> bool {
    agrees_on_curve(circle, motion, Vec2::ZERO, segment, m)
}

/// [`agrees_with_brute_force`] for a centre on the curve `center + motion·t + bend·t²`.
fn agrees_on_curve(circle: Circle, motion: Vec2, bend: Vec2, segment: Segment, m: SegmentMotion) -> bool {
    let tol = bent_tolerance(circle, motion, bend, segment, m);
    let noise = NOISE * tol;
    let gap = |t: f64| bent_gap64(circle, motion, bend, segment, m, t);
    let first_press = bent_first_below(circle, motion, bend, segment, m, -tol - noise);
    match Query::new(circle, motion, bend, segment, m).and_then(|q| search(&q)) {
        Some(h) => {
            let toi = f64::from(h.hit.toi);
            assert!(
                first_press.is_none_or(|press| toi <= press),
                "late: toi {toi}, pressed in by more than the tolerance {tol} from {first_press:?}"
            );
            let at = gap(toi);
            assert!(
                at >= -tol - noise && at <= f64::from(MOVING_SEGMENT_ACCEPT_BAND) * tol + noise,
                "gap {at} at toi {toi}, tolerance {tol}"
            );
            true
        }
        None => {
            let deepest = (0..=20_000)
                .map(|i| gap(i as f64 / 20_000.0))
                .fold(f64::MAX, f64::min);
            assert!(
                deepest > -tol - noise,
                "missed a press of {deepest}, tolerance {tol}"
            );
            false
        }
    }
}

#[test]
fn quarter_turn_onto_a_resting_ball_by_hand() {
    let arm = Segment::new(Vec2::ZERO, v(10.0, 0.0));
    let ball = Circle::new(v(5.0, 3.0), 1.0);
    let hit = sweep_circle_moving_segment(ball, Vec2::ZERO, arm, turn(FRAC_PI_2)).unwrap();
    let theta = 3f32.atan2(5.0) - (1.0 / 34f32.sqrt()).asin();
    assert!((hit.hit.toi - theta / FRAC_PI_2).abs() < 1e-4, "{hit:?}");
    // The normal points from the arm to the ball: the arm's turned normal.
    let n = Vec2::from_angle(theta).perp();
    assert!((hit.hit.normal - n).length() < 1e-3);
    // The surface moves along that normal at (π/2)·|foot|.
    let foot = 34f32.sqrt() * (1.0 / 34f32.sqrt()).asin().cos();
    assert!((hit.surface_motion - n * FRAC_PI_2 * foot).length() < 1e-2);
    assert!(hit.iterations <= MAX_MOVING_SEGMENT_ITERATIONS);
}

#[test]
fn without_motion_it_matches_the_static_sweep() {
    let wall = Segment::new(v(-3.0, 1.0), v(7.0, 2.0));
    let ball = Circle::new(v(1.0, 9.0), 1.5);
    let motion = v(2.0, -12.0);
    let fixed = sweep_circle_segment(ball, motion, wall).unwrap();
    let moving = sweep_circle_moving_segment(ball, motion, wall, turn(0.0)).unwrap();
    assert!((fixed.toi - moving.hit.toi).abs() < 1e-4);
    assert!((fixed.normal - moving.hit.normal).length() < 1e-3);
    assert_eq!(moving.surface_motion, Vec2::ZERO);
}

#[test]
fn sliding_segment_hits_a_resting_ball() {
    // A horizontal bar at y = 0 slides up by 10; a ball of radius 1 rests at (0, 6): the
    // bar meets it when it has risen 5, toi 0.5.
    let bar = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
    let m = SegmentMotion {
        pivot: Vec2::ZERO,
        angle: 0.0,
        pivot_motion: v(0.0, 10.0),
    };
    let hit = sweep_circle_moving_segment(Circle::new(v(0.0, 6.0), 1.0), Vec2::ZERO, bar, m).unwrap();
    assert!((hit.hit.toi - 0.5).abs() < 1e-4);
    assert_eq!(hit.hit.normal, Vec2::Y);
    assert_eq!(hit.surface_motion, v(0.0, 10.0));
}

#[test]
fn touching_and_separating_is_not_hit_again() {
    // Ball resting on a bar that moves away from it.
    let bar = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
    let away = SegmentMotion {
        pivot: Vec2::ZERO,
        angle: 0.0,
        pivot_motion: v(0.0, -3.0),
    };
    assert_eq!(
        sweep_circle_moving_segment(Circle::new(v(0.0, 1.0), 1.0), Vec2::ZERO, bar, away),
        None
    );
    // Ball leaving faster than the bar follows.
    let follow = SegmentMotion {
        pivot_motion: v(0.0, 3.0),
        ..away
    };
    assert_eq!(
        sweep_circle_moving_segment(Circle::new(v(0.0, 1.0), 1.0), v(0.0, 5.0), bar, follow),
        None
    );
    // Bar catches up with a slower ball: hit at once.
    let hit = sweep_circle_moving_segment(Circle::new(v(0.0, 1.0), 1.0), v(0.0, 1.0), bar, follow).unwrap();
    assert_eq!(hit.hit.toi, 0.0);
}

#[test]
fn bad_input_gives_none() {
    let arm = Segment::new(Vec2::ZERO, v(10.0, 0.0));
    let ball = Circle::new(v(5.0, 3.0), 1.0);
    assert_eq!(
        sweep_circle_moving_segment(ball, Vec2::ZERO, arm, turn(f32::NAN)),
        None
    );
    assert_eq!(
        sweep_circle_moving_segment(ball, v(f32::INFINITY, 0.0), arm, turn(1.0)),
        None
    );
    let bad_pivot = SegmentMotion {
        pivot: v(f32::NAN, 0.0),
        ..turn(1.0)
    };
    assert_eq!(
        sweep_circle_moving_segment(ball, Vec2::ZERO, arm, bad_pivot),
        None
    );
    assert_eq!(
        sweep_circle_moving_segment(Circle::new(v(5.0, 3.0), -1.0), Vec2::ZERO, arm, turn(1.0)),
        None
    );
    // Nothing moves at all: no contact can begin.
    assert_eq!(
        sweep_circle_moving_segment(ball, Vec2::ZERO, arm, turn(0.0)),
        None
    );
}

/// A flipper of length 70 and a ball of radius 13.5 at rest at every phase offset around
/// it, the flipper turning a full revolution in one step (80 rad/s at 12.7 Hz): whenever
/// the brute force finds a contact, the sweep finds it too, never later than the tolerance,
/// and never invents one.
#[test]
fn flipper_never_misses_a_resting_ball_at_any_phase() {
    let flipper = Segment::new(Vec2::ZERO, v(70.0, 0.0));
    let m = turn(TAU);
    let (mut contacts, mut clear) = (0, 0);
    for i in 0..72 {
        for &dist in &[20.0_f32, 45.0, 70.0, 83.0, 83.4] {
            let phase = i as f32 / 72.0 * TAU;
            let ball = Circle::new(Vec2::from_angle(phase) * dist, 13.5);
            if gap64(ball, Vec2::ZERO, flipper, m, 0.0) <= 0.0 {
                // Overlapping at the start: covered by the start-in-contact tests.
                continue;
            }
            clear += 1;
            contacts += usize::from(agrees_with_brute_force(ball, Vec2::ZERO, flipper, m));
        }
    }
    // Every ball clear of the arm at the start and within its reach (70 + 13.5 = 83.5) is
    // struck during the revolution: all 360 placements but those overlapping at the start.
    assert_eq!(contacts, clear);
    assert!(clear >= 250, "{clear} placements clear of the arm");
}

/// The seed of [`moving_ball_against_spinning_arm_matches_brute_force`]'s configurations.
const SPINNING_ARM_SEED: u64 = 0x2545_f491_4f6c_dd1d;

#[test]
fn moving_ball_against_spinning_arm_matches_brute_force() {
    let checked = spinning_arm_cases(SPINNING_ARM_SEED, false);
    assert!(checked > 100, "{checked}");
}

/// 1,200 pseudo-random arms (turning and sliding) and balls from `seed`, each ball clear
/// of its arm at the start checked against the brute force; with `bent`, the ball's path
/// is also bent by gravity, by up to 150 units over the leg (as large as the motions).
/// Returns how many hit.
fn spinning_arm_cases(seed: u64, bent: bool) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rnd = move |lo: f32, hi: f32| rng.random_range(lo..hi);
    let mut checked = 0;
    for _ in 0..1200 {
        let arm = Segment::new(
            v(rnd(-20.0, 20.0), rnd(-20.0, 20.0)),
            v(rnd(-80.0, 80.0), rnd(-80.0, 80.0)),
        );
        let m = SegmentMotion {
            pivot: v(rnd(-10.0, 10.0), rnd(-10.0, 10.0)),
            angle: rnd(-PI, PI),
            pivot_motion: v(rnd(-20.0, 20.0), rnd(-20.0, 20.0)),
        };
        let ball = Circle::new(v(rnd(-120.0, 120.0), rnd(-120.0, 120.0)), rnd(0.0, 15.0));
        let motion = v(rnd(-150.0, 150.0), rnd(-150.0, 150.0));
        let bend = if bent {
            v(rnd(-150.0, 150.0), rnd(-150.0, 150.0))
        } else {
            Vec2::ZERO
        };
        if bent_gap64(ball, motion, bend, arm, m, 0.0) <= 0.0 {
            continue;
        }
        checked += usize::from(agrees_on_curve(ball, motion, bend, arm, m));
    }
    checked
}

/// The reproduction from the issue: a ball that has just bounced off a rising flipper
/// starts the next leg 1.2e-4 outside the blade, still separating, and the blade catches
/// up with it later in the step (the gap falls to −7.25 by the end). The early touch must
/// not hide the later contact.
#[test]
fn a_touch_that_separates_does_not_hide_a_later_contact() {
    let ball = Circle::new(v(34.966373, 17.551033), 13.5);
    let motion = v(6.2419662, 25.443113);
    let blade = Segment::new(Vec2::ZERO, v(69.55438, 7.88594));
    let m = turn(0.5885054);
    // The figures above, to their precision.
    let start = gap64(ball, motion, blade, m, 0.0);
    assert!((start - 1.2e-4).abs() < 0.05e-4, "{start}");
    let end = gap64(ball, motion, blade, m, 1.0);
    assert!((end + 7.25).abs() < 5e-3, "{end}");
    // A start in touch: the sweep looks for a press two tolerances below touch and takes
    // one within a tolerance of it, so it reports the contact by the time the blade is
    // two tolerances in, and no deeper.
    let tol = tolerance(ball, motion, blade, m);
    let noise = NOISE * tol;
    let press = brute_first_below(ball, motion, blade, m, -2.0 * tol - noise).unwrap();
    let hit = sweep_circle_moving_segment(ball, motion, blade, m).expect("the later contact");
    let toi = f64::from(hit.hit.toi);
    assert!(toi <= press, "{toi} after the press at {press}");
    let at = gap64(ball, motion, blade, m, toi);
    assert!(
        at >= -2.0 * tol - noise && at <= 0.0,
        "gap {at} at {toi}, tolerance {tol}"
    );
}

/// The seed of [`falling_ball_against_spinning_arm_matches_brute_force`]'s configurations.
const FALLING_BALL_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

#[test]
fn falling_ball_against_spinning_arm_matches_brute_force() {
    // As the spinning-arm check, with the ball's path bent by gravity.
    let checked = spinning_arm_cases(FALLING_BALL_SEED, true);
    assert!(checked > 100, "{checked}");
}
