//! The apps the harness runs: the game on any app ([`add_game`]: the plugin, the rules,
//! the tape and the fixed rate), and on MinimalPlugins for the headless mode and the
//! tests ([`headless_app`]). The window adds Bevy's default plugins, the looks, the input
//! and the panel to the first (`window.rs`).

use crate::game::{GamePlugin, GameSystems};
use crate::room::RoomDef;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_circle_ccd::prelude::*;

/// The game on any app: the plugin (with interpolation for a window), the rules, the
/// tape, the fixed rate.
pub fn add_game(app: &mut App, def: RoomDef, autoplay: bool, hz: u32, interpolation: bool) {
    app.add_plugins((
        // The game's rules run in `FixedUpdate`, ordered around the step.
        CircleCcdPlugin {
            interpolation,
            ..CircleCcdPlugin::new(FixedUpdate)
        },
        GamePlugin { def, autoplay },
    ))
    .add_systems(
        FixedUpdate,
        crate::game::tape::tape
            .in_set(GameSystems::Input)
            .after(crate::game::autoplay::play),
    )
    .insert_resource(Time::<Fixed>::from_hz(f64::from(hz)));
}

/// The room and rules on MinimalPlugins, one fixed step of `1/hz` s per `app.update()`
/// (the headless mode and the tests).
pub fn headless_app(def: RoomDef, autoplay: bool, hz: u32) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin));
    add_game(&mut app, def, autoplay, hz, false);
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    let mut schedules = app.world_mut().resource_mut::<bevy::ecs::schedule::Schedules>();
    // A headless step is microseconds of work: worker threads would cost more than it.
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
    // The first update runs the startup systems and starts the clocks, but no fixed step:
    // after it, every update is one step.
    app.update();
    app
}
