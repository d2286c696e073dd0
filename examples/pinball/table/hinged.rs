//! The table's hinged parts, built on the plugin's `Hinge`: the plunger lane's one-way
//! gate, the orbit spinner (which counts its turns; the rules score them), and the
//! flippers' motorised drive (the panel's "motor flippers" switch), beside the kinematic
//! drive in `parts.rs`.

use crate::table::parts::{Controls, Flipper, FlipperPart, Part, motor_drive};
use crate::table::{GateDef, Side, SpinnerDef, Table, Tune, v};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use std::f32::consts::PI;

/// The gate flap's mass as a fraction of the ball's: about 10 g against 80 g.
const GATE_MASS_RATIO: f32 = 0.125;
/// How fast the gate's spring swings it back, rad/s (its natural frequency): it shuts in
/// about a tenth of a second, before a ball can follow the one that opened it.
const GATE_SPRING_RATE: f32 = 30.0;
/// Gate damping, 1/s: it settles on its stop in a few swings.
const GATE_DAMPING: f32 = 6.0;
/// How far past its stop the gate's spring pulls, radians: it rests pressed on the stop.
const GATE_PRELOAD: f32 = 0.2;
/// Bounce of a hinge off its stops.
const STOP_RESTITUTION: f32 = 0.2;
/// The spinner's mass as a multiple of the ball's. A ball brushing a paddle at lever `d`
/// keeps `1 − (1 + e)/(1 + k)` of its normal speed, `k = m·d²/I`: light paddles
/// (k = 5 at the tip with a tenth of the ball's mass) barely slow it, as a real spinner
/// barely slows the ball that passes under it.
const SPINNER_MASS_RATIO: f32 = 0.1;

/// A spinner's whole turns scored so far (from its angle at spawn).
#[derive(Component, Default)]
pub struct SpinnerTurns {
    pub scored: i64,
    pub points_per_turn: u32,
}

/// The ball's mass as the plugin takes it by default (its area).
fn ball_mass(radius: f32) -> f32 {
    PI * radius * radius
}

/// A hinge of the gate: the flap from `pivot` to `tip`, stops between rest and open.
pub fn spawn_gate(commands: &mut Commands, gate: &GateDef, ball_radius: f32, material: CcdMaterial) {
    let (pivot, tip) = (v(gate.pivot), v(gate.tip));
    let arm = tip - pivot;
    let rest = arm.to_angle();
    let open = gate.open_degrees.to_radians();
    let inertia = ball_mass(ball_radius) * GATE_MASS_RATIO * arm.length_squared() / 3.0;
    let (stops, preload) = if gate.clockwise {
        ((rest - open, rest), rest + GATE_PRELOAD)
    } else {
        ((rest, rest + open), rest - GATE_PRELOAD)
    };
    let mut hinge = Hinge::new(inertia)
        .with_stops(stops.0, stops.1, STOP_RESTITUTION)
        .with_spring(preload, inertia * GATE_SPRING_RATE * GATE_SPRING_RATE)
        .with_damping(GATE_DAMPING);
    hinge.angle = rest;
    commands.spawn((
        StaticSegment::new(Vec2::ZERO, Vec2::new(arm.length(), 0.0)),
        hinge,
        material,
        Transform::from_translation(pivot.extend(0.5)).with_rotation(Quat::from_rotation_z(rest)),
        Part::Gate,
    ));
}

/// A free paddle wheel that counts its turns.
pub fn spawn_spinner(commands: &mut Commands, k: usize, s: &SpinnerDef, ball_radius: f32, damping: f32) {
    let length = 2.0 * s.half_length;
    let inertia = ball_mass(ball_radius) * SPINNER_MASS_RATIO * length * length / 12.0;
    commands.spawn((
        StaticSegment::new(Vec2::new(-s.half_length, 0.0), Vec2::new(s.half_length, 0.0)),
        Hinge::new(inertia).with_damping(damping),
        CcdMaterial::new(0.5, 0.0),
        Transform::from_translation(v(s.center).extend(0.5)),
        Part::Spinner(k),
        SpinnerTurns {
            scored: 0,
            points_per_turn: s.points_per_turn,
        },
    ));
}

pub struct HingedPartsPlugin;

impl Plugin for HingedPartsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            FixedUpdate,
            (switch_flipper_drive, drive_motor_flippers, tune_spinners)
                .chain()
                .before(CircleCcdSystems::Prepare),
        )
        .add_systems(FixedUpdate, follow_motor_flippers.after(CircleCcdSystems::Step));
    }
}

fn tune_spinners(tune: Res<Tune>, mut spinners: Query<&mut Hinge, With<SpinnerTurns>>) {
    if !tune.is_changed() {
        return;
    }
    for mut h in &mut spinners {
        if h.damping != tune.0.spinner_damping {
            h.damping = tune.0.spinner_damping;
        }
    }
}

/// The flipper's stops in its hinge's angle: rest to raised.
fn flipper_stops(f: &Flipper) -> (f32, f32) {
    match f.side {
        Side::Left => (f.rest, f.rest + f.stroke),
        Side::Right => (PI - f.rest - f.stroke, PI - f.rest),
    }
}

/// Swap every flipper between the kinematic profile and the motorised hinge when the
/// panel's switch changes (and once at the start).
fn switch_flipper_drive(
    tune: Res<Tune>,
    table: Res<Table>,
    flippers: Query<(Entity, &Flipper, Option<&Hinge>)>,
    parts: Query<(Entity, &FlipperPart)>,
    mut commands: Commands,
) {
    let t = &tune.0;
    for (id, f, hinge) in &flippers {
        let motor = hinge.is_some();
        if motor == t.motor_flippers {
            if let Some(h) = hinge {
                let inertia = flipper_inertia(f, table.def.ball_radius, t.flipper_mass_ratio);
                if h.inertia != inertia {
                    commands.entity(id).insert(Hinge { inertia, ..*h });
                }
            }
            continue;
        }
        if t.motor_flippers {
            let inertia = flipper_inertia(f, table.def.ball_radius, t.flipper_mass_ratio);
            let (lo, hi) = flipper_stops(f);
            let mut h = Hinge::new(inertia).with_stops(lo, hi, 0.0).with_motor(0.0, 0.0);
            h.angle = f.angle();
            commands.entity(id).insert(h);
        } else {
            commands.entity(id).remove::<Hinge>();
        }
        for (part, of) in &parts {
            if of.0 != id {
                continue;
            }
            if t.motor_flippers {
                commands.entity(part).remove::<Kinematic>().insert(HingePart(id));
            } else {
                commands
                    .entity(part)
                    .remove::<HingePart>()
                    .insert(Kinematic::FollowTransform);
            }
        }
    }
}

/// A bat of `ratio` times the ball's mass, a rod about its end: `m·L²/3`.
fn flipper_inertia(f: &Flipper, ball_radius: f32, ratio: f32) -> f32 {
    ball_mass(ball_radius) * ratio * f.length * f.length / 3.0
}

/// Motor flippers: the torque that gives the table's stroke time, up while held and
/// down when released (see `parts::motor_drive`).
fn drive_motor_flippers(
    tune: Res<Tune>,
    controls: Res<Controls>,
    mut flippers: Query<(&Flipper, &mut Hinge)>,
) {
    for (f, mut h) in &mut flippers {
        let (target_speed, alpha) = motor_drive(f, controls.held(f.side), &tune.0);
        h.motor = Some(HingeMotor {
            target_speed,
            max_torque: h.inertia * alpha,
        });
    }
}

/// After the step, a motor flipper's rise and speed, read back from its hinge for the
/// rules, the autoplayer and the view.
fn follow_motor_flippers(mut flippers: Query<(&mut Flipper, &Hinge)>) {
    for (mut f, h) in &mut flippers {
        let (theta, omega) = match f.side {
            Side::Left => (h.angle - f.rest, h.angular_velocity),
            Side::Right => (PI - f.rest - h.angle, -h.angular_velocity),
        };
        f.theta = theta.clamp(0.0, f.stroke);
        f.omega = omega;
    }
}
