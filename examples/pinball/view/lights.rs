//! The lamps: a part flashes when the rules say it was hit, lanes stay lit and targets
//! stay down as the game says, and with no game running the lamps chase up the table.

use crate::game::rules::{Game, PartHit};
use crate::table::Table;
use crate::table::parts::Part;
use bevy::prelude::*;

/// Flash length, seconds.
const FLASH_SECONDS: f32 = 0.18;
/// Seconds the attract mode's ring of light takes to spread from the table's centre to
/// its corners.
const CHASE_SECONDS: f32 = 1.6;
/// Half the width of the ring, mm.
const CHASE_BAND_MM: f32 = 90.0;

/// Seconds left of a part's light-up after a hit.
#[derive(Component, Default)]
pub struct Flash(f32);

/// The colour an element shows at rest and when lit.
#[derive(Component)]
#[require(Flash)]
pub struct Glow {
    material: Handle<ColorMaterial>,
    base: Color,
    lit: Color,
}

impl Glow {
    pub fn new(material: Handle<ColorMaterial>, base: Color, lit: Color) -> Self {
        Self { material, base, lit }
    }
}

/// A lamp of the attract mode's chase: where it is and its colour when on.
#[derive(Component)]
pub struct Lamp {
    at: Vec2,
    on: Color,
    chased: bool,
}

impl Lamp {
    pub fn at(at: Vec2, on: Color) -> Self {
        Self {
            at,
            on,
            chased: false,
        }
    }
}

/// Parts whose light the game keeps (not a flash).
fn held_by_game(part: Part) -> bool {
    matches!(
        part,
        Part::Rollover(_)
            | Part::Target(_)
            | Part::Shot(_)
            | Part::RampEntry
            | Part::Saucer
            | Part::TopLane(_)
            | Part::Kickback
    )
}

/// Show a glow lit or at rest.
pub fn set_glow(materials: &mut Assets<ColorMaterial>, glow: &Glow, on: bool) {
    set(materials, glow, if on { glow.lit } else { glow.base });
}

fn set(materials: &mut Assets<ColorMaterial>, glow: &Glow, colour: Color) {
    if let Some(mut m) = materials.get_mut(&glow.material) {
        m.color = colour;
    }
}

/// Light up what the rules say was hit, and fade it out.
pub fn flash(
    time: Res<Time>,
    mut hits: MessageReader<PartHit>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut lit: Query<(&mut Flash, &Glow, &Part)>,
) {
    for hit in hits.read() {
        if !held_by_game(hit.part)
            && let Ok((mut f, _, _)) = lit.get_mut(hit.entity)
        {
            f.0 = FLASH_SECONDS;
        }
    }
    for (mut f, glow, part) in &mut lit {
        if f.0 <= 0.0 || held_by_game(*part) {
            continue;
        }
        f.0 = (f.0 - time.delta_secs()).max(0.0);
        let k = (f.0 / FLASH_SECONDS).clamp(0.0, 1.0);
        set(&mut materials, glow, glow.base.mix(&glow.lit, k));
    }
}

/// Lanes stay lit and targets stay down as the game says; other lamps go back to rest
/// (after the attract mode's chase).
pub fn lights(game: Res<Game>, mut materials: ResMut<Assets<ColorMaterial>>, parts: Query<(&Part, &Glow)>) {
    if !game.is_changed() || game.game_over {
        return;
    }
    for (part, glow) in &parts {
        let on = match *part {
            Part::Rollover(k) => game.rollovers_lit.get(k).copied().unwrap_or(false),
            Part::Target(k) => game.targets_down.get(k).copied().unwrap_or(false),
            _ => false,
        };
        set(&mut materials, glow, if on { glow.lit } else { glow.base });
    }
}

/// With no game running, rings of light spread from the table's centre through the lamps.
pub fn chase(
    time: Res<Time>,
    game: Res<Game>,
    table: Res<Table>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut lamps: Query<(&mut Lamp, &Glow)>,
) {
    let centre = table.def.center();
    let reach = Vec2::from(table.def.size).length() * 0.5 + CHASE_BAND_MM;
    let ring = (time.elapsed_secs() / CHASE_SECONDS).fract() * reach;
    for (mut lamp, glow) in &mut lamps {
        let on = game.game_over && (lamp.at.distance(centre) - ring).abs() < CHASE_BAND_MM;
        if on != lamp.chased {
            lamp.chased = on;
            set(&mut materials, glow, if on { lamp.on } else { glow.base });
        }
    }
}
