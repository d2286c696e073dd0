//! A moving part carries a ball resting on it: a platform rising lifts it, and one
//! sliding sideways under it carries it by friction, or slides under it with none.
//! Through the event machinery (the engine of balls near moving parts), at no resting
//! speed and at the plugin's (2·g·dt), at 30, 60, 120 and 1,000 Hz, against closed
//! forms. Run with `--nocapture` for the figures.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Material, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment,
    SegmentMotion, Vec2, step_balls,
};

const RATES: [f32; 4] = [30.0, 60.0, 120.0, 1000.0];
/// Gravity, units/s² (down).
const G: f32 = 10.0;
/// The ball's radius.
const R: f32 = 0.5;

/// What [`carry`] saw: the ball's centre and velocity, and the platform's middle, at the
/// end of each step.
struct Carried {
    ball: Vec<(Vec2, Vec2)>,
    platform: Vec<Vec2>,
}

/// A level platform 10 long, its middle at the origin at the start, moving at `velocity`,
/// of `material` (the ball's too), with a ball let go on it at its middle at `start`;
/// stepped `seconds` at `rate` through the event machinery at a resting speed of
/// `resting`·g·dt.
fn carry(
    (velocity, start): (Vec2, Vec2),
    material: Material,
    (rate, resting): (f32, f32),
    seconds: f32,
) -> Carried {
    let dt = 1.0 / rate;
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        resting_speed: resting * G * dt,
        ..MultiballSettings::default()
    };
    let mut ball = Ball::new(Vec2::new(0.0, R), start, R);
    ball.material = material;
    let mut scratch = MultiballScratch::default();
    let mut seen = Carried {
        ball: Vec::new(),
        platform: Vec::new(),
    };
    let steps = (seconds * rate).round() as usize;
    for n in 0..steps {
        // The platform at the step's start, in f64 from its start, and its motion over it.
        let middle = (velocity.as_dvec2() * (n as f64) / f64::from(rate)).as_vec2();
        let deck = Segment::new(middle - Vec2::new(5.0, 0.0), middle + Vec2::new(5.0, 0.0));
        let motion = SegmentMotion {
            pivot: middle,
            angle: 0.0,
            pivot_motion: velocity * dt,
        };
        let mut moving = [MovingObstacle::new(
            Obstacle::segment(deck).with_material(material),
            motion,
        )];
        let report = step_balls(
            MultiballStep::new(std::slice::from_mut(&mut ball), dt, &[]).with_moving(&mut moving),
            &settings,
            &mut scratch,
            |_| {},
        );
        assert_eq!(report.capped_balls, 0, "{report:?}");
        seen.ball.push((ball.center, ball.velocity));
        seen.platform
            .push((velocity.as_dvec2() * ((n + 1) as f64) / f64::from(rate)).as_vec2());
    }
    seen
}

#[test]
fn a_moving_part_carries_a_ball_resting_on_it() {
    let smooth = Material::new(0.5, 0.0);
    let rough = Material::new(0.5, 0.5);
    let mut worst = [0.0_f32; 4];
    let mut worst_off = 0.0_f32;
    for rate in RATES {
        for resting in [0.0, 2.0] {
            let label = format!("{rate} Hz, resting speed {resting}·g·dt");
            // Rising at 2 with the ball on it, moving with it: it rides up on the deck,
            // touching it (within the touch slop, 1e-4 of its radius) at its speed. Its
            // centre's f32 rounding, the same way step after step, lifts it off the deck
            // (at 1 kHz past the touch slop after 857 steps, 3.7 up), and that step it
            // flies: ½·g·dt² off, g·dt slow, and lands again the next. At no resting speed
            // it hops on the deck every step, each landing bouncing the rest of the
            // step's gravity a settled ball carries. Both are in docs/design.md, "Not
            // exact yet": every step's end within ½·g·dt² of the deck and g·dt of its
            // speed (measured: ¼·g·dt² and ¼·g·dt at no resting speed, 0.8·g·dt at 1 kHz;
            // the share of steps off by more than the touch slop at the plugin's resting
            // speed is printed).
            let lift = Vec2::new(0.0, 2.0);
            let dt = 1.0 / rate;
            let up = carry((lift, lift), smooth, (rate, resting), 2.0);
            let mut off = 0;
            for ((c, v), p) in up.ball.iter().zip(&up.platform) {
                let gap = (c.y - p.y - R).abs();
                let speed = (*v - lift).length();
                assert!(
                    gap <= 0.5 * G * dt * dt + 1e-4 * R,
                    "{label}: rising, {gap} off the deck"
                );
                assert!(speed <= G * dt + 1e-4, "{label}: rising at {v}, not {lift}");
                if gap > 1e-4 * R || speed > 1e-4 * lift.length() {
                    off += 1;
                } else if resting > 0.0 {
                    worst[0] = worst[0].max(gap);
                    worst[1] = worst[1].max(speed);
                }
            }
            if resting > 0.0 {
                worst_off = worst_off.max(off as f32 / up.ball.len() as f32);
                // Most steps end touching the deck at its speed, within 1e-4 of it (17
                // of 2,000 at 1 kHz do not; none at 30 to 120 Hz).
                assert!(
                    10 * off <= up.ball.len(),
                    "{label}: rising, {off} of {} steps off the deck or its speed",
                    up.ball.len()
                );
            }
            // Sliding sideways at 1 under it, frictionless: nothing pushes it along; it
            // stays where it was along it; up and down, as on the rising one (at 1 kHz and
            // the plugin's resting speed every other step ends ½·g·dt² into the deck,
            // g·dt down: docs/design.md, "Not exact yet").
            let slide = Vec2::new(1.0, 0.0);
            let (near, close) = (0.5 * G * dt * dt + 1e-4 * R, G * dt + 1e-4);
            let under = carry((slide, Vec2::ZERO), smooth, (rate, resting), 2.0);
            let mut off = 0;
            for (c, v) in &under.ball {
                let (along, up) = (c.x.abs(), (c.y - R).abs());
                worst[2] = worst[2].max(along);
                assert!(
                    along <= 1e-4 * R && v.x.abs() <= 1e-4 && up <= near && v.y.abs() <= close,
                    "{label}: frictionless, at {c} moving {v}"
                );
                off += usize::from(up > 1e-4 * R || v.y.abs() > 1e-4);
            }
            if resting > 0.0 {
                worst_off = worst_off.max(off as f32 / under.ball.len() as f32);
            }
            // With μ = 0.5 (ball and deck), kinetic friction μ·g brings it up to the
            // deck's speed in t* = u/(μ·g) = 0.2 s; from there it moves with it: at 2 s it
            // is at u·t − u²/(2·μ·g) = 1.9. Friction between a ball and a moving part acts
            // as each step's impulse, so the ball comes up to speed step by step, up to
            // μ·g·dt early: within u·dt/2 of that distance.
            let rub = carry((slide, Vec2::ZERO), rough, (rate, resting), 2.0);
            let (c, v) = *rub.ball.last().unwrap();
            let off = (c.x - 1.9).abs();
            worst[3] = worst[3].max(off * rate);
            assert!(
                off <= 0.5 * dt + 1e-4,
                "{label}: rough, carried to {}, not 1.9",
                c.x
            );
            assert!(
                (v.x - slide.x).abs() <= 1e-4 && v.y.abs() <= close,
                "{label}: rough, moving at {v}, not {slide}"
            );
        }
    }
    println!(
        "carried, 30 Hz to 1 kHz, at 2·g·dt: rising, on the deck within {:.1e} at a speed within {:.1e}, but {:.1}% of the steps (rising or sideways) end off it; \
         frictionless sideways, still along it within {:.1e}; rough sideways, within {:.2}·dt of the closed form",
        worst[0],
        worst[1],
        100.0 * worst_off,
        worst[2],
        worst[3]
    );
}
