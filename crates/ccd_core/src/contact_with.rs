//! [`ContactWith`]: what a ball touched, a wall of the store, a moving obstacle or another
//! ball.

use crate::obstacle::ObstacleId;

/// What a ball touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactWith {
    /// A static obstacle of the [`Obstacles`](crate::Obstacles) store.
    Obstacle(ObstacleId),
    /// A moving obstacle, by index.
    Moving(usize),
    /// Another ball, by index.
    Ball(usize),
}
