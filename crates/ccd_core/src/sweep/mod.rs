//! Swept pair queries, one file per pair, each reduced to [`ray_circle_toi`](crate::ray_circle_toi).
//!
//! Every query follows one contract (see [`Hit`](crate::Hit)):
//! - `toi` is the fraction of `motion` travelled at first contact, in `[0, 1]`;
//! - `None` when there is no contact in `[0, 1]`, when `motion` is zero, when the contact
//!   is not approached (`motion · normal >= 0`: moving away or grazing), or when any input
//!   is not finite or a radius is negative;
//! - a circle that starts touching or overlapping gets `toi == 0` exactly when it moves
//!   into the obstacle, so a ball left touching a wall after a bounce is free to leave it
//!   and can never sink through it.

mod circle_circle;
mod circle_segment;
mod moving_circle;
mod moving_segment;

pub use circle_circle::sweep_circle_circle;
pub(crate) use circle_circle::sweep_circle_circle_ordered;
pub use circle_segment::sweep_circle_segment;
pub(crate) use circle_segment::sweep_circle_segment_ordered;
pub(crate) use moving_circle::moving_circles_toi;
pub use moving_circle::sweep_circle_moving_circle;
pub use moving_segment::{MovingHit, SegmentMotion, moving_segment_tolerance, sweep_circle_moving_segment};

use crate::shape::Circle;
use glam::Vec2;

/// Whether a query's inputs can be used: finite values and non-negative radii.
#[inline]
pub(crate) fn usable(circle: Circle, motion: Vec2) -> bool {
    circle.center.is_finite() && circle.radius >= 0.0 && circle.radius.is_finite() && motion.is_finite()
}
