//! `--screenshot`: the smoke screenshot of the window after `--frames` frames of
//! autoplay; with `--screenshot-when`, it waits for a moment of play worth a picture (a
//! ball on the wire ramp, multiball, a ball in the top lanes), played by the autoplayer.

use crate::game::rules::Requests;
use crate::support::{SmokeGate, SmokeScreenshotPlugin};
use crate::table::Table;
use crate::table::parts::Ball;
use crate::table::ramp::ON_RAMP;
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::Segment;
use bevy_circle_ccd::prelude::*;
use std::path::PathBuf;

/// `--screenshot`: save `path` after `frames` frames (held until `when`, if given), with
/// a new game started at once.
pub fn add_screenshot(app: &mut App, path: PathBuf, frames: u32, when: Option<Moment>) {
    app.add_plugins(SmokeScreenshotPlugin { path, frames });
    if let Some(m) = when {
        app.insert_resource(SmokeGate(false))
            .insert_resource(m)
            .add_systems(Update, open_at_moment);
    }
    app.world_mut().resource_mut::<Requests>().new_game = true;
}

/// A moment of play for the screenshot.
#[derive(clap::ValueEnum, Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// A ball has been on the wire ramp for [`RAMP_SETTLE`].
    Ramp,
    /// At least [`MULTIBALL_BALLS`] balls are out of the plunger lane.
    Multiball,
    /// A ball is in a top rollover lane, within [`LANE_REACH`] of its switch.
    Lanes,
}

/// Seconds a ball stays on the ramp before the picture, so it is up the ramp, not in its
/// mouth.
const RAMP_SETTLE: f32 = 0.15;
/// Balls on the playfield that make a multiball picture.
const MULTIBALL_BALLS: usize = 2;
/// How near a top lane's switch a ball's edge must be, mm.
const LANE_REACH: f32 = 10.0;
/// The longest the picture waits for its moment, seconds of play; then it is taken anyway,
/// with a warning.
const MOMENT_DEADLINE: f32 = 900.0;

/// Opens the screenshot's gate when the moment has come.
pub fn open_at_moment(
    moment: Res<Moment>,
    mut gate: ResMut<SmokeGate>,
    mut on_ramp_since: Local<Option<f32>>,
    time: Res<Time>,
    table: Res<Table>,
    balls: Query<(&Transform, &MovingCircle, &CcdLayers), With<Ball>>,
) {
    if gate.0 {
        return;
    }
    let now = time.elapsed_secs();
    let centres = || {
        balls
            .iter()
            .map(|(tf, c, l)| (tf.translation.truncate(), c.radius, *l))
    };
    let here = match *moment {
        Moment::Ramp => {
            let on_ramp = centres().any(|(_, _, l)| l == ON_RAMP);
            *on_ramp_since = on_ramp.then(|| on_ramp_since.unwrap_or(now));
            on_ramp_since.is_some_and(|t| now - t >= RAMP_SETTLE)
        }
        Moment::Multiball => {
            let out = centres().filter(|(p, _, _)| !table.def.in_plunger_lane(*p));
            out.count() >= MULTIBALL_BALLS
        }
        Moment::Lanes => centres().any(|(p, r, _)| {
            table.def.playfield.top_lanes.iter().any(|lane| {
                let line = Segment::new(crate::table::v(lane.a), crate::table::v(lane.b));
                line.closest_point(p).distance(p) <= r + LANE_REACH
            })
        }),
    };
    if here {
        info!("screenshot: the {moment:?} moment at {now:.1} s");
        gate.0 = true;
    } else if now > MOMENT_DEADLINE {
        warn!("screenshot: no {moment:?} moment in {MOMENT_DEADLINE} s; taking it anyway");
        gate.0 = true;
    }
}
