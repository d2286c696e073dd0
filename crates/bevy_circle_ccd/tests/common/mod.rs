//! Shared helpers for the headless plugin tests.
#![allow(dead_code)]
#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a missing component is a failed test"
)]

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;

/// A headless app: MinimalPlugins, transforms, the CCD plugin, a fixed step of `1/hz` s,
/// and exactly one fixed step per `app.update()`.
pub fn app(hz: f64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CircleCcdPlugin::default()))
        .insert_resource(Time::<Fixed>::from_hz(hz))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    // Let startup run and transforms propagate before any test step.
    app.finish();
    app.cleanup();
    single_threaded(&mut app);
    app
}

/// Every schedule on the single-threaded executor: a test step is microseconds of work,
/// and handing systems to worker threads and back costs about a millisecond per update
/// on a two-core VM (futex calls).
pub fn single_threaded(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<bevy::ecs::schedule::Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}

/// Run updates until `n` more CCD steps have happened.
pub fn steps(app: &mut App, n: u64) {
    let target = app.world().resource::<CcdStats>().steps + n;
    let mut guard = 0;
    while app.world().resource::<CcdStats>().steps < target {
        app.update();
        guard += 1;
        assert!(guard < n * 4 + 16, "the fixed step is not running");
    }
}

pub fn wall(app: &mut App, a: Vec2, b: Vec2) -> Entity {
    app.world_mut()
        .spawn((StaticSegment::new(a, b), Transform::default()))
        .id()
}

pub fn ball(app: &mut App, radius: f32, at: Vec2, velocity: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            MovingCircle::new(radius, velocity),
            Transform::from_translation(at.extend(0.0)),
        ))
        .id()
}

pub fn position(app: &App, e: Entity) -> Vec2 {
    app.world().get::<Transform>(e).unwrap().translation.truncate()
}

pub fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<MovingCircle>(e).unwrap().velocity
}

/// Collects every `CircleHit` message.
#[derive(Resource, Default)]
pub struct Collected(pub Vec<CircleHit>);

pub fn collect_hits(app: &mut App) {
    app.init_resource::<Collected>().add_systems(
        FixedPostUpdate,
        (|mut reader: MessageReader<CircleHit>, mut out: ResMut<Collected>| {
            out.0.extend(reader.read().copied());
        })
        .after(CircleCcdSystems::Report),
    );
}

pub fn close(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

/// Four walls around [-h, h]².
pub fn closed_box(app: &mut App, h: f32) -> [Entity; 4] {
    let c = [
        Vec2::new(-h, -h),
        Vec2::new(h, -h),
        Vec2::new(h, h),
        Vec2::new(-h, h),
    ];
    [0, 1, 2, 3].map(|i| wall(app, c[i], c[(i + 1) % 4]))
}

/// A root segment from its origin to `(length, 0)`, turned to `angle`, moving as `kinematic`.
pub fn flipper(app: &mut App, at: Vec2, length: f32, angle: f32, kinematic: Kinematic) -> Entity {
    app.world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(length, 0.0)),
            kinematic,
            Transform::from_translation(at.extend(0.0)).with_rotation(Quat::from_rotation_z(angle)),
        ))
        .id()
}

/// Where `p` is relative to a flipper of `length`: (distance along it from the pivot,
/// signed distance from its line, positive on its front `(b − a).perp()` side).
pub fn flipper_coords(app: &App, flipper: Entity, p: Vec2) -> (f32, f32) {
    let t = app.world().get::<Transform>(flipper).unwrap();
    let dir = (t.rotation * Vec3::X).truncate().normalize();
    let rel = p - t.translation.truncate();
    (rel.dot(dir), rel.dot(dir.perp()))
}

/// Distance from `p` to the segment from `a` to `b`.
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let d = b - a;
    let t = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (p - (a + d * t)).length()
}
