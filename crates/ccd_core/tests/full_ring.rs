//! A full ring written the natural way, `CircleArc::new(c, r, a, a + TAU)`, is a ring for
//! every start angle `a` (issue 52): f32 rounds `a + TAU` so that `end − start` is an ulp
//! or two above 2π for about a quarter of start angles, which used to be refused, and a
//! ball then passed through the ring.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{Circle, CircleArc, Vec2, sweep_circle_arc};
use std::f32::consts::TAU;

/// Start angles from −100 to 100 rad, 20,001 of them.
fn starts() -> impl Iterator<Item = f32> {
    (-10_000..=10_000).map(|k| k as f32 * 0.01)
}

#[test]
fn a_ring_from_a_to_a_plus_tau_is_accepted_for_every_start() {
    let mut above = 0;
    for a in starts() {
        let ring = CircleArc::new(Vec2::new(3.0, -2.0), 10.0, a, a + TAU);
        above += usize::from(ring.span() > TAU);
        assert_eq!(
            ring.validate(),
            Ok(()),
            "start {a}, span − 2π = {}",
            ring.span() - TAU
        );
    }
    // The case the fix is for: spans above 2π in f32 (about a quarter of them).
    assert!(above > 2_000, "{above} spans above 2π");
}

#[test]
fn a_ball_inside_such_a_ring_meets_it_in_every_direction() {
    // A ball of radius 0.5 at the ring's centre moving 20 units: it meets the ring (radius
    // 10) after (10 − 0.5) / 20 = 0.475 of its motion, whatever the direction, on rings
    // whose span f32 put above 2π.
    let center = Vec2::new(3.0, -2.0);
    let rings: Vec<CircleArc> = starts()
        .map(|a| CircleArc::new(center, 10.0, a, a + TAU))
        .filter(|r| r.span() > TAU)
        .take(50)
        .collect();
    assert_eq!(rings.len(), 50);
    for ring in rings {
        for k in 0..16 {
            let motion = Vec2::from_angle(k as f32 * TAU / 16.0) * 20.0;
            let hit = sweep_circle_arc(Circle::new(center, 0.5), motion, ring).unwrap();
            assert!(
                (hit.toi - 0.475).abs() <= 1e-5,
                "start {}: toi {}",
                ring.start,
                hit.toi
            );
        }
    }
}

#[test]
fn a_span_clearly_above_a_turn_is_still_refused() {
    for a in [-50.0_f32, 0.0, 1.0, 77.0] {
        let ring = CircleArc::new(Vec2::ZERO, 10.0, a, a + TAU + 1e-3);
        assert!(ring.validate().is_err(), "start {a}");
    }
}
