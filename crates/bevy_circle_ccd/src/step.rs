//! The fixed step: gravity, then the multi-bounce sweep of every [`MovingCircle`], then the
//! report of every contact.

use crate::{
    CcdInvalid, CcdMaterial, CcdSettings, CcdStats, CcdWorld, CircleHit, CircleHitEvent, CircleResponse,
    CollisionLayers, MovingCircle,
};
use bevy::prelude::*;
use ccd_core::{Circle, SweepSettings, sweep_bounces};
use std::time::Instant;

/// The contacts of the current step, between [`step_circles`] and [`report_hits`].
#[derive(Resource, Default, Debug)]
pub(crate) struct StepHits(pub(crate) Vec<CircleHit>);

/// Every circle's path during the last step, for the debug gizmos. Filled only when the
/// resource exists (the debug plugin inserts it).
#[derive(Resource, Default, Debug, Clone)]
pub struct LastStepPaths {
    /// Path vertices of all circles, back to back: start, each contact centre, end.
    pub points: Vec<Vec2>,
    /// For each circle: its entity, its radius and the range of its vertices in `points`.
    pub paths: Vec<(Entity, f32, std::ops::Range<usize>)>,
    /// Every contact of the last step: point and normal.
    pub contacts: Vec<(Vec2, Vec2)>,
}

type CircleParts<'a> = (
    Entity,
    &'a mut MovingCircle,
    &'a mut Transform,
    Option<&'a CcdMaterial>,
    Option<&'a CollisionLayers>,
    Option<&'a CircleResponse>,
    Has<CcdInvalid>,
);

/// Move every circle through one step. Runs in
/// [`CircleCcdSystems::Step`](crate::CircleCcdSystems::Step).
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_circles(
    time: Res<Time>,
    settings: Res<CcdSettings>,
    world: Res<CcdWorld>,
    mut circles: Query<CircleParts>,
    mut hits: ResMut<StepHits>,
    mut stats: ResMut<CcdStats>,
    mut paths: Option<ResMut<LastStepPaths>>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    if !settings.enabled || !(dt > 0.0) {
        return;
    }
    let started = Instant::now();
    let gravity = if settings.gravity.is_finite() {
        settings.gravity
    } else {
        Vec2::ZERO
    };
    let resting_speed = settings.resting_speed_for(dt);
    let mut step = CcdStats {
        steps: stats.steps + 1,
        obstacles: world.len() as u32,
        total_hits: stats.total_hits,
        ..default()
    };
    if let Some(paths) = paths.as_deref_mut() {
        paths.points.clear();
        paths.paths.clear();
        paths.contacts.clear();
    }
    hits.0.clear();
    for (entity, mut circle, mut transform, material, layers, response, had_invalid) in &mut circles {
        let center = transform.translation.truncate();
        let checked = circle.validate().map(|()| ()).map_err(|e| (e, "MovingCircle"));
        let checked = checked.and_then(|()| {
            if center.is_finite() {
                Ok(())
            } else {
                Err((
                    ccd_core::ShapeError::NonFinite { field: "translation" },
                    "Transform",
                ))
            }
        });
        if let Err((error, component)) = checked {
            step.skipped += 1;
            let field = match error {
                ccd_core::ShapeError::NonFinite { field }
                | ccd_core::ShapeError::NegativeRadius { field }
                | ccd_core::ShapeError::ZeroLength { field } => field,
            };
            let name: &'static str = match (component, field) {
                ("Transform", _) => "Transform.translation",
                (_, "radius") => "MovingCircle.radius",
                _ => "MovingCircle.velocity",
            };
            crate::mark_invalid(&mut commands, entity, had_invalid, name, error);
            continue;
        }
        if had_invalid {
            commands.entity(entity).try_remove::<CcdInvalid>();
        }
        let velocity = circle.velocity + gravity * dt;
        let sweep = SweepSettings {
            max_bounces: settings.max_bounces,
            resting_speed,
            response: response.copied().unwrap_or_default().into(),
            material: material.copied().unwrap_or_default().into(),
            layers: layers.copied().unwrap_or_default().into(),
        };
        let path_start = paths.as_ref().map(|p| p.points.len());
        if let Some(paths) = paths.as_deref_mut() {
            paths.points.push(center);
        }
        let shape = Circle::new(center, circle.radius);
        let result = sweep_bounces(shape, velocity, dt, world.grid(), &sweep, |h| {
            let Some(other) = world.entity(h.obstacle) else {
                return;
            };
            hits.0.push(CircleHit {
                circle: entity,
                other,
                point: h.hit.point,
                normal: h.hit.normal,
                center: h.hit.center,
                speed: h.approach_speed,
                time: h.time,
                sensor: h.sensor,
            });
            if let Some(paths) = paths.as_deref_mut() {
                if !h.sensor {
                    paths.points.push(h.hit.center);
                }
                paths.contacts.push((h.hit.point, h.hit.normal));
            }
        });
        // Inputs were validated above, so this cannot fail; stay put if it somehow does.
        let Ok(out) = result else {
            step.skipped += 1;
            continue;
        };
        if let (Some(paths), Some(start)) = (paths.as_deref_mut(), path_start) {
            paths.points.push(out.center);
            let end = paths.points.len();
            paths.paths.push((entity, circle.radius, start..end));
        }
        step.circles += 1;
        step.bounces += out.bounces;
        step.max_bounces_per_circle = step.max_bounces_per_circle.max(out.bounces);
        step.capped += u32::from(out.capped);
        transform.translation.x = out.center.x;
        transform.translation.y = out.center.y;
        circle.velocity = out.velocity;
    }
    step.sensor_hits = hits.0.iter().filter(|h| h.sensor).count() as u32;
    step.total_hits += hits.0.len() as u64;
    step.step_micros = started.elapsed().as_secs_f32() * 1e6;
    *stats = step;
}

/// Write the step's contacts as messages, and trigger them on the entities involved.
/// Runs in [`CircleCcdSystems::Report`](crate::CircleCcdSystems::Report).
pub(crate) fn report_hits(
    mut hits: ResMut<StepHits>,
    settings: Res<CcdSettings>,
    mut writer: MessageWriter<CircleHit>,
    mut commands: Commands,
) {
    if hits.0.is_empty() {
        return;
    }
    if settings.entity_events {
        for hit in &hits.0 {
            commands.trigger(CircleHitEvent {
                entity: hit.other,
                hit: *hit,
            });
            commands.trigger(CircleHitEvent {
                entity: hit.circle,
                hit: *hit,
            });
        }
    }
    writer.write_batch(hits.0.drain(..));
}
