//! A moving circle against a static, two-sided segment: a capsule of radius `r` around it.

use crate::hit::{Caps, ContactOrder, Feature, Hit};
use crate::ray::ray_circle_toi_f64;
use crate::shape::{Aabb, Circle, Segment};
use crate::sweep::usable;
use glam::{DVec2, Vec2};

/// Which part of the capsule a point is closest to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Region {
    /// Beyond end point `a`: the round cap around `a`.
    EndA,
    /// Between the end points: one of the two flat faces.
    Face,
    /// Beyond end point `b`: the round cap around `b`.
    EndB,
}

/// The segment in f64, relative to its end point `a`: `d = b − a` and `|d|²`.
#[derive(Clone, Copy)]
struct Frame {
    d: DVec2,
    len_sq: f64,
}

impl Region {
    /// Whether `caps` counts this region's contacts.
    #[inline]
    fn counted(self, caps: Caps) -> bool {
        match self {
            Self::Face => true,
            Self::EndA => caps.a,
            Self::EndB => caps.b,
        }
    }

    /// The kind of surface this region's contacts are on.
    #[inline]
    fn feature(self) -> Feature {
        match self {
            Self::Face => Feature::Face,
            Self::EndA | Self::EndB => Feature::Round,
        }
    }
}

impl Frame {
    /// The region of the point at `p` (relative to `a`), its foot parameter along `d`
    /// (times `|d|²`), and the closest point (relative to `a`).
    #[inline]
    fn closest(&self, p: DVec2) -> (Region, DVec2) {
        if !(self.len_sq > 0.0) {
            return (Region::EndA, DVec2::ZERO);
        }
        let along = p.dot(self.d);
        if along <= 0.0 {
            (Region::EndA, DVec2::ZERO)
        } else if along >= self.len_sq {
            (Region::EndB, self.d)
        } else {
            (Region::Face, self.d * (along / self.len_sq))
        }
    }
}

/// First contact of `circle`, moving by `motion`, with the two-sided `segment`.
///
/// The segment grows by the circle's radius into a capsule, and the circle's centre
/// becomes a ray against it:
/// - each face is a line offset by `±r` along the segment normal; the ray meets the one on
///   the side it starts on, and the hit counts if its foot lies between the end points;
/// - each end point is a circle of radius `r` (see [`ray_circle_toi`](crate::ray_circle_toi)).
///
/// The earliest of the four wins. The normal is then taken from the closest point at the
/// contact centre, so near a face–end tie it never comes from the wrong feature.
///
/// Positions are taken relative to the segment and the arithmetic is done in f64 from the
/// exact f32 inputs, with cross products against the unnormalised direction: no digit is
/// lost at coordinates of 10⁴ or at shallow angles, and one square root is taken per query
/// (more only for a hit).
///
/// A zero-length segment is a point. A circle of radius 0 is a moving point. A circle
/// whose centre lies on the segment gets the segment normal facing against `motion`.
///
/// ```
/// use ccd_core::{sweep_circle_segment, Circle, Segment, Vec2};
/// // A ball of radius 1 at (0, 5) falls 8 units onto the floor y = 0. Its centre stops at
/// // y = 1, after 4 of the 8 units: toi = 0.5.
/// let ball = Circle::new(Vec2::new(0.0, 5.0), 1.0);
/// let floor = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
/// let hit = sweep_circle_segment(ball, Vec2::new(0.0, -8.0), floor).unwrap();
/// assert_eq!(hit.toi, 0.5);
/// assert_eq!(hit.center, Vec2::new(0.0, 1.0));
/// assert_eq!(hit.point, Vec2::new(0.0, 0.0));
/// assert_eq!(hit.normal, Vec2::new(0.0, 1.0));
/// ```
#[must_use]
pub fn sweep_circle_segment(circle: Circle, motion: Vec2, segment: Segment) -> Option<Hit> {
    sweep_circle_segment_ordered(circle, motion, segment).map(|(hit, _)| hit)
}

/// [`sweep_circle_segment`], with what orders its contact against other obstacles' (the
/// exact time and the feature touched).
pub(crate) fn sweep_circle_segment_ordered(
    circle: Circle,
    motion: Vec2,
    segment: Segment,
) -> Option<(Hit, ContactOrder)> {
    sweep_circle_segment_with_caps(circle, motion, segment, Caps::BOTH)
}

/// [`sweep_circle_segment_ordered`] counting only the end caps in `caps` (a chain's edge).
pub(crate) fn sweep_circle_segment_with_caps(
    circle: Circle,
    motion: Vec2,
    segment: Segment,
    caps: Caps,
) -> Option<(Hit, ContactOrder)> {
    if !usable(circle, motion) || !segment.a.is_finite() || !segment.b.is_finite() || motion == Vec2::ZERO {
        return None;
    }
    // Quick reject: the swept circle's box misses the segment's box.
    if !Aabb::swept(circle.center, motion, circle.radius).intersects(&segment.aabb()) {
        return None;
    }
    let a = segment.a.as_dvec2();
    let frame = Frame {
        d: segment.b.as_dvec2() - a,
        len_sq: (segment.b.as_dvec2() - a).length_squared(),
    };
    let r = f64::from(circle.radius);
    let m = motion.as_dvec2();
    let rel = circle.center.as_dvec2() - a;
    // Which side of the line the start is on (times |d|); a start on the line takes the
    // side `motion` comes from.
    let cross0 = frame.d.perp_dot(rel);
    let toward = frame.d.perp_dot(m);
    let side = if cross0 > 0.0 || (cross0 == 0.0 && toward < 0.0) {
        1.0
    } else {
        -1.0
    };

    let (start_region, start_closest) = frame.closest(rel);
    let order = if start_region.counted(caps) && (rel - start_closest).length_squared() <= r * r {
        // Starting in contact or overlapping.
        ContactOrder {
            toi: 0.0,
            feature: start_region.feature(),
        }
    } else {
        earliest_contact(&frame, rel, m, r, [cross0, toward, side], caps)?
    };
    let toi = order.toi as f32;
    let center = circle.center + motion * toi;
    let at = center.as_dvec2() - a;
    let (region, closest) = if toi == 0.0 {
        (start_region, start_closest)
    } else {
        frame.closest(at)
    };
    let normal = match region {
        // Face region: the segment normal on the side the circle came from.
        Region::Face => (frame.d.perp() * side).try_normalize(),
        // End point regions (and a zero-length segment): away from the end point, or
        // against the motion if the centre sits on it.
        Region::EndA | Region::EndB => (at - closest).try_normalize(),
    }
    .or_else(|| (-m).try_normalize())?;
    let hit = Hit {
        toi,
        center,
        point: (a + closest).as_vec2(),
        normal: normal.as_vec2(),
    }
    .approached_by(motion)?;
    Some((hit, order))
}

/// The earliest toi in `[0, 1]` at which a centre starting outside the capsule reaches it,
/// and the feature reached (a face before an end cap at the same time). `line` holds
/// `d × rel`, `d × m` and the start's side; only the caps in `caps` count.
#[inline]
fn earliest_contact(
    frame: &Frame,
    rel: DVec2,
    m: DVec2,
    r: f64,
    line: [f64; 3],
    caps: Caps,
) -> Option<ContactOrder> {
    let [cross0, toward, side] = line;
    let mut best: Option<ContactOrder> = None;
    let mut consider = |toi: Option<f64>, feature: Feature| {
        if let Some(toi) = toi {
            let found = ContactOrder { toi, feature };
            if best.is_none_or(|b| found.before(b)) {
                best = Some(found);
            }
        }
    };
    if frame.len_sq > 0.0 {
        // Face region: the offset line on the start's side, `side · r` from the segment.
        // Both quantities are scaled by |d|.
        let len = frame.len_sq.sqrt();
        let closing = -toward * side;
        // Rounding may put a start that is (just) outside the capsule by one measure (the
        // distance to the closest point) inside the offset line by this one: it is then
        // at the line, and a hit now if it closes in.
        let gap = (cross0.abs() - r * len).max(0.0);
        if closing > 0.0 && gap <= closing {
            let t = gap / closing;
            let foot = (rel + m * t).dot(frame.d);
            if (0.0..=frame.len_sq).contains(&foot) {
                consider(Some(t), Feature::Face);
            }
        }
    }
    // End point A region.
    if caps.a {
        consider(ray_circle_toi_f64(rel, m, r), Feature::Round);
    }
    // End point B region.
    if frame.len_sq > 0.0 && caps.b {
        consider(ray_circle_toi_f64(rel - frame.d, m, r), Feature::Round);
    }
    best
}

#[cfg(test)]
mod tests;
