//! The contacts the resting solve (`resting.rs`) finds at the start of a step: a ball on a
//! wall, and two balls touching.

use crate::obstacle::ObstacleId;
use crate::response::Accumulated;
use crate::shape::Segment;
use glam::Vec2;

/// The resting solve's contacts and marks, kept between steps.
#[derive(Clone, Debug, Default)]
pub(super) struct RestingContacts {
    /// The walls balls touch, and the touching pairs.
    pub(super) walls: Vec<WallContact>,
    pub(super) pairs: Vec<RestingPair>,
    /// Per ball: the solve pressed on it (at rest); it is in any slow contact the solve
    /// looked at (its box was updated); it is in a slow contact with another ball (it
    /// slides on no wall).
    pub(super) resting: Vec<bool>,
    pub(super) touched: Vec<bool>,
    pub(super) paired: Vec<bool>,
    /// Balls found near one (a grid query's answer).
    pub(super) found: Vec<usize>,
}

/// What a resting wall contact is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rest {
    /// A flat face: this segment (a capsule's moved out to its surface).
    Face(Segment),
    /// An end cap of a segment or a chain's vertex.
    Cap,
    /// A round surface: a pillar, an arc, a capsule's end.
    Pillar,
}

/// A wall a ball touches at the start of the step.
#[derive(Clone, Copy, Debug)]
pub(super) struct WallContact {
    pub(super) ball: usize,
    pub(super) obstacle: ObstacleId,
    pub(super) point: Vec2,
    /// From the wall towards the ball.
    pub(super) normal: Vec2,
    /// Both materials' friction, combined.
    pub(super) friction: f32,
    pub(super) on: Rest,
    /// The approach at the start of the step (contacts approaching faster are impacts, for
    /// the event machinery).
    pub(super) approach: f32,
    /// The impulses taken in the solve.
    pub(super) taken: Accumulated,
}

/// The one wall a pressed ball rests on, on its face, when it touches nothing else at the
/// step's start: it slides along that face (`settle.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) struct OnlyWall {
    /// The face the ball touches.
    pub(super) face: Segment,
    /// The point of the face the ball touches.
    pub(super) point: Vec2,
    /// From the wall towards the ball.
    pub(super) normal: Vec2,
    /// Both materials' friction, combined.
    pub(super) friction: f32,
}

/// Two touching balls at the start of the step.
#[derive(Clone, Copy, Debug)]
pub(super) struct RestingPair {
    pub(super) a: usize,
    pub(super) b: usize,
    /// From `b` towards `a`.
    pub(super) normal: Vec2,
    pub(super) friction: f32,
    /// The approach at the start of the step.
    pub(super) approach: f32,
    /// The impulses taken in the solve.
    pub(super) taken: Accumulated,
}
