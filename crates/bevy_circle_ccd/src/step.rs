//! The fixed step: gravity, then the multi-bounce sweep of every [`MovingCircle`], then the
//! report of every contact.

use crate::kinematic::Kinematics;
use crate::{
    CcdInvalid, CcdMass, CcdMaterial, CcdSettings, CcdStats, CcdWorld, CircleHit, CircleHitEvent,
    CircleResponse, CollisionLayers, MovingCircle,
};
use bevy::prelude::*;
use ccd_core::{
    Ball, Circle, ContactWith, MultiballScratch, MultiballSettings, ShapeError, SweepSettings, step_balls,
    sweep_bounces,
};
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
    Option<&'a CcdMass>,
);

/// Buffers of the event-driven path, kept between steps.
#[derive(Default)]
pub(crate) struct EventBuffers {
    scratch: MultiballScratch,
    balls: Vec<Ball>,
    entities: Vec<Entity>,
    path_points: Vec<(usize, f32, Vec2)>,
}

/// The bad field of a circle, if any.
fn check_circle(
    circle: &MovingCircle,
    center: Vec2,
    mass: Option<&CcdMass>,
) -> Result<(), (&'static str, ShapeError)> {
    circle.validate().map_err(|e| match e {
        ShapeError::NonFinite { field: "velocity" } => ("MovingCircle.velocity", e),
        _ => ("MovingCircle.radius", e),
    })?;
    if !center.is_finite() {
        return Err((
            "Transform.translation",
            ShapeError::NonFinite { field: "translation" },
        ));
    }
    if let Some(m) = mass
        && !(m.0.is_finite() && m.0 > 0.0)
    {
        return Err(("CcdMass", ShapeError::NegativeRadius { field: "mass" }));
    }
    Ok(())
}

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
    kinematics: Res<Kinematics>,
    mut buffers: Local<EventBuffers>,
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
    let use_events = !kinematics.moving.is_empty() || (settings.ball_ball && circles.iter().nth(1).is_some());
    if use_events {
        step_events(
            dt,
            gravity,
            resting_speed,
            &settings,
            &world,
            &kinematics,
            &mut circles,
            &mut hits,
            &mut step,
            paths.as_deref_mut(),
            &mut buffers,
            &mut commands,
        );
        step.kinematic = kinematics.moving.len() as u32;
        step.sensor_hits = hits.0.iter().filter(|h| h.sensor).count() as u32;
        step.total_hits += hits.0.len() as u64;
        step.step_micros = started.elapsed().as_secs_f32() * 1e6;
        *stats = step;
        return;
    }
    for (entity, mut circle, mut transform, material, layers, response, had_invalid, mass) in &mut circles {
        let center = transform.translation.truncate();
        if let Err((field, error)) = check_circle(&circle, center, mass) {
            step.skipped += 1;
            crate::mark_invalid(&mut commands, entity, had_invalid, field, error);
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

/// The event-driven path: every circle at once, with ball–ball contacts and moving
/// obstacles in time order (`ccd_core::step_balls`).
#[allow(clippy::too_many_arguments)]
fn step_events(
    dt: f32,
    gravity: Vec2,
    resting_speed: f32,
    settings: &CcdSettings,
    world: &CcdWorld,
    kinematics: &Kinematics,
    circles: &mut Query<CircleParts>,
    hits: &mut StepHits,
    step: &mut CcdStats,
    paths: Option<&mut LastStepPaths>,
    buffers: &mut EventBuffers,
    commands: &mut Commands,
) {
    let EventBuffers {
        scratch,
        balls,
        entities,
        path_points,
    } = buffers;
    balls.clear();
    entities.clear();
    for (entity, circle, transform, material, layers, response, had_invalid, mass) in circles.iter() {
        let center = transform.translation.truncate();
        if let Err((field, error)) = check_circle(circle, center, mass) {
            step.skipped += 1;
            crate::mark_invalid(commands, entity, had_invalid, field, error);
            continue;
        }
        if had_invalid {
            commands.entity(entity).try_remove::<CcdInvalid>();
        }
        let mut ball = Ball::new(center, circle.velocity + gravity * dt, circle.radius);
        if let Some(m) = mass {
            ball.inverse_mass = 1.0 / m.0;
        }
        ball.material = material.copied().unwrap_or_default().into();
        ball.layers = layers.copied().unwrap_or_default().into();
        ball.response = response.copied().unwrap_or_default().into();
        balls.push(ball);
        entities.push(entity);
    }
    let multiball = MultiballSettings {
        gravity,
        ball_ball: settings.ball_ball,
        max_bounces: settings.max_bounces,
        max_events: settings.max_events,
        resting_speed,
    };
    // Start points and radii, only when the debug paths are wanted.
    let starts: Option<Vec<(Vec2, f32)>> = paths
        .as_ref()
        .map(|_| balls.iter().map(|b| (b.center, b.radius)).collect());
    path_points.clear();
    let record = starts.as_deref();
    let report = step_balls(
        balls,
        dt,
        world.grid(),
        &kinematics.moving,
        &multiball,
        scratch,
        |c| {
            let other = match c.with {
                ContactWith::Obstacle(id) => world.entity(id),
                ContactWith::Moving(k) => kinematics.entities.get(k).copied(),
                ContactWith::Ball(j) => entities.get(j).copied(),
            };
            let Some(other) = other else {
                return;
            };
            hits.0.push(CircleHit {
                circle: entities[c.ball],
                other,
                point: c.hit.point,
                normal: c.hit.normal,
                center: c.hit.center,
                speed: c.approach_speed,
                time: c.time,
                sensor: c.sensor,
            });
            if let Some(starts) = record
                && !c.sensor
            {
                path_points.push((c.ball, c.time, c.hit.center));
                if let ContactWith::Ball(j) = c.with {
                    path_points.push((j, c.time, c.hit.point - c.hit.normal * starts[j].1));
                }
            }
        },
    );
    step.events = report.events;
    step.event_budget_hit = report.event_budget_hit;
    step.bounces = report.bounces;
    step.max_bounces_per_circle = report.max_bounces_per_ball;
    step.capped = report.capped_balls;
    step.circles = balls.len() as u32;
    for (ball, &entity) in balls.iter().zip(entities.iter()) {
        if let Ok((_, mut circle, mut transform, ..)) = circles.get_mut(entity) {
            transform.translation.x = ball.center.x;
            transform.translation.y = ball.center.y;
            circle.velocity = ball.velocity;
        }
    }
    if let (Some(paths), Some(starts)) = (paths, starts) {
        path_points.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut cursor = 0;
        for (k, ball) in balls.iter().enumerate() {
            let begin = paths.points.len();
            paths.points.push(starts[k].0);
            while cursor < path_points.len() && path_points[cursor].0 == k {
                paths.points.push(path_points[cursor].2);
                cursor += 1;
            }
            paths.points.push(ball.center);
            paths
                .paths
                .push((entities[k], ball.radius, begin..paths.points.len()));
        }
        for h in &hits.0 {
            paths.contacts.push((h.point, h.normal));
        }
    }
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
