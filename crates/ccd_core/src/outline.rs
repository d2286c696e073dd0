//! [`ObstacleShape::outline`]: every shape's surface as a polyline, for drawing (a
//! capsule's two faces and round ends, an arc band's two curves and caps).

use crate::obstacle::ObstacleShape;
use crate::shape::{CircleArc, Segment};
use glam::Vec2;
use std::f32::consts::{PI, TAU};

/// Pieces a full turn of a round outline is cut into for drawing.
pub const OUTLINE_PIECES_PER_TURN: u32 = 48;

/// The pieces for a turn of `angle` radians (at least 2).
fn pieces(angle: f32) -> u32 {
    ((angle.abs() / TAU * OUTLINE_PIECES_PER_TURN as f32).ceil() as u32).max(2)
}

/// Points on the circle of `radius` around `center` from angle `from` by `turn`.
fn arc_points(center: Vec2, radius: f32, from: f32, turn: f32) -> Vec<Vec2> {
    let n = pieces(turn);
    (0..=n)
        .map(|i| center + Vec2::from_angle(from + turn * i as f32 / n as f32) * radius)
        .collect()
}

/// The closed outline of a segment grown by `radius` (a capsule; the segment itself for 0).
fn capsule_outline(s: Segment, radius: f32) -> Vec<Vec2> {
    if radius <= 0.0 {
        return vec![s.a, s.b];
    }
    let angle = s.direction().to_angle();
    let mut points = arc_points(s.b, radius, angle - PI / 2.0, PI);
    points.extend(arc_points(s.a, radius, angle + PI / 2.0, PI));
    points.push(points[0]);
    points
}

/// The outline of an arc: its curve for a rail, the band's closed outline otherwise.
fn arc_outline(a: CircleArc) -> Vec<Vec2> {
    if a.thickness <= 0.0 {
        return arc_points(a.center, a.radius, a.start, a.span());
    }
    let (start, end) = a.ends();
    let mut points = arc_points(a.center, a.radius + a.thickness, a.start, a.span());
    points.extend(arc_points(end, a.thickness, a.end, PI));
    let inner = (a.radius - a.thickness).max(0.0);
    points.extend(arc_points(a.center, inner, a.end, -a.span()));
    points.extend(arc_points(start, a.thickness, a.start + PI, PI));
    points.push(points[0]);
    points
}

impl ObstacleShape {
    /// The shape's surface as one polyline: a segment's or an edge's two ends, a closed
    /// loop around a capsule, a pillar or an arc band, an arc rail's curve. Round parts
    /// are cut into [`OUTLINE_PIECES_PER_TURN`] pieces a turn.
    ///
    /// ```
    /// use ccd_core::{Capsule, ObstacleShape, Segment, Vec2};
    /// let wall = ObstacleShape::Segment(Segment::new(Vec2::ZERO, Vec2::X));
    /// assert_eq!(wall.outline(), vec![Vec2::ZERO, Vec2::X]);
    /// // A capsule's loop: every point 0.5 from its core.
    /// let post = ObstacleShape::Capsule(Capsule::new(Vec2::ZERO, Vec2::X, 0.5));
    /// let core = Segment::new(Vec2::ZERO, Vec2::X);
    /// assert!(post.outline().iter().all(|&p| ((p - core.closest_point(p)).length() - 0.5).abs() < 1e-5));
    /// ```
    #[must_use]
    pub fn outline(&self) -> Vec<Vec2> {
        match *self {
            Self::Segment(s) => vec![s.a, s.b],
            Self::Edge(e) => vec![e.segment.a, e.segment.b],
            Self::Capsule(c) => capsule_outline(c.segment, c.radius),
            Self::Circle(c) => arc_points(c.center, c.radius, 0.0, TAU),
            Self::Arc(a) => arc_outline(a),
        }
    }
}
