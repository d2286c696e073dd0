//! The autoplayer's trap: a slow ball arriving on a flipper when only one ball is in play
//! is caught on the raised blade and left to settle in the crook at the pivot; then the
//! flipper drops and shoots it as it rolls down the blade, at the first lit shot it can
//! make from there (at the flip point `trap_shot.rs` learns), else as the ball rolls.

use super::state::{Autoplay, BallView, FLIP_COOLDOWN, FLIP_HOLD, REACH_FROM, Trap, lit_shots};
use crate::game::aim::{AimInputs, resting_direction};
use crate::game::progress::Progress;
use crate::game::trap_shot::target;
use crate::table::parts::{Flipper, InPlay};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// A lone ball arriving slower than this is caught on a raised flipper, mm/s.
const TRAP_MAX_SPEED: f32 = 1100.0;
/// ... held until it has been slower than this for the settle time, mm/s and s...
const TRAP_STILL_SPEED: f32 = 60.0;
const TRAP_SETTLE: f32 = 0.5;
/// ... given up after this long, s, and not tried again for this long after a release.
const TRAP_GIVE_UP: f32 = 3.0;
const TRAP_COOLDOWN: f32 = 1.5;
/// An aimed trap shot whose ball has not reached its flip point this long after the
/// flipper dropped is given up, s (the ball rolls the blade's length in about 0.3 s).
const AIM_GIVE_UP: f32 = 1.0;

/// What the trap looks at besides the flipper and the balls.
pub(super) struct Scene<'a> {
    pub(super) now: f32,
    /// Only one ball in play.
    pub(super) lone: bool,
    pub(super) world: &'a CcdWorld,
    pub(super) progress: &'a Progress,
    pub(super) def: &'a crate::table::TableDef,
    /// Down the table, mm/s².
    pub(super) gravity: f32,
}

/// The trap on flipper `k`: returns whether it decides the flipper this step (holding it
/// up, or keeping it down until an aimed shot's flip point).
pub(super) fn trap(
    auto: &mut Autoplay,
    k: usize,
    scene: &Scene,
    f: &Flipper,
    balls: &Query<BallView, InPlay>,
) -> bool {
    let now = scene.now;
    match auto.trap[k] {
        Trap::Idle => {
            let slow = auto.arrivals[k]
                .is_some_and(|(_, along, speed)| along >= REACH_FROM && speed < TRAP_MAX_SPEED);
            if scene.lone && slow {
                auto.trap[k] = Trap::Holding {
                    since: now,
                    still: None,
                };
                return true;
            }
            false
        }
        Trap::Holding { since, still } => {
            // Held on the raised blade, whose slope rolls it back to the crook at the
            // pivot: within the bat's length of the pivot (a ball on both raised tips is not), and still.
            let resting = balls.iter().all(|(tf, c, _, _)| {
                tf.translation.truncate().distance(f.pivot) < f.length
                    && c.velocity.length() < TRAP_STILL_SPEED
            });
            let still = if resting { Some(still.unwrap_or(now)) } else { None };
            let settled = still.is_some_and(|t| now - t >= TRAP_SETTLE);
            if settled
                && scene.lone
                && let Some((shot, along)) = aim_from_trap(auto, scene, f, balls)
            {
                auto.trap[k] = Trap::Aiming {
                    since: now,
                    along,
                    shot,
                };
                // The other flipper, if it was raised for the same ball, drops out of the
                // shot's way.
                if let Trap::Holding { .. } = auto.trap[1 - k] {
                    auto.trap[1 - k] = Trap::Resting {
                        until: now + TRAP_COOLDOWN,
                    };
                }
                true
            } else if settled || now - since > TRAP_GIVE_UP || !scene.lone {
                auto.trap[k] = Trap::Resting {
                    until: now + TRAP_COOLDOWN,
                };
                false
            } else {
                auto.trap[k] = Trap::Holding { since, still };
                true
            }
        }
        Trap::Aiming { since, along, shot } => {
            let dir = resting_direction(f);
            let reached = balls
                .single()
                .ok()
                .map(|(tf, _, _, _)| (tf.translation.truncate() - f.pivot).dot(dir) / f.length)
                .filter(|a| *a >= along);
            if let Some(at) = reached {
                auto.hold[k] = FLIP_HOLD;
                auto.cooldown[k] = FLIP_COOLDOWN;
                // Nor does the other flip or trap at the ball on its way out.
                auto.cooldown[1 - k] = auto.cooldown[1 - k].max(FLIP_COOLDOWN);
                auto.trap[1 - k] = Trap::Resting {
                    until: now + TRAP_COOLDOWN,
                };
                auto.trap_shots.fired(f.side, at, now);
                if auto.aimed.len() <= shot {
                    auto.aimed.resize(shot + 1, 0);
                }
                auto.aimed[shot] += 1;
            }
            if reached.is_some() || now - since > AIM_GIVE_UP || !scene.lone {
                auto.trap[k] = Trap::Resting {
                    until: now + TRAP_COOLDOWN,
                };
                return reached.is_some();
            }
            true
        }
        Trap::Resting { until } => {
            if now >= until {
                auto.trap[k] = Trap::Idle;
            }
            false
        }
    }
}

/// The first lit shot that the ball settled on flipper `f` can be aimed at, and its flip
/// point; `None` when no lit shot can be made from there.
fn aim_from_trap(
    auto: &Autoplay,
    scene: &Scene,
    f: &Flipper,
    balls: &Query<BallView, InPlay>,
) -> Option<(usize, f32)> {
    let (_, c, layers, material) = balls.single().ok()?;
    let inputs = AimInputs {
        world: scene.world,
        layers: *layers,
        material: *material,
        radius: c.radius,
        gravity: scene.gravity,
    };
    lit_shots(scene.progress).find_map(|shot| {
        let goal = target(scene.def, scene.progress, shot)?;
        let along = auto.trap_shots.flip_point(f.side, goal, &inputs)?;
        Some((shot, along))
    })
}
