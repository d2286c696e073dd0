use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The seed of [`a_cells_mask_is_the_box_test_of_each_slot`]'s boxes.
const CELL_MASK_SEED: u64 = 12_345;
/// The seed of [`every_meeting_pair_once_against_all_pairs`]'s boxes and moves.
const MEETING_PAIRS_SEED: u64 = 4_242;

#[test]
fn a_cells_mask_is_the_box_test_of_each_slot() {
    // Coordinates across the whole u16 range (the shift into i16 must keep the order,
    // and the saturating differences their signs), against `QBox::intersects` slot by
    // slot: a pseudo-random walk of boxes, including ones at 0 and at u16::MAX.
    let mut rng = StdRng::seed_from_u64(CELL_MASK_SEED);
    let mut next = || {
        // Now and then an extreme value.
        match rng.random_range(0..11) {
            0 => 0,
            1 => u16::MAX,
            _ => rng.random::<u16>(),
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
    // 1,200 boxes crowded into a small square (so cells fill and spill), some moved,
    // a few of them beyond the bounds of the rebuild: every pair whose boxes meet is
    // reported, exactly once; a reported pair that does not meet is off by no more than
    // the fixed-point rounding, once each box is clamped to the grid's fixed-point range
    // (a box beyond it is clamped there, so it may seem to meet more, never less).
    let mut rng = StdRng::seed_from_u64(MEETING_PAIRS_SEED);
    let mut next = |scale: f32| rng.random_range(0.0..scale);
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
    // Bands of rows, taken in order, report the same pairs in the same order as the whole
    // grid (the first forecasts' pair pass runs them as tasks), however they are cut.
    for bands in [2, 3, 16, grid.rows()] {
        let mut banded = Vec::new();
        for b in 0..bands {
            let rows = grid.rows() * b / bands..grid.rows() * (b + 1) / bands;
            grid.for_each_pair_in_rows(rows, |a, b| banded.push((a.min(b), a.max(b))));
        }
        assert_eq!(banded, seen, "{bands} bands");
    }
    let reported = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), reported, "a pair reported twice");
    let rounding = 2.0 / grid.fixed_scale;
    let (lo, hi) = (
        grid.origin,
        grid.origin + Vec2::splat(FIXED_MAX / grid.fixed_scale),
    );
    let clamped = |b: Aabb| Aabb::new(b.min.clamp(lo, hi), b.max.clamp(lo, hi));
    let mut beyond = 0;
    for a in 0..boxes.len() {
        for b in a + 1..boxes.len() {
            let found = seen.binary_search(&(a, b)).is_ok();
            if boxes[a].intersects(&boxes[b]) {
                assert!(found, "pair {a}, {b} missed");
            } else if found {
                let (ca, cb) = (clamped(boxes[a]), clamped(boxes[b]));
                beyond += usize::from(ca != boxes[a] || cb != boxes[b]);
                assert!(ca.inflated(rounding).intersects(&cb), "pair {a}, {b} far apart");
            }
        }
    }
    assert!(beyond > 0, "the test must reach a box beyond the bounds");
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
