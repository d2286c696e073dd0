//! A ball's speed limit holds at the instant of each contact, on both paths (the
//! single-ball sweep and the event machinery of `step_balls`), for a kick, a ball–ball
//! exchange and a push by a moving part, and the rest of the step is flown at the limited
//! speed: checked against hand-computed positions.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Circle, Kick, Material, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep,
    Obstacle, Segment, SegmentMotion, SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// Units: positions near 10 round at 1e-6; 1e-4 is a hundred times over.
const TOL: f32 = 1e-4;

/// An elastic floor along y = 0 that kicks 30 units/s above an approach of 10.
fn kicking_floor() -> Obstacle {
    Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)))
        .with_material(Material::new(1.0, 0.0).with_kick(Kick::new(10.0, 0.0, 30.0)))
}

#[test]
fn a_kicked_ball_leaves_at_its_limit_and_flies_on_at_it() {
    // Radius 1 from (0, 6) at (0, −20): it touches the floor (centre y = 1) after 0.25 s,
    // leaves at 20 + 30 = 50 without a limit, 25 with one, and flies 0.25 s more.
    for (limit, speed) in [(f32::INFINITY, 50.0), (25.0, 25.0)] {
        let settings = SweepSettings {
            max_speed: limit,
            ..SweepSettings::default()
        };
        let out = sweep_bounces(
            Circle::new(Vec2::new(0.0, 6.0), 1.0),
            Vec2::new(0.0, -20.0),
            0.5,
            &[kicking_floor()],
            &settings,
            |_| {},
        )
        .unwrap();
        assert!(
            (out.velocity - Vec2::new(0.0, speed)).length() < TOL,
            "{limit}: {out:?}"
        );
        assert!(
            (out.center.y - (1.0 + speed * 0.25)).abs() < TOL,
            "{limit}: {out:?}"
        );
    }
}

#[test]
fn a_ball_struck_by_another_or_by_a_paddle_leaves_at_its_limit() {
    for limit in [f32::INFINITY, 30.0] {
        // Equal balls head on: the still one takes the other's 60 units/s at t = 0.1 s (a
        // gap of 6 closed at 60), then flies 0.4 s.
        let mut balls = [
            Ball::new(Vec2::new(-8.0, 0.0), Vec2::new(60.0, 0.0), 1.0),
            Ball::new(Vec2::ZERO, Vec2::ZERO, 1.0),
        ];
        balls[1].max_speed = limit;
        step_balls(
            MultiballStep::new(&mut balls, 0.5, &[] as &[Obstacle]),
            &MultiballSettings::default(),
            &mut MultiballScratch::default(),
            |_| {},
        );
        let speed = limit.min(60.0);
        assert!((balls[1].velocity.x - speed).abs() < TOL, "{limit}: {balls:?}");
        assert!(
            (balls[1].center.x - speed * 0.4).abs() < 1e-3,
            "{limit}: {balls:?}"
        );

        // A vertical paddle at x = 0 sliding right by 20 over a step of 0.5 s (40 units/s)
        // meets a still ball 2 clear of it after 0.05 s; an elastic push by the paddle
        // leaves it at 80 units/s, or at its limit.
        let paddle = Obstacle::segment(Segment::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)));
        let motion = SegmentMotion {
            pivot: Vec2::ZERO,
            angle: 0.0,
            pivot_motion: Vec2::new(20.0, 0.0),
        };
        let mut moving = [MovingObstacle::new(paddle, motion)];
        let mut ball = [Ball::new(Vec2::new(3.0, 0.0), Vec2::ZERO, 1.0)];
        // Above the paddle's 40 units/s, so the ball gets away from it.
        ball[0].max_speed = 2.0 * limit;
        step_balls(
            MultiballStep::new(&mut ball, 0.5, &[] as &[Obstacle]).with_moving(&mut moving),
            &MultiballSettings::default(),
            &mut MultiballScratch::default(),
            |_| {},
        );
        let speed = (2.0 * limit).min(80.0);
        assert!((ball[0].velocity.x - speed).abs() < 1e-3, "{limit}: {ball:?}");
        assert!(
            (ball[0].center.x - (3.0 + speed * 0.45)).abs() < 1e-2,
            "{limit}: {ball:?}"
        );
    }
}

#[test]
fn a_ball_limited_below_a_paddles_speed_is_carried_ahead_of_it() {
    // Limited to 30 units/s, the ball cannot outrun a paddle at 40: the paddle meets it
    // again and again, and it ends the step just ahead of it (the paddle at x = 20), at
    // its limit, never inside.
    let paddle = Obstacle::segment(Segment::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)));
    let motion = SegmentMotion {
        pivot: Vec2::ZERO,
        angle: 0.0,
        pivot_motion: Vec2::new(20.0, 0.0),
    };
    let mut moving = [MovingObstacle::new(paddle, motion)];
    let mut ball = [Ball::new(Vec2::new(3.0, 0.0), Vec2::ZERO, 1.0)];
    ball[0].max_speed = 30.0;
    step_balls(
        MultiballStep::new(&mut ball, 0.5, &[] as &[Obstacle]).with_moving(&mut moving),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |_| {},
    );
    assert!(ball[0].velocity.length() <= 30.0 + 1e-4, "{ball:?}");
    assert!((ball[0].center.x - 21.0).abs() < 1e-3, "{ball:?}");
}
