//! The kickers: slingshots (a filled triangle, white rubbers and the kicking band that
//! flashes when it fires) and pop bumpers (a skirt, a cap and a halo that flashes).

use super::lights::{Glow, Lamp};
use super::paint::Painter;
use super::palette::*;
use crate::table::parts::Part;
use crate::table::{Table, v};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// The slingshots' triangles, under their rubbers (from the table: no part stands for
/// the inside of a slingshot).
pub fn draw_sling_fills(mut p: Painter, table: Res<Table>) {
    let fill = p.paint(SLING_FILL);
    for def in &table.def.slingshots {
        let tri = Triangle2d::new(v(def.a), v(def.b), v(def.c));
        p.commands.spawn((
            Mesh2d(p.meshes.add(tri)),
            MeshMaterial2d(fill.clone()),
            Transform::from_xyz(0.0, 0.0, SLING_FILL_Z),
        ));
    }
}

/// One material per slingshot band, so that a hit on any piece lights the whole band.
pub type BandPaint = HashMap<usize, Handle<ColorMaterial>>;

/// Dress a slingshot piece, a rubber or a bumper.
pub fn dress(
    p: &mut Painter,
    bands: &mut BandPaint,
    (e, part): (Entity, Part),
    seg: Option<(Vec2, Vec2)>,
    pillar: Option<(Vec2, f32)>,
) {
    match (part, seg, pillar) {
        (Part::SlingRubber, Some(s), _) => {
            let m = p.paint(RUBBER);
            p.stroke(s, RUBBER_MM, m, PART_Z);
        }
        (Part::Sling(k), Some(s), _) => {
            let m = bands
                .entry(k)
                .or_insert_with(|| p.materials.add(SLING_BAND))
                .clone();
            p.stroke(s, SLING_BAND_MM, m.clone(), PART_Z);
            p.commands
                .entity(e)
                .insert(Glow::new(m, SLING_BAND, SLING_BAND_LIT));
        }
        (Part::Bumper(_), _, Some((centre, radius))) => bumper(p, e, centre, radius),
        _ => {}
    }
}

/// A pop bumper: a halo (its lamp), a red skirt and a yellow cap.
fn bumper(p: &mut Painter, e: Entity, centre: Vec2, radius: f32) {
    let halo = p.paint(BUMPER_HALO);
    p.commands.entity(e).insert((
        Glow::new(halo.clone(), BUMPER_HALO, BUMPER_HALO_LIT),
        Lamp::at(centre, BUMPER_HALO_LIT),
        Visibility::default(),
    ));
    p.disc(e, radius + BUMPER_HALO_MM, halo, Vec3::Z * GLOW_Z);
    let body = p.paint(BUMPER_BODY);
    p.disc(e, radius, body, Vec3::Z * PART_Z);
    let cap = p.paint(BUMPER_CAP);
    p.disc(e, radius * BUMPER_CAP_FRACTION, cap, Vec3::Z * CAP_Z);
}
