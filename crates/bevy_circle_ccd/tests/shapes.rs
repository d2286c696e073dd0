//! The shapes beside segments and pillars ([`CcdShape`]): a ball meets a brick, a corner, a
//! rounded paddle and an arc where the geometry says, each hit names the entity, the part
//! and the feature, a moving body's velocity at the contact, and a ball's speed limit
//! holds at the contact. Bad shapes are refused by name.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;
use std::f32::consts::{FRAC_1_SQRT_2, PI};

fn field(app: &App, e: Entity) -> Option<String> {
    app.world().get::<CcdInvalid>(e).map(|i| i.field.clone())
}

fn hits(app: &App) -> Vec<CircleHit> {
    app.world().resource::<Collected>().0.clone()
}

#[test]
fn a_ball_dropped_on_a_brick_meets_its_top_edge_and_bounces_exactly() {
    let mut app = app(60.0);
    collect_hits(&mut app);
    // A 60 × 20 brick at the origin: corners (−30, −10), (30, −10), (30, 10), (−30, 10),
    // counter-clockwise, so its top edge, from (30, 10) to (−30, 10), is edge 2.
    let brick = app
        .world_mut()
        .spawn((CcdShape::rect(Vec2::new(30.0, 10.0)), Transform::default()))
        .id();
    // Radius 5, from y = 100 down at 6,000 u/s: its centre reaches y = 15 after 85 units,
    // 85 / 6000 s into the first step of 1/60 s, and leaves at 6,000 u/s up.
    let b = ball(&mut app, 5.0, Vec2::new(4.0, 100.0), Vec2::new(0.0, -6000.0));
    steps(&mut app, 1);
    let h = hits(&app);
    assert_eq!(h.len(), 1, "{h:?}");
    let hit = h[0];
    assert_eq!((hit.other, hit.part, hit.feature), (brick, 2, HitFeature::Face));
    assert!(close(hit.point, Vec2::new(4.0, 10.0), 1e-3), "{hit:?}");
    assert!(close(hit.normal, Vec2::Y, 1e-6));
    assert!((hit.time - 85.0 / 6000.0).abs() < 1e-6, "{hit:?}");
    assert_eq!(hit.other_velocity, Vec2::ZERO);
    assert!((hit.speed - 6000.0).abs() < 1e-2);
    // At the step's end: 6000·(1/60 − 85/6000) = 15 above the contact height.
    assert!(
        close(position(&app, b), Vec2::new(4.0, 30.0), 1e-2),
        "{}",
        position(&app, b)
    );
    assert!(close(velocity(&app, b), Vec2::new(0.0, 6000.0), 1e-2));
}

#[test]
fn a_ball_aimed_at_a_corner_meets_the_vertex_with_its_normal() {
    let mut app = app(60.0);
    collect_hits(&mut app);
    let brick = app
        .world_mut()
        .spawn((CcdShape::rect(Vec2::new(30.0, 10.0)), Transform::default()))
        .id();
    // Along the diagonal through the corner (30, 10), coming from up and right: it touches
    // the corner when its centre is 5 from it, on that diagonal.
    let d = Vec2::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2);
    let start = Vec2::new(30.0, 10.0) + d * 60.0;
    ball(&mut app, 5.0, start, -d * 4000.0);
    steps(&mut app, 1);
    let h = hits(&app);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(
        (h[0].other, h[0].feature),
        (brick, HitFeature::Vertex(2)),
        "{h:?}"
    );
    // The corner is met once, by the edge that owns it: edge 1, which (its corners
    // counter-clockwise, it runs backwards) starts at corner 2.
    assert_eq!(h[0].part, 1);
    assert!(close(h[0].normal, d, 1e-5), "{h:?}");
    assert!(close(h[0].center, Vec2::new(30.0, 10.0) + d * 5.0, 1e-3), "{h:?}");
}

#[test]
fn a_moving_capsule_paddle_reports_its_velocity_and_the_speed_limit_holds() {
    for (limit, expected) in [(None, 2000.0), (Some(1500.0), 1500.0)] {
        let mut app = app(60.0);
        collect_hits(&mut app);
        // A vertical capsule paddle of radius 5 at x = 0 moving right at 1,000 u/s; a
        // still ball of radius 5 at x = 12, 2 clear of it. An elastic push by an infinitely
        // heavy paddle leaves the ball at twice the paddle's speed: 2,000 u/s.
        let paddle = app
            .world_mut()
            .spawn((
                CcdShape::capsule(Vec2::new(0.0, -20.0), Vec2::new(0.0, 20.0), 5.0),
                Kinematic::Velocity {
                    angular: 0.0,
                    linear: Vec2::new(1000.0, 0.0),
                },
                Transform::default(),
            ))
            .id();
        let b = ball(&mut app, 5.0, Vec2::new(12.0, 0.0), Vec2::ZERO);
        if let Some(limit) = limit {
            app.world_mut().entity_mut(b).insert(CcdMaxSpeed(limit));
        }
        steps(&mut app, 1);
        let h = hits(&app);
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!((h[0].other, h[0].feature), (paddle, HitFeature::Face));
        assert!(close(h[0].other_velocity, Vec2::new(1000.0, 0.0), 1e-2), "{h:?}");
        // The paddle covers the 2 units in 2 ms.
        assert!((h[0].time - 0.002).abs() < 1e-6, "{h:?}");
        let v = velocity(&app, b);
        assert!(close(v, Vec2::new(expected, 0.0), 1e-2), "{limit:?}: {v} {h:?}");
        // The rest of the step flown at that speed, from x = 12 (where it waited) at 2 ms.
        let x = 12.0 + expected * (1.0 / 60.0 - 0.002);
        assert!(
            (position(&app, b).x - x).abs() < 1e-2,
            "{limit:?}: {}",
            position(&app, b)
        );
    }
}

#[test]
fn a_ball_meets_an_arc_from_inside_and_at_its_end() {
    let mut app = app(60.0);
    collect_hits(&mut app);
    // The upper half of a ring of radius 100 around the origin, as a band 2 thick.
    let ring = app
        .world_mut()
        .spawn((
            CcdShape::band(Vec2::ZERO, 100.0, 0.0, PI, 2.0),
            Transform::default(),
        ))
        .id();
    // From the centre straight up: inside face at radius 100 − 2 − 5 = 93, after 93 units.
    let up = ball(&mut app, 5.0, Vec2::ZERO, Vec2::new(0.0, 6000.0));
    steps(&mut app, 1);
    let h: Vec<_> = hits(&app).into_iter().filter(|h| h.circle == up).collect();
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].other, h[0].feature), (ring, HitFeature::ArcInside));
    assert!(close(h[0].point, Vec2::new(0.0, 98.0), 1e-3), "{h:?}");
    assert!((h[0].time - 93.0 / 6000.0).abs() < 1e-6);

    // Straight down onto the start's round end at (100, 0), from (100, −60): it touches
    // when its centre is 2 + 5 below the end point.
    let mut app2 = app_with_ring();
    let end = ball(&mut app2, 5.0, Vec2::new(100.0, -60.0), Vec2::new(0.0, 6000.0));
    steps(&mut app2, 1);
    let h: Vec<_> = hits(&app2).into_iter().filter(|h| h.circle == end).collect();
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0].feature, HitFeature::ArcEnd(0), "{h:?}");
    assert!(close(h[0].center, Vec2::new(100.0, -7.0), 1e-3), "{h:?}");
}

/// A kinematic arc that turns sweeps a still ball with its end, when and as the turn
/// says: the quarter rail of radius 50 from 0 to π/2 about the origin turns at π rad/s; a
/// ball of radius 2 waits on its circle at 2π/3. The end meets it when the chord between
/// them is 2: an angle Δ = 2·asin(2/100) short of 2π/3, at t = (π/6 − Δ)/π. The end moves
/// at 50π along its circle; the normal is the chord's direction, Δ/2 from the end's
/// tangent, and an elastic push by an infinitely heavy body leaves the ball at twice the
/// surface's speed along it.
#[test]
fn a_turning_arc_strikes_a_ball_with_its_end_as_its_turn_says() {
    let hz = 600.0;
    let mut app = app(hz);
    collect_hits(&mut app);
    let arc = app
        .world_mut()
        .spawn((
            CcdShape::arc(Vec2::ZERO, 50.0, 0.0, PI / 2.0),
            Kinematic::Velocity {
                angular: PI,
                linear: Vec2::ZERO,
            },
            Transform::default(),
        ))
        .id();
    let at = Vec2::from_angle(2.0 * PI / 3.0) * 50.0;
    let b = ball(&mut app, 2.0, at, Vec2::ZERO);
    let delta = 2.0 * (2.0_f32 / 100.0).asin();
    let expected_time = (PI / 6.0 - delta) / PI;
    let mut found = None;
    for step in 0..120 {
        steps(&mut app, 1);
        if let Some(h) = hits(&app).first() {
            found = Some((step, *h));
            break;
        }
    }
    let (step, h) = found.unwrap();
    assert_eq!(
        (h.other, h.circle, h.feature),
        (arc, b, HitFeature::ArcEnd(1)),
        "{h:?}"
    );
    let time = step as f32 / hz as f32 + h.time;
    assert!(
        (time - expected_time).abs() < 1e-5,
        "{time} against {expected_time}"
    );
    let end_angle = 2.0 * PI / 3.0 - delta;
    let normal = Vec2::from_angle(2.0 * PI / 3.0 - 0.5 * delta + PI / 2.0);
    assert!(close(h.normal, normal, 1e-3), "{h:?}");
    let surface = Vec2::from_angle(end_angle + PI / 2.0) * 50.0 * PI;
    assert!(close(h.other_velocity, surface, 0.05), "{h:?}");
    let v = velocity(&app, b);
    let speed = 2.0 * 50.0 * PI * (0.5 * delta).cos();
    assert!(close(v, normal * speed, 0.05), "{v} against {}", normal * speed);
}

/// An arc is a hinge's part like any shape: a ball of mass 1 at 100 u/s falls on the top
/// of a small arc whose top is at lever 50 from the pivot (the numbers of the segment part
/// in `hinge.rs`): J = 2·100/(1 + 50²/2,500) = 100, and the body turns at +2 rad/s.
#[test]
fn an_arc_on_a_hinge_turns_the_body_it_is_part_of() {
    let mut app = app(120.0);
    let body = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(100.0, 0.0)),
            Hinge::new(2_500.0),
            Transform::default(),
        ))
        .id();
    let part = app
        .world_mut()
        .spawn((
            CcdShape::arc(Vec2::new(-50.0, 0.0), 10.0, 0.0, PI),
            HingePart(body),
        ))
        .id();
    let b = ball(&mut app, 1.0, Vec2::new(-50.0, 11.5), Vec2::new(0.0, -100.0));
    app.world_mut().entity_mut(b).insert(CcdMass(1.0));
    steps(&mut app, 3);
    assert_eq!(field(&app, part), None);
    let hinge = *app.world().get::<Hinge>(body).unwrap();
    assert!(
        (hinge.angular_velocity - 2.0).abs() < 1e-3,
        "ω = {}",
        hinge.angular_velocity
    );
    assert!(hinge.angle > 0.0);
}

/// A moving box (a paddle; a moving chain's edges are searched edge by edge as moving
/// segments) meets a still ball with a corner: one hit, at the corner, with the corner's
/// normal. The 60 × 20 box rises at 1,000 u/s; the ball of radius 5 waits at (33, 20), 3
/// right of its top-right corner (30, 10) and 10 above it. The corner meets it 4 below its
/// centre, after rising 6: at 6 ms, with the normal (3, 4)/5, and an elastic push by an
/// infinitely heavy body leaves the ball at 2·(1,000·0.8)·(0.6, 0.8) = (960, 1,280).
#[test]
fn a_moving_box_meets_a_ball_with_its_corner_once() {
    let mut app = app(60.0);
    collect_hits(&mut app);
    let paddle = app
        .world_mut()
        .spawn((
            CcdShape::rect(Vec2::new(30.0, 10.0)),
            Kinematic::Velocity {
                angular: 0.0,
                linear: Vec2::new(0.0, 1000.0),
            },
            Transform::default(),
        ))
        .id();
    let b = ball(&mut app, 5.0, Vec2::new(33.0, 20.0), Vec2::ZERO);
    steps(&mut app, 1);
    let h = hits(&app);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(
        (h[0].other, h[0].feature),
        (paddle, HitFeature::Vertex(2)),
        "{h:?}"
    );
    assert!((h[0].time - 0.006).abs() < 1e-6, "{h:?}");
    assert!(close(h[0].normal, Vec2::new(0.6, 0.8), 1e-4), "{h:?}");
    let v = velocity(&app, b);
    assert!(close(v, Vec2::new(960.0, 1280.0), 0.05), "{v}");
}

fn app_with_ring() -> App {
    let mut app = app(60.0);
    collect_hits(&mut app);
    app.world_mut().spawn((
        CcdShape::band(Vec2::ZERO, 100.0, 0.0, PI, 2.0),
        Transform::default(),
    ));
    app
}

#[test]
fn a_shape_is_one_body_in_the_world_and_leaves_it_whole() {
    let mut app = app(60.0);
    let chain = app
        .world_mut()
        .spawn((
            CcdShape::polyline([
                Vec2::ZERO,
                Vec2::new(10.0, 0.0),
                Vec2::new(20.0, 5.0),
                Vec2::new(30.0, 5.0),
            ]),
            Transform::from_xyz(0.0, -50.0, 0.0),
        ))
        .id();
    steps(&mut app, 1);
    let world = app.world().resource::<CcdWorld>();
    assert_eq!(world.obstacles(chain).count(), 3);
    assert_eq!(world.len(), 3);
    // A new shape with fewer parts replaces all of them.
    app.world_mut()
        .entity_mut(chain)
        .insert(CcdShape::polyline([Vec2::ZERO, Vec2::new(10.0, 0.0)]));
    steps(&mut app, 1);
    assert_eq!(app.world().resource::<CcdWorld>().len(), 1);
    app.world_mut().entity_mut(chain).remove::<CcdShape>();
    steps(&mut app, 1);
    assert_eq!(app.world().resource::<CcdWorld>().len(), 0);
}

#[test]
fn bad_shapes_are_refused_by_name_and_spread_no_nan() {
    let mut app = app(60.0);
    let spawn =
        |app: &mut App, shape: CcdShape, transform: Transform| app.world_mut().spawn((shape, transform)).id();
    let t = Transform::default();
    let bow_tie = spawn(
        &mut app,
        CcdShape::polygon([Vec2::ZERO, Vec2::ONE, Vec2::X, Vec2::Y]),
        t,
    );
    let repeated = spawn(&mut app, CcdShape::polyline([Vec2::ZERO, Vec2::X, Vec2::X]), t);
    let one_point = spawn(&mut app, CcdShape::polyline([Vec2::ZERO]), t);
    let nan_point = spawn(&mut app, CcdShape::polygon([Vec2::ZERO, Vec2::NAN, Vec2::Y]), t);
    let no_radius = spawn(&mut app, CcdShape::arc(Vec2::ZERO, 0.0, 0.0, 1.0), t);
    let no_span = spawn(&mut app, CcdShape::arc(Vec2::ZERO, 10.0, 1.0, 1.0), t);
    let stretched = spawn(
        &mut app,
        CcdShape::arc(Vec2::ZERO, 10.0, 0.0, 1.0),
        Transform::from_scale(Vec3::new(2.0, 1.0, 1.0)),
    );
    let bad_capsule = spawn(&mut app, CcdShape::capsule(Vec2::ZERO, Vec2::X, -1.0), t);
    let bad_compound = spawn(
        &mut app,
        CcdShape::compound([CcdShape::rect(Vec2::ONE), CcdShape::polyline([Vec2::ONE])]),
        t,
    );
    let fine = spawn(
        &mut app,
        CcdShape::rect(Vec2::ONE),
        Transform::from_xyz(0.0, 50.0, 0.0),
    );
    let fast = ball(&mut app, 1.0, Vec2::new(0.0, -20.0), Vec2::new(300.0, 700.0));
    let limited = ball(&mut app, 1.0, Vec2::new(5.0, -20.0), Vec2::ZERO);
    app.world_mut().entity_mut(limited).insert(CcdMaxSpeed(-1.0));
    steps(&mut app, 10);
    for (e, expected) in [
        (bow_tie, "CcdShape.points"),
        (repeated, "CcdShape.points"),
        (one_point, "CcdShape.points"),
        (nan_point, "CcdShape.points"),
        (no_radius, "CcdShape.radius"),
        (no_span, "CcdShape.end"),
        (stretched, "GlobalTransform"),
        (bad_capsule, "CcdShape.radius"),
        (bad_compound, "CcdShape.points"),
        (limited, "CcdMaxSpeed"),
    ] {
        assert_eq!(field(&app, e).as_deref(), Some(expected), "{e}");
    }
    assert_eq!(field(&app, fine), None);
    // The good brick alone is in the world, and the ball moved on, finite.
    assert_eq!(app.world().resource::<CcdWorld>().len(), 4);
    assert!(position(&app, fast).is_finite() && velocity(&app, fast).is_finite());
}
