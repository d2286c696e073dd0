//! Gravity inside the sweep: [`sweep_bounces`] with `gravity` set follows the parabola
//! between contacts and bounces with the velocity of the instant, so a dropped ball climbs
//! back to its height at any step rate. Every expectation here is a closed form:
//! energy `½v² − g·p`, the apex ratio `e²`, the landing point of a throw, and the slide
//! `s(t) = ½·g·sinθ·t²`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{Circle, Material, Obstacle, Segment, SweepSettings, Vec2, sweep_bounces};

/// Gravity of the drop tests, units/s².
const G: f32 = 10.0;
/// The dropped ball's radius.
const RADIUS: f32 = 0.5;
/// The drop height of the ball's centre above the floor y = 0.
const DROP: f32 = 10.0;

fn floor() -> [Obstacle; 1] {
    [Obstacle::segment(Segment::new(
        Vec2::new(-100.0, 0.0),
        Vec2::new(100.0, 0.0),
    ))]
}

fn settings(restitution: f32, resting_speed: f32) -> SweepSettings {
    SweepSettings {
        material: Material::new(restitution, 0.0),
        resting_speed,
        gravity: Vec2::new(0.0, -G),
        ..Default::default()
    }
}

/// Energy per unit mass, in f64: `½|v|² + g·y`.
fn energy(center: Vec2, velocity: Vec2) -> f64 {
    0.5 * velocity.as_dvec2().length_squared() + f64::from(G) * f64::from(center.y)
}

/// One step of the drop: returns the new state and the solid contacts of the step.
fn step(center: Vec2, velocity: Vec2, dt: f32, s: &SweepSettings) -> (Vec2, Vec2, u32) {
    let out = sweep_bounces(Circle::new(center, RADIUS), velocity, dt, &floor(), s, |_| {}).unwrap();
    assert!(!out.capped, "capped at {center} {velocity}");
    (out.center, out.velocity, out.bounces)
}

/// Drop from `DROP` at `hz` with `e = 1` for `bounces` bounces; the largest relative
/// energy error at any step end.
fn elastic_drop(hz: f32, bounces: u32) -> f64 {
    let dt = 1.0 / hz;
    let s = settings(1.0, 0.0);
    let (mut center, mut velocity) = (Vec2::new(0.0, DROP), Vec2::ZERO);
    let start = energy(center, velocity);
    let (mut seen, mut worst) = (0, 0.0_f64);
    while seen < bounces {
        let (c, v, b) = step(center, velocity, dt, &s);
        (center, velocity, seen) = (c, v, seen + b);
        worst = worst.max(((energy(center, velocity) - start) / start).abs());
    }
    worst
}

#[test]
fn an_elastic_drop_keeps_its_energy_at_30_60_and_120_hz() {
    for hz in [30.0, 60.0, 120.0] {
        let worst = elastic_drop(hz, 100);
        eprintln!("elastic drop, {hz} Hz, 100 bounces: worst energy error {worst:.1e}");
        assert!(worst <= 1e-5, "{hz} Hz: energy drifted by {worst:e}");
    }
}

#[test]
fn an_elastic_drop_keeps_its_energy_at_1000_hz() {
    // f32 positions round a thousand times a second: 1e-4.
    let worst = elastic_drop(1000.0, 100);
    eprintln!("elastic drop, 1000 Hz, 100 bounces: worst energy error {worst:.1e}");
    assert!(worst <= 1e-4, "1000 Hz: energy drifted by {worst:e}");
}

/// Drop with restitution `e` at `hz`: the apex heights above the contact height, one per
/// flight, read from the energy after each bounce (`y + v_y²/2g` is constant in flight).
fn apexes(e: f32, hz: f32, resting_speed: f32) -> Vec<f64> {
    let dt = 1.0 / hz;
    let s = settings(e, resting_speed);
    let (mut center, mut velocity) = (Vec2::new(0.0, DROP), Vec2::ZERO);
    let mut heights = Vec::new();
    for _ in 0..(hz as usize * 30) {
        let (c, v, b) = step(center, velocity, dt, &s);
        (center, velocity) = (c, v);
        if b > 0 && velocity.y > 0.0 {
            let v = f64::from(velocity.y);
            heights.push(f64::from(center.y) + v * v / (2.0 * f64::from(G)) - f64::from(RADIUS));
        }
    }
    heights
}

#[test]
fn each_apex_ratio_gives_the_restitution() {
    // Above the resting speed the ball bounces; its flights shrink by e² each.
    let resting_speed = 0.5;
    for hz in [30.0, 60.0, 120.0, 1000.0] {
        for e in [0.5_f32, 0.8] {
            let h = apexes(e, hz, resting_speed);
            // A flight counts while it left faster than the resting speed: h > u²/2g.
            let least = f64::from(resting_speed * resting_speed / (2.0 * G));
            let flights: Vec<f64> = h.iter().copied().take_while(|&x| x > least).collect();
            assert!(
                flights.len() >= 3,
                "{hz} Hz e = {e}: only {} flights",
                flights.len()
            );
            for pair in flights.windows(2) {
                let measured = (pair[1] / pair[0]).sqrt();
                assert!(
                    (measured - f64::from(e)).abs() <= 1e-4,
                    "{hz} Hz e = {e}: apex ratio gives e = {measured} ({pair:?})"
                );
            }
        }
    }
}

#[test]
fn a_ball_that_stops_bouncing_rests_without_chatter() {
    // After the bounces die out the ball rests on the floor: one contact a step at most,
    // its centre at the radius, its velocity zero.
    let dt = 1.0 / 60.0;
    let s = settings(0.5, 0.5);
    let (mut center, mut velocity) = (Vec2::new(0.0, 2.0), Vec2::ZERO);
    for _ in 0..120 {
        (center, velocity, _) = step(center, velocity, dt, &s);
    }
    for _ in 0..600 {
        let (c, v, b) = step(center, velocity, dt, &s);
        (center, velocity) = (c, v);
        assert!(b <= 1, "{b} contacts in one step");
        assert!((center.y - RADIUS).abs() <= 1e-6, "{center}");
        assert!(velocity.length() <= 1e-6, "{velocity}");
    }
}

#[test]
fn a_throw_lands_where_the_closed_form_says() {
    // From (0, 5) at (7, 3): the centre reaches y = r = 0.5 when 5 + 3t − 5t² = 0.5, that
    // is t = (3 + sqrt(99)) / 10, at x = 7t.
    let t = (3.0 + 99.0_f64.sqrt()) / 10.0;
    let expected = (t, 7.0 * t);
    for hz in [30.0, 60.0, 120.0, 1000.0] {
        let dt = 1.0 / hz;
        let s = settings(1.0, 0.0);
        let (mut center, mut velocity) = (Vec2::new(0.0, 5.0), Vec2::new(7.0, 3.0));
        let mut landed = None;
        let mut clock = 0.0_f64;
        while landed.is_none() && clock < 3.0 {
            let out = sweep_bounces(Circle::new(center, RADIUS), velocity, dt, &floor(), &s, |h| {
                landed.get_or_insert((clock + f64::from(h.time), f64::from(h.hit.center.x)));
            })
            .unwrap();
            (center, velocity) = (out.center, out.velocity);
            clock += f64::from(dt);
        }
        let (time, x) = landed.unwrap();
        eprintln!(
            "throw, {hz} Hz: lands at x = {x:.7} (closed form {:.7}, {:.1e} relative), t = {time:.7} ({:.1e})",
            expected.1,
            (x - expected.1).abs() / expected.1,
            (time - expected.0).abs() / expected.0
        );
        // The clock itself sums f32 steps: compare the landing point, and the time within
        // the clock's own rounding.
        assert!(
            (x - expected.1).abs() <= 1e-5 * expected.1,
            "{hz} Hz: x = {x}, not {}",
            expected.1
        );
        assert!(
            (time - expected.0).abs() <= 1e-5 * expected.0,
            "{hz} Hz: t = {time}, not {}",
            expected.0
        );
    }
}

#[test]
fn a_ball_on_a_frictionless_slope_follows_the_closed_form() {
    // A slope at 30° down to the right, and a ball resting on it, let go: it slides
    // s(t) = ½·g·sin 30°·t² = 2.5·t² along it.
    let angle = 30.0_f32.to_radians();
    let down = Vec2::new(angle.cos(), -angle.sin());
    let top = Vec2::new(0.0, 20.0);
    let slope = [Obstacle::segment(Segment::new(top, top + down * 60.0))];
    let normal = Vec2::new(angle.sin(), angle.cos());
    let start = top + down * 1.0 + normal * RADIUS;
    let s = settings(1.0, 0.0);
    let dt = 1.0 / 60.0;
    let (mut center, mut velocity) = (start, Vec2::ZERO);
    let (mut worst, mut last) = (0.0_f64, 0.0_f64);
    for n in 1..=180 {
        let out = sweep_bounces(Circle::new(center, RADIUS), velocity, dt, &slope, &s, |_| {}).unwrap();
        (center, velocity) = (out.center, out.velocity);
        assert!(out.bounces <= 1, "step {n}: {} contacts", out.bounces);
        let t = f64::from(n) / 60.0;
        let expected = 0.5 * f64::from(G) * 0.5 * t * t;
        let along = (center.as_dvec2() - start.as_dvec2()).dot(down.as_dvec2());
        let off = (center.as_dvec2() - start.as_dvec2()).dot(normal.as_dvec2());
        // 1e-5 relative, plus what an f32 position can show at this distance from the
        // origin (a few ulps: the first steps slide less than a thousandth).
        let rounding = 4.0 * f64::from(f32::EPSILON) * f64::from(center.abs().max_element());
        assert!(
            (along - expected).abs() <= 1e-5 * expected + rounding,
            "t = {t}: slid {along}, not {expected}"
        );
        // Beyond what an f32 position can show (the first steps slide less than its ulp).
        worst = worst.max(((along - expected).abs() - rounding).max(0.0) / expected);
        last = (along - expected).abs() / expected;
        assert!(off.abs() <= 1e-5, "t = {t}: {off} off the slope");
    }
    eprintln!(
        "slide, one ball, 60 Hz, 3 s: error along the slope at the end {last:.1e} relative, \
         at worst {worst:.1e} beyond f32 rounding"
    );
}

#[test]
fn a_ball_dropped_into_a_v_comes_to_rest_in_it() {
    // Two faces at ±45° meeting at the origin; a ball dropped in off-centre bounces,
    // settles and rests at the bottom, where its centre is r·√2 above the corner.
    let v = [
        Obstacle::segment(Segment::new(Vec2::new(-10.0, 10.0), Vec2::ZERO)),
        Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(10.0, 10.0))),
    ];
    let s = settings(0.5, 0.5);
    let dt = 1.0 / 60.0;
    let (mut center, mut velocity) = (Vec2::new(0.3, 5.0), Vec2::ZERO);
    for _ in 0..600 {
        let out = sweep_bounces(Circle::new(center, RADIUS), velocity, dt, &v, &s, |_| {}).unwrap();
        assert!(!out.capped, "capped at {center} {velocity}");
        (center, velocity) = (out.center, out.velocity);
    }
    let bottom = Vec2::new(0.0, RADIUS * 2.0_f32.sqrt());
    for _ in 0..60 {
        let out = sweep_bounces(Circle::new(center, RADIUS), velocity, dt, &v, &s, |_| {}).unwrap();
        assert!(out.bounces <= 2, "{} contacts in a step at rest", out.bounces);
        (center, velocity) = (out.center, out.velocity);
        assert!((center - bottom).length() <= 1e-4, "{center}");
        assert!(velocity.length() <= 1e-4, "{velocity}");
    }
}

#[test]
fn the_prediction_matches_the_steps_own_path() {
    // A box with a sloped floor; a ball thrown in under gravity, e = 1. The predicted
    // contacts (one sweep over the whole time, one curve per leg) and the ones the 60 Hz
    // steps meet agree within 1e-5 of the scene's size for ten bounces. (The steps round
    // the state to f32 at every step's end, about 1e-7 of the scene each time; a pillar
    // would multiply that difference by about 2·distance/radius at every contact, as it
    // does any two nearby paths, so the scene has none.)
    let walls = [
        Obstacle::segment(Segment::new(Vec2::new(0.0, 2.0), Vec2::new(20.0, 0.0))),
        Obstacle::segment(Segment::new(Vec2::new(20.0, 0.0), Vec2::new(20.0, 20.0))),
        Obstacle::segment(Segment::new(Vec2::new(0.0, 20.0), Vec2::new(0.0, 2.0))),
    ];
    let (start, velocity) = (Vec2::new(3.0, 10.0), Vec2::new(7.0, 3.0));
    let s = settings(1.0, 0.0);
    let predict = ccd_core::PredictSettings {
        max_bounces: 10,
        max_time: 30.0,
        gravity: s.gravity,
        sweep: s,
    };
    let mut legs = Vec::new();
    let p =
        ccd_core::predict_path(Circle::new(start, RADIUS), velocity, &walls, &predict, &mut legs).unwrap();
    assert_eq!(p.bounces, 10);
    let predicted: Vec<Vec2> = legs.iter().map(|l| l.end()).collect();

    let dt = 1.0 / 60.0;
    let (mut center, mut v) = (start, velocity);
    let mut stepped = Vec::new();
    while stepped.len() < 10 {
        let out = sweep_bounces(Circle::new(center, RADIUS), v, dt, &walls, &s, |h| {
            stepped.push(h.hit.center);
        })
        .unwrap();
        (center, v) = (out.center, out.velocity);
    }
    let scale = 20.0;
    for (k, (a, b)) in predicted.iter().zip(&stepped).enumerate() {
        assert!(
            (*a - *b).length() <= 1e-5 * scale,
            "bounce {}: predicted {a}, stepped {b}",
            k + 1
        );
    }
}

// --- Through the event machinery (`step_balls`) ------------------------------------------

use ccd_core::{
    Ball, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, SegmentMotion, step_balls,
};

/// One step of [`step_balls`] for a single ball, which must go through the event
/// machinery (a moving obstacle near its path puts it there).
fn step_event_ball(
    balls: &mut [Ball; 1],
    dt: f32,
    obstacles: &[Obstacle],
    moving: &mut [MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
) -> ccd_core::MultiballReport {
    let report = step_balls(
        MultiballStep::new(balls, dt, obstacles).with_moving(moving),
        settings,
        scratch,
        |_| {},
    );
    assert_eq!(
        report.event_balls, 1,
        "the ball must go through the event machinery"
    );
    report
}

/// The elastic drop through [`step_balls`], onto a floor that is a (still) moving obstacle,
/// so the ball goes through the event machinery and meets the floor by the moving segment's
/// search on its curve. The largest relative energy error over `bounces` bounces.
fn elastic_drop_on_a_moving_floor(hz: f32, bounces: u32) -> f64 {
    let dt = 1.0 / hz;
    let floor = Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)));
    let mut moving = [MovingObstacle::new(floor, SegmentMotion::default())];
    let none: [Obstacle; 0] = [];
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        ..MultiballSettings::default()
    };
    let mut balls = [Ball::new(Vec2::new(0.0, DROP), Vec2::ZERO, RADIUS)];
    let mut scratch = MultiballScratch::default();
    let start = energy(balls[0].center, balls[0].velocity);
    let (mut seen, mut worst) = (0, 0.0_f64);
    while seen < bounces {
        let report = step_event_ball(&mut balls, dt, &none[..], &mut moving, &settings, &mut scratch);
        assert_eq!(report.capped_balls, 0);
        seen += report.bounces;
        worst = worst.max(((energy(balls[0].center, balls[0].velocity) - start) / start).abs());
    }
    worst
}

#[test]
fn an_elastic_drop_through_the_event_machinery_keeps_its_energy() {
    for hz in [30.0, 60.0, 120.0] {
        let worst = elastic_drop_on_a_moving_floor(hz, 100);
        assert!(worst <= 1e-5, "{hz} Hz: energy drifted by {worst:e}");
    }
    let worst = elastic_drop_on_a_moving_floor(1000.0, 100);
    assert!(worst <= 1e-4, "1000 Hz: energy drifted by {worst:e}");
}

#[test]
fn fifty_elastic_balls_in_a_box_keep_their_energy() {
    // A closed box 20 × 20, 50 balls of radius 0.5 with e = 1 thrown about under g = 10,
    // ball–ball on, 10⁴ steps at 120 Hz: kinetic plus potential energy stays within 1e-5
    // of its start.
    let corners = [
        Vec2::new(0.0, 0.0),
        Vec2::new(20.0, 0.0),
        Vec2::new(20.0, 20.0),
        Vec2::new(0.0, 20.0),
    ];
    let walls: Vec<Obstacle> = (0..4)
        .map(|k| Obstacle::segment(Segment::new(corners[k], corners[(k + 1) % 4])))
        .collect();
    let mut balls: Vec<Ball> = (0..50)
        .map(|k| {
            let (col, row) = ((k % 10) as f32, (k / 10) as f32);
            let velocity = Vec2::from_angle(k as f32 * 2.4) * (5.0 + (k % 7) as f32);
            Ball::new(Vec2::new(1.5 + col * 1.9, 3.0 + row * 3.0), velocity, RADIUS)
        })
        .collect();
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        ..MultiballSettings::default()
    };
    let total = |balls: &[Ball]| balls.iter().map(|b| energy(b.center, b.velocity)).sum::<f64>();
    let start = total(&balls);
    let mut scratch = MultiballScratch::default();
    let (mut worst, mut pairs) = (0.0_f64, 0);
    for _ in 0..10_000 {
        let report = step_balls(
            MultiballStep::new(&mut balls, 1.0 / 120.0, &walls),
            &settings,
            &mut scratch,
            |c| {
                pairs += u32::from(matches!(c.with, ccd_core::ContactWith::Ball(_)));
            },
        );
        assert_eq!(report.capped_balls, 0);
        worst = worst.max(((total(&balls) - start) / start).abs());
    }
    assert!(
        pairs > 1000,
        "only {pairs} ball–ball contacts: the test checks little"
    );
    for b in &balls {
        assert!(
            b.center.cmpgt(Vec2::splat(RADIUS - 1e-3)).all()
                && b.center.cmplt(Vec2::splat(20.0 - RADIUS + 1e-3)).all(),
            "{b:?} escaped"
        );
    }
    assert!(worst <= 1e-5, "energy drifted by {worst:e}");
}

/// What this proves: a ball touching a wall that gravity runs along (the wall x = 0 and a
/// ball against it, falling), in the event machinery, falls exactly as a free ball:
/// `y(t) = y₀ − ½·g·t²` after each step at 60 Hz, within 1e-5 of the fall plus an f32
/// ulp of the height (about 1e-6 near 10), and it stays
/// against the wall. The step's resting solve sees it touching the wall, but nothing
/// presses it on: it flies its curve. Taken as at rest (gravity's whole step added at
/// once, then a straight leg) it would fall `½·g·dt²` too far each step: the pinball
/// autoplay found a ball running down its orbit lane's wall losing energy so.
#[test]
fn a_ball_running_down_along_a_wall_falls_as_a_free_ball() {
    let hz = 60.0_f32;
    let dt = 1.0 / hz;
    let wall = [Obstacle::segment(Segment::new(
        Vec2::new(0.0, -100.0),
        Vec2::new(0.0, 100.0),
    ))];
    // A still moving obstacle beside the ball's path puts it in the event machinery.
    let still = Obstacle::segment(Segment::new(Vec2::new(2.0, -50.0), Vec2::new(2.0, 50.0)));
    let mut moving = [MovingObstacle::new(still, SegmentMotion::default())];
    // A resting speed, as a game sets one: the step's resting solve then looks at the
    // ball's contact with the wall.
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        resting_speed: 0.5,
        ..MultiballSettings::default()
    };
    let start = Vec2::new(RADIUS, DROP);
    let mut balls = [Ball::new(start, Vec2::ZERO, RADIUS)];
    let mut scratch = MultiballScratch::default();
    for n in 1..=60 {
        step_event_ball(&mut balls, dt, &wall[..], &mut moving, &settings, &mut scratch);
        let t = f64::from(n) * f64::from(dt);
        let fall = 0.5 * f64::from(G) * t * t;
        let y = f64::from(balls[0].center.y);
        let error = (f64::from(DROP) - fall - y).abs();
        assert!(
            error <= 1e-5 * fall + 1e-6,
            "step {n}: at y = {y}, the closed form says {}",
            f64::from(DROP) - fall
        );
        assert!(
            (balls[0].center.x - RADIUS).abs() <= 1e-5,
            "step {n}: left the wall, x = {}",
            balls[0].center.x
        );
    }
}

/// What this proves: a ball dropped into a V of two moving obstacles that hold still
/// (two raised flippers, say) comes to rest in it as in a V of walls: after it settles,
/// it stays at the bottom, `r·√2` above the corner, with a few contacts a step and
/// never the bounce cap. The pinball autoplay found a ball on two raised flipper tips
/// spending the whole cap in one step.
#[test]
fn a_ball_dropped_into_a_v_of_still_moving_obstacles_comes_to_rest_in_it() {
    let faces = [
        Segment::new(Vec2::new(-10.0, 10.0), Vec2::ZERO),
        Segment::new(Vec2::ZERO, Vec2::new(10.0, 10.0)),
    ];
    let mut moving = faces.map(|s| MovingObstacle::new(Obstacle::segment(s), SegmentMotion::default()));
    let none: [Obstacle; 0] = [];
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        resting_speed: 0.5,
        ..MultiballSettings::default()
    };
    let ball = Ball {
        material: ccd_core::Material::new(0.5, 0.0),
        ..Ball::new(Vec2::new(0.3, 5.0), Vec2::ZERO, RADIUS)
    };
    for hz in [60.0_f32, 480.0, 1000.0] {
        let dt = 1.0 / hz;
        let mut balls = [ball];
        let mut scratch = MultiballScratch::default();
        for n in 0..(10.0 * hz) as u32 {
            let report = step_event_ball(&mut balls, dt, &none[..], &mut moving, &settings, &mut scratch);
            assert_eq!(
                report.capped_balls, 0,
                "{hz} Hz, step {n}: capped at {:?}",
                balls[0]
            );
        }
        let bottom = Vec2::new(0.0, RADIUS * 2.0_f32.sqrt());
        for n in 0..60 {
            let report = step_event_ball(&mut balls, dt, &none[..], &mut moving, &settings, &mut scratch);
            assert!(
                report.bounces <= 2,
                "{hz} Hz, step {n} at rest: {} contacts",
                report.bounces
            );
            let b = balls[0];
            assert!(
                (b.center - bottom).length() <= 1e-4,
                "{hz} Hz: rests at {}",
                b.center
            );
            assert!(b.velocity.length() <= 1e-3, "{hz} Hz: moves at {}", b.velocity);
        }
    }
}

/// A ball let go on a 30° slope of friction `mu` (a wall, or a moving obstacle that holds
/// still), stepped by the event machinery at `hz` with `resting_speed`: checks that it
/// slides `s(t) = ½·g·(sin θ − μ·cos θ)·t²` along it within `within` relative (plus a few
/// f32 ulps of its position) and stays on it, for two seconds.
fn slide_down_a_slope(mu: f32, hz: f32, resting_speed: f32, slope_moves: bool, within: f64) {
    let angle = 30.0_f32.to_radians();
    let down = Vec2::new(angle.cos(), -angle.sin());
    let normal = Vec2::new(angle.sin(), angle.cos());
    let top = Vec2::new(0.0, 20.0);
    let slope = Obstacle {
        material: ccd_core::Material::new(1.0, mu),
        ..Obstacle::segment(Segment::new(top, top + down * 60.0))
    };
    // A still moving obstacle above the slope puts the ball in the event machinery.
    let above = top + normal * 5.0;
    let still = Obstacle::segment(Segment::new(above, above + down * 60.0));
    let mut moving = vec![MovingObstacle::new(still, SegmentMotion::default())];
    let mut walls = vec![slope];
    if slope_moves {
        moving.push(MovingObstacle::new(slope, SegmentMotion::default()));
        walls.clear();
    }
    let start = top + down * 1.0 + normal * RADIUS;
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        resting_speed,
        ..MultiballSettings::default()
    };
    // Both materials of friction μ combine to μ (the geometric mean).
    let ball = Ball {
        material: ccd_core::Material::new(1.0, mu),
        ..Ball::new(start, Vec2::ZERO, RADIUS)
    };
    let mut balls = [ball];
    let mut scratch = MultiballScratch::default();
    let pull = f64::from(G) * (0.5 - f64::from(mu) * 0.75_f64.sqrt());
    let case = format!("μ = {mu}, {hz} Hz, resting speed {resting_speed}, moving slope {slope_moves}");
    let (mut worst, mut last) = (0.0_f64, 0.0_f64);
    for n in 1..=(2.0 * hz) as u32 {
        let report = step_event_ball(&mut balls, 1.0 / hz, &walls, &mut moving, &settings, &mut scratch);
        assert_eq!(report.capped_balls, 0, "{case}");
        let t = f64::from(n) / f64::from(hz);
        let expected = 0.5 * pull * t * t;
        let offset = balls[0].center.as_dvec2() - start.as_dvec2();
        let (along, off) = (offset.dot(down.as_dvec2()), offset.dot(normal.as_dvec2()));
        let rounding = 4.0 * f64::from(f32::EPSILON) * f64::from(balls[0].center.abs().max_element());
        assert!(
            (along - expected).abs() <= within * expected + rounding,
            "{case}, t = {t}: slid {along}, not {expected}"
        );
        assert!(off.abs() <= 1e-4, "{case}, t = {t}: {off} off the slope");
        // Beyond what an f32 position can show (the first steps slide less than its ulp).
        worst = worst.max(((along - expected).abs() - rounding).max(0.0) / expected);
        last = (along - expected).abs() / expected;
    }
    eprintln!(
        "slide, {case}: error along the slope at the end {last:.1e} relative, at worst \
         {worst:.1e} beyond f32 rounding"
    );
}

/// What this proves: a ball let go on a frictionless slope, stepped by the event
/// machinery, slides `s(t) = ½·g·sin θ·t²` along it within 1e-5 relative (plus an f32
/// ulp of its position), at 60 and 480 Hz, on a wall with and without a resting speed, and
/// on a moving obstacle that holds still: the slide is the exact curve along the face, not
/// the chord of a step that took its gravity at once (which runs ahead by
/// `½·g·sin θ·dt·t`, 1/(2n) relative after n steps).
///
/// On a moving obstacle, only at 60 Hz and with a resting speed:
/// - without one, a ball that left its face at the separation bias is met again only once
///   it presses in by the moving search's accept band (two of its tolerances,
///   `sweep/moving_segment.rs`), and then hops;
/// - each contact with a moving obstacle puts the centre back at the contact distance
///   (`touching_center`), an f32 rounding of the position; at 480 Hz, a contact every
///   other step, these add up to a few ulps more than the bound allows early in the slide.
#[test]
fn a_ball_on_a_frictionless_slope_slides_the_closed_form_in_the_event_machinery() {
    for hz in [60.0, 480.0] {
        slide_down_a_slope(0.0, hz, 0.0, false, 1e-5);
        slide_down_a_slope(0.0, hz, 0.5, false, 1e-5);
    }
    slide_down_a_slope(0.0, 60.0, 0.5, true, 1e-5);
}

/// What this proves: on a slope of friction μ = 0.2 (below tan 30°, so the ball slides),
/// the resting solve's friction is a steady deceleration within the step: the ball slides
/// `½·g·(sin θ − μ·cos θ)·t²` within 1e-5 relative, where the chord runs ahead by 1/(2n)
/// after n steps. Two faults showed here first: the separation bias each step leaves the
/// ball with cut the solve's normal impulse, and so the friction, by 1e-4 at 6 units/s;
/// and it lifted the ball off the face by 1e-5 of its slide, past the touch slop after
/// 5 units, where the ball fell back in a hop.
#[test]
fn a_ball_on_a_rough_slope_slides_the_closed_form_in_the_event_machinery() {
    for hz in [60.0, 480.0] {
        slide_down_a_slope(0.2, hz, 0.5, false, 1e-5);
    }
}

/// What this proves: a ball that slides off the lower end of a frictionless slope, in the
/// event machinery, flies on from where its foot leaves the face, exactly: it slides
/// `s(t) = ½·g·sin θ·t²` until its foot reaches the end (at `t_e = √(2·L/(g·sin θ))`), then
/// follows the parabola from there with the velocity it had (fast enough, `v² > g_n·r`, to
/// clear the end's cap). At every step end both stages match their closed forms within
/// 1e-5 of the distance from the start plus a few f32 ulps, at 60 and 480 Hz. Sliding on
/// along the face's line, the ball stayed up there till the step's end.
#[test]
fn a_ball_sliding_off_the_end_of_a_slope_flies_from_where_it_leaves() {
    let angle = 30.0_f32.to_radians();
    let down = Vec2::new(angle.cos(), -angle.sin());
    let normal = Vec2::new(angle.sin(), angle.cos());
    let top = Vec2::new(0.0, 20.0);
    let length = 3.0_f32;
    let slope = [Obstacle::segment(Segment::new(top, top + down * length))];
    let above = top + normal * 5.0;
    let still = Obstacle::segment(Segment::new(above, above + down * 60.0));
    let mut moving = [MovingObstacle::new(still, SegmentMotion::default())];
    let start = top + down * 1.0 + normal * RADIUS;
    let (g, sin) = (f64::from(G), 0.5_f64);
    let (down64, start64) = (down.as_dvec2(), start.as_dvec2());
    // The foot reaches the end after sliding length − 1.
    let slid = f64::from(length) - 1.0;
    let leaves = (2.0 * slid / (g * sin)).sqrt();
    let at_end = start64 + down64 * slid;
    let end_velocity = down64 * (g * sin * leaves);
    let expected = |t: f64| {
        if t <= leaves {
            start64 + down64 * (0.5 * g * sin * t * t)
        } else {
            let u = t - leaves;
            at_end + end_velocity * u + glam::DVec2::new(0.0, -0.5 * g * u * u)
        }
    };
    for hz in [60.0_f32, 480.0] {
        let settings = MultiballSettings {
            gravity: Vec2::new(0.0, -G),
            resting_speed: 0.5,
            ..MultiballSettings::default()
        };
        let mut balls = [Ball::new(start, Vec2::ZERO, RADIUS)];
        let mut scratch = MultiballScratch::default();
        for n in 1..=(1.5 * hz) as u32 {
            let report = step_event_ball(
                &mut balls,
                1.0 / hz,
                &slope[..],
                &mut moving,
                &settings,
                &mut scratch,
            );
            assert_eq!(report.capped_balls, 0);
            let t = f64::from(n) / f64::from(hz);
            let want = expected(t);
            let error = (balls[0].center.as_dvec2() - want).length();
            let rounding = 4.0 * f64::from(f32::EPSILON) * f64::from(balls[0].center.abs().max_element());
            assert!(
                error <= 1e-5 * (want - start64).length() + rounding,
                "{hz} Hz, t = {t} (leaves at {leaves}): at {}, the closed form says {want}",
                balls[0].center
            );
        }
    }
}
