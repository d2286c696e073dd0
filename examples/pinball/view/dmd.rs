//! A dot-matrix display like a real machine's: [`DOTS_X`]×[`DOTS_Y`] amber dots in one
//! mesh whose vertex colours show a [`DmdFrame`], beside the table.

use super::font::{ADVANCE, GLYPH_H, GLYPH_W, glyph, lit};
use super::palette::*;
use crate::table::Table;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use std::f32::consts::TAU;

/// The display's size in dots.
pub const DOTS_X: i32 = 128;
pub const DOTS_Y: i32 = 32;
/// Rim points of a dot (drawn as a small polygon round its centre).
const DOT_SIDES: u32 = 8;

/// How bright a dot is.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub enum Dot {
    #[default]
    Off,
    Half,
    On,
}

/// What the display shows: a dot per column and row, rows from the top.
#[derive(Resource, Clone, PartialEq, Debug)]
pub struct DmdFrame(Vec<Dot>);

impl Default for DmdFrame {
    fn default() -> Self {
        Self(vec![Dot::Off; (DOTS_X * DOTS_Y) as usize])
    }
}

impl DmdFrame {
    /// Light the dot at column `x`, row `y` (off the display: nothing).
    pub fn set(&mut self, x: i32, y: i32, dot: Dot) {
        if (0..DOTS_X).contains(&x) && (0..DOTS_Y).contains(&y) {
            self.0[(y * DOTS_X + x) as usize] = dot;
        }
    }

    #[cfg(test)]
    #[must_use]
    pub fn get(&self, x: i32, y: i32) -> Dot {
        self.0.get((y * DOTS_X + x) as usize).copied().unwrap_or_default()
    }

    /// Write `text` with its top-left dot at (`x`, `y`), each font dot `scale` dots square.
    pub fn text(&mut self, text: &str, (x, y): (i32, i32), scale: i32, dot: Dot) {
        for (k, c) in text.chars().enumerate() {
            let rows = glyph(c);
            let left = x + k as i32 * ADVANCE * scale;
            for (gx, gy) in (0..GLYPH_W).flat_map(|gx| (0..GLYPH_H).map(move |gy| (gx, gy))) {
                if !lit(&rows, gx, gy) {
                    continue;
                }
                for (sx, sy) in (0..scale).flat_map(|sx| (0..scale).map(move |sy| (sx, sy))) {
                    self.set(left + gx * scale + sx, y + gy * scale + sy, dot);
                }
            }
        }
    }

    /// Write `text` centred across the display.
    pub fn centred(&mut self, text: &str, y: i32, scale: i32, dot: Dot) {
        let x = (DOTS_X - text_width(text, scale)) / 2;
        self.text(text, (x, y), scale, dot);
    }
}

/// Width of `text` in dots.
#[must_use]
pub fn text_width(text: &str, scale: i32) -> i32 {
    (text.chars().count() as i32 * ADVANCE - 1).max(0) * scale
}

/// Where the display's dots lie in the table's frame: left of the table, level with its
/// top.
#[must_use]
pub fn dmd_rect(table: &Table) -> Rect {
    let size = Vec2::new(DOTS_X as f32, DOTS_Y as f32) * DMD_PITCH_MM;
    let top_right = Vec2::new(-DMD_GAP_MM - DMD_BEZEL_MM, table.def.size.1 - DMD_BEZEL_MM);
    Rect::from_corners(top_right - size, top_right)
}

/// The mesh of the display's dots (their colours come later, from the frame).
fn dot_mesh(rect: Rect) -> Mesh {
    let r = DMD_PITCH_MM * DMD_DOT_FRACTION * 0.5;
    let rim: Vec<Vec2> = (0..DOT_SIDES)
        .map(|k| Vec2::from_angle(TAU * k as f32 / DOT_SIDES as f32) * r)
        .collect();
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for y in 0..DOTS_Y {
        for x in 0..DOTS_X {
            let centre = Vec2::new(rect.min.x, rect.max.y)
                + Vec2::new(x as f32 + 0.5, -(y as f32 + 0.5)) * DMD_PITCH_MM;
            let first = positions.len() as u32;
            positions.push(centre.extend(0.0).to_array());
            positions.extend(rim.iter().map(|p| (centre + *p).extend(0.0).to_array()));
            for k in 0..DOT_SIDES {
                let next = (k + 1) % DOT_SIDES;
                indices.extend([first, first + 1 + k, first + 1 + next]);
            }
        }
    }
    let colours = vec![DMD_OFF.to_linear().to_f32_array(); positions.len()];
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
        .with_inserted_indices(Indices::U32(indices))
}

/// The display's dots.
#[derive(Component)]
pub struct DmdDots(Handle<Mesh>);

pub fn spawn_dmd(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let rect = dmd_rect(&table);
    let bezel = rect.inflate(DMD_BEZEL_MM);
    commands.spawn((
        Mesh2d(meshes.add(Rectangle::from_size(bezel.size()))),
        MeshMaterial2d(materials.add(DMD_BEZEL)),
        Transform::from_translation(bezel.center().extend(DMD_Z - 1.0)),
    ));
    let dots = meshes.add(dot_mesh(rect));
    commands.spawn((
        Mesh2d(dots.clone()),
        MeshMaterial2d(materials.add(Color::WHITE)),
        Transform::from_xyz(0.0, 0.0, DMD_Z),
        DmdDots(dots),
    ));
}

/// Colour the dots as the frame says, when it changes.
pub fn show_frame(frame: Res<DmdFrame>, dots: Query<&DmdDots>, mut meshes: ResMut<Assets<Mesh>>) {
    if !frame.is_changed() {
        return;
    }
    let per_dot = (DOT_SIDES + 1) as usize;
    let colour = |d: Dot| {
        match d {
            Dot::Off => DMD_OFF,
            Dot::Half => DMD_HALF,
            Dot::On => DMD_ON,
        }
        .to_linear()
        .to_f32_array()
    };
    let colours: Vec<[f32; 4]> = frame
        .0
        .iter()
        .flat_map(|d| std::iter::repeat_n(colour(*d), per_dot))
        .collect();
    for DmdDots(handle) in &dots {
        if let Some(mut mesh) = meshes.get_mut(handle) {
            mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours.clone());
        }
    }
}
