//! [`MultiballSettings`].

use crate::tolerance::DEFAULT_MAX_BOUNCES;
use glam::Vec2;

/// Settings of [`step_balls`](crate::step_balls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiballSettings {
    /// Whether balls collide with each other (layers permitting). Default `true`.
    pub ball_ball: bool,
    /// Contacts one ball may resolve in a step before it waits at its last contact for the
    /// rest of the step. Default [`DEFAULT_MAX_BOUNCES`](DEFAULT_MAX_BOUNCES).
    pub max_bounces: u32,
    /// Events the whole step may process; `0` means
    /// `balls · DEFAULT_EVENTS_PER_BALL + MIN_EVENT_BUDGET`. Past it every ball stays where
    /// it is for the rest of the step: time is lost, nothing tunnels. Default 0.
    pub max_events: u32,
    /// Approach speed below which a contact removes the normal velocity instead of
    /// bouncing (resting contact), world units per second. Default 0.
    pub resting_speed: f32,
    /// The gravity the balls feel, units/s². The step applies it (the caller does not add
    /// it to the velocities): a ball in flight follows its parabola, every contact found on
    /// the curve and met with the velocity of its instant; a ball resting on something
    /// takes the rest of the step's gravity at once and its resting contacts hold it (see
    /// the module's `settle.rs`). Resting piles are solved from the bottom up along it.
    /// Default zero.
    pub gravity: Vec2,
}

impl Default for MultiballSettings {
    fn default() -> Self {
        Self {
            ball_ball: true,
            max_bounces: DEFAULT_MAX_BOUNCES,
            max_events: 0,
            resting_speed: 0.0,
            gravity: Vec2::ZERO,
        }
    }
}
