//! The plunger rod under the ball in the shooter lane, drawn back as it is pulled.

use super::paint::Painter;
use super::palette::*;
use crate::table::Table;
use crate::table::parts::PlungerShown;
use bevy::prelude::*;

#[derive(Component)]
pub struct PlungerRod;

pub fn draw_plunger(mut p: Painter, table: Res<Table>) {
    let pl = &table.def.plunger;
    let mesh = p.meshes.add(Rectangle::new(PLUNGER_WIDTH_MM, PLUNGER_ROD_MM));
    let m = p.paint(PLUNGER);
    p.commands.spawn((
        Mesh2d(mesh),
        MeshMaterial2d(m),
        Transform::from_xyz(pl.ball_at.0, 0.0, PLUNGER_Z),
        PlungerRod,
    ));
}

pub fn plunger_rod(
    shown: Res<PlungerShown>,
    table: Res<Table>,
    mut rod: Query<&mut Transform, With<PlungerRod>>,
) {
    let floor = table.def.plunger.ball_at.1 - table.def.ball_radius;
    for mut tf in &mut rod {
        // The rod's top sits under the ball and drops as it is pulled.
        tf.translation.y = floor - PLUNGER_ROD_MM * 0.5 - PLUNGER_TRAVEL_MM * shown.0;
    }
}
