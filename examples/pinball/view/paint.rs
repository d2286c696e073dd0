//! The view's brush: meshes and materials for strokes, discs and bars, with the commands
//! that spawn them.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// Commands with the mesh and material stores, to spawn drawn shapes.
#[derive(SystemParam)]
pub struct Painter<'w, 's> {
    pub commands: Commands<'w, 's>,
    pub meshes: ResMut<'w, Assets<Mesh>>,
    pub materials: ResMut<'w, Assets<ColorMaterial>>,
}

impl Painter<'_, '_> {
    /// A new material of one colour.
    pub fn paint(&mut self, colour: Color) -> Handle<ColorMaterial> {
        self.materials.add(colour)
    }

    /// A line from `a` to `b`, `width` thick with square ends reaching `width / 2` past
    /// them, at depth `z` (in the world).
    pub fn stroke(
        &mut self,
        (a, b): (Vec2, Vec2),
        width: f32,
        material: Handle<ColorMaterial>,
        z: f32,
    ) -> Entity {
        let d = b - a;
        let mesh = self.meshes.add(Rectangle::new(d.length() + width, width));
        self.commands
            .spawn((
                Mesh2d(mesh),
                MeshMaterial2d(material),
                Transform::from_translation(((a + b) * 0.5).extend(z))
                    .with_rotation(Quat::from_rotation_z(d.to_angle())),
            ))
            .id()
    }

    /// A bar from `a` to `b` in entity `e`'s own frame, so it turns with it (a hinged part).
    pub fn blade(&mut self, e: Entity, (a, b): (Vec2, Vec2), width: f32, colour: Color) {
        let along = b - a;
        let bar = (
            Mesh2d(self.meshes.add(Rectangle::new(along.length(), width))),
            MeshMaterial2d(self.materials.add(colour)),
            Transform::from_translation(((a + b) * 0.5).extend(0.0))
                .with_rotation(Quat::from_rotation_z(along.to_angle())),
        );
        self.commands
            .entity(e)
            .insert(Visibility::default())
            .with_children(|c| {
                c.spawn(bar);
            });
    }

    /// A disc of `radius`, a child of `parent` at `at` (its local depth in z).
    pub fn disc(&mut self, parent: Entity, radius: f32, material: Handle<ColorMaterial>, at: Vec3) {
        let disc = (
            Mesh2d(self.meshes.add(Circle::new(radius))),
            MeshMaterial2d(material),
            Transform::from_translation(at),
        );
        self.commands.entity(parent).with_children(|c| {
            c.spawn(disc);
        });
    }
}
