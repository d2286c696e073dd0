//! The plain value types every query takes: [`Circle`], [`Segment`] and [`Aabb`], and the
//! shapes a game is made of: [`Capsule`] (`shape/capsule.rs`), [`CircleArc`]
//! (`shape/arc.rs`), [`Polyline`] and [`Polygon`] as [`ChainEdge`]s (`shape/chain.rs`).

use crate::tolerance::{CHAIN_VERTEX_SLOP_REL, SEAM_FLAT_SIN};
use glam::Vec2;

/// Whether a contact at `point` is at the end point `end`, to the f32 rounding of the
/// coordinates ([`CHAIN_VERTEX_SLOP_REL`] of their scale).
#[inline]
pub(crate) fn is_point(point: Vec2, end: Vec2) -> bool {
    (point - end).abs().max_element() <= CHAIN_VERTEX_SLOP_REL * end.abs().max_element().max(1.0)
}

mod arc;
mod capsule;
mod chain;

pub(crate) use arc::ArcFrame;
pub use arc::CircleArc;
pub use capsule::Capsule;
pub use chain::{ChainEdge, Polygon, Polyline};

/// Why a shape, a motion or a setting cannot be used. It names the bad field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The named field holds a NaN or an infinity.
    NonFinite {
        /// The field's name, such as `"center"` or `"radius"`.
        field: &'static str,
    },
    /// The named radius is below zero.
    NegativeRadius {
        /// The field's name.
        field: &'static str,
    },
    /// The segment's two end points coincide. The queries treat such a segment as a point;
    /// a game object that means to be a wall has a bug.
    ZeroLength {
        /// The field's name.
        field: &'static str,
    },
    /// The named value is finite but outside the range it must lie in (a restitution above
    /// 1, a mass so small its inverse is infinite, a spring too stiff for the step).
    OutOfRange {
        /// The field's name.
        field: &'static str,
        /// What it must be, as a phrase: "in 0..=1".
        range: &'static str,
    },
    /// A chain or polygon has fewer points than it needs.
    TooFewPoints {
        /// The field's name.
        field: &'static str,
        /// How many it needs at least.
        least: u8,
    },
    /// A chain's point is NaN or infinite.
    NonFinitePoint {
        /// The field's name.
        field: &'static str,
        /// The point's index.
        index: usize,
    },
    /// A chain's point repeats the one before it (the closing point of a closed chain
    /// repeats the first): an edge of zero length.
    RepeatedPoint {
        /// The field's name.
        field: &'static str,
        /// The repeated point's index.
        index: usize,
    },
    /// Two edges of a polygon cross or touch (or two neighbours fold back onto each other).
    SelfIntersecting {
        /// The field's name.
        field: &'static str,
        /// The first edge's index (edge `i` starts at point `i`).
        first: usize,
        /// The second edge's index.
        second: usize,
    },
}

impl ShapeError {
    /// `Ok` for a finite `value ≥ 0`; else the error naming `field` (a negative value is
    /// [`ShapeError::NegativeRadius`], whose message reads "is negative").
    ///
    /// ```
    /// use ccd_core::ShapeError;
    /// assert_eq!(ShapeError::non_negative("speed", 2.0), Ok(()));
    /// assert_eq!(ShapeError::non_negative("speed", -1.0), Err(ShapeError::NegativeRadius { field: "speed" }));
    /// ```
    pub fn non_negative(field: &'static str, value: f32) -> Result<(), Self> {
        if !value.is_finite() {
            Err(Self::NonFinite { field })
        } else if value < 0.0 {
            Err(Self::NegativeRadius { field })
        } else {
            Ok(())
        }
    }

    /// The name of the field at fault.
    ///
    /// ```
    /// use ccd_core::ShapeError;
    /// assert_eq!(ShapeError::NonFinite { field: "radius" }.field(), "radius");
    /// ```
    #[inline]
    #[must_use]
    pub const fn field(&self) -> &'static str {
        match self {
            Self::NonFinite { field }
            | Self::NegativeRadius { field }
            | Self::ZeroLength { field }
            | Self::OutOfRange { field, .. }
            | Self::TooFewPoints { field, .. }
            | Self::NonFinitePoint { field, .. }
            | Self::RepeatedPoint { field, .. }
            | Self::SelfIntersecting { field, .. } => field,
        }
    }
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NonFinite { field } => write!(f, "`{field}` is not finite (NaN or infinity)"),
            Self::NegativeRadius { field } => write!(f, "`{field}` is negative"),
            Self::ZeroLength { field } => write!(f, "`{field}` has zero length (a == b)"),
            Self::OutOfRange { field, range } => write!(f, "`{field}` is out of range: it must be {range}"),
            Self::TooFewPoints { field, least } => {
                write!(f, "`{field}` has too few points: it needs {least}")
            }
            Self::NonFinitePoint { field, index } => {
                write!(f, "`{field}[{index}]` is not finite (NaN or infinity)")
            }
            Self::RepeatedPoint { field, index } => {
                write!(
                    f,
                    "`{field}[{index}]` repeats the point before it (an edge of zero length)"
                )
            }
            Self::SelfIntersecting { field, first, second } => {
                write!(f, "`{field}` crosses itself: edges {first} and {second} meet")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// A circle: a ball, a puck, a bullet, or a static pillar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// Centre, in world units.
    pub center: Vec2,
    /// Radius, in world units. Zero makes a point.
    pub radius: f32,
}

impl Circle {
    /// A circle at `center` with `radius`.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec2, radius: f32) -> Self {
        Self { center, radius }
    }

    /// The same circle moved to `center`.
    #[inline]
    #[must_use]
    pub const fn at(self, center: Vec2) -> Self {
        Self {
            center,
            radius: self.radius,
        }
    }

    /// `Ok` when the centre is finite and the radius is finite and not negative.
    ///
    /// ```
    /// use ccd_core::{Circle, ShapeError, Vec2};
    /// assert!(Circle::new(Vec2::ZERO, 1.0).validate().is_ok());
    /// assert_eq!(
    ///     Circle::new(Vec2::ZERO, -1.0).validate(),
    ///     Err(ShapeError::NegativeRadius { field: "radius" })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !self.center.is_finite() {
            return Err(ShapeError::NonFinite { field: "center" });
        }
        if !self.radius.is_finite() {
            return Err(ShapeError::NonFinite { field: "radius" });
        }
        if self.radius < 0.0 {
            return Err(ShapeError::NegativeRadius { field: "radius" });
        }
        Ok(())
    }

    /// The bounding box.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.center, self.center).inflated(self.radius)
    }
}

/// A line segment from `a` to `b`: a wall with two faces and two rounded end points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// First end point.
    pub a: Vec2,
    /// Second end point.
    pub b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b`.
    #[inline]
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Self { a, b }
    }

    /// `b - a`.
    #[inline]
    #[must_use]
    pub fn direction(&self) -> Vec2 {
        self.b - self.a
    }

    /// The front normal, `(b − a).perp()` normalized: the side a one-sided segment
    /// collides on. `None` for a zero-length segment.
    ///
    /// ```
    /// use ccd_core::{Segment, Vec2};
    /// let floor = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
    /// assert_eq!(floor.front_normal(), Some(Vec2::Y));
    /// ```
    #[inline]
    #[must_use]
    pub fn front_normal(&self) -> Option<Vec2> {
        self.direction().perp().try_normalize()
    }

    /// Whether the foot of `p` on the segment's line lies strictly between its ends.
    #[inline]
    pub(crate) fn holds_foot_of(&self, p: Vec2) -> bool {
        let d = self.direction();
        let along = (p - self.a).dot(d);
        along > 0.0 && along < d.length_squared()
    }

    /// `other`, as a face running on from this one's end `end`, when it shares that end
    /// and turns from this one by less than [`SEAM_FLAT_SIN`] (a seam): its far end.
    pub(crate) fn flat_beyond(&self, end: Vec2, other: Segment) -> Option<Vec2> {
        let far = if other.a == end {
            other.b
        } else if other.b == end {
            other.a
        } else {
            return None;
        };
        let near = if self.a == end { self.b } else { self.a };
        let (into, on) = ((end - near).try_normalize()?, (far - end).try_normalize()?);
        (on.dot(into) > 0.0 && into.perp_dot(on).abs() < SEAM_FLAT_SIN).then_some(far)
    }

    /// The unit normal on the side `side` points to (the front one for a `side` along
    /// the face), normalised in f64 from the ends: the f32 rounding of a point on a long
    /// face would tilt a normal taken from it (by up to 3e-5 rad at 100 units). `None` for
    /// a zero-length segment.
    #[inline]
    pub(crate) fn normal_toward(&self, side: Vec2) -> Option<Vec2> {
        let n = self.direction().as_dvec2().try_normalize()?.perp();
        let n = if n.dot(side.as_dvec2()) < 0.0 { -n } else { n };
        Some(n.as_vec2())
    }

    /// The point of the segment closest to `p`.
    #[inline]
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let d = self.direction();
        let len_sq = d.length_squared();
        if len_sq > 0.0 {
            let s = ((p - self.a).dot(d) / len_sq).clamp(0.0, 1.0);
            self.a + d * s
        } else {
            self.a
        }
    }

    /// `Ok` when both end points are finite and distinct.
    ///
    /// ```
    /// use ccd_core::{Segment, ShapeError, Vec2};
    /// assert_eq!(
    ///     Segment::new(Vec2::ONE, Vec2::ONE).validate(),
    ///     Err(ShapeError::ZeroLength { field: "b" })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !self.a.is_finite() {
            return Err(ShapeError::NonFinite { field: "a" });
        }
        if !self.b.is_finite() {
            return Err(ShapeError::NonFinite { field: "b" });
        }
        if self.a == self.b {
            return Err(ShapeError::ZeroLength { field: "b" });
        }
        Ok(())
    }

    /// The bounding box.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.a.min(self.b), self.a.max(self.b))
    }
}

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// The box from `min` to `max`.
    #[inline]
    #[must_use]
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// The box a circle of `radius` sweeps when its centre moves from `from` by `motion`.
    ///
    /// ```
    /// use ccd_core::{Aabb, Vec2};
    /// let b = Aabb::swept(Vec2::ZERO, Vec2::new(10.0, -2.0), 1.0);
    /// assert_eq!(b, Aabb::new(Vec2::new(-1.0, -3.0), Vec2::new(11.0, 1.0)));
    /// ```
    #[inline]
    #[must_use]
    pub fn swept(from: Vec2, motion: Vec2, radius: f32) -> Self {
        let to = from + motion;
        Self::new(from.min(to), from.max(to)).inflated(radius)
    }

    /// This box grown by `margin` on every side.
    #[inline]
    #[must_use]
    pub fn inflated(self, margin: f32) -> Self {
        Self::new(self.min - Vec2::splat(margin), self.max + Vec2::splat(margin))
    }

    /// The smallest box holding both.
    #[inline]
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        Self::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// Whether the two boxes overlap or touch.
    #[inline]
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        // All four compares are taken (`&`, not `&&`): one branch for the caller, not up
        // to four that go either way.
        (self.min.x <= other.max.x)
            & (other.min.x <= self.max.x)
            & (self.min.y <= other.max.y)
            & (other.min.y <= self.max.y)
    }

    /// Whether both corners are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }
}
