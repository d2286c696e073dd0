//! The player's input: Space, a mouse click or a touch taps (both gates on; with no game
//! on, a new game); N starts a new game; A, G and S switch the aim line, the ghost ball
//! and slow motion.

use super::ghost::Ghost;
use super::predict::AimLine;
use super::state::Requests;
use bevy::input::InputSystems;
use bevy::prelude::*;

/// The speed of time in slow motion.
pub const SLOW_MOTION: f32 = 0.2;

/// Whether the pointer is over the panel (a click there is not a tap); the panel, when
/// there is one, sets it.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PointerOnPanel(pub bool);

/// Reads the keys, the mouse and touches into the next step's requests.
pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PreUpdate, read_input.after(InputSystems));
    }
}

/// Whether time runs slowly (the panel's toggle and S).
pub fn slow_motion_on(time: &Time<Virtual>) -> bool {
    time.relative_speed() < 1.0
}

/// Switches slow motion.
pub fn set_slow_motion(time: &mut Time<Virtual>, on: bool) {
    time.set_relative_speed(if on { SLOW_MOTION } else { 1.0 });
}

fn read_input(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    mut requests: ResMut<Requests>,
    toggles: (ResMut<AimLine>, ResMut<Ghost>, ResMut<Time<Virtual>>),
    pointer_on_panel: Option<Res<PointerOnPanel>>,
) {
    let (mut aim, mut ghost, mut time) = toggles;
    let on_panel = pointer_on_panel.is_some_and(|p| p.0);
    let clicked = mouse.just_pressed(MouseButton::Left) && !on_panel;
    if keys.just_pressed(KeyCode::Space) || clicked || touches.any_just_pressed() {
        requests.tap = true;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        requests.new_game = true;
    }
    if keys.just_pressed(KeyCode::KeyA) {
        aim.on = !aim.on;
    }
    if keys.just_pressed(KeyCode::KeyG) {
        ghost.on = !ghost.on;
    }
    if keys.just_pressed(KeyCode::KeyS) {
        let on = slow_motion_on(&time);
        set_slow_motion(&mut time, !on);
    }
}
