//! The richer table's parts, as data in the table file: orbits (one-way gates and shot
//! lines), the wire ramp, the saucer, the top lanes, the kickback, standup targets,
//! rubber posts, and the rules' numbers (ball save, tilt, bonus). Every field is
//! optional in the file, so a plain table (`classic.ron`) has none of them.

use crate::table::error::{TableError, finite_point, in_range, invalid, positive, segment};
use crate::table::piece::Piece;
use crate::table::point::P;
use serde::Deserialize;

/// A one-way gate: a flap hinged at `pivot`, resting with its free end at `tip` against a
/// stop, that swings open by up to `open_degrees` one way only (clockwise when
/// `clockwise`), and springs back.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct GateDef {
    pub pivot: P,
    pub tip: P,
    pub open_degrees: f32,
    pub clockwise: bool,
}

/// A top lane's rollover switch: the line `a → b`, worth `points` when a ball crosses it.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct RolloverDef {
    pub a: P,
    pub b: P,
    pub points: u32,
}

/// A line the rules count a shot on when a ball crosses it one way: along the left
/// normal of `a → b` (for a line drawn left to right, upward).
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct ShotDef {
    pub name: String,
    pub a: P,
    pub b: P,
}

/// The wire ramp, on its own collision layer: two wires (`walls`), each from the mouth
/// (`entry`) to the end (`exit`). A ball that crosses `entry` along its left
/// normal is moved onto the ramp's layer, where only the ramp's `walls` (and balls on it)
/// touch it; crossing `entry` back, or `exit` along its left normal, returns it to the
/// playfield's layer. `exit` must lie over open playfield (it feeds an inlane).
///
/// `entrance` (mm, default 0) is how far up each wire's first stretch stands on the
/// playfield's layer too: the ramp's entrance, at the playfield's height. A ball that
/// crosses `entry` moves onto the ramp's layer only after its step; one coming in beside a
/// wire would otherwise pass into it in that step (33 mm at 4 m/s and 120 Hz).
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct RampDef {
    pub entry: (P, P),
    pub walls: Vec<Piece>,
    pub exit: (P, P),
    #[serde(default)]
    pub entrance: f32,
}

/// The most a ramp's `entrance` may be, mm: a short stretch at the mouth, not the wires.
pub const MAX_RAMP_ENTRANCE_MM: f32 = 100.0;

/// A saucer: a cup that catches a ball whose centre comes within `catch_radius` of
/// `center`, holds it for `hold_seconds`, then kicks it out at `eject_speed` (mm/s) along
/// `eject_degrees` (counter-clockwise from +x).
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct SaucerDef {
    pub center: P,
    pub catch_radius: f32,
    pub hold_seconds: f32,
    pub eject_speed: f32,
    pub eject_degrees: f32,
    /// How far the kick's direction wanders from `eject_degrees`, degrees: a real coil
    /// does not kick the same way twice. Kick `k` goes off by `spread · sin(k · 137.5°)`
    /// (the golden angle: a spread that never repeats), so the first is exact and a
    /// replay gets the same kicks. Default 0.
    #[serde(default)]
    pub eject_spread_degrees: f32,
}

/// A kickback: a kicker across an outlane (`a → b`, its left normal pointing up the
/// lane), solid only while lit; it throws the ball back up at `speed` mm/s.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct KickbackDef {
    pub a: P,
    pub b: P,
    pub speed: f32,
}

/// What a standup target lights.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub enum Lights {
    /// The kickback.
    Kickback,
    /// One step towards the extra ball (the pair of standups, three times).
    ExtraBall,
}

/// A standup target: a solid face that scores and lights something (it does not drop).
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct StandupDef {
    pub a: P,
    pub b: P,
    pub lights: Lights,
}

/// A rubber post.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct PostDef {
    pub center: P,
    pub radius: f32,
}

/// The rules' numbers.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RulesDef {
    /// A ball that drains within this many seconds of leaving the plunger lane is served
    /// again (ball save).
    pub ball_save_seconds: f32,
    /// A nudge's push on every ball, mm/s.
    pub nudge_speed: f32,
    /// The tilt bob's level that warns, and the level that tilts (a nudge adds 1).
    pub tilt_warning_level: f32,
    pub tilt_level: f32,
    /// The bob settles by this much per second.
    pub tilt_settle_per_second: f32,
    /// Seconds within which a second major shot is a combo.
    pub combo_seconds: f32,
    /// Locks (saucer shots while the lock is lit) that start multiball.
    pub locks_for_multiball: u32,
    /// Highest end-of-ball bonus multiplier.
    pub max_multiplier: u32,
}

impl Default for RulesDef {
    /// No ball save, and a tilt that needs several hard nudges.
    fn default() -> Self {
        Self {
            ball_save_seconds: 0.0,
            nudge_speed: 150.0,
            tilt_warning_level: 2.0,
            tilt_level: 3.0,
            tilt_settle_per_second: 0.5,
            combo_seconds: 3.0,
            locks_for_multiball: 2,
            max_multiplier: 5,
        }
    }
}

/// The richer table's parts (all optional in the file).
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Playfield {
    /// More one-way gates (the lane gate is `TableDef::lane_gate`): the orbits' tops.
    #[serde(default)]
    pub gates: Vec<GateDef>,
    /// Shot lines (the orbits).
    #[serde(default)]
    pub shots: Vec<ShotDef>,
    #[serde(default)]
    pub ramp: Option<RampDef>,
    #[serde(default)]
    pub saucer: Option<SaucerDef>,
    /// Rollover lanes at the top whose lit lamps the flipper buttons rotate; all three
    /// lit raise the bonus multiplier.
    #[serde(default)]
    pub top_lanes: Vec<RolloverDef>,
    #[serde(default)]
    pub kickback: Option<KickbackDef>,
    #[serde(default)]
    pub standups: Vec<StandupDef>,
    #[serde(default)]
    pub posts: Vec<PostDef>,
    #[serde(default)]
    pub rules: RulesDef,
}

impl Playfield {
    /// Check every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), TableError> {
        for (k, g) in self.gates.iter().enumerate() {
            segment(&format!("gates[{k}].pivot..tip"), (g.pivot, g.tip))?;
            in_range(&format!("gates[{k}].open_degrees"), g.open_degrees, 1.0, 170.0)?;
        }
        for (k, s) in self.shots.iter().enumerate() {
            segment(&format!("shots[{k}] ({})", s.name), (s.a, s.b))?;
        }
        if let Some(r) = &self.ramp {
            segment("ramp.entry", r.entry)?;
            segment("ramp.exit", r.exit)?;
            if r.walls.len() != 2 {
                return Err(invalid(
                    "ramp.walls",
                    "a ramp has two wires: the left one from the mouth to the exit, then the right one",
                ));
            }
            for (k, piece) in r.walls.iter().enumerate() {
                piece.validate(&format!("ramp.walls[{k}]"))?;
            }
            in_range("ramp.entrance", r.entrance, 0.0, MAX_RAMP_ENTRANCE_MM)?;
        }
        if let Some(s) = &self.saucer {
            finite_point("saucer.center", s.center)?;
            positive("saucer.catch_radius", s.catch_radius)?;
            in_range("saucer.hold_seconds", s.hold_seconds, 0.0, 10.0)?;
            positive("saucer.eject_speed", s.eject_speed)?;
            in_range("saucer.eject_degrees", s.eject_degrees, -360.0, 360.0)?;
            in_range("saucer.eject_spread_degrees", s.eject_spread_degrees, 0.0, 45.0)?;
        }
        for (k, r) in self.top_lanes.iter().enumerate() {
            segment(&format!("top_lanes[{k}]"), (r.a, r.b))?;
        }
        if let Some(kb) = &self.kickback {
            segment("kickback.a..b", (kb.a, kb.b))?;
            positive("kickback.speed", kb.speed)?;
        }
        for (k, s) in self.standups.iter().enumerate() {
            segment(&format!("standups[{k}]"), (s.a, s.b))?;
        }
        for (k, p) in self.posts.iter().enumerate() {
            finite_point(&format!("posts[{k}].center"), p.center)?;
            positive(&format!("posts[{k}].radius"), p.radius)?;
        }
        self.rules.validate()
    }
}

impl RulesDef {
    fn validate(&self) -> Result<(), TableError> {
        in_range("rules.ball_save_seconds", self.ball_save_seconds, 0.0, 60.0)?;
        in_range("rules.nudge_speed", self.nudge_speed, 0.0, 2000.0)?;
        positive("rules.tilt_warning_level", self.tilt_warning_level)?;
        in_range(
            "rules.tilt_level",
            self.tilt_level,
            self.tilt_warning_level,
            100.0,
        )?;
        in_range(
            "rules.tilt_settle_per_second",
            self.tilt_settle_per_second,
            0.0,
            100.0,
        )?;
        in_range("rules.combo_seconds", self.combo_seconds, 0.0, 60.0)?;
        if !(1..=9).contains(&self.locks_for_multiball) {
            return Err(invalid("rules.locks_for_multiball", "must be 1 to 9"));
        }
        if !(1..=99).contains(&self.max_multiplier) {
            return Err(invalid("rules.max_multiplier", "must be 1 to 99"));
        }
        Ok(())
    }
}
