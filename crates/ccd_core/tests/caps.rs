//! A ball that reaches the bounce cap loses the rest of its step, and says how much: the
//! lost time is counted on both paths (the single-ball sweep and `step_balls`), checked
//! against the hand-computed time of its last contact.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Circle, DEFAULT_MAX_BOUNCES, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment,
    SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// The ball's radius.
const RADIUS: f32 = 1.0;
/// The gap between the ball and each wall when it is centred, units.
const GAP: f32 = 0.1;
/// Its speed across the channel, units/s.
const SPEED: f32 = 100.0;
/// The step, seconds.
const DT: f32 = 1.0;
/// Seconds. The contact times are sums of a few f32 terms near 0.03; 1e-5 is far above
/// their rounding and far below the 2 ms between contacts.
const TOL: f32 = 1e-5;

/// Half the length of the channel's walls.
const WALL_HALF: f32 = 3.0;

/// Two parallel walls `RADIUS + GAP` either side of the origin (a channel: parallel walls
/// are no corner, so the cap is not raised).
fn channel() -> [Obstacle; 2] {
    let x = RADIUS + GAP;
    [-x, x].map(|x| Obstacle::segment(Segment::new(Vec2::new(x, -WALL_HALF), Vec2::new(x, WALL_HALF))))
}

/// When the last allowed contact happens: the first after `GAP / SPEED`, then one every
/// `2·GAP / SPEED` (an elastic ball crosses the channel at constant speed).
fn lost_by_hand() -> f32 {
    let last = GAP / SPEED + (DEFAULT_MAX_BOUNCES - 1) as f32 * 2.0 * GAP / SPEED;
    DT - last
}

#[test]
fn the_sweep_counts_the_time_it_loses_at_the_cap() {
    let out = sweep_bounces(
        Circle::new(Vec2::ZERO, RADIUS),
        Vec2::new(SPEED, 0.0),
        DT,
        &channel()[..],
        &SweepSettings::default(),
        |_| {},
    )
    .unwrap();
    assert!(out.capped);
    assert_eq!(out.bounces, DEFAULT_MAX_BOUNCES);
    // 0.969 s: the ball waited from its 16th contact at 0.031 s.
    assert!((out.lost_time - lost_by_hand()).abs() < TOL, "{}", out.lost_time);
}

#[test]
fn step_balls_counts_the_time_lost_at_the_cap_on_both_paths() {
    for ball_ball in [false, true] {
        let mut balls = vec![Ball::new(Vec2::ZERO, Vec2::new(SPEED, 0.0), RADIUS)];
        if ball_ball {
            // A second ball along the line x + y = 6, from (−9, 15) to (15, −9): its path's
            // box holds the first's, so both go through the event machinery, yet it passes
            // 4.2 from the first ball's path and 1.3 from the nearest wall end, (1.1, 3):
            // it touches nothing.
            balls.push(Ball::new(Vec2::new(-9.0, 15.0), Vec2::new(24.0, -24.0), RADIUS));
        }
        let settings = MultiballSettings {
            ball_ball,
            ..MultiballSettings::default()
        };
        let report = step_balls(
            MultiballStep::new(&mut balls, DT, &channel()[..]),
            &settings,
            &mut MultiballScratch::default(),
            |_| {},
        );
        assert_eq!(report.event_balls, u32::from(ball_ball) * 2, "the intended path");
        assert_eq!(report.capped_balls, 1);
        assert!(
            (report.lost_time - lost_by_hand()).abs() < TOL,
            "ball–ball {ball_ball}: {}",
            report.lost_time
        );
    }
}

#[test]
fn nothing_is_lost_below_the_cap() {
    // A wider channel: the centre crosses 8 units at 64 units/s, a contact at 1/16 s and
    // then every 1/8 s, so 8 in the step, half the cap.
    let walls =
        [-5.0_f32, 5.0].map(|x| Obstacle::segment(Segment::new(Vec2::new(x, -10.0), Vec2::new(x, 10.0))));
    let report = step_balls(
        MultiballStep::new(
            &mut [Ball::new(Vec2::ZERO, Vec2::new(64.0, 0.0), RADIUS)],
            DT,
            &walls[..],
        ),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |_| {},
    );
    assert_eq!(report.capped_balls, 0);
    assert_eq!(report.lost_time, 0.0);
}
