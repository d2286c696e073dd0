//! Sliding under gravity: a ball that gravity presses onto a face, with no speed left to
//! leave it, moves along the face under gravity's part along it, exactly (a frictionless
//! slide), until its foot leaves the face, it meets something, or the step ends.
//!
//! Without it a ball at rest on a floor would fall into it at every instant and be met
//! again at once: a contact per hop, each hop shorter than the last, until the bounce cap.
//! With it, a resting ball takes one contact a step, and a ball on a slope follows
//! `s(t) = ½·g·sinθ·t²`.

use super::leg::Solid;
use crate::hit::Feature;
use crate::obstacle::{ObstacleId, Obstacles};
use crate::parabola::Parabola;
use crate::roots::{Poly, first_crossing};
use crate::shape::{Aabb, Segment};
use glam::Vec2;

/// A ball sliding on a face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Slide {
    /// The obstacle slid on (skipped by the slide's legs: the ball moves along it).
    pub(crate) obstacle: ObstacleId,
    /// The face's unit normal, towards the ball.
    pub(crate) normal: Vec2,
    /// The face.
    segment: Segment,
}

impl Slide {
    /// The slide a contact starts: on a flat face (a segment's, a chain edge's, a
    /// capsule's) that gravity presses the ball onto
    /// (`gravity · normal < 0`), when the ball leaves it no faster than `hop_speed`. The
    /// segment is looked up in `obstacles` (at the contact point) only then.
    pub(crate) fn after<O: Obstacles + ?Sized>(
        obstacles: &O,
        solid: &Solid,
        velocity: Vec2,
        gravity: Vec2,
        hop_speed: f32,
    ) -> Option<Self> {
        let normal = solid.hit.normal;
        let pressed = gravity.dot(normal) < 0.0;
        if solid.order.feature != Feature::Face || !pressed || !(velocity.dot(normal) <= hop_speed) {
            return None;
        }
        let point = solid.hit.point;
        let mut segment = None;
        obstacles.query(Aabb::new(point, point), |id, obstacle| {
            if id == solid.id {
                segment = obstacle.shape.face_near(solid.hit.center);
            }
        });
        Some(Self {
            obstacle: solid.id,
            normal,
            segment: segment?,
        })
    }

    /// Gravity's part along the face.
    #[inline]
    pub(crate) fn gravity(&self, gravity: Vec2) -> Vec2 {
        gravity - self.normal * gravity.dot(self.normal)
    }

    /// `velocity` with its part along the normal removed.
    #[inline]
    pub(crate) fn along(&self, velocity: Vec2) -> Vec2 {
        velocity - self.normal * velocity.dot(self.normal)
    }

    /// Whether the ball, held on this face and on `other` (a face it touches at the same
    /// time), is wedged between them: gravity along each face pushes it into the other,
    /// so gravity lies between the two normals' opposites and the faces hold it still.
    #[inline]
    pub(crate) fn wedged_with(&self, other_normal: Vec2, gravity: Vec2) -> bool {
        let this_way = self.gravity(gravity).dot(other_normal);
        let that_way = (gravity - other_normal * gravity.dot(other_normal)).dot(self.normal);
        gravity.dot(other_normal) < 0.0 && this_way <= 0.0 && that_way <= 0.0
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
