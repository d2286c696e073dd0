//! Swept pair queries, one file per pair, each reduced to [`ray_circle_toi`](crate::ray_circle_toi)
//! (straight legs) or a polynomial's first root (curved legs). The shapes added beside the
//! segment and the pillar hold both legs in their one file: `circle_capsule.rs` (the
//! segment query for a grown circle), `circle_chain_edge.rs` (the segment query with a
//! chain's vertex rules) and `circle_arc.rs` (two circles within an angle range, and two
//! caps).
//!
//! Every query follows one contract (see [`Hit`](crate::Hit)):
//! - `toi` is the fraction of `motion` travelled at first contact, in `[0, 1]`;
//! - `None` when there is no contact in `[0, 1]`, when `motion` is zero, when the contact
//!   is not approached (`motion · normal >= 0`: moving away or grazing), or when any input
//!   is not finite or a radius is negative;
//! - a circle that starts touching or overlapping gets `toi == 0` exactly when it moves
//!   into the obstacle, so a ball left touching a wall after a bounce is free to leave it
//!   and can never sink through it;
//! - a circle whose centre lies on the obstacle itself (exactly on a segment's line, on
//!   an end point, on a pillar's centre) has no side of its own: the normal is taken
//!   against the motion. After the bounce the same centre, moving the other way, would be
//!   met again from the other side; a loop of sweeps keeps the side the first contact
//!   chose by dropping that second contact (see `met_again_from_behind`).

mod circle_arc;
mod circle_capsule;
mod circle_chain_edge;
mod circle_circle;
mod circle_segment;
mod moving_arc;
mod moving_circle;
mod moving_search;
mod moving_segment;
mod parabola_circle;
mod parabola_segment;

pub use circle_arc::{sweep_circle_arc, sweep_parabola_arc};
pub(crate) use circle_arc::{sweep_circle_arc_ordered, sweep_parabola_arc_ordered};
pub use circle_capsule::{sweep_circle_capsule, sweep_parabola_capsule};
pub(crate) use circle_capsule::{sweep_circle_capsule_ordered, sweep_parabola_capsule_ordered};
pub use circle_chain_edge::{sweep_circle_chain_edge, sweep_parabola_chain_edge};
pub(crate) use circle_chain_edge::{sweep_circle_chain_edge_ordered, sweep_parabola_chain_edge_ordered};
pub use circle_circle::sweep_circle_circle;
pub(crate) use circle_circle::sweep_circle_circle_ordered;
pub use circle_segment::sweep_circle_segment;
pub(crate) use circle_segment::sweep_circle_segment_ordered;
pub use moving_arc::{moving_arc_tolerance, sweep_circle_moving_arc, sweep_parabola_moving_arc};
pub(crate) use moving_circle::moving_circles_toi;
pub use moving_circle::sweep_circle_moving_circle;
pub use moving_search::MovingHit;
pub use moving_segment::{
    SegmentMotion, moving_segment_tolerance, sweep_circle_moving_segment, sweep_parabola_moving_segment,
};
pub use parabola_circle::sweep_parabola_circle;
pub(crate) use parabola_circle::{sweep_parabola_circle_ordered, sweep_parabola_moving_circle};
pub use parabola_segment::sweep_parabola_segment;
pub(crate) use parabola_segment::sweep_parabola_segment_ordered;

use crate::hit::Hit;
use crate::shape::Circle;
use glam::{DVec2, Vec2};

/// The first contact of a circle on a curved leg ([`Parabola`](crate::Parabola)), and the
/// root search it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvedHit {
    /// The contact: `hit.toi` is the fraction of the leg's duration, `hit.center` lies on
    /// the curve, and the velocity there is [`Parabola::velocity_at`](crate::Parabola::velocity_at)`(hit.toi)`.
    pub hit: Hit,
    /// Root-search steps spent, over every part of the obstacle tried (each search capped
    /// at [`MAX_ROOT_ITERATIONS`](crate::tolerance::MAX_ROOT_ITERATIONS)).
    pub iterations: u32,
}

/// Whether a curved leg `offset(s) = m·s + k·s²` moves the centre into a surface of
/// `normal` at the fraction `s`: its velocity there approaches it, or it is still along it
/// while gravity turns it in.
#[inline]
pub(crate) fn moves_in(m: DVec2, k: DVec2, s: f64, normal: DVec2) -> bool {
    let along = (m + k * (2.0 * s)).dot(normal);
    along < 0.0 || (along == 0.0 && k.dot(normal) < 0.0)
}

/// Whether a query's inputs can be used: finite values and non-negative radii.
#[inline]
pub(crate) fn usable(circle: Circle, motion: Vec2) -> bool {
    circle.center.is_finite() && circle.radius >= 0.0 && circle.radius.is_finite() && motion.is_finite()
}

/// Whether `hit`, the first contact of a straight leg with the obstacle the circle met at
/// the very start of that leg (with normal `last_normal`), is that same contact met again
/// from the other side. A loop of sweeps drops such a contact, and with it the obstacle
/// for the rest of the leg.
///
/// Only a centre that lies on the obstacle itself (exactly on a segment's line within its
/// face, on an end point, on a pillar's centre) is met at `toi == 0` with a normal facing
/// against the one just taken: everywhere else the normal at a given centre is fixed by
/// the geometry (the side of the line, the direction from the end point or the pillar's
/// centre), and there the sweep takes it against the motion, which the bounce turned
/// round. So the first contact chose the side (the one the circle came from), and the
/// circle leaves to it. Dropping the second contact loses nothing: the distance from a
/// point moving on a straight line to a convex shape is convex in time, so from 0 (on the
/// shape) it only grows, and the circle cannot close in on that obstacle again before its
/// next contact with something else.
#[inline]
#[must_use]
pub(crate) fn met_again_from_behind(hit: &Hit, last_normal: Vec2) -> bool {
    hit.toi == 0.0 && hit.normal.dot(last_normal) < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::reflect;
    use crate::shape::Segment;
    use crate::{Material, sweep_circle_circle, sweep_circle_segment};

    /// The sweep after the bounce, from the contact's centre: `(first, second)`.
    fn contact_then_again(
        sweep: impl Fn(Circle, Vec2) -> Option<Hit>,
        circle: Circle,
        motion: Vec2,
    ) -> (Hit, Option<Hit>) {
        let first = sweep(circle, motion).expect("a first contact");
        let bounced = reflect(motion, first.normal, Material::ELASTIC, 0.0);
        (first, sweep(Circle::new(first.center, circle.radius), bounced))
    }

    #[test]
    fn a_centre_on_the_surface_is_met_again_from_behind() {
        let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
        let on_floor = |c: Circle, m: Vec2| sweep_circle_segment(c, m, floor);
        // On the line within the face, moving down and right: the first contact faces up
        // (against the motion), the second, after the bounce sent it up and right, down.
        let (first, second) = contact_then_again(
            on_floor,
            Circle::new(Vec2::new(1.0, 0.0), 1.0),
            Vec2::new(3.0, -4.0),
        );
        assert_eq!((first.toi, first.normal), (0.0, Vec2::Y));
        let second = second.expect("the same contact from the other side");
        assert_eq!((second.toi, second.normal), (0.0, -Vec2::Y));
        assert!(met_again_from_behind(&second, first.normal));
        // On end point B, moving left and down into the segment: against the motion, then
        // against the motion reversed.
        let (first, second) = contact_then_again(
            on_floor,
            Circle::new(Vec2::new(10.0, 0.0), 1.0),
            Vec2::new(-4.0, -3.0),
        );
        assert_eq!(first.normal, Vec2::new(0.8, 0.6));
        assert!(met_again_from_behind(&second.expect("again"), first.normal));
        // A ball on a pillar's centre.
        let pillar = Circle::new(Vec2::new(2.0, 2.0), 3.0);
        let on_pillar = |c: Circle, m: Vec2| sweep_circle_circle(c, m, pillar);
        let (first, second) =
            contact_then_again(on_pillar, Circle::new(pillar.center, 1.0), Vec2::new(0.0, 5.0));
        assert_eq!(first.normal, -Vec2::Y);
        assert!(met_again_from_behind(&second.expect("again"), first.normal));
    }

    #[test]
    fn a_centre_off_the_surface_is_not_met_again() {
        let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
        let on_floor = |c: Circle, m: Vec2| sweep_circle_segment(c, m, floor);
        // Landing on the floor, overlapping it from above, or a hair above its line: the
        // normal is the geometry's, and after the bounce the ball leaves freely.
        for (center, motion) in [
            (Vec2::new(0.0, 5.0), Vec2::new(3.0, -8.0)),
            (Vec2::new(0.0, 0.5), Vec2::new(3.0, -4.0)),
            (Vec2::new(0.0, f32::MIN_POSITIVE), Vec2::new(-3.0, -4.0)),
        ] {
            let (first, second) = contact_then_again(on_floor, Circle::new(center, 1.0), motion);
            assert_eq!(first.normal, Vec2::Y, "{center}");
            assert_eq!(second, None, "{center}");
        }
        // A contact at once with the same normal (pressed again) is not from behind, nor
        // is a later one.
        let pressed = Hit {
            toi: 0.0,
            center: Vec2::new(0.0, 1.0),
            point: Vec2::ZERO,
            normal: Vec2::Y,
        };
        assert!(!met_again_from_behind(&pressed, Vec2::Y));
        assert!(!met_again_from_behind(
            &Hit {
                toi: 0.5,
                normal: -Vec2::Y,
                ..pressed
            },
            Vec2::Y
        ));
    }
}
