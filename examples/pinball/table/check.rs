//! Validation of a table file: every field checked on load, and the first bad one named
//! in the error (`flippers[0].length: must be positive and finite, got 0`), so a typo in
//! a table never becomes a panic or a NaN in the physics.

use crate::table::error::{TableError, finite_point, in_range, invalid, positive, segment};
use crate::table::{OUTLINE_CLOSE_MM, Piece, Step, TableDef, Tuning};
use bevy::prelude::*;

/// Most segments one arc may have.
const MAX_ARC_SEGMENTS: u32 = 1024;

impl Piece {
    /// Check the piece's numbers, then the shape it spawns as (a self-crossing polygon, a
    /// repeated point): the error names the field.
    pub fn validate(&self, field: &str) -> Result<(), TableError> {
        match self {
            Piece::Line(points) => {
                if points.len() < 2 {
                    return Err(invalid(field, "a line needs at least two points"));
                }
                for (k, w) in points.windows(2).enumerate() {
                    segment(&format!("{field}[{k}..{}]", k + 1), (w[0], w[1]))?;
                }
            }
            Piece::Arc {
                center,
                radius,
                from_degrees,
                to_degrees,
                segments,
                thickness,
            } => {
                finite_point(&format!("{field}.center"), *center)?;
                positive(&format!("{field}.radius"), *radius)?;
                in_range(&format!("{field}.from_degrees"), *from_degrees, -720.0, 720.0)?;
                in_range(&format!("{field}.to_degrees"), *to_degrees, -720.0, 720.0)?;
                in_range(&format!("{field}.thickness"), *thickness, 0.0, *radius)?;
                if *segments > MAX_ARC_SEGMENTS {
                    return Err(invalid(
                        format!("{field}.segments"),
                        format!("must be in 0..={MAX_ARC_SEGMENTS} (0: exact), got {segments}"),
                    ));
                }
                let span = (to_degrees - from_degrees).abs();
                if !(1e-3..=360.0).contains(&span) {
                    return Err(invalid(
                        field,
                        "the arc must turn by more than 0 and at most 360 degrees",
                    ));
                }
            }
            Piece::Path { from, steps } => {
                finite_point(&format!("{field}.from"), *from)?;
                if steps.is_empty() {
                    return Err(invalid(
                        format!("{field}.steps"),
                        "a path needs at least one step",
                    ));
                }
                for (k, step) in steps.iter().enumerate() {
                    let at = format!("{field}.steps[{k}]");
                    match step {
                        Step::To(p) => finite_point(&at, *p)?,
                        Step::Around { center, degrees } => {
                            finite_point(&format!("{at}.center"), *center)?;
                            in_range(&format!("{at}.degrees"), *degrees, -360.0, 360.0)?;
                            if degrees.abs() < 1e-3 {
                                return Err(invalid(format!("{at}.degrees"), "the arc has no length"));
                            }
                        }
                    }
                }
            }
            Piece::Capsule { a, b, radius } => {
                segment(&format!("{field}.a..b"), (*a, *b))?;
                positive(&format!("{field}.radius"), *radius)?;
            }
            Piece::Polygon(points) => {
                for (k, p) in points.iter().enumerate() {
                    finite_point(&format!("{field}[{k}]"), *p)?;
                }
            }
            Piece::Rect {
                center,
                half_size,
                degrees,
            } => {
                finite_point(&format!("{field}.center"), *center)?;
                positive(&format!("{field}.half_size.0"), half_size.0)?;
                positive(&format!("{field}.half_size.1"), half_size.1)?;
                in_range(&format!("{field}.degrees"), *degrees, -360.0, 360.0)?;
            }
        }
        self.check_shape(field)
    }

    /// The shape's own check ([`bevy_circle_ccd::CcdShape::validate`]): a polygon that
    /// crosses itself, a path whose steps repeat a point, a path arc about its own end.
    fn check_shape(&self, field: &str) -> Result<(), TableError> {
        self.shape()
            .validate()
            .map_err(|(_, e)| invalid(field, format!("the shape is not usable: {e}")))
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
        self.tuning.validate()?;
        crate::table::layout_check::check(self)
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

#[cfg(test)]
mod tests {
    use crate::table::parse;

    use super::*;

    const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");

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
