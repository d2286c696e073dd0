//! The richer table's rules: where a hit on its parts leads (a major shot and its
//! combo or jackpot, a lock, the extra ball, a top lane, a standup, the kickback), lane
//! change, the kickback's plate and the ball-save clock. They move the progression on
//! ([`Progress`], `progress.rs`) and tell the view what was hit with [`PartHit`].

use crate::game::progress::{Progress, points};
use crate::game::rules::{Game, PartHit, PlayState};
use crate::game::stats::RunStats;
use crate::table::parts::{Ball, Controls, Part};
use crate::table::playfield::Lights;
use crate::table::ramp::crossing_forward;
use crate::table::saucer::{Caught, Held};
use crate::table::{Table, TableDef, v};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;

/// What the step brought to the richer table's parts: the balls' hits, the saucer's
/// catches, and the parts the hits name.
#[derive(SystemParam)]
pub struct PlayfieldHits<'w, 's> {
    /// The step's hits.
    hits: MessageReader<'w, 's, CircleHit>,
    /// The balls the saucer caught this step.
    caught: MessageReader<'w, 's, Caught>,
    /// The parts the rules react to.
    parts: Query<'w, 's, &'static Part>,
}

/// Where a hit on the richer table's parts leads.
pub fn on_playfield_hits(
    time: Res<Time>,
    table: Res<Table>,
    step: PlayfieldHits,
    play: PlayState,
    balls: Query<(), (With<Ball>, Without<Held>)>,
    mut lit: MessageWriter<PartHit>,
    mut scored: Local<Vec<(Entity, Part, Vec2, u64)>>,
) {
    let PlayfieldHits {
        mut hits,
        mut caught,
        parts,
    } = step;
    let PlayState {
        mut game,
        mut progress,
        mut stats,
    } = play;
    let now = time.elapsed_secs();
    let def = &table.def;
    let p = &def.playfield;
    for hit in hits.read() {
        let Ok(&part) = parts.get(hit.other) else {
            continue;
        };
        let shot = match part {
            Part::Shot(k)
                if p.shots
                    .get(k)
                    .is_some_and(|s| crossing_forward((s.a, s.b), hit.normal)) =>
            {
                Some(k)
            }
            Part::RampExit
                if p.ramp
                    .as_ref()
                    .is_some_and(|r| crossing_forward(r.exit, hit.normal)) =>
            {
                progress.ramp_shot()
            }
            _ => None,
        };
        let points = if let Some(k) = shot {
            major_shot(
                k,
                now,
                &mut game,
                &mut progress,
                &mut stats,
                def,
                balls.iter().count(),
            )
        } else {
            minor_hit(part, hit.kick, &mut game, &mut progress, &mut stats, def)
        };
        if let Some(points) = points {
            scored.push((hit.other, part, hit.point, points));
        }
    }
    for c in caught.read() {
        let Some(k) = progress.saucer_shot() else {
            continue;
        };
        let at = p.saucer.as_ref().map_or(Vec2::ZERO, |s| v(s.center));
        let mut pts = major_shot(k, now, &mut game, &mut progress, &mut stats, def, 0).unwrap_or(0);
        pts += lock_or_extra_ball(&mut game, &mut progress, &mut stats, def);
        scored.push((c.ball, Part::Saucer, at, pts));
    }
    for (entity, part, point, points) in scored.drain(..) {
        lit.write(PartHit {
            entity,
            part,
            point,
            points,
        });
    }
}

/// A major shot `k` made: arrow, combo, jackpot; counted for the stats. `in_play` is the
/// balls in play (a jackpot needs multiball). Returns the points scored.
fn major_shot(
    k: usize,
    now: f32,
    game: &mut Game,
    progress: &mut Progress,
    stats: &mut RunStats,
    def: &TableDef,
    in_play: usize,
) -> Option<u64> {
    let (mut pts, msg) = progress.shot(k, now, def.playfield.rules.combo_seconds);
    game.message = msg;
    if Some(k) == progress.ramp_shot() && progress.jackpot_lit && in_play > 1 {
        pts += points::JACKPOT;
        game.message = "JACKPOT! 50,000".into();
        stats.jackpots += 1;
    }
    stats.count_shot(&progress.shot_names, k);
    Some(game.add(pts))
}

/// The saucer caught a ball: a lock when lit (multiball at the table's count of locks),
/// the extra ball when lit. Returns the points.
fn lock_or_extra_ball(game: &mut Game, progress: &mut Progress, stats: &mut RunStats, def: &TableDef) -> u64 {
    let mut pts = 0;
    if progress.extra_ball_lit {
        progress.extra_ball_lit = false;
        progress.extra_balls += 1;
        game.message = "EXTRA BALL".into();
        stats.extra_balls += 1;
    }
    if progress.lock_lit {
        progress.lock_lit = false;
        progress.locks += 1;
        pts += game.add(points::LOCK);
        let need = def.playfield.rules.locks_for_multiball;
        if progress.locks >= need {
            progress.locks = 0;
            progress.jackpot_lit = true;
            game.launch_queue += need;
            game.message = "MULTIBALL! Shoot the ramp for the jackpot".into();
            stats.multiballs += 1;
        } else {
            game.message = format!("BALL {} LOCKED", progress.locks);
        }
    }
    pts
}

/// A hit on a part that is not a major shot. Returns the points, or None when the part
/// is not one of the richer table's.
fn minor_hit(
    part: Part,
    kick: f32,
    game: &mut Game,
    progress: &mut Progress,
    stats: &mut RunStats,
    def: &TableDef,
) -> Option<u64> {
    let p = &def.playfield;
    match part {
        Part::TopLane(k) => {
            let (pts, all) = progress.top_lane(k, p.rules.max_multiplier);
            stats.top_lanes += 1;
            if all {
                game.message = format!("BONUS {}X", progress.multiplier);
            }
            Some(game.add(pts))
        }
        Part::Standup(k) => {
            match p.standups.get(k).map(|s| s.lights) {
                Some(Lights::Kickback) => {
                    if !progress.kickback_lit {
                        game.message = "KICKBACK LIT".into();
                    }
                    progress.kickback_lit = true;
                }
                Some(Lights::ExtraBall) => {
                    let nth = p.standups[..k]
                        .iter()
                        .filter(|s| s.lights == Lights::ExtraBall)
                        .count();
                    if progress.extra_standup(nth) {
                        game.message = "EXTRA BALL IS LIT at the saucer".into();
                    }
                }
                None => {}
            }
            Some(game.add(points::STANDUP))
        }
        Part::Kickback if kick > 0.0 => {
            progress.kickback_lit = false;
            game.message = "KICKBACK!".into();
            stats.kickbacks += 1;
            Some(0)
        }
        _ => None,
    }
}

/// Lane change: a flipper button pressed rotates the top lanes' lamps its way.
pub fn lane_change(controls: Res<Controls>, mut was: Local<(bool, bool)>, mut progress: ResMut<Progress>) {
    if controls.left && !was.0 {
        progress.rotate_lanes(true);
    }
    if controls.right && !was.1 {
        progress.rotate_lanes(false);
    }
    *was = (controls.left, controls.right);
}

/// The kickback's plate is solid only while the kickback is lit.
pub fn kickback_plate(
    table: Res<Table>,
    progress: Res<Progress>,
    plates: Query<(Entity, &Part, Has<StaticSegment>)>,
    mut commands: Commands,
) {
    let Some(kb) = &table.def.playfield.kickback else {
        return;
    };
    for (e, part, solid) in &plates {
        if *part != Part::Kickback || solid == progress.kickback_lit {
            continue;
        }
        if progress.kickback_lit {
            commands.entity(e).insert(StaticSegment::new(v(kb.a), v(kb.b)));
        } else {
            commands.entity(e).remove::<StaticSegment>();
        }
    }
}

/// The ball save starts when the ball leaves the plunger lane; multiball's jackpot goes
/// out when multiball ends.
pub fn ball_save_clock(
    time: Res<Time>,
    table: Res<Table>,
    game: Res<Game>,
    mut progress: ResMut<Progress>,
    balls: Query<&Transform, With<Ball>>,
) {
    let now = time.elapsed_secs();
    let secs = table.def.playfield.rules.ball_save_seconds;
    if progress.ball_live
        && progress.save_until.is_none()
        && secs > 0.0
        && balls
            .iter()
            .any(|tf| !table.def.in_plunger_lane(tf.translation.truncate()))
    {
        progress.save_until = Some(now + secs);
    }
    if progress.jackpot_lit && balls.iter().count() <= 1 && game.launch_queue == 0 {
        progress.jackpot_lit = false;
    }
}
