//! A moving circle against a static [`CircleArc`], on a straight or a curved leg.

use super::{CurvedHit, moves_in, usable};
use crate::hit::{ContactOrder, Feature, Hit};
use crate::parabola::{Parabola, parabola_circle_toi_f64};
use crate::ray::ray_circle_toi_f64;
use crate::roots::{Poly, first_crossing_between};
use crate::shape::{Aabb, ArcFrame, Circle, CircleArc};
use crate::tolerance::{MAX_ARC_ENTRIES, ROOT_BRACKET_REL};
use glam::{DVec2, Vec2};

/// The arc relative to its centre, in f64, for one query: the frame, its end points, its
/// radius and the reach (the ball's radius plus the thickness).
#[derive(Clone, Copy, Debug)]
struct Local {
    frame: ArcFrame,
    ends: [DVec2; 2],
    radius: f64,
    reach: f64,
}

impl Local {
    /// The arc for a circle of radius `r`; `None` for an arc that fails its validation.
    fn new(arc: CircleArc, r: f32) -> Option<Self> {
        arc.validate().ok()?;
        let frame = arc.frame();
        let radius = f64::from(arc.radius);
        Some(Self {
            frame,
            ends: [frame.start_dir * radius, frame.end_dir * radius],
            radius,
            reach: f64::from(r) + f64::from(arc.thickness),
        })
    }

    /// The point of the curve closest to `p` (relative to the centre).
    #[inline]
    fn closest(&self, p: DVec2) -> DVec2 {
        match p.try_normalize() {
            Some(dir) if self.frame.holds(p) => dir * self.radius,
            _ if p.distance_squared(self.ends[1]) < p.distance_squared(self.ends[0]) => self.ends[1],
            _ => self.ends[0],
        }
    }

    /// The radius of the inner circle, where the band's inside face is met; `None` when
    /// the reach covers the whole inside (no inner face).
    #[inline]
    fn inner(&self) -> Option<f64> {
        let inner = self.radius - self.reach;
        (inner > 0.0).then_some(inner)
    }
}

/// First contact of `circle`, moving by `motion`, with `arc`, from inside or outside.
///
/// The centre's ray meets the band's surface exactly, with no polygon:
/// - the outer circle of radius `R + w + r`, where the ray enters it within the angle
///   range ([`ray_circle_toi`](crate::ray_circle_toi));
/// - the inner circle of radius `R − (w + r)` (when above 0), where the ray leaves it
///   within the range;
/// - the two round caps of radius `w + r` around the end points.
///
/// The earliest wins. Entering the band's region anywhere else means crossing one of its
/// two straight sides, which lie inside the caps, so no contact is missed. A circle that
/// starts touching or overlapping gets `toi == 0` when it moves in; one that leaves is met
/// again only where it comes back to the distance it starts at (the far side of a ring).
///
/// ```
/// use ccd_core::{sweep_circle_arc, Circle, CircleArc, Vec2};
/// use std::f32::consts::PI;
/// // A ball of radius 1 at the centre of the upper half of a ring of radius 10, moving up:
/// // it meets the ring from inside when its centre reaches radius 9.
/// let ring = CircleArc::new(Vec2::ZERO, 10.0, 0.0, PI);
/// let hit = sweep_circle_arc(Circle::new(Vec2::ZERO, 1.0), Vec2::new(0.0, 18.0), ring).unwrap();
/// assert_eq!(hit.toi, 0.5);
/// assert_eq!(hit.normal, Vec2::NEG_Y);
/// // Moving down, it leaves through the open lower half.
/// assert!(sweep_circle_arc(Circle::new(Vec2::ZERO, 1.0), Vec2::new(0.0, -18.0), ring).is_none());
/// ```
#[must_use]
pub fn sweep_circle_arc(circle: Circle, motion: Vec2, arc: CircleArc) -> Option<Hit> {
    sweep_circle_arc_ordered(circle, motion, arc).map(|(hit, _)| hit)
}

/// [`sweep_circle_arc`], with what orders its contact against other obstacles'.
pub(crate) fn sweep_circle_arc_ordered(
    circle: Circle,
    motion: Vec2,
    arc: CircleArc,
) -> Option<(Hit, ContactOrder)> {
    if !usable(circle, motion) || motion == Vec2::ZERO {
        return None;
    }
    if !Aabb::swept(circle.center, motion, circle.radius).intersects(&arc.aabb()) {
        return None;
    }
    let local = Local::new(arc, circle.radius)?;
    let w = circle.center.as_dvec2() - arc.center.as_dvec2();
    let m = motion.as_dvec2();
    let start_gap = (w - local.closest(w)).length();
    let (toi, tangent) = if start_gap <= local.reach {
        let normal = normal_at(&local, w, m, DVec2::ZERO)?;
        if m.dot(normal) < 0.0 {
            (0.0, false)
        } else {
            // Leaving: only a return to the distance it starts at is a contact.
            let shrunk = Local {
                reach: start_gap * (1.0 - ROOT_BRACKET_REL),
                ..local
            };
            match straight_contact(&shrunk, w, m) {
                Some(t) => (t, false),
                // Along the inside's tangent, to within rounding (the return is too soon
                // to find): the line goes deeper into the band at once.
                None if deepens_inside(&local, w, m) => (0.0, true),
                None => return None,
            }
        }
    } else {
        (straight_contact(&local, w, m)?, false)
    };
    let center = circle.center + motion * toi as f32;
    let mut hit = hit_at(&local, arc, center, m, DVec2::ZERO)?;
    hit.toi = toi as f32;
    // Approached by the f64 normal at the f64 contact, as the contact was decided: the f32
    // normal of a nearly tangent contact (a ball running round the inside) can turn the
    // approach's sign, and the ball would pass into the arc.
    let approached = tangent || m.dot(normal_at(&local, w + m * toi, m, DVec2::ZERO)?) < 0.0;
    let hit = hit.finite_if(approached)?;
    Some((
        hit,
        ContactOrder {
            toi,
            feature: Feature::Round,
        },
    ))
}

/// Whether the ray `w + m·t`, from a centre on the band's inside face (nearer the arc's
/// centre than its curve, within the angle range: not on a cap), is back at its start's
/// distance from the centre, and going deeper into the band, within
/// [`ROOT_BRACKET_REL`] of the leg: it runs along the
/// inside's tangent, to within rounding (`|w + m·t|² = |w|²` again at `t = −2·w·m/|m|²`).
fn deepens_inside(local: &Local, w: DVec2, m: DVec2) -> bool {
    let back = -2.0 * w.dot(m) / m.length_squared();
    w.length() < local.radius && local.frame.holds(w) && back.abs() <= ROOT_BRACKET_REL
}

/// The earliest fraction at which the ray `w + m·t` (outside the band's region) reaches
/// it: the outer circle's entry and the inner circle's exit within the angle range, and
/// each cap's entry.
fn straight_contact(local: &Local, w: DVec2, m: DVec2) -> Option<f64> {
    let mut best: Option<f64> = None;
    let mut consider = |t: Option<f64>| {
        if let Some(t) = t
            && best.is_none_or(|b| t < b)
        {
            best = Some(t);
        }
    };
    let in_range = |t: f64| local.frame.holds(w + m * t);
    consider(ray_circle_toi_f64(w, m, local.radius + local.reach).filter(|&t| in_range(t)));
    if let Some(inner) = local.inner() {
        consider(ray_leaves_circle(w, m, inner).filter(|&t| in_range(t)));
    }
    for end in local.ends {
        consider(ray_circle_toi_f64(w - end, m, local.reach));
    }
    best
}

/// The fraction in `(0, 1]` at which the ray `w + m·t` leaves the circle of `radius`
/// around the origin, moving out (the larger root), in the form without cancellation.
#[inline]
fn ray_leaves_circle(w: DVec2, m: DVec2, radius: f64) -> Option<f64> {
    let m2 = m.length_squared();
    let along = -w.dot(m);
    let cross = m.perp_dot(w);
    let disc = radius * radius * m2 - cross * cross;
    if !(m2 > 0.0) || !(disc > 0.0) {
        return None;
    }
    let gap = w.length_squared() - radius * radius;
    let root = disc.sqrt();
    let t = if along >= 0.0 {
        (along + root) / m2
    } else {
        gap / (along - root)
    };
    (t > 0.0 && t <= 1.0).then_some(t)
}

/// The contact normal at `p` (relative to the centre): away from the curve's closest
/// point; for a centre on the curve itself, against the velocity `v` (or the bend `k`).
#[inline]
fn normal_at(local: &Local, p: DVec2, v: DVec2, k: DVec2) -> Option<DVec2> {
    (p - local.closest(p))
        .try_normalize()
        .or_else(|| (-v).try_normalize())
        .or_else(|| (-k).try_normalize())
}

/// The contact of a centre at `center` moving at `v` (bend `k`): the normal from the
/// closest point, and the point on the band's surface (the caller sets the time).
#[inline]
fn hit_at(local: &Local, arc: CircleArc, center: Vec2, v: DVec2, k: DVec2) -> Option<Hit> {
    let p = center.as_dvec2() - arc.center.as_dvec2();
    let normal = normal_at(local, p, v, k)?;
    let point = arc.center.as_dvec2() + local.closest(p) + normal * f64::from(arc.thickness);
    Some(Hit {
        toi: 0.0,
        center,
        point: point.as_vec2(),
        normal: normal.as_vec2(),
    })
}

/// First contact of `circle`, whose centre follows `path`, with `arc`.
///
/// The same surface as [`sweep_circle_arc`], each part a polynomial in the leg's fraction:
/// the outer and inner circles are quartics, tried at each of their first
/// [`MAX_ARC_ENTRIES`] falls (a curve can enter a circle outside the range, leave, and
/// enter again within it); the caps are the pillar's query. Found from the outside (early,
/// never late), in f64. With `path.gravity` zero this is exactly the straight sweep.
///
/// ```
/// use ccd_core::{sweep_parabola_arc, Circle, CircleArc, Parabola, Vec2};
/// use std::f32::consts::PI;
/// // A point dropped at rest from the centre of a bowl (the lower half of a ring of radius
/// // 5) under g = 10 meets it after falling 5: sqrt(2·5/10) = 1 s.
/// let bowl = CircleArc::new(Vec2::ZERO, 5.0, PI, 2.0 * PI);
/// let path = Parabola::new(Vec2::ZERO, Vec2::new(0.0, -10.0), 2.0);
/// let found = sweep_parabola_arc(Circle::new(Vec2::ZERO, 0.0), path, bowl).unwrap();
/// assert!((found.hit.toi * 2.0 - 1.0).abs() < 1e-6);
/// assert_eq!(found.hit.normal, Vec2::Y);
/// ```
#[must_use]
pub fn sweep_parabola_arc(circle: Circle, path: Parabola, arc: CircleArc) -> Option<CurvedHit> {
    let reach = path.aabb(circle.center, circle.radius);
    sweep_parabola_arc_ordered(circle, path, reach, arc).map(|(hit, _)| hit)
}

/// [`sweep_parabola_arc`], with what orders its contact; `reach` is the box the circle
/// sweeps along `path`.
pub(crate) fn sweep_parabola_arc_ordered(
    circle: Circle,
    path: Parabola,
    reach: Aabb,
    arc: CircleArc,
) -> Option<(CurvedHit, ContactOrder)> {
    if path.gravity == Vec2::ZERO {
        let (hit, order) = sweep_circle_arc_ordered(circle, path.velocity * path.duration, arc)?;
        return Some((CurvedHit { hit, iterations: 0 }, order));
    }
    if !usable(circle, Vec2::ZERO) || !path.is_usable() || !(path.duration > 0.0) {
        return None;
    }
    if !reach.intersects(&arc.aabb()) {
        return None;
    }
    let local = Local::new(arc, circle.radius)?;
    let w = circle.center.as_dvec2() - arc.center.as_dvec2();
    let (m, k) = path.terms();
    let start_gap = (w - local.closest(w)).length();
    let (s, iterations) = if start_gap <= local.reach {
        if moves_in(m, k, 0.0, normal_at(&local, w, m, k)?) {
            (0.0, 0)
        } else {
            let shrunk = Local {
                reach: start_gap * (1.0 - ROOT_BRACKET_REL),
                ..local
            };
            curved_contact(&shrunk, w, m, k)?
        }
    } else {
        curved_contact(&local, w, m, k)?
    };
    let offset = m * s + k * (s * s);
    let center = (circle.center.as_dvec2() + offset).as_vec2();
    let velocity = m + k * (2.0 * s);
    let mut hit = hit_at(&local, arc, center, velocity, k)?;
    hit.toi = s as f32;
    // Approached by the f64 normal at the f64 contact, as the root was found: the f32
    // normal of a nearly tangent contact (a ball rolling over the arc, pressed on it by
    // gravity) can turn the approach's sign, and the contact would be lost.
    let approached = moves_in(m, k, s, normal_at(&local, w + offset, velocity, k)?);
    Some((
        CurvedHit {
            hit: hit.finite_if(approached)?,
            iterations,
        },
        ContactOrder {
            toi: s,
            feature: Feature::Round,
        },
    ))
}

/// The earliest fraction at which the curve `w + m·s + k·s²` (outside the band's region)
/// reaches it, and the root-search steps spent.
fn curved_contact(local: &Local, w: DVec2, m: DVec2, k: DVec2) -> Option<(f64, u32)> {
    let mut best: Option<f64> = None;
    let mut iterations = 0;
    let mut consider = |s: Option<f64>| {
        if let Some(s) = s
            && best.is_none_or(|b| s < b)
        {
            best = Some(s);
        }
    };
    let in_range = |s: f64| local.frame.holds(w + m * s + k * (s * s));
    // |w + m·s + k·s²|² expanded by powers of s, less the circle's radius squared.
    let distance_sq = Poly([
        w.length_squared(),
        2.0 * w.dot(m),
        m.length_squared() + 2.0 * w.dot(k),
        2.0 * m.dot(k),
        k.length_squared(),
    ]);
    let outer = local.radius + local.reach;
    let mut entering = distance_sq;
    entering.0[0] -= outer * outer;
    consider(first_in_range(entering, &in_range, &mut iterations));
    if let Some(inner) = local.inner() {
        let mut leaving = Poly(distance_sq.0.map(|c| -c));
        leaving.0[0] += inner * inner;
        consider(first_in_range(leaving, &in_range, &mut iterations));
    }
    for end in local.ends {
        if let Some(root) = parabola_circle_toi_f64(w - end, m, k, local.reach) {
            iterations += root.iterations;
            consider(Some(root.s));
        }
    }
    best.map(|s| (s, iterations))
}

/// The first fall of `p` on `(0, 1]` at which `in_range` holds, trying at most
/// [`MAX_ARC_ENTRIES`] falls.
fn first_in_range(p: Poly, in_range: &impl Fn(f64) -> bool, iterations: &mut u32) -> Option<f64> {
    let mut from = 0.0;
    for _ in 0..MAX_ARC_ENTRIES {
        let root = first_crossing_between(p, from, 1.0)?;
        *iterations += root.iterations;
        if in_range(root.s) {
            return Some(root.s);
        }
        // Past this fall: the next one starts after the curve has come back out.
        from = root.s + ROOT_BRACKET_REL * 2.0;
        if from >= 1.0 {
            return None;
        }
    }
    None
}
