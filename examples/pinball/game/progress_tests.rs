//! Headless checks of the richer table's rules (`starfall.ron`): lane change, ball save,
//! the tilt, and the locks that start multiball. Expected values are worked out by hand
//! from the table file. (The table itself: `table/playfield_tests.rs`, whose helpers
//! these use.)

use crate::game::progress::Progress;
use crate::game::rules::{Game, Requests};
use crate::game::stats::RunStats;
use crate::table;
use crate::table::parts::{Ball, Controls, Part};
use crate::table::playfield_tests::{app, assert_no_trouble, ball, start_game};
use crate::table::{Table, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

#[test]
fn lane_change_rotates_the_lit_lanes() {
    let mut app = app();
    start_game(&mut app);
    app.world_mut().resource_mut::<Progress>().lanes_lit = vec![true, false, false];
    let lanes = |app: &App| app.world().resource::<Progress>().lanes_lit.clone();
    // Press the left button: the lit lamp moves one lane left (from the first, it wraps
    // round to the last).
    app.world_mut().resource_mut::<Controls>().left = true;
    app.update();
    assert_eq!(lanes(&app), [false, false, true]);
    // Held: no more change. Released and pressed again: once more.
    app.update();
    assert_eq!(lanes(&app), [false, false, true]);
    app.world_mut().resource_mut::<Controls>().left = false;
    app.update();
    app.world_mut().resource_mut::<Controls>().right = true;
    app.update();
    assert_eq!(lanes(&app), [true, false, false]);
}

/// Put the served ball in the middle of the table, over the drain's gap between the
/// flippers, falling.
fn drop_ball_down_the_middle(app: &mut App) {
    let mut q = app
        .world_mut()
        .query_filtered::<(&mut Transform, &mut MovingCircle), With<Ball>>();
    let (mut tf, mut c) = q.single_mut(app.world_mut()).unwrap();
    tf.translation.x = 238.0;
    tf.translation.y = 120.0;
    c.velocity = Vec2::new(0.0, -500.0);
}

#[test]
fn ball_save_serves_the_ball_again() {
    let mut app = app();
    start_game(&mut app);
    drop_ball_down_the_middle(&mut app);
    // It leaves the plunger lane (the save's clock starts) and drains within 1 s.
    for _ in 0..1500 {
        app.update();
    }
    let game = app.world().resource::<Game>();
    let stats = app.world().resource::<RunStats>();
    assert_eq!(stats.drained, 1);
    assert_eq!(stats.saves, 1);
    assert_eq!(game.ball_number, 1, "still ball 1");
    assert_eq!(stats.served, 2, "served again");
    assert!(stats.ball_times.is_empty(), "the ball did not end");
    // 1.5 s of play: no ball search, and the audit found no ball inside a surface.
    assert_no_trouble(&app);
}

#[test]
fn tilt_kills_the_flippers_and_ends_the_ball_without_bonus() {
    let mut app = app();
    start_game(&mut app);
    // No ball save here: the saved ball would come back.
    app.world_mut().resource_mut::<Progress>().save_until = Some(0.0);
    app.world_mut().resource_mut::<Progress>().bonus = 7_000;
    let score_before = app.world().resource::<Game>().score;
    // Three nudges a step apart: the bob reaches 1 (below the warning level 1.5), then
    // about 2 (a warning), then about 3 (past the tilt level 2.5).
    for _ in 0..3 {
        app.world_mut().resource_mut::<Requests>().nudge = Some(crate::game::rules::Nudge::Front);
        app.update();
    }
    let stats = app.world().resource::<RunStats>();
    assert_eq!((stats.nudges, stats.tilt_warnings, stats.tilts), (3, 1, 1));
    assert!(app.world().resource::<Progress>().tilted);
    // The flippers stay down whatever the button says.
    app.world_mut().resource_mut::<Controls>().left = true;
    for _ in 0..50 {
        app.update();
        app.world_mut().resource_mut::<Controls>().left = true;
    }
    let mut q = app.world_mut().query::<&crate::table::parts::Flipper>();
    assert!(q.iter(app.world()).all(|f| f.theta == 0.0));
    // The coils are dead: every bumper and slingshot piece kicks nothing.
    let kicks = |app: &mut App| {
        let mut q = app.world_mut().query::<(&Kicker, &Part)>();
        q.iter(app.world())
            .filter(|(_, p)| matches!(p, Part::Bumper(_) | Part::Sling(_)))
            .map(|(k, _)| k.speed)
            .collect::<Vec<f32>>()
    };
    let dead = kicks(&mut app);
    // Starfall: three bumpers, two slingshots in pieces.
    assert!(dead.len() > 3 + 2, "{dead:?}");
    assert!(dead.iter().all(|s| *s == 0.0), "{dead:?}");
    drop_ball_down_the_middle(&mut app);
    for _ in 0..1500 {
        app.update();
    }
    let game = app.world().resource::<Game>();
    assert_eq!(game.ball_number, 2, "the tilted ball ended");
    assert_eq!(game.score, score_before, "no bonus after a tilt");
    assert!(
        !app.world().resource::<Progress>().tilted,
        "the next ball is not tilted"
    );
    // ... and its bumpers kick again, by the table's tuning.
    app.update();
    let bumper_kick = app.world().resource::<Tune>().0.bumper_kick;
    assert!(bumper_kick > 0.0);
    let live = kicks(&mut app);
    assert_eq!(live.iter().filter(|s| **s == bumper_kick).count(), 3, "{live:?}");
    // About 1.6 s of play: no ball search, and the audit found no ball inside a surface.
    assert_no_trouble(&app);
}

/// Knock down the bank: a ball shot up at each drop target at once; run 60 steps, and
/// take the balls away.
fn knock_down_the_bank(app: &mut App) {
    // The three targets span (203, 600)–(287, 600), 28 mm each: a ball 30 mm below the
    // middle of each, going up. (Shot at, not set down by hand: during multiball another
    // ball may have knocked one down already, and its shot then passes the gap.)
    let shots: Vec<Entity> = [217.0, 245.0, 273.0]
        .map(|x| ball(app, Vec2::new(x, 570.0), Vec2::new(0.0, 1500.0)))
        .to_vec();
    for _ in 0..60 {
        app.update();
    }
    for b in shots {
        app.world_mut().despawn(b);
    }
}

/// Roll a ball slowly into the saucer, wait until it is kicked out, and take it away.
fn lock_a_ball(app: &mut App) {
    let def = app.world().resource::<Table>().def.clone();
    let centre = table::v(def.playfield.saucer.unwrap().center);
    let b = ball(app, centre + Vec2::new(30.0, 0.0), Vec2::new(-300.0, 0.0));
    // Caught within 0.2 s, held 1.2 s.
    for _ in 0..1500 {
        app.update();
    }
    app.world_mut().despawn(b);
}

#[test]
fn two_locks_start_multiball_and_no_lock_lights_during_it() {
    let mut app = app();
    start_game(&mut app);
    let progress = |app: &App| {
        let p = app.world().resource::<Progress>();
        (p.lock_lit, p.locks, p.jackpot_lit)
    };
    knock_down_the_bank(&mut app);
    assert_eq!(progress(&app), (true, 0, false), "the bank lights the lock");
    assert!(
        app.world().resource::<Game>().targets_down.iter().all(|d| !d),
        "the bank comes back up"
    );
    lock_a_ball(&mut app);
    assert_eq!(progress(&app), (false, 1, false), "ball 1 locked");
    knock_down_the_bank(&mut app);
    lock_a_ball(&mut app);
    // Starfall's rules: two locks start multiball, the jackpot lit on the ramp, and the two
    // locked balls served again.
    assert_eq!(progress(&app), (false, 0, true), "multiball");
    assert_eq!(app.world().resource::<RunStats>().multiballs, 1);
    // During multiball the bank scores but lights no lock: multiballs do not stack.
    knock_down_the_bank(&mut app);
    assert_eq!(progress(&app), (false, 0, true));
    assert!(app.world().resource::<Game>().targets_down.iter().all(|d| !d));
    // About 3.2 s of play (three 60-step shots at the bank, two 1,500-step locks).
    assert_no_trouble(&app);
}
