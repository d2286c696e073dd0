//! The multi-bounce sweep: move a circle through a whole time step, bouncing as often as
//! it must, with no time lost and no tunnelling.

use crate::hit::{ContactOrder, Feature, Hit};
use crate::material::Material;
use crate::obstacle::{Layers, ObstacleId, Obstacles};
use crate::response::{ResponseMode, respond};
use crate::response::{Surface, TwoSurfaces, contact_restitution, two_surfaces};
use crate::shape::{Aabb, Circle, ShapeError};
use crate::sweep::met_again_from_behind;
use crate::tolerance::{
    DEFAULT_MAX_BOUNCES, MAX_SENSOR_HITS_PER_LEG, MAX_WEDGE_BOUNCES, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL,
};
use glam::Vec2;

/// How [`sweep_bounces`] treats the moving circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepSettings {
    /// Solid contacts allowed in one call before the circle is held at its last contact
    /// for the rest of the step. Default [`DEFAULT_MAX_BOUNCES`]. In a corner (two walls
    /// at an angle α, bounced off in turn) it is raised by the `⌈π/α⌉ + 1` bounces an
    /// elastic ball can take there before it comes out, up to
    /// [`MAX_WEDGE_BOUNCES`](crate::MAX_WEDGE_BOUNCES): a ball never waits in a corner it
    /// can leave.
    pub max_bounces: u32,
    /// Approach speed, in world units per second, below which a contact removes the
    /// normal velocity instead of bouncing it (resting contact). Default `0.0`: every
    /// contact bounces.
    pub resting_speed: f32,
    /// Bounce, slide or stop. Default [`ResponseMode::Bounce`].
    pub response: ResponseMode,
    /// The circle's material. Default [`Material::ELASTIC`].
    pub material: Material,
    /// The circle's collision layers. Default [`Layers::ALL`].
    pub layers: Layers,
}

impl Default for SweepSettings {
    fn default() -> Self {
        Self {
            max_bounces: DEFAULT_MAX_BOUNCES,
            resting_speed: 0.0,
            response: ResponseMode::Bounce,
            material: Material::ELASTIC,
            layers: Layers::ALL,
        }
    }
}

/// One contact met during a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BounceHit {
    /// The obstacle.
    pub obstacle: ObstacleId,
    /// Seconds since the start of the step.
    pub time: f32,
    /// Where the circle's centre was, the contact point and the normal (see [`Hit`]).
    /// `hit.toi` is the fraction of the leg that led here.
    pub hit: Hit,
    /// Approach speed along the normal, `−v·n`, in world units per second (`> 0`).
    pub approach_speed: f32,
    /// Whether the obstacle is a sensor (reported, not bounced off).
    pub sensor: bool,
    /// Normal speed the surface's [`Kick`](crate::Kick) added, units/s (0 when it did
    /// not fire).
    pub kick: f32,
}

/// Where a sweep left the circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepOutcome {
    /// Final centre.
    pub center: Vec2,
    /// Final velocity.
    pub velocity: Vec2,
    /// Solid contacts resolved.
    pub bounces: u32,
    /// Whether the bounce cap was reached (`max_bounces`, raised in corners), holding the
    /// circle at its last contact for the rest of the step.
    pub capped: bool,
    /// Seconds of the step lost to the cap: the circle waited at its last contact instead
    /// of moving on (0 unless `capped`).
    pub lost_time: f32,
}

/// Move `circle` with `velocity` for `dt` seconds through `obstacles`.
///
/// Each leg finds the earliest solid contact among the obstacles near that leg, moves
/// there, changes the velocity by `settings.response`, and spends the rest of the step
/// with the new velocity (time-based: the next leg is `v'·(1 − toi)·t_left`). It stops
/// when the step is used up or after `settings.max_bounces` contacts, in which case the
/// circle stays at its last contact point. It never tunnels and never allocates.
///
/// `on_hit` receives every contact in time order: solid ones, and sensors the circle
/// enters (a sensor it starts inside is not reported again). Obstacles whose layers do not
/// [interact](Layers::interacts) with `settings.layers` are ignored.
///
/// # Errors
/// [`ShapeError`] naming `center`, `radius`, `velocity` or `dt` when one is not finite or
/// a radius or `dt` is negative; nothing moves then.
///
/// ```
/// use ccd_core::{sweep_bounces, Circle, Obstacle, Segment, SweepSettings, Vec2};
/// // A floor at y = 0 and a wall at x = 10. A ball of radius 1 at (5, 5) moves at
/// // (10, -10) for 1 s: it hits the floor at t = 0.4 s (centre (9, 1)), bounces up at
/// // once into the wall (centre x = 9 already touches x = 10), bounces left, and spends
/// // the last 0.6 s going (−10, 10): it ends at (3, 7).
/// let walls = [
///     Obstacle::segment(Segment::new(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0))),
///     Obstacle::segment(Segment::new(Vec2::new(10.0, -20.0), Vec2::new(10.0, 20.0))),
/// ];
/// let mut hits = Vec::new();
/// let out = sweep_bounces(
///     Circle::new(Vec2::new(5.0, 5.0), 1.0),
///     Vec2::new(10.0, -10.0),
///     1.0,
///     &walls,
///     &SweepSettings::default(),
///     |h| hits.push(h.time),
/// )
/// .unwrap();
/// assert!((out.center - Vec2::new(3.0, 7.0)).length() < 1e-4);
/// assert!((out.velocity - Vec2::new(-10.0, 10.0)).length() < 1e-4);
/// assert_eq!(out.bounces, 2);
/// assert!((hits[0] - 0.4).abs() < 1e-6 && (hits[1] - 0.4).abs() < 1e-6);
/// ```
pub fn sweep_bounces<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    dt: f32,
    obstacles: &O,
    settings: &SweepSettings,
    mut on_hit: impl FnMut(&BounceHit),
) -> Result<SweepOutcome, ShapeError> {
    check_inputs(circle, velocity, dt)?;
    let mut out = SweepOutcome {
        center: circle.center,
        velocity,
        bounces: 0,
        capped: false,
        lost_time: 0.0,
    };
    let mut elapsed = 0.0_f32;
    let mut allowed = settings.max_bounces;
    // The previous solid contact: obstacle, surface, time.
    let mut last: Option<(ObstacleId, Surface, f32)> = None;
    // Each pass is one straight leg; every pass but the last resolves a bounce, so the
    // bounce cap (at most `MAX_WEDGE_BOUNCES`) bounds the loop.
    loop {
        let time_left = dt - elapsed;
        let motion = out.velocity * time_left;
        if !(time_left > 0.0) || motion == Vec2::ZERO {
            break;
        }
        let here = circle.at(out.center);
        // The wall just met, if the circle's centre lies on it, is met again at once from
        // the other side: that contact is dropped (see `met_again_from_behind`).
        let just_met = last.map(|(id, s, _)| (id, s.normal));
        let leg = earliest_on_leg(here, motion, obstacles, settings.layers, None, just_met);
        for sensor in leg.sensors() {
            if leg.solid.is_none_or(|(_, _, solid)| sensor.1.toi <= solid.toi) {
                on_hit(&leg_hit(
                    sensor.0,
                    sensor.1,
                    elapsed,
                    time_left,
                    out.velocity,
                    true,
                ));
            }
        }
        let Some((id, material, hit)) = leg.solid else {
            out.center += motion;
            break;
        };
        let mut event = leg_hit(id, hit, elapsed, time_left, out.velocity, false);
        out.center = hit.center;
        elapsed = event.time;
        out.bounces += 1;
        let combined = settings.material.combine(material);
        let this = Surface {
            normal: hit.normal,
            velocity: Vec2::ZERO,
            restitution: contact_restitution(combined, event.approach_speed, settings.resting_speed),
        };
        // Touching another wall that faces this one: the last contact, a moment ago, or
        // one the ball reaches at this very instant too (straight into a corner). A corner
        // is one contact with both.
        let corner = last
            .filter(|&(other, s, t)| {
                other != id && s.normal.dot(hit.normal) < 0.0 && elapsed - t <= SIMULTANEOUS_TIME_REL * dt
            })
            .map(|(_, s, _)| s)
            .or_else(|| {
                let ball = Circle::new(hit.center, circle.radius);
                approached_touching(obstacles, ball, out.velocity, settings, id, hit.normal)
            });
        (out.velocity, event.kick) = contact_velocity(out.velocity, this, corner, combined, settings);
        on_hit(&event);
        if settings.response == ResponseMode::Stop {
            break;
        }
        if out.bounces >= allowed
            && let Some((other, s, _)) = last
            && other != id
        {
            allowed = allowed.max(out.bounces.saturating_add(corner_bounces(s.normal, hit.normal)));
        }
        if out.bounces >= allowed.min(MAX_WEDGE_BOUNCES) {
            out.capped = true;
            out.lost_time = (dt - elapsed).max(0.0);
            break;
        }
        last = Some((id, this, elapsed));
    }
    Ok(out)
}

/// The circle, its velocity and the step, or the first bad one.
fn check_inputs(circle: Circle, velocity: Vec2, dt: f32) -> Result<(), ShapeError> {
    circle.validate()?;
    if !velocity.is_finite() {
        return Err(ShapeError::NonFinite { field: "velocity" });
    }
    if !dt.is_finite() {
        return Err(ShapeError::NonFinite { field: "dt" });
    }
    if dt < 0.0 {
        return Err(ShapeError::NegativeRadius { field: "dt" });
    }
    Ok(())
}

/// The velocity after a contact with the static wall `this` (of material `combined`, ball
/// and wall combined), and the normal speed its kick added: alone, or, in a corner (with a
/// wall `corner` facing it, touched a moment ago or at this instant), as one contact with
/// both, where no kick fires.
fn contact_velocity(
    velocity: Vec2,
    this: Surface,
    corner: Option<Surface>,
    combined: Material,
    settings: &SweepSettings,
) -> (Vec2, f32) {
    let bounce = settings.response == ResponseMode::Bounce;
    if let (Some(other), true) = (corner, bounce) {
        return match two_surfaces(velocity, this, other) {
            TwoSurfaces::Leave(v) | TwoSurfaces::Squeezed { velocity: v, .. } => (v, 0.0),
        };
    }
    let normal = this.normal;
    let kick = if bounce {
        let approach = -velocity.dot(normal);
        combined.kick.added(approach, combined.restitution_at(approach))
    } else {
        0.0
    };
    let out = respond(
        settings.response,
        velocity,
        normal,
        combined,
        settings.resting_speed,
    );
    (out, kick)
}

/// A solid obstacle other than `skip` that the circle touches (within [`TOUCH_SLOP_REL`]
/// of its radius) and moves into at `velocity`, facing the surface of normal `facing` (their
/// normals more than 90° apart): the most opposed one, as a surface with its restitution.
/// The other wall of a corner the circle reaches at the same instant as `skip`'s.
pub(crate) fn approached_touching<O: Obstacles + ?Sized>(
    obstacles: &O,
    circle: Circle,
    velocity: Vec2,
    settings: &SweepSettings,
    skip: ObstacleId,
    facing: Vec2,
) -> Option<Surface> {
    let reach = circle.radius * (1.0 + TOUCH_SLOP_REL);
    let near = Aabb::new(circle.center, circle.center).inflated(reach);
    let mut best: Option<Surface> = None;
    obstacles.query(near, |id, obstacle| {
        if id == skip || obstacle.sensor || !settings.layers.interacts(obstacle.layers) {
            return;
        }
        let Some((point, normal)) = obstacle.closest_to(circle.center) else {
            return;
        };
        let approach = -velocity.dot(normal);
        let opposed = normal.dot(facing);
        if (circle.center - point).length() > reach
            || !(approach > 0.0)
            || !(opposed < 0.0)
            || !obstacle.takes_contact(normal)
            || best.is_some_and(|b| b.normal.dot(facing) <= opposed)
        {
            return;
        }
        let combined = settings.material.combine(obstacle.material);
        best = Some(Surface {
            normal,
            velocity: Vec2::ZERO,
            restitution: contact_restitution(combined, approach, settings.resting_speed),
        });
    });
    best
}

/// The most times an elastic ball can bounce between two walls with these normals before
/// it comes out of their corner: `⌈π/α⌉ + 1`, where `α` is the angle between the walls
/// (unfold the corner by reflecting it about each wall the ball meets: the path becomes a
/// straight line, which crosses at most `⌈π/α⌉` copies of the walls). Parallel walls (a
/// channel) are no corner: they bound nothing, and the cap holds.
pub(crate) fn corner_bounces(a: Vec2, b: Vec2) -> u32 {
    // The angle between the walls, from the cross product: accurate near zero.
    let alpha = a.perp_dot(b).abs().atan2(-a.dot(b));
    if alpha > 0.0 {
        ((std::f32::consts::PI / alpha).ceil() as u32).saturating_add(1)
    } else {
        0
    }
}

fn leg_hit(
    obstacle: ObstacleId,
    hit: Hit,
    elapsed: f32,
    time_left: f32,
    velocity: Vec2,
    sensor: bool,
) -> BounceHit {
    BounceHit {
        obstacle,
        time: elapsed + hit.toi * time_left,
        hit,
        approach_speed: -velocity.dot(hit.normal),
        sensor,
        kick: 0.0,
    }
}

/// What one straight leg meets: the earliest solid contact and the sensors entered.
pub(crate) struct Leg {
    pub(crate) solid: Option<(ObstacleId, Material, Hit)>,
    /// Orders the solid contact against the others found (see [`ContactOrder`]).
    order: ContactOrder,
    sensors: [(ObstacleId, Hit); MAX_SENSOR_HITS_PER_LEG],
    sensor_count: usize,
}

impl Leg {
    pub(crate) fn sensors(&self) -> &[(ObstacleId, Hit)] {
        &self.sensors[..self.sensor_count]
    }

    /// Keep sensor hits sorted by toi; when full, drop the latest.
    fn push_sensor(&mut self, id: ObstacleId, hit: Hit) {
        keep_earliest(&mut self.sensors, &mut self.sensor_count, (id, hit), |e| e.1.toi);
    }
}

/// Insert `entry` into the first `*len` of `list`, kept sorted by `time`: the earliest
/// `list.len()` entries stay, and when the list is full the latest goes (which may be
/// `entry` itself).
pub(crate) fn keep_earliest<T: Copy>(list: &mut [T], len: &mut usize, entry: T, time: impl Fn(&T) -> f32) {
    let Some(&last) = list.last() else {
        return;
    };
    let mut k = *len;
    if k >= list.len() {
        if time(&entry) >= time(&last) {
            return;
        }
        k = list.len() - 1;
    } else {
        *len += 1;
    }
    while k > 0 && time(&list[k - 1]) > time(&entry) {
        list[k] = list[k - 1];
        k -= 1;
    }
    list[k] = entry;
}

pub(crate) fn earliest_on_leg<O: Obstacles + ?Sized>(
    circle: Circle,
    motion: Vec2,
    obstacles: &O,
    layers: Layers,
    skip: Option<ObstacleId>,
    just_met: Option<(ObstacleId, Vec2)>,
) -> Leg {
    let placeholder = (
        ObstacleId(u32::MAX),
        Hit {
            toi: 0.0,
            center: Vec2::ZERO,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
        },
    );
    let mut leg = Leg {
        solid: None,
        order: ContactOrder {
            toi: f64::INFINITY,
            feature: Feature::Round,
        },
        sensors: [placeholder; MAX_SENSOR_HITS_PER_LEG],
        sensor_count: 0,
    };
    let (solid, order) =
        earliest_solid_on_leg(circle, motion, obstacles, layers, skip, just_met, |id, hit| {
            leg.push_sensor(id, hit);
        });
    leg.solid = solid;
    leg.order = order;
    leg
}

/// [`earliest_on_leg`] without the sensor list: the earliest solid contact (and its
/// order), with every sensor entered passed to `on_sensor` as found (in no time order).
/// For callers that only count sensors, or keep them their own way: no list to fill.
///
/// `skip` is an obstacle to ignore. `just_met` is the solid contact the leg starts from
/// (obstacle and normal), if any: that obstacle met again at once from the other side is
/// the same contact (the circle's centre lies on it) and is dropped, so the side the
/// first contact chose holds (see [`met_again_from_behind`]).
#[inline]
pub(crate) fn earliest_solid_on_leg<O: Obstacles + ?Sized>(
    circle: Circle,
    motion: Vec2,
    obstacles: &O,
    layers: Layers,
    skip: Option<ObstacleId>,
    just_met: Option<(ObstacleId, Vec2)>,
    mut on_sensor: impl FnMut(ObstacleId, Hit),
) -> (Option<(ObstacleId, Material, Hit)>, ContactOrder) {
    let mut solid = None;
    let mut best = ContactOrder {
        toi: f64::INFINITY,
        feature: Feature::Round,
    };
    obstacles.query(
        Aabb::swept(circle.center, motion, circle.radius),
        |id, obstacle| {
            if !layers.interacts(obstacle.layers) || skip == Some(id) {
                return;
            }
            let Some((hit, order)) = obstacle.sweep_ordered(circle, motion) else {
                return;
            };
            if obstacle.sensor {
                // A sensor the circle already overlaps was entered earlier: not a new contact.
                if hit.toi > 0.0 {
                    on_sensor(id, hit);
                }
            } else if order.before(best)
                && !just_met.is_some_and(|(met, normal)| met == id && met_again_from_behind(&hit, normal))
            {
                solid = Some((id, obstacle.material, hit));
                best = order;
            }
        },
    );
    (solid, best)
}

#[cfg(test)]
mod tests;
