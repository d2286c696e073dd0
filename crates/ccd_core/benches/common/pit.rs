//! The ball-pit scene (`benches/pit_scene.rs`) as `ccd_core` inputs: its walls and
//! pillars in a `Grid`, its balls as `Ball`s. Shared by the `multiball_pit` bench and the
//! energy and determinism tests.

#[path = "../../../../benches/pit_scene.rs"]
mod scene;

use ccd_core::{Ball, Circle, Grid, Layers, Obstacle, Obstacles, Segment, penetration, penetration_slop};
#[allow(unused_imports, reason = "each user takes what it needs")]
pub use scene::{HZ, clearance, fingerprint};

/// The pit's obstacles and `balls` balls from `seed`.
pub fn build(balls: usize, seed: u64) -> (Grid, Vec<Ball>) {
    let scene = scene::build(balls, seed);
    let mut grid = Grid::default();
    for &(a, b) in &scene.walls {
        // The scene's walls and pillars are valid by construction; a bad one is dropped.
        let _ = grid.insert(Obstacle::segment(Segment::new(a, b)));
    }
    for &c in &scene.pillars {
        let _ = grid.insert(Obstacle::pillar(Circle::new(c, scene::PILLAR_RADIUS)));
    }
    // Built once, queried every step: packed, as the plugin packs its grid.
    grid.pack();
    let balls = scene
        .balls
        .iter()
        .map(|b| Ball::new(b.position, b.velocity, scene::BALL_RADIUS))
        .collect();
    (grid, balls)
}

/// The audit of a step's end: how many balls sit inside a wall, a baffle or a pillar by
/// more than [`penetration_slop`] of their radius (faults), and the deepest any ball sits
/// inside one, faults or not.
#[allow(dead_code, reason = "each user takes what it needs")]
pub fn audit(grid: &Grid, balls: &[Ball]) -> (usize, f32) {
    let (mut faults, mut deepest) = (0, 0.0_f32);
    for b in balls {
        let circle = Circle::new(b.center, b.radius);
        let mut inside = false;
        grid.query(circle.aabb(), |_, obstacle| {
            if let Some(p) = penetration(circle, Layers::ALL, obstacle) {
                deepest = deepest.max(p.depth);
                inside |= p.depth > penetration_slop(b.radius);
            }
        });
        faults += usize::from(inside);
    }
    (faults, deepest)
}
