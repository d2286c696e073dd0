//! What the panel and F1 switch in the view.

use bevy::prelude::*;

/// What the panel and F1 switch.
#[derive(Resource, Clone, Copy, PartialEq)]
pub struct ViewToggles {
    pub gizmos: bool,
    pub prediction: bool,
    pub interpolation: bool,
}

impl Default for ViewToggles {
    fn default() -> Self {
        Self {
            gizmos: false,
            prediction: false,
            interpolation: true,
        }
    }
}
