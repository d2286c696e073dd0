//! A ball that touches an arc and moves along it, into it by a hair, is met at once: the
//! approach is decided on the f64 normal, so the f32 normal's rounding cannot turn it and
//! let the ball pass into the arc (a ball riding the inside of a ring, or sliding over a
//! rail under gravity, starts every step so).
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{Circle, CircleArc, Parabola, Vec2, sweep_circle_arc, sweep_parabola_arc};
use std::f32::consts::TAU;

#[test]
fn a_ball_on_the_inside_of_a_ring_moving_along_it_is_met_at_once() {
    // A ring of 100, a ball of 5 touching its inside (centre at 95), moving along the
    // tangent: a straight line leaves the circle of 95 at once, into the ring.
    let ring = CircleArc::new(Vec2::ZERO, 100.0, 0.0, TAU);
    let mut missed = 0;
    for k in 0..3600 {
        let (s, c) = (k as f32 * TAU / 3600.0).sin_cos();
        let center = Vec2::new(c, s) * 95.0;
        let motion = Vec2::new(-s, c) * (400.0 / 120.0);
        match sweep_circle_arc(Circle::new(center, 5.0), motion, ring) {
            // Met where it touches: its centre on the circle of 95 (a start a hair inside
            // it, in f32, is met a hair later).
            Some(hit) => assert!(
                (hit.center.length() - 95.0).abs() < 1e-4,
                "angle {k}: met at {}",
                hit.center
            ),
            None => missed += 1,
        }
    }
    assert_eq!(missed, 0, "of 3,600 angles, missed at {missed}");
}

#[test]
fn a_ball_pressed_onto_a_rail_by_gravity_is_met_at_once() {
    // A rail of 9.5 over the top half; a ball of 0.5 on it (centre at 10) with the speed
    // of a slide from the top, along the tangent: gravity's part towards the centre
    // (10·cos α) beats v²/L, so its parabola falls inside the circle of 10 at once.
    let rail = CircleArc::new(Vec2::ZERO, 9.5, 0.0, std::f32::consts::PI);
    let mut missed = 0;
    for k in 1..800 {
        let alpha = k as f32 * 0.001;
        let (s, c) = alpha.sin_cos();
        let center = Vec2::new(s, c) * 10.0;
        // Sliding from the top: v² = 2·g·L·(1 − cos α) < g·L·cos α up to cos α = ⅔.
        let speed = (2.0 * 10.0 * 10.0 * (1.0 - c)).sqrt();
        let path = Parabola::new(Vec2::new(c, -s) * speed, Vec2::new(0.0, -10.0), 1.0 / 60.0);
        match sweep_parabola_arc(Circle::new(center, 0.5), path, rail) {
            Some(found) => {
                let at = found.hit.center.length();
                assert!((at - 10.0).abs() < 1e-4, "α {alpha}: met at {at} from the centre");
            }
            None => missed += 1,
        }
    }
    assert_eq!(missed, 0, "of 799 angles, missed at {missed}");
}
