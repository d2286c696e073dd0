//! Spatial order: the event machinery works on the balls sorted along a Morton (Z-order)
//! curve of their centres, and the results are put back in the caller's order.
//!
//! A forecast reads every ball near the predicted one. In the caller's order those are
//! scattered over memory (a cache miss each, several per event); sorted along the curve,
//! neighbours in space are mostly neighbours in memory, and predicting every ball at the
//! step's start walks the pair grid in order. The order is a function of the inputs alone
//! (ties by the caller's index), so the results stay deterministic and the same on any
//! number of threads.

use super::report::Contact;
use crate::ball::Ball;
use crate::contact_with::ContactWith;
use glam::Vec2;

/// Bits per axis of the Morton code: 2¹⁰ steps across the balls' bounds, finer than a
/// ball in any scene where the order matters (it only has to keep neighbours close).
const MORTON_BITS: u32 = 10;

/// The code of a ball with no place on the curve (a non-finite centre): after every
/// Morton code, which has `2 · MORTON_BITS` bits.
const NO_PLACE: u32 = 1 << (2 * MORTON_BITS);

/// Bits per digit of the radix sort: two counting passes cover a code (up to
/// [`NO_PLACE`], 21 bits), each with 2¹¹ counters (8 KB, in the first-level cache).
const DIGIT_BITS: u32 = (2 * MORTON_BITS + 1).div_ceil(2);

/// Counters per radix pass.
const DIGITS: usize = 1 << DIGIT_BITS;

/// The permutation between the caller's order and the sorted one, with its buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct SpatialOrder {
    /// `order[n]`: the caller's index of the `n`-th ball in sorted order.
    order: Vec<u32>,
    /// Each ball's Morton code, in the caller's order.
    codes: Vec<u32>,
    /// The radix sort's other buffer.
    swap: Vec<u32>,
    /// `in_events` in the order it is not in (swapped in and out).
    in_events: Vec<bool>,
}

/// Spread the low [`MORTON_BITS`] bits of `v` to the even bits.
fn spread(v: u32) -> u32 {
    let mut x = v & ((1 << MORTON_BITS) - 1);
    x = (x | (x << 8)) & 0x00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333;
    (x | (x << 1)) & 0x5555_5555
}

/// `order` := the indices of `codes`, sorted by code, ties by index: a least-significant
/// digit first radix sort, [`DIGIT_BITS`] bits a pass. Each pass is a stable counting
/// sort, so after both the order is by the whole code, and the indices, which start in
/// order, keep it among equal codes.
fn sort_by_code(codes: &[u32], order: &mut Vec<u32>, swap: &mut Vec<u32>) {
    order.clear();
    order.extend(0..codes.len() as u32);
    swap.clear();
    swap.resize(codes.len(), 0);
    let mut counts = [0_u32; DIGITS];
    for pass in 0..2 {
        let shift = pass * DIGIT_BITS;
        let digit = |k: u32| (codes[k as usize] >> shift) as usize & (DIGITS - 1);
        counts.fill(0);
        for &k in order.iter() {
            counts[digit(k)] += 1;
        }
        // Each digit's first place: the counts of the smaller digits, summed.
        let mut place = 0;
        for c in &mut counts {
            (*c, place) = (place, place + *c);
        }
        for &k in order.iter() {
            let d = digit(k);
            swap[counts[d] as usize] = k;
            counts[d] += 1;
        }
        std::mem::swap(order, swap);
    }
}

impl SpatialOrder {
    /// Sort `balls` (copied into `sorted`), and move `in_events` into the same order. (The
    /// lone sweeps stay in the caller's order: see [`SpatialOrder::caller`].)
    pub(super) fn sort_in(&mut self, balls: &[Ball], sorted: &mut Vec<Ball>, in_events: &mut Vec<bool>) {
        let finite = || balls.iter().map(|b| b.center).filter(|c| c.is_finite());
        let lo = finite().fold(Vec2::splat(f32::INFINITY), Vec2::min);
        let hi = finite().fold(Vec2::splat(f32::NEG_INFINITY), Vec2::max);
        let cells = ((1_u32 << MORTON_BITS) - 1) as f32;
        let scale = cells / (hi - lo).max_element().max(f32::MIN_POSITIVE);
        self.codes.clear();
        self.codes.extend(balls.iter().map(|b| {
            if b.center.is_finite() && lo.is_finite() {
                let q = ((b.center - lo) * scale).clamp(Vec2::ZERO, Vec2::splat(cells));
                spread(q.x as u32) | (spread(q.y as u32) << 1)
            } else {
                NO_PLACE
            }
        }));
        sort_by_code(&self.codes, &mut self.order, &mut self.swap);
        sorted.clear();
        sorted.extend(self.order.iter().map(|&k| balls[k as usize]));
        self.in_events.clear();
        self.in_events
            .extend(self.order.iter().map(|&k| in_events[k as usize]));
        std::mem::swap(in_events, &mut self.in_events);
    }

    /// The caller's index of the ball at `n` in sorted order.
    #[inline]
    pub(super) fn caller(&self, n: usize) -> usize {
        self.order.get(n).map_or(n, |&k| k as usize)
    }

    /// Put the `sorted` balls back into `balls`, and `in_events` back in the caller's order.
    pub(super) fn sort_out(&mut self, balls: &mut [Ball], sorted: &[Ball], in_events: &mut Vec<bool>) {
        for (n, &k) in self.order.iter().enumerate() {
            balls[k as usize] = sorted[n];
        }
        std::mem::swap(in_events, &mut self.in_events);
        in_events.clear();
        in_events.resize(self.order.len(), false);
        for (n, &k) in self.order.iter().enumerate() {
            in_events[k as usize] = self.in_events[n];
        }
        // Back to the identity, for whatever runs outside the machinery.
        self.order.clear();
    }

    /// Renumber the balls of `contacts` from the sorted order to the caller's.
    pub(super) fn renumber(&self, contacts: &mut [Contact]) {
        for c in contacts {
            c.ball = self.caller(c.ball);
            if let ContactWith::Ball(j) = c.with {
                c.with = ContactWith::Ball(self.caller(j));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The seed of [`the_radix_sort_matches_a_comparison_sort`]'s codes.
    const CODES_SEED: u64 = 7;

    #[test]
    fn sorts_and_restores() {
        let balls: Vec<Ball> = (0..100)
            .map(|i| {
                Ball::new(
                    Vec2::new((i * 37 % 100) as f32, (i * 53 % 100) as f32),
                    Vec2::X,
                    1.0,
                )
            })
            .collect();
        let mut in_events: Vec<bool> = (0..100).map(|i| i % 3 == 0).collect();
        let (in_events_before, mut out) = (in_events.clone(), balls.clone());
        let mut order = SpatialOrder::default();
        let mut sorted = Vec::new();
        order.sort_in(&balls, &mut sorted, &mut in_events);
        for n in 0..100 {
            assert_eq!(sorted[n], balls[order.caller(n)]);
            assert_eq!(in_events[n], in_events_before[order.caller(n)]);
        }
        // Neighbours along the curve are near in space.
        let near = sorted
            .windows(2)
            .filter(|w| (w[0].center - w[1].center).length() < 30.0);
        assert!(near.count() > 60);
        let mut contacts = [Contact {
            ball: 0,
            with: ContactWith::Ball(1),
            time: 0.0,
            hit: super::super::state::SensorHit::NONE.hit,
            approach_speed: 0.0,
            other_velocity: Vec2::ZERO,
            sensor: false,
            kick: 0.0,
        }];
        let (a, b) = (order.caller(0), order.caller(1));
        order.renumber(&mut contacts);
        out.fill(Ball::new(Vec2::ZERO, Vec2::ZERO, 1.0));
        order.sort_out(&mut out, &sorted, &mut in_events);
        assert_eq!(out, balls);
        assert_eq!(in_events, in_events_before);
        assert_eq!((contacts[0].ball, contacts[0].with), (a, ContactWith::Ball(b)));
        assert_eq!(order.caller(5), 5);
    }

    #[test]
    fn the_radix_sort_matches_a_comparison_sort() {
        // Codes over the whole range, many of them equal (ties go by index), and the
        // no-place code: the same order as sorting (code, index) pairs.
        let mut rng = StdRng::seed_from_u64(CODES_SEED);
        let codes: Vec<u32> = (0..5000)
            .map(|k| match k % 7 {
                0 => NO_PLACE,
                1 => rng.random_range(0..16),
                _ => rng.random_range(0..NO_PLACE),
            })
            .collect();
        let (mut order, mut swap) = (Vec::new(), Vec::new());
        sort_by_code(&codes, &mut order, &mut swap);
        let mut expected: Vec<u32> = (0..codes.len() as u32).collect();
        expected.sort_by_key(|&k| (codes[k as usize], k));
        assert_eq!(order, expected);
    }
}
