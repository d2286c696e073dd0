//! The scene on Box2D v3 (the Box2D 3.2 snapshot that `boxdd-sys` 0.6 builds from its C
//! source), through the `boxdd` bindings, in a plain loop without Bevy.
//!
//! - World: no gravity, one worker (Box2D's own default), Box2D's defaults otherwise
//!   (sleeping on, continuous on, contact softening as Box2D sets it), except:
//!   - the restitution threshold, 0 by default (`--box2d-restitution-threshold`): Box2D
//!     applies restitution to a contact only when it approaches faster than the threshold
//!     (1 m/s by default), so a ball grazing a wall at under 1 u/s would stick to it. At 0
//!     every approaching contact that took an impulse bounces;
//!   - the speed cap, `maximumLinearSpeed` (400 m/s by default, which would clamp every
//!     ball of this scene), lifted to [`SPEED_CAP_FACTOR`] × the scene's top speed.
//! - Length units per meter: `--length-unit` (default 1: one scene unit is one meter, so a
//!   ball of radius 4 is a 4 m ball, inside Box2D's 0.1–10 m range for moving bodies, and
//!   Box2D's linear slop is 0.005 units).
//! - Statics: one static body at the origin carrying a segment shape for each of the 512
//!   outer edges and the 300 baffles, and a circle shape of radius 8 at each pillar centre.
//! - Balls: one dynamic body each, at the scene's position and velocity (the same f32s), a
//!   circle of radius 4 at its centre (density 1), no damping, and a bullet with
//!   ball–ball on.
//! - Every shape: restitution 1, friction 0 (Box2D mixes restitution by the larger of the
//!   two, friction by the geometric mean: both give e = 1, μ = 0).
//! - Filters: balls are category 1, statics category 2; balls take only category 2, or
//!   1 | 2 with ball–ball on.
//! - A step: `world.step(1/120, substeps)` (Box2D's default 4 substeps). That call alone
//!   is the "step" time; the "update" time adds reading every ball's position and velocity
//!   out, which the escape and energy counts need.

use crate::run::{Recorder, Row, spawn_energy};
use crate::{Config, Sample, pit};
use bevy::prelude::{Entity, Vec2};
use boxdd::{
    BodyId, BodyType, Circle, Filter, Foundation, FoundationConfig, Segment, ShapeDef, SurfaceMaterial,
    WorkerCount, World,
};
use std::time::Instant;

/// The speed cap over the scene's top speed: far above any ball, so it never clamps one.
pub const SPEED_CAP_FACTOR: f32 = 100.0;

/// Collision categories.
const BALL_CATEGORY: u64 = 1 << 0;
const STATIC_CATEGORY: u64 = 1 << 1;

/// The scene in a Box2D world, and the balls' body ids in scene order.
struct Scene {
    world: World,
    balls: Vec<BodyId>,
}

/// Elastic and frictionless.
fn material() -> boxdd::Result<SurfaceMaterial> {
    SurfaceMaterial::new().with_restitution(1.0)?.with_friction(0.0)
}

/// The scene's world, as the module docs say.
fn build(scene: &pit::Pit, config: Config) -> boxdd::Result<Scene> {
    let foundation = Foundation::initialize(FoundationConfig::new(config.length_unit))?;
    let def = foundation
        .world_builder()
        .gravity([0.0, 0.0])
        .restitution_threshold(config.box2d_restitution_threshold)
        .maximum_linear_speed(SPEED_CAP_FACTOR * config.top_speed)
        .enable_continuous(!config.no_ccd)
        .worker_count(WorkerCount::new(1)?)
        .build()?;
    let mut world = foundation.create_world(def)?;

    let static_def = ShapeDef::builder()
        .material(material()?)
        .filter(Filter {
            category_bits: STATIC_CATEGORY,
            mask_bits: BALL_CATEGORY,
            group_index: 0,
        })
        .build()?;
    let ground = world.create_body(world.body_builder().body_type(BodyType::Static).build()?)?;
    {
        let mut ground = world.body(ground)?;
        for &(a, b) in &scene.walls {
            ground.create_segment(&static_def, &Segment::new([a.x, a.y], [b.x, b.y])?)?;
        }
        for &c in &scene.pillars {
            ground.create_circle(&static_def, &Circle::new([c.x, c.y], pit::PILLAR_RADIUS)?)?;
        }
    }

    let ball_mask = if config.ball_ball {
        BALL_CATEGORY | STATIC_CATEGORY
    } else {
        STATIC_CATEGORY
    };
    let ball_def = ShapeDef::builder()
        .density(1.0)
        .material(material()?)
        .filter(Filter {
            category_bits: BALL_CATEGORY,
            mask_bits: ball_mask,
            group_index: 0,
        })
        .build()?;
    let circle = Circle::new([0.0, 0.0], pit::BALL_RADIUS)?;
    let bullet = config.ball_ball && !config.no_ccd;
    let mut balls = Vec::with_capacity(scene.balls.len());
    for b in &scene.balls {
        let id = world.create_body(
            world
                .body_builder()
                .body_type(BodyType::Dynamic)
                .position([b.position.x, b.position.y])
                .linear_velocity([b.velocity.x, b.velocity.y])
                .linear_damping(0.0)
                .angular_damping(0.0)
                .bullet(bullet)
                .build()?,
        )?;
        world.body(id)?.create_circle(&ball_def, &circle)?;
        balls.push(id);
    }
    Ok(Scene { world, balls })
}

/// One fixed step; microseconds of the `world.step` call.
fn step(world: &mut World, substeps: i32) -> boxdd::Result<f64> {
    let clock = Instant::now();
    let completed = world.step((1.0 / pit::HZ) as f32, substeps)?;
    drop(completed);
    Ok(clock.elapsed().as_secs_f64() * 1e6)
}

/// Every ball's position and velocity, keyed by its index in the scene.
fn sample(scene: &mut Scene, out: &mut Vec<Sample>) -> boxdd::Result<()> {
    out.clear();
    for (i, &id) in scene.balls.iter().enumerate() {
        let body = scene.world.body(id)?;
        let p = body.position()?;
        let v = body.linear_velocity()?;
        out.push(Sample {
            entity: Entity::from_raw_u32(i as u32).expect("fewer balls than u32::MAX"),
            position: Vec2::new(p.x, p.y),
            velocity: Vec2::new(v.x, v.y),
        });
    }
    Ok(())
}

/// What Box2D says about the balls and the world after the warm-up step.
fn report(scene: &mut Scene) -> boxdd::Result<String> {
    let mut bullets = 0;
    for &id in &scene.balls {
        bullets += usize::from(scene.world.body(id)?.is_bullet()?);
    }
    let w = &scene.world;
    Ok(format!(
        "Box2D: {} balls, {bullets} bullets, continuous {}, sleeping {}, max linear speed {}, restitution threshold {}, {} worker(s), {} awake",
        scene.balls.len(),
        if w.is_continuous_enabled()? { "on" } else { "off" },
        if w.is_sleeping_enabled()? { "on" } else { "off" },
        w.maximum_linear_speed()?,
        w.restitution_threshold()?,
        w.worker_count()?.get(),
        w.awake_body_count()?,
    ))
}

/// Box2D on one ball count: build, one warm-up step, the timed steps, summarise.
pub fn run(balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> Row {
    try_run(balls, steps, seed, config, time_limit).unwrap_or_else(|e| panic!("box2d: {e}"))
}

fn try_run(balls: usize, steps: u32, seed: u64, config: Config, time_limit: f64) -> boxdd::Result<Row> {
    let wall = Instant::now();
    let pit = pit::build_with_top_speed(balls, seed, config.top_speed);
    let e0 = spawn_energy(&pit);
    let mut scene = build(&pit, config)?;
    let substeps = config.box2d_substeps;
    // The warm-up step, as the Bevy engines' first update: not timed.
    step(&mut scene.world, substeps)?;
    let mut samples = Vec::with_capacity(balls);
    sample(&mut scene, &mut samples)?;
    let ccd = report(&mut scene)?;
    let mut recorder = Recorder::new(&samples, e0, steps);
    let mut stages = Stages::default();
    while recorder.done < steps && wall.elapsed().as_secs_f64() < time_limit {
        let clock = Instant::now();
        let step_us = step(&mut scene.world, substeps)?;
        sample(&mut scene, &mut samples)?;
        let update_us = clock.elapsed().as_secs_f64() * 1e6;
        recorder.step(step_us, update_us, &samples);
        stages.add(&scene.world.profile()?);
    }
    let awake = scene.world.awake_body_count()?;
    let contacts = scene.world.counters()?.contact_count;
    let stages = stages.report(recorder.done);
    Ok(recorder.finish(
        "box2d",
        &samples,
        format!("{ccd}; at the end {awake} awake, {contacts} contacts; {stages}"),
        wall,
    ))
}

/// Box2D's own profile of its steps, summed over the timed steps (milliseconds).
#[derive(Default)]
struct Stages {
    step: f64,
    pairs: f64,
    collide: f64,
    solve: f64,
    bullets: f64,
}

impl Stages {
    fn add(&mut self, p: &boxdd::Profile) {
        self.step += f64::from(p.step);
        self.pairs += f64::from(p.pairs);
        self.collide += f64::from(p.collide);
        self.solve += f64::from(p.solve);
        self.bullets += f64::from(p.bullets);
    }

    /// The mean of each stage a step, in µs.
    fn report(&self, steps: u32) -> String {
        let us = |ms: f64| ms * 1000.0 / f64::from(steps.max(1));
        format!(
            "Box2D's profile, mean µs a step: step {:.0} = pairs {:.0} (broadphase) + collide {:.0} (narrowphase) + solve {:.0} (of which bullets {:.0}) + the rest",
            us(self.step),
            us(self.pairs),
            us(self.collide),
            us(self.solve),
            us(self.bullets)
        )
    }
}
