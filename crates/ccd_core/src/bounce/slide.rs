//! Sliding under gravity: a ball that gravity presses onto a face, with no speed left to
//! leave it (the decision is [`meet`](crate::meet)'s), moves along the face under gravity's
//! part along it, exactly, until its foot leaves the face, it meets something, or the step
//! ends. Friction is a sliding disc's (no spin): a steady deceleration `μ·N/m` against the
//! motion, `N/m` gravity's press into the face. Where it brings the ball to rest the leg
//! ends there; from rest the ball stays if friction can hold it (gravity's part along the
//! face at most `μ·N/m`: `tan θ ≤ μ`) and slides off the other way otherwise.
//!
//! Without it a ball at rest on a floor would fall into it at every instant and be met
//! again at once: a contact per hop, each hop shorter than the last, until the bounce cap.
//! With it, a resting ball takes one contact a step, and a ball on a slope follows
//! `s(t) = ½·g·sinθ·t²`.

use crate::obstacle::ObstacleId;
use crate::parabola::Parabola;
use crate::roots::{Poly, first_crossing};
use crate::shape::Segment;
use crate::tolerance::{CHAIN_VERTEX_SLOP_REL, SLIDE_SEAT_ULPS, TOUCH_SLOP_REL};
use glam::Vec2;

/// A ball sliding on a face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Slide {
    /// The obstacle slid on (skipped by the slide's legs: the ball moves along it).
    pub(crate) obstacle: ObstacleId,
    /// The face's unit normal, towards the ball.
    pub(crate) normal: Vec2,
    /// The face.
    pub(crate) segment: Segment,
    /// Kinetic friction's deceleration, `μ·N/m`, units/s² (0 without friction).
    pub(crate) friction: f32,
}

impl Slide {
    /// Gravity's part along the face.
    #[inline]
    pub(crate) fn gravity(&self, gravity: Vec2) -> Vec2 {
        gravity - self.normal * gravity.dot(self.normal)
    }

    /// The acceleration along the face of a ball moving at `velocity` (along it): gravity's
    /// part, less friction against the motion; `None` for a ball at rest that friction
    /// holds.
    pub(crate) fn acceleration(&self, gravity: Vec2, velocity: Vec2) -> Option<Vec2> {
        let along = self.gravity(gravity);
        if !(self.friction > 0.0) {
            return Some(along);
        }
        match velocity.try_normalize() {
            Some(moving) => Some(along - moving * self.friction),
            // From rest: friction holds it, or takes its part off gravity's pull.
            None => along
                .try_normalize()
                .filter(|_| along.length() > self.friction)
                .map(|pull| along - pull * self.friction),
        }
    }

    /// The time within `time` at which a ball moving at `velocity` with `acceleration`
    /// (from [`Slide::acceleration`]) comes to rest, if friction brings it there.
    pub(crate) fn stops_at(&self, velocity: Vec2, acceleration: Vec2, time: f32) -> Option<f32> {
        let speed = velocity.length();
        let slowing = -acceleration.dot(velocity) / speed;
        let stop = speed / slowing;
        (self.friction > 0.0 && slowing > 0.0 && stop < time).then_some(stop)
    }

    /// The fraction of the slide `path` from `center` after which the centre's foot leaves
    /// the face, if before the leg's end: the foot's position along the face is a quadratic
    /// in the fraction, leaving `(0, |d|²)` at its first fall to either end. A foot at an
    /// end already leaves at once (the end's round cap takes over).
    pub(crate) fn leaves_at(&self, center: Vec2, path: Parabola) -> Option<f64> {
        foot_leaves_face(self.segment, center, path)
    }
}

/// The fraction of `path` from `center` after which the centre's foot leaves the face of
/// `segment`, if before the path's end (see [`Slide::leaves_at`]); `Some(0.0)` for a foot
/// already off it.
pub(crate) fn foot_leaves_face(segment: Segment, center: Vec2, path: Parabola) -> Option<f64> {
    let a = segment.a.as_dvec2();
    let d = segment.b.as_dvec2() - a;
    let len_sq = d.length_squared();
    let along = (center.as_dvec2() - a).dot(d);
    if !(along > 0.0 && along < len_sq) {
        return Some(0.0);
    }
    let (m, k) = path.terms();
    let past_a = Poly([along, m.dot(d), k.dot(d), 0.0, 0.0]);
    let past_b = Poly([len_sq - along, -m.dot(d), -k.dot(d), 0.0, 0.0]);
    [past_a, past_b]
        .into_iter()
        .filter_map(|p| first_crossing(p, 1.0))
        .map(|root| root.s)
        .filter(|&s| s < 1.0)
        .reduce(f64::min)
}

/// `center`, of a ball of `radius` starting to slide on `face` (`normal` towards the
/// ball), put back on the line its centre slides along (`radius` off the face) where it
/// has sunk below it by more than [`SLIDE_SEAT_ULPS`] of its coordinates' f32 spacing,
/// and by no more than the touch slop ([`TOUCH_SLOP_REL`] of `radius`, or the f32
/// rounding of the coordinates, [`CHAIN_VERTEX_SLOP_REL`], whichever is more); otherwise
/// as it is.
///
/// A slide's end is its start plus the slide's offset, rounded to f32 at each step;
/// while the ball's speed barely changes from step to step, so does that rounding,
/// always the same way, and the ball sinks into its face step after step. (A rough ball
/// at coordinates near 50 sank 2e-4 in 200 steps at 1 kHz: at the slope's end it
/// touched the post the slope ends on behind the lip, and met it again and again, to
/// the bounce cap.) Seated at its slides' starts, it sinks no more than a few ulps.
/// The depth is measured in f64 from the face's own end points: in f32 its rounding,
/// an ulp of the coordinates, would lift the ball at every step.
pub(crate) fn seat(center: Vec2, face: Segment, normal: Vec2, radius: f32) -> Vec2 {
    let (a, b, p) = (face.a.as_dvec2(), face.b.as_dvec2(), center.as_dvec2());
    let Some(across) = (b - a).perp().try_normalize() else {
        return center;
    };
    let normal = if across.dot(normal.as_dvec2()) < 0.0 {
        -across
    } else {
        across
    };
    let sunk = f64::from(radius) - (p - a).dot(normal);
    if reseats(sunk, center, radius) {
        (p + normal * sunk).as_vec2()
    } else {
        center
    }
}

/// Whether a ball of `radius` centred at `center`, `sunk` below the surface it rests on
/// (in f64), is put back on it ([`seat`]): deeper than [`SLIDE_SEAT_ULPS`] of its
/// coordinates' f32 spacing, and no deeper than the touch slop ([`TOUCH_SLOP_REL`] of
/// `radius`, or the f32 rounding of the coordinates, [`CHAIN_VERTEX_SLOP_REL`], whichever
/// is more).
pub(crate) fn reseats(sunk: f64, center: Vec2, radius: f32) -> bool {
    let scale = center.abs().max_element().max(1.0);
    let slop = (TOUCH_SLOP_REL * radius).max(CHAIN_VERTEX_SLOP_REL * scale);
    sunk > f64::from(SLIDE_SEAT_ULPS * scale * f32::EPSILON) && sunk <= f64::from(slop)
}
