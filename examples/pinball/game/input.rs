//! Input with a window: keys and mouse buttons to `Controls` and `Requests`, pause and
//! single step. (The autoplayer writes the same resources; the keys leave the flippers
//! and plunger to it while it plays.)
//!
//! Left/Right Shift, Z/M, the arrow keys or the left/right mouse buttons flip; Space or
//! Down pulls the plunger; N starts a game; B adds a ball; P pauses; period steps while
//! paused. (F1 shows the debug gizmos: `view/mod.rs`; F9 writes the `--state-out` file:
//! `harness/state_out.rs`.)

use crate::game::autoplay::Autoplay;
use crate::game::rules::{Nudge, Requests};
use crate::table::parts::Controls;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::EguiContexts;

/// Keys, mouse buttons and single stepping.
pub struct InputPlugin;

impl Plugin for InputPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StepOnce>()
            .add_systems(PreUpdate, (keys, step_once).chain());
    }
}

/// A request to run exactly one fixed step while paused.
#[derive(Resource, Default)]
pub struct StepOnce(pub bool);

/// What the player presses: the keys, the mouse buttons, and egui, which keeps a click
/// on the panel for itself.
#[derive(SystemParam)]
struct Pressed<'w, 's> {
    /// The keyboard.
    keys: Res<'w, ButtonInput<KeyCode>>,
    /// The mouse buttons.
    mouse: Res<'w, ButtonInput<MouseButton>>,
    /// The panel's context, asked whether the pointer is its.
    egui: EguiContexts<'w, 's>,
}

/// What the keys set: the flippers and plunger, the requests to the rules, the virtual
/// clock (pause) and the single step.
#[derive(SystemParam)]
struct KeyTargets<'w> {
    /// Flippers and plunger (left to the autoplayer while it plays).
    controls: ResMut<'w, Controls>,
    /// New game, another ball, a nudge.
    requests: ResMut<'w, Requests>,
    /// The virtual clock, paused and resumed.
    time: ResMut<'w, Time<Virtual>>,
    /// One fixed step while paused.
    step: ResMut<'w, StepOnce>,
}

/// Keys and buttons for play; `Controls` are only written when the autoplayer is off.
fn keys(pressed: Pressed, auto: Res<Autoplay>, set: KeyTargets) {
    let Pressed {
        keys,
        mouse,
        mut egui,
    } = pressed;
    let KeyTargets {
        mut controls,
        mut requests,
        mut time,
        mut step,
    } = set;
    // A click on the panel is the panel's, not a flip.
    let on_panel = egui
        .ctx_mut()
        .is_ok_and(|ctx| ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui());
    let click = |b: MouseButton| !on_panel && mouse.pressed(b);
    if !auto.on {
        controls.left = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::KeyZ, KeyCode::ArrowLeft])
            || click(MouseButton::Left);
        controls.right = keys.any_pressed([KeyCode::ShiftRight, KeyCode::KeyM, KeyCode::ArrowRight])
            || click(MouseButton::Right);
        controls.plunger = keys.any_pressed([KeyCode::Space, KeyCode::ArrowDown]);
    }
    // Nudges: Left/Right Ctrl shove the cabinet from that side, Up from the front.
    for (key, nudge) in [
        (KeyCode::ControlLeft, Nudge::Left),
        (KeyCode::ControlRight, Nudge::Right),
        (KeyCode::ArrowUp, Nudge::Front),
    ] {
        if keys.just_pressed(key) {
            requests.nudge = Some(nudge);
        }
    }
    if keys.just_pressed(KeyCode::KeyN) {
        requests.new_game = true;
    }
    if keys.just_pressed(KeyCode::KeyB) {
        requests.add_ball = true;
    }
    if keys.just_pressed(KeyCode::KeyP) {
        time.toggle();
    }
    if keys.just_pressed(KeyCode::Period) && time.is_paused() {
        step.0 = true;
    }
}

/// While paused, one fixed step on request.
fn step_once(mut step: ResMut<StepOnce>, mut fixed: ResMut<Time<Fixed>>, virt: Res<Time<Virtual>>) {
    if step.0 && virt.is_paused() {
        let dt = fixed.timestep();
        fixed.accumulate_overstep(dt);
    }
    step.0 = false;
}
