//! Event-driven multiball cases, each against a number computed by hand or an invariant.

use super::*;
use crate::ball::Ball;
use crate::contact_with::ContactWith;
use crate::material::Material;
use crate::obstacle::{Layers, Obstacle, ObstacleShape};
use crate::shape::Segment;
use crate::sweep::SegmentMotion;
use crate::tolerance::MIN_EVENT_BUDGET;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn wall(a: Vec2, b: Vec2) -> Obstacle {
    Obstacle::segment(Segment::new(a, b))
}

fn closed_box(h: f32) -> Vec<Obstacle> {
    let c = [v(-h, -h), v(h, -h), v(h, h), v(-h, h)];
    (0..4).map(|i| wall(c[i], c[(i + 1) % 4])).collect()
}

fn run(
    balls: &mut [Ball],
    dt: f32,
    steps: usize,
    obstacles: &[Obstacle],
    moving: &[MovingObstacle],
    settings: &MultiballSettings,
) -> Vec<Contact> {
    let mut scratch = MultiballScratch::default();
    let mut contacts = Vec::new();
    // Kinematic obstacles: the step leaves them as they were.
    let mut moving = moving.to_vec();
    for _ in 0..steps {
        step_balls(
            MultiballStep::new(balls, dt, obstacles).with_moving(&mut moving),
            settings,
            &mut scratch,
            |c| contacts.push(*c),
        );
    }
    contacts
}

/// The seed of [`dense_gas_never_runs_out_of_events`]'s scene.
const DENSE_GAS_SEED: u64 = 99_991;
/// The seed of [`the_first_contact_is_the_earliest_of_all_pairs`]'s jitter and velocities.
const EARLIEST_PAIR_SEED: u64 = 2_024;

fn momentum(balls: &[Ball]) -> glam::DVec2 {
    balls
        .iter()
        .map(|b| b.velocity.as_dvec2() / b.inverse_mass as f64)
        .sum()
}

#[test]
fn newtons_cradle() {
    // Five balls (radius 1) with gaps of 0.01 between them (far beyond the touch slop of
    // 2e-4: each contact is an instant of its own) and a striker at speed 10. With e = 1
    // and equal masses each contact hands the whole velocity on: the far ball leaves at 10
    // and the others stop. (Touching balls would be one contact: `tests/one_instant.rs`.)
    let mut balls: Vec<Ball> = (0..5)
        .map(|k| Ball::new(v(2.01 * k as f32, 0.0), Vec2::ZERO, 1.0))
        .collect();
    balls.insert(0, Ball::new(v(-6.0, 0.0), v(10.0, 0.0), 1.0));
    let none: [Obstacle; 0] = [];
    let contacts = run(&mut balls, 0.1, 10, &none, &[], &MultiballSettings::default());
    assert_eq!(contacts.len(), 5, "{contacts:?}");
    for b in &balls[..5] {
        assert!(b.velocity.length() < 1e-4, "{:?}", b.velocity);
    }
    assert!((balls[5].velocity - v(10.0, 0.0)).length() < 1e-4);
    // The striker met the row after 0.4 s and the impact crossed the four gaps at 10 in
    // 0.004 s; the far ball, at 8.04, then flew 0.596 s: x = 8.04 + 5.96 = 14.
    assert!((balls[5].center.x - 14.0).abs() < 1e-3, "{}", balls[5].center);
}

#[test]
fn head_on_at_20000_never_passes_through() {
    // Two balls of radius 4 rushing at each other at 20,000 units/s each, at 120 Hz: each
    // moves 167 units per step, 40 times their size. They must meet, swap velocities and
    // never cross.
    let dt = 1.0 / 120.0;
    let mut balls = [
        Ball::new(v(-300.0, 0.0), v(20_000.0, 0.0), 4.0),
        Ball::new(v(300.0, 0.0), v(-20_000.0, 0.0), 4.0),
    ];
    let none: [Obstacle; 0] = [];
    let mut scratch = MultiballScratch::default();
    let mut met = false;
    for _ in 0..10 {
        let r = step_balls(
            MultiballStep::new(&mut balls, dt, &none),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        met |= r.bounces > 0;
        assert!(
            balls[0].center.x < balls[1].center.x - 8.0 + 1e-2,
            "crossed: {:?}",
            balls
        );
    }
    assert!(met);
    assert!((balls[0].velocity - v(-20_000.0, 0.0)).length() < 1e-1);
    assert!((balls[1].velocity - v(20_000.0, 0.0)).length() < 1e-1);
}

#[test]
fn unequal_balls_head_on_by_hand() {
    // Radii 1 and 2, so masses 1 : 4 (by area), head on at ±10 with e = 1 (the one-contact
    // batch). The gap of 10 − 3 closes at 20: contact at t = 0.35, at x = −1.5 and 1.5.
    // The elastic exchange: v₁ = ((1 − 4)·10 + 2·4·(−10)) / 5 = −22 and
    // v₂ = ((4 − 1)·(−10) + 2·1·10) / 5 = −2 (energy 100 + 4·100 = 484 + 4·4). In the last
    // 0.65 s the first goes to −1.5 − 22·0.65 = −15.8, the second to 1.5 − 2·0.65 = 0.2.
    let mut balls = [
        Ball::new(v(-5.0, 0.0), v(10.0, 0.0), 1.0),
        Ball::new(v(5.0, 0.0), v(-10.0, 0.0), 2.0),
    ];
    let none: [Obstacle; 0] = [];
    let contacts = run(&mut balls, 1.0, 1, &none, &[], &MultiballSettings::default());
    assert_eq!(contacts.len(), 1);
    assert!((contacts[0].time - 0.35).abs() < 1e-6);
    assert!(
        (balls[0].velocity - v(-22.0, 0.0)).length() < 1e-4,
        "{}",
        balls[0].velocity
    );
    assert!(
        (balls[1].velocity - v(-2.0, 0.0)).length() < 1e-4,
        "{}",
        balls[1].velocity
    );
    assert!(
        (balls[0].center - v(-15.8, 0.0)).length() < 1e-4,
        "{}",
        balls[0].center
    );
    assert!(
        (balls[1].center - v(0.2, 0.0)).length() < 1e-4,
        "{}",
        balls[1].center
    );
}

#[test]
fn momentum_is_conserved_between_unequal_balls() {
    // Unequal masses (radii 1 and 3), glancing, with friction; no walls.
    let mut balls = [
        Ball::new(v(-10.0, 0.5), v(40.0, 3.0), 1.0),
        Ball::new(v(5.0, 0.0), v(-7.0, 1.0), 3.0),
    ];
    for b in &mut balls {
        b.material = Material::new(0.8, 0.3);
    }
    let before = momentum(&balls);
    let none: [Obstacle; 0] = [];
    let contacts = run(&mut balls, 0.05, 20, &none, &[], &MultiballSettings::default());
    assert!(!contacts.is_empty());
    let after = momentum(&balls);
    assert!(
        (after - before).length() <= 1e-5 * before.length(),
        "{before} → {after}"
    );
}

#[test]
fn symmetric_break_stays_symmetric_to_the_bit() {
    // A 15-ball rack (radius 1, touching, apex on the axis x = 0) and a cue ball on the
    // axis, in a box centred on the axis. Every position is exact in f32, so the mirror
    // image across x = 0 of ball k of row `row` is ball `row − k` of the same row, to the
    // bit (the cue ball and the balls on the axis are their own images). After a second
    // of play every ball must still sit, and move, exactly where its twin's mirror image
    // does: `x = −x'`, `y = y'` and the same for the velocity, compared with `==` (so
    // that 0 and −0 are the same place on the axis).
    let r = 1.0;
    let row_step = 3f32.sqrt() * r;
    let mut balls = Vec::new();
    let mut twin = Vec::new();
    for row in 0..5 {
        for k in 0..=row {
            let x = (k as f32 - row as f32 * 0.5) * 2.0 * r;
            balls.push(Ball::new(v(x, 10.0 + row as f32 * row_step), Vec2::ZERO, r));
            // Rows start at index row·(row + 1)/2.
            twin.push(row * (row + 1) / 2 + (row - k));
        }
    }
    twin.push(balls.len());
    balls.push(Ball::new(v(0.0, -20.0), v(0.0, 300.0), r));
    let walls = closed_box(40.0);
    let contacts = run(
        &mut balls,
        1.0 / 240.0,
        240,
        &walls,
        &[],
        &MultiballSettings::default(),
    );
    // The break hit the rack, and balls reached the walls (whose segments are not mirror
    // images of each other as stored: the left wall runs down, the right one up).
    assert!(contacts.iter().any(|c| matches!(c.with, ContactWith::Ball(_))));
    assert!(
        contacts
            .iter()
            .any(|c| matches!(c.with, ContactWith::Obstacle(_)))
    );
    for (k, b) in balls.iter().enumerate() {
        let t = &balls[twin[k]];
        assert!(
            t.center.x == -b.center.x && t.center.y == b.center.y,
            "ball {k} at {:?}, its twin {} at {:?}",
            b.center,
            twin[k],
            t.center
        );
        assert!(
            t.velocity.x == -b.velocity.x && t.velocity.y == b.velocity.y,
            "ball {k} moving {:?}, its twin {} moving {:?}",
            b.velocity,
            twin[k],
            t.velocity
        );
    }
}

#[test]
fn ball_ball_can_be_switched_off_by_layers_or_settings() {
    let make = || {
        [
            Ball::new(v(-5.0, 0.0), v(10.0, 0.0), 1.0),
            Ball::new(v(5.0, 0.0), v(-10.0, 0.0), 1.0),
        ]
    };
    let none: [Obstacle; 0] = [];
    let mut balls = make();
    run(
        &mut balls,
        1.0,
        1,
        &none,
        &[],
        &MultiballSettings {
            ball_ball: false,
            ..Default::default()
        },
    );
    assert!(
        (balls[0].center - v(5.0, 0.0)).length() < 1e-5,
        "passed through each other"
    );
    let mut balls = make();
    balls[0].layers = Layers::new(1, 1);
    balls[1].layers = Layers::new(2, 2);
    run(&mut balls, 1.0, 1, &none, &[], &MultiballSettings::default());
    assert!((balls[0].center - v(5.0, 0.0)).length() < 1e-5);
    // Both on the same layers, which do not collide with themselves (on layer 1, colliding
    // with layer 2 only): they pass through each other too.
    let mut balls = make();
    for b in &mut balls {
        b.layers = Layers::new(1, 2);
    }
    run(&mut balls, 1.0, 1, &none, &[], &MultiballSettings::default());
    assert!((balls[0].center - v(5.0, 0.0)).length() < 1e-5);
    // The same layers, colliding with themselves: the head-on bounce (they meet at
    // t = 0.4 and swap velocities, so ball 0 ends at −1 − 6 = −7).
    let mut balls = make();
    for b in &mut balls {
        b.layers = Layers::new(3, 1);
    }
    run(&mut balls, 1.0, 1, &none, &[], &MultiballSettings::default());
    assert!((balls[0].center - v(-7.0, 0.0)).length() < 1e-4);
}

#[test]
fn flipper_bats_a_resting_ball_at_about_one_plus_e_omega_l() {
    // A flipper of length 70 pivoting at the origin turns at 80 rad/s (counter-clockwise);
    // a ball of radius 13.5 rests just above it, its centre over the point at L = 50.
    // The surface there moves at ω·L = 4,000 units/s; with e = 0.5 the ball leaves with
    // a normal speed of about (1 + e)·ω·L = 6,000.
    let omega = 80.0;
    let dt = 1.0 / 1000.0;
    let l = 50.0;
    let flipper = MovingObstacle::new(
        Obstacle::segment(Segment::new(Vec2::ZERO, v(70.0, 0.0))).with_material(Material::new(0.5, 0.0)),
        SegmentMotion {
            pivot: Vec2::ZERO,
            angle: omega * dt,
            pivot_motion: Vec2::ZERO,
        },
    );
    let mut balls = [Ball::new(v(l, 13.6), Vec2::ZERO, 13.5)];
    let none: [Obstacle; 0] = [];
    let mut scratch = MultiballScratch::default();
    let mut moving = [flipper];
    let mut hits = 0;
    for _ in 0..3 {
        step_balls(
            MultiballStep::new(&mut balls, dt, &none).with_moving(&mut moving),
            &MultiballSettings::default(),
            &mut scratch,
            |c| {
                hits += usize::from(!c.sensor);
            },
        );
        // The flipper keeps turning: advance its pose for the next step.
        let m = &mut moving[0];
        if let ObstacleShape::Segment(s) = m.obstacle.shape {
            m.obstacle.shape = ObstacleShape::Segment(m.motion.segment_at(s, 1.0));
        }
    }
    assert!(hits >= 1);
    let speed = balls[0].velocity.length();
    assert!((speed / (1.5 * omega * l) - 1.0).abs() < 0.05, "speed {speed}");
}

/// What [`pour_pile`] saw.
struct Pile {
    balls: Vec<Ball>,
    /// Positions one simulated second before the end.
    second_before_end: Vec<Vec2>,
    /// The largest `energy − (start energy + gravity's work)` seen after any step, beyond
    /// what the f32 heights can show, relative.
    worst_energy_excess: f64,
    budget_hit: bool,
}

/// 100 balls (radius 4, e = 0.3, μ = 0.2) poured into a 90° V funnel (μ = 0.2) under
/// gravity at 240 Hz for `steps` steps.
fn pour_pile(steps: usize) -> Pile {
    let g = v(0.0, -981.0);
    let dt = 1.0 / 240.0;
    // The funnel is as rough as the balls (μ = 0.2; restitution 1, so the ball's 0.3
    // rules). Friction combines by the geometric mean, `sqrt(μ_ball·μ_wall)`, so with a
    // frictionless funnel the wall contacts would have none and the pile would slide along
    // the walls.
    let funnel = Material::new(1.0, 0.2);
    let walls = vec![
        wall(v(-100.0, 100.0), v(0.0, 0.0)).with_material(funnel),
        wall(v(0.0, 0.0), v(100.0, 100.0)).with_material(funnel),
    ];
    let mut balls: Vec<Ball> = (0..100)
        .map(|k| {
            let (col, row) = (k % 10, k / 10);
            let center = v(
                -40.0 + col as f32 * 8.5 + (row % 2) as f32 * 2.0,
                60.0 + row as f32 * 8.5,
            );
            let mut b = Ball::new(center, Vec2::ZERO, 4.0);
            b.material = Material::new(0.3, 0.2);
            b
        })
        .collect();
    let settings = MultiballSettings {
        resting_speed: 2.0 * 981.0 * dt,
        gravity: g,
        ..Default::default()
    };
    let mass = |b: &Ball| 1.0 / b.inverse_mass as f64;
    let energy = |bs: &[Ball]| {
        bs.iter()
            .map(|b| 0.5 * mass(b) * b.velocity.as_dvec2().length_squared())
            .sum::<f64>()
    };
    let height = |bs: &[Ball]| bs.iter().map(|b| mass(b) * b.center.y as f64).sum::<f64>();
    let (e0, h0) = (energy(&balls), height(&balls));
    let start_heights: Vec<f64> = balls.iter().map(|b| f64::from(b.center.y)).collect();
    let mut scratch = MultiballScratch::default();
    let mut pile = Pile {
        balls: Vec::new(),
        second_before_end: Vec::new(),
        worst_energy_excess: f64::NEG_INFINITY,
        budget_hit: false,
    };
    for step in 0..steps {
        if step + 240 == steps {
            pile.second_before_end = balls.iter().map(|b| b.center).collect();
        }
        let report = step_balls(
            MultiballStep::new(&mut balls, dt, &walls),
            &settings,
            &mut scratch,
            |_| {},
        );
        pile.budget_hit |= report.event_budget_hit;
        let allowed = e0 + (h0 - height(&balls)) * 981.0;
        // Gravity's work is read from f32 heights, each off by up to half an ulp, at the start
        // and now: after the first step, when every ball has fallen only ½·g·dt² = 0.0085,
        // that is 1e-4 of the work (the steps themselves are exact there).
        let half_ulp = 0.5 * f64::from(f32::EPSILON);
        let rounding: f64 = balls
            .iter()
            .zip(&start_heights)
            .map(|(b, y0)| mass(b) * 981.0 * half_ulp * (f64::from(b.center.y.abs()) + y0.abs()))
            .sum();
        let excess = (energy(&balls) - allowed - rounding) / (e0 + allowed.abs() + 1.0);
        pile.worst_energy_excess = pile.worst_energy_excess.max(excess);
        assert!(
            balls
                .iter()
                .all(|b| b.center.is_finite() && b.velocity.is_finite())
        );
    }
    pile.balls = balls;
    pile
}

#[test]
fn pile_in_a_funnel_settles_without_gaining_energy() {
    // Kinetic energy must never exceed its start plus the work gravity has done
    // (Σ m·g·drop); at the end the pile is still, the balls do not sink into each other and
    // none fell through the funnel. 7,200 steps are 30 s: a pile of frictional discs has
    // avalanches for several seconds after the pour, and the test is about where it ends.
    // When the last one comes moves with the f32 roundings of its contacts: with the
    // resting solve's normals on faces from the face (not the rounded closest point), a
    // ball moved 0.6 in the 20th second, 1.4 in the 24th and 0.4 in the 26th, and less
    // than 0.03 in the 28th, 30th, 32nd and 36th (before: 0.3 in the 20th, less than 0.1
    // in the 24th and the 30th).
    let pile = pour_pile(7200);
    assert!(!pile.budget_hit, "the event budget ran out");
    assert!(
        pile.worst_energy_excess <= 1e-6,
        "energy gain {}",
        pile.worst_energy_excess
    );
    let balls = &pile.balls;
    // Still: no ball faster than two steps of gravity (g·dt = 4.1 units/s).
    let fastest = balls.iter().map(|b| b.velocity.length()).fold(0.0, f32::max);
    assert!(fastest < 2.0 * 981.0 / 240.0, "fastest {fastest}");
    // No creep: over the last second no ball moved an eighth of its radius.
    let drift = balls
        .iter()
        .zip(&pile.second_before_end)
        .map(|(b, p)| (b.center - *p).length())
        .fold(0.0, f32::max);
    assert!(drift < 0.5, "drift {drift} in the last second");
    // No two balls sink into each other by more than a hair (1% of the radius).
    let mut deepest = 0.0_f32;
    for (k, a) in balls.iter().enumerate() {
        for b in &balls[k + 1..] {
            deepest = deepest.max(a.radius + b.radius - (a.center - b.center).length());
        }
    }
    assert!(deepest < 0.04, "overlap {deepest}");
    // Nothing fell through the funnel.
    for b in balls {
        assert!(
            b.center.y >= b.center.x.abs() - 1e-2,
            "{:?} below the funnel",
            b.center
        );
    }
}

#[test]
fn two_runs_are_bit_identical() {
    // The same input gives the same bits: no hash order, no threads, no clocks.
    let (a, b) = (pour_pile(480), pour_pile(480));
    for (x, y) in a.balls.iter().zip(&b.balls) {
        assert_eq!(
            x.center.to_array().map(f32::to_bits),
            y.center.to_array().map(f32::to_bits)
        );
        assert_eq!(
            x.velocity.to_array().map(f32::to_bits),
            y.velocity.to_array().map(f32::to_bits)
        );
    }
}

#[test]
fn dense_gas_never_runs_out_of_events() {
    // 10,000 balls (radius 4, e = 1) at 500–4,000 units/s in a closed square of side 1,772
    // (the pit benchmark's density: 16% of the area covered), 120 Hz. A contact the pair
    // sweep called closing but the impulse did not (their normals differing in the last
    // bit) used to be resolved to nothing and found again at the same instant until the
    // event budget (10,000 · DEFAULT_EVENTS_PER_BALL + MIN_EVENT_BUDGET events) ran out;
    // a scene like this one hit it (drawn then from a hand-written xorshift, now from
    // `rand`, so not the same balls). Each of its 12 steps must now stay within the
    // budget, with fewer events than twice its contacts plus MIN_EVENT_BUDGET.
    let mut rng = StdRng::seed_from_u64(DENSE_GAS_SEED);
    let h = 886.0;
    let walls = closed_box(h);
    let cell = 16.0;
    let mut buckets: std::collections::HashMap<(i32, i32), Vec<Vec2>> = Default::default();
    let mut balls: Vec<Ball> = Vec::new();
    while balls.len() < 10_000 {
        let p = v(
            rng.random_range(-(h - 5.0)..h - 5.0),
            rng.random_range(-(h - 5.0)..h - 5.0),
        );
        let k = ((p.x / cell).floor() as i32, (p.y / cell).floor() as i32);
        let crowded = (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                buckets
                    .get(&(k.0 + dx, k.1 + dy))
                    .is_some_and(|near| near.iter().any(|q| (p - *q).length() <= 8.5))
            })
        });
        if crowded {
            continue;
        }
        buckets.entry(k).or_default().push(p);
        let (angle, speed) = (
            rng.random_range(0.0..std::f32::consts::TAU),
            rng.random_range(500.0..4000.0),
        );
        balls.push(Ball::new(p, Vec2::from_angle(angle) * speed, 4.0));
    }
    let mut scratch = MultiballScratch::default();
    for step in 0..12 {
        let report = step_balls(
            MultiballStep::new(&mut balls, 1.0 / 120.0, &walls),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        assert!(!report.event_budget_hit, "step {step}: {report:?}");
        // Events beyond contacts are re-forecasts after a partner changed course: a
        // fraction of the contacts, never hundreds of times more.
        assert!(
            report.events < 2 * report.bounces + MIN_EVENT_BUDGET,
            "step {step}: {report:?}"
        );
    }
}

#[test]
fn the_first_contact_is_the_earliest_of_all_pairs() {
    // 400 balls on a jittered grid (spacing 3, radius 1), up to 40 units/s, one 0.1 s
    // step, no walls: nearly every ball meets another, so the step's first forecasts go pair
    // by pair. The first contact resolved must be the earliest of all 79,800 pairs, each
    // swept on its own (a brute-force reference), with the same two balls.
    let mut rng = StdRng::seed_from_u64(EARLIEST_PAIR_SEED);
    let mut rnd = move || rng.random_range(-0.5..0.5);
    let (dt, r) = (0.1, 1.0);
    let mut balls: Vec<Ball> = (0..400)
        .map(|k| {
            let p = v(
                (k % 20) as f32 * 3.0 + 0.8 * rnd(),
                (k / 20) as f32 * 3.0 + 0.8 * rnd(),
            );
            Ball::new(p, v(80.0 * rnd(), 80.0 * rnd()), r)
        })
        .collect();
    let mut earliest = (f32::INFINITY, (0, 0));
    for i in 0..balls.len() {
        for j in i + 1..balls.len() {
            let (a, b) = (balls[i], balls[j]);
            if let Some(hit) =
                crate::sweep_circle_moving_circle(a.circle(), a.velocity * dt, b.circle(), b.velocity * dt)
                && hit.toi * dt < earliest.0
            {
                earliest = (hit.toi * dt, (i, j));
            }
        }
    }
    let none: [Obstacle; 0] = [];
    let mut scratch = MultiballScratch::default();
    let mut first = (f32::INFINITY, (0, 0));
    let report = step_balls(
        MultiballStep::new(&mut balls, dt, &none),
        &MultiballSettings::default(),
        &mut scratch,
        |c| {
            if let ContactWith::Ball(other) = c.with
                && c.time < first.0
            {
                first = (c.time, (c.ball.min(other), c.ball.max(other)));
            }
        },
    );
    assert!(
        report.event_balls >= 200,
        "pair by pair needs most balls in the machinery"
    );
    assert_eq!(first.1, earliest.1);
    assert!(
        (first.0 - earliest.0).abs() < 1e-6,
        "{} against {}",
        first.0,
        earliest.0
    );
}
