//! What a step keeps, grouped by the phase that owns it and by how long it lives (see
//! `step.rs` for the phases).
//!
//! | struct | phase | lives for | holds |
//! |---|---|---|---|
//! | [`LoneSweeps`](super::lone_runs::LoneSweeps) (`lone_runs.rs`) | sweep, finish | one step | each ball's sweep on its own, each run's notes |
//! | [`Marks`](super::marks::Marks) (`marks.rs`) | mark | one step | the lone paths' grid, which balls go through the event machinery |
//! | [`EventState`] | events | one step: set up at its start, read at its end | each event ball's clock and state, the spatial order, the queue, the pair grid, the contacts to report |
//! | [`HingeClocks`](super::hinge_clocks::HingeClocks) (`hinge_clocks.rs`) | read, events, report | one step | the hinged bodies' clocks and limit counts |
//! | `Settling` (`settle.rs`), `FirstBuffers` (`first_forecasts.rs`) | events | the step's start: the resting solve, the first forecasts | buffers only |
//! | `PairBuffers` (`pairs.rs`), [`EventBuffers`] | events | one event: a batch of ball–ball contacts; a join, the balls near a hinged body | buffers only |
//! | [`Carried`] | report | from one step to the next | what the last step learned |
//!
//! All are kept in [`MultiballScratch`](super::MultiballScratch) between calls, so that a warm step allocates
//! nothing; only [`Carried`] means anything at the start of a step.

use super::ball_grid::BallGrid;
use super::order::SpatialOrder;
use super::queue::{EventQueue, Schedule};
use super::report::Contact;
use super::round::OnRound;
use crate::bounce::RideTally;
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::meet::{Bounces, Squeeze};
use crate::shape::{Aabb, Segment};
use crate::tolerance::MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG;
use glam::Vec2;

/// The event phase's state over one step (see the [module](self) docs).
#[derive(Clone, Debug, Default)]
pub(super) struct EventState {
    /// Per ball: what every pair forecast reads.
    pub(super) clock: Vec<Clock>,
    /// Per ball: the rest of its state over the step.
    pub(super) state: Vec<BallState>,
    /// Per ball, the sensors its leg crosses before its next event (the first
    /// `Clock::sensors`), kept apart: rare, and large beside the rest of the state.
    pub(super) sensors: Vec<[SensorHit; SENSORS_PER_LEG]>,
    /// The spatial order the event machinery works in.
    pub(super) order: SpatialOrder,
    /// Each ball's next event's time, earliest first.
    pub(super) queue: EventQueue,
    /// Each ball's next event (the queue holds only its time).
    pub(super) due: Schedule,
    /// The grid of the event balls' swept boxes, to find the pairs that can meet.
    pub(super) grid: BallGrid,
    /// Per ball: its box in `grid`.
    pub(super) boxes: Vec<Aabb>,
    /// The contacts of the balls that joined the event machinery, replayed up to when they
    /// joined (merged with the machinery's in time order at the end of the step).
    pub(super) joined_contacts: Vec<Contact>,
    /// Per ball: its rides of round parts over the step (`round.rs`).
    pub(super) rides: Vec<RideTally>,
    /// The balls whose `rides` tally anything, in the order they first rode.
    pub(super) riders: Vec<u32>,
}

/// Buffers of one event: the lone balls joining the event machinery, and a grid query's
/// answer.
#[derive(Clone, Debug, Default)]
pub(super) struct EventBuffers {
    /// Lone balls that joined the event machinery and wait for their first forecast (a
    /// stack).
    pub(super) joining: Vec<usize>,
    /// Balls found near a hinged body turned anew.
    pub(super) found: Vec<usize>,
}

/// What one step leaves for the next.
#[derive(Clone, Debug, Default)]
pub(super) struct Carried {
    /// Most balls went through the event machinery last step: skip the lone sweeps.
    pub(super) crowded: bool,
    /// Per ball, in the caller's order: it met something last step (a solid contact, or a
    /// resting contact). The resting solve looks for walls and touching balls only around
    /// these balls: any other was in flight, and what it meets now is an event, met there
    /// (`resting.rs`).
    pub(super) met: Vec<bool>,
}

/// Two balls, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pair {
    pub(super) a: usize,
    pub(super) b: usize,
}

impl Pair {
    /// Whether this is the pair of `a` and `b`, in either order.
    #[inline]
    pub(super) fn is(self, a: usize, b: usize) -> bool {
        (self.a == a && self.b == b) || (self.a == b && self.b == a)
    }

    /// Whether ball `k` is one of the two.
    #[inline]
    pub(super) fn has(self, k: usize) -> bool {
        self.a == k || self.b == k
    }
}

/// A ball to predict again from `time`, its partner having changed course.
#[derive(Clone, Copy, Debug)]
pub(super) struct Retry {
    pub(super) ball: usize,
    pub(super) time: f32,
}

/// A band of the pair grid's rows in the step's first forecasts: the pair contacts found
/// in its cells, and the lone balls a predicted ball's box met there, in the order found.
#[derive(Clone, Debug, Default)]
pub(super) struct PairBand {
    pub(super) rows: std::ops::Range<usize>,
    pub(super) found: Vec<PairContact>,
    pub(super) joins: Vec<BandJoin>,
}

/// A lone ball whose box a predicted ball's met: it must join before that forecast holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct BandJoin {
    pub(super) predicted: u32,
    pub(super) lone: u32,
}

/// Two balls that first touch at `time` (a first forecast's pair contact).
#[derive(Clone, Copy, Debug)]
pub(super) struct PairContact {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) time: f32,
}

/// A ball's pair contact, listed under the ball: the other ball, and when.
#[derive(Clone, Copy, Debug)]
pub(super) struct BallContact {
    pub(super) other: u32,
    pub(super) time: f32,
}

/// What every pair forecast reads of a ball, kept apart from the rest of its state
/// (struct of arrays: the hot loops touch 12 bytes per ball, not a few hundred).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    /// The time of `Ball::center`, seconds since the step's start.
    pub(super) time: f32,
    /// Changes whenever the ball changes course (a partner's event with it is then stale).
    pub(super) version: u32,
    /// Waiting at its last contact for the rest of the step.
    pub(super) waiting: bool,
    /// Passed `usable` at the step's start (cached: pair searches ask it of every
    /// candidate, and a ball's values stay finite through the step).
    pub(super) valid: bool,
    /// `BallState::squeeze` is set (read first here: a forecast then reads the larger
    /// state only for the rare squeezed ball).
    pub(super) squeezed: bool,
    /// Its leg is a parabola under the step's gravity (a ball in flight). Otherwise it is
    /// straight (no gravity, or a *settled* ball, which took the rest of the step's gravity
    /// at once, `v += g·(dt − t)`, because it rests on something), or it slides.
    pub(super) curved: bool,
    /// A settled ball *sliding* along the one wall it rests on: its leg is a parabola under
    /// `BallState::slide`, gravity's part along the wall (see `settle.rs`).
    pub(super) sliding: bool,
    /// It rides a still round part (`BallState::round`): its leg is the straight chord to
    /// the next point of its ride (`round.rs`).
    pub(super) on_round: bool,
    /// How many of its entries in `StepState::sensors` hold (here, not in the
    /// larger state: every advance along a leg asks).
    pub(super) sensors: u8,
}

/// The face a sliding ball slides on, its acceleration along it (gravity's part along it,
/// less friction against its motion), units/s², and friction's deceleration `μ·N/m`: where
/// friction brings the ball to rest, its slide stops (`EventKind::SlideStops`).
#[derive(Clone, Copy, Debug)]
pub(super) struct SlideOn {
    pub(super) face: Segment,
    pub(super) acceleration: Vec2,
    pub(super) friction: f32,
}

/// The rest of a ball's state over the step.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BallState {
    /// Its bounces, the cap and its last contact with a wall or a moving obstacle.
    pub(super) bounces: Bounces,
    /// A sliding ball's face and acceleration (`Clock::sliding`).
    pub(super) slide: Option<SlideOn>,
    /// Squeezed between two surfaces closing in on it: ignore the faster one for the rest of
    /// the step, then push the ball out of it.
    pub(super) squeeze: Option<Squeeze>,
    /// At the bounce cap against a moving obstacle (by index): instead of waiting where it
    /// is while the obstacle moves on into it, the ball rides along with the obstacle's
    /// surface for the rest of the step, or until the obstacle's motion changes (an impact
    /// or a limit), where it is released and predicted again.
    pub(super) riding: Option<usize>,
    /// The still round part it rides, and the chord it is on (`Clock::on_round`).
    pub(super) round: Option<OnRound>,
}

/// A sensor a leg crosses: when, which, where.
#[derive(Clone, Copy, Debug)]
pub(super) struct SensorHit {
    pub(super) time: f32,
    pub(super) with: ContactWith,
    pub(super) hit: Hit,
}

impl SensorHit {
    /// An unused slot.
    pub(super) const NONE: Self = Self {
        time: 0.0,
        with: ContactWith::Ball(0),
        hit: Hit {
            toi: 0.0,
            center: Vec2::ZERO,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
        },
    };
}

impl Carried {
    /// This step's marks of which balls met something (`met`, exchanged with last step's),
    /// and whether it was `crowded`.
    pub(super) fn step(&mut self, met: &mut Vec<bool>, crowded: bool) {
        std::mem::swap(&mut self.met, met);
        self.crowded = crowded;
    }
}
