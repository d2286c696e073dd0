//! The lone sweeps and the lone balls' ends, run by run of balls, in parallel (see
//! `lone.rs` for what a lone ball is).
//!
//! Each ball's sweep, and each lone ball's end written back with whether it met a wall,
//! is its own work. So the balls are cut into even runs of about [`LONE_BALLS_PER_TASK`],
//! at most [`MAX_LONE_RUNS`] of them (kept on the stack: a warm step allocates nothing),
//! and the runs go to the threads as tasks. When nothing but walls can meet a ball (no
//! ball–ball contacts, no moving obstacle), every ball is lone and its run writes its end
//! right after its sweep, in the same task; otherwise the ends are written after the
//! event machinery ran, in a second round of tasks.
//!
//! What must keep the caller's order stays on the calling thread, after the tasks: the
//! contacts (passed to `on_contact` ball by ball) and the lost time (an `f32` sum, whose
//! rounding depends on its order). Each run lists the balls that have either, so that
//! pass reads only those. The counts are integers, the same summed in any order. The
//! results are those of one pass in ball order, bit for bit, on any number of threads.

use super::lone::{Lone, sweep_lone};
use super::parallel::Parallel;
use super::report::{Contact, MultiballReport};
use super::settings::MultiballSettings;
use super::sim::usable;
use crate::ball::Ball;
use crate::obstacle::Obstacles;
use crate::tolerance::{LONE_BALLS_PER_TASK, MAX_LONE_RUNS};

/// One task: a run of balls, from `first`, with their lone sweeps and what they write.
struct Run<'a> {
    first: usize,
    balls: &'a mut [Ball],
    lone: &'a mut [Lone],
    met: &'a mut [bool],
    tally: Tally,
    /// The lone balls of the run with contacts or lost time, by index, in order.
    noted: &'a mut Vec<u32>,
}

/// A run's counts.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    lone_balls: u32,
    event_balls: u32,
    bounces: u32,
    max_bounces: u32,
    capped: u32,
}

/// The per-ball lists a round of runs cuts up, all in the caller's order.
pub(super) struct RunLists<'a> {
    pub(super) balls: &'a mut [Ball],
    /// Every ball's lone sweep (as many as `balls`).
    pub(super) lone: &'a mut [Lone],
    /// Per ball: it met something this step.
    pub(super) met: &'a mut [bool],
    /// Per run: its noted balls (kept between steps).
    pub(super) noted: &'a mut Vec<Vec<u32>>,
}

/// The runs of `lists`, as tasks for `round`.
fn cut<'a>(lists: RunLists<'a>, round: impl Fn(&mut Run<'a>) + Sync, pool: &impl Parallel) -> Finished<'a> {
    let RunLists {
        balls,
        lone,
        met,
        noted,
    } = lists;
    let count = balls.len().div_ceil(LONE_BALLS_PER_TASK).clamp(1, MAX_LONE_RUNS);
    let length = balls.len().div_ceil(count).max(1);
    let count = balls.len().div_ceil(length);
    if noted.len() < count {
        noted.resize_with(count, Vec::new);
    }
    let mut runs = balls
        .chunks_mut(length)
        .zip(lone.chunks_mut(length))
        .zip(met.chunks_mut(length))
        .zip(noted.iter_mut())
        .enumerate()
        .map(|(r, (((balls, lone), met), noted))| Run {
            first: r * length,
            balls,
            lone,
            met,
            tally: Tally::default(),
            noted,
        });
    let mut runs: [Option<Run<'a>>; MAX_LONE_RUNS] = std::array::from_fn(|_| runs.next());
    pool.for_each_task(&mut runs[..count], &|run: &mut Option<Run<'a>>| {
        if let Some(run) = run {
            round(run);
        }
    });
    Finished { runs, count }
}

/// Runs whose tasks are done, to be added up in order.
struct Finished<'a> {
    runs: [Option<Run<'a>>; MAX_LONE_RUNS],
    count: usize,
}

impl Finished<'_> {
    /// Add the runs' counts, lost time and contacts to `report` and `on_contact`, run by
    /// run and ball by ball.
    fn add_up(&self, report: &mut MultiballReport, on_contact: &mut impl FnMut(&Contact)) {
        let runs = self.runs[..self.count].iter().flatten();
        for run in runs.clone() {
            let t = run.tally;
            report.lone_balls += t.lone_balls;
            report.event_balls += t.event_balls;
            report.bounces += t.bounces;
            report.max_bounces_per_ball = report.max_bounces_per_ball.max(t.max_bounces);
            report.capped_balls += t.capped;
        }
        for run in runs {
            for &k in run.noted.iter() {
                let s = &run.lone[k as usize - run.first];
                if let Some(end) = s.end {
                    report.lost_time += end.lost_time;
                }
                s.contacts.iter().for_each(&mut *on_contact);
            }
        }
    }
}

/// Sweep every usable ball on its own (`lone`, resized to the balls, each entry knowing
/// its index). If `finish` (nothing but walls can meet a ball), also write each ball's
/// end, its met flag and its counts to `report`, and pass its contacts to `on_contact`.
pub(super) fn sweep_runs<P: Parallel, O: Obstacles + Sync + ?Sized>(
    pool: &P,
    lists: RunLists<'_>,
    sweep: (f32, &O, &MultiballSettings),
    finish: bool,
    report: &mut MultiballReport,
    on_contact: &mut impl FnMut(&Contact),
) {
    let (dt, obstacles, settings) = sweep;
    let finished = cut(
        lists,
        |run| {
            for (n, (s, b)) in run.lone.iter_mut().zip(run.balls.iter()).enumerate() {
                s.index = run.first + n;
                s.ball = usable(b).then_some(*b);
                s.events = false;
                sweep_lone(s, dt, obstacles, settings);
            }
            if finish {
                write_ends(run, &[]);
            }
        },
        pool,
    );
    if finish {
        finished.add_up(report, on_contact);
    }
}

/// Write each lone ball's end (those not `in_events`), its met flag and its counts to
/// `report`, and pass its contacts to `on_contact`.
pub(super) fn finish_runs<P: Parallel>(
    pool: &P,
    lists: RunLists<'_>,
    in_events: &[bool],
    report: &mut MultiballReport,
    on_contact: &mut impl FnMut(&Contact),
) {
    cut(lists, |run| write_ends(run, in_events), pool).add_up(report, on_contact);
}

/// One run's lone balls (all, if `in_events` is empty): each one's end, met flag and
/// counts.
fn write_ends(run: &mut Run<'_>, in_events: &[bool]) {
    run.noted.clear();
    let mut t = Tally::default();
    let balls = run.balls.iter_mut().zip(run.met.iter_mut()).zip(run.lone.iter());
    for (n, ((ball, met), s)) in balls.enumerate() {
        let k = run.first + n;
        if in_events.get(k).copied().unwrap_or(false) {
            t.event_balls += 1;
            continue;
        }
        // (A ball with an end was usable: a bad one is never swept.)
        let Some(end) = s.end else {
            continue;
        };
        ball.center = end.center;
        ball.velocity = end.velocity;
        t.lone_balls += 1;
        t.bounces += s.solid_contacts;
        t.max_bounces = t.max_bounces.max(end.bounces);
        t.capped += u32::from(end.capped);
        *met = s.solid_contacts > 0;
        if !s.contacts.is_empty() || end.lost_time != 0.0 {
            run.noted.push(k as u32);
        }
    }
    run.tally = t;
}

#[cfg(test)]
pub(super) mod tests {
    use crate::ball::Ball;
    use crate::bounce::{SweepSettings, sweep_bounces};
    use crate::broadphase::Grid;
    use crate::hit::ContactWith;
    use crate::multiball::{MultiballReport, MultiballScratch, MultiballSettings};
    use crate::multiball::{MultiballStep, OneThread, Parallel, Threads, step_balls_parallel};
    use crate::obstacle::{Layers, Obstacle};
    use crate::shape::{Circle, Segment};
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
                gravity: settings.gravity,
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
}
