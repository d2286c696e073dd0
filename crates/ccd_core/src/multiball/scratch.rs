//! Reusable buffers and per-ball state of [`step_balls`](super::step_balls).

use super::ball_grid::BallGrid;
use super::first_plans::FirstPlan;
use super::islands::Solo;
use super::lcp::LcpScratch;
use super::pairs::BatchContact;
use super::queue::{EventQueue, Schedule};
use super::report::{Contact, ContactWith};
use super::resting::{RestingPair, WallContact};
use crate::hit::Hit;
use crate::shape::Aabb;
use crate::tolerance::MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG;
use glam::Vec2;

/// Reusable buffers for [`step_balls`](crate::step_balls), so stepping allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct MultiballScratch {
    pub(super) clock: Vec<Clock>,
    pub(super) state: Vec<BallState>,
    /// Which balls the event machinery steps (the others were swept on their own).
    pub(super) member: Vec<bool>,
    /// Every ball swept on its own (see `islands.rs`), in the caller's order (the event
    /// machinery finds ball `k`'s at `order.caller(k)`).
    pub(super) solo: Vec<Solo>,
    /// Most balls went through the event machinery last step: skip the sweeps on their own.
    pub(super) crowded: bool,
    /// The event machinery's contacts, and those of the balls that joined it replayed up to
    /// when they joined (merged in time order at the end of the step).
    pub(super) event_contacts: Vec<Contact>,
    pub(super) pulled_contacts: Vec<Contact>,
    /// Balls that joined the event machinery and wait for their first plan.
    pub(super) joining: Vec<usize>,
    /// The first predictions, planned in parallel.
    pub(super) plans: Vec<FirstPlan>,
    /// The first plans' ball contacts: each pair once, as found (see `first_plans.rs`),
    /// then by ball (ball `k`'s from `contact_starts[k]` to `contact_starts[k + 1]`).
    pub(super) pair_contacts: Vec<(u32, u32, f32)>,
    /// Each first plan's earliest event time before the pairs (see `first_plans.rs`).
    pub(super) first_limits: Vec<f32>,
    pub(super) contact_starts: Vec<u32>,
    pub(super) contact_list: Vec<(u32, f32)>,
    pub(super) queue: EventQueue,
    /// Each ball's scheduled event (the queue holds only its time).
    pub(super) due: Schedule,
    /// Per ball, the sensors its leg crosses before its next event (the first
    /// `Clock::sensors`), kept apart: rare, and large beside the rest of the state.
    pub(super) sensors: Vec<[SensorHit; SENSORS_PER_LEG]>,
    /// The spatial order the event machinery works in.
    pub(super) order: super::order::SpatialOrder,
    pub(super) grid: BallGrid,
    /// The grid of the balls' own paths, to find the balls that can meet.
    pub(super) island_grid: BallGrid,
    pub(super) boxes: Vec<Aabb>,
    pub(super) moving_boxes: Vec<Aabb>,
    /// Per moving obstacle: the step fraction its hinge last changed motion at, and how
    /// many limits it has hit this step.
    pub(super) hinges: super::hinges::HingeClocks,
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

/// What every pair prediction reads of a ball, kept apart from the rest of its state
/// (struct of arrays: the hot loops touch 12 bytes per ball, not a few hundred).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    /// The time of `Ball::center`, seconds since the step's start.
    pub(super) time: f32,
    /// Changes whenever the ball changes course (a partner's event with it is then stale).
    pub(super) version: u32,
    /// Waiting at its last contact for the rest of the step.
    pub(super) frozen: bool,
    /// Passed `usable` at the step's start (cached: pair searches ask it of every
    /// candidate, and a ball's values stay finite through the step).
    pub(super) valid: bool,
    /// `BallState::pinched` is set (read first here: a prediction then reads the larger
    /// state only for the rare squeezed ball).
    pub(super) pinched: bool,
    /// How many of its entries in `MultiballScratch::sensors` hold (here, not in the
    /// larger state: every advance along a leg asks).
    pub(super) sensors: u8,
}

/// The rest of a ball's state over the step.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BallState {
    pub(super) bounces: u32,
    /// Contacts allowed before the ball waits: the cap, raised in corners.
    pub(super) allowed: u32,
    /// The last solid contact with a wall or moving obstacle in this step.
    pub(super) last: Option<LastContact>,
    /// Squeezed between two surfaces closing in on it: ignore the faster one for the rest of
    /// the step, then push the ball out of it.
    pub(super) pinched: Option<Pinched>,
    /// At the bounce cap against a moving obstacle (by index): instead of waiting where it
    /// is while the obstacle moves on into it, the ball rides along with the obstacle's
    /// surface for the rest of the step, or until the obstacle's motion changes (an impact
    /// or a limit), where it is released and predicted again.
    pub(super) riding: Option<usize>,
}

/// A sensor a leg crosses: when, which, where.
pub(super) type SensorHit = (f32, ContactWith, Hit);

/// An unused sensor slot.
pub(super) const NO_SENSOR: SensorHit = (
    0.0,
    ContactWith::Ball(0),
    Hit {
        toi: 0.0,
        center: Vec2::ZERO,
        point: Vec2::ZERO,
        normal: Vec2::ZERO,
    },
);

/// A ball's last solid contact with a wall or a moving obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LastContact {
    pub(super) with: ContactWith,
    pub(super) normal: Vec2,
    pub(super) surface_velocity: Vec2,
    /// The contact's restitution ([`contact_restitution`](crate::response::contact_restitution)).
    pub(super) restitution: f32,
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
