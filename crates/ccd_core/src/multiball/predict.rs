//! Wall and pair prediction: each ball's next event, from its clock to the end of the step.
//!
//! A ball's next event is the earliest of: the first static obstacle on its leg (with the
//! sensors it crosses before), the first moving obstacle (swept against the obstacle's
//! motion), and the first other ball (swept against that ball's leg). Only the earliest is
//! scheduled; a partner that changes course first makes it stale (see `step.rs`).

use super::pair_contact::earlier;
use super::queue::{EventKind, Key};
use super::report::{Contact, ContactWith};
use super::scratch::{Clock, LastContact};
use super::sim::Sim;
use crate::bounce::{earliest_solid_on_leg, keep_earliest};
use crate::hit::Hit;
use crate::obstacle::{ObstacleShape, Obstacles};
use crate::response::takes_contact;
use crate::shape::{Aabb, Circle};
use crate::sweep::{sweep_circle_moving_circle, sweep_circle_moving_segment};
use crate::tolerance::{MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL};
use glam::Vec2;

/// The sensors a leg crosses: time, what, where.
type Sensors = ([(f32, ContactWith, Hit); SENSORS_PER_LEG], usize);

/// Where a prediction puts the sensors a leg crosses: kept ([`Sensors`], when the plan is
/// scheduled), or only counted (`usize`, when planning: no 384-byte list per plan).
trait SensorSink {
    fn add(&mut self, entry: (f32, ContactWith, Hit));
    fn count(&self) -> usize;
}

impl SensorSink for Sensors {
    /// Keeps the earliest [`SENSORS_PER_LEG`], in time order (when full, the latest goes).
    fn add(&mut self, entry: (f32, ContactWith, Hit)) {
        keep_earliest(&mut self.0, &mut self.1, entry, |e| e.0);
    }
    fn count(&self) -> usize {
        self.1
    }
}

impl SensorSink for usize {
    fn add(&mut self, _: (f32, ContactWith, Hit)) {
        *self = (*self + 1).min(SENSORS_PER_LEG);
    }
    fn count(&self) -> usize {
        *self
    }
}

/// A ball's leg: from its clock to the end of the step.
#[derive(Clone, Copy, Debug)]
struct Leg {
    circle: Circle,
    start: f32,
    left: f32,
    motion: Vec2,
}

/// A ball's planned next event, and whether its leg crosses sensors (rare: they are
/// gathered again when the plan is scheduled, so plans stay small to move around).
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    next: Next,
    leg: Leg,
    sensors: bool,
}

impl Planned {
    /// The time of the event found so far (infinity if none).
    #[inline]
    pub(super) fn best_time(&self) -> f32 {
        self.next.best_time
    }

    /// A ball swept on its own that this leg may reach: it must join first.
    #[inline]
    pub(super) fn pull(&mut self, j: usize) {
        self.next.pull(j);
    }

    /// Ball `other` (at its `version`) met at `time`.
    #[inline]
    pub(super) fn consider_ball(&mut self, time: f32, other: usize, version: u32) {
        self.next.consider(
            time,
            EventKind::Ball {
                other: other as u32,
                other_version: version,
            },
        );
    }

    /// Whether balls swept on their own must join before this plan holds.
    fn wants_pulls(&self) -> bool {
        self.next.pull_count > 0 || self.next.pull_overflow
    }
}

/// The earliest event found so far, and whether another ball meets this one at the same
/// instant (then the batch looks for it, see `pairs.rs`).
#[derive(Clone, Copy, Debug)]
struct Next {
    best: Option<(f32, EventKind)>,
    /// `best`'s time, infinite while there is none (read for every candidate pair: a
    /// plain number, no test of the option).
    best_time: f32,
    second_ball: Option<f32>,
    /// Balls swept on their own whose paths this leg may reach: they must join the event
    /// machinery first (see `islands.rs`). More than fit: `pull_overflow`.
    pulls: [u32; PULLS_PER_PLAN],
    pull_count: u8,
    pull_overflow: bool,
}

/// Balls a plan remembers to pull into the event machinery; more are found again when the
/// ball is planned once more, after these joined.
const PULLS_PER_PLAN: usize = 4;

impl Next {
    /// Nothing found yet (written out: the derived default called a library function
    /// for the array, once per plan).
    const NONE: Self = Self {
        best: None,
        best_time: f32::INFINITY,
        second_ball: None,
        pulls: [0; PULLS_PER_PLAN],
        pull_count: 0,
        pull_overflow: false,
    };

    #[inline]
    fn pull(&mut self, j: usize) {
        let n = self.pull_count as usize;
        if n < PULLS_PER_PLAN {
            self.pulls[n] = j as u32;
            self.pull_count += 1;
        } else {
            self.pull_overflow = true;
        }
    }

    #[inline]
    fn consider(&mut self, time: f32, kind: EventKind) {
        if self.best.is_none_or(|(t, _)| time < t) {
            if let Some((t, EventKind::Ball { .. })) = self.best {
                self.second_ball = Some(self.second_ball.map_or(t, |s| s.min(t)));
            }
            self.best = Some((time, kind));
            self.best_time = time;
        } else if matches!(kind, EventKind::Ball { .. }) {
            self.second_ball = Some(self.second_ball.map_or(time, |s| s.min(time)));
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Find ball `i`'s next event from its clock and schedule it (replacing any it had).
    pub(super) fn predict(&mut self, i: usize, _on_contact: &mut impl FnMut(&Contact)) {
        let planned = self.plan(i);
        self.settle(i, planned.as_ref());
    }

    /// Schedule ball `i`'s planned event, once every ball swept on its own that its leg may
    /// reach has joined the event machinery (planning it again with them); then plan and
    /// schedule those that joined, the same way.
    pub(super) fn settle(&mut self, i: usize, planned: Option<&Planned>) {
        // Nearly always nothing to pull: schedule it as it is, without moving it around.
        if !planned.is_some_and(Planned::wants_pulls) {
            self.schedule(i, planned);
            return;
        }
        let planned = planned.copied();
        let mut joined = std::mem::take(&mut self.scratch.joining);
        joined.clear();
        let mut current = Some((i, planned));
        loop {
            let (k, mut planned) = match current.take() {
                Some(first) => first,
                None => match joined.pop() {
                    Some(j) => (j, self.plan(j)),
                    None => break,
                },
            };
            while let Some(p) = planned.filter(Planned::wants_pulls) {
                let now = self.scratch.clock[k].time;
                for &j in &p.next.pulls[..usize::from(p.next.pull_count)] {
                    if self.pull(j as usize, now) {
                        joined.push(j as usize);
                    }
                }
                planned = self.plan(k);
            }
            self.schedule(k, planned.as_ref());
        }
        self.scratch.joining = joined;
    }

    /// Ball `i`'s next event and the sensors before it, without changing anything (so many
    /// balls can be planned at once). `None` for a ball that waits or has no leg left.
    pub(super) fn plan(&self, i: usize) -> Option<Planned> {
        self.plan_with(i, self.settings.ball_ball)
    }

    /// [`Sim::plan`], looking for other balls only if `balls` (the step's first plans
    /// find them pair by pair instead, see `first_plans.rs`).
    pub(super) fn plan_with(&self, i: usize, balls: bool) -> Option<Planned> {
        let Clock {
            frozen, time: start, ..
        } = self.scratch.clock[i];
        if frozen {
            return None;
        }
        let ball = self.balls[i];
        let left = self.dt - start;
        let leg = Leg {
            circle: ball.circle(),
            start,
            left,
            motion: ball.velocity * left,
        };
        if !(left > 0.0) || (leg.motion == Vec2::ZERO && self.moving.is_empty()) {
            return None;
        }
        let mut next = Next::NONE;
        let mut sensors = 0_usize;
        self.predict_walls(i, leg, &mut next, &mut sensors);
        self.predict_moving(i, leg, &mut next, &mut sensors);
        if balls {
            self.predict_balls(i, leg, &mut next);
        }
        Some(Planned {
            next,
            leg,
            sensors: sensors > 0,
        })
    }

    /// The faster of the two surfaces squeezing ball `i`, if it is squeezed.
    #[inline]
    fn pinched_faster(&self, i: usize) -> Option<ContactWith> {
        if self.scratch.clock[i].pinched {
            self.scratch.state[i].pinched.map(|p| p.faster)
        } else {
            None
        }
    }

    /// The first static obstacle on the leg, and the sensors crossed on the way.
    fn predict_walls(&self, i: usize, leg: Leg, next: &mut Next, sensors: &mut impl SensorSink) {
        let ball = self.balls[i];
        // A squeezed ball ignores the faster of the two surfaces squeezing it.
        let skip = match self.pinched_faster(i) {
            Some(ContactWith::Obstacle(id)) => Some(id),
            _ => None,
        };
        // The wall this leg starts from, if the ball's centre lies on it, is met again at
        // once from the other side: that contact is dropped (see `met_again_from_behind`).
        let just_met = match self.scratch.state[i].last {
            Some(LastContact {
                with: ContactWith::Obstacle(id),
                normal,
                time,
                ..
            }) if time == leg.start => Some((id, normal)),
            _ => None,
        };
        let (solid, _) = earliest_solid_on_leg(
            leg.circle,
            leg.motion,
            self.obstacles,
            ball.layers,
            skip,
            just_met,
            |id, hit| {
                sensors.add((leg.start + hit.toi * leg.left, ContactWith::Obstacle(id), hit));
            },
        );
        if let Some((id, material, hit)) = solid {
            next.consider(
                leg.start + hit.toi * leg.left,
                EventKind::Obstacle { id, material, hit },
            );
        }
    }

    /// The first moving obstacle the leg meets, swept against its motion.
    fn predict_moving(&self, i: usize, leg: Leg, next: &mut Next, sensors: &mut impl SensorSink) {
        let ball = self.balls[i];
        let ignored = self.pinched_faster(i);
        let bounds = Aabb::swept(ball.center, leg.motion, ball.radius);
        let from = leg.start / self.dt;
        for (index, m) in self.moving.iter().enumerate() {
            if !ball.layers.interacts(m.obstacle.layers)
                || !self.scratch.moving_boxes[index].intersects(&bounds)
                || ignored.is_some_and(|faster| self.moves_with(faster, index))
            {
                continue;
            }
            let (obstacle, rest) = m.rest_of_step(from);
            let found = match obstacle.shape {
                ObstacleShape::Segment(s) => sweep_circle_moving_segment(leg.circle, leg.motion, s, rest)
                    .and_then(|h| {
                        takes_contact(&obstacle, h.hit.normal).then_some((h.hit, h.surface_motion))
                    }),
                ObstacleShape::Circle(c) => {
                    let other_motion = m.circle_center_at(c, 1.0) - m.circle_center_at(c, from);
                    sweep_circle_moving_circle(leg.circle, leg.motion, c, other_motion)
                        .map(|h| (h, other_motion))
                }
            };
            let Some((hit, surface_motion)) = found else {
                continue;
            };
            let time = leg.start + hit.toi * leg.left;
            if obstacle.sensor {
                if hit.toi > 0.0 && sensors.count() < SENSORS_PER_LEG {
                    sensors.add((time, ContactWith::Moving(index), hit));
                }
                continue;
            }
            let surface_velocity = surface_motion / leg.left;
            next.consider(
                time,
                EventKind::Moving {
                    index,
                    hit,
                    surface_velocity,
                },
            );
        }
    }

    /// The first other ball the leg meets, each swept against the other's own leg.
    fn predict_balls(&self, i: usize, leg: Leg, next: &mut Next) {
        let ball = self.balls[i];
        let balls = &*self.balls;
        let clocks = &self.scratch.clock;
        // Two balls whose swept boxes for the rest of the step are apart cannot touch: the
        // grid lists only the boxes that meet this one. The margin keeps f32 rounding of
        // the boxes from dropping a contact at their very edge.
        let reach =
            Aabb::swept(ball.center, leg.motion, ball.radius).inflated(self.max_radius * TOUCH_SLOP_REL);
        let (solo, order) = (&self.scratch.solo, &self.scratch.order);
        let member = &self.scratch.member;
        let shared_layers = self.shared_layers;
        let queue = &self.scratch.queue;
        self.scratch.grid.query_except(reach, i, |j| {
            if !shared_layers && !ball.layers.interacts(balls[j].layers) {
                return;
            }
            if !clocks[j].valid {
                // Swept on its own so far, and its path may be reached: it must join.
                if !member[j] && solo[order.caller(j)].ball.is_some() {
                    next.pull(j);
                }
                return;
            }
            // A contact after the earliest event found so far (and the window after it)
            // cannot change the plan: look only that far. Nor can one after the other
            // ball's own next event: the other changes course there, or finds that event
            // gone, and plans again either way, finding this ball then if they still meet.
            let until = earlier(next.best_time, queue.time_of(j));
            if let Some(time) = self.pair_contact(i, j, until) {
                next.consider(
                    time,
                    EventKind::Ball {
                        other: j as u32,
                        other_version: clocks[j].version,
                    },
                );
            }
        });
    }

    /// Keep the sensors up to the event, and schedule the event (none: any older one of
    /// the ball's is dropped all the same).
    pub(super) fn schedule(&mut self, i: usize, planned: Option<&Planned>) {
        let Some(&Planned {
            ref next,
            leg,
            sensors,
        }) = planned
        else {
            self.scratch.due.set(i, None, false);
            self.scratch.queue.remove(i);
            return;
        };
        let end = next.best.map_or(self.dt, |(t, _)| t);
        let window = SIMULTANEOUS_TIME_REL * self.dt;
        let n = if sensors {
            self.keep_sensors(i, leg, end)
        } else {
            0
        };
        self.scratch.clock[i].sensors = n as u8;
        let tied = matches!(next.best, Some((_, EventKind::Ball { .. })))
            && next.second_ball.is_some_and(|t| t <= end + window);
        self.scratch.due.set(i, next.best, tied);
        match next.best {
            Some((time, _)) => self.scratch.queue.push(Key { time, ball: i as u32 }),
            None => self.scratch.queue.remove(i),
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Gather the sensors ball `i`'s leg crosses up to `end` (an earlier solid contact cuts
    /// the leg) into its list, in time order. Returns how many.
    fn keep_sensors(&mut self, i: usize, leg: Leg, end: f32) -> usize {
        let mut again = Next::NONE;
        let mut found: Sensors = (
            [(0.0, ContactWith::Ball(0), leg_placeholder()); SENSORS_PER_LEG],
            0,
        );
        self.predict_walls(i, leg, &mut again, &mut found);
        self.predict_moving(i, leg, &mut again, &mut found);
        let mut n = 0;
        let kept = &mut self.scratch.sensors[i];
        for entry in found.0.iter().take(found.1) {
            if entry.0 <= end {
                kept[n] = *entry;
                n += 1;
            }
        }
        kept[..n].sort_by(|a, b| a.0.total_cmp(&b.0));
        n
    }
}

pub(super) fn leg_placeholder() -> Hit {
    Hit {
        toi: 0.0,
        center: Vec2::ZERO,
        point: Vec2::ZERO,
        normal: Vec2::ZERO,
    }
}
