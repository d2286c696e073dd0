//! The table: the machine the game plays on. This file holds the table file's data
//! types (RON, loaded with serde) and the geometry derived from it; each other idea has
//! its own file:
//! - `check.rs` and `layout_check.rs`: validation on load, with errors that name the bad
//!   field or part (`error.rs`: the error and the checks of one field);
//! - `playfield.rs`: the richer table's parts, as data;
//! - `spawn.rs`: the table's parts and the balls, spawned from the table file (the richer
//!   table's parts in `spawn_playfield.rs`);
//! - `piece.rs`: a wall piece (a chain, an exact arc, a path of lines and arcs, a capsule,
//!   a polygon, a box) and the shape it spawns as;
//! - `parts.rs`: the machine's parts (flipper stroke, plunger, kickers, materials), with
//!   `flipper_shape.rs` (the tapered bat);
//! - `hinged.rs`: the hinged parts (lane gate, spinner, motorised flippers);
//! - `ramp.rs`: the wire ramp and the collision layers;
//! - `saucer.rs`: the saucer's catch, hold and exact kick.

pub mod check;
pub mod error;
pub mod flipper_shape;
pub mod hinged;
pub mod layout_check;
pub mod parts;
pub mod piece;
pub mod playfield;
pub mod point;
pub mod ramp;
pub mod saucer;
pub mod spawn;
pub mod spawn_playfield;

use bevy::prelude::*;
use serde::Deserialize;
use std::path::Path;

use crate::table::error::TableError;
pub use crate::table::piece::{Piece, Step};
pub use crate::table::playfield::{GateDef, RolloverDef};
pub use crate::table::point::{P, v};

/// Distance (mm) within which the outline's last point must meet its first.
pub const OUTLINE_CLOSE_MM: f32 = 0.5;
/// Standard gravity, mm/s².
const STANDARD_GRAVITY: f32 = 9810.0;
/// Half the plunger lane's width about the waiting ball, mm.
const PLUNGER_LANE_HALF_WIDTH: f32 = 20.0;

/// A whole table, as written in `assets/tables/*.ron`.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct TableDef {
    pub name: String,
    pub size: P,
    pub slope_degrees: f32,
    pub ball_radius: f32,
    pub balls_per_game: u32,
    pub outline: Vec<Piece>,
    pub walls: Vec<Piece>,
    /// The plunger lane's one-way gate: a hinged flap.
    pub lane_gate: GateDef,
    /// Spinners: hinged turnstiles that score per turn.
    #[serde(default)]
    pub spinners: Vec<SpinnerDef>,
    pub plunger: PlungerDef,
    pub flippers: Vec<FlipperDef>,
    pub slingshots: Vec<SlingDef>,
    pub bumpers: Vec<BumperDef>,
    pub rollovers: Vec<RolloverDef>,
    pub targets: Vec<(P, P)>,
    pub drain: (P, P),
    pub tuning: Tuning,
    /// The richer table's parts and rules (none on a plain table).
    #[serde(default)]
    pub playfield: crate::table::playfield::Playfield,
    /// The table file's fingerprint ([`fingerprint`] of its text), set when it is parsed:
    /// a replay keeps it, and is refused on a table whose file differs.
    #[serde(skip)]
    pub fingerprint: u64,
}

pub use crate::support::fingerprint::fingerprint;

/// The table in use.
#[derive(Resource, Clone)]
pub struct Table {
    pub def: TableDef,
    pub ring: Vec<Vec2>,
}

/// Live tuning, edited by the panel.
#[derive(Resource, Clone, PartialEq)]
pub struct Tune(pub Tuning);

/// A spinner: a paddle wheel of two arms of `half_length` turning freely about `center`
/// (on a lane's wall, reaching into the lane), scoring `points_per_turn` for every whole
/// turn.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct SpinnerDef {
    pub center: P,
    pub half_length: f32,
    pub points_per_turn: u32,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct PlungerDef {
    /// Where a served ball waits.
    pub ball_at: P,
    /// Balls in the lane below this height are launched.
    pub zone_top: f32,
    /// Launch speed for a tap and for a full pull, mm/s.
    pub min_speed: f32,
    pub max_speed: f32,
    /// Seconds of holding for a full pull.
    pub full_pull_seconds: f32,
}

#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub enum Side {
    Left,
    Right,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct FlipperDef {
    pub side: Side,
    pub pivot: P,
    pub length: f32,
    pub thickness: f32,
    /// Angle at rest below the horizontal towards the table's middle (negative = down).
    pub rest_degrees: f32,
    /// How far it rises.
    pub stroke_degrees: f32,
    /// Thickness at the tip (the bat tapers from `thickness` at the pivot); default
    /// [`TIP_THICKNESS_FRACTION`] of `thickness`.
    #[serde(default, deserialize_with = "some_number")]
    pub tip_thickness: Option<f32>,
}

/// An optional number written plainly (`tip_thickness: 6.0`, not `Some(6.0)`).
fn some_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    f32::deserialize(d).map(Some)
}

/// A flipper's tip thickness as a fraction of its base's when the table gives none: a
/// real bat is about half as thick at its tip as round its pivot.
pub const TIP_THICKNESS_FRACTION: f32 = 0.5;

impl FlipperDef {
    /// The bat's thickness at its tip.
    #[must_use]
    pub fn tip(&self) -> f32 {
        self.tip_thickness
            .unwrap_or(self.thickness * TIP_THICKNESS_FRACTION)
    }
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct SlingDef {
    pub a: P,
    pub b: P,
    pub c: P,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct BumperDef {
    pub center: P,
    pub radius: f32,
}

/// Materials and kicks; the panel edits a copy of these live.
#[derive(Deserialize, serde::Serialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tuning {
    pub ball_restitution: f32,
    pub ball_friction: f32,
    pub wall_restitution: f32,
    pub wall_friction: f32,
    pub flipper_restitution: f32,
    pub flipper_friction: f32,
    pub bumper_restitution: f32,
    /// Normal speed a pop bumper adds when it fires, mm/s (real machines: 500–800).
    pub bumper_kick: f32,
    pub sling_restitution: f32,
    /// Normal speed a slingshot adds at the middle of its band, mm/s (real machines:
    /// 1,100–1,350); less towards its ends.
    pub sling_kick: f32,
    /// Rubber (flipper, sling and bumper) restitution falloff per m/s of impact speed:
    /// `e / (1 + falloff·v)` with `v` in m/s.
    pub rubber_falloff: f32,
    /// Flipper stroke from coil on to the top stop, ms (real machines: 19–24).
    pub flipper_up_ms: f32,
    /// Flipper fall from the top back to rest, ms (real machines: about 89).
    pub flipper_down_ms: f32,
    /// The ball's moment of inertia over `m·r²`: 2/5 for a solid sphere. A ball rolling
    /// without slipping accelerates down the slope at `g·sin θ / (1 + this)`, 5/7 of
    /// `g·sin θ` for a solid ball (0 for a ball that slides without turning).
    pub ball_inertia_factor: f32,
    /// Drive the flippers with a motorised hinge (the ball pushes back) instead of a
    /// kinematic stroke.
    #[serde(default)]
    pub motor_flippers: bool,
    /// Motorised flipper: the bat's mass as a multiple of the ball's (its inertia is that
    /// of a rod about its end, `m·L²/3`).
    #[serde(default = "default_flipper_mass_ratio")]
    pub flipper_mass_ratio: f32,
    /// Spinner damping, 1/s: a spinner set turning at ω turns ω/damping radians in all.
    #[serde(default = "default_spinner_damping")]
    pub spinner_damping: f32,
}

/// A bat about as heavy as the ball, as Visual Pinball's default flipper mass.
fn default_flipper_mass_ratio() -> f32 {
    1.0
}

/// A spinner hit at 2 m/s turns a dozen times, as a real one (10–16 turns).
fn default_spinner_damping() -> f32 {
    2.4
}

/// Load and validate a table.
pub fn load(path: &Path) -> Result<TableDef, TableError> {
    let text = std::fs::read_to_string(path).map_err(|e| TableError::Read(path.display().to_string(), e))?;
    parse(&text)
}

/// Parse and validate a table from RON text.
pub fn parse(text: &str) -> Result<TableDef, TableError> {
    let mut def: TableDef = ron::from_str(text).map_err(|e| TableError::Parse(e.to_string()))?;
    def.validate()?;
    def.fingerprint = fingerprint(text.as_bytes());
    Ok(def)
}

impl TableDef {
    /// The outer wall as one ring of points (first = last).
    pub fn outline_points(&self) -> Vec<Vec2> {
        let mut ring: Vec<Vec2> = Vec::new();
        for piece in &self.outline {
            for p in piece.points() {
                if ring.last().is_none_or(|q| q.distance(p) > OUTLINE_CLOSE_MM) {
                    ring.push(p);
                }
            }
        }
        if let Some(&first) = ring.first() {
            ring.push(first);
        }
        ring
    }

    /// Gravity along the playfield, mm/s²: 9,810 · sin(slope).
    pub fn gravity(&self) -> f32 {
        STANDARD_GRAVITY * self.slope_degrees.to_radians().sin()
    }

    /// The acceleration of a ball rolling freely down the playfield, mm/s²: gravity along
    /// it over `1 + I/(m·r²)`, because part of gravity's work goes into the ball's spin.
    /// The model takes it as an effective mass along the slope only: spin is not
    /// tracked through contacts (a bounce leaves the ball rolling at its new speed).
    pub fn rolling_gravity(&self, tune: &Tuning) -> f32 {
        self.gravity() / (1.0 + tune.ball_inertia_factor.max(0.0))
    }

    /// Whether `p` is in the plunger lane, where a served ball waits to be launched.
    pub fn in_plunger_lane(&self, p: Vec2) -> bool {
        let pl = &self.plunger;
        p.x > pl.ball_at.0 - PLUNGER_LANE_HALF_WIDTH && p.y < pl.zone_top
    }

    /// The middle of the table.
    pub fn center(&self) -> Vec2 {
        Vec2::new(self.size.0, self.size.1) * 0.5
    }
}

/// Whether `p` is inside the closed polygon `ring` (even–odd rule).
pub fn inside(ring: &[Vec2], p: Vec2) -> bool {
    let mut odd = false;
    for w in ring.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                odd = !odd;
            }
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");

    #[test]
    fn the_shipped_table_is_valid_and_closed() {
        let t = parse(CLASSIC).unwrap();
        let ring = t.outline_points();
        assert!(ring.len() > 64 + 4, "the arch has 64+ segments");
        assert!(inside(&ring, t.center()));
        assert!(!inside(&ring, Vec2::new(-1.0, 10.0)));
        // The arch's top: 815 + 255 = 1,070 mm, the table's height.
        let top = ring.iter().map(|p| p.y).fold(f32::MIN, f32::max);
        assert!((top - 1070.0).abs() < 1e-3, "{top}");
        // 9,810 · sin 6.5° = 1,110.5 mm/s²; rolling, 5/7 of it: 793.2 mm/s².
        assert!((t.gravity() - 1110.5).abs() < 0.5);
        assert!((t.rolling_gravity(&t.tuning) - 793.2).abs() < 0.5);
    }
}

#[cfg(test)]
mod file_tests;
#[cfg(test)]
pub(crate) mod parts_tests;
#[cfg(test)]
mod physics_tests;
#[cfg(test)]
pub mod playfield_tests;
#[cfg(test)]
mod ride_tests;
