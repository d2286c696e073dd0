//! Overlap correction: pushing balls that sank into each other apart, by position only.

use super::resting_contacts::RestingPair;
use super::sim::Sim;
use crate::bounce::{Counted, Course, earliest_solid};
use crate::obstacle::Obstacles;
use crate::tolerance::{
    ALLOWED_OVERLAP_REL, CORRECTION_SLIDE_MIN_REL, MAX_CORRECTION_SLIDES, OVERLAP_CORRECTION_FRACTION,
    OVERLAP_CORRECTION_ITERATIONS,
};
use glam::Vec2;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Push overlapping touching balls apart, by positions only (velocities, so energy and
    /// momentum, are untouched). Each shift is swept against the walls and the moving
    /// obstacles at their start pose, so a correction never pushes a ball through anything.
    pub(super) fn correct_overlaps(&mut self, pairs: &[RestingPair]) {
        for pass in 0..OVERLAP_CORRECTION_ITERATIONS {
            let mut any = false;
            for &RestingPair { a: i, b: j, .. } in pairs {
                let (a, b) = (self.balls[i], self.balls[j]);
                let contact = a.radius + b.radius;
                let gap = a.center - b.center;
                let depth = contact - gap.length();
                if pass == 0 {
                    self.report.max_overlap = self.report.max_overlap.max(depth);
                }
                let excess = depth - ALLOWED_OVERLAP_REL * contact;
                let inv_sum = a.inverse_mass + b.inverse_mass;
                if !(excess > 0.0) || !(inv_sum > 0.0) {
                    continue;
                }
                // Coincident centres: any direction separates them; take a fixed one.
                let n = gap.try_normalize().unwrap_or(Vec2::Y);
                let push = n * (excess * OVERLAP_CORRECTION_FRACTION / inv_sum);
                self.shift(i, push * a.inverse_mass);
                self.shift(j, -push * b.inverse_mass);
                any = true;
            }
            if !any {
                break;
            }
        }
    }

    /// Move ball `k` by `delta`, sliding along the first walls or moving obstacles on the
    /// way (at most [`MAX_CORRECTION_SLIDES`] times) and never crossing one.
    pub(super) fn shift(&mut self, k: usize, delta: Vec2) {
        let mut left = delta;
        for _ in 0..=MAX_CORRECTION_SLIDES {
            if left == Vec2::ZERO || !left.is_finite() {
                return;
            }
            let ball = self.balls[k];
            let circle = ball.circle();
            let counted = Counted::on(ball.layers);
            let mut first =
                earliest_solid(circle, Course::Straight(left), self.obstacles, counted, |_, _| {})
                    .map(|solid| solid.hit);
            for m in self.moving.iter() {
                if m.obstacle.sensor || !ball.layers.interacts(m.obstacle.layers) {
                    continue;
                }
                if let Some(hit) = m.obstacle.sweep(circle, left)
                    && first.is_none_or(|f| hit.toi < f.toi)
                {
                    first = Some(hit);
                }
            }
            let Some(hit) = first else {
                self.balls[k].center += left;
                return;
            };
            self.balls[k].center += left * hit.toi;
            // Keep the part of the rest that runs along the surface, unless it is so short
            // that the f32 rounding of the centre decides where it goes (it could round
            // into the surface, a little more each step).
            let rest = left * (1.0 - hit.toi);
            left = rest - hit.normal * rest.dot(hit.normal).min(0.0);
            let scale = self.balls[k].center.abs().max_element().max(1.0);
            if left.length() <= CORRECTION_SLIDE_MIN_REL * scale {
                return;
            }
        }
    }
}
