//! Where the last step left a body. Between two fixed steps a body drawn with
//! `TransformInterpolation` has its `Transform` eased from the step before to the last
//! one; its easing's end is where the last step put it. A system that asks the world a
//! question (`spatial.rs`, `predict.rs`) from `Update` reads that, not the eased pose;
//! inside the fixed schedule the easing has no end, and the `Transform` is the pose.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_transform_interpolation::{RotationEasingState, TranslationEasingState};

/// The bodies' easings, to read the poses the last step left.
#[derive(SystemParam)]
pub(crate) struct SteppedPoses<'w, 's> {
    easing: Query<
        'w,
        's,
        (
            Option<&'static TranslationEasingState>,
            Option<&'static RotationEasingState>,
        ),
    >,
}

impl SteppedPoses<'_, '_> {
    /// `entity`'s `transform` as the last step left it.
    pub(crate) fn of(&self, entity: Entity, transform: &Transform) -> Transform {
        let mut t = *transform;
        if let Ok((translation, rotation)) = self.easing.get(entity) {
            if let Some(end) = translation.and_then(|s| s.end) {
                t.translation = end;
            }
            if let Some(end) = rotation.and_then(|s| s.end) {
                t.rotation = end;
            }
        }
        t
    }
}
