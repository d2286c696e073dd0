//! A uniform grid of the balls' swept boxes, rebuilt every step, to find candidate pairs.
//!
//! Cells are about twice the size of an average swept box (not the largest: one fast ball would
//! otherwise make every cell hold dozens of slow ones), and each cell holds the boxes
//! themselves beside the ball indices, so a query tests them in place and looks up only
//! the balls whose boxes it meets. The cells live in one flat array, [`CELL_SLOTS`] entries
//! each (cells of one row side by side in memory), stored field by field ([`Cell`], in
//! `ball_grid/cell.rs`: all the slots' boxes are tested at once, as a vector), with a spill list for a crowded cell:
//! an event-driven step visits cells in no spatial order, so fewer cache lines per visit
//! is most of the speed. For the same reason an entry keeps its box in 16-bit fixed point
//! over the grid's bounds, rounded outwards (16 bytes an entry, not 24): a query may then
//! list a box that only nearly meets its own, never miss one that meets it, and every
//! caller tests the balls it lists exactly.

mod cell;

use crate::shape::Aabb;
use crate::tolerance::MAX_BALL_GRID_CELLS_PER_AXIS as MAX_CELLS_PER_AXIS;
use cell::{CELL_SLOTS, Cell, Entry, QBox, used};
use glam::Vec2;

/// Dimensionless: the cell's side over the average swept box's larger side. Twice the
/// box: a box then covers one to four cells, not four to nine, so the edits after each
/// event touch fewer cells, and the larger cells cost little to scan as vectors (measured
/// on the 10,000-ball pit: about 10 % faster than cells the size of the box; three times
/// the box, with 32 slots, was no better).
const CELL_PER_MEAN_BOX: f32 = 2.0;

/// Dense grid over the step's bounds; a box outside them lands in the border cells, for
/// queries and inserts alike, so candidates are never lost.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallGrid {
    origin: Vec2,
    inv_cell: f32,
    /// Fixed-point units per world unit (see [`QBox`]).
    fixed_scale: f32,
    width: usize,
    height: usize,
    /// The last cell's coordinates, `(width − 1, height − 1)`, as floats.
    last_cell: Vec2,
    /// The cells, row by row; the first `counts[c]` slots of cell `c` used.
    slots: Vec<Cell>,
    counts: Vec<u8>,
    /// Entries past a cell's slots (empty, and unallocated, for nearly every cell).
    spill: Vec<Vec<Entry>>,
    /// The cell range each ball is in: `[x0, y0, x1, y1]`.
    ranges: Vec<[u16; 4]>,
}

/// The largest fixed-point coordinate.
const FIXED_MAX: f32 = u16::MAX as f32;

impl BallGrid {
    /// Reset for `boxes`, one per ball, over their common bounds.
    pub(crate) fn rebuild(&mut self, boxes: &[Aabb]) {
        let mut bounds = boxes
            .first()
            .copied()
            .unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO));
        let mut extent = 0.0_f64;
        for b in boxes {
            bounds = bounds.union(*b);
            extent += f64::from((b.max - b.min).max_element());
        }
        let size = bounds.max - bounds.min;
        // Cells about twice the average swept box, but never more than the cap.
        let mean = (extent / boxes.len().max(1) as f64) as f32;
        let cell = (mean * CELL_PER_MEAN_BOX)
            .max(size.max_element() / MAX_CELLS_PER_AXIS as f32)
            .max(f32::MIN_POSITIVE);
        let (w, h) = (
            ((size.x / cell) as usize + 1).min(MAX_CELLS_PER_AXIS),
            ((size.y / cell) as usize + 1).min(MAX_CELLS_PER_AXIS),
        );
        self.origin = bounds.min;
        self.inv_cell = 1.0 / cell;
        self.fixed_scale = FIXED_MAX / size.max_element().max(f32::MIN_POSITIVE);
        self.width = w;
        self.height = h;
        self.last_cell = Vec2::new((w - 1) as f32, (h - 1) as f32);
        // The slots are read only up to each cell's count (every test masks the rest), so
        // the old ones stay as they are: only the counts are cleared (a byte a cell, not
        // the 384 bytes of its slots; the pit's grids are about a megabyte of slots).
        self.slots.resize(w * h, Cell::default());
        self.counts.clear();
        self.counts.resize(w * h, 0);
        for c in &mut self.spill {
            c.clear();
        }
        self.spill.resize_with(w * h, Vec::new);
        self.ranges.clear();
        self.ranges.resize(boxes.len(), [0; 4]);
        for (i, b) in boxes.iter().enumerate() {
            self.insert(i, *b);
        }
    }

    #[inline]
    fn range(&self, b: Aabb) -> [u16; 4] {
        let cell = |p: Vec2| {
            // Clamped as floats first (a NaN fails the clamp's compares and becomes the
            // lower bound, 0), so the casts need no saturation of their own.
            let q = ((p - self.origin) * self.inv_cell).clamp(Vec2::ZERO, self.last_cell);
            (q.x as i32 as u16, q.y as i32 as u16)
        };
        let (x0, y0) = cell(b.min);
        let (x1, y1) = cell(b.max);
        [x0, y0, x1.max(x0), y1.max(y0)]
    }

    /// `b` in fixed point, rounded outwards: monotone, so boxes that meet still meet (an
    /// out-of-range or NaN coordinate saturates to the border, or to 0). The casts
    /// truncate (towards zero, saturating), which is a floor for the non-negative values
    /// that matter; the upper corner then takes one more unit, a ceiling or more. No
    /// `floor`/`ceil`: without SSE 4.1 they are library calls.
    #[inline]
    fn fixed(&self, b: Aabb) -> QBox {
        let lo = (b.min - self.origin) * self.fixed_scale;
        let hi = (b.max - self.origin) * self.fixed_scale;
        QBox {
            min: [lo.x as u16, lo.y as u16],
            max: [(hi.x as u16).saturating_add(1), (hi.y as u16).saturating_add(1)],
        }
    }

    fn insert(&mut self, ball: usize, b: Aabb) {
        self.insert_at(ball, self.range(b), self.fixed(b));
    }

    /// [`BallGrid::insert`] with the box's cell range and fixed-point box already found.
    fn insert_at(&mut self, ball: usize, r: [u16; 4], b: QBox) {
        self.ranges[ball] = r;
        for y in span(r[1], r[3]) {
            for x in span(r[0], r[2]) {
                let entry = Entry {
                    ball: ball as u32,
                    bounds: b,
                    first: [r[0], r[1]],
                };
                self.push(y as usize * self.width + x as usize, entry);
            }
        }
    }

    fn push(&mut self, cell: usize, entry: Entry) {
        let count = self.counts[cell] as usize;
        if count < CELL_SLOTS {
            self.slots[cell].set(count, entry);
            self.counts[cell] += 1;
        } else {
            self.spill[cell].push(entry);
        }
    }

    /// Replace (`Some`) or remove (`None`) `ball`'s entry in `cell`.
    fn edit(&mut self, cell: usize, ball: u32, new: Option<QBox>) {
        let count = self.counts[cell] as usize;
        let slots = &mut self.slots[cell];
        if let Some(k) = slots.slot_of(ball, count) {
            if let Some(b) = new {
                slots.set_bounds(k, b);
                return;
            }
            // The hole takes a spilled entry if there is one (a cell spills only when its
            // slots are full: the spill list is read only then), else the last slot.
            if count == CELL_SLOTS
                && let Some(spilled) = self.spill[cell].pop()
            {
                slots.set(k, spilled);
                return;
            }
            let last = slots.get(count - 1);
            slots.set(k, last);
            self.counts[cell] -= 1;
            return;
        }
        if count < CELL_SLOTS {
            // Not in the slots, and nothing spilled.
            return;
        }
        let spill = &mut self.spill[cell];
        if let Some(k) = spill.iter().position(|e| e.ball == ball) {
            match new {
                Some(b) => spill[k].bounds = b,
                None => {
                    spill.swap_remove(k);
                }
            }
        }
    }

    /// Move `ball` to its new swept box.
    pub(crate) fn update(&mut self, ball: usize, b: Aabb) {
        let old = self.ranges[ball];
        let new = self.range(b);
        let same_cells = old == new;
        let fixed = self.fixed(b);
        for y in span(old[1], old[3]) {
            for x in span(old[0], old[2]) {
                let cell = y as usize * self.width + x as usize;
                self.edit(cell, ball as u32, same_cells.then_some(fixed));
            }
        }
        if !same_cells {
            self.insert_at(ball, new, fixed);
        }
    }

    /// Calls `f` once for every ball whose box meets `b` (and maybe for a few whose box
    /// nearly does, see [`QBox`]), in a fixed order. Read-only, so threads can query at
    /// once.
    pub(crate) fn query(&self, b: Aabb, f: impl FnMut(usize)) {
        self.query_except(b, usize::MAX, f);
    }

    /// [`BallGrid::query`], never calling `f` for ball `except` (a ball's own box, which
    /// every query around it meets, is dropped with the other slots that do not count,
    /// as a mask: the caller takes no branch on it).
    pub(crate) fn query_except(&self, b: Aabb, except: usize, mut f: impl FnMut(usize)) {
        let except = u32::try_from(except).unwrap_or(u32::MAX);
        let r = self.range(b);
        let fixed = self.fixed(b);
        for y in span(r[1], r[3]) {
            for x in span(r[0], r[2]) {
                let cell = y as usize * self.width + x as usize;
                let count = self.counts[cell] as usize;
                let slots = &self.slots[cell];
                // The used slots whose boxes meet, reported in the lowest cell the two
                // ranges share only.
                let mut hits = slots.meets(&fixed)
                    & slots.lowest_here([r[0], r[1]], [x, y])
                    & !slots.holding(except)
                    & used(count);
                for _ in 0..CELL_SLOTS {
                    if hits == 0 {
                        break;
                    }
                    let k = hits.trailing_zeros() as usize;
                    hits &= hits - 1;
                    f(slots.ball(k) as usize);
                }
                // A cell spills only when its slots are full (`edit` refills a hole from
                // the spill list first), so the spill list is read only then.
                if count == CELL_SLOTS {
                    scan(&self.spill[cell], [r[0], r[1], x, y], &fixed, except, &mut f);
                }
            }
        }
    }
}

impl BallGrid {
    /// [`BallGrid::for_each_pair_in_rows`] over every row: each pair once.
    #[cfg(test)]
    pub(crate) fn for_each_pair(&self, f: impl FnMut(usize, usize)) {
        self.for_each_pair_in_rows(0..self.height, f);
    }

    /// The rows of cells (a band of them is a share of the pairs, see
    /// [`BallGrid::for_each_pair_in_rows`]).
    #[inline]
    pub(crate) fn rows(&self) -> usize {
        self.height
    }

    /// Calls `f(a, b)` once for every two balls whose boxes meet (or nearly, see
    /// [`QBox`]) and are reported in the cells of `rows`, in a fixed order: the step's
    /// first forecasts test each such pair once here, not once from each ball's query. A
    /// pair is reported in the lowest cell its two cell ranges share (both are stored
    /// there), and within a cell each slot meets the slots after it as a vector
    /// ([`Cell::meets`]), then the spilled entries. So bands of rows, taken in order,
    /// report every pair once and in the order of the whole grid: the pair pass runs them
    /// as tasks.
    pub(crate) fn for_each_pair_in_rows(
        &self,
        rows: std::ops::Range<usize>,
        mut f: impl FnMut(usize, usize),
    ) {
        for y in rows.start..rows.end.min(self.height) {
            for x in 0..self.width {
                let cell = y * self.width + x;
                let here = [x as u16, y as u16];
                let count = self.counts[cell] as usize;
                let slots = &self.slots[cell];
                let in_use = used(count);
                for s in 0..count {
                    let e = slots.get(s);
                    // The used slots after `s` (bit `s` and below cleared).
                    let mut hits = slots.meets(&e.bounds) & in_use & !((2_u64 << s) - 1) as u32;
                    while hits != 0 {
                        let t = hits.trailing_zeros() as usize;
                        hits &= hits - 1;
                        if lowest_shared(e.first, slots.first(t), here) {
                            f(e.ball as usize, slots.ball(t) as usize);
                        }
                    }
                }
                if count < CELL_SLOTS {
                    continue;
                }
                // A full cell's spilled entries: against every slot, then each other.
                let spill = &self.spill[cell];
                for (u, e) in spill.iter().enumerate() {
                    let mut hits = slots.meets(&e.bounds);
                    while hits != 0 {
                        let t = hits.trailing_zeros() as usize;
                        hits &= hits - 1;
                        if lowest_shared(e.first, slots.first(t), here) {
                            f(slots.ball(t) as usize, e.ball as usize);
                        }
                    }
                    for g in &spill[u + 1..] {
                        if g.bounds.intersects(&e.bounds) && lowest_shared(e.first, g.first, here) {
                            f(e.ball as usize, g.ball as usize);
                        }
                    }
                }
            }
        }
    }
}

/// Whether `here` is the lowest cell shared by two cell ranges, one starting at `a`, the
/// other at `b`, both covering `here`: the one cell where a pair of boxes (or a box and a
/// query) is reported. (Both compares taken, `&`: one branch for the caller.)
#[inline(always)]
fn lowest_shared(a: [u16; 2], b: [u16; 2], here: [u16; 2]) -> bool {
    (a[0].max(b[0]) == here[0]) & (a[1].max(b[1]) == here[1])
}

/// The cells `from..=to` of one axis (`from ≤ to`), as a half-open range: it iterates with
/// one compare a cell (an inclusive range of `u16` took more, and mispredicted its end
/// more often).
#[inline]
fn span(from: u16, to: u16) -> impl Iterator<Item = u16> {
    (u32::from(from)..u32::from(to) + 1).map(|v| v as u16)
}

/// Report the entries of cell `(x, y)` (`at = [x0, y0, x, y]`, with `(x0, y0)` the
/// query's lowest cell) whose boxes meet `b`, each only in the lowest cell the two ranges
/// share, ball `except` never.
#[inline(always)]
fn scan(entries: &[Entry], at: [u16; 4], b: &QBox, except: u32, f: &mut impl FnMut(usize)) {
    for e in entries {
        let lowest = lowest_shared(e.first, [at[0], at[1]], [at[2], at[3]]);
        if lowest & e.bounds.intersects(b) & (e.ball != except) {
            f(e.ball as usize);
        }
    }
}

#[cfg(test)]
mod tests;
