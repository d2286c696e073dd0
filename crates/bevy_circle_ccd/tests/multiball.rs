//! Headless tests of ball–ball contacts and kinematic obstacles (flippers) through the
//! plugin. Each asserts against a number computed by hand (the arithmetic is in the
//! comments) or against an invariant checked at every step.
#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a missing component is a failed test"
)]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;
use std::f32::consts::{FRAC_PI_6, PI, TAU};

/// Units. Contacts are found to about 1e-6 of the query's scale (`ccd_core`'s
/// `MOVING_SEGMENT_TOLERANCE_REL`) and f32 positions near 100 units round at 8e-6; a
/// thousandth of a unit is a hundred times both and still far below anything visible.
const CONTACT_TOL: f32 = 1e-3;

/// The mass the plugin gives a ball without `CcdMass`: its area.
fn area_mass(radius: f32) -> f64 {
    f64::from(PI * radius * radius)
}

fn angle_of(app: &App, e: Entity) -> f32 {
    let t = app.world().get::<Transform>(e).unwrap();
    let d = (t.rotation * Vec3::X).truncate();
    d.y.atan2(d.x)
}

/// The shortest angle between two angles, in [0, π].
fn angle_gap(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

#[test]
fn newtons_cradle() {
    // Five balls (radius 10) with gaps of 0.02 between them (centres 20.02 apart at
    // x = 0 … 80.08; the touch slop is 0.002, so each contact is an instant of its own) and
    // a striker from x = −100 at v = 1,000 units/s; e = 1, μ = 0, equal masses. The striker
    // touches the row when its centre is at −20, after 80/1000 = 0.08 s; each contact hands
    // the whole velocity on, so the far ball leaves at 1,000 (0.08 ms later, having crossed
    // the four gaps) and the other five stop. After 20 steps at 120 Hz (1/6 s) the far ball
    // is at 80.08 + 1000·(1/6 − 0.08008) = 166.67, and the striker waits at x = −20.
    // (Touching balls would be one contact: ccd_core's `tests/one_instant.rs`.)
    let v = 1000.0;
    let mut app = app(120.0);
    let row: Vec<Entity> = (0..5)
        .map(|k| ball(&mut app, 10.0, Vec2::new(20.02 * k as f32, 0.0), Vec2::ZERO))
        .collect();
    let striker = ball(&mut app, 10.0, Vec2::new(-100.0, 0.0), Vec2::new(v, 0.0));
    steps(&mut app, 20);
    let far = row[4];
    assert!(
        (velocity(&app, far) - Vec2::new(v, 0.0)).length() < 1e-4 * v,
        "{}",
        velocity(&app, far)
    );
    for &b in row[..4].iter().chain([&striker]) {
        // "Nearly at rest": a ten-thousandth of the striker's speed.
        assert!(
            velocity(&app, b).length() < 1e-4 * v,
            "{b}: {}",
            velocity(&app, b)
        );
    }
    assert!(
        (position(&app, far).x - (80.08 + v * (1.0 / 6.0 - 0.08008))).abs() < 1e-2,
        "{}",
        position(&app, far)
    );
    assert!(
        (position(&app, striker).x + 20.0).abs() < 1e-2,
        "{}",
        position(&app, striker)
    );
    // Momentum: m·v before, Σ m·vᵢ after (all masses π·10²), to 1e-5 relative.
    let m = area_mass(10.0);
    let after: f64 = row
        .iter()
        .chain([&striker])
        .map(|&b| m * f64::from(velocity(&app, b).x))
        .sum();
    let before = m * f64::from(v);
    assert!(((after - before) / before).abs() < 1e-5, "{before} → {after}");
}

#[test]
fn head_on_at_20000_never_passes_through() {
    // Radius 4, from x = ∓300 at ±20,000 units/s, in a box with walls at x = ±400; 120 Hz,
    // so each ball moves 166.7 units (about 21 diameters) per step. They touch when 8
    // apart, after 296/20,000 = 0.0148 s, inside the second step; equal masses and e = 1
    // swap the velocities, so at the end of step 2 (t = 1/60 s) ball A is at
    // −4 − 20,000·(1/60 − 0.0148) = −41.33 going −20,000, and B mirrors it.
    let speed = 20_000.0;
    let mut app = app(120.0);
    closed_box(&mut app, 400.0);
    let a = ball(&mut app, 4.0, Vec2::new(-300.0, 0.0), Vec2::new(speed, 0.0));
    let b = ball(&mut app, 4.0, Vec2::new(300.0, 0.0), Vec2::new(-speed, 0.0));
    let order_holds = |app: &App| position(app, a).x <= position(app, b).x - 8.0 + CONTACT_TOL;
    steps(&mut app, 1);
    assert!(order_holds(&app));
    steps(&mut app, 1);
    let expected = -4.0 - speed * (1.0 / 60.0 - 592.0 / 40_000.0);
    assert!(
        (position(&app, a).x - expected).abs() < 1e-2,
        "{}",
        position(&app, a)
    );
    assert!(
        (position(&app, b).x + expected).abs() < 1e-2,
        "{}",
        position(&app, b)
    );
    // Speeds of 20,000 in f32 round at 2e-3; 1e-5 relative is 0.2.
    assert!((velocity(&app, a) - Vec2::new(-speed, 0.0)).length() < 1e-5 * speed);
    assert!((velocity(&app, b) - Vec2::new(speed, 0.0)).length() < 1e-5 * speed);
    // Then 10 s of ping-pong: each ball runs from the meeting point (x = ∓4) to its wall
    // (x = ∓396) and back, 784 units at 20,000 units/s, so they meet every 0.0392 s: 255
    // meetings in 10 s. A meeting turns A from +x to −x (a wall turns it back), and the
    // two are 0.0196 s = 2.35 steps apart, so each step shows at most one turn. At every
    // step A stays left of B and both keep their speed.
    let mut meetings = 0;
    let mut a_was_right = velocity(&app, a).x > 0.0;
    for _ in 0..1200 {
        steps(&mut app, 1);
        assert!(
            order_holds(&app),
            "crossed: {} {}",
            position(&app, a),
            position(&app, b)
        );
        let a_right = velocity(&app, a).x > 0.0;
        meetings += u32::from(a_was_right && !a_right);
        a_was_right = a_right;
        for e in [a, b] {
            assert!((velocity(&app, e).length() / speed - 1.0).abs() < 1e-5);
            assert!(position(&app, e).x.abs() <= 396.0 + CONTACT_TOL);
        }
    }
    // 10 / 0.0392 = 255.1; one either way for where the 10 s window cuts the cycle.
    assert!((254..=256).contains(&meetings), "{meetings} meetings");
}

/// The flipper of the batting tests: length 70 turning at 80 rad/s, restitution 0.5.
const FLIPPER_LENGTH: f32 = 70.0;
const OMEGA: f32 = 80.0;
const FLIPPER_E: f32 = 0.5;
/// A pinball's radius in table units (27 mm ball on a table of 1 unit per mm).
const PINBALL_RADIUS: f32 = 13.5;

#[test]
fn flipper_bats_a_resting_ball_at_one_plus_e_omega_l() {
    // Pivot at the origin, flipper along +x turning counter-clockwise at ω = 80 rad/s. A
    // ball (r = 13.5, e = 1, at rest) sits 0.1 above it over L = 50. It is struck within
    // 0.1/4000 s, when the flipper has turned 0.002 rad: the surface under it moves at
    // ω·L = 4,000 upwards; with e = 1·0.5 the ball leaves with a normal speed of
    // (1 + e)·ω·L = 1.5·80·50 = 6,000 units/s. It then outruns the flipper (the foot of its
    // path passes the tip at 70 before the line can catch up), so the speed stays.
    let l = 50.0;
    let mut app = app(120.0);
    collect_hits(&mut app);
    let f = flipper(
        &mut app,
        Vec2::ZERO,
        FLIPPER_LENGTH,
        0.0,
        Kinematic::turning(OMEGA),
    );
    app.world_mut()
        .entity_mut(f)
        .insert(CcdMaterial::new(FLIPPER_E, 0.0));
    let b = ball(
        &mut app,
        PINBALL_RADIUS,
        Vec2::new(l, PINBALL_RADIUS + 0.1),
        Vec2::ZERO,
    );
    steps(&mut app, 3);
    let want = (1.0 + FLIPPER_E) * OMEGA * l;
    let hits = app.world().resource::<Collected>().0.clone();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!((hits[0].circle, hits[0].other), (b, f));
    // The normal at contact is the flipper's, turned by 0.002 rad: about +y.
    // To 0.1 %: turned by 0.002 rad, the line's foot under the ball is at
    // 50·cos 0.002 + 13.6·sin 0.002 = 50.027, 0.05 % further out than L.
    const REL: f32 = 1e-3;
    let normal_speed = velocity(&app, b).dot(hits[0].normal);
    assert!(
        (normal_speed / want - 1.0).abs() < REL,
        "normal speed {normal_speed}, want {want}"
    );
    assert!((velocity(&app, b).length() / want - 1.0).abs() < REL);
    assert!(
        (hits[0].speed - OMEGA * l).abs() < REL * OMEGA * l,
        "approach {}",
        hits[0].speed
    );
}

#[test]
fn flipper_never_lets_a_ball_through_at_any_phase() {
    // A ball at rest at (0, 45) and a flipper (pivot at the origin, ω = 80 rad/s, 0.667 rad
    // = 38° per 120 Hz step) starting at 36 angles behind it, from 20° to 340° behind: it
    // is struck after the flipper turns between 2.5° and 322.5° (asin(13.5/45) = 17.5° less
    // than the start gap), so at every phase within a step. Each run covers a whole
    // revolution (2π/0.667 = 9.4 steps; 11 are run). At every step:
    // - the ball is never inside the flipper: its centre is at least r from the segment;
    // - it never changes sides: while its centre's foot is on the segment and it is within
    //   reach (closer than 70 + r to the pivot) at two consecutive steps, it is on the same
    //   side of the flipper's line at both.
    let at = Vec2::new(0.0, 45.0);
    for k in 0..36 {
        let behind = (20.0 + k as f32 * 320.0 / 35.0).to_radians();
        let mut app = app(120.0);
        let f = flipper(
            &mut app,
            Vec2::ZERO,
            FLIPPER_LENGTH,
            PI / 2.0 - behind,
            Kinematic::turning(OMEGA),
        );
        app.world_mut()
            .entity_mut(f)
            .insert(CcdMaterial::new(FLIPPER_E, 0.0));
        let b = ball(&mut app, PINBALL_RADIUS, at, Vec2::ZERO);
        let side_in_reach = |app: &App| {
            let p = position(app, b);
            let (along, side) = flipper_coords(app, f, p);
            let in_reach = p.length() < FLIPPER_LENGTH + PINBALL_RADIUS;
            (in_reach && (0.0..=FLIPPER_LENGTH).contains(&along)).then_some(side)
        };
        let mut last_side = side_in_reach(&app);
        let mut struck = false;
        for step in 0..11 {
            steps(&mut app, 1);
            let p = position(&app, b);
            struck |= velocity(&app, b) != Vec2::ZERO;
            let t = app.world().get::<Transform>(f).unwrap();
            let tip =
                t.translation.truncate() + (t.rotation * Vec3::new(FLIPPER_LENGTH, 0.0, 0.0)).truncate();
            let gap = distance_to_segment(p, t.translation.truncate(), tip);
            assert!(
                gap >= PINBALL_RADIUS - CONTACT_TOL,
                "phase {k}, step {step}: ball at {p} is {gap} from the flipper"
            );
            let side = side_in_reach(&app);
            if let (Some(before), Some(now)) = (last_side, side) {
                assert_eq!(
                    before.signum(),
                    now.signum(),
                    "phase {k}, step {step}: ball at {p} crossed the flipper line ({before} → {now})"
                );
            }
            last_side = side;
        }
        assert!(struck, "phase {k}: never struck");
    }
}

#[test]
fn fast_spinner_turns_the_way_it_spins() {
    // A `Velocity` kinematic turning 500 rad/s counter-clockwise at 120 Hz turns 4.17 rad
    // (239°) per step, more than half a turn: it must be swept counter-clockwise through
    // all of it, not the short way round (−2.11 rad, clockwise). Flipper from the origin
    // along 30°, length 70, e = 1; ball (r = 13.5) at rest at (0, 45). The front face meets
    // the ball when the line is asin(13.5/45) = 17.46° short of it, at 72.54°: after
    // 42.54° = 0.7424 rad, t = 0.7424/500 = 1.485 ms, in the first step. The contact's foot
    // is √(45² − 13.5²) = 42.93 out, moving at 500·42.93 = 21,464 units/s along the front
    // normal (−sin 72.54°, cos 72.54°) = (−0.954, 0.300); the ball leaves along it.
    let omega = 500.0;
    let mut app = app(120.0);
    collect_hits(&mut app);
    let f = flipper(
        &mut app,
        Vec2::ZERO,
        FLIPPER_LENGTH,
        30f32.to_radians(),
        Kinematic::turning(omega),
    );
    let b = ball(&mut app, PINBALL_RADIUS, Vec2::new(0.0, 45.0), Vec2::ZERO);
    steps(&mut app, 1);
    let hits = app.world().resource::<Collected>().0.clone();
    assert!(
        !hits.is_empty(),
        "the spinner went the short way round and missed the ball"
    );
    let first = hits[0];
    assert_eq!((first.circle, first.other), (b, f));
    let contact_angle = 90f32.to_radians() - (PINBALL_RADIUS / 45.0).asin();
    let want_time = (contact_angle - 30f32.to_radians()) / omega;
    // Seconds: the root search finds the contact within 1e-6 of the scene's scale.
    assert!(
        (first.time - want_time).abs() < 1e-5,
        "contact at {} s, want {want_time}",
        first.time
    );
    let front = Vec2::new(-contact_angle.sin(), contact_angle.cos());
    assert!(first.normal.dot(front) > 0.999, "normal {}", first.normal);
    let foot = (45.0f32 * 45.0 - PINBALL_RADIUS * PINBALL_RADIUS).sqrt();
    assert!(
        (first.speed / (omega * foot) - 1.0).abs() < 0.01,
        "approach {}",
        first.speed
    );
    assert!(
        velocity(&app, b).dot(front) > 0.0,
        "batted the wrong way: {}",
        velocity(&app, b)
    );
}

#[test]
fn ball_rests_in_the_v_of_a_raised_flipper_and_a_wall() {
    // Gravity 1,110 units/s² down (a pinball table's slope), 120 Hz. A flipper (pivot at the
    // origin, length 70, `FollowTransform`) is raised from −30° to +30° over 6 steps and
    // held there. A wall runs from the pivot up-left at 120°. The V between them opens
    // 90°, so a ball (r = 13.5, e = 0.5, μ = 0.2) dropped into it comes to rest touching
    // both, its centre on the bisector at 75°, r/sin 45° = 19.09 from the pivot:
    // (19.09·cos 75°, 19.09·sin 75°) = (4.94, 18.44). Both contacts push up
    // (n_flipper = (−0.5, 0.866), n_wall = (0.866, 0.5)): g = 961·n_flipper + 555·n_wall.
    // The ball is given 2 s to settle (it bounces for about 1.3 s), then must stay put for
    // the next 9 s, 11 s in all.
    let mut app = app(120.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -1110.0);
    let f = flipper(
        &mut app,
        Vec2::ZERO,
        FLIPPER_LENGTH,
        -FRAC_PI_6,
        Kinematic::FollowTransform,
    );
    let wall_dir = Vec2::from_angle(120f32.to_radians());
    wall(&mut app, Vec2::ZERO, wall_dir * 120.0);
    for k in 1..=6 {
        let angle = -FRAC_PI_6 + k as f32 * (FRAC_PI_6 / 3.0);
        app.world_mut().get_mut::<Transform>(f).unwrap().rotation = Quat::from_rotation_z(angle);
        steps(&mut app, 1);
    }
    let b = ball(&mut app, PINBALL_RADIUS, Vec2::new(30.0, 90.0), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert(CcdMaterial::new(0.5, 0.2));
    // Units. Never sinks: a resting contact may show a twentieth of a unit at most (f32
    // rounding of the tiny resting velocities moves the centre by about 2e-7 per step).
    const SINK_TOL: f32 = 0.05;
    let rest_point = Vec2::from_angle(75f32.to_radians()) * (PINBALL_RADIUS / 45f32.to_radians().sin());
    let mut settled = Vec2::NAN;
    let mut max_displacement = 0.0_f32;
    const SETTLE_STEPS: u32 = 240;
    for step in 1..=SETTLE_STEPS + 1080 {
        steps(&mut app, 1);
        let p = position(&app, b);
        let (along, side) = flipper_coords(&app, f, p);
        if (0.0..=FLIPPER_LENGTH).contains(&along) {
            assert!(
                side >= PINBALL_RADIUS - SINK_TOL,
                "step {step}: sank to {side} at {p}"
            );
        }
        // The wall's side of the V is the one its clockwise normal points to.
        let from_wall = p.dot(-wall_dir.perp());
        assert!(
            from_wall >= PINBALL_RADIUS - SINK_TOL,
            "step {step}: {from_wall} into the wall at {p}"
        );
        if step == SETTLE_STEPS {
            settled = p;
        } else if step > SETTLE_STEPS {
            max_displacement = max_displacement.max((p - settled).length());
        }
    }
    assert!(max_displacement < 0.5, "moved {max_displacement} in the last 9 s");
    let p = position(&app, b);
    assert!(
        (p - rest_point).length() < 0.05,
        "rests at {p}, want {rest_point}"
    );
    assert!(
        velocity(&app, b).length() < 2.0 * 1110.0 / 120.0,
        "{}",
        velocity(&app, b)
    );
}

#[test]
fn resting_friction_combines_both_materials() {
    // A ball (r = 10, μ = 0.5) starts at rest on a frictionless ramp (μ = 0) sloping down
    // at 20°, gravity 1,000 down, 120 Hz. Friction is the geometric mean, √(0.5·0) = 0, so
    // it slides: each step adds g·dt·sin 20° = 2.850 units/s along the slope (the normal
    // part, 7.83 units/s into the ramp, is below the resting speed 2·g·dt = 16.7 and is
    // removed). After N = 120 steps it has gone g·sin 20°·dt²·N(N+1)/2 = 342.0·0.5042
    // = 172.4 units. The same must hold on the event-driven path (another ball present)
    // as on the single-ball sweep.
    let slope = -20f32.to_radians();
    let dir = Vec2::from_angle(slope);
    let normal = dir.perp();
    let g = 1000.0;
    let n: u32 = 120;
    let dt = 1.0 / 120.0;
    let want = g * (-slope).sin() * dt * dt * (n * (n + 1)) as f32 / 2.0;
    for other_ball in [false, true] {
        let mut app = app(120.0);
        app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -g);
        let ramp = wall(&mut app, Vec2::ZERO, dir * 1000.0);
        app.world_mut()
            .entity_mut(ramp)
            .insert(CcdMaterial::new(0.5, 0.0));
        let start = dir * 50.0 + normal * 10.0;
        let b = ball(&mut app, 10.0, start, Vec2::ZERO);
        app.world_mut().entity_mut(b).insert(CcdMaterial::new(0.5, 0.5));
        if other_ball {
            // Far away, falling freely: it only switches the step to the event-driven path.
            ball(&mut app, 10.0, Vec2::new(-5000.0, 0.0), Vec2::ZERO);
        }
        steps(&mut app, u64::from(n));
        let slid = (position(&app, b) - start).dot(dir);
        assert!(
            (slid / want - 1.0).abs() < 0.01,
            "other ball {other_ball}: slid {slid}, want {want}"
        );
    }
}

/// The scene of [`pile_in_a_funnel_through_the_plugin`]: the funnel's two walls, then the
/// 100 balls in rows above it, returned in spawn order.
fn funnel_and_balls(app: &mut App) -> Vec<Entity> {
    // The funnel is as rough as the balls (μ = 0.2; restitution 1, so the ball's 0.3
    // rules). Friction combines by the geometric mean: a frictionless funnel would let the
    // pile slide along it for about 14 s before it came to rest.
    for (a, b) in [
        (Vec2::new(-100.0, 100.0), Vec2::ZERO),
        (Vec2::ZERO, Vec2::new(100.0, 100.0)),
    ] {
        let w = wall(app, a, b);
        app.world_mut().entity_mut(w).insert(CcdMaterial::new(1.0, 0.2));
    }
    (0..100)
        .map(|k| {
            let (col, row) = (k % 10, k / 10);
            let at = Vec2::new(
                -40.0 + col as f32 * 8.5 + (row % 2) as f32 * 2.0,
                60.0 + row as f32 * 8.5,
            );
            let e = ball(app, 4.0, at, Vec2::ZERO);
            app.world_mut().entity_mut(e).insert(CcdMaterial::new(0.3, 0.2));
            e
        })
        .collect()
}

#[test]
fn pile_in_a_funnel_through_the_plugin() {
    // 100 balls (r = 4, e = 0.3, μ = 0.2) in rows above a 90° V funnel (walls from the
    // origin up to (±100, 100), μ = 0.2), gravity 981 down, 240 Hz, 30 s: a pile of
    // frictional discs has avalanches for 10 to 27 s after the pour (see the core's pile
    // test: when the last comes moves with the roundings of its contacts), and the test
    // is about where it ends. Invariants at every step:
    // kinetic energy never exceeds its start plus gravity's work Σ m·g·(y₀ − y) (1e-6
    // relative, and the rounding of the f32 heights the work is read from); no ball centre gets closer than r to a funnel wall
    // ((y − |x|)/√2 ≥ r). At the end the pile is still.
    let g = 981.0;
    let mut app = app(240.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -g);
    let balls = funnel_and_balls(&mut app);
    let m = area_mass(4.0);
    let energy = |app: &App| -> f64 {
        balls
            .iter()
            .map(|&b| 0.5 * m * velocity(app, b).as_dvec2().length_squared())
            .sum()
    };
    let height = |app: &App| -> f64 { balls.iter().map(|&b| m * f64::from(position(app, b).y)).sum() };
    let (e0, h0) = (energy(&app), height(&app));
    let start_heights: Vec<f64> = balls.iter().map(|&b| f64::from(position(&app, b).y)).collect();
    // Units. The walls are swept exactly; 0.01 is f32 rounding of positions near 100 (8e-6)
    // a thousand times over.
    const WALL_TOL: f32 = 1e-2;
    let mut second_before_end = Vec::new();
    for step in 0..7200 {
        if step == 6960 {
            second_before_end = balls.iter().map(|&b| position(&app, b)).collect();
        }
        steps(&mut app, 1);
        let allowed = e0 + (h0 - height(&app)) * f64::from(g);
        let e = energy(&app);
        // Gravity's work is read from f32 heights, each off by up to half an ulp at the
        // start and now: after the first step, when every ball has fallen only
        // ½·g·dt² = 0.0085, that is 1e-4 of the work (the step itself is exact there).
        let rounding: f64 = balls
            .iter()
            .zip(&start_heights)
            .map(|(&b, y0)| {
                m * f64::from(g)
                    * 0.5
                    * f64::from(f32::EPSILON)
                    * (f64::from(position(&app, b).y.abs()) + y0.abs())
            })
            .sum();
        assert!(
            e <= allowed + rounding + 1e-6 * allowed.abs(),
            "step {step}: energy {e} > {allowed}"
        );
        for &b in &balls {
            let p = position(&app, b);
            assert!(
                (p.y - p.x.abs()) / 2f32.sqrt() >= 4.0 - WALL_TOL,
                "step {step}: {p} below the funnel"
            );
        }
    }
    let stats = app.world().resource::<CcdStats>().clone();
    assert!(!stats.event_budget_hit);
    // Still: nothing faster than two steps of gravity (2·981/240 = 8.2 units/s), and no ball
    // moved an eighth of its radius in the last second.
    let fastest = balls
        .iter()
        .map(|&b| velocity(&app, b).length())
        .fold(0.0, f32::max);
    assert!(fastest < 2.0 * g / 240.0, "fastest {fastest}");
    let drift = balls
        .iter()
        .zip(&second_before_end)
        .map(|(&b, p)| (position(&app, b) - *p).length())
        .fold(0.0, f32::max);
    assert!(drift < 0.5, "drift {drift} in the last second");
}

#[test]
fn two_runs_with_balls_and_a_flipper_are_bit_identical() {
    fn run() -> Vec<[u32; 4]> {
        let mut app = app(240.0);
        closed_box(&mut app, 200.0);
        app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -1110.0);
        let f = flipper(
            &mut app,
            Vec2::new(-60.0, -120.0),
            FLIPPER_LENGTH,
            -0.5,
            Kinematic::turning(3.0),
        );
        let mut things: Vec<Entity> = (0..60)
            .map(|i| {
                let a = i as f32 * 0.37;
                ball(
                    &mut app,
                    5.0,
                    Vec2::new(-150.0 + (i % 20) as f32 * 15.0, 100.0 + (i / 20) as f32 * 15.0),
                    Vec2::new(600.0 * a.cos(), 400.0 * a.sin()),
                )
            })
            .collect();
        things.push(f);
        steps(&mut app, 600);
        things
            .iter()
            .map(|&e| {
                let t = app.world().get::<Transform>(e).unwrap();
                let v = app
                    .world()
                    .get::<MovingCircle>(e)
                    .map_or(Vec2::ZERO, |c| c.velocity);
                [t.translation.x, t.translation.y, v.x, v.y].map(f32::to_bits)
            })
            .chain([{
                let r = app.world().get::<Transform>(f).unwrap().rotation;
                [r.x, r.y, r.z, r.w].map(f32::to_bits)
            }])
            .collect()
    }
    assert_eq!(run(), run());
}

#[test]
fn velocity_kinematic_ends_each_step_at_its_target() {
    // Velocity { angular 3 rad/s, linear (60, −24) }, 120 Hz: after k steps the pose is
    // translation (10, 20) + (60, −24)·k/120 and angle 0.25 + 3·k/120 (mod 2π). Checked at
    // every step for 300 steps (7.5 turns).
    let mut app = app(120.0);
    let start = Vec2::new(10.0, 20.0);
    let linear = Vec2::new(60.0, -24.0);
    let k = flipper(
        &mut app,
        start,
        40.0,
        0.25,
        Kinematic::Velocity { angular: 3.0, linear },
    );
    // Radians: the pose goes through a quaternion and back each step, rounding about 1e-7
    // rad each time; 300 steps drift by at most 3e-5.
    const ANGLE_TOL: f32 = 1e-4;
    for step in 1..=300 {
        steps(&mut app, 1);
        let t = step as f32 / 120.0;
        let want = start + linear * t;
        let got = position(&app, k);
        assert!(close(got, want, 1e-3), "step {step}: {got} vs {want}");
        let angle = angle_of(&app, k);
        assert!(
            angle_gap(angle, 0.25 + 3.0 * t) < ANGLE_TOL,
            "step {step}: angle {angle}"
        );
        assert_eq!(app.world().resource::<CcdStats>().kinematic, 1);
    }
}

#[test]
fn follow_transform_kinematic_ends_at_the_set_pose_and_pushes_the_ball() {
    // A paddle (a vertical segment of length 40, `FollowTransform`) is set 10 units further
    // right before every step: 1,200 units/s at 120 Hz. A ball (r = 5, e = 1) rests at
    // x = 30. An infinitely heavy wall moving at u gives a resting elastic ball 2u, so the
    // ball leaves at 2,400 units/s, and stays ahead of the paddle by at least r. The
    // paddle's Transform after each step is exactly (bit for bit) the one set.
    let mut app = app(120.0);
    let paddle = flipper(&mut app, Vec2::ZERO, 40.0, PI / 2.0, Kinematic::FollowTransform);
    let b = ball(&mut app, 5.0, Vec2::new(30.0, 20.0), Vec2::ZERO);
    steps(&mut app, 1);
    for step in 1..=12 {
        let target =
            Transform::from_xyz(10.0 * step as f32, 0.0, 0.0).with_rotation(Quat::from_rotation_z(PI / 2.0));
        *app.world_mut().get_mut::<Transform>(paddle).unwrap() = target;
        steps(&mut app, 1);
        assert_eq!(*app.world().get::<Transform>(paddle).unwrap(), target);
        let gap = position(&app, b).x - target.translation.x;
        assert!(
            gap >= 5.0 - CONTACT_TOL,
            "step {step}: ball {gap} from the paddle"
        );
    }
    assert!(
        (velocity(&app, b) - Vec2::new(2400.0, 0.0)).length() < 1e-2,
        "{}",
        velocity(&app, b)
    );
}

#[test]
fn threads_change_no_bit() {
    // 600 balls (enough for the work to be split: the core keeps at least
    // `MIN_ITEMS_PER_THREAD` = 128 items per thread) in a box with a turning flipper and
    // gravity, with ball–ball on and off: one thread, two threads and the default (all of
    // the pool's) give the same positions and velocities, bit for bit.
    fn run(threads: usize, ball_ball: bool) -> Vec<[u32; 4]> {
        let mut app = app(240.0);
        closed_box(&mut app, 200.0);
        {
            let mut settings = app.world_mut().resource_mut::<CcdSettings>();
            settings.gravity = Vec2::new(0.0, -1110.0);
            settings.threads = threads;
            settings.ball_ball = ball_ball;
        }
        flipper(
            &mut app,
            Vec2::new(-60.0, -120.0),
            FLIPPER_LENGTH,
            -0.5,
            Kinematic::turning(3.0),
        );
        let things: Vec<Entity> = (0..600)
            .map(|i| {
                let a = i as f32 * 0.37;
                ball(
                    &mut app,
                    4.0,
                    Vec2::new(-180.0 + (i % 30) as f32 * 12.0, -40.0 + (i / 30) as f32 * 12.0),
                    Vec2::new(600.0 * a.cos(), 400.0 * a.sin()),
                )
            })
            .collect();
        steps(&mut app, 240);
        things
            .iter()
            .map(|&e| {
                let (p, v) = (position(&app, e), velocity(&app, e));
                [p.x, p.y, v.x, v.y].map(f32::to_bits)
            })
            .collect()
    }
    for ball_ball in [false, true] {
        let one = run(1, ball_ball);
        assert_eq!(one, run(2, ball_ball), "ball_ball {ball_ball}: 1 vs 2 threads");
        assert_eq!(one, run(0, ball_ball), "ball_ball {ball_ball}: 1 vs all threads");
    }
}
