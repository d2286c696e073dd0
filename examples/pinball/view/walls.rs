//! The playfield and its outline: the floor, the lit wall strokes, the drain line and the
//! hinged gate and spinner.

use super::paint::Painter;
use super::palette::*;
use crate::table::parts::Part;
use crate::table::{Piece, Table, v};
use bevy::prelude::*;

/// The wall materials, shared by every wall stroke.
#[derive(Resource)]
pub struct WallPaint {
    core: Handle<ColorMaterial>,
    glow: Handle<ColorMaterial>,
}

impl FromWorld for WallPaint {
    fn from_world(world: &mut World) -> Self {
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        Self {
            core: materials.add(WALL_CORE),
            glow: materials.add(WALL_GLOW),
        }
    }
}

/// The floor: a rectangle below the arch and a disc for the arch (or a plain rectangle
/// under a table without one).
pub fn draw_playfield(mut p: Painter, table: Res<Table>) {
    let t = &table.def;
    let field = p.paint(PLAYFIELD);
    let (w, h) = t.size;
    let arch = t.outline.iter().find_map(|piece| match piece {
        Piece::Arc { center, radius, .. } => Some((v(*center), *radius)),
        _ => None,
    });
    let floor = |size: Vec2| Transform::from_translation((size * 0.5).extend(PLAYFIELD_Z));
    if let Some((centre, radius)) = arch {
        p.commands.spawn((
            Mesh2d(p.meshes.add(Circle::new(radius))),
            MeshMaterial2d(field.clone()),
            Transform::from_translation(centre.extend(PLAYFIELD_Z)),
        ));
        let size = Vec2::new(w, centre.y);
        p.commands.spawn((
            Mesh2d(p.meshes.add(Rectangle::from_size(size))),
            MeshMaterial2d(field),
            floor(size),
        ));
    } else {
        let top = table.ring.iter().map(|q| q.y).fold(f32::MIN, f32::max);
        let size = Vec2::new(w, top.min(h));
        p.commands.spawn((
            Mesh2d(p.meshes.add(Rectangle::from_size(size))),
            MeshMaterial2d(field),
            floor(size),
        ));
    }
}

/// Dress a wall, the drain, the gate or a spinner (`seg`: its segment, if it has one).
pub fn dress(p: &mut Painter, paint: &WallPaint, e: Entity, part: Part, seg: Option<(Vec2, Vec2)>) {
    let Some(seg) = seg else {
        return;
    };
    match part {
        Part::Wall => {
            p.stroke(seg, GLOW_MM, paint.glow.clone(), GLOW_Z);
            p.stroke(seg, STROKE_MM, paint.core.clone(), PART_Z);
        }
        Part::Drain => {
            let m = p.paint(DRAIN);
            p.stroke(seg, DRAIN_MM, m, DRAIN_Z);
        }
        Part::Gate => p.blade(e, seg, STROKE_MM, GATE),
        Part::Spinner(_) => p.blade(e, seg, SPINNER_MM, SPINNER),
        _ => {}
    }
}
