//! Hinged bodies in the event loop.
//!
//! A hinge turns at a constant rate between its events: an impact (the impulse exchange
//! of [`hinge_impulse`]) or a limit. At an event at time `t` every part of the body is
//! rebased ([`MovingObstacle::rebase`]): its shape becomes the pose the new motion would
//! have started from, so the motion is exact from `t` to the end of the step and every
//! sweep code path reads it unchanged. The balls whose legs may reach the body are then
//! moved along their (unchanged) legs to `t` and predicted again, against the new motion:
//! events are processed in time order, so none of them had an event before `t`.
//!
//! Limits are events too: before each ball event, the first limit any body reaches
//! before it is resolved (it stops, or turns back with the limit's restitution, and the
//! body is snapped onto the limit angle). A step with no ball near a body still takes its
//! limits ([`finish_hinges`]).

use super::ball::MovingObstacle;
use super::report::{Contact, MultiballReport};
use super::sim::Sim;
use crate::hinge::{HingeBody, HingeContact, hinge_impulse};
use crate::hit::Hit;
use crate::material::Material;
use crate::obstacle::Obstacles;
use crate::response::ResponseMode;
use crate::shape::Aabb;
use crate::tolerance::{MAX_HINGE_LIMIT_HITS, SEPARATION_SPEED_REL};
use glam::Vec2;

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
}

impl HingeClocks {
    pub(super) fn prepare(&mut self, moving: &[MovingObstacle]) {
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
    fn body(&self, moving: &[MovingObstacle], part: usize) -> Option<HingeBody> {
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
    part: usize,
    at: f32,
    limit: f32,
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
fn turn_body(
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
/// restitution (it stops at [`MAX_HINGE_LIMIT_HITS`]). Returns the body's box.
fn resolve_limit(moving: &mut [MovingObstacle], clocks: &mut HingeClocks, hit: LimitHit) -> Option<Aabb> {
    let m = moving[hit.part];
    let body = clocks.body(moving, hit.part)?;
    let limits = body.limits?;
    clocks.limit_hits[hit.part] += 1;
    let turn = if clocks.limit_hits[hit.part] >= MAX_HINGE_LIMIT_HITS {
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

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Resolve the first limit reached before `until` seconds, if any: the body turns
    /// anew, and the balls near it are predicted again. Returns whether there was one.
    pub(super) fn limit_before(
        &mut self,
        until: f32,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) -> bool {
        if !self.scratch.hinges.any {
            return false;
        }
        let Some(hit) = next_limit(self.moving, &self.scratch.hinges, until / self.dt) else {
            return false;
        };
        report.hinge_limit_hits += 1;
        if let Some(near) = resolve_limit(self.moving, &mut self.scratch.hinges, hit) {
            self.predict_near(near, hit.at * self.dt, None, on_contact);
        }
        true
    }

    /// Ball `i` hits hinged part `index` at `time`: the impulse exchange, unless the body
    /// is held by a limit against this push (then it is immovable and the caller's
    /// kinematic response applies). Returns the ball's new velocity and the box of the
    /// body, whose nearby balls must be predicted again ([`Sim::predict_near`]) once ball
    /// `i` is settled.
    pub(super) fn hinge_velocity(
        &mut self,
        i: usize,
        time: f32,
        index: usize,
        hit: Hit,
        material: Material,
        approach: f32,
    ) -> Option<(Vec2, Aabb)> {
        let m = self.moving[index];
        let body = self
            .scratch
            .hinges
            .body(self.moving, index)
            .filter(|b| b.inverse_inertia > 0.0)?;
        let ball = self.balls[i];
        let combined = ball.material.combine(material);
        let restitution = match ball.response {
            ResponseMode::Bounce if approach >= self.settings.resting_speed => {
                combined.restitution_at(approach)
            }
            ResponseMode::Bounce | ResponseMode::Slide => 0.0,
            ResponseMode::Stop => return None,
        };
        let from = time / self.dt;
        let spin = m.angular_velocity(self.dt);
        let contact = HingeContact {
            ball_velocity: ball.velocity,
            inverse_mass: ball.inverse_mass,
            arm: hit.center - hit.normal * ball.radius - m.motion.pivot_at(from),
            normal: hit.normal,
            pivot_velocity: m.motion.pivot_motion / self.dt,
            angular_velocity: spin,
            inverse_inertia: body.inverse_inertia,
        };
        let out = hinge_impulse(contact, restitution, combined.friction);
        if body.held(m.angle_at(from), out.angular_velocity - spin) {
            return None;
        }
        let near = turn_body(
            self.moving,
            &mut self.scratch.hinges,
            body.id,
            from,
            out.angular_velocity * self.dt,
            0.0,
        )?;
        // The surface's point under the ball, after the impact: a ball that took no bounce
        // leaves it a hair faster than it, as a resting contact does.
        let after = self.moving[index];
        let surface = after
            .motion
            .point_motion(hit.center - hit.normal * ball.radius, from)
            / self.dt;
        let relative = out.ball_velocity - surface;
        let normal_speed = relative.dot(hit.normal);
        let tangent = relative - hit.normal * normal_speed;
        let least = SEPARATION_SPEED_REL * tangent.length().max(relative.length());
        let velocity = if normal_speed < least {
            out.ball_velocity + hit.normal * (least - normal_speed)
        } else {
            out.ball_velocity
        };
        Some((velocity, near))
    }

    /// Every event ball but `skip` whose leg may reach `near`: moved along its leg to
    /// `time`, and predicted again. With ball–ball on, the pair grid (which holds every
    /// ball's box) lists the candidates; otherwise every ball is one.
    pub(super) fn predict_near(
        &mut self,
        near: Aabb,
        time: f32,
        skip: Option<usize>,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let mut found = std::mem::take(&mut self.scratch.found);
        found.clear();
        if self.settings.ball_ball {
            self.scratch.grid.query(near, |k| found.push(k));
            found.sort_unstable();
            found.dedup();
        } else {
            found.extend(0..self.balls.len());
        }
        for &k in &found {
            let clock = self.scratch.clock[k];
            if Some(k) == skip || !clock.valid || clock.frozen || !self.swept_box(k).intersects(&near) {
                continue;
            }
            self.advance(k, time, on_contact);
            self.predict(k, on_contact);
        }
        self.scratch.found = found;
    }
}
