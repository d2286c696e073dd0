use super::*;
use std::f64::consts::PI;

/// A track of radius `radius` about the origin, gravity 10 down, its zero `zero`.
fn track(radius: f64, inside: bool, friction: f64, zero: DVec2) -> Track {
    Track {
        center: DVec2::ZERO,
        radius,
        inside,
        gravity: DVec2::new(0.0, -10.0),
        friction,
        zero,
        half_gap: 0.0,
    }
}

fn limits(heading: f64, time: f64) -> RunLimits {
    RunLimits {
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
        heading,
        target: f64::INFINITY * heading,
        time,
    }
}

/// The complete elliptic integral of the first kind, K(k), by the arithmetic–geometric
/// mean: K = π / (2·AGM(1, √(1 − k²))).
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0_f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    PI / (2.0 * a)
}

#[test]
fn off_a_post_from_rest_it_leaves_where_cos_is_two_thirds_of_the_start() {
    // Outside a circle, from rest at θ₀ from the top, a frictionless ball leaves where
    // cos θ = ⅔·cos θ₀, at speed √(2·g·L·(cos θ₀ − cos θ)).
    for theta0 in [0.1_f64, 0.3, 0.6] {
        let l = 10.0;
        let up = DVec2::Y;
        // Angle counter-clockwise from the zero; the ball sits θ₀ to the right of the top
        // (clockwise), so it slides on clockwise: heading −1.
        let zero = DVec2::new(theta0.sin(), theta0.cos());
        let t = track(l, false, 0.0, zero);
        let out = run(
            &t,
            RideState {
                angle: 0.0,
                rate: 0.0,
            },
            limits(-1.0, 100.0),
        );
        assert_eq!(out.end, RunEnd::Leaves, "θ₀ {theta0}");
        let at = t.radial(out.state.angle);
        let theta = at.dot(up).acos();
        let expected = (2.0 / 3.0 * theta0.cos()).acos();
        assert!(
            (theta - expected).abs() < 1e-9,
            "θ₀ {theta0}: left at {theta}, not {expected}"
        );
        let speed = t.velocity(out.state).length();
        let expected_speed = (2.0 * 10.0 * l * (theta0.cos() - theta.cos())).sqrt();
        assert!(
            (speed / expected_speed - 1.0).abs() < 1e-9,
            "{speed} vs {expected_speed}"
        );
    }
}

#[test]
fn in_a_bowl_it_swings_with_the_pendulums_period() {
    // Inside a circle, from rest at θ₀ from the bottom: a pendulum of length L, whose
    // half period (bottom-to-turn-to-bottom ... turn to turn) is 2·K(sin(θ₀/2))·√(L/g).
    for theta0 in [0.2_f64, 0.6, 1.2] {
        let l = 9.5;
        let zero = DVec2::new(theta0.sin(), -theta0.cos());
        let t = track(l, true, 0.0, zero);
        // From rest it falls towards the bottom (clockwise from the right: heading −1) and
        // turns on the far side after half a period.
        let out = run(
            &t,
            RideState {
                angle: 0.0,
                rate: 0.0,
            },
            limits(-1.0, 100.0),
        );
        assert_eq!(out.end, RunEnd::Turns);
        let half = 2.0 * elliptic_k((theta0 / 2.0).sin()) * (l / 10.0).sqrt();
        assert!(
            (out.time - half).abs() < 1e-9,
            "θ₀ {theta0}: {} vs {half}",
            out.time
        );
        // At the far turn it is as high as it started: θ₀ on the other side.
        assert!(
            (out.state.angle + 2.0 * theta0).abs() < 1e-9,
            "{}",
            out.state.angle
        );
    }
}

#[test]
fn round_a_loop_it_falls_where_the_press_vanishes() {
    // Inside a ring, from the bottom at speed v₀ with 2·g·L < v₀² < 5·g·L: the press
    // vanishes where cos φ = (2 − v₀²/(g·L))/3, φ from the bottom.
    let (l, g) = (9.5, 10.0);
    for ratio in [2.5_f64, 3.5, 4.9] {
        let v0 = (ratio * g * l).sqrt();
        let t = track(l, true, 0.0, -DVec2::Y);
        let out = run(
            &t,
            RideState {
                angle: 0.0,
                rate: v0 / l,
            },
            limits(1.0, 100.0),
        );
        assert_eq!(out.end, RunEnd::Leaves, "v₀²/gL {ratio}");
        let phi = out.state.angle;
        assert!((phi.cos() - (2.0 - ratio) / 3.0).abs() < 1e-9, "{ratio}: {phi}");
    }
    // At v₀² = 5.5·g·L it goes round and round, keeping its energy.
    let v0 = (5.5 * g * l).sqrt();
    let t = track(l, true, 0.0, -DVec2::Y);
    let out = run(
        &t,
        RideState {
            angle: 0.0,
            rate: v0 / l,
        },
        limits(1.0, 60.0),
    );
    assert_eq!(out.end, RunEnd::TimeUp);
    let energy = |s: RideState| 0.5 * t.velocity(s).length_squared() + g * t.position(s.angle).y;
    let start = energy(RideState {
        angle: 0.0,
        rate: v0 / l,
    });
    assert!(
        (energy(out.state) / start - 1.0).abs() < 1e-9,
        "{} vs {start}",
        energy(out.state)
    );
    // 60 s at about 2.6 s a turn: more than 15 turns.
    assert!(out.state.angle > 15.0 * 2.0 * PI, "{}", out.state.angle);
}

#[test]
fn friction_holds_a_ball_where_the_slope_is_no_steeper_than_mu() {
    // On a post: at α from the top, the pull along is g·sin α and the press g·cos α.
    let mu = 0.2_f64;
    for (alpha, held) in [(mu.atan() - 1e-6, true), (mu.atan() + 1e-6, false)] {
        let zero = DVec2::new(alpha.sin(), alpha.cos());
        assert_eq!(track(10.0, false, mu, zero).holds_at_rest(0.0), held, "α {alpha}");
    }
}

#[test]
fn a_run_stops_at_the_end_of_the_part_and_at_a_target() {
    // A uniform turn (no gravity, the inside of a ring of 2 at 3 rad/s) reaches 0.6 rad
    // after 0.2 s.
    let mut t = track(2.0, true, 0.0, DVec2::X);
    t.gravity = DVec2::ZERO;
    let start = RideState {
        angle: 0.0,
        rate: 3.0,
    };
    let ends = run(
        &t,
        start,
        RunLimits {
            high: 0.6,
            ..limits(1.0, 1.0)
        },
    );
    assert_eq!(ends.end, RunEnd::Ends);
    assert!(
        (ends.time - 0.2).abs() < 1e-12 && ends.state.angle >= 0.6,
        "{ends:?}"
    );
    let reached = run(
        &t,
        start,
        RunLimits {
            target: 0.6,
            ..limits(1.0, 1.0)
        },
    );
    assert_eq!(reached.end, RunEnd::Reached);
    assert!(
        (reached.time - 0.2).abs() < 1e-12 && reached.state.angle <= 0.6,
        "{reached:?}"
    );
}
