//! The ball-pit scene (`benches/pit_scene.rs`) as `ccd_core` inputs: its walls and
//! pillars in a `Grid`, its balls as `Ball`s. Shared by the `multiball_pit` bench and the
//! energy and determinism tests.

#[path = "../../../../benches/pit_scene.rs"]
mod scene;

use ccd_core::{Ball, Circle, Grid, Obstacle, Segment};
#[allow(unused_imports, reason = "each user takes what it needs")]
pub use scene::{HZ, clearance};

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
    let balls = scene
        .balls
        .iter()
        .map(|b| Ball::new(b.position, b.velocity, scene::BALL_RADIUS))
        .collect();
    (grid, balls)
}
