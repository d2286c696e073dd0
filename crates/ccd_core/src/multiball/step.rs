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

use super::events::Handoff;
use super::hinge_clocks::finish_hinges;
use super::marks::Moving;
use super::moving::MovingObstacle;
use super::parallel::{OneThread, Parallel};
use super::report::{Contact, MultiballReport};
use super::settings::MultiballSettings;
use super::state::MultiballScratch;
use crate::ball::Ball;
use crate::obstacle::Obstacles;
use crate::shape::Aabb;
use crate::tolerance::CROWDED_FRACTION;

/// What every phase of a step reads, and nothing in the step changes: its length, the
/// walls, the settings, and the moving obstacles' swept boxes.
#[derive(Clone, Copy, Debug)]
pub struct StepContext<'a, O: ?Sized> {
    pub(super) dt: f32,
    pub(super) obstacles: &'a O,
    pub(super) settings: &'a MultiballSettings,
    pub(super) moving_boxes: &'a [Aabb],
}

impl<'a, O: ?Sized> StepContext<'a, O> {
    /// A step of `dt` seconds among the walls of `obstacles`, with `settings`, and nothing
    /// that moves but the balls: what [`LoneSweeps::step`](super::LoneSweeps::step) reads.
    #[must_use]
    pub fn new(dt: f32, obstacles: &'a O, settings: &'a MultiballSettings) -> Self {
        Self {
            dt,
            obstacles,
            settings,
            moving_boxes: &[],
        }
    }
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
    let crowded = report.event_balls as f32 >= CROWDED_FRACTION * balls.len() as f32;
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
}

/// Whether a ball can meet anything but walls: another ball, or a moving obstacle.
pub(super) fn can_meet(moving: &[MovingObstacle], ball_ball: bool) -> bool {
    ball_ball || !moving.is_empty()
}
