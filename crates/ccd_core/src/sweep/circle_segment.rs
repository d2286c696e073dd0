//! A moving circle against a static, two-sided segment: a capsule of radius `r` around it.

use crate::{Circle, Hit, Segment, ray_circle_toi, sweep::usable};
use glam::Vec2;

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

/// The segment as the queries see it: an origin, a unit direction and a length.
#[derive(Clone, Copy)]
struct Frame {
    a: Vec2,
    b: Vec2,
    /// Unit direction from `a` to `b`; `None` for a zero-length segment (a point).
    dir: Option<Vec2>,
    len: f32,
}

impl Frame {
    #[inline]
    fn new(segment: Segment) -> Self {
        let d = segment.b - segment.a;
        let dir = d.try_normalize();
        Self {
            a: segment.a,
            b: segment.b,
            dir,
            len: if dir.is_some() { d.length() } else { 0.0 },
        }
    }

    /// The region `p` lies in, and the closest point of the segment to `p`.
    #[inline]
    fn closest(&self, p: Vec2) -> (Region, Vec2) {
        let Some(dir) = self.dir else {
            return (Region::EndA, self.a);
        };
        let along = (p - self.a).dot(dir);
        if along <= 0.0 {
            (Region::EndA, self.a)
        } else if along >= self.len {
            (Region::EndB, self.b)
        } else {
            (Region::Face, self.a + dir * along)
        }
    }
}

/// First contact of `circle`, moving by `motion`, with the two-sided `segment`.
///
/// The segment grows by the circle's radius into a capsule, and the circle's centre
/// becomes a ray against it:
/// - each face is a line offset by `±r` along the segment normal; the ray meets the one on
///   the side it starts on, and the hit counts if its foot lies between the end points;
/// - each end point is a circle of radius `r` (see [`ray_circle_toi`]).
///
/// The earliest of the four wins. The normal is then taken from the closest point at the
/// contact centre, so near a face–end tie it never comes from the wrong feature.
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
    if !usable(circle, motion) || !segment.a.is_finite() || !segment.b.is_finite() || motion == Vec2::ZERO {
        return None;
    }
    let frame = Frame::new(segment);
    let r = circle.radius;
    let c = circle.center;
    let rel = c - frame.a;
    // Signed distance of the start from the segment's line, and the side it is on. A start
    // on the line takes the side that `motion` comes from.
    let (offset, side) = match frame.dir {
        Some(dir) => {
            let offset = dir.perp_dot(rel);
            let toward = motion.dot(dir.perp());
            let side = if offset > 0.0 || (offset == 0.0 && toward < 0.0) {
                1.0
            } else {
                -1.0
            };
            (offset, side)
        }
        None => (0.0, 1.0),
    };

    let (start_region, start_closest) = frame.closest(c);
    let toi = if (c - start_closest).length() <= r {
        // Starting in contact or overlapping.
        0.0
    } else {
        earliest_contact(&frame, c, motion, r, offset, side)?
    };
    let center = c + motion * toi;
    let (region, point) = if toi == 0.0 {
        (start_region, start_closest)
    } else {
        frame.closest(center)
    };
    let normal = match (region, frame.dir) {
        // Face region: the segment normal on the side the circle came from.
        (Region::Face, Some(dir)) => dir.perp() * side,
        // End point regions (and a zero-length segment): away from the end point, or
        // against the motion if the centre sits on it.
        _ => (center - point)
            .try_normalize()
            .or_else(|| (-motion).try_normalize())?,
    };
    Hit {
        toi,
        center,
        point,
        normal,
    }
    .approached_by(motion)
}

/// The earliest toi in `[0, 1]` at which a centre starting outside the capsule reaches it.
#[inline]
fn earliest_contact(frame: &Frame, c: Vec2, motion: Vec2, r: f32, offset: f32, side: f32) -> Option<f32> {
    let mut best: Option<f32> = None;
    let mut consider = |t: Option<f32>| {
        if let Some(t) = t {
            if best.is_none_or(|b| t < b) {
                best = Some(t);
            }
        }
    };
    if let Some(dir) = frame.dir {
        // Face region: the offset line on the start's side, `side · r` from the segment.
        let closing = -motion.dot(dir.perp()) * side;
        let gap = offset.abs() - r;
        if closing > 0.0 && gap >= 0.0 && gap <= closing {
            let t = gap / closing;
            let foot = (c + motion * t - frame.a).dot(dir);
            if (0.0..=frame.len).contains(&foot) {
                consider(Some(t));
            }
        }
    }
    // End point A region.
    consider(ray_circle_toi(c - frame.a, motion, r));
    // End point B region.
    if frame.dir.is_some() {
        consider(ray_circle_toi(c - frame.b, motion, r));
    }
    best
}

#[cfg(test)]
mod tests;
