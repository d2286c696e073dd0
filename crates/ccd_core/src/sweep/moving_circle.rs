//! Two circles, each moving linearly over the step (two balls, or a ball and a kinematic
//! pillar).

use super::circle_circle::sweep_circle_circle;
use crate::hit::Hit;
use crate::ray::ray_circle_toi_f64;
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

/// The `toi` of [`sweep_circle_moving_circle`] alone, for a caller that needs no more
/// (the multiball planner sweeps about two pairs per ball per step, and keeps only the
/// time): the same ray in f64 from the exact inputs, or 0 for circles that start in
/// contact, then one test that the pair closes in along the line of centres at that
/// time. Inputs the full query would refuse (non-finite, negative radii) give `None` or
/// a contact from their values as they are; the planner passes only usable balls.
#[inline]
#[must_use]
pub(crate) fn moving_circles_toi(
    circle: Circle,
    motion: Vec2,
    other: Circle,
    other_motion: Vec2,
) -> Option<f32> {
    let relative = motion - other_motion;
    let reach = f64::from(circle.radius) + f64::from(other.radius);
    let start = circle.center.as_dvec2() - other.center.as_dvec2();
    let toi = if start.length_squared() <= reach * reach {
        0.0
    } else {
        ray_circle_toi_f64(start, relative.as_dvec2(), reach)? as f32
    };
    let offset = (circle.center + motion * toi) - (other.center + other_motion * toi);
    // Coincident centres have no line between them: the full query then takes the normal
    // against the motion, which always closes in.
    let closing = relative.dot(offset) < 0.0 || (offset == Vec2::ZERO && relative != Vec2::ZERO);
    closing.then_some(toi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The seed of [`the_time_alone_matches_the_full_query`]'s pairs.
    const PAIRS_SEED: u64 = 99;

    #[test]
    fn the_time_alone_matches_the_full_query() {
        // Random pairs, many of them touching or overlapping (the planner's common case)
        // and many grazing: the same answer as the full query, time bit for bit, except
        // where the full query's two closing tests (one at the relative frame's centre,
        // one at the moving centres) and this one test round differently: a pair closing
        // slower than 1e-4 of its relative motion.
        let mut rng = StdRng::seed_from_u64(PAIRS_SEED);
        let mut next = |scale: f32| rng.random_range(-scale..scale);
        let (mut same, mut grazing) = (0, 0);
        for k in 0..20_000 {
            let a = Circle::new(v(next(20.0), next(20.0)), 1.0 + next(0.5).abs());
            let b = Circle::new(v(next(20.0), next(20.0)), 1.0 + next(0.5).abs());
            let (ma, mb) = (v(next(30.0), next(30.0)), v(next(30.0), next(30.0)));
            // Every fourth pair starts touching, exactly or nearly.
            let b = if k % 4 == 0 {
                let dir = (b.center - a.center).normalize_or(Vec2::X);
                Circle::new(a.center + dir * (a.radius + b.radius + next(1e-3)), b.radius)
            } else {
                b
            };
            let full = sweep_circle_moving_circle(a, ma, b, mb);
            let lean = moving_circles_toi(a, ma, b, mb);
            if full.map(|h| h.toi) == lean {
                same += 1;
                continue;
            }
            let toi = full.map_or_else(|| lean.unwrap_or(0.0), |h| h.toi);
            let offset = (a.center + ma * toi) - (b.center + mb * toi);
            let rel = ma - mb;
            let closing = -rel.dot(offset) / (rel.length() * offset.length());
            assert!(closing.abs() < 1e-4, "pair {k}: {full:?} against {lean:?}");
            grazing += 1;
        }
        assert!(same >= 19_900, "{same} the same, {grazing} grazing");
    }

    #[test]
    fn the_time_alone_by_hand() {
        // The head-on case of the doc example: 0.625; moving apart or together: none.
        let a = Circle::new(v(-6.0, 0.0), 1.0);
        let b = Circle::new(v(6.0, 0.0), 1.0);
        assert_eq!(moving_circles_toi(a, v(8.0, 0.0), b, v(-8.0, 0.0)), Some(0.625));
        assert_eq!(moving_circles_toi(a, v(-8.0, 0.0), b, v(8.0, 0.0)), None);
        assert_eq!(moving_circles_toi(a, v(8.0, 0.0), b, v(8.0, 0.0)), None);
        // Touching: closing gives 0, separating none; coincident centres close.
        let c = Circle::new(v(-4.0, 0.0), 1.0);
        assert_eq!(
            moving_circles_toi(c, v(1.0, 0.0), Circle::new(v(-2.0, 0.0), 1.0), Vec2::ZERO),
            Some(0.0)
        );
        assert_eq!(
            moving_circles_toi(c, v(-1.0, 0.0), Circle::new(v(-2.0, 0.0), 1.0), Vec2::ZERO),
            None
        );
        assert_eq!(moving_circles_toi(c, v(1.0, 0.0), c, Vec2::ZERO), Some(0.0));
        assert_eq!(moving_circles_toi(c, Vec2::ZERO, c, Vec2::ZERO), None);
        // Bad motion: none, never a NaN time.
        assert_eq!(moving_circles_toi(a, v(f32::NAN, 0.0), b, Vec2::ZERO), None);
        assert_eq!(
            moving_circles_toi(
                c,
                v(1.0, 0.0),
                Circle::new(v(-2.0, 0.0), 1.0),
                v(f32::INFINITY, 0.0)
            ),
            None
        );
    }

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
