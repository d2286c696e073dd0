//! [`step_balls`]: the public entry, and the loop over events.

use super::hinge_clocks::finish_hinges;
use super::lone::{Lone, meets_something};
use super::lone_runs::{RunLists, finish_runs, sweep_runs};
use super::moving::MovingObstacle;
use super::obstacle_contact::ObstacleHit;
use super::parallel::{OneThread, Parallel};
use super::queue::{BallEvent, Event, EventKind};
use super::report::{Contact, MultiballReport};
use super::settings::MultiballSettings;
use super::sim::{Sim, usable};
use super::state::{MultiballScratch, Pair, Retry};
use crate::ball::Ball;
use crate::hit::ContactWith;
use crate::obstacle::Obstacles;
use crate::shape::Aabb;
use crate::tolerance::{CROWDED_FRACTION, DEFAULT_EVENTS_PER_BALL, MIN_EVENT_BUDGET, SIMULTANEOUS_TIME_REL};
use glam::Vec2;

/// Move every ball through `dt` seconds: against the static `obstacles`, the `moving`
/// obstacles and (if enabled) each other, event by event in time order.
///
/// Contacts are passed to `on_contact` in the order they are resolved (sensors when the
/// leg that crossed them ends). Bad balls (non-finite values, negative radius) are left
/// untouched and never interact.
///
/// ```
/// use ccd_core::{step_balls, Ball, MultiballScratch, MultiballSettings, Obstacle, Vec2};
/// // Equal balls head on at ±10 units/s, 10 apart (radius 1): they meet after 0.4 s and
/// // swap velocities; in the last 0.6 s each goes 6 units back: the first ends at x = −1 − 6.
/// let mut balls = [Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0), 1.0), Ball::new(Vec2::new(5.0, 0.0), Vec2::new(-10.0, 0.0), 1.0)];
/// let none: [Obstacle; 0] = [];
/// let mut scratch = MultiballScratch::default();
/// let report = step_balls(&mut balls, 1.0, &none, &mut [], &MultiballSettings::default(), &mut scratch, |_| {});
/// assert_eq!(report.bounces, 1);
/// assert!((balls[0].center - Vec2::new(-7.0, 0.0)).length() < 1e-4);
/// assert!((balls[0].velocity - Vec2::new(-10.0, 0.0)).length() < 1e-4);
/// ```
pub fn step_balls<O: Obstacles + Sync + ?Sized>(
    balls: &mut [Ball],
    dt: f32,
    obstacles: &O,
    moving: &mut [MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
    on_contact: impl FnMut(&Contact),
) -> MultiballReport {
    let step = MultiballStep {
        balls,
        dt,
        obstacles,
        moving,
    };
    step_balls_parallel(&OneThread, step, settings, scratch, on_contact)
}

/// What one step of [`step_balls_parallel`] moves, for how long, and against what.
#[derive(Debug)]
pub struct MultiballStep<'a, O: ?Sized> {
    /// The balls, moved in place.
    pub balls: &'a mut [Ball],
    /// The step, seconds (a step that is not finite and positive does nothing).
    pub dt: f32,
    /// The static obstacles (walls).
    pub obstacles: &'a O,
    /// The moving obstacles; a hinged one is turned by the balls' impacts and its limits.
    pub moving: &'a mut [MovingObstacle],
}

/// [`step_balls`], with its independent work (every ball swept on its own, and the first
/// prediction of every ball that needs the event machinery) spread over `pool`'s threads.
/// The results are the same as on one thread, bit for bit.
///
/// The event machinery runs only for the balls that need it (see `lone.rs`): a ball
/// whose path, swept on its own, cannot meet another ball or a moving obstacle keeps
/// that sweep, which is cheaper and is exactly what it would do alone.
///
/// ```
/// use ccd_core::{step_balls_parallel, Ball, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Threads, Vec2};
/// let mut balls: Vec<Ball> = (0..1000).map(|i| Ball::new(Vec2::new(i as f32 * 10.0, 0.0), Vec2::Y, 1.0)).collect();
/// let none: [Obstacle; 0] = [];
/// let mut scratch = MultiballScratch::default();
/// let step = MultiballStep { balls: &mut balls, dt: 1.0, obstacles: &none[..], moving: &mut [] };
/// let report = step_balls_parallel(&Threads(2), step, &MultiballSettings::default(), &mut scratch, |_| {});
/// // Far apart: every ball keeps its own sweep.
/// assert_eq!((report.lone_balls, report.event_balls), (1000, 0));
/// assert_eq!(balls[3].center, Vec2::new(30.0, 1.0));
/// ```
pub fn step_balls_parallel<P: Parallel, O: Obstacles + Sync + ?Sized>(
    pool: &P,
    step: MultiballStep<'_, O>,
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
    mut on_contact: impl FnMut(&Contact),
) -> MultiballReport {
    let MultiballStep {
        balls,
        dt,
        obstacles,
        moving,
    } = step;
    let mut report = MultiballReport::default();
    if !(dt > 0.0) || !dt.is_finite() {
        return report;
    }
    scratch.step.hinges.prepare(moving, dt);
    if balls.is_empty() {
        report.hinge_limit_hits = finish_hinges(moving, &mut scratch.step.hinges);
        return report;
    }
    let mut lone = std::mem::take(&mut scratch.step.lone);
    scratch.step.moving_boxes.clear();
    scratch
        .step
        .moving_boxes
        .extend(moving.iter().map(MovingObstacle::swept_aabb));
    scratch.step.in_events.clear();
    scratch.step.event_contacts.clear();
    scratch.step.joined_contacts.clear();
    scratch.step.met.clear();
    scratch.step.met.resize(balls.len(), false);
    // The balls marked for the event machinery before it runs (the rest that end up in it
    // joined it late).
    let mut marked = 0_u32;
    // Whether the lone balls' ends are written.
    let mut finished = false;
    if scratch.carried.crowded && can_meet(moving, settings.ball_ball) {
        // Most balls met something last step: sweeping each on its own first would be
        // wasted; every ball goes through the event machinery. (With nothing but walls
        // to meet, each ball's own sweep is its step, crowded or not.)
        reset_lone(balls, &mut lone, true);
        mark_all(&lone, &mut scratch.step.in_events, &mut marked);
    } else {
        // Every ball swept on its own. When nothing but walls can meet a ball, every ball
        // keeps its sweep, and each run writes its balls' ends as it sweeps them.
        finished = !can_meet(moving, settings.ball_ball);
        lone.truncate(balls.len());
        lone.resize_with(balls.len(), Lone::default);
        let lists = RunLists {
            balls,
            lone: &mut lone,
            met: &mut scratch.step.met,
            noted: &mut scratch.step.noted,
        };
        let sweep = (dt, obstacles, settings);
        sweep_runs(pool, lists, sweep, finished, &mut report, &mut on_contact);
        if finished {
            scratch.step.in_events.resize(balls.len(), false);
        } else {
            mark_meetings(&mut lone, moving, settings.ball_ball, scratch);
            mark_all(&lone, &mut scratch.step.in_events, &mut marked);
        }
    }
    if marked > 0 {
        scratch.step.lone = lone;
        report = run_sorted(pool, balls, dt, obstacles, moving, settings, scratch);
        lone = std::mem::take(&mut scratch.step.lone);
    }
    if !finished {
        // The lone balls' ends (and the event balls' count).
        let lists = RunLists {
            balls,
            lone: &mut lone,
            met: &mut scratch.step.met,
            noted: &mut scratch.step.noted,
        };
        finish_runs(pool, lists, &scratch.step.in_events, &mut report, &mut on_contact);
    }
    scratch.step.lone = lone;
    std::mem::swap(&mut scratch.carried.met, &mut scratch.step.met);
    report.joined_balls = report.event_balls - marked;
    scratch.carried.crowded = report.event_balls as f32 >= CROWDED_FRACTION * balls.len() as f32;
    // The balls that joined late: their replayed contacts, then the machinery's, each
    // ball's in time order.
    let mut contacts = std::mem::take(&mut scratch.step.event_contacts);
    contacts.append(&mut scratch.step.joined_contacts);
    contacts.sort_by(|a, b| a.time.total_cmp(&b.time));
    contacts.iter().for_each(&mut on_contact);
    scratch.step.event_contacts = contacts;
    report.hinge_limit_hits += finish_hinges(moving, &mut scratch.step.hinges);
    report
}

/// One entry per ball, nothing swept yet; every usable ball goes through the event
/// machinery if `events`.
fn reset_lone(balls: &[Ball], lone: &mut Vec<Lone>, events: bool) {
    lone.truncate(balls.len());
    lone.resize_with(balls.len(), Lone::default);
    for (k, (s, b)) in lone.iter_mut().zip(balls).enumerate() {
        s.index = k;
        s.ball = usable(b).then_some(*b);
        s.events = events && s.ball.is_some();
        s.bounds = None;
        s.end = None;
        s.contacts.clear();
        s.solid_contacts = 0;
    }
}

/// Whether a ball can meet anything but walls: another ball, or a moving obstacle.
pub(super) fn can_meet(moving: &[MovingObstacle], ball_ball: bool) -> bool {
    ball_ball || !moving.is_empty()
}

/// `in_events` from the marks on `lone`, with their count added to `marked`.
fn mark_all(lone: &[Lone], in_events: &mut Vec<bool>, marked: &mut u32) {
    in_events.extend(lone.iter().map(|s| {
        *marked += u32::from(s.events);
        s.events
    }));
}

/// Mark the balls whose own paths can meet another ball or a moving obstacle.
fn mark_meetings(
    lone: &mut [Lone],
    moving: &[MovingObstacle],
    ball_ball: bool,
    scratch: &mut MultiballScratch,
) {
    let nowhere = Aabb::new(Vec2::ZERO, Vec2::ZERO);
    scratch.step.boxes.clear();
    scratch
        .step
        .boxes
        .extend(lone.iter().map(|s| s.bounds.unwrap_or(nowhere)));
    if ball_ball {
        scratch.step.lone_grid.rebuild(&scratch.step.boxes);
    }
    for k in 0..lone.len() {
        let meets = lone[k].bounds.is_some_and(|b| {
            meets_something(
                k,
                b,
                lone,
                &scratch.step.lone_grid,
                moving,
                &scratch.step.moving_boxes,
                ball_ball,
            )
        });
        lone[k].events = meets;
    }
}

/// [`run_events`] on the balls in spatial order (see `order.rs`), the results put back
/// in the caller's order.
fn run_sorted<P: Parallel, O: Obstacles + Sync + ?Sized>(
    pool: &P,
    balls: &mut [Ball],
    dt: f32,
    obstacles: &O,
    moving: &mut [MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
) -> MultiballReport {
    let mut order = std::mem::take(&mut scratch.step.order);
    order.sort_in(balls, &mut scratch.step.in_events);
    let mut sorted = std::mem::take(&mut order.balls);
    scratch.step.order = order;
    let report = run_events(pool, &mut sorted, dt, obstacles, moving, settings, scratch);
    let mut order = std::mem::take(&mut scratch.step.order);
    order.balls = sorted;
    order.renumber(&mut scratch.step.event_contacts);
    order.renumber(&mut scratch.step.joined_contacts);
    order.sort_out(balls, &mut scratch.step.in_events);
    scratch.step.order = order;
    report
}

/// Step the event group (`scratch.step.in_events`) through the event machinery; its contacts go
/// to `scratch.step.event_contacts`.
fn run_events<P: Parallel, O: Obstacles + Sync + ?Sized>(
    pool: &P,
    balls: &mut [Ball],
    dt: f32,
    obstacles: &O,
    moving: &mut [MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
) -> MultiballReport {
    let mut report = MultiballReport::default();
    let mut contacts = std::mem::take(&mut scratch.step.event_contacts);
    contacts.clear();
    let mut on_contact = |c: &Contact| contacts.push(*c);
    let mut sim = Sim {
        balls,
        dt,
        obstacles,
        moving,
        settings,
        step: &mut scratch.step,
        start: &mut scratch.start,
        event: &mut scratch.event,
        max_radius: 0.0,
        shared_layers: false,
        met_before: &scratch.carried.met,
    };
    sim.prepare();
    sim.start_gravity(&mut report, &mut on_contact);
    let budget = if settings.max_events > 0 {
        settings.max_events
    } else {
        (sim.balls.len() as u32)
            .saturating_mul(DEFAULT_EVENTS_PER_BALL)
            .saturating_add(MIN_EVENT_BUDGET)
    };
    sim.predict_first(pool);
    loop {
        let until = sim.peek_time().unwrap_or(dt);
        if sim.limit_before(until, &mut report, &mut on_contact) {
            continue;
        }
        let Some(Taken {
            ball: i,
            event: Event { time, kind },
        }) = sim.take_next()
        else {
            break;
        };
        if report.events >= budget {
            report.event_budget_hit = true;
            sim.wait_all(time, &mut on_contact);
            break;
        }
        report.events += 1;
        sim.resolve_event(i, time, kind, &mut report, &mut on_contact);
    }
    sim.finish(&mut report, &mut on_contact);
    // Which event balls met something, in the caller's order.
    let step = &mut scratch.step;
    for (n, s) in step.state.iter().enumerate() {
        let touched = scratch.start.touched_balls.get(n).copied().unwrap_or(false);
        if let Some(met) = step.met.get_mut(step.order.caller(n)) {
            *met = s.bounces.count > 0 || touched;
        }
    }
    scratch.step.event_contacts = contacts;
    report
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
