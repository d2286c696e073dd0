//! Headless checks of the rules on the classic table: a game serves three balls then
//! ends, and knocking down the three targets lights multiball. (The table's parts:
//! `table/parts_tests.rs`; the richer table's rules: `table/playfield_tests.rs`.)

use crate::game::rules::{self, Requests};
use crate::game::stats;

use crate::table::spawn::spawn_ball;
use crate::table::{Table, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

use crate::table::parts_tests::{app, balls};

#[test]
fn a_game_serves_three_balls_then_ends() {
    let mut app = app();
    app.world_mut().resource_mut::<Requests>().new_game = true;
    for ball_number in 1..=3 {
        // Let the serve happen, then check the ball waits on the plunger.
        for _ in 0..20 {
            app.update();
        }
        let game = app.world().resource::<rules::Game>();
        assert_eq!((game.ball_number, game.game_over), (ball_number, false));
        let served = balls(&mut app);
        assert_eq!(served.len(), 1);
        assert!(
            served[0].1.distance(Vec2::new(493.0, 60.0)) < 0.5,
            "{:?}",
            served[0].1
        );
        // Throw it down the middle: it drains.
        let e = served[0].0;
        app.world_mut().get_mut::<Transform>(e).unwrap().translation = Vec3::new(238.0, 100.0, 2.0);
        app.world_mut().get_mut::<MovingCircle>(e).unwrap().velocity = Vec2::new(0.0, -500.0);
        for _ in 0..200 {
            app.update();
        }
    }
    let game = app.world().resource::<rules::Game>();
    assert!(game.game_over);
    assert_eq!(app.world().resource::<stats::RunStats>().drained, 3);
    assert_eq!(balls(&mut app).len(), 0);
}

#[test]
fn knocking_down_the_three_targets_lights_multiball() {
    let mut app = app();
    app.world_mut().resource_mut::<Requests>().new_game = true;
    app.update();
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    // One shot straight up at the middle of each target (the bank is at y = 880).
    for (a, b) in table.def.targets.clone() {
        let x = (a.0 + b.0) * 0.5;
        let shot = {
            let mut commands = app.world_mut().commands();
            spawn_ball(
                &mut commands,
                &table,
                &tune,
                Vec2::new(x, 800.0),
                Vec2::new(0.0, 1500.0),
            )
        };
        app.world_mut().flush();
        for _ in 0..100 {
            app.update();
        }
        app.world_mut().despawn(shot);
    }
    let game = app.world().resource::<rules::Game>();
    assert!(game.targets_down.iter().all(|d| *d), "{:?}", game.targets_down);
    assert_eq!(app.world().resource::<stats::RunStats>().multiballs, 1);
    // Two balls are launched up the lane, 0.8 s apart: 1 served + 2 = 3 served in all.
    for _ in 0..2500 {
        app.update();
    }
    assert_eq!(app.world().resource::<stats::RunStats>().served, 3);
}
