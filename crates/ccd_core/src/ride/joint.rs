//! Where a ridden arc ends and a face goes on from it: an orbit lane's wall running on
//! straight from the lane's turn, a ramp's straight after its bend.
//!
//! A face that starts where the arc's surface ends, and does not rise into the ride (it
//! goes on along the arc's tangent there, or, on an arc's inside, falls away from it),
//! cannot be touched before the ride reaches the arc's end: on an inside ride it lies
//! outside the arc's circle, and on an outside ride it runs along the tangent, with the
//! ball's foot behind its start until the end. Within the touch slop, though, the ball
//! touches the face's end long before (0.3° before the end of a 40 mm arc for a 13.5 mm
//! ball), and took it for a second surface holding it: the landing did not ride, the
//! bounce it took instead left it where it was, and the next leg met the arc again at
//! once, leg after leg, to the bounce cap. So neither a landing on the arc nor the
//! ride's search counts such a face ([`flat_joint`]). From the arc's end the ball flies
//! on, and lands on the face.
//!
//! The other way, while a ball's foot is on the face, the arc cannot be met but at its
//! end, where the foot leaves the face (past the face, the centre lies off the arc's
//! span, nearer the circle beyond it): a slide passes the arc's end (its f32 centre, a
//! few ulps into the face, touches it a hair early), and from the face's end the ball
//! rides the arc ([`arc_joining`]).

use super::{Ridden, arc_curve};
use crate::obstacle::ObstacleShape;
use crate::shape::{CircleArc, Segment};
use crate::tolerance::{CHAIN_VERTEX_SLOP_REL, SEAM_FLAT_SIN, TOUCH_SLOP_REL};
use glam::{DVec2, Vec2};

/// A face going on from an end of a ridden arc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FlatJoint {
    /// The face from the joint on: `a` at the joint, `b` its far end.
    pub(crate) face: Segment,
    /// The arc's unit normal at the joint, towards the ball (the face's, to within the
    /// face's turn from the arc's tangent).
    pub(crate) normal: DVec2,
    /// The unit direction along the face, away from the arc.
    pub(crate) along: DVec2,
}

/// `shape` as a face going on from an end of the arc `ridden` rides, for a ball of
/// radius `r`: a segment or a chain's edge that starts where the arc's surface ends
/// (within [`CHAIN_VERTEX_SLOP_REL`] of the coordinates), goes on away from the arc, and
/// turns from the arc's tangent there by less than [`SEAM_FLAT_SIN`] towards the ball (on
/// an outside ride, either way: a face falling into a post's circle may come out of it
/// further round). `None` for anything else, and on an end cap or a pillar (a point or a
/// whole circle: nothing ends there).
pub(crate) fn flat_joint(ridden: &Ridden, r: f64, shape: &ObstacleShape) -> Option<FlatJoint> {
    let segment = shape.line()?;
    let [from, to] = ridden.span?;
    let surface = if ridden.inside {
        ridden.radius + r
    } else {
        ridden.radius - r
    };
    let (a, b) = (segment.a.as_dvec2(), segment.b.as_dvec2());
    [(from, -from.perp()), (to, to.perp())]
        .into_iter()
        .find_map(|(dir, leaving)| {
            let joint = ridden.center + dir * surface;
            let slop = f64::from(CHAIN_VERTEX_SLOP_REL) * joint.abs().max_element().max(1.0);
            if !(surface > slop) {
                return None;
            }
            let at = |p: DVec2| (p - joint).abs().max_element() <= slop;
            let (near, far) = if at(a) {
                (segment.a, segment.b)
            } else if at(b) {
                (segment.b, segment.a)
            } else {
                return None;
            };
            let along = (far.as_dvec2() - joint).try_normalize()?;
            let normal = if ridden.inside { -dir } else { dir };
            let rises = along.dot(normal);
            let flat = f64::from(SEAM_FLAT_SIN);
            let joins = rises < flat && (ridden.inside || rises > -flat);
            (along.dot(leaving) > 0.0 && joins).then_some(FlatJoint {
                face: Segment::new(near, far),
                normal,
                along,
            })
        })
}

/// Whether `shape`, a face (a segment or a chain's edge), ends on the surface of the round
/// part `ridden` that a ball of radius `r` centred at `center` rides, the ball is at that
/// end, and at `velocity` it does not head back along the face: a lip, as a slope ending
/// on a post. Such a face does not hold the ball on its ride: a point of the part's
/// surface is nearest the circle the centre rides where the ball touches it, and further
/// off either way. (Taken for a second surface holding it, the ball sliding off a slope
/// onto a post did not ride: the lone sweep hopped on the post, at 1.5e-3 u/s a contact,
/// and the event machinery settled, took the rest of the step's gravity at once and
/// gained energy, 1.7e-3 of L off at 60 Hz.)
///
/// On the surface means within the touch slop of it ([`TOUCH_SLOP_REL`] of `r`), or the
/// f32 rounding of the coordinates ([`CHAIN_VERTEX_SLOP_REL`]), whichever is more. At the
/// end means the centre's foot on the face's line is no further back from it than where
/// the ride's circle comes within that slop of the face's line, `√(2·L·slop)`: a face
/// that goes on along the part's tangent from its end meets the ride's circle there, and
/// the f32 contact with a part so nearly tangent may come that far before the end.
pub(crate) fn ends_on(ridden: &Ridden, r: f64, shape: &ObstacleShape, center: Vec2, velocity: Vec2) -> bool {
    let Some(face) = shape.line() else {
        return false;
    };
    let (a, b, p) = (face.a.as_dvec2(), face.b.as_dvec2(), center.as_dvec2());
    let (end, other) = if p.distance_squared(a) <= p.distance_squared(b) {
        (a, b)
    } else {
        (b, a)
    };
    let Some(along) = (end - other).try_normalize() else {
        return false;
    };
    let touch = f64::from(TOUCH_SLOP_REL) * r;
    let slop = touch.max(f64::from(CHAIN_VERTEX_SLOP_REL) * end.abs().max_element().max(1.0));
    let surface = if ridden.inside {
        ridden.radius + r
    } else {
        ridden.radius - r
    };
    let on_surface = ((end - ridden.center).length() - surface).abs() <= slop;
    let at_end = (end - p).dot(along) <= (2.0 * ridden.radius * slop).sqrt();
    on_surface && at_end && velocity.as_dvec2().dot(along) >= 0.0
}

/// The circle a ball of radius `r` on the `side` of `face` (its unit normal towards the
/// ball) rides on `arc` from `end`, an end of the face where the face joins the arc flat
/// ([`flat_joint`]): on the arc's inside when the arc's centre lies on the ball's side.
pub(crate) fn arc_joining(arc: CircleArc, face: Segment, end: Vec2, side: DVec2, r: f64) -> Option<Ridden> {
    let inside = side.dot((arc.center - end).as_dvec2()) > 0.0;
    let ridden = arc_curve(arc, inside, r)?;
    let joint = flat_joint(&ridden, r, &ObstacleShape::Segment(face))?;
    (joint.face.a == end).then_some(ridden)
}
