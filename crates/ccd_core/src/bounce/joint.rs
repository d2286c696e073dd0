//! A lone ball at a flat joint between an arc and a face (see `ride/joint.rs`): sliding
//! along the face to its end, it rides the arc; and a touch of the arc's end from the
//! face's side, where the ball's foot is on the face, is the face's contact (so a ball
//! that rode the arc to its end, and flies on from there, lands on the face).

use super::leg::Solid;
use super::ride_leg::{RideFrom, RideOn};
use super::slide::Slide;
use super::{Sweep, still_wall};
use crate::contact_with::ContactWith;
use crate::hit::{Feature, Hit};
use crate::material::Material;
use crate::obstacle::{ObstacleId, ObstacleShape, Obstacles};
use crate::ride::{arc_curve, arc_joining, flat_joint};
use crate::shape::{Aabb, CircleArc};
use crate::tolerance::TOUCH_SLOP_REL;
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sweep<'_, O> {
    /// The ride of `arc` (obstacle `id` of `material`) if the face of `slide` runs into
    /// it flat at `end`, the end the ball's foot has just left ([`arc_joining`]), from the
    /// ball's place and speed there.
    pub(super) fn arc_beyond(
        &self,
        id: ObstacleId,
        material: Material,
        arc: CircleArc,
        slide: Slide,
        end: Vec2,
    ) -> Option<RideOn> {
        let r = f64::from(self.radius);
        let ridden = arc_joining(arc, slide.segment, end, slide.normal.as_dvec2(), r)?;
        Some(RideOn {
            obstacle: id,
            ridden,
            friction: self.settings.material.combine(material).friction,
            from: RideFrom::Landed {
                speed: self.out.velocity.as_dvec2().length(),
            },
        })
    }

    /// `solid`, a round part of an arc, as the ball meets it: a touch of the arc's end
    /// (outside its span) where a face goes on flat from that end, the ball's foot on the
    /// face, is the face's contact, at the foot. A slide up the face ended a hair before
    /// the joint (its f32 centre a few ulps into the face), and the ball slides on to the
    /// joint and rides the arc from there; taken for the arc's end, with the face
    /// touching too, it bounced at nothing, leg after leg, to the bounce cap. (With its
    /// foot on the face and its centre a radius from the face's end, the ball is at the
    /// face or into it: a touch from there is the face's.)
    pub(super) fn onto_joint_face(&self, solid: Solid) -> Solid {
        let hit = solid.hit;
        let Some(ObstacleShape::Arc(arc)) =
            still_wall(self.obstacles, ContactWith::Obstacle(solid.id), hit.point)
        else {
            return solid;
        };
        let center = hit.center.as_dvec2();
        let offset = center - arc.center.as_dvec2();
        if arc.frame().holds(offset) {
            return solid;
        }
        let r = f64::from(self.radius);
        let Some(ridden) = arc_curve(arc, offset.length() < f64::from(arc.radius), r) else {
            return solid;
        };
        let arc_id = solid.id;
        let mut found = solid;
        self.obstacles.query(Aabb::new(hit.point, hit.point), |id, o| {
            if found.id == arc_id
                && !o.sensor
                && self.settings.layers.interacts(o.layers)
                && let Some(joint) = flat_joint(&ridden, r, &o.shape)
                // At this end of the arc (a short arc's other end may be near too).
                && joint.face.a.distance(hit.point) <= TOUCH_SLOP_REL * self.radius
                && (center - joint.face.a.as_dvec2()).dot(joint.along) > 0.0
            {
                let foot = joint.face.a.as_dvec2()
                    + joint.along * (center - joint.face.a.as_dvec2()).dot(joint.along);
                let normal = joint.along.perp() * joint.along.perp().dot(joint.normal).signum();
                found = Solid {
                    id,
                    material: o.material,
                    hit: Hit {
                        point: foot.as_vec2(),
                        normal: normal.as_vec2(),
                        ..hit
                    },
                    feature: Feature::Face,
                    arc: false,
                };
            }
        });
        found
    }
}
