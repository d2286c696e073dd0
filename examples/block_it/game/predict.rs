//! The aim line: the ball's path for the next contacts, predicted by the plugin's
//! [`CcdPredict`] (the room stepped ahead by the step's own code, at the fixed rate),
//! with the room's rules played by [`RoomRules`], its hook:
//! - the walls turn faster after each predicted block, as the rules will make them;
//! - the gates are on for the steps a tap has left them, then off;
//! - the ball leaving the room (through an open gate, in play) ends the prediction.
//!
//! The prediction stops at its contact budget, at its step budget, or where the ball
//! leaves the room.

use super::state::{Game, Gates, Room};
use crate::room::{LastLeg, RoomDef, RoomEntities, Wall, angle_of, to_room};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_circle_ccd::{CcdPredictedBall, CcdPrediction};
use core::ops::ControlFlow;

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

/// The room's rules in a prediction: blocks speed the walls' turn, the gates go off
/// when their steps run out, and the ball leaving the room ends it.
struct RoomRules<'a> {
    def: &'a RoomDef,
    entities: &'a RoomEntities,
    /// Blocks so far this game, and the steps the gates stay on.
    blocks: u64,
    gate_steps: u32,
    /// The fixed step, seconds.
    dt: f32,
    /// The step under way: the ball's start (room frame), the walls' turn rate, whether
    /// the gates are on, and the time of its last contact.
    start: Vec2,
    spin: f32,
    gates_on: bool,
    last: f32,
    /// Where the ball left the room.
    exit: Option<Exit>,
}

impl RoomRules<'_> {
    /// The room's angle where the prediction has it.
    fn angle(&self, parts: &CcdPredictedParts) -> f32 {
        parts.transform(self.entities.walls[0]).map_or(0.0, angle_of)
    }
}

impl CcdPredictHook for RoomRules<'_> {
    fn before_step(&mut self, ball: &CcdPredictedBall, parts: &mut CcdPredictedParts) {
        self.gates_on = ball.step < self.gate_steps;
        if !self.gates_on {
            for (&entity, wall) in self.entities.walls.iter().zip(Wall::ALL) {
                if wall.is_gate() {
                    parts.switch_off(entity);
                }
            }
        }
        self.start = to_room(ball.center, self.angle(parts));
        self.spin = match parts.kinematic(self.entities.walls[0]) {
            Some(Kinematic::Velocity { angular, .. }) => angular,
            _ => 0.0,
        };
        self.last = 0.0;
    }

    fn on_contact(&mut self, contact: &CcdPredictedContact, parts: &mut CcdPredictedParts) {
        if contact.hit.sensor {
            return;
        }
        self.last = contact.hit.time;
        if self.entities.wall(contact.hit.other).is_some_and(Wall::is_gate) {
            self.blocks += 1;
            let spin = Kinematic::turning(self.def.spin_after(self.blocks));
            for &wall in &self.entities.walls {
                parts.set_kinematic(wall, spin);
            }
        }
    }

    fn after_step(&mut self, ball: &CcdPredictedBall, parts: &CcdPredictedParts) -> ControlFlow<()> {
        let leg = LastLeg {
            end: ball.center,
            velocity: ball.velocity,
            seconds: self.dt - self.last,
            angle: self.angle(parts),
            spin: self.spin,
        };
        let h = self.def.half_size;
        if Wall::crossed(self.start, h).is_none()
            && let Some(wall) = leg.exit(h)
        {
            self.exit = Some(Exit {
                step: ball.step - 1,
                wall,
                wall_on: !wall.is_gate() || self.gates_on,
                time: ball.seconds,
            });
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// What a prediction reads of the game now.
#[derive(SystemParam)]
pub struct Ahead<'w, 's> {
    predict: CcdPredict<'w, 's>,
    room: Res<'w, Room>,
    game: Res<'w, Game>,
    gates: Res<'w, Gates>,
}

impl Ahead<'_, '_> {
    /// The room's definition.
    pub fn def(&self) -> &RoomDef {
        &self.room.def
    }

    /// Whether a game is on.
    pub fn playing(&self) -> bool {
        self.game.playing
    }

    /// The fixed steps in `seconds`.
    pub fn steps_in(&self, seconds: f32) -> u32 {
        self.predict.steps_in(seconds)
    }

    /// The ball's path from now over `horizon` (none without a ball).
    pub fn forecast(&self, horizon: Horizon) -> Forecast {
        let entities = &self.room.entities;
        let mut rules = RoomRules {
            def: &self.room.def,
            entities,
            blocks: self.game.score,
            gate_steps: self.gates.steps_left,
            dt: self.predict.dt(),
            start: Vec2::ZERO,
            spin: 0.0,
            gates_on: false,
            last: 0.0,
            exit: None,
        };
        let ahead = CcdPredictHorizon {
            contacts: horizon.contacts,
            steps: horizon.steps,
        };
        match self.predict.predict(entities.ball, ahead, &mut rules) {
            Ok(prediction) => forecast_of(&prediction, entities, rules.exit),
            Err(_) => Forecast::default(),
        }
    }
}

/// The room's view of a prediction: its contacts with the walls, its path and its exit.
fn forecast_of(p: &CcdPrediction, entities: &RoomEntities, exit: Option<Exit>) -> Forecast {
    let contacts = p.contacts.iter().filter_map(|c| {
        Some(PredictedContact {
            step: c.step,
            time: c.seconds,
            center: c.hit.center,
            point: c.hit.point,
            normal: c.hit.normal,
            wall: entities.wall(c.hit.other)?,
        })
    });
    Forecast {
        contacts: contacts.collect(),
        path: p.path.clone(),
        exit,
        steps: p.end.step,
    }
}

/// The aim line: on or off, how many contacts it shows, and its forecast.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct AimLine {
    pub on: bool,
    pub contacts: usize,
    pub forecast: Forecast,
    /// Whether a fixed step ran since the forecast was made.
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
            stale: false,
        }
    }
}

/// Notes that the aim line is out of date, after every fixed step.
pub fn note_aim(mut aim: ResMut<AimLine>) {
    aim.stale = true;
}

/// Predicts the aim line once a frame (not once a fixed step: a frame may run several),
/// from where the last fixed step left the game, while a game is on and the line shown.
pub fn update_aim(ahead: Ahead, mut aim: ResMut<AimLine>) {
    if !aim.stale {
        return;
    }
    aim.stale = false;
    aim.forecast = if aim.on && ahead.playing() {
        let horizon = Horizon {
            contacts: aim.contacts,
            steps: ahead.steps_in(AIM_SECONDS),
        };
        ahead.forecast(horizon)
    } else {
        Forecast::default()
    };
}
