//! Contacts that compose, part two (issue 29): a ball that meets two surfaces at once.
//!
//! Every check runs on each path a ball can take through `ccd_core` ([`Path`]): the
//! single-ball [`sweep_bounces`], and [`step_balls`] with the ball swept on its own
//! (ball–ball off) or through the event machinery (ball–ball on).
//!
//! - **Into an apex.** A ball aimed exactly into the apex of a symmetric V (10°, 5°, 1°) or
//!   straight (diagonally) into a 90° corner touches both walls at one instant, and must
//!   leave straight back at `−e·v`. The independent expectation is Poisson's model of the
//!   two contacts as one (the model of the ball–ball batches): the approach lies between
//!   the two normals, so the walls' compression impulses stop the ball, and each wall
//!   returns `e` times its own, so it leaves at `−e·v`. At `e = 1` it is also what the
//!   elastic paths beside the aimed one do, from either side: for an opening `α = π/n`
//!   with `n` even (2, 18, 36, 180 here), unfolding the V maps the sector a path leaves by
//!   onto the one it came in by with a half turn, so they come back antiparallel.
//! - **Energy.** At `e = 1` a ball that touches two walls at one instant keeps its kinetic
//!   energy to 1e-6 (random openings, orientations, aims through the place that touches
//!   both walls, speeds and phases of the step), and ends no deeper in a wall than
//!   [`penetration_slop`].
//! - **At rest in a V.** Under gravity a ball placed touching both sides of a V stays
//!   there: in ten seconds at 60 Hz its centre moves less than [`REST_DRIFT_REL`] of its
//!   radius, and no step reports more than [`MAX_REST_CONTACTS`] contacts.
//! - **Squeezes.** A plate closing on a ball that slides along a wall never throws it
//!   faster than one bounce off the plate would (the bound is that bounce, computed by
//!   hand in f64).
//!
//! `cargo run -p bevy_circle_ccd --example compose_figures` prints the figures of these
//! scenes (it includes this file).

use ccd_core::{
    Aabb, Ball, Circle, ContactWith, Layers, Material, MovingObstacle, MultiballScratch, MultiballSettings,
    MultiballStep, Obstacle, ObstacleShape, Segment, SegmentMotion, SweepSettings, Vec2, penetration,
    penetration_slop, step_balls, sweep_bounces,
};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Steps per second in every scene.
pub const HZ: f32 = 60.0;
/// The ball's radius in every scene.
pub const RADIUS: f32 = 10.0;

// --- The paths -----------------------------------------------------------------------------

/// Which code moves the ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// [`sweep_bounces`], the single-ball sweep.
    Sweep,
    /// [`step_balls`] with ball–ball off: the ball keeps its own sweep.
    Lone,
    /// [`step_balls`] with ball–ball on and a passer-by ([`passer_by`]) whose path's box
    /// meets the ball's, so that both go through the event machinery (they never touch).
    Events,
}

/// Every path, in the order the figures list them.
pub const PATHS: [Path; 3] = [Path::Sweep, Path::Lone, Path::Events];

/// The side of the passer-by's square, in multiples of the scene's larger side (see
/// [`passer_by`]).
const PASSER_SQUARE: f32 = 4.0;

/// A ball that crosses the whole scene's box every step without coming near anything in
/// it: from the bottom-left to the top-right corner of a square of side `S` whose top-left
/// corner is the scene's. The scene (`w × h`) sits in that corner, at least
/// `(S − w − h)/√2` from the passer-by's line, which with `S = 4·max(w, h)` is more than
/// the scene's larger side (and so more than two radii: the scene holds the ball).
fn passer_by(scene: Aabb, radius: f32, dt: f32) -> Ball {
    let size = scene.max - scene.min;
    let side = PASSER_SQUARE * size.max_element();
    let from = Vec2::new(scene.min.x, scene.max.y - side);
    let to = Vec2::new(scene.min.x + side, scene.max.y);
    Ball::new(from, (to - from) / dt, radius)
}

/// The resting speed the plugin uses under gravity `g` at step `dt`: `2·|g|·dt` (twice
/// what gravity adds in one step; zero without gravity).
fn resting_speed(gravity: Vec2, dt: f32) -> f32 {
    2.0 * gravity.length() * dt
}

/// A ball among static walls, moved step by step along one [`Path`], with gravity added to
/// its velocity before each step as the plugin does.
pub struct Run<'a> {
    path: Path,
    walls: &'a [Obstacle],
    dt: f32,
    gravity: Vec2,
    /// The ball.
    pub ball: Ball,
    /// The passer-by, as it starts every step (it is put back each time).
    passer: Ball,
    scratch: MultiballScratch,
    /// Whether the ball ever reached the bounce cap.
    pub capped: bool,
}

impl<'a> Run<'a> {
    /// `ball` among `walls`, stepped at `dt` under `gravity` along `path`.
    pub fn new(path: Path, walls: &'a [Obstacle], ball: Ball, dt: f32, gravity: Vec2) -> Self {
        let start = Circle::new(ball.center, ball.radius).aabb();
        let scene = walls
            .iter()
            .fold(start, |b, w| b.union(w.aabb()))
            .inflated(2.0 * ball.radius);
        Self {
            path,
            walls,
            dt,
            gravity,
            ball,
            passer: passer_by(scene, ball.radius, dt),
            scratch: MultiballScratch::default(),
            capped: false,
        }
    }

    /// One step; the contacts reported for the ball.
    pub fn step(&mut self) -> u32 {
        let resting_speed = resting_speed(self.gravity, self.dt);
        let mut contacts = 0;
        match self.path {
            Path::Sweep => {
                let settings = SweepSettings {
                    resting_speed,
                    material: self.ball.material,
                    gravity: self.gravity,
                    ..SweepSettings::default()
                };
                let circle = Circle::new(self.ball.center, self.ball.radius);
                let result =
                    sweep_bounces(circle, self.ball.velocity, self.dt, self.walls, &settings, |_| {
                        contacts += 1;
                    });
                let out = match result {
                    Ok(out) => out,
                    Err(e) => panic!("the sweep refused the ball: {e:?}"),
                };
                self.ball.center = out.center;
                self.ball.velocity = out.velocity;
                self.capped |= out.capped;
            }
            Path::Lone | Path::Events => {
                let events = self.path == Path::Events;
                let settings = MultiballSettings {
                    ball_ball: events,
                    gravity: self.gravity,
                    resting_speed,
                    ..MultiballSettings::default()
                };
                let mut balls = [self.ball, self.passer];
                let report = step_balls(
                    MultiballStep::new(&mut balls, self.dt, self.walls),
                    &settings,
                    &mut self.scratch,
                    |c| contacts += u32::from(c.ball == 0),
                );
                // The harness, not the code under test: the passer-by touched nothing, and
                // the ball went the intended way.
                // (It flies under gravity: its velocity gains g·dt, nothing more.)
                let free = self.passer.velocity + self.gravity * self.dt;
                assert!(
                    (balls[1].velocity - free).length() <= 1e-5 * free.length().max(1.0),
                    "the passer-by was touched: {} instead of {free}",
                    balls[1].velocity
                );
                let (lone, machinery) = if events { (0, 2) } else { (2, 0) };
                assert_eq!(
                    (report.lone_balls, report.event_balls),
                    (lone, machinery),
                    "{:?}: the balls did not take the intended path",
                    self.path
                );
                self.ball = balls[0];
                self.capped |= report.capped_balls > 0;
            }
        }
        contacts
    }
}

// --- Corners: into the apex ----------------------------------------------------------------

/// Speed of the shots into an apex, units/s.
pub const SHOT_SPEED: f32 = 1_000.0;
/// The fraction of its first step at which a shot reaches the corner: the middle, away
/// from both ends of the step.
const ARRIVAL: f32 = 0.5;
/// Steps per shot: in and out in the first, then two more on the way out (a ball held in
/// the corner for the rest of a step would show as a velocity short of `−e·v`).
const SHOT_STEPS: u32 = 3;
/// The walls reach this many steps of travel beyond the place where the ball touches both:
/// no shot leaves by their ends.
const WALL_REACH_STEPS: f32 = 8.0;
/// The V openings of the apex test, degrees.
pub const V_OPENINGS: [f32; 3] = [10.0, 5.0, 1.0];
/// A right angle, degrees.
pub const RIGHT_ANGLE: f32 = 90.0;
/// The restitutions of the shots (of the walls; the ball is elastic, and the default rule
/// multiplies them).
pub const SHOT_RESTITUTIONS: [f32; 2] = [1.0, 0.5];
/// How far from `−e·v` the exit velocity may be, relative to the speed. The expectation is
/// exact up to f32 rounding; if the two contacts are resolved through the bounces of the
/// unfolded V instead (180 of them at 1°), each rounds the velocity by about 6e-8 of the
/// speed, 1.1e-5 in all; this is about ten times that.
const EXIT_TOL_REL: f32 = 1e-4;
/// How far from its start the kinetic energy may be at `e = 1`, relative (the crate's
/// bound for elastic contacts, README "Ball–ball").
const ENERGY_TOL_REL: f64 = 1e-6;

/// The corners shot into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A V of this opening (degrees) along +x, its walls at ± half the opening.
    V(f32),
    /// A floor along +x and a wall along +y: a right angle, its walls on the axes.
    FloorAndWall,
}

/// Two walls from the origin (the apex) and where a ball of [`RADIUS`] touches both.
pub struct Corner {
    /// The walls, of the given restitution.
    pub walls: [Obstacle; 2],
    /// Unit vector from the apex into the opening, along the bisector.
    pub axis: Vec2,
    /// Where the ball's centre touches both walls.
    pub touch: Vec2,
}

/// A corner of `shape`, its walls of restitution `e` reaching `reach` past the place where
/// the ball touches both. Each is its own mirror image bit for bit (a V across y = 0, the
/// floor and wall across y = x), and so is a shot along its axis.
pub fn corner(shape: Shape, e: f32, reach: f32) -> Corner {
    let material = Material::new(e, 0.0);
    let wall = |to: Vec2| Obstacle::segment(Segment::new(Vec2::ZERO, to)).with_material(material);
    match shape {
        Shape::FloorAndWall => {
            let length = RADIUS + reach;
            Corner {
                walls: [wall(Vec2::new(length, 0.0)), wall(Vec2::new(0.0, length))],
                axis: Vec2::ONE.normalize(),
                touch: Vec2::splat(RADIUS),
            }
        }
        Shape::V(opening) => {
            let (s, c) = (opening / 2.0).to_radians().sin_cos();
            let apex_to_touch = RADIUS / s;
            let length = apex_to_touch + reach;
            Corner {
                walls: [wall(Vec2::new(c, s) * length), wall(Vec2::new(c, -s) * length)],
                axis: Vec2::X,
                touch: Vec2::new(apex_to_touch, 0.0),
            }
        }
    }
}

/// A shot into an apex: the velocity it came in with and the one it has after
/// [`SHOT_STEPS`].
#[derive(Clone, Copy, Debug)]
pub struct Shot {
    /// Velocity in.
    pub v_in: Vec2,
    /// Velocity after the shot's steps.
    pub v_out: Vec2,
    /// Whether the ball reached the bounce cap.
    pub capped: bool,
}

impl Shot {
    /// How far the exit is from `−e·v`, relative to the speed in.
    pub fn error(&self, e: f32) -> f32 {
        (self.v_out + self.v_in * e).length() / self.v_in.length()
    }

    /// The kinetic energy out over the energy in.
    pub fn energy_ratio(&self) -> f64 {
        self.v_out.as_dvec2().length_squared() / self.v_in.as_dvec2().length_squared()
    }
}

/// A ball aimed exactly into the apex of a corner of `shape` (walls of restitution `e`),
/// along its axis, reaching it in the middle of the first step.
pub fn apex_shot(path: Path, shape: Shape, e: f32) -> Shot {
    let dt = 1.0 / HZ;
    let corner = corner(shape, e, WALL_REACH_STEPS * SHOT_SPEED * dt);
    let start = corner.touch + corner.axis * (SHOT_SPEED * dt * ARRIVAL);
    let v_in = -corner.axis * SHOT_SPEED;
    let mut run = Run::new(
        path,
        &corner.walls,
        Ball::new(start, v_in, RADIUS),
        dt,
        Vec2::ZERO,
    );
    for _ in 0..SHOT_STEPS {
        run.step();
    }
    Shot {
        v_in,
        v_out: run.ball.velocity,
        capped: run.capped,
    }
}

/// The shots into `shapes`, on every path and restitution; a line for each that is not
/// straight back at `−e·v` (or, at `e = 1`, lost or gained energy).
fn apex_failures(shapes: &[Shape]) -> Vec<String> {
    let mut failures = Vec::new();
    for path in PATHS {
        for &shape in shapes {
            for e in SHOT_RESTITUTIONS {
                let shot = apex_shot(path, shape, e);
                let energy = shot.energy_ratio() - 1.0;
                eprintln!(
                    "{path:?}, {shape:?}, e = {e}: in {} out {} (|out| {:.3}, expected {:.3}), \
                     error {:.2e} of the speed, energy ratio − 1 = {energy:.2e}",
                    shot.v_in,
                    shot.v_out,
                    shot.v_out.length(),
                    e * SHOT_SPEED,
                    shot.error(e)
                );
                let elastic_energy_lost = e == 1.0 && energy.abs() > ENERGY_TOL_REL;
                if shot.error(e) > EXIT_TOL_REL || elastic_energy_lost {
                    failures.push(format!(
                        "{path:?}, {shape:?}, e = {e}: out at {} (expected {}), energy ratio − 1 = {energy:.2e}",
                        shot.v_out,
                        -shot.v_in * e
                    ));
                }
            }
        }
    }
    failures
}

/// Into the apex of a 10°, 5° or 1° V, exactly along its axis: straight back at `−e·v`,
/// to [`EXIT_TOL_REL`] of the speed, at `e = 1` and `e = 0.5`, with the energy kept to 1e-6
/// at `e = 1`. The expectation is the module's (Poisson's model, and the unfolded V).
#[test]
fn a_ball_into_the_apex_of_a_v_leaves_straight_back() {
    let failures = apex_failures(&V_OPENINGS.map(Shape::V));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Diagonally into a right-angled corner: straight back at `−e·v`, as into a V (π/α = 2).
/// Both a floor and a wall on the axes, and a V of 90° whose walls are at ±45°.
#[test]
fn a_ball_straight_into_a_right_angle_corner_leaves_straight_back() {
    let failures = apex_failures(&[Shape::FloorAndWall, Shape::V(RIGHT_ANGLE)]);
    assert!(failures.is_empty(), "{failures:#?}");
}

// --- Corners: energy of any two-surface contact ------------------------------------------

/// Random two-surface contacts per path.
pub const ENERGY_CASES: u32 = 1_000;
/// The generator's seed: the same cases every run.
const ENERGY_SEED: u64 = 29;
/// Openings drawn, degrees: from a 1° V to one almost flat.
const OPENING_RANGE: std::ops::Range<f64> = 1.0..179.0;
/// Speeds drawn, units/s.
const SPEED_RANGE: std::ops::Range<f64> = 100.0..5_000.0;
/// Fractions of the first step at which the ball touches both walls.
const ARRIVAL_RANGE: std::ops::Range<f64> = 0.05..0.95;
/// How far from the axis an aim may come in, as a fraction of the half-opening: a path
/// from further out would run along a wall (a graze, not a two-surface contact).
const AIM_SPREAD: f64 = 0.9;
/// Steps per case: the contact, and two more (a ball sent into a wall shows there).
const ENERGY_STEPS: u32 = 3;

/// Where a ball of radius `r` touches both of two walls from the origin along `a` and `b`
/// (in f64, from the walls as stored): where their lines moved `r` inwards meet.
fn touch_point(a: DVec2, b: DVec2, r: f64) -> DVec2 {
    let inwards = |d: DVec2, other: DVec2| {
        let n = d.perp().normalize();
        if n.dot(other) < 0.0 { -n } else { n }
    };
    let (na, nb) = (inwards(a, b), inwards(b, a));
    // na·p = r and nb·p = r (both lines pass through the origin), by Cramer's rule.
    let det = na.perp_dot(nb);
    DVec2::new(r * (nb.y - na.y), r * (na.x - nb.x)) / det
}

/// What the random two-surface contacts of one path did.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnergyFigures {
    /// Cases run.
    pub cases: u32,
    /// The largest |E/E₀ − 1| at any step end.
    pub worst: f64,
    /// The deepest the ball sat inside a wall at a step end, relative to its radius.
    pub deepest: f32,
    /// Cases in which the ball reached the bounce cap.
    pub capped: u32,
}

/// [`ENERGY_CASES`] elastic balls, each aimed through the place that touches both walls of
/// a random V (opening, orientation, aim, speed, phase of the step), on `path`.
pub fn two_surface_energy(path: Path) -> EnergyFigures {
    let mut rng = StdRng::seed_from_u64(ENERGY_SEED);
    let dt = 1.0 / HZ;
    let r = f64::from(RADIUS);
    let mut figures = EnergyFigures {
        cases: ENERGY_CASES,
        ..EnergyFigures::default()
    };
    for _ in 0..ENERGY_CASES {
        let half = rng.random_range(OPENING_RANGE).to_radians() / 2.0;
        let axis = DVec2::from_angle(rng.random_range(0.0..std::f64::consts::TAU));
        let speed = rng.random_range(SPEED_RANGE);
        let arrival = rng.random_range(ARRIVAL_RANGE);
        let aim = axis.rotate(DVec2::from_angle(
            rng.random_range(-AIM_SPREAD..AIM_SPREAD) * half,
        ));
        let length = r / half.sin() + f64::from(WALL_REACH_STEPS) * speed * f64::from(dt);
        let ends = [half, -half].map(|h| (axis.rotate(DVec2::from_angle(h)) * length).as_vec2());
        let walls = ends.map(|end| Obstacle::segment(Segment::new(Vec2::ZERO, end)));
        let touch = touch_point(ends[0].as_dvec2(), ends[1].as_dvec2(), r);
        let start = touch + aim * speed * f64::from(dt) * arrival;
        let ball = Ball::new(start.as_vec2(), (-aim * speed).as_vec2(), RADIUS);
        let energy_in = ball.velocity.as_dvec2().length_squared();
        let mut run = Run::new(path, &walls, ball, dt, Vec2::ZERO);
        for _ in 0..ENERGY_STEPS {
            run.step();
            let ratio = run.ball.velocity.as_dvec2().length_squared() / energy_in;
            figures.worst = figures.worst.max((ratio - 1.0).abs());
            let circle = Circle::new(run.ball.center, RADIUS);
            for wall in &walls {
                if let Some(p) = penetration(circle, Layers::ALL, wall) {
                    figures.deepest = figures.deepest.max(p.depth / RADIUS);
                }
            }
        }
        figures.capped += u32::from(run.capped);
    }
    figures
}

/// At `e = 1`, a ball that touches both walls of a V at one instant keeps its kinetic
/// energy to 1e-6 at every step end, whatever the opening and the aim, and ends no deeper
/// in a wall than [`penetration_slop`].
#[test]
fn elastic_two_surface_contacts_keep_the_energy() {
    let mut failures = Vec::new();
    for path in PATHS {
        let f = two_surface_energy(path);
        eprintln!(
            "{path:?}: {} cases, worst |E/E₀ − 1| = {:.2e}, deepest in a wall {:.2e} r, {} capped",
            f.cases, f.worst, f.deepest, f.capped
        );
        if f.worst > ENERGY_TOL_REL || f.deepest * RADIUS > penetration_slop(RADIUS) {
            failures.push(format!("{path:?}: {f:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// --- At rest in a V ------------------------------------------------------------------------

/// Gravity, units/s² (about a pinball table's 1,110 mm/s² along its slope).
pub const GRAVITY: f32 = 1_000.0;
/// Steps of the rest test: ten seconds.
pub const REST_STEPS: u32 = 600;
/// The V's of the rest test: (opening, tilt of its axis from straight up), degrees. The
/// tilted right angle still holds the ball: gravity stays between its walls' normals.
pub const REST_VS: [(f32, f32); 5] = [(90.0, 0.0), (90.0, 20.0), (10.0, 0.0), (5.0, 0.0), (1.0, 0.0)];
/// How far the resting ball's centre may move in the whole test, relative to its radius:
/// a thousandth, the crate's scale for "touching" (`PENETRATION_SLOP_REL`,
/// `ALLOWED_OVERLAP_REL`), far below anything visible. The scene keeps f32 rounding far
/// below it (see [`rest_in_v`]).
pub const REST_DRIFT_REL: f32 = 1e-3;
/// The most contacts one step may report for the resting ball: it presses on two walls,
/// each reported once a step as a resting contact (README, "Resting contacts"), or, a
/// step when a contact is met anew, twice.
pub const MAX_REST_CONTACTS: u32 = 4;
/// How far each side of the V reaches from where the ball touches it, in radii.
const REST_SIDE: f32 = 3.0;

/// What a ball resting in a V did.
#[derive(Clone, Copy, Debug, Default)]
pub struct RestFigures {
    /// The farthest its centre got from where it started, relative to its radius.
    pub drift: f32,
    /// The most contacts reported in one step.
    pub most_contacts: u32,
    /// Contacts reported in all.
    pub contacts: u32,
    /// Whether it ever reached the bounce cap.
    pub capped: bool,
}

/// A ball placed at rest touching both sides of a V of `opening` degrees whose axis is
/// tilted `tilt` degrees from straight up, under [`GRAVITY`], for [`REST_STEPS`] at
/// [`HZ`], on `path`. Only the V's sides near the ball are built (each [`REST_SIDE`] radii
/// either side of where the ball touches it, not past the apex): the ball never goes
/// nearer the apex, and short walls keep every coordinate near the ball small. (In a 1° V
/// the apex is 115 radii away; a wall's f32 rounding there, multiplied by `1/sin(α/2)`
/// along the V, would move the place where the ball touches both by about a thousandth
/// of a radius.) That place is computed in f64 from the walls as stored.
pub fn rest_in_v(path: Path, opening: f32, tilt: f32) -> RestFigures {
    let dt = 1.0 / HZ;
    let r = f64::from(RADIUS);
    let half = f64::from(opening / 2.0).to_radians();
    let axis = DVec2::from_angle(f64::from(90.0 + tilt).to_radians());
    // The apex below the origin, where the ball is to rest.
    let apex = -axis * r / half.sin();
    let foot = r / half.tan();
    let walls = [half, -half].map(|h| {
        let along = axis.rotate(DVec2::from_angle(h));
        let near = (foot - f64::from(REST_SIDE) * r).max(0.0);
        let far = foot + f64::from(REST_SIDE) * r;
        Obstacle::segment(Segment::new(
            (apex + along * near).as_vec2(),
            (apex + along * far).as_vec2(),
        ))
    });
    // Where the ball touches both walls as stored: each line moved r towards the origin.
    let line = |w: &Obstacle| match w.shape {
        ObstacleShape::Segment(s) => {
            let (a, b) = (s.a.as_dvec2(), s.b.as_dvec2());
            let n = (b - a).perp().normalize();
            let n = if n.dot(-a) < 0.0 { -n } else { n };
            (n, n.dot(a) + r)
        }
        _ => unreachable!("the V's walls are segments"),
    };
    let ((na, ca), (nb, cb)) = (line(&walls[0]), line(&walls[1]));
    let det = na.perp_dot(nb);
    let touch = DVec2::new(ca * nb.y - cb * na.y, na.x * cb - nb.x * ca) / det;
    let start = touch.as_vec2();
    let mut run = Run::new(
        path,
        &walls,
        Ball::new(start, Vec2::ZERO, RADIUS),
        dt,
        Vec2::new(0.0, -GRAVITY),
    );
    let mut figures = RestFigures::default();
    for _ in 0..REST_STEPS {
        let contacts = run.step();
        figures.contacts += contacts;
        figures.most_contacts = figures.most_contacts.max(contacts);
        figures.drift = figures.drift.max(run.ball.center.distance(start) / RADIUS);
    }
    figures.capped = run.capped;
    figures
}

/// A ball at rest in a V under gravity stays at rest: its centre moves less than
/// [`REST_DRIFT_REL`] of its radius in ten seconds, no step reports more than
/// [`MAX_REST_CONTACTS`] contacts, and it never reaches the bounce cap.
#[test]
fn a_ball_at_rest_in_a_v_stays_at_rest() {
    let mut failures = Vec::new();
    for path in PATHS {
        for (opening, tilt) in REST_VS {
            let f = rest_in_v(path, opening, tilt);
            eprintln!(
                "{path:?}, {opening}° tilted {tilt}°: drift {:.2e} r, at most {} contacts a step \
                 ({} in {REST_STEPS} steps){}",
                f.drift,
                f.most_contacts,
                f.contacts,
                if f.capped { ", capped" } else { "" }
            );
            if f.drift > REST_DRIFT_REL || f.most_contacts > MAX_REST_CONTACTS || f.capped {
                failures.push(format!("{path:?}, {opening}° tilted {tilt}°: {f:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// --- Squeezes ------------------------------------------------------------------------------

/// Angles of the closing plate to the floor, degrees (0: parallel).
pub const PLATE_ANGLES: [f32; 3] = [0.0, 10.0, 30.0];
/// The plate's speed, straight down, units/s.
pub const PLATE_SPEEDS: [f32; 2] = [500.0, 5_000.0];
/// Restitutions of the plate and the floor (the ball is elastic).
pub const SQUEEZE_RESTITUTIONS: [f32; 3] = [1.0, 0.5, 0.0];
/// The ball's speed along the floor, as fractions of the plate's speed. At most a half, so
/// that with the plate at 30° or less the ball never outruns it: `v·sin β < w·cos β`.
pub const SLIDE_FRACTIONS: [f32; 4] = [-0.5, -0.2, 0.2, 0.5];
/// How far past the ball's place on the floor the plate ends its stroke, in radii: it would
/// reach half a radius into the ball if the ball stayed.
const SQUEEZE_DEPTH: f32 = 0.5;
/// The plate's half-length, in radii: longer than the ball moves along the plate, relative
/// to it, before the plate reaches it (under a step at `|slide| + speed·sin β`, at most
/// 1.5 times the plate's speed: 12.5 radii at 5,000 units/s).
const PLATE_HALF: f32 = 15.0;
/// The floor's half-length, in radii: the ball slides far less in the test.
const FLOOR_HALF: f32 = 100.0;
/// Steps after the stroke, with the plate at rest.
const AFTER_STROKE: u32 = 20;
/// How far the fastest speed may exceed the bound, relative: f32 rounding of a velocity
/// through a few contacts is about 1e-7 of it; a hundred times that.
const SQUEEZE_TOL_REL: f64 = 1e-5;

/// What one squeeze did.
#[derive(Clone, Copy, Debug)]
pub struct Squeeze {
    /// The fastest the ball went at any step end.
    pub fastest: f64,
    /// The speed one bounce off the plate would give it: `|v − (1 + e)·((v − u)·n)·n|`, `v`
    /// its velocity before, `u` the plate's, `n` the plate's normal towards it (when it
    /// approaches; `|v|` otherwise).
    pub bound: f64,
    /// Contacts with the plate.
    pub plate_contacts: u32,
}

/// A ball sliding at `slide` units/s along a floor (y = 0) and a plate at `angle` degrees
/// to it closing straight down at `speed`, both of restitution `e`. The stroke is one step
/// at full speed, from where the plate's face ends [`SQUEEZE_DEPTH`] radii past the sliding
/// ball's place (so it reaches the ball late in the step when it is fast, early when it is
/// slow); then the plate stays, [`AFTER_STROKE`] steps. `ball_ball` as in the settings.
pub fn squeeze(angle: f32, speed: f32, e: f32, slide: f32, ball_ball: bool) -> Squeeze {
    let dt = 1.0 / HZ;
    let material = Material::new(e, 0.0);
    let floor = [Obstacle::segment(Segment::new(
        Vec2::new(-FLOOR_HALF * RADIUS, 0.0),
        Vec2::new(FLOOR_HALF * RADIUS, 0.0),
    ))
    .with_material(material)];
    let center = Vec2::new(0.0, RADIUS);
    let mut balls = [Ball::new(center, Vec2::new(slide, 0.0), RADIUS)];
    let (s, c) = angle.to_radians().sin_cos();
    let along = Vec2::new(c, s);
    // The plate's normal towards the ball (below it), and its velocity.
    let normal = Vec2::new(s, -c);
    let velocity = Vec2::new(0.0, -speed);
    // It closes on the sliding ball at `−(v − u)·n`; its face starts the gap that its
    // one-step stroke closes, less the squeeze.
    let closing = -(Vec2::new(slide, 0.0) - velocity).dot(normal);
    let gap = closing * dt - SQUEEZE_DEPTH * RADIUS;
    assert!(gap > 0.0, "the plate must start clear of the ball and reach it");
    let middle = center - normal * (RADIUS + gap);
    let mut plate = Segment::new(
        middle - along * PLATE_HALF * RADIUS,
        middle + along * PLATE_HALF * RADIUS,
    );
    let (v, u, n) = (
        balls[0].velocity.as_dvec2(),
        velocity.as_dvec2(),
        normal.as_dvec2(),
    );
    let approach = (v - u).dot(n).min(0.0);
    let bound = (v - n * (1.0 + f64::from(e)) * approach).length();
    let settings = MultiballSettings {
        ball_ball,
        ..MultiballSettings::default()
    };
    let mut scratch = MultiballScratch::default();
    let mut out = Squeeze {
        fastest: v.length(),
        bound,
        plate_contacts: 0,
    };
    for step in 0..=AFTER_STROKE {
        let drop = if step == 0 { speed * dt } else { 0.0 };
        let moving = MovingObstacle::new(
            Obstacle::segment(plate).with_material(material),
            SegmentMotion {
                pivot: (plate.a + plate.b) / 2.0,
                angle: 0.0,
                pivot_motion: Vec2::new(0.0, -drop),
            },
        );
        step_balls(
            MultiballStep::new(&mut balls, dt, &floor[..]).with_moving(&mut [moving]),
            &settings,
            &mut scratch,
            |contact| out.plate_contacts += u32::from(contact.with == ContactWith::Moving(0)),
        );
        plate = Segment::new(plate.a - Vec2::new(0.0, drop), plate.b - Vec2::new(0.0, drop));
        out.fastest = out.fastest.max(balls[0].velocity.as_dvec2().length());
    }
    out
}

/// Every squeeze: for each, the worst `fastest / bound`, and the squeezes in which the
/// plate never touched the ball.
pub fn squeezes() -> (f64, u32, u32) {
    let (mut worst, mut runs, mut missed) = (0.0_f64, 0, 0);
    for ball_ball in [false, true] {
        for angle in PLATE_ANGLES {
            for speed in PLATE_SPEEDS {
                for e in SQUEEZE_RESTITUTIONS {
                    for fraction in SLIDE_FRACTIONS {
                        let s = squeeze(angle, speed, e, fraction * speed, ball_ball);
                        worst = worst.max(s.fastest / s.bound);
                        missed += u32::from(s.plate_contacts == 0);
                        runs += 1;
                    }
                }
            }
        }
    }
    (worst, runs, missed)
}

/// A plate closing on a ball that slides along a floor never throws it faster than one
/// bounce off the plate would (see [`Squeeze::bound`]), at any step end through the
/// stroke and after; and the plate reaches the ball in every run.
#[test]
fn a_squeeze_never_throws_faster_than_one_bounce_off_the_plate() {
    let (worst, runs, missed) = squeezes();
    eprintln!(
        "{runs} squeezes: fastest / one bounce's speed at worst {worst:.6}; plate missed the ball in {missed}"
    );
    assert_eq!(missed, 0, "the plate never reached the ball in some runs");
    assert!(worst <= 1.0 + SQUEEZE_TOL_REL, "fastest / bound = {worst}");
}
