//! `CcdPredict` against the plugin itself: the contacts it predicts through a turning bar,
//! a turning box, a hinged gate with a spring and stops, and game rules played by a hook,
//! are the hits the step then writes, bit for bit (the ball, the bar and the gate drawn
//! with `TransformInterpolation`, asked between steps); a fall and a bounce against their
//! closed forms; the ball's own material, layers and gravity scale; errors named.
#![allow(clippy::unwrap_used, reason = "a test: a missing component is a failed test")]

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_circle_ccd::{
    CcdPredictError, CcdPredictStop, CcdPredictedBall, CcdPrediction, TransformInterpolation,
};
use bevy_transform_interpolation::TranslationEasingState;
use common::{Collected, app, ball, closed_box, collect_hits, steps, wall};
use core::ops::ControlFlow;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The moving parts of the scene.
#[derive(Resource, Clone, Copy)]
struct Scene {
    bar: Entity,
    door: Entity,
}

/// The game's rules, as its own systems play them: each hit on the bar turns it 1.5 rad/s
/// faster (after the step); the door's shape goes after `door_steps` more steps.
#[derive(Resource, Clone, Copy, Default)]
struct Rules {
    on: bool,
    door_steps: u32,
}

/// A box of half side 200 with gravity, a bar turning about (0, 40), a turning square at
/// (120, −110), a hinged gate hanging from (−199, −60) on a spring and a motor between
/// stops, a static post, and a kinematic door across the bottom left corner.
fn scene(hz: f64) -> App {
    let mut app = app(hz);
    collect_hits(&mut app);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -300.0);
    closed_box(&mut app, 200.0);
    let bar = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-60.0, 0.0), Vec2::new(60.0, 0.0)),
            Kinematic::turning(2.0),
            Transform::from_xyz(0.0, 40.0, 0.0),
            // Drawn eased between steps: the prediction starts from where the step left it.
            TransformInterpolation,
        ))
        .id();
    app.world_mut().spawn((
        CcdShape::rect(Vec2::splat(25.0)),
        Kinematic::turning(-3.0),
        Transform::from_xyz(120.0, -110.0, 0.0),
    ));
    app.world_mut().spawn((
        StaticSegment::new(Vec2::ZERO, Vec2::new(90.0, 0.0)),
        Hinge::new(40.0)
            .with_stops(-1.2, 0.8, 0.3)
            .with_spring(0.0, 20_000.0)
            .with_damping(2.0)
            .with_motor(1.5, 4_000.0),
        Transform::from_xyz(-199.0, -60.0, 0.0),
        TransformInterpolation,
    ));
    app.world_mut()
        .spawn((Pillar::new(18.0), Transform::from_xyz(-60.0, -120.0, 0.0)));
    let door = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-200.0, -140.0), Vec2::new(-140.0, -200.0)),
            Kinematic::turning(0.0),
            Transform::default(),
        ))
        .id();
    app.insert_resource(Scene { bar, door })
        .init_resource::<Rules>()
        .add_systems(
            FixedPostUpdate,
            (
                switch_door.before(CircleCcdSystems::Prepare),
                speed_bar.after(CircleCcdSystems::Report),
            ),
        );
    app
}

fn switch_door(rules: Res<Rules>, scene: Res<Scene>, mut commands: Commands) {
    if rules.on && rules.door_steps == 0 {
        commands.entity(scene.door).remove::<StaticSegment>();
    }
}

fn speed_bar(
    mut rules: ResMut<Rules>,
    scene: Res<Scene>,
    mut hits: MessageReader<CircleHit>,
    mut kinematic: Query<&mut Kinematic>,
) {
    if !rules.on {
        hits.clear();
        return;
    }
    rules.door_steps = rules.door_steps.saturating_sub(1);
    let on_bar = hits.read().filter(|h| h.other == scene.bar).count();
    if let Ok(mut k) = kinematic.get_mut(scene.bar)
        && let Kinematic::Velocity { angular, .. } = &mut *k
    {
        *angular += 1.5 * on_bar as f32;
    }
}

/// The same rules, for the prediction.
struct RulesHook {
    scene: Scene,
    door_steps: u32,
}

impl CcdPredictHook for RulesHook {
    fn before_step(&mut self, ball: &CcdPredictedBall, parts: &mut CcdPredictedParts) {
        if ball.step >= self.door_steps {
            parts.switch_off(self.scene.door);
        }
    }

    fn on_contact(&mut self, contact: &CcdPredictedContact, parts: &mut CcdPredictedParts) {
        if contact.hit.other == self.scene.bar
            && let Some(Kinematic::Velocity { angular, linear }) = parts.kinematic(self.scene.bar)
        {
            parts.set_kinematic(
                self.scene.bar,
                Kinematic::Velocity {
                    angular: angular + 1.5,
                    linear,
                },
            );
        }
    }
}

fn predict_now(
    app: &mut App,
    ball: Entity,
    horizon: CcdPredictHorizon,
    hook: Option<RulesHook>,
) -> CcdPrediction {
    app.world_mut()
        .run_system_once(move |p: CcdPredict| match hook {
            Some(RulesHook { scene, door_steps }) => {
                p.predict(ball, horizon, &mut RulesHook { scene, door_steps })
            }
            None => p.predict(ball, horizon, &mut ()),
        })
        .unwrap()
        .unwrap()
}

/// The hits of `ball` over the next `n` steps, each with its step (from 0).
fn play(app: &mut App, ball: Entity, n: u32) -> Vec<(u32, CircleHit)> {
    let mut out = Vec::new();
    for s in 0..n {
        app.world_mut().resource_mut::<Collected>().0.clear();
        steps(app, 1);
        let hits = &app.world().resource::<Collected>().0;
        out.extend(hits.iter().filter(|h| h.circle == ball).map(|h| (s, *h)));
    }
    out
}

/// Predicts from 40 random starts, then plays the same steps: every predicted contact is
/// the step's hit (entity, part, feature, step, centre, point, normal, speed, time, bit for
/// bit), and the ball ends where the prediction ends it.
fn predicted_is_played(rules: bool) {
    let mut rng = StdRng::seed_from_u64(0x5EED_CA57 + u64::from(rules));
    let (mut contacts, mut on_bar, mut on_gate) = (0, 0, 0);
    for start in 0..40 {
        let mut app = scene(120.0);
        let b = ball(
            &mut app,
            8.0,
            Vec2::new(rng.random_range(-150.0..150.0), rng.random_range(120.0..180.0)),
            Vec2::from_angle(rng.random_range(-3.1..3.1)) * rng.random_range(300.0..1500.0),
        );
        app.world_mut().entity_mut(b).insert((
            CcdMaterial::new(0.95, 0.0),
            CcdGravityScale(0.8),
            CcdMaxSpeed(2_500.0),
            TransformInterpolation,
        ));
        // A few steps first, so that the parts are under way.
        steps(&mut app, 3);
        let door_steps = rng.random_range(0..200);
        *app.world_mut().resource_mut::<Rules>() = Rules {
            on: rules,
            door_steps,
        };
        let scene = *app.world().resource::<Scene>();
        let horizon = CcdPredictHorizon {
            contacts: 25,
            steps: 600,
        };
        let hook = rules.then_some(RulesHook { scene, door_steps });
        let predicted = predict_now(&mut app, b, horizon, hook);
        let played = play(&mut app, b, predicted.end.step);
        assert_eq!(predicted.capped_steps, 0, "start {start}");
        let played_hits: Vec<_> = played.iter().take(predicted.contacts.len()).collect();
        assert_eq!(
            played_hits.len(),
            predicted.contacts.len(),
            "start {start}: played fewer"
        );
        for (i, (p, (s, h))) in predicted.contacts.iter().zip(played_hits).enumerate() {
            assert_eq!((p.step, p.hit), (*s, *h), "start {start}, contact {i}");
            on_bar += usize::from(h.other == scene.bar);
            on_gate += usize::from(app.world().get::<Hinge>(h.other).is_some());
        }
        contacts += predicted.contacts.len();
        if predicted.stop == CcdPredictStop::Steps {
            assert_eq!(
                played.len(),
                predicted.contacts.len(),
                "start {start}: extra hits"
            );
            // Drawn eased, the ball's `Transform` is a step behind: its easing's end is where
            // the step left it.
            let eased = app.world().get::<TranslationEasingState>(b).unwrap();
            let end = eased.end.unwrap().truncate();
            assert_eq!(end, predicted.end.center, "start {start}: the end");
            assert_eq!(common::velocity(&app, b), predicted.end.velocity, "start {start}");
        }
    }
    println!(
        "predicted = played: {contacts} contacts, {on_bar} on the turning bar, {on_gate} on the hinged gate"
    );
    assert!(
        contacts > 600 && on_bar > 20 && on_gate > 5,
        "{contacts} {on_bar} {on_gate}"
    );
}

#[test]
fn predicted_contacts_are_the_hits_the_step_then_writes() {
    predicted_is_played(false);
}

#[test]
fn a_hook_plays_the_games_rules_in_the_prediction() {
    predicted_is_played(true);
}

/// A fall from rest onto a floor and a bounce, at 60 Hz, against the closed form, with
/// the ball's restitution 0.5 and gravity scale 0.5; a floor on a layer the ball does not
/// meet is passed through.
#[test]
fn a_fall_and_a_bounce_take_the_balls_own_material_layers_and_gravity() {
    let mut app = app(60.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -10.0);
    // The floor's own restitution is the default 1: the bounce's 0.5 is the ball's.
    let floor = wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    let ghost = wall(&mut app, Vec2::new(-50.0, 50.0), Vec2::new(50.0, 50.0));
    app.world_mut()
        .entity_mut(ghost)
        .insert(CcdLayers::new(0b10, 0b10));
    // The static world is the one the last step had.
    steps(&mut app, 1);
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 100.0), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert((
        CcdMaterial::new(0.5, 0.0),
        CcdGravityScale(0.5),
        CcdLayers::new(0b01, 0b01),
    ));
    let horizon = CcdPredictHorizon {
        contacts: 2,
        steps: 2_000,
    };
    let p = predict_now(&mut app, b, horizon, None);
    assert_eq!(p.stop, CcdPredictStop::Contacts);
    assert_eq!(p.contacts.len(), 2);
    // Falling 99 under g/2 = 5: t₁ = √(2·99/5), at v₁ = 5·t₁; it leaves at v₁/2 and is
    // back after 2·(v₁/2)/5 = t₁ more.
    let t1 = (2.0 * 99.0 / 5.0_f64).sqrt();
    let expected = [t1, 2.0 * t1];
    for (c, t) in p.contacts.iter().zip(expected) {
        assert_eq!(c.hit.other, floor);
        assert!(
            (f64::from(c.seconds) - t).abs() < 1e-4,
            "{} against {t}",
            c.seconds
        );
        assert!((c.hit.center.y - 1.0).abs() < 1e-4, "{}", c.hit.center);
        assert!((c.hit.normal - Vec2::Y).length() < 1e-6);
    }
    let v1 = 5.0 * t1;
    assert!((f64::from(p.contacts[0].hit.speed) - v1).abs() < 1e-3 * v1);
    assert!((f64::from(p.contacts[1].hit.speed) - v1 / 2.0).abs() < 1e-3 * v1);
    // The path goes from the start through both contacts.
    assert_eq!(p.path[0], Vec2::new(0.0, 100.0));
    assert!(p.path.contains(&p.contacts[1].hit.center));
}

/// A hook that stops the prediction once the ball is below y = 50.
struct Below50;

impl CcdPredictHook for Below50 {
    fn after_step(&mut self, ball: &CcdPredictedBall, _: &CcdPredictedParts) -> ControlFlow<()> {
        if ball.center.y < 50.0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

#[test]
fn a_hook_stops_the_prediction_and_bad_circles_are_named() {
    let mut app = app(60.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -10.0);
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 100.0), Vec2::ZERO);
    let horizon = CcdPredictHorizon {
        contacts: 10,
        steps: 10_000,
    };
    let p = app
        .world_mut()
        .run_system_once(move |p: CcdPredict| p.predict(b, horizon, &mut Below50))
        .unwrap()
        .unwrap();
    // Below 50 after √(2·50/10) = 3.162 s: step 190 at 60 Hz (3.1667 s).
    assert_eq!(p.stop, CcdPredictStop::Hook);
    assert_eq!(p.end.step, 190);
    assert!(p.end.center.y < 50.0 && p.end.center.y > 49.5, "{}", p.end.center);

    let held = ball(&mut app, 1.0, Vec2::ZERO, Vec2::ZERO);
    app.world_mut().entity_mut(held).insert(CcdDisabled);
    let bad = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(f32::NAN, 0.0));
    let wall_entity = wall(&mut app, Vec2::ZERO, Vec2::X);
    let errors = app
        .world_mut()
        .run_system_once(move |p: CcdPredict| {
            [held, bad, wall_entity].map(|e| p.predict(e, horizon, &mut ()).err())
        })
        .unwrap();
    assert_eq!(errors[0], Some(CcdPredictError::NotACircle(held)));
    assert!(
        matches!(&errors[1], Some(CcdPredictError::Refused { entity, field: "MovingCircle.velocity", reason })
            if *entity == bad && reason.contains("NaN")),
        "{:?}",
        errors[1]
    );
    assert_eq!(errors[2], Some(CcdPredictError::NotACircle(wall_entity)));
}

/// A ball at rest on a floor: its contact goes on, so the step writes no hit for it, and
/// neither does the prediction (it carries on the step's record of which pairs met).
#[test]
fn a_resting_ball_is_predicted_to_make_no_hits() {
    let mut app = app(60.0);
    collect_hits(&mut app);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -10.0);
    wall(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
    let b = ball(&mut app, 1.0, Vec2::new(0.0, 1.5), Vec2::ZERO);
    app.world_mut().entity_mut(b).insert(CcdMaterial::new(0.0, 0.0));
    steps(&mut app, 120);
    assert!(
        (common::position(&app, b).y - 1.0).abs() < 1e-3,
        "at rest on the floor"
    );
    let horizon = CcdPredictHorizon {
        contacts: 10,
        steps: 60,
    };
    let predicted = predict_now(&mut app, b, horizon, None);
    let played = play(&mut app, b, 60);
    assert!(played.is_empty(), "{played:?}");
    assert!(predicted.contacts.is_empty(), "{:?}", predicted.contacts);
    assert_eq!(predicted.end.center, common::position(&app, b));
}

/// A shot not yet in the world (`predict_start`) is predicted as the same circle spawned
/// there would be, bit for bit, through the moving parts; a bad start is named with the
/// value given.
#[test]
fn a_shot_not_yet_spawned_is_predicted_as_the_spawned_ball() {
    let mut app = scene(120.0);
    steps(&mut app, 3);
    let (center, velocity) = (Vec2::new(-40.0, 150.0), Vec2::new(700.0, -900.0));
    let material = CcdMaterial::new(0.9, 0.1);
    let b = ball(&mut app, 8.0, center, velocity);
    app.world_mut()
        .entity_mut(b)
        .insert((material, CcdGravityScale(0.5), CcdMaxSpeed(2_000.0)));
    let horizon = CcdPredictHorizon {
        contacts: 30,
        steps: 400,
    };
    let start = CcdPredictStart {
        gravity_scale: 0.5,
        max_speed: 2_000.0,
        ..CcdPredictStart::new(center, velocity, 8.0).with_material(material)
    };
    let bad = CcdPredictStart::new(center, velocity, f32::NAN);
    let (spawned, shot, refused) = app
        .world_mut()
        .run_system_once(move |p: CcdPredict| {
            (
                p.predict(b, horizon, &mut ()).unwrap(),
                p.predict_start(&start, horizon, &mut ()).unwrap(),
                p.predict_start(&bad, horizon, &mut ()).unwrap_err(),
            )
        })
        .unwrap();
    assert!(shot.contacts.len() >= 10, "{}", shot.contacts.len());
    assert_eq!(shot.path, spawned.path);
    assert_eq!(shot.end, spawned.end);
    for (s, p) in shot.contacts.iter().zip(&spawned.contacts) {
        assert_eq!(s.hit.circle, Entity::PLACEHOLDER);
        assert_eq!(CircleHit { circle: b, ..s.hit }, p.hit);
    }
    assert!(
        matches!(&refused, CcdPredictError::Refused { field: "CcdPredictStart.radius", reason, .. }
            if reason.ends_with("; given NaN")),
        "{refused:?}"
    );
}
