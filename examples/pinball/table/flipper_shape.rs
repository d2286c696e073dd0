//! The flipper bat's tapered shape, built once and used by both the physics (its moving
//! edges become kinematic segments) and the view (its outline becomes the bat's mesh).
//!
//! In the blade's frame (x from the pivot to the tip), the bat is the convex hull of a
//! base circle of radius `R` at the pivot and a smaller tip circle of radius `r` whose far
//! edge is at x = `length`, so its centre is at `c = length − r`. The two straight faces
//! are the outer tangents of the circles: a face's unit normal `n` is at distance `R`
//! from the pivot and `r` from the tip centre, so `n·(c, 0) = R − r`, that is
//! `n = ((R − r)/c, ±√(1 − ((R − r)/c)²))`, touching the base circle at `R·n` and the tip
//! circle at `(c, 0) + r·n`. The round tip is cut into [`TIP_ARC_SEGMENTS`] chords (the
//! plugin's moving obstacles are segments); the base circle needs none, being a fixed
//! pillar at the pivot that the bat turns about.

use bevy::prelude::*;
use std::f32::consts::TAU;

/// Chords that stand for the round tip in the collision outline.
pub const TIP_ARC_SEGMENTS: usize = 6;
/// Chords that draw the base circle's back half in the bat's outline (drawing only: the
/// pillar at the pivot is an exact circle).
pub const BASE_ARC_SEGMENTS: usize = 16;

/// A flipper bat's shape: on the flipper's entity, for the view.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct BatShape {
    /// From the pivot to the far edge of the tip.
    pub length: f32,
    /// Radius of the base circle, round the pivot.
    pub base_r: f32,
    /// Radius of the tip circle.
    pub tip_r: f32,
}

impl BatShape {
    /// The moving edge: see [`flipper_blade`].
    #[must_use]
    pub fn blade(&self) -> Vec<Vec2> {
        flipper_blade(self.length, self.base_r, self.tip_r)
    }

    /// The closed outline: see [`flipper_outline`].
    #[must_use]
    pub fn outline(&self) -> Vec<Vec2> {
        flipper_outline(self.length, self.base_r, self.tip_r)
    }

    /// How far the top face stands above the bat's axis, `along` mm from the pivot: the
    /// radius of the base circle at the pivot narrowing straight to the tip circle's at
    /// its centre (the tangent face's height, to within the taper's small angle).
    #[must_use]
    pub fn face_height(&self, along: f32) -> f32 {
        let span = (self.length - self.tip_r).max(f32::EPSILON);
        let s = (along / span).clamp(0.0, 1.0);
        self.base_r + (self.tip_r - self.base_r) * s
    }

    /// The same bat `d` smaller all round (the hull of the two circles shrunk by `d`
    /// about the same centres), for drawing a rim.
    #[must_use]
    pub fn inset(&self, d: f32) -> Self {
        let d = d.min(self.tip_r * 0.5);
        Self {
            length: self.length - d,
            base_r: self.base_r - d,
            tip_r: self.tip_r - d,
        }
    }
}

/// The unit normal of the bat's top face (the bottom face's is mirrored in x).
fn top_normal(length: f32, base_r: f32, tip_r: f32) -> Vec2 {
    let c = length - tip_r;
    let nx = ((base_r - tip_r) / c).clamp(-1.0, 1.0);
    Vec2::new(nx, (1.0 - nx * nx).max(0.0).sqrt())
}

/// The bat's moving edge, counter-clockwise: from where the bottom face leaves the base
/// circle, along the bottom face, round the tip in [`TIP_ARC_SEGMENTS`] chords, and back
/// along the top face to the base circle. Consecutive points are the kinematic segments.
#[must_use]
pub fn flipper_blade(length: f32, base_r: f32, tip_r: f32) -> Vec<Vec2> {
    let n = top_normal(length, base_r, tip_r);
    let tip = Vec2::new(length - tip_r, 0.0);
    let half = n.to_angle();
    let mut points = vec![Vec2::new(n.x, -n.y) * base_r];
    for k in 0..=TIP_ARC_SEGMENTS {
        let a = -half + 2.0 * half * k as f32 / TIP_ARC_SEGMENTS as f32;
        points.push(tip + Vec2::from_angle(a) * tip_r);
    }
    points.push(n * base_r);
    points
}

/// The whole outline: the moving edge of [`flipper_blade`] closed round the back of the
/// base circle in [`BASE_ARC_SEGMENTS`] chords.
#[must_use]
pub fn flipper_outline(length: f32, base_r: f32, tip_r: f32) -> Vec<Vec2> {
    let mut points = flipper_blade(length, base_r, tip_r);
    let from = top_normal(length, base_r, tip_r).to_angle();
    let span = TAU - 2.0 * from;
    for k in 1..BASE_ARC_SEGMENTS {
        let a = from + span * k as f32 / BASE_ARC_SEGMENTS as f32;
        points.push(Vec2::from_angle(a) * base_r);
    }
    points
}

/// How far `p` (in the blade's frame) is outside the closed convex `outline` (0 inside).
#[cfg(test)]
#[must_use]
pub fn distance_outside(p: Vec2, outline: &[Vec2]) -> f32 {
    let edges = outline.iter().zip(outline.iter().cycle().skip(1));
    let mut inside = true;
    let mut nearest = f32::INFINITY;
    for (&a, &b) in edges {
        let d = b - a;
        // Counter-clockwise: the inside is on the left of every edge.
        inside &= d.perp_dot(p - a) >= 0.0;
        let t = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        nearest = nearest.min(p.distance(a + d * t));
    }
    if inside { 0.0 } else { nearest }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LENGTH: f32 = 70.0;
    const BASE: f32 = 6.0;
    const TIP: f32 = 3.0;
    const EPS: f32 = 1e-4;

    /// Distance from `p` to the infinite line through `a` and `b`.
    fn line_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
        (b - a).normalize().perp_dot(p - a).abs()
    }

    #[test]
    fn the_faces_touch_both_circles() {
        let blade = flipper_blade(LENGTH, BASE, TIP);
        let tip = Vec2::new(LENGTH - TIP, 0.0);
        let bottom = (blade[0], blade[1]);
        let top = (blade[blade.len() - 2], blade[blade.len() - 1]);
        for (a, b) in [bottom, top] {
            assert!((line_distance(Vec2::ZERO, a, b) - BASE).abs() < EPS);
            assert!((line_distance(tip, a, b) - TIP).abs() < EPS);
            // Tangent: the face is square to the radius at each end.
            assert!((a.length() - BASE).abs() < EPS || (b.length() - BASE).abs() < EPS);
        }
        assert_eq!(blade.len(), TIP_ARC_SEGMENTS + 3);
        // The tip reaches the bat's length.
        let reach = blade.iter().map(|p| p.x).fold(f32::MIN, f32::max);
        assert!((reach - LENGTH).abs() < EPS, "{reach}");
    }

    #[test]
    fn the_outline_is_closed_and_convex() {
        let outline = flipper_outline(LENGTH, BASE, TIP);
        let n = outline.len();
        assert_eq!(n, TIP_ARC_SEGMENTS + 3 + BASE_ARC_SEGMENTS - 1);
        let mut turned = 0.0;
        for k in 0..n {
            let (a, b, c) = (outline[k], outline[(k + 1) % n], outline[(k + 2) % n]);
            assert!((b - a).length() > EPS, "repeated point at {k}");
            // Every corner turns left (counter-clockwise, convex).
            assert!((b - a).perp_dot(c - b) > 0.0, "not convex at {k}");
            turned += (b - a).angle_to(c - b);
        }
        // Closed: the corners turn once round.
        assert!((turned - TAU).abs() < 1e-3, "turned {turned}");
        assert!(distance_outside(Vec2::new(LENGTH * 0.5, 0.0), &outline) == 0.0);
        let above = Vec2::new(0.0, BASE + 2.0);
        assert!((distance_outside(above, &outline) - 2.0).abs() < 0.05);
    }

    #[test]
    fn an_inset_bat_lies_that_far_inside() {
        let bat = BatShape {
            length: LENGTH,
            base_r: BASE,
            tip_r: TIP,
        };
        let (outer, inner) = (bat.blade(), bat.inset(1.5).blade());
        // Each face moves in by the inset along its own (unchanged) normal.
        for (o, i) in [(0, 0), (outer.len() - 1, inner.len() - 1)] {
            let n = (outer[o] / BASE).normalize();
            assert!((n.dot(outer[o]) - n.dot(inner[i]) - 1.5).abs() < EPS);
        }
        let outline = bat.outline();
        assert!(
            bat.inset(1.5)
                .outline()
                .iter()
                .all(|p| distance_outside(*p, &outline) == 0.0)
        );
    }

    #[test]
    fn an_untapered_bat_has_parallel_faces() {
        let blade = flipper_blade(LENGTH, BASE, BASE);
        assert!((blade[0] - Vec2::new(0.0, -BASE)).length() < EPS);
        assert!((blade[blade.len() - 1] - Vec2::new(0.0, BASE)).length() < EPS);
    }

    #[test]
    fn the_face_height_falls_from_the_base_radius_to_the_tip_radius() {
        // Starfall's bat: 76 mm, radii 11.5 and 6.5; the tip circle's centre is at 69.5.
        let bat = BatShape {
            length: 76.0,
            base_r: 11.5,
            tip_r: 6.5,
        };
        assert!((bat.face_height(0.0) - 11.5).abs() < EPS);
        assert!((bat.face_height(34.75) - 9.0).abs() < EPS);
        assert!((bat.face_height(69.5) - 6.5).abs() < EPS);
        // Beyond either end it stays at that end's radius.
        assert!((bat.face_height(-5.0) - 11.5).abs() < EPS);
        assert!((bat.face_height(80.0) - 6.5).abs() < EPS);
        // The top face's segment (the blade's last two points) agrees to 0.1 mm at both
        // ends and its middle: the taper's angle is only asin(5/69.5) = 4.1°.
        let blade = bat.blade();
        let (a, b) = (blade[blade.len() - 2], blade[blade.len() - 1]);
        for q in [a, a.lerp(b, 0.5), b] {
            assert!((q.y - bat.face_height(q.x)).abs() < 0.1, "{q}");
        }
    }
}
