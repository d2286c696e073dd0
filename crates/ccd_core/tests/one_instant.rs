//! The contacts of one instant are one solve (issue 50): balls, walls and hinged bodies
//! as rows of one problem, with Poisson restitution and one `e` for the whole contact, the
//! least of the rows struck; rows only touching take part and do not lower it. Each case
//! is run through `step_balls` and checked against figures worked by hand.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, CombineRule, Contact, ContactWith, HingeBody, Material, MovingObstacle, MultiballScratch,
    MultiballSettings, MultiballStep, Obstacle, Segment, SegmentMotion, TOUCH_SLOP_REL, Vec2, step_balls,
};

/// Speeds, units/s; the step, s.
const V: f32 = 10.0;
const DT: f32 = 1.0;

/// The precision the issue asks of these figures.
const CLOSE: f32 = 1e-6;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Restitution `e` for every pair of sides (the least of the two, so equal sides give `e`).
fn material(e: f32) -> Material {
    Material::new(e, 0.0).with_rules(CombineRule::Min, CombineRule::Min)
}

fn ball(center: Vec2, velocity: Vec2, e: f32) -> Ball {
    Ball {
        material: material(e),
        ..Ball::new(center, velocity, 1.0)
    }
}

/// A wall at `x`, facing −x, long enough for every ball here.
fn wall_at(x: f32, e: f32) -> Obstacle {
    Obstacle::segment(Segment::new(v(x, -50.0), v(x, 50.0))).with_material(material(e))
}

/// One step of `DT`; returns the contacts reported.
fn step(balls: &mut [Ball], walls: &[Obstacle], moving: &mut [MovingObstacle]) -> Vec<Contact> {
    let settings = MultiballSettings::default();
    let mut contacts = Vec::new();
    step_balls(
        MultiballStep::new(balls, DT, walls).with_moving(moving),
        &settings,
        &mut MultiballScratch::default(),
        |c| contacts.push(*c),
    );
    contacts
}

#[test]
fn a_struck_row_against_a_wall_stays_at_rest_and_the_striker_leaves_at_minus_e_v() {
    // Three equal balls of radius 1 at rest at x = 0, 2, 4 (touching), the last touching a
    // wall at x = 5; a fourth at x = −5 strikes the first at V at t = 0.3 s. One contact
    // of four rows: the compression impulses are m·V on all four (the row is pushed into
    // the wall, which holds it), each applies (1 + e)·m·V, so the striker leaves at −e·V
    // and the row stays at rest. The striker ends at −2 − 0.7·e·V.
    for e in [1.0, 0.5] {
        let mut balls = [
            ball(v(-5.0, 0.0), v(V, 0.0), e),
            ball(v(0.0, 0.0), Vec2::ZERO, e),
            ball(v(2.0, 0.0), Vec2::ZERO, e),
            ball(v(4.0, 0.0), Vec2::ZERO, e),
        ];
        step(&mut balls, &[wall_at(5.0, e)], &mut []);
        assert!(
            (balls[0].velocity - v(-e * V, 0.0)).length() <= CLOSE * V,
            "e = {e}: striker {}",
            balls[0].velocity
        );
        for b in &balls[1..] {
            assert!(b.velocity.length() <= CLOSE * V, "e = {e}: {}", b.velocity);
        }
        let end = -2.0 - 0.7 * e * V;
        assert!(
            (balls[0].center.x - end).abs() <= 1e-4,
            "e = {e}: {}",
            balls[0].center
        );
    }
}

#[test]
fn a_row_moving_into_a_wall_leaves_as_one_at_minus_e_v() {
    // Three touching balls at x = 0, 2, 4 move at V into a wall at x = 8: the last meets
    // it at t = 0.3 s, touching the second, which touches the first. One contact: the
    // compression impulses are m·V, 2m·V and 3m·V (the last on the wall), each applied
    // (1 + e) times, and all three leave at −e·V, still touching.
    for e in [1.0, 0.5] {
        let mut balls = [
            ball(v(0.0, 0.0), v(V, 0.0), e),
            ball(v(2.0, 0.0), v(V, 0.0), e),
            ball(v(4.0, 0.0), v(V, 0.0), e),
        ];
        step(&mut balls, &[wall_at(8.0, e)], &mut []);
        for (k, b) in balls.iter().enumerate() {
            assert!(
                (b.velocity - v(-e * V, 0.0)).length() <= CLOSE * V,
                "e = {e}, ball {k}: {}",
                b.velocity
            );
            // At 0.3 s it was at 2k + 3; then 0.7 s at −e·V.
            let end = 2.0 * k as f32 + 3.0 - 0.7 * e * V;
            assert!(
                (b.center.x - end).abs() <= 1e-4,
                "e = {e}, ball {k}: {}",
                b.center
            );
        }
    }
}

#[test]
fn a_free_row_of_touching_balls_struck_at_v_is_one_contact() {
    // A striker meets the first of three touching balls at rest, e = 1, no wall: one
    // contact with one e. Compression brings all four to V/4 (impulses 3/4, 2/4 and 1/4
    // of m·V), twice that applied: (−V/2, V/2, V/2, V/2). Momentum m·V and energy ½m·V²
    // are kept. (With gaps the impact passes ball by ball: `a_cradle_with_gaps_...`.)
    let mut balls = [
        ball(v(-5.0, 0.0), v(V, 0.0), 1.0),
        ball(v(0.0, 0.0), Vec2::ZERO, 1.0),
        ball(v(2.0, 0.0), Vec2::ZERO, 1.0),
        ball(v(4.0, 0.0), Vec2::ZERO, 1.0),
    ];
    step(&mut balls, &[], &mut []);
    let expected = [-0.5 * V, 0.5 * V, 0.5 * V, 0.5 * V];
    for (b, x) in balls.iter().zip(expected) {
        assert!((b.velocity - v(x, 0.0)).length() <= CLOSE * V, "{}", b.velocity);
    }
}

#[test]
fn a_cradle_with_gaps_passes_the_impact_ball_by_ball() {
    // Gaps of 0.01 (far beyond the touch slop): each contact is its own instant, and the
    // elastic pairs hand the whole velocity on; the far ball leaves at V, the rest stop.
    let mut balls = [
        ball(v(-5.0, 0.0), v(V, 0.0), 1.0),
        ball(v(0.0, 0.0), Vec2::ZERO, 1.0),
        ball(v(2.01, 0.0), Vec2::ZERO, 1.0),
        ball(v(4.02, 0.0), Vec2::ZERO, 1.0),
    ];
    let contacts = step(&mut balls, &[], &mut []);
    assert_eq!(contacts.len(), 3);
    for b in &balls[..3] {
        assert!(b.velocity.length() <= CLOSE * V, "{}", b.velocity);
    }
    assert!((balls[3].velocity - v(V, 0.0)).length() <= CLOSE * V);
}

#[test]
fn a_ball_between_a_floor_and_a_hinged_gate_keeps_the_energy() {
    // A ball of radius 1 (mass π) rolls along a floor (y = 0, centre at y = 1, touching
    // it) at V into a free gate slanting from a pivot at (6, 10) down to (8, 0.5). The
    // gate's normal on the ball's side, n = (−9.5, −2)/|(−9.5, −2)|, presses the ball into
    // the floor, so the floor and the gate push at the same instant: one contact. At e = 1
    // the kinetic energy ½m|v|² + ½I·ω² is kept; and as the floor pushes only along y, the
    // gate's impulse J·n on the ball has J = m·Δvx / n.x, so the gate takes −J·n at the
    // contact point, and its change of angular momentum I·Δω is arm × (−J·n) about the
    // pivot.
    let inertia = 2_000.0_f32;
    let pivot = v(6.0, 10.0);
    let gate = Obstacle::segment(Segment::new(pivot, v(8.0, 0.5))).with_material(material(1.0));
    let motion = SegmentMotion {
        pivot,
        angle: 0.0,
        pivot_motion: Vec2::ZERO,
    };
    let mut moving = [MovingObstacle::new(gate, motion).with_hinge(HingeBody::new(0, inertia, 0.0))];
    // The floor from (−8, 0) to (24, 0): the point under the ball, a fraction of a length
    // of 32, is exact in f32, so the floor's normal is exactly +y.
    let floor = Obstacle::segment(Segment::new(v(-8.0, 0.0), v(24.0, 0.0))).with_material(material(1.0));
    let start = ball(v(0.0, 1.0), v(V, 0.0), 1.0);
    let mass = 1.0 / start.inverse_mass;
    let mut balls = [start];
    let contacts = step(&mut balls, &[floor], &mut moving);
    let spin = moving[0].angular_velocity(DT);
    let after = balls[0].velocity;
    let energy = |u: Vec2, w: f32| 0.5 * mass * u.length_squared() + 0.5 * inertia * w * w;
    let before = energy(start.velocity, 0.0);
    assert!(
        (energy(after, spin) - before).abs() <= CLOSE * before,
        "energy {} → {} (ball {after}, gate {spin})",
        before,
        energy(after, spin)
    );
    let gate_contact = contacts
        .iter()
        .find(|c| c.with == ContactWith::Moving(0))
        .unwrap();
    let n = v(-9.5, -2.0).normalize();
    assert!(
        (gate_contact.hit.normal - n).length() <= 1e-6,
        "{}",
        gate_contact.hit.normal
    );
    let impulse = n * (mass * (after.x - start.velocity.x) / n.x);
    let moment = (gate_contact.hit.point - pivot).perp_dot(-impulse);
    assert!(
        (inertia * spin - moment).abs() <= CLOSE * moment.abs(),
        "I·Δω = {}, moment {moment}",
        inertia * spin
    );
    // The gate was struck: it turned, and the ball came back; the floor held it, so it
    // leaves the floor no faster than the separation bias of a contact that takes no
    // bounce (1e-5 of its speed).
    assert!(spin != 0.0 && after.x < 0.0, "ball {after}, gate {spin}");
    assert!(
        after.y >= 0.0 && after.y <= 1e-5 * after.length() * 1.01,
        "ball {after}"
    );
}

#[test]
fn two_touching_balls_striking_a_free_gate_keep_energy_and_angular_momentum() {
    // Two touching balls of radius 1 at (−3, 2) and (−1, 2) move at V into a free gate
    // hanging from (1, 10) to (1, −10); the front one meets it at t = 0.1 s, touching the
    // other: one contact of three rows (the pair and the gate). No wall takes part, and
    // the pivot's reaction passes through the pivot, so at e = 1 the kinetic energy and
    // the angular momentum about the pivot, Σ m·(c − p) × v + I·ω, are both kept.
    let inertia = 500.0_f32;
    let pivot = v(1.0, 10.0);
    let gate = Obstacle::segment(Segment::new(pivot, v(1.0, -10.0))).with_material(material(1.0));
    let motion = SegmentMotion {
        pivot,
        angle: 0.0,
        pivot_motion: Vec2::ZERO,
    };
    let mut moving = [MovingObstacle::new(gate, motion).with_hinge(HingeBody::new(0, inertia, 0.0))];
    let start = [
        ball(v(-3.0, 2.0), v(V, 0.0), 1.0),
        ball(v(-1.0, 2.0), v(V, 0.0), 1.0),
    ];
    let mass = 1.0 / start[0].inverse_mass;
    let mut balls = start;
    let contacts = step(&mut balls, &[], &mut moving);
    let spin = moving[0].angular_velocity(DT);
    let energy = |b: &[Ball], w: f32| {
        b.iter()
            .map(|b| 0.5 * mass * b.velocity.length_squared())
            .sum::<f32>()
            + 0.5 * inertia * w * w
    };
    // Angular momentum about the pivot; the balls' centres at the end of the step, where
    // they fly straight (the moment of a straight path about a point is constant).
    let momentum = |b: &[Ball], w: f32| {
        b.iter()
            .map(|b| mass * (b.center - pivot).perp_dot(b.velocity))
            .sum::<f32>()
            + inertia * w
    };
    let (e0, l0) = (energy(&start, 0.0), momentum(&start, 0.0));
    assert!(contacts.iter().any(|c| c.with == ContactWith::Moving(0)));
    assert!(spin != 0.0, "the gate turned");
    assert!(
        (energy(&balls, spin) - e0).abs() <= CLOSE * e0,
        "energy {e0} → {}",
        energy(&balls, spin)
    );
    assert!(
        (momentum(&balls, spin) - l0).abs() <= CLOSE * l0.abs(),
        "angular momentum {l0} → {}",
        momentum(&balls, spin)
    );
}

#[test]
fn a_wall_left_before_the_contact_and_struck_in_it_bounces_elastically() {
    // Ball A (radius 1) touches a wall along x = −1 and leaves it at 1e-6; ball B strikes
    // it at 100 from above and to the right, so the pair's impulse drives A into the wall.
    // The wall is a row of the contact that leaves before the solve and is struck in a
    // later round: at e = 1 it bounces elastically (as A would meeting it an instant
    // later), so the kinetic energy is kept; a resting contact's e = 0 there would take
    // part of it away.
    let mut balls = [
        ball(v(0.0, 0.0), v(1e-6, 0.0), 1.0),
        ball(v(2.0, 3.0_f32.sqrt()), v(-100.0, 0.0), 1.0),
    ];
    let mass = 1.0 / balls[0].inverse_mass;
    let energy = |b: &[Ball]| {
        b.iter()
            .map(|b| 0.5 * mass * b.velocity.length_squared())
            .sum::<f32>()
    };
    let before = energy(&balls);
    let contacts = step(&mut balls, &[wall_at(-1.0, 1.0)], &mut []);
    assert!(
        contacts
            .iter()
            .any(|c| c.with == ContactWith::Ball(1) || c.with == ContactWith::Ball(0))
    );
    assert!(
        contacts
            .iter()
            .any(|c| matches!(c.with, ContactWith::Obstacle(_))),
        "A was driven into the wall: {contacts:?}"
    );
    assert!(
        (energy(&balls) - before).abs() <= CLOSE * before,
        "energy {before} → {}",
        energy(&balls)
    );
}

#[test]
fn more_simultaneous_pairs_than_one_contact_holds_all_bounce() {
    // 40 head-on pairs, far apart, all meeting at t = 0.25 s: 80 balls, more than one
    // contact of one instant holds (`MAX_INSTANT_BALLS`). The batch is split into contacts
    // that fit, at the same instant: every pair exchanges its velocities (equal masses,
    // e = 1), none passes through the other, and nothing runs out of events.
    let mut balls = Vec::new();
    for k in 0..40 {
        let y = 10.0 * k as f32;
        balls.push(ball(v(-3.5, y), v(V, 0.0), 1.0));
        balls.push(ball(v(3.5, y), v(-V, 0.0), 1.0));
    }
    let settings = MultiballSettings::default();
    let mut contacts = 0;
    let report = step_balls(
        MultiballStep::new(&mut balls, DT, &[]),
        &settings,
        &mut MultiballScratch::default(),
        |_| contacts += 1,
    );
    assert!(!report.event_budget_hit);
    assert_eq!(contacts, 40);
    assert!(report.instant_caps > 0, "the batch was split");
    for pair in balls.chunks(2) {
        assert!(
            (pair[0].velocity - v(-V, 0.0)).length() <= CLOSE * V,
            "{}",
            pair[0].velocity
        );
        assert!(
            (pair[1].velocity - v(V, 0.0)).length() <= CLOSE * V,
            "{}",
            pair[1].velocity
        );
        // Met at x = ∓1 at 0.25 s, then 0.75 s back out: x = ∓8.5.
        assert!((pair[0].center.x + 8.5).abs() <= 1e-4, "{}", pair[0].center);
        assert!((pair[1].center.x - 8.5).abs() <= 1e-4, "{}", pair[1].center);
    }
}

/// Gravity in the cases under gravity below, units/s², downwards.
const G: f32 = 10.0;

/// The bound on the relative change of energy of the cases under gravity below, at `rate`:
/// 1e-6 up to 120 Hz; 1e-5 at 1 kHz, where the f32 state rounded at each step's end adds
/// up over 3,000 steps (a ball bouncing on the floor alone drifts 8e-6 in 3 s).
fn energy_bound(rate: f32) -> f64 {
    if rate > 120.0 { 1e-5 } else { 1e-6 }
}

/// What [`drop_on`] found: the largest change of the balls' kinetic plus potential energy
/// over the steps, relative; the ball–ball contacts reported; the least distance of their
/// centres at a step's end.
struct Dropped {
    energy: f64,
    pairs: u32,
    closest: f32,
}

/// Balls `falling` and `resting`, both of radius 1 and e = 1, stepped at `rate` for `secs`
/// under gravity on `walls` (frictionless, e = 1); energy zero at the resting ball's foot.
fn drop_on(walls: &[Obstacle], falling: Vec2, resting: Vec2, rate: f32, secs: f32) -> Dropped {
    let settings = MultiballSettings {
        gravity: v(0.0, -G),
        ..MultiballSettings::default()
    };
    let mut balls = [ball(resting, Vec2::ZERO, 1.0), ball(falling, Vec2::ZERO, 1.0)];
    let energy = |balls: &[Ball]| -> f64 {
        let floor = resting.y - 1.0;
        balls
            .iter()
            .map(|b| {
                0.5 * f64::from(b.velocity.length_squared()) + f64::from(G) * f64::from(b.center.y - floor)
            })
            .sum()
    };
    let start = energy(&balls);
    let mut scratch = MultiballScratch::default();
    let mut out = Dropped {
        energy: 0.0,
        pairs: 0,
        closest: f32::INFINITY,
    };
    for _ in 0..(secs * rate).round() as usize {
        step_balls(
            MultiballStep::new(&mut balls, 1.0 / rate, walls),
            &settings,
            &mut scratch,
            |c| {
                out.pairs += u32::from(matches!(c.with, ContactWith::Ball(_)));
            },
        );
        out.energy = out.energy.max((energy(&balls) / start - 1.0).abs());
        out.closest = out.closest.min(balls[0].center.distance(balls[1].center));
    }
    out
}

#[test]
fn a_ball_dropped_onto_a_resting_ball_leaves_it_as_fast_as_it_came_under_gravity() {
    // A ball at rest on a floor, another let go 0.5 above it (g = 10, e = 1, no friction).
    // The impact is the cradle's: the dropped ball leaves at the speed it came, √(2·g·0.5)
    // = 3.162, and flies up its parabola to where it was let go; the resting ball stays.
    // The rest of the step's gravity acts on each after the impact, not before it: taken
    // first, it was struck back too, 2·g·τ faster (τ the rest of the step), and each
    // bounce gained 2·u·g·τ of energy. And the dropped ball never passes into the resting
    // one (before, it did by 0.056 at 30 Hz: the resting ball, at rest after its floor
    // contact, was the one to look for it, and a ball at rest looked for nothing).
    let floor = [Obstacle::segment(Segment::new(v(-20.0, 0.0), v(20.0, 0.0))).with_material(material(1.0))];
    for rate in [30.0, 60.0, 120.0, 1000.0] {
        let d = drop_on(&floor, v(0.0, 3.5), v(0.0, 1.0), rate, 3.0);
        println!(
            "{rate} Hz: a ball bouncing on a resting one, {} impacts, energy within {:.1e}, centres at least {} apart",
            d.pairs, d.energy, d.closest
        );
        // Up and down in 2·√(2·0.5/g) = 0.63 s: 4 impacts in 3 s.
        assert!(d.pairs >= 4, "{rate} Hz: it bounced {} times", d.pairs);
        assert!(
            d.energy < energy_bound(rate),
            "{rate} Hz: energy off by {:.1e}",
            d.energy
        );
        assert!(
            d.closest >= 2.0 * (1.0 - 1e-4),
            "{rate} Hz: the balls overlap: {}",
            d.closest
        );
    }
}

#[test]
fn a_ball_dropped_onto_a_ball_sliding_down_a_slope_keeps_the_energy() {
    // A ball sliding from rest down a frictionless 14° slope, another let go 0.5 above it
    // (g = 10, e = 1): the impact is one contact of the two balls and the slope, whose
    // energy it keeps. Before, the sliding ball took the rest of the step's gravity first,
    // the slope struck that back (e = 1) through it into the dropped ball: 6% of the
    // impact's energy gained. And the sliding ball, leaving the slope at its separation
    // bias (1e-5 of its speed), was taken as leaving it: struck into the slope, it
    // bounced off it after the impact, off the slope at 0.5 u/s.
    let (a, b) = (v(-20.0, 5.0), v(20.0, -5.0));
    let slope = [Obstacle::segment(Segment::new(a, b)).with_material(material(1.0))];
    let normal = (b - a).perp().normalize();
    let resting = normal * 1.0;
    for rate in [30.0, 60.0, 120.0, 1000.0] {
        let d = drop_on(&slope, resting + v(0.0, 2.5), resting, rate, 1.0);
        println!(
            "{rate} Hz: a ball struck sliding down a slope, {} impacts, energy within {:.1e}",
            d.pairs, d.energy
        );
        assert!(d.pairs >= 1, "{rate} Hz: they met {} times", d.pairs);
        assert!(
            d.energy < energy_bound(rate),
            "{rate} Hz: energy off by {:.1e}",
            d.energy
        );
    }
}

/// Friction of the balls and the slope of [`on_rough_slope`].
const SLOPE_MU: f32 = 0.1;

/// What [`on_rough_slope`] found over its steps, relative to the start's energy: the most
/// the balls' kinetic plus potential energy and the work friction did on their slides
/// (`μ·g·cos 14°` times each one's distance down the slope) differed from the start's;
/// the most their energy alone rose; how far each got off the slope at most (less its
/// radius); the ball–ball contacts.
struct RoughRun {
    with_work: f64,
    rise: f64,
    off: [f32; 2],
    pairs: u32,
    /// How far each ball had slid down the slope from its start at each step's end.
    slid: Vec<[f64; 2]>,
}

/// Two balls of radius 1 from `starts` at `velocities` by the 14° slope from (−20, 5) to
/// (20, −5), balls and slope of friction [`SLOPE_MU`] and e = 1, under g = 10 at no
/// resting speed, stepped at `rate` for 2 s.
fn on_rough_slope(starts: [Vec2; 2], velocities: [Vec2; 2], rate: f32) -> RoughRun {
    let rough = Material::new(1.0, SLOPE_MU).with_rules(CombineRule::Min, CombineRule::Min);
    let slope = Segment::new(v(-20.0, 5.0), v(20.0, -5.0));
    let walls = [Obstacle::segment(slope).with_material(rough)];
    let down = (slope.b - slope.a).normalize();
    let settings = MultiballSettings {
        gravity: v(0.0, -G),
        ..MultiballSettings::default()
    };
    let g = f64::from(G);
    let energy = |balls: &[Ball]| -> f64 {
        balls
            .iter()
            .map(|b| 0.5 * f64::from(b.velocity.length_squared()) + g * f64::from(b.center.y))
            .sum()
    };
    let mut balls = [0, 1].map(|k| Ball {
        material: rough,
        ..Ball::new(starts[k], velocities[k], 1.0)
    });
    let start = energy(&balls);
    let mut scratch = MultiballScratch::default();
    let mut run = RoughRun {
        with_work: 0.0,
        rise: f64::NEG_INFINITY,
        off: [0.0; 2],
        pairs: 0,
        slid: Vec::new(),
    };
    for _ in 0..(2.0 * rate) as usize {
        step_balls(
            MultiballStep::new(&mut balls, 1.0 / rate, &walls),
            &settings,
            &mut scratch,
            |c| run.pairs += u32::from(matches!(c.with, ContactWith::Ball(_))),
        );
        let each = [0, 1].map(|k| f64::from((balls[k].center - starts[k]).dot(down)));
        run.slid.push(each);
        let work = f64::from(SLOPE_MU) * g * f64::from(down.x) * (each[0] + each[1]);
        let now = energy(&balls);
        run.with_work = run.with_work.max(((now + work) / start - 1.0).abs());
        run.rise = run.rise.max(now / start - 1.0);
        for (off, ball) in run.off.iter_mut().zip(&balls) {
            *off = off.max(slope.closest_point(ball.center).distance(ball.center) - 1.0);
        }
    }
    run
}

#[test]
fn a_ball_sliding_into_another_down_a_rough_slope_leaves_both_sliding() {
    // One ball let go at rest on the slope (tan 14° = 0.25 > μ = 0.1), another 5 up it
    // sliding down at 3 u/s. Both slide down at g·(sin 14° − μ·cos 14°) and meet head-on
    // along the slope after 1 s: they trade speeds and slide on. Never off the slope by
    // more than the touch slop, and their kinetic plus potential energy plus what friction
    // took stays the start's: within 2e-5 of it (the event machinery's rough slide is
    // within 3e-6 of its closed form, and at 1 kHz the f32 rounding of 2,000 steps' ends
    // adds up, as for the slides of `slide_friction.rs`). (A ball that came to rest on
    // the slope in the impact took the rest of the step's gravity into it, met it again
    // at once and bounced off it: 1.6e-2 off the slope and 1.3e-2 of the energy at
    // 30 Hz.)
    let slope = v(20.0, -5.0) - v(-20.0, 5.0);
    let (down, normal) = (slope.normalize(), slope.perp().normalize());
    for rate in [30.0, 60.0, 120.0, 1000.0] {
        let run = on_rough_slope([normal, normal - down * 5.0], [Vec2::ZERO, down * 3.0], rate);
        let (worst, off) = (run.with_work, run.off[0].max(run.off[1]));
        println!(
            "{rate} Hz: two balls meeting down a rough slope, {} impacts, energy and friction's work within {worst:.1e}, off the slope at most {off:.1e}",
            run.pairs
        );
        assert_eq!(run.pairs, 1, "{rate} Hz: they met {} times", run.pairs);
        assert!(
            worst < 2e-5,
            "{rate} Hz: energy and friction's work off by {worst:.1e}"
        );
        assert!(off <= TOUCH_SLOP_REL, "{rate} Hz: {off} off the slope");
    }
}

/// How far a ball slides down the slope of [`on_rough_slope`] in `t` from `v0` (down the
/// slope positive), and its velocity then: down at `g·(sin θ − μ·cos θ)`; up, slowing at
/// `g·(sin θ + μ·cos θ)` until it stops, then down from rest (tan θ = 0.25 > μ).
fn slid_down(v0: f64, t: f64) -> (f64, f64) {
    let (sin, cos) = (0.25 / 1.0625_f64.sqrt(), 1.0 / 1.0625_f64.sqrt());
    let (g, mu) = (f64::from(G), f64::from(SLOPE_MU));
    let (down, up) = (g * (sin - mu * cos), g * (sin + mu * cos));
    if v0 >= 0.0 {
        return (v0 * t + 0.5 * down * t * t, v0 + down * t);
    }
    let stops = -v0 / up;
    if t <= stops {
        return (v0 * t + 0.5 * up * t * t, v0 + up * t);
    }
    let after = t - stops;
    (
        v0 * stops + 0.5 * up * stops * stops + 0.5 * down * after * after,
        down * after,
    )
}

#[test]
fn balls_meeting_head_on_on_a_rough_slope_slide_on_as_the_closed_form_says() {
    // One ball let go at rest on the slope, another 5 up it sliding down at 2.9 u/s, or 5
    // down it sliding up at 4 u/s ([`slid_down`]). They meet head-on along the slope
    // within a step at every rate (at 1.0345 s and 0.9856 s, where their gap is 2); at
    // e = 1 they trade velocities (no friction between them: they do not slide across
    // each other) and slide on, friction against each one's new motion: the one sent up
    // the slope slows, stops and slides back down. At every step's end each is where
    // that puts it. (A ball struck sliding on a rough face settled: it took the rest of
    // the step's gravity at once, friction's take none of it, and moved straight; the
    // speed it gained too much held after: 7.7e-4 off at 30 Hz. Sliding on with its old
    // pull, friction helped the one sent up the slope: 2.8e-2 off.) Within 3e-5 up to
    // 120 Hz (the event machinery's rough slide, within 3e-6 of its distance), 1e-4 at
    // 1 kHz (the f32 rounding of 2,000 steps' ends).
    let slope = v(20.0, -5.0) - v(-20.0, 5.0);
    let (down, normal) = (slope.normalize(), slope.perp().normalize());
    for (name, from, u) in [
        ("down onto a sliding ball", -5.0, 2.9_f64),
        ("up into a sliding ball", 5.0, -4.0),
    ] {
        let other = normal + down * from as f32;
        // Where their gap, `|from + s₂ − s₁|`, closes to 2 (by bisection).
        let gap = |t: f64| (from + slid_down(u, t).0 - slid_down(0.0, t).0).abs() - 2.0;
        let (mut lo, mut hi) = (0.0_f64, 2.0_f64);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if gap(mid) > 0.0 { lo = mid } else { hi = mid }
        }
        let meet = lo;
        let closed = |t: f64| -> [f64; 2] {
            let (first, other) = (slid_down(0.0, t.min(meet)), slid_down(u, t.min(meet)));
            if t <= meet {
                return [first.0, other.0];
            }
            [
                first.0 + slid_down(other.1, t - meet).0,
                other.0 + slid_down(first.1, t - meet).0,
            ]
        };
        for rate in [30.0, 60.0, 120.0, 1000.0] {
            let run = on_rough_slope([normal, other], [Vec2::ZERO, down * u as f32], rate);
            assert_eq!(run.pairs, 1, "{name}, {rate} Hz: they met {} times", run.pairs);
            let off = run
                .slid
                .iter()
                .enumerate()
                .map(|(n, got)| {
                    let want = closed((n + 1) as f64 / f64::from(rate));
                    (got[0] - want[0]).abs().max((got[1] - want[1]).abs())
                })
                .fold(0.0, f64::max);
            println!(
                "{rate} Hz: a ball sliding {name} on a rough slope, within {off:.1e} of the closed form"
            );
            let bound = if rate > 240.0 { 1e-4 } else { 3e-5 };
            assert!(off < bound, "{name}, {rate} Hz: {off:.1e} off the closed form");
        }
    }
}

#[test]
fn a_ball_dropped_onto_a_ball_sliding_down_a_rough_slope_leaves_it_on_the_slope() {
    // One ball sliding from rest down the slope, another let go 0.5 above it. The
    // impacts press it into the slope and friction (between the balls, and with the
    // slope) takes from its speed along it: it never leaves the slope by more than the
    // touch slop, and friction only takes energy: the balls' energy never rises above the
    // start's by more than 1e-5. (Friction at the two balls' row, applied after the
    // solve, took the lower ball's speed along the level and so drove it into the slope:
    // it met the slope again at once and bounced off it, 6.5e-2 off at 30 Hz.)
    let slope = v(20.0, -5.0) - v(-20.0, 5.0);
    let normal = slope.perp().normalize();
    for rate in [30.0, 60.0, 120.0, 1000.0] {
        let run = on_rough_slope([normal, normal + v(0.0, 2.5)], [Vec2::ZERO; 2], rate);
        println!(
            "{rate} Hz: a ball struck sliding down a rough slope, {} impacts, energy rose at most {:.1e}, off the slope at most {:.1e}",
            run.pairs, run.rise, run.off[0]
        );
        assert!(run.pairs >= 1, "{rate} Hz: they met {} times", run.pairs);
        assert!(run.rise < 1e-5, "{rate} Hz: energy rose by {:.1e}", run.rise);
        assert!(
            run.off[0] <= TOUCH_SLOP_REL,
            "{rate} Hz: {} off the slope",
            run.off[0]
        );
    }
}
