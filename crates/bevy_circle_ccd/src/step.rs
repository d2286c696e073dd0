//! The fixed step: gather (`circles.rs`), step them all with
//! `ccd_core::step_balls_parallel` (which sweeps each circle on its own unless it can meet
//! another or a moving obstacle, and applies gravity inside the sweep, see its docs),
//! write back (`circles.rs`), and report the contacts. When nothing but walls can meet a
//! circle, the core would sweep each on its own: then each is stepped on its own as it is
//! read, with no gather (`lone.rs`), to the same results.

use crate::circles::{CircleBuffers, Stepped, gather_circles, write_back};
use crate::events::HitOther;
use crate::events::{CircleHit, CircleHitEvent, HitFeature};
use crate::kinematic::Kinematics;
use crate::lone::{CoreInput, step_lone};
use crate::pool::StepPool;
use crate::query::Circles;
use crate::settings::{CcdSettings, CcdStats};
use crate::world::CcdWorld;
use bevy::ecs::message::Messages;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{
    ContactWith, LoneSweeps, MultiballReport, MultiballScratch, MultiballSettings, MultiballStep,
    step_balls_parallel,
};
use std::time::Instant;

/// The contacts of the current step, between [`step_circles`] and [`report_hits`].
#[derive(Resource, Default, Debug)]
pub(crate) struct StepHits(pub(crate) Vec<CircleHit>);

/// Buffers of the step, kept between steps so that stepping allocates nothing once warm.
#[derive(Default)]
pub(crate) struct StepBuffers {
    scratch: MultiballScratch,
    circles: CircleBuffers,
    lone: LoneSweeps<Entity>,
}

/// What the step reads: the time, the settings and the static world.
#[derive(SystemParam)]
pub(crate) struct StepInput<'w> {
    time: Res<'w, Time>,
    settings: Res<'w, CcdSettings>,
    world: Res<'w, CcdWorld>,
}

/// What the step writes besides the circles: its contacts, its statistics, and the
/// moving obstacles (a hinge turns when a ball pushes it).
#[derive(SystemParam)]
pub(crate) struct StepOutput<'w> {
    hits: ResMut<'w, StepHits>,
    stats: ResMut<'w, CcdStats>,
    kinematics: ResMut<'w, Kinematics>,
}

/// Move every circle through one step: gather, step, write back. Runs in
/// [`CircleCcdSystems::Step`](crate::CircleCcdSystems::Step).
pub(crate) fn step_circles(
    input: StepInput,
    output: StepOutput,
    mut circles: Circles,
    mut buffers: Local<StepBuffers>,
    mut warned: Local<Option<Vec2>>,
    mut commands: Commands,
) {
    let StepInput {
        time,
        settings,
        world,
    } = input;
    let StepOutput {
        mut hits,
        mut stats,
        mut kinematics,
    } = output;
    let dt = time.delta_secs();
    if !settings.enabled || !(dt > 0.0) {
        return;
    }
    let started = Instant::now();
    let gravity = checked_gravity(&settings, &mut warned);
    let mut step = CcdStats {
        steps: stats.steps + 1,
        obstacles: world.len() as u32,
        total_hits: stats.total_hits,
        kinematic: kinematics.moving.len() as u32,
        capped_steps: stats.capped_steps,
        total_lost_time: stats.total_lost_time,
        ..default()
    };
    hits.0.clear();
    let multiball = MultiballSettings {
        gravity,
        ball_ball: settings.ball_ball,
        max_bounces: settings.max_bounces,
        max_events: settings.max_events,
        resting_speed: settings.resting_speed_for(dt),
    };
    let pool = StepPool::new(&settings);
    let input = CoreInput {
        dt,
        world: &world,
        settings: &multiball,
        pool: &pool,
    };
    let stepped = if buffers.scratch.steps_all_lone(&multiball, &kinematics.moving) {
        // Nothing but walls can meet a circle: each is stepped as it is read (`lone.rs`).
        let StepBuffers { scratch, lone, .. } = &mut *buffers;
        step_lone(&mut circles, input, lone, scratch, &mut hits.0, &mut commands)
    } else {
        // The write-back goes to the pool's threads too, when the step does (the gather
        // notes where each circle's ball is, for it).
        let parallel = pool.parallel();
        let skipped = gather_circles(&circles, &mut buffers.circles, parallel, &mut commands);
        let report = run_core(input, &mut kinematics, &mut buffers, &mut hits.0);
        write_back(&mut circles, &buffers.circles, &buffers.scratch, parallel);
        Stepped {
            report,
            circles: buffers.circles.balls.len() as u32,
            skipped,
        }
    };
    let report = note_stepped(&mut step, stepped);
    step.event_circles = report.event_balls;
    step.sensor_hits = hits.0.iter().filter(|h| h.sensor).count() as u32;
    step.total_hits += hits.0.len() as u64;
    step.step_micros = started.elapsed().as_secs_f32() * 1e6;
    *stats = step;
}

/// The settings' gravity, or none (said once per bad value) when it is not finite.
fn checked_gravity(settings: &CcdSettings, warned: &mut Option<Vec2>) -> Vec2 {
    if settings.gravity.is_finite() {
        return settings.gravity;
    }
    // Refused, and said once per bad value (NaN never equals itself: compare bits).
    let bits = |v: Option<Vec2>| v.map(|v| (v.x.to_bits(), v.y.to_bits()));
    if bits(*warned) != bits(Some(settings.gravity)) {
        *warned = Some(settings.gravity);
        tracing::warn!(
            "bevy_circle_ccd: `CcdSettings.gravity` is {} (not finite): refused, the step runs without gravity until it is fixed",
            settings.gravity
        );
    }
    Vec2::ZERO
}

/// Put what the step did into its statistics (saying when it reached a cap, at every
/// power of two of such steps); returns the core's report.
fn note_stepped(step: &mut CcdStats, stepped: Stepped) -> MultiballReport {
    let Stepped {
        report,
        circles,
        skipped,
    } = stepped;
    step.skipped = skipped;
    step.circles = circles;
    step.events = report.events;
    step.event_budget_hit = report.event_budget_hit;
    step.bounces = report.bounces;
    step.max_bounces_per_circle = report.max_bounces_per_ball;
    step.capped = report.capped_balls;
    step.lost_time = report.lost_time;
    if report.capped_balls > 0 || report.event_budget_hit {
        step.capped_steps += 1;
        step.total_lost_time += f64::from(report.lost_time);
        if step.capped_steps.is_power_of_two() {
            tracing::warn!(
                "bevy_circle_ccd: step {} reached a cap ({} circles at the bounce cap, event budget {}): {:.3e} circle-seconds lost; {} capped steps, {:.3e} circle-seconds lost since the start",
                step.steps,
                report.capped_balls,
                if report.event_budget_hit {
                    "spent"
                } else {
                    "not spent"
                },
                report.lost_time,
                step.capped_steps,
                step.total_lost_time,
            );
        }
    }
    report
}

/// Step the gathered balls with `ccd_core`, collecting the contacts as [`CircleHit`]s.
fn run_core(
    input: CoreInput<'_, StepPool>,
    kinematics: &mut Kinematics,
    buffers: &mut StepBuffers,
    hits: &mut Vec<CircleHit>,
) -> MultiballReport {
    let CoreInput {
        dt,
        world,
        settings: multiball,
        pool,
    } = input;
    let StepBuffers { scratch, circles, .. } = buffers;
    let CircleBuffers { balls, entities, .. } = circles;
    // Hinged bodies come back turned by what hit them.
    let moving = &mut kinematics.moving;
    let moving_entities = &kinematics.entities;
    let moving_parts = &kinematics.parts;
    let first_hit = hits.len();
    let mut moving_hits: Vec<Option<usize>> = Vec::new();
    let on_contact = |c: &ccd_core::Contact| {
        // A moving part's feature is found after the step, where it was at the contact.
        let other = match c.with {
            ContactWith::Obstacle(id) => world.hit_other(id, c.hit.point, c.hit.normal),
            ContactWith::Moving(k) => moving_entities.get(k).map(|&entity| HitOther {
                entity,
                part: moving_parts.get(k).map_or(0, |p| p.part),
                feature: HitFeature::Face,
            }),
            ContactWith::Ball(j) => entities.get(j).map(|&entity| HitOther {
                entity,
                part: 0,
                feature: HitFeature::Round,
            }),
        };
        if let (Some(other), Some(&circle)) = (other, entities.get(c.ball)) {
            hits.push(CircleHit::of_contact(c, circle, other));
            moving_hits.push(match c.with {
                ContactWith::Moving(k) => Some(k),
                _ => None,
            });
        }
    };
    let step = MultiballStep {
        balls,
        dt,
        obstacles: world.grid(),
        moving,
    };
    let report = step_balls_parallel(pool, step, multiball, scratch, on_contact);
    // Each moving part's feature, where the part was at the contact (a hinge's pose from
    // its last change of motion on).
    for (hit, k) in hits[first_hit..].iter_mut().zip(moving_hits) {
        if let Some(other) = k.and_then(|k| kinematics.hit_other(k, hit.point, hit.normal, hit.time / dt)) {
            hit.feature = other.feature;
        }
    }
    report
}

/// Write the step's impacts and sensor crossings as messages, and trigger them as
/// [`CircleHitEvent`]s on the entities that have observers for them (nothing is triggered
/// where nobody listens). A contact that lasts is not a hit after its first step
/// ([`Lasting`]). Runs in [`CircleCcdSystems::Report`](crate::CircleCcdSystems::Report).
pub(crate) fn report_hits(world: &mut World, mut listening: Local<Listening>) {
    let dt = world.resource::<Time>().delta_secs();
    let resting_speed = world.resource::<CcdSettings>().resting_speed_for(dt);
    world.try_resource_scope(|world, mut step_hits: Mut<StepHits>| {
        let hits = &mut step_hits.0;
        if let Some(mut lasting) = world.get_resource_mut::<Lasting>() {
            lasting.keep_impacts(hits, resting_speed, dt);
        }
        if hits.is_empty() {
            return;
        }
        if world.resource::<CcdSettings>().entity_events {
            listening.read(world);
            for hit in hits.iter() {
                for entity in [hit.other, hit.circle] {
                    if listening.on(entity) {
                        world.trigger(CircleHitEvent { entity, hit: *hit });
                    }
                }
            }
        }
        world
            .resource_mut::<Messages<CircleHit>>()
            .write_batch(hits.drain(..));
    });
}

/// The pairs (a circle and what it touched) that met in the last step, to tell a contact
/// that lasts from an impact. A contact is the same contact going on, and not a
/// [`CircleHit`] (its start was one, and [`CcdContactEvents`](crate::CcdContactEvents)
/// reports it as one contact throughout), when
/// - its pair met in the last step too and it is slower than the resting speed (what
///   gravity adds in a step, twice over): a ball resting on a flipper, a pile of balls;
/// - or it is slower than closing the touch slop ([`touch_slop`](crate::touch_slop)) in
///   one step ([`in_touch_speed`]): the circle, moving straight, was within the slop, in
///   touch, as the step began. Without gravity a puck pushed along by a paddle meets it
///   again now and then at a rounding's speed, about 1e-5 u/s.
///
/// A part that speeds up into a ball without gravity strikes it anew each step at its
/// change of speed: each is a hit (set
/// [`CcdSettings::resting_speed`](crate::CcdSettings::resting_speed) to have such presses
/// last). The pairs are kept as a list (a push per contact), sorted and searched only in a
/// step that has a slow contact.
#[derive(Resource, Default, Clone, Debug)]
pub(crate) struct Lasting {
    before: Vec<(Entity, Entity)>,
    now: Vec<(Entity, Entity)>,
}

/// The approach speed below which `hit`, in a step of `dt`, was in touch as the step
/// began: it closes less than the touch slop in the step.
#[must_use]
fn in_touch_speed(hit: &CircleHit, dt: f32) -> f32 {
    let radius = hit.center.distance(hit.point);
    crate::contacts::touch_slop(radius, hit.center) / dt
}

impl Lasting {
    /// Keep the hits of a step of `dt` that are impacts or sensor crossings, and note every
    /// pair that met.
    pub(crate) fn keep_impacts(&mut self, hits: &mut Vec<CircleHit>, resting_speed: f32, dt: f32) {
        let Self { before, now } = self;
        now.clear();
        let mut sorted = false;
        hits.retain(|h| {
            // A ball–ball pair is met from either ball.
            let pair = (h.circle.min(h.other), h.circle.max(h.other));
            now.push(pair);
            if h.sensor {
                return true;
            }
            if h.speed < in_touch_speed(h, dt) {
                return false;
            }
            if !(h.speed < resting_speed) {
                return true;
            }
            if !sorted {
                before.sort_unstable();
                sorted = true;
            }
            before.binary_search(&pair).is_err()
        });
        std::mem::swap(before, now);
    }
}

/// Who observes [`CircleHitEvent`]: observers of every such event, and entities with an
/// observer of their own.
#[derive(Default)]
pub(crate) struct Listening {
    global: bool,
    entities: bevy::ecs::entity::EntityHashSet,
}

impl Listening {
    fn read(&mut self, world: &World) {
        let observers = world
            .event_key::<CircleHitEvent>()
            .and_then(|key| world.observers().try_get_observers(key));
        self.global = observers.is_some_and(|o| !o.global_observers().is_empty());
        self.entities.clear();
        if let Some(o) = observers {
            self.entities.extend(o.entity_observers().keys().copied());
        }
    }

    fn on(&self, entity: Entity) -> bool {
        self.global || self.entities.contains(&entity)
    }
}
