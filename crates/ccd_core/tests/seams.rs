//! Seams between segments that share an end point and lie on one line are one flat wall.
//!
//! A circle meeting such a wall next to a seam reaches the face of one segment and the end
//! cap of the other at nearly the same time; the cap's normal is tilted by about the
//! distance to the seam over the radius (a "ghost collision"). Checked here on both paths
//! (the single-ball sweep and the event-driven `step_balls`) for bounces, and on the
//! resting-contact pass of `step_balls` for a ball sliding over the seams.

use ccd_core::tolerance::SEPARATION_SPEED_REL;
use ccd_core::{
    Ball, BounceHit, Circle, Contact, Material, MultiballScratch, MultiballSettings, MultiballStep, Obstacle,
    Segment, SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// How far a reflected velocity may leave the mirror direction, relative to the speed.
const MIRROR_TOL: f32 = 1e-5;

/// A floor along y = 0 from x = 0 to 100: ten segments of 10 meeting at nine seams. Each
/// inner vertex is raised by `jitter` (odd ones) or lowered by it (even ones), so with a
/// jitter the wall is only nearly collinear (2e-5 up or down over 10 units tilts each
/// inner segment by 2e-6 rad).
fn floor(jitter: f32) -> Vec<Obstacle> {
    let vertex = |i: usize| {
        let y = if i == 0 || i == 10 {
            0.0
        } else if i % 2 == 1 {
            jitter
        } else {
            -jitter
        };
        Vec2::new(i as f32 * 10.0, y)
    };
    (0..10)
        .map(|i| Obstacle::segment(Segment::new(vertex(i), vertex(i + 1))))
        .collect()
}

/// Shots of a ball of radius 5 that reach the floor after 0.48 s of a 1 s step, landing
/// at `x`, from three directions.
fn shots(x: f32) -> impl Iterator<Item = (Circle, Vec2)> {
    [(25.0_f32, -33.333332_f32), (-17.0, -40.0), (3.0, -50.0)]
        .into_iter()
        .map(move |(vx, vy)| {
            let t = 0.48;
            (
                Circle::new(Vec2::new(x - vx * t, 5.0 - vy * t), 5.0),
                Vec2::new(vx, vy),
            )
        })
}

/// Landing points: within ±0.005 of every seam (201 each), and the middle of every
/// segment.
fn landings() -> impl Iterator<Item = f32> {
    let near = (1..10).flat_map(|k| (0..=200).map(move |j| k as f32 * 10.0 + (j as f32 - 100.0) * 5e-5));
    near.chain((0..10).map(|k| k as f32 * 10.0 + 5.0))
}

fn off_mirror(out: Vec2, shot: Vec2) -> f32 {
    let mirror = Vec2::new(shot.x, -shot.y);
    (out - mirror).length() / mirror.length()
}

#[test]
fn the_issue_example_reflects_about_the_floor_in_either_store_order() {
    // Centre (37.998, 21), r = 5, moving (25, −33.333332) for 1 s: it reaches y = 5 at
    // t = 16/33.333332 = 0.48, at x = 49.998, on the face of the first segment 0.002 from
    // the seam; the second segment's end cap is reached about 1e-8 later.
    let a = Obstacle::segment(Segment::new(Vec2::new(40.0, 0.0), Vec2::new(50.0, 0.0)));
    let b = Obstacle::segment(Segment::new(Vec2::new(50.0, 0.0), Vec2::new(60.0, 0.0)));
    for store in [[a, b], [b, a]] {
        let mut hits: Vec<BounceHit> = Vec::new();
        let out = sweep_bounces(
            Circle::new(Vec2::new(37.998, 21.0), 5.0),
            Vec2::new(25.0, -33.333332),
            1.0,
            &store,
            &SweepSettings::default(),
            |h| hits.push(*h),
        )
        .unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].hit.normal, Vec2::Y, "{:?}", hits[0]);
        assert_eq!(out.velocity, Vec2::new(25.0, 33.333332));
    }
}

#[test]
fn single_ball_sweep_reflects_about_the_common_line_near_every_seam() {
    for jitter in [0.0, 1e-5] {
        let walls = floor(jitter);
        let (mut total, mut worst) = (0, 0.0_f32);
        for x in landings() {
            for (circle, shot) in shots(x) {
                let out =
                    sweep_bounces(circle, shot, 1.0, &walls, &SweepSettings::default(), |_| {}).unwrap();
                assert_eq!(out.bounces, 1, "landing at {x}");
                worst = worst.max(off_mirror(out.velocity, shot));
                total += 1;
            }
        }
        assert!(
            worst <= MIRROR_TOL,
            "jitter {jitter}: worst {worst:e} over {total} shots"
        );
    }
}

#[test]
fn step_balls_reflects_about_the_common_line_near_every_seam() {
    for jitter in [0.0, 1e-5] {
        let walls = floor(jitter);
        let mut balls = Vec::new();
        let mut expected = Vec::new();
        for x in landings() {
            for (circle, shot) in shots(x) {
                balls.push(Ball::new(circle.center, shot, circle.radius));
                expected.push(shot);
            }
        }
        // Each ball on its own: only the walls.
        let settings = MultiballSettings {
            ball_ball: false,
            ..MultiballSettings::default()
        };
        let mut scratch = MultiballScratch::default();
        step_balls(
            MultiballStep::new(&mut balls, 1.0, walls.as_slice()),
            &settings,
            &mut scratch,
            |_| {},
        );
        let worst = balls
            .iter()
            .zip(&expected)
            .map(|(b, &shot)| off_mirror(b.velocity, shot))
            .fold(0.0, f32::max);
        assert!(worst <= MIRROR_TOL, "jitter {jitter}: worst {worst:e}");
    }
}

/// What a ball sliding on a floor under gravity did, through `step_balls`.
struct Slide {
    /// Final speed over the starting speed.
    speed_ratio: f64,
    /// The highest the centre rose above its resting height.
    hop: f32,
    /// Resting contacts reported.
    contacts: usize,
    /// Steps taken.
    steps: usize,
}

/// A ball (r = 5, e = 0.5, μ = 0) resting on `walls` at x = 2, sliding along +x at
/// `speed` under g = 1000 downwards, stepped at 120 Hz until it is past x = `end` (or one
/// second), with the resting speed the plugin uses (2·g·dt).
fn slide(walls: &[Obstacle], speed: f32, end: f32) -> Slide {
    let (g, dt) = (Vec2::new(0.0, -1000.0), 1.0 / 120.0);
    let mut ball = [Ball::new(Vec2::new(1.97, 5.0), Vec2::new(speed, 0.0), 5.0)];
    ball[0].material = Material::new(0.5, 0.0);
    let settings = MultiballSettings {
        gravity: g,
        resting_speed: 2.0 * g.length() * dt,
        ..MultiballSettings::default()
    };
    let mut scratch = MultiballScratch::default();
    let (mut hop, mut contacts) = (0.0_f32, 0);
    let mut steps = 0;
    while ball[0].center.x < end && steps < 120 {
        step_balls(
            MultiballStep::new(&mut ball, dt, walls),
            &settings,
            &mut scratch,
            |_: &Contact| contacts += 1,
        );
        hop = hop.max(ball[0].center.y - 5.0);
        steps += 1;
    }
    Slide {
        speed_ratio: f64::from(ball[0].velocity.length()) / f64::from(speed),
        hop,
        contacts,
        steps,
    }
}

#[test]
fn a_ball_slides_over_seams_as_over_one_flat_floor() {
    // Ten collinear segments, and the same floor as one segment. Frictionless: the speed
    // stays (the resting pass only removes gravity's approach) and never grows; the ball
    // stays on the floor (the separation bias lifts it by 1e-5 of its speed, 8e-6 per step
    // at 100 units/s).
    let one = [Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(100.0, 0.0)))];
    let mut failures = Vec::new();
    for (name, walls) in [("ten segments", floor(0.0)), ("one segment", one.to_vec())] {
        for speed in [21.3, 97.1] {
            let s = slide(&walls, speed, 98.0);
            eprintln!(
                "{name} at {speed}: speed lost {:.2e}, hop {:.2e}, {} contacts reported in {} steps",
                1.0 - s.speed_ratio,
                s.hop,
                s.contacts,
                s.steps
            );
            // One step of the separation bias, plus one f32 step at the height 5 (4·ε = 2^-21).
            let lift = SEPARATION_SPEED_REL * speed / 120.0 + 4.0 * f32::EPSILON;
            if (s.speed_ratio - 1.0).abs() >= 1e-6 || s.hop > lift {
                failures.push(format!(
                    "{name} at {speed}: speed ratio {}, hop {}",
                    s.speed_ratio, s.hop
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn a_fast_ball_on_one_long_floor_stays_down() {
    // 5,000 units/s over 1 s on one segment 10,000 long.
    let long = [Obstacle::segment(Segment::new(
        Vec2::new(-100.0, 0.0),
        Vec2::new(10_000.0, 0.0),
    ))];
    let s = slide(&long, 5000.0, f32::INFINITY);
    assert_eq!(s.steps, 120, "a whole second");
    assert!(
        (s.speed_ratio - 1.0).abs() < 1e-6,
        "speed ratio {}",
        s.speed_ratio
    );
    assert!(s.hop < 5e-3, "hop {}", s.hop);
}

#[test]
fn resting_contacts_are_reported_on_both_paths_alike() {
    // A ball resting on a frictionless 30° slope under g = 1000 for 120 steps at 120 Hz
    // presses on it every step: each path reports one contact per step.
    let down = Vec2::new(-30f32.to_radians().cos(), -30f32.to_radians().sin());
    let slope = [Obstacle::segment(Segment::new(down * 1000.0, -down * 1000.0))];
    let n = down.perp() * if down.perp().y > 0.0 { 1.0 } else { -1.0 };
    let (g, dt, steps) = (Vec2::new(0.0, -1000.0), 1.0 / 120.0, 120);
    let start = n * 5.0;

    let settings = SweepSettings {
        resting_speed: 2.0 * g.length() * dt,
        gravity: g,
        ..SweepSettings::default()
    };
    let (mut center, mut velocity, mut single) = (start, Vec2::ZERO, 0);
    for _ in 0..steps {
        let out = sweep_bounces(
            Circle::new(center, 5.0),
            velocity,
            dt,
            &slope[..],
            &settings,
            |_| single += 1,
        )
        .unwrap();
        (center, velocity) = (out.center, out.velocity);
    }

    let multiball = MultiballSettings {
        gravity: g,
        resting_speed: 2.0 * g.length() * dt,
        ..MultiballSettings::default()
    };
    let mut ball = [Ball::new(start, Vec2::ZERO, 5.0)];
    let (mut scratch, mut events) = (MultiballScratch::default(), 0);
    for _ in 0..steps {
        step_balls(
            MultiballStep::new(&mut ball, dt, &slope[..]),
            &multiball,
            &mut scratch,
            |_| events += 1,
        );
    }
    assert_eq!(single, steps, "single-ball path: one contact per step");
    assert_eq!(events, steps, "step_balls: one contact per step");
    // Both slid down the slope alike, on the exact curve: g·sin 30° = 500 along it, so
    // after 1 s the distance is ½·500·1² = 250.
    for (path, at) in [("single", center), ("step_balls", ball[0].center)] {
        let along = (at - start).dot(down);
        assert!((along - 250.0).abs() < 0.05, "{path}: {along}");
    }
}
