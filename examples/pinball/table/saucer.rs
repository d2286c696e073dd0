//! The saucer: a cup that catches a ball, holds it while its lamps flash, then kicks it
//! out along a set direction at a set speed. A held ball is taken out of the simulation
//! by `CcdDisabled` (nothing moves it and nothing meets it, and it keeps its components)
//! and let go with the eject velocity: the kick is exact, whatever the ball did before.

use crate::table::parts::{Ball, Part};
use crate::table::{Table, v};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The fastest approach the saucer's cup catches, mm/s: a faster ball skips over the
/// cup's lip, as on a real machine.
pub const MAX_CATCH_SPEED: f32 = 1200.0;

/// A ball the saucer holds.
#[derive(Component, Clone, Copy, Debug)]
pub struct Held {
    /// Simulated time at which it is kicked out, s.
    pub release_at: f32,
}

/// The saucer caught a ball this step.
#[derive(Message, Clone, Copy, Debug)]
pub struct Caught {
    pub ball: Entity,
}

/// The golden angle, radians: `π(3 − √5)`, about 137.5°. Stepping by it never repeats.
const GOLDEN_ANGLE: f32 = 2.399_963;

/// The velocity the saucer kicks a ball out with, mm/s.
#[must_use]
pub fn eject_velocity(speed: f32, degrees: f32) -> Vec2 {
    Vec2::from_angle(degrees.to_radians()) * speed
}

/// The direction of the saucer's kick number `k` (from 0), degrees: `degrees` off by
/// `spread · sin(k · golden angle)`.
#[must_use]
pub fn eject_degrees(degrees: f32, spread: f32, k: u32) -> f32 {
    degrees + spread * (k as f32 * GOLDEN_ANGLE).sin()
}

/// Catch a ball that touched the saucer's cup coming in, no faster than
/// [`MAX_CATCH_SPEED`], unless the saucer already holds one.
pub fn catch(
    (time, table): (Res<Time>, Res<Table>),
    mut hits: MessageReader<CircleHit>,
    parts: Query<&Part>,
    held: Query<(), With<Held>>,
    mut balls: Query<(&mut MovingCircle, &mut Transform), With<Ball>>,
    mut commands: Commands,
    mut caught: MessageWriter<Caught>,
) {
    let Some(saucer) = &table.def.playfield.saucer else {
        return;
    };
    let mut full = !held.is_empty();
    for hit in hits.read() {
        if full || !matches!(parts.get(hit.other), Ok(Part::Saucer)) {
            continue;
        }
        let Ok((mut c, mut tf)) = balls.get_mut(hit.circle) else {
            continue;
        };
        // Only a ball coming in: the one just kicked out starts inside the cup, moving away.
        let inward = (v(saucer.center) - hit.center).dot(c.velocity) > 0.0;
        if !inward || c.velocity.length() > MAX_CATCH_SPEED {
            continue;
        }
        full = true;
        tf.translation = v(saucer.center).extend(tf.translation.z);
        c.velocity = Vec2::ZERO;
        commands.entity(hit.circle).insert((
            CcdDisabled,
            Held {
                release_at: time.elapsed_secs() + saucer.hold_seconds,
            },
        ));
        caught.write(Caught { ball: hit.circle });
    }
}

/// Kick out a held ball whose time is up.
pub fn eject(
    time: Res<Time>,
    table: Res<Table>,
    mut held: Query<(Entity, &Held, &mut MovingCircle)>,
    mut kicks: Local<u32>,
    mut commands: Commands,
) {
    let Some(saucer) = &table.def.playfield.saucer else {
        return;
    };
    for (e, h, mut c) in &mut held {
        if time.elapsed_secs() >= h.release_at {
            let degrees = eject_degrees(saucer.eject_degrees, saucer.eject_spread_degrees, *kicks);
            *kicks = kicks.wrapping_add(1);
            c.velocity = eject_velocity(saucer.eject_speed, degrees);
            commands.entity(e).remove::<(Held, CcdDisabled)>();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kicks_wander_within_the_spread_and_the_first_is_exact() {
        assert_eq!(eject_degrees(-70.0, 4.0, 0), -70.0);
        // Kick 1: sin 137.5° = 0.6755, so 4 · 0.6755 = 2.70° off.
        assert!((eject_degrees(-70.0, 4.0, 1) - (-67.298)).abs() < 1e-3);
        let kicks: Vec<f32> = (0..100).map(|k| eject_degrees(-70.0, 4.0, k)).collect();
        assert!(kicks.iter().all(|d| (-74.0..=-66.0).contains(d)));
        // ... and fill it: some within 0.5° of each edge.
        assert!(kicks.iter().any(|d| *d < -73.5) && kicks.iter().any(|d| *d > -66.5));
    }
}
