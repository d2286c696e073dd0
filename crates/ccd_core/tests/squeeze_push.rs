//! The push out of a squeeze is swept: a ball crushed between a plate and the floor is
//! pushed out past the plate's end, but never through a third wall standing in the way.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment,
    SegmentMotion, Vec2, penetration_slop, step_balls,
};

/// The ball's radius.
const RADIUS: f32 = 1.0;
/// The step, seconds.
const DT: f32 = 1.0 / 60.0;
/// Where the plate starts and ends its stroke: from 3 above the floor to 1.5, half a
/// radius into the ball's place (the ball's top is at 2).
const PLATE_FROM: f32 = 3.0;
const PLATE_TO: f32 = 1.5;
/// The plate's left end: half a radius left of the ball's centre, so the nearest place
/// clear of the plate on the floor is at `x = −0.5 − √(1 − 0.5²) = −1.37`.
const PLATE_LEFT: f32 = -0.5;
/// Its right end, far away: the push out goes left.
const PLATE_RIGHT: f32 = 20.0;
/// Where the plate's end pushes the ball to, by hand (see `PLATE_LEFT`).
fn pushed_to_by_hand() -> f32 {
    let drop = RADIUS - (PLATE_TO - RADIUS);
    PLATE_LEFT - (RADIUS * RADIUS - drop * drop).sqrt()
}

/// One step of the plate closing on a ball resting on the floor at the origin, with or
/// without a third wall standing at `x = −RADIUS` (touching the ball on its left); the
/// ball's centre at the end.
fn crush(third_wall: bool) -> Vec2 {
    let mut walls = vec![Obstacle::segment(Segment::new(
        Vec2::new(-10.0, 0.0),
        Vec2::new(30.0, 0.0),
    ))];
    if third_wall {
        walls.push(Obstacle::segment(Segment::new(
            Vec2::new(-RADIUS, 0.0),
            Vec2::new(-RADIUS, 5.0),
        )));
    }
    let plate = Segment::new(
        Vec2::new(PLATE_LEFT, PLATE_FROM),
        Vec2::new(PLATE_RIGHT, PLATE_FROM),
    );
    let mut moving = [MovingObstacle::new(
        Obstacle::segment(plate),
        SegmentMotion {
            pivot: (plate.a + plate.b) / 2.0,
            angle: 0.0,
            pivot_motion: Vec2::new(0.0, PLATE_TO - PLATE_FROM),
        },
    )];
    let mut balls = [Ball::new(Vec2::new(0.0, RADIUS), Vec2::ZERO, RADIUS)];
    step_balls(
        MultiballStep::new(&mut balls, DT, &walls[..]).with_moving(&mut moving),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |_| {},
    );
    assert!(balls[0].center.is_finite() && balls[0].velocity.is_finite());
    balls[0].center
}

#[test]
fn a_crushed_ball_is_pushed_out_past_the_plate_end() {
    // Nothing in the way: it ends on the floor, just clear of the plate's end.
    let c = crush(false);
    let slop = penetration_slop(RADIUS);
    assert!((c.x - pushed_to_by_hand()).abs() < slop, "{c}");
    assert!((c.y - RADIUS).abs() < slop, "{c}");
}

#[test]
fn the_push_out_of_a_squeeze_never_crosses_a_third_wall() {
    // The wall at x = −1 touches the ball: the push left (to x = −1.37 without it) stops
    // there, and the ball's centre stays a radius right of the wall.
    let c = crush(true);
    assert!(
        c.x - (-RADIUS) >= RADIUS - penetration_slop(RADIUS),
        "through the third wall: {c}"
    );
    assert!(c.y >= RADIUS - penetration_slop(RADIUS), "into the floor: {c}");
}
