//! Friction on a lone ball's slide along a face is the steady deceleration `μ·N/m` of a
//! sliding disc (no spin): along a face at angle θ under gravity g, the ball's speed
//! along it changes at `g·sin θ − μ·g·cos θ·sign(v)`; where that brings it to rest it
//! stays if `tan θ ≤ μ` and slides back otherwise. Every figure from the closed form, at
//! 30, 60, 120 and 1,000 Hz, through `step_balls` with ball–ball off (the lone sweep),
//! within f32 rounding of the state at each step's end ([`check`]), at restitution 0 and 1
//! (each step starts with a landing, the ball a hair off the face, and a landing's
//! friction does not depend on the bounce it would have been).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use ccd_core::{
    Ball, Material, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Segment, Vec2, step_balls,
};

/// Gravity, units/s² (downwards).
const G: f32 = 10.0;
/// The ball's radius.
const RADIUS: f32 = 0.5;

/// A ball on a long face at `angle` (radians, rising to the right), ball and face of
/// friction `mu` and restitution `e`, from the face's middle, moving at `speed` along it
/// (positive: up the face), stepped at `hz` for `seconds`: its travel along the face and
/// its speed along it after each step, with the time.
fn slide(
    angle: f32,
    (mu, e): (f32, f32),
    speed: f32,
    (hz, engine): (f32, Engine),
    seconds: f32,
) -> Vec<(f64, f64, f64)> {
    let up = Vec2::new(angle.cos(), angle.sin());
    let normal = up.perp();
    let face = Obstacle {
        material: Material::new(e, mu),
        ..Obstacle::segment(Segment::new(-up * 1_000.0, up * 1_000.0))
    };
    let start = normal * RADIUS;
    let ball = Ball {
        material: Material::new(e, mu),
        ..Ball::new(start, up * speed, RADIUS)
    };
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -G),
        ball_ball: engine != Engine::Lone,
        resting_speed: if engine == Engine::EventsResting {
            2.0 * G / hz
        } else {
            0.0
        },
        ..MultiballSettings::default()
    };
    // Through the event machinery, a second ball a hair ahead of it (and of the same
    // motion), so that each step's path reaches the other's.
    let mut balls = vec![ball];
    if engine != Engine::Lone {
        balls.push(Ball {
            center: start + up * (2.0 * RADIUS + 0.01),
            ..ball
        });
    }
    let mut scratch = MultiballScratch::default();
    let walls = [face];
    let mut out = Vec::new();
    for n in 1..=(seconds * hz).round() as u32 {
        let report = step_balls(
            MultiballStep::new(&mut balls, 1.0 / hz, &walls),
            &settings,
            &mut scratch,
            |_| {},
        );
        assert_eq!(report.capped_balls, 0, "{engine:?}, {hz} Hz: {report:?}");
        let b = balls[0];
        let off = (b.center - start).dot(normal);
        assert!(off.abs() < 1e-4, "{engine:?}, {hz} Hz: {off} off the face");
        let along = f64::from((b.center - start).dot(up));
        out.push((f64::from(n) / f64::from(hz), along, f64::from(b.velocity.dot(up))));
    }
    out
}

/// How the slide is stepped.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Engine {
    /// The lone sweep (ball–ball off).
    Lone,
    /// The event machinery (ball–ball on, a second ball beside it), at no resting speed.
    Events,
    /// The event machinery at the plugin's resting speed, 2·g·dt.
    EventsResting,
}

impl Engine {
    /// How close to the closed form its slide stays, relative to 1 + the value, before
    /// f32 rounding adds up. The event machinery's ball at no resting speed lands on the
    /// face at each step's start, after a flight from the separation bias it left its last
    /// rest with: 2e-6. (Rubbed by the bias it leaves with now, not the one it came with,
    /// it gained or lost μ·1e-5 of its change of speed: 2e-5 of a slide up a slope and
    /// back.)
    fn precision(self) -> f64 {
        match self {
            Engine::Lone => 1e-6,
            Engine::Events | Engine::EventsResting => 3e-6,
        }
    }
}

/// The closed form: travel and speed along the face at `t`, from `v0` up it.
fn closed(angle: f64, mu: f64, v0: f64, t: f64) -> (f64, f64) {
    let g = f64::from(G);
    let (along, press) = (g * angle.sin(), g * angle.cos());
    // Up the face first (if at all): decelerating at along + μ·press to rest.
    let mut s = 0.0;
    let (mut v, mut t) = (v0, t);
    if v > 0.0 {
        let a = along + mu * press;
        let stop = v / a;
        if t <= stop {
            return (v * t - 0.5 * a * t * t, v - a * t);
        }
        s = v * stop - 0.5 * a * stop * stop;
        t -= stop;
        v = 0.0;
    }
    // Down (or at rest where friction holds it).
    let a = along - mu * press;
    if v == 0.0 && a <= 0.0 {
        return (s, 0.0);
    }
    (s + v * t - 0.5 * a * t * t, v - a * t)
}

/// Checks the slide against the closed form at each step's end, on each engine, within
/// [`Engine::precision`] (relative to 1 + the value) plus what rounding the velocity to f32
/// at each step's end can add up to: half an ulp of the speed a step (a step's change of
/// speed, a fixed amount, rounds the same way step after step: at 1 kHz, 0.003 u/s off
/// 6 u/s is 6,291.46 ulps, taken as 6,291, a gain of 2.2e-7 u/s a step), and that times
/// the time for the travel.
fn check(angle_deg: f64, mu: f32, v0: f32, seconds: f32) {
    let angle = angle_deg.to_radians();
    for (engine, e, hz) in [Engine::Lone, Engine::Events, Engine::EventsResting]
        .into_iter()
        .flat_map(|engine| [0.0, 1.0].map(|e| (engine, e)))
        .flat_map(|(engine, e)| [30.0, 60.0, 120.0, 1_000.0].map(|hz| (engine, e, hz)))
    {
        let mut worst = 0.0_f64;
        for (n, (t, s, v)) in slide(angle as f32, (mu, e), v0, (hz, engine), seconds)
            .into_iter()
            .enumerate()
        {
            let (want_s, want_v) = closed(angle, f64::from(mu), f64::from(v0), t);
            let half_ulp = 0.5 * f64::from(f32::EPSILON) * want_v.abs().max(f64::from(v0.abs())).max(1.0);
            let drift = (n + 1) as f64 * half_ulp;
            let speed_bound = engine.precision() * (1.0 + want_v.abs()) + drift;
            let travel_bound = engine.precision() * (1.0 + want_s.abs()) + drift * t;
            let (ds, dv) = ((s - want_s).abs(), (v - want_v).abs());
            worst = worst.max((ds / travel_bound).max(dv / speed_bound));
            assert!(
                ds <= travel_bound && dv <= speed_bound,
                "{engine:?}, {angle_deg}°, μ = {mu}, e = {e}, v₀ = {v0}, {hz} Hz, t = {t}: travel {s} (want {want_s}), speed {v} (want {want_v})"
            );
        }
        eprintln!(
            "{engine:?}, {angle_deg}°, μ = {mu}, e = {e}, v₀ = {v0}, {hz} Hz: worst error {worst:.2} of the bound"
        );
    }
}

#[test]
fn a_ball_sliding_down_a_rough_slope_follows_the_closed_form() {
    // tan 30° = 0.577 > 0.2: it slides down at g·(sin 30° − 0.2·cos 30°) = 3.27 u/s².
    check(30.0, 0.2, 0.0, 2.0);
}

#[test]
fn a_ball_pushed_along_a_rough_floor_stops_where_friction_stops_it() {
    // v₀ = 6 on a level floor, μ = 0.3: it stops after 6/3 = 2 s, 6²/(2·3) = 6 on.
    check(0.0, 0.3, 6.0, 3.0);
}

#[test]
fn a_ball_pushed_up_a_rough_slope_stops_then_slides_back_or_stays() {
    // Up a 20° slope at 5 u/s: decelerating at g·(sin 20° + μ·cos 20°); then, as
    // tan 20° = 0.364, μ = 0.2 lets it slide back down and μ = 0.5 holds it.
    check(20.0, 0.2, 5.0, 3.0);
    check(20.0, 0.5, 5.0, 3.0);
}

#[test]
fn two_balls_sliding_side_by_side_through_the_event_machinery_follow_the_closed_form() {
    // Two balls 0.01 apart (each within reach of the other's step: both the event
    // machinery's), sliding at 6 u/s on a level floor 200 long, μ = 0.3, e = 0.5, with the
    // plugin's resting speed 2·g·dt, at 60 and 120 Hz: each stops after 2 s, 6 on, as
    // alone. (The resting solve took the floor's normal from its f32 closest point, tilted
    // by up to 3e-5 rad at this scale: the velocity it left went into the floor, the ball
    // met it again at once and moved straight that step, ½·μ·g·dt² behind its slide. And
    // a ball found a hair above the floor was put back on it at that closest point, its
    // rounding along the floor too, up to 1e-5 a step.)
    let (mu, v0) = (0.3_f32, 6.0_f32);
    let floor = Obstacle {
        material: Material::new(0.5, mu),
        ..Obstacle::segment(Segment::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0)))
    };
    for hz in [60.0_f32, 120.0] {
        let mut balls: Vec<Ball> = [0.0_f32, 2.0 * RADIUS + 0.01]
            .map(|x| Ball {
                material: Material::new(0.5, mu),
                ..Ball::new(Vec2::new(x, RADIUS), Vec2::new(v0, 0.0), RADIUS)
            })
            .to_vec();
        let settings = MultiballSettings {
            gravity: Vec2::new(0.0, -G),
            resting_speed: 2.0 * G / hz,
            ..MultiballSettings::default()
        };
        let mut scratch = MultiballScratch::default();
        let mut worst = 0.0_f64;
        for n in 1..=(3.0 * hz) as u32 {
            let report = step_balls(
                MultiballStep::new(&mut balls, 1.0 / hz, &[floor]),
                &settings,
                &mut scratch,
                |_| {},
            );
            let t = f64::from(n) / f64::from(hz);
            let (want_s, want_v) = closed(0.0, f64::from(mu), f64::from(v0), t);
            // While a step's slide reaches past the gap, each ball's path meets the other's.
            if want_v / f64::from(hz) > 0.02 {
                assert_eq!(
                    report.event_balls, 2,
                    "{hz} Hz, t = {t}: both the event machinery's"
                );
            }
            for (b, x0) in balls.iter().zip([0.0, 2.0 * f64::from(RADIUS) + 0.01]) {
                let (s, v) = (f64::from(b.center.x) - x0, f64::from(b.velocity.x));
                // As `check`: 1e-6, and half an ulp of the speed a step.
                let drift = f64::from(n) * 0.5 * f64::from(f32::EPSILON) * f64::from(v0);
                let (ds, dv) = ((s - want_s).abs(), (v - want_v).abs());
                worst = worst.max(ds).max(dv);
                assert!(
                    ds <= 1e-6 * (1.0 + want_s) + drift * t && dv <= 1e-6 * (1.0 + want_v) + drift,
                    "{hz} Hz, t = {t}: at {s} moving {v}, not at {want_s} moving {want_v}"
                );
            }
        }
        eprintln!("two balls side by side on a rough floor, {hz} Hz: within {worst:.1e} of the closed form");
    }
}

#[test]
fn through_the_event_machinery_a_rough_slide_needs_no_resting_speed() {
    // With a second ball beside it (both the event machinery's) and no resting speed (the
    // core's default), each step starts in flight and the ball lands on the face. It
    // slides on from there, friction in its pull: down a 30° slope from rest, μ = 0.2,
    // within 1e-5 of the closed form (relative to 1 + each), at restitution 0 and 1; and
    // at rest on a 20° slope of μ = 0.5 (tan 20° = 0.364), friction holds it, within
    // 1e-6. (Settled there, it took the rest of the step's gravity at once, 2.1e-2 off
    // at 30 Hz at e = 0; at e = 1 it met the face again at once and hopped off it.)
    for (angle, mu, bound) in [(30.0_f64, 0.2_f32, 1e-5), (20.0, 0.5, 1e-6)] {
        for (e, hz) in [0.0, 1.0]
            .into_iter()
            .flat_map(|e| [30.0, 60.0, 120.0, 1_000.0].map(|hz| (e, hz)))
        {
            let mut worst = 0.0_f64;
            for (t, s, v) in slide(
                (angle as f32).to_radians(),
                (mu, e),
                0.0,
                (hz, Engine::Events),
                2.0,
            ) {
                let (want_s, want_v) = closed(angle.to_radians(), f64::from(mu), 0.0, t);
                let (ds, dv) = (
                    (s - want_s).abs() / (1.0 + want_s.abs()),
                    (v - want_v).abs() / (1.0 + want_v.abs()),
                );
                worst = worst.max(ds).max(dv);
                assert!(
                    ds <= bound && dv <= bound,
                    "{angle}°, μ = {mu}, e = {e}, {hz} Hz, t = {t}: travel {s} (want {want_s}), speed {v} (want {want_v})"
                );
            }
            eprintln!(
                "event machinery, {angle}°, μ = {mu}, e = {e}, {hz} Hz: within {worst:.1e} of the closed form"
            );
        }
    }
}
