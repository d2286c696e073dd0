//! Two circles, each moving linearly over the step (two balls, or a ball and a kinematic
//! pillar).

use super::circle_circle::sweep_circle_circle;
use crate::hit::Hit;
use crate::shape::Circle;
use glam::Vec2;

/// First contact of `circle` moving by `motion` with `other` moving by `other_motion`
/// over the same step.
///
/// Solved on the relative motion `motion − other_motion`: a ray against a circle of radius
/// `circle.radius + other.radius` (see [`sweep_circle_circle`]), with the same contract:
/// `toi` in `[0, 1]`, `None` when the circles separate or graze, and `toi == 0` for circles
/// that start touching or overlapping while closing in. `hit.center` is `circle`'s centre
/// at contact, `hit.point` the contact point on `other`'s surface at that time, and
/// `hit.normal` points from `other` towards `circle`.
///
/// A kinematic pillar is just `other` with the pillar's motion.
///
/// ```
/// use ccd_core::{sweep_circle_moving_circle, Circle, Vec2};
/// // Head on: A (r = 1) at x = −10 moving +8, B (r = 1) at x = 10 moving −8. The gap of
/// // 18 closes at 16 per step: toi = 18/16 > 1, no hit. At ±6 the gap is 10: toi = 0.625.
/// let a = Circle::new(Vec2::new(-6.0, 0.0), 1.0);
/// let b = Circle::new(Vec2::new(6.0, 0.0), 1.0);
/// let hit = sweep_circle_moving_circle(a, Vec2::new(8.0, 0.0), b, Vec2::new(-8.0, 0.0)).unwrap();
/// assert_eq!(hit.toi, 0.625);
/// assert_eq!(hit.center, Vec2::new(-1.0, 0.0));
/// assert_eq!(hit.point, Vec2::new(0.0, 0.0));
/// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
/// ```
#[must_use]
pub fn sweep_circle_moving_circle(
    circle: Circle,
    motion: Vec2,
    other: Circle,
    other_motion: Vec2,
) -> Option<Hit> {
    if !other_motion.is_finite() {
        return None;
    }
    let relative = motion - other_motion;
    let rel_hit = sweep_circle_circle(circle, relative, other)?;
    let toi = rel_hit.toi;
    let center = circle.center + motion * toi;
    let other_center = other.center + other_motion * toi;
    let normal = (center - other_center).try_normalize().unwrap_or(rel_hit.normal);
    let hit = Hit {
        toi,
        center,
        point: other_center + normal * other.radius,
        normal,
    };
    hit.approached_by(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn chasing_from_behind() {
        // A at 0 moving 10, B at 5 moving 6, radii 1: the gap of 3 closes at 4 per step.
        let hit = sweep_circle_moving_circle(
            Circle::new(v(0.0, 0.0), 1.0),
            v(10.0, 0.0),
            Circle::new(v(5.0, 0.0), 1.0),
            v(6.0, 0.0),
        )
        .unwrap();
        assert_eq!(hit.toi, 0.75);
        assert_eq!(hit.center, v(7.5, 0.0));
        assert_eq!(hit.point, v(8.5, 0.0));
        assert_eq!(hit.normal, v(-1.0, 0.0));
    }

    #[test]
    fn same_velocity_never_meets() {
        let a = Circle::new(v(0.0, 0.0), 1.0);
        let b = Circle::new(v(3.0, 0.0), 1.0);
        assert_eq!(
            sweep_circle_moving_circle(a, v(100.0, 0.0), b, v(100.0, 0.0)),
            None
        );
    }

    #[test]
    fn touching_and_separating_or_closing() {
        let a = Circle::new(v(0.0, 0.0), 1.0);
        let b = Circle::new(v(2.0, 0.0), 1.0);
        // B runs away faster than A follows: separating.
        assert_eq!(sweep_circle_moving_circle(a, v(1.0, 0.0), b, v(2.0, 0.0)), None);
        // A follows faster: hit at once.
        let hit = sweep_circle_moving_circle(a, v(3.0, 0.0), b, v(2.0, 0.0)).unwrap();
        assert_eq!((hit.toi, hit.normal, hit.point), (0.0, v(-1.0, 0.0), v(1.0, 0.0)));
    }

    #[test]
    fn crossing_paths_by_hand() {
        // A from (−10, 0) moving (20, 0); B from (0, −10) moving (0, 20); radii 1. Centres
        // at toi t: (−10+20t, 0) and (0, −10+20t); distance √2·|10−20t| = 2 at
        // t = (10 − √2)/20.
        let a = Circle::new(v(-10.0, 0.0), 1.0);
        let b = Circle::new(v(0.0, -10.0), 1.0);
        let hit = sweep_circle_moving_circle(a, v(20.0, 0.0), b, v(0.0, 20.0)).unwrap();
        let t = (10.0 - 2f32.sqrt()) / 20.0;
        assert!((hit.toi - t).abs() < 1e-6);
        let n = v(-1.0, 1.0).normalize();
        assert!((hit.normal - n).length() < 1e-5);
        let b_at = v(0.0, -10.0 + 20.0 * t);
        assert!((hit.point - (b_at + n)).length() < 1e-4);
    }

    #[test]
    fn bad_other_motion() {
        let a = Circle::new(v(0.0, 0.0), 1.0);
        let b = Circle::new(v(3.0, 0.0), 1.0);
        assert_eq!(
            sweep_circle_moving_circle(a, v(1.0, 0.0), b, v(f32::NAN, 0.0)),
            None
        );
        assert_eq!(
            sweep_circle_moving_circle(a, v(1.0, 0.0), b, v(f32::INFINITY, 0.0)),
            None
        );
    }
}
