//! `--trace`: a diagnostic on stderr, where every ball is and how it moves at each fixed
//! step that reached the bounce cap and, headless, after each progress line.

use crate::game::stats::{RunStats, collect_stats};
use crate::table::spawn::Ball;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// Traces the balls at each fixed step that reached the bounce cap (after the step's
/// figures are counted, so the time printed is the step's end).
pub fn add(app: &mut App) {
    app.add_systems(FixedUpdate, trace_capped_steps.after(collect_stats));
}

/// Where every ball is, and its velocity, at a step that reached the bounce cap.
fn trace_capped_steps(
    ccd: Res<CcdStats>,
    stats: Res<RunStats>,
    balls: Query<(&Transform, &MovingCircle), With<Ball>>,
) {
    if ccd.capped > 0 {
        let at: Vec<(Vec2, Vec2)> = balls
            .iter()
            .map(|(t, c)| (t.translation.truncate(), c.velocity))
            .collect();
        eprintln!(
            "bounce cap at {:.3} s: {} bounces, balls {at:?}",
            stats.simulated, ccd.max_bounces_per_circle
        );
    }
}

/// Where every ball is (headless, after each progress line).
pub fn balls(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&Transform, Option<&MovingCircle>), With<Ball>>();
    for (tf, c) in q.iter(app.world()) {
        let v = c.map(|c| c.velocity);
        eprintln!("    ball at {} moving {v:?}", tf.translation.truncate());
    }
}
