//! Energy and momentum through many ball–ball contacts, against the conservation laws.
//!
//! With restitution 1 and no friction, every contact (a wall, a pillar, another ball, or
//! several balls at once) keeps the kinetic energy; between balls alone it also keeps the
//! momentum. Only f32 rounding of the stored velocities is allowed (2^-24 ≈ 6e-8 of each
//! value stored): the tests allow 1e-6 of the start, relative.

#[path = "../benches/common/pit.rs"]
mod pit;

use ccd_core::{Ball, MultiballScratch, MultiballSettings, MultiballStep, Obstacle, Vec2, step_balls};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The seed of [`a_colliding_cluster_keeps_its_momentum_and_energy`]'s velocities.
const CLUSTER_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// Σ m·v² (mass from the area, as `Ball::new` sets it), in f64.
fn energy(balls: &[Ball]) -> f64 {
    balls
        .iter()
        .map(|b| b.velocity.as_dvec2().length_squared() / f64::from(b.inverse_mass))
        .sum()
}

/// Σ m·v, in f64.
fn momentum(balls: &[Ball]) -> DVec2 {
    balls
        .iter()
        .map(|b| b.velocity.as_dvec2() / f64::from(b.inverse_mass))
        .sum()
}

#[test]
fn a_thousand_balls_keep_their_energy_for_ten_seconds() {
    let (grid, mut balls) = pit::build(1000, 7);
    let e0 = energy(&balls);
    let dt = (1.0 / pit::HZ) as f32;
    let mut scratch = MultiballScratch::default();
    let (mut contacts, mut worst, mut deepest) = (0_u64, 0.0_f64, 0.0_f32);
    for _ in 0..(10.0 * pit::HZ) as usize {
        let report = step_balls(
            MultiballStep::new(&mut balls, dt, &grid),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        assert!(!report.event_budget_hit);
        contacts += u64::from(report.bounces);
        worst = worst.max((energy(&balls) / e0 - 1.0).abs());
        assert!(balls.iter().all(|b| pit::clearance(b.center) >= b.radius - 1e-2));
        // No ball inside any surface: the outline, a baffle or a pillar.
        let (faults, inside) = pit::audit(&grid, &balls);
        assert_eq!(faults, 0, "a ball {inside} inside a surface");
        deepest = deepest.max(inside);
    }
    eprintln!(
        "{contacts} contacts in 10 s, worst energy error {worst:.2e}, deepest inside a surface {deepest:.2e}"
    );
    assert!(contacts > 100_000, "a dense enough gas: {contacts}");
    assert!(worst < 1e-6, "energy drifted by {worst}");
}

#[test]
fn a_colliding_cluster_keeps_its_momentum_and_energy() {
    // 400 balls of three sizes (so three masses) on a grid with spacing 2.5 radii, all
    // aimed at the middle with a random sideways part: no walls, thousands of contacts,
    // many of them with several balls at once.
    let mut rng = StdRng::seed_from_u64(CLUSTER_SEED);
    let mut balls = Vec::new();
    for i in 0..20 {
        for j in 0..20 {
            let p = Vec2::new(i as f32 - 9.5, j as f32 - 9.5) * 10.0;
            let radius = [2.0, 3.0, 4.0][(i + j) % 3];
            let v = -p * rng.random_range(2.0..3.0)
                + Vec2::new(rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5)) * 60.0;
            balls.push(Ball::new(p, v, radius));
        }
    }
    let (p0, e0) = (momentum(&balls), energy(&balls));
    let scale: f64 = balls
        .iter()
        .map(|b| b.velocity.as_dvec2().length() / f64::from(b.inverse_mass))
        .sum();
    let mut scratch = MultiballScratch::default();
    let none: [Obstacle; 0] = [];
    let mut contacts = 0;
    for _ in 0..240 {
        let report = step_balls(
            MultiballStep::new(&mut balls, 1.0 / 240.0, &none[..]),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        contacts += report.bounces;
    }
    let drift = (momentum(&balls) - p0).length() / scale;
    let energy_error = (energy(&balls) / e0 - 1.0).abs();
    eprintln!("{contacts} contacts: momentum drift {drift:.2e}, energy error {energy_error:.2e}");
    assert!(contacts > 1000, "{contacts}");
    assert!(drift < 1e-6, "momentum drifted by {drift}");
    assert!(energy_error < 1e-6, "energy error {energy_error}");
}
