//! A moving circle against a static [`Capsule`], on a straight or a curved leg: the segment
//! query for a circle grown by the capsule's radius.

use super::CurvedHit;
use super::circle_segment::sweep_circle_segment_ordered;
use super::parabola_segment::sweep_parabola_segment_ordered;
use crate::hit::{ContactOrder, Hit};
use crate::parabola::Parabola;
use crate::shape::{Aabb, Capsule, Circle};
use glam::Vec2;

/// First contact of `circle`, moving by `motion`, with `capsule`.
///
/// A circle of radius `r` touches a capsule of radius `R` exactly when a circle of radius
/// `r + R` touches its core segment: the query is
/// [`sweep_circle_segment`](crate::sweep_circle_segment) for the grown circle, with the
/// contact point moved out to the capsule's surface. The contract is the segment's.
///
/// ```
/// use ccd_core::{sweep_circle_capsule, Capsule, Circle, Vec2};
/// // A ball of radius 1 falls onto a capsule of radius 0.5 around y = 0: its centre stops
/// // at y = 1.5, after 3.5 of 7 units.
/// let paddle = Capsule::new(Vec2::new(-4.0, 0.0), Vec2::new(4.0, 0.0), 0.5);
/// let hit = sweep_circle_capsule(Circle::new(Vec2::new(0.0, 5.0), 1.0), Vec2::new(0.0, -7.0), paddle).unwrap();
/// assert_eq!(hit.toi, 0.5);
/// assert_eq!(hit.point, Vec2::new(0.0, 0.5));
/// ```
#[must_use]
pub fn sweep_circle_capsule(circle: Circle, motion: Vec2, capsule: Capsule) -> Option<Hit> {
    sweep_circle_capsule_ordered(circle, motion, capsule).map(|(hit, _)| hit)
}

/// [`sweep_circle_capsule`], with what orders its contact against other obstacles'.
pub(crate) fn sweep_circle_capsule_ordered(
    circle: Circle,
    motion: Vec2,
    capsule: Capsule,
) -> Option<(Hit, ContactOrder)> {
    let grown = grown(circle, capsule)?;
    let (hit, order) = sweep_circle_segment_ordered(grown, motion, capsule.segment)?;
    Some((to_surface(hit, capsule.radius)?, order))
}

/// First contact of `circle`, whose centre follows `path`, with `capsule`: the curved
/// segment query ([`sweep_parabola_segment`](crate::sweep_parabola_segment)) for the
/// circle grown by the capsule's radius.
///
/// ```
/// use ccd_core::{sweep_parabola_capsule, Capsule, Circle, Parabola, Vec2};
/// // Dropped from rest at y = 10 under g = 10 onto a capsule of radius 1 around y = 0:
/// // a point falls 9, in sqrt(1.8) s.
/// let post = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 1.0);
/// let path = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
/// let found = sweep_parabola_capsule(Circle::new(Vec2::new(0.0, 10.0), 0.0), path, post).unwrap();
/// assert!((found.hit.toi * 2.0 - 1.8_f32.sqrt()).abs() < 1e-6);
/// ```
#[must_use]
pub fn sweep_parabola_capsule(circle: Circle, path: Parabola, capsule: Capsule) -> Option<CurvedHit> {
    let reach = path.aabb(circle.center, circle.radius);
    sweep_parabola_capsule_ordered(circle, path, reach, capsule).map(|(hit, _)| hit)
}

/// [`sweep_parabola_capsule`], with what orders its contact; `reach` is the box the
/// circle (not grown) sweeps along `path`.
pub(crate) fn sweep_parabola_capsule_ordered(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    capsule: Capsule,
) -> Option<(CurvedHit, ContactOrder)> {
    let grown = grown(circle, capsule)?;
    let (found, order) =
        sweep_parabola_segment_ordered(grown, path, reach.inflated(capsule.radius), capsule.segment)?;
    let hit = to_surface(found.hit, capsule.radius)?;
    Some((CurvedHit { hit, ..found }, order))
}

/// The circle grown by the capsule's radius; `None` for a radius that is negative or not
/// finite.
#[inline]
fn grown(circle: Circle, capsule: Capsule) -> Option<Circle> {
    (capsule.radius >= 0.0 && capsule.radius.is_finite())
        .then(|| Circle::new(circle.center, circle.radius + capsule.radius))
}

/// The segment's contact with its point moved out along the normal to the surface.
#[inline]
fn to_surface(mut hit: Hit, radius: f32) -> Option<Hit> {
    hit.point += hit.normal * radius;
    hit.point.is_finite().then_some(hit)
}
