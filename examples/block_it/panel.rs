//! The bevy_egui panel, on the window's right: the score and the best scores, the ball's
//! speed and its bounces in this step, the physics rate (30, 60 or 120 Hz), the toggles
//! (aim line, ghost ball, slow motion) and the ghost's tunnels.

use crate::game::ghost::Ghost;
use crate::game::highscores::HighScores;
use crate::game::input::{PointerOnPanel, set_slow_motion, slow_motion_on};
use crate::game::predict::AimLine;
use crate::game::tape::Tape;
use crate::game::{Game, RATES, Requests, Tally};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

/// Width of the panel, logical pixels.
const PANEL_WIDTH: f32 = 280.0;
/// The most contacts the aim line's slider offers.
const MAX_AIM_CONTACTS: usize = 30;

/// The panel.
pub struct PanelPlugin;

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .init_resource::<PointerOnPanel>()
            .add_systems(EguiPrimaryContextPass, panel);
    }
}

/// What the panel shows.
#[derive(SystemParam)]
struct Shown<'w> {
    game: Res<'w, Game>,
    tally: Res<'w, Tally>,
    scores: Res<'w, HighScores>,
    tape: Option<Res<'w, Tape>>,
}

/// What the panel changes.
#[derive(SystemParam)]
struct Edited<'w> {
    aim: ResMut<'w, AimLine>,
    ghost: ResMut<'w, Ghost>,
    fixed: ResMut<'w, Time<Fixed>>,
    virt: ResMut<'w, Time<Virtual>>,
    requests: ResMut<'w, Requests>,
    pointer: ResMut<'w, PointerOnPanel>,
}

fn panel(mut contexts: EguiContexts, shown: Shown, edited: Edited) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Shown {
        game,
        tally,
        scores,
        tape,
    } = shown;
    let Edited {
        mut aim,
        mut ghost,
        mut fixed,
        mut virt,
        mut requests,
        mut pointer,
    } = edited;
    let mut show_aim = aim.on;
    let mut aim_contacts = aim.contacts;
    let mut show_ghost = ghost.on;
    let mut slow = slow_motion_on(&virt);
    let hz_now = fixed.timestep().as_secs_f64().recip().round() as u32;
    let mut hz = hz_now;
    egui::Panel::right("block_it_panel").exact_size(PANEL_WIDTH).show(
        &mut egui::Ui::new(
            ctx.clone(),
            "viewport".into(),
            egui::UiBuilder::new()
                .layer_id(egui::LayerId::background())
                .max_rect(ctx.viewport_rect()),
        ),
        |ui| {
            ui.heading("Block it");
            ui.label(format!(
                "score {}   best {}",
                game.score,
                scores.best().max(tally.best_score)
            ));
            ui.label(format!(
                "speed {:.0} u/s (top {:.0})",
                tally.speed, tally.top_speed
            ));
            ui.label(format!(
                "bounces in this step {} (most {})",
                tally.bounces_last_step, tally.most_bounces_in_a_step
            ));
            if ui
                .button(if game.playing {
                    "New game (N)"
                } else {
                    "Play (Space, click)"
                })
                .clicked()
            {
                requests.new_game = true;
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("physics");
                ui.add_enabled_ui(tape.is_none(), |ui| {
                    for rate in RATES {
                        ui.radio_value(&mut hz, rate, format!("{rate} Hz"));
                    }
                });
            });
            ui.checkbox(&mut show_aim, "aim line (A)");
            if let Some(exit) = aim.forecast.exit.filter(|_| show_aim) {
                ui.label(format!(
                    "out through the open {:?} gate in {:.2} s",
                    exit.wall, exit.time
                ));
            }
            ui.add(egui::Slider::new(&mut aim_contacts, 1..=MAX_AIM_CONTACTS).text("contacts ahead"));
            ui.checkbox(&mut show_ghost, "ghost ball, naive steps (G)");
            ui.checkbox(&mut slow, "slow motion (S)");
            ui.label(format!("ghost tunnels {}", ghost.tunnels));
            ui.separator();
            ui.label(format!(
                "games lost {}   faults {}",
                tally.lost_through_open_gate,
                tally.faults()
            ));
            ui.label("high scores");
            for (i, e) in scores.entries.iter().enumerate() {
                ui.label(format!("{}. {} {}", i + 1, e.score, e.by));
            }
        },
    );
    pointer.0 = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
    aim.on = show_aim;
    aim.contacts = aim_contacts;
    ghost.on = show_ghost;
    if slow != slow_motion_on(&virt) {
        set_slow_motion(&mut virt, slow);
    }
    if hz != hz_now {
        fixed.set_timestep_hz(f64::from(hz));
    }
    Ok(())
}
