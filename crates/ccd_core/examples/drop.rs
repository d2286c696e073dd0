//! A ball of radius 0.5 dropped from y = 10 onto the floor y = 0 under g = 10: the first
//! ten apexes of its centre, stepped two ways at the same rate:
//! - **exact**: [`sweep_bounces`] with `gravity` set (each leg a parabola, each bounce with
//!   the velocity of its instant);
//! - **gravity first**: `v += g·dt`, then a straight sweep (as Avian, Rapier and this crate
//!   before gravity moved into the sweep step).
//!
//! The apex of a flight is the highest point of the path: for the exact stepping
//! `y + v_y²/2g` read after the bounce (constant in flight), for the other the highest
//! centre at a step's end.
//!
//! `cargo run -p ccd_core --release --example drop -- [HZ] [RESTITUTION]` (default 60 Hz,
//! both e = 1 and e = 0.5).

use ccd_core::{Circle, Material, Obstacle, Segment, SweepSettings, Vec2, sweep_bounces};

/// Gravity, units/s² (down).
const G: f32 = 10.0;
/// Ball radius.
const RADIUS: f32 = 0.5;
/// The centre's drop height.
const DROP: f32 = 10.0;
/// Apexes printed.
const APEXES: usize = 10;
/// Seconds simulated at most.
const MAX_SECONDS: f32 = 60.0;

/// The two ways of stepping.
#[derive(Clone, Copy)]
enum Stepping {
    Exact,
    GravityFirst,
}

fn apexes(stepping: Stepping, hz: f32, e: f32) -> Vec<f32> {
    let floor = [Obstacle::segment(Segment::new(
        Vec2::new(-100.0, 0.0),
        Vec2::new(100.0, 0.0),
    ))];
    let dt = 1.0 / hz;
    let gravity = Vec2::new(0.0, -G);
    let settings = SweepSettings {
        material: Material::new(e, 0.0),
        resting_speed: 0.05,
        gravity: match stepping {
            Stepping::Exact => gravity,
            Stepping::GravityFirst => Vec2::ZERO,
        },
        ..Default::default()
    };
    let (mut center, mut velocity) = (Vec2::new(0.0, DROP), Vec2::ZERO);
    let mut found = Vec::new();
    // The highest centre of the current flight (gravity first), once it has bounced.
    let mut highest: Option<f32> = None;
    for _ in 0..(MAX_SECONDS * hz) as usize {
        if found.len() == APEXES {
            break;
        }
        if let Stepping::GravityFirst = stepping {
            velocity += gravity * dt;
        }
        let Ok(out) = sweep_bounces(
            Circle::new(center, RADIUS),
            velocity,
            dt,
            &floor,
            &settings,
            |_| {},
        ) else {
            break;
        };
        (center, velocity) = (out.center, out.velocity);
        match stepping {
            Stepping::Exact if out.bounces > 0 && velocity.y > 0.0 => {
                found.push(center.y + velocity.y * velocity.y / (2.0 * G));
            }
            Stepping::GravityFirst => {
                if out.bounces > 0 {
                    found.extend(highest.take());
                    highest = Some(center.y);
                } else if let Some(h) = highest.as_mut() {
                    *h = h.max(center.y);
                }
            }
            Stepping::Exact => {}
        }
    }
    found
}

fn main() {
    let mut args = std::env::args().skip(1);
    let hz: f32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(60.0);
    let restitutions: Vec<f32> = args
        .next()
        .and_then(|a| a.parse().ok())
        .map_or(vec![1.0, 0.5], |e| vec![e]);
    for e in restitutions {
        println!("drop from {DROP}, r = {RADIUS}, g = {G}, e = {e}, {hz} Hz: the centre's apexes");
        println!("{:>6} {:>12} {:>14}", "bounce", "exact", "gravity first");
        let exact = apexes(Stepping::Exact, hz, e);
        let first = apexes(Stepping::GravityFirst, hz, e);
        for k in 0..APEXES {
            let show = |v: Option<&f32>| v.map_or("-".to_string(), |a| format!("{a:.4}"));
            println!(
                "{:>6} {:>12} {:>14}",
                k + 1,
                show(exact.get(k)),
                show(first.get(k))
            );
        }
        println!();
    }
}
