//! [`CcdFaults`]: the audit after each step, on when [`CcdSettings::audit`] is. A circle
//! found inside a solid surface on its layers (deeper than
//! [`penetration_slop`](ccd_core::penetration_slop) of its radius), or across a one-way
//! segment it may not cross, is a fault: counted, warned about with both entities named,
//! and kept if it is the run's deepest. The CCD promises there are none; the audit is the
//! check that can fail.

use crate::components::{CcdDisabled, CcdInvalid, CcdLayers, Kinematic, MovingCircle};
use crate::hinge_body::{Hinge, HingePart};
use crate::kinematic::Pose;
use crate::query::ObstacleParts;
use crate::settings::{CcdSettings, CcdStats};
use crate::shape::{Part, polygons_of};
use crate::world::CcdWorld;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{
    Aabb, Circle, Layers, Obstacle, ObstacleShape, Obstacles, Polygon, crossed_one_way, penetration,
    penetration_slop,
};

/// Faults warned about one by one; past this many in a run they are only counted (the
/// count and the deepest stay exact), so a broken scene cannot flood the log.
pub const MAX_FAULT_WARNINGS: u64 = 32;

/// What the audit found over the run. Read it in a test, a bench or a debug overlay; it
/// stays at its default while [`CcdSettings::audit`] is off.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct CcdFaults {
    /// Steps audited.
    pub steps: u64,
    /// Faults over the run: one per circle, obstacle and step.
    pub count: u64,
    /// Faults in the last audited step.
    pub last_step: u32,
    /// The deepest any circle sat inside a solid surface over the run, world units, faults
    /// or not (0 with none): how close the run came to a fault.
    pub deepest: f32,
    /// The most recent fault.
    pub last: Option<CcdFault>,
}

/// One fault.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
pub struct CcdFault {
    /// The step it was found after ([`CcdStats::steps`]).
    pub step: u64,
    /// The circle.
    pub circle: Entity,
    /// The obstacle it is inside or crossed.
    pub obstacle: Entity,
    /// The circle's centre.
    pub center: Vec2,
    /// What was wrong.
    pub kind: FaultKind,
}

/// What a fault is.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
pub enum FaultKind {
    /// Inside a solid surface by `depth` world units.
    Inside {
        /// Radius (plus a pillar's) less the distance from the centre to the surface.
        depth: f32,
    },
    /// Across a one-way segment, from its front to its back, during the step.
    CrossedOneWay,
}

/// Each circle's centre at the start of the step, for the one-way check. Filled in
/// [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare) while auditing, in the
/// query's order, which the audit walks in step (a circle out of step, because an entity
/// changed archetype in between, is looked up in `lookup`, built then, once a step).
#[derive(Resource, Default, Debug)]
pub(crate) struct AuditStarts {
    order: Vec<(Entity, Vec2)>,
    lookup: EntityHashMap<Vec2>,
}

/// A circle as the audit reads it.
type AuditedCircle<'a> = (Entity, &'a MovingCircle, &'a Transform, Option<&'a CcdLayers>);

/// Circles the step moved (not skipped as invalid or parented, nor held out).
type Stepped = (Without<CcdInvalid>, Without<ChildOf>, Without<CcdDisabled>);

/// Obstacles that move (kinematic, hinged, or a hinge's part): not in the grid.
type Moves = Or<(With<Kinematic>, With<Hinge>, With<HingePart>)>;

/// Note where every circle starts the step.
pub(crate) fn note_starts(
    settings: Res<CcdSettings>,
    mut starts: ResMut<AuditStarts>,
    circles: Query<(Entity, &Transform), (With<MovingCircle>, Stepped)>,
) {
    starts.order.clear();
    starts.lookup.clear();
    if settings.audit {
        starts
            .order
            .extend(circles.iter().map(|(e, t)| (e, t.translation.truncate())));
    }
}

/// What the audit reads of the step: whether it is on, which step it was, the static
/// obstacles, and where the circles started.
#[derive(SystemParam)]
pub(crate) struct StepRead<'w> {
    settings: Res<'w, CcdSettings>,
    stats: Res<'w, CcdStats>,
    world: Res<'w, CcdWorld>,
    starts: ResMut<'w, AuditStarts>,
}

/// Audit every circle against the static grid and every moving obstacle at its pose at the
/// step's end. Runs at the end of [`CircleCcdSystems::Step`](crate::CircleCcdSystems::Step).
pub(crate) fn audit_step(
    step: StepRead,
    mut faults: ResMut<CcdFaults>,
    circles: Query<AuditedCircle, Stepped>,
    moving: Query<(Entity, ObstacleParts, &Transform), (Moves, Without<CcdInvalid>)>,
    mut scratch: Local<AuditScratch>,
) {
    let StepRead {
        settings,
        stats,
        world,
        mut starts,
    } = step;
    if !settings.audit {
        return;
    }
    scratch.place_moving(&moving);
    let mut audit = Audit {
        step: stats.steps,
        faults: &mut faults,
        found: 0,
    };
    let mut next_start = 0;
    for (entity, circle, transform, layers) in &circles {
        let ball = Circle::new(transform.translation.truncate(), circle.radius);
        // A circle the step skipped for a bad value this step (its `CcdInvalid` is not
        // inserted yet) has no place to check.
        if ball.validate().is_err() {
            continue;
        }
        let audited = Audited {
            entity,
            ball,
            layers: layers.copied().unwrap_or_default().into(),
            start: starts.start_of(entity, &mut next_start),
        };
        audit.circle(&audited, &world, &mut scratch);
    }
    let found = audit.found;
    faults.steps += 1;
    faults.last_step = found;
}

impl AuditStarts {
    /// Where `entity` started the step, if known: the next in `order` (the query's, as the
    /// circles are audited, `next` counting them), else looked up.
    fn start_of(&mut self, entity: Entity, next: &mut usize) -> Option<Vec2> {
        match self.order.get(*next) {
            Some(&(e, from)) if e == entity => {
                *next += 1;
                Some(from)
            }
            _ => {
                if self.lookup.is_empty() && !self.order.is_empty() {
                    self.lookup.extend(self.order.iter().copied());
                }
                self.lookup.get(&entity).copied()
            }
        }
    }
}

/// A circle being audited: its entity, where it ended the step, its layers, and where it
/// started, if known.
#[derive(Clone, Copy)]
struct Audited {
    entity: Entity,
    ball: Circle,
    layers: Layers,
    start: Option<Vec2>,
}

impl AuditScratch {
    /// Every moving obstacle where it ended the step, and its body's solid polygons.
    fn place_moving(
        &mut self,
        moving: &Query<(Entity, ObstacleParts, &Transform), (Moves, Without<CcdInvalid>)>,
    ) {
        let AuditScratch {
            placed,
            built,
            solids,
            ..
        } = self;
        placed.clear();
        solids.clear();
        for (entity, parts, transform) in moving {
            let pose = Pose::of(transform);
            let scale = transform.scale.truncate();
            let place = |local: Vec2| pose.place(local, scale);
            built.clear();
            if let Some(Ok(())) = parts.build(&pose.placement(&place, scale), pose.translation, built) {
                placed.extend(built.iter().map(|p| (entity, p.obstacle)));
                let shape = parts
                    .shape
                    .filter(|_| parts.segment.is_none() && parts.pillar.is_none());
                if let (Some(shape), false) = (shape, parts.sensor) {
                    let mut found = Vec::new();
                    polygons_of(shape, &place, &mut found);
                    let layers: Layers = parts.layers.copied().unwrap_or_default().into();
                    solids.extend(found.into_iter().map(|p| (entity, layers, p)));
                }
            }
        }
    }
}

/// What the audit reuses from step to step.
#[derive(Default)]
pub(crate) struct AuditScratch {
    /// Every moving obstacle where it ended the step.
    placed: Vec<(Entity, Obstacle)>,
    /// One moving body's parts.
    built: Vec<Part>,
    /// The moving bodies' solid polygons where they ended the step, with their layers.
    solids: Vec<(Entity, Layers, Polygon)>,
    /// The static polygon bodies near one circle, with their layers.
    met: Vec<(Entity, Layers)>,
}

/// One step's audit in progress.
struct Audit<'a> {
    step: u64,
    faults: &'a mut CcdFaults,
    found: u32,
}

impl Audit<'_> {
    /// Check `audited` against the static obstacles near it (in `world`) and the moving
    /// ones where they ended the step (in `scratch`).
    fn circle(&mut self, audited: &Audited, world: &CcdWorld, scratch: &mut AuditScratch) {
        let ball = audited.ball;
        // Without one-way segments or solid polygons only what overlaps a circle at its end
        // matters: its own box (a surface it is inside meets that box), not the box of its
        // whole path. A circle that crossed into a polygon crossed one of its edges, whose
        // box meets the path's (deep inside a large polygon, no edge is near its end).
        let one_way = world.has_one_way() || world.has_polygons();
        // The box the straight path from the start swept, for the one-way and polygon checks.
        let bounds = match audited.start {
            Some(from) if one_way => Aabb::swept(from, ball.center - from, ball.radius),
            _ => ball.aabb(),
        };
        let met = &mut scratch.met;
        met.clear();
        world.grid().query(bounds, |id, obstacle| {
            if let Some(wall) = world.entity(id) {
                // A solid polygon's edges face out: a circle is checked against the whole
                // polygon below, not crossing each edge's line (a bounce off one edge
                // makes the straight path cut across its neighbours).
                let solid = world.polygons(wall).is_some();
                let checked = Audited {
                    start: audited.start.filter(|_| !solid),
                    ..*audited
                };
                self.check(&checked, wall, obstacle);
                if solid && !obstacle.sensor && !met.contains(&(wall, obstacle.layers)) {
                    met.push((wall, obstacle.layers));
                }
            }
        });
        for &(wall, wall_layers) in met.iter() {
            for polygon in world.polygons(wall).into_iter().flatten() {
                self.check_solid(audited, wall, wall_layers, polygon);
            }
        }
        let unstarted = Audited {
            start: None,
            ..*audited
        };
        for (wall, obstacle) in scratch.placed.iter() {
            self.check(&unstarted, *wall, obstacle);
        }
        for (wall, wall_layers, polygon) in scratch.solids.iter() {
            self.check_solid(audited, *wall, *wall_layers, polygon);
        }
    }

    /// Check `audited` (which started the step at its `start`, if known) against one
    /// obstacle. A moving obstacle gets no one-way check: its start pose is not kept.
    fn check(&mut self, audited: &Audited, obstacle_entity: Entity, obstacle: &Obstacle) {
        let Audited {
            entity: circle,
            ball,
            layers,
            start,
        } = *audited;
        if let Some(p) = penetration(ball, layers, obstacle) {
            self.faults.deepest = self.faults.deepest.max(p.depth);
            if p.depth > penetration_slop(ball.radius) {
                self.record(
                    circle,
                    obstacle_entity,
                    ball.center,
                    FaultKind::Inside { depth: p.depth },
                );
            }
        }
        let one_way = match obstacle.shape {
            ObstacleShape::Segment(s) => Some(s),
            ObstacleShape::Edge(e) => Some(e.segment),
            _ => None,
        };
        if let (Some(segment), true, false, Some(from)) =
            (one_way, obstacle.one_sided, obstacle.sensor, start)
            && obstacle.layers.interacts(layers)
            && crossed_one_way(segment, ball.radius, from, ball.center)
        {
            self.record(circle, obstacle_entity, ball.center, FaultKind::CrossedOneWay);
        }
    }

    /// Check `audited` against a solid polygon of `wall` (on `wall_layers`): inside it, or
    /// reaching into it from outside, by more than the slop.
    fn check_solid(&mut self, audited: &Audited, wall: Entity, wall_layers: Layers, polygon: &Polygon) {
        let Audited {
            entity: circle,
            ball,
            layers,
            ..
        } = *audited;
        if !wall_layers.interacts(layers) {
            return;
        }
        let depth = ball.radius - polygon.signed_distance(ball.center);
        if depth > 0.0 {
            self.faults.deepest = self.faults.deepest.max(depth);
            if depth > penetration_slop(ball.radius) {
                self.record(circle, wall, ball.center, FaultKind::Inside { depth });
            }
        }
    }

    fn record(&mut self, circle: Entity, obstacle: Entity, center: Vec2, kind: FaultKind) {
        let fault = CcdFault {
            step: self.step,
            circle,
            obstacle,
            center,
            kind,
        };
        self.found += 1;
        self.faults.count += 1;
        self.faults.last = Some(fault);
        if self.faults.count <= MAX_FAULT_WARNINGS {
            tracing::warn!(
                "bevy_circle_ccd: audit: circle {circle} at {center} after step {}: {kind:?} obstacle {obstacle}{}",
                self.step,
                if self.faults.count == MAX_FAULT_WARNINGS {
                    " (further faults are counted, not printed)"
                } else {
                    ""
                }
            );
        }
    }
}
