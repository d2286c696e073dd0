//! The autoplayer's state, and what it and its trap share: the balls as it sees them,
//! its timing, and the shots it aims at.

use crate::game::progress::Progress;
use crate::game::rules::Nudge;
use crate::game::trap_shot::TrapShots;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// A ball resting or rolling on a blade (no arrival to predict) is shot when it is over
/// the bat's length from this fraction of it to the tip...
pub(super) const REACH_FROM: f32 = 0.25;
/// How long the autoplayer holds a flip, and how long it waits before the next, s.
pub(super) const FLIP_HOLD: f32 = 0.14;
pub(super) const FLIP_COOLDOWN: f32 = 0.30;

/// The autoplayer's switch and state.
#[derive(Resource)]
pub struct Autoplay {
    pub on: bool,
    pub(super) hold: [f32; 2],
    pub(super) cooldown: [f32; 2],
    pub(super) trap: [Trap; 2],
    pub(super) next_prediction: f32,
    pub(super) next_nudge: f32,
    /// The predicted arrivals (time, fraction along, speed) at each flipper.
    pub(super) arrivals: [Option<(f32, f32, f32)>; 2],
    pub(super) outlane_danger: Option<Nudge>,
    pub(super) rest_time: f32,
    pub(super) pull_target: f32,
    pub(super) game_over_wait: f32,
    /// What it has learnt of its trap shots.
    pub(super) trap_shots: TrapShots,
    /// Aimed trap shots fired, by major shot.
    pub aimed: Vec<u32>,
}

impl Autoplay {
    /// On or off, at rest.
    pub fn new(on: bool) -> Self {
        Self {
            on,
            hold: [0.0; 2],
            cooldown: [0.0; 2],
            trap: [Trap::Idle; 2],
            next_prediction: 0.0,
            next_nudge: 0.0,
            arrivals: [None; 2],
            outlane_danger: None,
            rest_time: 0.0,
            pull_target: 0.0,
            game_over_wait: 0.0,
            trap_shots: TrapShots::default(),
            aimed: Vec::new(),
        }
    }
}

/// A flipper's trap.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) enum Trap {
    #[default]
    Idle,
    /// Holding the flipper up for a ball: since when, and since when the ball is still.
    Holding { since: f32, still: Option<f32> },
    /// Dropped to shoot the settled ball at a lit shot: since when, the flip point (a
    /// fraction of the blade's length) and the shot.
    Aiming { since: f32, along: f32, shot: usize },
    /// Released; no trap before this time.
    Resting { until: f32 },
}

/// A ball as the autoplayer sees it.
pub(super) type BallView<'a> = (&'a Transform, &'a MovingCircle, &'a CcdLayers, &'a CcdMaterial);

/// The major shots whose arrows are lit, in order (the jackpot's ramp alone during
/// multiball). Read every step: an iterator, no list.
pub(super) fn lit_shots(progress: &Progress) -> impl Iterator<Item = usize> + '_ {
    let jackpot = progress.jackpot_lit.then(|| progress.ramp_shot()).flatten();
    let arrows = (0..progress.shots_lit.len()).filter(|k| !progress.jackpot_lit && progress.shots_lit[*k]);
    jackpot.into_iter().chain(arrows)
}
