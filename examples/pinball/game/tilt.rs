//! Nudging and the tilt. A nudge shoves the cabinet: every ball on the table takes the
//! table's jolt as a change of velocity (the `nudge_speed` of the table file). The tilt
//! bob swings with each nudge (+1) and settles at a steady rate; past the warning level
//! the game warns, past the tilt level the ball is tilted: the flippers go dead, and the
//! ball ends without its bonus when it drains.

use crate::game::rules::{PlayState, Requests};
use crate::table::Table;
use crate::table::parts::{Ball, Controls};
use crate::table::saucer::Held;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// Apply a requested nudge, move the tilt bob, and keep the flippers dead after a tilt.
/// Runs after the inputs are in and before the flippers move.
pub fn nudge_and_tilt(
    time: Res<Time>,
    table: Res<Table>,
    mut requests: ResMut<Requests>,
    mut controls: ResMut<Controls>,
    play: PlayState,
    mut balls: Query<&mut MovingCircle, (With<Ball>, Without<Held>)>,
) {
    let PlayState {
        mut game,
        mut progress,
        mut stats,
    } = play;
    let rules = &table.def.playfield.rules;
    progress.tilt_bob = (progress.tilt_bob - rules.tilt_settle_per_second * time.delta_secs()).max(0.0);
    if let Some(nudge) = requests.nudge.take()
        && !game.game_over
        && !progress.tilted
    {
        for mut c in &mut balls {
            c.velocity += nudge.direction() * rules.nudge_speed;
        }
        stats.nudges += 1;
        progress.tilt_bob += 1.0;
        if progress.tilt_bob >= rules.tilt_level {
            progress.tilted = true;
            game.message = "TILT".into();
            stats.tilts += 1;
        } else if progress.tilt_bob >= rules.tilt_warning_level {
            game.message = "DANGER".into();
            stats.tilt_warnings += 1;
        }
    }
    if progress.tilted {
        controls.left = false;
        controls.right = false;
    }
}
