//! The panel's game section: score, ball, balls in play, and the game's buttons.

use super::marks::Marks;
use crate::game::input::StepOnce;
use crate::game::rules::{Game, Requests};
use bevy::prelude::*;
use bevy_egui::egui;

/// The mark of the "Add ball" button (`--print-ui-rects`).
pub const ADD_BALL_MARK: &str = "add_ball";

/// What the section shows.
pub struct GameView<'a> {
    pub game: &'a Game,
    pub balls_per_game: u32,
    pub in_play: usize,
}

/// What the section's buttons change.
type Buttons<'a> = (&'a mut Requests, &'a mut Time<Virtual>, &'a mut StepOnce);

/// The game: open by default.
pub fn section(ui: &mut egui::Ui, view: &GameView, buttons: Buttons, marks: &mut Marks) {
    egui::CollapsingHeader::new("Game")
        .default_open(true)
        .show(ui, |ui| {
            let game = view.game;
            egui::Grid::new("game").num_columns(2).show(ui, |ui| {
                ui.label("Score");
                ui.strong(format!("{}", game.score));
                ui.end_row();
                ui.label("Ball");
                ui.label(format!("{} / {}", game.ball_number, view.balls_per_game));
                ui.end_row();
                ui.label("Balls in play");
                ui.label(format!("{}", view.in_play));
                ui.end_row();
                ui.label("High score");
                ui.label(format!("{}", game.high_score.max(game.score)));
                ui.end_row();
            });
            if !game.message.is_empty() {
                ui.label(&game.message);
            }
            game_buttons(ui, buttons, marks);
        });
}

fn game_buttons(ui: &mut egui::Ui, (requests, virt, step): Buttons, marks: &mut Marks) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("New game (N)").clicked() {
            requests.new_game = true;
        }
        let add = ui.button("Add ball (B)");
        marks.mark(ADD_BALL_MARK, add.rect);
        if add.clicked() {
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
}
