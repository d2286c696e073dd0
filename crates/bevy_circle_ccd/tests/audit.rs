//! The audit ([`CcdFaults`]) is a check that can fail: it finds a ball put inside a wall,
//! a post or a kinematic flipper, and one moved across a one-way gate, with the depth
//! computed by hand; and it finds nothing in a run the CCD handled.
#![allow(clippy::unwrap_used, reason = "tests: a missing resource is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_circle_ccd::{CcdFaults, FaultKind};
use common::*;

/// An app with the audit on.
fn audited(hz: f64) -> App {
    let mut app = app(hz);
    app.world_mut().resource_mut::<CcdSettings>().audit = true;
    app
}

fn faults(app: &App) -> CcdFaults {
    app.world().resource::<CcdFaults>().clone()
}

/// Where a system that runs between the plugin's preparation and its step puts a ball:
/// after the audit noted the ball's start, before the sweep (a planted tunnel).
#[derive(Resource)]
struct Plant(Entity, Vec2);

fn plant(mut plant: ResMut<Plant>, mut balls: Query<&mut Transform>, mut done: Local<bool>) {
    if std::mem::replace(&mut *done, true) {
        return;
    }
    if let Ok(mut t) = balls.get_mut(plant.0) {
        t.translation = plant.1.extend(0.0);
    }
    plant.0 = Entity::PLACEHOLDER;
}

fn add_plant(app: &mut App, ball: Entity, to: Vec2) {
    app.insert_resource(Plant(ball, to)).add_systems(
        FixedPostUpdate,
        plant
            .after(CircleCcdSystems::Prepare)
            .before(CircleCcdSystems::Step),
    );
}

#[test]
fn a_fast_ball_in_a_box_has_no_fault() {
    let mut app = audited(120.0);
    closed_box(&mut app, 100.0);
    app.world_mut()
        .spawn((Pillar::new(10.0), Transform::from_xyz(30.0, 20.0, 0.0)));
    ball(&mut app, 5.0, Vec2::ZERO, Vec2::new(20_000.0, 7_000.0));
    steps(&mut app, 240);
    let f = faults(&app);
    assert_eq!(f.steps, 240, "every step audited");
    assert_eq!(f.count, 0, "{f:?}");
    // Contacts leave the ball at its radius up to f32 rounding: far below the slop.
    assert!(f.deepest < 1e-3 * 5.0, "{f:?}");
}

#[test]
fn a_ball_inside_a_wall_is_a_fault_at_its_depth() {
    let mut app = audited(120.0);
    let floor = wall(&mut app, Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0));
    // Radius 4, still, its centre planted 1 above the floor: 3 deep, every step.
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 50.0), Vec2::ZERO);
    add_plant(&mut app, b, Vec2::new(10.0, 1.0));
    steps(&mut app, 3);
    let f = faults(&app);
    assert_eq!(f.count, 3, "{f:?}");
    assert_eq!(f.deepest, 3.0);
    let last = f.last.unwrap();
    assert_eq!((last.circle, last.obstacle), (b, floor));
    assert_eq!(last.kind, FaultKind::Inside { depth: 3.0 });
}

#[test]
fn a_ball_inside_a_pillar_or_a_flipper_is_a_fault() {
    let mut app = audited(120.0);
    let post = app
        .world_mut()
        .spawn((Pillar::new(10.0), Transform::from_xyz(0.0, 0.0, 0.0)))
        .id();
    // Centre 12 from the post's: 10 + 4 − 12 = 2 deep.
    let b = ball(&mut app, 4.0, Vec2::new(100.0, 100.0), Vec2::ZERO);
    add_plant(&mut app, b, Vec2::new(12.0, 0.0));
    steps(&mut app, 1);
    let f = faults(&app);
    assert_eq!(
        f.last.map(|l| (l.obstacle, l.kind)),
        Some((post, FaultKind::Inside { depth: 2.0 }))
    );

    let mut app = audited(120.0);
    let bat = flipper(
        &mut app,
        Vec2::new(0.0, -50.0),
        60.0,
        0.0,
        Kinematic::FollowTransform,
    );
    // 0.5 above the bat's line, 30 along it: 3.5 deep into the kinematic segment.
    let b = ball(&mut app, 4.0, Vec2::new(100.0, 100.0), Vec2::ZERO);
    add_plant(&mut app, b, Vec2::new(30.0, -49.5));
    steps(&mut app, 1);
    let f = faults(&app);
    assert_eq!(
        f.last.map(|l| (l.obstacle, l.kind)),
        Some((bat, FaultKind::Inside { depth: 3.5 }))
    );
}

#[test]
fn a_sensor_a_one_sided_part_and_another_layer_hold_nothing_out() {
    let mut app = audited(120.0);
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)),
        CcdSensor,
        Transform::default(),
    ));
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(-100.0, 10.0), Vec2::new(100.0, 10.0)),
        CcdLayers::new(0b10, 0b10),
        Transform::default(),
    ));
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 50.0), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert(CcdLayers::new(0b01, 0b01));
    add_plant(&mut app, b, Vec2::new(0.0, 5.0));
    steps(&mut app, 2);
    assert_eq!(faults(&app).count, 0);
}

#[test]
fn crossing_a_one_way_gate_backwards_is_a_fault() {
    let mut app = audited(120.0);
    // Front normal +y: a ball may pass upwards, never downwards.
    let gate = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)),
            OneSided,
            Transform::default(),
        ))
        .id();
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 20.0), Vec2::ZERO);
    // Noted at y = 20 (in front), then put at y = −20 before the step: crossed backwards.
    add_plant(&mut app, b, Vec2::new(0.0, -20.0));
    steps(&mut app, 1);
    let f = faults(&app);
    assert_eq!(f.count, 1, "{f:?}");
    assert_eq!(
        f.last.map(|l| (l.obstacle, l.kind)),
        Some((gate, FaultKind::CrossedOneWay))
    );

    // The allowed way, by the CCD itself: upwards through the gate at 6,000 u/s.
    let mut app = audited(120.0);
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)),
        OneSided,
        Transform::default(),
    ));
    let b = ball(&mut app, 4.0, Vec2::new(0.0, -20.0), Vec2::new(0.0, 6_000.0));
    steps(&mut app, 2);
    assert!(position(&app, b).y > 20.0, "it went through");
    assert_eq!(faults(&app).count, 0);
}

#[test]
fn the_audit_is_off_by_default() {
    let mut app = app(120.0);
    wall(&mut app, Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0));
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 50.0), Vec2::ZERO);
    add_plant(&mut app, b, Vec2::new(10.0, 1.0));
    steps(&mut app, 2);
    assert_eq!(faults(&app), CcdFaults::default());
}

#[test]
fn a_ball_inside_a_solid_polygon_is_a_fault_at_its_depth() {
    let mut app = audited(120.0);
    // A 200 × 100 brick centred at (0, 200): a ball of radius 4 planted at (10, 190) is
    // 40 from its nearest edge (the bottom, y = 150), so it reaches 44 into the solid.
    let brick = app
        .world_mut()
        .spawn((
            CcdShape::rect(Vec2::new(100.0, 50.0)),
            Transform::from_xyz(0.0, 200.0, 0.0),
        ))
        .id();
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 20.0), Vec2::ZERO);
    add_plant(&mut app, b, Vec2::new(10.0, 190.0));
    steps(&mut app, 2);
    let f = faults(&app);
    assert!(f.count >= 1, "{f:?}");
    let last = f.last.unwrap();
    assert_eq!((last.circle, last.obstacle), (b, brick));
    assert_eq!(last.kind, FaultKind::Inside { depth: 44.0 });
    // A ball bouncing fast off bricks and their corners is no fault.
    let mut app = audited(120.0);
    closed_box(&mut app, 300.0);
    for k in 0..6 {
        let at = Vec3::new(-200.0 + 80.0 * k as f32, 60.0 * (k % 3) as f32 - 60.0, 0.0);
        app.world_mut().spawn((
            CcdShape::rect(Vec2::new(20.0, 8.0)),
            Transform::from_translation(at),
        ));
    }
    ball(
        &mut app,
        5.0,
        Vec2::new(0.0, -250.0),
        Vec2::new(9_000.0, 13_000.0),
    );
    steps(&mut app, 600);
    let f = faults(&app);
    assert_eq!(f.count, 0, "{f:?}");
}
