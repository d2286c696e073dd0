//! `CcdGravityScale`: each circle falls by its own share of the world's gravity, alone and
//! among other circles; a scale that is not finite is refused by name. Figures by hand.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;

/// An app at 10 Hz (dt = 0.1 s) under gravity (0, −10).
fn app_with(ball_ball: bool) -> App {
    let mut app = app(10.0);
    let mut settings = app.world_mut().resource_mut::<CcdSettings>();
    settings.gravity = Vec2::new(0.0, -10.0);
    settings.ball_ball = ball_ball;
    app
}

fn scaled(app: &mut App, at: Vec2, scale: Option<f32>) -> Entity {
    let b = ball(app, 1.0, at, Vec2::X);
    if let Some(s) = scale {
        app.world_mut().entity_mut(b).insert(CcdGravityScale(s));
    }
    b
}

#[test]
fn each_circle_falls_by_its_own_scale() {
    // After 0.2 s from rest along y at (1, 0): x + 0.2, y − ½·10·s·0.04 = y − 0.2·s, going
    // (1, −2·s). The two with ball–ball contacts are 2.5 apart: close enough to be stepped
    // among each other, never touching (they part along y).
    for ball_ball in [false, true] {
        let mut app = app_with(ball_ball);
        let cases = [
            (None, 1.0),
            (Some(1.0), 1.0),
            (Some(0.5), 0.5),
            (Some(0.0), 0.0),
            (Some(-1.0), -1.0),
        ];
        let balls: Vec<(Entity, Vec2, f32)> = cases
            .iter()
            .enumerate()
            .map(|(k, &(scale, s))| {
                let at = Vec2::new(2.5 * k as f32, 0.0);
                (scaled(&mut app, at, scale), at, s)
            })
            .collect();
        steps(&mut app, 2);
        for (b, at, s) in balls {
            let want = at + Vec2::new(0.2, -0.2 * s);
            assert!(
                close(position(&app, b), want, 1e-5),
                "s = {s}: {}",
                position(&app, b)
            );
            assert!(
                close(velocity(&app, b), Vec2::new(1.0, -2.0 * s), 1e-5),
                "{}",
                velocity(&app, b)
            );
        }
    }
}

#[test]
fn a_scale_that_is_not_finite_is_refused_by_name() {
    let mut app = app_with(true);
    let bad = scaled(&mut app, Vec2::ZERO, Some(f32::NAN));
    let infinite = scaled(&mut app, Vec2::new(10.0, 0.0), Some(f32::INFINITY));
    steps(&mut app, 1);
    for b in [bad, infinite] {
        let invalid = app.world().get::<CcdInvalid>(b).unwrap();
        assert_eq!(invalid.field, "CcdGravityScale");
        assert!(invalid.reason.contains("finite"), "{}", invalid.reason);
        assert!(
            invalid.reason.ends_with("given NaN") || invalid.reason.ends_with("given inf"),
            "{}",
            invalid.reason
        );
    }
    assert_eq!(position(&app, bad), Vec2::ZERO, "skipped");
    // Fixed, it is stepped again and the marker goes.
    app.world_mut().entity_mut(bad).insert(CcdGravityScale(0.0));
    steps(&mut app, 1);
    assert!(app.world().get::<CcdInvalid>(bad).is_none());
    assert!(
        close(position(&app, bad), Vec2::new(0.1, 0.0), 1e-6),
        "{}",
        position(&app, bad)
    );
}
