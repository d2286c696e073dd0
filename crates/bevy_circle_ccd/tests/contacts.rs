//! Contacts that start and end (`CcdContactStarted`, `CcdContactEnded`), opt-in by
//! `CcdContactEvents`: one contact per pair of a circle and an entity, from its first
//! touch to its leaving, as messages and as observer events. Every count and figure by
//! hand.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;

/// Every contact message so far, in order.
#[derive(Resource, Default)]
struct Seen {
    started: Vec<CcdContactStarted>,
    ended: Vec<CcdContactEnded>,
}

fn record(
    mut s: MessageReader<CcdContactStarted>,
    mut e: MessageReader<CcdContactEnded>,
    mut seen: ResMut<Seen>,
) {
    seen.started.extend(s.read().copied());
    seen.ended.extend(e.read().copied());
}

fn watch(app: &mut App) {
    collect_hits(app);
    app.init_resource::<Seen>()
        .add_systems(FixedPostUpdate, record.after(CircleCcdSystems::Report));
}

fn counts(app: &App) -> (usize, usize) {
    let seen = app.world().resource::<Seen>();
    (seen.started.len(), seen.ended.len())
}

fn hits(app: &App) -> usize {
    app.world().resource::<Collected>().0.len()
}

fn gravity(app: &mut App, g: Vec2) {
    app.world_mut().resource_mut::<CcdSettings>().gravity = g;
}

#[test]
fn a_bounce_is_one_hit_and_one_contact_that_starts_and_ends() {
    // Radius 1 from (0, 5.5) at 10 u/s down onto the floor y = 0: it touches at t = 0.45 s
    // and leaves at once (e = 1); at the end of that step, t = 0.5 s, it is 0.5 clear.
    let mut app = app(10.0);
    watch(&mut app);
    let floor = wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 5.5), Vec2::new(0.0, -10.0));
    app.world_mut().entity_mut(b).insert(CcdContactEvents);
    steps(&mut app, 4);
    assert_eq!(counts(&app), (0, 0));
    steps(&mut app, 1);
    assert_eq!(
        (hits(&app), counts(&app)),
        (1, (1, 1)),
        "started and ended in one step"
    );
    let seen = app.world().resource::<Seen>();
    let s = seen.started[0];
    assert_eq!(
        (s.circle, s.other, s.part, s.feature),
        (b, floor, 0, HitFeature::Face)
    );
    assert!(
        close(s.point, Vec2::ZERO, 1e-5) && close(s.normal, Vec2::Y, 1e-6),
        "{s:?}"
    );
    assert!((s.speed - 10.0).abs() < 1e-4, "{}", s.speed);
    assert_eq!(
        seen.ended[0],
        CcdContactEnded {
            circle: b,
            other: floor
        }
    );
    steps(&mut app, 10);
    assert_eq!((hits(&app), counts(&app)), (1, (1, 1)));
}

#[test]
fn no_contact_is_reported_without_the_marker() {
    let mut app = app(10.0);
    watch(&mut app);
    wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    ball(&mut app, 1.0, Vec2::new(0.0, 5.0), Vec2::new(0.0, -10.0));
    steps(&mut app, 10);
    assert_eq!((hits(&app), counts(&app)), (1, (0, 0)));
}

#[test]
fn a_ball_cradled_on_a_raised_flipper_is_one_contact_until_it_drops() {
    // A kinematic bat from (0, 0) to (100, 0), held level, a ball of radius 5 (e = 0)
    // dropped onto it from 5 above at x = 50, under gravity 100 down, at 60 Hz: it lands
    // at √(2·100·5) = 31.6 u/s (a hit) and rests there. The marker is on the bat.
    let mut app = app(60.0);
    watch(&mut app);
    gravity(&mut app, Vec2::new(0.0, -100.0));
    let held = Kinematic::Velocity {
        angular: 0.0,
        linear: Vec2::ZERO,
    };
    let bat = flipper(&mut app, Vec2::ZERO, 100.0, 0.0, held);
    app.world_mut().entity_mut(bat).insert(CcdContactEvents);
    let b = ball(&mut app, 5.0, Vec2::new(50.0, 10.0), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert(CcdMaterial::new(0.0, 0.0));
    steps(&mut app, 120);
    assert_eq!(counts(&app), (1, 0), "one contact over 2 s");
    assert_eq!(
        hits(&app),
        1,
        "one hit, the landing: a contact that lasts is not a hit"
    );
    let landing = app.world().resource::<Collected>().0[0].speed;
    assert!((landing - 1000.0_f32.sqrt()).abs() < 1e-3, "{landing}");
    let s = app.world().resource::<Seen>().started[0];
    assert_eq!((s.circle, s.other), (b, bat));
    assert!(
        close(position(&app, b), Vec2::new(50.0, 5.0), 1e-3),
        "{}",
        position(&app, b)
    );

    // The bat drops at 20 rad/s: under the ball (50 from the pivot) it falls away at
    // 1,000 u/s, far faster than the ball falls. The contact ends.
    *app.world_mut().get_mut::<Kinematic>(bat).unwrap() = Kinematic::Velocity {
        angular: -20.0,
        linear: Vec2::ZERO,
    };
    steps(&mut app, 2);
    assert_eq!(counts(&app), (1, 1));
    assert_eq!(
        app.world().resource::<Seen>().ended[0],
        CcdContactEnded {
            circle: b,
            other: bat
        }
    );
}

#[test]
fn a_slide_across_the_joints_of_a_chain_is_one_contact() {
    // A 20° slope of 12 edges of 15 (a chain of 13 points), a ball of radius 10 let go on
    // it at rest 5 from its top, gravity 1,000 down, 120 Hz. It slides 171 in 1 s (½·g·sin
    // 20°·t²), to 176 along, across all 11 joints (at 15, 30, …, 165), on one contact with
    // the chain; it runs off the chain's end (180 along) before 1.5 s, and the contact
    // ends.
    let mut app = app(120.0);
    watch(&mut app);
    gravity(&mut app, Vec2::new(0.0, -1000.0));
    let down = Vec2::from_angle(-20f32.to_radians());
    let points: Vec<Vec2> = (0..=12).map(|k| down * (15.0 * k as f32)).collect();
    let chain = app
        .world_mut()
        .spawn((CcdShape::polyline(points), CcdContactEvents, Transform::default()))
        .id();
    let start = down * 5.0 + down.perp() * 10.0;
    let b = ball(&mut app, 10.0, start, Vec2::ZERO);
    steps(&mut app, 120);
    let along = (position(&app, b) - start).dot(down);
    assert!((along - 171.0).abs() < 0.5, "slid {along}");
    assert_eq!(counts(&app), (1, 0));
    let s = app.world().resource::<Seen>().started[0];
    assert_eq!((s.circle, s.other), (b, chain));
    steps(&mut app, 60);
    assert_eq!(counts(&app), (1, 1), "off the end");
}

/// The contact events each entity observed, in order: (entity observed, started?, circle,
/// other, normal).
#[derive(Resource, Default)]
struct Observed(Vec<(Entity, bool, Entity, Entity, Vec2)>);

#[test]
fn two_balls_in_contact_each_see_the_other() {
    // Radius 1 at (−5, 0) and (5, 0), closing at 20 u/s: they touch at t = 0.4 s, and
    // part at once (e = 1), 1 apart at the end of that step. Only the first has the marker.
    let mut app = app(10.0);
    watch(&mut app);
    app.world_mut().resource_mut::<CcdSettings>().ball_ball = true;
    app.init_resource::<Observed>();
    let a = ball(&mut app, 1.0, Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0));
    let b = ball(&mut app, 1.0, Vec2::new(5.0, 0.0), Vec2::new(-10.0, 0.0));
    app.world_mut().entity_mut(a).insert(CcdContactEvents);
    for e in [a, b] {
        app.world_mut()
            .entity_mut(e)
            .observe(|on: On<CcdContactStartedEvent>, mut seen: ResMut<Observed>| {
                let c = on.contact;
                seen.0.push((on.entity, true, c.circle, c.other, c.normal));
            })
            .observe(|on: On<CcdContactEndedEvent>, mut seen: ResMut<Observed>| {
                let c = on.contact;
                seen.0.push((on.entity, false, c.circle, c.other, Vec2::ZERO));
            });
    }
    steps(&mut app, 5);
    assert_eq!(counts(&app), (2, 2));
    let seen = app.world().resource::<Seen>();
    let views: Vec<(Entity, Entity)> = seen.started.iter().map(|s| (s.circle, s.other)).collect();
    assert!(views.contains(&(a, b)) && views.contains(&(b, a)), "{views:?}");
    for s in &seen.started {
        // The normal points from the other ball to this one.
        let want = if s.circle == a { -Vec2::X } else { Vec2::X };
        assert!(close(s.normal, want, 1e-6), "{s:?}");
    }
    // Each ball observed its own view once started and once ended, and nothing else.
    let mut observed = app.world().resource::<Observed>().0.clone();
    observed.sort_by_key(|o| (o.0, o.1));
    let got: Vec<(Entity, bool, Entity, Entity)> = observed.iter().map(|o| (o.0, o.1, o.2, o.3)).collect();
    let mut want = vec![
        (a, true, a, b),
        (a, false, a, b),
        (b, true, b, a),
        (b, false, b, a),
    ];
    want.sort_by_key(|o| (o.0, o.1));
    assert_eq!(got, want);
}

#[test]
fn a_contact_ends_when_the_other_is_despawned_or_the_ball_held() {
    // Resting on a floor (e = 0 from 0.1 above, gravity 10): one contact, then the floor
    // is despawned: it ends. A second ball on a second floor is held (`CcdDisabled`): it
    // ends too.
    let mut app = app(60.0);
    watch(&mut app);
    gravity(&mut app, Vec2::new(0.0, -10.0));
    let floor = wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    let other_floor = wall(&mut app, Vec2::new(100.0, 0.0), Vec2::new(200.0, 0.0));
    let dead = CcdMaterial::new(0.0, 0.0);
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 1.1), Vec2::ZERO);
    let c = ball(&mut app, 1.0, Vec2::new(150.0, 1.1), Vec2::ZERO);
    for e in [b, c] {
        app.world_mut().entity_mut(e).insert((CcdContactEvents, dead));
    }
    steps(&mut app, 60);
    assert_eq!(counts(&app), (2, 0), "each landed once and stays");
    app.world_mut().entity_mut(floor).despawn();
    app.world_mut().entity_mut(c).insert(CcdDisabled);
    steps(&mut app, 1);
    let seen = app.world().resource::<Seen>();
    let ended: Vec<(Entity, Entity)> = seen.ended.iter().map(|e| (e.circle, e.other)).collect();
    assert_eq!(ended.len(), 2, "{ended:?}");
    assert!(
        ended.contains(&(b, floor)) && ended.contains(&(c, other_floor)),
        "{ended:?}"
    );
}

#[test]
fn a_ball_through_a_sensor_zone_is_one_contact_from_entering_to_leaving() {
    // A ball of radius 2 from (−50, 0) at 100 u/s, 60 Hz (step k ends at k/60 s), through
    // a sensor disc of radius 20 at the origin and a solid sensor square of half side 15
    // at (100, 0). The disc: it enters at x = −22 (t = 0.28 s, in step 17) and is clear
    // past x = 22 (t = 0.72 s: at the end of step 43, x = 21.7, it still overlaps; step
    // 44 ends it). The square: it enters at x = 83 (t = 1.33 s, step 80), is inside, its
    // centre clear of the edges, from x = 85 to 115, and is clear past x = 117 (t = 1.67
    // s: step 100 ends at x = 116.7, touching; step 101 ends it).
    let mut app = app(60.0);
    watch(&mut app);
    let disc = app
        .world_mut()
        .spawn((Pillar::new(20.0), CcdSensor, Transform::default()))
        .id();
    let square = app
        .world_mut()
        .spawn((
            CcdShape::rect(Vec2::splat(15.0)),
            CcdSensor,
            Transform::from_xyz(100.0, 0.0, 0.0),
        ))
        .id();
    let b = ball(&mut app, 2.0, Vec2::new(-50.0, 0.0), Vec2::new(100.0, 0.0));
    app.world_mut().entity_mut(b).insert(CcdContactEvents);
    let mut log = vec![(0, (0, 0))];
    for step in 1..=130 {
        steps(&mut app, 1);
        let seen = app.world().resource::<Seen>();
        let (s, e) = (seen.started.len(), seen.ended.len());
        if log.last().map(|&(_, c)| c) != Some((s, e)) {
            log.push((step, (s, e)));
        }
    }
    assert_eq!(
        log,
        [
            (0, (0, 0)),
            (17, (1, 0)),
            (44, (1, 1)),
            (80, (2, 1)),
            (101, (2, 2))
        ],
        "(step, (started, ended))"
    );
    let seen = app.world().resource::<Seen>();
    assert_eq!(
        seen.started
            .iter()
            .map(|c| (c.other, c.sensor))
            .collect::<Vec<_>>(),
        [(disc, true), (square, true)]
    );
    assert_eq!(
        seen.ended.iter().map(|c| c.other).collect::<Vec<_>>(),
        [disc, square]
    );
    // The ball went straight through both.
    assert!(close(velocity(&app, b), Vec2::new(100.0, 0.0), 1e-4));
}

#[test]
fn a_puck_pushed_by_a_paddle_without_gravity_is_one_hit() {
    // No gravity (a resting speed of 0). A box paddle at 200 u/s meets a puck of radius 5
    // at rest 1e-3 ahead of it, e = 0: the puck takes the paddle's speed at once and is
    // pushed along, touching it, for 2 s. The paddle meets it again each step at a
    // rounding's speed (about 1e-5 u/s); that is the same contact going on, not a hit.
    let mut app = app(60.0);
    watch(&mut app);
    let paddle = app
        .world_mut()
        .spawn((
            CcdShape::rect(Vec2::new(5.0, 30.0)),
            Kinematic::Velocity {
                angular: 0.0,
                linear: Vec2::new(200.0, 0.0),
            },
            Transform::from_xyz(-5.0, 0.0, 0.0),
        ))
        .id();
    let puck = ball(&mut app, 5.0, Vec2::new(5.001, 0.0), Vec2::ZERO);
    app.world_mut()
        .entity_mut(puck)
        .insert((CcdMaterial::new(0.0, 0.0), CcdContactEvents));
    steps(&mut app, 120);
    let hits = &app.world().resource::<Collected>().0;
    assert_eq!(
        hits.len(),
        1,
        "{:?}",
        hits.iter().map(|h| h.speed).collect::<Vec<_>>()
    );
    assert_eq!((hits[0].other, hits[0].speed), (paddle, 200.0));
    assert!(close(velocity(&app, puck), Vec2::new(200.0, 0.0), 1e-2));
    // One contact, still going on.
    assert_eq!(counts(&app), (1, 0));
}
