//! Contacts that last, through the plugin (ball–ball off: the lone sweep): a ball let go
//! at rest off the top of a post slides off where the press vanishes (it stayed there
//! before), and a ball exactly on top stays.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

use common::*;

/// A post of 9.5 at the origin under g = 10 down, 60 Hz, ball–ball off; a ball of 0.5 at
/// rest on it at `theta0` from the top (its centre on the circle of L = 10).
fn post_and_ball(theta0: f32) -> (App, Entity) {
    let mut app = app(60.0);
    {
        let mut settings = app.world_mut().resource_mut::<CcdSettings>();
        settings.ball_ball = false;
        settings.gravity = Vec2::new(0.0, -10.0);
    }
    app.world_mut().spawn((Pillar::new(9.5), Transform::default()));
    let at = Vec2::new(theta0.sin(), theta0.cos()) * 10.0;
    let ball = ball(&mut app, 0.5, at, Vec2::ZERO);
    (app, ball)
}

#[test]
fn a_ball_let_go_off_the_top_of_a_post_slides_off() {
    // From rest 0.3 rad off the top it slides, on the post, and leaves it where
    // cos θ = ⅔·cos θ₀: θ = 0.8801 rad.
    let (mut app, ball) = post_and_ball(0.3);
    let leave = (2.0 / 3.0 * 0.3_f32.cos()).acos();
    // The last step's end on the post's circle (after the leave the ball flies off along
    // it, a third-order tangent, and is still within 1e-5 of it for a step or so).
    let mut last_on = 0.0_f32;
    for step in 0..600 {
        steps(&mut app, 1);
        let p = position(&app, ball);
        let angle = p.x.atan2(p.y);
        if (p.length() - 10.0).abs() < 1e-5 {
            last_on = angle;
        } else {
            assert!(
                angle > leave - 1e-3,
                "step {step}: off the post at {angle}, before {leave}"
            );
        }
        if p.length() > 10.5 {
            // Clearly off: it was on the post up to within a step's turn (0.03 rad) of
            // the leave angle.
            assert!(
                (last_on - leave).abs() < 0.03,
                "last on the post at {last_on}, not {leave}"
            );
            return;
        }
    }
    panic!("the ball never left the post: it is at {}", position(&app, ball));
}

#[test]
fn a_ball_exactly_on_top_of_a_post_stays() {
    let (mut app, ball) = post_and_ball(0.0);
    steps(&mut app, 600);
    assert_eq!(position(&app, ball), Vec2::new(0.0, 10.0));
    assert_eq!(velocity(&app, ball), Vec2::ZERO);
}
