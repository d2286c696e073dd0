//! The table's layout, checked on load after every field is: each part lies inside the
//! outline, and no two round parts (bumpers and posts) overlap each other or a wall. A
//! typo in a coordinate gives an error that names the part, rather than a post floating
//! off the table or a bumper buried in a wall.

use crate::table::error::{TableError, invalid};
use crate::table::{P, Piece, TableDef, inside, v};
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::Segment;

/// Millimetres. A part's point may lie this far outside the outline: a guide or a lane
/// wall that starts on the outer wall ends on it up to the rounding of its written
/// coordinates (the outline itself must close to [`OUTLINE_CLOSE_MM`](crate::table::OUTLINE_CLOSE_MM)).
pub const OUTSIDE_SLACK_MM: f32 = 0.5;

/// Millimetres. Two round parts, or a round part and a wall, may overlap by this much
/// before it is an error: a post set against a wall by hand touches it.
pub const OVERLAP_SLACK_MM: f32 = 0.5;

/// Check the layout of `def`; the error names the first part at fault.
pub fn check(def: &TableDef) -> Result<(), TableError> {
    let ring = def.outline_points();
    for (field, p) in points(def) {
        if !inside(&ring, p) && distance_to_chain(&ring, p) > OUTSIDE_SLACK_MM {
            return Err(invalid(field, format!("lies outside the outline, at {p}")));
        }
    }
    let circles = circles(def);
    for (i, (field_a, a, ra)) in circles.iter().enumerate() {
        for (field_b, b, rb) in &circles[i + 1..] {
            let overlap = ra + rb - a.distance(*b);
            if overlap > OVERLAP_SLACK_MM {
                return Err(invalid(
                    field_a.clone(),
                    format!("overlaps {field_b} by {overlap:.1} mm"),
                ));
            }
        }
        for (field_w, chain) in walls(def) {
            let overlap = ra - distance_to_chain(&chain, *a);
            if overlap > OVERLAP_SLACK_MM {
                return Err(invalid(
                    field_a.clone(),
                    format!("overlaps {field_w} by {overlap:.1} mm"),
                ));
            }
        }
    }
    Ok(())
}

/// Every part's defining points, each with the field that holds it.
fn points(def: &TableDef) -> Vec<(String, Vec2)> {
    let mut out: Vec<(String, Vec2)> = Vec::new();
    let mut add = |field: String, p: P| out.push((field, v(p)));
    for (k, w) in def.walls.iter().enumerate() {
        for (i, p) in w.points().into_iter().enumerate() {
            add(format!("walls[{k}] point {i}"), (p.x, p.y));
        }
    }
    add("lane_gate.pivot".into(), def.lane_gate.pivot);
    add("lane_gate.tip".into(), def.lane_gate.tip);
    add("plunger.ball_at".into(), def.plunger.ball_at);
    for (k, s) in def.spinners.iter().enumerate() {
        add(format!("spinners[{k}].center"), s.center);
    }
    for (k, f) in def.flippers.iter().enumerate() {
        add(format!("flippers[{k}].pivot"), f.pivot);
    }
    for (k, s) in def.slingshots.iter().enumerate() {
        for (name, p) in [("a", s.a), ("b", s.b), ("c", s.c)] {
            add(format!("slingshots[{k}].{name}"), p);
        }
    }
    for (k, r) in def.rollovers.iter().enumerate() {
        add(format!("rollovers[{k}].a"), r.a);
        add(format!("rollovers[{k}].b"), r.b);
    }
    for (k, (a, b)) in def.targets.iter().enumerate() {
        add(format!("targets[{k}].0"), *a);
        add(format!("targets[{k}].1"), *b);
    }
    let pf = &def.playfield;
    for (k, g) in pf.gates.iter().enumerate() {
        add(format!("playfield.gates[{k}].pivot"), g.pivot);
        add(format!("playfield.gates[{k}].tip"), g.tip);
    }
    for (k, s) in pf.standups.iter().enumerate() {
        add(format!("playfield.standups[{k}].a"), s.a);
        add(format!("playfield.standups[{k}].b"), s.b);
    }
    for (k, r) in pf.top_lanes.iter().enumerate() {
        add(format!("playfield.top_lanes[{k}].a"), r.a);
        add(format!("playfield.top_lanes[{k}].b"), r.b);
    }
    for (field, p, _) in circles(def) {
        out.push((field, p));
    }
    out
}

/// The round parts: bumpers and posts, each with its field, centre and radius.
fn circles(def: &TableDef) -> Vec<(String, Vec2, f32)> {
    let bumpers = def
        .bumpers
        .iter()
        .enumerate()
        .map(|(k, b)| (format!("bumpers[{k}]"), v(b.center), b.radius));
    let posts = def
        .playfield
        .posts
        .iter()
        .enumerate()
        .map(|(k, p)| (format!("playfield.posts[{k}]"), v(p.center), p.radius));
    bumpers.chain(posts).collect()
}

/// The solid walls a round part must keep clear of: the outline and the inner walls.
fn walls(def: &TableDef) -> Vec<(String, Vec<Vec2>)> {
    let named = |field: &'static str, pieces: &[Piece]| {
        pieces
            .iter()
            .enumerate()
            .map(move |(k, p)| (format!("{field}[{k}]"), p.points()))
            .collect::<Vec<_>>()
    };
    let mut out = named("outline", &def.outline);
    out.extend(named("walls", &def.walls));
    out
}

/// The distance from `p` to the nearest point of the chain of segments through `points`.
fn distance_to_chain(points: &[Vec2], p: Vec2) -> f32 {
    points
        .windows(2)
        .map(|w| p.distance(Segment::new(w[0], w[1]).closest_point(p)))
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use crate::table::parse;

    const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");
    const STARFALL: &str = include_str!("../../../assets/tables/starfall.ron");

    #[test]
    fn both_tables_lay_out_cleanly() {
        parse(CLASSIC).unwrap();
        parse(STARFALL).unwrap();
    }

    #[test]
    fn a_part_off_the_table_or_buried_in_another_is_named() {
        // Classic's first bumper at (160, 700), radius 22 (from the file): moved off the
        // 510 mm wide table, into the left wall (x = 0), then onto the second bumper.
        let first = "(center: (160.0, 700.0), radius: 22.0)";
        assert!(
            CLASSIC.contains(first),
            "the test's premise: the classic table's first bumper"
        );
        let off = CLASSIC.replace(first, "(center: (900.0, 700.0), radius: 22.0)");
        let e = parse(&off).unwrap_err().to_string();
        assert!(
            e.contains("bumpers[0]") && e.contains("outside the outline"),
            "{e}"
        );
        let wall = CLASSIC.replace(first, "(center: (10.0, 700.0), radius: 22.0)");
        let e = parse(&wall).unwrap_err().to_string();
        assert!(
            e.contains("bumpers[0]") && e.contains("overlaps outline") && e.contains("12.0 mm"),
            "{e}"
        );
        let onto = CLASSIC.replace(first, "(center: (300.0, 700.0), radius: 22.0)");
        let e = parse(&onto).unwrap_err().to_string();
        // 22 + 22 − 16 = 28 mm.
        assert!(
            e.contains("bumpers[0]") && e.contains("overlaps bumpers[1] by 28.0 mm"),
            "{e}"
        );
    }
}
