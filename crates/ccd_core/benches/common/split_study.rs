//! `multiball_pit --split-study`: what stepping the pit's two halves apart, on two threads,
//! would give and cost (the measurement behind the fifth pass of `docs/performance-log.md`).
//!
//! Every step is taken whole, as `step_balls` takes it, and the run goes on from the whole
//! step's result. From the same start, the balls left and right of the median x are also
//! stepped as two separate calls: one after the other on one thread, then at once on two;
//! and the prototype of an exact split step (`split_step.rs`) steps them too. The study
//! prints, as medians or means over the steps:
//! - the whole step's time, and the two halves' one after the other and at once, and the
//!   events each processed;
//! - the whole step's ball–ball contacts, and its *clusters*: balls joined by ball–ball
//!   contacts in the step. A cluster with balls on both sides *straddles* the split: the
//!   halves alone cannot step it right, and a split step would have to step it again;
//! - how many balls the halves end otherwise than the whole step, bit for bit, and how
//!   many of those lie outside every straddling cluster;
//! - the exact split's time (its halves, and its checks and re-stepping), the balls it
//!   steps again and its rounds, how many balls it ends away from the whole step's ends,
//!   and the overlapping pairs of balls at the ends of its steps and of the whole steps.

use super::split_step::{SplitStep, halves, root};
use ccd_core::{Ball, ContactWith, Grid, MultiballScratch, MultiballSettings, MultiballStep, step_balls};
use std::time::Instant;

/// Units. A ball that the halves end farther than this from where the whole step ends
/// it counts as moved, not merely rounded otherwise.
const MOVED: f32 = 1e-3;

/// Sums over the steps.
#[derive(Default)]
struct Tally {
    whole: Vec<f64>,
    serial: Vec<f64>,
    parallel: Vec<f64>,
    ball_contacts: usize,
    clustered: usize,
    largest: usize,
    straddling_balls: usize,
    straddling_contacts: usize,
    differ: usize,
    differ_outside: usize,
    moved_outside: usize,
    /// The exact split prototype: its whole time, its halves' and its re-stepping's, the
    /// balls it stepped again, its rounds, its fallbacks, the balls it ends farther than
    /// [`MOVED`] from the whole step, and the pairs of balls it leaves overlapping.
    split: Vec<f64>,
    split_halves: Vec<f64>,
    split_rest: Vec<f64>,
    restepped: usize,
    rounds: u64,
    fell_back: usize,
    split_moved: usize,
    split_overlaps: usize,
    whole_overlaps: usize,
    /// Events the whole step processed, and the two halves together.
    whole_events: u64,
    half_events: u64,
}

/// Run the study over `steps` steps from `balls` with `settings`, and print it. An error
/// if the split step's ends hold more overlapping pairs than the whole step's: the
/// prototype claims to be exact.
pub fn run(
    grid: &Grid,
    mut balls: Vec<Ball>,
    steps: usize,
    dt: f32,
    settings: &MultiballSettings,
) -> Result<(), String> {
    let n = balls.len();
    let mut scratch = [(); 3].map(|()| MultiballScratch::default());
    let mut split_scratch = [(); 3].map(|()| MultiballScratch::default());
    let split_step = SplitStep { grid, dt, settings };
    let mut t = Tally::default();
    for _ in 0..steps {
        let (left, right) = halves(&balls);
        let [whole_scratch, left_scratch, right_scratch] = &mut scratch;
        // The halves alone, their events counted.
        let subset = |idx: &[usize], scratch: &mut MultiballScratch| {
            let (end, report) = split_step.step_subset(&balls, idx, scratch, |_| {});
            (end, report.events)
        };
        let clock = Instant::now();
        subset(&left, left_scratch);
        subset(&right, right_scratch);
        t.serial.push(clock.elapsed().as_secs_f64() * 1e6);
        let clock = Instant::now();
        let ((left_end, left_events), (right_end, right_events)) = std::thread::scope(|scope| {
            let other = scope.spawn(|| subset(&right, right_scratch));
            let mine = subset(&left, left_scratch);
            (mine, other.join().unwrap())
        });
        t.parallel.push(clock.elapsed().as_secs_f64() * 1e6);
        let mut halves = balls.clone();
        for (idx, end) in [(&left, &left_end), (&right, &right_end)] {
            for (&i, b) in idx.iter().zip(end) {
                halves[i] = *b;
            }
        }
        let split = split_step.run(&balls, &mut split_scratch);
        t.split.push(split.halves_us + split.rest_us);
        t.split_halves.push(split.halves_us);
        t.split_rest.push(split.rest_us);
        t.restepped += split.restepped;
        t.rounds += u64::from(split.rounds);
        t.fell_back += usize::from(split.fell_back);
        let mut pairs = Vec::new();
        let clock = Instant::now();
        t.half_events += u64::from(left_events + right_events);
        let report = step_balls(
            MultiballStep::new(&mut balls, dt, grid),
            settings,
            whole_scratch,
            |c| {
                if let ContactWith::Ball(j) = c.with {
                    pairs.push((c.ball, j));
                }
            },
        );
        t.whole.push(clock.elapsed().as_secs_f64() * 1e6);
        t.whole_events += u64::from(report.events);
        tally_clusters(&mut t, &pairs, &right, &halves, &balls);
        t.split_moved += (0..n)
            .filter(|&i| (split.balls[i].center - balls[i].center).length() > MOVED)
            .count();
        t.split_overlaps += overlaps(&split.balls);
        t.whole_overlaps += overlaps(&balls);
    }
    print(&mut t, steps);
    if t.split_overlaps > t.whole_overlaps {
        return Err(format!(
            "the split step left {} overlapping pairs, the whole step {}",
            t.split_overlaps, t.whole_overlaps
        ));
    }
    Ok(())
}

/// Add one step's clusters, straddling ones and differing balls to `t`.
fn tally_clusters(t: &mut Tally, pairs: &[(usize, usize)], right: &[usize], halves: &[Ball], whole: &[Ball]) {
    let n = whole.len();
    let mut up: Vec<usize> = (0..n).collect();
    for &(a, b) in pairs {
        let (ra, rb) = (root(&mut up, a), root(&mut up, b));
        up[ra] = rb;
    }
    let mut on_right = vec![false; n];
    for &i in right {
        on_right[i] = true;
    }
    // Per root: its size, and which sides its balls are on (bit 0 left, bit 1 right).
    let (mut size, mut sides) = (vec![0_usize; n], vec![0_u8; n]);
    for (i, &right) in on_right.iter().enumerate() {
        let r = root(&mut up, i);
        size[r] += 1;
        sides[r] |= if right { 2 } else { 1 };
    }
    t.ball_contacts += pairs.len();
    t.straddling_contacts += pairs
        .iter()
        .filter(|&&(a, _)| sides[root(&mut up, a)] == 3)
        .count();
    let bits = |b: &Ball| [b.center.x, b.center.y, b.velocity.x, b.velocity.y].map(f32::to_bits);
    for i in 0..n {
        let r = root(&mut up, i);
        t.largest = t.largest.max(size[r]);
        t.clustered += usize::from(size[r] > 1);
        let straddles = sides[r] == 3;
        t.straddling_balls += usize::from(straddles);
        if bits(&halves[i]) != bits(&whole[i]) {
            t.differ += 1;
            if !straddles {
                t.differ_outside += 1;
                t.moved_outside += usize::from((halves[i].center - whole[i].center).length() > MOVED);
            }
        }
    }
}

/// Units. Two balls closer than their radii less this overlap (beyond the resting solve's
/// allowed overlap, 0.004 at radius 4).
const OVERLAP: f32 = 0.01;

/// The pairs of `balls` that overlap by more than [`OVERLAP`] (by x order, near pairs only).
fn overlaps(balls: &[Ball]) -> usize {
    let mut by_x: Vec<&Ball> = balls.iter().collect();
    by_x.sort_by(|a, b| a.center.x.total_cmp(&b.center.x));
    let widest = balls.iter().map(|b| b.radius).fold(0.0, f32::max) * 2.0;
    let mut count = 0;
    for (k, a) in by_x.iter().enumerate() {
        for b in by_x[k + 1..]
            .iter()
            .take_while(|b| b.center.x - a.center.x <= widest)
        {
            count += usize::from((a.center - b.center).length() < a.radius + b.radius - OVERLAP);
        }
    }
    count
}

fn print(t: &mut Tally, steps: usize) {
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let per = |x: usize| x as f64 / steps as f64;
    let (whole, serial, parallel) = (
        median(&mut t.whole),
        median(&mut t.serial),
        median(&mut t.parallel),
    );
    let (split, split_halves, split_rest) = (
        median(&mut t.split),
        median(&mut t.split_halves),
        median(&mut t.split_rest),
    );
    println!(
        "split study, {steps} steps (medians): whole step {whole:.0} µs; the halves one after the other {serial:.0} µs, \
         at once on two threads {parallel:.0} µs ({:.2}× the whole step)",
        whole / parallel
    );
    println!(
        "events per step: the whole step {:.0}, the two halves together {:.0} ({:+.1}%)",
        t.whole_events as f64 / steps as f64,
        t.half_events as f64 / steps as f64,
        100.0 * (t.half_events as f64 / t.whole_events.max(1) as f64 - 1.0),
    );
    println!(
        "per step: {:.0} ball-ball contacts; {:.0} balls in clusters of two or more, the largest {}; clusters straddling \
         the split hold {:.0} balls and {:.1}% of the ball-ball contacts",
        per(t.ball_contacts),
        per(t.clustered),
        t.largest,
        per(t.straddling_balls),
        100.0 * t.straddling_contacts as f64 / t.ball_contacts.max(1) as f64,
    );
    println!(
        "per step: the halves end {:.0} balls otherwise than the whole step; {:.0} of them outside every straddling \
         cluster, {:.1} of those farther than {MOVED} units",
        per(t.differ),
        per(t.differ_outside),
        per(t.moved_outside),
    );
    println!(
        "exact split (prototype, split_step.rs): {split:.0} µs a step on two threads ({:.2}× the whole step): the halves \
         {split_halves:.0}, the checks and re-stepping {split_rest:.0}; {:.0} balls stepped again in {:.2} rounds a step, \
         {} fallbacks; {:.1} balls a step end farther than {MOVED} units from the whole step's ends",
        whole / split,
        per(t.restepped),
        t.rounds as f64 / steps as f64,
        t.fell_back,
        per(t.split_moved),
    );
    println!(
        "overlapping pairs (deeper than {OVERLAP} units) at the steps' ends, in all: split {}, whole step {}",
        t.split_overlaps, t.whole_overlaps
    );
}
