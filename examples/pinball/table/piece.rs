//! A wall piece of a table file: a chain of lines, an exact arc, a path of lines and arcs,
//! a capsule, a polygon or a box. Each spawns as one [`CcdShape`]: a chain is one surface
//! (no seams at its joints), an arc is exact (no polygon), a path is a chain and its arcs
//! as one body.

use crate::table::point::{P, v};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use serde::Deserialize;

/// Degrees of turn per point when an exact arc is sampled into points (for drawing the
/// floor's outline and the layout checks; the physics uses the arc itself).
pub const ARC_SAMPLE_DEGREES: f32 = 2.5;

/// One wall piece.
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub enum Piece {
    /// A chain through these points: one surface, no seams at its joints.
    Line(Vec<P>),
    /// A circular arc, counter-clockwise from `from_degrees` to `to_degrees` (or clockwise
    /// when `to_degrees` is the smaller). Exact when `segments` is 0 (the default); a
    /// chain of that many segments otherwise. `thickness` (default 0) makes it a band.
    Arc {
        center: P,
        radius: f32,
        from_degrees: f32,
        to_degrees: f32,
        #[serde(default)]
        segments: u32,
        #[serde(default)]
        thickness: f32,
    },
    /// A path from `from` through `steps`: straight runs and exact arcs joined end to end,
    /// one body (an orbit's wall, a ramp's wire).
    Path { from: P, steps: Vec<Step> },
    /// A segment grown by `radius` (a post, a rounded guide).
    Capsule { a: P, b: P, radius: f32 },
    /// A solid polygon with these corners.
    Polygon(Vec<P>),
    /// A solid box of half-size `half_size` about `center`, turned by `degrees`.
    Rect {
        center: P,
        half_size: P,
        #[serde(default)]
        degrees: f32,
    },
}

/// One step of a [`Piece::Path`].
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// A straight run to this point.
    To(P),
    /// An exact arc about `center`, turning the path's end by `degrees` (counter-clockwise
    /// when positive).
    Around { center: P, degrees: f32 },
}

/// The points of an arc of `radius` about `center` from `from` to `to` degrees: `segments`
/// pieces, or one per [`ARC_SAMPLE_DEGREES`] when 0.
fn arc_points(center: Vec2, radius: f32, from: f32, to: f32, segments: u32) -> Vec<Vec2> {
    let n = if segments > 0 {
        segments
    } else {
        ((to - from).abs() / ARC_SAMPLE_DEGREES).ceil().max(1.0) as u32
    };
    (0..=n)
        .map(|k| {
            let a = (from + (to - from) * (k as f32 / n as f32)).to_radians();
            center + Vec2::from_angle(a) * radius
        })
        .collect()
}

/// The exact arc of `radius` about `center` between `from` and `to` degrees (either way
/// round), grown by `thickness`.
fn exact_arc(center: Vec2, radius: f32, from: f32, to: f32, thickness: f32) -> CcdShape {
    let (start, end) = if to >= from { (from, to) } else { (to, from) };
    CcdShape::band(center, radius, start.to_radians(), end.to_radians(), thickness)
}

/// A path's runs: each straight run as its points, each arc as (centre, radius, from and
/// to degrees), in order.
enum Run {
    Straight(Vec<Vec2>),
    Around(Vec2, f32, f32, f32),
}

/// The runs of a path from `from` through `steps`.
fn runs(from: P, steps: &[Step]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut at = v(from);
    let mut straight = vec![at];
    for step in steps {
        match step {
            Step::To(p) => {
                at = v(*p);
                straight.push(at);
            }
            Step::Around { center, degrees } => {
                if straight.len() > 1 {
                    out.push(Run::Straight(std::mem::take(&mut straight)));
                }
                let c = v(*center);
                let from_deg = (at - c).to_angle().to_degrees();
                let radius = at.distance(c);
                out.push(Run::Around(c, radius, from_deg, from_deg + degrees));
                at = c + Vec2::from_angle((from_deg + degrees).to_radians()) * radius;
                straight = vec![at];
            }
        }
    }
    if straight.len() > 1 {
        out.push(Run::Straight(straight));
    }
    out
}

/// The corners of a box.
fn rect_corners(center: P, half_size: P, degrees: f32) -> Vec<Vec2> {
    let turn = Vec2::from_angle(degrees.to_radians());
    let (c, h) = (v(center), v(half_size));
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, y)| c + turn.rotate(Vec2::new(x * h.x, y * h.y)))
        .to_vec()
}

impl Piece {
    /// The points of this piece in order (an exact arc sampled, a closed shape's first
    /// point repeated at the end, a capsule's core): for drawing outlines and for the
    /// layout checks.
    pub fn points(&self) -> Vec<Vec2> {
        match self {
            Piece::Line(points) => points.iter().map(|p| v(*p)).collect(),
            Piece::Arc {
                center,
                radius,
                from_degrees,
                to_degrees,
                segments,
                ..
            } => arc_points(v(*center), *radius, *from_degrees, *to_degrees, *segments),
            Piece::Path { from, steps } => {
                let mut points: Vec<Vec2> = Vec::new();
                for run in runs(*from, steps) {
                    let run_points = match run {
                        Run::Straight(p) => p,
                        Run::Around(c, r, a, b) => arc_points(c, r, a, b, 0),
                    };
                    let skip = usize::from(points.last().is_some());
                    points.extend(run_points.into_iter().skip(skip));
                }
                points
            }
            Piece::Capsule { a, b, .. } => vec![v(*a), v(*b)],
            Piece::Polygon(points) => {
                let mut ring: Vec<Vec2> = points.iter().map(|p| v(*p)).collect();
                ring.extend(ring.first().copied());
                ring
            }
            Piece::Rect {
                center,
                half_size,
                degrees,
            } => {
                let mut ring = rect_corners(*center, *half_size, *degrees);
                ring.extend(ring.first().copied());
                ring
            }
        }
    }

    /// The shape this piece spawns as, in table coordinates.
    pub fn shape(&self) -> CcdShape {
        match self {
            Piece::Line(points) => CcdShape::polyline(points.iter().map(|p| v(*p)).collect::<Vec<_>>()),
            Piece::Arc {
                center,
                radius,
                from_degrees,
                to_degrees,
                segments,
                thickness,
            } => {
                if *segments > 0 {
                    CcdShape::polyline(self.points())
                } else {
                    exact_arc(v(*center), *radius, *from_degrees, *to_degrees, *thickness)
                }
            }
            Piece::Path { from, steps } => CcdShape::compound(
                runs(*from, steps)
                    .into_iter()
                    .map(|run| match run {
                        Run::Straight(points) => CcdShape::polyline(points),
                        Run::Around(c, r, a, b) => exact_arc(c, r, a, b, 0.0),
                    })
                    .collect::<Vec<_>>(),
            ),
            Piece::Capsule { a, b, radius } => CcdShape::capsule(v(*a), v(*b), *radius),
            Piece::Polygon(points) => CcdShape::polygon(points.iter().map(|p| v(*p)).collect::<Vec<_>>()),
            Piece::Rect {
                center,
                half_size,
                degrees,
            } => CcdShape::polygon(rect_corners(*center, *half_size, *degrees)),
        }
    }
}
