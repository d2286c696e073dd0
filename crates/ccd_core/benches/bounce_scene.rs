//! The multi-bounce sweep through the broadphase: 1 000 balls in a closed scene of 1 000
//! segments, one step each per iteration.
//!
//! The scene is a closed regular 600-gon of circumradius 1000 with 400 random baffles
//! (10–60 long) inside. Balls have radius 4 and speeds 500–4000 units/s; a step is
//! 1/120 s (4–33 units). Ball state carries over from one iteration to the next, so the
//! balls keep bouncing around the scene for the whole run.
//!
//! ```text
//! cargo bench -p ccd_core --bench bounce_scene
//! ```
//!
//! Criterion reports the time for 1 000 ball-steps and the throughput; ns per ball-step is
//! `1000 / (Melem/s)`. The same scene in a plain `Vec<Obstacle>` (a linear scan of all
//! 1 000 obstacles per leg) is benched for comparison, with fewer samples, and so is the
//! grid under gravity (`grid_gravity`: each leg a parabola).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{Circle, Grid, Obstacle, Obstacles, Segment, SweepSettings, Vec2, sweep_bounces};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

const WALL_EDGES: usize = 600;
const BAFFLES: usize = 400;
const SCENE_RADIUS: f32 = 1000.0;
const BALLS: usize = 1000;
const BALL_RADIUS: f32 = 4.0;
const DT: f32 = 1.0 / 120.0;
/// The grid's cell side: `Grid::default`'s 32 units, about one step of the fastest ball.
const CELL_SIZE: f32 = 32.0;

/// Gravity of the curved run, units/s²: over a step of 1/120 s it bends a path by
/// `½·g·dt² = 0.035` units, and a ball at rest gains 8.3 units/s.
const GRAVITY: f32 = 1000.0;

/// The seed of the generator the scene and the balls are drawn from.
const SEED: u64 = 0x2545_f491_4f6c_dd1d;

fn unit_vec(rng: &mut impl Rng) -> Vec2 {
    Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
}

/// A point uniformly distributed in the disc of `radius` around the origin.
fn in_disc(rng: &mut impl Rng, radius: f32) -> Vec2 {
    unit_vec(rng) * radius * rng.random::<f32>().sqrt()
}

#[derive(Clone, Copy)]
struct Ball {
    center: Vec2,
    velocity: Vec2,
}

fn scene(rng: &mut impl Rng) -> Vec<Obstacle> {
    let mut obstacles = Vec::with_capacity(WALL_EDGES + BAFFLES);
    let corner =
        |i: usize| Vec2::from_angle(std::f32::consts::TAU * i as f32 / WALL_EDGES as f32) * SCENE_RADIUS;
    for i in 0..WALL_EDGES {
        obstacles.push(Obstacle::segment(Segment::new(corner(i), corner(i + 1))));
    }
    for _ in 0..BAFFLES {
        let mid = in_disc(rng, 0.9 * SCENE_RADIUS);
        let half = unit_vec(rng) * rng.random_range(5.0..30.0);
        obstacles.push(Obstacle::segment(Segment::new(mid - half, mid + half)));
    }
    obstacles
}

fn clear_of(obstacles: &[Obstacle], p: Vec2, r: f32) -> bool {
    obstacles
        .iter()
        .all(|o| ccd_core::penetration(Circle::new(p, r), ccd_core::Layers::ALL, o).is_none())
}

fn balls(rng: &mut impl Rng, obstacles: &[Obstacle]) -> Vec<Ball> {
    let mut balls = Vec::with_capacity(BALLS);
    while balls.len() < BALLS {
        let center = in_disc(rng, 0.95 * SCENE_RADIUS);
        if clear_of(obstacles, center, BALL_RADIUS + 0.5) {
            balls.push(Ball {
                center,
                velocity: unit_vec(rng) * rng.random_range(500.0..4000.0),
            });
        }
    }
    balls
}

/// One step of every ball.
#[inline]
fn step_all<O: Obstacles + ?Sized>(balls: &mut [Ball], obstacles: &O, settings: &SweepSettings) -> u32 {
    let mut bounces = 0;
    for ball in balls {
        let out = sweep_bounces(
            Circle::new(ball.center, BALL_RADIUS),
            ball.velocity,
            DT,
            obstacles,
            settings,
            |_| {},
        )
        .unwrap();
        ball.center = out.center;
        ball.velocity = out.velocity;
        bounces += out.bounces;
    }
    bounces
}

/// Untimed: balls still in the scene after the run (the scene is closed, so all of them).
fn report(name: &str, balls: &[Ball]) {
    let outside = balls
        .iter()
        .filter(|b| b.center.length() > SCENE_RADIUS - BALL_RADIUS + 1e-2)
        .count();
    eprintln!(
        "{name}: {outside} of {} balls outside the scene after the run",
        balls.len()
    );
}

fn bench(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(SEED);
    let obstacles = scene(&mut rng);
    let start = balls(&mut rng, &obstacles);
    let mut grid = Grid::new(CELL_SIZE);
    for &o in &obstacles {
        grid.insert(o).unwrap();
    }
    grid.pack();
    let settings = SweepSettings::default();

    // Untimed: bounces per ball-step over a warm-up second, for context.
    let mut probe = start.clone();
    let bounces: u32 = (0..120).map(|_| step_all(&mut probe, &grid, &settings)).sum();
    eprintln!(
        "scene: {} obstacles, {BALLS} balls; {:.3} bounces per ball-step over the first second",
        obstacles.len(),
        f64::from(bounces) / (120.0 * BALLS as f64)
    );

    let mut group = c.benchmark_group("bounce_scene_1000_segments");
    group.throughput(Throughput::Elements(BALLS as u64));
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));

    let mut on_grid = start.clone();
    group.bench_function("grid", |b| {
        b.iter(|| step_all(black_box(&mut on_grid), &grid, &settings));
    });
    report("grid", &on_grid);

    // The same scene under gravity: every leg a parabola, found by the curved queries.
    let curved = SweepSettings {
        gravity: Vec2::new(0.0, -GRAVITY),
        ..settings
    };
    let mut falling = start.clone();
    group.bench_function("grid_gravity", |b| {
        b.iter(|| step_all(black_box(&mut falling), &grid, &curved));
    });
    report("grid_gravity", &falling);

    let mut in_vec = start.clone();
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("vec_linear_scan", |b| {
        b.iter(|| step_all(black_box(&mut in_vec), &obstacles, &settings));
    });
    report("vec_linear_scan", &in_vec);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
