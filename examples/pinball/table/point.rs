//! A point of a table file: millimetres as the file writes them, and as a `Vec2`.

use bevy::prelude::*;

/// A point in table millimetres.
pub type P = (f32, f32);

/// The point `p` as a `Vec2`.
pub fn v(p: P) -> Vec2 {
    Vec2::new(p.0, p.1)
}
