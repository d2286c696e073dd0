//! The aim line against the game: with the room turning, from random starts, the
//! predicted contacts are the ones the game then has, to 1e-3 units, for the first ten;
//! and where the gates go off, the predicted exit is the game's end.
#![allow(clippy::unwrap_used, reason = "tests")]

use super::predict::{Ahead, Forecast, Horizon};
use super::rules_tests::{Hits, app, place, room_entities, set_angle, shipped, step};
use super::{Game, Requests};
use crate::room::{RoomDef, Wall};
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The precision the aim line promises, world units.
const CONTACT_TOLERANCE: f32 = 1e-3;
/// Contacts compared per start.
const CONTACTS: usize = 10;
/// Random starts (`BLOCK_IT_STARTS=1000` for the closing note's figure: about 40 s in a
/// dev build).
const STARTS: usize = 250;
/// The most steps a start may take for its ten contacts.
const MAX_STEPS: u32 = 2000;

/// A game with the gates on for as long as it lasts (so the ball stays in the room), the
/// ball and the room placed by `rng`: the room turned anywhere and turning at 0.3 to 2
/// rad/s (faster with each block), the ball anywhere inside at 500 to 6,000 u/s.
fn random_start(rng: &mut StdRng, def: &RoomDef) -> App {
    let mut def = def.clone();
    def.gate_seconds = 1.0e4;
    def.spin.start = rng.random_range(0.3..2.0);
    def.spin.max = 3.0;
    let h = def.half_size - def.ball_radius;
    let mut app = app(def);
    step(
        &mut app,
        Requests {
            new_game: true,
            ..default()
        },
    );
    step(
        &mut app,
        Requests {
            tap: true,
            ..default()
        },
    );
    set_angle(&mut app, rng.random_range(-3.1..3.1));
    let center = Vec2::new(rng.random_range(-h..h), rng.random_range(-h..h)) * 0.95;
    let velocity = Vec2::from_angle(rng.random_range(-3.1..3.1)) * rng.random_range(500.0..6000.0);
    place(&mut app, center, velocity);
    app
}

/// Steps the game until it has had `n` contacts (or `MAX_STEPS`), returning each
/// contact's step, centre and point.
fn play(app: &mut App, n: usize) -> Vec<(u32, Vec2, Vec2)> {
    let ball = room_entities(app).ball;
    let mut seen = Vec::new();
    for s in 0..MAX_STEPS {
        step(app, Requests::default());
        let hits = &app.world().resource::<Hits>().0;
        seen.extend(
            hits.iter()
                .filter(|h| h.circle == ball)
                .map(|h| (s, h.center, h.point)),
        );
        if seen.len() >= n {
            break;
        }
    }
    seen
}

/// The forecast from the game's state now, for up to `contacts` contacts.
fn forecast(app: &mut App, contacts: usize) -> Forecast {
    let horizon = Horizon {
        contacts,
        steps: MAX_STEPS,
    };
    app.world_mut()
        .run_system_once(move |ahead: Ahead| ahead.forecast(horizon))
        .unwrap()
}

#[test]
fn the_aim_line_meets_the_game_to_1e_3_for_ten_contacts_with_the_room_turning() {
    let def = shipped();
    let starts = std::env::var("BLOCK_IT_STARTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(STARTS);
    let mut rng = StdRng::seed_from_u64(0x00B1_0C17);
    let mut worst = 0.0_f32;
    let mut blocks = 0;
    for start in 0..starts {
        let mut app = random_start(&mut rng, &def);
        let predicted = forecast(&mut app, CONTACTS);
        assert!(
            predicted.contacts.len() >= CONTACTS,
            "start {start}: {} contacts",
            predicted.contacts.len()
        );
        assert!(predicted.exit.is_none(), "start {start}: the gates are on");
        let played = play(&mut app, CONTACTS);
        assert!(played.len() >= CONTACTS, "start {start}");
        for (i, (p, (s, center, point))) in predicted.contacts.iter().zip(&played).take(CONTACTS).enumerate()
        {
            assert_eq!(p.step, *s, "start {start}, contact {i}: the step");
            let error = p.center.distance(*center).max(p.point.distance(*point));
            assert!(
                error <= CONTACT_TOLERANCE,
                "start {start}, contact {i}: off by {error}"
            );
            worst = worst.max(error);
            blocks += usize::from(p.wall.is_gate());
        }
        assert!(app.world().resource::<Game>().playing);
    }
    // The figure the closing note quotes.
    println!(
        "aim line against the game: {starts} starts, worst contact error {worst:e} units, {blocks} blocks among the contacts"
    );
    assert!(
        blocks > starts,
        "the starts must meet the gates (each a block that speeds the ball and the room)"
    );
}

#[test]
fn the_aim_line_shows_where_the_ball_leaves_once_the_gates_go_off() {
    let def = shipped();
    let mut rng = StdRng::seed_from_u64(7);
    for start in 0..50 {
        let mut app = random_start(&mut rng, &def);
        // The gates go off after 3 more steps.
        app.world_mut().resource_mut::<super::Gates>().steps_left = 3;
        let predicted = forecast(&mut app, usize::MAX);
        let exit = predicted.exit.unwrap_or_else(|| panic!("start {start}: no exit"));
        assert!(exit.wall.is_gate() && !exit.wall_on, "start {start}: {exit:?}");
        let mut steps = 0;
        while app.world().resource::<Game>().playing {
            step(&mut app, Requests::default());
            steps += 1;
        }
        assert_eq!(
            steps - 1,
            exit.step,
            "start {start}: the game ended in the predicted step"
        );
        assert!(!matches!(exit.wall, Wall::Left | Wall::Right));
    }
}

#[test]
fn the_aim_line_meets_a_gate_only_while_it_is_on() {
    let def = shipped();
    let mut rng = StdRng::seed_from_u64(11);
    for start in 0..100 {
        let mut app = random_start(&mut rng, &def);
        let on_for = start % 5;
        app.world_mut().resource_mut::<super::Gates>().steps_left = on_for;
        let predicted = forecast(&mut app, usize::MAX);
        for c in &predicted.contacts {
            assert!(
                !c.wall.is_gate() || c.step < on_for,
                "start {start}: {c:?} with the gates on for {on_for}"
            );
        }
    }
}
