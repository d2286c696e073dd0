//! The table file: its data types (RON, loaded with serde), validation with errors that
//! name the bad field, and the geometry derived from it.

use bevy::prelude::*;
use serde::Deserialize;
use std::fmt;
use std::path::Path;

/// A point in table millimetres.
pub type P = (f32, f32);

/// Distance (mm) within which the outline's last point must meet its first.
const OUTLINE_CLOSE_MM: f32 = 0.5;
/// Shortest wall segment accepted, mm (shorter ones are typos, not geometry).
const MIN_SEGMENT_MM: f32 = 0.5;
/// Most segments one arc may have.
const MAX_ARC_SEGMENTS: u32 = 1024;
/// Standard gravity, mm/s².
const STANDARD_GRAVITY: f32 = 9810.0;
/// Half the plunger lane's width about the waiting ball, mm.
const PLUNGER_LANE_HALF_WIDTH: f32 = 20.0;

/// A whole table, as written in `assets/tables/*.ron`.
#[derive(Deserialize, Clone, Debug)]
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
    pub playfield: crate::playfield::Playfield,
}

/// A run of wall segments.
#[derive(Deserialize, Clone, Debug)]
pub enum Piece {
    /// A polyline through these points.
    Line(Vec<P>),
    /// A circular arc, counter-clockwise from `from_degrees` to `to_degrees`.
    Arc {
        center: P,
        radius: f32,
        from_degrees: f32,
        to_degrees: f32,
        segments: u32,
    },
}

/// A one-way gate: a flap hinged at `pivot`, resting with its free end at `tip` against a
/// stop, that swings open by up to `open_degrees` one way only (clockwise when
/// `clockwise`), and springs back.
#[derive(Deserialize, Clone, Debug)]
pub struct GateDef {
    pub pivot: P,
    pub tip: P,
    pub open_degrees: f32,
    pub clockwise: bool,
}

/// A spinner: a paddle wheel of two arms of `half_length` turning freely about `center`
/// (on a lane's wall, reaching into the lane), scoring `points_per_turn` for every whole
/// turn.
#[derive(Deserialize, Clone, Debug)]
pub struct SpinnerDef {
    pub center: P,
    pub half_length: f32,
    pub points_per_turn: u32,
}

#[derive(Deserialize, Clone, Debug)]
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
pub enum Side {
    Left,
    Right,
}

#[derive(Deserialize, Clone, Debug)]
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
pub struct SlingDef {
    pub a: P,
    pub b: P,
    pub c: P,
}

#[derive(Deserialize, Clone, Debug)]
pub struct BumperDef {
    pub center: P,
    pub radius: f32,
}

#[derive(Deserialize, Clone, Debug)]
pub struct RolloverDef {
    pub a: P,
    pub b: P,
    pub points: u32,
}

/// Materials and kicks; the panel edits a copy of these live.
#[derive(Deserialize, serde::Serialize, Clone, Debug, PartialEq)]
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

/// What is wrong with a table file.
#[derive(Debug)]
pub enum TableError {
    Read(String, std::io::Error),
    Parse(String),
    Invalid { field: String, problem: String },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read(path, e) => write!(f, "cannot read table file {path}: {e}"),
            Self::Parse(e) => write!(f, "table file does not parse: {e}"),
            Self::Invalid { field, problem } => write!(f, "table field `{field}`: {problem}"),
        }
    }
}

impl std::error::Error for TableError {}

pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> TableError {
    TableError::Invalid {
        field: field.into(),
        problem: problem.into(),
    }
}

pub fn v(p: P) -> Vec2 {
    Vec2::new(p.0, p.1)
}

/// Load and validate a table.
pub fn load(path: &Path) -> Result<TableDef, TableError> {
    let text = std::fs::read_to_string(path).map_err(|e| TableError::Read(path.display().to_string(), e))?;
    parse(&text)
}

/// Parse and validate a table from RON text.
pub fn parse(text: &str) -> Result<TableDef, TableError> {
    let def: TableDef = ron::from_str(text).map_err(|e| TableError::Parse(e.to_string()))?;
    def.validate()?;
    Ok(def)
}

pub fn finite_point(field: &str, p: P) -> Result<(), TableError> {
    if p.0.is_finite() && p.1.is_finite() {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("({}, {}) is not a finite point", p.0, p.1),
        ))
    }
}

pub fn positive(field: &str, x: f32) -> Result<(), TableError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be positive and finite, got {x}")))
    }
}

pub fn in_range(field: &str, x: f32, lo: f32, hi: f32) -> Result<(), TableError> {
    if x.is_finite() && (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(invalid(field, format!("must be in {lo}..={hi}, got {x}")))
    }
}

pub fn segment(field: &str, (a, b): (P, P)) -> Result<(), TableError> {
    finite_point(field, a)?;
    finite_point(field, b)?;
    if v(a).distance(v(b)) < MIN_SEGMENT_MM {
        return Err(invalid(field, "end points coincide (zero-length segment)"));
    }
    Ok(())
}

impl Piece {
    pub fn validate(&self, field: &str) -> Result<(), TableError> {
        match self {
            Piece::Line(points) => {
                if points.len() < 2 {
                    return Err(invalid(field, "a line needs at least two points"));
                }
                for (k, w) in points.windows(2).enumerate() {
                    segment(&format!("{field}[{k}..{}]", k + 1), (w[0], w[1]))?;
                }
                Ok(())
            }
            Piece::Arc {
                center,
                radius,
                from_degrees,
                to_degrees,
                segments,
            } => {
                finite_point(&format!("{field}.center"), *center)?;
                positive(&format!("{field}.radius"), *radius)?;
                in_range(&format!("{field}.from_degrees"), *from_degrees, -720.0, 720.0)?;
                in_range(&format!("{field}.to_degrees"), *to_degrees, -720.0, 720.0)?;
                if !(1..=MAX_ARC_SEGMENTS).contains(segments) {
                    return Err(invalid(
                        format!("{field}.segments"),
                        format!("must be in 1..={MAX_ARC_SEGMENTS}, got {segments}"),
                    ));
                }
                if (to_degrees - from_degrees).abs() < 1e-3 {
                    return Err(invalid(field, "the arc has no length"));
                }
                Ok(())
            }
        }
    }

    /// The points of this piece in order.
    pub fn points(&self) -> Vec<Vec2> {
        match self {
            Piece::Line(points) => points.iter().map(|p| v(*p)).collect(),
            Piece::Arc {
                center,
                radius,
                from_degrees,
                to_degrees,
                segments,
            } => (0..=*segments)
                .map(|k| {
                    let t = k as f32 / *segments as f32;
                    let a = (from_degrees + (to_degrees - from_degrees) * t).to_radians();
                    v(*center) + Vec2::from_angle(a) * *radius
                })
                .collect(),
        }
    }

    /// The wall segments of this piece.
    pub fn segments(&self) -> Vec<(Vec2, Vec2)> {
        let p = self.points();
        p.windows(2).map(|w| (w[0], w[1])).collect()
    }
}

impl TableDef {
    /// Check every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), TableError> {
        positive("size.0", self.size.0)?;
        positive("size.1", self.size.1)?;
        in_range("slope_degrees", self.slope_degrees, 0.0, 45.0)?;
        positive("ball_radius", self.ball_radius)?;
        if !(1..=99).contains(&self.balls_per_game) {
            return Err(invalid("balls_per_game", "must be 1 to 99"));
        }
        if self.outline.is_empty() {
            return Err(invalid("outline", "the table needs an outer wall"));
        }
        for (k, piece) in self.outline.iter().enumerate() {
            piece.validate(&format!("outline[{k}]"))?;
        }
        let ring: Vec<Vec2> = self.outline.iter().flat_map(Piece::points).collect();
        if let (Some(first), Some(last)) = (ring.first(), ring.last())
            && first.distance(*last) > OUTLINE_CLOSE_MM
        {
            return Err(invalid(
                "outline",
                format!("must be closed: it starts at {first} but ends at {last}"),
            ));
        }
        for (k, piece) in self.walls.iter().enumerate() {
            piece.validate(&format!("walls[{k}]"))?;
        }
        let g = &self.lane_gate;
        segment("lane_gate.pivot..tip", (g.pivot, g.tip))?;
        in_range("lane_gate.open_degrees", g.open_degrees, 1.0, 170.0)?;
        for (k, sp) in self.spinners.iter().enumerate() {
            finite_point(&format!("spinners[{k}].center"), sp.center)?;
            positive(&format!("spinners[{k}].half_length"), sp.half_length)?;
        }
        let pl = &self.plunger;
        finite_point("plunger.ball_at", pl.ball_at)?;
        positive("plunger.min_speed", pl.min_speed)?;
        positive("plunger.max_speed", pl.max_speed)?;
        positive("plunger.full_pull_seconds", pl.full_pull_seconds)?;
        in_range("plunger.zone_top", pl.zone_top, pl.ball_at.1, self.size.1)?;
        if pl.max_speed < pl.min_speed {
            return Err(invalid(
                "plunger.max_speed",
                "must not be below plunger.min_speed",
            ));
        }
        if self.flippers.is_empty() {
            return Err(invalid("flippers", "a table needs at least one flipper"));
        }
        for (k, f) in self.flippers.iter().enumerate() {
            let field = format!("flippers[{k}]");
            finite_point(&format!("{field}.pivot"), f.pivot)?;
            positive(&format!("{field}.length"), f.length)?;
            in_range(&format!("{field}.thickness"), f.thickness, 0.0, f.length)?;
            positive(&format!("{field}.tip_thickness"), f.tip())?;
            in_range(&format!("{field}.tip_thickness"), f.tip(), 0.0, f.thickness)?;
            in_range(&format!("{field}.rest_degrees"), f.rest_degrees, -89.0, 89.0)?;
            in_range(&format!("{field}.stroke_degrees"), f.stroke_degrees, 1.0, 120.0)?;
        }
        for (k, s) in self.slingshots.iter().enumerate() {
            let field = format!("slingshots[{k}]");
            segment(&format!("{field}.a..b"), (s.a, s.b))?;
            segment(&format!("{field}.b..c"), (s.b, s.c))?;
            segment(&format!("{field}.a..c"), (s.a, s.c))?;
        }
        for (k, b) in self.bumpers.iter().enumerate() {
            finite_point(&format!("bumpers[{k}].center"), b.center)?;
            positive(&format!("bumpers[{k}].radius"), b.radius)?;
        }
        for (k, r) in self.rollovers.iter().enumerate() {
            segment(&format!("rollovers[{k}]"), (r.a, r.b))?;
        }
        for (k, t) in self.targets.iter().enumerate() {
            segment(&format!("targets[{k}]"), *t)?;
        }
        segment("drain", self.drain)?;
        self.playfield.validate()?;
        self.tuning.validate()
    }

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

impl Tuning {
    pub fn validate(&self) -> Result<(), TableError> {
        for (name, x, hi) in [
            ("tuning.ball_restitution", self.ball_restitution, 2.0),
            ("tuning.ball_friction", self.ball_friction, 2.0),
            ("tuning.wall_restitution", self.wall_restitution, 2.0),
            ("tuning.wall_friction", self.wall_friction, 2.0),
            ("tuning.flipper_restitution", self.flipper_restitution, 2.0),
            ("tuning.flipper_friction", self.flipper_friction, 2.0),
            ("tuning.bumper_restitution", self.bumper_restitution, 3.0),
            ("tuning.bumper_kick", self.bumper_kick, 10_000.0),
            ("tuning.sling_restitution", self.sling_restitution, 3.0),
            ("tuning.sling_kick", self.sling_kick, 10_000.0),
        ] {
            in_range(name, x, 0.0, hi)?;
        }
        in_range("tuning.rubber_falloff", self.rubber_falloff, 0.0, 10.0)?;
        in_range("tuning.flipper_up_ms", self.flipper_up_ms, 1.0, 1000.0)?;
        in_range("tuning.flipper_down_ms", self.flipper_down_ms, 1.0, 1000.0)?;
        in_range("tuning.ball_inertia_factor", self.ball_inertia_factor, 0.0, 1.0)?;
        in_range("tuning.flipper_mass_ratio", self.flipper_mass_ratio, 0.01, 100.0)?;
        in_range("tuning.spinner_damping", self.spinner_damping, 0.0, 100.0)
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

    const CLASSIC: &str = include_str!("../../assets/tables/classic.ron");

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

    #[test]
    fn bad_fields_are_named() {
        let bad = CLASSIC.replace("ball_radius: 13.5", "ball_radius: -13.5");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.contains("ball_radius") && e.contains("-13.5"), "{e}");
        let bad = CLASSIC.replace("length: 70.0", "length: 0.0");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("flippers[0].length")
        );
        let bad = CLASSIC.replace("(0.0, 815.0), (0.0, 0.0)", "(0.0, 815.0), (0.0, 5.0)");
        assert!(parse(&bad).unwrap_err().to_string().contains("must be closed"));
        let bad = CLASSIC.replace(
            "drain: ((0.0, 30.0), (476.0, 30.0))",
            "drain: ((1.0, 30.0), (1.0, 30.0))",
        );
        assert!(parse(&bad).unwrap_err().to_string().contains("`drain`"));
        assert!(matches!(parse("(name: 3)"), Err(TableError::Parse(_))));
        let bad = CLASSIC.replace("slope_degrees: 6.5", "slope_degrees: NaN");
        assert!(parse(&bad).unwrap_err().to_string().contains("slope_degrees"));
        let bad = CLASSIC.replace("open_degrees: 100.0", "open_degrees: 0.0");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("lane_gate.open_degrees")
        );
        let bad = CLASSIC.replace("half_length: 14.0", "half_length: -14.0");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("spinners[0].half_length")
        );
        let bad = CLASSIC.replace("spinner_damping: 2.4", "spinner_damping: inf");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("tuning.spinner_damping")
        );
        let bad = CLASSIC.replace("thickness: 12.0,", "thickness: 12.0, tip_thickness: 13.0,");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("flippers[0].tip_thickness")
        );
        let bad = CLASSIC.replace("flipper_up_ms: 21.0", "flipper_up_ms: 0.0");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("tuning.flipper_up_ms")
        );
        let bad = CLASSIC.replace("ball_inertia_factor: 0.4", "ball_inertia_factor: NaN");
        assert!(
            parse(&bad)
                .unwrap_err()
                .to_string()
                .contains("tuning.ball_inertia_factor")
        );
    }
}
