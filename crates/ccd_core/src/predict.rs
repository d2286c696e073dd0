//! Trajectory prediction: the future path of a ball as a polyline, for aiming guides.

use crate::bounce::{SweepSettings, sweep_bounces};
use crate::obstacle::Obstacles;
use crate::shape::{Circle, ShapeError};
use crate::tolerance::MAX_PREDICT_STEPS;
use glam::Vec2;

/// How far [`predict_path`] looks ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictSettings {
    /// Stop after this many solid contacts. Default 8.
    pub max_bounces: u32,
    /// Stop after this many seconds. Default 2 s.
    pub max_time: f32,
    /// Constant acceleration, in world units per second². Default zero.
    pub gravity: Vec2,
    /// Integration step in seconds when `gravity` is not zero (the path is then a chain
    /// of short straight legs, integrated as the plugin does). Default 1/120 s.
    pub step: f32,
    /// How the ball bounces. Default [`SweepSettings::default`].
    pub sweep: SweepSettings,
}

impl Default for PredictSettings {
    fn default() -> Self {
        Self {
            max_bounces: 8,
            max_time: 2.0,
            gravity: Vec2::ZERO,
            step: 1.0 / 120.0,
            sweep: SweepSettings::default(),
        }
    }
}

/// What [`predict_path`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Solid contacts on the path.
    pub bounces: u32,
    /// Seconds of motion the path covers.
    pub time: f32,
    /// Integration steps taken (at most [`MAX_PREDICT_STEPS`]).
    pub steps: u32,
}

/// Fill `path` with the centre's future positions: the start, every contact, and (under
/// gravity) the end of every integration step, up to `settings.max_bounces` contacts or
/// `settings.max_time` seconds. `path` is cleared first, so a caller can reuse it.
///
/// # Errors
/// [`ShapeError`] naming the bad field when the circle, velocity, gravity or times are
/// not finite or negative; `path` is then left empty.
///
/// ```
/// use ccd_core::{predict_path, Circle, Obstacle, PredictSettings, Segment, Vec2};
/// // A wall at x = 10. A ball of radius 1 from the origin at 20 units/s to the right
/// // touches it at x = 9 after 0.45 s, and comes back 1.05 s × 20 = 21 units to x = −12 at 1.5 s.
/// let wall = [Obstacle::segment(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0)))];
/// let mut path = Vec::new();
/// let settings = PredictSettings { max_time: 1.5, ..Default::default() };
/// let p = predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::new(20.0, 0.0), &wall, &settings, &mut path).unwrap();
/// assert_eq!(p.bounces, 1);
/// assert_eq!(path.len(), 3);
/// assert!((path[1] - Vec2::new(9.0, 0.0)).length() < 1e-5);
/// assert!((path[2] - Vec2::new(-12.0, 0.0)).length() < 1e-4);
/// ```
pub fn predict_path<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    obstacles: &O,
    settings: &PredictSettings,
    path: &mut Vec<Vec2>,
) -> Result<Prediction, ShapeError> {
    path.clear();
    circle.validate()?;
    for (value, field) in [(settings.max_time, "max_time"), (settings.step, "step")] {
        if !value.is_finite() {
            return Err(ShapeError::NonFinite { field });
        }
        if value < 0.0 {
            return Err(ShapeError::NegativeRadius { field });
        }
    }
    if !settings.gravity.is_finite() {
        return Err(ShapeError::NonFinite { field: "gravity" });
    }
    if !velocity.is_finite() {
        return Err(ShapeError::NonFinite { field: "velocity" });
    }
    let step = if settings.gravity == Vec2::ZERO || settings.step <= 0.0 {
        settings.max_time
    } else {
        settings.step
    };
    let mut out = Prediction {
        bounces: 0,
        time: 0.0,
        steps: 0,
    };
    let mut center = circle.center;
    let mut velocity = velocity;
    path.push(center);
    while out.time < settings.max_time && out.bounces < settings.max_bounces && out.steps < MAX_PREDICT_STEPS
    {
        let dt = step.min(settings.max_time - out.time);
        velocity += settings.gravity * dt;
        let sweep = SweepSettings {
            max_bounces: settings.max_bounces - out.bounces,
            ..settings.sweep
        };
        let mut last_time = dt;
        let moved = sweep_bounces(circle.at(center), velocity, dt, obstacles, &sweep, |hit| {
            if !hit.sensor {
                path.push(hit.hit.center);
                last_time = hit.time;
            }
        })?;
        out.steps += 1;
        out.bounces += moved.bounces;
        center = moved.center;
        velocity = moved.velocity;
        if moved.capped || out.bounces >= settings.max_bounces {
            out.time += last_time;
            break;
        }
        out.time += dt;
        if path.last() != Some(&center) {
            path.push(center);
        }
        if velocity == Vec2::ZERO && settings.gravity == Vec2::ZERO {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Obstacle, Segment};

    #[test]
    fn free_fall_matches_semi_implicit_euler() {
        // With v += g·dt then x += v·dt, after n steps y = −g·dt²·n(n+1)/2. With g = 10,
        // dt = 0.1, n = 10: y = −10·0.01·55 = −5.5; x = 1·1 = 1.
        let none: [Obstacle; 0] = [];
        let settings = PredictSettings {
            max_time: 1.0,
            step: 0.1,
            gravity: Vec2::new(0.0, -10.0),
            ..Default::default()
        };
        let mut path = Vec::new();
        let p = predict_path(
            Circle::new(Vec2::ZERO, 1.0),
            Vec2::new(1.0, 0.0),
            &none,
            &settings,
            &mut path,
        )
        .unwrap();
        assert_eq!((p.steps, p.bounces), (10, 0));
        assert_eq!(path.len(), 11);
        let end = path[10];
        assert!((end - Vec2::new(1.0, -5.5)).length() < 1e-4, "{end}");
    }

    #[test]
    fn stops_after_max_bounces_at_the_last_contact() {
        // Channel y ∈ [0, 4], radius 1, vertical speed 10: contacts every 0.2 s from 0.1 s.
        let walls = [
            Obstacle::segment(Segment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0))),
            Obstacle::segment(Segment::new(Vec2::new(-50.0, 4.0), Vec2::new(50.0, 4.0))),
        ];
        let settings = PredictSettings {
            max_bounces: 3,
            max_time: 10.0,
            ..Default::default()
        };
        let mut path = Vec::new();
        let p = predict_path(
            Circle::new(Vec2::new(0.0, 2.0), 1.0),
            Vec2::new(1.0, -10.0),
            &walls,
            &settings,
            &mut path,
        )
        .unwrap();
        assert_eq!(p.bounces, 3);
        assert!((p.time - 0.5).abs() < 1e-5);
        assert_eq!(path.len(), 4);
        assert!((path[3] - Vec2::new(0.5, 1.0)).length() < 1e-4);
    }

    #[test]
    fn bad_settings_are_errors() {
        let none: [Obstacle; 0] = [];
        let mut path = vec![Vec2::ONE];
        let bad = PredictSettings {
            gravity: Vec2::new(f32::NAN, 0.0),
            ..Default::default()
        };
        assert_eq!(
            predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &bad, &mut path),
            Err(ShapeError::NonFinite { field: "gravity" })
        );
        assert!(path.is_empty());
        let bad = PredictSettings {
            max_time: -1.0,
            ..Default::default()
        };
        assert!(predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &bad, &mut path).is_err());
    }

    #[test]
    fn tiny_step_is_capped() {
        let none: [Obstacle; 0] = [];
        let settings = PredictSettings {
            max_time: 100.0,
            step: 1e-6,
            gravity: Vec2::NEG_Y,
            ..Default::default()
        };
        let mut path = Vec::new();
        let p = predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &settings, &mut path).unwrap();
        assert_eq!(p.steps, MAX_PREDICT_STEPS);
    }
}
