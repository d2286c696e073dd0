//! Progression on the richer table, as the game's state: lit inserts (arrows) on the
//! major shots (the orbits, the ramp and the saucer), combos, the end-of-ball bonus and
//! its multiplier (raised by the top lanes, whose lamps the flipper buttons rotate), the
//! kickback lit by its standup, the extra ball lit by the other standups, the lock lit by
//! the drop targets, multiball and its jackpot, and the ball-save clock; with what a shot,
//! a top lane or a standup scores. The rules that move it on are in `playfield.rs`; the
//! view reads [`Progress`] for its lamps.

use crate::table::TableDef;
use crate::table::playfield::Lights;
use bevy::prelude::*;

/// Points on the richer table.
pub mod points {
    /// A major shot whose arrow is lit.
    pub const SHOT_LIT: u64 = 5_000;
    /// A major shot whose arrow is out.
    pub const SHOT_UNLIT: u64 = 1_000;
    /// Every arrow made (they all light again).
    pub const ALL_SHOTS: u64 = 25_000;
    /// A combo, times the combo's length (2 for the second shot in a row, …).
    pub const COMBO: u64 = 2_500;
    /// A top lane.
    pub const TOP_LANE: u64 = 500;
    /// All three top lanes (and the multiplier goes up).
    pub const ALL_TOP_LANES: u64 = 3_000;
    /// A standup target.
    pub const STANDUP: u64 = 750;
    /// A ball locked.
    pub const LOCK: u64 = 10_000;
    /// The jackpot (the ramp during multiball).
    pub const JACKPOT: u64 = 50_000;
    /// End-of-ball bonus for each major shot made during the ball.
    pub const BONUS_PER_SHOT: u64 = 1_000;
    /// End-of-ball bonus for each top lane.
    pub const BONUS_PER_LANE: u64 = 250;
}

/// Completions of the extra-ball standups that light the extra ball (once a game).
const EXTRA_BALL_SETS: u32 = 5;

/// The progression state of the game in play (reset with each new game).
#[derive(Resource, Default, Debug, Clone)]
pub struct Progress {
    /// The major shots' names (orbits, then the ramp, then the saucer) and their arrows.
    pub shot_names: Vec<String>,
    pub shots_lit: Vec<bool>,
    ramp_shot: Option<usize>,
    saucer_shot: Option<usize>,
    /// When the last major shot was made, and the combo's length so far.
    last_shot_at: Option<f32>,
    pub combo: u32,
    /// End-of-ball bonus and multiplier.
    pub bonus: u64,
    pub multiplier: u32,
    pub lanes_lit: Vec<bool>,
    pub kickback_lit: bool,
    /// Which extra-ball standups are down this round, and the rounds completed.
    extra_hits: Vec<bool>,
    extra_sets: u32,
    pub extra_ball_lit: bool,
    /// Extra balls earned and not yet played.
    pub extra_balls: u32,
    pub lock_lit: bool,
    pub locks: u32,
    pub jackpot_lit: bool,
    /// The ball save runs until this simulated time (None: not started for this ball).
    pub save_until: Option<f32>,
    /// The tilt bob's level (a nudge adds 1; it settles), and whether the ball tilted.
    pub tilt_bob: f32,
    pub tilted: bool,
    /// A ball is being played (served and not yet ended), and since when.
    pub ball_live: bool,
    pub ball_started: f32,
}

impl Progress {
    /// A new game on `def`: every arrow lit, nothing else.
    #[must_use]
    pub fn new(def: &TableDef) -> Self {
        let p = &def.playfield;
        let mut shot_names: Vec<String> = p.shots.iter().map(|s| s.name.clone()).collect();
        let ramp_shot = p.ramp.as_ref().map(|_| {
            shot_names.push("ramp".into());
            shot_names.len() - 1
        });
        let saucer_shot = p.saucer.as_ref().map(|_| {
            shot_names.push("saucer".into());
            shot_names.len() - 1
        });
        let extra = p
            .standups
            .iter()
            .filter(|s| s.lights == Lights::ExtraBall)
            .count();
        Self {
            shots_lit: vec![true; shot_names.len()],
            shot_names,
            ramp_shot,
            saucer_shot,
            multiplier: 1,
            lanes_lit: vec![false; p.top_lanes.len()],
            extra_hits: vec![false; extra],
            ..default()
        }
    }

    /// A new ball: bonus, multiplier, ball save, tilt and combo start again.
    pub fn new_ball(&mut self, now: f32) {
        self.bonus = 0;
        self.multiplier = 1;
        self.save_until = None;
        self.tilt_bob = 0.0;
        self.tilted = false;
        self.combo = 0;
        self.last_shot_at = None;
        self.ball_live = true;
        self.ball_started = now;
    }

    /// The ramp's and the saucer's shot numbers.
    #[must_use]
    pub fn ramp_shot(&self) -> Option<usize> {
        self.ramp_shot
    }

    #[must_use]
    pub fn saucer_shot(&self) -> Option<usize> {
        self.saucer_shot
    }

    /// Whether the ball save is running at `now`.
    #[must_use]
    pub fn saving(&self, now: f32) -> bool {
        self.save_until.is_some_and(|t| now < t)
    }

    /// Score major shot `k` at `now`: the arrow, the combo, the bonus; returns the points
    /// (before the game's own bookkeeping) and a message.
    pub fn shot(&mut self, k: usize, now: f32, combo_seconds: f32) -> (u64, String) {
        let name = self.shot_names.get(k).cloned().unwrap_or_default();
        let lit = self.shots_lit.get(k).copied().unwrap_or(false);
        let mut pts = if lit { points::SHOT_LIT } else { points::SHOT_UNLIT };
        let mut msg = format!("{}: {}", name.to_uppercase(), if lit { "LIT!" } else { "shot" });
        if let Some(s) = self.shots_lit.get_mut(k) {
            *s = false;
        }
        if !self.shots_lit.is_empty() && self.shots_lit.iter().all(|l| !*l) {
            pts += points::ALL_SHOTS;
            self.shots_lit.iter_mut().for_each(|l| *l = true);
            msg = "ALL ARROWS: 25,000".into();
        }
        self.combo = match self.last_shot_at {
            Some(t) if now - t <= combo_seconds => self.combo + 1,
            _ => 1,
        };
        if self.combo >= 2 {
            pts += points::COMBO * u64::from(self.combo);
            msg = format!("{}-WAY COMBO", self.combo);
        }
        self.last_shot_at = Some(now);
        self.bonus += points::BONUS_PER_SHOT;
        (pts, msg)
    }

    /// Rotate the top lanes' lamps one place (left or right): lane change.
    pub fn rotate_lanes(&mut self, to_left: bool) {
        if self.lanes_lit.is_empty() {
            return;
        }
        if to_left {
            self.lanes_lit.rotate_left(1);
        } else {
            self.lanes_lit.rotate_right(1);
        }
    }

    /// Top lane `k` rolled over: lit; all lit raise the multiplier (up to `max`). Returns
    /// the points and whether the set was completed.
    pub fn top_lane(&mut self, k: usize, max: u32) -> (u64, bool) {
        self.bonus += points::BONUS_PER_LANE;
        if let Some(l) = self.lanes_lit.get_mut(k) {
            *l = true;
        }
        if self.lanes_lit.iter().all(|l| *l) {
            self.lanes_lit.iter_mut().for_each(|l| *l = false);
            self.multiplier = (self.multiplier + 1).min(max);
            (points::TOP_LANE + points::ALL_TOP_LANES, true)
        } else {
            (points::TOP_LANE, false)
        }
    }

    /// An extra-ball standup (the `k`-th of them) hit; returns whether it lit the extra ball.
    pub fn extra_standup(&mut self, k: usize) -> bool {
        if let Some(h) = self.extra_hits.get_mut(k) {
            *h = true;
        }
        if !self.extra_hits.is_empty() && self.extra_hits.iter().all(|h| *h) {
            self.extra_hits.iter_mut().for_each(|h| *h = false);
            self.extra_sets += 1;
            if self.extra_sets == EXTRA_BALL_SETS {
                self.extra_ball_lit = true;
                return true;
            }
        }
        false
    }

    /// The end-of-ball bonus: bonus times multiplier, none after a tilt.
    #[must_use]
    pub fn end_of_ball_bonus(&self) -> u64 {
        if self.tilted {
            0
        } else {
            self.bonus * u64::from(self.multiplier)
        }
    }
}
