//! The table's physics measured against a real machine's (the figures of Visual
//! Pinball's source and of measured machines, in the table file): the flipper's stroke
//! and fall times and tip speed, a resting ball's exit speed along the bat, the rolling
//! ball's acceleration, and the bumper's and slingshot's kick bands. Each test prints what
//! it measured (`cargo test --example pinball physics -- --nocapture`).

#![allow(clippy::unwrap_used, reason = "tests")]

use crate::game::{self, Controls};
use crate::parts::Flipper;
use crate::rules::Requests;
use crate::spawn::spawn_ball;
use crate::table::{self, Side};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

const CLASSIC: &str = include_str!("../../assets/tables/classic.ron");

fn app() -> App {
    let mut app = crate::headless_app(table::parse(CLASSIC).unwrap(), false, 1000.0);
    app.update();
    app
}

fn left(app: &mut App) -> (f32, f32, f32, f32, Vec2) {
    let mut q = app.world_mut().query::<&Flipper>();
    let f = q.iter(app.world()).find(|f| f.side == Side::Left).unwrap();
    (f.theta, f.omega, f.stroke, f.length, f.pivot)
}

fn ball(app: &mut App, at: Vec2, velocity: Vec2) -> Entity {
    let table = app.world().resource::<game::Table>().clone();
    let tune = app.world().resource::<game::Tune>().0.clone();
    let mut commands = app.world_mut().commands();
    let e = spawn_ball(&mut commands, &table, &tune, at, velocity);
    app.world_mut().flush();
    e
}

fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<MovingCircle>(e).unwrap().velocity
}

#[test]
fn the_flipper_strokes_and_falls_in_a_real_flippers_times() {
    // The table: up in 21 ms, down in 89 ms, a 50° (0.8727 rad) stroke of a 70 mm bat.
    // Constant acceleration from rest: α = 2·0.8727/0.021² = 3,958 rad/s², so the bat is
    // at the top after 21 steps of 1 ms, moving at 2·0.8727/0.021 = 83.1 rad/s: the tip at
    // 83.1·0.070 = 5.82 m/s (real: 5.4–6.3 m/s for a 70–79 mm bat).
    let mut app = app();
    app.world_mut().resource_mut::<Controls>().left = true;
    let (mut up_ms, mut top_speed) = (None, 0.0_f32);
    for step in 1..=100 {
        app.update();
        let (theta, omega, stroke, _, _) = left(&mut app);
        top_speed = top_speed.max(omega);
        if up_ms.is_none() && theta >= stroke {
            up_ms = Some(step);
        }
    }
    let up_ms = up_ms.unwrap();
    let (_, _, _, length, _) = left(&mut app);
    let tip = top_speed * length;
    println!("stroke {up_ms} ms, last speed {top_speed:.1} rad/s, tip {tip:.0} mm/s");
    assert!((21..=22).contains(&up_ms), "stroke took {up_ms} ms");
    // The last full step before the stop moves at α·20 ms = 79.2 rad/s or, when f32
    // rounding leaves the bat a hair short of the top after 21 steps, α·21 ms = 83.1.
    assert!((79.1..=83.2).contains(&top_speed), "{top_speed} rad/s");
    assert!((5400.0..=6300.0).contains(&(83.1 * length)), "tip speed");
    app.world_mut().resource_mut::<Controls>().left = false;
    let mut down_ms = None;
    for step in 1..=300 {
        app.update();
        if down_ms.is_none() && left(&mut app).0 <= 0.0 {
            down_ms = Some(step);
        }
    }
    let down_ms = down_ms.unwrap();
    println!("fall {down_ms} ms");
    assert!((89..=90).contains(&down_ms), "fall took {down_ms} ms");
}

#[test]
fn a_resting_ball_leaves_the_bat_faster_the_nearer_the_tip() {
    // A ball at rest on the resting left bat at distance d from the pivot, flipped at
    // once. The bat pushes it (and bounces it, e = 0.55 falling off with speed) for the
    // whole stroke, so it leaves at about the bat's speed where it touches at the end of
    // the stroke, up to (1 + e) times that: between ω_end·d·(1/2) (it may be thrown
    // ahead early and never caught again) and (1 + 0.55)·ω_end·(d + r), ω_end = 83.1 rad/s.
    // A real machine: 4–5 m/s near the tip (here 60 mm of 70; a ball further out rolls
    // off the tip as the bat rises).
    let mut speeds = Vec::new();
    for d in [20.0_f32, 35.0, 50.0, 60.0] {
        let mut app = app();
        let (_, _, _, _, pivot) = left(&mut app);
        let table = app.world().resource::<game::Table>().clone();
        let r = table.def.ball_radius;
        let f = &table.def.flippers[0];
        let along = Vec2::from_angle(f.rest_degrees.to_radians());
        let at = pivot + along * d + along.perp() * (f.thickness * 0.5 + r + 0.01);
        let e = ball(&mut app, at, Vec2::ZERO);
        app.world_mut().resource_mut::<Controls>().left = true;
        let mut fastest = 0.0_f32;
        for _ in 0..60 {
            app.update();
            fastest = fastest.max(velocity(&app, e).length());
        }
        let omega = 83.1;
        println!(
            "ball at {d} mm: leaves at {fastest:.0} mm/s (bat there {:.0})",
            omega * d
        );
        assert!(fastest >= 0.5 * omega * d, "{d} mm: {fastest}");
        assert!(fastest <= 1.55 * omega * (d + r), "{d} mm: {fastest}");
        speeds.push(fastest);
    }
    // Faster further out along the bat (up to where the ball starts to roll off its tip),
    // and near the tip in a real machine's band.
    assert!(
        speeds[..3].windows(2).all(|w| w[1] > w[0]),
        "not faster further out: {speeds:?}"
    );
    assert!(
        (4000.0..=5000.0).contains(&speeds[3]),
        "near the tip: {}",
        speeds[3]
    );
}

#[test]
fn a_free_ball_rolls_down_at_five_sevenths_of_gravity() {
    // Slope 6.5°: g·sin θ = 9,810·0.11320 = 1,110.5 mm/s²; a solid ball rolling without
    // slipping takes 5/7 of it, 793.2 mm/s². Released at rest in the open top of the
    // table, after 0.3 s it falls at 793.2·0.3 = 238.0 mm/s.
    let mut app = app();
    let e = ball(&mut app, Vec2::new(300.0, 960.0), Vec2::ZERO);
    for _ in 0..300 {
        app.update();
    }
    let v = velocity(&app, e);
    println!("after 0.3 s: {v} mm/s, {:.1} mm/s²", -v.y / 0.3);
    assert!(v.x.abs() < 1e-3, "pushed sideways: {v}");
    assert!((-v.y / 0.3 - 793.2).abs() < 0.5, "{v}");
}

/// Shoot a ball at `speed` along `-normal` into the surface at `point`, and return its
/// normal speed after the first bounce.
fn bounce_off(app: &mut App, point: Vec2, normal: Vec2, speed: f32) -> f32 {
    let r = app.world().resource::<game::Table>().def.ball_radius;
    // Gravity off: only the contact changes the velocity.
    app.world_mut().resource_mut::<game::Table>().def.slope_degrees = 0.0;
    let e = ball(app, point + normal * (r + 2.0), -normal * speed);
    for _ in 0..200 {
        app.update();
        let v = velocity(app, e);
        if v.dot(normal) > 0.0 {
            app.world_mut().entity_mut(e).despawn();
            return v.dot(normal);
        }
    }
    panic!("never bounced");
}

/// The rubber's restitution at `v` mm/s: `e / (1 + 0.1·v in m/s)` (the table file).
fn rubber(e: f32, v: f32) -> f32 {
    e / (1.0 + 0.1 * v / 1000.0)
}

#[test]
fn a_pop_bumper_adds_its_kick_above_its_threshold() {
    // The third bumper, centre (238, 610), radius 22, hit from below. Real machines add
    // 0.5–0.8 m/s along the normal above about 0.1 m/s of approach; the table adds 0.65.
    let mut app = app();
    let (c, radius) = (Vec2::new(238.0, 610.0), 22.0);
    for speed in [60.0_f32, 300.0, 1000.0, 2500.0] {
        let out = bounce_off(&mut app, c - Vec2::Y * radius, -Vec2::Y, speed);
        let added = out - rubber(0.9, speed) * speed;
        println!("bumper: in {speed} mm/s, out {out:.1}, added {added:.1}");
        if speed < 100.0 {
            assert!(added.abs() < 0.5, "fired below the threshold: {added}");
        } else {
            assert!((500.0..=800.0).contains(&added), "{speed}: added {added}");
        }
    }
}

#[test]
fn a_slingshot_kicks_hardest_at_the_middle_of_its_band() {
    // The left slingshot's face from (78, 340) to (135, 240), hit square at 500 mm/s at
    // its middle and near its lower end (a tenth of the way). Real: up to 1.1–1.35 m/s at
    // the middle and less towards the ends, the band reflecting at about 0.85.
    let mut app = app();
    app.world_mut().resource_mut::<Requests>().new_game = false;
    let (a, c) = (Vec2::new(78.0, 340.0), Vec2::new(135.0, 240.0));
    let normal = (c - a).perp().normalize();
    let speed = 500.0;
    let mut added = Vec::new();
    for u in [0.5_f32, 0.1] {
        let out = bounce_off(&mut app, a.lerp(c, u), normal, speed);
        let kick = out - rubber(0.85, speed) * speed;
        println!("sling at {u} of the band: out {out:.1} mm/s, added {kick:.1}");
        added.push(kick);
    }
    assert!((1100.0..=1350.0).contains(&added[0]), "middle: {}", added[0]);
    assert!(added[1] > 0.0 && added[1] < added[0], "end: {added:?}");
}
