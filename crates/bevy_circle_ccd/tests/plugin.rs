//! Headless tests of the plugin, each against numbers computed by hand or an invariant.

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;

#[test]
fn single_bounce_by_hand() {
    // dt = 0.5 s. From (0, 3) at (2, −8) the centre reaches y = 1 after 0.25 s at x = 0.5;
    // reflected to (2, 8), the last 0.25 s carries it to (1, 3).
    let mut app = app(2.0);
    wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 3.0), Vec2::new(2.0, -8.0));
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(1.0, 3.0), 1e-5),
        "{}",
        position(&app, b)
    );
    assert_eq!(velocity(&app, b), Vec2::new(2.0, 8.0));
    assert_eq!(app.world().get::<Transform>(b).unwrap().translation.z, 0.0);
}

#[test]
fn five_bounces_in_one_step_by_hand() {
    // A channel y ∈ [0, 4], radius 1, vertical speed 10, dt = 1 s: contacts at 0.1, 0.3,
    // 0.5, 0.7, 0.9 s; the last 0.1 s after the fifth leaves it at (1, 2) going (1, 10).
    let mut app = app(1.0);
    wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    wall(&mut app, Vec2::new(-50.0, 4.0), Vec2::new(50.0, 4.0));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 2.0), Vec2::new(1.0, -10.0));
    collect_hits(&mut app);
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(1.0, 2.0), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(close(velocity(&app, b), Vec2::new(1.0, 10.0), 1e-4));
    let stats = app.world().resource::<CcdStats>().clone();
    assert_eq!(
        (stats.bounces, stats.max_bounces_per_circle, stats.capped),
        (5, 5, 0)
    );
    let times: Vec<f32> = app
        .world()
        .resource::<Collected>()
        .0
        .iter()
        .map(|h| h.time)
        .collect();
    assert_eq!(times.len(), 5);
    for (t, want) in times.iter().zip([0.1, 0.3, 0.5, 0.7, 0.9]) {
        assert!((t - want).abs() < 1e-5, "{times:?}");
    }
}

#[test]
fn very_fast_ball_never_leaves_a_closed_box() {
    // 20,000 units/s in a 200-unit box at 120 Hz: ~1 bounce per step, 10,000 steps.
    let mut app = app(120.0);
    closed_box(&mut app, 100.0);
    let v0 = Vec2::new(17_320.5, 10_000.0);
    let b = ball(&mut app, 4.0, Vec2::new(3.0, -7.0), v0);
    let mut bounces = 0;
    for _ in 0..10_000 {
        steps(&mut app, 1);
        let p = position(&app, b);
        assert!(
            p.x.abs() <= 96.0 + 1e-2 && p.y.abs() <= 96.0 + 1e-2,
            "escaped to {p}"
        );
        bounces += app.world().resource::<CcdStats>().bounces;
    }
    let speed = velocity(&app, b).length();
    assert!(
        (speed / v0.length() - 1.0).abs() < 1e-4,
        "speed {speed} vs {}",
        v0.length()
    );
    // Sanity: it really travelled: 20,000·83.3 s / ~190 units between walls.
    assert!(bounces > 5_000, "{bounces}");
}

#[test]
fn messages_and_observers_carry_the_contact() {
    // A ball of radius 1 from (−10, 0) at 20 units/s hits a pillar of radius 2 at the
    // origin when its centre is at x = −3: point (−2, 0), normal (−1, 0), speed 20.
    let mut app = app(1.0);
    collect_hits(&mut app);
    #[derive(Resource, Default)]
    struct Seen(Vec<(Entity, Entity, f32)>);
    app.init_resource::<Seen>();
    let pillar = app
        .world_mut()
        .spawn((Pillar::new(2.0), Transform::default()))
        .observe(|hit: On<CircleHitEvent>, mut seen: ResMut<Seen>| {
            seen.0.push((hit.entity, hit.hit.other, hit.hit.speed));
        })
        .id();
    let b = ball(&mut app, 1.0, Vec2::new(-10.0, 0.0), Vec2::new(20.0, 0.0));
    app.world_mut()
        .entity_mut(b)
        .observe(|hit: On<CircleHitEvent>, mut seen: ResMut<Seen>| {
            seen.0.push((hit.entity, hit.hit.circle, hit.hit.speed));
        });
    steps(&mut app, 1);
    let hits = app.world().resource::<Collected>().0.clone();
    assert_eq!(hits.len(), 1);
    let h = hits[0];
    assert_eq!((h.circle, h.other, h.sensor), (b, pillar, false));
    assert!(close(h.point, Vec2::new(-2.0, 0.0), 1e-5) && close(h.normal, Vec2::NEG_X, 1e-6));
    assert!(close(h.center, Vec2::new(-3.0, 0.0), 1e-5));
    assert!((h.speed - 20.0).abs() < 1e-4 && (h.time - 0.35).abs() < 1e-6);
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen.contains(&(pillar, pillar, h.speed)));
    assert!(seen.contains(&(b, b, h.speed)));
    // After the bounce the last 0.65 s go left at 20: x = −3 − 13 = −16.
    assert!(close(position(&app, b), Vec2::new(-16.0, 0.0), 1e-4));
}

#[test]
fn sensor_fires_without_deflecting() {
    let mut app = app(1.0);
    collect_hits(&mut app);
    let drain = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)),
            CcdSensor,
            Transform::default(),
        ))
        .id();
    let b = ball(&mut app, 1.0, Vec2::new(-4.0, 0.0), Vec2::new(8.0, 0.0));
    steps(&mut app, 1);
    // Exactly where it would be with no sensor at all.
    assert_eq!(position(&app, b), Vec2::new(4.0, 0.0));
    assert_eq!(velocity(&app, b), Vec2::new(8.0, 0.0));
    let hits = app.world().resource::<Collected>().0.clone();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].sensor && hits[0].other == drain);
    // Touched when the centre is at x = −1: 3 of 8 units.
    assert!((hits[0].time - 0.375).abs() < 1e-6);
}

#[test]
fn sensor_crossed_mid_step_fires_even_after_a_later_bounce() {
    let mut app = app(1.0);
    collect_hits(&mut app);
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0)),
        CcdSensor,
        Transform::default(),
    ));
    wall(&mut app, Vec2::new(6.0, -5.0), Vec2::new(6.0, 5.0));
    ball(&mut app, 1.0, Vec2::new(-4.0, 0.0), Vec2::new(10.0, 0.0));
    steps(&mut app, 1);
    let hits = app.world().resource::<Collected>().0.clone();
    assert_eq!(
        hits.iter().map(|h| h.sensor).collect::<Vec<_>>(),
        vec![true, false]
    );
}

#[test]
fn parented_and_rotated_table() {
    // A table rotated 90° and moved to (50, 0): its child wall, locally from (−10, 0) to
    // (10, 0), stands vertically at x = 50 in the world.
    let mut app = app(1.0);
    let table = app
        .world_mut()
        .spawn(
            Transform::from_xyz(50.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        )
        .id();
    let child = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)),
            Transform::default(),
        ))
        .id();
    app.world_mut().entity_mut(table).add_child(child);
    app.update(); // propagate transforms
    let b = ball(&mut app, 1.0, Vec2::new(40.0, 3.0), Vec2::new(18.0, 0.0));
    steps(&mut app, 1);
    // Contact at x = 49 after 9 of 18 units; back 9 units: x = 40.
    assert!(
        close(position(&app, b), Vec2::new(40.0, 3.0), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(close(velocity(&app, b), Vec2::new(-18.0, 0.0), 1e-4));
}

#[test]
fn moving_or_despawning_a_wall_updates_collisions() {
    // At 1 Hz the virtual clock (250 ms max delta) runs several frames per fixed step, so
    // this also checks that a despawn between two steps is not lost.
    let mut app = app(1.0);
    let w = wall(&mut app, Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0));
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(12.0, 0.0));
    steps(&mut app, 1);
    // Contact at x = 9 (0.75 s), back 3 units: x = 6.
    assert!(close(position(&app, b), Vec2::new(6.0, 0.0), 1e-4));
    // Move the wall to x = −2 (by its transform): contact at x = −1 after 7 units, back 5.
    app.world_mut().get_mut::<Transform>(w).unwrap().translation.x = -12.0;
    app.update(); // propagate
    let before = position(&app, b);
    app.world_mut().get_mut::<Transform>(b).unwrap().translation = Vec3::new(6.0, 0.0, 0.0);
    app.world_mut().get_mut::<MovingCircle>(b).unwrap().velocity = Vec2::new(-12.0, 0.0);
    assert!(before.is_finite());
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(4.0, 0.0), 1e-4),
        "{}",
        position(&app, b)
    );
    // Despawn it: the ball flies on.
    app.world_mut().despawn(w);
    app.world_mut().get_mut::<MovingCircle>(b).unwrap().velocity = Vec2::new(-12.0, 0.0);
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(-8.0, 0.0), 1e-4),
        "{}",
        position(&app, b)
    );
    assert_eq!(app.world().resource::<CcdWorld>().len(), 0);
}

#[test]
fn the_grid_is_packed_after_a_step_without_edits_and_a_new_wall_still_counts() {
    let packed = |app: &App| app.world().resource::<CcdWorld>().grid().is_packed();
    let mut app = app(1.0);
    wall(&mut app, Vec2::new(100.0, -5.0), Vec2::new(100.0, 5.0));
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(4.0, 0.0));
    steps(&mut app, 1);
    steps(&mut app, 1);
    assert!(packed(&app), "a step without an edit packs the grid");
    // At x = 8 after two steps; a wall at x = 11 is met when the centre reaches 10, after
    // half a step, and the ball comes back 2 units: x = 8, moving at −4.
    assert!(close(position(&app, b), Vec2::new(8.0, 0.0), 1e-4));
    wall(&mut app, Vec2::new(11.0, -5.0), Vec2::new(11.0, 5.0));
    steps(&mut app, 1);
    assert!(!packed(&app), "the step that adds a wall unpacks it");
    assert!(
        close(position(&app, b), Vec2::new(8.0, 0.0), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(close(velocity(&app, b), Vec2::new(-4.0, 0.0), 1e-4));
    steps(&mut app, 1);
    assert!(packed(&app), "and the next packs it again");
    assert!(close(position(&app, b), Vec2::new(4.0, 0.0), 1e-4));
}

#[test]
fn changing_segment_fields_updates_collisions() {
    let mut app = app(1.0);
    let w = wall(&mut app, Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0));
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(4.0, 0.0));
    steps(&mut app, 1);
    assert_eq!(position(&app, b), Vec2::new(4.0, 0.0));
    *app.world_mut().get_mut::<StaticSegment>(w).unwrap() =
        StaticSegment::new(Vec2::new(6.0, -5.0), Vec2::new(6.0, 5.0));
    steps(&mut app, 1);
    // Contact at x = 5 after 1 unit, back 3: x = 2.
    assert!(
        close(position(&app, b), Vec2::new(2.0, 0.0), 1e-4),
        "{}",
        position(&app, b)
    );
}

#[test]
fn bad_components_are_flagged_once_and_skipped() {
    let mut app = app(1.0);
    let bad_ball = ball(&mut app, 1.0, Vec2::new(0.0, 20.0), Vec2::new(f32::NAN, 1.0));
    let neg_ball = ball(&mut app, -2.0, Vec2::new(0.0, 30.0), Vec2::new(1.0, 1.0));
    let bad_wall = wall(&mut app, Vec2::new(3.0, 3.0), Vec2::new(3.0, 3.0));
    let bad_pillar = app
        .world_mut()
        .spawn((Pillar::new(-1.0), Transform::from_xyz(5.0, 0.0, 0.0)))
        .id();
    let good = ball(&mut app, 1.0, Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0));
    steps(&mut app, 2);
    let field = |app: &App, e: Entity| app.world().get::<CcdInvalid>(e).map(|i| i.field.clone());
    assert_eq!(field(&app, bad_ball).as_deref(), Some("MovingCircle.velocity"));
    assert_eq!(field(&app, neg_ball).as_deref(), Some("MovingCircle.radius"));
    assert_eq!(field(&app, bad_wall).as_deref(), Some("StaticSegment.b"));
    assert_eq!(field(&app, bad_pillar).as_deref(), Some("Pillar.radius"));
    // Skipped: not moved, no NaN written anywhere.
    assert_eq!(position(&app, bad_ball), Vec2::new(0.0, 20.0));
    assert_eq!(position(&app, neg_ball), Vec2::new(0.0, 30.0));
    // The good ball moves as if the bad obstacles were not there: 2 s at 4 units/s.
    assert_eq!(position(&app, good), Vec2::new(8.0, 0.0));
    assert_eq!(app.world().resource::<CcdStats>().skipped, 2);
    // Fix the pillar: it joins, and the marker goes.
    app.world_mut().get_mut::<Pillar>(bad_pillar).unwrap().radius = 1.0;
    app.world_mut()
        .get_mut::<MovingCircle>(bad_ball)
        .unwrap()
        .velocity = Vec2::ZERO;
    steps(&mut app, 2);
    assert_eq!(field(&app, bad_pillar), None);
    assert_eq!(field(&app, bad_ball), None);
    assert_eq!(app.world().resource::<CcdWorld>().len(), 1);
}

#[test]
fn layers_one_sided_and_response_modes() {
    let mut app = app(1.0);
    // A one-sided gate facing up (+y), on layer 2.
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)),
        OneSided,
        CcdLayers::new(0b10, u32::MAX),
        Transform::default(),
    ));
    // From below: passes through.
    let up = ball(&mut app, 1.0, Vec2::new(0.0, -3.0), Vec2::new(0.0, 6.0));
    // From above: bounces.
    let down = ball(&mut app, 1.0, Vec2::new(10.0, 3.0), Vec2::new(0.0, -6.0));
    // From above but not looking for layer 2: passes.
    let ghost = ball(&mut app, 1.0, Vec2::new(20.0, 3.0), Vec2::new(0.0, -6.0));
    app.world_mut().entity_mut(ghost).insert(CcdLayers::new(1, 1));
    // From above, stopping on contact.
    let stopper = ball(&mut app, 1.0, Vec2::new(30.0, 3.0), Vec2::new(0.0, -6.0));
    app.world_mut().entity_mut(stopper).insert(CircleResponse::Stop);
    steps(&mut app, 1);
    assert_eq!(position(&app, up), Vec2::new(0.0, 3.0));
    assert!(close(position(&app, down), Vec2::new(10.0, 5.0), 1e-5));
    assert_eq!(position(&app, ghost), Vec2::new(20.0, -3.0));
    assert!(close(position(&app, stopper), Vec2::new(30.0, 1.0), 1e-5));
    assert_eq!(velocity(&app, stopper), Vec2::ZERO);
}

#[test]
fn gravity_and_materials() {
    // g = −10, dt = 0.1: from rest, 5 steps on the exact parabola drop ½·10·0.5² = 1.25
    // units (a step that adds gravity first would drop 10·0.01·(1+2+3+4+5) = 1.5).
    let mut app = app(10.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -10.0);
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 10.0), Vec2::ZERO);
    steps(&mut app, 5);
    assert!(
        close(position(&app, b), Vec2::new(0.0, 8.75), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(close(velocity(&app, b), Vec2::new(0.0, -5.0), 1e-4));
}

#[test]
fn two_runs_are_bit_identical() {
    fn run() -> Vec<(u32, u32, u32, u32)> {
        let mut app = app(240.0);
        closed_box(&mut app, 200.0);
        for i in 0..12 {
            let a = i as f32 * 0.7;
            app.world_mut().spawn((
                Pillar::new(6.0 + i as f32),
                Transform::from_xyz(120.0 * a.cos(), 90.0 * a.sin(), 0.0),
            ));
        }
        app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -500.0);
        let balls: Vec<Entity> = (0..50)
            .map(|i| {
                let a = i as f32 * 0.37;
                ball(
                    &mut app,
                    3.0,
                    Vec2::new(-150.0 + i as f32 * 6.0, 170.0),
                    Vec2::new(900.0 * a.cos(), 700.0 * a.sin()),
                )
            })
            .collect();
        steps(&mut app, 600);
        balls
            .iter()
            .map(|&b| {
                let (p, v) = (position(&app, b), velocity(&app, b));
                (p.x.to_bits(), p.y.to_bits(), v.x.to_bits(), v.y.to_bits())
            })
            .collect()
    }
    assert_eq!(run(), run());
}

#[test]
fn parented_circles_and_kinematics_are_flagged_and_left_alone() {
    // Circles and kinematic obstacles move in world space from their own Transform, so a
    // child would be moved twice (by its parent and by the step). Both are skipped with
    // `CcdInvalid { field: "ChildOf" }`; their siblings without a parent still move.
    let mut app = app(1.0);
    let parent = app.world_mut().spawn(Transform::default()).id();
    let child_ball = ball(&mut app, 1.0, Vec2::new(0.0, 10.0), Vec2::new(3.0, 0.0));
    let child_flipper = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(10.0, 0.0)),
            Kinematic::turning(1.0),
            Transform::from_xyz(0.0, -20.0, 0.0),
        ))
        .id();
    app.world_mut()
        .entity_mut(parent)
        .add_children(&[child_ball, child_flipper]);
    let free = ball(&mut app, 1.0, Vec2::new(0.0, 40.0), Vec2::new(3.0, 0.0));
    steps(&mut app, 2);
    let field = |app: &App, e: Entity| app.world().get::<CcdInvalid>(e).map(|i| i.field.clone());
    assert_eq!(field(&app, child_ball).as_deref(), Some("ChildOf"));
    assert_eq!(field(&app, child_flipper).as_deref(), Some("ChildOf"));
    assert_eq!(field(&app, free), None);
    assert_eq!(position(&app, child_ball), Vec2::new(0.0, 10.0));
    // 2 s at 3 units/s.
    assert_eq!(position(&app, free), Vec2::new(6.0, 40.0));
    // Unparented, the ball is valid again and moves on.
    app.world_mut().entity_mut(child_ball).remove::<ChildOf>();
    steps(&mut app, 1);
    assert_eq!(field(&app, child_ball), None);
    assert_eq!(position(&app, child_ball), Vec2::new(3.0, 10.0));
}

#[test]
fn a_kicker_fires_at_the_instant_of_impact() {
    // A pop bumper: pillar radius 4 at the origin, restitution 0.5, kicking 30 units/s
    // above an approach of 10. A ball of radius 1 at (0, 10) falls at 16 units/s; the step
    // is 0.5 s. It touches when its centre is 5 from the origin, after 5/16 = 0.3125 s,
    // and leaves at max(0.5·16, 0) + 30 = 38, rising 38·0.1875 = 7.125 in the rest of the
    // step: y = 12.125. Patched at the end of the step instead, it would be at
    // 5 + 8·0.1875 = 6.5, 5.625 units short.
    let mut app = app(2.0);
    collect_hits(&mut app);
    let bumper = app
        .world_mut()
        .spawn((
            Pillar::new(4.0),
            Kicker::new(10.0, 0.0, 30.0),
            CcdMaterial::new(0.5, 0.0),
            Transform::default(),
        ))
        .id();
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 10.0), Vec2::new(0.0, -16.0));
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(0.0, 12.125), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(
        close(velocity(&app, b), Vec2::new(0.0, 38.0), 1e-4),
        "{}",
        velocity(&app, b)
    );
    let hits = &app.world().resource::<Collected>().0;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].other, bumper);
    assert!((hits[0].time - 0.3125).abs() < 1e-5, "{}", hits[0].time);
    assert!((hits[0].kick - 30.0).abs() < 1e-4, "{}", hits[0].kick);
    // A bad kicker is named and its obstacle skipped.
    app.world_mut()
        .entity_mut(bumper)
        .insert(Kicker::new(f32::NAN, 0.0, 30.0));
    steps(&mut app, 1);
    let invalid = app.world().get::<CcdInvalid>(bumper).map(|i| i.field.clone());
    assert_eq!(invalid.as_deref(), Some("Kicker.threshold"));
    assert_eq!(app.world().resource::<CcdWorld>().len(), 0);
}

#[test]
fn a_scaling_kicker_speeds_the_ball_up_at_the_instant_of_impact() {
    // A default (elastic, frictionless) wall along y = 0 that makes every hit 25% faster.
    // dt = 0.5 s. Radius 1 from (0, 3) at (2, −8): the centre reaches y = 1 after
    // 0.25 s at x = 0.5. Reflected to (2, 8), times 1.25 = (2.5, 10); the last 0.25 s
    // carries it to (0.5 + 0.625, 1 + 2.5) = (1.125, 3.5). Reported: 10 − 8 = 2 added over
    // the plain bounce. Scaled after the step instead, it would end at (1, 3).
    let mut app = app(2.0);
    collect_hits(&mut app);
    let block = wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    app.world_mut()
        .entity_mut(block)
        .insert(Kicker::scaling(0.0, 1.25));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 3.0), Vec2::new(2.0, -8.0));
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(1.125, 3.5), 1e-4),
        "{}",
        position(&app, b)
    );
    assert!(
        close(velocity(&app, b), Vec2::new(2.5, 10.0), 1e-4),
        "{}",
        velocity(&app, b)
    );
    let hits = &app.world().resource::<Collected>().0;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].other, block);
    assert!((hits[0].time - 0.25).abs() < 1e-5, "{}", hits[0].time);
    assert!((hits[0].kick - 2.0).abs() < 1e-4, "{}", hits[0].kick);
}

#[test]
fn a_bad_speed_scale_is_named_and_never_spreads_nan() {
    // Three walls with a bad scale (NaN, 0, −1): each is marked invalid naming the field
    // and skipped, so the ball above each falls through at its own (0, −8).
    let mut app = app(2.0);
    let mut pairs = Vec::new();
    for (k, scale) in [f32::NAN, 0.0, -1.0].into_iter().enumerate() {
        let x = 100.0 * k as f32;
        let w = wall(&mut app, Vec2::new(x - 10.0, 0.0), Vec2::new(x + 10.0, 0.0));
        app.world_mut().entity_mut(w).insert(Kicker::scaling(0.0, scale));
        let b = ball(&mut app, 1.0, Vec2::new(x, 3.0), Vec2::new(0.0, -8.0));
        pairs.push((w, b, x));
    }
    steps(&mut app, 2);
    for &(w, b, x) in &pairs {
        let invalid = app.world().get::<CcdInvalid>(w).cloned();
        assert_eq!(
            invalid.as_ref().map(|i| i.field.as_str()),
            Some("Kicker.speed_scale"),
            "{invalid:?}"
        );
        // Two steps of 0.5 s at 8 down: from y = 3 to y = −5, through the skipped wall.
        assert!(
            close(position(&app, b), Vec2::new(x, -5.0), 1e-4),
            "{}",
            position(&app, b)
        );
        assert_eq!(velocity(&app, b), Vec2::new(0.0, -8.0));
    }
    assert_eq!(app.world().resource::<CcdWorld>().len(), 0);
    // Fixed, the wall is back and the mark gone.
    let (w, _, _) = pairs[1];
    app.world_mut().entity_mut(w).insert(Kicker::scaling(0.0, 1.25));
    steps(&mut app, 1);
    assert!(app.world().get::<CcdInvalid>(w).is_none());
    assert_eq!(app.world().resource::<CcdWorld>().len(), 1);
}

#[test]
fn combine_rules_and_falloff_reach_the_contact() {
    // Two balls of e = 0.8 fall at 1,000 units/s onto floors of e = 0.5. Over the first,
    // ported with `Max` restitution: max(0.8, 0.5) = 0.8, out at 800. The second is rubber
    // halving its bounce at 1,000 units/s (falloff 1): 0.8·0.5 / (1 + 1) = 0.2, out at 200.
    // Radius 10 at height 20 reach the floor after 0.01 s; the step is 0.012 s.
    let mut app = app(1.0 / 0.012);
    let ported = wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    app.world_mut()
        .entity_mut(ported)
        .insert(CcdMaterial::new(0.5, 0.0).with_rules(CombineRule::Max, CombineRule::Classic));
    let rubber = wall(&mut app, Vec2::new(150.0, 0.0), Vec2::new(250.0, 0.0));
    app.world_mut()
        .entity_mut(rubber)
        .insert(CcdMaterial::new(0.5, 0.0).with_falloff(1.0, 1000.0));
    let a = ball(&mut app, 10.0, Vec2::new(0.0, 20.0), Vec2::new(0.0, -1000.0));
    let b = ball(&mut app, 10.0, Vec2::new(200.0, 20.0), Vec2::new(0.0, -1000.0));
    for e in [a, b] {
        app.world_mut().entity_mut(e).insert(CcdMaterial::new(0.8, 0.0));
    }
    steps(&mut app, 1);
    assert!(
        close(velocity(&app, a), Vec2::new(0.0, 800.0), 1e-2),
        "{}",
        velocity(&app, a)
    );
    assert!(
        close(velocity(&app, b), Vec2::new(0.0, 200.0), 1e-2),
        "{}",
        velocity(&app, b)
    );
}

#[test]
fn bad_materials_are_named_and_skipped() {
    // A NaN friction on a wall and a negative restitution on a ball: each is marked with
    // its field and skipped (never a NaN written), and works again once fixed.
    let mut app = app(1.0);
    let w = wall(&mut app, Vec2::new(5.0, -5.0), Vec2::new(5.0, 5.0));
    app.world_mut()
        .entity_mut(w)
        .insert(CcdMaterial::new(1.0, f32::NAN));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 20.0), Vec2::new(1.0, 0.0));
    app.world_mut().entity_mut(b).insert(CcdMaterial::new(-0.5, 0.0));
    steps(&mut app, 1);
    let field = |app: &App, e: Entity| app.world().get::<CcdInvalid>(e).map(|i| i.field.clone());
    assert_eq!(field(&app, w).as_deref(), Some("CcdMaterial.friction"));
    assert_eq!(field(&app, b).as_deref(), Some("CcdMaterial.restitution"));
    assert_eq!(app.world().resource::<CcdWorld>().len(), 0);
    assert_eq!(position(&app, b), Vec2::new(0.0, 20.0));
    app.world_mut().entity_mut(b).insert(CcdMaterial::new(0.5, 0.0));
    app.world_mut().entity_mut(w).insert(CcdMaterial::new(1.0, 0.0));
    steps(&mut app, 1);
    assert_eq!(field(&app, w), None);
    assert_eq!(field(&app, b), None);
    assert_eq!(app.world().resource::<CcdWorld>().len(), 1);
    assert_eq!(position(&app, b), Vec2::new(1.0, 20.0));
}

#[test]
fn a_kick_patched_after_the_step_lands_half_a_step_late() {
    // The README: a ball that meets a 1,100 mm/s bumper halfway through a 1 kHz step ends
    // that step 0.55 mm from where it should be if the kick is patched onto the velocity
    // after the step (9.2 mm at 60 Hz); with `Kicker` it ends where the hand puts it.
    // By hand: a dead post (e = 0) of radius 22 at the origin, `Kicker::new(100, 1100, 0)`,
    // and a ball (r = 13.5) below it rising at 200 mm/s, placed to touch (centre 35.5 from
    // the origin) after half a step. Kicked, it leaves at max(0·200, 1,100) + 0 = 1,100 and
    // ends the step 1,100·dt/2 below the contact; unkicked, it stops at the contact, where
    // a patched kick would find it: 1,100 mm/s · 0.5 ms = 0.55 mm, · 8.33 ms = 9.17 mm.
    const KICK: f32 = 1100.0;
    const CONTACT: f32 = 22.0 + 13.5;
    let speed = 200.0;
    for (hz, readme, half_unit) in [(1000.0, 0.55, 0.005), (60.0, 9.2, 0.05)] {
        let dt = (1.0 / hz) as f32;
        let end = |kicker: bool| {
            let mut app = app(hz);
            let post = app
                .world_mut()
                .spawn((
                    Pillar::new(22.0),
                    CcdMaterial::new(0.0, 0.0),
                    Transform::default(),
                ))
                .id();
            if kicker {
                app.world_mut()
                    .entity_mut(post)
                    .insert(Kicker::new(100.0, KICK, 0.0));
            }
            let start = Vec2::new(0.0, -CONTACT - speed * dt / 2.0);
            let b = ball(&mut app, 13.5, start, Vec2::new(0.0, speed));
            steps(&mut app, 1);
            (position(&app, b), velocity(&app, b))
        };
        let (kicked, kicked_v) = end(true);
        let (patched, patched_v) = end(false);
        // Kicked: out at 1,100 at the contact, half a step of it (f32 rounding near 35 mm
        // is 4e-6).
        let want = Vec2::new(0.0, -CONTACT - KICK * dt / 2.0);
        assert!(
            close(kicked, want, 1e-4),
            "{hz} Hz: kicked to {kicked}, want {want}"
        );
        assert!(close(kicked_v, Vec2::new(0.0, -KICK), 1e-3), "{kicked_v}");
        // Unkicked on the dead post: stopped at the contact.
        assert!(close(patched, Vec2::new(0.0, -CONTACT), 1e-4), "{patched}");
        assert!(patched_v.length() < 1e-3, "{patched_v}");
        let late = patched.distance(kicked);
        assert!(
            (late - readme).abs() <= half_unit,
            "{hz} Hz: {late} mm, the README says {readme}"
        );
    }
}

#[test]
fn circles_despawned_respawned_and_refused_are_written_back_each_to_its_own() {
    // Two threads, so the write-back runs on the pool and each circle finds its ball by
    // its entity's index. 300 circles fly in open space at 4 Hz: each step takes a circle
    // from p to p + v / 4, by hand. Between steps a third are despawned and as many
    // spawned (Bevy hands their indices out again, a generation later), and one is given
    // a NaN velocity (refused, it stays where it was): every circle must still end where
    // its own velocity takes it, none where another's does.
    let mut app = app(4.0);
    app.world_mut().resource_mut::<CcdSettings>().threads = 2;
    let start = |i: usize| {
        let i = i as f32;
        (
            Vec2::new(i * 40.0, (i * 7.0) % 90.0),
            Vec2::new(8.0 - i * 0.05, i * 0.1 - 12.0),
        )
    };
    let mut circles: Vec<(Entity, Vec2, Vec2)> = (0..300)
        .map(|i| {
            let (p, v) = start(i);
            (ball(&mut app, 1.0, p, v), p, v)
        })
        .collect();
    let moved = |app: &App, circles: &[(Entity, Vec2, Vec2)], stuck: Option<Entity>| {
        for &(e, p, v) in circles {
            let expected = if Some(e) == stuck { p } else { p + v / 4.0 };
            assert!(
                close(position(app, e), expected, 1e-3),
                "{e}: {} for {expected}",
                position(app, e)
            );
        }
    };
    steps(&mut app, 1);
    moved(&app, &circles, None);
    for round in 0..3 {
        // Every third despawned, as many spawned elsewhere.
        for k in (round..circles.len()).step_by(3) {
            app.world_mut().despawn(circles[k].0);
            let (p, v) = start(1000 + 300 * round + k);
            circles[k] = (ball(&mut app, 1.0, p, v), p, v);
        }
        // The rest take up where they are; one is refused.
        for c in &mut circles {
            c.1 = position(&app, c.0);
        }
        let stuck = circles[1 + round].0;
        app.world_mut().get_mut::<MovingCircle>(stuck).unwrap().velocity = Vec2::NAN;
        steps(&mut app, 1);
        moved(&app, &circles, Some(stuck));
        app.world_mut().get_mut::<MovingCircle>(stuck).unwrap().velocity = circles[1 + round].2;
    }
}

#[test]
fn a_pillar_is_scaled_by_its_transform_as_a_capsule_is() {
    // A pillar of radius 2 at scale 3 is one of radius 6. A ball of radius 1 from (0, 10)
    // straight down at 10 u/s meets it when its centre is at y = 7, after 0.3 s, and
    // climbs back (e = 1): at 0.4 s it is at y = 8 going up at 10. (Unscaled it would
    // still be falling, at y = 6.)
    let mut app = app(10.0);
    app.world_mut()
        .spawn((Pillar::new(2.0), Transform::from_scale(Vec3::splat(3.0))));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 10.0), Vec2::new(0.0, -10.0));
    steps(&mut app, 4);
    assert!(
        close(position(&app, b), Vec2::new(0.0, 8.0), 1e-5),
        "{}",
        position(&app, b)
    );
    assert!(
        close(velocity(&app, b), Vec2::new(0.0, 10.0), 1e-5),
        "{}",
        velocity(&app, b)
    );

    // A scale that is not the same on both axes has no radius: refused by name.
    let mut app = common::app(10.0);
    let squashed = app
        .world_mut()
        .spawn((Pillar::new(2.0), Transform::from_scale(Vec3::new(3.0, 2.0, 1.0))))
        .id();
    steps(&mut app, 1);
    let invalid = app.world().get::<CcdInvalid>(squashed).unwrap();
    assert_eq!(invalid.field, "GlobalTransform");
    assert!(invalid.reason.contains("uniform"), "{}", invalid.reason);
}

#[test]
fn two_shape_components_on_one_entity_are_refused_naming_the_second() {
    let mut app = app(10.0);
    // A floor at y = 0 that also carries a pillar, and a post that also carries a shape.
    let floor = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)),
            Pillar::new(1.0),
            Transform::default(),
        ))
        .id();
    let post = app
        .world_mut()
        .spawn((
            Pillar::new(1.0),
            CcdShape::capsule(Vec2::ZERO, Vec2::X, 1.0),
            Transform::from_xyz(0.0, -20.0, 0.0),
        ))
        .id();
    // A ball falling through both places at 10 u/s: both refused, it meets neither.
    let b = ball(&mut app, 0.5, Vec2::new(0.0, 5.0), Vec2::new(0.0, -10.0));
    steps(&mut app, 30);
    let field = |e: Entity| {
        app.world()
            .get::<CcdInvalid>(e)
            .map(|i| (i.field.clone(), i.reason.clone()))
    };
    let (f, reason) = field(floor).unwrap();
    assert_eq!(f, "Pillar");
    assert!(
        reason.contains("one of StaticSegment, Pillar and CcdShape"),
        "{reason}"
    );
    assert_eq!(field(post).map(|(f, _)| f).as_deref(), Some("CcdShape"));
    assert!(
        close(position(&app, b), Vec2::new(0.0, -25.0), 1e-4),
        "{}",
        position(&app, b)
    );
}

#[test]
fn a_fixed_update_system_runs_before_the_step_with_no_ordering() {
    // The step runs in FixedPostUpdate: a FixedUpdate system that sets a ball going at
    // (10, 0) is seen by the very step after it, 1 unit in 0.1 s.
    use bevy::ecs::schedule::ScheduleLabel;
    assert_eq!(CircleCcdPlugin::default().schedule, FixedPostUpdate.intern());
    let mut app = app(10.0);
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::ZERO);
    app.add_systems(FixedUpdate, move |mut circles: Query<&mut MovingCircle>| {
        if let Ok(mut c) = circles.get_mut(b)
            && c.velocity == Vec2::ZERO
        {
            c.velocity = Vec2::new(10.0, 0.0);
        }
    });
    steps(&mut app, 1);
    assert!(
        close(position(&app, b), Vec2::new(1.0, 0.0), 1e-6),
        "{}",
        position(&app, b)
    );
}
