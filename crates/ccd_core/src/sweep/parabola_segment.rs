//! A circle on a parabola (under gravity) against a static, two-sided segment: a capsule of
//! radius `r` around it.

use super::circle_segment::sweep_circle_segment_with_caps;
use super::{CurvedHit, moves_in, usable};
use crate::hit::{Caps, ContactOrder, Feature, Hit};
use crate::parabola::{Parabola, parabola_circle_toi_f64};
use crate::roots::{Poly, first_crossing};
use crate::shape::{Aabb, Circle, Segment};
use crate::tolerance::ROOT_BRACKET_REL;
use glam::{DVec2, Vec2};

/// First contact of `circle`, whose centre follows `path`, with the two-sided `segment`.
///
/// The segment grows by the circle's radius into a capsule, as for the straight sweep
/// ([`sweep_circle_segment`](crate::sweep_circle_segment)), and each of its parts becomes
/// one polynomial in the leg's fraction `s`:
/// - each face is a line offset by `±r`; the signed distance to it is a quadratic. A
///   parabola can cross the segment's line beyond an end and come back, so both faces are
///   tried, each at its first fall from its own side, and the hit counts if its foot lies
///   between the end points;
/// - each end point is a circle of radius `r`: a quartic (see the crate's `roots.rs`).
///
/// The earliest wins, a face before an end cap at the same time. Times are found from the
/// outside (early, never late), in f64 from the exact f32 inputs, relative to the segment.
/// `hit.toi` is the fraction of `path.duration`, and `hit.center` lies on the curve.
///
/// A circle that starts touching or overlapping gets `toi == 0` when the leg moves it into
/// the segment at once (its velocity approaches, or it moves along the segment while
/// gravity turns it in), so a ball resting on a floor is held by it; one that leaves is met
/// again only when it comes back to the depth it starts at. With `path.gravity` zero this is exactly the straight
/// sweep.
///
/// ```
/// use ccd_core::{sweep_parabola_segment, Circle, Parabola, Segment, Vec2};
/// // A ball of radius 0.5 dropped from y = 10 under g = 10 reaches the floor y = 0 when its
/// // centre has fallen 9.5: after sqrt(2·9.5/10) = 1.3784 s, at 13.784 units/s.
/// let ball = Circle::new(Vec2::new(0.0, 10.0), 0.5);
/// let floor = Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
/// let path = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
/// let found = sweep_parabola_segment(ball, path, floor).unwrap();
/// assert!((found.hit.toi * 2.0 - 1.3784049).abs() < 1e-6);
/// assert!((found.hit.center.y - 0.5).abs() < 1e-5);
/// assert_eq!(found.hit.normal, Vec2::Y);
/// assert!((path.velocity_at(found.hit.toi).y + 13.784049).abs() < 1e-4);
/// ```
#[must_use]
pub fn sweep_parabola_segment(circle: Circle, path: Parabola, segment: Segment) -> Option<CurvedHit> {
    let reach = path.aabb(circle.center, circle.radius);
    sweep_parabola_segment_ordered(circle, path, reach, segment).map(|(hit, _)| hit)
}

/// [`sweep_parabola_segment`], with what orders its contact against other obstacles';
/// `reach` is the box the circle sweeps along `path` (computed once for a leg's every
/// obstacle).
pub(crate) fn sweep_parabola_segment_ordered(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    segment: Segment,
) -> Option<(CurvedHit, ContactOrder)> {
    sweep_parabola_segment_with_caps(circle, path, reach, segment, Caps::BOTH)
}

/// [`sweep_parabola_segment_ordered`] counting only the end caps in `caps` (a chain's edge).
pub(crate) fn sweep_parabola_segment_with_caps(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    segment: Segment,
    caps: Caps,
) -> Option<(CurvedHit, ContactOrder)> {
    if path.gravity == Vec2::ZERO {
        let (hit, order) =
            sweep_circle_segment_with_caps(circle, path.velocity * path.duration, segment, caps)?;
        return Some((CurvedHit { hit, iterations: 0 }, order));
    }
    if !usable(circle, Vec2::ZERO) || !path.is_usable() || !segment.a.is_finite() || !segment.b.is_finite() {
        return None;
    }
    // Quick reject: the curve's box misses the segment's box.
    if !(path.duration > 0.0) || !reach.intersects(&segment.aabb()) {
        return None;
    }
    let a = segment.a.as_dvec2();
    let d = segment.b.as_dvec2() - a;
    let len_sq = d.length_squared();
    let r = f64::from(circle.radius);
    let (m, k) = path.terms();
    let rel = circle.center.as_dvec2() - a;
    let mut iterations = 0;

    let (start_closest, start_feature) = closest(rel, d, len_sq);
    let start_gap_sq = (rel - start_closest).length_squared();
    let start_counted = match start_feature {
        Feature::Face => true,
        Feature::Round if start_closest == DVec2::ZERO => caps.a,
        Feature::Round => caps.b,
    };
    let (s, feature) = if start_counted && start_gap_sq <= r * r {
        // Starting in contact or overlapping: a contact now if the leg moves in at once.
        // Otherwise it leaves, and only a return to the depth it starts at is a contact:
        // the search runs for a capsule shrunk to the start's distance.
        let normal = normal_at(rel, start_closest, start_feature, d, m, k)?;
        if moves_in(m, k, 0.0, normal) {
            (0.0, start_feature)
        } else {
            let shrunk = start_gap_sq.sqrt() * (1.0 - ROOT_BRACKET_REL);
            let found = earliest_contact(CentrePath { rel, m, k }, segment, reach, shrunk, caps)?;
            iterations = found.iterations;
            (found.order.toi, found.order.feature)
        }
    } else {
        let found = earliest_contact(CentrePath { rel, m, k }, segment, reach, r, caps)?;
        iterations = found.iterations;
        (found.order.toi, found.order.feature)
    };
    let offset = m * s + k * (s * s);
    let at = rel + offset;
    let (closest, _) = closest(at, d, len_sq);
    let normal = normal_at(at, closest, feature, d, m + k * (2.0 * s), k)?;
    let center = (circle.center.as_dvec2() + offset).as_vec2();
    let hit = Hit {
        toi: s as f32,
        center,
        point: (a + closest).as_vec2(),
        normal: normal.as_vec2(),
    }
    .finite_if(moves_in(m, k, s, normal))?;
    Some((CurvedHit { hit, iterations }, ContactOrder { toi: s, feature }))
}

/// The contact normal at the centre `at` (relative to `a`) whose closest point of the
/// segment `d` is `closest`, on `feature`, moving at `velocity` (per unit fraction) under
/// the bend `k`: on a face, the segment normal on the centre's side; at an end point, away
/// from it. A centre on the segment itself takes it against the motion (as the straight
/// sweep does), or against gravity when it does not move.
#[inline]
fn normal_at(
    at: DVec2,
    closest: DVec2,
    feature: Feature,
    d: DVec2,
    velocity: DVec2,
    k: DVec2,
) -> Option<DVec2> {
    match feature {
        Feature::Face => {
            let cross = d.perp_dot(at);
            let toward = if velocity == DVec2::ZERO { k } else { velocity };
            let side = if cross > 0.0 || (cross == 0.0 && d.perp_dot(toward) < 0.0) {
                1.0
            } else {
                -1.0
            };
            (d.perp() * side).try_normalize()
        }
        Feature::Round => (at - closest).try_normalize(),
    }
    .or_else(|| (-velocity).try_normalize())
    .or_else(|| (-k).try_normalize())
}

/// The closest point of the segment `d` (from `a`, relative positions) to `p`, and whether
/// it is on a face or an end point.
#[inline]
fn closest(p: DVec2, d: DVec2, len_sq: f64) -> (DVec2, Feature) {
    if !(len_sq > 0.0) {
        return (DVec2::ZERO, Feature::Round);
    }
    let along = p.dot(d);
    if along <= 0.0 {
        (DVec2::ZERO, Feature::Round)
    } else if along >= len_sq {
        (d, Feature::Round)
    } else {
        (d * (along / len_sq), Feature::Face)
    }
}

/// The earliest contact found, with the search steps it took.
struct Earliest {
    order: ContactOrder,
    iterations: u32,
}

/// A centre's path from a segment's first end: `rel + m·s + k·s²` at the fraction `s`.
#[derive(Clone, Copy)]
struct CentrePath {
    rel: DVec2,
    m: DVec2,
    k: DVec2,
}

/// The earliest fraction at which a centre starting outside the capsule reaches it: each
/// face at its first fall from its own side with its foot between the end points, each end
/// point at its first fall, along `path`. The first of these is the first contact, since at the first
/// contact the closest feature is reached then, and every candidate is a contact. Only the
/// end caps in `caps` count.
fn earliest_contact(path: CentrePath, segment: Segment, reach: Aabb, r: f64, caps: Caps) -> Option<Earliest> {
    let CentrePath { rel, m, k } = path;
    let d = segment.b.as_dvec2() - segment.a.as_dvec2();
    let len_sq = d.length_squared();
    let mut best: Option<Earliest> = None;
    let mut iterations = 0;
    let mut consider = |s: f64, feature: Feature, steps: u32| {
        iterations += steps;
        let found = ContactOrder { toi: s, feature };
        if best.as_ref().is_none_or(|b| found.before(b.order)) {
            best = Some(Earliest {
                order: found,
                iterations: 0,
            });
        }
    };
    if len_sq > 0.0 {
        let len = len_sq.sqrt();
        let cross0 = d.perp_dot(rel);
        for side in [1.0, -1.0] {
            // side · (d × centre) − r·|d|: the distance to the face's offset line, times |d|.
            let line = Poly([
                side * cross0 - r * len,
                side * d.perp_dot(m),
                side * d.perp_dot(k),
                0.0,
                0.0,
            ]);
            let on_face = |s: f64| (0.0..=len_sq).contains(&(rel + m * s + k * (s * s)).dot(d));
            let at_line = side * cross0 > 0.0 && !(line.at(0.0) > 0.0) && on_face(0.0);
            if at_line && moves_in(m, k, 0.0, (d.perp() * side).normalize_or_zero()) {
                // Outside the capsule by the distance to it (or at a cap this search does
                // not count), yet on the offset line by this measure, in the face's region:
                // at the line now, a contact as the leg moves in. One that leaves may still
                // come back onto the face later: the search below finds that fall. (Beyond
                // an end point, closer to the line than `r` is simply outside.)
                consider(0.0, Feature::Face, 0);
            } else if let Some(root) = first_crossing(line, 1.0)
                && on_face(root.s)
            {
                consider(root.s, Feature::Face, root.iterations);
            }
        }
    }
    // An end point outside the box the circle sweeps is out of reach: no quartic (and one
    // whose chord never comes near enough is rejected before its search).
    for (end, at, counted) in [(DVec2::ZERO, segment.a, caps.a), (d, segment.b, caps.b)] {
        let reachable = counted && at.cmpge(reach.min).all() && at.cmple(reach.max).all();
        if reachable && let Some(root) = parabola_circle_toi_f64(rel - end, m, k, r) {
            consider(root.s, Feature::Round, root.iterations);
        }
        if !(len_sq > 0.0) {
            break;
        }
    }
    best.map(|b| Earliest {
        order: b.order,
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Vec2 = Vec2::new(0.0, -10.0);

    #[test]
    fn a_throw_lands_on_a_floor_where_the_closed_form_says() {
        // A point thrown from (0, 1) at (3, 4) under g = 10 for 1 s, onto the floor y = 0:
        // 1 + 4t − 5t² = 0 at t = (4 + sqrt(36)) / 10 = 1.0 s exactly, at x = 3.
        let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
        let path = Parabola::new(Vec2::new(3.0, 4.0), G, 1.5);
        let found = sweep_parabola_segment(Circle::new(Vec2::new(0.0, 1.0), 0.0), path, floor).unwrap();
        assert!((found.hit.toi * 1.5 - 1.0).abs() < 1e-6, "{found:?}");
        assert!((found.hit.center - Vec2::new(3.0, 0.0)).length() < 1e-5);
        assert!(found.iterations <= crate::tolerance::MAX_ROOT_ITERATIONS);
    }

    #[test]
    fn a_curve_past_the_end_comes_back_to_the_far_face() {
        // A wall x = 0 from y = 0 to 10. A point from (1, −1) at (−4.5, 1) under a pull of 4
        // to the right: x = 1 − 4.5t + 2t² is 0 at t = 0.25 (y = −0.75, below the wall's end)
        // and again at t = 2, on the way back, at y = 1: there it meets the left face.
        let wall = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 10.0));
        let path = Parabola::new(Vec2::new(-4.5, 1.0), Vec2::new(4.0, 0.0), 3.0);
        let found = sweep_parabola_segment(Circle::new(Vec2::new(1.0, -1.0), 0.0), path, wall).unwrap();
        assert!((found.hit.toi * 3.0 - 2.0).abs() < 1e-5, "{found:?}");
        assert_eq!(found.hit.normal, Vec2::NEG_X);
        assert!((found.hit.center - Vec2::new(0.0, 1.0)).length() < 1e-5);
    }

    #[test]
    fn a_ball_resting_on_a_floor_is_held_and_one_thrown_up_is_not() {
        let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
        let ball = Circle::new(Vec2::new(0.0, 1.0), 1.0);
        // At rest, or sliding, on the floor: gravity turns it in at once.
        let held = sweep_parabola_segment(ball, Parabola::new(Vec2::new(2.0, 0.0), G, 0.1), floor).unwrap();
        assert_eq!((held.hit.toi, held.hit.normal), (0.0, Vec2::Y));
        // Leaving at 1 unit/s, it is back down after 0.2 s: held within a 0.3 s leg, free
        // within a 0.1 s one.
        assert!(sweep_parabola_segment(ball, Parabola::new(Vec2::Y, G, 0.3), floor).is_some());
        assert!(sweep_parabola_segment(ball, Parabola::new(Vec2::Y, G, 0.1), floor).is_none());
    }

    #[test]
    fn an_end_point_is_reached_as_a_circle() {
        // A floor from x = −10 to 0; a point falling at x = 0.6 towards its end (0, 0) with
        // radius 1: it touches when its height is sqrt(1 − 0.36) = 0.8, after falling 4.2
        // from y = 5: t = sqrt(0.84) s.
        let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(0.0, 0.0));
        let found = sweep_parabola_segment(
            Circle::new(Vec2::new(0.6, 5.0), 1.0),
            Parabola::new(Vec2::ZERO, G, 1.0),
            floor,
        )
        .unwrap();
        assert!((found.hit.toi - 0.84_f32.sqrt()).abs() < 1e-6, "{found:?}");
        assert!((found.hit.normal - Vec2::new(0.6, 0.8)).length() < 1e-5);
    }
}
