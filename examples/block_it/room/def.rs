//! The room file (`assets/block_it/room.ron`): the numbers of the room, the ball and the
//! rules, and their checks. A bad value or an unknown field is refused with its name.

use crate::support::fingerprint::fingerprint;
use serde::Deserialize;
use std::path::Path;

/// The room and the rules' numbers, world units and seconds.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RoomDef {
    /// Shown in the window's title and kept with replays and high scores.
    pub name: String,
    /// Half the side of the square room: its walls are the lines `x = ±h` (solid) and
    /// `y = ±h` (the gates), in the room's own frame.
    pub half_size: f32,
    /// How thick the walls are drawn, outside the lines the ball meets.
    pub wall_thickness: f32,
    /// The ball's radius.
    pub ball_radius: f32,
    /// The ball's speed at the start of a game.
    pub launch_speed: f32,
    /// Its heading at the start, degrees in the room's frame (0: along the solid walls).
    pub launch_degrees: f32,
    /// A block multiplies the ball's speed by this, at the instant of impact.
    pub speed_scale_per_block: f32,
    /// The fastest the ball leaves a contact.
    pub max_speed: f32,
    /// How long a tap keeps both gates on, seconds.
    pub gate_seconds: f32,
    /// How fast the room turns.
    pub spin: Spin,
    /// The autoplayer's habits.
    pub autoplay: AutoplayDef,
    /// FNV-1a of the file's bytes, for replays (not in the file).
    #[serde(skip)]
    pub fingerprint: u64,
}

/// The room's turn rate: `start + per_block · blocks`, at most `max`, rad/s
/// counter-clockwise.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Spin {
    pub start: f32,
    pub per_block: f32,
    pub max: f32,
}

/// How the autoplayer plays.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AutoplayDef {
    /// It taps when the prediction shows the ball leaving through a gate within this many
    /// steps (1: in the coming step).
    pub lead_steps: u32,
    /// After this many blocks in a game it stops tapping, so that games end.
    pub retire_after_blocks: u32,
    /// Seconds from a game's end to the next game.
    pub restart_seconds: f32,
}

/// The fewest room widths a ball must fit in: a smaller room has no inside to play in.
const MIN_ROOM_BALLS: f32 = 4.0;
/// The most steps the autoplayer may look ahead (its prediction runs every step).
const MAX_LEAD_STEPS: u32 = 60;

/// What is wrong with a room file.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomError {
    /// It cannot be read.
    Io(String),
    /// It does not parse (an unknown field is named here).
    Parse(String),
    /// A field's value is out of its range.
    Field { field: &'static str, reason: String },
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(e) => write!(f, "room file: {e}"),
            Self::Parse(e) => write!(f, "room file does not parse: {e}"),
            Self::Field { field, reason } => write!(f, "room file: `{field}` {reason}"),
        }
    }
}

/// A field that must be finite and above `min` (or at least `min` when `inclusive`).
fn at_least(field: &'static str, value: f32, min: f32, inclusive: bool) -> Result<(), RoomError> {
    let ok = value.is_finite() && if inclusive { value >= min } else { value > min };
    if ok {
        return Ok(());
    }
    let bound = if inclusive { "at least" } else { "above" };
    Err(RoomError::Field {
        field,
        reason: format!("must be a finite number {bound} {min}, got {value}"),
    })
}

impl RoomDef {
    /// Every field in its range, or the first that is not.
    pub fn validate(&self) -> Result<(), RoomError> {
        at_least("ball_radius", self.ball_radius, 0.0, false)?;
        at_least(
            "half_size",
            self.half_size,
            MIN_ROOM_BALLS * self.ball_radius,
            false,
        )?;
        at_least("wall_thickness", self.wall_thickness, 0.0, false)?;
        at_least("launch_speed", self.launch_speed, 0.0, false)?;
        at_least("launch_degrees", self.launch_degrees, f32::MIN, true)?;
        at_least("speed_scale_per_block", self.speed_scale_per_block, 1.0, true)?;
        at_least("max_speed", self.max_speed, self.launch_speed, true)?;
        at_least("gate_seconds", self.gate_seconds, 0.0, false)?;
        at_least("spin.start", self.spin.start, f32::MIN, true)?;
        at_least("spin.per_block", self.spin.per_block, 0.0, true)?;
        at_least("spin.max", self.spin.max, self.spin.start.abs(), true)?;
        at_least(
            "autoplay.restart_seconds",
            self.autoplay.restart_seconds,
            0.0,
            true,
        )?;
        let lead = self.autoplay.lead_steps;
        if !(1..=MAX_LEAD_STEPS).contains(&lead) {
            return Err(RoomError::Field {
                field: "autoplay.lead_steps",
                reason: format!("must be in 1..={MAX_LEAD_STEPS}, got {lead}"),
            });
        }
        Ok(())
    }

    /// The room's turn rate after `blocks` blocks, rad/s.
    #[must_use]
    pub fn spin_after(&self, blocks: u64) -> f32 {
        let sign = if self.spin.start < 0.0 { -1.0 } else { 1.0 };
        sign * (self.spin.start.abs() + self.spin.per_block * blocks as f32).min(self.spin.max)
    }

    /// The ball's velocity at the start of a game, in the room's frame.
    #[must_use]
    pub fn launch_velocity(&self) -> bevy::math::Vec2 {
        bevy::math::Vec2::from_angle(self.launch_degrees.to_radians()) * self.launch_speed
    }

    /// Steps a tap keeps the gates on at `hz` (at least one).
    #[must_use]
    pub fn gate_steps(&self, hz: f64) -> u32 {
        ((f64::from(self.gate_seconds) * hz).round() as u32).max(1)
    }
}

/// Parse and check a room from its text.
pub fn parse(text: &str) -> Result<RoomDef, RoomError> {
    let mut def: RoomDef = ron::from_str(text).map_err(|e| RoomError::Parse(e.to_string()))?;
    def.validate()?;
    def.fingerprint = fingerprint(text.as_bytes());
    Ok(def)
}

/// Read, parse and check the room file at `path`.
pub fn load(path: &Path) -> Result<RoomDef, RoomError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| RoomError::Io(format!("{}: {e}", path.display())))?;
    parse(&text)
}
