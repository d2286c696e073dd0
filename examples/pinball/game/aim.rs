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
use bevy_circle_ccd::ccd_core::{Circle, PredictSettings, Segment, SweepSettings};
use bevy_circle_ccd::prelude::*;

/// How far ahead the autoplayer looks, s.
const LOOK_AHEAD: f32 = 0.4;
/// Seconds between the samples taken along each predicted leg (the blade crossing is
/// looked for between samples, on a straight piece).
const SAMPLE_STEP: f32 = 1.0 / 120.0;
/// Contacts the prediction follows.
const PREDICT_BOUNCES: u32 = 6;
/// How long and through how many contacts a shot is followed, s.
const SHOT_TIME: f32 = 0.6;
const SHOT_BOUNCES: u32 = 4;

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

/// What a prediction needs besides the ball's place and velocity: the world it sweeps
/// through, the ball's layers (a ball on the playfield passes under the ramp's wires),
/// material and radius, and the rolling gravity.
pub struct AimInputs<'a> {
    pub world: &'a CcdWorld,
    pub layers: CcdLayers,
    /// The ball's material: the prediction bounces it as the step will.
    pub material: CcdMaterial,
    pub radius: f32,
    /// Down the table, mm/s².
    pub gravity: f32,
}

impl Forecast {
    /// Predict a ball at `p` moving at `vel` for [`LOOK_AHEAD`] s.
    #[must_use]
    pub fn new(inputs: &AimInputs, p: Vec2, vel: Vec2) -> Self {
        Self::predicted(inputs, p, vel, LOOK_AHEAD, PREDICT_BOUNCES)
    }

    /// Predict a shot leaving a flipper at `p` with `vel`, for [`SHOT_TIME`] s and up to
    /// [`SHOT_BOUNCES`] contacts: far enough to reach any shot on the table.
    #[must_use]
    pub fn aimed(inputs: &AimInputs, p: Vec2, vel: Vec2) -> Self {
        Self::predicted(inputs, p, vel, SHOT_TIME, SHOT_BOUNCES)
    }

    fn predicted(inputs: &AimInputs, p: Vec2, vel: Vec2, max_time: f32, max_bounces: u32) -> Self {
        let settings = PredictSettings {
            max_bounces,
            max_time,
            gravity: Vec2::new(0.0, -inputs.gravity),
            sweep: SweepSettings {
                layers: inputs.layers.into(),
                material: inputs.material.into(),
                ..default()
            },
        };
        let mut legs = Vec::new();
        if inputs
            .world
            .predict_path(Circle::new(p, inputs.radius), vel, &settings, &mut legs)
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

    /// Whether the path passes within `within` of the line `(a, b)` (0: crosses it),
    /// taken as straight between its samples.
    #[must_use]
    pub fn passes(&self, (a, b): Line, within: f32) -> bool {
        let line = Segment::new(a, b);
        self.points.windows(2).any(|w| {
            let chord = Segment::new(w[0].0, w[1].0);
            segments_distance(chord, line) <= within
        })
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

/// The distance between two segments: 0 when they cross, else the least of the distances
/// from each one's ends to the other.
pub(crate) fn segments_distance(p: Segment, q: Segment) -> f32 {
    let side = |s: Segment, x: Vec2| (s.b - s.a).perp_dot(x - s.a);
    let straddles = |s: Segment, t: Segment| side(s, t.a) * side(s, t.b) <= 0.0;
    if straddles(p, q) && straddles(q, p) {
        return 0.0;
    }
    [
        p.closest_point(q.a).distance(q.a),
        p.closest_point(q.b).distance(q.b),
        q.closest_point(p.a).distance(p.a),
        q.closest_point(p.b).distance(p.b),
    ]
    .into_iter()
    .fold(f32::INFINITY, f32::min)
}
