//! The scene on bevy_rapier2d (0.36, rapier2d 0.35).

use crate::{
    Ball, Config, Engine, Sample, base_app, outer_polyline, pit, single_segments, step_begin, step_end,
};
use bevy::prelude::*;
use bevy_rapier2d::prelude::*;
use bevy_rapier2d::rapier::dynamics::IntegrationParameters;

/// bevy_rapier2d with Rapier's default integration parameters (length unit 1, 4 solver
/// iterations, 1 substep) except the speed cap, and CCD enabled on every ball.
pub struct Rapier;

/// Perfectly elastic and frictionless, whatever the other collider says (Max of the
/// restitutions, Min of the frictions): walls, pillars and balls alike.
fn elastic() -> (Restitution, Friction) {
    (
        Restitution {
            coefficient: 1.0,
            combine_rule: CoefficientCombineRule::Max,
        },
        Friction {
            coefficient: 0.0,
            combine_rule: CoefficientCombineRule::Min,
        },
    )
}

fn static_material() -> ((Restitution, Friction), CollisionGroups) {
    (elastic(), CollisionGroups::new(Group::GROUP_2, Group::GROUP_1))
}

impl Engine for Rapier {
    const NAME: &'static str = "rapier";

    fn build(scene: &pit::Pit, config: Config) -> App {
        let mut app = base_app();
        add_rapier(&mut app, config);
        spawn_statics(app.world_mut(), scene, config);
        spawn_balls(app.world_mut(), scene, config);
        app
    }

    fn sample(world: &mut World, out: &mut Vec<Sample>) {
        out.clear();
        let mut q = world.query_filtered::<(Entity, &Transform, &Velocity), With<Ball>>();
        out.extend(q.iter(world).map(|(entity, t, v)| Sample {
            entity,
            position: t.translation.truncate(),
            velocity: v.linear,
        }));
    }

    fn ccd_report(world: &mut World) -> String {
        let mut handles = world.query_filtered::<&RapierRigidBodyHandle, With<Ball>>();
        let handles: Vec<_> = handles.iter(world).map(|h| h.0).collect();
        let mut sets = world.query::<&RapierRigidBodySet>();
        let Ok(set) = sets.single(world) else {
            return "no Rapier context".to_string();
        };
        let bodies: Vec<_> = handles.iter().filter_map(|h| set.bodies.get(*h)).collect();
        let enabled = bodies.iter().filter(|b| b.is_ccd_enabled()).count();
        let active = bodies.iter().filter(|b| b.is_ccd_active()).count();
        format!(
            "{} balls in Rapier, CCD enabled on {enabled}, CCD-active after the warm-up step {active}",
            bodies.len()
        )
    }
}

/// Rapier in the fixed schedule, one 1/120 s substep a run, no gravity, with the step
/// timer's markers around its system sets.
fn add_rapier(app: &mut App, config: Config) {
    let mut integration_parameters = IntegrationParameters {
        length_unit: config.length_unit,
        ..default()
    };
    if !config.rapier_speed_cap {
        // Default 400 × length unit: it would clamp the scene's 500–4000 u/s balls.
        integration_parameters.normalized_max_linear_velocity = f32::MAX;
    }
    // Physics systems in FixedUpdate, each run advancing Rapier by exactly
    // dt = 1/120 s in one substep. The resource is inserted before the plugin so
    // the plugin's `init_resource` keeps it.
    app.insert_resource(TimestepMode::Fixed {
        dt: (1.0 / pit::HZ) as f32,
        substeps: 1,
    })
    .add_plugins(
        RapierPhysicsPlugin::<NoUserData>::default()
            .in_fixed_schedule()
            .with_custom_initialization(RapierContextInitialization::InitializeDefaultRapierContext {
                integration_parameters,
                rapier_configuration: RapierConfiguration {
                    gravity: Vec2::ZERO,
                    ..RapierConfiguration::new(config.length_unit)
                },
            }),
    )
    .add_systems(FixedUpdate, step_begin.before(PhysicsSet::SyncBackend))
    .add_systems(FixedUpdate, step_end.after(PhysicsSet::Writeback));
}

/// The walls (512 segments, or the outer wall as one polyline) and the pillars.
fn spawn_statics(world: &mut World, scene: &pit::Pit, config: Config) {
    if config.polyline {
        let (vertices, indices) = outer_polyline(scene);
        world.spawn((
            RigidBody::Fixed,
            Collider::polyline(vertices, Some(indices)),
            static_material(),
            Transform::default(),
        ));
    }
    for &(a, b) in single_segments(scene, config.polyline) {
        world.spawn((
            RigidBody::Fixed,
            Collider::segment(a, b),
            static_material(),
            Transform::default(),
        ));
    }
    for &c in &scene.pillars {
        world.spawn((
            RigidBody::Fixed,
            Collider::ball(pit::PILLAR_RADIUS),
            static_material(),
            Transform::from_translation(c.extend(0.0)),
        ));
    }
}

/// Every ball, dynamic with CCD (unless `no_ccd`), elastic and frictionless.
fn spawn_balls(world: &mut World, scene: &pit::Pit, config: Config) {
    let ball_filter = if config.ball_ball {
        Group::GROUP_1 | Group::GROUP_2
    } else {
        Group::GROUP_2
    };
    for b in &scene.balls {
        world.spawn((
            Ball,
            RigidBody::Dynamic,
            Collider::ball(pit::BALL_RADIUS),
            Ccd {
                enabled: !config.no_ccd,
            },
            elastic(),
            Damping {
                linear_damping: 0.0,
                angular_damping: 0.0,
            },
            GravityScale(0.0),
            CollisionGroups::new(Group::GROUP_1, ball_filter),
            Velocity {
                linear: b.velocity,
                angular: 0.0,
            },
            Transform::from_translation(b.position.extend(0.0)),
        ));
    }
}
