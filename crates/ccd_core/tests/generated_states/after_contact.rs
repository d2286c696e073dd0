//! 1. **Just after a contact** (see the crate doc).

use ccd_core::{Ball, DEFAULT_MAX_BOUNCES, Obstacle, Segment};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f64::consts::{FRAC_PI_2, TAU};
use std::ops::Range;

use crate::{
    DT, Figures, Path, RADIUS_RANGE, SPEED_RANGE, STATIC_PATHS, Stepper, assert_no_failures, depth,
    draw_incidence, draw_material, draw_place, finite, kinetic, log_uniform, path_crosses, scene_box,
};

/// Cases of the family, each run on every path.
const AFTER_CONTACT_CASES: u32 = 10_000;
/// The generator's seed (issue 29, family 1): the same cases every run.
const AFTER_CONTACT_SEED: u64 = 2_901;
/// Wall lengths drawn, in radii: from a stub shorter than the ball (its caps matter) to a
/// long wall.
const WALL_LENGTH_RADII: Range<f64> = 0.25..40.0;
/// Share of the walls that are one-way (the ball always starts in front).
const ONE_SIDED_SHARE: f64 = 0.25;
/// Share of the contacts drawn on an end cap rather than the face.
const CAP_SHARE: f64 = 0.25;
/// Fractions of the first step at which the ball reaches the wall.
const ARRIVAL_RANGE: Range<f64> = 0.05..0.95;
/// Steps after the one that stops at the contact.
const AFTER_CONTACT_STEPS: u32 = 3;

/// A ball thrown at a wall, and where it first touches it.
#[derive(Clone, Copy, Debug)]
struct AfterContact {
    wall: Obstacle,
    ball: Ball,
    elastic: bool,
}

/// A random wall and a ball thrown at a random point of it (face or end cap), from its
/// front. The first contact is known by construction: at the centre `c = p + r·u` (`p` the
/// feature's point, `u` the unit vector from it to the centre), where the distance to the
/// segment (convex along the straight path) is `r` and falling (`v·u < 0`), so it was
/// larger all the way before.
fn after_contact_case(rng: &mut StdRng) -> AfterContact {
    let r = log_uniform(rng, RADIUS_RANGE);
    let length = r * rng.random_range(WALL_LENGTH_RADII);
    let middle = draw_place(rng);
    let along = DVec2::from_angle(rng.random_range(0.0..TAU));
    let wall = Segment::new(
        (middle - along * length / 2.0).as_vec2(),
        (middle + along * length / 2.0).as_vec2(),
    );
    // Everything from here on from the wall as stored.
    let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
    let dir = (b - a).normalize();
    let one_sided = rng.random_bool(ONE_SIDED_SHARE);
    // A one-way wall's front is `(b − a).perp()`.
    let front = if one_sided || rng.random_bool(0.5) {
        dir.perp()
    } else {
        -dir.perp()
    };
    let (point, out) = if rng.random_bool(CAP_SHARE) {
        let turn = rng.random_range(0.0..FRAC_PI_2);
        let (s, c) = turn.sin_cos();
        if rng.random_bool(0.5) {
            (b, front * c + dir * s)
        } else {
            (a, front * c - dir * s)
        }
    } else {
        (a + (b - a) * rng.random_range(0.0..=1.0), front)
    };
    let contact = point + out * r;
    let heading = DVec2::from_angle(draw_incidence(rng)).rotate(-out);
    let speed = log_uniform(rng, SPEED_RANGE);
    let start = contact - heading * speed * f64::from(DT) * rng.random_range(ARRIVAL_RANGE);
    let (material, elastic) = draw_material(rng);
    AfterContact {
        wall: Obstacle::segment(wall)
            .with_material(material)
            .with_one_sided(one_sided),
        ball: Ball::new(start.as_vec2(), (heading * speed).as_vec2(), r as f32),
        elastic,
    }
}

/// Family 1 on one path.
fn after_contact(path: Path) -> Figures {
    let mut rng = StdRng::seed_from_u64(AFTER_CONTACT_SEED);
    let mut f = Figures::default();
    for index in 0..AFTER_CONTACT_CASES {
        let case = after_contact_case(&mut rng);
        f.cases += 1;
        let walls = [case.wall];
        let r = case.ball.radius;
        let speed = case.ball.velocity.as_dvec2().length();
        let scene = scene_box(
            &[case.wall.aabb()],
            case.ball.center,
            r,
            speed,
            AFTER_CONTACT_STEPS + 1,
        );
        let mut stepper = Stepper::new(path, scene, r);
        let mut ball = case.ball;
        let e0 = kinetic(&ball);
        for step in 0..=AFTER_CONTACT_STEPS {
            // The first step stops at the first contact: the state the others start from.
            let max_bounces = if step == 0 { 1 } else { DEFAULT_MAX_BOUNCES };
            let leg = stepper.step(&mut ball, &walls, &mut [], max_bounces);
            if step == 0 && leg.contacts.is_empty() {
                // A graze that rounding turned into a miss: no contact to start after.
                f.skipped += 1;
                break;
            }
            f.steps += 1;
            let describe = move || format!("case {index}, step {step}: {case:?}; ball now {ball:?}");
            f.nan(finite(&ball), &describe);
            if !finite(&ball) {
                break;
            }
            f.energy(case.elastic, e0, kinetic(&ball), &describe);
            f.depth(depth(ball.center, r, &case.wall), r, "the wall", &describe);
            f.crossing(path_crosses(&leg.centres, &case.wall, r), "the wall", &describe);
        }
    }
    f
}

/// From the exact state a contact leaves (centre at the contact, velocity after the
/// bounce), at any speed, on a face or a cap, head on or grazing: at `e = 1` the energy is
/// kept to [`ENERGY_TOL_REL`] (and never gained at `e ≤ 1`), no step ends inside the wall
/// beyond [`penetration_slop`], no path goes through it (nor a one-way wall backwards),
/// and nothing is NaN.
///
/// [`ENERGY_TOL_REL`]: crate::ENERGY_TOL_REL
/// [`penetration_slop`]: ccd_core::penetration_slop
#[test]
fn states_just_after_a_contact() {
    let figures: Vec<_> = STATIC_PATHS
        .iter()
        .map(|&path| (path, after_contact(path)))
        .collect();
    for (path, f) in &figures {
        eprintln!("just after a contact, {path:?}: {}", f.line());
    }
    assert_no_failures("just after a contact", &figures);
}
