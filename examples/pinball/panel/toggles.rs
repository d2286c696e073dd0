//! The panel's "Show" section: what the view draws, and the autoplayer (closed by
//! default: rarely changed, and F1 toggles the gizmos).

use crate::view::ViewToggles;
use bevy_egui::egui;

pub fn section(ui: &mut egui::Ui, shown: &mut ViewToggles, autoplay: &mut bool) {
    egui::CollapsingHeader::new("Show")
        .default_open(false)
        .show(ui, |ui| {
            ui.checkbox(
                &mut shown.gizmos,
                "debug gizmos: last step's paths and contacts (F1)",
            );
            ui.checkbox(&mut shown.prediction, "predicted trajectory");
            ui.checkbox(&mut shown.interpolation, "render interpolation");
            ui.checkbox(autoplay, "autoplay");
        });
}
