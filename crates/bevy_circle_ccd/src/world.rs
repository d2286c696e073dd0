//! [`CcdWorld`]: the static obstacles in a [`Grid`] broadphase, kept in sync with the ECS
//! incrementally (only added, changed and removed entities are touched).
//!
//! An obstacle is placed where its `Transform` and its ancestors' put it at the time of the
//! step, composed here, not read from its `GlobalTransform`: Bevy propagates that only
//! later in the frame (in `PostUpdate`), so a wall spawned, moved or re-parented inside
//! `FixedUpdate` would be swept one step late, or at the origin on its first step.

use crate::components::quoted;
use crate::components::{
    CcdInvalid, CcdLayers, CcdMaterial, CcdSensor, Kicker, Kinematic, OneSided, Pillar, StaticSegment,
};
use crate::events::{HitFeature, HitOther};
use crate::hinge_body::{Hinge, HingePart};
use crate::query::{ObstacleParts, ObstaclePartsItem};
use crate::shape::CcdShape;
use crate::shape::{Part, ShapePlacement, polygons_of};
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{
    Circle, Grid, Obstacle, ObstacleId, PathLeg, Polygon, PredictSettings, Prediction, ShapeError,
    predict_path,
};

/// The broadphase of every static [`StaticSegment`], [`Pillar`] and [`CcdShape`], in world
/// space (a shape as its parts: a polygon's edges, a compound's pieces).
///
/// The plugin keeps it up to date before each step. Read it to look obstacles up or to
/// predict a path, as an aiming guide does.
#[derive(Resource, Reflect, Default, Debug)]
#[reflect(Resource)]
pub struct CcdWorld {
    #[reflect(ignore)]
    grid: Grid,
    /// Each entity's obstacles, its parts in order.
    #[reflect(ignore)]
    ids: EntityHashMap<Vec<ObstacleId>>,
    /// Each obstacle's entity and part, by id.
    #[reflect(ignore)]
    entities: Vec<Option<ObstaclePart>>,
    /// Each entity's solid polygons, in the world (for the audit).
    #[reflect(ignore)]
    polygons: EntityHashMap<Vec<Polygon>>,
    /// One-way segments in the grid (the audit's crossing check needs a circle's whole
    /// path only when there is one).
    #[reflect(ignore)]
    one_way: usize,
}

/// Which part of which entity an obstacle is: part `i` of a [`CcdShape`](crate::CcdShape)
/// is its `i`-th obstacle (a chain's or a polygon's edge `i`, a compound's parts in
/// order); a segment or a pillar is part 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObstaclePart {
    /// The entity.
    pub entity: Entity,
    /// The part.
    pub part: u32,
    /// The indices, among its shape's points, of the part's two ends: a chain's or a
    /// polygon's edge runs between two of its points; a segment's, a capsule's or an
    /// arc's ends are 0 and 1.
    pub ends: [u32; 2],
}

/// A part's place in its entity's shape ([`ObstaclePart`] without the entity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PartOf {
    pub(crate) part: u32,
    pub(crate) ends: [u32; 2],
}

/// Whether the audit's one-way check applies to an obstacle.
fn is_one_way(o: &Obstacle) -> bool {
    o.one_sided
        && !o.sensor
        && matches!(
            o.shape,
            ccd_core::ObstacleShape::Segment(_) | ccd_core::ObstacleShape::Edge(_)
        )
}

impl CcdWorld {
    /// The broadphase itself.
    #[inline]
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The entity of an obstacle.
    #[inline]
    #[must_use]
    pub fn entity(&self, id: ObstacleId) -> Option<Entity> {
        self.part(id).map(|p| p.entity)
    }

    /// What a hit names of static obstacle `id`, touched at `point` with `normal`: its
    /// entity, part and feature (`None` for an id this world does not hold).
    pub(crate) fn hit_other(&self, id: ObstacleId, point: Vec2, normal: Vec2) -> Option<HitOther> {
        let (p, o) = (self.part(id)?, self.grid.get(id)?);
        Some(HitOther {
            entity: p.entity,
            part: p.part,
            feature: HitFeature::of(&o.shape, p.ends, point, normal),
        })
    }

    /// The entity and part of an obstacle.
    #[inline]
    #[must_use]
    pub fn part(&self, id: ObstacleId) -> Option<ObstaclePart> {
        self.entities.get(id.0 as usize).copied().flatten()
    }

    /// The world-space obstacle of an entity (its first part), if it is in the broadphase.
    #[must_use]
    pub fn obstacle(&self, entity: Entity) -> Option<&Obstacle> {
        self.obstacles(entity).next()
    }

    /// Every world-space obstacle of an entity, its parts in order.
    pub fn obstacles(&self, entity: Entity) -> impl Iterator<Item = &Obstacle> {
        self.ids
            .get(&entity)
            .into_iter()
            .flatten()
            .filter_map(|id| self.grid.get(*id))
    }

    /// Every entity with solid polygons, and its polygons.
    pub(crate) fn polygon_bodies(&self) -> impl Iterator<Item = (Entity, &[Polygon])> {
        self.polygons.iter().map(|(e, p)| (*e, p.as_slice()))
    }

    /// The solid polygons of `entity` (its [`CcdShape::Polygon`](crate::CcdShape) parts),
    /// in the world; `None` for an entity that has none.
    #[must_use]
    pub(crate) fn polygons(&self, entity: Entity) -> Option<&[Polygon]> {
        self.polygons.get(&entity).map(Vec::as_slice)
    }

    /// Whether any static entity has a solid polygon.
    #[inline]
    #[must_use]
    pub(crate) fn has_polygons(&self) -> bool {
        !self.polygons.is_empty()
    }

    /// Whether any obstacle in the grid is a one-way segment.
    #[inline]
    #[must_use]
    pub(crate) fn has_one_way(&self) -> bool {
        self.one_way > 0
    }

    /// Number of obstacles.
    #[must_use]
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// Whether there is no obstacle.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// Predict the path of `circle` moving at `velocity` through the obstacles, one
    /// [`PathLeg`] (one curve) per leg (see [`ccd_core::predict_path`]).
    ///
    /// # Errors
    /// A [`ShapeError`] naming the bad input.
    pub fn predict_path(
        &self,
        circle: Circle,
        velocity: Vec2,
        settings: &PredictSettings,
        legs: &mut Vec<PathLeg>,
    ) -> Result<Prediction, ShapeError> {
        predict_path(circle, velocity, &self.grid, settings, legs)
    }

    /// Put `entity`'s obstacles in the grid: in place when it has as many parts as before
    /// (a moved wall keeps its ids), else anew.
    fn upsert(&mut self, entity: Entity, parts: &[Part]) -> Result<(), ShapeError> {
        for p in parts {
            p.obstacle.validate()?;
        }
        let obstacles = parts.iter().map(|p| p.obstacle);
        let same_count = self.ids.get(&entity).is_some_and(|ids| ids.len() == parts.len());
        if !same_count {
            self.remove(entity);
        }
        let mut ids = self.ids.remove(&entity).unwrap_or_default();
        for (part, (obstacle, ends)) in obstacles.zip(parts.iter().map(|p| p.ends)).enumerate() {
            let one_way = usize::from(is_one_way(&obstacle));
            let id = match ids.get(part) {
                Some(&id) => {
                    if let Some(old) = self.grid.replace(id, obstacle)? {
                        self.one_way = self.one_way - usize::from(is_one_way(&old)) + one_way;
                    }
                    id
                }
                None => {
                    let id = self.grid.insert(obstacle)?;
                    self.one_way += one_way;
                    ids.push(id);
                    id
                }
            };
            let slot = id.0 as usize;
            if self.entities.len() <= slot {
                self.entities.resize(slot + 1, None);
            }
            self.entities[slot] = Some(ObstaclePart {
                entity,
                part: part as u32,
                ends,
            });
        }
        self.ids.insert(entity, ids);
        Ok(())
    }

    fn remove(&mut self, entity: Entity) {
        self.polygons.remove(&entity);
        for id in self.ids.remove(&entity).into_iter().flatten() {
            if let Some(old) = self.grid.remove(id) {
                self.one_way -= usize::from(is_one_way(&old));
            }
            if let Some(slot) = self.entities.get_mut(id.0 as usize) {
                *slot = None;
            }
        }
    }
}

/// An obstacle's parts, and whether it moves (kinematic, a hinge or a hinge's part: then
/// it is not in the grid).
type StaticParts = (ObstacleParts, Has<Kinematic>, Has<Hinge>, Has<HingePart>);

/// Static segments, pillars and shapes.
type IsObstacle = Or<(With<StaticSegment>, With<Pillar>, With<CcdShape>)>;

/// What places an entity in the world: its own `Transform` and its parent, with their
/// change ticks. Both optional, so that an ancestor without a `Transform` is found (and
/// refused) rather than skipped.
type Placement<'a> = (Option<Ref<'a, Transform>>, Option<Ref<'a, ChildOf>>);

/// The most ancestors an obstacle's pose is composed over: far more than any real scene
/// nests, so a longer chain is a loop of `ChildOf`s (which has no pose) or a mistake.
const MAX_ANCESTORS: usize = 1_024;

/// Why an obstacle's ancestors give it no pose.
const NO_PLACEMENT: ShapeError = ShapeError::OutOfRange {
    field: "ChildOf",
    range: "a chain of ancestors that ends at a root (no loop), each with a Transform",
};

type ObstacleChanged = Or<(
    Changed<StaticSegment>,
    Changed<Pillar>,
    Changed<CcdShape>,
    Changed<Transform>,
    Changed<ChildOf>,
    Changed<CcdMaterial>,
    Changed<Kicker>,
    Changed<CcdLayers>,
    Added<OneSided>,
    Added<CcdSensor>,
    Added<Kinematic>,
    Added<Hinge>,
    Added<HingePart>,
)>;

/// Entities that lost an obstacle component since the last sync. Filled by observers, so
/// nothing is missed when several frames pass between two fixed steps (the per-frame
/// `RemovedComponents` buffer would have expired by then).
#[derive(Resource, Default, Debug)]
pub(crate) struct PendingRemovals(Vec<Entity>);

/// Observer: remember that `T` left an entity.
pub(crate) fn note_removal<T: Component>(event: On<Remove, T>, mut pending: ResMut<PendingRemovals>) {
    pending.0.push(event.entity);
}

/// Entities that lost their parent since the last sync: each, and every obstacle below
/// it, is now placed without that parent, though no `Transform` changed.
#[derive(Resource, Default, Debug)]
pub(crate) struct LetGo(Vec<Entity>);

/// Observer: remember that an entity lost its parent.
pub(crate) fn note_let_go(event: On<Remove, ChildOf>, mut let_go: ResMut<LetGo>) {
    let_go.0.push(event.entity);
}

/// Whether `entity`'s place in the world may have changed since the last sync: its own or
/// an ancestor's `Transform` or parent changed (a re-parented ancestor's `ChildOf`
/// changes). A chain that cannot be followed to its root counts as changed, so that the
/// sync refuses it.
fn placement_changed(entity: Entity, placements: &Query<Placement<'static>>) -> bool {
    let mut next = entity;
    for _ in 0..=MAX_ANCESTORS {
        let Ok((transform, parent)) = placements.get(next) else {
            return true;
        };
        if transform.is_none_or(|t| t.is_changed()) || parent.as_ref().is_some_and(|p| p.is_changed()) {
            return true;
        }
        match parent {
            Some(p) => next = p.parent(),
            None => return false,
        }
    }
    true
}

/// `entity`'s pose in the world, composed from its own `Transform` and its ancestors', as
/// Bevy's propagation will set its `GlobalTransform` later in the frame.
fn world_transform(
    entity: Entity,
    placements: &Query<Placement<'static>>,
) -> Result<GlobalTransform, ShapeError> {
    let mut global = GlobalTransform::IDENTITY;
    let mut next = entity;
    for _ in 0..=MAX_ANCESTORS {
        let Ok((Some(transform), parent)) = placements.get(next) else {
            return Err(NO_PLACEMENT);
        };
        global = *transform * global;
        match parent {
            Some(p) => next = p.parent(),
            None => return Ok(global),
        }
    }
    Err(NO_PLACEMENT)
}

/// What changed since the last sync: the obstacles added or changed, those that lost a
/// component, and where obstacles are in the hierarchy (those with a parent, each entity's
/// placement, and the children to search below an entity that lost its parent).
#[derive(SystemParam)]
pub(crate) struct Changes<'w, 's> {
    changed: Query<'w, 's, Entity, (IsObstacle, ObstacleChanged)>,
    removed: ResMut<'w, PendingRemovals>,
    parented: Query<'w, 's, Entity, (IsObstacle, With<ChildOf>)>,
    placements: Query<'w, 's, Placement<'static>>,
    children: Query<'w, 's, &'static Children>,
    obstacles: Query<'w, 's, (), IsObstacle>,
    let_go: ResMut<'w, LetGo>,
}

impl Changes<'_, '_> {
    /// Every entity to look at again, into `dirty`, sorted and once each (so the grid's ids,
    /// and every later tie-break, are the same run after run).
    fn dirty(&mut self, dirty: &mut Vec<Entity>) {
        dirty.clear();
        dirty.extend(self.changed.iter());
        dirty.append(&mut self.removed.0);
        // A child moves with its ancestors: walk each parented obstacle's chain (a pinball
        // table's walls on one table entity: one or two links each).
        let placements = &self.placements;
        dirty.extend(self.parented.iter().filter(|&e| placement_changed(e, placements)));
        // An entity let go of its parent carries every obstacle below it along.
        for let_go in self.let_go.0.drain(..) {
            let below = core::iter::once(let_go).chain(self.children.iter_descendants(let_go));
            dirty.extend(below.filter(|&e| self.obstacles.contains(e)));
        }
        dirty.sort_unstable();
        dirty.dedup();
    }
}

/// What the sync reuses from run to run: the entities to look at, and one entity's parts.
#[derive(Default)]
pub(crate) struct SyncScratch {
    dirty: Vec<Entity>,
    built: Vec<Part>,
}

/// Bring [`CcdWorld`] up to date with the entities added, changed or removed since the
/// last run, each placed by its `Transform` and its ancestors' as they are now (see the
/// module's note). Runs in [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare).
pub(crate) fn sync_world(
    mut world: ResMut<CcdWorld>,
    parts: Query<StaticParts>,
    mut changes: Changes,
    mut scratch: Local<SyncScratch>,
    mut commands: Commands,
) {
    let SyncScratch { dirty, built } = &mut *scratch;
    changes.dirty(dirty);
    if dirty.is_empty() {
        // A step without an edit: pack the grid for its queries, once (see `Grid::pack`;
        // the packing is a cache of the cells, no change of the world).
        if !world.grid.is_packed() {
            world.bypass_change_detection().grid.pack();
        }
        return;
    }
    for &entity in dirty.iter() {
        // Kinematic and hinged obstacles move every step: they live in `Kinematics`, not
        // the grid.
        let Ok((p, false, false, false)) = parts.get(entity) else {
            world.remove(entity);
            continue;
        };
        let transform = world_transform(entity, &changes.placements);
        let placed = transform
            .map_err(|error| ("ChildOf", error))
            .and_then(|transform| world.place(entity, &p, &transform, built));
        match placed {
            Ok(true) if p.invalid => {
                commands.entity(entity).try_remove::<CcdInvalid>();
            }
            Ok(_) => {}
            Err((field, error)) => {
                world.remove(entity);
                // Composed with its ancestors: its origin and axes (a scale of 0 has no
                // rotation to quote).
                let placement = || {
                    let (t, m) = (transform.ok()?, transform.ok()?.affine().matrix3);
                    let quote = || {
                        format!(
                            "translation {}, x axis {}, y axis {}",
                            t.translation(),
                            m.x_axis,
                            m.y_axis
                        )
                    };
                    (field == "GlobalTransform").then(quote)
                };
                let reason = quoted(error, p.given(field).or_else(placement));
                crate::components::mark_invalid(&mut commands, entity, p.invalid, field, reason);
            }
        }
    }
}

impl CcdWorld {
    /// Put static obstacle `entity` (with components `p`) where `transform` places it, its
    /// parts built in `built`, with its solid polygons: `Ok(true)`; `Ok(false)` when it has
    /// no shape now (it is removed).
    fn place(
        &mut self,
        entity: Entity,
        p: &ObstaclePartsItem,
        transform: &GlobalTransform,
        built: &mut Vec<Part>,
    ) -> Result<bool, (&'static str, ShapeError)> {
        let place = |local: Vec2| transform.transform_point(local.extend(0.0)).truncate();
        let center = transform.translation().truncate();
        let m = transform.affine().matrix3;
        let at = ShapePlacement {
            place: &place,
            angle: m.x_axis.y.atan2(m.x_axis.x),
            scale: Vec2::new(m.x_axis.truncate().length(), m.y_axis.truncate().length()),
            mirrored: m.x_axis.x * m.y_axis.y - m.x_axis.y * m.y_axis.x < 0.0,
            field: "GlobalTransform",
        };
        built.clear();
        let Some(result) = p.build(&at, center, built) else {
            self.remove(entity);
            return Ok(false);
        };
        result.and_then(|()| self.upsert(entity, built).map_err(|e| ("obstacle", e)))?;
        if let Some(shape) = p.shape.filter(|_| p.segment.is_none() && p.pillar.is_none()) {
            let mut solids = Vec::new();
            polygons_of(shape, &place, &mut solids);
            if solids.is_empty() {
                self.polygons.remove(&entity);
            } else {
                self.polygons.insert(entity, solids);
            }
        }
        Ok(true)
    }
}
