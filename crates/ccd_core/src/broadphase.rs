//! The static broadphase: [`Grid`], a dense uniform grid over [`Obstacle`]s that grows
//! as obstacles arrive.
//!
//! ## Layout
//! The world is cut into square cells of side [`Grid::cell_size`]. A cell is named by its
//! integer coordinates `(⌊x / cell_size⌋, ⌊y / cell_size⌋)` (taken as a multiply by
//! `1 / cell_size`, the same number for a power-of-two size). The grid stores a dense
//! rectangle of cells, row-major; each cell lists the obstacles whose bounding box
//! covers it. An obstacle is stored in *every* cell of its box's cell range. The
//! rectangle is anchored at the first obstacle and grows (re-bucketing, amortized) when
//! an obstacle falls outside it, up to [`MAX_GRID_CELLS`](crate::tolerance::MAX_GRID_CELLS).
//!
//! Obstacles that would cover more than [`MAX_CELLS_PER_OBSTACLE`] cells, or that lie so
//! far from the others that the rectangle cannot grow to hold them, go to a separate
//! *large* list instead, which every query scans.
//!
//! ## Dedupe without stamps
//! A query scans the rectangle `Q` of cells its box covers. An obstacle stored in the
//! cell rectangle `R` is met once in each cell of `R ∩ Q`. Each cell entry remembers
//! `R`'s lowest corner, so the scan reports the obstacle only in the lowest corner of
//! `R ∩ Q`, the cell `(max(R.min.x, Q.min.x), max(R.min.y, Q.min.y))`: exactly one cell,
//! with no per-query memory and `&self` only.

mod cells;
mod growth;
mod packed;

use crate::obstacle::{Obstacle, ObstacleId, Obstacles};
use crate::shape::{Aabb, ShapeError};
use crate::tolerance::MAX_CELLS_PER_OBSTACLE;
use cells::{CellRange, cell_index};
use packed::Packed;

/// World units. The cell side used by [`Grid::default`] and by [`Grid::new`] when it is
/// given an unusable size.
///
/// The multi-bounce sweep queries the box a ball sweeps in one leg: a radius of a few
/// units plus the distance travelled in one step, typically 5 to 50 units. Walls and
/// pillars in a game level are of the same order. A cell of 32 units keeps such a query
/// within 1 to 4 cells and such an obstacle within a handful of cells; much smaller cells
/// multiply the entries per obstacle, much larger ones multiply the obstacles per cell.
pub const DEFAULT_CELL_SIZE: f32 = 32.0;

/// One obstacle in one cell. The box is copied here so the scan stays in the cell list.
#[derive(Clone, Copy, Debug)]
struct Entry {
    aabb: Aabb,
    id: u32,
    /// The lowest corner of the obstacle's cell range: the dedupe key.
    first: [i32; 2],
}

/// An obstacle in the large list.
#[derive(Clone, Copy, Debug)]
struct LargeEntry {
    aabb: Aabb,
    id: u32,
}

/// Where a stored obstacle's entries are.
#[derive(Clone, Copy, Debug)]
enum Place {
    Cells(CellRange),
    Large,
}

#[derive(Clone, Debug)]
struct Slot {
    obstacle: Obstacle,
    place: Place,
}

/// A uniform grid of static obstacles: the fast [`Obstacles`] store.
///
/// Ids are slot indices, stable until the obstacle is removed; a removed id is handed
/// out again by a later insert. Queries allocate nothing, report each obstacle at most
/// once, and report in the same order every time for the same grid and box (cells row by
/// row from the lowest, each cell in insertion order, then the large list).
///
/// ```
/// use ccd_core::{Aabb, Circle, Grid, Obstacle, Obstacles, Segment, Vec2};
/// let mut grid = Grid::default();
/// let floor = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0));
/// let floor = grid.insert(Obstacle::segment(floor)).unwrap();
/// grid.insert(Obstacle::pillar(Circle::new(Vec2::new(500.0, 500.0), 4.0))).unwrap();
/// let mut near = Vec::new();
/// grid.query(Aabb::new(Vec2::new(40.0, -5.0), Vec2::new(60.0, 5.0)), |id, _| near.push(id));
/// assert_eq!(near, [floor]);
/// ```
#[derive(Clone, Debug)]
pub struct Grid {
    cell_size: f32,
    /// `1 / cell_size`: cells per world unit.
    per_unit: f32,
    /// The cell rectangle held densely in `cells`; meaningless while `cells` is empty.
    bounds: CellRange,
    /// A rectangle inside `bounds` holding every cell that has entries (the union of the
    /// cell ranges of obstacles placed since the cells were last released; removal does
    /// not shrink it). Growth keeps it and may drop the rest of `bounds`.
    occupied: CellRange,
    /// Columns of `bounds` (row length of `cells`).
    width: usize,
    /// Row-major cell lists, `width × rows` of them; empty when no obstacle is in cells.
    cells: Vec<Vec<Entry>>,
    /// `cells` packed for queries ([`Grid::pack`]); every edit drops it.
    packed: Option<Packed>,
    /// How many obstacles are stored in cells (rather than in `large`).
    in_cells: usize,
    /// Obstacles too big for cells or too far for the rectangle, in insertion order.
    large: Vec<LargeEntry>,
    /// Indexed by id; `None` for a free id.
    slots: Vec<Option<Slot>>,
    /// Free ids, the most recently freed last.
    free: Vec<u32>,
    len: usize,
}

impl Default for Grid {
    /// An empty grid with cells of `DEFAULT_CELL_SIZE` (32) world units.
    ///
    /// ```
    /// assert_eq!(ccd_core::Grid::default().cell_size(), 32.0);
    /// ```
    fn default() -> Self {
        Self::new(DEFAULT_CELL_SIZE)
    }
}

impl Grid {
    /// An empty grid with square cells of `cell_size` world units. A size that is NaN,
    /// infinite, zero or negative is replaced by `DEFAULT_CELL_SIZE` (32): this never
    /// panics.
    ///
    /// ```
    /// use ccd_core::Grid;
    /// assert_eq!(Grid::new(10.0).cell_size(), 10.0);
    /// assert_eq!(Grid::new(-1.0).cell_size(), 32.0);
    /// assert_eq!(Grid::new(f32::NAN).cell_size(), 32.0);
    /// ```
    #[must_use]
    pub fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            DEFAULT_CELL_SIZE
        };
        Self {
            cell_size,
            per_unit: 1.0 / cell_size,
            bounds: CellRange {
                min: [0; 2],
                max: [0; 2],
            },
            occupied: CellRange {
                min: [0; 2],
                max: [0; 2],
            },
            width: 0,
            cells: Vec::new(),
            packed: None,
            in_cells: 0,
            large: Vec::new(),
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }

    /// The side of a cell, in world units.
    ///
    /// ```
    /// assert_eq!(ccd_core::Grid::new(16.0).cell_size(), 16.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Store `obstacle` and return its id.
    ///
    /// # Errors
    /// The obstacle's [`Obstacle::validate`] error (naming the bad field) when its
    /// geometry is not finite, has a negative radius or is a zero-length segment; nothing
    /// is stored then.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, ObstacleId, ShapeError, Vec2};
    /// let mut grid = Grid::default();
    /// assert_eq!(grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))), Ok(ObstacleId(0)));
    /// assert_eq!(
    ///     grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, -1.0))),
    ///     Err(ShapeError::NegativeRadius { field: "radius" })
    /// );
    /// assert_eq!(grid.len(), 1);
    /// ```
    pub fn insert(&mut self, obstacle: Obstacle) -> Result<ObstacleId, ShapeError> {
        obstacle.validate()?;
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                // Cannot truncate: 2³² slots would take far more memory than exists.
                self.slots.push(None);
                (self.slots.len() - 1) as u32
            }
        };
        let place = self.place(id, &obstacle);
        if let Some(slot) = self.slots.get_mut(id as usize) {
            *slot = Some(Slot { obstacle, place });
        }
        self.len += 1;
        Ok(ObstacleId(id))
    }

    /// Take the obstacle `id` out of the grid. `None` when `id` is unknown or already
    /// removed. The id may be handed out again by a later [`insert`](Self::insert).
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, Vec2};
    /// let mut grid = Grid::default();
    /// let id = grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 2.0))).unwrap();
    /// assert_eq!(grid.remove(id).map(|o| o.aabb().max.x), Some(2.0));
    /// assert_eq!(grid.remove(id), None);
    /// assert_eq!(grid.len(), 0);
    /// ```
    pub fn remove(&mut self, id: ObstacleId) -> Option<Obstacle> {
        let slot = self.slots.get_mut(id.0 as usize)?.take()?;
        self.unplace(id.0, slot.place);
        self.free.push(id.0);
        self.len -= 1;
        Some(slot.obstacle)
    }

    /// Replace the obstacle `id` by `obstacle`, keeping the id.
    ///
    /// Returns `Ok(Some(old))` on success and `Ok(None)` when `id` is unknown or removed
    /// (nothing is stored then).
    ///
    /// # Errors
    /// The new obstacle's [`Obstacle::validate`] error; the old obstacle stays.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, ObstacleId, Vec2};
    /// let mut grid = Grid::default();
    /// let id = grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))).unwrap();
    /// let old = grid.replace(id, Obstacle::pillar(Circle::new(Vec2::new(100.0, 0.0), 1.0))).unwrap();
    /// assert_eq!(old.map(|o| o.aabb().max.x), Some(1.0));
    /// assert_eq!(grid.get(id).map(|o| o.aabb().max.x), Some(101.0));
    /// assert_eq!(grid.replace(ObstacleId(7), Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))), Ok(None));
    /// ```
    pub fn replace(&mut self, id: ObstacleId, obstacle: Obstacle) -> Result<Option<Obstacle>, ShapeError> {
        obstacle.validate()?;
        let Some(old) = self.slots.get(id.0 as usize).and_then(Option::as_ref) else {
            return Ok(None);
        };
        let (old_obstacle, old_place) = (old.obstacle, old.place);
        self.unplace(id.0, old_place);
        let place = self.place(id.0, &obstacle);
        if let Some(slot) = self.slots.get_mut(id.0 as usize) {
            *slot = Some(Slot { obstacle, place });
        }
        Ok(Some(old_obstacle))
    }

    /// The obstacle `id`, or `None` when it is unknown or removed.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, ObstacleId, Vec2};
    /// let mut grid = Grid::default();
    /// let id = grid.insert(Obstacle::pillar(Circle::new(Vec2::new(3.0, 4.0), 1.0))).unwrap();
    /// assert_eq!(grid.get(id).map(|o| o.aabb().min), Some(Vec2::new(2.0, 3.0)));
    /// assert!(grid.get(ObstacleId(1)).is_none());
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, id: ObstacleId) -> Option<&Obstacle> {
        self.slots.get(id.0 as usize)?.as_ref().map(|slot| &slot.obstacle)
    }

    /// The number of obstacles stored.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, Vec2};
    /// let mut grid = Grid::default();
    /// for i in 0..3 {
    ///     grid.insert(Obstacle::pillar(Circle::new(Vec2::new(i as f32 * 10.0, 0.0), 1.0))).unwrap();
    /// }
    /// assert_eq!(grid.len(), 3);
    /// ```
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no obstacle is stored.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, Vec2};
    /// let mut grid = Grid::default();
    /// assert!(grid.is_empty());
    /// grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))).unwrap();
    /// assert!(!grid.is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove every obstacle and release the cells. The cell size stays; ids start from 0
    /// again.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, ObstacleId, Vec2};
    /// let mut grid = Grid::new(8.0);
    /// grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))).unwrap();
    /// grid.clear();
    /// assert_eq!((grid.len(), grid.cell_count(), grid.cell_size()), (0, 0, 8.0));
    /// assert_eq!(grid.insert(Obstacle::pillar(Circle::new(Vec2::ZERO, 1.0))), Ok(ObstacleId(0)));
    /// ```
    pub fn clear(&mut self) {
        *self = Self::new(self.cell_size);
    }

    /// Every stored obstacle with its id, in ascending id order.
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, ObstacleId, Vec2};
    /// let mut grid = Grid::default();
    /// for i in 0..3 {
    ///     grid.insert(Obstacle::pillar(Circle::new(Vec2::new(i as f32 * 10.0, 0.0), 1.0))).unwrap();
    /// }
    /// grid.remove(ObstacleId(1));
    /// let ids: Vec<u32> = grid.iter().map(|(id, _)| id.0).collect();
    /// assert_eq!(ids, [0, 2]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (ObstacleId, &Obstacle)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| slot.as_ref().map(|s| (ObstacleId(i as u32), &s.obstacle)))
    }

    /// The number of cells the dense grid holds now (0 while no obstacle is in cells).
    /// It never exceeds `MAX_GRID_CELLS` (2²⁰).
    ///
    /// ```
    /// use ccd_core::{Circle, Grid, Obstacle, Vec2};
    /// let mut grid = Grid::new(10.0);
    /// // A pillar boxed by (6, 1) and (14, 9) covers cells x 0..=1, y 0..=0.
    /// grid.insert(Obstacle::pillar(Circle::new(Vec2::new(10.0, 5.0), 4.0))).unwrap();
    /// assert_eq!(grid.cell_count(), 2);
    /// ```
    #[inline]
    #[must_use]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The range of cells a query box scans: the box's cells clamped to the grid.
    #[inline]
    fn query_range(&self, bounds: &Aabb) -> Option<CellRange> {
        if self.cells.is_empty() {
            return None;
        }
        // Order an inverted box (which can still meet a box spanning the gap, as
        // `Aabb::intersects` sees it). The caller has turned away a box with a NaN, so the
        // plain compares of `Vec2::min`/`max` do (no NaN handling of `f32::min`).
        let lo = bounds.min.min(bounds.max);
        let hi = bounds.min.max(bounds.max);
        CellRange::covering(lo, hi, self.per_unit).clamped(self.bounds)
    }

    /// The index in `cells` of cell `(x, y)`, which must lie in `bounds`.
    #[inline]
    fn index(&self, x: i32, y: i32) -> usize {
        cell_index(self.bounds, self.width, x, y)
    }

    /// Put `id`'s entries in cells (growing the grid if needed) or in the large list.
    fn place(&mut self, id: u32, obstacle: &Obstacle) -> Place {
        self.packed = None;
        let aabb = obstacle.aabb();
        let range = CellRange::covering(aabb.min, aabb.max, self.per_unit);
        if range.count() > MAX_CELLS_PER_OBSTACLE || !self.reserve(range) {
            self.large.push(LargeEntry { aabb, id });
            return Place::Large;
        }
        let entry = Entry {
            aabb,
            id,
            first: range.min,
        };
        for y in range.min[1]..=range.max[1] {
            for x in range.min[0]..=range.max[0] {
                let i = self.index(x, y);
                if let Some(cell) = self.cells.get_mut(i) {
                    cell.push(entry);
                }
            }
        }
        self.in_cells += 1;
        Place::Cells(range)
    }

    /// Remove `id`'s entries. Removal keeps the order of the other entries, so query
    /// order depends only on the sequence of edits.
    fn unplace(&mut self, id: u32, place: Place) {
        self.packed = None;
        match place {
            Place::Large => {
                if let Some(i) = self.large.iter().position(|e| e.id == id) {
                    self.large.remove(i);
                }
            }
            Place::Cells(range) => {
                for y in range.min[1]..=range.max[1] {
                    for x in range.min[0]..=range.max[0] {
                        let i = self.index(x, y);
                        if let Some(cell) = self.cells.get_mut(i)
                            && let Some(k) = cell.iter().position(|e| e.id == id)
                        {
                            cell.remove(k);
                        }
                    }
                }
                self.in_cells -= 1;
                if self.in_cells == 0 {
                    // Nothing left in cells: release them, so the next obstacle anchors a
                    // fresh rectangle wherever it is.
                    self.cells = Vec::new();
                    self.width = 0;
                }
            }
        }
    }

    /// Every cell entry a query of `bounds` looks at (before dedupe and box test): the
    /// measure of a query's locality.
    #[cfg(test)]
    fn scanned_entries(&self, bounds: Aabb) -> usize {
        let Some(q) = self.query_range(&bounds) else {
            return self.large.len();
        };
        let mut n = self.large.len();
        for y in q.min[1]..=q.max[1] {
            for x in q.min[0]..=q.max[0] {
                n += self.cells.get(self.index(x, y)).map_or(0, Vec::len);
            }
        }
        n
    }
}

impl Obstacles for Grid {
    /// Reports every stored obstacle whose bounding box meets `bounds` (touching counts),
    /// exactly once, and no other: the same set as a slice of the same obstacles. A box
    /// with a NaN meets nothing; a huge or infinite box is clamped to the occupied cells.
    ///
    /// ```
    /// use ccd_core::{Aabb, Circle, Grid, Obstacle, Obstacles, Vec2};
    /// let mut grid = Grid::new(1.0);
    /// // Two pillars each covering 5 × 5 cells; the query covers them all.
    /// grid.insert(Obstacle::pillar(Circle::new(Vec2::new(0.0, 0.0), 2.0))).unwrap();
    /// grid.insert(Obstacle::pillar(Circle::new(Vec2::new(3.0, 0.0), 2.0))).unwrap();
    /// let mut n = 0;
    /// grid.query(Aabb::new(Vec2::splat(-1e30), Vec2::splat(f32::INFINITY)), |_, _| n += 1);
    /// assert_eq!(n, 2);
    /// ```
    #[inline]
    fn query(&self, bounds: Aabb, mut f: impl FnMut(ObstacleId, &Obstacle)) {
        if bounds.min.is_nan() || bounds.max.is_nan() {
            // Every comparison in `Aabb::intersects` fails on NaN: nothing meets it.
            return;
        }
        if let Some(q) = self.query_range(&bounds) {
            match &self.packed {
                Some(packed) => self.scan(q, &bounds, &mut f, |i| packed.cell(i)),
                None => self.scan(q, &bounds, &mut f, |i| {
                    self.cells.get(i).map_or(&[][..], Vec::as_slice)
                }),
            }
        }
        for e in &self.large {
            if e.aabb.intersects(&bounds) {
                self.report(e.id, &mut f);
            }
        }
    }
}

impl Grid {
    /// Report every obstacle stored in the cells `q` whose box meets `bounds`, once each,
    /// reading cell `i`'s entries from `cell(i)`.
    #[inline(always)]
    fn scan<'a>(
        &'a self,
        q: CellRange,
        bounds: &Aabb,
        f: &mut impl FnMut(ObstacleId, &Obstacle),
        cell: impl Fn(usize) -> &'a [Entry],
    ) {
        let len = q.dims()[0] as usize;
        // Half-open ranges (one compare a step; `..=` takes more, and mispredicts its end
        // more often).
        for y in i64::from(q.min[1])..i64::from(q.max[1]) + 1 {
            let y = y as i32;
            let start = self.index(q.min[0], y);
            for (x, i) in (i64::from(q.min[0])..i64::from(q.max[0]) + 1).zip(start..start + len) {
                let x = x as i32;
                for e in cell(i) {
                    // Report only in the lowest cell of (obstacle's cells ∩ query's cells);
                    // see the module docs. (All tests taken, `&`: one branch, not three.)
                    if (e.first[0].max(q.min[0]) == x)
                        & (e.first[1].max(q.min[1]) == y)
                        & e.aabb.intersects(bounds)
                    {
                        self.report(e.id, f);
                    }
                }
            }
        }
    }

    #[inline]
    fn report(&self, id: u32, f: &mut impl FnMut(ObstacleId, &Obstacle)) {
        if let Some(Some(slot)) = self.slots.get(id as usize) {
            f(ObstacleId(id), &slot.obstacle);
        }
    }
}

#[cfg(test)]
mod tests;
