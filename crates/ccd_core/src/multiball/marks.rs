//! The mark phase: which balls go through the event machinery.
//!
//! A lone ball whose path's box meets a moving obstacle's swept box, or (ball–ball on,
//! layers permitting) another ball's path box, can meet them: it is marked, and goes
//! through the event machinery with them (an *event ball*); every other ball keeps its own
//! sweep. That is exact: two balls whose paths' boxes are apart cannot touch.

use super::ball_grid::BallGrid;
use super::lone::Lone;
use super::moving::MovingObstacle;
use crate::shape::Aabb;
use glam::Vec2;

/// The mark phase's state: the grid of the lone balls' paths, and the marks.
#[derive(Clone, Debug, Default)]
pub(super) struct Marks {
    /// The grid of the lone balls' paths (by place), to find the balls that can meet.
    grid: BallGrid,
    /// Per place: its path's box in `grid`.
    boxes: Vec<Aabb>,
    /// Per ball: in the event machinery (the others are lone). In the caller's order, but
    /// while the event machinery runs, in its order (see `order.rs`).
    pub(super) in_events: Vec<bool>,
}

/// The moving obstacles of a step, and their swept boxes.
#[derive(Clone, Copy)]
pub(super) struct Moving<'a> {
    pub(super) obstacles: &'a [MovingObstacle],
    pub(super) boxes: &'a [Aabb],
}

impl Marks {
    /// Mark every lone ball of `lone` whose path can meet a `moving` obstacle or (if
    /// `ball_ball`) another ball: `in_events` and each ball's `events` follow. Returns how
    /// many are marked. When nothing but walls can `meet` a ball, none is.
    pub(super) fn mark(&mut self, lone: &mut [Lone], moving: Moving<'_>, ball_ball: bool, meet: bool) -> u32 {
        if !meet {
            self.mark_none(lone.len());
            return 0;
        }
        let nowhere = Aabb::new(Vec2::ZERO, Vec2::ZERO);
        self.boxes.clear();
        self.boxes
            .extend(lone.iter().map(|s| s.bounds.unwrap_or(nowhere)));
        if ball_ball {
            self.grid.rebuild(&self.boxes);
        }
        for k in 0..lone.len() {
            let meets = lone[k]
                .bounds
                .is_some_and(|b| self.meets_something(k, b, lone, moving, ball_ball));
            lone[k].events = meets;
        }
        self.take_marks(lone)
    }

    /// Every usable ball goes through the event machinery, none swept on its own (a
    /// crowded step). Returns how many.
    pub(super) fn mark_all(&mut self, lone: &mut [Lone]) -> u32 {
        for s in lone.iter_mut() {
            s.events = s.ball.is_some();
        }
        self.take_marks(lone)
    }

    /// None: every ball keeps its own sweep.
    fn mark_none(&mut self, balls: usize) {
        self.in_events.clear();
        self.in_events.resize(balls, false);
    }

    /// `in_events` from the marks on `lone`; how many.
    fn take_marks(&mut self, lone: &[Lone]) -> u32 {
        self.in_events.clear();
        self.in_events.extend(lone.iter().map(|s| s.events));
        self.in_events.iter().map(|&e| u32::from(e)).sum()
    }

    /// Whether ball `k`, whose path stays in `bounds`, can meet a moving obstacle (by their
    /// swept boxes) or another ball (by the path boxes in the grid).
    fn meets_something(
        &self,
        k: usize,
        bounds: Aabb,
        lone: &[Lone],
        moving: Moving<'_>,
        ball_ball: bool,
    ) -> bool {
        let Some(ball) = lone[k].ball else {
            return false;
        };
        let near_moving = moving
            .obstacles
            .iter()
            .zip(moving.boxes)
            .any(|(m, b)| b.intersects(&bounds) && ball.layers.interacts(m.obstacle.layers));
        if near_moving {
            return true;
        }
        if !ball_ball {
            return false;
        }
        let mut met = false;
        self.grid.query_except(bounds, k, |j| {
            met |= lone[j]
                .ball
                .is_some_and(|other| ball.layers.interacts(other.layers));
        });
        met
    }
}
