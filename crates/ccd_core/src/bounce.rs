//! The multi-bounce sweep: move a circle through a whole time step, bouncing as often as
//! it must, with no time lost and no tunnelling.

use crate::hit::Hit;
use crate::material::Material;
use crate::obstacle::{Layers, ObstacleId, Obstacles};
use crate::parabola::{Parabola, PathLeg};
use crate::response::{ResponseMode, limit_speed, respond};
use crate::response::{Surface, TwoSurfaces, contact_restitution, two_surfaces};
use crate::ride::ride_after;
use crate::shape::{Aabb, Circle, ShapeError};
use crate::tolerance::{DEFAULT_MAX_BOUNCES, MAX_WEDGE_BOUNCES, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL};
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
    /// The fastest the circle leaves a contact, units per second: each contact's response
    /// is scaled down to it ([`limit_speed`](crate::limit_speed)). Default
    /// `f32::INFINITY`: no limit.
    pub max_speed: f32,
    /// Constant acceleration, in units per second². Default zero: every leg is straight.
    /// Otherwise each leg is a [`Parabola`] and each contact is found on it, with the
    /// velocity of that instant; a ball that gravity presses onto a face, with no speed to
    /// leave it, slides along it (see the crate's `bounce/slide.rs`).
    pub gravity: Vec2,
}

impl Default for SweepSettings {
    fn default() -> Self {
        Self {
            max_bounces: DEFAULT_MAX_BOUNCES,
            resting_speed: 0.0,
            response: ResponseMode::Bounce,
            material: Material::ELASTIC,
            layers: Layers::ALL,
            max_speed: f32::INFINITY,
            gravity: Vec2::ZERO,
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
    on_hit: impl FnMut(&BounceHit),
) -> Result<SweepOutcome, ShapeError> {
    sweep_legs(circle, velocity, dt, obstacles, settings, on_hit, |_| {})
}

/// [`sweep_bounces`], passing `on_leg` every leg it travels, in order: from the start or a
/// contact to the next contact, a slide's end or the step's end, each on one curve.
pub(crate) fn sweep_legs<O: Obstacles + ?Sized>(
    circle: Circle,
    velocity: Vec2,
    dt: f32,
    obstacles: &O,
    settings: &SweepSettings,
    mut on_hit: impl FnMut(&BounceHit),
    mut on_leg: impl FnMut(PathLeg),
) -> Result<SweepOutcome, ShapeError> {
    check_inputs(circle, velocity, dt)?;
    if !settings.gravity.is_finite() {
        return Err(ShapeError::NonFinite { field: "gravity" });
    }
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
    let mut sliding: Option<Slide> = None;
    let mut sensors = SensorHits::new();
    // Each pass is one leg; every pass but the last resolves a bounce or ends a slide at
    // its face's end (after which the next contact is a bounce), so the bounce cap (at
    // most `MAX_WEDGE_BOUNCES`) bounds the loop.
    loop {
        let time_left = dt - elapsed;
        if !(time_left > 0.0) {
            break;
        }
        let here = circle.at(out.center);
        let Some((path, duration)) =
            leg_path(out.velocity, settings.gravity, sliding, here.center, time_left)
        else {
            break;
        };
        // The wall just met, if the circle's centre lies on it, is met again at once from
        // the other side: that contact is dropped (see `met_again_from_behind`).
        let just_met = last.map(|(id, s, _)| (id, s.normal));
        let skip = sliding.map(|s| s.obstacle);
        let found = earliest_on_path(
            here,
            path,
            obstacles,
            settings.layers,
            skip,
            just_met,
            &mut sensors,
        );
        for sensor in sensors.as_slice() {
            if found.as_ref().is_none_or(|solid| sensor.1.toi <= solid.hit.toi) {
                let (_, at) = path.at(sensor.1.toi, out.velocity);
                on_hit(&leg_hit(sensor.0, sensor.1, elapsed, duration, at, true));
            }
        }
        on_leg(path.travelled(
            here.center,
            out.velocity,
            duration,
            found.as_ref().map(|f| f.hit.toi),
        ));
        let Some(solid) = found else {
            let (moved, end_velocity) = path.at(1.0, out.velocity);
            out.center += moved;
            out.velocity = end_velocity;
            if duration < time_left {
                // The slide reached its face's end: free again.
                elapsed += duration;
                sliding = None;
                continue;
            }
            break;
        };
        let (id, hit) = (solid.id, solid.hit);
        let (_, at_contact) = path.at(hit.toi, out.velocity);
        let mut event = leg_hit(id, hit, elapsed, duration, at_contact, false);
        out.center = hit.center;
        elapsed = event.time;
        out.bounces += 1;
        let combined = settings.material.combine(solid.material);
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
                approached_touching(obstacles, ball, at_contact, settings, id, hit.normal)
            });
        (out.velocity, event.kick) = contact_velocity(at_contact, this, corner, combined, settings);
        if corner.is_none()
            && settings.response == ResponseMode::Bounce
            && let Some(v) = ride_after(
                obstacles,
                id,
                &hit,
                [at_contact, out.velocity],
                event.approach_speed,
                circle.radius,
            )
        {
            out.velocity = v;
        }
        out.velocity = limit_speed(out.velocity, settings.max_speed);
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
        let held_by = corner.map(|s| s.normal).or(sliding.map(|s| s.normal));
        sliding = next_slide(
            obstacles,
            &solid,
            &mut out.velocity,
            settings,
            event.approach_speed,
            circle.radius,
            dt,
        );
        if let (Some(slide), Some(other)) = (sliding, held_by)
            && slide.wedged_with(other, settings.gravity)
        {
            // Wedged between two faces that hold it against gravity: at rest for the rest
            // of the step.
            out.velocity = Vec2::ZERO;
            break;
        }
        last = Some((id, this, elapsed));
    }
    Ok(out)
}

/// The next leg's path from `center` and its duration: straight without gravity (`None`
/// when it does not move), a curve under gravity, or, sliding on a face, a curve under
/// gravity's part along it, cut where the centre's foot leaves the face.
#[inline(always)]
fn leg_path(
    velocity: Vec2,
    gravity: Vec2,
    sliding: Option<Slide>,
    center: Vec2,
    time_left: f32,
) -> Option<(LegPath, f32)> {
    if gravity == Vec2::ZERO {
        let motion = velocity * time_left;
        return (motion != Vec2::ZERO).then_some((LegPath::Straight(motion), time_left));
    }
    let Some(slide) = sliding else {
        return Some((
            LegPath::Curved(Parabola::new(velocity, gravity, time_left)),
            time_left,
        ));
    };
    let along = Parabola::new(velocity, slide.gravity(gravity), time_left);
    let duration = slide
        .leaves_at(center, along)
        .map_or(time_left, |s| (s * f64::from(time_left)) as f32);
    Some((LegPath::Curved(Parabola { duration, ..along }), duration))
}

/// The slide a contact starts under gravity, if any, with `velocity` (the one after the
/// contact) turned along the face. A ball slides when the contact is a resting one: pressed
/// on by gravity alone, or approached slower than `resting_speed` or than a fall from
/// within the touch slop ([`TOUCH_SLOP_REL`] of the radius) gives, `sqrt(2·g_n·slop)` (a
/// centre rounded a hair above the face falls back onto it: that is no bounce). It also
/// slides when its hop would be over within an instant of the step.
fn next_slide<O: Obstacles + ?Sized>(
    obstacles: &O,
    solid: &Solid,
    velocity: &mut Vec2,
    settings: &SweepSettings,
    approach: f32,
    radius: f32,
    dt: f32,
) -> Option<Slide> {
    if settings.gravity == Vec2::ZERO {
        return None;
    }
    let pressing = -settings.gravity.dot(solid.hit.normal);
    let settling = (2.0 * pressing.max(0.0) * TOUCH_SLOP_REL * radius).sqrt();
    let hop_speed = if approach < settings.resting_speed.max(settling) || !(approach > 0.0) {
        f32::INFINITY
    } else {
        // A hop at speed u lasts 2u / g_n.
        0.5 * pressing * SIMULTANEOUS_TIME_REL * dt
    };
    let slide = Slide::after(obstacles, solid, *velocity, settings.gravity, hop_speed)?;
    *velocity = slide.along(*velocity);
    Some(slide)
}

/// The circle, its velocity and the step, or the first bad one.
#[inline]
fn check_inputs(circle: Circle, velocity: Vec2, dt: f32) -> Result<(), ShapeError> {
    // All good, by one branch (every test taken); the first bad one named below.
    let good = circle.center.is_finite()
        & circle.radius.is_finite()
        & (circle.radius >= 0.0)
        & velocity.is_finite()
        & dt.is_finite()
        & (dt >= 0.0);
    if good {
        return Ok(());
    }
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
            || !obstacle.takes_contact(point, normal)
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

/// The contact `hit` of a leg of `duration` seconds that started at `elapsed`, met at
/// `velocity`.
fn leg_hit(
    obstacle: ObstacleId,
    hit: Hit,
    elapsed: f32,
    duration: f32,
    velocity: Vec2,
    sensor: bool,
) -> BounceHit {
    BounceHit {
        obstacle,
        time: elapsed + hit.toi * duration,
        hit,
        approach_speed: -velocity.dot(hit.normal),
        sensor,
        kick: 0.0,
    }
}

mod leg;
mod slide;

pub(crate) use leg::{LegPath, earliest_solid, keep_earliest};
use leg::{SensorHits, Solid, earliest_on_path};
use slide::Slide;
pub(crate) use slide::foot_leaves_face;

#[cfg(test)]
mod tests;
