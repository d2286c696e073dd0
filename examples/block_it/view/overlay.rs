//! The overlays, drawn with gizmos over the room: the aim line as the seed draws it (the
//! predicted path, and a ghost circle where the ball will be at each contact; where it
//! leaves the room, in red), and the naive ghost ball, faint.
//!
//! The room turns while the ball flies, so a later contact is not on the wall as it
//! stands now: each contact shows a short piece of its wall where the wall will be at
//! that instant, and the line fades with the time ahead.

use super::palette;
use crate::game::Room;
use crate::game::ghost::Ghost;
use crate::game::predict::{AIM_SECONDS, AimLine};
use bevy::prelude::*;

/// Half the length of the wall's piece drawn at a contact, in ball radii.
const WALL_TICK: f32 = 2.5;

/// Draws the aim line and the ghost ball.
pub fn draw(mut gizmos: Gizmos, aim: Res<AimLine>, ghost: Res<Ghost>, room: Res<Room>) {
    let r = room.def.ball_radius;
    let forecast = &aim.forecast;
    if aim.on && forecast.path.len() > 1 {
        gizmos.linestrip_2d(forecast.path.iter().copied(), palette::AIM);
        for c in forecast.contacts.iter().take(aim.contacts) {
            let faded = palette::AIM.with_alpha(palette::AIM.alpha() * (1.0 - c.time / AIM_SECONDS).max(0.2));
            gizmos.circle_2d(c.center, r, faded);
            let along = c.normal.perp() * r * WALL_TICK;
            gizmos.line_2d(c.point - along, c.point + along, faded);
        }
        if let (Some(_), Some(&last)) = (forecast.exit, forecast.path.last()) {
            gizmos.circle_2d(last, r, palette::AIM_EXIT);
        }
    }
    if let Some((center, _)) = ghost.state.filter(|_| ghost.on) {
        gizmos.circle_2d(center, r, palette::GHOST);
        gizmos.circle_2d(center, r * 0.5, palette::GHOST);
    }
}
