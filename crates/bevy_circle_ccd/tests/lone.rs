//! The step when nothing but walls can meet a circle (ball–ball off, no moving obstacle):
//! each circle stepped on its own as it is read, against the gathered path it replaces.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

use common::*;

/// Circles in the scene.
const CIRCLES: usize = 900;
/// Steps run.
const STEPS: u64 = 12;

/// What a run leaves: each circle's bits, each step's hits and figures, and the circles
/// marked invalid.
#[derive(Debug, PartialEq)]
struct Run {
    circles: Vec<[u32; 4]>,
    hits: Vec<Vec<CircleHit>>,
    /// Per step: circles stepped, refused, bounces, capped, lost time's bits, sensor hits.
    figures: Vec<[u32; 6]>,
    invalid: Vec<bool>,
}

/// A box with a sensor line across it and a pillar; 900 fast circles, among them one
/// refused (NaN velocity), one marked invalid though it is fine (the mark goes), one
/// with a parent (refused), and some with a mass, a material or a speed limit of their
/// own. With `moving`, a kinematic segment far away: nothing meets it, but the step then
/// gathers every circle and steps them all in the core (the path this test holds the
/// other to).
fn run(threads: usize, moving: bool) -> Run {
    let mut app = app(120.0);
    collect_hits(&mut app);
    {
        let mut settings = app.world_mut().resource_mut::<CcdSettings>();
        settings.ball_ball = false;
        settings.threads = threads;
        settings.max_bounces = 2;
    }
    closed_box(&mut app, 300.0);
    app.world_mut().spawn((
        StaticSegment::new(Vec2::new(-300.0, 20.0), Vec2::new(300.0, 20.0)),
        CcdSensor,
        Transform::default(),
    ));
    app.world_mut()
        .spawn((Pillar::new(30.0), Transform::from_xyz(-80.0, -60.0, 0.0)));
    let circles: Vec<Entity> = (0..CIRCLES)
        .map(|i| {
            let a = i as f32 * 0.731;
            let at = Vec2::new(-290.0 + (i % 30) as f32 * 19.5, -290.0 + (i / 30) as f32 * 19.5);
            let v = Vec2::new(a.cos(), a.sin()) * (6000.0 + 180.0 * (i % 500) as f32);
            ball(&mut app, 2.0, at, v)
        })
        .collect();
    let world = app.world_mut();
    world.get_mut::<MovingCircle>(circles[7]).unwrap().velocity = Vec2::NAN;
    world.entity_mut(circles[11]).insert(CcdInvalid {
        field: "MovingCircle.velocity".into(),
        reason: "was bad".into(),
    });
    let parent = world.spawn(Transform::default()).id();
    world.entity_mut(circles[500]).insert(ChildOf(parent));
    world.entity_mut(circles[20]).insert(CcdMass(5.0));
    world.entity_mut(circles[21]).insert(CcdMaterial::new(0.5, 0.2));
    world.entity_mut(circles[22]).insert(CcdMaxSpeed(3000.0));
    if moving {
        flipper(
            &mut app,
            Vec2::new(9000.0, 9000.0),
            50.0,
            0.0,
            Kinematic::turning(1.0),
        );
    }
    let mut hits = Vec::new();
    let mut figures = Vec::new();
    for _ in 0..STEPS {
        steps(&mut app, 1);
        hits.push(std::mem::take(&mut app.world_mut().resource_mut::<Collected>().0));
        let s = app.world().resource::<CcdStats>();
        figures.push([
            s.circles,
            s.skipped,
            s.bounces,
            s.capped,
            s.lost_time.to_bits(),
            s.sensor_hits,
        ]);
    }
    let world = app.world();
    Run {
        circles: circles
            .iter()
            .map(|&e| {
                let (p, v) = (position(&app, e), velocity(&app, e));
                [p.x, p.y, v.x, v.y].map(f32::to_bits)
            })
            .collect(),
        hits,
        figures,
        invalid: circles
            .iter()
            .map(|&e| world.get::<CcdInvalid>(e).is_some())
            .collect(),
    }
}

#[test]
fn lone_circles_step_as_the_gathered_step_does() {
    let gathered = run(1, true);
    // A busy scene: bounces, caps, sensor hits; the refused circles marked, the fixed one
    // unmarked.
    let total = |k: usize| gathered.figures.iter().map(|f| f[k]).sum::<u32>();
    assert!(total(2) > 2000, "bounces {}", total(2));
    assert!(total(3) > 5, "capped {}", total(3));
    assert!(total(5) > 200, "sensor hits {}", total(5));
    assert!(gathered.figures.iter().all(|f| f[1] == 2), "two refused a step");
    assert!(gathered.invalid[7] && gathered.invalid[500] && !gathered.invalid[11]);
    assert_eq!(gathered.invalid.iter().filter(|&&i| i).count(), 2);
    for threads in [1, 2, 3] {
        let lone = run(threads, false);
        let first = lone
            .circles
            .iter()
            .zip(&gathered.circles)
            .position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads: a circle ends elsewhere");
        for (step, (a, g)) in lone.hits.iter().zip(&gathered.hits).enumerate() {
            assert_eq!(a.len(), g.len(), "{threads} threads, step {step}: hits");
            // Each circle's hits in the order they happened (what `CircleHit` promises);
            // the circles' order is the query's, which differs between the two apps
            // (their archetypes' histories differ: one has a flipper).
            let by_circle = |hits: &[CircleHit]| {
                let mut hits = hits.to_vec();
                hits.sort_by_key(|h| h.circle);
                hits
            };
            let (a, g) = (by_circle(a), by_circle(g));
            let hit = a.iter().zip(&g).position(|(x, y)| x != y);
            assert_eq!(hit, None, "{threads} threads, step {step}: a hit differs");
        }
        assert_eq!(lone.figures, gathered.figures, "{threads} threads: the figures");
        assert_eq!(lone.invalid, gathered.invalid, "{threads} threads: the marks");
    }
}
