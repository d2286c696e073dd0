//! What the plugin reads of an obstacle and of a circle: one query type each, and one
//! builder that turns an obstacle's components into a [`ccd_core::Obstacle`], for the
//! static broadphase (`world.rs`) and the kinematic obstacles (`kinematic.rs`) alike.

use crate::components::{
    CcdDisabled, CcdGravityScale, CcdInvalid, CcdLayers, CcdMass, CcdMaterial, CcdMaxSpeed, CcdRide,
    CcdSensor, CircleResponse, Kicker, MovingCircle, OneSided, Pillar, StaticSegment,
};
use crate::shape::CcdShape;
use crate::shape::{Part, ShapePlacement, build_shape};
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use ccd_core::{Circle, Kick, Material, Obstacle, Segment, ShapeError};

/// An obstacle's CCD components.
#[derive(QueryData)]
pub(crate) struct ObstacleParts {
    pub(crate) segment: Option<&'static StaticSegment>,
    pub(crate) pillar: Option<&'static Pillar>,
    pub(crate) shape: Option<&'static CcdShape>,
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
    /// The world-space obstacles these components describe, appended to `out`: one for a
    /// segment or a pillar, one or more for a [`CcdShape`]. Local points are placed by
    /// `at` and a pillar is centred at `center`; `None` when the entity has no shape.
    /// `at.field` names what placed it, for a transform that turns good local values bad
    /// (NaN, scale 0, a mirror on a one-sided part). On an error `out` is left as it was.
    ///
    /// An entity has one shape component, [`StaticSegment`], [`Pillar`] or [`CcdShape`]:
    /// with two or more it is refused, the second named (several parts go in one
    /// [`CcdShape::Compound`]).
    pub(crate) fn build(
        &self,
        at: &ShapePlacement,
        center: Vec2,
        out: &mut Vec<Part>,
    ) -> Option<Result<(), Fault>> {
        let first = out.len();
        let built = self.build_plain(at, center, out)?.and_then(|()| self.material());
        Some(match built {
            Ok(material) => {
                for Part { obstacle, .. } in &mut out[first..] {
                    let one_sided = obstacle.one_sided || self.one_sided;
                    *obstacle = obstacle
                        .with_material(material)
                        .with_one_sided(one_sided)
                        .with_sensor(self.sensor)
                        .with_layers(self.layers.copied().unwrap_or_default().into());
                }
                Ok(())
            }
            Err(fault) => {
                out.truncate(first);
                Err(fault)
            }
        })
    }

    /// The shape's obstacles, with no material or flags yet.
    fn build_plain(
        &self,
        at: &ShapePlacement,
        center: Vec2,
        out: &mut Vec<Part>,
    ) -> Option<Result<(), Fault>> {
        if at.mirrored && self.one_sided && self.segment.is_some() {
            let error = ShapeError::OutOfRange {
                field: "scale",
                range: "unmirrored on a OneSided part (a mirror swaps its sides: swap the segment's ends instead)",
            };
            return Some(Err((at.field, error)));
        }
        Some(match (self.segment, self.pillar, self.shape) {
            (Some(s), None, None) => segment(s, at.place, at.field).map(|o| out.push(Part::single(o))),
            (None, Some(p), None) => pillar(p, center, at).map(|o| out.push(Part::single(o))),
            (None, None, Some(shape)) => build_shape(shape, at, self.one_sided, out),
            (None, None, None) => return None,
            (Some(_), Some(_), _) => Err(("Pillar", SEVERAL_SHAPES)),
            (_, _, Some(_)) => Err(("CcdShape", SEVERAL_SHAPES)),
        })
    }

    /// The value written in `field`, as a refusal names it, to quote back (`None` for a
    /// field these components do not hold, such as the placement's).
    pub(crate) fn given(&self, field: &str) -> Option<String> {
        let (material, kicker) = (self.material, self.kicker);
        Some(match field {
            "StaticSegment.a" => self.segment?.a.to_string(),
            "StaticSegment.b" => self.segment?.b.to_string(),
            "Pillar.radius" => self.pillar?.radius.to_string(),
            f if f.starts_with("CcdMaterial.") => material?.given(f)?,
            "Kicker.speed" => kicker?.speed.to_string(),
            "Kicker.threshold" => kicker?.threshold.to_string(),
            "Kicker.min_out" => kicker?.min_out.to_string(),
            "Kicker.speed_scale" => kicker?.speed_scale.to_string(),
            _ => return self.shape?.given(field),
        })
    }

    /// The material, with the kicker's kick.
    fn material(&self) -> Result<Material, Fault> {
        if let Some(Err(e)) = self.material.map(CcdMaterial::validate) {
            return Err((e.field(), e));
        }
        let kick = self.kicker.map_or(Kick::NONE, |&k| k.into());
        kick.validate().map_err(|e| (kicker_field(e), e))?;
        Ok(Material::from(self.material.copied().unwrap_or_default()).with_kick(kick))
    }
}

/// The [`Kicker`] field a [`Kick::validate`] error names.
fn kicker_field(e: ShapeError) -> &'static str {
    match e.field() {
        "kick.threshold" => "Kicker.threshold",
        "kick.min_out" => "Kicker.min_out",
        "kick.speed_scale" => "Kicker.speed_scale",
        _ => "Kicker.speed",
    }
}

fn segment(
    s: &StaticSegment,
    place: &dyn Fn(Vec2) -> Vec2,
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

/// Why an entity with two shape components is refused.
const SEVERAL_SHAPES: ShapeError = ShapeError::OutOfRange {
    field: "shape",
    range: "one of StaticSegment, Pillar and CcdShape on an entity (several parts go in one CcdShape::compound)",
};

/// The pillar: its radius scaled by the placement's uniform scale, as a capsule's is.
fn pillar(p: &Pillar, center: Vec2, at: &ShapePlacement) -> Result<Obstacle, Fault> {
    Circle::new(Vec2::ZERO, p.radius)
        .validate()
        .map_err(|e| ("Pillar.radius", e))?;
    let circle = Circle::new(center, p.radius * at.uniform()?);
    circle.validate().map_err(|e| (at.field, e))?;
    Ok(Obstacle::pillar(circle))
}

/// The moving circles the step sees: every one not held out by [`CcdDisabled`].
pub(crate) type Circles<'w, 's> = Query<'w, 's, CircleParts, Without<CcdDisabled>>;

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
    pub(crate) max_speed: Option<&'static CcdMaxSpeed>,
    pub(crate) gravity_scale: Option<&'static CcdGravityScale>,
    pub(crate) invalid: Has<CcdInvalid>,
    pub(crate) parented: Has<ChildOf>,
    /// Written with the circle's end, where present.
    pub(crate) ride: Option<&'static mut CcdRide>,
}
