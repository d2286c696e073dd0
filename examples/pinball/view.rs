//! The looks and the keys: lit wall strokes, a ball with a highlight, glowing bumpers,
//! capsule flippers, the score on the playfield, a camera that fits the table beside the
//! panel, pause and single step.

use crate::game::Table;
use crate::parts::{Flipper, PlungerShown};
use crate::rules::{Game, Part, PartHit};
use crate::spawn::Ball;
use crate::table::v;
use bevy::camera::ScalingMode;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// Empty space around the table inside the viewport, mm.
const MARGIN_MM: f32 = 30.0;
/// Thickness of the bright core of a wall stroke and of its glow, mm.
const STROKE_MM: f32 = 3.0;
const GLOW_MM: f32 = 10.0;

/// Length of the drawn plunger rod and how far a full pull draws it back, mm.
const PLUNGER_ROD_MM: f32 = 30.0;
const PLUNGER_TRAVEL_MM: f32 = 12.0;

const BACKGROUND: Color = Color::srgb(0.03, 0.035, 0.06);
const PLAYFIELD: Color = Color::srgb(0.07, 0.09, 0.16);
const WALL_CORE: Color = Color::srgb(0.55, 0.8, 1.0);
const WALL_GLOW: Color = Color::srgba(0.3, 0.55, 1.0, 0.25);

/// What the panel and F1 switch.
#[derive(Resource, Clone, Copy, PartialEq)]
pub struct ViewToggles {
    pub gizmos: bool,
    pub prediction: bool,
    pub interpolation: bool,
}

impl Default for ViewToggles {
    fn default() -> Self {
        Self {
            gizmos: false,
            prediction: false,
            interpolation: true,
        }
    }
}

/// Seconds left of a part's light-up after a hit.
#[derive(Component, Default)]
struct Flash(f32);

/// Flash length, seconds.
const FLASH_SECONDS: f32 = 0.18;

/// The colour an element shows at rest and when lit.
#[derive(Component)]
#[require(Flash)]
struct Glow {
    material: Handle<ColorMaterial>,
    base: Color,
    lit: Color,
}

#[derive(Component)]
struct ScoreText;

#[derive(Component)]
struct MessageText;

#[derive(Component)]
struct PlungerRod;

#[derive(Resource)]
struct BallLook {
    body: Handle<Mesh>,
    body_material: Handle<ColorMaterial>,
    shine: Handle<Mesh>,
    shine_material: Handle<ColorMaterial>,
}

pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(BACKGROUND))
            .init_resource::<ViewToggles>()
            .add_systems(Startup, (camera, draw_table.after(crate::spawn::spawn_table)))
            .add_systems(
                Update,
                (dress_balls, flash, lights, texts, plunger_rod, apply_toggles),
            );
    }
}

fn camera(mut commands: Commands, table: Res<Table>) {
    let size = Vec2::new(table.def.size.0, table.def.size.1) + 2.0 * MARGIN_MM;
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: size.x,
                min_height: size.y,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(table.def.center().extend(100.0)),
    ));
}

fn stroke(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    a: Vec2,
    b: Vec2,
    width: f32,
    material: Handle<ColorMaterial>,
    z: f32,
) -> Entity {
    let d = b - a;
    commands
        .spawn((
            Mesh2d(meshes.add(Rectangle::new(d.length() + width, width))),
            MeshMaterial2d(material),
            Transform::from_translation(((a + b) * 0.5).extend(z))
                .with_rotation(Quat::from_rotation_z(d.to_angle())),
        ))
        .id()
}

#[allow(clippy::too_many_arguments)]
/// A bar from `a` to `b` in entity `e`'s own frame, so it turns with it (a hinged part).
fn blade(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    e: Entity,
    (a, b): (Vec2, Vec2),
    width: f32,
    material: Handle<ColorMaterial>,
) {
    let along = b - a;
    let bar = (
        Mesh2d(meshes.add(Rectangle::new(along.length(), width))),
        MeshMaterial2d(material),
        Transform::from_translation(((a + b) * 0.5).extend(0.0))
            .with_rotation(Quat::from_rotation_z(along.to_angle())),
    );
    commands
        .entity(e)
        .insert(Visibility::default())
        .with_children(|c| {
            c.spawn(bar);
        });
}

fn draw_table(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    table: Res<Table>,
    parts: Query<(Entity, &Part, Option<&StaticSegment>, Option<&Pillar>)>,
    flippers: Query<(Entity, &Flipper)>,
) {
    let t = &table.def;
    // The playfield: a rectangle below the arch and a disc for the arch.
    let field = materials.add(PLAYFIELD);
    let ring = &table.ring;
    let top_y = ring.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let (w, h) = t.size;
    if let Some(arc) = t.outline.iter().find_map(|p| match p {
        crate::table::Piece::Arc { center, radius, .. } => Some((v(*center), *radius)),
        _ => None,
    }) {
        commands.spawn((
            Mesh2d(meshes.add(Circle::new(arc.1))),
            MeshMaterial2d(field.clone()),
            Transform::from_translation(arc.0.extend(-10.0)),
        ));
        commands.spawn((
            Mesh2d(meshes.add(Rectangle::new(w, arc.0.y))),
            MeshMaterial2d(field),
            Transform::from_translation(Vec2::new(w * 0.5, arc.0.y * 0.5).extend(-10.0)),
        ));
    } else {
        commands.spawn((
            Mesh2d(meshes.add(Rectangle::new(w, top_y.min(h)))),
            MeshMaterial2d(field),
            Transform::from_translation(Vec2::new(w * 0.5, h * 0.5).extend(-10.0)),
        ));
    }
    for def in &t.slingshots {
        let tri = Triangle2d::new(v(def.a), v(def.b), v(def.c));
        let fill = materials.add(Color::srgb(0.35, 0.12, 0.2));
        commands.spawn((
            Mesh2d(meshes.add(tri)),
            MeshMaterial2d(fill),
            Transform::from_xyz(0.0, 0.0, -4.0),
        ));
    }
    let core = materials.add(WALL_CORE);
    let glow = materials.add(WALL_GLOW);
    for (e, part, seg, pillar) in &parts {
        match (*part, seg, pillar) {
            (Part::Wall, Some(s), _) => {
                stroke(&mut commands, &mut meshes, s.a, s.b, GLOW_MM, glow.clone(), -2.0);
                stroke(
                    &mut commands,
                    &mut meshes,
                    s.a,
                    s.b,
                    STROKE_MM,
                    core.clone(),
                    -1.0,
                );
            }
            (Part::Flipper, None, Some(p)) => {
                // A flipper pivot.
                commands.entity(e).insert((
                    Mesh2d(meshes.add(Circle::new(p.radius))),
                    MeshMaterial2d(materials.add(Color::srgb(0.9, 0.9, 0.95))),
                ));
            }
            (Part::Gate, Some(s), _) => {
                let m = materials.add(Color::srgb(0.3, 1.0, 0.5));
                blade(&mut commands, &mut meshes, e, (s.a, s.b), STROKE_MM, m);
            }
            (Part::Spinner(_), Some(s), _) => {
                let m = materials.add(Color::srgb(0.95, 0.8, 0.3));
                blade(&mut commands, &mut meshes, e, (s.a, s.b), STROKE_MM * 1.5, m);
            }
            (Part::Drain, Some(s), _) => {
                let m = materials.add(Color::srgba(1.0, 0.2, 0.2, 0.25));
                stroke(&mut commands, &mut meshes, s.a, s.b, 2.0, m, -3.0);
            }
            (Part::SlingRubber, Some(s), _) => {
                let m = materials.add(Color::srgb(0.95, 0.95, 0.95));
                stroke(&mut commands, &mut meshes, s.a, s.b, 5.0, m, -1.0);
            }
            (Part::Sling(_), Some(s), _) => {
                let (base, lit) = (Color::srgb(1.0, 0.35, 0.5), Color::srgb(1.0, 0.95, 0.6));
                let m = materials.add(base);
                stroke(&mut commands, &mut meshes, s.a, s.b, 7.0, m.clone(), -1.0);
                commands.entity(e).insert(Glow {
                    material: m,
                    base,
                    lit,
                });
            }
            (Part::Bumper(_), _, Some(p)) => {
                let (base, lit) = (
                    Color::srgba(1.0, 0.3, 0.1, 0.15),
                    Color::srgba(1.0, 0.85, 0.3, 0.9),
                );
                let halo = materials.add(base);
                commands.entity(e).insert((
                    Glow {
                        material: halo.clone(),
                        base,
                        lit,
                    },
                    Visibility::default(),
                ));
                commands.entity(e).with_children(|c| {
                    c.spawn((
                        Mesh2d(meshes.add(Circle::new(p.radius + 12.0))),
                        MeshMaterial2d(halo),
                        Transform::from_xyz(0.0, 0.0, -3.0),
                    ));
                    c.spawn((
                        Mesh2d(meshes.add(Circle::new(p.radius))),
                        MeshMaterial2d(materials.add(Color::srgb(0.85, 0.2, 0.15))),
                        Transform::from_xyz(0.0, 0.0, -1.0),
                    ));
                    c.spawn((
                        Mesh2d(meshes.add(Circle::new(p.radius * 0.62))),
                        MeshMaterial2d(materials.add(Color::srgb(1.0, 0.8, 0.35))),
                        Transform::from_xyz(0.0, 0.0, -0.5),
                    ));
                });
            }
            (Part::Rollover(_), Some(s), _) => {
                let (base, lit) = (Color::srgb(0.2, 0.25, 0.35), Color::srgb(0.3, 1.0, 0.9));
                let m = materials.add(base);
                let mid = (s.a + s.b) * 0.5;
                stroke(
                    &mut commands,
                    &mut meshes,
                    mid - Vec2::X * 7.0,
                    mid + Vec2::X * 7.0,
                    6.0,
                    m.clone(),
                    -2.5,
                );
                commands.entity(e).insert(Glow {
                    material: m,
                    base,
                    lit,
                });
            }
            (Part::Target(_), Some(s), _) => {
                let (base, lit) = (Color::srgb(1.0, 0.6, 0.1), Color::srgb(0.25, 0.2, 0.15));
                let m = materials.add(base);
                stroke(
                    &mut commands,
                    &mut meshes,
                    s.a + Vec2::X * 2.0,
                    s.b - Vec2::X * 2.0,
                    8.0,
                    m.clone(),
                    -1.0,
                );
                commands.entity(e).insert(Glow {
                    material: m,
                    base,
                    lit,
                });
            }
            _ => {}
        }
    }
    for (e, f) in &flippers {
        let h = f.thickness * 0.5;
        let len = f.length - h;
        commands
            .entity(e)
            .insert((Visibility::default(), TransformInterpolation))
            .with_children(|c| {
                c.spawn((
                    Mesh2d(meshes.add(Capsule2d::new(h, len))),
                    MeshMaterial2d(materials.add(Color::srgb(0.95, 0.95, 1.0))),
                    Transform::from_xyz(len * 0.5, 0.0, 0.0)
                        .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
                ));
                c.spawn((
                    Mesh2d(meshes.add(Capsule2d::new(h * 0.45, len))),
                    MeshMaterial2d(materials.add(Color::srgb(1.0, 0.45, 0.2))),
                    Transform::from_xyz(len * 0.5, 0.0, 0.5)
                        .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
                ));
            });
    }
    // The plunger rod.
    let pl = &t.plunger;
    commands.spawn((
        Mesh2d(meshes.add(Rectangle::new(16.0, PLUNGER_ROD_MM))),
        MeshMaterial2d(materials.add(Color::srgb(0.75, 0.75, 0.8))),
        Transform::from_xyz(pl.ball_at.0, 0.0, -1.5),
        PlungerRod,
    ));
    // Score and message, on the playfield.
    let c = t.center();
    commands.spawn((
        Text2d::new(""),
        TextFont {
            font_size: FontSize::Px(30.0),
            ..default()
        },
        TextColor(Color::srgb(1.0, 0.85, 0.4)),
        Transform::from_xyz(c.x - 17.0, h * 0.93, 5.0),
        ScoreText,
    ));
    commands.spawn((
        Text2d::new(""),
        TextFont {
            font_size: FontSize::Px(20.0),
            ..default()
        },
        TextColor(Color::srgb(0.7, 0.9, 1.0)),
        Transform::from_xyz(c.x - 17.0, h * 0.47, 5.0),
        MessageText,
    ));
    let ball = BallLook {
        body: meshes.add(Circle::new(t.ball_radius)),
        body_material: materials.add(Color::srgb(0.78, 0.8, 0.86)),
        shine: meshes.add(Circle::new(t.ball_radius * 0.32)),
        shine_material: materials.add(Color::srgba(1.0, 1.0, 1.0, 0.9)),
    };
    commands.insert_resource(ball);
}

/// Give new balls their look (and interpolation).
fn dress_balls(
    mut commands: Commands,
    look: Option<Res<BallLook>>,
    toggles: Res<ViewToggles>,
    new: Query<Entity, Added<Ball>>,
) {
    let Some(look) = look else {
        return;
    };
    for e in &new {
        let mut ec = commands.entity(e);
        ec.insert((
            Mesh2d(look.body.clone()),
            MeshMaterial2d(look.body_material.clone()),
        ))
        .with_children(|c| {
            c.spawn((
                Mesh2d(look.shine.clone()),
                MeshMaterial2d(look.shine_material.clone()),
                Transform::from_xyz(-4.0, 4.5, 0.5),
            ));
        });
        if toggles.interpolation {
            ec.insert(TransformInterpolation);
        }
        if toggles.prediction {
            ec.insert(PredictPath::default());
        }
    }
}

/// Light up what the rules say was hit, and fade it out.
fn flash(
    time: Res<Time>,
    mut hits: MessageReader<PartHit>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut lit: Query<(&mut Flash, &Glow, &Part)>,
) {
    for hit in hits.read() {
        // Lanes and targets keep the state the game gives them (see `lights`).
        if !matches!(hit.part, Part::Rollover(_) | Part::Target(_))
            && let Ok((mut f, _, _)) = lit.get_mut(hit.entity)
        {
            f.0 = FLASH_SECONDS;
        }
    }
    for (mut f, glow, part) in &mut lit {
        if f.0 <= 0.0 || matches!(part, Part::Rollover(_) | Part::Target(_)) {
            continue;
        }
        f.0 = (f.0 - time.delta_secs()).max(0.0);
        let k = (f.0 / FLASH_SECONDS).clamp(0.0, 1.0);
        if let Some(mut m) = materials.get_mut(&glow.material) {
            m.color = glow.base.mix(&glow.lit, k);
        }
    }
}

/// Lanes stay lit and targets stay down as the game says.
fn lights(game: Res<Game>, mut materials: ResMut<Assets<ColorMaterial>>, parts: Query<(&Part, &Glow)>) {
    if !game.is_changed() {
        return;
    }
    for (part, glow) in &parts {
        let on = match *part {
            Part::Rollover(k) => game.rollovers_lit.get(k).copied().unwrap_or(false),
            Part::Target(k) => game.targets_down.get(k).copied().unwrap_or(false),
            _ => continue,
        };
        if let Some(mut m) = materials.get_mut(&glow.material) {
            m.color = if on { glow.lit } else { glow.base };
        }
    }
}

fn texts(
    game: Res<Game>,
    table: Res<Table>,
    mut score: Query<&mut Text2d, (With<ScoreText>, Without<MessageText>)>,
    mut message: Query<&mut Text2d, (With<MessageText>, Without<ScoreText>)>,
) {
    if !game.is_changed() {
        return;
    }
    for mut t in &mut score {
        t.0 = if game.game_over && game.games > 0 {
            format!("{}\nHIGH {}", game.score, game.high_score)
        } else {
            format!(
                "{}\nBALL {} / {}",
                game.score,
                game.ball_number.max(1),
                table.def.balls_per_game
            )
        };
    }
    for mut t in &mut message {
        t.0.clone_from(&game.message);
    }
}

fn plunger_rod(
    shown: Res<PlungerShown>,
    table: Res<Table>,
    mut rod: Query<&mut Transform, With<PlungerRod>>,
) {
    let floor = table.def.plunger.ball_at.1 - table.def.ball_radius;
    for mut tf in &mut rod {
        // The rod's top sits under the ball and drops as it is pulled.
        tf.translation.y = floor - PLUNGER_ROD_MM * 0.5 - PLUNGER_TRAVEL_MM * shown.0;
    }
}

fn apply_toggles(
    toggles: Res<ViewToggles>,
    mut store: ResMut<GizmoConfigStore>,
    mut commands: Commands,
    balls: Query<(Entity, Has<TransformInterpolation>, Has<PredictPath>), With<Ball>>,
    flippers: Query<(Entity, Has<TransformInterpolation>), With<Flipper>>,
) {
    let (config, _) = store.config_mut::<CcdGizmos>();
    config.enabled = toggles.gizmos;
    let interpolated = balls.iter().map(|(e, i, _)| (e, i)).chain(flippers.iter());
    for (e, has) in interpolated {
        set_component(&mut commands, e, has, toggles.interpolation, || {
            TransformInterpolation
        });
    }
    for (e, _, has) in &balls {
        set_component(&mut commands, e, has, toggles.prediction, PredictPath::default);
    }
}

/// Insert or remove a component so that its presence matches `want`.
fn set_component<C: Component>(
    commands: &mut Commands,
    e: Entity,
    has: bool,
    want: bool,
    make: impl Fn() -> C,
) {
    if want && !has {
        commands.entity(e).insert(make());
    } else if has && !want {
        commands.entity(e).remove::<C>();
    }
}
