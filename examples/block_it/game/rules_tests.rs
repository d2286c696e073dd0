//! The rules, headless on MinimalPlugins: a gate that appears on the ball, a block's
//! speed-up inside the step, a ball out through an open gate, the autoplayer, replays,
//! the ghost's naive step and the room file's checks.
#![allow(clippy::unwrap_used, reason = "tests")]

use super::ghost::naive_step;
use super::rules::{Left, left_room};
use super::tape::{Replay, Tape, player};
use super::{Game, Gates, Requests, Tally};
use crate::room::{self, LastLeg, RoomDef, Wall, angle_of, to_room};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

const ROOM: &str = include_str!("../../../assets/block_it/room.ron");
/// The tests' fixed rate, Hz.
const HZ: u32 = 60;

pub(super) fn shipped() -> RoomDef {
    room::def::parse(ROOM).unwrap()
}

/// The hits of the last update.
#[derive(Resource, Default)]
pub(super) struct Hits(pub Vec<CircleHit>);

fn collect(mut reader: MessageReader<CircleHit>, mut hits: ResMut<Hits>) {
    hits.0.extend(reader.read().copied());
}

/// A headless game on `def` at 60 Hz, without the autoplayer, its hits collected.
pub(super) fn app(def: RoomDef) -> App {
    app_at(def, HZ)
}

/// [`app`] at `hz`.
fn app_at(def: RoomDef, hz: u32) -> App {
    let mut app = crate::harness::app::headless_app(def, false, hz);
    app.init_resource::<Hits>()
        .init_resource::<GateSteps>()
        .add_systems(
            FixedUpdate,
            (collect, count_gate_steps).after(CircleCcdSystems::Report),
        );
    app
}

/// Steps swept with the upper gate's line in place.
#[derive(Resource, Default)]
struct GateSteps(u32);

fn count_gate_steps(
    room: Res<super::Room>,
    lines: Query<(), With<StaticSegment>>,
    mut count: ResMut<GateSteps>,
) {
    let upper = room.entities.walls[Wall::ALL.iter().position(|w| *w == Wall::Upper).unwrap_or(0)];
    count.0 += u32::from(lines.contains(upper));
}

/// One fixed step, with these requests.
pub(super) fn step(app: &mut App, requests: Requests) {
    *app.world_mut().resource_mut::<Requests>() = requests;
    app.world_mut().resource_mut::<Hits>().0.clear();
    app.update();
}

pub(super) fn room_entities(app: &App) -> room::RoomEntities {
    app.world().resource::<super::Room>().entities.clone()
}

/// Turns the room (every wall) to `angle`.
pub(super) fn set_angle(app: &mut App, angle: f32) {
    for e in room_entities(app).walls {
        app.world_mut().get_mut::<Transform>(e).unwrap().rotation = Quat::from_rotation_z(angle);
    }
}

pub(super) fn angle(app: &App) -> f32 {
    angle_of(app.world().get::<Transform>(room_entities(app).walls[0]).unwrap())
}

/// Puts the ball at `center` moving at `velocity`, both in the room's frame.
pub(super) fn place(app: &mut App, center: Vec2, velocity: Vec2) {
    let a = Vec2::from_angle(angle(app));
    let ball = room_entities(app).ball;
    let mut tf = app.world_mut().get_mut::<Transform>(ball).unwrap();
    tf.translation = a.rotate(center).extend(tf.translation.z);
    app.world_mut().get_mut::<MovingCircle>(ball).unwrap().velocity = a.rotate(velocity);
}

/// The ball's centre and velocity in the room's frame.
pub(super) fn ball(app: &App) -> (Vec2, Vec2) {
    let e = room_entities(app).ball;
    let a = angle(app);
    let c = app.world().get::<Transform>(e).unwrap().translation.truncate();
    let v = app.world().get::<MovingCircle>(e).unwrap().velocity;
    (to_room(c, a), to_room(v, a))
}

fn new_game(app: &mut App) {
    step(
        app,
        Requests {
            new_game: true,
            ..default()
        },
    );
}

#[test]
fn a_gate_that_appears_on_the_ball_blocks_it_only_if_its_centre_is_inside() {
    let def = shipped();
    let (h, r) = (def.half_size, def.ball_radius);
    // The ball's centre from r inside to r outside the gate's line when the tap comes:
    // every phase of its crossing (but the line itself, below), at a slow and a fast
    // speed, straight and slanted, the room turned four ways, at both gates.
    const DEPTHS: usize = 20;
    let mut cases = (0, 0);
    for speed in [1_000.0, 20_000.0] {
        for turned in [0.0, 0.7, 2.0, -2.6] {
            for gate in [Wall::Upper, Wall::Lower] {
                for slant in [-0.6_f32, 0.0, 0.6] {
                    for i in 0..DEPTHS {
                        let depth = -r + 2.0 * r * (i as f32 + 0.5) / DEPTHS as f32;
                        let out = if gate == Wall::Upper { 1.0 } else { -1.0 };
                        let mut app = app(def.clone());
                        new_game(&mut app);
                        set_angle(&mut app, turned);
                        let center = Vec2::new(slant * 40.0, out * (h + depth));
                        let velocity = Vec2::new(slant, out).normalize() * speed;
                        place(&mut app, center, velocity);
                        step(
                            &mut app,
                            Requests {
                                tap: true,
                                ..default()
                            },
                        );
                        let world = app.world();
                        let tally = world.resource::<Tally>();
                        let game = world.resource::<Game>();
                        let case = format!(
                            "speed {speed}, room at {turned}, {gate:?}, slant {slant}, depth {depth}"
                        );
                        assert_eq!(tally.faults(), 0, "{case}");
                        assert_eq!(world.resource::<CcdFaults>().count, 0, "audit: {case}");
                        let hits = &world.resource::<Hits>().0;
                        let gate_entity =
                            room_entities(&app).walls[Wall::ALL.iter().position(|w| *w == gate).unwrap()];
                        if depth < 0.0 {
                            // Blocked at once: its first contact is that gate at the step's start.
                            let first = hits.first().unwrap_or_else(|| panic!("no hit: {case}"));
                            assert_eq!(first.other, gate_entity, "{case}");
                            assert!(first.time < 1e-6, "met at once, not at {}: {case}", first.time);
                            assert!(game.playing && game.score >= 1, "{case}");
                            let (c, _) = ball(&app);
                            assert!(
                                Wall::crossed(c, h).is_none(),
                                "inside after the block: {c}, {case}"
                            );
                            cases.0 += 1;
                        } else {
                            // Gone: the gate never touches it, and the game is over.
                            assert!(hits.iter().all(|h| h.other != gate_entity), "{case}");
                            assert!(!game.playing && tally.lost_through_open_gate == 1, "{case}");
                            cases.1 += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases.0 + cases.1, 2 * 4 * 2 * 3 * DEPTHS);
    assert!(cases.0 > 0 && cases.1 > 0);
    // A centre exactly on the line (the room square to the axes, so it is exact): the
    // sweep takes the normal against the motion, the front: blocked.
    let mut app = app(def.clone());
    new_game(&mut app);
    set_angle(&mut app, 0.0);
    place(&mut app, Vec2::new(0.0, h), Vec2::new(0.0, 1000.0));
    step(
        &mut app,
        Requests {
            tap: true,
            ..default()
        },
    );
    assert_eq!(app.world().resource::<Game>().score, 1);
    assert!(ball(&app).1.y < 0.0);
}

#[test]
fn a_block_scales_the_speed_at_the_impact_and_turns_the_room_faster() {
    let mut def = shipped();
    def.spin.start = 0.0;
    def.spin.per_block = 0.02;
    let (h, r, s) = (def.half_size, def.ball_radius, def.speed_scale_per_block);
    let dt = 1.0 / HZ as f32;
    let mut app = app(def.clone());
    new_game(&mut app);
    // Straight up at 1,000 u/s, meeting the upper gate (centre at h − r) a quarter of
    // the way through the step; the rest of the step at 1,000 · s back down.
    let meet = h - r;
    place(
        &mut app,
        Vec2::new(0.0, meet - 1000.0 * dt / 4.0),
        Vec2::new(0.0, 1000.0),
    );
    step(
        &mut app,
        Requests {
            tap: true,
            ..default()
        },
    );
    let (c, v) = ball(&app);
    let expected = meet - 1000.0 * s * 0.75 * dt;
    assert!((c.y - expected).abs() < 1e-3, "y {} against {expected}", c.y);
    assert!((v - Vec2::new(0.0, -1000.0 * s)).length() < 1e-2, "v {v}");
    assert_eq!(app.world().resource::<Game>().score, 1);
    let spin = *app
        .world()
        .get::<Kinematic>(room_entities(&app).walls[0])
        .unwrap();
    assert_eq!(spin, Kinematic::turning(0.02));
    let hit = app.world().resource::<Hits>().0[0];
    assert!((hit.time - dt / 4.0).abs() < 1e-6, "met at {}", hit.time);
}

#[test]
fn a_tap_puts_the_gates_up_for_a_tenth_of_a_second_at_each_rate() {
    // 0.1 s: 3 steps at 30 Hz, 6 at 60, 12 at 120. The ball runs along the solid walls'
    // direction, so it meets no gate meanwhile.
    for (hz, steps) in [(30, 3), (60, 6), (120, 12)] {
        let mut app = app_at(shipped(), hz);
        // A tap with no game on starts one, with the gates down.
        step(
            &mut app,
            Requests {
                tap: true,
                ..default()
            },
        );
        assert!(
            app.world().resource::<Game>().playing,
            "{hz} Hz: a tap starts a game"
        );
        assert_eq!(app.world().resource::<GateSteps>().0, 0, "{hz} Hz");
        place(&mut app, Vec2::ZERO, Vec2::new(300.0, 0.0));
        step(
            &mut app,
            Requests {
                tap: true,
                ..default()
            },
        );
        for _ in 0..3 * steps {
            step(&mut app, Requests::default());
        }
        assert_eq!(app.world().resource::<GateSteps>().0, steps, "{hz} Hz");
        assert!(app.world().resource::<Game>().playing, "{hz} Hz");
    }
}

#[test]
fn a_ball_out_through_an_open_gate_ends_the_game_and_is_no_fault() {
    let def = shipped();
    let mut app = app(def);
    new_game(&mut app);
    let mut steps = 0;
    while app.world().resource::<Game>().playing {
        step(&mut app, Requests::default());
        steps += 1;
        assert!(steps < 10 * HZ, "the ball never left");
    }
    let tally = app.world().resource::<Tally>();
    assert_eq!((tally.lost_through_open_gate, tally.faults()), (1, 0));
    assert_eq!(app.world().resource::<Gates>().steps_left, 0);
    // Out of play: the walls never meet it again.
    let (c, _) = ball(&app);
    assert!(matches!(
        Wall::crossed(c, app.world().resource::<super::Room>().def.half_size),
        Some(Wall::Upper | Wall::Lower)
    ));
}

#[test]
fn left_room_tells_an_open_gate_from_a_fault() {
    let h = 100.0;
    // A still room, legs of one second from `from` to `to`.
    let leg = |from: Vec2, to: Vec2| LastLeg {
        end: to,
        velocity: to - from,
        seconds: 1.0,
        angle: 0.0,
        spin: 0.0,
    };
    let inside = Vec2::new(10.0, 20.0);
    let left = |to: Vec2, gates_on: bool| left_room(inside, &leg(inside, to), h, gates_on);
    assert_eq!(left(Vec2::new(0.0, 50.0), false), None);
    assert_eq!(left(Vec2::new(0.0, 101.0), false), Some(Left::OpenGate));
    assert_eq!(left(Vec2::new(0.0, -101.0), true), Some(Left::ActiveGate));
    assert_eq!(left(Vec2::new(-101.0, 0.0), false), Some(Left::Solid));
    let out = Vec2::new(0.0, 120.0);
    assert_eq!(
        left_room(out, &leg(out, Vec2::new(0.0, 130.0)), h, true),
        Some(Left::AlreadyOut)
    );
    // Past a corner, by the line met first: from (10, 20) to (190, 140) it crosses
    // x = 100 half way and y = 100 two thirds of the way: out through the right wall; to
    // (130, 180) it crosses y = 100 half way, x = 100 three quarters of the way: out
    // through the gate, though further beyond the wall.
    assert_eq!(left(Vec2::new(190.0, 140.0), false), Some(Left::Solid));
    assert_eq!(left(Vec2::new(130.0, 180.0), false), Some(Left::OpenGate));
    // The last leg counts, not the step: after a bounce off the right wall at (92, 60),
    // out through the upper gate.
    let bounced = leg(Vec2::new(92.0, 60.0), Vec2::new(40.0, 140.0));
    assert_eq!(left_room(inside, &bounced, h, false), Some(Left::OpenGate));
}

#[test]
fn the_exit_of_a_leg_in_the_turning_room_is_where_dense_sampling_finds_it() {
    // Legs of up to a 30 Hz step at up to 40,000 u/s, in a room of half side 160 turning
    // at up to 2 rad/s either way, across the room and out near a corner (where a
    // straight chord in the room's frame, the leg's ends joined, picks the wrong wall): the wall `LastLeg::exit` names
    // is the one the centre is beyond at the first of 100,000 samples found outside
    // (cases whose first outside sample is within 1e-3 of a corner's diagonal are not
    // judged).
    use rand::{Rng, SeedableRng};
    const SAMPLES: u32 = 100_000;
    let h = 160.0;
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut judged = 0;
    while judged < 300 {
        let corner = Vec2::from_angle(
            std::f32::consts::FRAC_PI_4 + std::f32::consts::FRAC_PI_2 * rng.random_range(0..4) as f32,
        );
        let start = -corner * h * rng.random_range(0.0..1.2);
        let seconds = rng.random_range(0.5..1.0) / 30.0;
        let heading = corner.to_angle() + rng.random_range(-0.1..0.1);
        let velocity = Vec2::from_angle(heading) * rng.random_range(10_000.0..40_000.0);
        let (spin, start_angle) = (rng.random_range(-2.0..2.0), rng.random_range(-3.2..3.2));
        let angle = start_angle + spin * seconds;
        let world_start = Vec2::from_angle(start_angle).rotate(start);
        let leg = LastLeg {
            end: world_start + velocity * seconds,
            velocity,
            seconds,
            angle,
            spin,
        };
        let at = |t: f32| to_room(world_start + velocity * t, start_angle + spin * t);
        let Some(first) = (1..=SAMPLES)
            .map(|k| at(seconds * k as f32 / SAMPLES as f32))
            .find(|p| Wall::crossed(*p, h).is_some())
        else {
            assert_eq!(leg.exit(h), None);
            continue;
        };
        let beyond = first.abs() - Vec2::splat(h);
        if (beyond.x - beyond.y).abs() < 1e-3 || Wall::crossed(leg.at_end(), h).is_none() {
            continue;
        }
        assert_eq!(leg.exit(h), Wall::crossed(first, h), "{leg:?}");
        judged += 1;
    }
}

#[test]
fn the_autoplayer_reaches_twenty_thousand_with_no_fault() {
    let mut app = crate::harness::app::headless_app(shipped(), true, HZ);
    for _ in 0..60 * HZ {
        app.update();
    }
    let tally = *app.world().resource::<Tally>();
    assert_eq!(tally.faults(), 0, "{tally:?}");
    assert_eq!(app.world().resource::<CcdFaults>().count, 0);
    assert!(tally.top_speed >= 20_000.0, "top speed {}", tally.top_speed);
    // Faster than the room is wide in one step: 2·h·HZ.
    assert!(tally.top_speed > 2.0 * shipped().half_size * HZ as f32);
}

/// The score, the tally and the ball's bits.
fn state(app: &App) -> (Tally, [u32; 4]) {
    let e = room_entities(app).ball;
    let c = app.world().get::<Transform>(e).unwrap().translation;
    let v = app.world().get::<MovingCircle>(e).unwrap().velocity;
    (
        *app.world().resource::<Tally>(),
        [c.x.to_bits(), c.y.to_bits(), v.x.to_bits(), v.y.to_bits()],
    )
}

#[test]
fn a_recorded_game_replays_bit_for_bit_and_only_in_its_room() {
    let def = shipped();
    let mut recorded = crate::harness::app::headless_app(def.clone(), true, HZ);
    recorded.insert_resource(Tape::Record {
        replay: Replay::new(&def, HZ),
        file: None,
    });
    for _ in 0..20 * HZ {
        recorded.update();
    }
    let Tape::Record { replay: tape, .. } = recorded.world().resource::<Tape>().clone() else {
        panic!("recording");
    };
    assert!(
        tape.inputs.iter().filter(|i| i.tap).count() > 5,
        "the autoplayer tapped"
    );
    let mut played = crate::harness::app::headless_app(def.clone(), false, HZ);
    played.insert_resource(player(tape.clone()));
    for _ in 0..tape.steps {
        played.update();
    }
    assert_eq!(state(&played), state(&recorded));
    // Another room file: refused, by name.
    let path = std::env::temp_dir().join(format!("block_it-replay-{}.ron", std::process::id()));
    tape.save(&path).unwrap();
    let mut edited = def.clone();
    edited.fingerprint ^= 1;
    let refused = Replay::load(&path, &edited).unwrap_err();
    assert!(refused.contains("another version of room"), "{refused}");
    assert_eq!(Replay::load(&path, &def).unwrap(), tape);
}

#[test]
fn the_ghosts_naive_step_tunnels_where_the_ball_does_not() {
    let (h, r, dt) = (160.0, 8.0, 1.0 / 60.0);
    // Slow: a step of 5 into the right wall is pushed back to h − r and reflected.
    let slow = naive_step(Vec2::new(150.0, 0.0), Vec2::new(300.0, 0.0), dt, r, h, false, 1.0);
    assert_eq!(slow.center, Vec2::new(h - r, 0.0));
    assert_eq!(slow.velocity, Vec2::new(-300.0, 0.0));
    assert!(!slow.tunnelled);
    // Fast: 30,000 u/s is 500 a step, past the wall 160 away: a tunnel.
    let fast = naive_step(Vec2::ZERO, Vec2::new(30_000.0, 0.0), dt, r, h, false, 1.0);
    assert!(fast.tunnelled && fast.out);
    // Out through an open gate: out, but no tunnel; through an active one, a tunnel.
    let up = Vec2::new(0.0, 30_000.0);
    assert!(!naive_step(Vec2::ZERO, up, dt, r, h, false, 1.0).tunnelled);
    assert!(naive_step(Vec2::ZERO, up, dt, r, h, true, 1.0).tunnelled);
}

#[test]
fn a_bad_room_file_is_refused_naming_the_field() {
    let bad = ROOM.replace("ball_radius: 8.0", "ball_radius: -8.0");
    let e = room::def::parse(&bad).unwrap_err();
    assert!(e.to_string().contains("`ball_radius`"), "{e}");
    let unknown = ROOM.replace("gate_seconds: 0.1,", "gate_seconds: 0.1, gate_colour: 3,");
    let e = room::def::parse(&unknown).unwrap_err();
    assert!(e.to_string().contains("gate_colour"), "{e}");
    let mut def = shipped();
    def.speed_scale_per_block = f32::NAN;
    assert!(
        def.validate()
            .unwrap_err()
            .to_string()
            .contains("`speed_scale_per_block`")
    );
    def = shipped();
    def.autoplay.lead_steps = 0;
    assert!(
        def.validate()
            .unwrap_err()
            .to_string()
            .contains("`autoplay.lead_steps`")
    );
    let missing = room::def::load(std::path::Path::new("/nonexistent/room.ron")).unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/room.ron"), "{missing}");
}
