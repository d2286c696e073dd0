//! Lone balls: which balls need the event machinery at all (the price is paid only for
//! what is used).
//!
//! Every ball is first swept on its own (its walls only, with [`sweep_bounces`], in
//! parallel): a *lone* ball. The sweep gives its exact path if nothing else touches it,
//! and the box around that path bounds where it goes. A ball whose box meets another
//! ball's box (ball–ball on, layers permitting) or a moving obstacle's swept box can meet
//! them, and goes through the event machinery with them (an *event ball*); every other
//! ball keeps its own sweep. That is exact: two balls whose paths' boxes are apart cannot
//! touch.
//!
//! The event machinery can change a ball's path. If its new leg reaches a lone ball's
//! box, that ball *joins* the event machinery at that instant (`Sim::join`, in `sim.rs`):
//! its own sweep is replayed up to then, with its contacts, and it gets a clock there.
//! Joining needs no rounds: a ball joins once, at the first instant any leg may reach it.

use super::ball::{Ball, MovingObstacle};
use super::ball_grid::BallGrid;
use super::report::{Contact, ContactWith};
use super::settings::MultiballSettings;
use crate::bounce::{BounceHit, SweepOutcome, SweepSettings, sweep_legs};
use crate::obstacle::Obstacles;
use crate::shape::Aabb;
use glam::Vec2;

/// One ball swept on its own.
///
/// The fields the step reads for every ball after the sweeps (where it ended, its solid
/// contacts, whether it goes through the event machinery) come first, in one cache line
/// (`repr(C)` keeps them there): at 10,000 balls those passes over the list are memory
/// bound, and they skip the rest.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub(super) struct Lone {
    /// Where the sweep left it, and how many contacts it resolved (`None`: a bad ball).
    pub(super) end: Option<SweepOutcome>,
    /// How many of `contacts` are solid (not sensors): counted as the sweep finds them,
    /// on the sweep's own thread, so the step's tally after it reads no contact list.
    pub(super) solid_contacts: u32,
    /// Goes through the event machinery.
    pub(super) events: bool,
    /// Its contacts, in time order.
    pub(super) contacts: Vec<Contact>,
    /// The ball, by index, as it was at the step's start.
    pub(super) index: usize,
    pub(super) ball: Option<Ball>,
    /// The box around its path, inflated by its radius.
    pub(super) bounds: Option<Aabb>,
}

/// Sweep a ball on its own through `dt`, recording its path's box and contacts.
pub(super) fn sweep_lone<O: Obstacles + ?Sized>(
    lone: &mut Lone,
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
) {
    lone.contacts.clear();
    lone.solid_contacts = 0;
    lone.end = None;
    lone.bounds = None;
    let Some(ball) = lone.ball else {
        return;
    };
    let k = lone.index;
    let sweep = SweepSettings {
        max_bounces: settings.max_bounces,
        resting_speed: settings.resting_speed,
        response: ball.response,
        material: ball.material,
        layers: ball.layers,
        max_speed: ball.max_speed,
        gravity: settings.gravity,
    };
    let mut path = Aabb::new(ball.center, ball.center);
    let mut legs = path;
    let contacts = &mut lone.contacts;
    let solid_contacts = &mut lone.solid_contacts;
    let curved = settings.gravity != Vec2::ZERO;
    let result = sweep_legs(
        ball.circle(),
        ball.velocity,
        dt,
        obstacles,
        &sweep,
        |h| {
            if !h.sensor {
                *solid_contacts += 1;
                if !curved {
                    path = path.union(Aabb::new(h.hit.center, h.hit.center));
                }
            }
            contacts.push(wall_contact(k, h));
        },
        // A curved leg bulges between its ends: its own box.
        |leg| {
            if curved {
                legs = legs.union(leg.curve.aabb(leg.start, 0.0));
            }
        },
    );
    if let Ok(out) = result {
        path = path.union(legs).union(Aabb::new(out.center, out.center));
        lone.end = Some(out);
        lone.bounds = Some(path.inflated(ball.radius));
    }
}

/// Ball `k`'s contact with a wall, as its lone sweep reports it.
pub(super) fn wall_contact(k: usize, h: &BounceHit) -> Contact {
    Contact {
        ball: k,
        with: ContactWith::Obstacle(h.obstacle),
        time: h.time,
        hit: h.hit,
        approach_speed: h.approach_speed,
        // A lone ball meets walls only.
        other_velocity: Vec2::ZERO,
        sensor: h.sensor,
        kick: h.kick,
    }
}

/// Whether ball `k`, whose path stays in `bounds`, can meet a moving obstacle (by their
/// swept boxes) or another ball (by the path boxes in `grid`, from `lone`).
pub(super) fn meets_something(
    k: usize,
    bounds: Aabb,
    lone: &[Lone],
    grid: &BallGrid,
    moving: &[MovingObstacle],
    moving_boxes: &[Aabb],
    ball_ball: bool,
) -> bool {
    let Some(ball) = lone[k].ball else {
        return false;
    };
    let near_moving = moving
        .iter()
        .zip(moving_boxes)
        .any(|(m, b)| b.intersects(&bounds) && ball.layers.interacts(m.obstacle.layers));
    if near_moving {
        return true;
    }
    if !ball_ball {
        return false;
    }
    let mut met = false;
    grid.query_except(bounds, k, |j| {
        met |= lone[j]
            .ball
            .is_some_and(|other| ball.layers.interacts(other.layers));
    });
    met
}
