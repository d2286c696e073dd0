//! What the autoplayer reads from the trajectory prediction: when and where a ball will
//! reach a flipper's blade, and whether it is heading for an outlane. The path comes from
//! [`CcdWorld::predict_path`] (the table's static parts, with the rolling gravity); the
//! flippers are kinematic, so not in it, and the path runs through them to where the ball
//! meets the blade's line.
//!
//! The path is one curve per leg, with its times: each leg is sampled every
//! [`SAMPLE_STEP`] seconds, and each sample knows when the ball is there.

use crate::table::flipper_shape::BatShape;
use crate::table::parts::Flipper;
use crate::table::{TableDef, v};
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::{Circle, PredictSettings, Segment};
use bevy_circle_ccd::prelude::*;

/// How far ahead the autoplayer looks, s.
const LOOK_AHEAD: f32 = 0.4;
/// Seconds between the samples taken along each predicted leg (the blade crossing is
/// looked for between samples, on a straight piece).
const SAMPLE_STEP: f32 = 1.0 / 120.0;
/// Contacts the prediction follows.
const PREDICT_BOUNCES: u32 = 6;

/// Where and when a ball will cross a flipper's blade line.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    /// Seconds from now.
    pub time: f32,
    /// Distance from the pivot along the resting blade, as a fraction of the length.
    pub along: f32,
}

/// The ball's predicted path, with the time at each point.
pub struct Forecast {
    pub points: Vec<(Vec2, f32)>,
}

impl Forecast {
    /// Predict a ball at `p` moving at `vel` under `gravity` (mm/s², down the table).
    #[must_use]
    pub fn new(world: &CcdWorld, p: Vec2, vel: Vec2, radius: f32, gravity: f32) -> Self {
        let settings = PredictSettings {
            max_bounces: PREDICT_BOUNCES,
            max_time: LOOK_AHEAD,
            gravity: Vec2::new(0.0, -gravity),
            ..default()
        };
        let mut legs = Vec::new();
        if world
            .predict_path(Circle::new(p, radius), vel, &settings, &mut legs)
            .is_err()
        {
            return Self { points: Vec::new() };
        }
        let mut points = vec![(p, 0.0)];
        let mut start = 0.0;
        for leg in &legs {
            let duration = leg.curve.duration;
            let pieces = (duration / SAMPLE_STEP).ceil().max(1.0) as u32;
            for k in 1..=pieces {
                let fraction = k as f32 / pieces as f32;
                points.push((leg.point(fraction), start + duration * fraction));
            }
            start += duration;
        }
        Self { points }
    }

    /// When and where the ball first crosses the resting blade of `f`, whose shape is
    /// `bat` (from above, within its length plus the ball's radius).
    #[must_use]
    pub fn arrival(&self, f: &Flipper, bat: &BatShape, radius: f32) -> Option<Arrival> {
        let dir = resting_direction(f);
        // Height above the resting blade's line: along its normal that points up.
        let up = if dir.perp().y >= 0.0 {
            dir.perp()
        } else {
            -dir.perp()
        };
        // Above the tapered face, whose height falls from the base to the tip.
        let height = |q: Vec2| {
            let d = q - f.pivot;
            d.dot(up) - bat.face_height(d.dot(dir)) - radius
        };
        for w in self.points.windows(2) {
            let ((a, ta), (b, tb)) = (w[0], w[1]);
            let (ha, hb) = (height(a), height(b));
            if ha > 0.0 && hb <= 0.0 {
                let s = ha / (ha - hb);
                let q = a.lerp(b, s);
                let along = (q - f.pivot).dot(dir) / f.length;
                if (0.0..=1.0 + radius / f.length).contains(&along) {
                    return Some(Arrival {
                        time: ta + (tb - ta) * s,
                        along,
                    });
                }
                return None;
            }
        }
        None
    }

    /// Whether the path reaches the line `(a, b)` (an outlane's rollover) within a radius.
    #[must_use]
    pub fn reaches(&self, (a, b): Line, radius: f32) -> bool {
        let s = Segment::new(a, b);
        self.points
            .iter()
            .any(|(q, _)| s.closest_point(*q).distance(*q) <= radius)
    }
}

/// The resting blade's direction, from the pivot to the tip.
#[must_use]
pub fn resting_direction(f: &Flipper) -> Vec2 {
    match f.side {
        crate::table::Side::Left => Vec2::from_angle(f.rest),
        crate::table::Side::Right => Vec2::from_angle(std::f32::consts::PI - f.rest),
    }
}

/// A line from one point to another.
pub type Line = (Vec2, Vec2);

/// The outlanes' rollover lines: the leftmost and the rightmost rollover of the table.
#[must_use]
pub fn outlanes(def: &TableDef) -> (Option<Line>, Option<Line>) {
    let mid = |r: &crate::table::RolloverDef| 0.5 * (r.a.0 + r.b.0);
    let line = |r: &crate::table::RolloverDef| (v(r.a), v(r.b));
    let left = def
        .rollovers
        .iter()
        .min_by(|x, y| mid(x).total_cmp(&mid(y)))
        .map(line);
    let right = def
        .rollovers
        .iter()
        .max_by(|x, y| mid(x).total_cmp(&mid(y)))
        .map(line);
    (left, right)
}
