//! The event machinery's ball that grazes the inside of an arc rides it along chords (a
//! lone ball rides it exactly: `motion.rs`).
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
use crate::obstacle::ObstacleShape;
use crate::tolerance::{ARC_RIDE_SAG_REL, MAX_RIDE_HALF_ANGLE};
use glam::Vec2;

/// Whether a contact approached at `approach` (units/s along the normal) by a ball at
/// `before` can be a graze that rides: it comes in at no more than the steepest chord's
/// angle ([`MAX_RIDE_HALF_ANGLE`]), give or take [`RIDE_GRAZE_FACTOR`]. Most contacts are
/// turned away by this alone, before the shape met is looked up.
#[inline]
pub(crate) fn rides_at_most(approach: f32, before: Vec2) -> bool {
    approach <= before.length() * (RIDE_GRAZE_FACTOR * MAX_RIDE_HALF_ANGLE).sin()
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

/// The next chord a ball rides along after a graze.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Chord {
    /// Its velocity along the chord, units/s.
    pub(crate) velocity: Vec2,
    /// The chord's length, units: where it meets the wall again.
    pub(crate) length: f32,
}

impl Chord {
    /// How many chords (this one, and those after it) a ball at this chord's speed
    /// starts within `time` seconds: an upper bound on the grazes still to come, since
    /// every chord is as long as this one at no more than this speed.
    pub(crate) fn within(self, time: f32) -> u32 {
        let chords = (self.velocity.length() * time.max(0.0) / self.length).ceil();
        // (A NaN or an infinite count saturates: the caller's cap holds.)
        if chords.is_finite() {
            chords as u32
        } else {
            u32::MAX
        }
    }
}

/// The next chord, for a contact met at `before` and `approach` (units/s along the
/// normal) that left the ball at `after`: `Some` when the contact came in at less than a
/// chord's angle (a graze), `None` for a bounce.
///
/// Lasting contact does no work: the ball leaves at the chord's angle with the speed it
/// came at, less what friction took from its speed along the wall (the restitution's loss
/// of the small normal speed is not taken: in lasting contact there is none).
#[inline]
pub(crate) fn ride_chord(
    [before, after]: [Vec2; 2],
    approach: f32,
    normal: Vec2,
    ride_radius: f32,
    ball_radius: f32,
) -> Option<Chord> {
    let along = after - normal * after.dot(normal);
    let tangent = along.try_normalize()?;
    let half = chord_half_angle(ride_radius, ball_radius);
    // The chord's end meets the wall at `half`, give or take the rounding of where the
    // chord began: such a contact, and any shallower one, rides on.
    let grazes = approach <= before.length() * (RIDE_GRAZE_FACTOR * half).sin();
    // Friction's loss is what the contact took from the speed along the wall.
    let friction_loss = ((before - normal * before.dot(normal)).length() - along.length()).max(0.0);
    let out_speed = (before.length() - friction_loss).max(0.0);
    grazes.then(|| Chord {
        velocity: (tangent * half.cos() + normal * half.sin()) * out_speed,
        length: 2.0 * ride_radius * half.sin(),
    })
}

/// Whether a contact approached at `approach` by a ball of `ball_radius` at `before` grazes
/// the inside of the circle of `ride_radius` its centre would ride: it comes in at no more
/// than [`RIDE_GRAZE_FACTOR`] times a riding chord's half angle (see [`ride_chord`]).
#[inline]
pub(crate) fn grazes_inside(approach: f32, before: Vec2, ride_radius: f32, ball_radius: f32) -> bool {
    let half = chord_half_angle(ride_radius, ball_radius);
    approach <= before.length() * (RIDE_GRAZE_FACTOR * half).sin()
}

/// Half the angle of a riding chord whose sagitta is [`ARC_RIDE_SAG_REL`] of the ball's
/// radius: `1 − cos(θ) = s / R`.
#[inline]
fn chord_half_angle(ride_radius: f32, ball_radius: f32) -> f32 {
    let sag = ARC_RIDE_SAG_REL * ball_radius;
    (2.0 * sag / ride_radius).sqrt().min(MAX_RIDE_HALF_ANGLE)
}

/// Dimensionless. A contact that comes in at up to this many times a chord's half angle
/// is a graze and rides on: a chord's end meets the wall at its half angle only up to
/// the rounding of where the chord began (0.2 % apart at 400 units/s on a radius of 95),
/// and a contact a little steeper than that still belongs to the ride, not to a bounce.
const RIDE_GRAZE_FACTOR: f32 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graze_is_sent_along_a_chord_whose_sagitta_is_the_tolerance() {
        // Riding a circle of radius 100 with a ball of radius 10: sagitta 1e-3, so half a
        // chord's angle is sqrt(2e-3 / 100) = 4.472e-3 rad.
        let half = (2.0e-3_f32 / 100.0).sqrt();
        let normal = Vec2::Y;
        // Riding: it came at the chord's angle, and leaves along the next at its speed.
        let before = Vec2::new(50.0 * half.cos(), -50.0 * half.sin());
        let after = Vec2::new(before.x, 0.0);
        let chord = ride_chord([before, after], -before.y, normal, 100.0, 10.0).unwrap();
        let v = chord.velocity;
        assert!((v.length() - 50.0).abs() < 1e-4, "the speed is kept: {v}");
        // 2·100·sin(4.472e-3) = 0.8944 long: at 50 units/s, 1/60 s holds 0.8333 / 0.8944
        // of a chord, so one chord starts within it, and 1/30 s two.
        assert!((chord.length - 0.894_424).abs() < 1e-5, "{}", chord.length);
        assert_eq!(chord.within(1.0 / 60.0), 1);
        assert_eq!(chord.within(1.0 / 30.0), 2);
        assert!((v.y / v.x - half.tan()).abs() < 1e-6, "{v}");
        // A shallower graze (along the wall) leaves along the chord no faster than it came.
        let v = ride_chord([Vec2::new(50.0, 0.0); 2], 0.0, normal, 100.0, 10.0)
            .unwrap()
            .velocity;
        assert!(v.length() <= 50.0 && (v.y / v.x - half.tan()).abs() < 1e-6, "{v}");
        // Coming in steeper than twice the chord's half angle: a bounce, not a ride.
        let steep = 50.0 * (2.5 * half).sin();
        assert!(ride_chord([before, after], steep, normal, 100.0, 10.0).is_none());
    }
}
