//! The nearest place a ball fits: where a squeezed ball goes at the end of the step.
//!
//! Each nearby surface, grown by the ball's radius, is a capsule the centre must stay out
//! of (a segment's capsule, or a pillar's circle grown by `r`). The place nearest the
//! centre outside all of them is either the centre pushed straight out of one capsule, or
//! a corner where two capsules' borders cross (each border is two lines and two end
//! circles). Every such candidate is tried; the nearest one that is clear of every capsule
//! (within a slack) and that the centre reaches without crossing a surface it may not
//! pass through wins. Two bodies closing on a ball to less than its diameter (two flipper
//! tips) leave no place between them: the ball goes out of the gap, to the nearest side.

use crate::shape::{Aabb, Segment};
use glam::Vec2;

/// One surface near the ball, grown by the ball's radius: the centre must stay `radius`
/// or farther from `segment` (a pillar is a segment of zero length).
#[derive(Clone, Copy, Debug)]
pub(super) struct Keepout {
    pub(super) segment: Segment,
    pub(super) radius: f32,
    /// The centre may cross this surface on its way out (it is inside the body this
    /// surface belongs to, the one that squeezed it).
    pub(super) crossable: bool,
}

/// The most border pieces a keep-out has: two offset lines and two end circles.
const BORDER_PIECES: usize = 4;

/// A piece of a keep-out's border: the line through `at` along `along`, or the circle of
/// `radius` about `at`.
#[derive(Clone, Copy, Debug)]
enum Border {
    Line { at: Vec2, along: Vec2 },
    Circle { at: Vec2, radius: f32 },
}

/// The nearest place to `p` inside `within`, clear of every keep-out by `slack` (a centre
/// `slack` inside a border counts as clear) and reached from `p` in a straight line that
/// crosses no surface that is not `crossable`. `None` if no candidate is. The caller
/// gathers every surface that can reach into `within`, so a place there is clear of all.
///
/// The work is done relative to `p`, and each border line passes through its point
/// nearest `p`: a long wall's far ends would cost the f32 crossings their precision.
pub(super) fn nearest_free_place(p: Vec2, keepouts: &[Keepout], within: Aabb, slack: f32) -> Option<Vec2> {
    let moved = |k: &Keepout| Keepout {
        segment: Segment::new(k.segment.a - p, k.segment.b - p),
        ..*k
    };
    let local: Vec<Keepout> = keepouts.iter().map(moved).collect();
    let within = Aabb::new(within.min - p, within.max - p);
    nearest_free_place_from_origin(&local, within, slack).map(|q| q + p)
}

/// [`nearest_free_place`] for the centre at the origin.
fn nearest_free_place_from_origin(keepouts: &[Keepout], within: Aabb, slack: f32) -> Option<Vec2> {
    let p = Vec2::ZERO;
    let clear = |q: Vec2| {
        q.is_finite()
            && q.cmpge(within.min).all()
            && q.cmple(within.max).all()
            && keepouts.iter().all(|k| {
                (q - k.segment.closest_point(q)).length() >= k.radius - slack
                    && (k.crossable || !crosses(p, q, k.segment))
            })
    };
    let mut best: Option<(f32, Vec2)> = None;
    let mut consider = |q: Vec2| {
        let d = (q - p).length_squared();
        if best.is_none_or(|(b, _)| d < b) && clear(q) {
            best = Some((d, q));
        }
    };
    // Out of one keep-out, straight from the closest point of its surface (or, for a
    // centre on the surface, to either side of it).
    for k in keepouts {
        let c = k.segment.closest_point(p);
        match (p - c).try_normalize() {
            Some(out) => consider(c + out * k.radius),
            None => {
                if let Some(n) = k.segment.direction().perp().try_normalize() {
                    consider(c + n * k.radius);
                    consider(c - n * k.radius);
                }
            }
        }
    }
    // Where two keep-outs' borders cross.
    for (i, a) in keepouts.iter().enumerate() {
        for b in &keepouts[i + 1..] {
            for x in borders(a).into_iter().flatten() {
                for y in borders(b).into_iter().flatten() {
                    for q in crossings(x, y).into_iter().flatten() {
                        consider(q);
                    }
                }
            }
        }
    }
    best.map(|(_, q)| q)
}

/// The border pieces of a keep-out (relative to the centre being placed): for a segment its
/// two lines `radius` off it, each through its point nearest the centre, and the circles
/// at its ends; for a point, one circle.
fn borders(k: &Keepout) -> [Option<Border>; BORDER_PIECES] {
    let Segment { a, b } = k.segment;
    let r = k.radius;
    match (b - a).try_normalize() {
        Some(along) => {
            let n = along.perp();
            // The line's point nearest the origin (the centre being placed).
            let foot = a - along * along.dot(a);
            [
                Some(Border::Line {
                    at: foot + n * r,
                    along,
                }),
                Some(Border::Line {
                    at: foot - n * r,
                    along,
                }),
                Some(Border::Circle { at: a, radius: r }),
                Some(Border::Circle { at: b, radius: r }),
            ]
        }
        None => [Some(Border::Circle { at: a, radius: r }), None, None, None],
    }
}

/// Where two border pieces cross (at most two points).
fn crossings(x: Border, y: Border) -> [Option<Vec2>; 2] {
    match (x, y) {
        (Border::Line { at: a, along: u }, Border::Line { at: b, along: v }) => {
            // a + s·u = b + t·v.
            let det = u.perp_dot(v);
            if det == 0.0 {
                return [None, None];
            }
            let s = (b - a).perp_dot(v) / det;
            [Some(a + u * s), None]
        }
        (Border::Line { at, along }, Border::Circle { at: c, radius })
        | (Border::Circle { at: c, radius }, Border::Line { at, along }) => {
            // |at + s·along − c|² = radius², along a unit vector.
            let w = at - c;
            let (half_b, k) = (along.dot(w), w.length_squared() - radius * radius);
            let disc = half_b * half_b - k;
            if !(disc >= 0.0) {
                return [None, None];
            }
            let root = disc.sqrt();
            [
                Some(at + along * (-half_b - root)),
                Some(at + along * (-half_b + root)),
            ]
        }
        (Border::Circle { at: c0, radius: r0 }, Border::Circle { at: c1, radius: r1 }) => {
            let d = c1 - c0;
            let dist = d.length();
            if !(dist > 0.0) || dist > r0 + r1 || dist < (r0 - r1).abs() {
                return [None, None];
            }
            // The chord through both crossings is `along` from c0 along d.
            let along = (dist * dist + r0 * r0 - r1 * r1) / (2.0 * dist);
            let half = (r0 * r0 - along * along).max(0.0).sqrt();
            let (u, n) = (d / dist, d.perp() / dist);
            let mid = c0 + u * along;
            [Some(mid + n * half), Some(mid - n * half)]
        }
    }
}

/// Whether the straight move from `p` to `q` crosses the segment `s` (meets it at a point
/// inside both; a touch at an end of the move does not count).
fn crosses(p: Vec2, q: Vec2, s: Segment) -> bool {
    let m = q - p;
    let d = s.b - s.a;
    let det = m.perp_dot(d);
    if det == 0.0 {
        return false;
    }
    // p + t·m = s.a + u·d.
    let w = s.a - p;
    let t = w.perp_dot(d) / det;
    let u = w.perp_dot(m) / det;
    t > 0.0 && t < 1.0 && (0.0..=1.0).contains(&u)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the tests' places may be: far enough for all of them.
    fn room() -> Aabb {
        Aabb::new(Vec2::splat(-5.0), Vec2::splat(5.0))
    }

    fn wall(a: (f32, f32), b: (f32, f32), radius: f32) -> Keepout {
        Keepout {
            segment: Segment::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1)),
            radius,
            crossable: false,
        }
    }

    #[test]
    fn out_of_one_surface_straight() {
        // A ball of radius 1 whose centre is 0.25 above the floor y = 0: out to y = 1.
        let q = nearest_free_place(
            Vec2::new(2.0, 0.25),
            &[wall((-5.0, 0.0), (5.0, 0.0), 1.0)],
            room(),
            0.0,
        )
        .unwrap();
        assert!((q - Vec2::new(2.0, 1.0)).length() < 1e-6, "{q}");
    }

    #[test]
    fn into_the_corner_of_two_surfaces() {
        // Floor y = 0 and wall x = 0, radius 1, centre at (0.5, 0.5): the nearest place
        // clear of both is the corner (1, 1), √0.5 away; out of either alone is still
        // inside the other.
        let keepouts = [
            wall((-5.0, 0.0), (5.0, 0.0), 1.0),
            wall((0.0, -5.0), (0.0, 5.0), 1.0),
        ];
        let q = nearest_free_place(Vec2::new(0.5, 0.5), &keepouts, room(), 0.0).unwrap();
        assert!((q - Vec2::new(1.0, 1.0)).length() < 1e-5, "{q}");
    }

    #[test]
    fn out_of_a_gap_too_narrow_for_the_ball() {
        // Two pillars of radius 1 at (±1.5, 0) and a ball of radius 1: they leave a gap of
        // 1, narrower than its diameter 2. From (0, 0.5) the nearest place clear of both
        // is straight up, on both grown circles (radius 2): (0, √(4 − 2.25)) = (0, 1.3229).
        let pillar = |x: f32| wall((x, 0.0), (x, 0.0), 2.0);
        let q = nearest_free_place(Vec2::new(0.0, 0.5), &[pillar(-1.5), pillar(1.5)], room(), 0.0).unwrap();
        assert!((q - Vec2::new(0.0, 1.75_f32.sqrt())).length() < 1e-5, "{q}");
    }

    #[test]
    fn never_through_a_wall_it_may_not_cross() {
        // A thin wall x = 0 and a floor y = 0 to its right, radius 1; the centre at
        // (0.2, 0.5) is inside both. Through the wall, (−1, 0.5) is 1.2 away; the corner
        // (1, 1) on this side is √0.89 ≈ 0.943: the corner. Were the corner blocked by a
        // wall at x = 1.2, from y = −5 to 5 (its capsule takes x > 0.2), no place on this
        // side within the room (up to y = 5, where the walls end) would fit, and the far
        // side may not be reached: none.
        let floor = wall((0.0, 0.0), (5.0, 0.0), 1.0);
        let thin = wall((0.0, -5.0), (0.0, 5.0), 1.0);
        let q = nearest_free_place(Vec2::new(0.2, 0.5), &[floor, thin], room(), 0.0).unwrap();
        assert!((q - Vec2::new(1.0, 1.0)).length() < 1e-5, "{q}");
        let other = wall((1.2, -5.0), (1.2, 5.0), 1.0);
        assert_eq!(
            nearest_free_place(Vec2::new(0.2, 0.5), &[floor, thin, other], room(), 0.0),
            None
        );
    }
}
