//! The looks: the view dresses each part as it is spawned (walls, kickers, lanes and
//! targets, flippers), draws the balls with a shadow and a trail, lights the lamps, pops
//! up the points scored where the ball hit, and shows the score on a dot-matrix display
//! left of the table (an attract mode when no game runs). The camera fits the display
//! and the table beside the panel. Each idea has its own file:
//! - `palette.rs`: every colour and size;
//! - `paint.rs`: strokes, bars and discs;
//! - `walls.rs`, `kickers.rs`, `lanes.rs`, `flippers.rs`, `plunger.rs`: the table;
//! - `balls.rs`: the balls, their shadows and trails;
//! - `lights.rs`: flashes, lamps held by the game, the attract mode's chase;
//! - `popups.rs`: score pop-ups;
//! - `font.rs`, `dmd.rs`, `display.rs`: the dot-matrix display and what it shows.

mod balls;
mod display;
mod dmd;
mod flippers;
mod font;
mod inserts;
mod kickers;
mod lanes;
mod lights;
mod paint;
mod palette;
mod plunger;
mod popups;
mod toggles;
mod walls;

use crate::table::Table;
use crate::table::parts::{Ball, Flipper, Part};
use bevy::camera::ScalingMode;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_circle_ccd::TransformInterpolation;
use bevy_circle_ccd::prelude::*;
use kickers::BandPaint;
use paint::Painter;
use palette::{BACKGROUND, CAMERA_Z, DMD_BEZEL_MM, MARGIN_MM};
pub use toggles::ViewToggles;
use walls::WallPaint;

pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClearColor(BACKGROUND))
            .init_resource::<ViewToggles>()
            .init_resource::<WallPaint>()
            .init_resource::<dmd::DmdFrame>()
            .add_systems(PreUpdate, gizmos_key)
            .add_systems(
                Startup,
                (
                    camera,
                    walls::draw_playfield,
                    kickers::draw_sling_fills,
                    plunger::draw_plunger,
                    balls::ball_look,
                    dmd::spawn_dmd,
                ),
            )
            .add_systems(
                Update,
                (
                    (dress_parts, flippers::dress_flippers, balls::dress_balls),
                    (
                        lights::chase,
                        lights::lights,
                        inserts::progress_lights,
                        lights::flash,
                    )
                        .chain(),
                    (popups::spawn_popups, popups::float_popups).chain(),
                    (display::compose, dmd::show_frame).chain(),
                    (balls::trails, plunger::plunger_rod, apply_toggles),
                ),
            );
    }
}

/// The camera: the display and the table with a margin, fitted into the viewport (which
/// the panel sets to the space left of it).
fn camera(mut commands: Commands, table: Res<Table>) {
    let (w, h) = table.def.size;
    let scene = Rect::new(0.0, 0.0, w, h)
        .union(dmd::dmd_rect(&table).inflate(DMD_BEZEL_MM))
        .inflate(MARGIN_MM);
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: scene.width(),
                min_height: scene.height(),
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(scene.center().extend(CAMERA_Z)),
    ));
}

type NewPart<'a> = (
    Entity,
    &'a Part,
    Option<&'a StaticSegment>,
    Option<&'a Pillar>,
    Option<&'a CcdShape>,
    &'a Transform,
);

/// Dress each part of the table as it appears, by its kind.
fn dress_parts(
    mut p: Painter,
    wall_paint: Res<WallPaint>,
    mut bands: Local<BandPaint>,
    table: Res<Table>,
    new: Query<NewPart, Added<Part>>,
) {
    for (e, part, seg, pillar, shape, tf) in &new {
        // A shape (a chain, an arc) is dressed as the segments of its outline.
        if let (Some(shape), None) = (shape, seg) {
            let place = |q: Vec2| tf.transform_point(q.extend(0.0)).truncate();
            for line in shape.outlines() {
                for w in line.windows(2) {
                    let seg = Some((place(w[0]), place(w[1])));
                    match *part {
                        Part::Wall => walls::dress(&mut p, &wall_paint, e, *part, seg),
                        _ => inserts::dress(&mut p, &table, (e, *part), seg, None),
                    }
                }
            }
            continue;
        }
        let seg = seg.map(|s| (s.a, s.b));
        let pillar = pillar.map(|pl| (tf.translation.truncate(), pl.radius));
        match *part {
            Part::Wall | Part::Drain | Part::Gate | Part::Spinner(_) => {
                walls::dress(&mut p, &wall_paint, e, *part, seg);
            }
            Part::Sling(_) | Part::SlingRubber | Part::Bumper(_) => {
                kickers::dress(&mut p, &mut bands, (e, *part), seg, pillar);
            }
            Part::Rollover(_) | Part::Target(_) => lanes::dress(&mut p, e, *part, seg),
            Part::Flipper => {
                if let Some((_, radius)) = pillar {
                    flippers::dress_pivot(&mut p, e, radius);
                }
            }
            Part::Shot(_)
            | Part::RampEntry
            | Part::RampExit
            | Part::RampWall
            | Part::Saucer
            | Part::TopLane(_)
            | Part::Kickback
            | Part::Standup(_)
            | Part::Post => inserts::dress(&mut p, &table, (e, *part), seg, pillar),
        }
    }
}

/// F1 shows or hides the debug gizmos.
fn gizmos_key(keys: Res<ButtonInput<KeyCode>>, mut toggles: ResMut<ViewToggles>) {
    if keys.just_pressed(KeyCode::F1) {
        toggles.gizmos = !toggles.gizmos;
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
