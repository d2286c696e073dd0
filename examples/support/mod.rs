#![allow(
    dead_code,
    reason = "each example uses a different part of this shared module"
)]
//! Shared by the windowed examples: the `--screenshot PATH --frames N` smoke mode, and the
//! labs' balls ([`LabBall`]); and for the games, their high-score tables
//! (`highscores.rs`), their data files' fingerprints (`fingerprint.rs`) and their shared
//! command-line values (`cli.rs`).

pub mod cli;
pub mod fingerprint;
pub mod highscores;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::winit::WinitSettings;
use bevy_circle_ccd::CcdFaults;
use bevy_circle_ccd::TransformInterpolation;
use bevy_circle_ccd::prelude::{CcdMaterial, CcdSettings, MovingCircle};
use std::path::PathBuf;

/// `Circle` is taken by the CCD shape; Bevy's primitive under another name.
#[allow(non_snake_case)]
pub fn Circle2d(radius: f32) -> bevy::math::primitives::Circle {
    bevy::math::primitives::Circle::new(radius)
}

/// A lab's ball: its radius and CCD material, and its mesh and colour, made once and
/// shared by every ball the lab spawns.
#[derive(Resource)]
pub struct LabBall {
    /// The radius, world units.
    pub radius: f32,
    /// Its restitution and friction.
    pub material: CcdMaterial,
    /// A disc of the radius.
    pub mesh: Handle<Mesh>,
    /// Its colour.
    pub color: Handle<ColorMaterial>,
}

impl LabBall {
    /// A ball of `radius` and `material`, drawn as a disc of `color`.
    pub fn new(
        radius: f32,
        material: CcdMaterial,
        color: Color,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<ColorMaterial>,
    ) -> Self {
        Self {
            radius,
            material,
            mesh: meshes.add(Circle2d(radius)),
            color: materials.add(color),
        }
    }

    /// Spawns one at `at` (drawn at depth 2) moving at `velocity`, its drawing
    /// interpolated between fixed steps.
    pub fn spawn(&self, commands: &mut Commands, at: Vec2, velocity: Vec2) -> Entity {
        commands
            .spawn((
                MovingCircle::new(self.radius, velocity),
                self.material,
                Mesh2d(self.mesh.clone()),
                MeshMaterial2d(self.color.clone()),
                Transform::from_translation(at.extend(2.0)),
                TransformInterpolation,
            ))
            .id()
    }
}

/// Plays `frames` frames, saves a PNG of the window to `path`, then exits: with code 0, or
/// with an error if the plugin's audit (turned on here) found a ball inside a surface.
/// An example that waits for a moment of play inserts a closed [`SmokeGate`] and opens it
/// when the moment comes; the picture is taken at the first frame past `frames` with the
/// gate open.
pub struct SmokeScreenshotPlugin {
    /// Where the PNG goes.
    pub path: PathBuf,
    /// Frames to play first.
    pub frames: u32,
}

/// Whether the screenshot may be taken (absent: as soon as the frames are played).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct SmokeGate(pub bool);

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
            .add_systems(Startup, audit_every_step)
            .add_systems(Last, take_screenshot);
    }
}

fn take_screenshot(
    mut target: ResMut<SmokeTarget>,
    gate: Option<Res<SmokeGate>>,
    mut frame: Local<u32>,
    mut commands: Commands,
) {
    *frame += 1;
    let closed = gate.is_some_and(|g| !g.0);
    if target.requested || *frame < target.frames || closed {
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
        .observe(
            |_: On<ScreenshotCaptured>, faults: Option<Res<CcdFaults>>, mut exit: MessageWriter<AppExit>| {
                exit.write(verdict(faults.as_deref()));
            },
        );
}

/// The smoke run audits every step.
fn audit_every_step(settings: Option<ResMut<CcdSettings>>) {
    if let Some(mut settings) = settings {
        settings.audit = true;
    }
}

/// Success, or an error (after saying why) if the audit found a fault.
fn verdict(faults: Option<&CcdFaults>) -> AppExit {
    match faults {
        Some(f) if f.count > 0 => {
            error!(
                "smoke: {} faults (deepest inside a surface {}; the last: {:?})",
                f.count, f.deepest, f.last
            );
            AppExit::error()
        }
        Some(f) => {
            info!(
                "smoke: {} steps audited, no fault (deepest inside a surface {})",
                f.steps, f.deepest
            );
            AppExit::Success
        }
        None => AppExit::Success,
    }
}
