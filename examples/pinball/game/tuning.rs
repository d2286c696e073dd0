//! Live tuning: the panel's tuning and the table's slope go into the parts' materials,
//! kicks and gravity whenever either changes, and a tilt cuts the kicks as a real
//! machine's tilt cuts its coils. (The map from a part to its material and kick is the
//! table's: `table/parts.rs`.)

use crate::game::progress::Progress;
use crate::table::parts::{Ball, Part, SlingPiece, ball_material, part_kicker, part_material};
use crate::table::{Table, Tune};
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

type MaterialParts<'a> = (&'a mut CcdMaterial, Option<&'a Part>, Has<Ball>);

/// Push the panel's tuning (and the table's slope) into the materials, kicks and gravity
/// when either changes. A tilt kills the kicks as a real machine's tilt cuts the coils:
/// the bumpers and slingshots are plain rubber until the next ball.
pub fn apply_tuning(
    tune: Res<Tune>,
    table: Res<Table>,
    progress: Res<Progress>,
    mut was_tilted: Local<bool>,
    mut settings: ResMut<CcdSettings>,
    mut materials: Query<MaterialParts>,
    mut kickers: Query<(&mut Kicker, &Part, Option<&SlingPiece>)>,
) {
    let tilted = progress.tilted;
    if !tune.is_changed() && !table.is_changed() && tilted == *was_tilted {
        return;
    }
    *was_tilted = tilted;
    let t = &tune.0;
    settings.gravity = Vec2::new(0.0, -table.def.rolling_gravity(t));
    for (mut m, part, ball) in &mut materials {
        let want = if ball {
            Some(ball_material(t))
        } else {
            part.and_then(|p| part_material(*p, t))
        };
        if let Some(want) = want
            && *m != want
        {
            *m = want;
        }
    }
    for (mut k, part, piece) in &mut kickers {
        let piece = piece.map_or(0, |p| p.0);
        let want = if tilted {
            part_kicker(*part, piece, t).map(|_| Kicker::default())
        } else {
            part_kicker(*part, piece, t)
        };
        if let Some(want) = want
            && *k != want
        {
            *k = want;
        }
    }
}
