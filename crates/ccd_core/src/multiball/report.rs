//! What [`step_balls`](super::step_balls) reports: each contact, and counts.

use crate::contact_with::ContactWith;
use crate::hit::Hit;
use glam::Vec2;

/// One contact during [`step_balls`](crate::step_balls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The ball, by index.
    pub ball: usize,
    /// What it touched. A ball–ball contact is reported once, with either ball as `ball`.
    pub with: ContactWith,
    /// Seconds since the start of the step.
    pub time: f32,
    /// Geometry: `hit.center` is the ball's centre, `hit.point` on the other's surface,
    /// `hit.normal` from the other towards the ball.
    pub hit: Hit,
    /// Approach speed along the normal (relative to a moving surface or ball).
    pub approach_speed: f32,
    /// The velocity of the other's surface at the contact point, world units per second,
    /// as the ball met it: zero for a wall, the part's for a kinematic or hinged obstacle
    /// (a hinge's before this contact pushed it), the other ball's after the contact for
    /// a ball–ball one.
    pub other_velocity: Vec2,
    /// Whether the obstacle is a sensor.
    pub sensor: bool,
    /// Normal speed the surface's [`Kick`](crate::Kick) added, units/s (0 when it did
    /// not fire, and for ball–ball and resting contacts).
    pub kick: f32,
}

/// Counts from one [`step_balls`](crate::step_balls) call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MultiballReport {
    /// Events processed (contacts resolved, plus re-forecasts after a partner changed).
    pub events: u32,
    /// Solid contacts resolved, over all balls (a ball–ball contact counts once).
    pub bounces: u32,
    /// The most contacts one ball resolved.
    pub max_bounces_per_ball: u32,
    /// Balls that reached `max_bounces` and waited.
    pub capped_balls: u32,
    /// Ball-seconds lost to caps in the step: a ball at its bounce cap waits at its last
    /// contact for the rest of the step (or rides with the moving part it met), and when
    /// the event budget runs out every ball waits. 0 when no cap was reached.
    pub lost_time: f32,
    /// Whether the event budget ran out (every ball lost the rest of the step).
    pub event_budget_hit: bool,
    /// The most passes the contact solver needed for one contact of one instant among
    /// balls (0: every one was small enough to be solved exactly; at most
    /// [`MAX_SIMULTANEOUS_PASSES`](crate::MAX_SIMULTANEOUS_PASSES) a round).
    pub max_batch_passes: u32,
    /// The passes of the step's resting-contact solve: until one changed no velocity by
    /// more than [`RESTING_SOLVE_TOLERANCE_REL`](crate::RESTING_SOLVE_TOLERANCE_REL) of the
    /// resting speed, or [`RESTING_ITERATIONS`](crate::RESTING_ITERATIONS) (stopped short
    /// there). 0 without resting contacts' solve (no resting speed).
    pub resting_passes: u32,
    /// Contacts of one instant that reached
    /// [`MAX_INSTANT_BALLS`](crate::tolerance::MAX_INSTANT_BALLS) balls or half of
    /// [`MAX_INSTANT_ROWS`](crate::tolerance::MAX_INSTANT_ROWS) in ball–ball rows (the other
    /// half is for surfaces) and stopped growing, or batches of simultaneous ball–ball
    /// events that were split there: the rest meet as contacts of their own, at the same
    /// instant.
    pub instant_caps: u32,
    /// Balls that kept their own sweep (nothing could meet them).
    pub lone_balls: u32,
    /// Balls stepped by the event machinery (they could meet another ball or a moving
    /// obstacle).
    pub event_balls: u32,
    /// Of the event balls, those that joined during the step (a leg of another may have
    /// reached their path).
    pub joined_balls: u32,
    /// In a crowded step (every ball sent to the event machinery at once, see
    /// [`CROWDED_FRACTION`](crate::CROWDED_FRACTION)), the balls whose first forecasts
    /// found another ball ahead; 0 in other steps. With
    /// [`CROWDED_STAYS_FRACTION`](crate::CROWDED_STAYS_FRACTION) of the balls or more, the
    /// next step is crowded too.
    pub crowding_balls: u32,
    /// The deepest ball–ball overlap found at the start of the step, in world units,
    /// before the position correction (see [`ALLOWED_OVERLAP_REL`](crate::ALLOWED_OVERLAP_REL)).
    pub max_overlap: f32,
    /// Impacts on hinged bodies that turned them (an impulse exchange).
    pub hinge_impacts: u32,
    /// Times a hinged body reached one of its limits (each body at most
    /// [`MAX_HINGE_LIMIT_HITS`](crate::tolerance::MAX_HINGE_LIMIT_HITS) times a step).
    pub hinge_limit_hits: u32,
}
