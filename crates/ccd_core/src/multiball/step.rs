//! [`step_balls`]: the public entry, and the step as a pipeline of phases.
//!
//! A step runs these phases in order, each over the read-only [`StepContext`], each
//! owning its state (kept in [`MultiballScratch`], see `state.rs`) and passed what it needs
//! of the others:
//!
//! 1. **read**: the hinged bodies' clocks (`hinge_clocks.rs`) and the moving obstacles'
//!    swept boxes;
//! 2. **sweep**: every ball swept on its own, in runs over the threads (`lone_runs.rs`,
//!    each ball by `lone.rs`);
//! 3. **mark**: the balls whose paths can meet a moving obstacle or another ball go
//!    through the event machinery (`marks.rs`);
//! 4. **events**: those, event by event in time order (`events.rs`);
//! 5. **finish**: every other ball keeps its own sweep: its end written, its counts and
//!    contacts added up (`lone_runs.rs`);
//! 6. **report**: the event machinery's contacts in time order, the hinged bodies' last
//!    limits, and what the next step needs to know (`Carried`).

use super::context::StepContext;
use super::events::Events;
use super::events::Handoff;
use super::hinge_clocks::HingeClocks;
use super::hinge_clocks::finish_hinges;
use super::lone_runs::{BallReader, LoneSweeps};
use super::marks::Marks;
use super::marks::Moving;
use super::moving::MovingObstacle;
use super::parallel::{OneThread, Parallel};
use super::report::{Contact, MultiballReport};
use super::settings::MultiballSettings;
use super::state::Carried;
use crate::ball::Ball;
use crate::bounce::RideTally;
use crate::obstacle::Obstacles;
use crate::shape::Aabb;
use crate::tolerance::{CROWDED_FRACTION, CROWDED_STAYS_FRACTION, MIN_CROWDED_BALLS};

/// Reusable state and buffers for [`step_balls`](crate::step_balls), so stepping
/// allocates nothing once warm. Keep one per world and pass it to every step.
#[derive(Clone, Debug, Default)]
pub struct MultiballScratch {
    /// Per moving obstacle: its swept box over the step (the read phase's).
    pub(super) moving_boxes: Vec<Aabb>,
    pub(super) hinges: HingeClocks,
    pub(super) lone: LoneSweeps,
    pub(super) marks: Marks,
    pub(super) events: Events,
    /// Per ball, in the caller's order: it met something this step (becomes
    /// `Carried::met` at the step's end).
    pub(super) met: Vec<bool>,
    pub(super) carried: Carried,
}

/// Move every ball of `step` through its `dt` seconds: against its static obstacles, its
/// moving obstacles and (if enabled) each other, event by event in time order.
///
/// Contacts are passed to `on_contact` in the order they are resolved (sensors when the
/// leg that crossed them ends). Bad balls (non-finite values, negative radius) are left
/// untouched and never interact.
///
/// ```
/// use ccd_core::{step_balls, Ball, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Vec2};
/// // Equal balls head on at ±10 units/s, 10 apart (radius 1): they meet after 0.4 s and
/// // swap velocities; in the last 0.6 s each goes 6 units back: the first ends at x = −1 − 6.
/// let mut balls = [Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0), 1.0), Ball::new(Vec2::new(5.0, 0.0), Vec2::new(-10.0, 0.0), 1.0)];
/// let none: [Obstacle; 0] = [];
/// let mut scratch = MultiballScratch::default();
/// let report = step_balls(MultiballStep::new(&mut balls, 1.0, &none), &MultiballSettings::default(), &mut scratch, |_| {});
/// assert_eq!(report.bounces, 1);
/// assert!((balls[0].center - Vec2::new(-7.0, 0.0)).length() < 1e-4);
/// assert!((balls[0].velocity - Vec2::new(-10.0, 0.0)).length() < 1e-4);
/// ```
pub fn step_balls<O: Obstacles + Sync + ?Sized>(
    step: MultiballStep<'_, O>,
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
    on_contact: impl FnMut(&Contact),
) -> MultiballReport {
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

impl<'a, O: ?Sized> MultiballStep<'a, O> {
    /// `balls` moved through `dt` seconds among the walls of `obstacles`, with nothing
    /// else moving.
    #[must_use]
    pub fn new(balls: &'a mut [Ball], dt: f32, obstacles: &'a O) -> Self {
        Self {
            balls,
            dt,
            obstacles,
            moving: &mut [],
        }
    }

    /// With the `moving` obstacles too.
    #[must_use]
    pub fn with_moving(self, moving: &'a mut [MovingObstacle]) -> Self {
        Self { moving, ..self }
    }
}

/// [`step_balls`], with its independent work (every ball swept on its own, and the first
/// forecast of every ball that needs the event machinery) spread over `pool`'s threads.
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
    let s = scratch;
    if !(dt > 0.0) || !dt.is_finite() {
        return MultiballReport::default();
    }
    // 1. Read.
    s.hinges.prepare(moving, dt);
    s.moving_boxes.clear();
    s.moving_boxes
        .extend(moving.iter().map(MovingObstacle::swept_aabb));
    if balls.is_empty() {
        let hinge_limit_hits = finish_hinges(moving, &mut s.hinges);
        return MultiballReport {
            hinge_limit_hits,
            ..MultiballReport::default()
        };
    }
    let ctx = StepContext {
        dt,
        obstacles,
        settings,
        moving_boxes: &s.moving_boxes,
    };
    let meets = can_meet(moving, settings.ball_ball);
    s.met.clear();
    s.met.resize(balls.len(), false);
    // 2. Sweep and 3. mark. Crowded (most balls met something last step), every ball goes
    // through the event machinery at once: sweeping each on its own first would be wasted.
    let marked = if s.carried.crowded && meets {
        s.lone.skip(&*balls);
        s.marks.mark_all(&mut s.lone.places)
    } else {
        s.lone.sweep(pool, &*balls, &ctx, !meets);
        let moving = Moving {
            obstacles: moving,
            boxes: &s.moving_boxes,
        };
        s.marks
            .mark(&mut s.lone.places, moving, settings.ball_ball, meets)
    };
    // 4. Events.
    let mut report = MultiballReport::default();
    s.events.rides.clear();
    if marked > 0 {
        let handoff = Handoff {
            lone: &s.lone.places,
            in_events: &mut s.marks.in_events,
            hinges: &mut s.hinges,
            met_before: &s.carried.met,
            met: &mut s.met,
        };
        report = s.events.run(pool, &ctx, balls, moving, handoff);
    }
    // 5. Finish.
    if meets {
        s.lone.settle(pool, &s.marks.in_events);
    }
    s.lone.write_ends(pool, balls);
    s.lone
        .add_up(&s.marks.in_events, &mut report, &mut s.met, |_, c| on_contact(c));
    // 6. Report.
    report.joined_balls = report.event_balls - marked;
    // A crowded step sends every ball to the machinery: counted by those, it would stay
    // crowded for ever (one ball by a flipper, then the lone balls' rides lost for good).
    let n = balls.len() as f32;
    let crowded = balls.len() >= MIN_CROWDED_BALLS
        && if s.carried.crowded && meets {
            report.crowding_balls as f32 >= CROWDED_STAYS_FRACTION * n
        } else {
            report.event_balls as f32 >= CROWDED_FRACTION * n
        };
    s.carried.step(&mut s.met, crowded);
    s.events.report(&mut on_contact);
    report.hinge_limit_hits += finish_hinges(moving, &mut s.hinges);
    report
}

impl MultiballScratch {
    /// Whether [`step_balls`] would step every ball as a lone ball now, as
    /// [`LoneSweeps::step`](super::LoneSweeps::step) does: when nothing but walls can meet a
    /// ball (`settings.ball_ball` off, no moving obstacle).
    #[must_use]
    pub fn steps_all_lone(&self, settings: &MultiballSettings, moving: &[MovingObstacle]) -> bool {
        !can_meet(moving, settings.ball_ball)
    }

    /// Ball `k`'s rides of round parts in the last [`step_balls`] (see
    /// [`LoneSweeps::rides`]), by the engine that moved it: its own sweep, or the event
    /// machinery (a ball that joined the machinery during the step and rode there tallies
    /// its rides from then on); none for no such ball.
    #[must_use]
    pub fn ride(&self, k: usize) -> RideTally {
        self.events
            .rides
            .iter()
            .find(|(ball, _)| *ball as usize == k)
            .map_or_else(|| self.lone.ride(k), |(_, tally)| *tally)
    }
}

/// Whether a ball can meet anything but walls: another ball, or a moving obstacle.
pub(super) fn can_meet(moving: &[MovingObstacle], ball_ball: bool) -> bool {
    ball_ball || !moving.is_empty()
}

impl<Id: Copy + Send + Sync> LoneSweeps<Id> {
    /// Step every ball of `reader` on its own through the step of `ctx`, the runs on
    /// `pool`'s threads, when nothing but walls can meet a ball
    /// ([`MultiballScratch::steps_all_lone`]): exactly as [`step_balls`] steps such a step,
    /// bit for bit, with the same contacts in the same order, passed to `on_contact` with
    /// each ball's id and its number among the step's balls (the reader's refused places
    /// left out). What the step leaves for the next goes into `scratch`, so that a later
    /// [`step_balls`] with it goes on as if it had made this step. Write the ends back from
    /// [`LoneSweeps::ends`].
    ///
    /// ```
    /// use ccd_core::{Ball, LoneSweeps, MultiballScratch, MultiballSettings, Obstacle, OneThread, Segment, StepContext, Vec2};
    /// // A floor at y = 0; a ball of radius 1 at (0, 3) falls at 10 units/s for 0.5 s: it
    /// // touches the floor at t = 0.2 s (centre height 1) and rises for the last 0.3 s, to 4.
    /// let floor = [Obstacle::segment(Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)))];
    /// let balls = [Ball::new(Vec2::new(0.0, 3.0), Vec2::new(0.0, -10.0), 1.0)];
    /// let settings = MultiballSettings { ball_ball: false, ..Default::default() };
    /// let (mut sweeps, mut scratch) = (LoneSweeps::default(), MultiballScratch::default());
    /// let mut times = Vec::new();
    /// let ctx = StepContext::new(0.5, &floor[..], &settings);
    /// let report = sweeps.step(&OneThread, &balls[..], &ctx, &mut scratch, |_, c| times.push(c.time));
    /// assert_eq!(report.bounces, 1);
    /// assert!((times[0] - 0.2).abs() < 1e-6);
    /// let (center, velocity) = sweeps.ends().next().flatten().unwrap();
    /// assert!((center.y - 4.0).abs() < 1e-5 && velocity == Vec2::new(0.0, 10.0));
    /// ```
    ///
    /// [`step_balls`]: super::step_balls
    /// [`MultiballScratch::steps_all_lone`]: super::MultiballScratch::steps_all_lone
    pub fn step<P: Parallel, R, O>(
        &mut self,
        pool: &P,
        reader: &R,
        ctx: &StepContext<'_, O>,
        scratch: &mut MultiballScratch,
        on_contact: impl FnMut(Id, &Contact),
    ) -> MultiballReport
    where
        R: BallReader<Id = Id> + ?Sized,
        O: Obstacles + Sync + ?Sized,
    {
        let mut report = MultiballReport::default();
        if !(ctx.dt > 0.0) || !ctx.dt.is_finite() {
            self.places.clear();
            return report;
        }
        self.sweep(pool, reader, ctx, true);
        let MultiballScratch { met, carried, .. } = scratch;
        met.clear();
        self.add_up(&[], &mut report, met, on_contact);
        // A step of no balls carries nothing, as `step_balls` carries nothing then.
        if !met.is_empty() {
            carried.step(met, false);
        }
        report
    }
}
