//! The machine's parts and their physics: what each part is ([`Part`]), the flippers'
//! stroke, the plunger, the kickers (pop bumpers and slingshots), and the one map from a
//! table part to its material and kick, used both when the part is spawned and when the
//! panel retunes it live.
//!
//! The flipper's stroke is a constant angular acceleration (a solenoid pulls with a
//! nearly constant force over its short travel): from rest the bat rises `½·α·t²`, so a
//! stroke of `S` radians taking `T` seconds needs `α = 2·S/T²` and ends at `ω = 2·S/T`.
//! Released, it falls back the same way with its own (slower) time. The table file gives
//! both times (`flipper_up_ms`, `flipper_down_ms`).

use crate::table::{Side, Table, Tune, Tuning};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// A slingshot fires only when struck at least this fast, mm/s (a ball resting against
/// its rubber must not be machine-gunned).
const SLING_MIN_APPROACH: f32 = 150.0;
/// A pop bumper fires only when struck at least this fast, mm/s: about 0.1 m/s on real
/// machines, so a ball that merely rolls against its skirt is not kicked.
pub const BUMPER_MIN_APPROACH: f32 = 100.0;
/// Pieces a slingshot's kicking face is cut into. Each kicks by where its middle lies
/// along the band (a real band kicks hardest at its middle); collinear pieces meet as
/// one wall, so the cuts change nothing else.
pub const SLING_PIECES: usize = 5;
/// A slingshot's kick at the very ends of its band, as a fraction of its kick at the
/// middle; in between it falls off as a parabola, `1 − (1 − f)·(2u − 1)²`.
pub const SLING_END_FRACTION: f32 = 0.5;
/// The speed at which a rubber's restitution falloff (`Tuning::rubber_falloff`, per m/s)
/// is measured: 1 m/s, in mm/s.
pub const RUBBER_FALLOFF_SPEED: f32 = 1000.0;
/// A motor flipper's target speed as a multiple of the kinematic stroke's end speed: high
/// enough that the motor's torque, not its speed limit, sets the stroke.
const MOTOR_SPEED_HEADROOM: f32 = 1.5;

/// What a table part is: the marker every part carries, which the rules react to when
/// it is hit and which sets its material and kick ([`part_material`], [`part_kicker`]).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Wall,
    /// A flipper's blade or its pivot.
    Flipper,
    Sling(usize),
    SlingRubber,
    Bumper(usize),
    Rollover(usize),
    Target(usize),
    Drain,
    Gate,
    Spinner(usize),
    /// An orbit's shot line (a sensor).
    Shot(usize),
    /// The ramp's mouth and its end (sensors that switch the ball's layer).
    RampEntry,
    RampExit,
    /// A wire of the ramp (on the ramp's layer).
    RampWall,
    /// The saucer's cup (a sensor).
    Saucer,
    /// A top rollover lane.
    TopLane(usize),
    /// The kickback's kicker (solid only while lit).
    Kickback,
    /// A standup target.
    Standup(usize),
    /// A rubber post.
    Post,
}

/// What the player (or the autoplayer) is holding.
#[derive(Resource, Default, Clone, Copy)]
pub struct Controls {
    pub left: bool,
    pub right: bool,
    pub plunger: bool,
}

impl Controls {
    /// Whether the flipper button of `side` is held.
    pub fn held(&self, side: Side) -> bool {
        match side {
            Side::Left => self.left,
            Side::Right => self.right,
        }
    }
}

/// The balls in play: not one a saucer holds (`CcdDisabled`).
pub type InPlay = (With<Ball>, Without<CcdDisabled>);

/// A ball in play (spawned by [`spawn_ball`](crate::table::spawn::spawn_ball)).
#[derive(Component)]
pub struct Ball {
    /// When it last moved (None until the first step sees it).
    pub still_since: Option<f32>,
    pub still_at: Vec2,
}

/// A flipper: the pose and stroke of its bat, and its state.
#[derive(Component)]
pub struct Flipper {
    pub side: Side,
    pub pivot: Vec2,
    pub length: f32,
    pub thickness: f32,
    pub rest: f32,
    pub stroke: f32,
    /// Current rise, radians (0 = rest).
    pub theta: f32,
    /// Current speed of the rise, rad/s (positive up).
    pub omega: f32,
}

impl Flipper {
    /// World angle of the flipper's blade (the direction from pivot to tip).
    pub fn angle(&self) -> f32 {
        match self.side {
            Side::Left => self.rest + self.theta,
            Side::Right => std::f32::consts::PI - (self.rest + self.theta),
        }
    }
}

/// Which flipper a kinematic blade part belongs to.
#[derive(Component)]
pub struct FlipperPart(pub Entity);

/// The angular acceleration that takes a stroke of `stroke` radians from rest in
/// `millis` milliseconds: `2·S/T²`, rad/s².
#[must_use]
pub fn stroke_acceleration(stroke: f32, millis: f32) -> f32 {
    let t = millis * 1e-3;
    2.0 * stroke / (t * t)
}

/// The flipper's rise and speed after `dt` seconds, at constant angular acceleration (up
/// while held, down when released), exact within the step; the stops at rest and at the
/// top of the stroke end the motion there.
#[must_use]
pub fn flipper_step(theta: f32, omega: f32, stroke: f32, held: bool, tune: &Tuning, dt: f32) -> (f32, f32) {
    let alpha = if held {
        stroke_acceleration(stroke, tune.flipper_up_ms)
    } else {
        -stroke_acceleration(stroke, tune.flipper_down_ms)
    };
    let next = theta + omega * dt + 0.5 * alpha * dt * dt;
    if next >= stroke {
        (stroke, 0.0)
    } else if next <= 0.0 {
        (0.0, 0.0)
    } else {
        (next, omega + alpha * dt)
    }
}

/// A flipper on the kinematic drive (a motorised one has a `Hinge`: `hinged.rs`).
type KinematicFlipper<'a> = (&'a mut Flipper, &'a mut Transform);

/// Turn each flipper by its stroke and move its blade parts; the plugin sweeps the balls
/// against the motion from the previous step's pose.
pub fn drive_flippers(
    time: Res<Time>,
    controls: Res<Controls>,
    tune: Res<Tune>,
    mut flippers: Query<KinematicFlipper, (Without<FlipperPart>, Without<Hinge>)>,
    mut parts: Query<(&FlipperPart, &mut Transform), Without<Flipper>>,
) {
    let dt = time.delta_secs();
    for (mut f, mut tf) in &mut flippers {
        let held = controls.held(f.side);
        (f.theta, f.omega) = flipper_step(f.theta, f.omega, f.stroke, held, &tune.0, dt);
        tf.rotation = Quat::from_rotation_z(f.angle());
    }
    for (part, mut tf) in &mut parts {
        if let Ok((_, ftf)) = flippers.get(part.0) {
            tf.rotation = ftf.rotation;
        }
    }
}

/// A motor flipper's drive for one step: the target speed (signed in the hinge's
/// angle) and the torque over the bat's inertia, rad/s², that give the kinematic stroke's
/// acceleration.
#[must_use]
pub fn motor_drive(f: &Flipper, held: bool, tune: &Tuning) -> (f32, f32) {
    let (millis, sign) = if held {
        (tune.flipper_up_ms, 1.0)
    } else {
        (tune.flipper_down_ms, -1.0)
    };
    let alpha = stroke_acceleration(f.stroke, millis);
    let end_speed = alpha * millis * 1e-3;
    let up = sign * end_speed * MOTOR_SPEED_HEADROOM;
    let target = match f.side {
        Side::Left => up,
        Side::Right => -up,
    };
    (target, alpha)
}

/// How far the plunger is pulled (0–1), for the view.
#[derive(Resource, Default)]
pub struct PlungerShown(pub f32);

/// The plunger: its pull grows while held; on release, balls resting in the lane leave
/// at a speed between the table's minimum and maximum.
pub fn plunger(
    time: Res<Time>,
    controls: Res<Controls>,
    table: Res<Table>,
    mut plunger: Local<f32>,
    mut shown: ResMut<PlungerShown>,
    mut balls: Query<(&Transform, &mut MovingCircle), With<Ball>>,
) {
    let pl = &table.def.plunger;
    if controls.plunger {
        *plunger = (*plunger + time.delta_secs() / pl.full_pull_seconds).min(1.0);
    } else if *plunger > 0.0 {
        let speed = pl.min_speed + (pl.max_speed - pl.min_speed) * *plunger;
        for (tf, mut c) in &mut balls {
            if table.def.in_plunger_lane(tf.translation.truncate()) {
                c.velocity = Vec2::new(0.0, speed);
            }
        }
        *plunger = 0.0;
    }
    shown.0 = *plunger;
}

/// The kicking face from `a` to `c` cut into [`SLING_PIECES`] pieces, in order.
#[must_use]
pub fn sling_pieces(a: Vec2, c: Vec2) -> [(Vec2, Vec2); SLING_PIECES] {
    std::array::from_fn(|k| {
        let at = |i: usize| a.lerp(c, i as f32 / SLING_PIECES as f32);
        (at(k), at(k + 1))
    })
}

/// A slingshot piece's share of the band's kick: 1 at the middle, falling off as a
/// parabola to [`SLING_END_FRACTION`] at the ends (taken at the piece's middle).
#[must_use]
pub fn sling_profile(piece: usize) -> f32 {
    let u = (piece as f32 + 0.5) / SLING_PIECES as f32;
    let x = 2.0 * u - 1.0;
    1.0 - (1.0 - SLING_END_FRACTION) * x * x
}

/// The balls' material.
#[must_use]
pub fn ball_material(t: &Tuning) -> CcdMaterial {
    CcdMaterial::new(t.ball_restitution, t.ball_friction)
}

/// A rubber's material: its restitution falls with impact speed.
fn rubber(e: f32, mu: f32, t: &Tuning) -> CcdMaterial {
    CcdMaterial::new(e, mu).with_falloff(t.rubber_falloff, RUBBER_FALLOFF_SPEED)
}

/// The material of a table part, from the tuning (`None`: a sensor, or a part with its
/// own material, the spinner). Spawning and live tuning both use this.
#[must_use]
pub fn part_material(part: Part, t: &Tuning) -> Option<CcdMaterial> {
    match part {
        Part::Wall | Part::Target(_) | Part::Gate | Part::RampWall | Part::Standup(_) => {
            Some(CcdMaterial::new(t.wall_restitution, t.wall_friction))
        }
        Part::Sling(_) | Part::SlingRubber => Some(rubber(t.sling_restitution, t.wall_friction, t)),
        Part::Bumper(_) | Part::Post => Some(rubber(t.bumper_restitution, 0.0, t)),
        // The kickback's plate takes the ball's speed; its kick throws it back.
        Part::Kickback => Some(CcdMaterial::new(0.0, 0.0)),
        Part::Flipper => Some(rubber(t.flipper_restitution, t.flipper_friction, t)),
        Part::Rollover(_)
        | Part::Drain
        | Part::Spinner(_)
        | Part::Shot(_)
        | Part::RampEntry
        | Part::RampExit
        | Part::Saucer
        | Part::TopLane(_) => None,
    }
}

/// The kick of a table part (`piece`: which piece of a slingshot's face), from the
/// tuning; `None` for a part that does not kick.
#[must_use]
pub fn part_kicker(part: Part, piece: usize, t: &Tuning) -> Option<Kicker> {
    match part {
        Part::Sling(_) => Some(Kicker::new(
            SLING_MIN_APPROACH,
            0.0,
            t.sling_kick * sling_profile(piece),
        )),
        Part::Bumper(_) => Some(Kicker::new(BUMPER_MIN_APPROACH, 0.0, t.bumper_kick)),
        _ => None,
    }
}

/// Which piece of its slingshot a kicking segment is (0 for every other part).
#[derive(Component, Clone, Copy)]
pub struct SlingPiece(pub usize);
