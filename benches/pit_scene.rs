//! The ball-pit benchmark scene, engine-free so every engine builds the same one:
//! a closed regular 512-gon of circumradius 1000, 300 random baffles of length 40 and 64
//! pillars of radius 8 inside radius 900, and balls of radius 4 at speeds in
//! [500, 4000] units/s (or up to another top speed: [`build_with_top_speed`]) in random
//! directions, spawned overlapping nothing.
#![allow(dead_code)]

use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Sides of the outer polygon.
pub const SIDES: usize = 512;
/// Circumradius of the outer polygon.
pub const OUTER_RADIUS: f32 = 1000.0;
/// Baffles and pillars lie within this radius.
pub const INNER_RADIUS: f32 = 900.0;
/// Ball radius.
pub const BALL_RADIUS: f32 = 4.0;
/// Pillar radius.
pub const PILLAR_RADIUS: f32 = 8.0;
/// Baffle length.
pub const BAFFLE_LENGTH: f32 = 40.0;
/// Fixed rate of the benchmark, Hz.
pub const HZ: f64 = 120.0;

/// One ball.
#[derive(Clone, Copy, Debug)]
pub struct Ball {
    /// Start position.
    pub position: Vec2,
    /// Start velocity.
    pub velocity: Vec2,
}

/// The whole scene.
#[derive(Clone, Debug)]
pub struct Pit {
    /// Outer wall and baffle segments.
    pub walls: Vec<(Vec2, Vec2)>,
    /// Pillar centres.
    pub pillars: Vec<Vec2>,
    /// Balls.
    pub balls: Vec<Ball>,
}

/// The inradius of the outer polygon: a ball centre farther than this minus the ball
/// radius (plus a tolerance) has escaped.
pub fn inradius() -> f32 {
    OUTER_RADIUS * (std::f32::consts::PI / SIDES as f32).cos()
}

/// Signed distance from `p` to the outer polygon's boundary, positive inside. A ball of
/// radius `r` is inside its walls while this is at least `r` (minus rounding). (The
/// inradius alone is the distance to the edges' midpoints; near a corner a touching ball
/// sits a little farther from the centre than that.)
pub fn clearance(p: Vec2) -> f32 {
    let step = std::f32::consts::TAU / SIDES as f32;
    let sector = (p.y.atan2(p.x).rem_euclid(std::f32::consts::TAU) / step).floor() as i64;
    let inr = inradius();
    (sector - 1..=sector + 1)
        .map(|k| {
            // Edge k runs from corner k to corner k + 1; its outward normal points at its middle.
            let n = Vec2::from_angle((k as f32 + 0.5) * step);
            inr - p.dot(n)
        })
        .fold(f32::INFINITY, f32::min)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let d = b - a;
    let t = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (p - (a + d * t)).length()
}

fn random_in_disc(rng: &mut StdRng, radius: f32) -> Vec2 {
    loop {
        let p = Vec2::new(
            rng.random_range(-radius..radius),
            rng.random_range(-radius..radius),
        );
        if p.length() <= radius {
            return p;
        }
    }
}

/// The default top speed of a ball, units/s: [`build`] draws speeds in [500, this).
pub const TOP_SPEED: f32 = 4000.0;

/// Build the scene with `balls` balls from `seed`, speeds drawn in [500, 4000) units/s.
pub fn build(balls: usize, seed: u64) -> Pit {
    build_with_top_speed(balls, seed, TOP_SPEED)
}

/// Build the scene with `balls` balls from `seed`, each ball's speed drawn in
/// [500, `top`) units/s. The same random draws as [`build`], in the same order, so
/// `top` = 4000 gives [`build`]'s scene bit for bit, and another `top` moves the same balls
/// from the same places in the same directions, only at other speeds.
pub fn build_with_top_speed(balls: usize, seed: u64, top: f32) -> Pit {
    let mut rng = StdRng::seed_from_u64(seed);
    let corner = |i: usize| Vec2::from_angle(i as f32 / SIDES as f32 * std::f32::consts::TAU) * OUTER_RADIUS;
    let mut walls: Vec<(Vec2, Vec2)> = (0..SIDES).map(|i| (corner(i), corner((i + 1) % SIDES))).collect();
    for _ in 0..300 {
        let mid = random_in_disc(&mut rng, INNER_RADIUS - BAFFLE_LENGTH);
        let dir = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
        walls.push((mid - dir * BAFFLE_LENGTH * 0.5, mid + dir * BAFFLE_LENGTH * 0.5));
    }
    let pillars: Vec<Vec2> = (0..64)
        .map(|_| random_in_disc(&mut rng, INNER_RADIUS - PILLAR_RADIUS))
        .collect();

    // Balls: rejection sampling against walls, pillars and earlier balls, with a coarse
    // hash of earlier balls so 10,000 stay quick.
    let clearance = 0.5;
    let cell = 4.0 * BALL_RADIUS;
    let mut buckets: std::collections::HashMap<(i32, i32), Vec<Vec2>> = Default::default();
    let key = |p: Vec2| ((p.x / cell).floor() as i32, (p.y / cell).floor() as i32);
    let mut out = Vec::with_capacity(balls);
    while out.len() < balls {
        let p = random_in_disc(&mut rng, INNER_RADIUS + 60.0);
        if p.length() > inradius() - BALL_RADIUS - clearance {
            continue;
        }
        if walls[SIDES..]
            .iter()
            .any(|(a, b)| distance_to_segment(p, *a, *b) <= BALL_RADIUS + clearance)
        {
            continue;
        }
        if pillars
            .iter()
            .any(|c| (p - *c).length() <= BALL_RADIUS + PILLAR_RADIUS + clearance)
        {
            continue;
        }
        let (kx, ky) = key(p);
        let crowded = (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                buckets.get(&(kx + dx, ky + dy)).is_some_and(|v| {
                    v.iter()
                        .any(|q| (p - *q).length() <= 2.0 * BALL_RADIUS + clearance)
                })
            })
        });
        if crowded {
            continue;
        }
        buckets.entry((kx, ky)).or_default().push(p);
        let speed = rng.random_range(500.0..top);
        let dir = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
        out.push(Ball {
            position: p,
            velocity: dir * speed,
        });
    }
    Pit {
        walls,
        pillars,
        balls: out,
    }
}

/// A fingerprint of balls' end states, each given as its centre and velocity, bit for bit,
/// in a fixed order: two builds that print the same one stepped the same balls to the same
/// places, so a change meant only for speed can be seen to change nothing else. FNV-1a,
/// 64 bits.
pub fn fingerprint(states: impl IntoIterator<Item = (Vec2, Vec2)>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    states
        .into_iter()
        .flat_map(|(center, velocity)| [center.x, center.y, velocity.x, velocity.y])
        .flat_map(|word| word.to_bits().to_le_bytes())
        .fold(OFFSET, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(PRIME))
}
