//! Per-ball gravity: a ball with [`Ball::gravity_scale`] `s` flies the parabola of `s·g`,
//! alone (the lone sweep) and among balls (the event machinery), and a bad scale is
//! refused. Every figure by hand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{
    Ball, Circle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment, Vec2, step_balls,
};

/// Gravity of these tests, units/s².
const G: Vec2 = Vec2::new(0.0, -10.0);

fn settings(ball_ball: bool) -> MultiballSettings {
    MultiballSettings {
        gravity: G,
        ball_ball,
        ..Default::default()
    }
}

fn ball(center: Vec2, velocity: Vec2, scale: f32) -> Ball {
    let mut b = Ball::new(center, velocity, 1.0);
    b.gravity_scale = scale;
    b
}

fn step(balls: &mut [Ball], dt: f32, walls: &[Obstacle], ball_ball: bool) -> u32 {
    let mut contacts = 0;
    step_balls(
        MultiballStep::new(balls, dt, walls),
        &settings(ball_ball),
        &mut MultiballScratch::default(),
        |_| contacts += 1,
    );
    contacts
}

fn close(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

#[test]
fn each_ball_flies_the_parabola_of_its_own_gravity() {
    // From the origin at (1, 0), for 0.1 s: y = ½·s·(−10)·0.01 = −0.05·s, v_y = −s.
    for ball_ball in [false, true] {
        for (k, scale) in [1.0_f32, 0.5, 0.0, -1.0, 2.0].into_iter().enumerate() {
            // Far apart (100 between centres), each alone.
            let at = Vec2::new(100.0 * k as f32, 0.0);
            let mut balls = [ball(at, Vec2::X, scale)];
            step(&mut balls, 0.1, &[], ball_ball);
            let want = at + Vec2::new(0.1, -0.05 * scale);
            assert!(
                close(balls[0].center, want, 1e-6),
                "s = {scale}: {}",
                balls[0].center
            );
            assert!(
                close(balls[0].velocity, Vec2::new(1.0, -scale), 1e-6),
                "{}",
                balls[0].velocity
            );
        }
    }
}

#[test]
fn a_ball_on_a_slope_slides_by_its_own_gravity() {
    // A 30° slope through the origin; a ball resting on it from the start slides with
    // s·g·sin 30° = 5·s along it: after 0.5 s, 0.625·s down the slope (½·5·s·0.25).
    let down = Vec2::new(-30f32.to_radians().cos(), -30f32.to_radians().sin());
    let slope = [Obstacle::segment(Segment::new(down * 100.0, -down * 100.0))];
    let normal = down.perp() * if down.perp().y > 0.0 { 1.0 } else { -1.0 };
    for scale in [1.0_f32, 0.5] {
        let start = normal * 1.0;
        let mut balls = [ball(start, Vec2::ZERO, scale)];
        for _ in 0..60 {
            step(&mut balls, 0.5 / 60.0, &slope, false);
        }
        let along = (balls[0].center - start).dot(down);
        assert!((along - 0.625 * scale).abs() < 1e-4, "s = {scale}: {along}");
        assert!(
            (balls[0].velocity.dot(down) - 2.5 * scale).abs() < 1e-4,
            "{}",
            balls[0].velocity
        );
    }
}

#[test]
fn a_falling_ball_strikes_a_floating_one_and_each_keeps_its_gravity() {
    // A (scale 1) 0.5 above touching B (scale 0), both at rest, radius 1, equal masses,
    // e = 1. A falls 0.5 in t₀ = √(2·0.5/10) = 0.316228 s and strikes at √10 = 3.162278.
    // They swap velocities: A stops and falls again from there, B goes down at √10 and,
    // feeling no gravity, keeps that speed. After dt = 0.5 s (0.183772 s after):
    // A at 2 − ½·10·0.183772² = 1.831139, going −1.83772; B at −√10·0.183772 = −0.581139.
    let mut balls = [
        ball(Vec2::new(0.0, 2.5), Vec2::ZERO, 1.0),
        ball(Vec2::ZERO, Vec2::ZERO, 0.0),
    ];
    let contacts = step(&mut balls, 0.5, &[], true);
    assert_eq!(contacts, 1);
    let [a, b] = balls;
    assert!(close(a.center, Vec2::new(0.0, 1.831139), 1e-4), "{}", a.center);
    assert!(
        close(a.velocity, Vec2::new(0.0, -1.837722), 1e-4),
        "{}",
        a.velocity
    );
    assert!(close(b.center, Vec2::new(0.0, -0.581139), 1e-4), "{}", b.center);
    assert!(
        close(b.velocity, Vec2::new(0.0, -3.162278), 1e-4),
        "{}",
        b.velocity
    );
}

#[test]
fn a_ball_with_a_bad_scale_is_left_as_it_was() {
    for scale in [f32::NAN, f32::INFINITY] {
        let start = ball(Vec2::ZERO, Vec2::X, scale);
        let mut balls = [start, ball(Vec2::new(3.0, 0.0), Vec2::ZERO, 1.0)];
        let walls = [Obstacle::pillar(Circle::new(Vec2::new(0.0, -5.0), 1.0))];
        step(&mut balls, 0.1, &walls, true);
        assert_eq!(balls[0].center, start.center, "s = {scale}");
        assert!(
            balls
                .iter()
                .all(|b| b.center.is_finite() && b.velocity.is_finite())
        );
    }
}

#[test]
fn balls_of_other_scales_rest_side_by_side_on_a_floor() {
    // Two touching balls on a floor, among each other (the event machinery), feeling half
    // and twice the gravity: each is held where it is, at rest, step after step.
    let floor = [Obstacle::segment(Segment::new(
        Vec2::new(-50.0, 0.0),
        Vec2::new(50.0, 0.0),
    ))];
    let start = [
        ball(Vec2::new(0.0, 1.0), Vec2::ZERO, 0.5),
        ball(Vec2::new(2.0, 1.0), Vec2::ZERO, 2.0),
    ];
    let mut balls = start;
    for _ in 0..600 {
        step(&mut balls, 1.0 / 60.0, &floor, true);
    }
    for (b, s) in balls.iter().zip(&start) {
        assert!(close(b.center, s.center, 1e-4), "{} from {}", b.center, s.center);
        assert!(b.velocity.length() < 1e-3, "{}", b.velocity);
    }
}
