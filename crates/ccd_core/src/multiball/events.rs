//! The events phase: the balls marked for the event machinery, stepped event by event in
//! time order (see the module docs' "life of an event"). The balls go in in spatial order
//! (`order.rs`) and come back in the caller's; the phase's state, [`Events`], lives from the
//! step's start to its end.

use super::context::StepContext;
use super::first_forecasts::FirstBuffers;
use super::hinge_clocks::HingeClocks;
use super::lone::Lone;
use super::moving::MovingObstacle;
use super::obstacle_contact::ObstacleHit;
use super::pairs::PairBuffers;
use super::parallel::Parallel;
use super::queue::{BallEvent, Event, EventKind};
use super::report::{Contact, MultiballReport};
use super::settle::Settling;
use super::sim::Sim;
use super::state::{EventBuffers, EventState};
use crate::ball::Ball;
use crate::bounce::RideTally;
use crate::contact_with::ContactWith;
use crate::obstacle::Obstacles;
use crate::tolerance::{DEFAULT_EVENTS_PER_BALL, MIN_EVENT_BUDGET};
use glam::Vec2;

/// The events phase's state: the event balls' state over the step, its buffers, the balls
/// in its order, and the contacts it found.
#[derive(Clone, Debug, Default)]
pub(super) struct Events {
    pub(super) state: EventState,
    settling: Settling,
    first: FirstBuffers,
    pairs: PairBuffers,
    event: EventBuffers,
    /// The balls in the machinery's order, while it runs.
    sorted: Vec<Ball>,
    /// The machinery's contacts (the caller's ball numbers once it is done), and those of
    /// the balls that joined it, replayed up to when they joined.
    contacts: Vec<Contact>,
    /// The balls the event machinery rode round a part in the last step, by the caller's
    /// number, with their rides' tallies.
    pub(super) rides: Vec<(u32, RideTally)>,
}

/// What the events phase reads and writes of the other phases.
pub(super) struct Handoff<'a> {
    /// Every ball's lone sweep, in the caller's order.
    pub(super) lone: &'a [Lone],
    /// Per ball, in the caller's order: marked for the event machinery (a lone ball that
    /// joins it is marked on the way).
    pub(super) in_events: &'a mut Vec<bool>,
    pub(super) hinges: &'a mut HingeClocks,
    /// Per ball, in the caller's order: it met something last step.
    pub(super) met_before: &'a [bool],
    /// Per ball, in the caller's order: it met something this step (written for the event
    /// balls).
    pub(super) met: &'a mut [bool],
}

impl Events {
    /// Step the marked balls of `balls` (`handoff.in_events`) through the event machinery,
    /// in spatial order; the results go back in the caller's order. Returns the phase's
    /// report.
    pub(super) fn run<P: Parallel, O: Obstacles + Sync + ?Sized>(
        &mut self,
        pool: &P,
        ctx: &StepContext<'_, O>,
        balls: &mut [Ball],
        moving: &mut [MovingObstacle],
        handoff: Handoff<'_>,
    ) -> MultiballReport {
        let Handoff {
            lone,
            in_events,
            hinges,
            met_before,
            met,
        } = handoff;
        self.state.order.sort_in(balls, &mut self.sorted, in_events);
        self.contacts.clear();
        self.state.joined_contacts.clear();
        let mut sim = Sim {
            balls: &mut self.sorted,
            dt: ctx.dt,
            obstacles: ctx.obstacles,
            moving,
            moving_boxes: ctx.moving_boxes,
            settings: ctx.settings,
            step: &mut self.state,
            event: &mut self.event,
            lone,
            in_events,
            hinges,
            max_radius: 0.0,
            shared_layers: false,
            one_gravity: true,
            met_before,
            contacts: &mut self.contacts,
            report: MultiballReport::default(),
        };
        sim.prepare();
        sim.start_gravity(&mut self.settling);
        sim.predict_first(pool, &mut self.first);
        let report = sim.run(&mut self.pairs);
        // Which event balls met something, in the caller's order.
        for (n, s) in self.state.state.iter().enumerate() {
            let touched = self.settling.rest.touched.get(n).copied().unwrap_or(false);
            if let Some(m) = met.get_mut(self.state.order.caller(n)) {
                *m = s.bounces.count > 0 || touched;
            }
        }
        // The riders' tallies, by the caller's numbers.
        self.rides.clear();
        for &n in &self.state.riders {
            let n = n as usize;
            self.rides
                .push((self.state.order.caller(n) as u32, self.state.rides[n]));
        }
        let order = &mut self.state.order;
        order.renumber(&mut self.contacts);
        order.renumber(&mut self.state.joined_contacts);
        order.sort_out(balls, &self.sorted, in_events);
        report
    }

    /// The phase's contacts, and those of the balls that joined it replayed up to then, in
    /// time order (each ball's in the order they happened), to `on_contact`.
    pub(super) fn report(&mut self, on_contact: &mut impl FnMut(&Contact)) {
        self.contacts.append(&mut self.state.joined_contacts);
        self.contacts.sort_by(|a, b| a.time.total_cmp(&b.time));
        self.contacts.iter().for_each(on_contact);
        self.contacts.clear();
    }
}

impl<O: Obstacles + Sync + ?Sized> Sim<'_, O> {
    /// The event machinery's loop over the step, once every ball has its first forecast:
    /// every event in time order up to the budget, then every ball to the end of its leg.
    /// Returns the report.
    fn run(&mut self, pairs: &mut PairBuffers) -> MultiballReport {
        let budget = if self.settings.max_events > 0 {
            self.settings.max_events
        } else {
            (self.balls.len() as u32)
                .saturating_mul(DEFAULT_EVENTS_PER_BALL)
                .saturating_add(MIN_EVENT_BUDGET)
        };
        loop {
            let until = self.peek_time().unwrap_or(self.dt);
            if self.limit_before(until) {
                continue;
            }
            let Some(Taken {
                ball: i,
                event: Event { time, kind },
            }) = self.take_next()
            else {
                break;
            };
            if self.report.events >= budget {
                self.report.event_budget_hit = true;
                self.wait_all(time);
                break;
            }
            self.report.events += 1;
            self.resolve_event(i, time, kind, pairs);
        }
        self.finish();
        self.report
    }
}

/// An event taken out of the queue, with its ball.
#[derive(Clone, Copy, Debug)]
struct Taken {
    ball: usize,
    event: Event,
}

impl<O: Obstacles + Sync + ?Sized> Sim<'_, O> {
    /// Resolve one event of ball `i` at `time`.
    fn resolve_event(&mut self, i: usize, time: f32, kind: EventKind, pairs: &mut PairBuffers) {
        match kind {
            EventKind::Ball { other, other_version } => {
                let partner = BallEvent {
                    time,
                    other,
                    other_version,
                };
                self.ball_event(i, partner, pairs);
            }
            EventKind::Obstacle { id, material, hit } => {
                let contact = ObstacleHit {
                    with: ContactWith::Obstacle(id),
                    material,
                    hit,
                    surface_velocity: Vec2::ZERO,
                };
                self.resolve_obstacle(i, time, contact, &mut pairs.cluster);
            }
            EventKind::Moving {
                index,
                hit,
                surface_velocity,
            } => {
                let contact = ObstacleHit {
                    with: ContactWith::Moving(index),
                    material: self.moving[index].obstacle.material,
                    hit,
                    surface_velocity,
                };
                self.resolve_obstacle(i, time, contact, &mut pairs.cluster);
            }
            EventKind::SlideEnds => self.leave_face(i, time),
            EventKind::SlideStops => self.stop_slide(i, time),
            EventKind::ChordEnds => self.chord_ends(i, time),
        }
    }

    /// The time of the earliest scheduled event. The queue holds a ball exactly while its
    /// schedule holds an event (`schedule` pushes or removes it with the event, and taking
    /// the event pops it), so the key alone answers: no read of the ball's schedule.
    fn peek_time(&self) -> Option<f32> {
        let key = self.step.queue.peek()?;
        debug_assert!(self.step.due.has(key.ball as usize));
        Some(key.time)
    }

    /// The earliest scheduled event still valid (any other is dropped), taken out of its
    /// ball's schedule.
    fn take_next(&mut self) -> Option<Taken> {
        while let Some(key) = self.step.queue.pop() {
            if let Some(event) = self.step.due.take(key.ball as usize) {
                return Some(Taken {
                    ball: key.ball as usize,
                    event,
                });
            }
        }
        None
    }

    /// The event budget ran out at `time`: everything before it is resolved; every ball
    /// waits there.
    fn wait_all(&mut self, time: f32) {
        for k in 0..self.balls.len() {
            self.advance(k, time);
            self.step.clock[k].waiting = true;
        }
        self.step.queue.reset(self.balls.len());
        self.step.due.reset(self.balls.len());
    }

    /// The end of the step: every ball to the end of its leg (or carried along, or pushed
    /// out of a squeeze), its sensors reported, its counts summed.
    fn finish(&mut self) {
        for k in 0..self.balls.len() {
            if !self.step.clock[k].waiting {
                self.advance(k, self.dt);
            }
            self.flush_sensors(k, self.dt);
            self.ride_to_end(k);
            self.squeeze_out(k);
            let s = &self.step.state[k];
            self.report.max_bounces_per_ball = self.report.max_bounces_per_ball.max(s.bounces.count);
            let clock = self.step.clock[k];
            let capped = clock.valid && s.bounces.capped();
            self.report.capped_balls += u32::from(capped);
            if clock.valid && clock.waiting && (capped || self.report.event_budget_hit) {
                self.report.lost_time += (self.dt - clock.time).max(0.0);
            }
        }
    }
}
