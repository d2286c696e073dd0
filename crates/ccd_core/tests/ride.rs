//! A ball running round the inside of an exact arc rides it: it goes round at its speed
//! (the angle it turns is its path length over the ride radius), keeps that speed on a
//! frictionless wall whatever the wall's restitution, stays within a chord's sagitta
//! (`ARC_RIDE_SAG_REL`, the bound a ball beside another ball keeps along chords) of the
//! exact circle, and never reaches a bounce cap: on both paths (the single-ball sweep and
//! `step_balls`).
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    ARC_RIDE_SAG_REL, Ball, Circle, CircleArc, Material, MultiballScratch, MultiballSettings, MultiballStep,
    Obstacle, SweepSettings, Vec2, step_balls, sweep_bounces,
};
use std::f32::consts::TAU;

const RING: f32 = 100.0;
const BALL: f32 = 5.0;
/// The circle the ball's centre rides on.
const RIDE: f32 = RING - BALL;
const SPEED: f32 = 400.0;
const DT: f32 = 1.0 / 120.0;
const STEPS: usize = 240;

/// A full ring of restitution 0.4 and no friction, as one exact arc.
fn ring() -> Obstacle {
    Obstacle::arc(CircleArc::new(Vec2::ZERO, RING, 0.0, TAU)).with_material(Material::new(0.4, 0.0))
}

/// Check one step's end: on the ride circle within the sagitta (plus rounding), at the
/// speed, and turned by the path length over the radius so far.
fn check(center: Vec2, velocity: Vec2, step: usize) {
    let sag = ARC_RIDE_SAG_REL * BALL;
    let off = center.length() - RIDE;
    assert!(
        off <= 1e-3 && off >= -sag - 1e-3,
        "step {step}: {off} off the ride circle"
    );
    assert!(
        (velocity.length() - SPEED).abs() < 1e-2,
        "step {step}: speed {}",
        velocity.length()
    );
    // Chords are shorter than their arcs by about δ²/24 (δ ≈ 2·sqrt(2·sag/R)): 1e-6 here.
    let turned = SPEED * DT * step as f32 / RIDE;
    let expected = Vec2::from_angle(turned - std::f32::consts::FRAC_PI_2) * RIDE;
    assert!(
        center.distance(expected) < 0.05,
        "step {step}: at {center}, expected {expected}"
    );
}

#[test]
fn a_ball_rides_round_the_inside_of_a_ring_in_the_single_ball_sweep() {
    // From the bottom of the ring's inside, along it (counter-clockwise).
    let (mut center, mut velocity) = (Vec2::new(0.0, -RIDE), Vec2::new(SPEED, 0.0));
    let settings = SweepSettings::default();
    let walls = [ring()];
    let mut most = 0;
    for step in 1..=STEPS {
        let out = sweep_bounces(Circle::new(center, BALL), velocity, DT, &walls, &settings, |_| {}).unwrap();
        assert!(!out.capped, "step {step}: capped after {} contacts", out.bounces);
        most = most.max(out.bounces);
        (center, velocity) = (out.center, out.velocity);
        check(center, velocity, step);
    }
    eprintln!("single-ball sweep: at most {most} chords a step");
}

#[test]
fn a_ball_rides_round_the_inside_of_a_ring_in_step_balls() {
    let mut balls = [Ball::new(Vec2::new(0.0, -RIDE), Vec2::new(SPEED, 0.0), BALL)];
    balls[0].material = Material::new(1.0, 0.0);
    let walls = [ring()];
    let mut scratch = MultiballScratch::default();
    for step in 1..=STEPS {
        let report = step_balls(
            MultiballStep::new(&mut balls, DT, &walls),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        assert_eq!(report.capped_balls, 0, "step {step}");
        check(balls[0].center, balls[0].velocity, step);
    }
}
