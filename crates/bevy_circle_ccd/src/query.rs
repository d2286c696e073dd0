//! What the plugin reads of an obstacle and of a circle: one query type each, and one
//! builder that turns an obstacle's components into a [`ccd_core::Obstacle`], for the
//! static broadphase (`world.rs`) and the kinematic obstacles (`kinematic.rs`) alike.

use crate::{
    CcdInvalid, CcdLayers, CcdMass, CcdMaterial, CcdSensor, CircleResponse, Kicker, MovingCircle, OneSided,
    Pillar, StaticSegment,
};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use ccd_core::{Circle, Kick, Material, Obstacle, Segment, ShapeError};

/// An obstacle's CCD components.
#[derive(QueryData)]
pub(crate) struct ObstacleParts {
    pub(crate) segment: Option<&'static StaticSegment>,
    pub(crate) pillar: Option<&'static Pillar>,
    pub(crate) material: Option<&'static CcdMaterial>,
    pub(crate) kicker: Option<&'static Kicker>,
    pub(crate) one_sided: Has<OneSided>,
    pub(crate) sensor: Has<CcdSensor>,
    pub(crate) layers: Option<&'static CcdLayers>,
    pub(crate) invalid: Has<CcdInvalid>,
}

/// A field at fault, and why.
pub(crate) type Fault = (&'static str, ShapeError);

impl ObstaclePartsItem<'_, '_> {
    /// The world-space obstacle these components describe, its local points placed by
    /// `place` (a segment's end points) and its centre at `center` (a pillar); `None` when
    /// the entity is neither a segment nor a pillar. `place_field` names what placed it,
    /// for a transform that turns good local points bad (NaN, or scale 0); `mirrored` says
    /// that it mirrors (a negative scale on one axis), which would swap a one-sided
    /// segment's sides.
    pub(crate) fn build(
        &self,
        place: impl Fn(Vec2) -> Vec2,
        center: Vec2,
        place_field: &'static str,
        mirrored: bool,
    ) -> Option<Result<Obstacle, Fault>> {
        if mirrored && self.one_sided && self.segment.is_some() {
            let error = ShapeError::OutOfRange {
                field: "scale",
                range: "unmirrored on a OneSided part (a mirror swaps its sides: swap the segment's ends instead)",
            };
            return Some(Err((place_field, error)));
        }
        let shape = match (self.segment, self.pillar) {
            (Some(s), _) => segment(s, place, place_field),
            (None, Some(p)) => pillar(p, center, place_field),
            (None, None) => return None,
        };
        if let Some(Err(e)) = self.material.map(CcdMaterial::validate) {
            return Some(Err((e.field(), e)));
        }
        let kick = self.kicker.map_or(Kick::NONE, |&k| k.into());
        if let Err(e) = kick.validate() {
            return Some(Err((kicker_field(e), e)));
        }
        let material = Material::from(self.material.copied().unwrap_or_default()).with_kick(kick);
        Some(shape.map(|obstacle| {
            obstacle
                .with_material(material)
                .with_one_sided(self.one_sided)
                .with_sensor(self.sensor)
                .with_layers(self.layers.copied().unwrap_or_default().into())
        }))
    }
}

/// The [`Kicker`] field a [`Kick::validate`] error names.
fn kicker_field(e: ShapeError) -> &'static str {
    match e.field() {
        "kick.threshold" => "Kicker.threshold",
        "kick.min_out" => "Kicker.min_out",
        _ => "Kicker.speed",
    }
}

fn segment(
    s: &StaticSegment,
    place: impl Fn(Vec2) -> Vec2,
    place_field: &'static str,
) -> Result<Obstacle, Fault> {
    Segment::new(s.a, s.b).validate().map_err(|e| match e {
        ShapeError::NonFinite { field: "a" } => ("StaticSegment.a", e),
        _ => ("StaticSegment.b", e),
    })?;
    let world = Segment::new(place(s.a), place(s.b));
    // Local points were fine, so a failure here is the placement's.
    world.validate().map_err(|e| (place_field, e))?;
    Ok(Obstacle::segment(world))
}

fn pillar(p: &Pillar, center: Vec2, place_field: &'static str) -> Result<Obstacle, Fault> {
    let circle = Circle::new(center, p.radius);
    circle.validate().map_err(|e| match e {
        ShapeError::NonFinite { field: "center" } => (place_field, e),
        _ => ("Pillar.radius", e),
    })?;
    Ok(Obstacle::pillar(circle))
}

/// A moving circle's CCD components.
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct CircleParts {
    pub(crate) entity: Entity,
    pub(crate) circle: &'static mut MovingCircle,
    pub(crate) transform: &'static mut Transform,
    pub(crate) material: Option<&'static CcdMaterial>,
    pub(crate) layers: Option<&'static CcdLayers>,
    pub(crate) response: Option<&'static CircleResponse>,
    pub(crate) mass: Option<&'static CcdMass>,
    pub(crate) invalid: Has<CcdInvalid>,
    pub(crate) parented: Has<ChildOf>,
}
