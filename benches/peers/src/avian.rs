//! The scene on Avian 2D (0.7, f32, parry backend).

use crate::{
    Ball, Config, Engine, Sample, base_app, outer_polyline, pit, single_segments, step_begin, step_end,
};
use avian2d::prelude::*;
use bevy::prelude::*;

/// Balls are on layer 0, static geometry on layer 1.
const BALL_LAYER: u32 = 1 << 0;
const STATIC_LAYER: u32 = 1 << 1;

/// Avian 2D with its default solver settings (6 substeps, speculative contacts) and
/// swept CCD on every ball.
pub struct Avian;

/// Perfectly elastic and frictionless, whatever the other collider says (Max of the
/// restitutions, Min of the frictions): walls, pillars and balls alike.
fn elastic() -> (Restitution, Friction) {
    (
        Restitution::new(1.0).with_combine_rule(CoefficientCombine::Max),
        Friction::ZERO.with_combine_rule(CoefficientCombine::Min),
    )
}

fn static_material() -> ((Restitution, Friction), CollisionLayers) {
    (elastic(), CollisionLayers::from_bits(STATIC_LAYER, BALL_LAYER))
}

impl Engine for Avian {
    const NAME: &'static str = "avian";

    fn build(scene: &pit::Pit, config: Config) -> App {
        let mut app = base_app();
        // PhysicsPlugins::default() runs in FixedPostUpdate: one physics step (of 6
        // substeps) per fixed tick, with Time<Physics> advanced by the fixed delta.
        app.add_plugins(PhysicsPlugins::default().with_length_unit(config.length_unit))
            .insert_resource(Gravity(Vec2::ZERO))
            .add_systems(FixedPostUpdate, step_begin.before(PhysicsSystems::First))
            .add_systems(FixedPostUpdate, step_end.after(PhysicsSystems::Last));
        let world = app.world_mut();
        if config.polyline {
            let (vertices, indices) = outer_polyline(scene);
            world.spawn((
                RigidBody::Static,
                Collider::polyline(vertices, Some(indices)),
                static_material(),
                Transform::default(),
            ));
        }
        for &(a, b) in single_segments(scene, config.polyline) {
            world.spawn((
                RigidBody::Static,
                Collider::segment(a, b),
                static_material(),
                Transform::default(),
            ));
        }
        for &c in &scene.pillars {
            world.spawn((
                RigidBody::Static,
                Collider::circle(pit::PILLAR_RADIUS),
                static_material(),
                Transform::from_translation(c.extend(0.0)),
            ));
        }
        let ball_filter = if config.ball_ball {
            STATIC_LAYER | BALL_LAYER
        } else {
            STATIC_LAYER
        };
        for b in &scene.balls {
            let mut ball = world.spawn((
                Ball,
                RigidBody::Dynamic,
                Collider::circle(pit::BALL_RADIUS),
                elastic(),
                LinearDamping(0.0),
                AngularDamping(0.0),
                CollisionLayers::from_bits(BALL_LAYER, ball_filter),
                LinearVelocity(b.velocity),
                Transform::from_translation(b.position.extend(0.0)),
            ));
            if !config.no_ccd {
                ball.insert(SweptCcd::default());
            }
        }
        app
    }

    fn sample(world: &mut World, out: &mut Vec<Sample>) {
        out.clear();
        let mut q = world.query_filtered::<(Entity, &Position, &LinearVelocity), With<Ball>>();
        out.extend(q.iter(world).map(|(entity, p, v)| Sample {
            entity,
            position: p.0,
            velocity: v.0,
        }));
    }

    fn ccd_report(world: &mut World) -> String {
        let mut q = world.query_filtered::<Option<&SweptCcd>, With<Ball>>();
        let swept = q.iter(world).filter(|c| c.is_some()).count();
        let margin = world.resource::<NarrowPhaseConfig>().default_speculative_margin;
        let margin = if margin == f32::MAX {
            "unbounded".to_string()
        } else {
            margin.to_string()
        };
        format!("SweptCcd on {swept} balls, default speculative margin {margin}")
    }
}
