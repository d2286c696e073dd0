//! Debug gizmos: segments with normals, pillars, last step's swept paths and contacts, and
//! predicted paths. Behind the `debug-draw` feature. The paths are recorded here too (each
//! circle's start, its contacts and its end), so the step itself records nothing.

use crate::components::{CcdGravityScale, CcdMaterial, CircleResponse, MovingCircle, PredictPath};
use crate::kinematic::Kinematics;
use crate::plugin::CircleCcdSystems;
use crate::settings::CcdSettings;
use crate::step::{StepHits, report_hits};
use crate::world::CcdWorld;
use bevy::color::Color;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::gizmos::config::{GizmoConfigGroup, GizmoConfigStore};
use bevy::gizmos::prelude::*;
use bevy::prelude::*;
use ccd_core::{Circle, ObstacleShape, Parabola, PathLeg, PredictSettings, SweepSettings};

/// Draws what the CCD sees, in its own gizmo group [`CcdGizmos`]. Toggle it with
/// `GizmoConfigStore::config_mut::<CcdGizmos>().0.enabled`.
#[derive(Debug, Clone, Default)]
pub struct CcdDebugPlugin;

/// The gizmo group of [`CcdDebugPlugin`], with what to draw.
#[derive(Reflect, GizmoConfigGroup, Debug, Clone)]
#[reflect(Default)]
pub struct CcdGizmos {
    /// Segments and pillars. Default `true`.
    pub obstacles: bool,
    /// Segment normals (front side), this long in world units. Default 8; 0 hides them.
    pub normal_length: f32,
    /// Each circle's path during the last step, and its contacts. Default `true`.
    pub swept_paths: bool,
    /// Predicted paths of circles with [`PredictPath`]. Default `true`.
    pub predictions: bool,
}

impl Default for CcdGizmos {
    fn default() -> Self {
        Self {
            obstacles: true,
            normal_length: 8.0,
            swept_paths: true,
            predictions: true,
        }
    }
}

/// Every circle's path during the last step, for the debug gizmos.
#[derive(Resource, Default, Debug, Clone)]
pub struct LastStepPaths {
    /// Path vertices of all circles, back to back: start, each contact centre, end.
    pub points: Vec<Vec2>,
    /// Each circle's path.
    pub paths: Vec<SweptPath>,
    /// Seconds from the step's start to each vertex of `points`.
    times: Vec<f32>,
    /// Every contact of the last step.
    pub contacts: Vec<ContactMark>,
    /// Where each circle started the step.
    starts: Vec<PathStart>,
    /// The contact centres of each circle.
    centers: Vec<PathCenter>,
}

impl LastStepPaths {
    /// The legs of `path`, one between each two vertices that are apart in time, each the
    /// curve under the gravity the circle felt ([`SweptPath::gravity`]) through both (see
    /// [`leg_between`]).
    pub fn legs<'a>(&'a self, path: &'a SweptPath) -> impl Iterator<Item = PathLeg> + 'a {
        let points = &self.points[path.points.clone()];
        let times = &self.times[path.points.clone()];
        points
            .windows(2)
            .zip(times.windows(2))
            .filter_map(|(p, t)| leg_between(p[0], t[0], p[1], t[1], path.gravity))
    }
}

/// The leg from `from` at `start` to `to` at `end` (seconds) under `gravity`: the one
/// parabola through both, with start velocity `(to − from)/T − ½·g·T` over `T = end −
/// start`. `None` when `T` is not above zero (two contacts at one instant).
///
/// A settled ball's slide (straight, see `ccd_core`'s multiball module) is drawn by the
/// same curve, which bows off it by at most `|g_n|·T²/8`: a hair at the step rates of a
/// game.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::leg_between;
/// // Dropped from rest at y = 10 under g = 10: after 1 s it is at y = 5, and halfway
/// // through at 10 − ½·10·0.5² = 8.75.
/// let leg = leg_between(Vec2::new(0.0, 10.0), 0.0, Vec2::new(0.0, 5.0), 1.0, Vec2::new(0.0, -10.0)).unwrap();
/// assert!(leg.curve.velocity.length() < 1e-6);
/// assert!((leg.point(0.5) - Vec2::new(0.0, 8.75)).length() < 1e-5);
/// assert!((leg.end() - Vec2::new(0.0, 5.0)).length() < 1e-5);
/// ```
#[must_use]
pub fn leg_between(from: Vec2, start: f32, to: Vec2, end: f32, gravity: Vec2) -> Option<PathLeg> {
    let duration = end - start;
    if !(duration > 0.0) || !from.is_finite() || !to.is_finite() || !gravity.is_finite() {
        return None;
    }
    let velocity = (to - from) / duration - 0.5 * gravity * duration;
    Some(PathLeg {
        start: from,
        curve: Parabola::new(velocity, gravity, duration),
    })
}

/// One circle's path in [`LastStepPaths`].
#[derive(Clone, Debug, PartialEq)]
pub struct SweptPath {
    /// The circle.
    pub entity: Entity,
    /// Its radius.
    pub radius: f32,
    /// The gravity it felt: the step's, by its [`CcdGravityScale`]. Between two vertices
    /// a circle in flight follows a parabola under it ([`LastStepPaths::legs`]).
    pub gravity: Vec2,
    /// The range of its vertices in [`LastStepPaths::points`]: its start, each contact
    /// centre, its end.
    pub points: std::ops::Range<usize>,
}

/// A contact of the last step, as [`LastStepPaths`] keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactMark {
    /// The contact point, on the other's surface.
    pub point: Vec2,
    /// The normal there, towards the circle.
    pub normal: Vec2,
}

/// Where a circle started the step.
#[derive(Clone, Copy, Debug)]
struct PathStart {
    entity: Entity,
    radius: f32,
    at: Vec2,
    gravity_scale: f32,
}

/// A circle's centre at one of its contacts.
#[derive(Clone, Copy, Debug)]
struct PathCenter {
    entity: Entity,
    time: f32,
    center: Vec2,
}

impl Plugin for CcdDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<CcdGizmos>()
            .init_resource::<LastStepPaths>()
            .add_systems(
                PostUpdate,
                draw.after(bevy::transform::TransformSystems::Propagate),
            );
    }

    /// The recording goes in the CCD plugin's schedule, known once every plugin is added
    /// (so the two can be added in either order).
    fn finish(&self, app: &mut App) {
        let schedule = app
            .get_added_plugins::<crate::plugin::CircleCcdPlugin>()
            .first()
            .map_or(FixedPostUpdate.intern(), |p| p.schedule);
        app.add_systems(
            schedule,
            (
                record_starts.in_set(CircleCcdSystems::Prepare),
                record_paths.in_set(CircleCcdSystems::Report).before(report_hits),
            ),
        );
    }
}

/// Where every circle starts the step.
fn record_starts(
    mut paths: ResMut<LastStepPaths>,
    circles: Query<(Entity, &MovingCircle, &Transform, Option<&CcdGravityScale>)>,
) {
    paths.starts.clear();
    paths
        .starts
        .extend(circles.iter().map(|(entity, c, t, scale)| PathStart {
            entity,
            radius: c.radius,
            at: t.translation.truncate(),
            gravity_scale: scale.map_or(1.0, |s| s.0),
        }));
}

/// The step's paths: each circle's start, its contact centres in time order, and its end.
fn record_paths(
    mut paths: ResMut<LastStepPaths>,
    hits: Res<StepHits>,
    settings: Res<CcdSettings>,
    time: Res<Time>,
    circles: Query<(&MovingCircle, &Transform)>,
) {
    let paths = &mut *paths;
    let dt = time.delta_secs();
    paths.points.clear();
    paths.times.clear();
    paths.paths.clear();
    paths.contacts.clear();
    paths.centers.clear();
    for h in &hits.0 {
        paths.contacts.push(ContactMark {
            point: h.point,
            normal: h.normal,
        });
        if h.sensor {
            continue;
        }
        paths.centers.push(PathCenter {
            entity: h.circle,
            time: h.time,
            center: h.center,
        });
        // The other side of a ball–ball contact: its centre is a radius behind the point.
        if let Ok((other, _)) = circles.get(h.other) {
            paths.centers.push(PathCenter {
                entity: h.other,
                time: h.time,
                center: h.point - h.normal * other.radius,
            });
        }
    }
    paths
        .centers
        .sort_by(|a, b| a.entity.cmp(&b.entity).then(a.time.total_cmp(&b.time)));
    paths.starts.sort_by_key(|s| s.entity);
    let mut cursor = 0;
    for &PathStart {
        entity,
        radius,
        at,
        gravity_scale,
    } in &paths.starts
    {
        let begin = paths.points.len();
        paths.points.push(at);
        paths.times.push(0.0);
        while cursor < paths.centers.len() && paths.centers[cursor].entity < entity {
            cursor += 1;
        }
        while cursor < paths.centers.len() && paths.centers[cursor].entity == entity {
            paths.points.push(paths.centers[cursor].center);
            paths.times.push(paths.centers[cursor].time);
            cursor += 1;
        }
        if let Ok((_, t)) = circles.get(entity) {
            paths.points.push(t.translation.truncate());
            paths.times.push(dt);
        }
        paths.paths.push(SweptPath {
            entity,
            radius,
            gravity: settings.gravity * gravity_scale,
            points: begin..paths.points.len(),
        });
    }
}

const WALL: Color = Color::srgb(0.55, 0.75, 1.0);
const KINEMATIC: Color = Color::srgb(1.0, 0.55, 0.95);
/// Hinged bodies the balls push.
const HINGE: Color = Color::srgb(0.45, 0.85, 1.0);
const NORMAL: Color = Color::srgb(0.3, 0.9, 0.4);
const PATH: Color = Color::srgb(1.0, 0.8, 0.2);
const CONTACT: Color = Color::srgb(1.0, 0.3, 0.3);
const PREDICTED: Color = Color::srgba(1.0, 1.0, 1.0, 0.6);
/// The radius of the ring drawn at each contact point, world units.
const CONTACT_MARK_RADIUS: f32 = 2.0;
/// Straight pieces a leg under gravity is drawn with, predicted or swept (a straight leg
/// takes one).
const CURVE_PIECES: u32 = 24;

/// What the prediction gizmos read of a circle.
type PredictParts<'a> = (
    &'a MovingCircle,
    &'a Transform,
    &'a PredictPath,
    Option<&'a CcdMaterial>,
    Option<&'a CircleResponse>,
    Option<&'a CcdGravityScale>,
);

/// What the gizmos draw from: their configuration, the world, the last step's paths and
/// the circles that predict theirs.
#[derive(SystemParam)]
struct DrawInput<'w, 's> {
    store: Res<'w, GizmoConfigStore>,
    world: Res<'w, CcdWorld>,
    kinematics: Res<'w, Kinematics>,
    paths: Res<'w, LastStepPaths>,
    settings: Res<'w, CcdSettings>,
    fixed: Res<'w, Time<Fixed>>,
    predict: Query<'w, 's, PredictParts<'static>>,
}

/// Draws what [`CcdGizmos`] asks for: the obstacles, the last step's swept paths and
/// contacts, and the predicted paths, in that order.
fn draw(mut gizmos: Gizmos<CcdGizmos>, input: DrawInput, mut scratch: Local<Vec<PathLeg>>) {
    let DrawInput {
        store,
        world,
        kinematics,
        paths,
        settings,
        fixed,
        predict,
    } = input;
    let (_, cfg) = store.config::<CcdGizmos>();
    if cfg.obstacles {
        draw_static_obstacles(&mut gizmos, cfg, &world);
        draw_moving_obstacles(&mut gizmos, cfg, &kinematics);
    }
    if cfg.swept_paths {
        draw_swept_paths(&mut gizmos, cfg, &paths);
    }
    if cfg.predictions {
        let dt = fixed.timestep().as_secs_f32();
        draw_predictions(&mut gizmos, &world, &settings, dt, &predict, &mut scratch);
    }
}

/// The static obstacles' outlines, with the front normals of one-sided segments and
/// chain edges.
fn draw_static_obstacles(gizmos: &mut Gizmos<CcdGizmos>, cfg: &CcdGizmos, world: &CcdWorld) {
    for (_, obstacle) in world.grid().iter() {
        gizmos.linestrip_2d(obstacle.shape.outline(), WALL);
        let face = match obstacle.shape {
            ObstacleShape::Segment(s) => Some(s),
            ObstacleShape::Edge(e) if obstacle.one_sided => Some(e.segment),
            _ => None,
        };
        if let Some(s) = face
            && let Some(n) = s.front_normal()
            && cfg.normal_length > 0.0
        {
            let mid = (s.a + s.b) * 0.5;
            gizmos.line_2d(mid, mid + n * cfg.normal_length, NORMAL);
        }
    }
}

/// Kinematic and hinged obstacles where the last step left them (their pose at its end); a
/// hinge with a dot at its pivot.
fn draw_moving_obstacles(gizmos: &mut Gizmos<CcdGizmos>, cfg: &CcdGizmos, kinematics: &Kinematics) {
    for m in &kinematics.moving {
        let motion = m.motion;
        let colour = if m.body().is_some() { HINGE } else { KINEMATIC };
        gizmos.linestrip_2d(motion.shape_at(m.obstacle.shape, 1.0).outline(), colour);
        if m.body().is_some() {
            gizmos.circle_2d(motion.pivot_at(1.0), cfg.normal_length * 0.25, HINGE);
        }
    }
}

/// Each circle's path during the last step, each leg drawn as its curve, with the circle
/// at its end, then every contact with its normal.
fn draw_swept_paths(gizmos: &mut Gizmos<CcdGizmos>, cfg: &CcdGizmos, paths: &LastStepPaths) {
    for path in &paths.paths {
        for leg in paths.legs(path) {
            gizmos.linestrip_2d(leg.points(CURVE_PIECES), PATH);
        }
        if let Some(last) = paths.points[path.points.clone()].last() {
            gizmos.circle_2d(*last, path.radius, PATH);
        }
    }
    for c in &paths.contacts {
        gizmos.circle_2d(c.point, CONTACT_MARK_RADIUS, CONTACT);
        gizmos.line_2d(c.point, c.point + c.normal * cfg.normal_length, CONTACT);
    }
}

/// The predicted path of every circle with [`PredictPath`], each leg drawn as its curve; a
/// circle whose prediction fails draws nothing. `dt` is the physics step (for the resting
/// speed).
fn draw_predictions(
    gizmos: &mut Gizmos<CcdGizmos>,
    world: &CcdWorld,
    settings: &CcdSettings,
    dt: f32,
    predict: &Query<PredictParts>,
    scratch: &mut Vec<PathLeg>,
) {
    for (circle, transform, request, material, response, scale) in predict {
        let settings = PredictSettings {
            max_bounces: request.max_bounces,
            max_time: request.max_time,
            gravity: settings.gravity * scale.map_or(1.0, |s| s.0),
            sweep: SweepSettings {
                max_bounces: settings.max_bounces,
                resting_speed: settings.resting_speed_for(dt),
                material: material.copied().unwrap_or_default().into(),
                response: response.copied().unwrap_or_default().into(),
                ..default()
            },
        };
        let start = Circle::new(transform.translation.truncate(), circle.radius);
        if world
            .predict_path(start, circle.velocity, &settings, scratch)
            .is_ok()
        {
            for leg in scratch.iter() {
                gizmos.linestrip_2d(leg.points(CURVE_PIECES), PREDICTED);
            }
        }
    }
}
