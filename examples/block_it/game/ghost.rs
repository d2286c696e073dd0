//! The ghost ball: the pitch of the whole plugin. It flies beside the real ball by the
//! naive method most games use: each step, position plus velocity times dt, then a
//! push-out from any wall it overlaps (out along the normal to the nearest point, its
//! velocity reflected). A ball that moves further than its radius in a step can end a
//! step beyond a wall, where the push-out cannot see that it crossed, or pushes it out
//! the wrong side: it **tunnels**. Every tunnel (its centre found outside the room past a
//! wall that was on) is counted, and the ghost starts again from the real ball.
//!
//! The ghost sees the walls where they are at the step's end, and the gates while they
//! are on; a block by a gate makes it faster as the gate's kick does the real ball.

use super::rules::StepStart;
use super::state::{Game, Room};
use crate::room::{Ball, Wall, angle_of, to_room};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The ghost ball.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Ghost {
    /// Whether it flies (the panel's toggle).
    pub on: bool,
    /// Its centre and velocity, world frame; `None` until it starts from the real ball.
    pub state: Option<(Vec2, Vec2)>,
    /// Tunnels so far.
    pub tunnels: u64,
}

/// One naive step of a ball of radius `r` in a room of half side `h` standing at
/// `angle` (the gates on or off): the moved centre and velocity, and whether it ended
/// past a wall that was on (a tunnel). Everything in the room's frame is axis-aligned:
/// the push-out is per axis.
#[must_use]
pub fn naive_step(
    center: Vec2,
    velocity: Vec2,
    dt: f32,
    r: f32,
    h: f32,
    gates_on: bool,
    scale: f32,
) -> Naive {
    let mut p = center + velocity * dt;
    let mut v = velocity;
    let reach = h - r;
    // The solid walls, x = ±h: overlapping from inside, pushed back in and reflected.
    if p.x.abs() > reach && p.x.abs() <= h {
        p.x = reach.copysign(p.x);
        if v.x * p.x > 0.0 {
            v.x = -v.x;
        }
    }
    if gates_on && p.y.abs() > reach && p.y.abs() <= h {
        p.y = reach.copysign(p.y);
        if v.y * p.y > 0.0 {
            v.y = -v.y * scale;
            v.x *= scale;
        }
    }
    let crossed = Wall::exit(center, p, h);
    let tunnelled = crossed.is_some_and(|w| !w.is_gate() || gates_on);
    Naive {
        center: p,
        velocity: v,
        tunnelled,
        out: crossed.is_some(),
    }
}

/// What a naive step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Naive {
    pub center: Vec2,
    pub velocity: Vec2,
    /// Ended past a wall that was on.
    pub tunnelled: bool,
    /// Ended outside the room at all.
    pub out: bool,
}

/// Moves the ghost one step, in the room's frame at the step's end.
pub fn step_ghost(
    mut ghost: ResMut<Ghost>,
    room: Res<Room>,
    game: Res<Game>,
    start: Res<StepStart>,
    time: Res<Time<Fixed>>,
    walls: Query<&Transform, With<Wall>>,
    balls: Query<(&Transform, &MovingCircle), With<Ball>>,
) {
    let Ok((ball_tf, ball)) = balls.get(room.entities.ball) else {
        return;
    };
    if !ghost.on || !game.playing {
        ghost.state = None;
        return;
    }
    let angle = walls.iter().next().map_or(0.0, angle_of);
    let Some((center, velocity)) = ghost.state else {
        ghost.state = Some((ball_tf.translation.truncate(), ball.velocity));
        return;
    };
    let def = &room.def;
    let rotation = Vec2::from_angle(angle);
    let naive = naive_step(
        to_room(center, angle),
        to_room(velocity, angle),
        time.timestep().as_secs_f32(),
        ball.radius,
        def.half_size,
        start.gates_on,
        def.speed_scale_per_block,
    );
    ghost.tunnels += u64::from(naive.tunnelled);
    ghost.state = if naive.out {
        Some((ball_tf.translation.truncate(), ball.velocity))
    } else {
        Some((rotation.rotate(naive.center), rotation.rotate(naive.velocity)))
    };
}
