//! One rule for a ball that meets a surface: the lone sweep (a ball that nothing but walls
//! can meet) and the event machinery (a ball near a moving obstacle or another ball) ask
//! the same decision (`meet.rs`), so a ball lands alike whichever path steps it.
//!
//! Each case is one step of one ball that starts in flight and lands within the step, so
//! nothing but the contact decides where it ends: stepped by [`step_balls`] alone (the
//! lone sweep), and again with a still kinematic segment far from its path whose swept box
//! still covers it (the event machinery). The two ends must agree to the f32 rounding of
//! their different arithmetic, and each must match the case's figure by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{
    Ball, Circle, Material, MovingObstacle, MultiballReport, MultiballScratch, MultiballSettings, Obstacle,
    Segment, SegmentMotion, Vec2, step_balls,
};

/// Gravity, units/s².
const G: f32 = 10.0;
/// The step, seconds.
const DT: f32 = 1.0 / 60.0;
/// The ball's radius.
const RADIUS: f32 = 0.5;

/// One step of `ball` among `walls`: alone, and with a still kinematic segment whose
/// swept box covers it (it turns about the origin by nothing, and reaches 200 from it).
/// Returns both ends and both reports.
fn both_paths(ball: Ball, walls: &[Obstacle]) -> [(Ball, MultiballReport); 2] {
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        ..MultiballSettings::default()
    };
    let far = Obstacle::segment(Segment::new(Vec2::new(150.0, 150.0), Vec2::new(150.0, 100.0)));
    let still = MovingObstacle::new(far, SegmentMotion::default());
    [Vec::new(), vec![still]].map(|mut moving| {
        let mut balls = [ball];
        let report = step_balls(
            &mut balls,
            DT,
            walls,
            &mut moving,
            &settings,
            &mut MultiballScratch::default(),
            |_| {},
        );
        (balls[0], report)
    })
}

/// The two ends of [`both_paths`] agree within `within` (position and velocity), the first
/// by the lone sweep and the second by the event machinery; returns the lone end.
fn agree(ball: Ball, walls: &[Obstacle], within: f32) -> Ball {
    let [(lone, a), (event, b)] = both_paths(ball, walls);
    assert_eq!(
        (a.lone_balls, a.event_balls),
        (1, 0),
        "the first step is the lone sweep's"
    );
    assert_eq!(
        (b.lone_balls, b.event_balls),
        (0, 1),
        "the second, the event machinery's"
    );
    assert_eq!(
        a.bounces, b.bounces,
        "the same contacts: {lone:?} against {event:?}"
    );
    assert!(
        (lone.center - event.center).length() <= within
            && (lone.velocity - event.velocity).length() <= within,
        "lone {lone:?}\nevent {event:?}"
    );
    lone
}

#[test]
fn landing_on_a_rough_floor_slides_on_either_path() {
    // A ball 1e-3 above a floor, both of friction 0.3 and restitution 0, moving across at 5
    // and down at 0.1. It lands after t₁ = (−0.1 + √(0.1² + 2·g·1e-3))/g = 7.32e-3 s, at
    // an approach of √(0.01 + 0.02) = 0.1732: no bounce (e = 0), and friction takes
    // μ·0.1732 = 0.052 off its speed across. It leaves at the separation bias, falls back
    // at once, much slower than a fall from the touch slop, √(2·g·1e-4·r) = 0.032: there it
    // comes to rest, and slides on the level face at 4.948 for the rest of the step.
    let rough = Material::new(0.0, 0.3);
    let floor =
        Obstacle::segment(Segment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0))).with_material(rough);
    let ball = Ball {
        material: rough,
        ..Ball::new(Vec2::new(0.0, RADIUS + 1e-3), Vec2::new(5.0, -0.1), RADIUS)
    };
    let end = agree(ball, &[floor], 1e-5);
    let approach = (0.1_f32 * 0.1 + 2.0 * G * 1e-3).sqrt();
    let across = 5.0 - 0.3 * approach;
    assert!((end.velocity.x - across).abs() < 1e-4, "{end:?}, {across}");
    assert!(end.velocity.y.abs() < 1e-4, "{end:?}");
    assert!((end.center.y - RADIUS).abs() < 1e-5, "on the floor: {end:?}");
}

#[test]
fn landing_slowly_on_a_pillar_settles_on_either_path() {
    // A ball let go 1e-5 above a pillar of radius 2, 0.04 rad off its top: it falls the
    // gap in √(2·1e-5/g) = 1.4e-3 s and lands at 0.014, slower than a fall from within the
    // touch slop (0.032): it comes to rest there, and on a round surface that is settling
    // (the rest of the step's gravity at once, then straight), on either path.
    let pillar = Obstacle::pillar(Circle::new(Vec2::ZERO, 2.0));
    let start = Vec2::from_angle(std::f32::consts::FRAC_PI_2 - 0.04) * (2.0 + RADIUS + 1e-5);
    let ball = Ball {
        material: Material::new(0.0, 0.0),
        ..Ball::new(start, Vec2::ZERO, RADIUS)
    };
    let end = agree(ball, &[pillar], 1e-5);
    // Never inside the pillar, and no faster than a fall of one step.
    assert!(end.center.length() >= 2.0 + RADIUS - 1e-5, "{end:?}");
    assert!(end.velocity.length() <= G * DT, "{end:?}");
}

#[test]
fn landing_in_a_v_comes_to_rest_on_either_path() {
    // A V of walls at ±45° under the ball, which falls into it at 2: a corner, one contact
    // with both (`simultaneous.rs`), then settled in it.
    let walls = [
        Obstacle::segment(Segment::new(Vec2::new(-10.0, 10.0), Vec2::ZERO)),
        Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(10.0, 10.0))),
    ];
    let rest = RADIUS * std::f32::consts::SQRT_2;
    let ball = Ball {
        material: Material::new(0.0, 0.0),
        ..Ball::new(Vec2::new(0.0, rest + 0.01), Vec2::new(0.0, -2.0), RADIUS)
    };
    let end = agree(ball, &walls, 1e-5);
    assert!((end.center - Vec2::new(0.0, rest)).length() < 1e-3, "{end:?}");
}
