//! Which balls need the event machinery: the price is paid only for what is used.
//!
//! Every ball is first swept on its own (its walls only, with [`sweep_bounces`], in
//! parallel), which gives its exact path if nothing else touches it; the box around that
//! path bounds where it goes. A ball whose box meets another ball's box (ball–ball on,
//! layers permitting) or a moving obstacle's swept box can meet them, and goes through the
//! event machinery with them; every other ball keeps its own sweep. That is exact: two
//! balls whose paths' boxes are apart cannot touch.
//!
//! The event machinery can change a ball's path; if its new path reaches a ball that kept
//! its own sweep, that ball joins the event group and the group is stepped again from the
//! start of the step (at most [`MAX_ISLAND_ROUNDS`] times, then every ball joins).

use super::ball::{Ball, MovingObstacle};
use super::ball_grid::BallGrid;
use super::report::{Contact, ContactWith};
use super::scratch::Clock;
use super::settings::MultiballSettings;
use super::sim::Sim;
use crate::bounce::{SweepOutcome, SweepSettings, sweep_bounces};
use crate::obstacle::Obstacles;
use crate::shape::Aabb;

/// One ball swept on its own.
#[derive(Clone, Debug, Default)]
pub(super) struct Solo {
    /// The ball, by index, as it was at the step's start.
    pub(super) index: usize,
    pub(super) ball: Option<Ball>,
    /// Where the sweep left it, and how many contacts it resolved (`None`: a bad ball).
    pub(super) end: Option<SweepOutcome>,
    /// The box around its path, inflated by its radius.
    pub(super) bounds: Option<Aabb>,
    /// Its contacts, in time order.
    pub(super) contacts: Vec<Contact>,
    /// Goes through the event machinery.
    pub(super) events: bool,
}

/// Sweep a ball on its own through `dt`, recording its path's box and contacts.
pub(super) fn sweep_solo<O: Obstacles + ?Sized>(
    solo: &mut Solo,
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
) {
    solo.contacts.clear();
    solo.end = None;
    solo.bounds = None;
    let Some(ball) = solo.ball else {
        return;
    };
    let k = solo.index;
    let sweep = SweepSettings {
        max_bounces: settings.max_bounces,
        resting_speed: settings.resting_speed,
        response: ball.response,
        material: ball.material,
        layers: ball.layers,
    };
    let mut path = Aabb::new(ball.center, ball.center);
    let contacts = &mut solo.contacts;
    let result = sweep_bounces(ball.circle(), ball.velocity, dt, obstacles, &sweep, |h| {
        if !h.sensor {
            path = path.union(Aabb::new(h.hit.center, h.hit.center));
        }
        contacts.push(Contact {
            ball: k,
            with: ContactWith::Obstacle(h.obstacle),
            time: h.time,
            hit: h.hit,
            approach_speed: h.approach_speed,
            sensor: h.sensor,
            kick: h.kick,
        });
    });
    if let Ok(out) = result {
        path = path.union(Aabb::new(out.center, out.center));
        solo.end = Some(out);
        solo.bounds = Some(path.inflated(ball.radius));
    }
}

/// Whether ball `k`, whose path stays in `bounds`, can meet a moving obstacle (by their
/// swept boxes) or another ball (by the path boxes in `grid`, from `solo`).
pub(super) fn meets_something(
    k: usize,
    bounds: Aabb,
    solo: &[Solo],
    grid: &BallGrid,
    moving: &[MovingObstacle],
    moving_boxes: &[Aabb],
    ball_ball: bool,
) -> bool {
    let Some(ball) = solo[k].ball else {
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
        met |= solo[j]
            .ball
            .is_some_and(|other| ball.layers.interacts(other.layers));
    });
    met
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `j`, swept on its own so far, joins the event machinery at `now`: its own sweep
    /// replayed to `now` (reporting its contacts), then a clock at `now`. `false` if it
    /// cannot (already in, or a bad ball).
    pub(super) fn pull(&mut self, j: usize, now: f32) -> bool {
        if self.scratch.member[j] {
            return false;
        }
        let Some(start) = self.scratch.solo[self.scratch.order.caller(j)].ball else {
            return false;
        };
        let mut ball = start;
        let mut bounces = 0;
        if now > 0.0 {
            let sweep = SweepSettings {
                max_bounces: self.settings.max_bounces,
                resting_speed: self.settings.resting_speed,
                response: ball.response,
                material: ball.material,
                layers: ball.layers,
            };
            let contacts = &mut self.scratch.pulled_contacts;
            let result = sweep_bounces(ball.circle(), ball.velocity, now, self.obstacles, &sweep, |h| {
                contacts.push(Contact {
                    ball: j,
                    with: ContactWith::Obstacle(h.obstacle),
                    time: h.time,
                    hit: h.hit,
                    approach_speed: h.approach_speed,
                    sensor: h.sensor,
                    kick: h.kick,
                });
            });
            let Ok(out) = result else {
                return false;
            };
            (ball.center, ball.velocity, bounces) = (out.center, out.velocity, out.bounces);
        }
        self.balls[j] = ball;
        self.scratch.member[j] = true;
        self.scratch.clock[j] = Clock {
            time: now,
            version: 0,
            frozen: false,
            valid: true,
            pinched: false,
            sensors: 0,
        };
        self.scratch.state[j].bounces = bounces;
        self.moved(j);
        true
    }
}
