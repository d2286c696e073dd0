//! `CcdDisabled`: a held circle keeps its components, is not moved, and nothing meets it;
//! let go, it flies on from where it was held. Every figure by hand.

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;

/// An app at 10 Hz (dt = 0.1 s) with ball–ball contacts on and the given gravity.
fn app_with(gravity: Vec2) -> App {
    let mut app = app(10.0);
    let mut settings = app.world_mut().resource_mut::<CcdSettings>();
    settings.gravity = gravity;
    settings.ball_ball = true;
    app
}

/// The hits that name `e`, as the circle or the other body.
fn hits_of(app: &App, e: Entity) -> usize {
    let hits = &app.world().resource::<Collected>().0;
    hits.iter().filter(|h| h.circle == e || h.other == e).count()
}

#[test]
fn a_held_ball_is_not_moved_and_another_passes_through_its_place() {
    let mut app = app_with(Vec2::ZERO);
    collect_hits(&mut app);
    // Held at the origin, with a velocity it keeps but does not move by.
    let held = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(3.0, 4.0));
    app.world_mut().entity_mut(held).insert(CcdDisabled);
    // A ball of the same size from (−10, 0) at 100 u/s along x: it would meet the held one
    // at t = 0.08 s. Held out, it is met by nothing: after 0.4 s it is at (30, 0).
    let through = ball(&mut app, 1.0, Vec2::new(-10.0, 0.0), Vec2::new(100.0, 0.0));
    // The same two, 100 above, the second not held: they meet, and (equal masses, e = 1)
    // swap velocities, so the one struck leaves at 100 u/s. This is what the marker stops.
    let struck = ball(&mut app, 1.0, Vec2::new(0.0, 100.0), Vec2::ZERO);
    let striker = ball(&mut app, 1.0, Vec2::new(-10.0, 100.0), Vec2::new(100.0, 0.0));
    steps(&mut app, 4);

    assert_eq!(position(&app, held), Vec2::ZERO);
    assert_eq!(velocity(&app, held), Vec2::new(3.0, 4.0));
    assert!(app.world().get::<CcdDisabled>(held).is_some());
    assert!(
        close(position(&app, through), Vec2::new(30.0, 0.0), 1e-4),
        "{}",
        position(&app, through)
    );
    assert_eq!(velocity(&app, through), Vec2::new(100.0, 0.0));
    assert_eq!((hits_of(&app, held), hits_of(&app, through)), (0, 0));

    assert_eq!(hits_of(&app, struck), 1);
    assert!(
        close(velocity(&app, struck), Vec2::new(100.0, 0.0), 1e-3),
        "{}",
        velocity(&app, struck)
    );
    assert!(
        close(velocity(&app, striker), Vec2::ZERO, 1e-3),
        "{}",
        velocity(&app, striker)
    );
    assert_eq!(
        app.world().resource::<CcdStats>().circles,
        3,
        "the held ball is not stepped"
    );
}

#[test]
fn let_go_it_flies_on_from_where_it_was_held() {
    let mut app = app_with(Vec2::new(0.0, -10.0));
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(3.0, 4.0));
    app.world_mut().entity_mut(b).insert(CcdDisabled);
    steps(&mut app, 5);
    // Held for 0.5 s under gravity: neither moved nor sped up.
    assert_eq!(position(&app, b), Vec2::ZERO);
    assert_eq!(velocity(&app, b), Vec2::new(3.0, 4.0));

    app.world_mut().entity_mut(b).remove::<CcdDisabled>();
    steps(&mut app, 1);
    // One step of 0.1 s on the parabola: (3·0.1, 4·0.1 − ½·10·0.1²) = (0.3, 0.35), at
    // (3, 4 − 10·0.1) = (3, 3).
    assert!(
        close(position(&app, b), Vec2::new(0.3, 0.35), 1e-6),
        "{}",
        position(&app, b)
    );
    assert!(
        close(velocity(&app, b), Vec2::new(3.0, 3.0), 1e-6),
        "{}",
        velocity(&app, b)
    );
}

#[test]
fn a_held_ball_inside_a_wall_is_no_fault() {
    let mut app = app_with(Vec2::ZERO);
    app.world_mut().resource_mut::<CcdSettings>().audit = true;
    wall(&mut app, Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0));
    // Radius 4, its centre 1 above the floor: 3 deep. Held, the audit does not see it;
    // stepped, it would be a fault every step (`tests/audit.rs`).
    let b = ball(&mut app, 4.0, Vec2::new(0.0, 1.0), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert(CcdDisabled);
    steps(&mut app, 3);
    assert_eq!(app.world().resource::<CcdFaults>().count, 0);
    assert_eq!(position(&app, b), Vec2::new(0.0, 1.0));

    app.world_mut().entity_mut(b).remove::<CcdDisabled>();
    steps(&mut app, 1);
    assert_eq!(app.world().resource::<CcdFaults>().count, 1, "seen once let go");
}
