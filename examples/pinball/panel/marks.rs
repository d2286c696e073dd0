//! The panel's marked widgets: where each named one is this frame, for tests that drive
//! the window (`--print-ui-rects`).

use bevy_egui::egui;

/// Widgets marked by the sections this frame, by name, in egui points.
#[derive(Default)]
pub(super) struct Marks(Vec<(&'static str, egui::Rect)>);

impl Marks {
    /// Remember where `name` is.
    pub(super) fn mark(&mut self, name: &'static str, rect: egui::Rect) {
        self.0.push((name, rect));
    }

    /// Every mark, in the order made.
    pub(super) fn iter(&self) -> impl Iterator<Item = &(&'static str, egui::Rect)> {
        self.0.iter()
    }
}
