//! Checks of the aimed trap shots: the flip point between the shots seen, worked out by
//! hand, and on Starfall (headless) each orbit made from the far flipper's trap within a
//! few shots, as the game's own shot lines count it.

use super::*;
use crate::game::aim::segments_distance;
use crate::game::stats::RunStats;
use crate::table::parts::{Ball, Controls, Flipper, ball_material};
use crate::table::playfield_tests::{app, start_game};
use crate::table::ramp::ON_PLAYFIELD;
use crate::table::{Table, Tune};
use bevy_circle_ccd::ccd_core::Segment;
use bevy_circle_ccd::prelude::*;

fn launch(along: f32, degrees: f32) -> Launch {
    Launch {
        along,
        point: Vec2::ZERO,
        velocity: Vec2::from_angle(degrees.to_radians()) * 3000.0,
    }
}

#[test]
fn the_flip_point_lies_between_the_shots_seen() {
    let seen = [launch(0.8, 70.0), launch(0.9, 60.0)];
    // 65° is half way from 70° to 60°: half way from 0.8 to 0.9.
    assert!((along_for(Side::Left, &seen, 65.0) - 0.85).abs() < 1e-4);
    // Past the last one seen, the assumed slope: 15° below 60° at 150° a length is 0.1
    // further towards the tip on a left flipper...
    assert!((along_for(Side::Left, &seen[1..], 45.0) - 1.0).abs() < 1e-4);
    // ... and on a right one, whose shots turn the other way, 15° more.
    let right = [launch(0.9, 120.0)];
    assert!((along_for(Side::Right, &right, 135.0) - 1.0).abs() < 1e-4);
    // Nothing seen: the first shot's flip point.
    assert_eq!(along_for(Side::Left, &[], 45.0), FIRST_ALONG);
}

#[test]
fn a_shot_passes_a_line_it_crosses_and_a_point_within_reach() {
    let s = |a: (f32, f32), b: (f32, f32)| Segment::new(Vec2::from(a), Vec2::from(b));
    // Crossing: 0. Parallel, 3 apart: 3. A T short of its bar by 2: 2.
    assert_eq!(
        segments_distance(s((0.0, -1.0), (0.0, 1.0)), s((-1.0, 0.0), (1.0, 0.0))),
        0.0
    );
    assert!((segments_distance(s((0.0, 0.0), (4.0, 0.0)), s((0.0, 3.0), (4.0, 3.0))) - 3.0).abs() < 1e-6);
    assert!((segments_distance(s((0.0, 2.0), (0.0, 5.0)), s((-1.0, 0.0), (1.0, 0.0))) - 2.0).abs() < 1e-6);
    // A point (the saucer's centre) 1 off a chord's middle.
    assert!((segments_distance(s((0.0, 0.0), (4.0, 0.0)), s((2.0, 1.0), (2.0, 1.0))) - 1.0).abs() < 1e-6);
}

/// Steps a ball is left on the raised flipper to settle in the crook at its pivot, the
/// steps the flipper is held for a shot (the autoplayer's 0.14 s), and the steps a shot is
/// followed to see which shot it makes (1 kHz).
const SETTLE_STEPS: u32 = 800;
const HOLD_STEPS: u32 = 140;
const FOLLOW_STEPS: u32 = 1500;
/// The first shot's flip point, a fraction of the blade: it sends the ball up the middle.
const OPENER_ALONG: f32 = 0.8;
/// Aimed shots at each orbit after it, and how many of them must make it.
const AIMED_SHOTS: usize = 6;
const MIN_MADE: usize = 4;

fn press(app: &mut App, side: Side, on: bool) {
    let mut c = app.world_mut().resource_mut::<Controls>();
    match side {
        Side::Left => c.left = on,
        Side::Right => c.right = on,
    }
}

fn the_ball(app: &mut App) -> (Vec2, Vec2) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&Transform, &MovingCircle), With<Ball>>();
    let (tf, c) = q.single(app.world()).unwrap();
    (tf.translation.truncate(), c.velocity)
}

/// A ball trapped on the raised flipper on `side` (dropped on it and settled), shot with
/// the flip point the autoplayer's `shots` choose for `goal` (or at `along`, when given);
/// what it learns from the shot is added to `shots`. Returns the major shots the ball made.
fn trap_shot(shots: &mut TrapShots, side: Side, goal: Target, along: Option<f32>) -> Vec<(String, u32)> {
    let mut app = app();
    start_game(&mut app);
    let (pivot, length, dir) = {
        let mut q = app.world_mut().query::<&Flipper>();
        let f = q.iter(app.world()).find(|f| f.side == side).unwrap();
        (f.pivot, f.length, crate::game::aim::resting_direction(f))
    };
    {
        // Above the raised blade, half way along.
        let drop = pivot + Vec2::new(if side == Side::Left { 23.0 } else { -23.0 }, 50.0);
        let mut q = app
            .world_mut()
            .query_filtered::<(&mut Transform, &mut MovingCircle), With<Ball>>();
        let (mut tf, mut c) = q.single_mut(app.world_mut()).unwrap();
        tf.translation = drop.extend(tf.translation.z);
        c.velocity = Vec2::ZERO;
    }
    press(&mut app, side, true);
    for _ in 0..SETTLE_STEPS {
        app.update();
    }
    let along = along.unwrap_or_else(|| {
        let world = app.world();
        let tune = &world.resource::<Tune>().0;
        let def = &world.resource::<Table>().def;
        let inputs = AimInputs {
            world: world.resource::<CcdWorld>(),
            layers: ON_PLAYFIELD,
            material: ball_material(tune),
            radius: def.ball_radius,
            gravity: def.rolling_gravity(tune),
        };
        shots.flip_point(side, goal, &inputs).unwrap()
    });
    press(&mut app, side, false);
    // Let go; fire when the ball has rolled down to the flip point.
    let mut fired = None;
    for step in 0..FOLLOW_STEPS {
        app.update();
        let (p, v) = the_ball(&mut app);
        match fired {
            None if (p - pivot).dot(dir) / length >= along => {
                press(&mut app, side, true);
                shots.fired(side, (p - pivot).dot(dir) / length, 0.0);
                fired = Some(step);
            }
            Some(at) if step == at + HOLD_STEPS => press(&mut app, side, false),
            Some(at) if step == at + (WATCH * 1000.0) as u32 => shots.watch(WATCH, p, v),
            _ => {}
        }
    }
    assert!(fired.is_some(), "the ball never reached the flip point {along}");
    app.world().resource::<RunStats>().shots.clone()
}

#[test]
fn aimed_trap_shots_from_the_far_flipper_make_each_orbit() {
    let def = crate::table::parse(include_str!("../../../assets/tables/starfall.ron")).unwrap();
    let progress = crate::game::progress::Progress::new(&def);
    for (side, orbit) in [(Side::Right, "left orbit"), (Side::Left, "right orbit")] {
        let k = progress.shot_names.iter().position(|n| n == orbit).unwrap();
        let goal = target(&def, &progress, k).unwrap();
        let mut shots = TrapShots::default();
        // A first shot at a flip point that sends the ball up the middle, to learn from.
        let opener = trap_shot(&mut shots, side, goal, Some(OPENER_ALONG));
        assert!(!opener.iter().any(|(name, _)| name == orbit));
        let made: Vec<bool> = (0..AIMED_SHOTS)
            .map(|_| {
                trap_shot(&mut shots, side, goal, None)
                    .iter()
                    .any(|(name, _)| name == orbit)
            })
            .collect();
        println!("{orbit}: {made:?}");
        let count = made.iter().filter(|m| **m).count();
        assert!(
            count >= MIN_MADE,
            "{orbit} made by {count} of {AIMED_SHOTS} aimed shots from the {side:?} flipper: {made:?}"
        );
    }
}
