//! [`Capsule`]: a segment with a radius.

use super::{Aabb, Segment, ShapeError};
use glam::Vec2;

/// A segment grown by a radius: a rounded paddle, post or flipper body. Its surface is two
/// flat faces `radius` from the segment and two half circles around the end points.
///
/// A capsule of radius 0 is a [`Segment`]; one whose end points coincide is a pillar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// The core segment.
    pub segment: Segment,
    /// How far the surface lies from the core, in world units.
    pub radius: f32,
}

impl Capsule {
    /// The capsule of `radius` around the segment from `a` to `b`.
    #[inline]
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2, radius: f32) -> Self {
        Self {
            segment: Segment::new(a, b),
            radius,
        }
    }

    /// `Ok` when the core is a usable segment and the radius is finite and not negative.
    ///
    /// ```
    /// use ccd_core::{Capsule, ShapeError, Vec2};
    /// assert!(Capsule::new(Vec2::ZERO, Vec2::X, 0.5).validate().is_ok());
    /// assert_eq!(
    ///     Capsule::new(Vec2::ZERO, Vec2::X, f32::NAN).validate(),
    ///     Err(ShapeError::NonFinite { field: "radius" })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        self.segment.validate()?;
        ShapeError::non_negative("radius", self.radius)
    }

    /// The bounding box.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.segment.aabb().inflated(self.radius)
    }
}
