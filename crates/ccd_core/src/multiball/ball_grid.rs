//! A uniform grid of the balls' swept boxes, rebuilt every step, to find candidate pairs.

use crate::shape::Aabb;
use crate::tolerance::MAX_BALL_GRID_CELLS_PER_AXIS as MAX_CELLS_PER_AXIS;
use glam::Vec2;

/// Dense grid over the step's bounds; a box outside them lands in the border cells, for
/// queries and inserts alike, so candidates are never lost.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallGrid {
    origin: Vec2,
    inv_cell: f32,
    width: usize,
    height: usize,
    cells: Vec<Vec<u32>>,
    /// The cell range each ball is in: `[x0, y0, x1, y1]`.
    ranges: Vec<[u16; 4]>,
    /// Query stamps, to report each ball once per query.
    stamps: Vec<u32>,
    stamp: u32,
}

impl BallGrid {
    /// Reset for `boxes`, one per ball, over their common bounds.
    pub(crate) fn rebuild(&mut self, boxes: &[Aabb]) {
        let mut bounds = boxes
            .first()
            .copied()
            .unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO));
        let mut extent = 0.0_f32;
        for b in boxes {
            bounds = bounds.union(*b);
            extent = extent.max((b.max - b.min).max_element());
        }
        let size = bounds.max - bounds.min;
        // Cells about the size of a typical swept box, but never more than the cap.
        let cell = extent
            .max(size.max_element() / MAX_CELLS_PER_AXIS as f32)
            .max(f32::MIN_POSITIVE);
        let (w, h) = (
            ((size.x / cell) as usize + 1).min(MAX_CELLS_PER_AXIS),
            ((size.y / cell) as usize + 1).min(MAX_CELLS_PER_AXIS),
        );
        self.origin = bounds.min;
        self.inv_cell = 1.0 / cell;
        self.width = w;
        self.height = h;
        for c in &mut self.cells {
            c.clear();
        }
        self.cells.resize_with(w * h, Vec::new);
        self.ranges.clear();
        self.ranges.resize(boxes.len(), [0; 4]);
        self.stamps.clear();
        self.stamps.resize(boxes.len(), 0);
        self.stamp = 0;
        for (i, b) in boxes.iter().enumerate() {
            self.insert(i, *b);
        }
    }

    #[inline]
    fn range(&self, b: Aabb) -> [u16; 4] {
        let cell = |p: Vec2| {
            let q = (p - self.origin) * self.inv_cell;
            // NaN and out-of-range clamp to the border (NaN → 0).
            let x = (q.x.max(0.0) as usize).min(self.width - 1);
            let y = (q.y.max(0.0) as usize).min(self.height - 1);
            (x as u16, y as u16)
        };
        let (x0, y0) = cell(b.min);
        let (x1, y1) = cell(b.max);
        [x0, y0, x1.max(x0), y1.max(y0)]
    }

    fn insert(&mut self, ball: usize, b: Aabb) {
        let r = self.range(b);
        self.ranges[ball] = r;
        for y in r[1]..=r[3] {
            for x in r[0]..=r[2] {
                self.cells[y as usize * self.width + x as usize].push(ball as u32);
            }
        }
    }

    /// Move `ball` to its new swept box.
    pub(crate) fn update(&mut self, ball: usize, b: Aabb) {
        let old = self.ranges[ball];
        if old == self.range(b) {
            return;
        }
        for y in old[1]..=old[3] {
            for x in old[0]..=old[2] {
                let cell = &mut self.cells[y as usize * self.width + x as usize];
                if let Some(k) = cell.iter().position(|&i| i == ball as u32) {
                    cell.swap_remove(k);
                }
            }
        }
        self.insert(ball, b);
    }

    /// Calls `f` once for every ball sharing a cell with `b`, in a fixed order.
    pub(crate) fn query(&mut self, b: Aabb, mut f: impl FnMut(usize)) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let r = self.range(b);
        for y in r[1]..=r[3] {
            for x in r[0]..=r[2] {
                for &i in &self.cells[y as usize * self.width + x as usize] {
                    let slot = &mut self.stamps[i as usize];
                    if *slot != self.stamp {
                        *slot = self.stamp;
                        f(i as usize);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for q in [
            Aabb::new(Vec2::splat(30.0), Vec2::splat(70.0)),
            Aabb::new(Vec2::splat(490.0), Vec2::splat(600.0)),
        ] {
            let mut seen = Vec::new();
            grid.query(q, |i| seen.push(i));
            let mut dedup = seen.clone();
            dedup.sort_unstable();
            dedup.dedup();
            assert_eq!(dedup.len(), seen.len(), "duplicates");
            for (i, b) in boxes.iter().enumerate() {
                if b.intersects(&q) {
                    assert!(seen.contains(&i), "missed {i}");
                }
            }
        }
    }
}
