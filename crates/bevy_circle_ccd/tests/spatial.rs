//! `CcdQuery` against brute force: 100,000 seeded random casts of circles and rays
//! through a scene of every shape (a segment, a pillar, a capsule, an arc, a band, a
//! chain, a polygon, a turned box, a compound, a turning kinematic bat, a turning
//! kinematic box and a resting ball), each checked against the least clearance of the cast circle from every body,
//! sampled along the motion: no body is reached before the hit, the circle touches the
//! hit body there, and a cast that meets nothing reaches nothing. Then 20,000 overlap
//! and point queries against the set of bodies brute force finds.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::{self, Circle, Obstacle, Polygon, Segment, clearance};
use bevy_circle_ccd::prelude::*;
use common::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Samples of a cast's motion for the brute force.
const SAMPLES: usize = 256;
/// Clearance within which a circle counts as touching, world units (the scene spans 200).
const TOUCH: f32 = 1e-3;

/// A body of the scene as brute force sees it: its entity, its obstacles in the world,
/// and its solid polygons.
struct Body {
    entity: Entity,
    parts: Vec<Obstacle>,
    solids: Vec<Polygon>,
}

impl Body {
    /// Its least clearance from `c`: from its surfaces, and from its solid polygons (whose
    /// signed distance is negative inside).
    fn clearance(&self, c: Circle) -> f32 {
        let edges = self.parts.iter().map(|o| clearance(c, o));
        let solids = self.solids.iter().map(|p| p.signed_distance(c.center) - c.radius);
        edges.chain(solids).fold(f32::INFINITY, f32::min)
    }
}

fn spawn(app: &mut App, shape: CcdShape, at: Transform) -> Entity {
    app.world_mut().spawn((shape, at)).id()
}

/// The scene, stepped twice (the bat turns), and its bodies where they are now.
fn scene() -> (App, Vec<Body>) {
    let mut app = app(60.0);
    let seg = wall(&mut app, Vec2::new(-80.0, -70.0), Vec2::new(80.0, -60.0));
    let post = app
        .world_mut()
        .spawn((Pillar::new(8.0), Transform::from_xyz(-50.0, 20.0, 0.0)))
        .id();
    let capsule = spawn(
        &mut app,
        CcdShape::capsule(Vec2::new(10.0, 30.0), Vec2::new(40.0, 45.0), 5.0),
        Transform::default(),
    );
    let arc = spawn(
        &mut app,
        CcdShape::arc(Vec2::ZERO, 30.0, 0.3, 2.5),
        Transform::default(),
    );
    let band = spawn(
        &mut app,
        CcdShape::band(Vec2::new(-10.0, -20.0), 15.0, 3.5, 5.5, 3.0),
        Transform::default(),
    );
    let chain = [
        Vec2::new(60.0, -50.0),
        Vec2::new(75.0, -30.0),
        Vec2::new(70.0, 0.0),
        Vec2::new(85.0, 10.0),
    ];
    let chain_e = spawn(&mut app, CcdShape::polyline(chain.to_vec()), Transform::default());
    let tri = [
        Vec2::new(30.0, -40.0),
        Vec2::new(50.0, -35.0),
        Vec2::new(38.0, -15.0),
    ];
    let tri_e = spawn(&mut app, CcdShape::polygon(tri.to_vec()), Transform::default());
    let boxed = Transform::from_xyz(-20.0, 50.0, 0.0).with_rotation(Quat::from_rotation_z(0.4));
    let box_e = spawn(&mut app, CcdShape::rect(Vec2::new(10.0, 6.0)), boxed);
    let compound = CcdShape::compound([
        CcdShape::capsule(Vec2::new(-75.0, 40.0), Vec2::new(-75.0, 70.0), 2.0),
        CcdShape::arc(Vec2::new(-60.0, 70.0), 15.0, 1.6, 3.1),
    ]);
    let compound_e = spawn(&mut app, compound, Transform::default());
    let bat = flipper(
        &mut app,
        Vec2::new(55.0, 55.0),
        30.0,
        0.2,
        Kinematic::turning(2.0),
    );
    let paddle = spawn(
        &mut app,
        CcdShape::rect(Vec2::new(8.0, 5.0)),
        Transform::from_xyz(70.0, 75.0, 0.0),
    );
    app.world_mut().entity_mut(paddle).insert(Kinematic::turning(1.0));
    let resting = ball(&mut app, 4.0, Vec2::new(-60.0, -30.0), Vec2::ZERO);
    steps(&mut app, 2);
    // Brute force's own view: the static shapes from the world's broadphase, the solid
    // polygons from their corners, the bat from its Transform, the ball from its own.
    let world = app.world().resource::<CcdWorld>();
    let parts = |e: Entity| world.obstacles(e).copied().collect::<Vec<_>>();
    let turned_box = {
        let (c, s) = (0.4f32.cos(), 0.4f32.sin());
        let corners = [(-10.0, -6.0), (10.0, -6.0), (10.0, 6.0), (-10.0, 6.0)];
        Polygon::new(
            corners
                .map(|(x, y)| Vec2::new(-20.0 + c * x - s * y, 50.0 + s * x + c * y))
                .to_vec(),
        )
    };
    let mut bodies: Vec<Body> = [seg, post, capsule, arc, band, chain_e, compound_e]
        .into_iter()
        .map(|e| Body {
            entity: e,
            parts: parts(e),
            solids: vec![],
        })
        .collect();
    bodies.push(Body {
        entity: tri_e,
        parts: parts(tri_e),
        solids: vec![Polygon::new(tri.to_vec())],
    });
    bodies.push(Body {
        entity: box_e,
        parts: parts(box_e),
        solids: vec![turned_box],
    });
    let t = app.world().get::<Transform>(bat).unwrap();
    let tip = t.translation.truncate() + (t.rotation * Vec3::new(30.0, 0.0, 0.0)).truncate();
    bodies.push(Body {
        entity: bat,
        parts: vec![Obstacle::segment(Segment::new(t.translation.truncate(), tip))],
        solids: vec![],
    });
    // The turning box where its Transform is: its corners, its edges and its inside.
    let t = app.world().get::<Transform>(paddle).unwrap();
    let corners: Vec<Vec2> = [(-8.0, -5.0), (8.0, -5.0), (8.0, 5.0), (-8.0, 5.0)]
        .map(|(x, y)| (t.translation + t.rotation * Vec3::new(x, y, 0.0)).truncate())
        .to_vec();
    bodies.push(Body {
        entity: paddle,
        parts: (0..4)
            .map(|i| Obstacle::segment(Segment::new(corners[i], corners[(i + 1) % 4])))
            .collect(),
        solids: vec![Polygon::new(corners)],
    });
    let at = app
        .world()
        .get::<Transform>(resting)
        .unwrap()
        .translation
        .truncate();
    bodies.push(Body {
        entity: resting,
        parts: vec![Obstacle::pillar(Circle::new(at, 4.0))],
        solids: vec![],
    });
    (app, bodies)
}

fn least(bodies: &[Body], c: Circle) -> (f32, Option<Entity>) {
    bodies
        .iter()
        .map(|b| (b.clearance(c), Some(b.entity)))
        .fold((f32::INFINITY, None), |a, b| if b.0 < a.0 { b } else { a })
}

#[test]
fn casts_meet_what_brute_force_finds_first() {
    let (mut app, bodies) = scene();
    let mut state: SystemState<CcdQuery> = SystemState::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let filter = CcdQueryFilter::default();
    let mut rng = StdRng::seed_from_u64(52);
    let (mut casts, mut hits) = (0, 0);
    while casts < 100_000 {
        let origin = Vec2::new(rng.random_range(-100.0..100.0), rng.random_range(-100.0..100.0));
        let radius = if rng.random_bool(0.2) {
            0.0
        } else {
            rng.random_range(0.5..6.0)
        };
        let motion =
            Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * rng.random_range(1.0..150.0);
        let at = |s: f32| Circle::new(origin + motion * s, radius);
        if least(&bodies, at(0.0)).0 <= 10.0 * TOUCH {
            continue; // starts touching something: no first contact to find
        }
        casts += 1;
        let hit = query.cast_circle(origin, radius, motion, &filter);
        let end = hit.map_or(1.0, |h| h.fraction);
        for k in 0..=SAMPLES {
            let s = k as f32 / SAMPLES as f32;
            if s < end {
                let (c, e) = least(&bodies, at(s));
                assert!(
                    c > -TOUCH,
                    "cast {casts} from {origin} by {motion} r {radius}: reaches {e:?} at {s} before {hit:?}"
                );
            }
        }
        if let Some(h) = hit {
            hits += 1;
            let body = bodies.iter().find(|b| b.entity == h.entity).unwrap();
            let c = body.clearance(at(h.fraction));
            assert!(c.abs() < TOUCH, "cast {casts}: {h:?} is {c} from its body");
            assert!((h.center - at(h.fraction).center).length() < TOUCH, "{h:?}");
        }
    }
    // Most of them meet something in a scene this full.
    eprintln!("{casts} casts, {hits} meet a body, each as brute force says");
    assert!(hits > 30_000 && hits < casts, "{hits} of {casts}");
}

#[test]
fn overlaps_and_points_are_the_bodies_brute_force_finds() {
    let (mut app, bodies) = scene();
    let mut state: SystemState<CcdQuery> = SystemState::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let filter = CcdQueryFilter::default();
    let mut rng = StdRng::seed_from_u64(7);
    let (mut checked, mut found) = (0, 0);
    while checked < 20_000 {
        let center = Vec2::new(rng.random_range(-100.0..100.0), rng.random_range(-100.0..100.0));
        let radius = if rng.random_bool(0.3) {
            0.0
        } else {
            rng.random_range(0.5..12.0)
        };
        let c = Circle::new(center, radius);
        if bodies.iter().any(|b| b.clearance(c).abs() < TOUCH) {
            continue; // on a surface: either answer is right
        }
        checked += 1;
        let mut want: Vec<Entity> = bodies
            .iter()
            .filter(|b| b.clearance(c) < 0.0)
            .map(|b| b.entity)
            .collect();
        let mut got = if radius == 0.0 {
            query.point(center, &filter)
        } else {
            query.overlap(center, radius, &filter)
        };
        want.sort();
        got.sort();
        found += got.len();
        assert_eq!(got, want, "at {center}, radius {radius}");
    }
    assert!(found > 2_000, "{found}");
    // The filter: ignoring one body, or the circles.
    let resting = bodies.last().unwrap().entity;
    let on_ball = Vec2::new(-60.0, -30.0);
    assert_eq!(query.point(on_ball, &filter), vec![resting]);
    assert!(
        query
            .point(on_ball, &CcdQueryFilter::excluding(resting))
            .is_empty()
    );
    let no_circles = CcdQueryFilter {
        circles: false,
        ..default()
    };
    assert!(query.point(on_ball, &no_circles).is_empty());
    let _ = ccd_core::Vec2::ZERO;
}

/// A circle drawn with `TransformInterpolation` is drawn a step behind between steps
/// (here, with one whole step per update, at the step's start): the query finds it where
/// the last step left it, 10 units on at 600 u/s and 60 Hz, and not where it is drawn.
#[test]
fn an_interpolated_circle_is_found_where_the_step_left_it() {
    let mut app = app(60.0);
    let b = ball(&mut app, 2.0, Vec2::ZERO, Vec2::new(600.0, 0.0));
    app.world_mut()
        .entity_mut(b)
        .insert(bevy_circle_ccd::TransformInterpolation);
    steps(&mut app, 3);
    let drawn = position(&app, b);
    assert!(
        drawn.distance(Vec2::new(20.0, 0.0)) < 1e-4,
        "drawn at the last step's start: {drawn}"
    );
    let mut state: SystemState<CcdQuery> = SystemState::new(app.world_mut());
    let query = state.get(app.world()).unwrap();
    let filter = CcdQueryFilter::default();
    assert_eq!(query.point(Vec2::new(30.0, 0.0), &filter), vec![b]);
    assert!(query.point(drawn, &filter).is_empty());
    let hit = query
        .cast_ray(Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), &filter)
        .unwrap();
    assert_eq!(hit.entity, b);
    assert!((hit.point.x - 28.0).abs() < 1e-4, "{}", hit.point);
}
