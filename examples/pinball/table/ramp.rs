//! The wire ramp and collision layers. The playfield and the ramp are two layers: every
//! part is on the playfield's layer unless it says otherwise, the ramp's wires are on the
//! ramp's, and a ball is on one or the other. The ramp's mouth (a sensor on both layers)
//! moves a ball going in onto the ramp's layer, where it passes over the playfield's
//! parts and touches only the wires; the ramp's end (a sensor on the ramp's layer) puts it
//! back on the playfield, over open playfield, and a ball that rolls back out of the
//! mouth returns the same way. The watch that keeps the ramp's layer to the ramp (it
//! lands a ball that rolled back out beside the mouth, and counts any other repair as a
//! fault) is the game's: `game/stats.rs`, on the places this file tells.

use crate::table::parts::Part;
use crate::table::playfield::RampDef;
use crate::table::{P, Piece, Table, inside, v};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The playfield's layer bit.
pub const PLAYFIELD_LAYER: u32 = 1 << 0;
/// The ramp's layer bit.
pub const RAMP_LAYER: u32 = 1 << 1;
/// On the playfield, touching the playfield.
pub const ON_PLAYFIELD: CcdLayers = CcdLayers::new(PLAYFIELD_LAYER, PLAYFIELD_LAYER);
/// On the ramp, touching the ramp.
pub const ON_RAMP: CcdLayers = CcdLayers::new(RAMP_LAYER, RAMP_LAYER);
/// On both (the ramp's mouth, which balls on either layer must see).
pub const ON_BOTH: CcdLayers = CcdLayers::new(PLAYFIELD_LAYER | RAMP_LAYER, PLAYFIELD_LAYER | RAMP_LAYER);
/// Drawing depth of a ball on the ramp (above the ramp's wires, which are above the
/// playfield's parts and balls).
pub const RAMP_BALL_Z: f32 = 4.0;
/// Drawing depth of a ball on the playfield.
pub const PLAYFIELD_BALL_Z: f32 = 2.0;

/// Puts every new table part that has no layers of its own on the playfield's layer.
pub fn playfield_layer_by_default(
    add: On<Add, Part>,
    layered: Query<(), With<CcdLayers>>,
    mut commands: Commands,
) {
    if layered.get(add.entity).is_err() {
        commands.entity(add.entity).insert(ON_PLAYFIELD);
    }
}

/// Whether a ball touching the line `a → b` (with `normal` from the line to the ball's
/// centre) came from the right of it, so is crossing along its left normal.
#[must_use]
pub fn crossing_forward((a, b): (P, P), normal: Vec2) -> bool {
    let left = (v(b) - v(a)).perp();
    normal.dot(left) < 0.0
}

/// Whether `center` lies across the line `a → b` between its ends (not beside an end: a
/// ball that touches the mouth's end from outside the ramp stays on the playfield).
#[must_use]
pub fn between_ends((a, b): (P, P), center: Vec2) -> bool {
    let (a, b) = (v(a), v(b));
    let t = (center - a).dot(b - a) / (b - a).length_squared();
    t > 0.0 && t < 1.0
}

/// The ramp's channel as a closed polygon: the first rail, then the second backwards
/// (their ends meet the mouth and the exit lines).
#[must_use]
pub fn channel(ramp: &RampDef) -> Vec<Vec2> {
    let mut ring: Vec<Vec2> = ramp.walls.first().map(Piece::points).unwrap_or_default();
    if let Some(second) = ramp.walls.get(1) {
        ring.extend(second.points().into_iter().rev());
    }
    if let Some(&first) = ring.first() {
        ring.push(first);
    }
    ring
}

/// Switch balls between the layers at the ramp's mouth and end.
pub fn switch_layers(
    mut hits: MessageReader<CircleHit>,
    parts: Query<&Part>,
    table: Res<Table>,
    mut balls: Query<(&mut CcdLayers, &mut Transform), With<MovingCircle>>,
) {
    let Some(ramp) = &table.def.playfield.ramp else {
        return;
    };
    for hit in hits.read() {
        let onto_ramp = match parts.get(hit.other) {
            Ok(Part::RampEntry) => {
                crossing_forward(ramp.entry, hit.normal) && between_ends(ramp.entry, hit.center)
            }
            Ok(Part::RampExit) if crossing_forward(ramp.exit, hit.normal) => false,
            _ => continue,
        };
        let Ok((mut layers, mut tf)) = balls.get_mut(hit.circle) else {
            continue;
        };
        let want = if onto_ramp { ON_RAMP } else { ON_PLAYFIELD };
        if *layers != want {
            *layers = want;
            tf.translation.z = if onto_ramp { RAMP_BALL_Z } else { PLAYFIELD_BALL_Z };
        }
    }
}

/// How far the ramp's lip reaches from the mouth's line, in ball radii. A ball overlapping
/// a post beside the mouth (its centre within a radius and the post's of the post, which
/// stands at most a post's radius below the line) is within about 1.5 radii of the line;
/// the lip reaches 3, so that a ball that clears the post during a step (a few mm at
/// 1 kHz) is still on the lip when it does, and lands.
const LIP_REACH_RADII: f32 = 3.0;

/// Whether the centre `p` of a ball of `radius` is on the ramp's lip: below the mouth's
/// line, within [`LIP_REACH_RADII`] of it.
pub fn on_lip(ramp: &RampDef, p: Vec2, radius: f32) -> bool {
    let (a, b) = (v(ramp.entry.0), v(ramp.entry.1));
    let up = (b - a).perp().normalize_or_zero();
    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
    (p - a).dot(up) < 0.0 && p.distance(a + (b - a) * t) <= LIP_REACH_RADII * radius
}

/// Whether a ball of `radius` at `p` would sit inside a solid part of the playfield's layer.
pub fn overlaps_playfield(world: &CcdWorld, p: Vec2, radius: f32) -> bool {
    use bevy_circle_ccd::ccd_core::{Aabb, Circle, Obstacles, penetration};
    let circle = Circle::new(p, radius);
    let mut inside = false;
    world
        .grid()
        .query(Aabb::new(p, p).inflated(radius), |_, obstacle| {
            inside |= penetration(circle, ON_PLAYFIELD.into(), obstacle).is_some();
        });
    inside
}

/// Where a ball on the ramp's layer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RampPlace {
    /// In the channel between the wires.
    Channel,
    /// In the mouth: centre below the mouth's line by less than a radius, between its
    /// ends (it touched the mouth and may yet go in).
    Mouth,
    /// Out below the mouth: it rolled back out, and is on the playfield again.
    BelowMouth,
    /// Anywhere else (only a rules bug could put it there).
    Elsewhere,
}

/// Where the centre `p` of a ball of `radius` is, against the ramp's channel `ring`.
#[must_use]
pub fn ramp_place(ramp: &RampDef, ring: &[Vec2], p: Vec2, radius: f32) -> RampPlace {
    if inside(ring, p) {
        return RampPlace::Channel;
    }
    let (a, b) = (v(ramp.entry.0), v(ramp.entry.1));
    let up = (b - a).perp().normalize_or_zero();
    let below = -(p - a).dot(up);
    if !between_ends(ramp.entry, p) {
        RampPlace::Elsewhere
    } else if below <= radius {
        RampPlace::Mouth
    } else {
        RampPlace::BelowMouth
    }
}
