//! [`CcdShape`]: the shapes beside [`StaticSegment`](crate::StaticSegment) and
//! [`Pillar`](crate::Pillar): capsules, exact arcs, chains, polygons and boxes, alone or
//! several on one entity. One entity is one body, static, [`Kinematic`](crate::Kinematic)
//! or hinged, whatever its shape.

use bevy::prelude::*;
use ccd_core::{Capsule, CircleArc, Obstacle, ObstacleShape, Polygon, Polyline, ShapeError};

/// A shape in its entity's local space, placed in the world by its `Transform` (and its
/// ancestors', for a static one), as a [`StaticSegment`](crate::StaticSegment) is.
///
/// Each part becomes one or more of the core's obstacles: a capsule or an arc one, a
/// chain or a polygon one per edge. A [`CircleHit`](crate::CircleHit) on it names the
/// entity and the part it touched ([`CircleHit::part`](crate::CircleHit::part)).
///
/// The transform may turn and move the shape freely, and scale it uniformly; a scale that
/// differs between the axes would make an arc an ellipse and a capsule's ends ovals, so it
/// is refused for them (with a warning naming `Transform`), and a mirroring scale is
/// refused where it would swap sides (an arc, a one-sided chain).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
/// # let mut world = World::new();
/// // A brick, a rounded paddle, and an orbit's outer rail (a quarter turn of radius 200).
/// world.spawn((CcdShape::rect(Vec2::new(30.0, 10.0)), Transform::from_xyz(0.0, 300.0, 0.0)));
/// world.spawn((CcdShape::capsule(Vec2::new(-40.0, 0.0), Vec2::new(40.0, 0.0), 8.0), Transform::default()));
/// world.spawn(CcdShape::arc(Vec2::ZERO, 200.0, 0.0, std::f32::consts::FRAC_PI_2));
/// ```
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub enum CcdShape {
    /// A segment from `a` to `b` grown by `radius`.
    Capsule {
        /// First end of the core segment.
        a: Vec2,
        /// Second end.
        b: Vec2,
        /// How far the surface lies from the core, world units at scale 1.
        radius: f32,
    },
    /// A circular arc from angle `start` counter-clockwise to `end` (radians from +x),
    /// grown by `thickness` (0 for a rail), met from inside or outside.
    Arc {
        /// The circle's centre.
        center: Vec2,
        /// The circle's radius.
        radius: f32,
        /// Where it starts.
        start: f32,
        /// Where it ends, counter-clockwise from `start` (at most a full turn on).
        end: f32,
        /// How far the surface lies from the curve.
        thickness: f32,
    },
    /// A chain of points joined by segments; one-sided with [`OneSided`](crate::OneSided)
    /// (its front is the left as one walks the points).
    Polyline {
        /// The points, in order.
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        closed: bool,
    },
    /// A closed, solid polygon, either winding.
    Polygon {
        /// The corners.
        points: Vec<Vec2>,
    },
    /// Several shapes as one body (a paddle made of a box and two arcs).
    Compound(Vec<CcdShape>),
}

impl CcdShape {
    /// A capsule around the segment from `a` to `b`.
    #[must_use]
    pub const fn capsule(a: Vec2, b: Vec2, radius: f32) -> Self {
        Self::Capsule { a, b, radius }
    }

    /// A rail along the arc of `radius` around `center` from `start` to `end`.
    #[must_use]
    pub const fn arc(center: Vec2, radius: f32, start: f32, end: f32) -> Self {
        Self::Arc {
            center,
            radius,
            start,
            end,
            thickness: 0.0,
        }
    }

    /// A band: the arc grown by `thickness`.
    #[must_use]
    pub const fn band(center: Vec2, radius: f32, start: f32, end: f32, thickness: f32) -> Self {
        Self::Arc {
            center,
            radius,
            start,
            end,
            thickness,
        }
    }

    /// An open chain through `points`.
    #[must_use]
    pub fn polyline(points: impl Into<Vec<Vec2>>) -> Self {
        Self::Polyline {
            points: points.into(),
            closed: false,
        }
    }

    /// A closed chain through `points`.
    #[must_use]
    pub fn closed_polyline(points: impl Into<Vec<Vec2>>) -> Self {
        Self::Polyline {
            points: points.into(),
            closed: true,
        }
    }

    /// A solid polygon with corners `points`.
    #[must_use]
    pub fn polygon(points: impl Into<Vec<Vec2>>) -> Self {
        Self::Polygon {
            points: points.into(),
        }
    }

    /// A solid box of half-size `half_size`, centred on the entity.
    #[must_use]
    pub fn rect(half_size: Vec2) -> Self {
        Self::polygon(Polygon::rect(Vec2::ZERO, half_size, 0.0).points)
    }

    /// Several shapes as one body.
    #[must_use]
    pub fn compound(parts: impl Into<Vec<CcdShape>>) -> Self {
        Self::Compound(parts.into())
    }

    /// The shape's surface in its local space, as polylines (one per part, a closed one
    /// ending where it starts): for drawing it.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_circle_ccd::prelude::*;
    /// let brick = CcdShape::rect(Vec2::new(2.0, 1.0));
    /// assert_eq!(brick.outlines(), vec![vec![
    ///     Vec2::new(-2.0, -1.0), Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0), Vec2::new(-2.0, 1.0), Vec2::new(-2.0, -1.0),
    /// ]]);
    /// ```
    #[must_use]
    pub fn outlines(&self) -> Vec<Vec<Vec2>> {
        if let Some(round) = self.round_part() {
            return vec![round.outline()];
        }
        match self {
            Self::Polyline { points, closed } => {
                let mut line = points.clone();
                if *closed {
                    line.extend(points.first().copied());
                }
                vec![line]
            }
            Self::Polygon { points } => {
                let mut ring = points.clone();
                ring.extend(points.first().copied());
                vec![ring]
            }
            Self::Compound(parts) => parts.iter().flat_map(Self::outlines).collect(),
            Self::Capsule { .. } | Self::Arc { .. } => Vec::new(),
        }
    }

    /// A capsule or an arc as the core's shape, in local space (`None` for the others).
    fn round_part(&self) -> Option<ObstacleShape> {
        match *self {
            Self::Capsule { a, b, radius } => Some(ObstacleShape::Capsule(Capsule::new(a, b, radius))),
            Self::Arc {
                center,
                radius,
                start,
                end,
                thickness,
            } => Some(ObstacleShape::Arc(
                CircleArc::new(center, radius, start, end).with_thickness(thickness),
            )),
            Self::Polyline { .. } | Self::Polygon { .. } | Self::Compound(_) => None,
        }
    }

    /// `Ok` when every part is usable in its local space; else the field at fault
    /// (`CcdShape.points`, `CcdShape.radius`, …) and why: fewer than 2 points (3 closed),
    /// a repeated point, a polygon that crosses itself, an arc of zero radius or span, a
    /// negative radius or thickness, a NaN.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_circle_ccd::prelude::*;
    /// let bow_tie = CcdShape::polygon([Vec2::ZERO, Vec2::ONE, Vec2::X, Vec2::Y]);
    /// assert_eq!(bow_tie.validate().unwrap_err().0, "CcdShape.points");
    /// ```
    pub fn validate(&self) -> Result<(), (&'static str, ShapeError)> {
        match self {
            Self::Capsule { .. } | Self::Arc { .. } => self
                .round_part()
                .map_or(Ok(()), |shape| shape.validate().map_err(|e| (round_field(e), e))),
            Self::Polyline { points, closed } => Polyline {
                points: points.clone(),
                closed: *closed,
            }
            .validate()
            .map_err(|e| ("CcdShape.points", e)),
            Self::Polygon { points } => Polygon::new(points.clone())
                .validate()
                .map_err(|e| ("CcdShape.points", e)),
            Self::Compound(parts) => parts.iter().try_for_each(Self::validate),
        }
    }

    /// The value written in `field` ([`validate`](Self::validate)'s names), to quote back
    /// in a refusal: of a compound, its first part that `validate` refuses by that field.
    pub(crate) fn given(&self, field: &str) -> Option<String> {
        /// Points quoted in full up to this many; past it, the first ones and the count.
        const QUOTED_POINTS: usize = 8;
        let points = |points: &[Vec2]| {
            let shown: Vec<String> = points.iter().take(QUOTED_POINTS).map(Vec2::to_string).collect();
            let more = points.len().saturating_sub(QUOTED_POINTS);
            let tail = if more > 0 {
                format!(", … {more} more")
            } else {
                String::new()
            };
            format!("{} points [{}{tail}]", points.len(), shown.join(", "))
        };
        Some(match (self, field) {
            (Self::Capsule { a, .. }, "CcdShape.a") => a.to_string(),
            (Self::Capsule { b, .. }, "CcdShape.b") => b.to_string(),
            (Self::Capsule { radius, .. } | Self::Arc { radius, .. }, "CcdShape.radius") => {
                radius.to_string()
            }
            (Self::Arc { center, .. }, "CcdShape.center") => center.to_string(),
            (Self::Arc { start, end, .. }, "CcdShape.start" | "CcdShape.end") => {
                format!("start {start}, end {end}")
            }
            (Self::Arc { thickness, .. }, "CcdShape.thickness") => thickness.to_string(),
            (Self::Polyline { points: p, .. } | Self::Polygon { points: p }, "CcdShape.points") => points(p),
            (Self::Compound(parts), _) => parts
                .iter()
                .find(|part| part.validate().is_err_and(|(f, _)| f == field))?
                .given(field)?,
            _ => return None,
        })
    }

    /// How many of the core's obstacles it becomes (the parts a hit can name).
    #[must_use]
    pub fn part_count(&self) -> usize {
        match self {
            Self::Capsule { .. } | Self::Arc { .. } => 1,
            Self::Polyline { points, closed } => Polyline {
                points: points.clone(),
                closed: *closed,
            }
            .edge_count(),
            Self::Polygon { points } => points.len(),
            Self::Compound(parts) => parts.iter().map(Self::part_count).sum(),
        }
    }
}

impl Default for CcdShape {
    /// A box of half-size 1.
    fn default() -> Self {
        Self::rect(Vec2::ONE)
    }
}

/// How a shape's local space is placed in the world: a point map, and the turn, scale and
/// mirroring it applies.
pub(crate) struct ShapePlacement<'a> {
    /// Local point to world point.
    pub(crate) place: &'a dyn Fn(Vec2) -> Vec2,
    /// The turn, radians counter-clockwise.
    pub(crate) angle: f32,
    /// The scale along the local axes.
    pub(crate) scale: Vec2,
    /// Whether the placement mirrors.
    pub(crate) mirrored: bool,
    /// The field named for a placement that makes good local values bad.
    pub(crate) field: &'static str,
}

/// One of the core's obstacles a shape became, with the indices, among its own shape's
/// points, of the two ends of its segment (a chain's or a polygon's edge; 0 and 1 for a
/// segment's, a capsule's or an arc's ends).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Part {
    pub(crate) obstacle: Obstacle,
    pub(crate) ends: [u32; 2],
}

impl Part {
    /// A part whose ends are its shape's points 0 and 1.
    pub(crate) fn single(obstacle: Obstacle) -> Self {
        Self {
            obstacle,
            ends: [0, 1],
        }
    }
}

/// Relative difference between the axes' scales below which a scale is uniform.
const UNIFORM_SCALE_REL: f32 = 1e-5;

impl ShapePlacement<'_> {
    /// The uniform scale, or the error naming the placement.
    pub(crate) fn uniform(&self) -> Result<f32, (&'static str, ShapeError)> {
        let (x, y) = (self.scale.x.abs(), self.scale.y.abs());
        if (x - y).abs() <= UNIFORM_SCALE_REL * x.max(y) && x.is_finite() {
            Ok(x)
        } else {
            Err((
                self.field,
                ShapeError::OutOfRange {
                    field: "scale",
                    range: "uniform (equal on both axes) on a pillar, a capsule or an arc",
                },
            ))
        }
    }

    /// An error unless the placement keeps sides (no mirror).
    fn unmirrored(&self, what: &'static str) -> Result<(), (&'static str, ShapeError)> {
        if self.mirrored {
            Err((
                self.field,
                ShapeError::OutOfRange {
                    field: "scale",
                    range: what,
                },
            ))
        } else {
            Ok(())
        }
    }
}

/// The world-space obstacles of `shape` (plain: no material, flags or layers yet),
/// appended to `out`, or the field at fault. `one_sided` asks for one-sided chains.
pub(crate) fn build_shape(
    shape: &CcdShape,
    at: &ShapePlacement,
    one_sided: bool,
    out: &mut Vec<Part>,
) -> Result<(), (&'static str, ShapeError)> {
    shape.validate()?;
    place_shape(shape, at, one_sided, out)
}

/// [`build_shape`] for a shape whose local values are good: a failure is the placement's.
fn place_shape(
    shape: &CcdShape,
    at: &ShapePlacement,
    one_sided: bool,
    out: &mut Vec<Part>,
) -> Result<(), (&'static str, ShapeError)> {
    match shape {
        CcdShape::Capsule { a, b, radius } => {
            let world = Capsule::new((at.place)(*a), (at.place)(*b), radius * at.uniform()?);
            world.validate().map_err(|e| (at.field, e))?;
            out.push(Part::single(Obstacle::capsule(world)));
        }
        CcdShape::Arc {
            center,
            radius,
            start,
            end,
            thickness,
        } => {
            at.unmirrored("unmirrored on an arc (a mirror reverses its angles)")?;
            let scale = at.uniform()?;
            let world = CircleArc::new(
                (at.place)(*center),
                radius * scale,
                start + at.angle,
                end + at.angle,
            )
            .with_thickness(thickness * scale);
            world.validate().map_err(|e| (at.field, e))?;
            out.push(Part::single(Obstacle::arc(world)));
        }
        CcdShape::Polyline { points, closed } => {
            if one_sided {
                at.unmirrored("unmirrored on a OneSided chain (a mirror swaps its sides)")?;
            }
            let world = Polyline {
                points: points.iter().map(|&p| (at.place)(p)).collect(),
                closed: *closed,
            };
            world.validate().map_err(|e| (at.field, e))?;
            let n = points.len() as u32;
            out.extend(Obstacle::polyline(&world).zip(0..).map(|(obstacle, i)| Part {
                obstacle,
                ends: [i, (i + 1) % n],
            }));
        }
        CcdShape::Polygon { points } => {
            let world = Polygon::new(points.iter().map(|&p| (at.place)(p)).collect::<Vec<_>>());
            world.validate().map_err(|e| (at.field, e))?;
            let n = points.len() as u32;
            // Counter-clockwise corners give edges that run backwards (see `Polygon::edges`).
            let backwards = world.twice_signed_area() > 0.0;
            out.extend(Obstacle::polygon(&world).zip(0..).map(|(obstacle, i)| {
                let (from, to) = (i, (i + 1) % n);
                Part {
                    obstacle,
                    ends: if backwards { [to, from] } else { [from, to] },
                }
            }));
        }
        CcdShape::Compound(parts) => {
            for part in parts {
                place_shape(part, at, one_sided, out)?;
            }
        }
    }
    Ok(())
}

/// The solid polygons of `shape` in the world, placed by `place`, appended to `out` (for
/// the audit: a circle must never end up inside one).
pub(crate) fn polygons_of(shape: &CcdShape, place: &dyn Fn(Vec2) -> Vec2, out: &mut Vec<Polygon>) {
    match shape {
        CcdShape::Polygon { points } => {
            out.push(Polygon::new(points.iter().map(|&p| place(p)).collect::<Vec<_>>()))
        }
        CcdShape::Compound(parts) => {
            for part in parts {
                polygons_of(part, place, out);
            }
        }
        CcdShape::Capsule { .. } | CcdShape::Arc { .. } | CcdShape::Polyline { .. } => {}
    }
}

/// The [`CcdShape::Capsule`] or [`CcdShape::Arc`] field a validation error names.
fn round_field(e: ShapeError) -> &'static str {
    match e.field() {
        "a" => "CcdShape.a",
        "b" => "CcdShape.b",
        "center" => "CcdShape.center",
        "radius" => "CcdShape.radius",
        "start" => "CcdShape.start",
        "thickness" => "CcdShape.thickness",
        _ => "CcdShape.end",
    }
}
