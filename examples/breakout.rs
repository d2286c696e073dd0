//! Breakout in one file, on the plugin's public API: walls, a kinematic box paddle, box
//! bricks that go on their first contact, and a ball at 2,400 u/s (20 units a step at
//! 120 Hz: more than a brick is thick, so a naive engine would pass through them).
//!
//! `cargo run --release --example breakout` (← → to steer, else the paddle follows the
//! ball); `--headless SECONDS` runs without a window and exits 1 if the ball ever left the
//! room.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;
use std::time::Duration;

/// The room's half width and half height, world units.
const ROOM: Vec2 = Vec2::new(300.0, 220.0);
const BALL_RADIUS: f32 = 6.0;
const BALL_SPEED: f32 = 2400.0;
const PADDLE_HALF: Vec2 = Vec2::new(40.0, 6.0);
const PADDLE_Y: f32 = -190.0;
const PADDLE_SPEED: f32 = 900.0;
const BRICK_HALF: Vec2 = Vec2::new(24.0, 8.0);
const STEP_HZ: f64 = 120.0;

#[derive(Component)]
struct Paddle;

/// How the run went: impacts heard, and steps at whose end the ball was out of the room.
#[derive(Resource, Default, Clone, Copy)]
struct Score {
    hits: u32,
    escapes: u32,
}

fn main() -> AppExit {
    let headless = std::env::args().skip_while(|a| a != "--headless").nth(1);
    let mut app = App::new();
    if headless.is_some() {
        let step = Duration::from_secs_f64(1.0 / STEP_HZ);
        app.add_plugins((MinimalPlugins, TransformPlugin))
            .insert_resource(TimeUpdateStrategy::ManualDuration(step));
    } else {
        app.add_plugins(DefaultPlugins).add_systems(Update, draw);
    }
    app.add_plugins(CircleCcdPlugin::default())
        .insert_resource(Time::<Fixed>::from_hz(STEP_HZ))
        .init_resource::<Score>()
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, steer)
        .add_systems(FixedPostUpdate, (hear, watch).after(CircleCcdSystems::Report));
    match headless {
        Some(seconds) => run_headless(&mut app, seconds.parse().unwrap_or(3.0)),
        None => app.run(),
    }
}

/// `seconds` of play, one fixed step an update; exit 1 if the ball ever left the room.
fn run_headless(app: &mut App, seconds: f64) -> AppExit {
    app.finish();
    app.cleanup();
    for _ in 0..(seconds * STEP_HZ).ceil() as u32 {
        app.update();
    }
    let mut bricks = app.world_mut().query::<&CcdContactEvents>();
    let left = bricks.iter(app.world()).count();
    let Score { hits, escapes } = *app.world().resource::<Score>();
    println!("{seconds} s: {hits} impacts, {left} bricks left, {escapes} escapes");
    AppExit::from_code(u8::from(escapes > 0))
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    let corners = vec![
        -ROOM,
        Vec2::new(ROOM.x, -ROOM.y),
        ROOM,
        Vec2::new(-ROOM.x, ROOM.y),
    ];
    commands.spawn((CcdShape::closed_polyline(corners), Transform::default()));
    commands.spawn((
        CcdShape::rect(PADDLE_HALF),
        Kinematic::FollowTransform,
        Paddle,
        Sprite::from_color(Color::srgb(0.9, 0.9, 1.0), 2.0 * PADDLE_HALF),
        Transform::from_xyz(0.0, PADDLE_Y, 0.0),
    ));
    for row in 0..5 {
        for column in 0..10 {
            let at = Vec2::new(-270.0 + 60.0 * column as f32, 60.0 + 24.0 * row as f32);
            let look = Sprite::from_color(Color::hsl(36.0 * row as f32, 0.7, 0.6), 2.0 * BRICK_HALF);
            let place = Transform::from_translation(at.extend(0.0));
            let mut brick = commands.spawn((CcdShape::rect(BRICK_HALF), CcdContactEvents, look, place));
            brick.observe(|start: On<CcdContactStartedEvent>, mut commands: Commands| {
                commands.entity(start.entity).despawn();
            });
        }
    }
    let ball = MovingCircle::new(BALL_RADIUS, Vec2::new(0.6, 0.8) * BALL_SPEED);
    // The paddle's push could speed it up: capped at its serve speed, at the contact.
    let place = Transform::from_xyz(0.0, -120.0, 1.0);
    commands.spawn((ball, CcdMaxSpeed(BALL_SPEED), place));
}

/// The room's walls and the ball, drawn as lines.
fn draw(mut gizmos: Gizmos, ball: Query<&Transform, With<MovingCircle>>) {
    gizmos.rect_2d(Isometry2d::IDENTITY, 2.0 * ROOM, Color::srgb(0.5, 0.6, 0.8));
    for t in &ball {
        gizmos.circle_2d(t.translation.truncate(), BALL_RADIUS, Color::WHITE);
    }
}

/// The paddle goes where the keys say, or under the ball, no faster than its top speed.
fn steer(
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    ball: Query<&Transform, (With<MovingCircle>, Without<Paddle>)>,
    mut paddle: Query<&mut Transform, With<Paddle>>,
) {
    let (Ok(ball), Ok(mut paddle)) = (ball.single(), paddle.single_mut()) else {
        return;
    };
    let key = |k| keys.as_ref().is_some_and(|keys| keys.pressed(k));
    let wanted = match (key(KeyCode::ArrowLeft), key(KeyCode::ArrowRight)) {
        (true, false) => -ROOM.x,
        (false, true) => ROOM.x,
        _ => ball.translation.x,
    };
    let reach = PADDLE_SPEED * time.delta_secs();
    let x = paddle.translation.x + (wanted - paddle.translation.x).clamp(-reach, reach);
    paddle.translation.x = x.clamp(-ROOM.x + PADDLE_HALF.x, ROOM.x - PADDLE_HALF.x);
}

/// A hit sound's stand-in: one line per impact (a ball resting on something is silent).
fn hear(mut hits: MessageReader<CircleHit>, mut score: ResMut<Score>) {
    for hit in hits.read() {
        score.hits += 1;
        println!("tock: {:.0} u/s", hit.speed);
    }
}

/// Count the steps that end with the ball outside the room.
fn watch(ball: Query<&Transform, With<MovingCircle>>, mut score: ResMut<Score>) {
    let out = |t: &&Transform| {
        t.translation
            .truncate()
            .abs()
            .cmpgt(ROOM - BALL_RADIUS + 1e-3)
            .any()
    };
    score.escapes += ball.iter().filter(out).count() as u32;
}
