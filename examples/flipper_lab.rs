//! Flipper lab: two flippers, a handful of balls knocking into each other, pillars and
//! walls, under gravity. The flippers are `Kinematic::FollowTransform` obstacles: a system
//! turns their `Transform` towards the raised or resting angle every fixed step, and the
//! plugin sweeps every ball exactly against the moving flipper and against the other balls.
//! Debug gizmos show the walls, the flippers (magenta), each ball's path in the last step
//! and its contacts.
//!
//! ```text
//! cargo run --release --example flipper_lab
//! cargo run --example flipper_lab -- --screenshot target/flipper_lab.png --frames 90
//! ```
//!
//! Keys: Left Shift or Z and Right Shift or M flip, Space drops another ball, F1 toggles
//! the debug gizmos. With `--screenshot` the flippers flap on their own.

mod support;

use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use std::f32::consts::PI;
use std::path::PathBuf;
use support::{Circle2d, LabBall};

#[derive(Parser, Debug)]
#[command(about = "Two flippers, several balls, walls and pillars")]
struct Args {
    /// Save a PNG of the window after `--frames` frames, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to play before the screenshot.
    #[arg(long, default_value_t = 120)]
    frames: u32,
}

const HALF: Vec2 = Vec2::new(420.0, 340.0);
const BALL_RADIUS: f32 = 13.5;
const BALLS: usize = 7;
const GRAVITY: Vec2 = Vec2::new(0.0, -1110.0);
const FLIPPER_LENGTH: f32 = 110.0;
/// Pivot height and half the gap between the two pivots.
const PIVOT: Vec2 = Vec2::new(150.0, -230.0);
/// Resting and raised angles of the left flipper, radians from +x (the right one mirrors).
const REST_ANGLE: f32 = -0.5;
const RAISED_ANGLE: f32 = 0.45;
/// Turn rate of a flipper, rad/s: a full stroke in about 30 ms, like a real solenoid.
const FLIPPER_SPEED: f32 = 32.0;
/// Seconds per flap in the screenshot's autoplay.
const AUTOPLAY_PERIOD: f32 = 0.45;

fn main() -> AppExit {
    let args = Args::parse();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "bevy_circle_ccd: flipper lab".into(),
            resolution: (1280, 720).into(),
            ..default()
        }),
        ..default()
    }))
    // Its systems run in `FixedUpdate`, ordered around the step.
    .add_plugins((CircleCcdPlugin::new(FixedUpdate), CcdDebugPlugin))
    .insert_resource(Time::<Fixed>::from_hz(120.0))
    .insert_resource(ClearColor(Color::srgb(0.05, 0.06, 0.09)))
    .insert_resource(CcdSettings {
        gravity: GRAVITY,
        ..default()
    })
    .insert_resource(Autoplay(args.screenshot.is_some()))
    .add_systems(Startup, setup)
    .add_systems(
        FixedUpdate,
        (
            drive_flippers.before(CircleCcdSystems::Prepare),
            recycle_drained.after(CircleCcdSystems::Report),
        ),
    )
    .add_systems(Update, keys);
    if let Some(path) = args.screenshot {
        app.add_plugins(support::SmokeScreenshotPlugin {
            path,
            frames: args.frames,
        });
    }
    app.run()
}

/// Whether the flippers flap on their own (screenshot mode).
#[derive(Resource)]
struct Autoplay(bool);

/// A flipper: which side, and whether its button is held.
#[derive(Component)]
struct Flipper {
    left: bool,
    held: bool,
}

/// The bottom gap: balls that fall through it come back at the top.
#[derive(Component)]
struct Drain;

/// The scene, in spawn order: the camera, the walls, the drain, the posts, the flippers,
/// the balls and the help text.
fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn(Camera2d);
    spawn_walls(&mut commands, &mut meshes, &mut materials);
    spawn_drain(&mut commands);
    spawn_posts(&mut commands, &mut meshes, &mut materials);
    spawn_flippers(&mut commands, &mut meshes, &mut materials);
    spawn_balls(&mut commands, &mut meshes, &mut materials);
    spawn_help(&mut commands);
}

/// The sides and roof, the inlane guides down to the flippers and two baffles, each a
/// segment with a capsule mesh.
fn spawn_walls(commands: &mut Commands, meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) {
    let wall_color = materials.add(Color::srgb(0.45, 0.65, 0.95));
    let (x, y) = (HALF.x, HALF.y);
    let inlane_top = Vec2::new(x, -120.0);
    let walls = [
        // Sides and roof.
        (Vec2::new(-x, -120.0), Vec2::new(-x, y)),
        (Vec2::new(-x, y), Vec2::new(x, y)),
        (Vec2::new(x, y), inlane_top),
        // Inlane guides down to each flipper's pivot.
        (Vec2::new(-x, -120.0), Vec2::new(-PIVOT.x - 8.0, PIVOT.y + 4.0)),
        (Vec2::new(PIVOT.x + 8.0, PIVOT.y + 4.0), inlane_top),
        // Slingshot-like baffles.
        (Vec2::new(-260.0, 40.0), Vec2::new(-180.0, -60.0)),
        (Vec2::new(180.0, -60.0), Vec2::new(260.0, 40.0)),
    ];
    for (a, b) in walls {
        commands.spawn((
            StaticSegment::new(a, b),
            CcdMaterial::new(0.6, 0.1),
            Transform::default(),
            // The child mesh inherits visibility from here.
            Visibility::default(),
            children![capsule(meshes, wall_color.clone(), a, b, 4.0)],
        ));
    }
}

/// The drain: a sensor line under the flippers.
fn spawn_drain(commands: &mut Commands) {
    let (x, y) = (HALF.x, HALF.y);
    commands.spawn((
        StaticSegment::new(Vec2::new(-x, -y + 10.0), Vec2::new(x, -y + 10.0)),
        CcdSensor,
        Drain,
        Transform::default(),
    ));
}

/// Three bumper posts (pillars that kick).
fn spawn_posts(commands: &mut Commands, meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) {
    let post = materials.add(Color::srgb(0.95, 0.45, 0.55));
    for (p, r) in [
        (Vec2::new(-110.0, 170.0), 30.0),
        (Vec2::new(110.0, 170.0), 30.0),
        (Vec2::new(0.0, 60.0), 22.0),
    ] {
        commands.spawn((
            Pillar::new(r),
            // A bumper kicks: restitution above 1.
            CcdMaterial::new(1.2, 0.0),
            Mesh2d(meshes.add(Circle2d(r))),
            MeshMaterial2d(post.clone()),
            Transform::from_translation(p.extend(0.0)),
        ));
    }
}

/// The left and right flippers, resting, as kinematic segments that follow their
/// `Transform`.
fn spawn_flippers(commands: &mut Commands, meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) {
    let flipper_color = materials.add(Color::srgb(0.95, 0.75, 0.3));
    let arm = Vec2::new(FLIPPER_LENGTH, 0.0);
    for left in [true, false] {
        let pivot = Vec2::new(if left { -PIVOT.x } else { PIVOT.x }, PIVOT.y);
        commands.spawn((
            StaticSegment::new(Vec2::ZERO, arm),
            Kinematic::FollowTransform,
            CcdMaterial::new(0.5, 0.2),
            Flipper { left, held: false },
            Transform::from_translation(pivot.extend(1.0))
                .with_rotation(Quat::from_rotation_z(angle(left, false))),
            Visibility::default(),
            children![capsule(meshes, flipper_color.clone(), Vec2::ZERO, arm, 7.0)],
        ));
    }
}

/// The first [`BALLS`] balls, moving, and the [`LabBall`] later balls reuse.
fn spawn_balls(commands: &mut Commands, meshes: &mut Assets<Mesh>, materials: &mut Assets<ColorMaterial>) {
    let ball = LabBall::new(
        BALL_RADIUS,
        CcdMaterial::new(0.8, 0.1),
        Color::srgb(0.85, 0.88, 0.95),
        meshes,
        materials,
    );
    for k in 0..BALLS {
        let at = Vec2::new(-240.0 + 80.0 * k as f32, 250.0 - 20.0 * (k % 2) as f32);
        let velocity = Vec2::new(if k % 2 == 0 { 300.0 } else { -300.0 }, -100.0 * k as f32);
        ball.spawn(commands, at, velocity);
    }
    commands.insert_resource(ball);
}

/// The help, in the margin left of the playfield.
fn spawn_help(commands: &mut Commands) {
    commands.spawn((
        Text2d::new(
            "Left flipper:\nLeft Shift or Z\n\nRight flipper:\nRight Shift or M\n\nSpace: a ball\nF1: gizmos",
        ),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::srgb(0.8, 0.8, 0.85)),
        Transform::from_xyz(-HALF.x - 110.0, 0.0, 1.0),
    ));
}

/// The flipper's angle from +x, resting or raised; the right flipper mirrors the left.
fn angle(left: bool, raised: bool) -> f32 {
    let a = if raised { RAISED_ANGLE } else { REST_ANGLE };
    if left { a } else { PI - a }
}

/// A capsule mesh from `a` to `b` in its parent's space.
fn capsule(
    meshes: &mut Assets<Mesh>,
    material: Handle<ColorMaterial>,
    a: Vec2,
    b: Vec2,
    radius: f32,
) -> impl Bundle {
    let d = b - a;
    (
        Mesh2d(meshes.add(Capsule2d::new(radius, d.length()))),
        MeshMaterial2d(material),
        // The capsule mesh stands along +y; turn it onto a → b.
        Transform::from_translation(((a + b) * 0.5).extend(0.0))
            .with_rotation(Quat::from_rotation_z(d.to_angle() - PI / 2.0)),
    )
}

/// Turn each flipper towards its wanted angle at `FLIPPER_SPEED`, before the step sweeps.
fn drive_flippers(
    time: Res<Time>,
    autoplay: Res<Autoplay>,
    mut flippers: Query<(&mut Flipper, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (mut flipper, mut transform) in &mut flippers {
        if autoplay.0 {
            let phase = (time.elapsed_secs() / AUTOPLAY_PERIOD) as u32;
            flipper.held = phase % 2 == u32::from(flipper.left);
        }
        let want = angle(flipper.left, flipper.held);
        let d = (transform.rotation * Vec3::X).truncate();
        let now = d.y.atan2(d.x);
        // The shortest way round, then at most one step's worth of turn.
        let gap = (want - now + PI).rem_euclid(2.0 * PI) - PI;
        let turn = gap.clamp(-FLIPPER_SPEED * dt, FLIPPER_SPEED * dt);
        transform.rotation = Quat::from_rotation_z(now + turn);
    }
}

/// Balls that crossed the drain come back at the top.
fn recycle_drained(
    mut hits: MessageReader<CircleHit>,
    drains: Query<(), With<Drain>>,
    mut balls: Query<(&mut MovingCircle, &mut Transform)>,
) {
    for hit in hits.read() {
        if !hit.sensor || !drains.contains(hit.other) {
            continue;
        }
        if let Ok((mut circle, mut transform)) = balls.get_mut(hit.circle) {
            circle.velocity = Vec2::new(hit.center.x.clamp(-200.0, 200.0), 0.0);
            transform.translation.x = hit.center.x.clamp(-300.0, 300.0);
            transform.translation.y = HALF.y - 40.0;
        }
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    autoplay: Res<Autoplay>,
    ball: Res<LabBall>,
    mut flippers: Query<&mut Flipper>,
    mut store: ResMut<GizmoConfigStore>,
    mut commands: Commands,
) {
    if !autoplay.0 {
        for mut flipper in &mut flippers {
            let (a, b) = if flipper.left {
                (KeyCode::ShiftLeft, KeyCode::KeyZ)
            } else {
                (KeyCode::ShiftRight, KeyCode::KeyM)
            };
            flipper.held = keys.pressed(a) || keys.pressed(b);
        }
    }
    if keys.just_pressed(KeyCode::Space) {
        ball.spawn(
            &mut commands,
            Vec2::new(0.0, HALF.y - 40.0),
            Vec2::new(120.0, 0.0),
        );
    }
    if keys.just_pressed(KeyCode::F1) {
        let (config, _) = store.config_mut::<CcdGizmos>();
        config.enabled = !config.enabled;
    }
}
