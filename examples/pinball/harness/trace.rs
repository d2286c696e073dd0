//! `--trace`: a diagnostic on stderr, where every ball is and how it moves at each fixed
//! step that reached the bounce cap and, headless, after each progress line; and, at each
//! step the audit found a fault in, the balls and flippers before and after it, with the
//! step's contacts.

use crate::game::stats::{RunStats, collect_stats};
use crate::table::parts::{Ball, Flipper};
use bevy::prelude::*;
use bevy_circle_ccd::CcdFaults;
use bevy_circle_ccd::prelude::*;

/// Traces the balls at each fixed step that reached the bounce cap (after the step's
/// figures are counted, so the time printed is the step's end).
pub fn add(app: &mut App) {
    app.init_resource::<Before>()
        .add_systems(FixedUpdate, trace_capped_steps.after(collect_stats))
        .add_systems(
            FixedUpdate,
            keep_before
                .after(CircleCcdSystems::Prepare)
                .before(CircleCcdSystems::Step),
        )
        .add_systems(FixedUpdate, trace_faulted_steps.after(CircleCcdSystems::Report));
}

/// The balls and the flippers as the step starts (flippers at their previous pose and at
/// the pose they turn to).
#[derive(Resource, Default)]
struct Before {
    balls: Vec<(Entity, Vec2, Vec2)>,
    flippers: Vec<(f32, f32, f32)>,
    previous: Vec<(f32, f32, f32)>,
    faults: u64,
}

type FlipperState<'a> = (&'a Flipper, &'a Transform);
type BallState<'a> = (Entity, &'a Transform, &'a MovingCircle);

fn keep_before(
    mut before: ResMut<Before>,
    balls: Query<BallState, With<Ball>>,
    flippers: Query<FlipperState>,
) {
    let before = &mut *before;
    before.balls.clear();
    before.balls.extend(
        balls
            .iter()
            .map(|(e, t, c)| (e, t.translation.truncate(), c.velocity)),
    );
    before.previous = std::mem::take(&mut before.flippers);
    before.flippers.extend(
        flippers
            .iter()
            .map(|(f, t)| (f.angle(), f.omega, t.rotation.to_euler(EulerRot::ZYX).0)),
    );
}

/// At a step with a new fault: every ball before and after, the flippers (angle, rise
/// speed, transform angle) at the previous pose and now, and the step's contacts.
fn trace_faulted_steps(
    faults: Res<CcdFaults>,
    mut before: ResMut<Before>,
    mut hits: MessageReader<CircleHit>,
    balls: Query<BallState, With<Ball>>,
) {
    if faults.count == before.faults {
        hits.clear();
        return;
    }
    before.faults = faults.count;
    eprintln!("fault step {}: {:?}", faults.steps, faults.last);
    print_step(&before, hits, &balls);
}

/// At a step that reached the bounce cap: the same as at a fault (every ball before and
/// after it, the flippers and the step's contacts).
fn trace_capped_steps(
    ccd: Res<CcdStats>,
    stats: Res<RunStats>,
    before: Res<Before>,
    mut hits: MessageReader<CircleHit>,
    balls: Query<BallState, With<Ball>>,
) {
    if ccd.capped == 0 {
        hits.clear();
        return;
    }
    eprintln!(
        "bounce cap at {:.3} s: {} bounces",
        stats.simulated, ccd.max_bounces_per_circle
    );
    print_step(&before, hits, &balls);
}

/// The flippers at the previous pose and now, every ball before and after the step, and
/// the step's contacts (read here; a step not traced clears its reader instead, so the
/// next traced step shows its own contacts only).
fn print_step(before: &Before, mut hits: MessageReader<CircleHit>, balls: &Query<BallState, With<Ball>>) {
    eprintln!(
        "  flippers before (angle, omega, transform angle): {:?}",
        before.previous
    );
    eprintln!("  flippers now: {:?}", before.flippers);
    for (e, p, v) in &before.balls {
        eprintln!(
            "  ball {e} before: at {:?} moving {:?}",
            p.to_array(),
            v.to_array()
        );
    }
    for (e, t, c) in balls {
        eprintln!(
            "  ball {e} after: at {:?} moving {:?}",
            t.translation.truncate().to_array(),
            c.velocity.to_array()
        );
    }
    for h in hits.read() {
        eprintln!("  hit {h:?}");
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
