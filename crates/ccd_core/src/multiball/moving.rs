//! [`MovingObstacle`]: an input of [`step_balls`](super::step_balls), an obstacle that
//! moves during the step (kinematic, or a hinged body's part the balls push).

use crate::hinge::HingeBody;
use crate::obstacle::{Obstacle, ObstacleShape};
use crate::shape::{Aabb, Capsule, ChainEdge, Circle, CircleArc, Segment};
use crate::sweep::SegmentMotion;
use glam::Vec2;

/// An obstacle that moves during the step: its shape at the step's start, and its motion.
/// A circle's centre moves in a straight line from its start to its end position.
///
/// A segment with a [`HingeBody`] is pushed by the balls that hit it:
/// [`step_balls`](crate::step_balls) changes its `motion` (and its `obstacle`, to the pose
/// that motion starts from) at every impact and limit, so after the step
/// [`MovingObstacle::at_end`], [`MovingObstacle::end_angle`] and
/// [`MovingObstacle::angular_velocity`] give where it ended and how fast it turns. (A
/// circle's hinge is ignored, and so is one that fails [`HingeBody::validate`]: such an
/// obstacle stays kinematic.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingObstacle {
    /// Shape, material, flags and layers, at the start of the step.
    pub obstacle: Obstacle,
    /// Motion over the whole step.
    pub motion: SegmentMotion,
    /// A hinged body the balls can push, or `None` for a kinematic obstacle.
    pub hinge: Option<HingeBody>,
}

impl MovingObstacle {
    /// A kinematic obstacle: `obstacle` at the step's start, moving by `motion`.
    #[inline]
    #[must_use]
    pub const fn new(obstacle: Obstacle, motion: SegmentMotion) -> Self {
        Self {
            obstacle,
            motion,
            hinge: None,
        }
    }

    /// A part of the hinged body `hinge`.
    #[inline]
    #[must_use]
    pub const fn with_hinge(mut self, hinge: HingeBody) -> Self {
        self.hinge = Some(hinge);
        self
    }

    /// The hinge of a segment, capsule, chain-edge or arc part (circles stay kinematic).
    #[inline]
    #[must_use]
    pub fn body(&self) -> Option<HingeBody> {
        match self.obstacle.shape {
            ObstacleShape::Segment(_)
            | ObstacleShape::Capsule(_)
            | ObstacleShape::Edge(_)
            | ObstacleShape::Arc(_) => self.hinge,
            ObstacleShape::Circle(_) => None,
        }
    }

    /// The obstacle where it is at the end of the step.
    ///
    /// ```
    /// use ccd_core::{MovingObstacle, Obstacle, Segment, SegmentMotion, Vec2};
    /// let arm = Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(2.0, 0.0)));
    /// let turn = SegmentMotion { pivot: Vec2::ZERO, angle: std::f32::consts::PI, pivot_motion: Vec2::ZERO };
    /// let end = MovingObstacle::new(arm, turn).at_end();
    /// assert!(end.aabb().min.x < -1.999);
    /// ```
    #[must_use]
    pub fn at_end(&self) -> Obstacle {
        self.rest_of_step(1.0).0
    }

    /// The hinge's angle at the end of the step, radians (`None` without a hinge).
    #[inline]
    #[must_use]
    pub fn end_angle(&self) -> Option<f32> {
        self.hinge.map(|h| h.angle + self.motion.angle)
    }

    /// The angular velocity over a step of `dt` seconds, radians per second: for a hinge,
    /// the one it ended the step with.
    #[inline]
    #[must_use]
    pub fn angular_velocity(&self, dt: f32) -> f32 {
        self.motion.angle / dt
    }

    /// The hinge's angle at fraction `t` of the step (valid from its last change on).
    pub(super) fn angle_at(&self, t: f32) -> f32 {
        self.hinge.map_or(0.0, |h| h.angle + self.motion.angle * t)
    }

    /// From fraction `from` on, turn by `turn` per step, after snapping by `snap` radians
    /// at `from`: the shape becomes the pose this motion would have started from, so that
    /// the motion gives the true pose at every time from `from` to the end.
    pub(super) fn rebase(&mut self, from: f32, turn: f32, snap: f32) {
        let m = self.motion;
        let pivot_now = m.pivot_at(from);
        let back = Vec2::from_angle(snap - turn * from);
        let place = |p: Vec2| m.pivot + back.rotate(p - pivot_now);
        if !matches!(self.obstacle.shape, ObstacleShape::Circle(_)) {
            let now = m.shape_at(self.obstacle.shape, from);
            self.obstacle.shape = rigidly_moved(now, place, snap - turn * from);
        }
        if let Some(h) = &mut self.hinge {
            h.angle += m.angle * from + snap - turn * from;
        }
        self.motion.angle = turn;
    }

    /// The motion over the part of the step from fraction `from` to its end, as a motion of
    /// its own over `[0, 1]`, and the obstacle where it is at `from`.
    pub(super) fn rest_of_step(&self, from: f32) -> (Obstacle, SegmentMotion) {
        let left = 1.0 - from;
        let m = self.motion;
        let motion = SegmentMotion {
            pivot: m.pivot_at(from),
            angle: m.angle * left,
            pivot_motion: m.pivot_motion * left,
        };
        let mut obstacle = self.obstacle;
        obstacle.shape = match obstacle.shape {
            ObstacleShape::Circle(c) => {
                ObstacleShape::Circle(Circle::new(self.circle_center_at(c, from), c.radius))
            }
            shape => m.shape_at(shape, from),
        };
        (obstacle, motion)
    }

    pub(super) fn circle_center_at(&self, c: Circle, t: f32) -> Vec2 {
        let m = self.motion;
        let end = m.pivot + m.pivot_motion + Vec2::from_angle(m.angle).rotate(c.center - m.pivot);
        c.center.lerp(end, t)
    }

    /// The velocity (world units per second, over a step of `dt`) of its material point at
    /// `point` at fraction `toi` of the step.
    pub(super) fn surface_velocity(&self, point: Vec2, toi: f32, dt: f32) -> Vec2 {
        match self.obstacle.shape {
            ObstacleShape::Circle(c) => (self.circle_center_at(c, 1.0) - c.center) / dt,
            _ => self.motion.point_motion(point, toi) / dt,
        }
    }

    /// Bounding box of everything it covers during the step.
    pub(super) fn swept_aabb(&self) -> Aabb {
        let m = self.motion;
        if let ObstacleShape::Circle(c) = self.obstacle.shape {
            let end = self.circle_center_at(c, 1.0);
            return Aabb::new(c.center.min(end), c.center.max(end)).inflated(c.radius);
        }
        // Every point of the shape stays within its farthest corner's lever of the pivot.
        let b = self.obstacle.aabb();
        let lever = [
            b.min,
            b.max,
            Vec2::new(b.min.x, b.max.y),
            Vec2::new(b.max.x, b.min.y),
        ]
        .iter()
        .map(|&p| (p - m.pivot).length())
        .fold(0.0, f32::max);
        let reach = Aabb::new(m.pivot, m.pivot).inflated(lever);
        let moved = Aabb::new(m.pivot + m.pivot_motion, m.pivot + m.pivot_motion).inflated(lever);
        reach.union(moved)
    }
}

impl SegmentMotion {
    /// Where `shape` (given at toi 0) is at `toi`, moved rigidly with the pivot (a
    /// circle's centre too; [`MovingObstacle`] moves a circle's centre in a straight line
    /// instead).
    #[must_use]
    pub fn shape_at(&self, shape: ObstacleShape, toi: f32) -> ObstacleShape {
        let rotation = Vec2::from_angle(self.angle * toi);
        let pivot = self.pivot_at(toi);
        rigidly_moved(
            shape,
            |p| pivot + rotation.rotate(p - self.pivot),
            self.angle * toi,
        )
    }
}

/// `shape` with every point moved by `place`, a rigid motion that turns by `turn`
/// radians.
fn rigidly_moved(shape: ObstacleShape, place: impl Fn(Vec2) -> Vec2, turn: f32) -> ObstacleShape {
    let segment = |s: Segment| Segment::new(place(s.a), place(s.b));
    match shape {
        ObstacleShape::Segment(s) => ObstacleShape::Segment(segment(s)),
        ObstacleShape::Circle(c) => ObstacleShape::Circle(Circle::new(place(c.center), c.radius)),
        ObstacleShape::Capsule(c) => ObstacleShape::Capsule(Capsule {
            segment: segment(c.segment),
            radius: c.radius,
        }),
        ObstacleShape::Edge(e) => ObstacleShape::Edge(ChainEdge {
            segment: segment(e.segment),
            // An open end stays open: the same point moves to the same place.
            before: place(e.before),
            after: place(e.after),
        }),
        ObstacleShape::Arc(a) => ObstacleShape::Arc(CircleArc {
            center: place(a.center),
            start: a.start + turn,
            end: a.end + turn,
            ..a
        }),
    }
}
