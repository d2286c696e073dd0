//! The lone balls' engine: every ball a caller's store holds ([`BallReader`]) swept on its
//! own (see `lone.rs` for what a lone ball is), run by run of balls over the threads.
//!
//! Each ball's sweep is its own work. So the store's places are cut into runs of
//! consecutive places, one task each: many even runs of about [`LONE_BALLS_PER_TASK`] (at
//! most [`MAX_LONE_RUNS`]), or, for a store that must pass over every place before a run to
//! read it (a Bevy query read from its start), one run per thread. Each run reads its
//! balls in order on its thread, sweeps them, and keeps what must follow the store's order
//! in its own notes ([`RunNotes`]): its contacts, its balls' lost time (an `f32` sum,
//! whose rounding depends on its order), which balls met a wall, and its counts. The
//! notes are then added up run by run on the calling thread ([`LoneSweeps::add_up`]). The
//! results are those of one pass in the store's order, bit for bit, on any number of
//! threads.
//!
//! [`step_balls`](super::step_balls) drives the engine over its slice of balls; a game
//! engine that keeps its balls elsewhere drives it with a reader of its own, and writes
//! the ends back from [`LoneSweeps::ends`] itself.

use super::context::StepContext;
use super::lone::Lone;
use super::parallel::Parallel;
use super::report::{Contact, MultiballReport};
use crate::ball::Ball;
use crate::bounce::RideTally;
use crate::obstacle::Obstacles;
use crate::tolerance::{LONE_BALLS_PER_TASK, MAX_LONE_RUNS, MIN_ITEMS_PER_THREAD};
use glam::Vec2;

/// Where the lone engine reads a step's balls: a caller's store, in its own order (a slice
/// of balls, a query of entities). [`LoneSweeps::step`] cuts its places into runs of
/// consecutive places and reads each run, in order, on one thread.
pub trait BallReader: Sync {
    /// What the caller knows a ball by: every contact names its ball so.
    type Id: Copy + Send + Sync;

    /// How many places the store has.
    fn len(&self) -> usize;

    /// Whether it is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether reading a run starts by passing over every place before it (a query read
    /// from its start): such a store is cut into one run per thread, not into many small
    /// runs. Default `false`.
    fn seeks(&self) -> bool {
        false
    }

    /// Calls `visit` with each of the `count` places from `first` on, in order: the ball
    /// there and its id, or `None` for a place that holds no ball of the step (one the
    /// caller refused: it is not counted among the step's balls, as if it were not there).
    fn read(&self, first: usize, count: usize, visit: impl FnMut(Option<(Self::Id, Ball)>));
}

/// A slice of balls, each known by its index: how [`step_balls`](super::step_balls) reads
/// its own balls.
impl BallReader for [Ball] {
    type Id = usize;

    #[inline]
    fn len(&self) -> usize {
        <[Ball]>::len(self)
    }

    #[inline]
    fn read(&self, first: usize, count: usize, mut visit: impl FnMut(Option<(usize, Ball)>)) {
        for (k, ball) in self.iter().enumerate().skip(first).take(count) {
            visit(Some((k, *ball)));
        }
    }
}

/// The lone sweeps of a step: per place of the store, its ball and sweep (`Lone`); per
/// run, its notes. Kept between steps, so a warm step allocates nothing.
#[derive(Clone, Debug)]
pub struct LoneSweeps<Id = usize> {
    /// Per place of the store: its ball and its sweep.
    pub(super) places: Vec<Lone>,
    /// Per run of the last sweep: what it found.
    runs: Vec<RunNotes<Id>>,
    /// How the last sweep cut the places.
    cut: Cut,
}

impl<Id> Default for LoneSweeps<Id> {
    fn default() -> Self {
        Self {
            places: Vec::new(),
            runs: Vec::new(),
            cut: Cut::default(),
        }
    }
}

/// How the places are cut into runs: `count` runs of `length` places (the last shorter).
#[derive(Clone, Copy, Debug, Default)]
struct Cut {
    count: usize,
    length: usize,
}

/// What a run of places found, in the store's order.
#[derive(Clone, Debug)]
struct RunNotes<Id> {
    /// The step's balls among its places (the others were refused by the reader).
    balls: u32,
    /// Its balls' contacts, each with its ball's id; `Contact::ball` counts the step's
    /// balls from the run's first (made the step's count when the runs are added up).
    contacts: Vec<(Id, Contact)>,
    /// The lost time of each of its balls that lost some, in order.
    lost: Vec<f32>,
    /// Its balls (counted from the run's first) that met a wall.
    met: Vec<u32>,
    /// Its counts.
    counts: LoneCounts,
}

impl<Id> Default for RunNotes<Id> {
    fn default() -> Self {
        Self {
            balls: 0,
            contacts: Vec::new(),
            lost: Vec::new(),
            met: Vec::new(),
            counts: LoneCounts::default(),
        }
    }
}

/// A run's counts, as the [`MultiballReport`] has them.
#[derive(Clone, Copy, Debug, Default)]
struct LoneCounts {
    lone_balls: u32,
    event_balls: u32,
    bounces: u32,
    max_bounces: u32,
    capped: u32,
}

/// One task: a run of places, from `first`, with its notes.
struct Run<'a, Id> {
    first: usize,
    places: &'a mut [Lone],
    notes: &'a mut RunNotes<Id>,
}

impl<Id: Copy + Send + Sync> LoneSweeps<Id> {
    /// Sweep every ball of `reader` on its own through the step of `ctx`, the runs on
    /// `pool`'s threads. With `settle` (nothing but walls can meet a ball), every ball keeps
    /// its sweep: each run also counts its balls as lone, and [`LoneSweeps::add_up`] can
    /// follow at once; else the event machinery marks some first ([`LoneSweeps::settle`]).
    pub(super) fn sweep<P: Parallel, R, O>(
        &mut self,
        pool: &P,
        reader: &R,
        ctx: &StepContext<'_, O>,
        settle: bool,
    ) where
        R: BallReader<Id = Id> + ?Sized,
        O: Obstacles + Sync + ?Sized,
    {
        let threads = pool.threads().max(1);
        self.cut = cut(reader.len(), reader.seeks(), threads);
        self.places.resize_with(reader.len(), Lone::default);
        let mut runs = self.runs_mut();
        pool.for_each_task(runs.as_mut_slice(), &|run: &mut Option<Run<'_, Id>>| {
            if let Some(run) = run {
                sweep_run(run, reader, ctx, settle);
            }
        });
    }

    /// After the event machinery: count each place's ball as lone, or as an event ball if
    /// `in_events` says so (by place), run by run on `pool`'s threads.
    pub(super) fn settle<P: Parallel>(&mut self, pool: &P, in_events: &[bool]) {
        let mut runs = self.runs_mut();
        pool.for_each_task(runs.as_mut_slice(), &|run: &mut Option<Run<'_, Id>>| {
            if let Some(run) = run {
                count_run(run, in_events);
            }
        });
    }

    /// The runs of the last cut, as tasks (on the stack: a warm step allocates nothing).
    fn runs_mut(&mut self) -> RunTasks<'_, Id> {
        let Cut { count, length } = self.cut;
        if self.runs.len() < count {
            self.runs.resize_with(count, RunNotes::default);
        }
        let mut runs = self
            .places
            .chunks_mut(length.max(1))
            .zip(self.runs.iter_mut())
            .enumerate()
            .map(|(r, (places, notes))| Run {
                first: r * length,
                places,
                notes,
            });
        RunTasks {
            tasks: std::array::from_fn(|_| runs.next()),
            count,
        }
    }

    /// Add up the runs in order: their counts to `report`, their lost time in the store's
    /// order, their contacts to `on_contact` ball by ball (each ball's in time order,
    /// numbered among the step's balls), and which balls met a wall to `met` (by the
    /// step's count; grown to the step's balls if shorter, and only ever set). The contacts
    /// of the balls of `in_events` (by place) are not passed: the event machinery stepped
    /// those.
    pub(super) fn add_up(
        &self,
        in_events: &[bool],
        report: &mut MultiballReport,
        met: &mut Vec<bool>,
        mut on_contact: impl FnMut(Id, &Contact),
    ) {
        let runs = &self.runs[..self.cut.count];
        let balls: usize = runs.iter().map(|r| r.balls as usize).sum();
        if met.len() < balls {
            met.resize(balls, false);
        }
        let mut offset = 0;
        for (r, run) in runs.iter().enumerate() {
            let t = run.counts;
            report.lone_balls += t.lone_balls;
            report.event_balls += t.event_balls;
            report.bounces += t.bounces;
            report.max_bounces_per_ball = report.max_bounces_per_ball.max(t.max_bounces);
            report.capped_balls += t.capped;
            for &lost in &run.lost {
                report.lost_time += lost;
            }
            for &k in &run.met {
                met[offset + k as usize] = true;
            }
            // (`in_events` is by place, and only a store whose every place holds a ball, the
            // step's own slice, has event balls: there a run numbers its balls as its
            // places.)
            let first = r * self.cut.length;
            for (id, c) in &run.contacts {
                if !in_events.get(first + c.ball).copied().unwrap_or(false) {
                    let contact = Contact {
                        ball: offset + c.ball,
                        ..*c
                    };
                    on_contact(*id, &contact);
                }
            }
            offset += run.balls as usize;
        }
    }

    /// Each place's end, in the store's order: its ball's centre and velocity, or `None`
    /// for a place whose ball was not stepped (refused, bad, or stepped by the event
    /// machinery). A caller that keeps its balls itself writes them back from here.
    pub fn ends(&self) -> impl ExactSizeIterator<Item = Option<(Vec2, Vec2)>> + '_ {
        self.places
            .iter()
            .map(|s| s.end.filter(|_| !s.events).map(|e| (e.center, e.velocity)))
    }

    /// Each place's rides of round parts in the last sweep ([`RideTally`]), in the store's
    /// order: none for a place whose ball was not stepped on its own (the event machinery
    /// tallies its own: [`MultiballScratch::ride`](super::MultiballScratch::ride)).
    pub fn rides(&self) -> impl ExactSizeIterator<Item = RideTally> + '_ {
        self.places.iter().map(Lone::ride)
    }

    /// Place `k`'s rides of round parts in the last sweep (see [`LoneSweeps::rides`]).
    pub(super) fn ride(&self, k: usize) -> RideTally {
        self.places.get(k).map(Lone::ride).unwrap_or_default()
    }
}

/// The runs of a sweep as tasks.
struct RunTasks<'a, Id> {
    tasks: [Option<Run<'a, Id>>; MAX_LONE_RUNS],
    count: usize,
}

impl<'a, Id> RunTasks<'a, Id> {
    fn as_mut_slice(&mut self) -> &mut [Option<Run<'a, Id>>] {
        &mut self.tasks[..self.count]
    }
}

/// How `places` places are cut for `threads` threads: into even runs of about
/// [`LONE_BALLS_PER_TASK`] (at most [`MAX_LONE_RUNS`]), or, for a store that `seeks`, one
/// run per thread (no more runs than a thread's worth of places).
fn cut(places: usize, seeks: bool, threads: usize) -> Cut {
    let wanted = if seeks {
        threads.min(places / MIN_ITEMS_PER_THREAD)
    } else {
        places.div_ceil(LONE_BALLS_PER_TASK)
    };
    let count = wanted.clamp(1, MAX_LONE_RUNS);
    let length = places.div_ceil(count).max(1);
    Cut {
        count: places.div_ceil(length),
        length,
    }
}

/// Read and sweep the run's balls in order; with `settle`, count each as lone.
fn sweep_run<Id: Copy, R: BallReader<Id = Id> + ?Sized, O: Obstacles + ?Sized>(
    run: &mut Run<'_, Id>,
    reader: &R,
    ctx: &StepContext<'_, O>,
    settle: bool,
) {
    let notes = &mut *run.notes;
    notes.contacts.clear();
    notes.balls = 0;
    let mut places = run.places.iter_mut();
    reader.read(run.first, places.len(), |read| {
        let Some(lone) = places.next() else {
            return;
        };
        let Some((id, ball)) = read else {
            *lone = Lone::default();
            return;
        };
        let k = notes.balls as usize;
        notes.balls += 1;
        lone.held = true;
        lone.ball = ball.usable().then_some(ball);
        lone.events = false;
        let contacts = &mut notes.contacts;
        lone.sweep(k, ctx, |c| contacts.push((id, c)));
    });
    if settle {
        count_run(run, &[]);
    }
}

/// Count the run's balls: each as an event ball if `in_events` says so (by place), else
/// as lone, with its bounces, cap, lost time and whether it met a wall.
fn count_run<Id>(run: &mut Run<'_, Id>, in_events: &[bool]) {
    let notes = &mut *run.notes;
    notes.lost.clear();
    notes.met.clear();
    let mut t = LoneCounts::default();
    let mut k = 0;
    for (n, lone) in run.places.iter_mut().enumerate() {
        if !lone.held {
            continue;
        }
        let here = k;
        k += 1;
        lone.events = in_events.get(run.first + n).copied().unwrap_or(false);
        if lone.events {
            t.event_balls += 1;
            continue;
        }
        // (A ball with an end was usable: a bad one is never swept.)
        let Some(end) = lone.end else {
            continue;
        };
        t.lone_balls += 1;
        t.bounces += lone.solid_contacts;
        t.max_bounces = t.max_bounces.max(end.bounces);
        t.capped += u32::from(end.capped);
        if lone.solid_contacts > 0 {
            notes.met.push(here);
        }
        if end.lost_time != 0.0 {
            notes.lost.push(end.lost_time);
        }
    }
    notes.counts = t;
}

impl<Id: Copy + Send + Sync> LoneSweeps<Id> {
    /// No ball swept on its own: each of `balls` goes through the event machinery (a
    /// crowded step). Its places hold the balls, nothing swept.
    pub(super) fn skip(&mut self, balls: &[Ball]) {
        self.cut = cut(balls.len(), false, 1);
        self.places.clear();
        self.places.extend(balls.iter().map(|b| Lone {
            held: true,
            ball: b.usable().then_some(*b),
            ..Lone::default()
        }));
        let Cut { count, length } = self.cut;
        if self.runs.len() < count {
            self.runs.resize_with(count, RunNotes::default);
        }
        for (r, notes) in self.runs[..count].iter_mut().enumerate() {
            notes.contacts.clear();
            notes.balls = (balls.len() - r * length).min(length) as u32;
        }
    }

    /// Write each lone ball's end (not one in the event machinery) into `balls`, the
    /// store the sweeps read, run by run on `pool`'s threads.
    pub(super) fn write_ends<P: Parallel>(&self, pool: &P, balls: &mut [Ball]) {
        let length = self.cut.length.max(1);
        let mut parts = balls.chunks_mut(length).zip(self.places.chunks(length));
        let mut tasks: [Option<(&mut [Ball], &[Lone])>; MAX_LONE_RUNS] =
            std::array::from_fn(|_| parts.next());
        pool.for_each_task(&mut tasks[..self.cut.count], &|task| {
            let Some((balls, places)) = task else {
                return;
            };
            for (ball, lone) in balls.iter_mut().zip(places.iter()) {
                if let (false, Some(end)) = (lone.events, lone.end) {
                    ball.center = end.center;
                    ball.velocity = end.velocity;
                }
            }
        });
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::{BallReader, LoneSweeps};
    use crate::ball::Ball;
    use crate::bounce::{SweepSettings, sweep_bounces};
    use crate::broadphase::Grid;
    use crate::contact_with::ContactWith;
    use crate::multiball::MovingObstacle;
    use crate::multiball::{MultiballReport, MultiballScratch, MultiballSettings};
    use crate::multiball::{MultiballStep, OneThread, Parallel, StepContext, Threads, step_balls_parallel};
    use crate::obstacle::{Layers, Obstacle};
    use crate::shape::{Circle, Segment};
    use crate::sweep::SegmentMotion;
    use glam::Vec2;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The seed of the balls below.
    const SEED: u64 = 31;
    /// The step, seconds.
    const DT: f32 = 1.0 / 60.0;

    /// Contacts as reported: ball, time bits, what.
    type Contacts = Vec<(usize, u32, ContactWith)>;

    /// What a step leaves: each ball's bits, its contacts in the order reported, and the
    /// report's lone-ball figures (lone balls, bounces, most bounces, capped balls, lost
    /// time's bits).
    #[derive(Debug)]
    struct Outcome {
        balls: Vec<[u32; 4]>,
        contacts: Contacts,
        figures: (u32, u32, u32, u32, u32),
    }

    fn bits(b: &Ball) -> [u32; 4] {
        [b.center.x, b.center.y, b.velocity.x, b.velocity.y].map(f32::to_bits)
    }

    /// A box with a sensor line across it and a narrow wedge in a corner.
    pub(in crate::multiball) fn walls() -> Grid {
        let mut grid = Grid::default();
        let corners = [(-200.0, -200.0), (200.0, -200.0), (200.0, 200.0), (-200.0, 200.0)].map(Vec2::from);
        for k in 0..4 {
            grid.insert(Obstacle::segment(Segment::new(corners[k], corners[(k + 1) % 4])))
                .unwrap();
        }
        let line = Segment::new(Vec2::new(-200.0, 10.0), Vec2::new(200.0, 10.0));
        grid.insert(Obstacle::segment(line).with_sensor(true)).unwrap();
        let wedge = Segment::new(Vec2::new(200.0, -200.0), Vec2::new(100.0, -195.0));
        grid.insert(Obstacle::segment(wedge)).unwrap();
        grid
    }

    /// Each ball's own sweep (`sweep_bounces`), in ball order, and the lost times.
    fn each_lone(start: &[Ball], grid: &Grid, settings: &MultiballSettings) -> (Outcome, Vec<f32>) {
        let mut expected = Outcome {
            balls: Vec::new(),
            contacts: Vec::new(),
            figures: (0, 0, 0, 0, 0),
        };
        let mut lost = (0.0_f32, Vec::new());
        for (k, b) in start.iter().enumerate() {
            let sweep = SweepSettings {
                max_bounces: settings.max_bounces,
                resting_speed: settings.resting_speed,
                response: b.response,
                material: b.material,
                layers: b.layers,
                max_speed: b.max_speed,
                gravity: b.gravity(settings.gravity),
            };
            let circle = Circle::new(b.center, b.radius);
            let out = sweep_bounces(circle, b.velocity, DT, grid, &sweep, |h| {
                expected
                    .contacts
                    .push((k, h.time.to_bits(), ContactWith::Obstacle(h.obstacle)));
            });
            let Ok(out) = out else {
                // A bad ball is left as it was.
                expected.balls.push(bits(b));
                continue;
            };
            let end = Ball {
                center: out.center,
                velocity: out.velocity,
                ..*b
            };
            expected.balls.push(bits(&end));
            let f = &mut expected.figures;
            f.0 += 1;
            f.1 += out.bounces;
            f.2 = f.2.max(out.bounces);
            f.3 += u32::from(out.capped);
            lost.0 += out.lost_time;
            lost.1.push(out.lost_time);
        }
        expected.figures.4 = lost.0.to_bits();
        (expected, lost.1)
    }

    /// One step of `start` on `pool`.
    fn step_on<P: Parallel>(pool: &P, start: &[Ball], grid: &Grid, settings: &MultiballSettings) -> Outcome {
        let mut balls = start.to_vec();
        let mut scratch = MultiballScratch::default();
        let mut contacts = Vec::new();
        let step = MultiballStep {
            balls: &mut balls,
            dt: DT,
            obstacles: grid,
            moving: &mut [],
        };
        let r: MultiballReport = step_balls_parallel(pool, step, settings, &mut scratch, |c| {
            contacts.push((c.ball, c.time.to_bits(), c.with));
        });
        Outcome {
            balls: balls.iter().map(bits).collect(),
            contacts,
            figures: (
                r.lone_balls,
                r.bounces,
                r.max_bounces_per_ball,
                r.capped_balls,
                r.lost_time.to_bits(),
            ),
        }
    }

    /// `got` is `expected`; else the first ball and contact that differ are named.
    fn same(got: &Outcome, expected: &Outcome, what: &str) {
        let first = |a: &[_], b: &[_]| a.iter().zip(b).position(|(x, y)| x != y);
        assert_eq!(got.balls.len(), expected.balls.len(), "{what}: balls");
        let ball = first(&got.balls, &expected.balls);
        assert!(ball.is_none(), "{what}: ball {ball:?} differs");
        let contact = got
            .contacts
            .iter()
            .zip(&expected.contacts)
            .position(|(x, y)| x != y);
        assert!(contact.is_none(), "{what}: contact {contact:?} differs");
        assert_eq!(got.contacts.len(), expected.contacts.len(), "{what}: contacts");
        assert_eq!(got.figures, expected.figures, "{what}: the report");
    }

    #[test]
    fn lone_ends_in_runs_are_each_balls_own_sweep_in_ball_order() {
        // 3,000 fast balls (a dozen runs) with a bad one every 500, where nothing but the
        // walls can meet a ball: without ball–ball contacts (each run writes its balls'
        // ends as it sweeps them), and with them but on layers that keep balls apart (the
        // ends are written after the event machinery). Each ball must end where
        // `sweep_bounces` alone takes it, the contacts must come ball by ball, each's in
        // time order, and the report must add up the balls' own sweeps (the lost time in
        // ball order), on one thread and on three.
        let grid = walls();
        let mut rng = StdRng::seed_from_u64(SEED);
        let start: Vec<Ball> = (0..3000)
            .map(|k| {
                let center = Vec2::new(rng.random_range(-190.0..190.0), rng.random_range(-190.0..190.0));
                let velocity = Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..60_000.0);
                let center = if k % 500 == 7 { Vec2::NAN } else { center };
                Ball::new(center, velocity, rng.random_range(0.5..3.0))
            })
            .collect();
        let apart = Layers::new(1, 2);
        for (ball_ball, layers) in [(false, Layers::ALL), (true, apart)] {
            let start: Vec<Ball> = start.iter().map(|b| Ball { layers, ..*b }).collect();
            let settings = MultiballSettings {
                ball_ball,
                max_bounces: 2,
                ..MultiballSettings::default()
            };
            let (expected, lost_times) = each_lone(&start, &grid, &settings);
            // A busy scene, whose lost time's sum depends on its order (summed run by run,
            // or backwards, its rounding differs): an order other than the balls' is seen.
            let capped = expected.figures.3;
            let sensors = expected.contacts.len() as u32 - expected.figures.1;
            assert!(
                capped > 100 && sensors > 1000,
                "{capped} capped, {sensors} sensor contacts"
            );
            let lost = f32::from_bits(expected.figures.4);
            let run = start
                .len()
                .div_ceil(start.len().div_ceil(super::LONE_BALLS_PER_TASK));
            let in_runs: f32 = lost_times.chunks(run).map(|c| c.iter().sum::<f32>()).sum();
            let backwards: f32 = lost_times.iter().rev().sum();
            assert!(
                in_runs.to_bits() != lost.to_bits() && backwards.to_bits() != lost.to_bits(),
                "the lost time's sum does not depend on its order: {lost}"
            );
            let got = step_on(&OneThread, &start, &grid, &settings);
            same(&got, &expected, &format!("ball-ball {ball_ball}, one thread"));
            for threads in [1, 3] {
                let got = step_on(&Threads(threads), &start, &grid, &settings);
                same(
                    &got,
                    &expected,
                    &format!("ball-ball {ball_ball}, {threads} threads"),
                );
            }
        }
    }

    /// A store with refused places (`None`), each ball known by its place, that seeks or
    /// not: as a game engine's query reads its circles.
    struct Sparse<'a> {
        places: &'a [Option<Ball>],
        seeks: bool,
    }

    impl BallReader for Sparse<'_> {
        type Id = usize;

        fn len(&self) -> usize {
            self.places.len()
        }

        fn seeks(&self) -> bool {
            self.seeks
        }

        fn read(&self, first: usize, count: usize, mut visit: impl FnMut(Option<(usize, Ball)>)) {
            for (k, place) in self.places.iter().enumerate().skip(first).take(count) {
                visit(place.map(|b| (k, b)));
            }
        }
    }

    /// What a step of `LoneSweeps::step` leaves: the step's balls' bits (refused places left
    /// out), its contacts with their places, and the report's lone-ball figures.
    struct Swept {
        outcome: Outcome,
        places: Vec<usize>,
    }

    /// One step of the balls of `places` by the lone engine, from `scratch`.
    fn by_sweeps<P: Parallel>(
        pool: &P,
        reader: &Sparse<'_>,
        grid: &Grid,
        settings: &MultiballSettings,
        scratch: &mut MultiballScratch,
    ) -> Swept {
        let mut sweeps = LoneSweeps::default();
        let (mut contacts, mut places) = (Vec::new(), Vec::new());
        let ctx = StepContext::new(DT, grid, settings);
        let r = sweeps.step(pool, reader, &ctx, scratch, |place, c| {
            places.push(place);
            contacts.push((c.ball, c.time.to_bits(), c.with));
        });
        let balls = reader
            .places
            .iter()
            .zip(sweeps.ends())
            .filter_map(|(place, end)| {
                let ball = (*place)?;
                let (center, velocity) = end.unwrap_or((ball.center, ball.velocity));
                Some(bits(&Ball {
                    center,
                    velocity,
                    ..ball
                }))
            })
            .collect();
        let figures = (
            r.lone_balls,
            r.bounces,
            r.max_bounces_per_ball,
            r.capped_balls,
            r.lost_time.to_bits(),
        );
        Swept {
            outcome: Outcome {
                balls,
                contacts,
                figures,
            },
            places,
        }
    }

    /// Fast balls all over the box; every 250th a bad one (a NaN velocity, a negative
    /// radius), and every 97th place refused by the reader.
    fn sparse_balls(n: usize) -> Vec<Option<Ball>> {
        let mut rng = StdRng::seed_from_u64(30);
        (0..n)
            .map(|k| {
                let at = Vec2::new(rng.random_range(-190.0..190.0), rng.random_range(-190.0..190.0));
                let v = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * 30_000.0;
                match (k % 97, k % 250) {
                    (5, _) => None,
                    (_, 0) => Some(Ball::new(at, Vec2::NAN, 2.0)),
                    (_, 1) => Some(Ball::new(at, v, -2.0)),
                    _ => Some(Ball::new(at, v, 2.0)),
                }
            })
            .collect()
    }

    #[test]
    fn the_lone_engine_on_a_store_of_its_own_steps_as_step_balls_steps() {
        // A store that refuses some places, read in runs on one, two and three threads, by
        // seeking runs (one a thread) and by many small ones: the step's balls (the places
        // it holds, in order) end as `step_balls` ends them, bit for bit, with the same
        // contacts in the same order (numbered among the step's balls, each with its
        // place), the same report, and the same carried state.
        let grid = walls();
        for gravity in [Vec2::ZERO, Vec2::new(0.0, -3.0e5)] {
            let settings = MultiballSettings {
                ball_ball: false,
                max_bounces: 2,
                gravity,
                ..MultiballSettings::default()
            };
            let places = sparse_balls(3000);
            let mut held: Vec<Ball> = places.iter().flatten().copied().collect();
            let mut own = MultiballScratch::default();
            let expected = step_on_scratch(&OneThread, &mut held, &grid, &settings, &mut own);
            assert!(
                expected.figures.3 > 20,
                "a busy scene: capped {}",
                expected.figures.3
            );
            assert_eq!(expected.balls.len(), 3000 - 31, "31 places refused");
            let place_of: Vec<usize> = (0..places.len()).filter(|&k| places[k].is_some()).collect();
            for (threads, seeks) in [(1, false), (1, true), (2, true), (3, false), (3, true)] {
                let what = format!("{gravity}, {threads} threads, seeks {seeks}");
                let reader = Sparse {
                    places: &places,
                    seeks,
                };
                let mut scratch = MultiballScratch::default();
                let got = by_sweeps(&Threads(threads), &reader, &grid, &settings, &mut scratch);
                same(&got.outcome, &expected, &what);
                let named = got.outcome.contacts.iter().zip(&got.places);
                for (&(ball, _, _), &place) in named {
                    assert_eq!(place_of[ball], place, "{what}: a contact names another place");
                }
                assert_eq!(
                    scratch.carried.met, own.carried.met,
                    "{what}: which balls met a wall"
                );
                assert_eq!(scratch.carried.crowded, own.carried.crowded);
            }
        }
    }

    /// One step of `start` on `pool`, from `scratch`.
    fn step_on_scratch<P: Parallel>(
        pool: &P,
        start: &mut [Ball],
        grid: &Grid,
        settings: &MultiballSettings,
        scratch: &mut MultiballScratch,
    ) -> Outcome {
        let mut contacts = Vec::new();
        let step = MultiballStep {
            balls: start,
            dt: DT,
            obstacles: grid,
            moving: &mut [],
        };
        let r = step_balls_parallel(pool, step, settings, scratch, |c| {
            contacts.push((c.ball, c.time.to_bits(), c.with));
        });
        Outcome {
            balls: start.iter().map(bits).collect(),
            contacts,
            figures: (
                r.lone_balls,
                r.bounces,
                r.max_bounces_per_ball,
                r.capped_balls,
                r.lost_time.to_bits(),
            ),
        }
    }

    #[test]
    fn a_bad_step_steps_nothing_and_a_bad_ball_is_left_as_it_was() {
        let grid = walls();
        let settings = MultiballSettings::default();
        let good = Ball::new(Vec2::ZERO, Vec2::new(100.0, 0.0), 2.0);
        let places = [
            Some(Ball::new(Vec2::new(f32::NAN, 0.0), Vec2::ZERO, 2.0)),
            Some(Ball::new(Vec2::ZERO, Vec2::new(0.0, f32::INFINITY), 2.0)),
            Some(Ball::new(Vec2::ZERO, Vec2::ZERO, -1.0)),
            Some(Ball {
                inverse_mass: -1.0,
                ..good
            }),
            Some(good),
        ];
        let reader = Sparse {
            places: &places,
            seeks: false,
        };
        let mut sweeps = LoneSweeps::default();
        let mut scratch = MultiballScratch::default();
        for dt in [0.0, -DT, f32::NAN, f32::INFINITY] {
            let ctx = StepContext::new(dt, &grid, &settings);
            let r = sweeps.step(&OneThread, &reader, &ctx, &mut scratch, |_, _| {
                panic!("dt {dt}: a contact")
            });
            assert_eq!((r.lone_balls, sweeps.ends().len()), (0, 0), "dt {dt}");
        }
        let ctx = StepContext::new(DT, &grid, &settings);
        let r = sweeps.step(&OneThread, &reader, &ctx, &mut scratch, |_, _| {});
        let ends: Vec<_> = sweeps.ends().collect();
        assert_eq!(r.lone_balls, 1);
        assert!(ends[..4].iter().all(Option::is_none), "{ends:?}");
        // By hand: 100 units/s for 1/60 s in open space.
        assert_eq!(ends[4], Some((Vec2::new(100.0 * DT, 0.0), good.velocity)));
    }

    #[test]
    fn a_lone_step_carried_goes_on_as_the_steps_own() {
        // Under gravity, balls drop onto the floor and rest there: which met a wall last
        // step decides where the next step's resting solve looks. A step made by the lone
        // engine on a store of its own must leave the next step (ball–ball contacts on)
        // exactly as a step of `step_balls` would.
        let grid = walls();
        let gravity = Vec2::new(0.0, -1000.0);
        let walls_only = MultiballSettings {
            ball_ball: false,
            gravity,
            ..MultiballSettings::default()
        };
        let with_balls = MultiballSettings {
            ball_ball: true,
            ..walls_only
        };
        let mut rng = StdRng::seed_from_u64(31);
        // A row on the floor, creeping sideways; a row in the air above, falling.
        let start: Vec<Ball> = (0..120)
            .map(|k| {
                let x = -180.0 + 6.0 * (k % 60) as f32;
                let y = if k < 60 { -198.0 + 1e-3 } else { -150.0 };
                Ball::new(Vec2::new(x, y), Vec2::new(rng.random_range(-5.0..5.0), -1.0), 2.0)
            })
            .collect();
        // The first step: by `step_balls`, or by the engine on a store and carried.
        let mut own = MultiballScratch::default();
        let mut by_steps = start.clone();
        assert!(own.steps_all_lone(&walls_only, &[]));
        step_on_scratch(&OneThread, &mut by_steps, &grid, &walls_only, &mut own);
        let mut carried = MultiballScratch::default();
        let places: Vec<Option<Ball>> = start.iter().copied().map(Some).collect();
        let reader = Sparse {
            places: &places,
            seeks: true,
        };
        let mut sweeps = LoneSweeps::default();
        let ctx = StepContext::new(DT, &grid, &walls_only);
        sweeps.step(&Threads(2), &reader, &ctx, &mut carried, |_, _| {});
        let mut by_store = start.clone();
        for (ball, end) in by_store.iter_mut().zip(sweeps.ends()) {
            if let Some((center, velocity)) = end {
                (ball.center, ball.velocity) = (center, velocity);
            }
        }
        // Some met the floor, some did not: a carry of all or none would differ.
        let met = carried.carried.met.iter().filter(|&&m| m).count();
        assert!((50..=70).contains(&met), "{met} met the floor");
        assert_eq!(carried.carried.met, own.carried.met, "which balls met a wall");
        assert_eq!(carried.carried.crowded, own.carried.crowded);
        // And the steps after it, ball–ball contacts on, go on alike.
        for k in 0..3 {
            let a = step_on_scratch(&OneThread, &mut by_steps, &grid, &with_balls, &mut own);
            let b = step_on_scratch(&OneThread, &mut by_store, &grid, &with_balls, &mut carried);
            assert!(
                a.balls == b.balls && a.contacts == b.contacts && a.figures == b.figures,
                "step {k} after the carried one differs"
            );
        }
    }

    #[test]
    fn steps_all_lone_only_while_nothing_but_walls_can_meet() {
        let grid = walls();
        let walls_only = MultiballSettings {
            ball_ball: false,
            ..MultiballSettings::default()
        };
        let with_balls = MultiballSettings {
            ball_ball: true,
            ..walls_only
        };
        let mut scratch = MultiballScratch::default();
        assert!(scratch.steps_all_lone(&walls_only, &[]));
        assert!(!scratch.steps_all_lone(&with_balls, &[]));
        let gate = MovingObstacle::new(
            Obstacle::segment(Segment::new(Vec2::new(300.0, 0.0), Vec2::new(310.0, 0.0))),
            SegmentMotion {
                pivot: Vec2::new(300.0, 0.0),
                angle: 0.1,
                pivot_motion: Vec2::ZERO,
            },
        );
        assert!(!scratch.steps_all_lone(&walls_only, &[gate]));
        // A packed crowd, ball–ball on: most balls go through the event machinery, and the
        // step is crowded. With ball–ball contacts then off, nothing but walls can meet a
        // ball: the next step is every ball's own sweep all the same.
        let mut crowd: Vec<Ball> = (0..400)
            .map(|k| {
                let at = Vec2::new((k % 20) as f32 * 4.1 - 40.0, (k / 20) as f32 * 4.1 - 40.0);
                Ball::new(
                    at,
                    Vec2::new(((k * 37) % 11) as f32 - 5.0, ((k * 53) % 13) as f32 - 6.0) * 100.0,
                    2.0,
                )
            })
            .collect();
        step_on_scratch(&OneThread, &mut crowd, &grid, &with_balls, &mut scratch);
        assert!(scratch.carried.crowded, "a crowded step");
        assert!(
            scratch.steps_all_lone(&walls_only, &[]),
            "crowded, and ball–ball off: every ball on its own"
        );
        let (expected, _) = each_lone(&crowd, &grid, &walls_only);
        let got = step_on_scratch(&OneThread, &mut crowd, &grid, &walls_only, &mut scratch);
        same(&got, &expected, "crowded, then ball-ball off");
        assert!(!scratch.carried.crowded);
    }
}
