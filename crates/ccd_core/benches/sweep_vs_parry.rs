//! `sweep_circle_segment` against parry2d's `query::cast_shapes` (a `Ball` moving against a
//! still `Segment`) on the same 10 000 random cases, in one run.
//!
//! parry2d is the version bevy_rapier2d 0.36 uses (`=0.30.2-glamx0.2-b`, through
//! rapier2d `=0.35.0-glamx0.2`); its `Vector` is glam 0.32's `Vec2`, like ccd_core's.
//! Both are asked the same question: first contact within the whole motion (`max time of
//! impact 1` with the motion as velocity), target distance 0, stopping at penetration, with
//! impact geometry computed on penetration.
//!
//! ```text
//! cargo bench -p ccd_core --bench sweep_vs_parry
//! ```
//!
//! Criterion reports the time for all 10 000 queries and the throughput; ns per query is
//! `1000 / (Melem/s)`.
//!
//! Before timing, the bench checks the figures the README states for these cases and
//! panics (so exits non-zero) if one is off: the two agree on hit or miss in every case,
//! and the largest error of the reported first contact against the exact f64 reference
//! rounds to the README's figure, for ccd_core ([`CCD_WORST_ERROR`]) and for parry2d
//! ([`PARRY_WORST_ERROR`]).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/reference/mod.rs"]
mod reference;

use ccd_core::{Circle, Segment, Vec2, sweep_circle_segment};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::math::Pose;
use parry2d::query::{ShapeCastOptions, cast_shapes};
use parry2d::shape::{Ball, Segment as ParrySegment};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use reference::{P, Seg, reference};
use std::hint::black_box;
use std::time::Duration;

const CASES: usize = 10_000;

/// The README's figure (two significant digits) for ccd_core's largest error, units along
/// the motion: the measured value must round to it, within [`CCD_WORST_ERROR_HALF_DIGIT`].
const CCD_WORST_ERROR: f64 = 2.3e-5;
/// Half a unit in the last stated digit of [`CCD_WORST_ERROR`].
const CCD_WORST_ERROR_HALF_DIGIT: f64 = 0.05e-5;
/// The README's figure (two significant digits) for parry2d's largest error, units along
/// the motion (parry2d is pinned to one version, so it is deterministic here too).
const PARRY_WORST_ERROR: f64 = 0.58;
/// Half a unit in the last stated digit of [`PARRY_WORST_ERROR`].
const PARRY_WORST_ERROR_HALF_DIGIT: f64 = 0.005;

/// The seed of the generator the cases are drawn from.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

fn unit_vec(rng: &mut impl Rng) -> Vec2 {
    Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
}

/// One query, with its inputs for both libraries built ahead of time.
struct Case {
    circle: Circle,
    motion: Vec2,
    segment: Segment,
    ball: Ball,
    pose: Pose,
    parry_segment: ParrySegment,
}

/// Game-like cases: walls 10–400 long in a 1000-unit box, balls of radius 1–20 starting
/// clear of the wall, moving 10–800 units; half aimed at a point of the wall (give or take
/// two radii), half in a random direction.
fn cases() -> Vec<Case> {
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut out = Vec::with_capacity(CASES);
    while out.len() < CASES {
        let a = Vec2::new(rng.random_range(-500.0..500.0), rng.random_range(-500.0..500.0));
        let b = a + unit_vec(&mut rng) * rng.random_range(10.0..400.0);
        let segment = Segment::new(a, b);
        let r = rng.random_range(1.0..20.0);
        let center = Vec2::new(rng.random_range(-600.0..600.0), rng.random_range(-600.0..600.0));
        if (center - segment.closest_point(center)).length() <= r + 1e-3 {
            continue; // both libraries answer "already touching" differently by design
        }
        let len = rng.random_range(10.0..800.0);
        // Half aimed at the wall, half in a random direction.
        let motion = if rng.random::<bool>() {
            let target = a.lerp(b, rng.random::<f32>()) + unit_vec(&mut rng) * rng.random_range(0.0..2.0 * r);
            (target - center).normalize_or(Vec2::X) * len
        } else {
            unit_vec(&mut rng) * len
        };
        out.push(Case {
            circle: Circle::new(center, r),
            motion,
            segment,
            ball: Ball::new(r),
            pose: Pose::translation(center.x, center.y),
            parry_segment: ParrySegment::new(a, b),
        });
    }
    out
}

fn options() -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    }
}

#[inline]
fn ccd(case: &Case) -> Option<f32> {
    sweep_circle_segment(case.circle, case.motion, case.segment).map(|h| h.toi)
}

#[inline]
fn parry(case: &Case, options: ShapeCastOptions) -> Option<f32> {
    cast_shapes(
        &case.pose,
        case.motion,
        &case.ball,
        &Pose::IDENTITY,
        Vec2::ZERO,
        &case.parry_segment,
        options,
    )
    .expect("ball against segment is supported")
    .map(|h| h.time_of_impact)
}

/// What [`agreement`] measured.
struct Agreement {
    /// Cases where both report a hit or both a miss.
    agree: usize,
    /// The largest distance along the motion between ccd_core's toi and the exact one.
    worst_ccd: f64,
    /// The same for parry2d.
    worst_parry: f64,
}

/// Untimed: how often the two agree on hit or miss, and how far each toi is from the
/// exact first contact (the f64 reference of the property tests), along the motion.
fn agreement(cases: &[Case]) -> Agreement {
    let options = options();
    let (mut agree, mut hits, mut near_grazing) = (0, 0, 0);
    let (mut worst_ccd, mut worst_parry) = (0.0_f64, (0.0_f64, 0));
    for (i, case) in cases.iter().enumerate() {
        let (ours, theirs) = (ccd(case), parry(case, options));
        match (ours, theirs) {
            (Some(t1), Some(t2)) => {
                agree += 1;
                hits += 1;
                let seg = Seg::new(P::from32(case.segment.a), P::from32(case.segment.b));
                let r = f64::from(case.circle.radius);
                let rf = reference(&seg, P::from32(case.circle.center), P::from32(case.motion), r);
                let exact = rf.first_contact.unwrap_or(0.0);
                let len = f64::from(case.motion.length());
                worst_ccd = worst_ccd.max((f64::from(t1) - exact).abs() * len);
                let e = (f64::from(t2) - exact).abs() * len;
                if e > worst_parry.0 {
                    worst_parry = (e, i);
                }
            }
            (None, None) => agree += 1,
            _ => {
                // How close to grazing: closest approach minus radius, exactly.
                let seg = Seg::new(P::from32(case.segment.a), P::from32(case.segment.b));
                let r = f64::from(case.circle.radius);
                let rf = reference(&seg, P::from32(case.circle.center), P::from32(case.motion), r);
                let margin = rf.d_min - r;
                let (cc, sg) = (case.circle.center, case.segment);
                let s = [cc.x, cc.y, sg.a.x, sg.a.y, sg.b.x, sg.b.y, case.circle.radius]
                    .into_iter()
                    .fold(case.motion.length(), |m, x| m.max(x.abs()));
                let s = f64::from(s);
                if margin.abs() <= 1e-4 + 1e-6 * s {
                    near_grazing += 1;
                } else {
                    eprintln!(
                        "disagreement: ccd_core {ours:?}, parry {theirs:?}, closest approach - r = {margin:e}: \
                         circle {:?}, motion {:?}, segment {:?}",
                        case.circle, case.motion, case.segment
                    );
                }
            }
        }
    }
    eprintln!(
        "sanity: ccd_core and parry2d agree on hit/miss in {agree} of {} cases ({hits} hits); \
         {near_grazing} of the {} disagreements are near-grazing (|closest approach - r| <= tol)",
        cases.len(),
        cases.len() - agree
    );
    let c = &cases[worst_parry.1];
    eprintln!(
        "sanity: largest distance along the motion between the reported and the exact first contact: \
         ccd_core {worst_ccd:.3e}, parry2d {:.3e} (circle {:?}, motion {:?}, segment {:?})",
        worst_parry.0, c.circle, c.motion, c.segment
    );
    Agreement {
        agree,
        worst_ccd,
        worst_parry: worst_parry.0,
    }
}

/// The README's figures for these cases, checked: a panic if one is off.
fn check_readme_figures(a: &Agreement) {
    assert_eq!(
        a.agree, CASES,
        "README: both agree on hit or miss in all {CASES} cases"
    );
    assert!(
        (a.worst_ccd - CCD_WORST_ERROR).abs() < CCD_WORST_ERROR_HALF_DIGIT,
        "README: ccd_core's largest error is {CCD_WORST_ERROR:e}; measured {:e}",
        a.worst_ccd
    );
    assert!(
        (a.worst_parry - PARRY_WORST_ERROR).abs() < PARRY_WORST_ERROR_HALF_DIGIT,
        "README: parry2d's largest error is {PARRY_WORST_ERROR}; measured {}",
        a.worst_parry
    );
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    check_readme_figures(&agreement(&cases));
    let options = options();
    let mut group = c.benchmark_group("sweep_circle_segment_10k");
    group.throughput(Throughput::Elements(CASES as u64));
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));
    group.bench_function("ccd_core", |b| {
        b.iter(|| {
            let mut sum = 0.0_f32;
            for case in &cases {
                if let Some(t) = ccd(black_box(case)) {
                    sum += t;
                }
            }
            sum
        });
    });
    group.bench_function("parry2d_cast_shapes", |b| {
        b.iter(|| {
            let mut sum = 0.0_f32;
            for case in &cases {
                if let Some(t) = parry(black_box(case), options) {
                    sum += t;
                }
            }
            sum
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
