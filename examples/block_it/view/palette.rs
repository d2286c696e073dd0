//! The colours of the game.

use bevy::prelude::Color;

/// The space outside the room.
pub const BACKGROUND: Color = Color::srgb(0.03, 0.04, 0.08);
/// The room's floor.
pub const FLOOR: Color = Color::srgb(0.07, 0.09, 0.16);
/// The solid walls.
pub const WALL: Color = Color::srgb(0.55, 0.6, 0.75);
/// A gate while it is on.
pub const GATE_ON: Color = Color::srgb(0.3, 1.0, 0.85);
/// A gate while it is off: where it will appear.
pub const GATE_OFF: Color = Color::srgba(0.3, 1.0, 0.85, 0.12);
/// The ball.
pub const BALL: Color = Color::srgb(1.0, 0.85, 0.3);
/// The ball's glow.
pub const GLOW: Color = Color::srgba(1.0, 0.6, 0.2, 0.25);
/// The score in the room's middle.
pub const SCORE: Color = Color::srgba(0.8, 0.85, 1.0, 0.18);
/// The aim line, its ghost circles, and where it leaves the room.
pub const AIM: Color = Color::srgba(0.5, 0.8, 1.0, 0.7);
pub const AIM_EXIT: Color = Color::srgb(1.0, 0.3, 0.35);
/// The naive ghost ball.
pub const GHOST: Color = Color::srgba(1.0, 0.4, 0.9, 0.45);
