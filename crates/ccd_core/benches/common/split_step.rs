//! A prototype of an exact split step for the split study (bench code, not the library):
//! the pit's two halves stepped at once, then the clusters whose paths cross between them
//! stepped again from the start, until no path of a re-stepped ball comes near a path of
//! any other.
//!
//! Valid for what the pit holds, nothing else: no gravity and no moving obstacle, so a
//! ball's centre runs straight between its contacts, and its path is the polyline through
//! its contacts' centres.
//!
//! Why the result is exact: each half's step is exact for its own balls, and only a
//! contact changes a ball's path. A ball whose path comes within reach of a ball on the
//! other side is a *conflict*: the two balls' *clusters* (the balls their half's contacts
//! link them to) join into one *group*, and each round steps again, from the start and
//! together, every group that met a conflict, then checks the group's new paths against
//! every ball outside it. A new conflict joins that ball's cluster (or group) to the group,
//! until a round finds none (or [`MAX_ROUNDS`] pass: then the whole step is taken as it
//! is). At the end no path of a group comes near a path outside it, and no two balls left
//! in their halves come near across the split, so every path stands as its own step left
//! it.

use ccd_core::{
    Aabb, Ball, Contact, ContactWith, Grid, MultiballReport, MultiballScratch, MultiballSettings,
    MultiballStep, Vec2, step_balls,
};
use std::time::Instant;

/// Rounds of re-stepping at most before the prototype takes the whole step instead.
const MAX_ROUNDS: u32 = 8;

/// Units. Paths closer than the radii plus this count as a conflict: above the resting
/// solve's allowed overlap (`ALLOWED_OVERLAP_REL` of a radius of 4 is 0.004), which can
/// move a ball off its polyline without a contact.
const REACH_MARGIN: f32 = 0.05;

/// Units. The side of the cells that find the pairs of paths to compare: about a ball's
/// path box in the pit (a step of up to 33 units, plus twice the radius).
const CELL: f32 = 64.0;

/// What the split step did, and how long each part took (µs).
pub struct SplitOutcome {
    pub balls: Vec<Ball>,
    /// Balls stepped again (each counted once), rounds, and whether it fell back to the
    /// whole step.
    pub restepped: usize,
    pub rounds: u32,
    pub fell_back: bool,
    pub halves_us: f64,
    pub rest_us: f64,
}

/// Some balls stepped apart: their ends (in the order stepped) and their contacts (with
/// indices into the whole pit).
struct Stepped {
    ends: Vec<Ball>,
    contacts: Vec<Contact>,
}

/// Each ball's path: knots of (time, centre), straight between.
type Path = Vec<(f32, Vec2)>;

/// The settings of the split step.
pub struct SplitStep<'a> {
    pub grid: &'a Grid,
    pub dt: f32,
    pub settings: &'a MultiballSettings,
}

impl SplitStep<'_> {
    /// The balls `idx` of `start` stepped alone: their ends and the step's report, each
    /// contact (its indices into the subset) passed to `on_contact`.
    pub fn step_subset(
        &self,
        start: &[Ball],
        idx: &[usize],
        scratch: &mut MultiballScratch,
        on_contact: impl FnMut(&Contact),
    ) -> (Vec<Ball>, MultiballReport) {
        let mut sub: Vec<Ball> = idx.iter().map(|&i| start[i]).collect();
        let report = step_balls(
            MultiballStep::new(&mut sub, self.dt, self.grid),
            self.settings,
            scratch,
            on_contact,
        );
        (sub, report)
    }

    /// [`SplitStep::step_subset`], keeping the contacts with indices into `start`.
    fn step(&self, start: &[Ball], idx: &[usize], scratch: &mut MultiballScratch) -> Stepped {
        let mut contacts = Vec::new();
        let (sub, _) = self.step_subset(start, idx, scratch, |c| {
            let mut c = *c;
            c.ball = idx[c.ball];
            if let ContactWith::Ball(j) = c.with {
                c.with = ContactWith::Ball(idx[j]);
            }
            contacts.push(c);
        });
        Stepped { ends: sub, contacts }
    }

    /// Step `start` split at its median x, as the module docs say.
    pub fn run(&self, start: &[Ball], scratch: &mut [MultiballScratch; 3]) -> SplitOutcome {
        let clock = Instant::now();
        let (left, right) = halves(start);
        let [left_scratch, right_scratch, again_scratch] = scratch;
        let (left_step, right_step) = std::thread::scope(|scope| {
            let other = scope.spawn(|| self.step(start, &right, right_scratch));
            let mine = self.step(start, &left, left_scratch);
            (mine, other.join().unwrap())
        });
        let halves_us = clock.elapsed().as_secs_f64() * 1e6;
        let clock = Instant::now();
        let mut fix = Fixup::new(start, self.dt, [(&left, &left_step), (&right, &right_step)]);
        let mut conflicts = fix.across(&left, &right);
        let mut rounds = 0;
        while !conflicts.is_empty() {
            if rounds == MAX_ROUNDS {
                let all: Vec<usize> = (0..start.len()).collect();
                return SplitOutcome {
                    balls: self.step(start, &all, again_scratch).ends,
                    restepped: start.len(),
                    rounds,
                    fell_back: true,
                    halves_us,
                    rest_us: clock.elapsed().as_secs_f64() * 1e6,
                };
            }
            rounds += 1;
            let again = fix.group(&conflicts);
            let stepped = self.step(start, &again, again_scratch);
            conflicts = fix.take(&again, &stepped);
        }
        SplitOutcome {
            restepped: fix.restepped,
            balls: fix.end,
            rounds,
            fell_back: false,
            halves_us,
            rest_us: clock.elapsed().as_secs_f64() * 1e6,
        }
    }
}

/// The balls left and right of the median x (ties by index, so the split is the same
/// every run), each in index order.
pub fn halves(start: &[Ball]) -> (Vec<usize>, Vec<usize>) {
    let n = start.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| start[a].center.x.total_cmp(&start[b].center.x).then(a.cmp(&b)));
    let (mut left, mut right) = (order[..n / 2].to_vec(), order[n / 2..].to_vec());
    left.sort_unstable();
    right.sort_unstable();
    (left, right)
}

/// The fix-up after the halves: every ball's end and path, the clusters, and the groups
/// stepped again so far.
struct Fixup<'a> {
    start: &'a [Ball],
    dt: f32,
    end: Vec<Ball>,
    paths: Vec<Path>,
    /// Union-find over the balls: their clusters, joined into groups by conflicts.
    cluster: Vec<usize>,
    cells: Cells,
    /// Per ball: in this round's group; stepped again in any round.
    group: Vec<bool>,
    in_again: Vec<bool>,
    restepped: usize,
}

impl<'a> Fixup<'a> {
    /// The halves' ends, paths and clusters (each half: its balls, their ends and
    /// contacts).
    fn new(start: &'a [Ball], dt: f32, halves: [(&[usize], &Stepped); 2]) -> Self {
        let n = start.len();
        let mut end = start.to_vec();
        for (idx, half) in halves {
            for (&i, b) in idx.iter().zip(&half.ends) {
                end[i] = *b;
            }
        }
        let contacts = || halves.iter().flat_map(|(_, half)| &half.contacts);
        let mut paths: Vec<Path> = vec![Vec::new(); n];
        let all: Vec<usize> = (0..n).collect();
        trace(&mut paths, start, &end, &all, contacts(), dt);
        let mut cluster: Vec<usize> = (0..n).collect();
        join(&mut cluster, contacts());
        let boxes: Vec<Aabb> = (0..n).map(|i| path_box(&paths[i], start[i].radius)).collect();
        Self {
            start,
            dt,
            end,
            paths,
            cluster,
            cells: Cells::new(&boxes),
            group: vec![false; n],
            in_again: vec![false; n],
            restepped: 0,
        }
    }

    /// Whether the paths of balls `i` and `j` come within reach of each other.
    fn conflict(&self, i: usize, j: usize) -> bool {
        let reach = self.start[i].radius + self.start[j].radius + REACH_MARGIN;
        touch(&self.paths[i], &self.paths[j], reach)
    }

    /// Round 0's conflicts: left against right, for the left balls whose box reaches past
    /// the lowest x of a right ball's box.
    fn across(&self, left: &[usize], right: &[usize]) -> Vec<(usize, usize)> {
        let mut on_right = vec![false; self.start.len()];
        for &i in right {
            on_right[i] = true;
        }
        let boxes = &self.cells.boxes;
        let reach_right = right.iter().map(|&j| boxes[j].min.x).fold(f32::MAX, f32::min);
        let mut conflicts = Vec::new();
        for &i in left.iter().filter(|&&i| boxes[i].max.x >= reach_right) {
            self.cells.near(boxes[i], |j| {
                if on_right[j] && self.conflict(i, j) {
                    conflicts.push((i, j));
                }
            });
        }
        conflicts
    }

    /// This round's group: each conflict joins its two balls' clusters, and every ball
    /// whose cluster met a conflict is stepped again (returned in index order).
    fn group(&mut self, conflicts: &[(usize, usize)]) -> Vec<usize> {
        let cluster = &mut self.cluster;
        for &(i, j) in conflicts {
            let (a, b) = (root(cluster, i), root(cluster, j));
            cluster[a] = b;
        }
        let mut dirty = vec![false; cluster.len()];
        for &(i, _) in conflicts {
            dirty[root(cluster, i)] = true;
        }
        let mut again = Vec::new();
        for i in 0..cluster.len() {
            self.group[i] = dirty[root(cluster, i)];
            if self.group[i] {
                again.push(i);
                self.restepped += usize::from(!self.in_again[i]);
                self.in_again[i] = true;
            }
        }
        again
    }

    /// Take the group `again` stepped again (its ends and contacts), and return its new
    /// paths' conflicts with every ball outside it.
    fn take(&mut self, again: &[usize], stepped: &Stepped) -> Vec<(usize, usize)> {
        for (&i, b) in again.iter().zip(&stepped.ends) {
            self.end[i] = *b;
        }
        let contacts = &stepped.contacts;
        trace(
            &mut self.paths,
            self.start,
            &self.end,
            again,
            contacts.iter(),
            self.dt,
        );
        join(&mut self.cluster, contacts.iter());
        for &i in again {
            self.cells
                .replace(i, path_box(&self.paths[i], self.start[i].radius));
        }
        let mut conflicts = Vec::new();
        for &i in again {
            self.cells.near(self.cells.boxes[i], |j| {
                if !self.group[j] && self.conflict(i, j) {
                    conflicts.push((i, j));
                }
            });
        }
        conflicts
    }
}

/// The paths of the balls `idx`: from `start` through their solid contacts to `end`.
fn trace<'c>(
    paths: &mut [Path],
    start: &[Ball],
    end: &[Ball],
    idx: &[usize],
    contacts: impl Iterator<Item = &'c Contact>,
    dt: f32,
) {
    for &i in idx {
        paths[i].clear();
        paths[i].push((0.0, start[i].center));
    }
    for c in contacts.filter(|c| !c.sensor) {
        paths[c.ball].push((c.time, c.hit.center));
        if let ContactWith::Ball(j) = c.with {
            // The other's centre: `hit.point` is on its surface, `hit.normal` points from it.
            paths[j].push((c.time, c.hit.point - c.hit.normal * start[j].radius));
        }
    }
    for &i in idx {
        paths[i].push((dt, end[i].center));
        paths[i].sort_by(|a, b| a.0.total_cmp(&b.0));
    }
}

/// Join the clusters of every ball–ball contact's two balls.
fn join<'c>(cluster: &mut [usize], contacts: impl Iterator<Item = &'c Contact>) {
    for c in contacts {
        if let ContactWith::Ball(j) = c.with {
            let (a, b) = (root(cluster, c.ball), root(cluster, j));
            cluster[a] = b;
        }
    }
}

/// The root of `i` in the union-find forest `up`, halving paths on the way.
pub fn root(up: &mut [usize], mut i: usize) -> usize {
    while up[i] != i {
        up[i] = up[up[i]];
        i = up[i];
    }
    i
}

/// A path's box, grown by `radius` and the margin.
fn path_box(path: &Path, radius: f32) -> Aabb {
    let grow = Vec2::splat(radius + REACH_MARGIN);
    let (lo, hi) = path
        .iter()
        .fold((Vec2::MAX, Vec2::MIN), |(lo, hi), &(_, p)| (lo.min(p), hi.max(p)));
    Aabb::new(lo - grow, hi + grow)
}

/// Whether two paths come within `reach` of each other at one time: the closest approach
/// over each interval between their knots (both paths run from 0 to the same end), in f64.
fn touch(p: &Path, q: &Path, reach: f32) -> bool {
    let reach = f64::from(reach);
    // On knot interval `k` of `path`, the centre at `t`.
    let at = |path: &Path, k: usize, t: f32| {
        let ((t0, a), (t1, b)) = (path[k], path[k + 1]);
        if t1 <= t0 {
            b
        } else {
            a + (b - a) * ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        }
    };
    let (mut a, mut b) = (0, 0);
    let mut t = 0.0;
    while a + 1 < p.len() && b + 1 < q.len() {
        let next = p[a + 1].0.min(q[b + 1].0);
        let d0 = (at(p, a, t) - at(q, b, t)).as_dvec2();
        let d1 = (at(p, a, next) - at(q, b, next)).as_dvec2();
        let v = d1 - d0;
        let s = if v.length_squared() > 0.0 {
            (-d0.dot(v) / v.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        if (d0 + v * s).length() <= reach {
            return true;
        }
        // Step past every knot at `next` (a contact puts two at one time).
        while a + 1 < p.len() && p[a + 1].0 <= next {
            a += 1;
        }
        while b + 1 < q.len() && q[b + 1].0 <= next {
            b += 1;
        }
        t = next;
    }
    false
}

/// The cells a box covers: from `lo` to `hi`, both included.
struct CellRange {
    lo: [usize; 2],
    hi: [usize; 2],
}

/// The path boxes in square cells of [`CELL`] units, to find the boxes near a box.
struct Cells {
    min: Vec2,
    width: usize,
    rows: usize,
    lists: Vec<Vec<u32>>,
    boxes: Vec<Aabb>,
}

impl Cells {
    fn new(boxes: &[Aabb]) -> Self {
        let lo = boxes.iter().fold(Vec2::MAX, |m, b| m.min(b.min));
        let hi = boxes.iter().fold(Vec2::MIN, |m, b| m.max(b.max));
        let width = ((hi.x - lo.x) / CELL) as usize + 1;
        let rows = ((hi.y - lo.y) / CELL) as usize + 1;
        let mut cells = Self {
            min: lo,
            width,
            rows,
            lists: vec![Vec::new(); width * rows],
            boxes: boxes.to_vec(),
        };
        for (i, &b) in boxes.iter().enumerate() {
            let CellRange {
                lo: [x0, y0],
                hi: [x1, y1],
            } = cells.range(b);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    cells.lists[y * width + x].push(i as u32);
                }
            }
        }
        cells
    }

    /// The cells a box covers, clamped to the grid.
    fn range(&self, b: Aabb) -> CellRange {
        let cell = |p: Vec2| {
            let q = ((p - self.min) / CELL).max(Vec2::ZERO);
            [
                (q.x as usize).min(self.width - 1),
                (q.y as usize).min(self.rows - 1),
            ]
        };
        CellRange {
            lo: cell(b.min),
            hi: cell(b.max),
        }
    }

    /// Give ball `i` the box `b`, in the cells it covers (the old ones keep it listed; their
    /// boxes test it out).
    fn replace(&mut self, i: usize, b: Aabb) {
        self.boxes[i] = b;
        let CellRange {
            lo: [x0, y0],
            hi: [x1, y1],
        } = self.range(b);
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.lists[y * self.width + x].push(i as u32);
            }
        }
    }

    /// Call `f` on every ball whose path box meets `b` (perhaps more than once).
    fn near(&self, b: Aabb, mut f: impl FnMut(usize)) {
        let CellRange {
            lo: [x0, y0],
            hi: [x1, y1],
        } = self.range(b);
        for y in y0..=y1 {
            for x in x0..=x1 {
                for &j in &self.lists[y * self.width + x] {
                    let o = self.boxes[j as usize];
                    if o.intersects(&b) {
                        f(j as usize);
                    }
                }
            }
        }
    }
}
