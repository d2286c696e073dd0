//! A full ring written the natural way is a ring through the plugin: `CcdShape::arc` from
//! `a` to `a + TAU` for every start in whole degrees, a `(0, TAU)` ring on a Transform
//! turned by every whole degree, and a turning ring, which keeps turning. In each a ball
//! at the centre meets the ring where the hand calculation says.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;
use std::f32::consts::TAU;

/// Ring radius, and the ball's radius and speed.
const R: f32 = 50.0;
const SPEED: f32 = 100.0;

/// 360 rings far apart, ring `k` from `shape(k)` at `place(k)`, each with a ball of radius 1
/// at its centre going +x at 100 u/s; one step of 0.5 s. The ball reaches the ring's inside
/// (49 out) at 0.49 s and comes back 1: at 48 going −100.
fn each_ring_is_met(shape: impl Fn(f32) -> CcdShape, turn: impl Fn(f32) -> Quat) {
    let mut app = app(2.0);
    let mut pairs = Vec::new();
    for degree in 0..360 {
        let a = (degree as f32).to_radians();
        let center = Vec2::new(200.0 * degree as f32, 0.0);
        let at = Transform::from_translation(center.extend(0.0)).with_rotation(turn(a));
        let ring = app.world_mut().spawn((shape(a), at)).id();
        pairs.push((degree, ring, center, ball(&mut app, 1.0, center, Vec2::X * SPEED)));
    }
    steps(&mut app, 1);
    for (degree, ring, center, b) in pairs {
        let invalid = app.world().get::<CcdInvalid>(ring).map(|i| i.reason.clone());
        assert_eq!(invalid, None, "{degree}°");
        let p = position(&app, b) - center;
        assert!(close(p, Vec2::new(48.0, 0.0), 1e-3), "{degree}°: {p}");
        assert!(close(velocity(&app, b), -Vec2::X * SPEED, 1e-3), "{degree}°");
    }
}

#[test]
fn a_ring_from_a_to_a_plus_tau_is_met_for_every_whole_degree() {
    each_ring_is_met(|a| CcdShape::arc(Vec2::ZERO, R, a, a + TAU), |_| Quat::IDENTITY);
}

#[test]
fn a_ring_on_a_transform_turned_by_every_whole_degree_is_met() {
    each_ring_is_met(|_| CcdShape::arc(Vec2::ZERO, R, 0.0, TAU), Quat::from_rotation_z);
}

#[test]
fn a_turning_ring_keeps_turning_and_holds_its_ball() {
    // A (0, TAU) ring turning at 1 rad/s about its centre, a ball inside bouncing along x
    // at 100 u/s, 60 Hz for 10 s: the ring has turned 10 rad and the ball never left it.
    let mut app = app(60.0);
    let ring = app
        .world_mut()
        .spawn((
            CcdShape::arc(Vec2::ZERO, R, 0.0, TAU),
            Kinematic::turning(1.0),
            Transform::default(),
        ))
        .id();
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::X * SPEED);
    for _ in 0..600 {
        steps(&mut app, 1);
        assert!(
            position(&app, b).length() <= R - 1.0 + 1e-3,
            "{}",
            position(&app, b)
        );
    }
    let (axis, angle) = app
        .world()
        .get::<Transform>(ring)
        .unwrap()
        .rotation
        .to_axis_angle();
    let turned = (angle * axis.z).rem_euclid(TAU);
    assert!((turned - 10f32.rem_euclid(TAU)).abs() < 1e-3, "turned {turned}");
    assert!(app.world().get::<CcdInvalid>(ring).is_none());
}
