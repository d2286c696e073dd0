//! Event-driven stepping of many balls: walls, moving obstacles (flippers, kinematic
//! pillars) and ball–ball contacts, resolved exactly and in time order within the step.
//!
//! Every ball keeps its own clock and its next event (a wall, a moving obstacle or another
//! ball). The earliest event of the whole step is processed first; only the balls it
//! touched are re-predicted. A uniform grid of swept boxes finds candidate pairs. Nothing
//! is dropped: after an event a ball spends the rest of the step on its new velocity.

mod ball;
mod ball_grid;
mod lcp;
mod overlap;
mod pairs;
mod pinch;
mod predict;
mod queue;
mod report;
mod resting;
mod scratch;
mod settings;
mod sim;
mod step;
mod walls;

pub use ball::{Ball, MovingObstacle};
pub use report::{Contact, ContactWith, MultiballReport};
pub use scratch::MultiballScratch;
pub use settings::MultiballSettings;
pub use step::step_balls;

#[cfg(test)]
mod tests;
