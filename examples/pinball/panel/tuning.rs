//! The panel's live tuning: "Physics, live" (the table's slope, the materials and kicks;
//! open by default), "More physics" (flipper stroke, rubber falloff, the ball's inertia,
//! motor flippers, spinner; closed) and "Simulation" (bounces per step, fixed rate, time
//! scale; closed). The sliders edit a copy, applied when it changed and is valid.

use super::marks::Marks;
use crate::table::{Table, Tune, Tuning};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_egui::egui;
use std::ops::RangeInclusive;

/// The mark of the wall restitution slider's rail (`--print-ui-rects`).
pub const WALL_RESTITUTION_MARK: &str = "wall_restitution_rail";

// Slider ranges, in the units their labels name. Generous around real machines' values
// (the table file's defaults sit well inside), so each effect can be exaggerated.
const SLOPE_DEGREES: RangeInclusive<f32> = 0.0..=15.0;
const BALL_RESTITUTION: RangeInclusive<f32> = 0.0..=1.0;
const WALL_RESTITUTION: RangeInclusive<f32> = 0.0..=1.2;
const BUMPER_RESTITUTION: RangeInclusive<f32> = 0.0..=2.5;
const KICK_MM_PER_S: RangeInclusive<f32> = 0.0..=3000.0;
const SLING_RESTITUTION: RangeInclusive<f32> = 0.0..=2.0;
const FLIPPER_UP_MS: RangeInclusive<f32> = 10.0..=60.0;
const FLIPPER_DOWN_MS: RangeInclusive<f32> = 30.0..=200.0;
const RUBBER_FALLOFF_PER_M_S: RangeInclusive<f32> = 0.0..=1.0;
/// Up to a little over a thin shell's 2/3.
const BALL_INERTIA_FACTOR: RangeInclusive<f32> = 0.0..=0.67;
const FLIPPER_MASS_RATIO: RangeInclusive<f32> = 0.1..=5.0;
const SPINNER_DAMPING_PER_S: RangeInclusive<f32> = 0.1..=10.0;
const MAX_BOUNCES: RangeInclusive<u32> = 1..=64;
/// The fixed rate, Hz: as `--hz` allows.
const FIXED_HZ: RangeInclusive<f64> = 60.0..=1000.0;
const TIME_SCALE: RangeInclusive<f32> = 0.05..=1.0;
/// A fixed-rate change smaller than this, Hz, is the slider's rounding, not an edit.
const HZ_EPSILON: f64 = 0.5;

/// The copies the sliders edit.
pub struct Edits {
    tuning: Tuning,
    slope: f32,
    max_bounces: u32,
    hz: f64,
    time_scale: f32,
}

impl Edits {
    /// The values in force.
    pub fn read(
        tune: &Tune,
        table: &Table,
        settings: &CcdSettings,
        fixed: &Time<Fixed>,
        virt: &Time<Virtual>,
    ) -> Self {
        Self {
            tuning: tune.0.clone(),
            slope: table.def.slope_degrees,
            max_bounces: settings.max_bounces,
            hz: 1.0 / fixed.timestep().as_secs_f64(),
            time_scale: virt.relative_speed(),
        }
    }

    /// Puts the edited values in force (only those that changed, so change detection
    /// sees real edits only; an invalid tuning is not applied).
    pub fn apply(
        self,
        tune: &mut Tune,
        table: &mut Table,
        settings: &mut CcdSettings,
        fixed: &mut Time<Fixed>,
        virt: &mut Time<Virtual>,
    ) {
        if self.tuning != tune.0 && self.tuning.validate().is_ok() {
            tune.0 = self.tuning;
        }
        if self.slope != table.def.slope_degrees {
            table.def.slope_degrees = self.slope;
        }
        if self.max_bounces != settings.max_bounces {
            settings.max_bounces = self.max_bounces;
        }
        if (self.hz - 1.0 / fixed.timestep().as_secs_f64()).abs() > HZ_EPSILON {
            fixed.set_timestep_hz(self.hz.clamp(*FIXED_HZ.start(), *FIXED_HZ.end()));
        }
        if self.time_scale != virt.relative_speed() {
            virt.set_relative_speed(self.time_scale.clamp(*TIME_SCALE.start(), *TIME_SCALE.end()));
        }
    }
}

/// The three tuning sections.
pub fn sections(ui: &mut egui::Ui, edits: &mut Edits, marks: &mut Marks) {
    physics(ui, edits, marks);
    more_physics(ui, &mut edits.tuning);
    simulation(ui, edits);
}

fn physics(ui: &mut egui::Ui, edits: &mut Edits, marks: &mut Marks) {
    egui::CollapsingHeader::new("Physics, live")
        .default_open(true)
        .show(ui, |ui| {
            let t = &mut edits.tuning;
            ui.add(egui::Slider::new(&mut edits.slope, SLOPE_DEGREES).text("table slope °"));
            ui.add(egui::Slider::new(&mut t.ball_restitution, BALL_RESTITUTION).text("ball restitution"));
            let wall =
                ui.add(egui::Slider::new(&mut t.wall_restitution, WALL_RESTITUTION).text("wall restitution"));
            // The rail is the slider's left part, `slider_width` wide.
            let mut rail = wall.rect;
            rail.set_width(ui.spacing().slider_width);
            marks.mark(WALL_RESTITUTION_MARK, rail);
            ui.add(
                egui::Slider::new(&mut t.bumper_restitution, BUMPER_RESTITUTION).text("bumper restitution"),
            );
            ui.add(egui::Slider::new(&mut t.bumper_kick, KICK_MM_PER_S).text("bumper kick mm/s"));
            ui.add(egui::Slider::new(&mut t.sling_restitution, SLING_RESTITUTION).text("sling restitution"));
            ui.add(egui::Slider::new(&mut t.sling_kick, KICK_MM_PER_S).text("sling kick mm/s"));
        });
}

fn more_physics(ui: &mut egui::Ui, t: &mut Tuning) {
    egui::CollapsingHeader::new("More physics: flippers, rubber, ball, spinner")
        .default_open(false)
        .show(ui, |ui| {
            ui.add(egui::Slider::new(&mut t.flipper_up_ms, FLIPPER_UP_MS).text("flipper stroke ms"));
            ui.add(egui::Slider::new(&mut t.flipper_down_ms, FLIPPER_DOWN_MS).text("flipper fall ms"));
            ui.add(
                egui::Slider::new(&mut t.rubber_falloff, RUBBER_FALLOFF_PER_M_S)
                    .text("rubber falloff per m/s"),
            );
            ui.add(
                egui::Slider::new(&mut t.ball_inertia_factor, BALL_INERTIA_FACTOR)
                    .text("ball inertia I/(m r²)"),
            );
            ui.checkbox(
                &mut t.motor_flippers,
                "motor flippers (a hinge with a motor: a heavy ball slows it)",
            );
            ui.add_enabled(
                t.motor_flippers,
                egui::Slider::new(&mut t.flipper_mass_ratio, FLIPPER_MASS_RATIO).text("flipper mass / ball"),
            );
            ui.add(
                egui::Slider::new(&mut t.spinner_damping, SPINNER_DAMPING_PER_S).text("spinner damping 1/s"),
            );
        });
}

fn simulation(ui: &mut egui::Ui, edits: &mut Edits) {
    egui::CollapsingHeader::new("Simulation")
        .default_open(false)
        .show(ui, |ui| {
            ui.add(egui::Slider::new(&mut edits.max_bounces, MAX_BOUNCES).text("max bounces / step"));
            ui.add(egui::Slider::new(&mut edits.hz, FIXED_HZ).text("fixed rate Hz"));
            ui.add(egui::Slider::new(&mut edits.time_scale, TIME_SCALE).text("time scale"));
        });
}
