//! A uniform grid of the balls' swept boxes, rebuilt every step, to find candidate pairs.
//!
//! Cells are about twice the size of an average swept box (not the largest: one fast ball would
//! otherwise make every cell hold dozens of slow ones), and each cell holds the boxes
//! themselves beside the ball indices, so a query tests them in place and looks up only
//! the balls whose boxes it meets. The cells live in one flat array, [`CELL_SLOTS`] entries
//! each (cells of one row side by side in memory), stored field by field ([`Cell`]: all
//! the slots' boxes are tested at once, as a vector), with a spill list for a crowded cell:
//! an event-driven step visits cells in no spatial order, so fewer cache lines per visit
//! is most of the speed. For the same reason an entry keeps its box in 16-bit fixed point
//! over the grid's bounds, rounded outwards (16 bytes an entry, not 24): a query may then
//! list a box that only nearly meets its own, never miss one that meets it, and every
//! caller tests the balls it lists exactly.

use crate::shape::Aabb;
use crate::tolerance::MAX_BALL_GRID_CELLS_PER_AXIS as MAX_CELLS_PER_AXIS;
use glam::Vec2;

/// Entries stored in place per cell (24 × 16 bytes: six cache lines, see [`Cell`]). A
/// cell holds about twice the boxes a query meets; a crowded one spills over. (With 16,
/// cells of the 10,000-ball pit spilled often, and each spilled entry is tested on its
/// own, with a branch that goes either way at random: 24 took about 2 % less time, 32 no
/// less than 24.)
const CELL_SLOTS: usize = 24;

/// Dimensionless: the cell's side over the average swept box's larger side. Twice the
/// box: a box then covers one to four cells, not four to nine, so the edits after each
/// event touch fewer cells, and the larger cells cost little to scan as vectors (measured
/// on the 10,000-ball pit: about 10 % faster than cells the size of the box; three times
/// the box, with 32 slots, was no better).
const CELL_PER_MEAN_BOX: f32 = 2.0;

// Cell coordinates compare as `i16` (see `Cell::lowest_here`); a cell's slots are the bits
// of a `u32`, gathered eight at a time (see `gather_bits`).
const _: () = assert!(MAX_CELLS_PER_AXIS <= i16::MAX as usize);
const _: () = assert!(CELL_SLOTS <= 32 && CELL_SLOTS.is_multiple_of(8));

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

/// One ball's box in one cell, with the first cell of its range (so that a query meeting
/// the box in several cells reports it once: in the lowest cell both ranges share).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    ball: u32,
    first: [u16; 2],
    bounds: QBox,
}

/// A box in 16-bit fixed point over the grid's bounds, rounded outwards (a box beyond the
/// bounds is clamped to them, so it may seem to meet more, never less).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct QBox {
    min: [u16; 2],
    max: [u16; 2],
}

impl QBox {
    /// Whether the boxes meet (or nearly: see [`QBox`]). Both tests are always taken
    /// (`&`, not `&&`): cheaper than a branch that goes either way at random.
    #[inline]
    fn intersects(&self, other: &Self) -> bool {
        (self.min[0] <= other.max[0])
            & (other.min[0] <= self.max[0])
            & (self.min[1] <= other.max[1])
            & (other.min[1] <= self.max[1])
    }
}

/// One cell's [`CELL_SLOTS`] entries, field by field, so the boxes of all slots are tested
/// together ([`Cell::meets`] compiles to a few vector compares) and only the slots whose
/// boxes meet are read further.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Cell {
    min_x: [i16; CELL_SLOTS],
    min_y: [i16; CELL_SLOTS],
    max_x: [i16; CELL_SLOTS],
    max_y: [i16; CELL_SLOTS],
    /// Each slot's ball index, in halves (low 16 bits, high 16 bits): compared as 16-bit
    /// lanes, as the boxes are ([`Cell::holding`]).
    ball_low: [u16; CELL_SLOTS],
    ball_high: [u16; CELL_SLOTS],
    /// The first cell of each slot's range, by axis (see [`Entry::first`]).
    first_x: [u16; CELL_SLOTS],
    first_y: [u16; CELL_SLOTS],
}

impl Cell {
    fn get(&self, k: usize) -> Entry {
        Entry {
            ball: self.ball(k),
            first: self.first(k),
            bounds: QBox {
                min: [unsigned(self.min_x[k]), unsigned(self.min_y[k])],
                max: [unsigned(self.max_x[k]), unsigned(self.max_y[k])],
            },
        }
    }

    fn set(&mut self, k: usize, e: Entry) {
        [self.ball_low[k], self.ball_high[k]] = [e.ball as u16, (e.ball >> 16) as u16];
        [self.first_x[k], self.first_y[k]] = e.first;
        self.set_bounds(k, e.bounds);
    }

    fn set_bounds(&mut self, k: usize, b: QBox) {
        [self.min_x[k], self.min_y[k]] = b.min.map(signed);
        [self.max_x[k], self.max_y[k]] = b.max.map(signed);
    }

    /// The slot of the first `count` that holds `ball`: all compared at once, as
    /// a mask (a search that stops where it finds the ball stops at a different place
    /// every time, and the branch that ends it is mispredicted as often).
    #[inline]
    fn slot_of(&self, ball: u32, count: usize) -> Option<usize> {
        let found = self.holding(ball) & used(count);
        (found != 0).then(|| found.trailing_zeros() as usize)
    }

    /// A bit per slot (of all, used or not) that holds `ball`.
    #[inline]
    fn holding(&self, ball: u32) -> u32 {
        let (low, high) = (signed(ball as u16), signed((ball >> 16) as u16));
        let mut lanes = [0_u8; CELL_SLOTS];
        for (k, lane) in lanes.iter_mut().enumerate() {
            // Equal halves: neither is above the other, the same saturating differences
            // as [`Cell::meets`] with a box of one point. (The compiler makes vector
            // instructions of these; of plain `==` it made a scalar compare a slot.)
            let (l, h) = (signed(self.ball_low[k]), signed(self.ball_high[k]));
            let gaps = l.saturating_sub(low)
                | low.saturating_sub(l)
                | h.saturating_sub(high)
                | high.saturating_sub(h);
            *lane = ((gaps >> 15) + 1) as u8;
        }
        gather_bits(lanes)
    }

    /// Slot `k`'s ball index.
    #[inline]
    fn ball(&self, k: usize) -> u32 {
        u32::from(self.ball_low[k]) | (u32::from(self.ball_high[k]) << 16)
    }

    /// The first cell of slot `k`'s range.
    #[inline]
    fn first(&self, k: usize) -> [u16; 2] {
        [self.first_x[k], self.first_y[k]]
    }

    /// A bit per slot (of all, used or not) that a query whose range starts at cell
    /// `from` reports in cell `here` (at or after `from` on both axes): [`lowest_shared`]
    /// for every slot at once. That is where the slot's first cell `f` has `max(f, from) = here`, that
    /// is `f ≤ here`, and `f ≥ here` too unless `here = from`. As a mask, with the same
    /// saturating differences as [`Cell::meets`], so the query takes no branch per slot
    /// on it. (Cell coordinates are below `MAX_CELLS_PER_AXIS`: they compare as `i16`.)
    #[inline]
    fn lowest_here(&self, from: [u16; 2], here: [u16; 2]) -> u32 {
        let [hx, hy] = here.map(|v| v as i16);
        let low = |axis: usize| {
            if here[axis] == from[axis] {
                i16::MIN
            } else {
                here[axis] as i16
            }
        };
        let (lx, ly) = (low(0), low(1));
        let mut lanes = [0_u8; CELL_SLOTS];
        for (k, lane) in lanes.iter_mut().enumerate() {
            let (fx, fy) = (self.first_x[k] as i16, self.first_y[k] as i16);
            let gaps =
                hx.saturating_sub(fx) | fx.saturating_sub(lx) | hy.saturating_sub(fy) | fy.saturating_sub(ly);
            *lane = ((gaps >> 15) + 1) as u8;
        }
        gather_bits(lanes)
    }

    /// A bit per slot (of all, used or not) whose box meets `b`. Each slot's answer is
    /// a byte (0 or 1; the slots compile to a few vector compares and a pack), gathered
    /// into bits by [`gather_bits`].
    #[inline]
    fn meets(&self, b: &QBox) -> u32 {
        let [min_x, min_y] = b.min.map(signed);
        let [max_x, max_y] = b.max.map(signed);
        let mut lanes = [0_u8; CELL_SLOTS];
        for (k, lane) in lanes.iter_mut().enumerate() {
            // Saturating differences keep their signs: all four are non-negative (their
            // union's sign bit clear) exactly when the boxes meet.
            let gaps = max_x.saturating_sub(self.min_x[k])
                | self.max_x[k].saturating_sub(min_x)
                | max_y.saturating_sub(self.min_y[k])
                | self.max_y[k].saturating_sub(min_y);
            *lane = ((gaps >> 15) + 1) as u8;
        }
        gather_bits(lanes)
    }
}

/// A bit per used slot: the first `count` (at most [`CELL_SLOTS`]).
#[inline]
fn used(count: usize) -> u32 {
    ((1_u64 << count) - 1) as u32
}

/// One byte a slot, each 0 or 1, as the bits of a mask (byte `k` at bit `k`), eight at a
/// time by one multiplication each (see [`GATHER_BYTES`]).
#[inline]
fn gather_bits(lanes: [u8; CELL_SLOTS]) -> u32 {
    let gather = |eight: u64| (eight.wrapping_mul(GATHER_BYTES) >> 56) as u32;
    let mut mask = 0;
    for (k, chunk) in lanes.chunks_exact(8).enumerate() {
        let mut eight = [0_u8; 8];
        eight.copy_from_slice(chunk);
        mask |= gather(u64::from_le_bytes(eight)) << (8 * k);
    }
    mask
}

/// Multiplying eight bytes, each 0 or 1, by this puts byte `k`'s value at bit `56 + k`:
/// every product term `2^(8k) · 2^(56 − 7k)` lands there, and no two terms share a bit.
const GATHER_BYTES: u64 = 0x0102_0408_1020_4080;

/// A fixed-point coordinate as a cell stores it: shifted by half the range into `i16`,
/// which keeps the order, so the slots compare with signed 16-bit vector compares (the
/// only kind the baseline x86-64 instruction set has).
#[inline]
fn signed(v: u16) -> i16 {
    (v ^ 0x8000) as i16
}

/// [`signed`] undone.
#[inline]
fn unsigned(v: i16) -> u16 {
    (v as u16) ^ 0x8000
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
    /// Calls `f(a, b)` once for every two balls whose boxes meet (or nearly, see
    /// [`QBox`]), in a fixed order: the step's first plans test each such pair once here,
    /// not once from each ball's query. A pair is reported in the lowest cell its two
    /// cell ranges share (both are stored there), and within a cell each slot meets the
    /// slots after it as a vector ([`Cell::meets`]), then the spilled entries.
    pub(crate) fn for_each_pair(&self, mut f: impl FnMut(usize, usize)) {
        for y in 0..self.height {
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
mod tests {
    use super::*;

    #[test]
    fn a_cells_mask_is_the_box_test_of_each_slot() {
        // Coordinates across the whole u16 range (the shift into i16 must keep the order,
        // and the saturating differences their signs), against `QBox::intersects` slot by
        // slot: a pseudo-random walk of boxes, including ones at 0 and at u16::MAX.
        let mut seed = 12_345_u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let v = (seed >> 8) as u16;
            // Now and then an extreme value.
            match seed % 11 {
                0 => 0,
                1 => u16::MAX,
                _ => v,
            }
        };
        let mut random_box = || {
            let (a, b, c, d) = (next(), next(), next(), next());
            QBox {
                min: [a.min(b), c.min(d)],
                max: [a.max(b), c.max(d)],
            }
        };
        for _ in 0..200 {
            let mut cell = Cell::default();
            let boxes: Vec<QBox> = (0..CELL_SLOTS).map(|_| random_box()).collect();
            for (k, b) in boxes.iter().enumerate() {
                cell.set_bounds(k, *b);
            }
            let query = random_box();
            let mask = cell.meets(&query);
            for (k, b) in boxes.iter().enumerate() {
                assert_eq!(mask >> k & 1 == 1, b.intersects(&query), "slot {k}");
                assert_eq!(cell.get(k).bounds, *b);
            }
        }
    }

    #[test]
    fn finds_overlapping_boxes_once_even_after_moves() {
        let boxes: Vec<Aabb> = (0..50)
            .map(|i| {
                let p = Vec2::new((i * 37 % 100) as f32, (i * 53 % 100) as f32);
                Aabb::new(p, p + Vec2::splat(5.0 + (i % 7) as f32))
            })
            .collect();
        let mut grid = BallGrid::default();
        grid.rebuild(&boxes);
        let mut boxes = boxes;
        // Move a few, including far outside the original bounds.
        boxes[3] = Aabb::new(Vec2::splat(500.0), Vec2::splat(510.0));
        grid.update(3, boxes[3]);
        boxes[7] = Aabb::new(Vec2::new(40.0, 40.0), Vec2::new(60.0, 45.0));
        grid.update(7, boxes[7]);
        // A box with NaN lands in the border cells: no panic, a plain answer.
        grid.query(Aabb::new(Vec2::NAN, Vec2::NAN), |_| {});
        grid.update(5, Aabb::new(Vec2::NAN, Vec2::splat(f32::INFINITY)));
        grid.update(5, boxes[5]);
        for q in [
            Aabb::new(Vec2::splat(30.0), Vec2::splat(70.0)),
            Aabb::new(Vec2::splat(490.0), Vec2::splat(600.0)),
        ] {
            let mut seen = Vec::new();
            grid.query(q, |i| seen.push(i));
            // Leaving one ball out leaves exactly that one out.
            for except in [seen[0], 7, 49] {
                let mut others = Vec::new();
                grid.query_except(q, except, |i| others.push(i));
                let expected: Vec<usize> = seen.iter().copied().filter(|&i| i != except).collect();
                assert_eq!(others, expected, "except {except}");
            }
            let mut dedup = seen.clone();
            dedup.sort_unstable();
            dedup.dedup();
            assert_eq!(dedup.len(), seen.len(), "duplicates");
            for (i, b) in boxes.iter().enumerate() {
                assert_eq!(b.intersects(&q), seen.contains(&i), "ball {i}");
            }
        }
    }

    #[test]
    fn every_meeting_pair_once_against_all_pairs() {
        // 1,200 boxes crowded into a small square (so cells fill and spill), some moved:
        // every pair whose boxes meet is reported, exactly once; a reported pair that does
        // not meet is off by no more than the fixed-point rounding.
        let mut seed = 4_242_u32;
        let mut next = |scale: f32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 * scale
        };
        let mut boxes: Vec<Aabb> = (0..1200)
            .map(|_| {
                let p = Vec2::new(next(200.0), next(200.0));
                Aabb::new(p, p + Vec2::new(2.0 + next(20.0), 2.0 + next(20.0)))
            })
            .collect();
        let mut grid = BallGrid::default();
        grid.rebuild(&boxes);
        for k in (0..1200).step_by(7) {
            let p = Vec2::new(next(220.0) - 10.0, next(220.0) - 10.0);
            boxes[k] = Aabb::new(p, p + Vec2::splat(next(30.0)));
            grid.update(k, boxes[k]);
        }
        assert!(
            grid.spill.iter().any(|v| !v.is_empty()),
            "the test must reach the spill lists"
        );
        let mut seen = Vec::new();
        grid.for_each_pair(|a, b| seen.push((a.min(b), a.max(b))));
        let reported = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), reported, "a pair reported twice");
        let rounding = 2.0 / grid.fixed_scale;
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                let found = seen.binary_search(&(a, b)).is_ok();
                if boxes[a].intersects(&boxes[b]) {
                    assert!(found, "pair {a}, {b} missed");
                } else if found {
                    assert!(
                        boxes[a].inflated(rounding).intersects(&boxes[b]),
                        "pair {a}, {b} far apart"
                    );
                }
            }
        }
    }

    #[test]
    fn a_slot_holds_a_ball_by_its_whole_index() {
        // Indices that share their low or their high 16 bits, and the largest: each is
        // found in its own slot only.
        let balls = [0x0001_0002_u32, 0x0002_0002, 0x0002_0001, 0, u32::MAX, 0xFFFF];
        let mut cell = Cell::default();
        for (k, &ball) in balls.iter().enumerate() {
            cell.set(
                k,
                Entry {
                    ball,
                    first: [0, 0],
                    bounds: QBox::default(),
                },
            );
        }
        for (k, &ball) in balls.iter().enumerate() {
            assert_eq!(cell.ball(k), ball);
            assert_eq!(cell.slot_of(ball, balls.len()), Some(k), "ball {ball:#x}");
            assert_eq!(cell.holding(ball) & 0x3F, 1 << k, "ball {ball:#x}");
        }
        assert_eq!(cell.slot_of(0x0003_0002, balls.len()), None);
        // Beyond the used slots nothing counts (the unused ones hold ball 0).
        assert_eq!(cell.slot_of(0, 3), None);
    }
}
