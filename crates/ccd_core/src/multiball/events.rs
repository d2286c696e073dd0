//! The events phase: the balls marked for the event machinery, stepped event by event in
//! time order (see the module docs' "life of an event"). The balls go in in spatial order
//! (`order.rs`) and come back in the caller's; the phase's state, [`Events`], lives from the
//! step's start to its end.

use super::hinge_clocks::HingeClocks;
use super::lone::Lone;
use super::moving::MovingObstacle;
use super::obstacle_contact::ObstacleHit;
use super::parallel::Parallel;
use super::queue::{BallEvent, Event, EventKind};
use super::report::{Contact, MultiballReport};
use super::sim::Sim;
use super::state::{EventBuffers, EventState, Pair, Retry, StartBuffers};
use super::step::StepContext;
use crate::ball::Ball;
use crate::hit::ContactWith;
use crate::obstacle::Obstacles;
use crate::tolerance::{DEFAULT_EVENTS_PER_BALL, MIN_EVENT_BUDGET, SIMULTANEOUS_TIME_REL};
use glam::Vec2;

/// The events phase's state: the event balls' state over the step, its buffers, the balls
/// in its order, and the contacts it found.
#[derive(Clone, Debug, Default)]
pub(super) struct Events {
    pub(super) state: EventState,
    start: StartBuffers,
    event: EventBuffers,
    /// The balls in the machinery's order, while it runs.
    sorted: Vec<Ball>,
    /// The machinery's contacts (the caller's ball numbers once it is done), and those of
    /// the balls that joined it, replayed up to when they joined.
    contacts: Vec<Contact>,
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
        let contacts = &mut self.contacts;
        let mut sim = Sim {
            balls: &mut self.sorted,
            dt: ctx.dt,
            obstacles: ctx.obstacles,
            moving,
            moving_boxes: ctx.moving_boxes,
            settings: ctx.settings,
            step: &mut self.state,
            start: &mut self.start,
            event: &mut self.event,
            lone,
            in_events,
            hinges,
            max_radius: 0.0,
            shared_layers: false,
            met_before,
        };
        let report = sim.run(pool, &mut |c: &Contact| contacts.push(*c));
        // Which event balls met something, in the caller's order.
        for (n, s) in self.state.state.iter().enumerate() {
            let touched = self.start.touched_balls.get(n).copied().unwrap_or(false);
            if let Some(m) = met.get_mut(self.state.order.caller(n)) {
                *m = s.bounces.count > 0 || touched;
            }
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
    /// The event machinery over the step: clocks, the resting start, the first predictions,
    /// then every event in time order up to the budget, and every ball to the end of its
    /// leg. Returns the report.
    fn run<P: Parallel>(&mut self, pool: &P, on_contact: &mut impl FnMut(&Contact)) -> MultiballReport {
        let mut report = MultiballReport::default();
        self.prepare();
        self.start_gravity(&mut report, on_contact);
        let budget = if self.settings.max_events > 0 {
            self.settings.max_events
        } else {
            (self.balls.len() as u32)
                .saturating_mul(DEFAULT_EVENTS_PER_BALL)
                .saturating_add(MIN_EVENT_BUDGET)
        };
        self.predict_first(pool);
        loop {
            let until = self.peek_time().unwrap_or(self.dt);
            if self.limit_before(until, &mut report, on_contact) {
                continue;
            }
            let Some(Taken {
                ball: i,
                event: Event { time, kind },
            }) = self.take_next()
            else {
                break;
            };
            if report.events >= budget {
                report.event_budget_hit = true;
                self.wait_all(time, on_contact);
                break;
            }
            report.events += 1;
            self.resolve_event(i, time, kind, &mut report, on_contact);
        }
        self.finish(&mut report, on_contact);
        report
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
    fn resolve_event(
        &mut self,
        i: usize,
        time: f32,
        kind: EventKind,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        match kind {
            EventKind::Ball { other, other_version } => {
                let partner = BallEvent {
                    time,
                    other,
                    other_version,
                };
                self.ball_event(i, partner, report, on_contact);
            }
            EventKind::Obstacle { id, material, hit } => {
                let contact = ObstacleHit {
                    with: ContactWith::Obstacle(id),
                    material,
                    hit,
                    surface_velocity: Vec2::ZERO,
                };
                self.resolve_obstacle(i, time, contact, report, on_contact);
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
                self.resolve_obstacle(i, time, contact, report, on_contact);
            }
            EventKind::SlideEnds => self.leave_face(i, time, on_contact),
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
    fn wait_all(&mut self, time: f32, on_contact: &mut impl FnMut(&Contact)) {
        for k in 0..self.balls.len() {
            self.advance(k, time, on_contact);
            self.step.clock[k].waiting = true;
        }
        self.step.queue.reset(self.balls.len());
        self.step.due.reset(self.balls.len());
    }

    /// Ball `i` meets `partner.other` at `partner.time` (if the partner has not changed
    /// course since): resolve it with every other ball–ball event at the same instant.
    fn ball_event(
        &mut self,
        i: usize,
        partner: BallEvent,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let (j, time) = (partner.other as usize, partner.time);
        if self.step.clock[j].version != partner.other_version {
            // The partner changed course: this ball's leg goes on; look again.
            self.advance(i, time, on_contact);
            self.repredict(i);
            return;
        }
        let mut batch = std::mem::take(&mut self.event.batch);
        let mut retry = std::mem::take(&mut self.event.retry);
        batch.clear();
        retry.clear();
        batch.push(Pair { a: i, b: j });
        self.gather_simultaneous(time, &mut batch, &mut retry);
        self.resolve_pairs(&batch, time, report, on_contact);
        for &Retry { ball: a, time: t } in &retry {
            if !batch.iter().any(|p| p.has(a)) {
                self.advance(a, t, on_contact);
                self.repredict(a);
            }
        }
        self.event.batch = batch;
        self.event.retry = retry;
    }

    /// Take every other ball–ball event within [`SIMULTANEOUS_TIME_REL`] of the step after
    /// `time` into `batch`; a ball whose partner has changed course goes to `retry`.
    fn gather_simultaneous(&mut self, time: f32, batch: &mut Vec<Pair>, retry: &mut Vec<Retry>) {
        let window = time + SIMULTANEOUS_TIME_REL * self.dt;
        while let Some(key) = self.step.queue.peek() {
            if key.time > window {
                break;
            }
            let a = key.ball as usize;
            let Some(BallEvent {
                time: at,
                other,
                other_version,
            }) = self.step.due.ball(a)
            else {
                break;
            };
            self.step.queue.pop();
            self.step.due.take(a);
            let b = other as usize;
            if self.step.clock[b].version != other_version {
                retry.push(Retry { ball: a, time: at });
            } else if !batch.iter().any(|p| p.is(a, b)) {
                batch.push(Pair { a, b });
            }
        }
    }

    /// The end of the step: every ball to the end of its leg (or carried along, or pushed
    /// out of a squeeze), its sensors reported, its counts summed.
    fn finish(&mut self, report: &mut MultiballReport, on_contact: &mut impl FnMut(&Contact)) {
        for k in 0..self.balls.len() {
            if !self.step.clock[k].waiting {
                self.advance(k, self.dt, on_contact);
            }
            self.flush_sensors(k, self.dt, on_contact);
            self.ride_to_end(k);
            self.squeeze_out(k);
            let s = &self.step.state[k];
            report.max_bounces_per_ball = report.max_bounces_per_ball.max(s.bounces.count);
            let clock = self.step.clock[k];
            let capped = clock.valid && s.bounces.capped();
            report.capped_balls += u32::from(capped);
            if clock.valid && clock.waiting && (capped || report.event_budget_hit) {
                report.lost_time += (self.dt - clock.time).max(0.0);
            }
        }
    }
}
