//! Headless checks of the table's parts: a held flipper cradling the ball, a flipper
//! never letting a ball through, the lane gate, the pop bumper, the motor flipper and the
//! spinner. (The physics against a real machine's: `physics_tests.rs`; serving and
//! multiball: `game/rules_tests.rs`.)

use crate::game::rules::{self, Requests};
use crate::table::parts::{Ball, Controls, Flipper};
use crate::table::spawn::spawn_ball;
use crate::table::{self, Side, Table, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");

/// The classic table, headless at 1 kHz, spawned and waiting for N (shared with
/// `game/rules_tests.rs`).
pub(crate) fn app() -> App {
    let mut app = crate::harness::headless::headless_app(table::parse(CLASSIC).unwrap(), false, 1000.0);
    // Startup: the table is spawned; the game is over until N, so nothing is served.
    app.update();
    app
}

fn left_flipper(app: &mut App) -> (Vec2, f32, f32, f32) {
    let mut q = app.world_mut().query::<&Flipper>();
    let f = q.iter(app.world()).find(|f| f.side == Side::Left).unwrap();
    (f.pivot, f.angle(), f.length, f.thickness)
}

/// How far `p` is outside the left flipper's bat (its tapered outline, in its pose).
fn bat_gap(app: &mut App, p: Vec2) -> f32 {
    let mut q = app
        .world_mut()
        .query::<(&Flipper, &crate::table::flipper_shape::BatShape)>();
    let (f, bat) = q.iter(app.world()).find(|(f, _)| f.side == Side::Left).unwrap();
    let local = Vec2::from_angle(-f.angle()).rotate(p - f.pivot);
    crate::table::flipper_shape::distance_outside(local, &bat.outline())
}

fn ball_state(app: &mut App, e: Entity) -> (Vec2, Vec2) {
    let p = app.world().get::<Transform>(e).unwrap().translation.truncate();
    let v = app.world().get::<MovingCircle>(e).unwrap().velocity;
    (p, v)
}

#[test]
fn a_held_flipper_cradles_the_ball() {
    let mut app = app();
    app.world_mut().resource_mut::<Controls>().left = true;
    for _ in 0..100 {
        app.update();
    }
    // Drop a ball onto the raised left flipper, over its middle.
    let (pivot, angle, length, _) = left_flipper(&mut app);
    let dir = Vec2::from_angle(angle);
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    let start = pivot + dir * (length * 0.6) + dir.perp() * 60.0;
    let ball = {
        let mut commands = app.world_mut().commands();
        spawn_ball(&mut commands, &table, &tune, start, Vec2::ZERO)
    };
    app.world_mut().flush();
    let r = table.def.ball_radius;
    let mut rest_at = Vec2::ZERO;
    // 5 s: it lands, rolls down the raised blade towards the pivot and stops in the cradle
    // between the blade and the inlane guide.
    for step in 0..5000 {
        app.update();
        let (p, v) = ball_state(&mut app, ball);
        // Never inside the bat: at least r from its tapered outline.
        let gap = bat_gap(&mut app, p);
        assert!(gap >= r - 0.05, "sank into the flipper: {gap} at step {step}");
        if step == 3000 {
            rest_at = p;
        }
        if step > 3000 {
            assert!(
                p.distance(rest_at) < 0.5,
                "moved {} while cradled",
                p.distance(rest_at)
            );
            assert!(v.length() < 10.0, "speed {v}");
        }
    }
    // It rests near the pivot end, not on the tip.
    let (p, _) = ball_state(&mut app, ball);
    assert!((p - pivot).dot(dir) < length * 0.5);
}

#[test]
fn a_flipping_flipper_never_lets_a_ball_through() {
    never_through(false, 25);
}

#[test]
fn a_motor_flipper_never_lets_a_ball_through() {
    never_through(true, 12);
}

/// Motor flippers on (or off) in a fresh table.
fn app_with_flippers(motor: bool) -> App {
    let mut app = app();
    app.world_mut().resource_mut::<Tune>().0.motor_flippers = motor;
    app.update();
    app
}

/// A ball falls at 3 m/s onto the left flipper, which flips at `moments` different times.
fn never_through(motor: bool, moments: usize) {
    for offset in 0..moments {
        let mut app = app_with_flippers(motor);
        let (pivot, _, length, _) = left_flipper(&mut app);
        let table = app.world().resource::<Table>().clone();
        let tune = app.world().resource::<Tune>().0.clone();
        let start = Vec2::new(pivot.x + 40.0, 320.0);
        let ball = {
            let mut commands = app.world_mut().commands();
            spawn_ball(&mut commands, &table, &tune, start, Vec2::new(0.0, -3000.0))
        };
        app.world_mut().flush();
        let r = table.def.ball_radius;
        for step in 0..400 {
            app.world_mut().resource_mut::<Controls>().left = step >= offset * 2 && step < offset * 2 + 120;
            app.update();
            let (_, angle, _, _) = left_flipper(&mut app);
            let dir = Vec2::from_angle(angle);
            let (p, _) = ball_state(&mut app, ball);
            let along = (p - pivot).dot(dir);
            if (5.0..length - 5.0).contains(&along) {
                // Over the blade's middle the ball is always on the upper side, at least
                // r from the bat's tapered outline.
                let side = (p - pivot).dot(dir.perp());
                let gap = bat_gap(&mut app, p);
                assert!(
                    side > 0.0 && gap >= r - 0.05,
                    "offset {offset}, step {step}: ball {p} is {gap} from the blade"
                );
            }
        }
    }
}

/// Every ball in play and where it is.
pub(crate) fn balls(app: &mut App) -> Vec<(Entity, Vec2)> {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &Transform), With<Ball>>();
    q.iter(app.world())
        .map(|(e, t)| (e, t.translation.truncate()))
        .collect()
}

#[test]
fn the_lane_gate_lets_the_ball_out_but_never_back_in() {
    let mut app = app();
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    // Out: launched up the lane at 2.5 m/s, it passes the gate (at y 750–775).
    let out = {
        let mut commands = app.world_mut().commands();
        spawn_ball(
            &mut commands,
            &table,
            &tune,
            Vec2::new(493.0, 200.0),
            Vec2::new(0.0, 2500.0),
        )
    };
    app.world_mut().flush();
    let mut highest = 0.0_f32;
    for _ in 0..400 {
        app.update();
        highest = highest.max(ball_state(&mut app, out).0.y);
    }
    assert!(highest > 800.0, "never left the lane: highest {highest}");
    app.world_mut().despawn(out);
    // In: dropped onto the gate from above, it bounces off into the playfield.
    let back = {
        let mut commands = app.world_mut().commands();
        spawn_ball(
            &mut commands,
            &table,
            &tune,
            Vec2::new(495.0, 880.0),
            Vec2::new(0.0, -1500.0),
        )
    };
    app.world_mut().flush();
    for step in 0..2000 {
        app.update();
        let Some(&(_, p)) = balls(&mut app).iter().find(|(e, _)| *e == back) else {
            break; // drained at the bottom of the playfield: fine
        };
        assert!(
            !(p.x > 476.0 && p.y < 740.0),
            "fell back into the lane at {p}, step {step}"
        );
    }
}

/// Every contact message of the run, in order.
#[derive(Resource, Default)]
struct Hits(Vec<CircleHit>);

#[test]
fn a_pop_bumper_kicks_at_the_instant_of_impact() {
    // A ball rises at 500 mm/s straight into the bottom of the third bumper (centre
    // (238, 610), radius 22), 5 mm below contact. The bumper fires (500 > 100 mm/s): its
    // rubber (e = 0.9, falling off by 0.1 per m/s) bounces the ball at
    // 0.9·500/(1 + 0.1·0.5) = 428.57 mm/s, and the kick adds 650: 1,078.57 mm/s straight
    // down, at the instant of impact, so at the end of that step the ball is
    // 1,078.57·(dt − t_hit) below where it touched.
    const OUT: f32 = 0.9 * 500.0 / (1.0 + 0.1 * 0.5) + 650.0;
    let mut app = app();
    app.init_resource::<Hits>().add_systems(
        FixedPostUpdate,
        |mut reader: MessageReader<CircleHit>, mut out: ResMut<Hits>| out.0.extend(reader.read().copied()),
    );
    // No gravity, so the hand numbers hold exactly.
    app.world_mut().resource_mut::<Table>().def.slope_degrees = 0.0;
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    let r = table.def.ball_radius;
    let start = Vec2::new(238.0, 610.0 - 22.0 - r - 5.0);
    let ball = {
        let mut commands = app.world_mut().commands();
        spawn_ball(&mut commands, &table, &tune, start, Vec2::new(0.0, 500.0))
    };
    app.world_mut().flush();
    let dt = 1e-3;
    for _ in 0..40 {
        app.update();
        let hit = app
            .world()
            .resource::<Hits>()
            .0
            .iter()
            .find(|h| h.circle == ball && !h.sensor)
            .copied();
        if let Some(hit) = hit {
            assert!(hit.kick > 0.0, "the bumper fired: {hit:?}");
            let (p, v) = ball_state(&mut app, ball);
            assert!((v - Vec2::new(0.0, -OUT)).length() < 1e-2, "velocity {v}");
            let expected = hit.center.y - OUT * (dt - hit.time);
            assert!((p.y - expected).abs() < 1e-3, "at {p}, expected y {expected}");
            return;
        }
    }
    panic!("the ball never reached the bumper");
}

#[test]
fn a_motor_flipper_strokes_at_its_torque() {
    // The motor's torque over the bat's inertia is 2·S/T² for the table's 21 ms stroke
    // (S = 50° = 0.873 rad): 3,958 rad/s². The hinge takes it once per 1 ms step
    // (semi-implicit), so after n steps the bat has turned α·dt²·n(n+1)/2, which passes
    // S at n = 21 (n(n+1)/2 = 231 ≥ S/(α·dt²) = 220.5); released, it goes back to rest.
    let mut app = app_with_flippers(true);
    let stroke = 50f32.to_radians();
    app.world_mut().resource_mut::<Controls>().left = true;
    let mut reached = None;
    for step in 1..=100 {
        app.update();
        let mut q = app.world_mut().query::<&Flipper>();
        let f = q.iter(app.world()).find(|f| f.side == Side::Left).unwrap();
        if reached.is_none() && f.theta >= stroke - 1e-3 {
            reached = Some(step);
        }
    }
    let ms = reached.expect("never reached the top stop");
    assert!((21..=22).contains(&ms), "stroke took {ms} ms");
    app.world_mut().resource_mut::<Controls>().left = false;
    for _ in 0..300 {
        app.update();
    }
    let mut q = app.world_mut().query::<&Flipper>();
    let f = q.iter(app.world()).find(|f| f.side == Side::Left).unwrap();
    assert!(f.theta < 1e-3, "not back at rest: {}", f.theta);
}

#[test]
fn a_ball_through_the_orbit_spins_the_spinner() {
    // Up the middle of the left orbit lane at 2 m/s: it brushes the paddle wheel on the
    // lane's wall, sets it spinning and goes on up; one score per whole turn. A real
    // spinner hit at 2 m/s turns 10–16 times.
    let mut app = app();
    app.world_mut().resource_mut::<Requests>().new_game = true;
    app.update();
    let table = app.world().resource::<Table>().clone();
    let tune = app.world().resource::<Tune>().0.clone();
    let ball = {
        let mut commands = app.world_mut().commands();
        spawn_ball(
            &mut commands,
            &table,
            &tune,
            Vec2::new(22.5, 480.0),
            Vec2::new(0.0, 2000.0),
        )
    };
    app.world_mut().flush();
    let score0 = app.world().resource::<rules::Game>().score;
    let mut highest = 0.0_f32;
    for _ in 0..6000 {
        app.update();
        if let Some(t) = app.world().get::<Transform>(ball) {
            highest = highest.max(t.translation.y);
        }
    }
    let mut q = app
        .world_mut()
        .query::<(&Hinge, &crate::table::hinged::SpinnerTurns)>();
    let (hinge, turns) = q.iter(app.world()).next().unwrap();
    let turned = turns.scored.unsigned_abs();
    assert!(
        (10..=16).contains(&turned),
        "the spinner turned {} rad",
        hinge.angle
    );
    assert!(
        highest > 600.0,
        "the ball never got past the spinner: highest {highest}"
    );
    let score = app.world().resource::<rules::Game>().score - score0;
    assert!(score >= 100 * turned, "scored {score} for {turned} turns");
    println!(
        "spinner: {turned} turns ({:.1} rad), ball up to y {highest:.0}",
        hinge.angle
    );
}
