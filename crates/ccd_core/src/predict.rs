//! Trajectory prediction: the future path of a ball, one curve per leg, for aiming guides.

use crate::bounce::{BounceHit, SweepSettings, Watch, sweep_legs};
use crate::obstacle::Obstacles;
use crate::parabola::PathLeg;
use crate::shape::{Circle, ShapeError};
use glam::Vec2;

/// How far [`predict_path`] looks ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictSettings {
    /// Stop after this many solid contacts. Default 8.
    pub max_bounces: u32,
    /// Stop after this many seconds. Default 2 s.
    pub max_time: f32,
    /// Constant acceleration, in world units per second². Default zero. The path follows
    /// it exactly, as a step of [`sweep_bounces`](crate::sweep_bounces) with this
    /// gravity does: each leg is one parabola, with no integration steps.
    pub gravity: Vec2,
    /// How the ball bounces. Default [`SweepSettings::default`]; its `max_bounces` and
    /// `gravity` are replaced by the ones above.
    pub sweep: SweepSettings,
}

impl Default for PredictSettings {
    fn default() -> Self {
        Self {
            max_bounces: 8,
            max_time: 2.0,
            gravity: Vec2::ZERO,
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
}

/// Fill `legs` with the centre's future path, one [`PathLeg`] (one curve) from the start
/// or a contact to the next, up to `settings.max_bounces` contacts or `settings.max_time`
/// seconds. The legs are those of one [`sweep_bounces`](crate::sweep_bounces) call over
/// `max_time`: the path a step of that length would take, exactly. `legs` is cleared
/// first, so a caller can reuse it.
///
/// # Errors
/// [`ShapeError`] naming the bad field when the circle, velocity, gravity or time are not
/// finite or negative; `legs` is then left empty.
///
/// ```
/// use ccd_core::{predict_path, Circle, Obstacle, PredictSettings, Segment, Vec2};
/// // A wall at x = 10. A ball of radius 1 from the origin at 20 units/s to the right
/// // touches it at x = 9 after 0.45 s, and comes back 1.05 s × 20 = 21 units to x = −12 at 1.5 s.
/// let wall = [Obstacle::segment(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0)))];
/// let mut legs = Vec::new();
/// let settings = PredictSettings { max_time: 1.5, ..Default::default() };
/// let p = predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::new(20.0, 0.0), &wall, &settings, &mut legs).unwrap();
/// assert_eq!(p.bounces, 1);
/// assert_eq!(legs.len(), 2);
/// assert!((legs[0].end() - Vec2::new(9.0, 0.0)).length() < 1e-5);
/// assert!((legs[1].end() - Vec2::new(-12.0, 0.0)).length() < 1e-4);
/// ```
pub fn predict_path<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    obstacles: &O,
    settings: &PredictSettings,
    legs: &mut Vec<PathLeg>,
) -> Result<Prediction, ShapeError> {
    legs.clear();
    circle.validate()?;
    if !settings.max_time.is_finite() {
        return Err(ShapeError::NonFinite { field: "max_time" });
    }
    if settings.max_time < 0.0 {
        return Err(ShapeError::NegativeRadius { field: "max_time" });
    }
    let sweep = SweepSettings {
        max_bounces: settings.max_bounces,
        gravity: settings.gravity,
        ..settings.sweep
    };
    // The sweep raises its bounce cap in corners; a prediction stops at `max_bounces`, so
    // it keeps the times of that many contacts and the legs up to the last of them (a
    // contact's legs are told before it: one, or a ride's chords).
    let mut contact_times = Vec::new();
    let legs_told = std::cell::Cell::new(0_usize);
    let mut legs_before = 0;
    let out = sweep_legs(
        circle,
        velocity,
        settings.max_time,
        obstacles,
        &sweep,
        &mut Watch(
            |hit: &BounceHit| {
                if !hit.sensor && contact_times.len() < settings.max_bounces as usize {
                    contact_times.push(hit.time);
                    legs_before = legs_told.get();
                }
            },
            |leg| {
                legs.push(leg);
                legs_told.set(legs_told.get() + 1);
            },
        ),
    )
    .inspect_err(|_| legs.clear())?;
    let bounces = out.bounces.min(settings.max_bounces);
    let stopped = out.capped || out.bounces >= settings.max_bounces;
    if stopped {
        legs.truncate(legs_before);
    }
    Ok(Prediction {
        bounces,
        time: match contact_times.last() {
            Some(&t) if stopped => t,
            _ => settings.max_time,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Obstacle, Segment};

    #[test]
    fn free_fall_is_one_exact_parabola() {
        // From the origin at (1, 0) under g = (0, −10) for 1 s: x = t, y = −5t², so the
        // one leg ends at (1, −5) and passes (0.5, −1.25) halfway.
        let none: [Obstacle; 0] = [];
        let settings = PredictSettings {
            max_time: 1.0,
            gravity: Vec2::new(0.0, -10.0),
            ..Default::default()
        };
        let mut legs = Vec::new();
        let p = predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &settings, &mut legs).unwrap();
        assert_eq!((p.bounces, p.time, legs.len()), (0, 1.0, 1));
        assert!((legs[0].end() - Vec2::new(1.0, -5.0)).length() < 1e-6);
        assert!((legs[0].point(0.5) - Vec2::new(0.5, -1.25)).length() < 1e-6);
    }

    #[test]
    fn a_ride_to_the_last_contact_keeps_all_its_legs() {
        // A ball of 0.5 let go 0.3 rad off the top of a post of 9.5 (its centre rides a
        // circle of 10) slides off to the right along legs of the ride, and meets a wall
        // whose face is at x = 6 while it still rides (it would leave at x = 7.5): that is
        // its second contact (the landing is the first). With two contacts allowed the
        // path goes all the way to the wall, its centre at x = 5.5.
        let walls = [
            Obstacle::pillar(Circle::new(Vec2::ZERO, 9.5)),
            Obstacle::segment(Segment::new(Vec2::new(6.0, -20.0), Vec2::new(6.0, 20.0))),
        ];
        let settings = PredictSettings {
            max_bounces: 2,
            max_time: 10.0,
            gravity: Vec2::new(0.0, -10.0),
            ..Default::default()
        };
        let start = Vec2::new(0.3_f32.sin(), 0.3_f32.cos()) * 10.0;
        let mut legs = Vec::new();
        let p = predict_path(Circle::new(start, 0.5), Vec2::ZERO, &walls, &settings, &mut legs).unwrap();
        assert_eq!(p.bounces, 2);
        assert!(legs.len() > 2, "the ride's legs: {}", legs.len());
        let end = legs.last().unwrap().end();
        assert!(
            (end.x - 5.5).abs() < 1e-3 && (end.length() - 10.0).abs() < 1e-3,
            "{end}"
        );
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
        let mut legs = Vec::new();
        let p = predict_path(
            Circle::new(Vec2::new(0.0, 2.0), 1.0),
            Vec2::new(1.0, -10.0),
            &walls,
            &settings,
            &mut legs,
        )
        .unwrap();
        assert_eq!(p.bounces, 3);
        assert!((p.time - 0.5).abs() < 1e-5);
        assert_eq!(legs.len(), 3);
        assert!((legs[2].end() - Vec2::new(0.5, 1.0)).length() < 1e-4);
    }

    #[test]
    fn bad_settings_are_errors() {
        let none: [Obstacle; 0] = [];
        let mut legs = Vec::new();
        let bad = PredictSettings {
            gravity: Vec2::new(f32::NAN, 0.0),
            ..Default::default()
        };
        assert_eq!(
            predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &bad, &mut legs),
            Err(ShapeError::NonFinite { field: "gravity" })
        );
        assert!(legs.is_empty());
        let bad = PredictSettings {
            max_time: -1.0,
            ..Default::default()
        };
        assert_eq!(
            predict_path(Circle::new(Vec2::ZERO, 1.0), Vec2::X, &none, &bad, &mut legs),
            Err(ShapeError::NegativeRadius { field: "max_time" })
        );
    }
}
