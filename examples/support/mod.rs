#![allow(
    dead_code,
    reason = "each example uses a different part of this shared module"
)]
//! Shared by the windowed examples: the `--screenshot PATH --frames N` smoke mode.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::winit::WinitSettings;
use std::path::PathBuf;

/// Plays `frames` frames, saves a PNG of the window to `path`, then exits with code 0.
pub struct SmokeScreenshotPlugin {
    /// Where the PNG goes.
    pub path: PathBuf,
    /// Frames to play first.
    pub frames: u32,
}

#[derive(Resource)]
struct SmokeTarget {
    path: PathBuf,
    frames: u32,
    requested: bool,
}

impl Plugin for SmokeScreenshotPlugin {
    fn build(&self, app: &mut App) {
        // Keep rendering even without input events (Xvfb sends none).
        app.insert_resource(WinitSettings::continuous())
            .insert_resource(SmokeTarget {
                path: self.path.clone(),
                frames: self.frames,
                requested: false,
            })
            .add_systems(Last, take_screenshot);
    }
}

fn take_screenshot(mut target: ResMut<SmokeTarget>, mut frame: Local<u32>, mut commands: Commands) {
    *frame += 1;
    if target.requested || *frame < target.frames {
        return;
    }
    target.requested = true;
    if let Some(dir) = target.path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    info!("smoke: frame {}, saving {}", *frame, target.path.display());
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(target.path.clone()))
        .observe(|_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            exit.write(AppExit::Success);
        });
}
