//! 2. **Exactly in a corner** (see the crate doc).

use ccd_core::{Ball, DEFAULT_MAX_BOUNCES, Obstacle, Segment, penetration_slop};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f64::consts::TAU;
use std::ops::Range;

use crate::{
    DT, Figures, Path, RADIUS_RANGE, SPEED_RANGE, STATIC_PATHS, Stepper, assert_no_failures, depth,
    draw_material, draw_place, finite, kinetic, log_uniform, path_crosses, scene_box, segment_of,
};

/// Cases of the family, each run on every path.
const CORNER_CASES: u32 = 10_000;
/// The generator's seed (issue 29, family 2).
const CORNER_SEED: u64 = 2_902;
/// Corner angles drawn, degrees: from a 1° V to an almost straight wall.
const CORNER_ANGLES: Range<f64> = 1.0..179.0;
/// How far each wall reaches past the place where the ball touches it, in radii, besides
/// one step of the ball's travel: a ball leaves by the open side or, later, past an end.
const CORNER_REACH_RADII: f64 = 4.0;
/// Steps per case.
const CORNER_STEPS: u32 = 3;

/// Two walls from a common apex and a ball touching both.
#[derive(Clone, Copy, Debug)]
struct CornerCase {
    walls: [Obstacle; 2],
    ball: Ball,
    elastic: bool,
}

/// Where a ball of radius `r` touches both walls `a` and `b` (each from the apex as stored),
/// in f64: where their lines, moved `r` into the corner, meet.
fn touch_both(a: Segment, b: Segment, r: f64) -> DVec2 {
    let line = |s: Segment, other: Segment| {
        let (p, q) = (s.a.as_dvec2(), s.b.as_dvec2());
        let n = (q - p).perp().normalize();
        let n = if n.dot(other.b.as_dvec2() - p) < 0.0 {
            -n
        } else {
            n
        };
        (n, n.dot(p) + r)
    };
    let ((na, ca), (nb, cb)) = (line(a, b), line(b, a));
    // na·x = ca and nb·x = cb, by Cramer's rule.
    let det = na.perp_dot(nb);
    DVec2::new(ca * nb.y - cb * na.y, na.x * cb - nb.x * ca) / det
}

fn corner_case(rng: &mut StdRng) -> CornerCase {
    let r = log_uniform(rng, RADIUS_RANGE);
    let angle = rng.random_range(CORNER_ANGLES);
    let half = angle.to_radians() / 2.0;
    let axis = rng.random_range(0.0..TAU);
    let apex = draw_place(rng);
    let speed = log_uniform(rng, SPEED_RANGE);
    // From the apex to where the ball touches a wall, along it: r / tan(α/2).
    let length = r / half.tan() + CORNER_REACH_RADII * r + speed * f64::from(DT);
    let (material, elastic) = draw_material(rng);
    let walls = [half, -half].map(|h| {
        let end = apex + DVec2::from_angle(axis + h) * length;
        Obstacle::segment(Segment::new(apex.as_vec2(), end.as_vec2())).with_material(material)
    });
    let touch = touch_both(segment_of(&walls[0]), segment_of(&walls[1]), r);
    let heading = DVec2::from_angle(rng.random_range(0.0..TAU));
    CornerCase {
        walls,
        ball: Ball::new(touch.as_vec2(), (heading * speed).as_vec2(), r as f32),
        elastic,
    }
}

/// Family 2 on one path.
fn corner(path: Path) -> Figures {
    let mut rng = StdRng::seed_from_u64(CORNER_SEED);
    let mut f = Figures::default();
    for index in 0..CORNER_CASES {
        let case = corner_case(&mut rng);
        f.cases += 1;
        let r = case.ball.radius;
        // The harness: the ball starts touching both walls (to the rounding of its place).
        for wall in &case.walls {
            let gap = segment_of(wall)
                .closest_point(case.ball.center)
                .distance(case.ball.center)
                - r;
            assert!(
                gap.abs() <= penetration_slop(r),
                "case {index}: the ball starts {gap} off a wall"
            );
        }
        let speed = case.ball.velocity.as_dvec2().length();
        let boxes = case.walls.map(|w| w.aabb());
        let scene = scene_box(&boxes, case.ball.center, r, speed, CORNER_STEPS);
        let mut stepper = Stepper::new(path, scene, r);
        let mut ball = case.ball;
        let e0 = kinetic(&ball);
        for step in 0..CORNER_STEPS {
            let leg = stepper.step(&mut ball, &case.walls, &mut [], DEFAULT_MAX_BOUNCES);
            f.steps += 1;
            let describe = move || format!("case {index}, step {step}: {case:?}; ball now {ball:?}");
            f.nan(finite(&ball), &describe);
            if !finite(&ball) {
                break;
            }
            f.energy(case.elastic, e0, kinetic(&ball), &describe);
            for wall in &case.walls {
                f.depth(depth(ball.center, r, wall), r, "a wall", &describe);
                f.crossing(path_crosses(&leg.centres, wall, r), "a wall", &describe);
            }
        }
    }
    f
}

/// From exactly touching both walls of a corner of any angle, thrown any way at any
/// speed: at `e = 1` the energy is kept to [`ENERGY_TOL_REL`] (never gained at `e ≤ 1`), no
/// step ends inside a wall beyond [`penetration_slop`], no path goes through a wall, and
/// nothing is NaN.
///
/// [`ENERGY_TOL_REL`]: crate::ENERGY_TOL_REL
#[test]
fn states_exactly_in_a_corner() {
    let figures: Vec<_> = STATIC_PATHS.iter().map(|&path| (path, corner(path))).collect();
    for (path, f) in &figures {
        eprintln!("exactly in a corner, {path:?}: {}", f.line());
    }
    assert_no_failures("exactly in a corner", &figures);
}
