//! The circles in and out of the step: gathered from the world in the query's order
//! (checked, and converted to `ccd_core`'s [`Ball`]s), and their ends written back.
//!
//! The write-back spreads over Bevy's compute pool when the step does
//! ([`CcdSettings::threads`]): `par_iter_mut`, each circle finding its ball through its
//! entity's index ([`CircleBuffers::slots`]). (Bevy runs `par_iter_mut` on the calling
//! thread alone when its pool has one thread, its default on two cores.) The gather stays
//! on one thread: the balls' order is the query's, which the step's results follow.
//! (Gathering two halves of the query on two threads was tried: on a two-core machine
//! waking the second thread cost more than its half, 190 µs against 150 for 10,000
//! circles.) When nothing but walls can meet a circle there is no gather at all: each is
//! stepped as it is read (`lone.rs`), with the helpers here.
//!
//! [`CcdSettings::threads`]: crate::CcdSettings::threads

use crate::components::{CcdInvalid, CcdRide, check_mass};
use crate::query::{CirclePartsItem, CirclePartsReadOnlyItem, Circles};
use bevy::prelude::*;
use ccd_core::{Ball, MultiballScratch, RideTally, ShapeError};

/// What a step did with the circles: the core's report (or what it would be), the
/// circles stepped and those refused.
pub(crate) struct Stepped {
    pub(crate) report: ccd_core::MultiballReport,
    pub(crate) circles: u32,
    pub(crate) skipped: u32,
}

/// The circles of the step, kept between steps so that a warm step allocates nothing.
#[derive(Default)]
pub(crate) struct CircleBuffers {
    /// The valid circles' balls and entities, in the query's order.
    pub(crate) balls: Vec<Ball>,
    pub(crate) entities: Vec<Entity>,
    /// By entity index: where its ball is in `balls` (filled for a parallel write-back;
    /// an entry left from an earlier step is checked against `entities`).
    slots: Vec<u32>,
}

/// Fill the buffers with every valid circle, in the query's order (and, for a parallel
/// write-back, where each entity's ball is), mark the invalid ones by command, and return
/// how many were skipped.
pub(crate) fn gather_circles(
    circles: &Circles,
    buffers: &mut CircleBuffers,
    slots: bool,
    commands: &mut Commands,
) -> u32 {
    buffers.balls.clear();
    buffers.entities.clear();
    let mut skipped = 0;
    let defaults = Defaults::new();
    for parts in circles.iter() {
        let ball = match checked_ball(&parts, &defaults) {
            Ok(ball) => ball,
            Err((field, reason)) => {
                skipped += 1;
                crate::components::mark_invalid(commands, parts.entity, parts.invalid, field, reason);
                continue;
            }
        };
        if parts.invalid {
            commands.entity(parts.entity).try_remove::<CcdInvalid>();
        }
        if slots {
            let index = parts.entity.index_u32() as usize;
            if index >= buffers.slots.len() {
                buffers.slots.resize(index + 1, u32::MAX);
            }
            buffers.slots[index] = buffers.balls.len() as u32;
        }
        buffers.balls.push(ball);
        buffers.entities.push(parts.entity);
    }
    skipped
}

/// Write every stepped circle's centre and velocity back: on the pool's threads if
/// `parallel` (each entity finds its ball through [`CircleBuffers::slots`]), else in the
/// order they were gathered (the query's order, unchanged within this system), skipping
/// the invalid ones, with no per-entity lookup.
pub(crate) fn write_back(
    circles: &mut Circles,
    buffers: &CircleBuffers,
    scratch: &MultiballScratch,
    parallel: bool,
) {
    let CircleBuffers {
        balls,
        entities,
        slots,
        ..
    } = buffers;
    if parallel {
        circles.par_iter_mut().for_each(|mut parts| {
            // A slot left from an earlier step may name another entity's ball, or none.
            let slot = slots.get(parts.entity.index_u32() as usize);
            if let Some(&k) = slot
                && entities.get(k as usize) == Some(&parts.entity)
                && let Some(ball) = balls.get(k as usize)
            {
                write(&mut parts, ball.center, ball.velocity, scratch.ride(k as usize));
            }
        });
        return;
    }
    let mut gathered = balls.iter().zip(entities.iter()).enumerate().peekable();
    for mut parts in circles {
        if let Some((k, (ball, _))) = gathered.next_if(|(_, (_, e))| **e == parts.entity) {
            write(&mut parts, ball.center, ball.velocity, scratch.ride(k));
        }
    }
}

/// A circle's end written back: its centre and velocity.
#[inline]
pub(crate) fn write(parts: &mut CirclePartsItem, center: Vec2, velocity: Vec2, ride: RideTally) {
    parts.transform.translation.x = center.x;
    parts.transform.translation.y = center.y;
    // A circle in free flight keeps its velocity: not marked changed then. (Compared as
    // bits: a zero's sign is kept as the step left it.)
    let bits = |v: Vec2| v.to_array().map(f32::to_bits);
    if bits(parts.circle.velocity) != bits(velocity) {
        parts.circle.velocity = velocity;
    }
    // Changed only when it changes: most steps ride nothing.
    let ride = CcdRide::from(ride);
    if let Some(tally) = &mut parts.ride
        && **tally != ride
    {
        **tally = ride;
    }
}

/// The circle as `ccd_core` sees it, or its bad field and why.
#[inline]
pub(crate) fn checked_ball(
    parts: &CirclePartsReadOnlyItem,
    defaults: &Defaults,
) -> Result<Ball, (&'static str, String)> {
    let ball = gather(parts, defaults);
    if !plainly_valid(parts, &ball) {
        check_circle(parts)?;
    }
    Ok(ball)
}

/// The bad field of a circle, if any.
fn check_circle(parts: &CirclePartsReadOnlyItem) -> Result<(), (&'static str, String)> {
    if parts.parented {
        return Err(("ChildOf", crate::components::PARENTED.to_owned()));
    }
    let circle = parts.circle;
    circle.validate().map_err(|e| match e {
        ShapeError::NonFinite { field: "velocity" } => ("MovingCircle.velocity", given(e, circle.velocity)),
        _ => ("MovingCircle.radius", given(e, circle.radius)),
    })?;
    let center = parts.transform.translation.truncate();
    if !center.is_finite() {
        let e = ShapeError::NonFinite { field: "translation" };
        return Err(("Transform.translation", given(e, center)));
    }
    match parts.mass {
        Some(m) => check_mass("CcdMass", m.0).map_err(|e| ("CcdMass", given(e, m.0)))?,
        // Without a mass the area stands for it; a point (radius 0) has none, and the core
        // gives it unit mass.
        None if parts.circle.radius > 0.0 => {
            let area = core::f32::consts::PI * parts.circle.radius * parts.circle.radius;
            check_mass("MovingCircle.radius", area).map_err(|_| {
                let e = ShapeError::OutOfRange {
                    field: "MovingCircle.radius",
                    range: "0, or such that its area π r² (its mass, without a CcdMass) and 1 / area are finite",
                };
                ("MovingCircle.radius", given(e, parts.circle.radius))
            })?;
        }
        None => {}
    }
    if let Some(m) = parts.material
        && let Err(e) = m.validate()
    {
        return Err((e.field(), crate::components::quoted(e, m.given(e.field()))));
    }
    if let Some(limit) = parts.max_speed
        && !(limit.0 >= 0.0)
    {
        let e = ShapeError::OutOfRange {
            field: "CcdMaxSpeed",
            range: "not negative and not NaN (f32::INFINITY for no limit)",
        };
        return Err(("CcdMaxSpeed", given(e, limit.0)));
    }
    if let Some(scale) = parts.gravity_scale
        && !scale.0.is_finite()
    {
        let e = ShapeError::OutOfRange {
            field: "CcdGravityScale",
            range: "finite (1 for the world's gravity, 0 for none, −1 for it turned upwards)",
        };
        return Err(("CcdGravityScale", given(e, scale.0)));
    }
    Ok(())
}

/// A refusal's reason with the value given: what is accepted, then what was written.
fn given(reason: impl core::fmt::Display, value: impl core::fmt::Display) -> String {
    crate::components::quoted(reason, Some(value.to_string()))
}

/// Whether a plain circle (no mass, material, speed limit or gravity scale of its own, not
/// parented)
/// passes [`check_circle`], read off the ball [`gather`] made of it: a finite centre and
/// velocity, a positive finite radius, and a positive area whose inverse (the ball's
/// inverse mass) is finite. Every test is taken (`&`): one branch for the common case. Anything else goes
/// to `check_circle`, which names the bad field.
fn plainly_valid(parts: &CirclePartsReadOnlyItem, ball: &Ball) -> bool {
    let area = core::f32::consts::PI * ball.radius * ball.radius;
    !parts.parented
        & parts.mass.is_none()
        & parts.material.is_none()
        & parts.max_speed.is_none()
        & parts.gravity_scale.is_none()
        & parts.circle.velocity.is_finite()
        & parts.transform.translation.is_finite()
        & ball.radius.is_finite()
        & (ball.radius > 0.0)
        & (area > 0.0)
        & area.is_finite()
        & ball.inverse_mass.is_finite()
}

/// What a circle without its own material, layers or response gets, converted once a
/// step rather than once a circle.
pub(crate) struct Defaults {
    material: ccd_core::Material,
    layers: ccd_core::Layers,
    response: ccd_core::ResponseMode,
}

impl Defaults {
    pub(crate) fn new() -> Self {
        Self {
            material: crate::components::CcdMaterial::default().into(),
            layers: crate::components::CcdLayers::default().into(),
            response: crate::components::CircleResponse::default().into(),
        }
    }
}

/// A circle as `ccd_core` sees it.
fn gather(parts: &CirclePartsReadOnlyItem, defaults: &Defaults) -> Ball {
    let center = parts.transform.translation.truncate();
    let mut ball = Ball::new(center, parts.circle.velocity, parts.circle.radius);
    if let Some(m) = parts.mass {
        ball.inverse_mass = 1.0 / m.0;
    }
    ball.material = parts.material.map_or(defaults.material, |&m| m.into());
    ball.layers = parts.layers.map_or(defaults.layers, |&l| l.into());
    ball.response = parts.response.map_or(defaults.response, |&r| r.into());
    ball.max_speed = parts.max_speed.map_or(f32::INFINITY, |m| m.0);
    ball.gravity_scale = parts.gravity_scale.map_or(1.0, |s| s.0);
    ball
}
