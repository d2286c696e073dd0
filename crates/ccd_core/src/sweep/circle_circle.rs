//! A moving circle against a static circle (a pillar, or a ball held still).

use crate::hit::{ContactOrder, Feature, Hit};
use crate::ray::ray_circle_toi_f64;
use crate::shape::Circle;
use crate::sweep::usable;
use glam::Vec2;

/// First contact of `circle`, moving by `motion`, with the static circle `other`.
///
/// Reduced to a ray from `circle.center` against a circle of radius
/// `circle.radius + other.radius` around `other.center`. Two circles that start touching or
/// overlapping give `toi == 0` when `motion` points into `other`; if their centres
/// coincide the normal is `-motion` normalized.
///
/// ```
/// use ccd_core::{sweep_circle_circle, Circle, Vec2};
/// // A ball of radius 1 at (-10, 0) moves 20 units right towards a pillar of radius 2 at
/// // the origin. The centres touch at distance 3, after 7 of the 20 units: toi = 0.35.
/// let ball = Circle::new(Vec2::new(-10.0, 0.0), 1.0);
/// let pillar = Circle::new(Vec2::ZERO, 2.0);
/// let hit = sweep_circle_circle(ball, Vec2::new(20.0, 0.0), pillar).unwrap();
/// assert_eq!(hit.toi, 0.35);
/// assert_eq!(hit.center, Vec2::new(-3.0, 0.0));
/// assert_eq!(hit.point, Vec2::new(-2.0, 0.0));
/// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
/// ```
#[inline]
#[must_use]
pub fn sweep_circle_circle(circle: Circle, motion: Vec2, other: Circle) -> Option<Hit> {
    sweep_circle_circle_ordered(circle, motion, other).map(|(hit, _)| hit)
}

/// [`sweep_circle_circle`], with what orders its contact against other obstacles' (the
/// exact time; a circle is round).
pub(crate) fn sweep_circle_circle_ordered(
    circle: Circle,
    motion: Vec2,
    other: Circle,
) -> Option<(Hit, ContactOrder)> {
    if !usable(circle, motion) || !usable(other, Vec2::ZERO) || motion == Vec2::ZERO {
        return None;
    }
    // In f64 from the exact f32 inputs: the relative position and the radii sum lose
    // nothing, however far from the origin the pair is.
    let reach = f64::from(circle.radius) + f64::from(other.radius);
    let start = circle.center.as_dvec2() - other.center.as_dvec2();
    let exact = if start.length_squared() <= reach * reach {
        // Starting in contact or overlapping.
        0.0
    } else {
        ray_circle_toi_f64(start, motion.as_dvec2(), reach)?
    };
    let toi = exact as f32;
    let center = circle.center + motion * toi;
    let normal = (center.as_dvec2() - other.center.as_dvec2())
        .try_normalize()
        .or_else(|| (-motion.as_dvec2()).try_normalize())?
        .as_vec2();
    let hit = Hit {
        toi,
        center,
        point: other.center + normal * other.radius,
        normal,
    }
    .approached_by(motion)?;
    Some((
        hit,
        ContactOrder {
            toi: exact,
            feature: Feature::Round,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn head_on_hit_by_hand() {
        // Gap between surfaces = 10 - 1 - 2 = 7, motion 14 → toi 0.5.
        let hit = sweep_circle_circle(
            Circle::new(v(0.0, 10.0), 1.0),
            v(0.0, -14.0),
            Circle::new(Vec2::ZERO, 2.0),
        )
        .unwrap();
        assert_eq!(hit.toi, 0.5);
        assert_eq!(hit.center, v(0.0, 3.0));
        assert_eq!(hit.point, v(0.0, 2.0));
        assert_eq!(hit.normal, v(0.0, 1.0));
    }

    #[test]
    fn off_centre_hit_by_hand() {
        // Ball r=1 moving along y = 3 towards a pillar r=4: contact distance 5, so the
        // centre meets it at x = -4 (a 3-4-5 triangle). From x = -10 that is 6 of 12 units.
        let hit = sweep_circle_circle(
            Circle::new(v(-10.0, 3.0), 1.0),
            v(12.0, 0.0),
            Circle::new(Vec2::ZERO, 4.0),
        )
        .unwrap();
        assert!((hit.toi - 0.5).abs() < 1e-6);
        assert!((hit.normal - v(-0.8, 0.6)).length() < 1e-6);
        assert!((hit.point - v(-3.2, 2.4)).length() < 1e-5);
    }

    #[test]
    fn miss_and_graze() {
        let pillar = Circle::new(Vec2::ZERO, 1.0);
        // Passing at distance 2.5 > 2: miss.
        assert_eq!(
            sweep_circle_circle(Circle::new(v(-5.0, 2.5), 1.0), v(10.0, 0.0), pillar),
            None
        );
        // Passing at exactly distance 2: grazing, no hit.
        assert_eq!(
            sweep_circle_circle(Circle::new(v(-5.0, 2.0), 1.0), v(10.0, 0.0), pillar),
            None
        );
        // Too short to reach.
        assert_eq!(
            sweep_circle_circle(Circle::new(v(-5.0, 0.0), 1.0), v(2.9, 0.0), pillar),
            None
        );
        // Moving away.
        assert_eq!(
            sweep_circle_circle(Circle::new(v(-5.0, 0.0), 1.0), v(-10.0, 0.0), pillar),
            None
        );
    }

    #[test]
    fn starting_in_contact_depends_on_direction() {
        let pillar = Circle::new(Vec2::ZERO, 1.0);
        let touching = Circle::new(v(2.0, 0.0), 1.0);
        let hit = sweep_circle_circle(touching, v(-1.0, 0.5), pillar).unwrap();
        assert_eq!((hit.toi, hit.normal, hit.point), (0.0, v(1.0, 0.0), v(1.0, 0.0)));
        assert_eq!(sweep_circle_circle(touching, v(1.0, 0.5), pillar), None);
        assert_eq!(
            sweep_circle_circle(touching, v(0.0, 1.0), pillar),
            None,
            "tangent motion grazes"
        );
        // Overlapping.
        let deep = Circle::new(v(0.5, 0.0), 1.0);
        assert_eq!(
            sweep_circle_circle(deep, v(-1.0, 0.0), pillar).unwrap().normal,
            v(1.0, 0.0)
        );
        // Coincident centres: the normal is -motion.
        let same = Circle::new(Vec2::ZERO, 1.0);
        assert_eq!(
            sweep_circle_circle(same, v(0.0, 3.0), pillar).unwrap().normal,
            v(0.0, -1.0)
        );
    }

    #[test]
    fn zero_radii_make_points() {
        // A moving point against a point, head on.
        let hit = sweep_circle_circle(
            Circle::new(v(-4.0, 0.0), 0.0),
            v(8.0, 0.0),
            Circle::new(Vec2::ZERO, 0.0),
        )
        .unwrap();
        assert_eq!((hit.toi, hit.point, hit.normal), (0.5, Vec2::ZERO, v(-1.0, 0.0)));
        // Slightly off: a miss.
        assert_eq!(
            sweep_circle_circle(
                Circle::new(v(-4.0, 1e-3), 0.0),
                v(8.0, 0.0),
                Circle::new(Vec2::ZERO, 0.0)
            ),
            None
        );
    }

    #[test]
    fn bad_input_gives_none() {
        let ball = Circle::new(v(-5.0, 0.0), 1.0);
        let pillar = Circle::new(Vec2::ZERO, 1.0);
        let go = v(10.0, 0.0);
        assert_eq!(sweep_circle_circle(ball, Vec2::ZERO, pillar), None);
        assert_eq!(sweep_circle_circle(ball, v(f32::NAN, 0.0), pillar), None);
        assert_eq!(sweep_circle_circle(ball, v(f32::INFINITY, 0.0), pillar), None);
        assert_eq!(
            sweep_circle_circle(Circle::new(v(f32::NAN, 0.0), 1.0), go, pillar),
            None
        );
        assert_eq!(
            sweep_circle_circle(ball, go, Circle::new(v(0.0, f32::NEG_INFINITY), 1.0)),
            None
        );
        assert_eq!(
            sweep_circle_circle(Circle::new(v(-5.0, 0.0), -1.0), go, pillar),
            None
        );
        assert_eq!(sweep_circle_circle(ball, go, Circle::new(Vec2::ZERO, -0.5)), None);
        assert_eq!(
            sweep_circle_circle(ball, go, Circle::new(Vec2::ZERO, f32::NAN)),
            None
        );
        // Radii so large their sum overflows: no infinity may escape.
        let huge = Circle::new(Vec2::ZERO, f32::MAX);
        if let Some(hit) = sweep_circle_circle(Circle::new(v(-5.0, 0.0), f32::MAX), go, huge) {
            assert!(hit.center.is_finite() && hit.normal.is_finite() && hit.point.is_finite());
        }
    }

    #[test]
    fn huge_motion() {
        let hit = sweep_circle_circle(
            Circle::new(v(-10.0, 0.0), 1.0),
            v(1e6, 0.0),
            Circle::new(Vec2::ZERO, 1.0),
        )
        .unwrap();
        assert!((hit.toi - 8e-6).abs() < 1e-11);
        assert!((hit.center.x + 2.0).abs() < 1e-4);
    }
}
