//! The flippers, drawn from the very outline their collision segments come from
//! (`table/flipper_shape.rs`): a red rubber ring round a white tapered bat, turning with
//! the flipper's pose, and the pivot.

use super::paint::Painter;
use super::palette::*;
use crate::table::flipper_shape::BatShape;
use crate::table::parts::Flipper;
use bevy::mesh::ConvexPolygonMeshBuilder;
use bevy::prelude::*;
use bevy_circle_ccd::TransformInterpolation;

/// A mesh of a convex, counter-clockwise outline (a fan from its first point).
fn polygon(vertices: Vec<Vec2>) -> Mesh {
    ConvexPolygonMeshBuilder { vertices }.build()
}

/// Give each new flipper its bat (and interpolation, so it turns smoothly between steps).
pub fn dress_flippers(mut p: Painter, new: Query<(Entity, &BatShape, &Flipper), Added<BatShape>>) {
    for (e, bat, flipper) in &new {
        let ring = p.meshes.add(polygon(bat.outline()));
        let plastic = p.meshes.add(polygon(bat.inset(FLIPPER_RUBBER_MM).outline()));
        let (rubber, white) = (p.paint(FLIPPER_RUBBER), p.paint(FLIPPER_BAT));
        let screw = p.paint(FLIPPER_SCREW);
        p.commands
            .entity(e)
            .insert((Visibility::default(), TransformInterpolation))
            .with_children(|c| {
                c.spawn((Mesh2d(ring), MeshMaterial2d(rubber), Transform::IDENTITY));
                c.spawn((
                    Mesh2d(plastic),
                    MeshMaterial2d(white),
                    Transform::from_xyz(0.0, 0.0, DETAIL_Z),
                ));
            });
        // The screw, sized by the bat's thickness round its pivot.
        let screw_r = flipper.thickness * 0.5 * FLIPPER_SCREW_FRACTION;
        p.disc(e, screw_r, screw, Vec3::Z * 2.0 * DETAIL_Z);
    }
}

/// The fixed pivot pillar (under the bat's round end).
pub fn dress_pivot(p: &mut Painter, e: Entity, radius: f32) {
    let mesh = p.meshes.add(Circle::new(radius));
    let m = p.paint(FLIPPER_PIVOT);
    p.commands.entity(e).insert((Mesh2d(mesh), MeshMaterial2d(m)));
}
