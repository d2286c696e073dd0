//! Bounce lab: walls at odd angles, pillars, a one-sided gate, and one of each shape (a
//! box, a capsule, an exact arc, a band, a chain and a polygon). Click and drag to shoot a
//! ball (drag back like a slingshot); while aiming, its predicted bounce path is drawn.
//! Right-click places another shape: Tab picks which, R turns it. Debug gizmos show every
//! wall normal, each ball's swept path in the last fixed step and its contact points.
//!
//! ```text
//! cargo run --release --example bounce_lab
//! cargo run --example bounce_lab -- --screenshot target/bounce_lab.png --frames 120
//! ```
//!
//! Keys: C clears the balls, G toggles gravity, F1 toggles the debug gizmos, Tab picks the
//! shape a right-click places, R turns it by 15°.

mod support;

use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_circle_ccd::prelude::*;
use clap::Parser;
use std::path::PathBuf;
use support::{Circle2d, LabBall};

#[derive(Parser, Debug)]
#[command(about = "Shoot balls at walls, pillars and a one-sided gate")]
struct Args {
    /// Save a PNG of the window after `--frames` frames, then exit.
    #[arg(long)]
    screenshot: Option<PathBuf>,
    /// Frames to play before the screenshot.
    #[arg(long, default_value_t = 120)]
    frames: u32,
}

const BALL_RADIUS: f32 = 9.0;
/// Launch speed per unit of drag, 1/s.
const LAUNCH_GAIN: f32 = 6.0;
/// Contacts the aim line shows.
const AIM_CONTACTS: usize = 10;
/// The longest the aim line looks ahead, seconds.
const AIM_SECONDS: f32 = 3.0;
const HALF: Vec2 = Vec2::new(600.0, 340.0);

fn main() -> AppExit {
    let args = Args::parse();
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "bevy_circle_ccd: bounce lab".into(),
            resolution: (1280, 720).into(),
            ..default()
        }),
        ..default()
    }))
    .add_plugins((CircleCcdPlugin::default(), CcdDebugPlugin))
    .insert_resource(Time::<Fixed>::from_hz(120.0))
    .insert_resource(ClearColor(Color::srgb(0.05, 0.06, 0.09)))
    .init_resource::<Aim>()
    .init_resource::<Placing>()
    .add_systems(Startup, setup)
    .add_systems(Update, (aim_and_shoot, keys, draw_aim, place_shape, draw_shapes));
    if let Some(path) = args.screenshot {
        app.add_plugins(support::SmokeScreenshotPlugin {
            path,
            frames: args.frames,
        })
        .add_systems(Startup, demo_shots.after(setup));
    }
    app.run()
}

/// The shape a right-click places, and its turn.
#[derive(Resource, Default)]
struct Placing {
    kind: usize,
    angle: f32,
}

/// Turn per press of R, radians (15°).
const TURN_STEP: f32 = std::f32::consts::PI / 12.0;
/// The shapes a right-click places, with their names.
const SHAPES: [&str; 6] = ["box", "capsule", "arc", "band", "chain", "polygon"];

/// Shape number `kind` of [`SHAPES`], in its local space around the origin.
fn shape(kind: usize) -> CcdShape {
    use std::f32::consts::PI;
    match kind % SHAPES.len() {
        0 => CcdShape::rect(Vec2::new(40.0, 14.0)),
        1 => CcdShape::capsule(Vec2::new(-45.0, 0.0), Vec2::new(45.0, 0.0), 12.0),
        2 => CcdShape::arc(Vec2::ZERO, 80.0, 0.25 * PI, 0.95 * PI),
        3 => CcdShape::band(Vec2::ZERO, 60.0, PI, 2.0 * PI, 6.0),
        4 => CcdShape::polyline([
            Vec2::new(-70.0, -10.0),
            Vec2::new(-30.0, 20.0),
            Vec2::new(0.0, -15.0),
            Vec2::new(35.0, 25.0),
            Vec2::new(70.0, 0.0),
        ]),
        _ => CcdShape::polygon([
            Vec2::new(0.0, 45.0),
            Vec2::new(40.0, 10.0),
            Vec2::new(25.0, -40.0),
            Vec2::new(-30.0, -35.0),
            Vec2::new(-42.0, 12.0),
        ]),
    }
}

/// Colour of the shapes' outlines.
const SHAPE_COLOR: Color = Color::srgb(0.95, 0.7, 0.3);

#[derive(Resource, Default)]
struct Aim {
    from: Option<Vec2>,
    to: Vec2,
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn(Camera2d);
    commands.insert_resource(LabBall::new(
        BALL_RADIUS,
        CcdMaterial::new(0.95, 0.05),
        Color::srgb(1.0, 0.85, 0.4),
        &mut meshes,
        &mut materials,
    ));
    let wall_color = materials.add(Color::srgb(0.45, 0.65, 0.95));
    // The arena, an irregular hexagon.
    let outline = [
        Vec2::new(-HALF.x, -HALF.y + 80.0),
        Vec2::new(-HALF.x + 120.0, -HALF.y),
        Vec2::new(HALF.x - 60.0, -HALF.y),
        Vec2::new(HALF.x, -HALF.y + 200.0),
        Vec2::new(HALF.x - 40.0, HALF.y),
        Vec2::new(-HALF.x + 30.0, HALF.y),
    ];
    let mut walls: Vec<(Vec2, Vec2)> = (0..outline.len())
        .map(|i| (outline[i], outline[(i + 1) % outline.len()]))
        .collect();
    // Baffles at odd angles.
    walls.extend([
        (Vec2::new(-300.0, -120.0), Vec2::new(-140.0, 40.0)),
        (Vec2::new(100.0, 180.0), Vec2::new(320.0, 120.0)),
        (Vec2::new(200.0, -200.0), Vec2::new(260.0, -40.0)),
    ]);
    for (a, b) in walls {
        spawn_wall(&mut commands, &mut meshes, wall_color.clone(), a, b, false);
    }
    // A one-sided gate: balls pass going right, bounce going left.
    let gate = materials.add(Color::srgb(0.3, 0.95, 0.5));
    spawn_wall(
        &mut commands,
        &mut meshes,
        gate,
        Vec2::new(-20.0, -60.0),
        Vec2::new(-20.0, -300.0),
        true,
    );
    let post = materials.add(Color::srgb(0.95, 0.45, 0.55));
    for (p, r) in [
        (Vec2::new(-60.0, 160.0), 28.0),
        (Vec2::new(420.0, -120.0), 40.0),
        (Vec2::new(-420.0, 180.0), 18.0),
    ] {
        commands.spawn((
            Pillar::new(r),
            CcdMaterial::new(1.0, 0.0),
            Mesh2d(meshes.add(Circle2d(r))),
            MeshMaterial2d(post.clone()),
            Transform::from_translation(p.extend(0.0)),
        ));
    }
    // One of each shape.
    for (kind, at, degrees) in [
        (0, Vec2::new(150.0, 40.0), 20.0),
        (1, Vec2::new(-250.0, -250.0), -10.0),
        (2, Vec2::new(-300.0, 60.0), 0.0),
        (3, Vec2::new(380.0, 230.0), 0.0),
        (4, Vec2::new(330.0, -270.0), 0.0),
        (5, Vec2::new(-150.0, 230.0), 0.0),
    ] {
        commands.spawn((
            shape(kind),
            CcdMaterial::new(0.95, 0.05),
            Transform::from_translation(at.extend(0.0))
                .with_rotation(Quat::from_rotation_z(f32::to_radians(degrees))),
        ));
    }
    commands.spawn((
        Text2d::new("drag to shoot  |  right-click place  |  Tab shape  |  R turn  |  C clear  |  G gravity  |  F1 gizmos"),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::srgb(0.8, 0.8, 0.85)),
        Transform::from_xyz(0.0, HALF.y - 20.0, 1.0),
    ));
}

fn spawn_wall(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    material: Handle<ColorMaterial>,
    a: Vec2,
    b: Vec2,
    one_sided: bool,
) {
    let mid = (a + b) * 0.5;
    let d = b - a;
    let mut wall = commands.spawn((
        // Local space: the capsule's axis is +y, and the transform turns it onto a → b.
        StaticSegment::new(
            Vec2::new(0.0, -0.5 * d.length()),
            Vec2::new(0.0, 0.5 * d.length()),
        ),
        Mesh2d(meshes.add(Capsule2d::new(2.5, d.length()))),
        MeshMaterial2d(material),
        // The capsule mesh stands along +y; turn it onto the segment.
        Transform::from_translation(mid.extend(0.0))
            .with_rotation(Quat::from_rotation_z(d.to_angle() - std::f32::consts::FRAC_PI_2)),
    ));
    if one_sided {
        wall.insert(OneSided);
    }
}

fn cursor_world(window: &Window, camera: (&Camera, &GlobalTransform)) -> Option<Vec2> {
    let cursor = window.cursor_position()?;
    camera.0.viewport_to_world_2d(camera.1, cursor).ok()
}

fn aim_and_shoot(
    mouse: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut aim: ResMut<Aim>,
    ball: Res<LabBall>,
    mut commands: Commands,
) {
    let Some(cursor) = cursor_world(&window, *camera) else {
        return;
    };
    if mouse.just_pressed(MouseButton::Left) {
        aim.from = Some(cursor);
    }
    aim.to = cursor;
    if mouse.just_released(MouseButton::Left)
        && let Some(from) = aim.from.take()
    {
        ball.spawn(&mut commands, from, (from - cursor) * LAUNCH_GAIN);
    }
}

/// The predicted path of the ball being aimed: the plugin's prediction of a shot not yet
/// spawned, with the ball's own material, as the step will bounce it, for its first
/// contacts (the path through each step's end, a circle at each contact).
fn draw_aim((aim, ball): (Res<Aim>, Res<LabBall>), predict: CcdPredict, mut gizmos: Gizmos) {
    let Some(from) = aim.from else {
        return;
    };
    let velocity = (from - aim.to) * LAUNCH_GAIN;
    gizmos.line_2d(from, aim.to, Color::srgba(1.0, 1.0, 1.0, 0.3));
    let shot = CcdPredictStart::new(from, velocity, BALL_RADIUS).with_material(ball.material);
    let horizon = CcdPredictHorizon {
        contacts: AIM_CONTACTS,
        steps: predict.steps_in(AIM_SECONDS),
    };
    if let Ok(ahead) = predict.predict_start(&shot, horizon, &mut ()) {
        gizmos.linestrip_2d(ahead.path, Color::srgb(1.0, 1.0, 1.0));
        for c in &ahead.contacts {
            gizmos.circle_2d(c.hit.center, BALL_RADIUS, Color::srgba(1.0, 1.0, 1.0, 0.35));
        }
    }
}

/// Right-click places the chosen shape at the cursor; Tab and R choose and turn it.
fn place_shape(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    mut placing: ResMut<Placing>,
    mut gizmos: Gizmos,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::Tab) {
        placing.kind = (placing.kind + 1) % SHAPES.len();
    }
    if keys.just_pressed(KeyCode::KeyR) {
        placing.angle += TURN_STEP;
    }
    let Some(cursor) = cursor_world(&window, *camera) else {
        return;
    };
    let at =
        Transform::from_translation(cursor.extend(0.0)).with_rotation(Quat::from_rotation_z(placing.angle));
    // A faint preview of what a right-click places.
    draw_outline(
        &mut gizmos,
        &shape(placing.kind),
        &at,
        SHAPE_COLOR.with_alpha(0.3),
    );
    if mouse.just_pressed(MouseButton::Right) {
        commands.spawn((shape(placing.kind), CcdMaterial::new(0.95, 0.05), at));
    }
}

/// Every shape's outline, where its transform puts it.
fn draw_shapes(shapes: Query<(&CcdShape, &GlobalTransform)>, mut gizmos: Gizmos) {
    for (shape, at) in &shapes {
        draw_outline(&mut gizmos, shape, &at.compute_transform(), SHAPE_COLOR);
    }
}

fn draw_outline(gizmos: &mut Gizmos, shape: &CcdShape, at: &Transform, color: Color) {
    for line in shape.outlines() {
        gizmos.linestrip_2d(
            line.iter().map(|&p| at.transform_point(p.extend(0.0)).truncate()),
            color,
        );
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    balls: Query<Entity, With<MovingCircle>>,
    mut settings: ResMut<CcdSettings>,
    mut store: ResMut<GizmoConfigStore>,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::KeyC) {
        balls.iter().for_each(|b| commands.entity(b).despawn());
    }
    if keys.just_pressed(KeyCode::KeyG) {
        settings.gravity = if settings.gravity == Vec2::ZERO {
            Vec2::new(0.0, -900.0)
        } else {
            Vec2::ZERO
        };
    }
    if keys.just_pressed(KeyCode::F1) {
        let (config, _) = store.config_mut::<CcdGizmos>();
        config.enabled = !config.enabled;
    }
}

/// For the smoke screenshot: a few balls already flying, one being aimed.
fn demo_shots(mut commands: Commands, ball: Res<LabBall>, mut aim: ResMut<Aim>) {
    for (i, v) in [
        Vec2::new(2400.0, 900.0),
        Vec2::new(-1800.0, 2600.0),
        Vec2::new(3000.0, -1500.0),
    ]
    .into_iter()
    .enumerate()
    {
        ball.spawn(&mut commands, Vec2::new(-380.0 + 60.0 * i as f32, -80.0), v);
    }
    aim.from = Some(Vec2::new(-450.0, -200.0));
    aim.to = Vec2::new(-560.0, -260.0);
}
