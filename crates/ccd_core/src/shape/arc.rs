//! [`CircleArc`]: a piece of a circle, as a rail or a rounded band.

use super::{Aabb, ShapeError};
use crate::tolerance::FULL_TURN_SLACK_REL;
use glam::{DVec2, Vec2};
use std::f32::consts::TAU;

/// A circular arc: the points at `radius` from `center` whose angle runs counter-clockwise
/// from `start` to `end` (radians from +x), grown by `thickness`. Thickness 0 is a rail; a
/// positive one is a band with round ends. A ball meets it from inside or outside.
///
/// Its surface is exact, not a polygon: for a ball of radius `r` the centre meets the
/// circles of radius `radius ± (thickness + r)` within the angle range, and two round caps
/// of radius `thickness + r` around the end points.
///
/// ```
/// use ccd_core::{CircleArc, Vec2};
/// use std::f32::consts::FRAC_PI_2;
/// // A quarter of the unit circle, from +x to +y.
/// let quarter = CircleArc::new(Vec2::ZERO, 1.0, 0.0, FRAC_PI_2);
/// let (a, b) = quarter.ends();
/// assert_eq!(a, Vec2::X);
/// assert!((b - Vec2::Y).length() < 1e-7);
/// // (2, 2) is within the range: its closest point is on the curve, at distance 2√2 − 1.
/// assert!((quarter.closest_point(Vec2::new(2.0, 2.0)) - Vec2::splat(0.70710677)).length() < 1e-6);
/// // (2, −1) is not: its closest point is the nearer end, the start (1, 0).
/// assert_eq!(quarter.closest_point(Vec2::new(2.0, -1.0)), Vec2::X);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircleArc {
    /// The circle's centre.
    pub center: Vec2,
    /// The circle's radius, in world units (above 0).
    pub radius: f32,
    /// The angle where the arc starts, in radians counter-clockwise from +x.
    pub start: f32,
    /// The angle where it ends, counter-clockwise from `start`: `start < end ≤ start + 2π`.
    pub end: f32,
    /// How far the surface lies from the curve, in world units: 0 for a rail.
    pub thickness: f32,
}

/// The arc in f64 for the queries: its directions at the two ends, and whether it spans
/// more than half a turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArcFrame {
    pub(crate) start_dir: DVec2,
    pub(crate) end_dir: DVec2,
    pub(crate) wide: bool,
}

impl ArcFrame {
    /// Whether the direction `p` (from the centre; any length) lies within the arc's
    /// angle range, its two boundary rays included.
    #[inline]
    pub(crate) fn holds(&self, p: DVec2) -> bool {
        if self.wide {
            // More than half a turn: within unless strictly inside the gap from end to start.
            !(self.end_dir.perp_dot(p) > 0.0 && p.perp_dot(self.start_dir) > 0.0)
        } else {
            self.start_dir.perp_dot(p) >= 0.0 && p.perp_dot(self.end_dir) >= 0.0
        }
    }
}

impl CircleArc {
    /// The rail of `radius` around `center` from angle `start` counter-clockwise to `end`.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec2, radius: f32, start: f32, end: f32) -> Self {
        Self {
            center,
            radius,
            start,
            end,
            thickness: 0.0,
        }
    }

    /// With `thickness`: a band whose surface lies that far from the curve.
    #[inline]
    #[must_use]
    pub const fn with_thickness(mut self, thickness: f32) -> Self {
        self.thickness = thickness;
        self
    }

    /// The angle it turns through, `end − start`.
    #[inline]
    #[must_use]
    pub fn span(&self) -> f32 {
        self.end - self.start
    }

    /// `Ok` when every number is finite, the radius is above 0, the span is in `(0, 2π]`
    /// and the thickness is not negative. A full ring written as `start..start + 2π` is
    /// accepted whatever f32 makes of the sum ([`FULL_TURN_SLACK_REL`]).
    ///
    /// [`FULL_TURN_SLACK_REL`]: crate::tolerance::FULL_TURN_SLACK_REL
    ///
    /// ```
    /// use ccd_core::{CircleArc, ShapeError, Vec2};
    /// assert_eq!(
    ///     CircleArc::new(Vec2::ZERO, 1.0, 1.0, 1.0).validate(),
    ///     Err(ShapeError::OutOfRange { field: "end", range: "above start, at most start + 2π" })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !self.center.is_finite() {
            return Err(ShapeError::NonFinite { field: "center" });
        }
        for (field, value) in [("radius", self.radius), ("start", self.start), ("end", self.end)] {
            if !value.is_finite() {
                return Err(ShapeError::NonFinite { field });
            }
        }
        if !(self.radius > 0.0) {
            return Err(ShapeError::OutOfRange {
                field: "radius",
                range: "above 0",
            });
        }
        let span = self.span();
        let full_turn = TAU + FULL_TURN_SLACK_REL * (self.start.abs() + TAU);
        if !(span > 0.0 && span <= full_turn) {
            return Err(ShapeError::OutOfRange {
                field: "end",
                range: "above start, at most start + 2π",
            });
        }
        ShapeError::non_negative("thickness", self.thickness)
    }

    /// Whether the arc is a whole ring: its span is 2π, give or take the rounding of
    /// `start + 2π` ([`FULL_TURN_SLACK_REL`]).
    #[inline]
    pub(crate) fn is_full_turn(&self) -> bool {
        (self.span() - TAU).abs() <= FULL_TURN_SLACK_REL * (self.start.abs() + TAU)
    }

    /// The query frame, in f64.
    #[inline]
    pub(crate) fn frame(&self) -> ArcFrame {
        let dir = |angle: f32| {
            let (s, c) = f64::from(angle).sin_cos();
            DVec2::new(c, s)
        };
        ArcFrame {
            start_dir: dir(self.start),
            end_dir: dir(self.end),
            wide: f64::from(self.end) - f64::from(self.start) > std::f64::consts::PI,
        }
    }

    /// The two end points of the curve, at `start` and at `end`.
    #[inline]
    #[must_use]
    pub fn ends(&self) -> (Vec2, Vec2) {
        let f = self.frame();
        let c = self.center.as_dvec2();
        let r = f64::from(self.radius);
        ((c + f.start_dir * r).as_vec2(), (c + f.end_dir * r).as_vec2())
    }

    /// The point of the curve (not of the band's surface) closest to `p`. For `p` at the
    /// centre, every point of the curve is as close: the start is taken.
    #[inline]
    #[must_use]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let frame = self.frame();
        let rel = p.as_dvec2() - self.center.as_dvec2();
        let (a, b) = self.ends();
        match rel.try_normalize() {
            Some(dir) if frame.holds(rel) => {
                (self.center.as_dvec2() + dir * f64::from(self.radius)).as_vec2()
            }
            _ if p.distance_squared(b) < p.distance_squared(a) => b,
            _ => a,
        }
    }

    /// The bounding box of the band: the end points and every axis extreme the arc passes,
    /// grown by the thickness.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let (a, b) = self.ends();
        let mut bounds = Aabb::new(a.min(b), a.max(b));
        let frame = self.frame();
        for axis in [DVec2::X, DVec2::Y, -DVec2::X, -DVec2::Y] {
            if frame.holds(axis) {
                let extreme = self.center + axis.as_vec2() * self.radius;
                bounds = bounds.union(Aabb::new(extreme, extreme));
            }
        }
        // The end points and extremes are rounded to f32 from exact values: half an ulp of
        // the largest coordinate covers them.
        let rounding = (self.center.abs().max_element() + self.radius) * f32::EPSILON;
        bounds.inflated(self.thickness + rounding)
    }

    /// Points along the curve, `pieces + 1` of them from the start to the end (for drawing).
    pub fn points(&self, pieces: u32) -> impl Iterator<Item = Vec2> + '_ {
        let pieces = pieces.max(1);
        (0..=pieces).map(move |i| {
            let angle = self.start + self.span() * (i as f32 / pieces as f32);
            self.center + Vec2::from_angle(angle) * self.radius
        })
    }
}
