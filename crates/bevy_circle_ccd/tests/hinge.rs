//! Hinged bodies through the plugin: a one-way gate made of a `Hinge` with stops and a
//! spring, a body of several parts turning together, the angle read back, and bad values
//! named without a panic.
#![allow(clippy::unwrap_used, reason = "a test: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::{app, ball, steps, wall};

/// A lane 60 wide with a gate across it at y = 0: a 56-long arm from a pivot on the left
/// wall, stops at [0, 1.6] rad, a spring to −0.2 (so it rests on its lower stop).
fn gate_lane(app: &mut App) -> Entity {
    wall(app, Vec2::new(0.0, -400.0), Vec2::new(0.0, 400.0));
    wall(app, Vec2::new(60.0, -400.0), Vec2::new(60.0, 400.0));
    wall(app, Vec2::new(0.0, 400.0), Vec2::new(60.0, 400.0));
    wall(app, Vec2::new(0.0, -400.0), Vec2::new(60.0, -400.0));
    app.world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(56.0, 0.0)),
            Hinge::new(5.0)
                .with_stops(0.0, 1.6, 0.3)
                .with_spring(-0.2, 2_000.0)
                .with_damping(2.0),
            CcdMaterial::new(0.5, 0.0),
            Transform::default(),
        ))
        .id()
}

fn y(app: &App, e: Entity) -> f32 {
    app.world().get::<Transform>(e).unwrap().translation.y
}

#[test]
fn gate_blocks_backwards_and_opens_forwards() {
    // Backwards at 5,000 units/s: bounced back up, the gate unmoved.
    let mut app = app(240.0);
    let gate = gate_lane(&mut app);
    let back = ball(&mut app, 10.0, Vec2::new(30.0, 150.0), Vec2::new(0.0, -5_000.0));
    app.world_mut().entity_mut(back).insert(CcdMass(0.08));
    for _ in 0..120 {
        steps(&mut app, 1);
        assert!(y(&app, back) > 0.0, "the ball got past the gate backwards");
        // Unmoved: pressed onto its lower stop at 0 (the stop holds to `HINGE_LIMIT_SLOP`,
        // 1e-4 rad), and never lifted off it.
        let angle = app.world().get::<Hinge>(gate).unwrap().angle;
        assert!(
            angle.abs() <= bevy_circle_ccd::ccd_core::HINGE_LIMIT_SLOP,
            "the gate moved to {angle}"
        );
    }

    // Forwards at 2,000 units/s: it opens the gate and passes; the gate turns back shut.
    let mut app = app_forward();
    let (gate, fwd) = (app.1, app.2);
    let mut opened: f32 = 0.0;
    for _ in 0..480 {
        steps(&mut app.0, 1);
        let hinge = *app.0.world().get::<Hinge>(gate).unwrap();
        opened = opened.max(hinge.angle);
        // The Transform carries the same angle.
        let rotation = app.0.world().get::<Transform>(gate).unwrap().rotation;
        let (_, _, z) = rotation.to_euler(EulerRot::XYZ);
        assert!(
            (z - hinge.angle).abs() < 1e-4,
            "Transform at {z}, Hinge at {}",
            hinge.angle
        );
        if y(&app.0, fwd) > 200.0 {
            app.0.world_mut().get_mut::<MovingCircle>(fwd).unwrap().velocity = Vec2::ZERO;
        }
    }
    assert!(opened > 0.5, "the gate opened only to {opened}");
    assert!(y(&app.0, fwd) > 20.0, "the ball did not get through");
    let shut = app.0.world().get::<Hinge>(gate).unwrap().angle;
    assert!(shut.abs() < 1e-3, "the gate stayed at {shut}");
}

fn app_forward() -> (App, Entity, Entity) {
    let mut app = app(240.0);
    let gate = gate_lane(&mut app);
    let fwd = ball(&mut app, 10.0, Vec2::new(30.0, -150.0), Vec2::new(0.0, 2_000.0));
    app.world_mut().entity_mut(fwd).insert(CcdMass(0.08));
    (app, gate, fwd)
}

/// A body of two segments (the entity's own and a `HingePart`'s) turns as one: a ball
/// hitting the part turns the body, and the part's `Transform` follows the body's.
#[test]
fn parts_turn_with_their_body() {
    let mut app = app(120.0);
    let body = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(100.0, 0.0)),
            Hinge::new(2_500.0),
            Transform::default(),
        ))
        .id();
    let part = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(-100.0, 0.0)),
            HingePart(body),
        ))
        .id();
    // Mass 1 at 100 onto the part at lever 50 (on the −x side): J = 2·100/(1 + 1) = 100,
    // and the body turns at ω = +50·100/2500 = +2 rad/s (counter-clockwise: the −x arm
    // goes down).
    let b = ball(&mut app, 1.0, Vec2::new(-50.0, 1.5), Vec2::new(0.0, -100.0));
    app.world_mut().entity_mut(b).insert(CcdMass(1.0));
    steps(&mut app, 3);
    let hinge = *app.world().get::<Hinge>(body).unwrap();
    assert!(
        (hinge.angular_velocity - 2.0).abs() < 1e-3,
        "ω = {}",
        hinge.angular_velocity
    );
    let body_rotation = app.world().get::<Transform>(body).unwrap().rotation;
    let part_rotation = app.world().get::<Transform>(part).unwrap().rotation;
    assert!(body_rotation.angle_between(part_rotation) < 1e-6);
    assert!(hinge.angle > 0.0);
}

/// A spinner set turning counts whole turns in `Hinge::angle` (no wrap at ±π).
#[test]
fn angle_counts_turns() {
    let mut app = app(120.0);
    let mut spinner = Hinge::new(1.0);
    spinner.angular_velocity = 10.0;
    let e = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)),
            spinner,
        ))
        .id();
    steps(&mut app, 120);
    // 10 rad/s for one second, no damping: 10 rad, more than a turn and a half.
    let angle = app.world().get::<Hinge>(e).unwrap().angle;
    assert!((angle - 10.0).abs() < 1e-3, "angle {angle}");
}

/// Bad hinges are named, skipped, and never panic; the rest of the world still steps.
#[test]
fn bad_hinges_are_named() {
    let mut app = app(120.0);
    let field = |app: &App, e: Entity| app.world().get::<CcdInvalid>(e).map(|i| i.field.clone());
    let zero = app
        .world_mut()
        .spawn((StaticSegment::new(Vec2::ZERO, Vec2::X * 10.0), Hinge::new(0.0)))
        .id();
    let nan = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::X * 10.0),
            Hinge::new(1.0).with_damping(f32::NAN),
        ))
        .id();
    let stops = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::X * 10.0),
            Hinge::new(1.0).with_stops(1.0, -1.0, 0.0),
        ))
        .id();
    let pillar = app.world_mut().spawn((Pillar::new(3.0), HingePart(stops))).id();
    let free = ball(&mut app, 1.0, Vec2::new(0.0, 50.0), Vec2::new(0.0, 60.0));
    steps(&mut app, 4);
    assert_eq!(field(&app, zero).as_deref(), Some("Hinge.inertia"));
    assert_eq!(field(&app, nan).as_deref(), Some("Hinge.damping"));
    assert_eq!(field(&app, stops).as_deref(), Some("Hinge.stops"));
    assert!(
        field(&app, pillar).is_none(),
        "its body is skipped, so it is never read"
    );
    assert!((y(&app, free) - (50.0 + 60.0 * 4.0 / 120.0)).abs() < 1e-3);
}
