//! A ball that grazes the inside of an arc rides it along chords.
//!
//! On a concave circle a ball in lasting contact curves with the wall; between contacts,
//! though, every leg is straight (or a parabola), and each bounce off the circle leaves it
//! at the angle it came in at, times the restitution: below 1 the angles shrink without
//! end and the contacts come ever faster (a Zeno sequence). A ball that meets the inside
//! of an arc at less than a chord's angle is therefore sent along the next chord of the
//! circle its centre rides on, at the speed the contact left it: the chord's sagitta is
//! [`ARC_RIDE_SAG_REL`] of the ball's radius, so the ball keeps within that of the exact
//! circle, and it comes back to the wall at the chord's end at the same small angle,
//! chord after chord, as a ball in lasting contact would go round.

use crate::hit::Hit;
use crate::obstacle::{ObstacleId, ObstacleShape, Obstacles};
use crate::shape::Aabb;
use crate::tolerance::{ARC_RIDE_SAG_REL, MAX_RIDE_HALF_ANGLE};
use glam::Vec2;

/// The velocity along the next chord for a ball of `ball_radius` that met obstacle `id` of
/// `obstacles` as `hit`, at `approach` (units/s along the normal), and that the contact
/// left at `after`: `Some` when it grazed the inside of an arc. Most contacts are turned
/// away by the angle alone, before the obstacle is looked up.
pub(crate) fn ride_after<O: Obstacles + ?Sized>(
    obstacles: &O,
    id: ObstacleId,
    hit: &Hit,
    after: Vec2,
    approach: f32,
    ball_radius: f32,
) -> Option<Vec2> {
    if !(approach <= after.length() * MAX_RIDE_HALF_ANGLE.sin() * (1.0 + RIDE_ANGLE_SLACK_REL)) {
        return None;
    }
    let mut shape = None;
    obstacles.query(Aabb::new(hit.point, hit.point), |found, o| {
        if found == id {
            shape = Some(o.shape);
        }
    });
    let radius = ride_radius(&shape?, hit, ball_radius)?;
    ride_chord(after, approach, hit.normal, radius, ball_radius)
}

/// The radius of the circle a ball of `ball_radius` centred at `hit.center` rides when it
/// touches the inside of the arc `shape`, or `None` for any other contact.
#[inline]
pub(crate) fn ride_radius(shape: &ObstacleShape, hit: &Hit, ball_radius: f32) -> Option<f32> {
    let ObstacleShape::Arc(arc) = shape else {
        return None;
    };
    let out = hit.center - arc.center;
    // Inside: the normal points back towards the centre. Beyond the angle range (on an
    // end cap) it does not ride.
    let inside = hit.normal.dot(out) < 0.0;
    let on_face = arc.frame().holds(out.as_dvec2());
    let radius = arc.radius - arc.thickness - ball_radius;
    (inside && on_face && radius > 0.0).then_some(radius)
}

/// The velocity along the next chord, for a contact met at `approach` (units/s along the
/// normal) that left the ball at `after`: `Some` when the contact came in at less than a
/// chord's angle (a graze), with the speed along the wall `after` has; `None` for a
/// bounce.
#[inline]
pub(crate) fn ride_chord(
    after: Vec2,
    approach: f32,
    normal: Vec2,
    ride_radius: f32,
    ball_radius: f32,
) -> Option<Vec2> {
    let speed = after.length();
    let along = after - normal * after.dot(normal);
    let tangent = along.try_normalize()?;
    // Half the chord's angle for a sagitta s: 1 − cos(θ) = s / R.
    let sag = ARC_RIDE_SAG_REL * ball_radius;
    let half = (2.0 * sag / ride_radius).sqrt().min(MAX_RIDE_HALF_ANGLE);
    // The chord's end meets the wall at exactly `half`: such a contact rides on.
    let grazes = approach <= speed * half.sin() * (1.0 + RIDE_ANGLE_SLACK_REL);
    // Lasting contact does no work: the ball keeps the speed along the wall the contact
    // left it (friction's loss included), and leaves at the chord's angle.
    grazes.then(|| (tangent + normal * half.tan()) * along.length())
}

/// Dimensionless. A contact at a chord's angle, to within rounding, counts as a graze.
const RIDE_ANGLE_SLACK_REL: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graze_is_sent_along_a_chord_whose_sagitta_is_the_tolerance() {
        // Riding a circle of radius 100 with a ball of radius 10: sagitta 1e-3, so half a
        // chord's angle is sqrt(2e-3 / 100) = 4.472e-3 rad.
        let half = (2.0e-3_f32 / 100.0).sqrt();
        let normal = Vec2::Y;
        let after = Vec2::new(50.0, 0.0);
        let v = ride_chord(after, 0.1, normal, 100.0, 10.0).unwrap();
        assert!((v.x - 50.0).abs() < 1e-4, "the speed along the wall is kept: {v}");
        assert!((v.y / v.x - half.tan()).abs() < 1e-6, "{v}");
        // Coming in steeper than the chord: a bounce, not a ride.
        assert!(ride_chord(after, 50.0 * (2.0 * half).sin(), normal, 100.0, 10.0).is_none());
    }
}
