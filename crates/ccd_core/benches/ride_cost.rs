//! What a ride costs: one ball going round the inside of a full ring (a loop, at
//! `v₀² = 5.5·g·L`) and one swinging in a bowl (from 1.2 rad), stepped by `step_balls` at
//! 120 Hz and 1 kHz two ways: on its own (the lone sweep rides the exact circle), and in
//! the event machinery (a still bar outside the ring whose swept box, its lever about its
//! pivot, covers the ring, so the ball goes there every step, and rides the same exact
//! circle cut into chords, an event each). And two balls touching in the bowl, their
//! middle from 1.2 rad, ball–ball on at the plugin's resting speed (2·g·dt): the event
//! machinery, where they ride together.
//! Each way prints its time a step (the median of 7 runs), the machinery's events a step,
//! and how far the centre strayed from its circle.
//!
//! `cargo bench -p ccd_core --bench ride_cost` (or run the built binary with `--steps N`;
//! under `valgrind --tool=callgrind` for instruction counts).

use ccd_core::{
    Ball, CircleArc, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment,
    SegmentMotion, Vec2, step_balls,
};
use std::f32::consts::{PI, TAU};
use std::time::Instant;

/// Gravity, units/s² (down).
const G: f32 = 10.0;
/// The ring's radius and the ball's: the centre rides a circle of `L = 9.5`.
const RING: f32 = 10.0;
const RADIUS: f32 = 0.5;
/// Runs per figure; the median is printed.
const RUNS: usize = 7;

/// A scene: its walls, where the balls start and how fast, and whether they are two
/// balls that meet each other (ball–ball on, at the plugin's resting speed).
struct Scene {
    name: &'static str,
    walls: Vec<Obstacle>,
    start: Vec<Ball>,
    pair: bool,
}

/// The loop, the bowl, and two balls in the bowl.
fn scenes() -> [Scene; 3] {
    let l = RING - RADIUS;
    let v0 = (5.5 * G * l).sqrt();
    let bowl_angle = 1.2_f32;
    let on_bowl = |a: f32| Ball::new(Vec2::new(l * a.sin(), -l * a.cos()), Vec2::ZERO, RADIUS);
    let half_gap = (RADIUS / l).asin();
    let bowl = || vec![Obstacle::arc(CircleArc::new(Vec2::ZERO, RING, PI, TAU))];
    [
        Scene {
            name: "a loop at v0^2 = 5.5 g L",
            walls: vec![Obstacle::arc(CircleArc::new(Vec2::ZERO, RING, 0.0, TAU))],
            start: vec![Ball::new(Vec2::new(0.0, -l), Vec2::new(v0, 0.0), RADIUS)],
            pair: false,
        },
        Scene {
            name: "a bowl from 1.2 rad",
            walls: bowl(),
            start: vec![on_bowl(bowl_angle)],
            pair: false,
        },
        Scene {
            name: "two balls in a bowl from 1.2 rad",
            walls: bowl(),
            start: vec![on_bowl(bowl_angle - half_gap), on_bowl(bowl_angle + half_gap)],
            pair: true,
        },
    ]
}

/// A still bar outside the ring, pivoted at its centre: its lever (about 15) makes its
/// swept box cover the ring, so every step sends the ball to the event machinery.
fn far_bar() -> MovingObstacle {
    let at = Vec2::splat(RING + 0.5);
    MovingObstacle::new(
        Obstacle::segment(Segment::new(at, at + Vec2::splat(0.1))),
        SegmentMotion {
            pivot: Vec2::ZERO,
            angle: 0.0,
            pivot_motion: Vec2::ZERO,
        },
    )
}

/// What one run measured: seconds a step, events a step, the worst distance of the centre
/// from its circle.
struct Run {
    seconds: f64,
    events: f64,
    off_circle: f32,
}

/// `steps` steps of `scene` at `hz`, with the far bar or without.
fn run(scene: &Scene, hz: f32, steps: usize, events: bool) -> Run {
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        ball_ball: scene.pair,
        resting_speed: if scene.pair { 2.0 * G / hz } else { 0.0 },
        ..MultiballSettings::default()
    };
    let mut balls = scene.start.clone();
    let mut scratch = MultiballScratch::default();
    let mut bar = [far_bar()];
    let mut total_events = 0_u64;
    let mut off_circle = 0.0_f32;
    let started = Instant::now();
    for _ in 0..steps {
        let moving: &mut [MovingObstacle] = if events { &mut bar } else { &mut [] };
        let report = step_balls(
            MultiballStep::new(&mut balls, 1.0 / hz, &scene.walls[..]).with_moving(moving),
            &settings,
            &mut scratch,
            |_| {},
        );
        total_events += u64::from(report.events);
        for ball in &balls {
            off_circle = off_circle.max((ball.center.length() - (RING - RADIUS)).abs());
        }
    }
    Run {
        seconds: started.elapsed().as_secs_f64() / steps as f64,
        events: total_events as f64 / steps as f64,
        off_circle,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps = args
        .iter()
        .position(|a| a == "--steps")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_usize);
    for scene in scenes() {
        for hz in [120.0_f32, 1000.0] {
            let mut line = format!("{}, {hz} Hz, {steps} steps:", scene.name);
            // Two balls touching meet each other: the event machinery, with no bar.
            let ways: &[_] = if scene.pair {
                &[("in the event machinery", false)]
            } else {
                &[("alone", false), ("in the event machinery", true)]
            };
            for &(way, events) in ways {
                let mut runs: Vec<Run> = (0..RUNS).map(|_| run(&scene, hz, steps, events)).collect();
                runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
                let median = &runs[RUNS / 2];
                line += &format!(
                    " {way} {:.2} µs a step ({:.1} events a step, within {:.1e} of the circle);",
                    median.seconds * 1e6,
                    median.events,
                    median.off_circle
                );
            }
            println!("{line}");
        }
    }
}
