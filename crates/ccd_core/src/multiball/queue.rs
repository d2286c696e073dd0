//! The event queue: each ball's next event, earliest first.
//!
//! Each ball keeps its one scheduled event in its own state (`BallState::next`), with a
//! ticket that changes every time it is scheduled; the heap holds only small keys (time,
//! ball, ticket). A key whose ticket no longer matches its ball's is stale and skipped
//! when it comes up: nothing is ever searched for and removed (lazy invalidation), and
//! the heap moves 12-byte keys instead of whole events.

use crate::hit::Hit;
use crate::material::Material;
use crate::obstacle::ObstacleId;
use glam::Vec2;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What a ball's next event is.
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

/// A scheduled event's key in the heap.
#[derive(Clone, Copy, Debug)]
pub(super) struct Key {
    pub(super) time: f32,
    pub(super) ball: u32,
    pub(super) ticket: u32,
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    /// Reversed, so the max-heap pops the earliest key; ties go to the lower ball index.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.ball.cmp(&self.ball))
    }
}

/// The keys of every ball's next event, earliest on top.
#[derive(Clone, Debug, Default)]
pub(super) struct EventQueue {
    heap: BinaryHeap<Key>,
}

impl EventQueue {
    pub(super) fn clear(&mut self) {
        self.heap.clear();
    }

    pub(super) fn push(&mut self, key: Key) {
        self.heap.push(key);
    }

    pub(super) fn pop(&mut self) -> Option<Key> {
        self.heap.pop()
    }

    pub(super) fn peek(&self) -> Option<Key> {
        self.heap.peek().copied()
    }
}
