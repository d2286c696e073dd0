//! One cell of the ball grid: [`CELL_SLOTS`] entries stored field by field, so a
//! query tests every slot's box at once as a few vector compares ([`Cell::meets`]) and
//! reads further only the slots whose boxes meet; with the fixed-point boxes ([`QBox`])
//! and the entries ([`Entry`]) they hold.

use crate::tolerance::MAX_BALL_GRID_CELLS_PER_AXIS as MAX_CELLS_PER_AXIS;

/// Entries stored in place per cell (24 × 16 bytes: six cache lines, see [`Cell`]). A
/// cell holds about twice the boxes a query meets; a crowded one spills over. (With 16,
/// cells of the 10,000-ball pit spilled often, and each spilled entry is tested on its
/// own, with a branch that goes either way at random: 24 took about 2 % less time, 32 no
/// less than 24.)
pub(super) const CELL_SLOTS: usize = 24;

// Cell coordinates compare as `i16` (see `Cell::lowest_here`); a cell's slots are the bits
// of a `u32`, gathered eight at a time (see `gather_bits`).
const _: () = assert!(MAX_CELLS_PER_AXIS <= i16::MAX as usize);
const _: () = assert!(CELL_SLOTS <= 32 && CELL_SLOTS.is_multiple_of(8));

/// One ball's box in one cell, with the first cell of its range (so that a query meeting
/// the box in several cells reports it once: in the lowest cell both ranges share).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry {
    pub(super) ball: u32,
    pub(super) first: [u16; 2],
    pub(super) bounds: QBox,
}

/// A box in 16-bit fixed point over the grid's bounds, rounded outwards (a box beyond the
/// bounds is clamped to them, so it may seem to meet more, never less).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct QBox {
    pub(super) min: [u16; 2],
    pub(super) max: [u16; 2],
}

impl QBox {
    /// Whether the boxes meet (or nearly: see [`QBox`]). Both tests are always taken
    /// (`&`, not `&&`): cheaper than a branch that goes either way at random.
    #[inline]
    pub(super) fn intersects(&self, other: &Self) -> bool {
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
pub(super) struct Cell {
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
    pub(super) fn get(&self, k: usize) -> Entry {
        Entry {
            ball: self.ball(k),
            first: self.first(k),
            bounds: QBox {
                min: [unsigned(self.min_x[k]), unsigned(self.min_y[k])],
                max: [unsigned(self.max_x[k]), unsigned(self.max_y[k])],
            },
        }
    }

    pub(super) fn set(&mut self, k: usize, e: Entry) {
        [self.ball_low[k], self.ball_high[k]] = [e.ball as u16, (e.ball >> 16) as u16];
        [self.first_x[k], self.first_y[k]] = e.first;
        self.set_bounds(k, e.bounds);
    }

    pub(super) fn set_bounds(&mut self, k: usize, b: QBox) {
        [self.min_x[k], self.min_y[k]] = b.min.map(signed);
        [self.max_x[k], self.max_y[k]] = b.max.map(signed);
    }

    /// The slot of the first `count` that holds `ball`: all compared at once, as
    /// a mask (a search that stops where it finds the ball stops at a different place
    /// every time, and the branch that ends it is mispredicted as often).
    #[inline]
    pub(super) fn slot_of(&self, ball: u32, count: usize) -> Option<usize> {
        let found = self.holding(ball) & used(count);
        (found != 0).then(|| found.trailing_zeros() as usize)
    }

    /// A bit per slot (of all, used or not) that holds `ball`.
    #[inline]
    pub(super) fn holding(&self, ball: u32) -> u32 {
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
    pub(super) fn ball(&self, k: usize) -> u32 {
        u32::from(self.ball_low[k]) | (u32::from(self.ball_high[k]) << 16)
    }

    /// The first cell of slot `k`'s range.
    #[inline]
    pub(super) fn first(&self, k: usize) -> [u16; 2] {
        [self.first_x[k], self.first_y[k]]
    }

    /// A bit per slot (of all, used or not) that a query whose range starts at cell
    /// `from` reports in cell `here` (at or after `from` on both axes): [`lowest_shared`](super::lowest_shared)
    /// for every slot at once. That is where the slot's first cell `f` has `max(f, from) = here`, that
    /// is `f ≤ here`, and `f ≥ here` too unless `here = from`. As a mask, with the same
    /// saturating differences as [`Cell::meets`], so the query takes no branch per slot
    /// on it. (Cell coordinates are below `MAX_CELLS_PER_AXIS`: they compare as `i16`.)
    #[inline]
    pub(super) fn lowest_here(&self, from: [u16; 2], here: [u16; 2]) -> u32 {
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
    pub(super) fn meets(&self, b: &QBox) -> u32 {
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
pub(super) fn used(count: usize) -> u32 {
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
