//! The grid against independent expectations: the slice store's brute-force query, a
//! plain `Vec<Option<Obstacle>>` model of ids, and `sweep_bounces` over a `Vec`.
#![allow(clippy::unwrap_used, reason = "a test fails loudly on an unexpected error")]

use super::*;
use crate::tolerance::MAX_GRID_CELLS;
use crate::{Circle, Segment, SweepOutcome, SweepSettings, sweep_bounces};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn wall(a: Vec2, b: Vec2) -> Obstacle {
    Obstacle::segment(Segment::new(a, b))
}

fn pillar(c: Vec2, r: f32) -> Obstacle {
    Obstacle::pillar(Circle::new(c, r))
}

/// A point uniform in the square of half-side `half` around the origin.
fn point(rng: &mut impl Rng, half: f32) -> Vec2 {
    v(rng.random_range(-half..half), rng.random_range(-half..half))
}

/// Short and long walls (some long enough for the large list), pillars including
/// zero-radius ones.
fn random_obstacle(rng: &mut impl Rng) -> Obstacle {
    let c = point(rng, 1000.0);
    match rng.random_range(0..10) {
        0..=4 => {
            let d = point(rng, 40.0) + v(0.5, 0.0);
            wall(c, c + d)
        }
        5 => {
            let d = point(rng, 3000.0) + v(0.5, 0.0);
            wall(c, c + d)
        }
        6 => wall(c, c + v(rng.random_range(1.0..3000.0), 0.0)),
        7 => pillar(c, 0.0),
        _ => pillar(c, rng.random_range(0.0..30.0)),
    }
}

fn random_box(rng: &mut impl Rng) -> Aabb {
    let c = point(rng, 1300.0);
    let half = match rng.random_range(0..5) {
        0 => Vec2::ZERO,
        1 | 2 => point(rng, 20.0).abs(),
        3 => point(rng, 200.0).abs(),
        _ => point(rng, 2000.0).abs(),
    };
    if rng.random_range(0..20) == 0 {
        // Inverted: `Aabb::intersects` still finds obstacles spanning the gap.
        Aabb::new(c + half, c - half)
    } else {
        Aabb::new(c - half, c + half)
    }
}

/// Ids the grid reports, in report order.
fn reported(grid: &Grid, bounds: Aabb) -> Vec<u32> {
    let mut ids = Vec::new();
    grid.query(bounds, |id, o| {
        assert_eq!(grid.get(id), Some(o), "reported obstacle is not the stored one");
        ids.push(id.0);
    });
    ids
}

/// Sorted, checking there is no duplicate.
fn sorted_unique(mut ids: Vec<u32>) -> Vec<u32> {
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "an obstacle was reported twice");
    ids
}

/// The independent answer: `[Obstacle]::query` over the live obstacles, mapped to ids.
fn brute(model: &[Option<Obstacle>], bounds: Aabb) -> Vec<u32> {
    let (ids, live): (Vec<u32>, Vec<Obstacle>) = model
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.map(|o| (i as u32, o)))
        .unzip();
    let mut out = Vec::new();
    live.as_slice().query(bounds, |i, _| out.push(ids[i.0 as usize]));
    out
}

/// Grid ⊇ brute force, no duplicates; and since the grid tests each box, in fact equal.
fn check_query(grid: &Grid, model: &[Option<Obstacle>], bounds: Aabb) {
    let got = sorted_unique(reported(grid, bounds));
    let want = brute(model, bounds);
    for id in &want {
        assert!(got.binary_search(id).is_ok(), "missed {id} for {bounds:?}");
    }
    assert_eq!(got, want, "{bounds:?}");
}

/// One scene per (seed, cell side): fine, coarse and default grids.
const SCENES: [(u64, f32); 5] = [(1, 32.0), (2, 1.0), (3, 7.5), (4, 200.0), (5, DEFAULT_CELL_SIZE)];

#[test]
fn brute_force_random_scenes() {
    for (seed, cell) in SCENES {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut grid = Grid::new(cell);
        let mut model = Vec::new();
        for i in 0..600 {
            let o = random_obstacle(&mut rng);
            assert_eq!(grid.insert(o), Ok(ObstacleId(i)));
            model.push(Some(o));
        }
        assert!(grid.cell_count() as u64 <= MAX_GRID_CELLS);
        assert!(grid.in_cells > 0);
        if cell <= 32.0 {
            assert!(!grid.large.is_empty(), "both homes exercised");
        }
        for _ in 0..400 {
            check_query(&grid, &model, random_box(&mut rng));
        }
        // Packed: the same obstacles, in the same order.
        let boxes: Vec<Aabb> = (0..400).map(|_| random_box(&mut rng)).collect();
        let loose: Vec<Vec<u32>> = boxes.iter().map(|&b| reported(&grid, b)).collect();
        grid.pack();
        for (b, loose) in boxes.iter().zip(loose) {
            check_query(&grid, &model, *b);
            assert_eq!(reported(&grid, *b), loose, "packed order {b:?}");
        }
    }
}

/// The seed of [`random_edits_match_model`]'s edits.
const EDITS_SEED: u64 = 0xDEAD_BEEF_1234_5678;

#[test]
fn random_edits_match_model() {
    let mut rng = StdRng::seed_from_u64(EDITS_SEED);
    let mut grid = Grid::new(16.0);
    let mut model: Vec<Option<Obstacle>> = Vec::new();
    for step in 0..3000 {
        let live: Vec<u32> = (0..model.len() as u32)
            .filter(|&i| model[i as usize].is_some())
            .collect();
        match rng.random_range(0..10) {
            0..=4 => {
                let o = random_obstacle(&mut rng);
                let id = grid.insert(o).map(|id| id.0);
                let Ok(id) = id else {
                    panic!("valid obstacle refused")
                };
                // A fresh id or a free one, never a live one.
                assert!(
                    model.get(id as usize).is_none_or(Option::is_none),
                    "live id {id} reused"
                );
                if id as usize == model.len() {
                    model.push(None);
                }
                model[id as usize] = Some(o);
            }
            5..=7 if !live.is_empty() => {
                let id = live[rng.random_range(0..live.len())];
                assert_eq!(grid.remove(ObstacleId(id)), model[id as usize].take());
                assert_eq!(grid.remove(ObstacleId(id)), None, "stale id");
                assert_eq!(grid.get(ObstacleId(id)), None);
            }
            8 if !live.is_empty() => {
                let id = live[rng.random_range(0..live.len())];
                let o = random_obstacle(&mut rng);
                assert_eq!(grid.replace(ObstacleId(id), o), Ok(model[id as usize].replace(o)));
            }
            _ => {
                let unknown = ObstacleId(model.len() as u32 + 5);
                assert_eq!(grid.replace(unknown, pillar(Vec2::ZERO, 1.0)), Ok(None));
                assert_eq!(grid.remove(unknown), None);
            }
        }
        let live = model.iter().flatten().count();
        assert_eq!((grid.len(), grid.is_empty()), (live, live == 0));
        if step % 50 == 0 {
            let want: Vec<(u32, Obstacle)> = model
                .iter()
                .enumerate()
                .filter_map(|(i, o)| o.map(|o| (i as u32, o)))
                .collect();
            let got: Vec<(u32, Obstacle)> = grid.iter().map(|(id, o)| (id.0, *o)).collect();
            assert_eq!(got, want, "iter: ascending ids, stored obstacles");
            // Loose, then packed: the same obstacles, in the same order. The edits that
            // follow unpack it (a stale packing would report what they changed).
            assert!(!grid.is_packed() || step == 0, "an edit unpacks");
            let boxes: Vec<Aabb> = (0..20).map(|_| random_box(&mut rng)).collect();
            let loose: Vec<Vec<u32>> = boxes.iter().map(|&b| reported(&grid, b)).collect();
            grid.pack();
            assert!(grid.is_packed() || grid.cell_count() == 0);
            for (b, loose) in boxes.iter().zip(loose) {
                check_query(&grid, &model, *b);
                assert_eq!(reported(&grid, *b), loose, "packed order {b:?}");
            }
            let everything = Aabb::new(Vec2::splat(f32::NEG_INFINITY), Vec2::splat(f32::INFINITY));
            check_query(&grid, &model, everything);
        }
    }
}

#[test]
fn ids_by_hand() {
    let mut grid = Grid::default();
    let a = grid.insert(pillar(v(0.0, 0.0), 1.0)).unwrap();
    let b = grid.insert(pillar(v(50.0, 0.0), 1.0)).unwrap();
    let c = grid.insert(wall(v(0.0, 100.0), v(90.0, 100.0))).unwrap();
    assert_eq!((a, b, c), (ObstacleId(0), ObstacleId(1), ObstacleId(2)));

    assert_eq!(grid.remove(b), Some(pillar(v(50.0, 0.0), 1.0)));
    assert_eq!(grid.remove(b), None);
    assert_eq!(grid.get(b), None);
    assert_eq!(
        grid.replace(b, pillar(v(0.0, 0.0), 1.0)),
        Ok(None),
        "no resurrection"
    );
    assert_eq!(grid.len(), 2);
    let all = Aabb::new(v(-1e3, -1e3), v(1e3, 1e3));
    assert_eq!(
        sorted_unique(reported(&grid, all)),
        [0, 2],
        "removed never reported"
    );
    assert!(reported(&grid, Aabb::new(v(45.0, -5.0), v(55.0, 5.0))).is_empty());

    // The free id comes back; the others keep theirs.
    let d = grid.insert(pillar(v(200.0, 200.0), 3.0)).unwrap();
    assert_eq!(d, ObstacleId(1));
    assert_eq!(grid.get(a), Some(&pillar(v(0.0, 0.0), 1.0)));
    assert_eq!(reported(&grid, Aabb::new(v(199.0, 199.0), v(199.0, 199.0))), [1]);

    // Replace moves the obstacle: found at the new place only.
    assert_eq!(
        grid.replace(a, pillar(v(-300.0, 0.0), 2.0)),
        Ok(Some(pillar(v(0.0, 0.0), 1.0)))
    );
    assert!(reported(&grid, Aabb::new(v(-1.0, -1.0), v(1.0, 1.0))).is_empty());
    assert_eq!(
        reported(&grid, Aabb::new(v(-302.0, 0.0), v(-302.0, 0.0))),
        [0],
        "touching counts"
    );
    assert_eq!(grid.len(), 3);

    grid.clear();
    assert_eq!((grid.len(), grid.cell_count(), grid.iter().count()), (0, 0, 0));
    assert!(reported(&grid, all).is_empty());
    assert_eq!(grid.insert(pillar(Vec2::ZERO, 1.0)), Ok(ObstacleId(0)));
}

#[test]
fn removing_everything_releases_cells() {
    let mut grid = Grid::new(10.0);
    let a = grid.insert(pillar(v(0.0, 0.0), 1.0)).unwrap();
    let b = grid.insert(pillar(v(500.0, 0.0), 1.0)).unwrap();
    assert!(grid.cell_count() >= 51);
    grid.remove(a);
    grid.remove(b);
    assert_eq!(grid.cell_count(), 0);
    // Re-anchored far away: one 1 × 1 block, not a rectangle reaching back to the origin.
    let c = grid.insert(pillar(v(1e6 + 5.0, 5.0), 1.0)).unwrap();
    assert_eq!(grid.cell_count(), 1);
    assert_eq!(
        reported(&grid, Aabb::new(v(1e6, 0.0), v(1e6 + 10.0, 10.0))),
        [c.0]
    );
}

#[test]
fn new_sanitizes_cell_size() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, -5.0] {
        assert_eq!(Grid::new(bad).cell_size(), DEFAULT_CELL_SIZE, "{bad}");
    }
    assert_eq!(Grid::default().cell_size(), 32.0);
    assert_eq!(Grid::new(0.25).cell_size(), 0.25);
    // A subnormal cell size is kept and still works (everything lands in the large list).
    let mut grid = Grid::new(1e-40);
    let id = grid.insert(wall(v(0.0, 0.0), v(1.0, 1.0))).unwrap();
    assert_eq!(reported(&grid, Aabb::new(v(0.5, 0.5), v(0.5, 0.5))), [id.0]);
}

/// The seed of [`growth_keeps_earlier_obstacles`]'s queries.
const GROWTH_QUERIES_SEED: u64 = 77;

#[test]
fn growth_keeps_earlier_obstacles() {
    let mut grid = Grid::new(10.0);
    let mut model = Vec::new();
    let add = |grid: &mut Grid, model: &mut Vec<Option<Obstacle>>, o: Obstacle| {
        grid.insert(o).unwrap();
        model.push(Some(o));
    };
    add(&mut grid, &mut model, pillar(v(5.0, 5.0), 1.0));
    assert_eq!(grid.cell_count(), 1);
    // March outwards in every direction, including far beyond the first cell.
    for (i, d) in [v(1.0, 0.0), v(0.0, 1.0), v(-1.0, 0.0), v(0.0, -1.0), v(0.7, -0.7)]
        .iter()
        .enumerate()
    {
        for k in 1..40 {
            let at = v(5.0, 5.0) + *d * (k * k) as f32 * 3.0 + v(i as f32, 0.0);
            add(&mut grid, &mut model, pillar(at, 2.0));
            add(&mut grid, &mut model, wall(at, at + v(15.0, 7.0)));
        }
    }
    assert!(
        grid.cell_count() > 100 && grid.large.is_empty(),
        "grew; everything in cells"
    );
    for (i, o) in model.iter().enumerate() {
        let b = o.map(|o| o.aabb()).unwrap();
        let centre = Aabb::new((b.min + b.max) * 0.5, (b.min + b.max) * 0.5);
        assert!(sorted_unique(reported(&grid, centre)).contains(&(i as u32)));
    }
    // Too far for the rectangle (2²⁰ cells): the large list takes it, earlier ones stay.
    add(&mut grid, &mut model, pillar(v(1e7, -1e7), 1.0));
    assert_eq!(grid.large.len(), 1);
    assert!(grid.cell_count() as u64 <= MAX_GRID_CELLS);
    let mut rng = StdRng::seed_from_u64(GROWTH_QUERIES_SEED);
    for _ in 0..200 {
        let c = point(&mut rng, 5000.0);
        check_query(&grid, &model, Aabb::new(c, c + point(&mut rng, 300.0).abs()));
    }
    check_query(&grid, &model, Aabb::new(v(1e7 - 1.0, -1e7), v(1e7, -1e7 + 1.0)));
}

#[test]
fn growth_is_amortized() {
    // A row of pillars marching right one cell at a time: re-bucketing doubles, so the
    // rectangle stays within twice what is needed.
    let mut grid = Grid::new(1.0);
    for i in 0..5000 {
        grid.insert(pillar(v(i as f32 + 0.5, 0.5), 0.25)).unwrap();
        assert!(grid.cell_count() <= 2 * (i + 1) + 1, "{i}: {}", grid.cell_count());
    }
}

#[test]
fn huge_obstacles_and_wild_boxes_do_not_hang_or_panic() {
    let mut grid = Grid::default();
    let obstacles = [
        wall(v(-1e6, 0.0), v(1e6, 0.0)),
        wall(v(-1e6, -1e6), v(1e6, 1e6)),
        wall(v(-3e38, 5.0), v(3e38, 5.0)),
        pillar(v(0.0, 0.0), 3e38),
        pillar(v(3e38, 3e38), 3e38), // box reaches +∞
        pillar(v(1e30, -1e30), 1.0),
        pillar(v(10.0, 10.0), 1.0),
        wall(v(20.0, 20.0), v(40.0, 30.0)),
    ];
    let model: Vec<Option<Obstacle>> = obstacles.iter().copied().map(Some).collect();
    for o in obstacles {
        grid.insert(o).unwrap();
    }
    assert!(grid.cell_count() <= 4, "no 10¹⁰ cells: {}", grid.cell_count());
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    let boxes = [
        Aabb::new(v(-1e30, -1e30), v(1e30, 1e30)),
        Aabb::new(Vec2::splat(-inf), Vec2::splat(inf)),
        Aabb::new(Vec2::splat(inf), Vec2::splat(-inf)),
        Aabb::new(Vec2::splat(inf), Vec2::splat(inf)),
        Aabb::new(Vec2::splat(-f32::MAX), Vec2::splat(f32::MAX)),
        Aabb::new(v(1e30 - 1e24, -1e30), v(1e30, -1e30)),
        Aabb::new(v(5.0, 5.0), v(-5.0, -5.0)),
        Aabb::new(v(9.0, 9.0), v(11.0, 11.0)),
        Aabb::new(v(-1e6, -1e6), v(-1e6, -1e6)),
    ];
    for b in boxes {
        check_query(&grid, &model, b);
    }
    for b in [
        Aabb::new(Vec2::splat(nan), Vec2::splat(nan)),
        Aabb::new(v(nan, 0.0), v(10.0, 10.0)),
        Aabb::new(v(0.0, 0.0), v(10.0, nan)),
        Aabb::new(v(-inf, nan), v(inf, inf)),
    ] {
        assert!(reported(&grid, b).is_empty(), "a NaN box meets nothing");
        assert!(brute(&model, b).is_empty());
    }
    // The everything box reports all eight once each.
    assert_eq!(
        sorted_unique(reported(&grid, boxes[1])),
        (0..8).collect::<Vec<_>>()
    );
}

#[test]
fn invalid_obstacles_are_refused_naming_the_field() {
    let mut grid = Grid::default();
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let cases = [
        (
            wall(v(nan, 0.0), v(1.0, 0.0)),
            ShapeError::NonFinite { field: "a" },
        ),
        (
            wall(v(0.0, 0.0), v(1.0, inf)),
            ShapeError::NonFinite { field: "b" },
        ),
        (
            wall(v(2.0, 3.0), v(2.0, 3.0)),
            ShapeError::ZeroLength { field: "b" },
        ),
        (
            pillar(v(0.0, nan), 1.0),
            ShapeError::NonFinite { field: "center" },
        ),
        (
            pillar(v(0.0, 0.0), nan),
            ShapeError::NonFinite { field: "radius" },
        ),
        (
            pillar(v(0.0, 0.0), -1.0),
            ShapeError::NegativeRadius { field: "radius" },
        ),
    ];
    for (o, err) in cases {
        assert_eq!(grid.insert(o), Err(err));
    }
    assert_eq!(
        (grid.len(), grid.cell_count(), grid.slots.len()),
        (0, 0, 0),
        "nothing stored"
    );

    let good = pillar(v(0.0, 0.0), 1.0);
    let id = grid.insert(good).unwrap();
    assert_eq!(id, ObstacleId(0), "refusals took no id");
    for (o, err) in cases {
        assert_eq!(grid.replace(id, o), Err(err));
        assert_eq!(grid.get(id), Some(&good), "old kept");
    }
    // Bad geometry is an error even for an unknown id.
    assert_eq!(grid.replace(ObstacleId(9), cases[0].0), Err(cases[0].1));
    assert_eq!(reported(&grid, Aabb::new(v(1.0, 0.0), v(1.0, 0.0))), [0]);
}

/// The seed of [`report_order_is_deterministic`]'s scene and boxes.
const ORDER_SEED: u64 = 31337;

#[test]
fn report_order_is_deterministic() {
    let mut rng = StdRng::seed_from_u64(ORDER_SEED);
    let mut grid = Grid::new(20.0);
    for _ in 0..500 {
        grid.insert(random_obstacle(&mut rng)).unwrap();
    }
    let copy = grid.clone();
    for _ in 0..100 {
        let b = random_box(&mut rng);
        let first = reported(&grid, b);
        assert_eq!(reported(&grid, b), first);
        assert_eq!(reported(&copy, b), first);
    }
}

/// A closed 200 × 200 room with pillars and inner walls.
fn room() -> Vec<Obstacle> {
    let mut scene = vec![
        wall(v(-100.0, -100.0), v(100.0, -100.0)),
        wall(v(100.0, -100.0), v(100.0, 100.0)),
        wall(v(100.0, 100.0), v(-100.0, 100.0)),
        wall(v(-100.0, 100.0), v(-100.0, -100.0)),
        wall(v(-60.0, -20.0), v(-10.0, 30.0)),
        wall(v(20.0, 40.0), v(70.0, 35.0)).with_one_sided(true),
        wall(v(30.0, -70.0), v(30.0, -10.0)),
        pillar(v(50.0, 0.0), 8.0),
        pillar(v(-50.0, 60.0), 12.0),
        pillar(v(0.0, -50.0), 5.0),
        pillar(v(-70.0, -70.0), 3.0).with_sensor(true),
    ];
    for i in 0..6 {
        let x = -80.0 + 30.0 * i as f32;
        scene.push(pillar(v(x, 80.0), 2.0 + i as f32));
    }
    scene
}

fn run<O: Obstacles + ?Sized>(store: &O, circle: Circle, velocity: Vec2) -> (SweepOutcome, Vec<(u32, f32)>) {
    let mut hits = Vec::new();
    let out = sweep_bounces(circle, velocity, 1.0, store, &SweepSettings::default(), |h| {
        hits.push((h.obstacle.0, h.time));
    })
    .unwrap();
    (out, hits)
}

/// The seed of [`sweep_bounces_same_with_grid_as_with_vec`]'s balls.
const ROOM_BALLS_SEED: u64 = 0x5EED;

#[test]
fn sweep_bounces_same_with_grid_as_with_vec() {
    let scene = room();
    let mut rng = StdRng::seed_from_u64(ROOM_BALLS_SEED);
    for cell in [4.0, 32.0, 500.0] {
        let mut grid = Grid::new(cell);
        for o in &scene {
            grid.insert(*o).unwrap();
        }
        let mut bounced = 0;
        for _ in 0..300 {
            let circle = Circle::new(point(&mut rng, 90.0), rng.random_range(0.5..4.0));
            let velocity = point(&mut rng, 3000.0);
            let (want, want_hits) = run(&scene, circle, velocity);
            let (got, got_hits) = run(&grid, circle, velocity);
            // No exact ties in a random scene, so the report order cannot matter: the
            // outcome is bit-identical.
            assert_eq!(got, want, "{circle:?} {velocity:?} cell {cell}");
            assert_eq!(got_hits, want_hits);
            bounced += usize::from(want.bounces > 0);
        }
        assert!(bounced > 200, "the scene is busy: {bounced}");
    }
}

/// The seed of [`ten_thousand_segments_stay_local`]'s walls and queries.
const LOCAL_SEED: u64 = 4242;

#[test]
fn ten_thousand_segments_stay_local() {
    let mut rng = StdRng::seed_from_u64(LOCAL_SEED);
    let mut grid = Grid::default();
    let mut model = Vec::new();
    // 10⁴ walls up to 40 units long in a 3200 × 3200 square: about one per cell.
    for _ in 0..10_000 {
        let a = v(rng.random_range(0.0..3200.0), rng.random_range(0.0..3200.0));
        let o = wall(a, a + point(&mut rng, 20.0) + v(0.5, 0.5));
        grid.insert(o).unwrap();
        model.push(Some(o));
    }
    assert!(grid.large.is_empty());
    assert!(grid.cell_count() <= 4 * 101 * 101, "{}", grid.cell_count());
    for _ in 0..200 {
        let c = v(rng.random_range(0.0..3200.0), rng.random_range(0.0..3200.0));
        let b = Aabb::swept(c, point(&mut rng, 20.0), 2.0);
        check_query(&grid, &model, b);
        // A ball-sized query looks at a few cells' entries, not thousands.
        assert!(grid.scanned_entries(b) < 60, "{}", grid.scanned_entries(b));
    }
}

#[test]
fn every_edit_unpacks_and_queries_stay_true() {
    let mut rng = StdRng::seed_from_u64(EDITS_SEED);
    let mut grid = Grid::new(16.0);
    let mut model: Vec<Option<Obstacle>> = Vec::new();
    for _ in 0..300 {
        let o = random_obstacle(&mut rng);
        grid.insert(o).unwrap();
        model.push(Some(o));
    }
    let check = |grid: &Grid, model: &[Option<Obstacle>], rng: &mut StdRng| {
        for _ in 0..100 {
            check_query(grid, model, random_box(rng));
        }
    };
    for edit in ["insert", "remove", "replace"] {
        grid.pack();
        assert!(grid.is_packed());
        check(&grid, &model, &mut rng);
        match edit {
            "insert" => {
                let o = random_obstacle(&mut rng);
                let id = grid.insert(o).unwrap();
                assert_eq!(id.0 as usize, model.len());
                model.push(Some(o));
            }
            "remove" => assert_eq!(grid.remove(ObstacleId(7)), model[7].take()),
            _ => {
                let o = random_obstacle(&mut rng);
                assert_eq!(grid.replace(ObstacleId(9), o), Ok(model[9].replace(o)));
            }
        }
        assert!(!grid.is_packed(), "{edit} unpacks");
        check(&grid, &model, &mut rng);
    }
}
