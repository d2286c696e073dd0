//! Rides on Starfall's round parts, through the game at 480 Hz and 1 kHz: a ball running
//! round the inside of the top arch (the orbits' way round), along the ramp's half turn and
//! up the right orbit's foot rides each exactly, its centre on the ridden circle, and keeps its energy once what
//! friction took is added back (`cargo test --example pinball ride -- --nocapture`).

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::table::ramp::{ON_PLAYFIELD, ON_RAMP, RAMP_BALL_Z};
use crate::table::spawn::spawn_ball;
use crate::table::{self, Table, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::f32::consts::{PI, TAU};

const STARFALL: &str = include_str!("../../../assets/tables/starfall.ron");

/// What a ride measured: its steps, how far the centre strayed from the ridden circle,
/// and the worst energy drift, friction's take added back, over the ride's energy.
#[derive(Debug)]
struct Rode {
    steps: u32,
    /// The angle about the centre (radians from +x, counter-clockwise) where the last
    /// whole step of the ride ended.
    reached: f32,
    off_circle: f32,
    drift: f64,
}

/// A round part a ball rides: the centre and radius `l` of its centre's circle, the angle
/// (radians from +x, counter-clockwise) up to which the ride is exact, and the ball's
/// layers.
#[derive(Clone, Copy)]
struct Curve {
    center: Vec2,
    l: f32,
    exact_until: f32,
    layers: CcdLayers,
}

/// A ball at `angle` (radians from +x, counter-clockwise) on `curve`'s circle, moving
/// counter-clockwise along it at `speed`, stepped at `hz` while it rides whole steps.
fn ride(hz: f64, curve: Curve, angle: f32, speed: f32) -> Rode {
    let Curve {
        center, l, layers, ..
    } = curve;
    let mut app = crate::harness::headless::headless_app(table::parse(STARFALL).unwrap(), false, hz);
    app.update();
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    let (radial, along) = (Vec2::from_angle(angle), Vec2::from_angle(angle).perp());
    let mut commands = app.world_mut().commands();
    let ball = spawn_ball(&mut commands, &table, &tune, center + radial * l, along * speed);
    commands.entity(ball).insert(layers);
    app.world_mut().flush();
    if layers == ON_RAMP {
        app.world_mut().get_mut::<Transform>(ball).unwrap().translation.z = RAMP_BALL_Z;
    }
    // The game's gravity: the table's rolling gravity, down the playfield.
    let g = Vec2::new(0.0, -table.def.rolling_gravity(&tune)).as_dvec2();
    let energy = |app: &App| {
        let p = app.world().get::<Transform>(ball).unwrap().translation.truncate();
        let v = app.world().get::<MovingCircle>(ball).unwrap().velocity;
        0.5 * v.as_dvec2().length_squared() - g.dot(p.as_dvec2())
    };
    let dt = (1.0 / hz) as f32;
    let mut rode = Rode {
        steps: 0,
        reached: angle,
        off_circle: 0.0,
        drift: 0.0,
    };
    // The energy as the first whole step of the ride begins (the ball may meet the part a
    // hair into the first step), and what friction took since.
    let mut start = None;
    let mut taken = 0.0_f64;
    for _ in 0..(2.0 * hz) as usize {
        let before = energy(&app);
        app.update();
        let ride = *app.world().get::<CcdRide>(ball).unwrap();
        if ride.time < dt * (1.0 - 1e-4) {
            if start.is_some() {
                return rode;
            }
            continue;
        }
        let start = *start.get_or_insert(before);
        rode.steps += 1;
        taken += f64::from(ride.friction_loss);
        let p = app.world().get::<Transform>(ball).unwrap().translation.truncate();
        rode.off_circle = rode.off_circle.max(((p - center).length() - l).abs());
        rode.reached = (p - center).to_angle().rem_euclid(TAU);
        rode.drift = rode.drift.max((energy(&app) + taken - start).abs() / start.abs());
    }
    rode
}

#[test]
fn a_ball_rides_the_top_arch_the_ramps_turn_and_the_orbits_foot_exactly() {
    let def = table::parse(STARFALL).unwrap();
    let r = def.ball_radius;
    // The top arch: radius 255 about (255, 815), from 0° to 180°, entered at 0.5 rad at
    // 2.5 m/s; the ramp's outer wire turns about (300, 820) at radius 91 from 0° to 185°
    // (the ball rides its inside), entered at 0.3 rad at 1.5 m/s. Each ball rides whole
    // steps on to within a step's turn of where its ride stops being exact; its centre
    // stays on the ridden circle within two f32 ulps of its coordinates (2.5e-4 mm at
    // most), and its energy, what friction took added back, within 1e-5 of the ride's
    // (f32 rounding; the bound for a closed scene).
    //
    // Before the arch's end the left orbit's flap (a hinged part) comes near: its swept
    // box reaches its lever, pivot to tip, about its pivot, and from where the ball's box
    // meets it the event machinery takes the ball on. It rides on exactly, to the arch's
    // end (before, it rode chords from there, 0.1 rad short of it).
    let arch = Curve {
        center: Vec2::new(255.0, 815.0),
        l: 255.0 - r,
        exact_until: PI,
        layers: ON_PLAYFIELD,
    };
    let turn = Curve {
        center: Vec2::new(300.0, 820.0),
        l: 91.0 - r,
        exact_until: 185_f32.to_radians(),
        layers: ON_RAMP,
    };
    // The right orbit's foot: the inside of its arc, radius 40 about (394, 578) from
    // −30° to 0°, where the lane's inner wall goes on straight up from the arc's end (a
    // flat joint), entered at −26° going up the lane at 1.5 m/s: ridden exactly to the
    // arc's end (the wall's end, within the touch slop from 0.3° before it, once stopped
    // the ride there).
    let foot = Curve {
        center: Vec2::new(394.0, 578.0),
        l: 40.0 - r,
        exact_until: TAU,
        layers: ON_PLAYFIELD,
    };
    for (name, curve, from, speed) in [
        ("the top arch", arch, 0.5, 2500.0),
        ("the ramp's turn", turn, 0.3, 1500.0),
        ("the right orbit's foot", foot, TAU - 26_f32.to_radians(), 1500.0),
    ] {
        for hz in [480.0, 1000.0] {
            let rode = ride(hz, curve, from, speed);
            println!("{name} at {hz} Hz: {rode:?}");
            let step_turn = speed / curve.l / hz as f32;
            assert!(
                rode.reached > curve.exact_until - step_turn,
                "{name} at {hz} Hz: rode to {} of {}",
                rode.reached,
                curve.exact_until
            );
            let ulps = 2.0 * f32::EPSILON * (curve.center.abs().max_element() + curve.l);
            assert!(rode.off_circle < ulps, "{name} at {hz} Hz: {rode:?}");
            assert!(rode.drift < 1e-5, "{name} at {hz} Hz: {rode:?}");
        }
    }
}

/// Where a ball sliding off the top of a round part of centre-circle radius `l` leaves
/// it, let go at rest `alpha0` from the top, with friction `mu` and gravity `g`: the angle
/// from the top where the press `g·cos α − L·α'²` reaches zero, and the speed there, by an
/// f64 Runge–Kutta integration of `L·α'' = g·sin α − μ·(g·cos α − L·α'²)` (steps of 1e-6
/// s).
fn reference_leave(l: f64, g: f64, mu: f64, alpha0: f64) -> (f64, f64) {
    let accel = |a: f64, w: f64| (g * a.sin() - mu * (g * a.cos() - l * w * w)) / l;
    let press = |a: f64, w: f64| g * a.cos() - l * w * w;
    let (mut a, mut w) = (alpha0, 0.0_f64);
    let h = 1e-6;
    loop {
        let f = |a: f64, w: f64| (w, accel(a, w));
        let k1 = f(a, w);
        let k2 = f(a + 0.5 * h * k1.0, w + 0.5 * h * k1.1);
        let k3 = f(a + 0.5 * h * k2.0, w + 0.5 * h * k2.1);
        let k4 = f(a + h * k3.0, w + h * k3.1);
        let next = (
            a + h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0),
            w + h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1),
        );
        if press(next.0, next.1) <= 0.0 {
            // The press crosses zero within this step: where, by linear interpolation.
            let (p0, p1) = (press(a, w), press(next.0, next.1));
            let f = p0 / (p0 - p1);
            return (a + f * (next.0 - a), l * (w + f * (next.1 - w)));
        }
        (a, w) = next;
    }
}

#[test]
fn a_ball_let_go_or_dropped_off_centre_on_a_post_falls_off() {
    // The top of the left inlane post, the end (52, 440) of its guide (a round end of
    // radius 0: the ball's centre rides the circle of its radius, 13.5 mm), a ball let go
    // at rest 0.3 rad off its top (away from the guide), at 480 Hz and 1 kHz. It slides
    // off, with the table's friction (ball and wall μ = 0.1), where the f64 integration of
    // a sliding disc's equations says: within 1e-4 rad (8.3e-5 at 480 Hz, 2.9e-5 at 1 kHz),
    // at its speed within 2e-4 of it (8.9e-5 and 1.7e-5). The f32 state at the table's
    // coordinates, about 450 mm, moves in steps of 3e-5 mm: 2.3e-6 of this 13.5 mm circle,
    // 24 times coarser against it than in `ccd_core`'s test of the same closed form
    // (within 1e-5 there). Dropped 1 mm onto it at the same place, it lands and falls off.
    // (The leave is found from the step it happens in: the ball rode `CcdRide::time` of
    // it, and flew the rest on its parabola, traced back to where it began.)
    let def = table::parse(STARFALL).unwrap();
    let post = Vec2::new(52.0, 440.0);
    let l = def.ball_radius;
    let alpha0 = 0.3_f32;
    for hz in [480.0, 1000.0] {
        let mut app = crate::harness::headless::headless_app(table::parse(STARFALL).unwrap(), false, hz);
        app.update();
        let table = app.world().resource::<Table>().clone();
        let tune = app.world().resource::<Tune>().0.clone();
        let g = Vec2::new(0.0, -table.def.rolling_gravity(&tune));
        // The ball's and the wall's friction, the same (0.1), whatever the rule combining
        // them.
        assert_eq!(tune.ball_friction, tune.wall_friction);
        let mu = tune.wall_friction;
        let (want_angle, want_speed) = reference_leave(f64::from(l), f64::from(-g.y), f64::from(mu), 0.3);
        let at = post + Vec2::new(alpha0.sin(), alpha0.cos()) * l;
        let mut commands = app.world_mut().commands();
        let ball = spawn_ball(&mut commands, &table, &tune, at, Vec2::ZERO);
        app.world_mut().flush();
        let dt = (1.0 / hz) as f32;
        // The last step the ball rode in: where it left, from its end traced back along
        // the flight of the rest of the step.
        let (mut last_ride, mut left) = (None, None);
        for _ in 0..hz as usize {
            app.update();
            let ride = *app.world().get::<CcdRide>(ball).unwrap();
            let p = app.world().get::<Transform>(ball).unwrap().translation.truncate();
            let v = app.world().get::<MovingCircle>(ball).unwrap().velocity;
            if ride.time > 0.0 {
                let tau = dt - ride.time;
                last_ride = Some((p - v * tau + 0.5 * g * tau * tau - post, v - g * tau));
            }
            // Clearly off the post (each step begins a hair off it, and lands at once).
            if p.distance(post) > l + 1e-2 {
                left = last_ride;
                break;
            }
        }
        let (off, v) = left.unwrap_or_else(|| panic!("{hz} Hz: the ball never left the post"));
        let angle = f64::from(off.x.atan2(off.y));
        let speed = f64::from(v.length());
        println!(
            "off the inlane post at {hz} Hz: left at {angle:.6} rad (the reference {want_angle:.6}), at {speed:.4} mm/s ({want_speed:.4})"
        );
        assert!(
            (angle - want_angle).abs() < 1e-4,
            "{hz} Hz: left at {angle}, not {want_angle}"
        );
        assert!(
            (speed / want_speed - 1.0).abs() < 2e-4,
            "{hz} Hz: left at {speed} mm/s, not {want_speed}"
        );
        // Dropped 1 mm onto the post at the same place, it lands and falls off too: a
        // second later it is below the post's top, clear of it.
        let mut app = crate::harness::headless::headless_app(table::parse(STARFALL).unwrap(), false, hz);
        app.update();
        let mut commands = app.world_mut().commands();
        let drop = post + Vec2::new(alpha0.sin(), alpha0.cos()) * (l + 1.0);
        let ball = spawn_ball(&mut commands, &table, &tune, drop, Vec2::ZERO);
        app.world_mut().flush();
        for _ in 0..hz as usize {
            app.update();
        }
        let p = app.world().get::<Transform>(ball).unwrap().translation.truncate();
        assert!(
            p.y < post.y && p.distance(post) > l + 1.0,
            "{hz} Hz: dropped on the post, it is at {p} a second later"
        );
    }
}
