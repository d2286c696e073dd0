//! How the [`Grid`](super::Grid)'s dense rectangle of cells grows to hold a new
//! obstacle: amortized doubling towards the side that moved, under the cell cap.

use super::Grid;
use super::cells::{CellRange, cell_index};
use crate::tolerance::MAX_GRID_CELLS;

impl Grid {
    /// Make the dense rectangle cover `range`, growing it if needed. `false` when that
    /// would take more than `MAX_GRID_CELLS` cells.
    ///
    /// The new rectangle covers `occupied ∪ range` plus, on each side that had to move,
    /// a margin of that union's extent along the axis (doubling it), so a run of inserts
    /// marching outwards re-buckets O(log n) times. Margin from earlier growth that no
    /// obstacle used is dropped (the rectangle can move). When the result would pass the
    /// cap, the margin is halved until it fits. Re-bucketing moves whole cell lists
    /// (absolute cell coordinates do not change), so it costs O(cells), not O(entries).
    pub(super) fn reserve(&mut self, range: CellRange) -> bool {
        if self.cells.is_empty() {
            if range.count() > MAX_GRID_CELLS {
                return false;
            }
            self.rebucket(range);
            self.occupied = range;
            return true;
        }
        if self.bounds.contains(range) {
            self.occupied = self.occupied.union(range);
            return true;
        }
        let need = self.occupied.union(range);
        let extent = need.dims().map(|d| d as i64);
        let to_i32 = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        for shift in 0..i64::BITS {
            let mut candidate = need;
            for (a, ext) in extent.iter().enumerate() {
                let margin = ext >> shift;
                if range.min[a] < self.bounds.min[a] {
                    candidate.min[a] = to_i32(i64::from(need.min[a]) - margin);
                }
                if range.max[a] > self.bounds.max[a] {
                    candidate.max[a] = to_i32(i64::from(need.max[a]) + margin);
                }
            }
            if candidate.count() <= MAX_GRID_CELLS {
                self.rebucket(candidate);
                self.occupied = need;
                return true;
            }
        }
        false
    }

    /// Reallocate the cells to cover `new` (which contains `occupied`), moving every old
    /// cell list to its new place. Old cells outside `new` are outside `occupied`, hence
    /// empty.
    fn rebucket(&mut self, new: CellRange) {
        let [w, h] = new.dims();
        let (width, count) = (w as usize, (w * h) as usize);
        let mut cells = vec![Vec::new(); count];
        let old = self.bounds;
        let mut old_cells = std::mem::take(&mut self.cells).into_iter();
        for y in old.min[1]..=old.max[1] {
            for x in old.min[0]..=old.max[0] {
                let Some(list) = old_cells.next() else {
                    break;
                };
                if list.is_empty() {
                    continue;
                }
                debug_assert!(new.contains(CellRange {
                    min: [x, y],
                    max: [x, y]
                }));
                if new.contains(CellRange {
                    min: [x, y],
                    max: [x, y],
                }) && let Some(slot) = cells.get_mut(cell_index(new, width, x, y))
                {
                    *slot = list;
                }
            }
        }
        self.cells = cells;
        self.bounds = new;
        self.width = width;
    }
}
