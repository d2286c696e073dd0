//! A circle on a parabola (under gravity) against a static circle (a pillar).

use super::circle_circle::sweep_circle_circle_ordered;
use super::{CurvedHit, moves_in, usable};
use crate::hit::{ContactOrder, Feature, Hit};
use crate::parabola::{Parabola, parabola_circle_toi_f64};
use crate::shape::{Aabb, Circle};
use crate::tolerance::ROOT_BRACKET_REL;
use glam::Vec2;

/// First contact of `circle`, whose centre follows `path`, with the static circle `other`.
///
/// The centre meets a circle of radius `r + R` around the pillar's centre: the first fall
/// of a quartic in the leg's fraction, found from the outside (early, never late) in f64.
/// `hit.toi` is the fraction of `path.duration`; the normal points from the pillar's
/// centre to the circle's. A circle that starts touching or overlapping gets `toi == 0`
/// when the leg moves it in at once; one that leaves is met again only when it comes back
/// to the distance it starts at. With `path.gravity` zero this is exactly
/// [`sweep_circle_circle`](crate::sweep_circle_circle).
///
/// A pillar that moves at a constant velocity `u` is the same query on the relative curve
/// (velocity `v − u`, the same gravity); two balls under one gravity move in a straight
/// line relative to each other, so theirs is the straight
/// [`sweep_circle_moving_circle`](crate::sweep_circle_moving_circle).
///
/// ```
/// use ccd_core::{sweep_parabola_circle, Circle, Parabola, Vec2};
/// // A ball of radius 1 dropped from (0, 10) onto a pillar of radius 1 at the origin
/// // under g = 10: its centre falls 8 to touch, in sqrt(1.6) = 1.2649 s.
/// let ball = Circle::new(Vec2::new(0.0, 10.0), 1.0);
/// let pillar = Circle::new(Vec2::ZERO, 1.0);
/// let path = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
/// let found = sweep_parabola_circle(ball, path, pillar).unwrap();
/// assert!((found.hit.toi * 2.0 - 1.2649111).abs() < 1e-6);
/// assert_eq!(found.hit.normal, Vec2::Y);
/// ```
#[must_use]
pub fn sweep_parabola_circle(circle: Circle, path: Parabola, other: Circle) -> Option<CurvedHit> {
    let reach = path.aabb(circle.center, circle.radius);
    sweep_parabola_circle_ordered(circle, path, reach, other).map(|(hit, _)| hit)
}

/// [`sweep_parabola_circle`], with what orders its contact against other obstacles';
/// `reach` is the box the circle sweeps along `path`.
pub(crate) fn sweep_parabola_circle_ordered(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    other: Circle,
) -> Option<(CurvedHit, ContactOrder)> {
    if path.gravity == Vec2::ZERO {
        let (hit, order) = sweep_circle_circle_ordered(circle, path.velocity * path.duration, other)?;
        return Some((CurvedHit { hit, iterations: 0 }, order));
    }
    if !usable(circle, Vec2::ZERO)
        || !usable(other, Vec2::ZERO)
        || !path.is_usable()
        || !(path.duration > 0.0)
    {
        return None;
    }
    if !reach.intersects(&other.aabb()) {
        return None;
    }
    let reach = f64::from(circle.radius) + f64::from(other.radius);
    let start = circle.center.as_dvec2() - other.center.as_dvec2();
    let (m, k) = path.terms();
    let normal_at = |s: f64| {
        (start + m * s + k * (s * s))
            .try_normalize()
            .or_else(|| (-(m + k * (2.0 * s))).try_normalize())
            .or_else(|| (-k).try_normalize())
    };
    let (s, iterations) = if start.length_squared() <= reach * reach {
        // Starting in contact or overlapping: a contact now if the leg moves in at once.
        // Otherwise it leaves, and only a return to the distance it starts at is a contact.
        if moves_in(m, k, 0.0, normal_at(0.0)?) {
            (0.0, 0)
        } else {
            let shrunk = start.length() * (1.0 - ROOT_BRACKET_REL);
            let root = parabola_circle_toi_f64(start, m, k, shrunk)?;
            (root.s, root.iterations)
        }
    } else {
        let root = parabola_circle_toi_f64(start, m, k, reach)?;
        (root.s, root.iterations)
    };
    let offset = m * s + k * (s * s);
    let normal = normal_at(s)?;
    let hit = Hit {
        toi: s as f32,
        center: (circle.center.as_dvec2() + offset).as_vec2(),
        point: other.center + normal.as_vec2() * other.radius,
        normal: normal.as_vec2(),
    }
    .finite_if(moves_in(m, k, s, normal))?;
    Some((
        CurvedHit { hit, iterations },
        ContactOrder {
            toi: s,
            feature: Feature::Round,
        },
    ))
}

/// A circle on the curve `path` against a circle `other` that moves by `other_motion`
/// over the leg (a kinematic pillar): the static query on the relative curve (velocity
/// `v − other_motion / T`, the same gravity), then the contact put back in the world: the
/// centre on `path`, the pillar where it is then. `hit.toi` is the fraction of the leg.
pub(crate) fn sweep_parabola_moving_circle(
    circle: Circle,
    path: Parabola,
    other: Circle,
    other_motion: Vec2,
) -> Option<Hit> {
    if !(path.duration > 0.0) || !other_motion.is_finite() {
        return None;
    }
    let relative = Parabola {
        velocity: path.velocity - other_motion / path.duration,
        ..path
    };
    let reach = relative.aabb(circle.center, circle.radius);
    let (found, _) = sweep_parabola_circle_ordered(circle, relative, reach, other)?;
    let toi = found.hit.toi;
    let center = circle.center + path.offset(toi);
    let other_center = other.center + other_motion * toi;
    let normal = (center - other_center)
        .try_normalize()
        .unwrap_or(found.hit.normal);
    Some(Hit {
        toi,
        center,
        point: other_center + normal * other.radius,
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throw_over_a_pillar_clears_it_by_its_apex() {
        // From (−2, 0) at (2, 4) under g = −10 for 0.8 s the apex is (−1.2, 0.8). A point
        // clears a pillar of radius 0.1 at (−1.2, 1.0) (0.1 above its top) and hits one at
        // (−1.2, 0.85), coming up from below it.
        let path = Parabola::new(Vec2::new(2.0, 4.0), Vec2::new(0.0, -10.0), 0.8);
        let point = Circle::new(Vec2::new(-2.0, 0.0), 0.0);
        assert!(sweep_parabola_circle(point, path, Circle::new(Vec2::new(-1.2, 1.0), 0.1)).is_none());
        let found = sweep_parabola_circle(point, path, Circle::new(Vec2::new(-1.2, 0.85), 0.1)).unwrap();
        assert!(found.hit.normal.y < 0.0, "{found:?}");
        assert!(found.hit.toi < 0.5);
    }
}
