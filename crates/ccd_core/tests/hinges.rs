//! Hinged bodies in `step_balls`: the impulse exchange by hand, conservation, a spinner's
//! turn, a one-way gate, a motorised flipper, no ball through a spinning arm, and
//! determinism.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, HINGE_LIMIT_SLOP, HingeBody, HingeDrive, HingeLimits, HingeMotor, HingeSpring, Material,
    MovingObstacle, MultiballReport, MultiballScratch, MultiballSettings, MultiballStep, Obstacle,
    ObstacleShape, Segment, SegmentMotion, Vec2, step_balls,
};

/// A hinged arm as a game drives it: its pose at angle 0, its state, and its drive.
#[derive(Clone, Copy, Debug)]
struct Arm {
    pivot: Vec2,
    /// The segment at angle 0.
    rest: Segment,
    body: HingeBody,
    drive: HingeDrive,
    material: Material,
    angle: f32,
    spin: f32,
    /// The moving obstacle after the last step.
    last: Option<MovingObstacle>,
}

impl Arm {
    fn new(pivot: Vec2, tip: Vec2, inertia: f32) -> Self {
        Self {
            pivot,
            rest: Segment::new(pivot, tip),
            body: HingeBody::new(0, inertia, 0.0),
            drive: HingeDrive::default(),
            material: Material::ELASTIC,
            angle: 0.0,
            spin: 0.0,
            last: None,
        }
    }

    /// The moving obstacle for a step of `dt`, after the drive.
    fn moving(&mut self, dt: f32) -> MovingObstacle {
        let body = HingeBody {
            angle: self.angle,
            ..self.body
        };
        self.spin = self.drive.angular_velocity_after(&body, self.spin, dt);
        let segment = self.segment();
        let motion = SegmentMotion {
            pivot: self.pivot,
            angle: self.spin * dt,
            pivot_motion: Vec2::ZERO,
        };
        MovingObstacle::new(Obstacle::segment(segment).with_material(self.material), motion).with_hinge(body)
    }

    /// Step `balls` and the arm by `dt` against `walls`.
    fn step(
        &mut self,
        balls: &mut [Ball],
        walls: &[Obstacle],
        dt: f32,
        scratch: &mut MultiballScratch,
    ) -> MultiballReport {
        let mut moving = [self.moving(dt)];
        let settings = MultiballSettings {
            resting_speed: 0.0,
            ..Default::default()
        };
        let report = step_balls(
            MultiballStep::new(balls, dt, walls).with_moving(&mut moving),
            &settings,
            scratch,
            |_| {},
        );
        self.angle = moving[0].end_angle().unwrap();
        self.spin = moving[0].angular_velocity(dt);
        self.last = Some(moving[0]);
        report
    }

    /// The arm's segment now.
    fn segment(&self) -> Segment {
        let turn = Vec2::from_angle(self.angle);
        Segment::new(
            self.pivot + turn.rotate(self.rest.a - self.pivot),
            self.pivot + turn.rotate(self.rest.b - self.pivot),
        )
    }
}

fn ball(center: Vec2, velocity: Vec2, radius: f32, mass: f32) -> Ball {
    Ball {
        inverse_mass: 1.0 / mass,
        ..Ball::new(center, velocity, radius)
    }
}

/// Kinetic energy of the ball and the arm, angular momentum about the pivot, and the
/// size of that momentum's two parts (the scale its rounding is relative to).
fn energy_and_momentum(b: &Ball, arm: &Arm) -> (f64, f64, f64) {
    let m = 1.0 / f64::from(b.inverse_mass);
    let inertia = 1.0 / f64::from(arm.body.inverse_inertia);
    let v = b.velocity.as_dvec2();
    let w = f64::from(arm.spin);
    let energy = 0.5 * m * v.length_squared() + 0.5 * inertia * w * w;
    let r = (b.center - arm.pivot).as_dvec2();
    let (ball, body) = (m * r.perp_dot(v), inertia * w);
    (energy, ball + body, ball.abs() + body.abs())
}

/// A ball of mass 1 falls at 100 onto a free arm of inertia 2,500 at lever 50, halfway
/// through a step of 0.1 s: `1/m + d²/I = 2`, so `J = (1 + e)·100 / 2`, the ball's
/// velocity becomes `−100 + J` and the arm's `ω = −d·J/I`.
#[test]
fn single_impacts_by_hand() {
    for (e, ball_after, spin_after) in [(1.0, 0.0, -2.0), (0.5, -25.0, -1.5)] {
        let mut arm = Arm::new(Vec2::ZERO, Vec2::new(100.0, 0.0), 2500.0);
        arm.material = Material::new(e, 0.0);
        let mut balls = [ball(Vec2::new(50.0, 6.0), Vec2::new(0.0, -100.0), 1.0, 1.0)];
        let mut scratch = MultiballScratch::default();
        let report = arm.step(&mut balls, &[], 0.1, &mut scratch);
        assert_eq!(report.hinge_impacts, 1);
        // The gap of 5 closes at 100: contact at 0.05 s, at y = 1; then 0.05 s at the new speed.
        assert!(
            (balls[0].velocity - Vec2::new(0.0, ball_after)).length() < 1e-3,
            "e = {e}: {:?}",
            balls[0].velocity
        );
        assert!((balls[0].center - Vec2::new(50.0, 1.0 + ball_after * 0.05)).length() < 1e-3);
        assert!((arm.spin - spin_after).abs() < 1e-5, "e = {e}: ω = {}", arm.spin);
        assert!(
            (arm.angle - spin_after * 0.05).abs() < 1e-5,
            "turned only after the impact: {}",
            arm.angle
        );
        // The step leaves the obstacle where that angle puts it.
        let end = match arm.last.unwrap().at_end().shape {
            ObstacleShape::Segment(s) => s,
            _ => unreachable!(),
        };
        let tip = Vec2::from_angle(spin_after * 0.05) * 100.0;
        assert!(
            end.a.length() < 1e-4 && (end.b - tip).length() < 1e-3,
            "ended at {end:?}, not at {tip:?}"
        );
    }
}

/// Relative change of the kinetic energy, and of the angular momentum about the pivot, that
/// one elastic impact may leave (the README's figure): the impulse is exact in f64, and
/// only the f32 rounding of the stored velocity, spin and centre is left, 2^-24 ≈ 6e-8 of
/// each, doubled in a square: 1.5e-7 is two and a half of those roundings.
const CONSERVATION_TOL: f64 = 1.5e-7;

/// With e = 1 and no friction an impact keeps the kinetic energy of ball and arm, and the
/// angular momentum about the pivot, to [`CONSERVATION_TOL`], over many impacts at
/// different levers, angles and arm speeds.
#[test]
fn elastic_impacts_conserve_energy_and_angular_momentum() {
    let mut checked = 0;
    let (mut worst_energy, mut worst_momentum) = (0.0_f64, 0.0_f64);
    for k in 0..200 {
        let f = k as f32;
        let lever = 20.0 + (f * 7.3) % 75.0;
        let speed = 50.0 + (f * 37.1) % 900.0;
        let slant = -0.6 + (f * 0.173) % 1.2;
        let spin = -3.0 + (f * 0.61) % 6.0;
        let inertia = 500.0 + (f * 311.0) % 20_000.0;
        let mass = 0.5 + (f * 0.37) % 4.0;
        let mut arm = Arm::new(Vec2::ZERO, Vec2::new(100.0, 0.0), inertia);
        arm.spin = spin;
        let direction = Vec2::new(slant.sin(), -slant.cos());
        let start = Vec2::new(lever, 1.0) - direction * speed * 0.004;
        let mut balls = [ball(start, direction * speed, 1.0, mass)];
        let before = energy_and_momentum(&balls[0], &arm);
        let mut scratch = MultiballScratch::default();
        let report = arm.step(&mut balls, &[], 0.01, &mut scratch);
        if report.hinge_impacts != 1 {
            continue;
        }
        checked += 1;
        let after = energy_and_momentum(&balls[0], &arm);
        worst_energy = worst_energy.max(((after.0 - before.0) / before.0).abs());
        worst_momentum = worst_momentum.max(((after.1 - before.1) / before.2).abs());
        assert!(
            ((after.0 - before.0) / before.0).abs() < CONSERVATION_TOL,
            "case {k}: energy {before:?} → {after:?}"
        );
        let scale = before.2;
        assert!(
            ((after.1 - before.1) / scale).abs() < CONSERVATION_TOL,
            "case {k}: momentum {before:?} → {after:?}"
        );
    }
    assert!(checked >= 150, "only {checked} cases had exactly one impact");
    println!(
        "{checked} impacts: worst energy change {worst_energy:.2e}, worst angular momentum change {worst_momentum:.2e} (relative)"
    );
}

/// A free spinner with damping c = 0.2/s, hit once: a ball of mass 1 at 200 across an arm
/// of inertia 2,000 at lever 90. `1/m + d²/I = 5.05`, `J = 2·200/5.05`, so it spins at
/// `ω₀ = −90·J/2000 = −3.564 rad/s` and, in continuous time, turns `ω₀/c = −17.82 rad`
/// (2.84 turns) in all. The drive here holds each step's end spin `ω₀·qᵏ` (`q = e^(−c·dt)`)
/// through the step, so the arm turns the geometric sum `ω₀·dt·q/(1 − q)·(1 − q^N)` over
/// the `N` steps after the impact: `ω₀·dt/(e^(c·dt) − 1) = −17.814 rad`, 0.04 % less.
#[test]
fn spinner_turns_the_hand_computed_angle() {
    let mut arm = Arm::new(Vec2::ZERO, Vec2::new(100.0, 0.0), 2000.0);
    arm.drive.damping = 0.2;
    let mut balls = [ball(Vec2::new(90.0, 20.0), Vec2::new(0.0, -200.0), 5.0, 1.0)];
    let mut scratch = MultiballScratch::default();
    let dt = 1.0 / 240.0;
    let steps = (60.0 / dt) as usize;
    let mut impacts = 0;
    for _ in 0..steps {
        impacts += arm.step(&mut balls, &[], dt, &mut scratch).hinge_impacts;
    }
    let j = 2.0 * 200.0 / (1.0 + 90.0 * 90.0 / 2000.0);
    let omega0: f64 = -90.0 * j / 2000.0;
    let (c, dt64) = (0.2_f64, f64::from(dt));
    // The gap of 20 − 5 closes at 200 in 0.075 s: after 18 steps exactly.
    let turning_steps = steps - 18;
    let q = (-c * dt64).exp();
    let expected = omega0 * dt64 * q / (1.0 - q) * (1.0 - q.powi(turning_steps as i32));
    assert!((omega0 / c + 17.82).abs() < 5e-3, "ω₀/c = {}", omega0 / c);
    assert!((expected + 17.814).abs() < 5e-4, "the geometric sum {expected}");
    assert_eq!(impacts, 1, "the ball leaves before the arm comes round");
    // The impact falls on a step boundary, so whether the arm turns in the step that ends
    // there or only from the next one is f32's choice: one step's turn, |ω₀|·dt.
    assert!(
        (f64::from(arm.angle) - expected).abs() <= omega0.abs() * dt64,
        "turned {} rad, expected {expected}",
        arm.angle
    );
    assert!(
        arm.spin.abs() < 1e-3 * omega0.abs() as f32,
        "still spinning at {}",
        arm.spin
    );
}

/// A lane 60 wide (walls at x = 0 and 60) with a gate across it at y = 0: an arm of 56
/// from a pivot on the left wall, limits [0, 1.6] rad, a spring back to 0 and damping.
fn gate_lane() -> (Arm, Vec<Obstacle>) {
    let mut arm = Arm::new(Vec2::new(0.0, 0.0), Vec2::new(56.0, 0.0), 5.0);
    arm.body = arm
        .body
        .with_limits(HingeLimits::new(0.0, 1.6).with_restitution(0.3));
    arm.drive = HingeDrive {
        damping: 2.0,
        spring: Some(HingeSpring {
            rest_angle: -0.2,
            stiffness: 2_000.0,
        }),
        motor: None,
    };
    arm.material = Material::new(0.5, 0.0);
    let wall = |a: Vec2, b: Vec2| Obstacle::segment(Segment::new(a, b));
    let walls = vec![
        wall(Vec2::new(0.0, -400.0), Vec2::new(0.0, 400.0)),
        wall(Vec2::new(60.0, -400.0), Vec2::new(60.0, 400.0)),
        wall(Vec2::new(0.0, 400.0), Vec2::new(60.0, 400.0)),
        wall(Vec2::new(0.0, -400.0), Vec2::new(60.0, -400.0)),
    ];
    (arm, walls)
}

/// Backwards, at up to 10 m/s (10,000 mm/s) and from anywhere across the lane, a ball
/// never gets past the gate (its rest stop holds it), and the gate never turns below
/// its stop.
#[test]
fn one_way_gate_holds_backwards() {
    for k in 0..40 {
        let (mut arm, walls) = gate_lane();
        let x = 12.0 + (k % 8) as f32 * 5.0;
        let speed = 1_000.0 + (k / 8) as f32 * 2_250.0;
        let slant = ((k % 5) as f32 - 2.0) * 0.2;
        let velocity = Vec2::new(slant.sin(), -slant.cos()) * speed;
        let mut balls = [ball(Vec2::new(x, 150.0), velocity, 10.0, 0.08)];
        let mut scratch = MultiballScratch::default();
        let dt = 1.0 / 240.0;
        for step in 0..480 {
            arm.step(&mut balls, &walls, dt, &mut scratch);
            let b = balls[0];
            assert!(
                b.center.y > 0.0,
                "case {k} (x {x}, speed {speed}): through at step {step}: {:?}",
                b.center
            );
            assert!(
                arm.angle >= -HINGE_LIMIT_SLOP,
                "case {k}: the gate turned to {} below its stop",
                arm.angle
            );
        }
    }
}

/// Forwards, a ball at 2 m/s opens the gate, passes, and the gate swings back shut.
#[test]
fn one_way_gate_opens_forwards_and_shuts() {
    let (mut arm, walls) = gate_lane();
    let mut balls = [ball(Vec2::new(30.0, -150.0), Vec2::new(0.0, 2_000.0), 10.0, 0.08)];
    let mut scratch = MultiballScratch::default();
    let dt = 1.0 / 240.0;
    let mut opened: f32 = 0.0;
    let mut passed_at = None;
    for step in 0..960 {
        arm.step(&mut balls, &walls, dt, &mut scratch);
        opened = opened.max(arm.angle);
        if passed_at.is_none() && balls[0].center.y > 20.0 {
            passed_at = Some(step);
        }
        // Past the gate, keep the ball up in the lane (it would come back down and bounce
        // off the shut gate, which is the other test).
        if balls[0].center.y > 200.0 {
            balls[0].velocity = Vec2::ZERO;
        }
    }
    assert!(
        passed_at.is_some(),
        "the ball never got through; the gate opened to {opened}"
    );
    assert!(opened > 0.5, "opened only to {opened} rad");
    assert!(arm.angle.abs() < 1e-3, "the gate did not shut: {}", arm.angle);
    assert!(balls[0].center.y > 20.0);
}

/// At its stop and hit from behind, the gate is a wall: the ball leaves at `e·v` (0.5).
#[test]
fn gate_at_its_stop_bounces_like_a_wall() {
    let (mut arm, walls) = gate_lane();
    let mut balls = [ball(Vec2::new(30.0, 30.0), Vec2::new(0.0, -1_000.0), 10.0, 0.08)];
    let mut scratch = MultiballScratch::default();
    for _ in 0..10 {
        arm.step(&mut balls, &walls, 1.0 / 240.0, &mut scratch);
    }
    // 0.5·1,000 and the reflection −1000 − 1.5·(−1000) are exact in f32: exactly (0, 500).
    assert_eq!(balls[0].velocity, Vec2::new(0.0, 500.0));
    assert_eq!(arm.spin, 0.0);
}

/// A flipper of 70 mm with a motor (target 40 rad/s, torque enough to reach it in one
/// step) under a ball at rest with its centre at `c`: the blade's line reaches it at
/// `θ = φ − asin(r/ρ)` (ρ, φ: the centre's polar coordinates), at lever `d = √(ρ² − r²)`,
/// and the ball leaves along the blade's normal at `(1 + e)·ω·d / (1 + m·d²/I)`, while
/// the blade drops to `ω·(1 − (1 + e)·k / (1 + k))`, `k = m·d²/I`.
fn motor_flipper_bat(k_ratio: f32) -> (f32, f32, f32, f32) {
    let (mass, e, omega, r) = (0.08, 0.5, 40.0, 13.5);
    let c = Vec2::new(50.0, 18.5);
    let (rho, phi) = (c.length(), c.y.atan2(c.x));
    let d = (rho * rho - r * r).sqrt();
    let inertia = mass * d * d / k_ratio;
    let dt = 1e-3;
    let mut arm = Arm::new(Vec2::ZERO, Vec2::new(70.0, 0.0), inertia);
    arm.material = Material::new(e, 0.0);
    arm.body = arm.body.with_limits(HingeLimits::new(-0.1, 0.9));
    arm.drive.motor = Some(HingeMotor {
        target_speed: omega,
        max_torque: 2.0 * inertia * omega / dt,
    });
    let mut balls = [ball(c, Vec2::ZERO, r, mass)];
    let mut scratch = MultiballScratch::default();
    for _ in 0..20 {
        if arm.step(&mut balls, &[], dt, &mut scratch).hinge_impacts > 0 {
            break;
        }
    }
    let theta = phi - (r / rho).asin();
    let expected = (1.0 + e) * omega * d / (1.0 + k_ratio);
    let normal = Vec2::from_angle(theta).perp();
    let spin_after = omega * (1.0 - (1.0 + e) * k_ratio / (1.0 + k_ratio));
    (balls[0].velocity.dot(normal), expected, arm.spin, spin_after)
}

#[test]
fn motor_flipper_bats_a_resting_ball_at_the_hand_computed_speed() {
    let (speed, expected, spin, spin_expected) = motor_flipper_bat(0.1);
    assert!(
        (speed / expected - 1.0).abs() < 0.05,
        "left at {speed}, expected {expected}"
    );
    assert!(
        (spin - spin_expected).abs() < 0.02 * spin_expected,
        "blade at {spin}, expected {spin_expected}"
    );
    println!(
        "motor flipper: ball left at {speed:.1} (by hand {expected:.1}), blade at {spin:.3} rad/s (by hand {spin_expected:.3})"
    );
}

/// A heavy ball (m·d²/I = 2) landing on the rising blade stops it dead; a light one
/// (0.01) takes 1.5 % of its speed (`(1 + e)·k/(1 + k) = 1.5·0.01/1.01 = 1.49 %`).
#[test]
fn heavy_ball_slows_the_motor_flipper_a_light_one_barely() {
    let (_, _, heavy, heavy_expected) = motor_flipper_bat(2.0);
    let (_, _, light, light_expected) = motor_flipper_bat(0.01);
    assert!(
        heavy_expected.abs() < 1e-4 && heavy.abs() < 0.4,
        "heavy: blade at {heavy}"
    );
    println!(
        "blade after a heavy ball {heavy:.3} rad/s, after a light one {light:.3} (by hand {light_expected:.3}), from 40"
    );
    assert!(
        (light - light_expected).abs() < 0.05 && light > 39.0,
        "light: blade at {light} ({light_expected})"
    );
    // The figure above, to its precision (1.5 %, so within 0.05 %).
    let taken = (40.0 - light) / 40.0;
    assert!((taken - 0.015).abs() < 5e-4, "light: took {taken} of the speed");
}

/// A turnstile (an arm from −200 to 200, pivoted at its middle) spinning freely at up to
/// ±200 rad/s (its tips at 40,000 units/s), balls thrown at it from 24 directions: after
/// every step no ball overlaps the arm by more than 1 % of its radius, and none went
/// through it: no ball changed sides of the arm in a step with no wall contact that began
/// and ended within 150 of the pivot. Such a step cannot go round the arm on a straight
/// path (a chord between two points within 150 stays within 150, where the arm's line is
/// the arm, 200 long each side; distances to the pivot are the same in the arm's turning
/// frame); going round a tip instead takes the ball out past 210 (tip plus radius) and
/// back, at least 2·(210 − 150) = 120 of travel bent by bounces off the arm, however
/// little its net displacement. The test counts such a trip as a failure too: none
/// happens in this scene.
#[test]
fn no_ball_through_a_fast_hinged_arm() {
    let wall = |a: Vec2, b: Vec2| Obstacle::segment(Segment::new(a, b));
    let (lo, hi) = (Vec2::splat(-400.0), Vec2::splat(400.0));
    let walls = [
        wall(lo, Vec2::new(hi.x, lo.y)),
        wall(Vec2::new(hi.x, lo.y), hi),
        wall(hi, Vec2::new(lo.x, hi.y)),
        wall(Vec2::new(lo.x, hi.y), lo),
    ];
    let r = 10.0;
    let dt = 1.0 / 240.0;
    let mut impacts = 0;
    for spin in [-200.0, -75.0, -10.0, 10.0, 75.0, 200.0] {
        for k in 0..24 {
            let mut arm = Arm::new(Vec2::ZERO, Vec2::new(200.0, 0.0), 4.0e5);
            arm.rest = Segment::new(Vec2::new(-200.0, 0.0), Vec2::new(200.0, 0.0));
            arm.spin = spin;
            let aim = Vec2::from_angle(k as f32 * 0.2618 + 0.1);
            let mut balls = [ball(aim * 300.0, aim.perp() * 100.0 - aim * 400.0, r, 1.0)];
            let mut scratch = MultiballScratch::default();
            for step in 0..240 {
                let seg = arm.segment();
                let side = |p: Vec2| (seg.b - seg.a).perp_dot(p - seg.a);
                let (before, inside_before) = (side(balls[0].center), balls[0].center.length() < 150.0);
                let before_c = balls[0].center;
                let angle_before = arm.angle;
                let v_before = balls[0].velocity;
                let rep = arm.step(&mut balls, &walls, dt, &mut scratch);
                impacts += rep.hinge_impacts;
                let seg = arm.segment();
                let c = balls[0].center;
                let gap = (seg.closest_point(c) - c).length();
                assert!(
                    gap > 0.99 * r,
                    "ω {spin}, case {k}, step {step}: {gap} from the arm"
                );
                let after = (seg.b - seg.a).perp_dot(c - seg.a);
                let no_walls = rep.bounces == rep.hinge_impacts;
                if inside_before && no_walls && c.length() < 150.0 {
                    assert!(
                        before * after > 0.0 || before.abs() < 1e-3,
                        "ω {spin}, case {k}, step {step}: through the arm: {before_c:?} → {c:?}; angle {angle_before} → {}, v {v_before:?} → {:?}, {rep:?}",
                        arm.angle,
                        balls[0].velocity
                    );
                }
            }
        }
    }
    assert!(
        impacts > 500,
        "only {impacts} impacts: the test hardly touched the arm"
    );
}

/// The same scene twice gives the same bits: a gate, a spinner and a motor flipper.
#[test]
fn hinged_scenes_are_deterministic() {
    let run = || {
        let (mut gate, walls) = gate_lane();
        let mut balls = [
            ball(Vec2::new(30.0, -150.0), Vec2::new(30.0, 2_500.0), 10.0, 0.08),
            ball(Vec2::new(20.0, 150.0), Vec2::new(-40.0, -3_000.0), 10.0, 0.08),
        ];
        let mut scratch = MultiballScratch::default();
        let mut trace = Vec::new();
        for _ in 0..600 {
            gate.step(&mut balls, &walls, 1.0 / 240.0, &mut scratch);
            trace.push((balls[0].center, balls[1].center, gate.angle, gate.spin));
        }
        trace.push((Vec2::splat(motor_flipper_bat(0.3).0), Vec2::ZERO, 0.0, 0.0));
        trace
    };
    let (a, b) = (run(), run());
    assert!(
        a.iter()
            .zip(&b)
            .all(|(x, y)| format!("{x:?}") == format!("{y:?}"))
    );
}

/// A hinge with a bad value (a NaN inverse inertia, a negative one, stops with max below
/// min) stays kinematic: the ball bounces off the still arm as off a wall, and no NaN
/// reaches it.
#[test]
fn a_bad_hinge_stays_kinematic() {
    for bad in [
        HingeBody::new(0, f32::NAN, 0.0),
        HingeBody::new(0, -5.0, 0.0),
        HingeBody::new(0, 5.0, 0.0).with_limits(HingeLimits::new(1.0, -1.0)),
    ] {
        let mut arm = Arm::new(Vec2::ZERO, Vec2::new(100.0, 0.0), 1.0);
        arm.body = bad;
        let mut balls = [ball(Vec2::new(50.0, 6.0), Vec2::new(0.0, -100.0), 1.0, 1.0)];
        let mut scratch = MultiballScratch::default();
        let report = arm.step(&mut balls, &[], 0.1, &mut scratch);
        assert_eq!(report.hinge_impacts, 0);
        assert!(
            (balls[0].velocity - Vec2::new(0.0, 100.0)).length() < 1e-3,
            "{:?}",
            balls[0].velocity
        );
        assert_eq!(arm.angle, 0.0);
    }
}
