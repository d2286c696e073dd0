//! One ball stepped through the event machinery alone, shared by the tests that check
//! its rides: a still ring of radius 1,000 about the ball, a kinematic obstacle it never
//! comes near, makes it an event ball (its box meets the ring's).

use ccd_core::{
    Ball, CircleArc, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle,
    SegmentMotion, step_balls,
};

/// Step `ball` for `dt` among `walls` by the event machinery at `settings`, keeping
/// `scratch` from step to step. Asserts that it went through the machinery and that the
/// step was not capped.
pub fn step_event_ball(
    walls: &[Obstacle],
    ball: &mut Ball,
    dt: f32,
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
) {
    let ring = CircleArc::new(ball.center, 1000.0, 0.0, std::f32::consts::TAU);
    let still = SegmentMotion {
        pivot: ball.center,
        angle: 0.0,
        pivot_motion: glam::Vec2::ZERO,
    };
    let mut marker = [MovingObstacle::new(Obstacle::arc(ring), still)];
    let report = step_balls(
        MultiballStep::new(std::slice::from_mut(ball), dt, walls).with_moving(&mut marker),
        settings,
        scratch,
        |_| {},
    );
    assert_eq!(report.event_balls, 1, "an event ball");
    assert_eq!(report.capped_balls, 0, "no step is capped: {report:?}");
}
