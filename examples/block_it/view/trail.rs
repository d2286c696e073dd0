//! The ball's trail: its real path over the last moments, drawn fading behind it. The
//! path is taken from the steps (each contact's centre, each step's end), never from the
//! frames, so at any speed it bends where the ball bounced and never cuts through a wall.

use super::palette;
use crate::game::{Game, Room};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// How long the trail is, seconds of play.
const TRAIL_SECONDS: f32 = 0.12;

/// The trail's points, oldest first, with the game time each was passed at.
#[derive(Resource, Default)]
pub struct Trail(Vec<(f32, Vec2)>);

/// Adds the step's contacts and end to the trail (after the plugin's report).
pub fn record(
    mut trail: ResMut<Trail>,
    mut hits: MessageReader<CircleHit>,
    room: Res<Room>,
    game: Res<Game>,
    time: Res<Time<Fixed>>,
    transforms: Query<&Transform>,
) {
    let ball = room.entities.ball;
    if !game.playing {
        trail.0.clear();
        hits.clear();
        return;
    }
    let now = time.elapsed_secs();
    let start = now - time.delta_secs();
    let points = hits
        .read()
        .filter(|h| h.circle == ball)
        .map(|h| (start + h.time, h.center));
    trail.0.extend(points);
    if let Ok(tf) = transforms.get(ball) {
        trail.0.push((now, tf.translation.truncate()));
    }
    trail.0.retain(|(t, _)| now - *t <= TRAIL_SECONDS);
}

/// Draws the trail, fading from the ball's colour to nothing.
pub fn draw(mut gizmos: Gizmos, trail: Res<Trail>) {
    let Some(&(newest, _)) = trail.0.last() else {
        return;
    };
    let colour = |t: f32| {
        let fresh = 1.0 - ((newest - t) / TRAIL_SECONDS).clamp(0.0, 1.0);
        palette::BALL.with_alpha(fresh)
    };
    gizmos.linestrip_gradient_2d(trail.0.iter().map(|&(t, p)| (p, colour(t))));
}
