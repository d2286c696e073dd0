//! The hinged bodies' clocks over one step: when each body last changed motion, and its
//! limits (the stops it turns against), taken in time order. Data and functions on the
//! moving obstacles alone: the event loop (`hinges.rs`) calls them between ball events.

use super::moving::MovingObstacle;
use crate::hinge::HingeBody;
use crate::shape::Aabb;
use crate::tolerance::MAX_HINGE_LIMIT_HITS;

/// Per moving obstacle: the step fraction its motion last changed at, and its limit hits
/// this step.
#[derive(Clone, Debug, Default)]
pub(crate) struct HingeClocks {
    since: Vec<f32>,
    limit_hits: Vec<u32>,
    /// Per moving obstacle: a hinged segment whose [`HingeBody::validate`] passed. Any
    /// other stays kinematic: a bad hinge never turns, nor spreads a NaN to a ball.
    ///
    /// [`HingeBody::validate`]: crate::HingeBody::validate
    hinged: Vec<bool>,
    /// Whether any moving obstacle is a hinge (nothing here runs otherwise).
    pub(super) any: bool,
    /// The step, seconds.
    dt: f32,
}

impl HingeClocks {
    pub(super) fn prepare(&mut self, moving: &[MovingObstacle], dt: f32) {
        self.dt = dt;
        self.since.clear();
        self.since.resize(moving.len(), 0.0);
        self.limit_hits.clear();
        self.limit_hits.resize(moving.len(), 0);
        self.hinged.clear();
        self.hinged.extend(moving.iter().map(|m| {
            m.body().is_some_and(|b| b.validate().is_ok())
                && m.motion.angle.is_finite()
                && m.motion.pivot.is_finite()
        }));
        self.any = self.hinged.iter().any(|&h| h);
    }

    /// The valid hinge of part `part`.
    pub(super) fn body(&self, moving: &[MovingObstacle], part: usize) -> Option<HingeBody> {
        if self.hinged.get(part).copied().unwrap_or(false) {
            moving.get(part).and_then(MovingObstacle::body)
        } else {
            None
        }
    }
}

/// A body's limit reached: by which part, at what fraction, at what limit angle.
#[derive(Clone, Copy, Debug)]
pub(super) struct LimitHit {
    pub(super) part: usize,
    pub(super) at: f32,
    pub(super) limit: f32,
}

/// The first limit any body reaches at or before fraction `until`.
pub(super) fn next_limit(moving: &[MovingObstacle], clocks: &HingeClocks, until: f32) -> Option<LimitHit> {
    let mut first: Option<LimitHit> = None;
    for (part, m) in moving.iter().enumerate() {
        let Some(body) = clocks.body(moving, part) else {
            continue;
        };
        let Some(limits) = body.limits else { continue };
        let since = clocks.since.get(part).copied().unwrap_or(0.0);
        let Some((at, limit)) = limits.next_hit(body.angle, m.motion.angle, since) else {
            continue;
        };
        if at <= until && first.is_none_or(|f| at < f.at) {
            first = Some(LimitHit { part, at, limit });
        }
    }
    first
}

/// Turn every part of body `id` by `turn` per step from fraction `from` on, after snapping
/// it by `snap` radians there; returns the box the body's parts may cover.
pub(super) fn turn_body(
    moving: &mut [MovingObstacle],
    clocks: &mut HingeClocks,
    id: u32,
    from: f32,
    turn: f32,
    snap: f32,
) -> Option<Aabb> {
    let mut near: Option<Aabb> = None;
    for (part, m) in moving.iter_mut().enumerate() {
        if clocks.hinged[part] && m.body().is_some_and(|b| b.id == id) {
            m.rebase(from, turn, snap);
            clocks.since[part] = from;
            let b = m.swept_aabb();
            near = Some(near.map_or(b, |n| n.union(b)));
        }
    }
    near
}

/// Resolve `hit`: the body stops at its limit, or turns back with the limit's
/// restitution. It stops at [`MAX_HINGE_LIMIT_HITS`], and when it arrives slower than the
/// limit's [`resting_speed`](crate::HingeLimits::resting_speed): a body its spring or
/// motor holds against the stop, which bouncing would make chatter for ever. Returns the
/// body's box.
pub(super) fn resolve_limit(
    moving: &mut [MovingObstacle],
    clocks: &mut HingeClocks,
    hit: LimitHit,
) -> Option<Aabb> {
    let m = moving[hit.part];
    let body = clocks.body(moving, hit.part)?;
    let limits = body.limits?;
    clocks.limit_hits[hit.part] += 1;
    let arriving = (m.motion.angle / clocks.dt).abs();
    let turn = if clocks.limit_hits[hit.part] >= MAX_HINGE_LIMIT_HITS || !(arriving >= limits.resting_speed) {
        0.0
    } else {
        -limits.restitution * m.motion.angle
    };
    let snap = hit.limit - m.angle_at(hit.at);
    turn_body(moving, clocks, body.id, hit.at, turn, snap)
}

/// Take every limit left in the step, with no ball to re-predict (the event loop has
/// ended, or no ball went through it). Returns the limit hits taken.
pub(super) fn finish_hinges(moving: &mut [MovingObstacle], clocks: &mut HingeClocks) -> u32 {
    let mut hits = 0;
    if !clocks.any {
        return hits;
    }
    while let Some(hit) = next_limit(moving, clocks, 1.0) {
        resolve_limit(moving, clocks, hit);
        hits += 1;
    }
    hits
}
