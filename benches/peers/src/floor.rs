//! The Bevy floor: the app `ours` builds (the same plugins but ours, the same clock, the
//! same entities with a `Transform` each, static transform optimizations off, one thread)
//! whose only system moves every ball in a straight line, p += v·dt, with no physics at
//! all. What Bevy itself costs a step for this many entities; balls fly through the walls.

use crate::ours::single_threaded_schedules;
use crate::{Config, Engine, Sample, base_app, pit, step_begin, step_end};
use bevy::prelude::*;
use bevy::transform::systems::StaticTransformOptimizations;

/// A ball's velocity, units/s.
#[derive(Component, Clone, Copy)]
pub struct Velocity(pub Vec2);

/// A wall or a pillar: an entity with a `Transform` that nothing reads.
#[derive(Component)]
pub struct Obstacle;

/// Straight lines in `FixedUpdate`.
pub struct Floor;

/// p += v·dt for every ball.
fn fly(time: Res<Time>, mut balls: Query<(&mut Transform, &Velocity)>) {
    let dt = time.delta_secs();
    for (mut t, v) in &mut balls {
        t.translation += (v.0 * dt).extend(0.0);
    }
}

impl Engine for Floor {
    const NAME: &'static str = "floor";

    fn build(scene: &pit::Pit, _config: Config) -> App {
        let mut app = base_app();
        app.insert_resource(StaticTransformOptimizations::Disabled)
            .add_systems(FixedUpdate, (step_begin, fly, step_end).chain());
        let world = app.world_mut();
        for _ in &scene.walls {
            world.spawn((Obstacle, Transform::default()));
        }
        for &c in &scene.pillars {
            world.spawn((Obstacle, Transform::from_translation(c.extend(0.0))));
        }
        for b in &scene.balls {
            world.spawn((
                Velocity(b.velocity),
                Transform::from_translation(b.position.extend(0.0)),
            ));
        }
        app
    }

    fn finished(app: &mut App) {
        single_threaded_schedules(app);
    }

    fn sample(world: &mut World, out: &mut Vec<Sample>) {
        out.clear();
        let mut q = world.query::<(Entity, &Transform, &Velocity)>();
        out.extend(q.iter(world).map(|(entity, t, v)| Sample {
            entity,
            position: t.translation.truncate(),
            velocity: v.0,
        }));
    }

    fn ccd_report(_world: &mut World) -> String {
        "floor: no physics, straight lines".to_string()
    }
}
