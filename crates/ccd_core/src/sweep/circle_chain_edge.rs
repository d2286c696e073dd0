//! A moving circle against one edge of a chain ([`ChainEdge`]), on a straight or a curved
//! leg: the segment query with the chain's two vertex rules.

use super::CurvedHit;
use super::circle_segment::sweep_circle_segment_with_caps;
use super::parabola_segment::sweep_parabola_segment_with_caps;
use crate::hit::{Caps, ContactOrder, Hit};
use crate::parabola::Parabola;
use crate::shape::{Aabb, ChainEdge, Circle};
use crate::tolerance::CHAIN_VERTEX_SLOP_REL;
use glam::Vec2;

/// First contact of `circle`, moving by `motion`, with the chain's edge `edge`, two-sided.
///
/// It is [`sweep_circle_segment`](crate::sweep_circle_segment) with two rules that make a
/// chain one surface:
/// - **ownership**: the cap around the edge's end `b` belongs to the next edge, when there
///   is one, and is not searched here: a ball meets an inner vertex once;
/// - **no ghost vertex**: a contact on the cap around `a` is kept only where the vertex
///   is the chain's closest point: on the side where the chain bends away from the ball
///   (a convex corner), beyond the previous edge's face. Elsewhere (a flat or concave
///   joint, or a centre on that face's side) the faces hold the ball; the search then
///   runs again without the cap, for a later contact with this edge's face.
///
/// Together, the edges of a chain give the first contact with the whole chain, and a ball
/// rolling across a flat or concave joint never meets the vertex's cap. The contact's
/// `point` is `segment.a` exactly for a contact on the vertex, `segment.b` for one on an
/// open end.
///
/// ```
/// use ccd_core::{sweep_circle_chain_edge, ChainEdge, Circle, Segment, Vec2};
/// // A floor in two collinear pieces, from x = −5 to 0 and from 0 to 5. A ball sliding on
/// // the first piece, its centre a hair below the contact height, is not met by the second
/// // piece's vertex at x = 0: the first face holds it.
/// let second = ChainEdge {
///     segment: Segment::new(Vec2::ZERO, Vec2::new(5.0, 0.0)),
///     before: Vec2::new(-5.0, 0.0),
///     after: Vec2::new(5.0, 0.0),
/// };
/// let ball = Circle::new(Vec2::new(-0.5, 0.9999), 1.0);
/// assert_eq!(sweep_circle_chain_edge(ball, Vec2::new(1.0, 0.0), second), None);
/// // A ball dropped onto the second piece meets its face.
/// let hit = sweep_circle_chain_edge(Circle::new(Vec2::new(2.0, 3.0), 1.0), Vec2::new(0.0, -4.0), second).unwrap();
/// assert_eq!(hit.toi, 0.5);
/// ```
#[must_use]
pub fn sweep_circle_chain_edge(circle: Circle, motion: Vec2, edge: ChainEdge) -> Option<Hit> {
    sweep_circle_chain_edge_ordered(circle, motion, edge).map(|(hit, _)| hit)
}

/// [`sweep_circle_chain_edge`], with what orders its contact against other obstacles'.
pub(crate) fn sweep_circle_chain_edge_ordered(
    circle: Circle,
    motion: Vec2,
    edge: ChainEdge,
) -> Option<(Hit, ContactOrder)> {
    let caps = owned_caps(edge);
    let found = sweep_circle_segment_with_caps(circle, motion, edge.segment, caps)?;
    if !is_ghost(edge, &found.0, circle.radius) {
        return Some(found);
    }
    sweep_circle_segment_with_caps(circle, motion, edge.segment, Caps { a: false, ..caps })
}

/// First contact of `circle`, whose centre follows `path`, with the chain's edge `edge`:
/// [`sweep_parabola_segment`](crate::sweep_parabola_segment) with the rules of
/// [`sweep_circle_chain_edge`].
#[must_use]
pub fn sweep_parabola_chain_edge(circle: Circle, path: Parabola, edge: ChainEdge) -> Option<CurvedHit> {
    let reach = path.aabb(circle.center, circle.radius);
    sweep_parabola_chain_edge_ordered(circle, path, reach, edge).map(|(hit, _)| hit)
}

/// [`sweep_parabola_chain_edge`], with what orders its contact; `reach` is the box the
/// circle sweeps along `path`.
pub(crate) fn sweep_parabola_chain_edge_ordered(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    edge: ChainEdge,
) -> Option<(CurvedHit, ContactOrder)> {
    let caps = owned_caps(edge);
    let found = sweep_parabola_segment_with_caps(circle, path, reach, edge.segment, caps)?;
    if !is_ghost(edge, &found.0.hit, circle.radius) {
        return Some(found);
    }
    let (again, order) =
        sweep_parabola_segment_with_caps(circle, path, reach, edge.segment, Caps { a: false, ..caps })?;
    Some((
        CurvedHit {
            iterations: found.0.iterations + again.iterations,
            ..again
        },
        order,
    ))
}

/// The caps the edge owns: its start always, its end only at an open end.
#[inline]
fn owned_caps(edge: ChainEdge) -> Caps {
    Caps {
        a: true,
        b: !edge.has_after(),
    }
}

/// Whether `hit`, on the edge's start cap (an inner vertex), is not the chain's closest
/// point there:
/// - on the side where the chain is flat or bends towards the ball (a concave joint), the
///   two faces cover the vertex: a contact with its cap is always a ghost;
/// - on the side where it bends away (a convex corner), the vertex is the closest point
///   only beyond the previous edge's face: a contact whose centre lies on that face's
///   side, behind the vertex by more than [`CHAIN_VERTEX_SLOP_REL`] of the scale, is a
///   ghost.
#[inline]
pub(crate) fn is_ghost(edge: ChainEdge, hit: &Hit, radius: f32) -> bool {
    let a = edge.segment.a;
    if hit.point != a || !edge.has_before() {
        return false;
    }
    let back = (a - edge.before).as_dvec2();
    let ahead = edge.segment.direction().as_dvec2();
    let normal = hit.normal.as_dvec2();
    // A turn to the right makes the left the convex side: there the outside is either
    // edge's left half-plane. A turn to the left makes the right side convex. A straight
    // joint has no convex side.
    let turn = back.perp_dot(ahead);
    let (left_of_before, left_of_ahead) = (normal.dot(back.perp()), normal.dot(ahead.perp()));
    let convex = if turn < 0.0 {
        left_of_before > 0.0 || left_of_ahead > 0.0
    } else if turn > 0.0 {
        left_of_before < 0.0 || left_of_ahead < 0.0
    } else {
        false
    };
    if !convex {
        return true;
    }
    let behind = (hit.center.as_dvec2() - a.as_dvec2()).dot(back);
    let scale = a
        .abs()
        .max_element()
        .max(hit.center.abs().max_element())
        .max(radius);
    behind < -f64::from(CHAIN_VERTEX_SLOP_REL * scale) * back.length()
}
