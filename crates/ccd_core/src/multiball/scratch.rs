//! Reusable buffers and per-ball state of [`step_balls`](super::step_balls).

use super::ball_grid::BallGrid;
use super::lcp::LcpScratch;
use super::pairs::BatchContact;
use super::queue::Event;
use super::report::ContactWith;
use super::resting::{RestingPair, WallContact};
use crate::hit::Hit;
use crate::shape::Aabb;
use crate::tolerance::MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG;
use glam::Vec2;
use std::collections::BinaryHeap;

/// Reusable buffers for [`step_balls`](crate::step_balls), so stepping allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct MultiballScratch {
    pub(super) state: Vec<BallState>,
    pub(super) heap: BinaryHeap<Event>,
    pub(super) grid: BallGrid,
    pub(super) boxes: Vec<Aabb>,
    pub(super) moving_boxes: Vec<Aabb>,
    pub(super) batch: Vec<(usize, usize)>,
    pub(super) retry: Vec<(usize, f32)>,
    pub(super) cluster: Vec<usize>,
    pub(super) links: Vec<(usize, usize)>,
    pub(super) batch_contacts: Vec<BatchContact>,
    pub(super) lcp_matrix: Vec<f64>,
    pub(super) lcp_rhs: Vec<f64>,
    pub(super) lcp_impulses: Vec<f64>,
    pub(super) lcp: LcpScratch,
    pub(super) found: Vec<usize>,
    /// The resting solve's wall contacts and touching pairs.
    pub(super) wall_contacts: Vec<WallContact>,
    pub(super) resting_pairs: Vec<RestingPair>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct BallState {
    /// The time of `Ball::center`, seconds since the step's start.
    pub(super) time: f32,
    pub(super) version: u32,
    pub(super) bounces: u32,
    /// Waiting at its last contact for the rest of the step.
    pub(super) frozen: bool,
    /// Passed `usable` at the step's start (cached: pair searches ask it of every
    /// candidate, and a ball's values stay finite through the step).
    pub(super) valid: bool,
    pub(super) sensors: [(f32, ContactWith, Hit); SENSORS_PER_LEG],
    pub(super) sensor_count: u8,
    /// Contacts allowed before the ball waits: the cap, raised in corners.
    pub(super) allowed: u32,
    /// The last solid contact with a wall or moving obstacle in this step.
    pub(super) last: Option<LastContact>,
    /// Squeezed between two surfaces closing in on it: ignore the faster one for the rest of
    /// the step, then push the ball out of it.
    pub(super) pinched: Option<Pinched>,
    /// At the bounce cap against a moving obstacle (by index): instead of waiting where it
    /// is while the obstacle moves on into it, the ball rides along with the obstacle's
    /// surface for the rest of the step.
    pub(super) riding: Option<usize>,
}

/// A ball's last solid contact with a wall or a moving obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LastContact {
    pub(super) with: ContactWith,
    pub(super) normal: Vec2,
    pub(super) surface_velocity: Vec2,
    pub(super) time: f32,
}

/// A ball squeezed between two surfaces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pinched {
    /// The faster surface, ignored for the rest of the step.
    pub(super) faster: ContactWith,
    /// Its normal towards the ball when the squeeze began (which side the ball is on).
    pub(super) faster_normal: Vec2,
    /// The slower surface, which the ball keeps to.
    pub(super) slower: ContactWith,
    pub(super) slower_normal: Vec2,
}

impl Default for BallState {
    fn default() -> Self {
        let nothing = Hit {
            toi: 0.0,
            center: Vec2::ZERO,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
        };
        Self {
            time: 0.0,
            version: 0,
            bounces: 0,
            frozen: false,
            valid: false,
            sensors: [(0.0, ContactWith::Ball(0), nothing); SENSORS_PER_LEG],
            sensor_count: 0,
            allowed: 0,
            last: None,
            pinched: None,
            riding: None,
        }
    }
}
