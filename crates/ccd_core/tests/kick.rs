//! Kickers fire at the instant of impact: the rest of the step runs on the kicked
//! velocity. Checked against hand-computed numbers on both paths (the single-ball sweep
//! and the event machinery of `step_balls`), below the threshold, and in a closed box of
//! kickers that must never let a ball out.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Circle, Contact, Kick, Material, MultiballScratch, MultiballSettings, Obstacle, Segment,
    SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// Units. f32 positions near 10 round at 1e-6; the contact is found to about 1e-6 of
/// the query's scale; 1e-4 is both a hundred times over.
const TOL: f32 = 1e-4;

/// A floor along y = 0 of restitution 0.5 that kicks 30 units/s above an approach of 10.
fn floor() -> Obstacle {
    Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)))
        .with_material(Material::new(0.5, 0.0).with_kick(Kick::new(10.0, 0.0, 30.0)))
}

/// The single-ball sweep of one ball of radius 1 over `dt`; its end and its contacts.
fn sweep(center: Vec2, velocity: Vec2, dt: f32, walls: &[Obstacle]) -> (Vec2, Vec2, Vec<f32>) {
    let mut kicks = Vec::new();
    let out = sweep_bounces(
        Circle::new(center, 1.0),
        velocity,
        dt,
        walls,
        &SweepSettings::default(),
        |h| kicks.push(h.kick),
    )
    .unwrap();
    (out.center, out.velocity, kicks)
}

/// `step_balls` with ball 0 (radius 1) as given and a second ball crossing above the
/// floor, from (−20, 4.5) at (80, 0): their paths' boxes overlap, so both go through the
/// event machinery (checked), yet the second passes over the first (it is at x = 0 at
/// t = 0.25 s, 3.5 above the floor contact) and they never touch.
fn step_pair(center: Vec2, velocity: Vec2, dt: f32, walls: &[Obstacle]) -> (Ball, Vec<Contact>) {
    let mut balls = [
        Ball::new(center, velocity, 1.0),
        Ball::new(Vec2::new(-20.0, 4.5), Vec2::new(80.0, 0.0), 1.0),
    ];
    let mut contacts = Vec::new();
    let report = step_balls(
        &mut balls,
        dt,
        walls,
        &mut [],
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |c| contacts.push(*c),
    );
    assert_eq!(report.event_balls, 2, "both balls took the event path");
    contacts.retain(|c| c.ball == 0);
    (balls[0], contacts)
}

#[test]
fn a_kick_mid_step_spends_the_rest_of_the_step_on_the_kicked_velocity() {
    // Radius 1, centre (0, 5), velocity (4, −16), step 0.5 s. The centre reaches y = 1
    // after 4/16 = 0.25 s (half the step) at x = 1. Approach 16 > 10: the kick fires, and
    // the ball leaves at max(0.5·16, 0) + 30 = 38 (8 of bounce, 30 of kick). In the last
    // 0.25 s it rises 38·0.25 = 9.5 to y = 10.5, and moves on to x = 2.
    let expected = (Vec2::new(2.0, 10.5), Vec2::new(4.0, 38.0));
    let (center, velocity, kicks) = sweep(Vec2::new(0.0, 5.0), Vec2::new(4.0, -16.0), 0.5, &[floor()]);
    assert!((center - expected.0).length() < TOL, "sweep: {center}");
    assert!((velocity - expected.1).length() < TOL, "sweep: {velocity}");
    assert_eq!(kicks.len(), 1);
    assert!((kicks[0] - 30.0).abs() < TOL, "reported kick {}", kicks[0]);
    let (ball, contacts) = step_pair(Vec2::new(0.0, 5.0), Vec2::new(4.0, -16.0), 0.5, &[floor()]);
    assert!(
        (ball.center - expected.0).length() < TOL,
        "step_balls: {}",
        ball.center
    );
    assert!(
        (ball.velocity - expected.1).length() < TOL,
        "step_balls: {}",
        ball.velocity
    );
    assert_eq!(contacts.len(), 1);
    assert!((contacts[0].time - 0.25).abs() < TOL);
    assert!((contacts[0].kick - 30.0).abs() < TOL);
    // The kick applied at the end of the step instead (the old way) would leave the ball
    // at y = 1 + 8·0.25 = 3: 7.5 units short.
}

#[test]
fn min_out_sets_the_least_outgoing_speed() {
    // A bumper: at least 20 out, nothing added, above an approach of 1. Centre (0, 3),
    // velocity (0, −8), step 0.5: contact after 2/8 = 0.25 s; out max(0.5·8, 20) = 20,
    // so y = 1 + 20·0.25 = 6; the kick added 20 − 4 = 16.
    let bumper = Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)))
        .with_material(Material::new(0.5, 0.0).with_kick(Kick::new(1.0, 20.0, 0.0)));
    let (center, velocity, kicks) = sweep(Vec2::new(0.0, 3.0), Vec2::new(0.0, -8.0), 0.5, &[bumper]);
    assert!((center - Vec2::new(0.0, 6.0)).length() < TOL, "{center}");
    assert!((velocity - Vec2::new(0.0, 20.0)).length() < TOL, "{velocity}");
    assert!((kicks[0] - 16.0).abs() < TOL);
    let (ball, contacts) = step_pair(Vec2::new(0.0, 3.0), Vec2::new(0.0, -8.0), 0.5, &[bumper]);
    assert!(
        (ball.center - Vec2::new(0.0, 6.0)).length() < TOL,
        "{}",
        ball.center
    );
    assert!((contacts[0].kick - 16.0).abs() < TOL);
}

#[test]
fn below_the_threshold_there_is_no_kick() {
    // Centre (0, 3), velocity (0, −8): approach 8 ≤ 10. Contact after 2/8 = 0.25 s, out
    // at 0.5·8 = 4, so y = 1 + 4·0.25 = 2 and velocity (0, 4); nothing reported as kick.
    let (center, velocity, kicks) = sweep(Vec2::new(0.0, 3.0), Vec2::new(0.0, -8.0), 0.5, &[floor()]);
    assert!((center - Vec2::new(0.0, 2.0)).length() < TOL, "{center}");
    assert!((velocity - Vec2::new(0.0, 4.0)).length() < TOL, "{velocity}");
    assert_eq!(kicks, [0.0]);
    let (ball, contacts) = step_pair(Vec2::new(0.0, 3.0), Vec2::new(0.0, -8.0), 0.5, &[floor()]);
    assert!(
        (ball.center - Vec2::new(0.0, 2.0)).length() < TOL,
        "{}",
        ball.center
    );
    assert_eq!(contacts[0].kick, 0.0);
}

#[test]
fn a_box_of_kickers_never_lets_a_ball_out() {
    // A 100 × 100 box whose four walls each kick 1e5 units/s (e = 0.5) at any approach: a
    // kicked ball crosses the box dozens of times within one step, so it reaches the
    // bounce cap and waits; it must never be outside the box. Radius 5, so every centre
    // stays in [5, 95]² (less f32 rounding near 100, 1e-4).
    let kicker = Material::new(0.5, 0.0).with_kick(Kick::new(0.0, 0.0, 1e5));
    let corners = [
        Vec2::ZERO,
        Vec2::new(100.0, 0.0),
        Vec2::new(100.0, 100.0),
        Vec2::new(0.0, 100.0),
    ];
    let walls: Vec<Obstacle> = (0..4)
        .map(|k| Obstacle::segment(Segment::new(corners[k], corners[(k + 1) % 4])).with_material(kicker))
        .collect();
    let inside = |p: Vec2| p.x >= 5.0 - TOL && p.x <= 95.0 + TOL && p.y >= 5.0 - TOL && p.y <= 95.0 + TOL;
    let dt = 1.0 / 60.0;
    // The single-ball sweep.
    let (mut center, mut velocity) = (Vec2::new(50.0, 50.0), Vec2::new(300.0, 170.0));
    for step in 0..600 {
        let out = sweep_bounces(
            Circle::new(center, 5.0),
            velocity,
            dt,
            walls.as_slice(),
            &SweepSettings::default(),
            |_| {},
        )
        .unwrap();
        (center, velocity) = (out.center, out.velocity);
        assert!(inside(center), "sweep, step {step}: {center}");
        assert!(velocity.is_finite());
    }
    // Two balls through the event machinery (ball–ball on, so they also meet each other).
    let mut balls = [
        Ball::new(Vec2::new(30.0, 50.0), Vec2::new(300.0, 170.0), 5.0),
        Ball::new(Vec2::new(70.0, 50.0), Vec2::new(-200.0, 90.0), 5.0),
    ];
    let mut scratch = MultiballScratch::default();
    for step in 0..600 {
        step_balls(
            &mut balls,
            dt,
            walls.as_slice(),
            &mut [],
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        for b in &balls {
            assert!(inside(b.center), "step_balls, step {step}: {}", b.center);
            assert!(b.velocity.is_finite());
        }
    }
}
