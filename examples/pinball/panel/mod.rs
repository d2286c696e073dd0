//! The bevy_egui side panel, one file per section: the game (`game.rs`), live physics
//! tuning (`tuning.rs`), what to show (`toggles.rs`), stats and a speed plot
//! (`stats.rs`). The sections are collapsible; the rarely used ones start closed, so the
//! panel fits a 720 px high window with the plot in view (and scrolls when opened up).
//! The table's camera draws only in the space left of the panel.
//!
//! With `--print-ui-rects` the panel prints where its marked widgets are, in physical
//! pixels, whenever they move: `ui-rect NAME x0 y0 x1 y1` on stdout (the input smoke test
//! clicks and drags by them).

mod game;
mod marks;
mod stats;
mod toggles;
mod tuning;

use crate::game::autoplay::Autoplay;
use crate::game::input::StepOnce;
use crate::game::rules::{Game, Requests};
use crate::game::stats::RunStats;
use crate::table::parts::Ball;
use crate::table::{Table, Tune};
use crate::view::ViewToggles;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_circle_ccd::prelude::*;
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};
use marks::Marks;

/// Width of the panel, logical pixels.
const PANEL_WIDTH: f32 = 330.0;

/// The panel; `print_ui_rects` prints the marked widgets' rectangles (`--print-ui-rects`).
pub struct PanelPlugin {
    pub print_ui_rects: bool,
}

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .insert_resource(UiRects {
                print: self.print_ui_rects,
                printed: Vec::new(),
            })
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

/// The marked widgets' rectangles as last printed, in physical pixels.
#[derive(Resource)]
struct UiRects {
    print: bool,
    printed: Vec<String>,
}

impl UiRects {
    /// Prints the marks when they differ from the last ones printed.
    fn report(&mut self, marks: &Marks, pixels_per_point: f32) {
        if !self.print {
            return;
        }
        let lines: Vec<String> = marks
            .iter()
            .map(|(name, r)| {
                let r = *r * pixels_per_point;
                format!(
                    "ui-rect {name} {:.0} {:.0} {:.0} {:.0}",
                    r.min.x, r.min.y, r.max.x, r.max.y
                )
            })
            .collect();
        if lines != self.printed {
            for line in &lines {
                println!("{line}");
            }
            self.printed = lines;
        }
    }
}

/// Where the panel draws: egui's context, the table's camera (fitted beside the panel)
/// and the window.
#[derive(SystemParam)]
struct Screen<'w, 's> {
    /// The primary egui context.
    contexts: EguiContexts<'w, 's>,
    /// The table's camera.
    camera: Single<'w, 's, &'static mut Camera, (Without<PrimaryEguiContext>, With<Camera2d>)>,
    /// The primary window.
    window: Single<'w, 's, &'static Window, With<PrimaryWindow>>,
}

/// What the panel shows and does not change: the game, the run's stats, the plugin's
/// step stats, and the balls in play.
#[derive(SystemParam)]
struct Shown<'w, 's> {
    /// The game's score and ball.
    game: Res<'w, Game>,
    /// The run's counts.
    run: Res<'w, RunStats>,
    /// The plugin's step statistics.
    ccd: Res<'w, CcdStats>,
    /// The balls in play, counted.
    balls: Query<'w, 's, (), With<Ball>>,
}

/// What the tuning sections edit: the table, its physics tuning, the plugin's settings
/// and the clocks.
#[derive(SystemParam)]
struct Tuned<'w> {
    /// The table's definition.
    table: ResMut<'w, Table>,
    /// The physics tuning.
    tune: ResMut<'w, Tune>,
    /// The plugin's settings.
    settings: ResMut<'w, CcdSettings>,
    /// The fixed step's clock.
    fixed: ResMut<'w, Time<Fixed>>,
    /// The virtual clock (speed and pause).
    virt: ResMut<'w, Time<Virtual>>,
}

/// What the panel's buttons and toggles change: the view's toggles, the requests to the
/// rules, the single step, and the autoplayer.
#[derive(SystemParam)]
struct Edited<'w> {
    /// What the view shows.
    toggles: ResMut<'w, ViewToggles>,
    /// New game, another ball.
    requests: ResMut<'w, Requests>,
    /// One fixed step while paused.
    step: ResMut<'w, StepOnce>,
    /// The autoplayer, on or off.
    auto: ResMut<'w, Autoplay>,
}

/// The panel, drawn each frame; the table's camera then gets the space beside it.
fn panel(
    screen: Screen,
    shown: Shown,
    tuned: Tuned,
    edited: Edited,
    mut smooth: Local<stats::Smoothed>,
    mut rects: ResMut<UiRects>,
) -> Result {
    let Screen {
        mut contexts,
        mut camera,
        window,
    } = screen;
    let Shown {
        game,
        run,
        ccd,
        balls,
    } = shown;
    let Tuned {
        mut table,
        mut tune,
        mut settings,
        mut fixed,
        mut virt,
    } = tuned;
    let Edited {
        mut toggles,
        mut requests,
        mut step,
        mut auto,
    } = edited;
    let ctx = contexts.ctx_mut()?;
    smooth.add(ccd.step_micros);
    let mut edits = tuning::Edits::read(&tune, &table, &settings, &fixed, &virt);
    let mut shown = *toggles;
    let mut autoplay = auto.on;
    let mut marks = Marks::default();
    let in_play = balls.iter().count();
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
                    let view = game::GameView {
                        game: &game,
                        balls_per_game: table.def.balls_per_game,
                        in_play,
                    };
                    game::section(ui, &view, (&mut requests, &mut virt, &mut step), &mut marks);
                    tuning::sections(ui, &mut edits, &mut marks);
                    toggles::section(ui, &mut shown, &mut autoplay);
                    stats::section(ui, &run, smooth.micros);
                });
            },
        )
        .response
        .rect
        .width();
    rects.report(&marks, ctx.pixels_per_point());
    edits.apply(&mut tune, &mut table, &mut settings, &mut fixed, &mut virt);
    if shown != *toggles {
        *toggles = shown;
    }
    if autoplay != auto.on {
        auto.on = autoplay;
    }
    fit_camera(&mut camera, &window, width);
    Ok(())
}

/// The table's camera gets the window left of the panel (`panel_width` logical pixels).
fn fit_camera(camera: &mut Camera, window: &Window, panel_width: f32) {
    let panel_px = (panel_width * window.scale_factor()) as u32;
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
}
