//! The README's lane gate through the plugin (issue 29, "contacts that compose, part
//! two"): a flap that its spring presses onto its stop, in a lane 50 wide, with a ball of
//! radius 10 at 60 Hz.
//!
//! - **It comes to rest.** Released from fully open, or after a ball has passed, it is back
//!   at rest on its stop (`|ω| <` [`REST_SPIN`]) within [`SETTLE_BOUND`] and stays there.
//! - **A pass adds no energy.** A ball passing the allowed way at 2,000 units/s: in every
//!   step the kinetic energy of ball and gate ends no higher than the ball's at the start
//!   plus the gate's after its spring's push (the only thing in the scene that can add
//!   energy; the walls and the gate are elastic, the stops and the damping take energy).
//! - **Nothing gets through the wrong way.** Balls thrown down the lane at 1,000, 10,000 and
//!   20,000 units/s, at the gate at rest and at the gate still settling after a pass, from
//!   across the lane, straight and slanted, reaching it at different phases of the step,
//!   bouncing up and down the lane for a second: none crosses the gate, none leaves the
//!   lane, and the audit finds no ball inside a wall or the gate.
//!
//! `cargo run -p bevy_circle_ccd --example compose_figures` prints the figures of these
//! scenes (it includes this file).
#![allow(clippy::unwrap_used, reason = "a test: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::{HINGE_LIMIT_SLOP, penetration_slop};
use bevy_circle_ccd::prelude::*;
use common::{Collected, app, collect_hits, steps, wall};

/// Steps per second.
pub const HZ: f64 = 60.0;
/// The lane's width: walls at x = 0 and x = 50.
pub const LANE_WIDTH: f32 = 50.0;
/// How far the lane reaches above and below the gate.
pub const LANE_HALF_LENGTH: f32 = 400.0;
/// The gate's pivot, on the lane's left wall (the README's `Transform`).
pub const GATE_AT: Vec2 = Vec2::new(0.0, 750.0);
/// The flap, from its pivot along +x at angle 0 (the README's segment): across the lane,
/// leaving 10 to the right wall, too little for the ball.
pub const FLAP_LENGTH: f32 = 40.0;
/// The ball's radius.
pub const BALL_RADIUS: f32 = 10.0;
/// The ball's mass: its area, the plugin's default, given explicitly so that the energy
/// below uses the plugin's own figure.
pub const BALL_MASS: f32 = std::f32::consts::PI * BALL_RADIUS * BALL_RADIUS;

/// The README's gate: inertia 1,000, stops at 0 and 1.6 rad (restitution 0.2), a spring to
/// −0.2 rad of 900,000 (so it presses the flap onto its stop at 0), damping 6 /s.
const INERTIA: f32 = 1_000.0;
const STOP_MIN: f32 = 0.0;
const STOP_MAX: f32 = 1.6;
const STOP_RESTITUTION: f32 = 0.2;
const SPRING_REST: f32 = -0.2;
const SPRING_STIFFNESS: f32 = 900_000.0;
const DAMPING: f32 = 6.0;

/// The README's lane gate.
pub fn gate_hinge() -> Hinge {
    Hinge::new(INERTIA)
        .with_stops(STOP_MIN, STOP_MAX, STOP_RESTITUTION)
        .with_spring(SPRING_REST, SPRING_STIFFNESS)
        .with_damping(DAMPING)
}

/// The lane, its gate, and the contacts of the last step.
pub struct Lane {
    /// The app.
    pub app: App,
    /// The gate's entity.
    pub gate: Entity,
    /// The fixed step, seconds, as the plugin reads it.
    pub dt: f32,
}

impl Lane {
    /// A closed lane (walls at x = 0 and 50, ends 400 above and below the gate) with the
    /// gate at rest at `angle`, audited.
    pub fn new(angle: f32) -> Self {
        let mut app = app(HZ);
        app.world_mut().resource_mut::<CcdSettings>().audit = true;
        collect_hits(&mut app);
        let (left, right) = (GATE_AT.x, GATE_AT.x + LANE_WIDTH);
        let (bottom, top) = (GATE_AT.y - LANE_HALF_LENGTH, GATE_AT.y + LANE_HALF_LENGTH);
        wall(&mut app, Vec2::new(left, bottom), Vec2::new(left, top));
        wall(&mut app, Vec2::new(right, bottom), Vec2::new(right, top));
        wall(&mut app, Vec2::new(left, bottom), Vec2::new(right, bottom));
        wall(&mut app, Vec2::new(left, top), Vec2::new(right, top));
        let mut hinge = gate_hinge();
        hinge.angle = angle;
        let gate = app
            .world_mut()
            .spawn((
                StaticSegment::new(Vec2::ZERO, Vec2::new(FLAP_LENGTH, 0.0)),
                hinge,
                Transform::from_translation(GATE_AT.extend(0.0)).with_rotation(Quat::from_rotation_z(angle)),
            ))
            .id();
        let dt = app.world().resource::<Time<Fixed>>().timestep().as_secs_f32();
        Self { app, gate, dt }
    }

    /// The gate's hinge, as the last step left it.
    pub fn hinge(&self) -> Hinge {
        *self.app.world().get::<Hinge>(self.gate).unwrap()
    }

    /// A ball at `at` moving at `velocity`.
    pub fn ball(&mut self, at: Vec2, velocity: Vec2) -> Entity {
        self.app
            .world_mut()
            .spawn((
                MovingCircle::new(BALL_RADIUS, velocity),
                CcdMass(BALL_MASS),
                Transform::from_translation(at.extend(0.0)),
            ))
            .id()
    }

    /// Ball `b`'s centre and velocity.
    pub fn state(&self, b: Entity) -> (Vec2, Vec2) {
        let world = self.app.world();
        let at = world.get::<Transform>(b).unwrap().translation.truncate();
        (at, world.get::<MovingCircle>(b).unwrap().velocity)
    }

    /// One step; the contacts of ball `b` with the gate in it.
    pub fn step(&mut self, b: Option<Entity>) -> u32 {
        steps(&mut self.app, 1);
        let hits = std::mem::take(&mut self.app.world_mut().resource_mut::<Collected>().0);
        let gate = self.gate;
        hits.iter()
            .filter(|h| Some(h.circle) == b && h.other == gate && !h.sensor)
            .count() as u32
    }

    /// Whether the gate is at rest on its stop.
    pub fn at_rest(&self) -> bool {
        let h = self.hinge();
        h.angular_velocity.abs() < REST_SPIN && (h.angle - STOP_MIN).abs() <= HINGE_LIMIT_SLOP
    }

    /// Faults the audit found so far.
    pub fn faults(&self) -> u64 {
        self.app.world().resource::<CcdFaults>().count
    }

    /// Whether a ball centred at `p` is outside the lane by more than the penetration slop.
    pub fn outside(p: Vec2) -> bool {
        let slop = penetration_slop(BALL_RADIUS);
        let min = Vec2::new(GATE_AT.x, GATE_AT.y - LANE_HALF_LENGTH) + Vec2::splat(BALL_RADIUS - slop);
        let max =
            Vec2::new(GATE_AT.x + LANE_WIDTH, GATE_AT.y + LANE_HALF_LENGTH) - Vec2::splat(BALL_RADIUS - slop);
        !(p.cmpge(min).all() && p.cmple(max).all())
    }
}

// --- A ball passing the allowed way --------------------------------------------------------

/// The speed of a ball passing the allowed way, up the lane, units/s.
pub const PASS_SPEED: f32 = 2_000.0;
/// Where across the lane passing balls start (the ball's centre can be from 10 to 40).
const PASS_XS: [f32; 5] = [12.0, 18.0, 25.0, 32.0, 38.0];
/// Their slants from straight up, radians.
const PASS_SLANTS: [f32; 3] = [-0.2, 0.0, 0.2];
/// The phases of the step at which they reach the gate's line (fractions of a step).
const PASS_PHASES: [f32; 2] = [0.0, 0.5];
/// Steps of each pass run: a second, in which the ball passes, bounces off the lane's top
/// and comes back down onto the gate, several times.
const PASS_STEPS: u32 = 60;
/// How far the kinetic energy may end above the bound, relative: a step's contacts round
/// the f32 velocities a few times, about 1e-7 of the energy each.
const ENERGY_TOL_REL: f64 = 1e-6;

/// Where a ball at `x` across the lane starts to reach the gate's line (its centre a radius
/// from the closed flap) after `steps` of moving at `velocity`, from below (moving up) or
/// above, `clearance` further out. Only its height is set by the time: bounces off the
/// lane's sides do not change its speed along the lane.
fn start(x: f32, velocity: Vec2, dt: f32, steps: f32, clearance: f32) -> Vec2 {
    let line = if velocity.y > 0.0 {
        GATE_AT.y - BALL_RADIUS - clearance
    } else {
        GATE_AT.y + BALL_RADIUS + clearance
    };
    Vec2::new(x, line - velocity.y * dt * steps)
}

/// What passes did to the energy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassFigures {
    /// Runs.
    pub runs: u32,
    /// Runs in which the ball got past the gate.
    pub passed: u32,
    /// The largest ratio of the kinetic energy at a step's end to the ball's at its start
    /// plus the gate's after its spring's push.
    pub energy_ratio: f64,
    /// The largest ratio of the ball's speed at the end of a step with a gate contact to
    /// its speed at the start.
    pub speed_ratio: f32,
}

/// The spring's push at the start of a step, from the gate's angle and angular velocity at
/// the end of the last one (semi-implicit Euler, before the damping's decay and the stops'
/// hold, which only slow it): the fastest the gate can turn through the step before a ball
/// touches it.
fn after_spring(h: &Hinge, dt: f32) -> f64 {
    let (w, angle) = (f64::from(h.angular_velocity), f64::from(h.angle));
    w - f64::from(SPRING_STIFFNESS) * (angle - f64::from(SPRING_REST)) * f64::from(dt) / f64::from(INERTIA)
}

/// Kinetic energy of a ball at `v` and a gate turning at `w`.
fn kinetic(v: Vec2, w: f64) -> f64 {
    0.5 * f64::from(BALL_MASS) * v.as_dvec2().length_squared() + 0.5 * f64::from(INERTIA) * w * w
}

/// One pass: a ball up the lane at [`PASS_SPEED`] from `x`, slanted `slant`, reaching the
/// gate's line at `phase` of its second step, for [`PASS_STEPS`]. Returns (whether it got
/// past, the largest energy ratio, the largest speed ratio at a gate contact).
pub fn pass(x: f32, slant: f32, phase: f32) -> (bool, f64, f32) {
    let mut lane = Lane::new(STOP_MIN);
    let velocity = Vec2::new(slant.sin(), slant.cos()) * PASS_SPEED;
    let b = lane.ball(start(x, velocity, lane.dt, 1.0 + phase, 0.0), velocity);
    let (mut passed, mut energy_ratio, mut speed_ratio) = (false, 0.0_f64, 0.0_f32);
    for _ in 0..PASS_STEPS {
        let (_, v0) = lane.state(b);
        let bound = kinetic(v0, after_spring(&lane.hinge(), lane.dt));
        let contacts = lane.step(Some(b));
        let (p, v1) = lane.state(b);
        let energy = kinetic(v1, f64::from(lane.hinge().angular_velocity));
        energy_ratio = energy_ratio.max(energy / bound);
        if contacts > 0 {
            speed_ratio = speed_ratio.max(v1.length() / v0.length());
        }
        passed |= p.y > GATE_AT.y + BALL_RADIUS;
    }
    (passed, energy_ratio, speed_ratio)
}

/// Every pass of the test.
pub fn passes() -> PassFigures {
    let mut f = PassFigures::default();
    for x in PASS_XS {
        for slant in PASS_SLANTS {
            for phase in PASS_PHASES {
                let (passed, energy, speed) = pass(x, slant, phase);
                f.runs += 1;
                f.passed += u32::from(passed);
                f.energy_ratio = f.energy_ratio.max(energy);
                f.speed_ratio = f.speed_ratio.max(speed);
            }
        }
    }
    f
}

/// A ball passing the allowed way at 2,000 units/s gets through, and in no step do ball
/// and gate end with more kinetic energy than the ball had at its start plus the gate
/// after its spring's push (to [`ENERGY_TOL_REL`]): so over the run never more than the
/// ball's start plus what the spring put in.
#[test]
fn a_pass_adds_no_energy_beyond_the_spring() {
    let f = passes();
    eprintln!(
        "{} passes, {} through; largest energy ratio {:.9}, largest speed ratio at a gate contact {:.6}",
        f.runs, f.passed, f.energy_ratio, f.speed_ratio
    );
    assert_eq!(f.passed, f.runs, "a ball did not get through the allowed way");
    assert!(
        f.energy_ratio <= 1.0 + ENERGY_TOL_REL,
        "energy ratio {}",
        f.energy_ratio
    );
}

// --- It comes to rest ----------------------------------------------------------------------

/// Below this angular velocity (rad/s) the gate is at rest.
pub const REST_SPIN: f32 = 1e-3;
/// How soon the gate must be at rest for good, seconds. By hand: released from fully open,
/// the spring (ω = √(900,000/1,000) = 30 rad/s) brings it onto its stop in about 0.05 s at
/// 47 rad/s; the stop returns a fifth, and each rebound under the spring's 180 rad/s² of
/// preload lasts 2ω/180 s: 0.10 s, 0.02 s, … , about 0.2 s in all. A second is five times
/// that.
pub const SETTLE_BOUND: f32 = 1.0;
/// Steps of each settling run: three seconds, two past the bound.
const SETTLE_STEPS: u32 = 180;
/// Steps allowed for a passing ball to get past the open flap's reach.
const PASS_LIMIT: u32 = 120;

/// When the gate is at rest for good: the time from the first step of `rest` (whether it
/// was at rest after each step) after which every step ends at rest, or `None` if the last
/// did not.
fn settled_after(rest: &[bool], dt: f32) -> Option<f32> {
    match rest.iter().rposition(|r| !r) {
        None => Some(0.0),
        Some(k) if k + 1 < rest.len() => Some((k + 1) as f32 * dt),
        Some(_) => None,
    }
}

/// Released from fully open, at rest: the time until it is at rest on its stop for good.
pub fn settle_from_open() -> Option<f32> {
    let mut lane = Lane::new(STOP_MAX);
    let rest: Vec<bool> = (0..SETTLE_STEPS)
        .map(|_| {
            lane.step(None);
            lane.at_rest()
        })
        .collect();
    settled_after(&rest, lane.dt)
}

/// A ball through the gate at [`PASS_SPEED`] up the middle of the lane, taken away once it
/// is past the open flap's reach; returned once that is done and the gate has first landed
/// back on its stop (its angular velocity, negative on the way back, is no longer), with
/// the steps since the gate first left its stop.
fn after_a_pass() -> (Lane, u32) {
    let mut lane = Lane::new(STOP_MIN);
    let velocity = Vec2::Y * PASS_SPEED;
    let mut ball = Some(lane.ball(start(LANE_WIDTH / 2.0, velocity, lane.dt, 1.5, 0.0), velocity));
    let (mut opened, mut landed, mut spin) = (None, false, 0.0);
    for k in 0..PASS_LIMIT {
        lane.step(ball);
        let h = lane.hinge();
        if opened.is_none() && !lane.at_rest() {
            opened = Some(k);
        }
        landed |= opened.is_some() && spin < 0.0 && h.angular_velocity >= 0.0;
        spin = h.angular_velocity;
        if let Some(b) = ball
            && lane.state(b).0.y > GATE_AT.y + FLAP_LENGTH + BALL_RADIUS
        {
            lane.app.world_mut().despawn(b);
            ball = None;
        }
        if let (None, true, Some(first)) = (ball, landed, opened) {
            return (lane, k + 1 - first);
        }
    }
    panic!("in {PASS_LIMIT} steps the ball did not get past the gate, or the gate did not come back");
}

/// After a ball's pass: the time from the gate's leaving its stop until it is at rest on it
/// for good.
pub fn settle_after_pass() -> Option<f32> {
    let (mut lane, since_opened) = after_a_pass();
    // The steps from the opening on count as not at rest.
    let mut rest = vec![false; since_opened as usize];
    for _ in 0..SETTLE_STEPS {
        lane.step(None);
        rest.push(lane.at_rest());
    }
    settled_after(&rest, lane.dt)
}

/// Left alone on its stop: the time until it is at rest for good (0: always).
pub fn settle_untouched() -> Option<f32> {
    let mut lane = Lane::new(STOP_MIN);
    let rest: Vec<bool> = (0..SETTLE_STEPS)
        .map(|_| {
            lane.step(None);
            lane.at_rest()
        })
        .collect();
    settled_after(&rest, lane.dt)
}

/// A gate that its spring pushes onto its stop comes to rest there (`|ω| <` [`REST_SPIN`],
/// on the stop to `HINGE_LIMIT_SLOP`) within [`SETTLE_BOUND`] and stays at rest to the end
/// of three seconds: released from fully open, and after a ball's pass. Left on its stop
/// it never moves.
#[test]
fn a_gate_pushed_onto_its_stop_comes_to_rest() {
    let (open, pass, untouched) = (settle_from_open(), settle_after_pass(), settle_untouched());
    eprintln!("settles: from open {open:?} s, after a pass {pass:?} s, untouched {untouched:?} s");
    for (what, t) in [("from open", open), ("after a pass", pass)] {
        assert!(
            t.is_some_and(|t| t <= SETTLE_BOUND),
            "{what}: at rest for good after {t:?} s, not within {SETTLE_BOUND} s"
        );
    }
    assert_eq!(untouched, Some(0.0), "the untouched gate moved");
}

// --- Wrong-way throws ----------------------------------------------------------------------

/// Speeds of the wrong-way throws, units/s.
pub const THROW_SPEEDS: [f32; 3] = [1_000.0, 10_000.0, 20_000.0];
/// Where across the lane the throws at the gate at rest start.
const REST_XS: [f32; 5] = [11.0, 18.0, 25.0, 32.0, 39.0];
/// Their slants from straight down, radians.
const THROW_SLANTS: [f32; 3] = [-0.3, 0.0, 0.3];
/// The phases of the step at which they reach the gate's line (fractions of a step).
const REST_PHASES: [f32; 4] = [0.0, 0.25, 0.5, 0.75];
/// Steps after the gate first lands back on its stop after a pass at which the throws at
/// the settling gate start (by hand it rebounds off the stop to about 0.13 rad, far too
/// little for the ball to pass: the gap to the right wall stays under 20 until 0.72 rad;
/// [`ThrowOutcome::widest`] measures it).
const SETTLING_DELAYS: [u32; 6] = [0, 1, 2, 3, 5, 8];
/// Where across the lane the throws at the settling gate start.
const SETTLING_XS: [f32; 3] = [11.0, 25.0, 39.0];
/// Their phases.
const SETTLING_PHASES: [f32; 2] = [0.0, 0.5];
/// How far above the closed flap's reach a throw starts: the open flap's length, so that
/// it starts clear of a gate still open.
const THROW_CLEARANCE: f32 = FLAP_LENGTH;
/// Steps of each throw: a second of bouncing up and down the lane, onto the gate again and
/// again at whatever phases the lane's length gives.
const THROW_STEPS: u32 = 60;

/// One wrong-way throw.
#[derive(Clone, Copy, Debug)]
pub struct Throw {
    /// Speed, units/s.
    pub speed: f32,
    /// Start across the lane.
    pub x: f32,
    /// Slant from straight down, radians.
    pub slant: f32,
    /// It starts [`THROW_CLEARANCE`] above the closed flap's reach plus the travel of this
    /// fraction of a step: it is back at that height this far into its first step. (Its
    /// arrival at the flap then falls at another phase at each speed.)
    pub phase: f32,
    /// At the gate at rest (`None`), or this many steps after it first lands back on its
    /// stop after a ball's pass.
    pub after_pass: Option<u32>,
}

/// What a throw did.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThrowOutcome {
    /// It crossed the gate's line (its centre below the closed flap).
    pub crossed: bool,
    /// Its centre left the lane (by more than the penetration slop).
    pub left_lane: bool,
    /// Contacts with the gate.
    pub gate_contacts: u32,
    /// Audit faults (a ball inside a wall or the gate).
    pub faults: u64,
    /// The widest the gate was open at a step end of the throw, radians.
    pub widest: f32,
}

/// Throw one ball down the lane.
pub fn throw(t: Throw) -> ThrowOutcome {
    let mut lane = match t.after_pass {
        None => Lane::new(STOP_MIN),
        Some(delay) => {
            // Back on its stop: the rebounds follow.
            let (mut lane, _) = after_a_pass();
            for _ in 0..delay {
                lane.step(None);
            }
            lane
        }
    };
    let velocity = Vec2::new(t.slant.sin(), -t.slant.cos()) * t.speed;
    let b = lane.ball(start(t.x, velocity, lane.dt, t.phase, THROW_CLEARANCE), velocity);
    let mut out = ThrowOutcome::default();
    for _ in 0..THROW_STEPS {
        out.gate_contacts += lane.step(Some(b));
        out.widest = out.widest.max(lane.hinge().angle);
        let (p, _) = lane.state(b);
        out.left_lane |= Lane::outside(p);
        if p.y < GATE_AT.y {
            out.crossed = true;
            break;
        }
    }
    out.faults = lane.faults();
    out
}

/// The throws of the test at `speed`: at the gate at rest, then at the gate settling.
pub fn throws(speed: f32) -> Vec<Throw> {
    let mut list = Vec::new();
    for x in REST_XS {
        for slant in THROW_SLANTS {
            for phase in REST_PHASES {
                list.push(Throw {
                    speed,
                    x,
                    slant,
                    phase,
                    after_pass: None,
                });
            }
        }
    }
    for delay in SETTLING_DELAYS {
        for x in SETTLING_XS {
            for phase in SETTLING_PHASES {
                list.push(Throw {
                    speed,
                    x,
                    slant: 0.0,
                    phase,
                    after_pass: Some(delay),
                });
            }
        }
    }
    list
}

/// Totals over the throws at one speed.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThrowFigures {
    /// Throws.
    pub throws: u32,
    /// Throws that crossed the gate.
    pub crossed: u32,
    /// Throws that left the lane.
    pub left_lane: u32,
    /// Throws that never touched the gate.
    pub missed: u32,
    /// Audit faults over all of them.
    pub faults: u64,
    /// The widest the gate was open at a step end of any of them, radians.
    pub widest: f32,
}

/// Every throw at `speed`, totalled.
pub fn throw_figures(speed: f32) -> ThrowFigures {
    let mut f = ThrowFigures::default();
    for t in throws(speed) {
        let o = throw(t);
        f.throws += 1;
        f.crossed += u32::from(o.crossed);
        f.left_lane += u32::from(o.left_lane);
        f.missed += u32::from(o.gate_contacts == 0);
        f.faults += o.faults;
        f.widest = f.widest.max(o.widest);
    }
    f
}

/// Thrown the wrong way at 1,000, 10,000 and 20,000 units/s, at the gate at rest and
/// settling after a pass: no ball crosses the gate, none leaves the lane, the audit finds
/// no fault, and every throw reaches the gate.
#[test]
fn nothing_gets_through_the_wrong_way() {
    let mut failures = Vec::new();
    for speed in THROW_SPEEDS {
        let f = throw_figures(speed);
        eprintln!(
            "{speed} units/s: {} of {} throws crossed, {} left the lane, {} missed the gate, {} faults; \
             gate open at most {:.4} rad",
            f.crossed, f.throws, f.left_lane, f.missed, f.faults, f.widest
        );
        if f.crossed > 0 || f.left_lane > 0 || f.missed > 0 || f.faults > 0 {
            failures.push(format!("{speed} units/s: {f:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
