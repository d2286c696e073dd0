//! Random shapes and random starts aimed at them.

use super::*;

pub(crate) fn v2(rng: &mut StdRng, lo: f32, hi: f32) -> Vec2 {
    Vec2::new(rng.random_range(lo..hi), rng.random_range(lo..hi))
}

pub(crate) fn unit(rng: &mut StdRng) -> Vec2 {
    Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
}

/// A random shape of `kind`, or `None` when it fails its validation.
pub(crate) fn random_shape(rng: &mut StdRng, kind: Kind) -> Option<Shape> {
    match kind {
        Kind::Capsule => {
            let (a, b) = (v2(rng, -15.0, 15.0), v2(rng, -15.0, 15.0));
            let capsule = Capsule::new(a, b, rng.random_range(0.0..3.0));
            capsule.validate().ok()?;
            Some(Shape::Capsule(capsule))
        }
        Kind::Arc => {
            let center = v2(rng, -10.0, 10.0);
            let radius = rng.random_range(1.0..15.0);
            let start: f32 = rng.random_range(-10.0..10.0);
            let span = if rng.random_bool(0.1) {
                std::f32::consts::TAU
            } else {
                rng.random_range(0.1..=std::f32::consts::TAU)
            };
            let thickness = if rng.random_bool(0.5) {
                0.0
            } else {
                rng.random_range(0.0..2.0)
            };
            let arc = CircleArc::new(center, radius, start, start + span).with_thickness(thickness);
            arc.validate().ok()?;
            Some(Shape::Arc(arc))
        }
        Kind::Polyline => {
            let n = rng.random_range(3..=8);
            let mut points = vec![v2(rng, -12.0, 12.0)];
            for _ in 1..n {
                let step = unit(rng) * rng.random_range(1.0..8.0);
                points.push(*points.last().unwrap() + step);
            }
            let chain = Polyline::open(points);
            chain.validate().ok()?;
            Some(Shape::Polyline(chain))
        }
        Kind::Polygon => {
            let n = rng.random_range(3..=10);
            let center = v2(rng, -8.0, 8.0);
            let mut angles: Vec<f32> = (0..n)
                .map(|_| rng.random_range(0.0..std::f32::consts::TAU))
                .collect();
            angles.sort_by(f32::total_cmp);
            let mut points: Vec<Vec2> = angles
                .iter()
                .map(|&a| center + Vec2::from_angle(a) * rng.random_range(1.0..10.0))
                .collect();
            if rng.random_bool(0.5) {
                points.reverse();
            }
            let polygon = Polygon::new(points);
            polygon.validate().ok()?;
            Some(Shape::Polygon(polygon))
        }
    }
}

/// A random point near the shape: on its core, moved by up to its rounding plus 3.
pub(crate) fn aim_point(rng: &mut StdRng, shape: &Shape) -> Vec2 {
    pub(crate) fn on_chain(rng: &mut StdRng, points: &[Vec2], closed: bool) -> Vec2 {
        let n = points.len();
        let i = rng.random_range(0..if closed { n } else { n - 1 });
        points[i].lerp(points[(i + 1) % n], rng.random_range(0.0..=1.0))
    }
    let (core, reach) = match shape {
        Shape::Capsule(c) => (
            c.segment.a.lerp(c.segment.b, rng.random_range(0.0..=1.0)),
            c.radius + 3.0,
        ),
        Shape::Arc(a) => (
            a.center + Vec2::from_angle(a.start + a.span() * rng.random_range(0.0..=1.0)) * a.radius,
            a.thickness + 3.0,
        ),
        Shape::Polyline(p) => (on_chain(rng, &p.points, p.closed), 3.0),
        Shape::Polygon(p) => (on_chain(rng, &p.points, true), 3.0),
    };
    core + v2(rng, -reach, reach)
}

/// A random start: anywhere around for a capsule or a chain, outside the polygon, inside
/// or outside the arc's circle.
pub(crate) fn random_start(rng: &mut StdRng, shape: &Shape) -> Option<Vec2> {
    match shape {
        Shape::Arc(a) => {
            let dir = unit(rng);
            let distance = if rng.random_bool(0.5) {
                a.radius * rng.random_range(0.0_f32..1.0).sqrt()
            } else {
                a.radius + rng.random_range(0.0..20.0)
            };
            Some(a.center + dir * distance)
        }
        Shape::Polygon(p) => {
            let c = v2(rng, -25.0, 25.0);
            (!p.contains(c)).then_some(c)
        }
        Shape::Capsule(_) | Shape::Polyline(_) => Some(v2(rng, -20.0, 20.0)),
    }
}
