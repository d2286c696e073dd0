//! The room: its file (`def.rs`) and its walls and ball in the world (this file).
//!
//! Four walls turn together about the origin, each a root entity with
//! [`Kinematic::turning`] and its line in local space: the two solid walls
//! (`x = ±h` in the room's frame) always carry their [`StaticSegment`]; the two gates
//! (`y = ±h`) carry theirs only while a tap keeps them on. That is the plugin's one way to
//! switch a wall on and off: **insert or remove its shape**; the `Kinematic` body keeps
//! turning without it, so a gate comes back exactly where the room has turned to.
//!
//! Each gate is [`OneSided`], its front facing into the room, and carries a
//! [`Kicker::scaling`] that multiplies the ball's speed at the instant of a block. The
//! rule for a gate that appears on top of the ball: **it blocks a ball whose centre is on
//! the room's side of its line** (the sweep meets a ball that starts overlapping and moves
//! into it at once, and bounces it back in), and lets a ball whose centre has crossed the
//! line go (its back faces the ball); a centre exactly on the line is blocked (the sweep
//! takes the normal against the motion, the gate's front). A ball whose centre has
//! crossed a gate's line is out: the game is over.

pub mod def;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
pub use def::RoomDef;

/// Which wall of the room.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wall {
    /// A solid wall: `x = +h` (`Right`) or `x = −h` (`Left`) in the room's frame.
    Left,
    Right,
    /// A gate: `y = +h` (`Upper`) or `y = −h` (`Lower`).
    Upper,
    Lower,
}

impl Wall {
    /// All four, solid walls first.
    pub const ALL: [Self; 4] = [Self::Left, Self::Right, Self::Upper, Self::Lower];

    /// Whether it is a gate.
    #[must_use]
    pub const fn is_gate(self) -> bool {
        matches!(self, Self::Upper | Self::Lower)
    }

    /// Its line in the room's frame, from `a` to `b` with the room on the left
    /// (`(b − a).perp()` points in), so that a one-sided gate faces in.
    #[must_use]
    pub fn line(self, h: f32) -> StaticSegment {
        let (a, b) = match self {
            Self::Left => (Vec2::new(-h, h), Vec2::new(-h, -h)),
            Self::Right => (Vec2::new(h, -h), Vec2::new(h, h)),
            Self::Upper => (Vec2::new(h, h), Vec2::new(-h, h)),
            Self::Lower => (Vec2::new(-h, -h), Vec2::new(h, -h)),
        };
        StaticSegment::new(a, b)
    }

    /// The wall a ball whose centre is at `p` (room frame) is beyond, if any: the one it
    /// is furthest beyond (for a centre that got there in a straight line, see
    /// [`Wall::exit`]).
    #[must_use]
    pub fn crossed(p: Vec2, h: f32) -> Option<Self> {
        let beyond = p.abs() - Vec2::splat(h);
        if beyond.x <= 0.0 && beyond.y <= 0.0 {
            return None;
        }
        Some(if beyond.x >= beyond.y {
            Self::side(p.x)
        } else {
            Self::gate(p.y)
        })
    }

    /// The wall a centre moving in a straight line from `from` (inside the room) to `to`
    /// leaves the room through, if `to` is outside: the line it crosses first (past a
    /// corner, the one it met before the other).
    #[must_use]
    pub fn exit(from: Vec2, to: Vec2, h: f32) -> Option<Self> {
        Self::crossed(to, h)?;
        // The fraction of the way at which it crosses x = ±h and y = ±h, where it does.
        let fraction =
            |start: f32, end: f32| (end.abs() > h).then(|| (h.copysign(end) - start) / (end - start));
        match (fraction(from.x, to.x), fraction(from.y, to.y)) {
            (Some(tx), Some(ty)) if ty < tx => Some(Self::gate(to.y)),
            (Some(_), _) => Some(Self::side(to.x)),
            (None, _) => Some(Self::gate(to.y)),
        }
    }

    /// The solid wall on the side of `x`'s sign.
    const fn side(x: f32) -> Self {
        if x > 0.0 { Self::Right } else { Self::Left }
    }

    /// The gate on the side of `y`'s sign.
    const fn gate(y: f32) -> Self {
        if y > 0.0 { Self::Upper } else { Self::Lower }
    }
}

/// Samples along a ball's last leg when looking for where it left the room: at 40,000 u/s
/// and 30 Hz a leg is at most 1,333 long, 5 between samples, under a ball's width.
const EXIT_SAMPLES: u32 = 256;
/// Halvings of the sample interval in which the ball left: 1,333 / 256 / 2^24 is far
/// below a unit's millionth.
const EXIT_HALVINGS: u32 = 24;

/// A ball's last straight leg in a step, in the world: it ends at `end` moving at
/// `velocity`, and has flown it for `seconds` (since its last contact, or the whole step);
/// the room stands at `angle` at the end and turns at `spin` rad/s. In the room's frame
/// the leg curves as the room turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastLeg {
    pub end: Vec2,
    pub velocity: Vec2,
    pub seconds: f32,
    pub angle: f32,
    pub spin: f32,
}

impl LastLeg {
    /// The centre at the leg's end, in the room's frame.
    #[must_use]
    pub fn at_end(&self) -> Vec2 {
        self.at(0.0)
    }

    /// The centre in the room's frame `back` seconds before the leg's end.
    fn at(&self, back: f32) -> Vec2 {
        to_room(self.end - self.velocity * back, self.angle - self.spin * back)
    }

    /// The wall through which the centre leaves a room of half side `h` on this leg, if
    /// it ends outside: where it first crosses the room's edge as the room turns (the leg
    /// sampled, then the crossing halved down). A leg that starts outside is judged where
    /// it starts.
    #[must_use]
    pub fn exit(&self, h: f32) -> Option<Wall> {
        Wall::crossed(self.at_end(), h)?;
        let mut inside = self.seconds;
        if let Some(wall) = Wall::crossed(self.at(inside), h) {
            return Some(wall);
        }
        for k in 1..=EXIT_SAMPLES {
            let back = self.seconds * (1.0 - k as f32 / EXIT_SAMPLES as f32);
            if Wall::crossed(self.at(back), h).is_none() {
                inside = back;
                continue;
            }
            let mut outside = back;
            for _ in 0..EXIT_HALVINGS {
                let middle = 0.5 * (inside + outside);
                if Wall::crossed(self.at(middle), h).is_some() {
                    outside = middle;
                } else {
                    inside = middle;
                }
            }
            return Wall::crossed(self.at(outside), h);
        }
        Wall::crossed(self.at(0.0), h)
    }
}

/// The ball.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Ball;

/// The ball's layers while no game is on: it meets nothing (it flies off after a lost
/// game, or waits at the centre for the next).
pub const OUT_OF_PLAY: CcdLayers = CcdLayers::new(0, 0);

/// The room's angle, radians: a wall's `Transform` rotation about z, read as the plugin
/// reads a kinematic pose.
#[must_use]
pub fn angle_of(transform: &Transform) -> f32 {
    transform.rotation.to_euler(EulerRot::ZYX).0
}

/// A world point in the room's frame when the room stands at `angle`.
#[must_use]
pub fn to_room(p: Vec2, angle: f32) -> Vec2 {
    Vec2::from_angle(-angle).rotate(p)
}

/// The room's walls and ball, by entity.
#[derive(Resource, Clone, Debug)]
pub struct RoomEntities {
    /// In [`Wall::ALL`]'s order.
    pub walls: [Entity; 4],
    pub ball: Entity,
}

impl RoomEntities {
    /// Which wall `entity` is.
    #[must_use]
    pub fn wall(&self, entity: Entity) -> Option<Wall> {
        self.walls.iter().position(|&e| e == entity).map(|i| Wall::ALL[i])
    }
}

/// The gate's kick: a pure speed scale at any approach.
#[must_use]
pub fn gate_kicker(def: &RoomDef) -> Kicker {
    Kicker::scaling(0.0, def.speed_scale_per_block)
}

/// Spawn the walls (the gates off) and the ball (at rest at the centre, out of play
/// until a game starts).
pub fn spawn(commands: &mut Commands, def: &RoomDef) -> RoomEntities {
    let spin = Kinematic::turning(def.spin_after(0));
    let walls = Wall::ALL.map(|wall| {
        let mut e = commands.spawn((wall, spin, Transform::default(), Name::new(format!("{wall:?}"))));
        if wall.is_gate() {
            e.insert((OneSided, gate_kicker(def)));
        } else {
            e.insert(wall.line(def.half_size));
        }
        e.id()
    });
    let ball = commands
        .spawn((
            Ball,
            Name::new("ball"),
            MovingCircle::new(def.ball_radius, Vec2::ZERO),
            CcdMaxSpeed(def.max_speed),
            OUT_OF_PLAY,
            Transform::default(),
        ))
        .id();
    RoomEntities { walls, ball }
}
