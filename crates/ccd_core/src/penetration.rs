//! The check that the sweep never fails: how deep a circle sits inside a solid obstacle,
//! and whether it crossed a one-way segment the wrong way. Used after a step, by an audit
//! (the plugin's `CcdFaults`, a test, a bench), never by the step itself.

use crate::obstacle::{Layers, Obstacle, ObstacleShape};
use crate::shape::{Circle, Segment};
use crate::tolerance::PENETRATION_SLOP_REL;
use glam::Vec2;

/// A circle found inside a solid obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// How far the circle reaches past the surface: its radius (plus a pillar's, a
    /// capsule's or an arc's thickness) less the distance from its centre to the
    /// obstacle's core, in world units; positive.
    pub depth: f32,
    /// The core's point nearest the circle's centre: on a segment, an edge, a capsule's
    /// segment or an arc's curve; a pillar's centre for a pillar.
    pub point: Vec2,
}

/// How deep `circle`, on `layers`, sits inside `obstacle`; `None` when it does not, or
/// when the obstacle cannot hold it out: a sensor, a one-sided segment (a circle passes
/// through it from behind, so overlapping one is no fault: see [`crossed_one_way`]), or
/// an obstacle on other layers.
///
/// Depth is measured without tolerance; compare it with [`penetration_slop`].
///
/// ```
/// use ccd_core::{penetration, Circle, Layers, Obstacle, Segment, Vec2};
/// let floor = Obstacle::segment(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)));
/// // A ball of radius 1 whose centre is 0.25 above the floor reaches 0.75 into it.
/// let hit = penetration(Circle::new(Vec2::new(1.0, 0.25), 1.0), Layers::ALL, &floor).unwrap();
/// assert_eq!(hit.depth, 0.75);
/// assert_eq!(hit.point, Vec2::new(1.0, 0.0));
/// // Resting on it is no penetration.
/// assert!(penetration(Circle::new(Vec2::new(1.0, 1.0), 1.0), Layers::ALL, &floor).is_none());
/// ```
#[must_use]
pub fn penetration(circle: Circle, layers: Layers, obstacle: &Obstacle) -> Option<Penetration> {
    if obstacle.sensor || !obstacle.layers.interacts(layers) {
        return None;
    }
    if obstacle.one_sided && matches!(obstacle.shape, ObstacleShape::Segment(_) | ObstacleShape::Edge(_)) {
        return None;
    }
    let (point, rounding) = obstacle.shape.core_near(circle.center);
    let reach = circle.radius + rounding;
    let depth = reach - circle.center.distance(point);
    (depth > 0.0).then_some(Penetration { depth, point })
}

/// How far `circle` is from touching `obstacle`'s surface: the distance from its centre
/// to the obstacle's core, less its radius and the obstacle's rounding (a pillar's, a
/// capsule's or an arc's thickness), in world units. Zero when it touches, negative when
/// it reaches in. Every obstacle counts, sensor or not and on any layers, from either
/// side.
///
/// ```
/// use ccd_core::{clearance, Circle, Obstacle, Vec2};
/// let post = Obstacle::pillar(Circle::new(Vec2::ZERO, 2.0));
/// // A ball of radius 1 whose centre is 5 from the post's: 5 − 1 − 2 = 2 clear.
/// assert_eq!(clearance(Circle::new(Vec2::new(3.0, 4.0), 1.0), &post), 2.0);
/// // Resting on it: 0.
/// assert_eq!(clearance(Circle::new(Vec2::new(0.0, 3.0), 1.0), &post), 0.0);
/// ```
#[must_use]
pub fn clearance(circle: Circle, obstacle: &Obstacle) -> f32 {
    let (point, rounding) = obstacle.shape.core_near(circle.center);
    circle.center.distance(point) - circle.radius - rounding
}

/// The depth past which a circle of `radius` inside a surface is a fault:
/// [`PENETRATION_SLOP_REL`] of the radius.
#[inline]
#[must_use]
pub fn penetration_slop(radius: f32) -> f32 {
    PENETRATION_SLOP_REL * radius
}

/// Whether a circle of `radius` whose centre went from `from` to `to` crossed the
/// one-sided `segment` the wrong way: it started in front (on the side of
/// [`Segment::front_normal`], clear of the segment by at least the radius less its slop)
/// and ended behind its line, with the straight path from `from` to `to` passing between
/// the segment's end points.
///
/// The straight path is a test, not the ball's path (a ball may bounce within the step),
/// so this is exact for a step without a bounce and a strong hint otherwise.
///
/// ```
/// use ccd_core::{crossed_one_way, Segment, Vec2};
/// // A gate along x, open from below (its front normal is +y).
/// let gate = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
/// assert!(crossed_one_way(gate, 0.1, Vec2::new(0.0, 2.0), Vec2::new(0.0, -2.0)), "through from the front");
/// assert!(!crossed_one_way(gate, 0.1, Vec2::new(0.0, -2.0), Vec2::new(0.0, 2.0)), "the allowed way");
/// assert!(!crossed_one_way(gate, 0.1, Vec2::new(3.0, 2.0), Vec2::new(3.0, -2.0)), "beside it");
/// ```
#[must_use]
pub fn crossed_one_way(segment: Segment, radius: f32, from: Vec2, to: Vec2) -> bool {
    let Some(front) = segment.front_normal() else {
        return false;
    };
    let start = (from - segment.a).dot(front);
    let end = (to - segment.a).dot(front);
    let clear = radius - penetration_slop(radius);
    let started_clear = from.distance(segment.closest_point(from)) >= clear;
    if !(start > 0.0 && end < 0.0 && started_clear) {
        return false;
    }
    // Where the path meets the segment's line, as a fraction along the segment.
    let at = from + (to - from) * (start / (start - end));
    let d = segment.direction();
    let s = (at - segment.a).dot(d) / d.length_squared();
    (0.0..=1.0).contains(&s)
}
