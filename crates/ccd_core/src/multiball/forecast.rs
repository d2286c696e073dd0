//! A ball's forecast: its next event, found without changing anything (so that many
//! balls can be predicted at once, on several threads), kept until it is scheduled.

use super::queue::{Event, EventKind};
use crate::bounce::Course;
use crate::parabola::Parabola;
use crate::shape::{Aabb, Circle};
use glam::Vec2;

/// A ball's leg: from its clock to the end of the step, `left` seconds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leg {
    pub(super) circle: Circle,
    pub(super) start: f32,
    pub(super) left: f32,
    /// The straight part of the centre's motion over the leg, `v·left`.
    pub(super) motion: Vec2,
    /// `Some` for a ball in flight: the leg is this parabola (its gravity the step's).
    pub(super) curve: Option<Parabola>,
}

impl Leg {
    /// How its centre moves: straight by `motion`, or along `curve`.
    #[inline]
    pub(super) fn course(&self) -> Course {
        self.curve.map_or(Course::Straight(self.motion), Course::Curved)
    }

    /// The box the ball sweeps over the leg.
    #[inline]
    pub(super) fn bounds(&self) -> Aabb {
        match self.curve {
            Some(curve) => curve.aabb(self.circle.center, self.circle.radius),
            None => Aabb::swept(self.circle.center, self.motion, self.circle.radius),
        }
    }
}

/// A ball's predicted next event, and whether its leg crosses sensors (rare: they are
/// gathered again when the forecast is scheduled, so forecasts stay small to move around).
#[derive(Clone, Copy, Debug)]
pub(super) struct Forecast {
    pub(super) next: Next,
    pub(super) leg: Leg,
    pub(super) sensors: bool,
}

impl Forecast {
    /// The time of the event found so far (infinity if none).
    #[inline]
    pub(super) fn best_time(&self) -> f32 {
        self.next.best_time
    }

    /// A ball swept on its own that this leg may reach: it must join first.
    #[inline]
    pub(super) fn must_join(&mut self, j: usize) {
        self.next.must_join(j);
    }

    /// Ball `other` (at its `version`) met at `time`.
    #[inline]
    pub(super) fn consider_ball(&mut self, time: f32, other: usize, version: u32) {
        self.next.consider(
            time,
            EventKind::Ball {
                other: other as u32,
                other_version: version,
            },
        );
    }

    /// Whether balls swept on their own must join before this forecast holds.
    pub(super) fn wants_joins(&self) -> bool {
        self.next.join_count > 0 || self.next.join_overflow
    }
}

/// The earliest event found so far, and the balls swept on their own it must wait for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Next {
    pub(super) best: Option<Event>,
    /// `best`'s time, infinite while there is none (read for every candidate pair: a
    /// plain number, no test of the option).
    pub(super) best_time: f32,
    /// Balls swept on their own whose paths this leg may reach: they must join the event
    /// machinery first (see `lone.rs`). More than fit: `join_overflow`.
    pub(super) joins: [u32; JOINS_PER_FORECAST],
    pub(super) join_count: u8,
    pub(super) join_overflow: bool,
}

/// Lone balls a forecast remembers, which must join the event machinery first; more are
/// found again when the ball is predicted once more, after these joined.
pub(super) const JOINS_PER_FORECAST: usize = 4;

impl Next {
    /// Nothing found yet (written out: the derived default called a library function
    /// for the array, once per forecast).
    pub(super) const NONE: Self = Self {
        best: None,
        best_time: f32::INFINITY,
        joins: [0; JOINS_PER_FORECAST],
        join_count: 0,
        join_overflow: false,
    };

    #[inline]
    pub(super) fn must_join(&mut self, j: usize) {
        let n = self.join_count as usize;
        if n < JOINS_PER_FORECAST {
            self.joins[n] = j as u32;
            self.join_count += 1;
        } else {
            self.join_overflow = true;
        }
    }

    #[inline]
    pub(super) fn consider(&mut self, time: f32, kind: EventKind) {
        if self.best.is_none_or(|best| time < best.time) {
            self.best = Some(Event { time, kind });
            self.best_time = time;
        }
    }
}

/// A ball's forecast at the step's start.
#[derive(Clone, Copy, Debug)]
pub(super) struct FirstForecast {
    pub(super) ball: usize,
    /// In the event machinery at the step's start (a ball that joins later is predicted and
    /// scheduled when it joins, and is not this forecast's).
    pub(super) valid: bool,
    pub(super) forecast: Option<Forecast>,
}
