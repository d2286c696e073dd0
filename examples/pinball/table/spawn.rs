//! Spawning: the table's static and kinematic parts from its definition (the hinged ones
//! in `hinged.rs`), and balls. Each part gets its rules marker (`Part`) and its material
//! from [`part_material`](crate::table::parts::part_material); the view dresses it afterwards.

use crate::table::parts::{
    Ball, Flipper, FlipperPart, Part, SlingPiece, ball_material, part_kicker, part_material, sling_pieces,
};
use crate::table::ramp::{ON_PLAYFIELD, PLAYFIELD_BALL_Z};
use crate::table::{Table, Tune, Tuning, v};
use bevy::prelude::*;
use bevy_circle_ccd::Kinematic;
use bevy_circle_ccd::prelude::*;

/// Drawing depth of the flippers (above the playfield's walls; balls are above them,
/// `ramp::PLAYFIELD_BALL_Z`).
const FLIPPER_Z: f32 = 1.0;

/// A part's material (the default for one without: none is spawned solid).
fn material(part: Part, tune: &Tuning) -> CcdMaterial {
    part_material(part, tune).unwrap_or_default()
}

fn segment(a: Vec2, b: Vec2) -> (StaticSegment, Transform) {
    (StaticSegment::new(a, b), Transform::IDENTITY)
}

/// Spawn every part of the table (startup).
pub fn spawn_table(mut commands: Commands, table: Res<Table>, tune: Res<Tune>) {
    let t = &table.def;
    let tu = &tune.0;
    let wall = material(Part::Wall, tu);
    for piece in t.outline.iter().chain(&t.walls) {
        commands.spawn((piece.shape(), Transform::IDENTITY, wall, Part::Wall));
    }
    crate::table::hinged::spawn_gate(&mut commands, &t.lane_gate, t.ball_radius, wall);
    for (k, s) in t.spinners.iter().enumerate() {
        crate::table::hinged::spawn_spinner(&mut commands, k, s, t.ball_radius, tu.spinner_damping);
    }
    let (a, b) = t.drain;
    commands.spawn((segment(v(a), v(b)), CcdSensor, Part::Drain));
    for (k, s) in t.slingshots.iter().enumerate() {
        let (a, b, c) = (v(s.a), v(s.b), v(s.c));
        let part = Part::Sling(k);
        // The kicking face in pieces, each kicking by where it lies along the band.
        for (piece, (p, q)) in sling_pieces(a, c).into_iter().enumerate() {
            let kicker = part_kicker(part, piece, tu).unwrap_or_default();
            commands.spawn((segment(p, q), material(part, tu), kicker, SlingPiece(piece), part));
        }
        let rubber = material(Part::SlingRubber, tu);
        commands.spawn((segment(a, b), rubber, Part::SlingRubber));
        commands.spawn((segment(b, c), rubber, Part::SlingRubber));
    }
    for (k, bd) in t.bumpers.iter().enumerate() {
        let part = Part::Bumper(k);
        commands.spawn((
            Pillar::new(bd.radius),
            material(part, tu),
            part_kicker(part, 0, tu).unwrap_or_default(),
            Transform::from_translation(v(bd.center).extend(0.0)),
            part,
        ));
    }
    for (k, r) in t.rollovers.iter().enumerate() {
        commands.spawn((segment(v(r.a), v(r.b)), CcdSensor, Part::Rollover(k)));
    }
    for (k, (a, b)) in t.targets.iter().enumerate() {
        let part = Part::Target(k);
        commands.spawn((segment(v(*a), v(*b)), material(part, tu), part));
    }
    for f in &t.flippers {
        spawn_flipper(&mut commands, f, tu);
    }
    crate::table::spawn_playfield::spawn_playfield(&mut commands, &t.playfield, t.ball_radius, tu);
}

/// A flipper: its own entity (the pose the view draws and the hinge drive turns), the
/// blade's top and bottom faces and its tip as kinematic parts in the blade's frame (x from
/// pivot to tip), and the round back end as a fixed pillar at the pivot.
fn spawn_flipper(commands: &mut Commands, f: &crate::table::FlipperDef, tu: &Tuning) {
    let flipper = Flipper {
        side: f.side,
        pivot: v(f.pivot),
        length: f.length,
        thickness: f.thickness,
        rest: f.rest_degrees.to_radians(),
        stroke: f.stroke_degrees.to_radians(),
        theta: 0.0,
        omega: 0.0,
    };
    let pose = Transform::from_translation(flipper.pivot.extend(FLIPPER_Z))
        .with_rotation(Quat::from_rotation_z(flipper.angle()));
    let id = commands.spawn((pose, Name::new("flipper"))).id();
    // The tapered bat: its faces and tip as kinematic segments in the blade's frame, its
    // round back end as a fixed pillar at the pivot (see `flipper_shape.rs`).
    let bat = crate::table::flipper_shape::BatShape {
        length: f.length,
        base_r: f.thickness * 0.5,
        tip_r: f.tip() * 0.5,
    };
    let fm = material(Part::Flipper, tu);
    for edge in bat.blade().windows(2) {
        commands.spawn((
            StaticSegment::new(edge[0], edge[1]),
            Kinematic::FollowTransform,
            pose,
            fm,
            FlipperPart(id),
            Part::Flipper,
        ));
    }
    commands.spawn((
        Pillar::new(bat.base_r),
        fm,
        Transform::from_translation(flipper.pivot.extend(0.0)),
        Part::Flipper,
    ));
    commands.entity(id).insert((flipper, bat));
}

/// A ball at `at` moving at `velocity`.
pub fn spawn_ball(commands: &mut Commands, table: &Table, tune: &Tuning, at: Vec2, velocity: Vec2) -> Entity {
    commands
        .spawn((
            MovingCircle::new(table.def.ball_radius, velocity),
            ball_material(tune),
            Transform::from_translation(at.extend(PLAYFIELD_BALL_Z)),
            ON_PLAYFIELD,
            // The drift watch (`game/drift.rs`) reads when a ball's contacts start and end,
            // and its rides.
            CcdContactEvents,
            CcdRide::default(),
            Ball {
                still_since: None,
                still_at: at,
            },
        ))
        .id()
}
