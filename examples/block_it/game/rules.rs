//! The rules, step by step:
//! - **before the step**: a new game puts the ball at the centre at the launch speed; a
//!   tap switches both gates on for the room's `gate_seconds` (a tap with no game on
//!   starts one); each gate carries its line exactly while it is on; the ball's place in
//!   the room's frame is noted;
//! - **after the step**: every hit on a gate is a block (one point; the gate's kick has
//!   already made the ball faster, at the impact) and the room turns faster; a ball whose
//!   centre has left the room ends the game, and is a **fault** unless it left through a
//!   gate that was off in that step.

use super::autoplay::Autoplay;
use super::state::{Game, Gates, Requests, Room, Tally};
use crate::room::{Ball, LastLeg, OUT_OF_PLAY, Wall, angle_of, to_room};
use crate::support::highscores::HighScores;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// A wall's pose and turn, as the rules read and set them.
type RoomWall = (&'static Transform, &'static mut Kinematic);

/// The ball and the room as the step starts.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStart {
    /// The ball's centre in the room's frame.
    pub center: Vec2,
    /// Whether the gates are on in this step.
    pub gates_on: bool,
    /// Whether a game is on.
    pub playing: bool,
}

/// Applies the step's requests: a new game, a tap.
pub fn apply_requests(
    mut requests: ResMut<Requests>,
    mut gates: ResMut<Gates>,
    mut game: ResMut<Game>,
    room: Res<Room>,
    time: Res<Time<Fixed>>,
    mut balls: Query<(&mut Transform, &mut MovingCircle, &mut CcdLayers), With<Ball>>,
    mut walls: Query<RoomWall, (With<Wall>, Without<Ball>)>,
) {
    let asked = std::mem::take(&mut *requests);
    let new_game = asked.new_game || (asked.tap && !game.playing);
    if new_game {
        let angle = walls.iter().next().map_or(0.0, |(t, _)| angle_of(t));
        if let Ok((mut tf, mut circle, mut layers)) = balls.get_mut(room.entities.ball) {
            tf.translation.x = 0.0;
            tf.translation.y = 0.0;
            circle.velocity = Vec2::from_angle(angle).rotate(room.def.launch_velocity());
            *layers = CcdLayers::ALL;
        }
        for (_, mut k) in &mut walls {
            *k = Kinematic::turning(room.def.spin_after(0));
        }
        *game = Game {
            score: 0,
            playing: true,
            over_for: 0.0,
            games: game.games + 1,
        };
        *gates = Gates::default();
    } else if asked.tap {
        gates.steps_left = room.def.gate_steps(time.timestep().as_secs_f64().recip());
    }
}

/// Each gate carries its line exactly while the gates are on.
pub fn switch_gates(
    gates: Res<Gates>,
    room: Res<Room>,
    walls: Query<(Entity, &Wall, Has<StaticSegment>)>,
    mut commands: Commands,
) {
    for (entity, wall, shaped) in &walls {
        if !wall.is_gate() || shaped == gates.on() {
            continue;
        }
        if gates.on() {
            commands.entity(entity).insert(wall.line(room.def.half_size));
        } else {
            commands.entity(entity).remove::<StaticSegment>();
        }
    }
}

/// Notes the ball's place in the room's frame, and the gates, as the step starts.
pub fn note_start(
    mut start: ResMut<StepStart>,
    gates: Res<Gates>,
    game: Res<Game>,
    room: Res<Room>,
    transforms: Query<&Transform>,
) {
    let angle = transforms.get(room.entities.walls[0]).map_or(0.0, angle_of);
    let center = transforms
        .get(room.entities.ball)
        .map_or(Vec2::ZERO, |t| t.translation.truncate());
    *start = StepStart {
        center: to_room(center, angle),
        gates_on: gates.on(),
        playing: game.playing,
    };
}

/// How a ball left the room, if it did in this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// Through a gate that was off: the game is over.
    OpenGate,
    /// Through a gate that was on: a fault.
    ActiveGate,
    /// Through a solid wall: a fault.
    Solid,
    /// Its centre was out of the room as the step started (placed there between steps):
    /// the game is over.
    AlreadyOut,
}

/// Whether and how a ball left a room of half side `h` in a step: it started the step at
/// `start` (room frame), and its last leg is `leg`; the gates were on or off in the step.
#[must_use]
pub fn left_room(start: Vec2, leg: &LastLeg, h: f32, gates_on: bool) -> Option<Left> {
    if Wall::crossed(start, h).is_some() {
        return Some(Left::AlreadyOut);
    }
    let wall = leg.exit(h)?;
    Some(match (wall.is_gate(), gates_on) {
        (false, _) => Left::Solid,
        (true, true) => Left::ActiveGate,
        (true, false) => Left::OpenGate,
    })
}

/// The game's books, as the step's watch keeps them.
#[derive(SystemParam)]
pub struct Books<'w> {
    gates: ResMut<'w, Gates>,
    game: ResMut<'w, Game>,
    tally: ResMut<'w, Tally>,
    scores: ResMut<'w, HighScores>,
    autoplay: Res<'w, Autoplay>,
}

/// After the step: blocks, speed, bounces, escapes and the game's end; then the gates'
/// count down.
pub fn watch_step(
    mut hits: MessageReader<CircleHit>,
    room: Res<Room>,
    start: Res<StepStart>,
    time: Res<Time<Fixed>>,
    mut books: Books,
    mut balls: Query<(&mut Transform, &mut MovingCircle, &mut CcdLayers), With<Ball>>,
    mut walls: Query<RoomWall, (With<Wall>, Without<Ball>)>,
) {
    let Books {
        gates,
        game,
        tally,
        scores,
        autoplay,
    } = &mut books;
    let ball = room.entities.ball;
    let (mut bounces, mut blocks, mut last) = (0_u32, 0_u64, None);
    for hit in hits.read().filter(|h| h.circle == ball && !h.sensor) {
        bounces += 1;
        blocks += u64::from(room.entities.wall(hit.other).is_some_and(Wall::is_gate));
        last = Some(hit.time);
    }
    let spin = walls.iter().next().map_or(0.0, |(_, k)| match *k {
        Kinematic::Velocity { angular, .. } => angular,
        Kinematic::FollowTransform => 0.0,
    });
    let dt = time.timestep().as_secs_f32();
    tally.steps += 1;
    tally.bounces_last_step = bounces;
    tally.most_bounces_in_a_step = tally.most_bounces_in_a_step.max(bounces);
    gates.steps_left = gates.steps_left.saturating_sub(1);
    if !game.playing {
        game.over_for += dt;
    }
    let Ok((mut tf, mut circle, mut layers)) = balls.get_mut(ball) else {
        return;
    };
    if blocks > 0 && start.playing {
        game.score += blocks;
        tally.blocks += blocks;
        tally.best_score = tally.best_score.max(game.score);
        for (_, mut k) in &mut walls {
            *k = Kinematic::turning(room.def.spin_after(game.score));
        }
    }
    let (center, velocity) = (tf.translation.truncate(), circle.velocity);
    let angle = walls.iter().next().map_or(0.0, |(t, _)| angle_of(t));
    let how = if !center.is_finite() || !velocity.is_finite() {
        tally.nan += 1;
        error!("block_it: FAULT: the ball went NaN: centre {center}, velocity {velocity}");
        tf.translation = Vec3::ZERO;
        circle.velocity = Vec2::ZERO;
        Some(None)
    } else if start.playing && game.playing {
        tally.speed = velocity.length();
        tally.top_speed = tally.top_speed.max(tally.speed);
        let leg = LastLeg {
            end: center,
            velocity,
            seconds: dt - last.unwrap_or(0.0),
            angle,
            spin,
        };
        left_room(start.center, &leg, room.def.half_size, start.gates_on).map(Some)
    } else {
        None
    };
    let Some(how) = how else {
        return;
    };
    match how {
        Some(Left::OpenGate | Left::AlreadyOut) => tally.lost_through_open_gate += 1,
        Some(Left::ActiveGate) => {
            tally.escapes_through_active_gate += 1;
            error!(
                "block_it: FAULT: the ball left through an active gate, from {} (room frame)",
                start.center
            );
        }
        Some(Left::Solid) => {
            tally.escapes_through_solid += 1;
            error!(
                "block_it: FAULT: the ball left through a solid wall, from {} (room frame)",
                start.center
            );
        }
        None => {}
    }
    *layers = OUT_OF_PLAY;
    if game.playing {
        scores.enter(game.score, autoplay.by());
    }
    game.playing = false;
    game.over_for = 0.0;
}
