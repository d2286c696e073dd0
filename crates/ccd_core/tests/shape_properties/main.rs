//! The sweeps against the game shapes (a [`Capsule`], a [`CircleArc`], an open [`Polyline`]
//! and a [`Polygon`], the chains through [`Obstacle`]), on straight and curved legs,
//! against a brute-force f64 reference: the distance from the centre to the shape's core
//! (a segment, the arc's curve, every edge of a chain) less the shape's rounding and the
//! ball's radius, sampled densely along the leg, each local minimum refined by
//! golden-section search and each first crossing by bisection, as in
//! `curved_properties.rs`. The arc's distance is its own: `| |p − c| − R |` when the
//! direction of `p − c` is within the angle range (an `atan2` test), else the distance to
//! the nearer end point, both end points computed in f64 from the f32 angles.
//!
//! The contract checked, with `S` the largest magnitude among the coordinates, the leg's
//! motion and bend and the radii, and `tol = 1e-4 + 1e-6·S`, for a ball that starts clear
//! of the shape (further than `tol`):
//! - no miss: a leg whose closest approach is deeper than `r − tol` is hit;
//! - no false hit: a leg whose closest approach stays beyond `r + tol` is not;
//! - never late, never early: the reported fraction is within `tol / speed` of the first
//!   contact, and at it the centre is no deeper than `tol` into the shape;
//! - the reported centre lies on the leg within `tol`, the reported point on the shape's
//!   surface within `tol`, and the normal within 1e-3 rad of the exact normal at the
//!   reported centre (one of them, where two parts of a chain are equally near).
//!
//! Only grazing legs (closest approach within `tol` of contact) may disagree on hit or
//! miss. A straight leg has zero gravity and goes to the straight query with
//! `motion = velocity · duration`; a curved one to the curved query. A chain's contact is
//! the earliest over the edges of `Obstacle::polyline` / `Obstacle::polygon` (a polygon's
//! edges one-sided, facing out: its balls start outside). A ball that starts touching (its
//! gap in `[−1e-5·S, 0]`) gets `toi == 0` when it moves into the shape (velocity · exact
//! normal below −0.1 of the speed), and never when it moves clearly away; then only a
//! return is a contact, checked by the same contract from the moment it is clear.
//!
//! Chains have their own checks, on straight chains of 2 to 6 collinear pieces along an
//! axis (exact in f32): a ball resting on one (its centre exactly at its radius from it,
//! or a few ulps closer) and moving along it at any speed meets nothing, on a straight leg
//! and on a curved one with gravity along the chain; one landing on it (dropped from above,
//! or resting on it and pushed in or thrown up) meets it when the closed form says, and
//! every edge reporting that first contact gives the face normal within 1e-6 (no tilted
//! normal from a vertex). A convex corner of a polygon or a closed polyline, approached
//! within its cone of normals, is the first contact, met by one edge at once, with the
//! normal from the corner to the centre.
//!
//! `SHAPE_CASES` sets the number of cases of each kind (default 20,000; the closing note
//! of the shapes issue reports a run of 1,000,000).
//!
//! Files: `shapes.rs` (the shapes, their exact distances, a case), `reference.rs` (the
//! reference and the verdict), `cases.rs` (random shapes and starts), this file (the runs
//! and the four reference tests), `touching.rs` (touching starts), `chains.rs` (the
//! chains' own checks).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{
    Capsule, Circle, CircleArc, Hit, Obstacle, ObstacleShape, Parabola, Polygon, Polyline, Vec2,
    sweep_circle_arc, sweep_circle_capsule, sweep_parabola_arc, sweep_parabola_capsule,
};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f64::consts::TAU;

/// Samples of the reference along a leg.
const SAMPLES: usize = 2048;

/// Largest allowed angle between a reported normal and the exact one, in radians.
const NORMAL_TOL: f64 = 1e-3;

/// Largest allowed difference between a chain's face normal and the normal of a contact
/// with that face (no tilted vertex normal).
const FACE_NORMAL_TOL: f32 = 1e-6;

fn cases() -> usize {
    std::env::var("SHAPE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

// ---------------------------------------------------------------------------------------
// Shapes and their exact f64 geometry
// ---------------------------------------------------------------------------------------

mod cases;
mod chains;
mod reference;
mod shapes;
mod touching;

use cases::*;
use reference::*;
use shapes::*;

/// What one kind's run counted on one sort of leg.
#[derive(Default)]
struct Tally {
    cases: usize,
    hits: usize,
    misses: usize,
    grazing: usize,
    skipped: usize,
    faults: Vec<String>,
}

impl Tally {
    fn take(&mut self, verdict: Verdict, case: &Case) {
        match verdict {
            Verdict::Hit => self.hits += 1,
            Verdict::Miss => self.misses += 1,
            Verdict::Grazing => self.grazing += 1,
            Verdict::Fault(e) => self.faults.push(format!("{e}\n{}", case.code())),
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} cases, {} hits, {} misses, {} grazing, {} skipped, {} faults",
            self.cases,
            self.hits,
            self.misses,
            self.grazing,
            self.skipped,
            self.faults.len()
        );
        for fault in self.faults.iter().take(5) {
            println!("  fault: {fault}");
        }
    }
}

fn leg_name(straight: bool) -> &'static str {
    if straight { "straight legs" } else { "curved legs" }
}

/// `cases()` random legs of each sort against shapes of `kind`, from clear starts.
fn run(kind: Kind, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tallies = [Tally::default(), Tally::default()];
    for _ in 0..cases() {
        for t in &mut tallies {
            t.cases += 1;
        }
        let shape = random_shape(&mut rng, kind);
        let start = shape.as_ref().and_then(|s| random_start(&mut rng, s));
        let (Some(shape), Some(center)) = (shape, start) else {
            for t in &mut tallies {
                t.skipped += 1;
            }
            continue;
        };
        let aim = aim_point(&mut rng, &shape);
        let duration: f32 = rng.random_range(0.05..1.5);
        let speed: f32 = rng.random_range(0.0..60.0);
        let gravity = v2(&mut rng, -50.0, 50.0);
        let velocity = (aim - center).normalize_or_zero() * speed;
        let radius = rng.random_range(0.0..3.0);
        let exact = Exact::of(&shape);
        for (tally, straight) in tallies.iter_mut().zip([true, false]) {
            let case = Case {
                circle: Circle::new(center, radius),
                path: Parabola::new(velocity, if straight { Vec2::ZERO } else { gravity }, duration),
                straight,
                shape: &shape,
                exact: &exact,
            };
            if case.gap(0.0) <= case.tol() {
                tally.skipped += 1;
                continue;
            }
            let verdict = judge(&case, &from_start(&case), case.query());
            tally.take(verdict, &case);
        }
    }
    let mut faults = 0;
    for (tally, straight) in tallies.iter().zip([true, false]) {
        tally.report(&format!("{}, {}", kind.name(), leg_name(straight)));
        faults += tally.faults.len();
    }
    for (tally, straight) in tallies.iter().zip([true, false]) {
        assert!(
            tally.faults.is_empty(),
            "{} faults, first ({}, {}): {}",
            faults,
            kind.name(),
            leg_name(straight),
            tally.faults[0]
        );
        // The scenes are aimed: at least a tenth must hit, or the test checks little.
        assert!(
            tally.hits * 10 >= tally.cases,
            "only {} hits in {} cases",
            tally.hits,
            tally.cases
        );
    }
}

#[test]
fn a_capsule_matches_the_reference() {
    run(Kind::Capsule, 51);
}

#[test]
fn an_arc_matches_the_reference() {
    run(Kind::Arc, 52);
}

#[test]
fn an_open_polyline_matches_the_reference() {
    run(Kind::Polyline, 53);
}

#[test]
fn a_polygon_from_outside_matches_the_reference() {
    run(Kind::Polygon, 54);
}

// ---------------------------------------------------------------------------------------
// Touching starts
// ---------------------------------------------------------------------------------------
