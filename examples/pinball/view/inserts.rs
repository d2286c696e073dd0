//! The richer table's parts (`table/playfield.rs`): the ramp's wires drawn above the
//! playfield, lit arrows at the major shots, the top lanes' lamps, the saucer, the
//! kickback, standups and posts; and the lamps the progression keeps lit.

use super::lights::{Glow, Lamp, set_glow};
use super::paint::Painter;
use super::palette::*;
use crate::game::progress::Progress;
use crate::table::parts::Part;
use crate::table::{Table, v};
use bevy::prelude::*;

/// Dress one of the richer table's parts (the others are dressed elsewhere).
pub fn dress(
    p: &mut Painter,
    table: &Table,
    (e, part): (Entity, Part),
    seg: Option<(Vec2, Vec2)>,
    pillar: Option<(Vec2, f32)>,
) {
    match (part, seg, pillar) {
        (Part::RampWall, Some(s), _) => {
            let m = p.paint(RAMP_WIRE);
            p.stroke(s, RAMP_WIRE_MM, m, RAMP_Z);
        }
        (Part::Shot(_) | Part::RampEntry, Some((a, b)), _) => arrow(p, e, (a, b)),
        (Part::TopLane(_), Some((a, b)), _) => super::lanes::insert(p, e, (a + b) * 0.5),
        (Part::Standup(_), Some(s), _) => {
            let m = p.paint(STANDUP);
            p.stroke(s, TARGET_MM, m.clone(), PART_Z);
            p.commands.entity(e).insert(Glow::new(m, STANDUP, TARGET_LIT));
        }
        (Part::Saucer, _, Some((at, _))) => {
            let cup = p.paint(SAUCER_CUP);
            p.stroke((at, at), SAUCER_CUP_MM, cup, LANE_Z);
            let ring = p.paint(LANE_INSERT);
            p.disc(e, SAUCER_RING_MM, ring.clone(), Vec3::new(0.0, 0.0, GLOW_Z));
            p.commands.entity(e).insert((
                Visibility::default(),
                Glow::new(ring, LANE_INSERT, LIT_ARROW),
                Lamp::at(at, LIT_ARROW),
            ));
        }
        (Part::Kickback, _, _) => {
            if let Some(kb) = &table.def.playfield.kickback {
                let m = p.paint(LANE_INSERT);
                p.stroke((v(kb.a), v(kb.b)), KICKBACK_MM, m.clone(), PART_Z);
                p.commands.entity(e).insert(Glow::new(m, LANE_INSERT, LIT_ARROW));
            }
        }
        (Part::Post, _, Some((at, radius))) => {
            let m = p.paint(RUBBER);
            p.stroke((at, at), 2.0 * radius, m, PART_Z);
        }
        _ => {}
    }
}

/// A lit arrow just behind a shot line, pointing along the shot (its left normal).
fn arrow(p: &mut Painter, e: Entity, (a, b): (Vec2, Vec2)) {
    let along = (b - a).perp().normalize_or_zero();
    let side = (b - a).normalize_or_zero();
    let base = (a + b) * 0.5 - along * ARROW_BACK_MM;
    let tip = base + along * ARROW_LENGTH_MM;
    let half = side * ARROW_HALF_WIDTH_MM;
    let mesh = p.meshes.add(Triangle2d::new(tip, base + half, base - half));
    let m = p.paint(LANE_INSERT);
    p.commands.spawn((
        Mesh2d(mesh),
        MeshMaterial2d(m.clone()),
        Transform::from_xyz(0.0, 0.0, LANE_Z),
    ));
    p.commands
        .entity(e)
        .insert((Glow::new(m, LANE_INSERT, LIT_ARROW), Lamp::at(base, LIT_ARROW)));
}

/// Arrows lit while their shot is lit (the ramp's also for the jackpot), the top lanes'
/// lamps, the saucer's ring while the lock or the extra ball is lit, the kickback while
/// lit.
pub fn progress_lights(
    progress: Res<Progress>,
    game: Res<crate::game::rules::Game>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    parts: Query<(&Part, &Glow)>,
) {
    if !progress.is_changed() || game.game_over {
        return;
    }
    let shot_lit = |k: Option<usize>| {
        k.and_then(|k| progress.shots_lit.get(k).copied())
            .unwrap_or(false)
    };
    for (part, glow) in &parts {
        let on = match *part {
            Part::Shot(k) => shot_lit(Some(k)),
            Part::RampEntry => shot_lit(progress.ramp_shot()) || progress.jackpot_lit,
            Part::Saucer => progress.lock_lit || progress.extra_ball_lit || shot_lit(progress.saucer_shot()),
            Part::TopLane(k) => progress.lanes_lit.get(k).copied().unwrap_or(false),
            Part::Kickback => progress.kickback_lit,
            _ => continue,
        };
        set_glow(&mut materials, glow, on);
    }
}
