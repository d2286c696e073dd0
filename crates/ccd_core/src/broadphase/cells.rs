//! Cell arithmetic of the [`Grid`](super::Grid): which cells a box covers, as an
//! inclusive rectangle of absolute cell coordinates, and where a cell sits in the dense
//! rectangle.

use glam::Vec2;

/// An inclusive rectangle of cells, in absolute cell coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellRange {
    pub(super) min: [i32; 2],
    pub(super) max: [i32; 2],
}

impl CellRange {
    /// The cells covered by the box from `min` to `max` (`min <= max`), for cells of side
    /// `1 / per_unit`. Coordinates past `i32` saturate (and NaN maps to 0, though no stored
    /// box and no scanned query has one), so the map stays monotonic: two boxes that meet
    /// always share a cell.
    #[inline]
    pub(super) fn covering(min: Vec2, max: Vec2, per_unit: f32) -> Self {
        Self {
            min: [cell_of(min.x, per_unit), cell_of(min.y, per_unit)],
            max: [cell_of(max.x, per_unit), cell_of(max.y, per_unit)],
        }
    }

    /// Columns and rows, each at most 2³².
    #[inline]
    pub(super) fn dims(self) -> [u64; 2] {
        [0, 1].map(|a| (i64::from(self.max[a]) - i64::from(self.min[a]) + 1).max(0) as u64)
    }

    /// The number of cells (saturating).
    #[inline]
    pub(super) fn count(self) -> u64 {
        let [w, h] = self.dims();
        w.saturating_mul(h)
    }

    #[inline]
    pub(super) fn union(self, other: Self) -> Self {
        Self {
            min: [0, 1].map(|a| self.min[a].min(other.min[a])),
            max: [0, 1].map(|a| self.max[a].max(other.max[a])),
        }
    }

    #[inline]
    pub(super) fn contains(self, other: Self) -> bool {
        (0..2).all(|a| self.min[a] <= other.min[a] && other.max[a] <= self.max[a])
    }

    /// The part of `self` inside `bounds`, or `None` when they do not meet.
    #[inline]
    pub(super) fn clamped(self, bounds: Self) -> Option<Self> {
        let r = Self {
            min: [0, 1].map(|a| self.min[a].max(bounds.min[a])),
            max: [0, 1].map(|a| self.max[a].min(bounds.max[a])),
        };
        (r.min[0] <= r.max[0] && r.min[1] <= r.max[1]).then_some(r)
    }
}

/// The cell coordinate of `x`, for cells of side `1 / per_unit`. `as` saturates and maps
/// NaN to 0.
///
/// `q = x · per_unit`: a multiply, not a division by the cell's side, because every query
/// takes four of these and a division's latency was a fifth of a free ball's sweep. For a
/// side that is a power of two (the default 32) the two are the same number; for another
/// side `q` may differ from `x / side` in its last bit, which moves a cell's edge by as
/// much, for every box alike (inserted and queried), so the map stays monotonic.
///
/// `⌊q⌋` by truncation, one less where that rounded up (a negative fraction): the same
/// as `q.floor() as i32` for every `q` (NaN and out-of-range values saturate alike), but
/// no library call (`floor` is one without SSE 4.1).
#[inline]
fn cell_of(x: f32, per_unit: f32) -> i32 {
    let q = x * per_unit;
    let t = q as i32;
    if (t as f32) > q { t.saturating_sub(1) } else { t }
}

/// The index of cell `(x, y)` in a row-major rectangle `bounds` of `width` columns.
#[inline]
pub(super) fn cell_index(bounds: CellRange, width: usize, x: i32, y: i32) -> usize {
    let dx = (i64::from(x) - i64::from(bounds.min[0])) as usize;
    let dy = (i64::from(y) - i64::from(bounds.min[1])) as usize;
    dy * width + dx
}
