//! Spawning the richer table's parts (`playfield.rs`): the orbits' gates and shot lines,
//! the ramp on its own layer, the saucer, the top lanes, the kickback, standups and
//! posts. Each gets its rules marker (`Part`) and its material from
//! [`part_material`](crate::table::parts::part_material).

use crate::table::parts::{Part, part_material};
use crate::table::playfield::Playfield;
use crate::table::ramp::{ON_BOTH, ON_PLAYFIELD, ON_RAMP};
use crate::table::{Tuning, v};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// The kickback's kicker fires at any approach speed, mm/s.
const KICKBACK_THRESHOLD: f32 = 0.0;

fn line(a: Vec2, b: Vec2) -> (StaticSegment, Transform) {
    (StaticSegment::new(a, b), Transform::IDENTITY)
}

fn material(part: Part, tune: &Tuning) -> CcdMaterial {
    part_material(part, tune).unwrap_or_default()
}

/// Spawn the richer table's parts (nothing for a plain table).
pub fn spawn_playfield(commands: &mut Commands, p: &Playfield, ball_radius: f32, tune: &Tuning) {
    let wall = material(Part::Wall, tune);
    for g in &p.gates {
        crate::table::hinged::spawn_gate(commands, g, ball_radius, wall);
    }
    for (k, s) in p.shots.iter().enumerate() {
        commands.spawn((line(v(s.a), v(s.b)), CcdSensor, Part::Shot(k)));
    }
    if let Some(r) = &p.ramp {
        commands.spawn((
            line(v(r.entry.0), v(r.entry.1)),
            CcdSensor,
            ON_BOTH,
            Part::RampEntry,
        ));
        commands.spawn((line(v(r.exit.0), v(r.exit.1)), CcdSensor, ON_RAMP, Part::RampExit));
        let wire = material(Part::RampWall, tune);
        for piece in &r.walls {
            commands.spawn((piece.shape(), Transform::IDENTITY, wire, ON_RAMP, Part::RampWall));
            // The entrance: the wire's first stretch, on the playfield's layer too.
            if let [a, b, ..] = piece.points()[..]
                && r.entrance > 0.0
            {
                let end = a + (b - a).clamp_length_max(r.entrance);
                commands.spawn((line(a, end), wire, ON_PLAYFIELD, Part::RampWall));
            }
        }
    }
    if let Some(s) = &p.saucer {
        commands.spawn((
            Pillar::new(s.catch_radius),
            CcdSensor,
            Transform::from_translation(v(s.center).extend(0.0)),
            Part::Saucer,
        ));
    }
    for (k, r) in p.top_lanes.iter().enumerate() {
        commands.spawn((line(v(r.a), v(r.b)), CcdSensor, Part::TopLane(k)));
    }
    if let Some(kb) = &p.kickback {
        // Solid only while lit: the rules (`kickback_plate`) add and remove its segment.
        commands.spawn((
            Transform::IDENTITY,
            material(Part::Kickback, tune),
            Kicker::new(KICKBACK_THRESHOLD, kb.speed, 0.0),
            Part::Kickback,
        ));
    }
    for (k, s) in p.standups.iter().enumerate() {
        let part = Part::Standup(k);
        commands.spawn((line(v(s.a), v(s.b)), material(part, tune), part));
    }
    for post in &p.posts {
        commands.spawn((
            Pillar::new(post.radius),
            material(Part::Post, tune),
            Transform::from_translation(v(post.center).extend(0.0)),
            Part::Post,
        ));
    }
}
