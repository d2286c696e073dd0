//! [`StepContext`]: what every phase of a step reads, and nothing in the step changes.

use super::settings::MultiballSettings;
use crate::shape::Aabb;

/// What every phase of a step reads, and nothing in the step changes: its length, the
/// walls, the settings, and the moving obstacles' swept boxes.
#[derive(Clone, Copy, Debug)]
pub struct StepContext<'a, O: ?Sized> {
    pub(super) dt: f32,
    pub(super) obstacles: &'a O,
    pub(super) settings: &'a MultiballSettings,
    pub(super) moving_boxes: &'a [Aabb],
}

impl<'a, O: ?Sized> StepContext<'a, O> {
    /// A step of `dt` seconds among the walls of `obstacles`, with `settings`, and nothing
    /// that moves but the balls: what [`LoneSweeps::step`](super::LoneSweeps::step) reads.
    #[must_use]
    pub fn new(dt: f32, obstacles: &'a O, settings: &'a MultiballSettings) -> Self {
        Self {
            dt,
            obstacles,
            settings,
            moving_boxes: &[],
        }
    }
}
