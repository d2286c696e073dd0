//! The bevy_egui side panel: game, live physics tuning, toggles, stats and a speed plot.
//! The table's camera draws only in the space left of the panel.

use crate::autoplay::Autoplay;
use crate::game::{Table, Tune};
use crate::input::StepOnce;
use crate::rules::{Game, Requests};
use crate::spawn::Ball;
use crate::stats::{RunStats, SPEED_HISTORY_SECONDS};
use crate::view::ViewToggles;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_circle_ccd::prelude::*;
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};
use egui_plot::{Line, Plot, PlotPoints};

/// Width of the panel, logical pixels.
const PANEL_WIDTH: f32 = 330.0;

pub struct PanelPlugin;

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .add_systems(Startup, egui_camera)
            .add_systems(EguiPrimaryContextPass, panel);
    }
}

fn egui_camera(mut commands: Commands, mut settings: ResMut<EguiGlobalSettings>) {
    // The panel gets its own camera, drawn over the table's, so the table's camera can
    // keep to the space beside the panel.
    settings.auto_create_primary_context = false;
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// The CCD time per step, smoothed for reading.
#[derive(Default)]
struct Smoothed {
    micros: f32,
}

#[allow(clippy::too_many_arguments)]
fn panel(
    mut contexts: EguiContexts,
    mut camera: Single<&mut Camera, (Without<PrimaryEguiContext>, With<Camera2d>)>,
    window: Single<&Window, With<PrimaryWindow>>,
    (game, stats, ccd): (Res<Game>, Res<RunStats>, Res<CcdStats>),
    mut table: ResMut<Table>,
    mut tune: ResMut<Tune>,
    mut settings: ResMut<CcdSettings>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virt: ResMut<Time<Virtual>>,
    (mut toggles, mut requests, mut step, mut auto): (
        ResMut<ViewToggles>,
        ResMut<Requests>,
        ResMut<StepOnce>,
        ResMut<Autoplay>,
    ),
    balls: Query<(), With<Ball>>,
    mut smooth: Local<Smoothed>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    smooth.micros = smooth.micros * 0.95 + ccd.step_micros * 0.05;
    let mut edit = tune.0.clone();
    let mut slope = table.def.slope_degrees;
    let mut max_bounces = settings.max_bounces;
    let mut hz = 1.0 / fixed.timestep().as_secs_f64();
    let mut scale = virt.relative_speed();
    let mut t = *toggles;
    let mut autoplay = auto.on;
    let width = egui::Panel::right("pinball_panel")
        .exact_size(PANEL_WIDTH)
        .show(
            &mut egui::Ui::new(
                ctx.clone(),
                "viewport".into(),
                egui::UiBuilder::new()
                    .layer_id(egui::LayerId::background())
                    .max_rect(ctx.viewport_rect()),
            ),
            |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.heading("Game");
                    egui::Grid::new("game").num_columns(2).show(ui, |ui| {
                        ui.label("Score");
                        ui.strong(format!("{}", game.score));
                        ui.end_row();
                        ui.label("Ball");
                        ui.label(format!("{} / {}", game.ball_number, table.def.balls_per_game));
                        ui.end_row();
                        ui.label("Balls in play");
                        ui.label(format!("{}", balls.iter().count()));
                        ui.end_row();
                        ui.label("High score");
                        ui.label(format!("{}", game.high_score.max(game.score)));
                        ui.end_row();
                    });
                    if !game.message.is_empty() {
                        ui.label(&game.message);
                    }
                    ui.horizontal_wrapped(|ui| {
                        if ui.button("New game (N)").clicked() {
                            requests.new_game = true;
                        }
                        if ui.button("Add ball (B)").clicked() {
                            requests.add_ball = true;
                        }
                        let label = if virt.is_paused() {
                            "Resume (P)"
                        } else {
                            "Pause (P)"
                        };
                        if ui.button(label).clicked() {
                            virt.toggle();
                        }
                        if ui
                            .add_enabled(virt.is_paused(), egui::Button::new("Step (period)"))
                            .clicked()
                        {
                            step.0 = true;
                        }
                    });
                    ui.separator();
                    ui.heading("Physics, live");
                    ui.add(egui::Slider::new(&mut slope, 0.0..=15.0).text("table slope °"));
                    ui.add(egui::Slider::new(&mut edit.ball_restitution, 0.0..=1.0).text("ball restitution"));
                    ui.add(egui::Slider::new(&mut edit.wall_restitution, 0.0..=1.2).text("wall restitution"));
                    ui.add(
                        egui::Slider::new(&mut edit.bumper_restitution, 0.0..=2.5).text("bumper restitution"),
                    );
                    ui.add(egui::Slider::new(&mut edit.bumper_kick, 0.0..=3000.0).text("bumper kick mm/s"));
                    ui.add(
                        egui::Slider::new(&mut edit.sling_restitution, 0.0..=2.0).text("sling restitution"),
                    );
                    ui.add(egui::Slider::new(&mut edit.sling_kick, 0.0..=3000.0).text("sling kick mm/s"));
                    ui.add(egui::Slider::new(&mut edit.flipper_up_ms, 10.0..=60.0).text("flipper stroke ms"));
                    ui.add(
                        egui::Slider::new(&mut edit.flipper_down_ms, 30.0..=200.0).text("flipper fall ms"),
                    );
                    ui.add(
                        egui::Slider::new(&mut edit.rubber_falloff, 0.0..=1.0).text("rubber falloff per m/s"),
                    );
                    ui.add(
                        egui::Slider::new(&mut edit.ball_inertia_factor, 0.0..=0.67)
                            .text("ball inertia I/(m r²)"),
                    );
                    ui.checkbox(
                        &mut edit.motor_flippers,
                        "motor flippers (a hinge with a motor: a heavy ball slows it)",
                    );
                    ui.add_enabled(
                        edit.motor_flippers,
                        egui::Slider::new(&mut edit.flipper_mass_ratio, 0.1..=5.0)
                            .text("flipper mass / ball"),
                    );
                    ui.add(
                        egui::Slider::new(&mut edit.spinner_damping, 0.1..=10.0).text("spinner damping 1/s"),
                    );
                    ui.add(egui::Slider::new(&mut max_bounces, 1..=64).text("max bounces / step"));
                    ui.add(egui::Slider::new(&mut hz, 60.0..=1000.0).text("fixed rate Hz"));
                    ui.add(egui::Slider::new(&mut scale, 0.05..=1.0).text("time scale"));
                    ui.separator();
                    ui.heading("Show");
                    ui.checkbox(&mut t.gizmos, "debug gizmos: last step's paths and contacts (F1)");
                    ui.checkbox(&mut t.prediction, "predicted trajectory");
                    ui.checkbox(&mut t.interpolation, "render interpolation");
                    ui.checkbox(&mut autoplay, "autoplay");
                    ui.separator();
                    ui.heading("Stats");
                    egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
                        ui.label("CCD µs / step");
                        ui.label(format!("{:.1}", smooth.micros));
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
                    let now = stats.simulated;
                    let points: PlotPoints = stats
                        .speed_history
                        .iter()
                        .map(|(t, s)| [t - now, f64::from(*s)])
                        .collect();
                    Plot::new("speed")
                        .height(110.0)
                        .include_x(-f64::from(SPEED_HISTORY_SECONDS))
                        .include_x(0.0)
                        .include_y(0.0)
                        .allow_drag(false)
                        .allow_zoom(false)
                        .allow_scroll(false)
                        .show(ui, |plot| plot.line(Line::new("ball speed mm/s", points)));
                });
            },
        )
        .response
        .rect
        .width();
    if edit != tune.0 && edit.validate().is_ok() {
        tune.0 = edit;
    }
    if slope != table.def.slope_degrees {
        table.def.slope_degrees = slope;
    }
    if max_bounces != settings.max_bounces {
        settings.max_bounces = max_bounces;
    }
    if (hz - 1.0 / fixed.timestep().as_secs_f64()).abs() > 0.5 {
        fixed.set_timestep_hz(hz.clamp(60.0, 1000.0));
    }
    if scale != virt.relative_speed() {
        virt.set_relative_speed(scale.clamp(0.05, 1.0));
    }
    if t != *toggles {
        *toggles = t;
    }
    if autoplay != auto.on {
        auto.on = autoplay;
    }
    // The table's camera gets the rest of the window.
    let scale_factor = window.scale_factor();
    let panel_px = (width * scale_factor) as u32;
    let size = UVec2::new(
        window.physical_width().saturating_sub(panel_px),
        window.physical_height(),
    );
    if size.x > 0 && size.y > 0 {
        camera.viewport = Some(Viewport {
            physical_position: UVec2::ZERO,
            physical_size: size,
            ..default()
        });
    }
    Ok(())
}
