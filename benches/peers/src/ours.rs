//! The scene on our plugin, bevy_circle_ccd, set up as
//! `crates/bevy_circle_ccd/benches/ball_pit.rs` sets it up with `--audit off
//! --static-transforms off --threads 1`: the plugin's defaults as a game ships them (no
//! audit), Bevy's static transform optimizations off (every ball moves every step), no
//! entity events and no interpolation plugin, the step and the schedule on one thread.

use crate::{Config, Engine, Sample, base_app, pit, step_begin, step_end};
use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy::prelude::*;
use bevy::transform::systems::StaticTransformOptimizations;
use bevy_circle_ccd::prelude::*;

/// bevy_circle_ccd's `CircleCcdPlugin` in `FixedUpdate`.
pub struct Ours;

/// The plugin's step statistics summed over the sampled steps (read outside the timed
/// update, from `CcdStats`).
#[derive(Resource, Default)]
struct Tally {
    steps: u64,
    bounces: u64,
    events: u64,
    event_circles: u64,
}

impl Engine for Ours {
    const NAME: &'static str = "ours";

    fn build(scene: &pit::Pit, config: Config) -> App {
        let mut app = base_app();
        app.insert_resource(StaticTransformOptimizations::Disabled)
            .add_plugins(CircleCcdPlugin {
                interpolation: false,
                ..default()
            })
            .insert_resource(CcdSettings {
                entity_events: false,
                ball_ball: config.ball_ball,
                threads: 1,
                audit: false,
                ..default()
            })
            .add_systems(FixedUpdate, step_begin.before(CircleCcdSystems::Prepare))
            .add_systems(FixedUpdate, step_end.after(CircleCcdSystems::Report))
            .init_resource::<Tally>();
        let world = app.world_mut();
        for &(a, b) in &scene.walls {
            world.spawn((StaticSegment::new(a, b), Transform::default()));
        }
        for &c in &scene.pillars {
            world.spawn((
                Pillar::new(pit::PILLAR_RADIUS),
                Transform::from_translation(c.extend(0.0)),
            ));
        }
        for b in &scene.balls {
            world.spawn((
                MovingCircle::new(pit::BALL_RADIUS, b.velocity),
                Transform::from_translation(b.position.extend(0.0)),
            ));
        }
        app
    }

    fn finished(app: &mut App) {
        single_threaded_schedules(app);
    }

    fn sample(world: &mut World, out: &mut Vec<Sample>) {
        let stats = world.resource::<CcdStats>().clone();
        let mut tally = world.resource_mut::<Tally>();
        tally.steps += 1;
        tally.bounces += u64::from(stats.bounces);
        tally.events += u64::from(stats.events);
        tally.event_circles += u64::from(stats.event_circles);
        out.clear();
        let mut q = world.query::<(Entity, &Transform, &MovingCircle)>();
        out.extend(q.iter(world).map(|(entity, t, c)| Sample {
            entity,
            position: t.translation.truncate(),
            velocity: c.velocity,
        }));
    }

    fn end_report(world: &mut World) -> String {
        Self::work(world)
    }

    fn ccd_report(world: &mut World) -> String {
        let stats = world.resource::<CcdStats>();
        format!(
            "bevy_circle_ccd: {} circles and {} obstacles in the step, exact CCD on every circle",
            stats.circles, stats.obstacles
        )
    }
}

impl Ours {
    /// The plugin's work a step, on average over the steps sampled.
    pub fn work(world: &mut World) -> String {
        let t = world.resource::<Tally>();
        let per = |n: u64| n as f64 / t.steps.max(1) as f64;
        format!(
            "bevy_circle_ccd, mean a step: {:.0} bounces, {:.0} events, {:.0} balls through the event machinery",
            per(t.bounces),
            per(t.events),
            per(t.event_circles)
        )
    }
}

/// Every schedule on Bevy's single-threaded executor, as the plugin's ball_pit bench sets
/// it after `app.finish()` (without Bevy's `multi_threaded` feature, as here, it is the
/// default already).
pub fn single_threaded_schedules(app: &mut App) {
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}
