//! Kickers fire at the instant of impact: the rest of the step runs on the kicked
//! velocity. Checked against hand-computed numbers on both paths (the single-ball sweep
//! and the event machinery of `step_balls`), below the threshold, and in a closed box of
//! kickers that must never let a ball out. A kick's speed scale is applied at the instant
//! of impact too, relative to a moving surface.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Circle, Contact, ContactWith, Kick, Material, MovingObstacle, MultiballScratch, MultiballSettings,
    MultiballStep, Obstacle, Segment, SegmentMotion, SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// Units. f32 positions near 10 round at 1e-6; the contact is found to about 1e-6 of
/// the query's scale; 1e-4 is both a hundred times over.
const TOL: f32 = 1e-4;

/// `got` within [`TOL`] of `want`, else a failure naming `what`.
#[track_caller]
fn assert_near(got: Vec2, want: Vec2, what: &str) {
    assert!((got - want).length() < TOL, "{what}: {got}, not {want}");
}

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
        MultiballStep::new(&mut balls, dt, walls),
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
    assert_near(ball.center, expected.0, "step_balls");
    assert_near(ball.velocity, expected.1, "step_balls");
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
            MultiballStep::new(&mut balls, dt, walls.as_slice()),
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

/// The speed scale of the scaling tests: every hit 50% faster.
const SCALE: f32 = 1.5;

/// An elastic floor along y = 0 that scales the ball's speed by [`SCALE`] at any approach.
fn scaling_floor() -> Obstacle {
    Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)))
        .with_material(Material::ELASTIC.with_kick(Kick::scaling(0.0, SCALE)))
}

#[test]
fn a_speed_scale_mid_step_flies_the_rest_of_the_step_at_the_new_speed() {
    // Radius 1, centre (0, 13.5), velocity (0, −100), step 0.5 s. The centre reaches
    // y = 1 after 12.5/100 = 0.125 s, a quarter of the step. Elastic, scaled by 1.5: out
    // at 150, for the remaining 0.75·0.5 = 0.375 s, 150·0.375 = 56.25 back up: y = 57.25.
    // Reported: 150 − 100 = 50 added over the plain bounce. Scaled after the step
    // instead, the ball would end at y = 1 + 100·0.375 = 38.5, 18.75 short.
    let (start, v0, dt) = (Vec2::new(0.0, 13.5), Vec2::new(0.0, -100.0), 0.5);
    let expected = (Vec2::new(0.0, 57.25), Vec2::new(0.0, 150.0));
    let (center, velocity, kicks) = sweep(start, v0, dt, &[scaling_floor()]);
    assert!((center - expected.0).length() < TOL, "sweep: {center}");
    assert!((velocity - expected.1).length() < TOL, "sweep: {velocity}");
    assert_eq!(kicks.len(), 1);
    assert!((kicks[0] - 50.0).abs() < TOL, "sweep: reported {}", kicks[0]);

    // `step_balls` with the ball alone (its own sweep) ...
    let mut alone = [Ball::new(start, v0, 1.0)];
    let mut contacts = Vec::new();
    step_balls(
        MultiballStep::new(&mut alone, dt, &[scaling_floor()]),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |c| contacts.push(*c),
    );
    assert_near(alone[0].center, expected.0, "alone");
    assert_near(alone[0].velocity, expected.1, "alone");
    assert_eq!(contacts.len(), 1);
    assert!((contacts[0].kick - 50.0).abs() < TOL);

    // ... and through the event machinery. The crossing ball of `step_pair` passes x = 0
    // at t = 0.25 s at y = 4.5, while this one is up at 1 + 150·0.125 = 19.75.
    let (ball, contacts) = step_pair(start, v0, dt, &[scaling_floor()]);
    assert_near(ball.center, expected.0, "step_balls");
    assert_near(ball.velocity, expected.1, "step_balls");
    assert_eq!(contacts.len(), 1);
    assert!((contacts[0].time - 0.125).abs() < TOL);
    assert!((contacts[0].kick - 50.0).abs() < TOL);
}

#[test]
fn a_turning_segment_scales_the_velocity_relative_to_its_surface() {
    // An elastic arm from the pivot (0, 0) to (10, 0), turning up by 0.2 rad over the
    // step of 0.1 s (2 rad/s), scaling by 1.5. A ball of radius 0.5 falls from (6, 3) at
    // (0, −40) onto it. Whatever the instant and point of contact, the ball must leave
    // with 1.5 times the elastic reflection of its velocity relative to the arm's
    // surface there, `s = point_motion(p, toi) / dt`:
    // `v_out − s = 1.5·(w − 2(w·n)n)` with `w = v_in − s`. It meets nothing after, so
    // that is its velocity at the step's end.
    let dt = 0.1;
    let motion = SegmentMotion {
        pivot: Vec2::ZERO,
        angle: 0.2,
        pivot_motion: Vec2::ZERO,
    };
    let arm = Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(10.0, 0.0)))
        .with_material(Material::ELASTIC.with_kick(Kick::scaling(0.0, SCALE)));
    let v_in = Vec2::new(0.0, -40.0);
    let mut balls = [Ball::new(Vec2::new(6.0, 3.0), v_in, 0.5)];
    let mut moving = [MovingObstacle::new(arm, motion)];
    let mut contacts = Vec::new();
    step_balls(
        MultiballStep::new(&mut balls, dt, &[] as &[Obstacle]).with_moving(&mut moving),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |c| contacts.push(*c),
    );
    assert_eq!(contacts.len(), 1, "{contacts:?}");
    let c = contacts[0];
    assert_eq!(c.with, ContactWith::Moving(0));
    let surface = motion.point_motion(c.hit.point, c.time / dt) / dt;
    assert!((surface - c.other_velocity).length() < 1e-3, "{surface} vs {c:?}");
    // The arm's point under the ball moves at 2 rad/s times its distance from the pivot
    // (about 6): about 12 units/s, mostly up.
    assert!(
        (surface.length() - 2.0 * c.hit.point.length()).abs() < 1e-3,
        "{surface}"
    );
    let n = c.hit.normal;
    let w = v_in - surface;
    let expected = (w - n * (2.0 * w.dot(n))) * SCALE + surface;
    let out = balls[0].velocity;
    assert!((out - expected).length() < 1e-3, "{out} vs {expected}");
    // Unscaled it would be the plain reflection: the scale made a difference of half the
    // relative speed, about 0.5·52 = 26 units/s.
    let plain = w - n * (2.0 * w.dot(n)) + surface;
    assert!((out - plain).length() > 0.4 * w.length(), "{out} vs {plain}");
    // The reported kick is the normal speed added over the plain bounce: 0.5·(w·n)
    // against n, i.e. 1.5·|w·n| − |w·n|.
    assert!((c.kick - 0.5 * w.dot(n).abs()).abs() < 1e-3, "{c:?}");
}
