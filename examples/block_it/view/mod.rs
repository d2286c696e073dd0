//! The looks: the room's walls drawn as thick bars that turn with it (the gates lit while
//! they are on, faint while they are off), the ball with a glow, the score large and faint
//! in the room's middle, and the overlays (`overlay.rs`): the aim line and the ghost ball;
//! and the ball's trail (`trail.rs`).

mod overlay;
pub mod palette;
mod trail;

use crate::game::{Game, Gates, Room};
use crate::room::Wall;
use crate::support::Circle2d;
use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::CircleCcdSystems;

/// The world's height the camera shows: the turning room's corners (at √2 times its
/// half side, plus a wall) stay in view with a margin.
const VIEW_HEIGHT: f32 = 600.0;
/// How far left of the room the camera looks, so the room sits in the space left of the
/// panel, world units.
const VIEW_SHIFT: f32 = 130.0;
/// The score's font size in the room's middle.
const SCORE_FONT: f32 = 160.0;
/// The glow's radius over the ball's.
const GLOW_SCALE: f32 = 2.2;

/// The looks.
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(palette::BACKGROUND))
            .init_resource::<trail::Trail>()
            .add_systems(Startup, setup)
            .add_systems(FixedUpdate, trail::record.after(CircleCcdSystems::Report))
            .add_systems(Update, (light_gates, show_score, overlay::draw, trail::draw));
    }
}

/// The gates' two looks.
#[derive(Resource)]
struct GateLooks {
    on: Handle<ColorMaterial>,
    off: Handle<ColorMaterial>,
}

/// A gate's bar.
#[derive(Component)]
struct GateBar;

/// The score's text.
#[derive(Component)]
struct ScoreText;

/// The hint under the score between games.
#[derive(Component)]
struct HintText;

/// The hint's font size, and how far under the room's middle it stands.
const HINT_FONT: f32 = 22.0;
const HINT_BELOW: f32 = 90.0;

fn setup(
    mut commands: Commands,
    room: Res<Room>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::FixedVertical {
                viewport_height: VIEW_HEIGHT,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(VIEW_SHIFT, 0.0, 0.0),
    ));
    let def = &room.def;
    let (h, t) = (def.half_size, def.wall_thickness);
    let looks = GateLooks {
        on: materials.add(palette::GATE_ON),
        off: materials.add(palette::GATE_OFF),
    };
    let wall = materials.add(palette::WALL);
    let bar = meshes.add(Rectangle::new(2.0 * (h + t), t));
    for (entity, side) in room.entities.walls.iter().zip(Wall::ALL) {
        // The bar lies outside the line the ball meets, in the wall's (the room's) frame.
        let (at, turn) = match side {
            Wall::Left => (Vec2::new(-h - t / 2.0, 0.0), true),
            Wall::Right => (Vec2::new(h + t / 2.0, 0.0), true),
            Wall::Upper => (Vec2::new(0.0, h + t / 2.0), false),
            Wall::Lower => (Vec2::new(0.0, -h - t / 2.0), false),
        };
        let rotation = if turn {
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)
        } else {
            Quat::IDENTITY
        };
        let material = if side.is_gate() {
            looks.off.clone()
        } else {
            wall.clone()
        };
        let mut child = commands.spawn((
            Mesh2d(bar.clone()),
            MeshMaterial2d(material),
            Transform::from_translation(at.extend(1.0)).with_rotation(rotation),
            ChildOf(*entity),
        ));
        if side.is_gate() {
            child.insert(GateBar);
        }
    }
    // The floor turns with the room: a child of the first wall.
    commands.spawn((
        Mesh2d(meshes.add(Rectangle::new(2.0 * h, 2.0 * h))),
        MeshMaterial2d(materials.add(palette::FLOOR)),
        Transform::from_xyz(0.0, 0.0, -1.0),
        ChildOf(room.entities.walls[0]),
    ));
    commands.spawn((
        Text2d::new("0"),
        TextFont::from_font_size(SCORE_FONT),
        TextColor(palette::SCORE),
        Transform::from_xyz(0.0, 0.0, -0.5),
        ScoreText,
    ));
    commands.spawn((
        Text2d::new(""),
        TextFont::from_font_size(HINT_FONT),
        TextColor(palette::GATE_ON),
        Transform::from_xyz(0.0, -HINT_BELOW, 2.0),
        HintText,
    ));
    let r = def.ball_radius;
    commands.entity(room.entities.ball).insert((
        Mesh2d(meshes.add(Circle2d(r))),
        MeshMaterial2d(materials.add(palette::BALL)),
        Visibility::default(),
    ));
    commands.spawn((
        Mesh2d(meshes.add(Circle2d(r * GLOW_SCALE))),
        MeshMaterial2d(materials.add(palette::GLOW)),
        Transform::from_xyz(0.0, 0.0, -0.5),
        ChildOf(room.entities.ball),
    ));
    commands.insert_resource(looks);
}

/// The gates lit while they are on.
fn light_gates(
    gates: Res<Gates>,
    looks: Option<Res<GateLooks>>,
    mut bars: Query<&mut MeshMaterial2d<ColorMaterial>, With<GateBar>>,
) {
    let Some(looks) = looks else {
        return;
    };
    let want = if gates.on() { &looks.on } else { &looks.off };
    for mut m in &mut bars {
        if m.0 != *want {
            m.0 = want.clone();
        }
    }
}

/// The score in the room's middle; between games, how to start the next.
fn show_score(
    game: Res<Game>,
    mut score: Query<&mut Text2d, (With<ScoreText>, Without<HintText>)>,
    mut hint: Query<&mut Text2d, (With<HintText>, Without<ScoreText>)>,
) {
    let hint_text = match (game.playing, game.games) {
        (true, _) => "",
        (false, 0) => "tap, click or Space to play",
        (false, _) => "game over: tap to play again",
    };
    set_text(&mut score, &game.score.to_string());
    set_text(&mut hint, hint_text);
}

/// Sets every text of `query` to `wanted`, touching only those that differ.
fn set_text<F: bevy::ecs::query::QueryFilter>(query: &mut Query<&mut Text2d, F>, wanted: &str) {
    for mut t in query.iter_mut() {
        if t.0 != wanted {
            wanted.clone_into(&mut t.0);
        }
    }
}
