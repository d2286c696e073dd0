//! Rollover lanes (an insert that stays lit once rolled over) and drop targets (bright
//! while up, dark once down).

use super::lights::{Glow, Lamp};
use super::paint::Painter;
use super::palette::*;
use crate::table::parts::Part;
use bevy::prelude::*;

/// Dress a rollover lane or a drop target.
pub fn dress(p: &mut Painter, e: Entity, part: Part, seg: Option<(Vec2, Vec2)>) {
    let Some((a, b)) = seg else {
        return;
    };
    let mid = (a + b) * 0.5;
    match part {
        Part::Rollover(_) => insert(p, e, mid),
        Part::Target(_) => {
            let m = p.paint(TARGET_UP);
            let gap = (b - a).normalize_or_zero() * TARGET_GAP_MM;
            p.stroke((a + gap, b - gap), TARGET_MM, m.clone(), PART_Z);
            p.commands
                .entity(e)
                .insert((Glow::new(m, TARGET_UP, TARGET_DOWN), Lamp::at(mid, TARGET_LIT)));
        }
        _ => {}
    }
}

/// A lane's lamp: an insert across the lane at `mid`, lit as the game says (rollover
/// lanes and the top lanes).
pub fn insert(p: &mut Painter, e: Entity, mid: Vec2) {
    let m = p.paint(LANE_INSERT);
    let half = Vec2::X * LANE_INSERT_HALF_MM;
    p.stroke((mid - half, mid + half), LANE_INSERT_MM, m.clone(), LANE_Z);
    p.commands
        .entity(e)
        .insert((Glow::new(m, LANE_INSERT, LIT_INSERT), Lamp::at(mid, LIT_INSERT)));
}
