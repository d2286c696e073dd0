//! The aim line: the ball's path for the next contacts, predicted by stepping a copy of
//! the room ahead with the core's own [`step_balls`], step by step at the fixed rate,
//! exactly as the plugin will step it if the player changes nothing:
//! - the walls turn at the room's rate, and turn faster after each predicted block, as
//!   the rules will make them;
//! - the gates are on for the steps a tap has left them, then off;
//! - each step's walls are placed as the plugin places a kinematic body (its angle read
//!   back from the rotation it writes), so the predicted contacts are the ones the game
//!   will have.
//!
//! The prediction stops at its contact budget, at its step budget, or where the ball
//! leaves the room (through an open gate, in play).

use crate::room::{LastLeg, RoomDef, Wall, gate_kicker};
use bevy::math::{EulerRot, Quat};
use bevy::prelude::*;
use bevy_circle_ccd::ccd_core::{
    Ball, Contact, ContactWith, Material, MovingObstacle, MultiballScratch, MultiballSettings, Obstacle,
    Segment, SegmentMotion, step_balls,
};
use ccd_core::MultiballStep;

/// Where the ball and the room are now, between two fixed steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// The ball's centre and velocity, world frame.
    pub center: Vec2,
    pub velocity: Vec2,
    pub radius: f32,
    pub max_speed: f32,
    /// The room's angle, radians (as [`crate::room::angle_of`] reads it).
    pub angle: f32,
    /// Blocks so far this game (the room's turn rate follows them).
    pub blocks: u64,
    /// Steps the gates stay on.
    pub gate_steps: u32,
    /// The fixed step, seconds.
    pub dt: f32,
    /// The plugin's step settings, as it builds them.
    pub settings: MultiballSettings,
}

/// How far to look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Horizon {
    /// Stop after this many contacts.
    pub contacts: usize,
    /// Stop after this many fixed steps.
    pub steps: u32,
}

/// One predicted contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PredictedContact {
    /// The fixed step it happens in, counting from 0 (the coming step).
    pub step: u32,
    /// Seconds from now.
    pub time: f32,
    /// The ball's centre at the contact, and the point on the wall.
    pub center: Vec2,
    pub point: Vec2,
    /// The wall's normal there, towards the ball.
    pub normal: Vec2,
    pub wall: Wall,
}

/// Where the ball leaves the room.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exit {
    /// The step it leaves in (counting from 0), and the wall it crossed.
    pub step: u32,
    pub wall: Wall,
    /// Whether that wall was on (a fault if the game ever did this).
    pub wall_on: bool,
    /// Seconds from now to the end of that step.
    pub time: f32,
}

/// The predicted path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Forecast {
    /// The contacts, in order.
    pub contacts: Vec<PredictedContact>,
    /// The centre's path: the start, every contact, every step's end.
    pub path: Vec<Vec2>,
    /// Where it leaves the room, if it does within the horizon.
    pub exit: Option<Exit>,
    /// Steps predicted.
    pub steps: u32,
}

/// The walls in the plugin's order (the entities' order: [`Wall::ALL`]'s), as moving
/// obstacles for one step from `angle`, turning by `turn`; the gates only when on.
fn walls_for_step(
    def: &RoomDef,
    angle: f32,
    turn: f32,
    gates_on: bool,
    out: &mut Vec<(Wall, MovingObstacle)>,
) {
    out.clear();
    let motion = SegmentMotion {
        pivot: Vec2::ZERO,
        angle: turn,
        pivot_motion: Vec2::ZERO,
    };
    let rotation = Vec2::from_angle(angle);
    for wall in Wall::ALL {
        if wall.is_gate() && !gates_on {
            continue;
        }
        let line = wall.line(def.half_size);
        let segment = Segment::new(rotation.rotate(line.a), rotation.rotate(line.b));
        let obstacle = if wall.is_gate() {
            let kick = gate_kicker(def).into();
            Obstacle::segment(segment)
                .with_one_sided(true)
                .with_material(Material::ELASTIC.with_kick(kick))
        } else {
            Obstacle::segment(segment)
        };
        out.push((wall, MovingObstacle::new(obstacle, motion)));
    }
}

/// The angle the plugin will read back after turning a body at `angle` by `turn`: it
/// writes `Quat::from_rotation_z(angle + turn)` and reads the z Euler angle of that.
#[must_use]
pub fn next_angle(angle: f32, turn: f32) -> f32 {
    Quat::from_rotation_z(angle + turn).to_euler(EulerRot::ZYX).0
}

/// Predict the ball's path from `now` over `horizon`.
#[must_use]
pub fn predict(def: &RoomDef, now: &Snapshot, horizon: Horizon) -> Forecast {
    let mut ball = Ball::new(now.center, now.velocity, now.radius);
    ball.max_speed = now.max_speed;
    let mut balls = [ball];
    let (mut angle, mut blocks) = (now.angle, now.blocks);
    let mut scratch = MultiballScratch::default();
    let mut walls = Vec::with_capacity(Wall::ALL.len());
    let mut moving = Vec::with_capacity(Wall::ALL.len());
    let mut forecast = Forecast {
        path: vec![now.center],
        ..Forecast::default()
    };
    let none: [Obstacle; 0] = [];
    for step in 0..horizon.steps {
        let gates_on = step < now.gate_steps;
        let turn = def.spin_after(blocks) * now.dt;
        walls_for_step(def, angle, turn, gates_on, &mut walls);
        moving.clear();
        moving.extend(walls.iter().map(|(_, m)| *m));
        let start = crate::room::to_room(balls[0].center, angle);
        let mut step_contacts: Vec<Contact> = Vec::new();
        step_balls(
            MultiballStep::new(&mut balls, now.dt, &none[..]).with_moving(&mut moving),
            &now.settings,
            &mut scratch,
            |c| {
                step_contacts.push(*c);
            },
        );
        let before = step as f32 * now.dt;
        let mut last = 0.0;
        for c in &step_contacts {
            let ContactWith::Moving(k) = c.with else {
                continue;
            };
            let Some(&(wall, _)) = walls.get(k) else {
                continue;
            };
            blocks += u64::from(wall.is_gate());
            last = c.time;
            forecast.path.push(c.hit.center);
            forecast.contacts.push(PredictedContact {
                step,
                time: before + c.time,
                center: c.hit.center,
                point: c.hit.point,
                normal: c.hit.normal,
                wall,
            });
        }
        angle = next_angle(angle, turn);
        forecast.path.push(balls[0].center);
        forecast.steps = step + 1;
        let leg = LastLeg {
            end: balls[0].center,
            velocity: balls[0].velocity,
            seconds: now.dt - last,
            angle,
            spin: turn / now.dt,
        };
        if Wall::crossed(start, def.half_size).is_none()
            && let Some(wall) = leg.exit(def.half_size)
        {
            forecast.exit = Some(Exit {
                step,
                wall,
                wall_on: !wall.is_gate() || gates_on,
                time: (step + 1) as f32 * now.dt,
            });
            break;
        }
        if forecast.contacts.len() >= horizon.contacts {
            break;
        }
    }
    forecast
}

/// What a prediction reads of the world now.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Now<'w, 's> {
    room: Res<'w, super::state::Room>,
    game: Res<'w, super::state::Game>,
    gates: Res<'w, super::state::Gates>,
    time: Res<'w, Time<Fixed>>,
    settings: Res<'w, bevy_circle_ccd::prelude::CcdSettings>,
    transforms: Query<'w, 's, &'static Transform>,
    balls: Query<
        'w,
        's,
        (
            &'static bevy_circle_ccd::prelude::MovingCircle,
            Option<&'static bevy_circle_ccd::prelude::CcdMaxSpeed>,
        ),
    >,
}

impl Now<'_, '_> {
    /// The room's definition.
    pub fn def(&self) -> &RoomDef {
        &self.room.def
    }

    /// Whether a game is on.
    pub fn playing(&self) -> bool {
        self.game.playing
    }

    /// The snapshot to predict from, if the ball is there.
    pub fn snapshot(&self) -> Option<Snapshot> {
        let entities = &self.room.entities;
        let angle = self
            .transforms
            .get(entities.walls[0])
            .map_or(0.0, crate::room::angle_of);
        let center = self.transforms.get(entities.ball).ok()?.translation.truncate();
        let (circle, limit) = self.balls.get(entities.ball).ok()?;
        let dt = self.time.timestep().as_secs_f32();
        let s = &*self.settings;
        Some(Snapshot {
            center,
            velocity: circle.velocity,
            radius: circle.radius,
            max_speed: limit.map_or(f32::INFINITY, |m| m.0),
            angle,
            blocks: self.game.score,
            gate_steps: self.gates.steps_left,
            dt,
            settings: MultiballSettings {
                gravity: s.gravity,
                ball_ball: s.ball_ball,
                max_bounces: s.max_bounces,
                max_events: s.max_events,
                resting_speed: s.resting_speed_for(dt),
            },
        })
    }
}

/// The aim line: on or off, how many contacts it shows, the state it starts from (the
/// last fixed step's), and its forecast.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct AimLine {
    pub on: bool,
    pub contacts: usize,
    pub forecast: Forecast,
    /// The state after the last fixed step, while a game is on and the line is shown.
    from: Option<Snapshot>,
    /// Whether `from` changed since the forecast was made.
    stale: bool,
}

/// Contacts the aim line shows by default.
pub const AIM_CONTACTS: usize = 10;
/// The longest the aim line looks ahead, seconds (a slow ball's ten contacts may take
/// longer; the line then ends where the time runs out).
pub const AIM_SECONDS: f32 = 4.0;

impl Default for AimLine {
    fn default() -> Self {
        Self {
            on: true,
            contacts: AIM_CONTACTS,
            forecast: Forecast::default(),
            from: None,
            stale: false,
        }
    }
}

/// Notes the state the aim line starts from, after every fixed step.
pub fn note_aim(now: Now, mut aim: ResMut<AimLine>) {
    aim.from = if aim.on && now.playing() {
        now.snapshot()
    } else {
        None
    };
    aim.stale = true;
}

/// Predicts the aim line once a frame (not once a fixed step: a frame may run several),
/// from the last fixed step's state.
pub fn update_aim(room: Res<super::state::Room>, mut aim: ResMut<AimLine>) {
    if !aim.stale {
        return;
    }
    aim.stale = false;
    aim.forecast = match aim.from {
        Some(from) => {
            let horizon = Horizon {
                contacts: aim.contacts,
                steps: (AIM_SECONDS / from.dt).ceil() as u32,
            };
            predict(&room.def, &from, horizon)
        }
        None => Forecast::default(),
    };
}
