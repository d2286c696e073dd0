//! The event queue: each ball's next event, earliest first.

use crate::hit::Hit;
use crate::obstacle::ObstacleId;
use crate::response::Material;
use glam::Vec2;
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug)]
pub(super) enum EventKind {
    Obstacle {
        id: ObstacleId,
        material: Material,
        hit: Hit,
    },
    Moving {
        index: usize,
        hit: Hit,
        surface_velocity: Vec2,
    },
    Ball {
        other: u32,
        other_version: u32,
    },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Event {
    pub(super) time: f32,
    pub(super) ball: u32,
    pub(super) version: u32,
    pub(super) kind: EventKind,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Reversed, so the max-heap pops the earliest event; ties go to the lower ball index.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.ball.cmp(&self.ball))
    }
}
