//! Event-driven stepping of many balls: walls, moving obstacles (flippers, kinematic
//! pillars) and ball–ball contacts, resolved exactly and in time order within the step.
//!
//! Every ball keeps its own clock and its next event (a wall, a moving obstacle or another
//! ball). The earliest event of the whole step is processed first; only the balls it
//! touched are re-predicted. A uniform grid of swept boxes finds candidate pairs. Nothing
//! is dropped: after an event a ball spends the rest of the step on its new velocity.
//!
//! # Where each part lives
//!
//! | Part | File |
//! |---|---|
//! | The public entry, [`step_balls`] / [`step_balls_parallel`], and the loop over events | `step.rs` |
//! | Inputs ([`Ball`], [`MovingObstacle`]), settings, the report | `ball.rs`, `settings.rs`, `report.rs` |
//! | Which balls need events at all (the rest are swept alone) | `lone.rs` |
//! | Spreading the independent work over threads ([`Parallel`]) | `parallel.rs` |
//! | The event queue (per-ball next event, a tournament tree over the balls) | `queue.rs` |
//! | Spatial order: the machinery works on the balls sorted along a Morton curve | `order.rs` |
//! | Wall and pair prediction (each ball's next event) | `next_event.rs` |
//! | When two balls, each on its own leg, first touch (the pair test) | `pair_sweep.rs` |
//! | The step's first plans: walls, then each pair of balls once | `first_predictions.rs` |
//! | The candidate pairs: a grid of swept boxes | `ball_grid.rs`, its cells in `ball_grid/cell.rs` |
//! | The step's state: per-ball clocks and legs | `sim.rs`, `state.rs` |
//! | A ball meets a wall or a moving obstacle | `obstacle_contact.rs` |
//! | Hinged bodies: impulse exchange, new motion from the impact on, limits | `hinges.rs` |
//! | Corners and squeezes: two surfaces at once | `pinch.rs` |
//! | Pair resolution: simultaneous ball–ball contacts | `pairs.rs`, with the solve in `lcp.rs` |
//! | The resting solve for slow contacts under gravity | `resting.rs` |
//! | Overlap correction, by position only | `overlap.rs` |

mod ball;
mod ball_grid;
mod first_predictions;
mod hinge_clocks;
mod hinges;
mod lcp;
mod lone;
mod next_event;
mod obstacle_contact;
mod order;
mod overlap;
mod pair_sweep;
mod pairs;
mod parallel;
mod pinch;
mod prediction;
mod queue;
mod report;
mod resting;
mod resting_contacts;
mod settings;
mod sim;
mod state;
mod step;

pub use ball::{Ball, MovingObstacle};
pub use parallel::{OneThread, Parallel, Threads};
pub use report::{Contact, ContactWith, MultiballReport};
pub use settings::MultiballSettings;
pub use state::MultiballScratch;
pub use step::{step_balls, step_balls_parallel};

#[cfg(test)]
mod tests;
