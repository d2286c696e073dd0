//! What a sweep tells of its rides (`SweepOutcome::ride`, `MultiballScratch::ride`): how
//! long a ball rode a round part, against the closed form of the time it takes to slide
//! off a post, and what friction took, against the heights an f64 integration of the same
//! equations gives in a rough bowl, alone and through the event machinery; the step
//! tallies each ball's rides by the engine that moved it; and a ball that went by a moving
//! part is swept on its own again, riding exactly. Run with `--nocapture` for the figures.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test: a bad setup is a failed test"
)]

use ccd_core::{
    Ball, Circle, CircleArc, Material, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep,
    Obstacle, RideTally, Segment, SegmentMotion, SweepSettings, Vec2, step_balls, sweep_bounces,
    tolerance::MIN_CROWDED_BALLS,
};
use std::f32::consts::PI;

mod bowl;
mod event_ball;
use bowl::{G, reference_turns};
use event_ball::step_event_ball;

const RATES: [f32; 4] = [30.0, 60.0, 120.0, 1000.0];

fn settings(material: Material) -> SweepSettings {
    SweepSettings {
        gravity: Vec2::new(0.0, -G as f32),
        material,
        ..SweepSettings::default()
    }
}

/// Which engine steps a ball: its own sweep, or the event machinery (`step_balls`, its
/// scratch kept from step to step, the ball made an event ball: [`step_event_ball`]); its
/// tally is then `MultiballScratch::ride`'s.
enum Engine {
    Lone,
    Events(Box<MultiballScratch>),
}

impl Engine {
    fn events() -> Self {
        Self::Events(Box::default())
    }

    /// One step of `dt`: the ball's new centre and velocity, and its ride tally.
    fn step(
        &mut self,
        walls: &[Obstacle],
        ball: (Vec2, Vec2),
        material: Material,
        dt: f32,
    ) -> ((Vec2, Vec2), RideTally) {
        let Self::Events(scratch) = self else {
            return lone_step(walls, ball, material, dt);
        };
        let mut one = Ball {
            material,
            ..Ball::new(ball.0, ball.1, 0.5)
        };
        let multiball = MultiballSettings {
            gravity: Vec2::new(0.0, -G as f32),
            ..MultiballSettings::default()
        };
        step_event_ball(walls, &mut one, dt, &multiball, scratch);
        ((one.center, one.velocity), scratch.ride(0))
    }
}

/// One step of `dt` of the ball's own sweep.
fn lone_step(
    walls: &[Obstacle],
    ball: (Vec2, Vec2),
    material: Material,
    dt: f32,
) -> ((Vec2, Vec2), RideTally) {
    let out = sweep_bounces(
        Circle::new(ball.0, 0.5),
        ball.1,
        dt,
        walls,
        &settings(material),
        |_| {},
    )
    .unwrap();
    assert!(!out.capped, "no step is capped: {out:?}");
    ((out.center, out.velocity), out.ride)
}

/// Kinetic plus potential energy per unit mass, in f64.
fn energy(ball: (Vec2, Vec2)) -> f64 {
    0.5 * ball.1.as_dvec2().length_squared() + G * f64::from(ball.0.y)
}

/// The time a frictionless ball takes to slide from rest at `theta0` from the top of a
/// circle of radius `l` to `theta1`: `∫ dθ / ω`, `ω² = 2·g·(cos θ₀ − cos θ)/l`, by
/// Simpson's rule in `u` with `θ = θ₀ + u²` (which takes away the root's singularity at
/// the start).
fn time_to_slide(l: f64, theta0: f64, theta1: f64) -> f64 {
    let rate = |u: f64| {
        if u == 0.0 {
            // cos θ₀ − cos(θ₀ + u²) → sin θ₀·u²: the integrand's limit.
            return 2.0 / (2.0 * G * theta0.sin() / l).sqrt();
        }
        let drop = theta0.cos() - (theta0 + u * u).cos();
        2.0 * u / (2.0 * G * drop / l).sqrt()
    };
    let n = 20_000;
    let end = (theta1 - theta0).sqrt();
    let h = end / f64::from(n);
    let mut sum = rate(0.0) + rate(end);
    for i in 1..n {
        let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += weight * rate(h * f64::from(i));
    }
    sum * h / 3.0
}

#[test]
fn a_ride_off_a_post_lasts_as_long_as_the_closed_form_says() {
    // A pillar of 9.5 centred at (3, −2), a ball of 0.5 (L = 10), let go at rest 0.3 rad
    // from the top: it rides until the press vanishes at arccos(⅔·cos 0.3), and every
    // second of that is a ride, without friction nothing taken; alone and through the
    // event machinery.
    let c = Vec2::new(3.0, -2.0);
    let post = [Obstacle::pillar(Circle::new(c, 9.5))];
    let (l, theta0) = (10.0_f64, 0.3_f64);
    let leaves = (2.0 / 3.0 * theta0.cos()).acos();
    let expected = time_to_slide(l, theta0, leaves);
    let mut worst = 0.0_f64;
    for (rate, events) in RATES.into_iter().flat_map(|r| [(r, false), (r, true)]) {
        let mut engine = if events { Engine::events() } else { Engine::Lone };
        let dt = 1.0 / rate;
        let mut ball = (
            c + Vec2::new((l * theta0.sin()) as f32, (l * theta0.cos()) as f32),
            Vec2::ZERO,
        );
        let mut rode = 0.0_f64;
        for _ in 0..(5.0 * rate) as usize {
            let (next, ride) = engine.step(&post, ball, Material::default(), dt);
            assert_eq!(
                ride.friction_loss, 0.0,
                "{rate} Hz (event machinery: {events}): no friction, nothing taken"
            );
            assert!(
                ride.time >= 0.0 && ride.time <= dt,
                "{rate} Hz (event machinery: {events}): {ride:?}"
            );
            rode += f64::from(ride.time);
            ball = next;
        }
        println!(
            "off a post at {rate} Hz (event machinery: {events}): rode {rode:.7} s, {:+.1e} s from the closed form",
            rode - expected
        );
        worst = worst.max((rode - expected).abs());
        // Within 2e-5 s: the f32 state rounded at each step's end moves the ball by up to
        // an ulp (1e-6 at 10), along the ride as much as across it.
        assert!(
            (rode - expected).abs() < 2e-5,
            "{rate} Hz (event machinery: {events}): rode {rode} s, the closed form {expected} s"
        );
    }
    println!(
        "off a post from 0.3 rad, alone and through the event machinery: rode {expected:.6} s within {worst:.1e} s at 30 to 1,000 Hz"
    );
}

#[test]
fn what_friction_takes_on_a_ride_is_the_energy_it_loses() {
    // A bowl of 10 (the lower half of an arc) centred at (3, −4), a ball of 0.5 (L = 9.5)
    // let go at rest 1.2 rad from the bottom with μ = 0.2: friction holds it at last at
    // the height an f64 integration of the same equations gives (the lasting test,
    // `with_friction_a_bowl_turns_at_the_heights_of_the_same_equations`, checks that
    // height); what the rides say friction took adds up to the energy between the two
    // heights, and each step's tally is that step's loss of energy; alone and through the
    // event machinery.
    let c = Vec2::new(3.0, -4.0);
    let l = 9.5_f64;
    let rough = Material::new(1.0, 0.2);
    let bowl = [Obstacle::arc(CircleArc::new(c, 10.0, PI, 2.0 * PI)).with_material(rough)];
    // (Every turning point, to the one where friction holds it.)
    let held_at = *reference_turns(l, 0.2, 1.2, usize::MAX).last().unwrap();
    let held = -l * held_at.cos() + f64::from(c.y);
    let (mut worst_total, mut worst_step) = (0.0_f64, 0.0_f64);
    for (rate, events) in RATES.into_iter().flat_map(|r| [(r, false), (r, true)]) {
        let mut engine = if events { Engine::events() } else { Engine::Lone };
        let dt = 1.0 / rate;
        let mut ball = (
            c + Vec2::new((l * 1.2_f64.sin()) as f32, (-l * 1.2_f64.cos()) as f32),
            Vec2::ZERO,
        );
        let start = energy(ball);
        let mut taken = 0.0_f64;
        for _ in 0..(20.0 * rate) as usize {
            let (next, ride) = engine.step(&bowl, ball, rough, dt);
            assert!(
                ride.friction_loss >= 0.0,
                "{rate} Hz (event machinery: {events}): friction gives nothing: {ride:?}"
            );
            let lost = energy(ball) - energy(next);
            worst_step = worst_step.max((lost - f64::from(ride.friction_loss)).abs());
            // Within 2e-5: g times two f32 ulps of the height (9.5e-7 at |y| ≈ 13), the
            // state's rounding at the step's ends.
            assert!(
                (lost - f64::from(ride.friction_loss)).abs() < 2e-5,
                "{rate} Hz (event machinery: {events}): lost {lost}, friction took {}",
                ride.friction_loss
            );
            taken += f64::from(ride.friction_loss);
            ball = next;
        }
        assert_eq!(
            ball.1,
            Vec2::ZERO,
            "{rate} Hz (event machinery: {events}): friction holds it at last"
        );
        let want = start - G * held;
        worst_total = worst_total.max((taken - want).abs() / (G * l));
        assert!(
            (taken - want).abs() < 1e-5 * G * l,
            "{rate} Hz (event machinery: {events}): friction took {taken}, the reference's heights say {want}"
        );
        // Held still, it rides no more.
        let (_, ride) = engine.step(&bowl, ball, rough, dt);
        assert_eq!(
            ride,
            RideTally::default(),
            "{rate} Hz (event machinery: {events}): held, no ride"
        );
    }
    println!(
        "a bowl with μ 0.2 from 1.2 rad: friction's take within {worst_total:.1e} of g·L of the reference's, each step's within {worst_step:.1e} of the energy it lost"
    );
}

#[test]
fn the_step_tallies_every_balls_rides_by_the_engine_that_moved_it() {
    // Three balls in a frictionless bowl, ball–ball on: one riding its side alone, two
    // near each other on the other side (they go through the event machinery, and do not
    // meet in the step). The lone one's tally is its own sweep's, bit for bit; each of the
    // others rode the whole step, as its own sweep would have (before, they tallied
    // none).
    let c = Vec2::new(0.0, 0.0);
    let bowl = [Obstacle::arc(CircleArc::new(c, 10.0, PI, 2.0 * PI))];
    let side = c + Vec2::new(9.5 * 0.8_f32.sin(), -9.5 * 0.8_f32.cos());
    // Two on the other side, 1.2 apart (their centres 0.126 rad apart on L = 9.5): each
    // would ride alone, but their paths' boxes meet.
    let on = |angle: f32| c + Vec2::new(-9.5 * angle.sin(), -9.5 * angle.cos());
    let starts = [side, on(0.6), on(0.726)];
    let mut balls = starts.map(|p| Ball::new(p, Vec2::ZERO, 0.5));
    let multiball = MultiballSettings {
        gravity: Vec2::new(0.0, -G as f32),
        ball_ball: true,
        ..MultiballSettings::default()
    };
    let mut scratch = MultiballScratch::default();
    let dt = 1.0 / 60.0;
    let lone = sweep_bounces(
        Circle::new(side, 0.5),
        Vec2::ZERO,
        dt,
        &bowl,
        &settings(Material::default()),
        |_| {},
    )
    .unwrap();
    step_balls(
        MultiballStep::new(&mut balls, dt, &bowl),
        &multiball,
        &mut scratch,
        |_| {},
    );
    let rides: Vec<RideTally> = (0..3).map(|k| scratch.ride(k)).collect();
    assert_eq!(scratch.ride(3), RideTally::default(), "no such ball");
    assert_eq!(rides[0], lone.ride, "the lone ball's tally is its sweep's");
    assert!(
        (rides[0].time - dt).abs() <= 1e-6 * dt,
        "it rode the whole step: {:?}",
        rides[0]
    );
    for k in [1, 2] {
        let alone = lone_step(&bowl, (starts[k], Vec2::ZERO), Material::default(), dt).1;
        assert!(
            (rides[k].time - alone.time).abs() <= 1e-6 * dt && (alone.time - dt).abs() <= 1e-6 * dt,
            "ball {k}: {:?} through the event machinery, {alone:?} alone",
            rides[k]
        );
        assert_eq!(
            rides[k].friction_loss, 0.0,
            "ball {k}: no friction, nothing taken"
        );
    }
    assert_eq!(balls[0].center, lone.center);
}

#[test]
fn a_ball_that_passed_a_moving_part_rides_on_its_own_again() {
    // One ball riding a frictionless bowl among `n` others falling far away, apart,
    // ball–ball on, with a still bar in the first step only whose swept box (its lever
    // about its pivot, some 1,400 long) meets every ball's: all go through the event
    // machinery. With 64 balls (`MIN_CROWDED_BALLS`) the next step is crowded (every ball
    // sent there at once); with no ball ahead of another, the step after is not. With
    // 63 the next step is not crowded at all. Either way the rider is swept on its own
    // again, lands, and rides whole steps on its exact circle.
    let bowl = [Obstacle::arc(CircleArc::new(Vec2::ZERO, 10.0, PI, 2.0 * PI))];
    let side = Vec2::new(9.5 * 0.8_f32.sin(), -9.5 * 0.8_f32.cos());
    let far = Vec2::splat(1000.0);
    let bar = MovingObstacle::new(
        Obstacle::segment(Segment::new(far, far + Vec2::X)),
        SegmentMotion {
            pivot: Vec2::ZERO,
            angle: 0.0,
            pivot_motion: Vec2::ZERO,
        },
    );
    let multiball = MultiballSettings {
        gravity: Vec2::new(0.0, -G as f32),
        ball_ball: true,
        ..MultiballSettings::default()
    };
    let dt = 1.0 / 60.0;
    for n in [MIN_CROWDED_BALLS - 1, MIN_CROWDED_BALLS] {
        // A rider that does not bounce (e = 0): the machinery may leave it a hair above
        // the bowl, and with e = 1 it would hop there for ever.
        let mut balls = vec![Ball {
            material: Material::new(0.0, 0.0),
            ..Ball::new(side, Vec2::ZERO, 0.5)
        }];
        balls.extend((1..n).map(|i| Ball::new(Vec2::new(100.0 + 10.0 * i as f32, 0.0), Vec2::ZERO, 0.5)));
        let mut scratch = MultiballScratch::default();
        for step in 0..30 {
            let mut moving = if step == 0 { vec![bar] } else { Vec::new() };
            let report = step_balls(
                MultiballStep::new(&mut balls, dt, &bowl).with_moving(&mut moving),
                &multiball,
                &mut scratch,
                |_| {},
            );
            let all = n as u32;
            match step {
                0 => assert_eq!(report.event_balls, all, "{n} balls, step {step}: {report:?}"),
                // Crowded with 64, not with 63.
                1 if n == MIN_CROWDED_BALLS => {
                    assert_eq!(report.event_balls, all, "{n} balls, step {step}: {report:?}");
                    assert_eq!(report.crowding_balls, 0, "{n} balls, step {step}: {report:?}");
                }
                // It lands from the hair the machinery left it above the bowl.
                1 | 2 => assert_eq!(report.lone_balls, all, "{n} balls, step {step}: {report:?}"),
                _ => {
                    assert_eq!(report.lone_balls, all, "{n} balls, step {step}: {report:?}");
                    let ride = scratch.ride(0);
                    assert!(
                        (ride.time - dt).abs() <= 1e-6 * dt,
                        "{n} balls, step {step}: {ride:?}"
                    );
                    assert!(
                        (balls[0].center.length() - 9.5).abs() < 1e-6 * 9.5,
                        "{n} balls, step {step}: {}",
                        balls[0].center
                    );
                }
            }
        }
    }
}
