//! `--state-out FILE`: the game's state as RON, written when the app exits (the window
//! closed, any `AppExit`, the `--screenshot` smoke exit, the end of `--headless`) and, with
//! a window, on every press of F9, so a script driving the window with real input can read
//! the state while a key is held.
//!
//! The file is written to a temporary name beside it and renamed into place, so a reader
//! polling for it never sees half a file.

use crate::game::rules::Game;
use crate::game::stats::RunStats;
use crate::table::parts::{Ball, Controls, Flipper, PlungerShown};
use crate::table::{Side, Table, Tune, Tuning};
use bevy::ecs::system::{SystemParam, SystemState};
use bevy::prelude::*;
use bevy::window::ExitSystems;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The key that writes the state file while the game runs.
pub const SNAPSHOT_KEY: KeyCode = KeyCode::F9;

/// What the state file holds.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameState {
    /// Why it was written: "F9" or "exit".
    pub reason: String,
    pub score: u64,
    pub game_over: bool,
    /// Games started (by N, the panel's button or the autoplayer).
    pub games: u32,
    /// The ball being played (1 for the first), 0 before the first game.
    pub ball_number: u32,
    /// `Ball` entities on the table.
    pub balls_in_play: u32,
    /// Of those, the ones in the plunger lane.
    pub balls_in_plunger_lane: u32,
    /// Balls served and drained since the start (run statistics).
    pub balls_served: u32,
    pub balls_drained: u32,
    /// Escapes, NaN, faults the plugin's audit found, and ramp repairs since the start:
    /// each must be 0.
    pub escapes: u32,
    pub nan: u32,
    pub faults: u64,
    pub repairs: u32,
    pub flippers: Vec<FlipperState>,
    /// Whether the plunger button is held.
    pub plunger_held: bool,
    /// How far the plunger is pulled, 0 (rest) to 1 (full).
    pub plunger_pull: f32,
    /// The live tuning (the panel's sliders).
    pub tuning: Tuning,
}

/// One flipper.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FlipperState {
    /// "Left" or "Right".
    pub side: String,
    /// The bat's rise above its rest angle, degrees (0 at rest).
    pub theta_degrees: f32,
}

/// Where the state goes.
#[derive(Resource, Clone, Debug)]
pub struct StateOut(pub PathBuf);

/// Everything the state is read from.
#[derive(SystemParam)]
pub struct StateView<'w, 's> {
    game: Res<'w, Game>,
    table: Res<'w, Table>,
    tune: Res<'w, Tune>,
    controls: Res<'w, Controls>,
    stats: Res<'w, RunStats>,
    plunger: Option<Res<'w, PlungerShown>>,
    balls: Query<'w, 's, &'static Transform, With<Ball>>,
    flippers: Query<'w, 's, &'static Flipper>,
}

impl StateView<'_, '_> {
    /// The state now, written for `reason`.
    pub fn read(&self, reason: &str) -> GameState {
        let def = &self.table.def;
        let in_lane = self
            .balls
            .iter()
            .filter(|tf| def.in_plunger_lane(tf.translation.truncate()))
            .count();
        let mut flippers: Vec<FlipperState> = self
            .flippers
            .iter()
            .map(|f| FlipperState {
                side: side_name(f.side).into(),
                theta_degrees: f.theta.to_degrees(),
            })
            .collect();
        flippers.sort_by(|a, b| a.side.cmp(&b.side));
        GameState {
            reason: reason.into(),
            score: self.game.score,
            game_over: self.game.game_over,
            games: self.game.games,
            ball_number: self.game.ball_number,
            balls_in_play: count(self.balls.iter().count()),
            balls_in_plunger_lane: count(in_lane),
            balls_served: self.stats.served,
            balls_drained: self.stats.drained,
            escapes: self.stats.escapes,
            nan: self.stats.nan,
            faults: self.stats.faults,
            repairs: self.stats.repairs,
            flippers,
            plunger_held: self.controls.plunger,
            plunger_pull: self.plunger.as_ref().map_or(0.0, |p| p.0),
            tuning: self.tune.0.clone(),
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Left => "Left",
        Side::Right => "Right",
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Writes `state` to `path` as RON (through a temporary file renamed into place).
pub fn write(path: &Path, state: &GameState) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(state, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("state file {}: {e}", path.display()))?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("state file {}: {e}", path.display()))
}

/// Writes the state for `reason`, reporting a failure without stopping the game.
fn write_reporting(path: &Path, view: &StateView, reason: &str) {
    match write(path, &view.read(reason)) {
        Ok(()) => info!("state ({reason}) written to {}", path.display()),
        Err(e) => eprintln!("pinball: cannot write the {e}"),
    }
}

/// Writes the state when the app exits (any `AppExit`, e.g. the window closed).
pub fn write_on_exit(mut exits: MessageReader<AppExit>, out: Option<Res<StateOut>>, view: StateView) {
    if exits.read().next().is_none() {
        return;
    }
    if let Some(out) = out {
        write_reporting(&out.0, &view, "exit");
    }
}

/// Writes the state on each press of [`SNAPSHOT_KEY`] (window only).
pub fn write_on_key(keys: Res<ButtonInput<KeyCode>>, out: Option<Res<StateOut>>, view: StateView) {
    if let Some(out) = out
        && keys.just_pressed(SNAPSHOT_KEY)
    {
        write_reporting(&out.0, &view, "F9");
    }
}

/// Writes the state of a headless app at its end. Returns false if it could not.
pub fn write_world(world: &mut World, path: &Path) -> bool {
    let mut system_state = SystemState::<StateView>::new(world);
    let state = match system_state.get(world) {
        Ok(view) => view.read("exit"),
        Err(e) => {
            eprintln!("pinball: cannot read the state for {}: {e}", path.display());
            return false;
        }
    };
    match write(path, &state) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("pinball: cannot write the {e}");
            false
        }
    }
}

/// With a window: the state file on exit and on F9.
pub struct StateOutPlugin(pub PathBuf);

impl Plugin for StateOutPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(StateOut(self.0.clone()))
            // After the window plugin's exit systems (also on `Last`), which write the
            // `AppExit` of a closed window: the app stops after this update.
            .add_systems(Last, (write_on_key, write_on_exit.after(ExitSystems)));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::table;

    const CLASSIC: &str = include_str!("../../../assets/tables/classic.ron");
    /// Fixed steps of autoplay before the state is read: 2 s at 1 kHz, long enough to
    /// serve and launch the first ball.
    const STEPS: u32 = 2000;

    #[test]
    fn the_state_file_reads_back_as_written() {
        let def = table::parse(CLASSIC).unwrap();
        let mut app = crate::harness::headless::headless_app(def.clone(), true, 1000.0);
        app.world_mut()
            .resource_mut::<crate::game::rules::Requests>()
            .new_game = true;
        for _ in 0..STEPS {
            app.update();
        }
        let dir = std::env::temp_dir().join(format!("pinball-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.ron");
        assert!(write_world(app.world_mut(), &path));
        let back: GameState = ron::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back.reason, "exit");
        assert_eq!(back.games, 1);
        assert!(!back.game_over);
        assert_eq!(back.ball_number, 1);
        assert!(back.balls_in_play >= 1, "{back:?}");
        let sides: Vec<&str> = back.flippers.iter().map(|f| f.side.as_str()).collect();
        assert_eq!(sides, ["Left", "Right"]);
        assert_eq!(back.tuning, def.tuning);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_names_the_file() {
        let path = std::env::temp_dir().join("pinball-no-such-dir").join("state.ron");
        let def = table::parse(CLASSIC).unwrap();
        let mut app = crate::harness::headless::headless_app(def, false, 1000.0);
        app.update();
        assert!(!write_world(app.world_mut(), &path));
        let state = app
            .world_mut()
            .run_system_cached(|view: StateView| view.read("test"))
            .unwrap();
        let e = write(&path, &state).unwrap_err();
        assert!(e.contains("pinball-no-such-dir"), "{e}");
    }
}
