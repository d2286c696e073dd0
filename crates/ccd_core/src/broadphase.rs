//! The static broadphase: a uniform grid over obstacles. (Stub: being written.)

use crate::{Aabb, Obstacle, ObstacleId, Obstacles};

/// A uniform grid of obstacles.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    obstacles: Vec<Obstacle>,
}

impl Grid {
    /// Insert an obstacle.
    pub fn insert(&mut self, obstacle: Obstacle) -> ObstacleId {
        self.obstacles.push(obstacle);
        ObstacleId(self.obstacles.len() as u32 - 1)
    }
}

impl Obstacles for Grid {
    fn query(&self, bounds: Aabb, f: impl FnMut(ObstacleId, &Obstacle)) {
        self.obstacles.as_slice().query(bounds, f);
    }
}
