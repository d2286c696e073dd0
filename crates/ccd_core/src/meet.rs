//! What a ball does when it meets a surface (a wall, a moving part or a hinged body's
//! part): one decision, [`meet`], which the lone sweep (`bounce.rs`) and the event
//! machinery (`multiball/obstacle_contact.rs`) both call. Each gives it what the ball met
//! and answers its questions about the surroundings ([`Surroundings`]); each then carries
//! the outcome ([`Met`]) into its own state.
//!
//! The decision, in order:
//!
//! 1. **Restitution**: the combined material's at the approach speed (relative to the
//!    surface), 0 for a contact slower than the resting speed, and 0 for a ball that
//!    slides or stops ([`ResponseMode`]).
//! 2. **A second surface** the ball touches at the same instant, facing the first: its
//!    last contact, a moment ago, or a surface within touching distance now
//!    ([`second_surface`]). The two are one contact: a *corner*, or a *squeeze* when they
//!    close in on the ball.
//! 3. **Hinged bodies**: a part the ball pushes takes the impulse exchange, or one contact
//!    with its stop and the second surface ([`Surroundings::push`]).
//! 4. **The response** otherwise: bounce (with the surface's kick), slide or stop,
//!    relative to the surface; a corner or a squeeze as one contact.
//! 5. **Riding**: a graze of the inside of a still arc goes on along the next chord
//!    (`ride.rs`).
//! 6. **The speed limit** ([`limit_speed`]).
//! 7. **The bounce cap** ([`Bounces`]), raised in a corner by the bounces an elastic ball
//!    can take there ([`corner_bounces`]); a ball that stops dead on a still surface halts
//!    too.
//! 8. **Rest**, under gravity ([`Rest`]): a ball in flight that gravity presses on, and
//!    that came too slowly to bounce (or whose hop would be over within an instant),
//!    comes to rest there. Alone on the face of one still surface it *slides* along it;
//!    anywhere else it *settles*: it takes the rest of the step's gravity at once and
//!    moves on straight.

use crate::ball::Ball;
use crate::hit::{ContactWith, Hit};
use crate::material::Material;
use crate::obstacle::{Obstacle, ObstacleShape};
use crate::response::{
    ResponseMode, Surface, TwoSurfaces, contact_restitution, limit_speed, respond, two_surfaces,
};
use crate::ride::{ride_chord, ride_radius, rides_at_most};
use crate::shape::{Aabb, Segment};
use crate::simultaneous::MAX_BODIES;
use crate::tolerance::{MAX_WEDGE_BOUNCES, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL};
use glam::Vec2;

/// What the caller's world answers while a ball meets a surface: which other surfaces are
/// near it, which hold still, and what a hinged body does when the ball pushes it.
pub(crate) trait Surroundings {
    /// Calls `visit` with every solid surface whose box may meet `area`, walls first, then
    /// (if `moving`) the moving parts: what it is, the obstacle where it is at the
    /// contact's instant, and the velocity of its surface's point nearest `center`.
    fn surfaces_near(
        &self,
        area: Aabb,
        center: Vec2,
        moving: bool,
        visit: impl FnMut(ContactWith, &Obstacle, Vec2),
    );

    /// Whether a moving part's swept box meets `area`.
    fn moving_near(&self, area: Aabb) -> bool;

    /// The shape of `with`, looked up near `point`, if it holds still over the step (a
    /// wall, or a moving part that does not move this step).
    fn still_shape(&self, with: ContactWith, point: Vec2) -> Option<ObstacleShape>;

    /// The ball pushes a hinged body: `touch`, with the `second` surface it touches, if
    /// any. `Some` with the ball's new velocity and the bodies turned anew when a hinged
    /// body takes part; `None` when none does (the surfaces' response applies).
    fn push(&mut self, touch: Touch, second: Option<SurfaceOf>) -> Option<Pushed>;
}

/// The rules a contact follows, from the step's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// The step, seconds.
    pub(crate) dt: f32,
    /// Approach speed below which a contact does not bounce, units/s.
    pub(crate) resting_speed: f32,
    /// The step's gravity, units/s².
    pub(crate) gravity: Vec2,
}

/// What a ball met, and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meeting {
    /// What it met.
    pub(crate) with: ContactWith,
    /// Where: `hit.center` is the ball's centre, `hit.normal` points towards it.
    pub(crate) hit: Hit,
    /// Seconds since the step's start.
    pub(crate) time: f32,
    /// The surface's material.
    pub(crate) material: Material,
    /// The velocity of the surface's point under the ball (zero for a wall).
    pub(crate) surface_velocity: Vec2,
    /// The ball was in flight (under gravity, on its parabola): it may come to rest here.
    pub(crate) in_flight: bool,
}

/// A surface a ball touches, and whose it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SurfaceOf {
    pub(crate) with: ContactWith,
    pub(crate) surface: Surface,
}

/// A ball's contact with a surface, as a hinged body's push needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    /// The ball (its centre and velocity at the contact).
    pub(crate) ball: Ball,
    /// The contact's instant, seconds since the step's start.
    pub(crate) time: f32,
    /// What the ball met.
    pub(crate) with: ContactWith,
    /// Its surface there, with the contact's restitution.
    pub(crate) surface: Surface,
    /// Where.
    pub(crate) hit: Hit,
    /// The surface's material.
    pub(crate) material: Material,
    /// The approach speed along the normal, relative to the surface.
    pub(crate) approach: f32,
}

/// What a push of hinged bodies did: the ball's new velocity, and the box of each body
/// turned anew (whose nearby balls must be predicted again).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pushed {
    pub(crate) velocity: Vec2,
    pub(crate) turned: [Option<Aabb>; MAX_BODIES],
}

/// A ball's bounces so far in the step: how many, how many it may take before it waits
/// (the cap, raised in corners), and the last one with a wall or a moving part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Bounces {
    pub(crate) count: u32,
    pub(crate) allowed: u32,
    pub(crate) last: Option<LastContact>,
}

impl Bounces {
    /// None yet, `allowed` allowed.
    pub(crate) fn new(allowed: u32) -> Self {
        Self {
            count: 0,
            allowed,
            last: None,
        }
    }

    /// Whether the cap is reached: the ball waits at its last contact.
    #[inline]
    pub(crate) fn capped(&self) -> bool {
        self.count >= self.allowed.min(MAX_WEDGE_BOUNCES)
    }
}

/// A ball's last solid contact with a wall or a moving part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LastContact {
    pub(crate) with: ContactWith,
    pub(crate) normal: Vec2,
    pub(crate) surface_velocity: Vec2,
    /// The contact's restitution ([`contact_restitution`]).
    pub(crate) restitution: f32,
    /// Seconds since the step's start.
    pub(crate) time: f32,
}

/// A ball squeezed between two surfaces closing in on it: it ignores the faster for the
/// rest of the step, and is pushed out of it at the step's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Squeeze {
    /// The faster surface.
    pub(crate) faster: ContactWith,
    /// Its normal towards the ball when the squeeze began (which side the ball is on).
    pub(crate) faster_normal: Vec2,
    /// The slower surface, which the ball keeps to.
    pub(crate) slower: ContactWith,
    pub(crate) slower_normal: Vec2,
}

/// Why a ball waits at its contact for the rest of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// It reached the bounce cap.
    Capped,
    /// It stops ([`ResponseMode::Stop`]) on a surface that does not move.
    Stopped,
}

/// How a ball in flight comes to rest at a contact (see the [module](self) docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Rest {
    /// On this face of one still surface, alone: it slides along it, under gravity's part
    /// along the face, skipping the surface (it moves along it) until its foot leaves it.
    Slide(Segment),
    /// Anywhere else: the rest of the step's gravity at once, then straight.
    Settle,
}

/// What a ball does after meeting a surface.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Met {
    /// Its velocity from the contact on.
    pub(crate) velocity: Vec2,
    /// The approach speed along the normal, relative to the surface (what the contact
    /// report gives).
    pub(crate) approach: f32,
    /// The normal speed the surface's kick added (0 when it did not fire).
    pub(crate) kick: f32,
    /// Squeezed between two surfaces closing in.
    pub(crate) squeeze: Option<Squeeze>,
    /// A hinged body took part.
    pub(crate) pushed: bool,
    /// The boxes of the hinged bodies the push turned anew.
    pub(crate) turned: [Option<Aabb>; MAX_BODIES],
    /// It waits for the rest of the step.
    pub(crate) halt: Option<Halt>,
    /// It comes to rest there.
    pub(crate) rest: Option<Rest>,
}

/// Ball `ball` (its centre and velocity those of the contact's instant) meets a surface as
/// `meeting` says, with its `bounces` so far (updated): what it does (see the
/// [module](self) docs).
pub(crate) fn meet(
    world: &mut impl Surroundings,
    ball: &Ball,
    meeting: &Meeting,
    rules: &Rules,
    bounces: &mut Bounces,
) -> Met {
    let Meeting {
        with,
        hit,
        time,
        material,
        surface_velocity,
        ..
    } = *meeting;
    let combined = ball.material.combine(material);
    let approach = -(ball.velocity - surface_velocity).dot(hit.normal);
    let this = Surface {
        normal: hit.normal,
        velocity: surface_velocity,
        restitution: match ball.response {
            ResponseMode::Bounce => contact_restitution(combined, approach, rules.resting_speed),
            ResponseMode::Slide | ResponseMode::Stop => 0.0,
        },
    };
    let second = match ball.response {
        ResponseMode::Bounce => second_surface(&*world, ball, meeting, this, bounces.last, rules),
        _ => None,
    };
    let pushed = match ball.response {
        ResponseMode::Stop => None,
        _ => {
            let touch = Touch {
                ball: *ball,
                time,
                with,
                surface: this,
                hit,
                material,
                approach,
            };
            world.push(touch, second)
        }
    };
    let mut met = match pushed {
        // A hinged body takes no kick: its impulse is the whole exchange.
        Some(p) => Met {
            velocity: p.velocity,
            turned: p.turned,
            pushed: true,
            ..Met::new(approach)
        },
        None => response(
            ball,
            SurfaceOf { with, surface: this },
            second,
            combined,
            approach,
            rules,
        ),
    };
    // A graze of the inside of a still arc rides it: it neither rests nor settles there.
    let ride = match (with, second, ball.response) {
        (ContactWith::Obstacle(_), None, ResponseMode::Bounce) => {
            ride(&*world, ball, meeting, met.velocity, approach)
        }
        _ => None,
    };
    met.velocity = limit_speed(ride.unwrap_or(met.velocity), ball.max_speed);
    let stops_dead = ball.response == ResponseMode::Stop && surface_velocity == Vec2::ZERO;
    met.halt = count(
        bounces,
        LastContact {
            with,
            normal: this.normal,
            surface_velocity,
            restitution: this.restitution,
            time,
        },
    )
    .or(stops_dead.then_some(Halt::Stopped));
    if ride.is_none() && met.halt.is_none() {
        met.rest = rest(&*world, ball, meeting, &met, second.is_some(), rules);
        let (v, n) = (met.velocity, hit.normal);
        match met.rest {
            // Along the face, exactly: the slide skips the surface it moves along.
            Some(Rest::Slide(_)) => met.velocity = v - n * v.dot(n),
            Some(Rest::Settle) => met.velocity = v + rules.gravity * (rules.dt - time),
            None => {}
        }
    }
    met
}

impl Met {
    /// Nothing decided yet but the approach.
    fn new(approach: f32) -> Self {
        Self {
            velocity: Vec2::ZERO,
            approach,
            kick: 0.0,
            squeeze: None,
            pushed: false,
            turned: [None; MAX_BODIES],
            halt: None,
            rest: None,
        }
    }
}

/// The velocity of `ball` after meeting surface `met` at `approach` (`combined`: the
/// ball's and the surface's materials): alone (bounce with the kick, slide or stop, relative to the
/// surface), or as one contact with a `second` surface it still touches (a corner, or a
/// squeeze), where no kick fires.
fn response(
    ball: &Ball,
    met: SurfaceOf,
    second: Option<SurfaceOf>,
    combined: Material,
    approach: f32,
    rules: &Rules,
) -> Met {
    let this = met.surface;
    let mut out = Met::new(approach);
    match (ball.response, second) {
        (ResponseMode::Bounce, Some(other)) => match two_surfaces(ball.velocity, this, other.surface) {
            TwoSurfaces::Leave(v) => out.velocity = v,
            TwoSurfaces::Squeezed {
                velocity,
                faster_is_b,
            } => {
                let (faster, slower) = if faster_is_b { (other, met) } else { (met, other) };
                out.velocity = velocity;
                out.squeeze = Some(Squeeze {
                    faster: faster.with,
                    faster_normal: faster.surface.normal,
                    slower: slower.with,
                    slower_normal: slower.surface.normal,
                });
            }
        },
        (mode, _) => {
            if mode == ResponseMode::Bounce {
                out.kick = combined.kick.added(approach, combined.restitution_at(approach));
            }
            // Relative to a moving surface; a wall's velocity is zero, and is neither taken
            // off nor added (that would turn a −0 into a +0).
            out.velocity = if this.velocity == Vec2::ZERO {
                respond(mode, ball.velocity, this.normal, combined, rules.resting_speed)
            } else {
                respond(
                    mode,
                    ball.velocity - this.velocity,
                    this.normal,
                    combined,
                    rules.resting_speed,
                ) + this.velocity
            };
        }
    }
    out
}

/// Another surface `ball` touches as it meets `meeting`'s (whose surface is `this`),
/// facing `this` (their normals more than 90° apart): the most opposed one. It is the
/// `last` contact if that was with something else a moment ago (within
/// [`SIMULTANEOUS_TIME_REL`] of the step); else, where moving parts are near, any surface
/// within touching distance (a flipper striking a ball that rests on a wall); else a wall
/// the ball moves into at this very instant too (straight into a corner).
pub(crate) fn second_surface(
    world: &impl Surroundings,
    ball: &Ball,
    meeting: &Meeting,
    this: Surface,
    last: Option<LastContact>,
    rules: &Rules,
) -> Option<SurfaceOf> {
    if let Some(last) = last
        && last.with != meeting.with
        && last.normal.dot(this.normal) < 0.0
        && meeting.time - last.time <= SIMULTANEOUS_TIME_REL * rules.dt
    {
        let surface = Surface {
            normal: last.normal,
            velocity: last.surface_velocity,
            restitution: last.restitution,
        };
        return Some(SurfaceOf {
            with: last.with,
            surface,
        });
    }
    let reach = ball.radius * (1.0 + TOUCH_SLOP_REL);
    let near = Aabb::new(ball.center, ball.center).inflated(reach);
    let moving_near = world.moving_near(near);
    let mut best: Option<SurfaceOf> = None;
    world.surfaces_near(near, ball.center, moving_near, |candidate, obstacle, velocity| {
        if candidate == meeting.with || obstacle.sensor || !ball.layers.interacts(obstacle.layers) {
            return;
        }
        let Some((point, normal)) = obstacle.closest_to(ball.center) else {
            return;
        };
        let approach = -(ball.velocity - velocity).dot(normal);
        // Away from moving parts, only a wall the ball moves into at this instant.
        if (ball.center - point).length() > reach
            || !obstacle.takes_contact(point, normal)
            || (!moving_near && !(approach > 0.0))
        {
            return;
        }
        let facing = normal.dot(this.normal);
        if facing < 0.0 && best.is_none_or(|b| facing < b.surface.normal.dot(this.normal)) {
            let combined = ball.material.combine(obstacle.material);
            let surface = Surface {
                normal,
                velocity,
                restitution: contact_restitution(combined, approach, rules.resting_speed),
            };
            best = Some(SurfaceOf {
                with: candidate,
                surface,
            });
        }
    });
    best
}

/// The velocity along the next chord, if `ball` (at its velocity before the contact)
/// grazed the inside of a still arc, and the contact left it at `after` (see `ride.rs`).
/// Most contacts are turned away by their angle alone, before the shape is looked up.
fn ride(
    world: &impl Surroundings,
    ball: &Ball,
    meeting: &Meeting,
    after: Vec2,
    approach: f32,
) -> Option<Vec2> {
    let before = ball.velocity;
    if !rides_at_most(approach, before) {
        return None;
    }
    let hit = &meeting.hit;
    let shape = world.still_shape(meeting.with, hit.point)?;
    let radius = ride_radius(&shape, hit, ball.radius)?;
    ride_chord([before, after], approach, hit.normal, radius, ball.radius)
}

/// Count a bounce `this` against the cap of `bounces` (raised in a corner: as many more
/// bounces as an elastic ball can take there), and remember it. `Some(Halt::Capped)` at
/// the cap.
fn count(bounces: &mut Bounces, this: LastContact) -> Option<Halt> {
    bounces.count += 1;
    if bounces.count >= bounces.allowed
        && let Some(last) = bounces.last
        && last.with != this.with
    {
        bounces.allowed = bounces.allowed.max(
            bounces
                .count
                .saturating_add(corner_bounces(last.normal, this.normal)),
        );
    }
    bounces.last = Some(this);
    bounces.capped().then_some(Halt::Capped)
}

/// Whether, and how, a ball in flight comes to rest at the contact `meeting` that left it
/// `met` (see [`Rest`]): gravity presses it on, and it came slower than the resting speed
/// or than a fall from within the touch slop gives, `sqrt(2·g_n·slop)` (a centre rounded a
/// hair off the surface falls back onto it: that is no bounce), or it leaves so slowly that
/// its hop would be over within an instant of the step ([`SIMULTANEOUS_TIME_REL`]). It
/// slides when it is alone on the face of one still surface (no `corner`, no hinged body).
fn rest(
    world: &impl Surroundings,
    ball: &Ball,
    meeting: &Meeting,
    met: &Met,
    corner: bool,
    rules: &Rules,
) -> Option<Rest> {
    let normal = meeting.hit.normal;
    let pressing = -rules.gravity.dot(normal);
    if !meeting.in_flight || !(pressing > 0.0) {
        return None;
    }
    let settling = (2.0 * pressing * TOUCH_SLOP_REL * ball.radius).sqrt();
    let approach = met.approach;
    // A hop at speed u lasts 2u / g_n.
    let hop = 0.5 * pressing * SIMULTANEOUS_TIME_REL * rules.dt;
    let leaving = (met.velocity - meeting.surface_velocity).dot(normal);
    let resting = approach < rules.resting_speed.max(settling) || !(approach > 0.0) || leaving <= hop;
    if !resting {
        return None;
    }
    let alone = !corner && !met.pushed && meeting.surface_velocity == Vec2::ZERO;
    let face = alone
        .then(|| world.still_shape(meeting.with, meeting.hit.point))
        .flatten()
        .and_then(|shape| shape.face_near(meeting.hit.center));
    Some(face.map_or(Rest::Settle, Rest::Slide))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_bounces_by_hand() {
        // A V of angle α opening along +x: its walls' normals, facing into it, are
        // (sin(α/2), ∓cos(α/2)); the cap is raised by ⌈π/α⌉ + 1.
        let normals = |degrees: f32| {
            let (s, c) = (degrees.to_radians() / 2.0).sin_cos();
            (Vec2::new(s, -c), Vec2::new(s, c))
        };
        // The README's figures: a cap of 16, raised in a 1° V by 180 + 1, up to 1,024.
        assert_eq!(crate::SweepSettings::default().max_bounces, 16);
        let (a, b) = normals(1.0);
        assert_eq!(corner_bounces(a, b), 181);
        assert_eq!(crate::MAX_WEDGE_BOUNCES, 1024);
        // MAX_WEDGE_BOUNCES "covers a V of 0.18°" (π/α = 1,000), and no narrower by much:
        // at 0.17°, ⌈π/α⌉ = 1,059.
        let (a, b) = normals(0.18);
        assert!(corner_bounces(a, b) <= crate::MAX_WEDGE_BOUNCES);
        let (a, b) = normals(0.17);
        assert!(corner_bounces(a, b) > crate::MAX_WEDGE_BOUNCES);
        // Parallel walls (a channel) are no corner.
        assert_eq!(corner_bounces(Vec2::Y, -Vec2::Y), 0);
    }
}
