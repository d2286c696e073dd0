//! The panel's stats section: CCD time, bounces, hits, speeds, and a plot of the fastest
//! ball's speed over the last seconds (open by default).

use crate::game::stats::{RunStats, SPEED_HISTORY_SECONDS};
use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints};

/// Height of the speed plot, logical pixels.
const PLOT_HEIGHT: f32 = 110.0;
/// Weight of each new CCD time in the smoothed reading (an exponential moving average
/// over about 20 frames, steady enough to read).
const SMOOTHING_WEIGHT: f32 = 0.05;

/// The CCD time per step, smoothed for reading.
#[derive(Default)]
pub struct Smoothed {
    pub micros: f32,
}

impl Smoothed {
    /// Take in this frame's CCD time per step, µs.
    pub fn add(&mut self, micros: f32) {
        self.micros += (micros - self.micros) * SMOOTHING_WEIGHT;
    }
}

pub fn section(ui: &mut egui::Ui, stats: &RunStats, micros: f32) {
    egui::CollapsingHeader::new("Stats")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
                ui.label("CCD µs / step");
                ui.label(format!("{micros:.1}"));
                ui.end_row();
                ui.label("bounces / step");
                ui.label(format!(
                    "max {}  avg {:.3} (last second)",
                    stats.recent_max_bounces, stats.bounces_per_step_avg
                ));
                ui.end_row();
                ui.label("hits / s");
                ui.label(format!("{:.0}", stats.hits_per_second));
                ui.end_row();
                ui.label("fastest ball");
                ui.label(format!("{:.0} mm/s", stats.fastest_now));
                ui.end_row();
                ui.label("fastest ever");
                ui.label(format!("{:.0} mm/s", stats.max_speed));
                ui.end_row();
            });
            speed_plot(ui, stats);
        });
}

fn speed_plot(ui: &mut egui::Ui, stats: &RunStats) {
    let now = stats.simulated;
    let points: PlotPoints = stats
        .speed_history
        .iter()
        .map(|(t, s)| [t - now, f64::from(*s)])
        .collect();
    Plot::new("speed")
        .height(PLOT_HEIGHT)
        .include_x(-f64::from(SPEED_HISTORY_SECONDS))
        .include_x(0.0)
        .include_y(0.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| plot.line(Line::new("ball speed mm/s", points)));
}
