//! Generated states (issue 29, section 5).
//!
//! The property tests start from random poses, where a ball almost never sits exactly on
//! a surface. These tests generate the states a game reaches all the time and a random
//! pose never does, start the engine there, and check the invariants:
//!
//! 1. **Just after a contact.** A random ball meets a random wall (its face or an end cap,
//!    head on or grazing, two- or one-sided); the first step stops at that contact (a cap
//!    of one bounce), and the next steps start from the exact state the engine left: the
//!    centre at the contact, the velocity after the bounce.
//! 2. **Exactly in a corner.** Two walls meeting at a random angle (1° to 179°), the ball
//!    placed touching both (the place computed in f64 from the walls as stored), thrown in
//!    any direction.
//! 3. **On a hinge stop.** A hinged segment at rest exactly on one of its limits, the ball
//!    touching it at a random point along it and thrown at it, up to 20,000 units/s, from
//!    either side: the side that pushes the hinge into its stop, and the side that swings
//!    it open.
//! 4. **Inside a squeeze.** A ball touching a static wall (at rest or sliding along it) and a
//!    moving segment closing on it: a plate sliding towards the wall, or a blade turning
//!    towards it.
//!
//! Every case runs on each path a ball can take through `ccd_core` ([`Path`]): the
//! single-ball [`sweep_bounces`] (where there is no moving obstacle), and [`step_balls`]
//! with ball–ball off and on (on, with a passer-by that pulls the ball into the event
//! machinery without ever touching it).
//!
//! The expectations are invariants, computed independently in f64 from the scene as
//! stored: the kinetic energy (kept to [`ENERGY_TOL_REL`] at `e = 1`, never gained at
//! `e ≤ 1`), no step end inside a wall beyond [`penetration_slop`], no path through a wall
//! (the centre's path, straight between the contacts reported, never meets a wall's
//! segment, and never crosses a one-way wall backwards by [`crossed_one_way`]), and no
//! NaN; per family, a hinge within its limits and a squeezed ball no faster than one
//! bounce. Each family prints its case count and its worst figures (`-- --nocapture`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test: a bad setup is a failed test"
)]

use ccd_core::{
    Aabb, Ball, Circle, Contact, ContactWith, Layers, Material, MovingObstacle, MultiballScratch,
    MultiballSettings, MultiballStep, Obstacle, ObstacleShape, Segment, SweepSettings, Vec2, crossed_one_way,
    penetration, penetration_slop, step_balls, sweep_bounces,
};
use glam::DVec2;
use rand::Rng;
use rand::rngs::StdRng;
use std::f64::consts::{FRAC_PI_2, PI};
use std::ops::Range;

mod after_contact;
mod corner;
mod hinge_stop;
mod squeeze;

// --- Scales shared by the families ---------------------------------------------------------

/// Steps per second: a game's fixed step.
const HZ: f32 = 60.0;
/// The step, seconds.
const DT: f32 = 1.0 / HZ;
/// Ball speeds drawn (log-uniformly), units/s: from a ball barely rolling to 20 m/s on a
/// table measured in millimetres (a third of a metre, 167 radii of the smallest ball, in
/// one step).
const SPEED_RANGE: Range<f64> = 1.0..20_000.0;
/// Ball radii drawn (log-uniformly), units. Every scene keeps its coordinates within a
/// few thousand units, so the f32 rounding of a position (about 1e-7 of the coordinates,
/// 2e-4 units at 2,000) stays a tenth of the smallest ball's [`penetration_slop`] (2e-3
/// at radius 2): a figure near the slop is the engine's, not the scene's rounding.
const RADIUS_RANGE: Range<f64> = 2.0..20.0;
/// How far from the origin a scene is placed, units (each coordinate, either way): away
/// from it, positions carry the rounding of coordinates in the hundreds.
const OFFSET: f64 = 500.0;
/// How far from its start the kinetic energy may be at `e = 1`, relative: the crate's bound
/// for elastic contacts (README, "Ball–ball"; `tests/energy.rs`). f32 rounding of a stored
/// velocity is 6e-8 of it per contact.
const ENERGY_TOL_REL: f64 = 1e-6;
/// Share of the cases drawn perfectly elastic (`e = 1`, no friction), where the energy must
/// be kept; the others draw `e` and friction at random, where it must not grow.
const ELASTIC_SHARE: f64 = 0.5;
/// Share of the inelastic cases drawn with `e = 0` exactly (the ball slides on at contact).
const DEAD_SHARE: f64 = 0.25;
/// Friction coefficients drawn for the inelastic cases (dimensionless).
const FRICTION_RANGE: Range<f32> = 0.0..0.5;
/// The largest angle between a throw and the normal of the surface it is thrown at,
/// radians: 89.9°, a path nearly along the surface.
const MAX_INCIDENCE: f64 = 89.9 * PI / 180.0;
/// Share of the throws drawn as grazes: `90° − 10^x` radians off the normal, `x` in
/// [`GRAZE_EXPONENTS`] (a millionth of a radian to a hundredth).
const GRAZE_SHARE: f64 = 0.125;
/// Exponents of the grazes' angles to the surface (see [`GRAZE_SHARE`]).
const GRAZE_EXPONENTS: Range<f64> = -6.0..-2.0;
/// How many failing cases a family prints in full (the count is always printed).
const FAILURES_SHOWN: usize = 8;

/// Which code moves the ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// [`sweep_bounces`], the single-ball sweep.
    Sweep,
    /// [`step_balls`] with ball–ball off.
    Lone,
    /// [`step_balls`] with ball–ball on and a passer-by ([`passer_by`]) whose path's box
    /// meets the ball's, so that both go through the event machinery (they never touch).
    Events,
}

/// The paths of a scene of static walls.
const STATIC_PATHS: [Path; 3] = [Path::Sweep, Path::Lone, Path::Events];
/// The paths of a scene with a moving obstacle ([`sweep_bounces`] has none).
const MOVING_PATHS: [Path; 2] = [Path::Lone, Path::Events];

/// The side of the passer-by's square, in multiples of the scene's larger side.
const PASSER_SQUARE: f32 = 4.0;

/// A ball that crosses the whole scene's box every step without coming near anything in
/// it (as in `tests/compose.rs`): from the bottom-left to the top-right corner of a square
/// of side `S` whose top-left corner is the scene's. The scene (`w × h`, which holds every
/// place the ball can reach in the run) sits in that corner, at least `(S − w − h)/√2`
/// from the passer-by's line, which with `S = 4·max(w, h)` is more than the scene's larger
/// side (and the scene is inflated by two radii).
fn passer_by(scene: Aabb, radius: f32) -> Ball {
    let size = scene.max - scene.min;
    let side = PASSER_SQUARE * size.max_element();
    let from = Vec2::new(scene.min.x, scene.max.y - side);
    let to = Vec2::new(scene.min.x + side, scene.max.y);
    Ball::new(from, (to - from) / DT, radius)
}

/// The box of a scene: its walls and moving obstacles' boxes, and a ball of `radius` that
/// starts at `start` and goes no faster than `speed` for `steps` steps, inflated by two
/// radii.
fn scene_box(boxes: &[Aabb], start: Vec2, radius: f32, speed: f64, steps: u32) -> Aabb {
    let reach = radius + (speed * f64::from(DT) * f64::from(steps)) as f32;
    let ball = Circle::new(start, reach).aabb();
    boxes.iter().fold(ball, |b, w| b.union(*w)).inflated(2.0 * radius)
}

/// One step of the ball: the centre's path (the start, the centre at each solid contact
/// reported, in time order, and the end: straight between them) and the contacts.
struct StepPath {
    centres: Vec<Vec2>,
    contacts: Vec<Contact>,
}

/// A ball moved step by step along one [`Path`].
struct Stepper {
    path: Path,
    passer: Ball,
    scratch: MultiballScratch,
}

impl Stepper {
    /// On `path`, in a scene whose every reachable place is inside `scene`.
    fn new(path: Path, scene: Aabb, radius: f32) -> Self {
        Self {
            path,
            passer: passer_by(scene, radius),
            scratch: MultiballScratch::default(),
        }
    }

    /// One step of `ball` among `walls` and `moving`, at most `max_bounces` contacts.
    fn step(
        &mut self,
        ball: &mut Ball,
        walls: &[Obstacle],
        moving: &mut [MovingObstacle],
        max_bounces: u32,
    ) -> StepPath {
        let start = ball.center;
        let mut contacts = Vec::new();
        match self.path {
            Path::Sweep => {
                assert!(
                    moving.is_empty(),
                    "the single-ball sweep meets no moving obstacle"
                );
                let settings = SweepSettings {
                    max_bounces,
                    material: ball.material,
                    ..SweepSettings::default()
                };
                let circle = Circle::new(ball.center, ball.radius);
                let out = sweep_bounces(circle, ball.velocity, DT, walls, &settings, |h| {
                    contacts.push(Contact {
                        ball: 0,
                        with: ContactWith::Obstacle(h.obstacle),
                        time: h.time,
                        hit: h.hit,
                        approach_speed: h.approach_speed,
                        other_velocity: Vec2::ZERO,
                        sensor: h.sensor,
                        kick: h.kick,
                    });
                })
                .unwrap_or_else(|e| panic!("the sweep refused the ball: {e:?}"));
                ball.center = out.center;
                ball.velocity = out.velocity;
            }
            Path::Lone | Path::Events => {
                let events = self.path == Path::Events;
                let settings = MultiballSettings {
                    ball_ball: events,
                    max_bounces,
                    ..MultiballSettings::default()
                };
                let mut balls = vec![*ball];
                if events {
                    balls.push(self.passer);
                }
                let report = step_balls(
                    MultiballStep::new(&mut balls, DT, walls).with_moving(moving),
                    &settings,
                    &mut self.scratch,
                    |c| {
                        if c.ball == 0 {
                            contacts.push(*c);
                        }
                    },
                );
                // The harness, not the code under test: the passer-by touched nothing, and
                // among static walls the ball went the intended way.
                if events {
                    assert_eq!(
                        balls[1].velocity, self.passer.velocity,
                        "the passer-by was touched"
                    );
                }
                if moving.is_empty() {
                    let intended = if events { (0, 2) } else { (1, 0) };
                    assert_eq!(
                        (report.lone_balls, report.event_balls),
                        intended,
                        "{:?}: the ball did not take the intended path",
                        self.path
                    );
                }
                *ball = balls[0];
            }
        }
        contacts.retain(|c| !c.sensor);
        contacts.sort_by(|a, b| a.time.total_cmp(&b.time));
        let mut centres = vec![start];
        centres.extend(contacts.iter().map(|c| c.hit.center));
        centres.push(ball.center);
        StepPath { centres, contacts }
    }
}

// --- The checks ----------------------------------------------------------------------------

/// Kinetic energy of a ball, `½·m·|v|²`, in f64.
fn kinetic(ball: &Ball) -> f64 {
    0.5 * ball.velocity.as_dvec2().length_squared() / f64::from(ball.inverse_mass)
}

/// Whether the ball's centre and velocity are finite.
fn finite(ball: &Ball) -> bool {
    ball.center.is_finite() && ball.velocity.is_finite()
}

/// `(b − a) × (p − a)` in f64: which side of the line `ab` the point `p` is on.
fn orient(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    (b - a).perp_dot(p - a)
}

/// Whether the straight leg from `p` to `q` passes through `wall` (properly: each leaves
/// the other's ends on opposite sides). A centre on a wall is a whole radius inside it.
fn leg_crosses(p: Vec2, q: Vec2, wall: Segment) -> bool {
    let (p, q, a, b) = (p.as_dvec2(), q.as_dvec2(), wall.a.as_dvec2(), wall.b.as_dvec2());
    orient(a, b, p) * orient(a, b, q) < 0.0 && orient(p, q, a) * orient(p, q, b) < 0.0
}

/// The segment of a wall.
fn segment_of(wall: &Obstacle) -> Segment {
    match wall.shape {
        ObstacleShape::Segment(s) => s,
        _ => unreachable!("the scenes' walls are segments"),
    }
}

/// Whether the centre's path passes through `wall`, or (a one-way wall) crosses it the
/// wrong way by the audit's [`crossed_one_way`], on any of its straight legs.
fn path_crosses(centres: &[Vec2], wall: &Obstacle, radius: f32) -> bool {
    let segment = segment_of(wall);
    centres.windows(2).any(|leg| {
        leg_crosses(leg[0], leg[1], segment)
            || (wall.one_sided && crossed_one_way(segment, radius, leg[0], leg[1]))
    })
}

/// How deep a ball sits inside a wall (0 when it does not), by the audit's
/// [`penetration`]. A one-way wall counts as solid: every scene's ball starts in front of
/// it, where it is as solid as any wall.
fn depth(center: Vec2, radius: f32, wall: &Obstacle) -> f32 {
    let solid = Obstacle {
        one_sided: false,
        ..*wall
    };
    penetration(Circle::new(center, radius), Layers::ALL, &solid).map_or(0.0, |p| p.depth)
}

/// A material drawn for a case: elastic ([`ELASTIC_SHARE`]), dead (`e = 0`), or any
/// restitution and friction; and whether it is elastic.
fn draw_material(rng: &mut StdRng) -> (Material, bool) {
    if rng.random_bool(ELASTIC_SHARE) {
        (Material::ELASTIC, true)
    } else if rng.random_bool(DEAD_SHARE) {
        (Material::new(0.0, rng.random_range(FRICTION_RANGE)), false)
    } else {
        (
            Material::new(rng.random_range(0.0..1.0), rng.random_range(FRICTION_RANGE)),
            false,
        )
    }
}

/// A number drawn log-uniformly from `range` (both ends positive).
fn log_uniform(rng: &mut StdRng, range: Range<f64>) -> f64 {
    rng.random_range(range.start.ln()..range.end.ln()).exp()
}

/// A throw's angle from the surface's inward normal, radians, either way: up to
/// [`MAX_INCIDENCE`], or a graze ([`GRAZE_SHARE`]).
fn draw_incidence(rng: &mut StdRng) -> f64 {
    let angle = if rng.random_bool(GRAZE_SHARE) {
        FRAC_PI_2 - 10f64.powf(rng.random_range(GRAZE_EXPONENTS))
    } else {
        rng.random_range(0.0..MAX_INCIDENCE)
    };
    if rng.random_bool(0.5) { angle } else { -angle }
}

/// A scene point at a random place within [`OFFSET`] of the origin.
fn draw_place(rng: &mut StdRng) -> DVec2 {
    DVec2::new(
        rng.random_range(-OFFSET..OFFSET),
        rng.random_range(-OFFSET..OFFSET),
    )
}

/// The worst figures of one family on one path, and its failures.
#[derive(Debug, Default)]
struct Figures {
    /// Cases run.
    cases: u32,
    /// Cases that never reached the state the family is about (see each family).
    skipped: u32,
    /// Step ends checked.
    steps: u32,
    /// The largest `|E/E₀ − 1|` at a step end of a case that must keep its energy (`None`:
    /// none measured).
    worst_kept: Option<f64>,
    /// The largest `E/E₀ − 1` at a step end of a case that may only lose energy (`None`:
    /// none measured; negative: every one lost some).
    worst_gain: Option<f64>,
    /// The deepest a ball sat inside a surface at a step end, in units of its
    /// [`penetration_slop`] (1 is the audit's limit).
    deepest: f32,
    /// Paths through a wall, or across a one-way wall backwards.
    crossings: u32,
    /// Step ends with a NaN or an infinity.
    nans: u32,
    /// Failures, each with its case.
    failures: Vec<String>,
}

impl Figures {
    /// The energy `e` at a step end, against `e0`: kept (`kept`), or not gained.
    fn energy(&mut self, kept: bool, e0: f64, e: f64, case: &dyn Fn() -> String) {
        let change = e / e0 - 1.0;
        if kept {
            self.worst_kept = Some(self.worst_kept.map_or(change.abs(), |w| w.max(change.abs())));
            if !(change.abs() <= ENERGY_TOL_REL) {
                self.fail(format!("energy changed by {change:.3e} at e = 1: {}", case()));
            }
        } else {
            self.worst_gain = Some(self.worst_gain.map_or(change, |w| w.max(change)));
            if !(change <= ENERGY_TOL_REL) {
                self.fail(format!(
                    "energy grew by {change:.3e} (it may only fall): {}",
                    case()
                ));
            }
        }
    }

    /// A ball's depth inside a wall at a step end.
    fn depth(&mut self, depth: f32, radius: f32, what: &str, case: &dyn Fn() -> String) {
        let slop = penetration_slop(radius);
        self.deepest = self.deepest.max(depth / slop);
        if depth > slop {
            self.fail(format!(
                "ended {depth:.3e} inside {what} (slop {slop:.3e}): {}",
                case()
            ));
        }
    }

    fn crossing(&mut self, crossed: bool, what: &str, case: &dyn Fn() -> String) {
        if crossed {
            self.crossings += 1;
            self.fail(format!("crossed {what}: {}", case()));
        }
    }

    fn nan(&mut self, ok: bool, case: &dyn Fn() -> String) {
        if !ok {
            self.nans += 1;
            self.fail(format!("NaN or infinity: {}", case()));
        }
    }

    fn fail(&mut self, failure: String) {
        self.failures.push(failure);
    }

    /// The line the family prints for this path.
    fn line(&self) -> String {
        let figure = |w: Option<f64>| w.map_or_else(|| "not measured".to_owned(), |w| format!("{w:.2e}"));
        format!(
            "{} cases ({} skipped), {} step ends: worst |E/E₀ − 1| where kept (e = 1) {}, \
             worst E/E₀ − 1 where it may only fall {}, deepest inside a surface {:.3} slop, \
             {} crossings, {} NaN",
            self.cases,
            self.skipped,
            self.steps,
            figure(self.worst_kept),
            figure(self.worst_gain),
            self.deepest,
            self.crossings,
            self.nans
        )
    }
}

/// Print the failures of every path of a family (the first [`FAILURES_SHOWN`] of each),
/// and fail if there are any.
fn assert_no_failures(family: &str, figures: &[(Path, Figures)]) {
    let mut total = 0;
    for (path, f) in figures {
        total += f.failures.len();
        for failure in f.failures.iter().take(FAILURES_SHOWN) {
            eprintln!("{family}, {path:?}: {failure}");
        }
        if f.failures.len() > FAILURES_SHOWN {
            eprintln!(
                "{family}, {path:?}: … and {} more",
                f.failures.len() - FAILURES_SHOWN
            );
        }
    }
    assert_eq!(total, 0, "{family}: {total} failures (printed above)");
}
