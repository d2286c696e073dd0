//! A ball's leg against one moving obstacle, whatever its shape: the moving segment's
//! search for the straight shapes, the moving arc's for a turning arc, the relative leg
//! for the translating round ones.

use super::forecast::Leg;
use super::moving::MovingObstacle;
use crate::obstacle::ObstacleShape;
use crate::parabola::Parabola;
use crate::shape::{Circle, Segment};
use crate::sweep::{
    MovingHit, SegmentMotion, sweep_circle_arc, sweep_circle_moving_arc, sweep_circle_moving_circle,
    sweep_circle_moving_segment, sweep_parabola_arc, sweep_parabola_moving_arc, sweep_parabola_moving_circle,
    sweep_parabola_moving_segment,
};
use glam::Vec2;

/// The first contact of `leg` with `m`, whose shape at fraction `from` of the step is
/// `shape` and which moves by `rest` over the rest of the step.
///
/// - A segment, a chain's edge or a capsule: the moving segment's search, for a capsule
///   with the ball grown by its radius and the contact moved out to its surface. (A
///   moving chain's edges are searched as separate segments: its vertex rules hold for
///   still chains.)
/// - A circle: its centre moves in a straight line; the leg relative to it is exact.
/// - An arc: one that turns, the moving arc's search (`sweep/moving_arc.rs`); one that
///   only translates, exactly, as a circle does.
pub(super) fn moving_contact(
    leg: Leg,
    m: &MovingObstacle,
    from: f32,
    shape: ObstacleShape,
    rest: SegmentMotion,
) -> Option<MovingHit> {
    match shape {
        ObstacleShape::Segment(s) => moving_segment(leg, s, rest, 0.0),
        ObstacleShape::Edge(e) => moving_segment(leg, e.segment, rest, 0.0),
        ObstacleShape::Capsule(c) => moving_segment(leg, c.segment, rest, c.radius),
        ObstacleShape::Circle(c) => {
            let other_motion = m.circle_center_at(c, 1.0) - m.circle_center_at(c, from);
            let hit = match leg.curve {
                None => sweep_circle_moving_circle(leg.circle, leg.motion, c, other_motion),
                Some(curve) => sweep_parabola_moving_circle(leg.circle, curve, c, other_motion),
            }?;
            Some(translating(hit, other_motion))
        }
        ObstacleShape::Arc(a) if rest.angle != 0.0 => match leg.curve {
            None => sweep_circle_moving_arc(leg.circle, leg.motion, a, rest),
            Some(curve) => sweep_parabola_moving_arc(leg.circle, curve, a, rest),
        },
        ObstacleShape::Arc(a) => {
            let other_motion = rest.pivot_motion;
            let hit = match leg.curve {
                None => sweep_circle_arc(leg.circle, leg.motion - other_motion, a)?,
                Some(curve) => {
                    let relative = Parabola {
                        velocity: curve.velocity - other_motion / curve.duration,
                        ..curve
                    };
                    sweep_parabola_arc(leg.circle, relative, a)?.hit
                }
            };
            // Back in the world: the centre on the ball's own leg, the arc where it is then.
            let moved = other_motion * hit.toi;
            let center = match leg.curve {
                None => leg.circle.center + leg.motion * hit.toi,
                Some(curve) => leg.circle.center + curve.offset(hit.toi),
            };
            let mut hit = translating(hit, other_motion);
            hit.hit.point += moved;
            hit.hit.center = center;
            Some(hit)
        }
    }
}

/// A segment's moving search, for a ball grown by `rounding` (a capsule's radius), the
/// contact moved out to the surface.
fn moving_segment(leg: Leg, s: Segment, rest: SegmentMotion, rounding: f32) -> Option<MovingHit> {
    let circle = Circle::new(leg.circle.center, leg.circle.radius + rounding);
    let mut found = match leg.curve {
        None => sweep_circle_moving_segment(circle, leg.motion, s, rest),
        Some(curve) => sweep_parabola_moving_segment(circle, curve, s, rest),
    }?;
    found.hit.point += found.hit.normal * rounding;
    Some(found)
}

/// A contact with a shape that translates by `motion` over the leg.
#[inline]
fn translating(hit: crate::hit::Hit, motion: Vec2) -> MovingHit {
    MovingHit {
        hit,
        surface_motion: motion,
        iterations: 0,
        restarts: 0,
    }
}
