//! [`CcdWorld`]: the static obstacles in a [`Grid`] broadphase, kept in sync with the ECS
//! incrementally (only added, changed and removed entities are touched).

use crate::query::ObstacleParts;
use crate::{
    CcdInvalid, CcdMaterial, CollisionLayers, Hinge, HingePart, Kicker, Kinematic, OneSided, Pillar, Sensor,
    StaticSegment,
};
use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use ccd_core::{Circle, Grid, Obstacle, ObstacleId, PredictSettings, Prediction, ShapeError, predict_path};

/// The broadphase of every [`StaticSegment`] and [`Pillar`], in world space.
///
/// The plugin keeps it up to date before each step. Read it to look obstacles up or to
/// predict a path, as an aiming guide does.
#[derive(Resource, Reflect, Default, Debug)]
#[reflect(Resource)]
pub struct CcdWorld {
    #[reflect(ignore)]
    grid: Grid,
    #[reflect(ignore)]
    ids: EntityHashMap<ObstacleId>,
    #[reflect(ignore)]
    entities: Vec<Option<Entity>>,
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
        self.entities.get(id.0 as usize).copied().flatten()
    }

    /// The world-space obstacle of an entity, if it is in the broadphase.
    #[must_use]
    pub fn obstacle(&self, entity: Entity) -> Option<&Obstacle> {
        self.ids.get(&entity).and_then(|id| self.grid.get(*id))
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

    /// Predict the path of `circle` moving at `velocity` through the obstacles (see
    /// [`ccd_core::predict_path`]).
    ///
    /// # Errors
    /// A [`ShapeError`] naming the bad input.
    pub fn predict_path(
        &self,
        circle: Circle,
        velocity: Vec2,
        settings: &PredictSettings,
        path: &mut Vec<Vec2>,
    ) -> Result<Prediction, ShapeError> {
        predict_path(circle, velocity, &self.grid, settings, path)
    }

    fn upsert(&mut self, entity: Entity, obstacle: Obstacle) -> Result<(), ShapeError> {
        if let Some(&id) = self.ids.get(&entity)
            && self.grid.replace(id, obstacle)?.is_some()
        {
            return Ok(());
        }
        let id = self.grid.insert(obstacle)?;
        self.ids.insert(entity, id);
        let slot = id.0 as usize;
        if self.entities.len() <= slot {
            self.entities.resize(slot + 1, None);
        }
        self.entities[slot] = Some(entity);
        Ok(())
    }

    fn remove(&mut self, entity: Entity) {
        if let Some(id) = self.ids.remove(&entity) {
            self.grid.remove(id);
            if let Some(slot) = self.entities.get_mut(id.0 as usize) {
                *slot = None;
            }
        }
    }
}

/// An obstacle's parts, its pose, and whether it moves (kinematic, a hinge or a hinge's
/// part: then it is not in the grid).
type StaticParts<'a> = (
    ObstacleParts,
    &'a GlobalTransform,
    Has<Kinematic>,
    Has<Hinge>,
    Has<HingePart>,
);

/// Static segments and pillars.
type IsObstacle = Or<(With<StaticSegment>, With<Pillar>)>;

type ObstacleChanged = Or<(
    Changed<StaticSegment>,
    Changed<Pillar>,
    Changed<GlobalTransform>,
    Changed<CcdMaterial>,
    Changed<Kicker>,
    Changed<CollisionLayers>,
    Added<OneSided>,
    Added<Sensor>,
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

/// Bring [`CcdWorld`] up to date with the entities added, changed or removed since the
/// last run. Runs in [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare).
pub(crate) fn sync_world(
    mut world: ResMut<CcdWorld>,
    changed: Query<Entity, (IsObstacle, ObstacleChanged)>,
    parts: Query<StaticParts>,
    mut removed: ResMut<PendingRemovals>,
    mut dirty: Local<Vec<Entity>>,
    mut commands: Commands,
) {
    dirty.clear();
    dirty.extend(changed.iter());
    dirty.append(&mut removed.0);
    if dirty.is_empty() {
        return;
    }
    // Sorted, so the grid's ids (and every later tie-break) are the same run after run.
    dirty.sort_unstable();
    dirty.dedup();
    for &entity in dirty.iter() {
        // Kinematic and hinged obstacles move every step: they live in `Kinematics`, not
        // the grid.
        let Ok((p, transform, false, false, false)) = parts.get(entity) else {
            world.remove(entity);
            continue;
        };
        let place = |local: Vec2| transform.transform_point(local.extend(0.0)).truncate();
        let center = transform.translation().truncate();
        let m = transform.affine().matrix3;
        let mirrored = m.x_axis.x * m.y_axis.y - m.x_axis.y * m.y_axis.x < 0.0;
        let Some(built) = p.build(place, center, "GlobalTransform", mirrored) else {
            world.remove(entity);
            continue;
        };
        let had_invalid = p.invalid;
        match built.and_then(|o| world.upsert(entity, o).map_err(|e| ("obstacle", e))) {
            Ok(()) => {
                if had_invalid {
                    commands.entity(entity).try_remove::<CcdInvalid>();
                }
            }
            Err((field, error)) => {
                world.remove(entity);
                crate::mark_invalid(&mut commands, entity, had_invalid, field, error);
            }
        }
    }
}
