//! A ball meets a wall or a moving obstacle.

use super::hinges::{SurfaceOf, Touch};
use super::report::{Contact, ContactWith, MultiballReport};
use super::sim::Sim;
use super::state::{LastContact, Pinched};
use crate::bounce::corner_bounces;
use crate::hit::Hit;
use crate::material::Material;
use crate::obstacle::{ObstacleShape, Obstacles};
use crate::response::{
    ResponseMode, Surface, TwoSurfaces, contact_restitution, limit_speed, respond, two_surfaces,
};
use crate::ride::ride_after;
use crate::shape::{Aabb, Segment};
use crate::simultaneous::MAX_BODIES;
use crate::tolerance::MAX_WEDGE_BOUNCES;
use glam::Vec2;

/// A contact with a wall or a moving obstacle, as predicted.
#[derive(Clone, Copy, Debug)]
pub(super) struct ObstacleHit {
    pub(super) with: ContactWith,
    pub(super) material: Material,
    pub(super) hit: Hit,
    /// The velocity of the surface's point under the ball (zero for a wall).
    pub(super) surface_velocity: Vec2,
}

/// A ball's new velocity after a contact, and the normal speed the surface's kick added.
#[derive(Clone, Copy, Debug)]
struct Response {
    velocity: Vec2,
    kick: f32,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `i` meets a wall or a moving obstacle at `time`: report it, change the velocity
    /// (alone, or with a second surface it still touches: a corner or a squeeze), count
    /// it against the bounce cap (raised in corners), and predict the ball's next event.
    pub(super) fn resolve_obstacle(
        &mut self,
        i: usize,
        time: f32,
        contact: ObstacleHit,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let ObstacleHit {
            with,
            material,
            mut hit,
            surface_velocity,
        } = contact;
        self.flush_sensors(i, time, on_contact);
        let clock = self.step.clock[i];
        if clock.curved || clock.sliding {
            // In flight or sliding: met with the velocity of this instant.
            self.balls[i].velocity = self.velocity_at(i, time);
            self.step.clock[i].time = time;
        }
        if clock.sliding {
            // Off its wall's line (or into another): it settles as any other ball at rest.
            self.settle(i);
        }
        let ball = self.balls[i];
        if let ContactWith::Moving(index) = with
            && matches!(
                self.moving[index].obstacle.shape,
                ObstacleShape::Segment(_) | ObstacleShape::Edge(_) | ObstacleShape::Capsule(_)
            )
        {
            hit.center = touching_center(hit, ball.radius);
        }
        let approach_speed = -(ball.velocity - surface_velocity).dot(hit.normal);
        self.balls[i].center = hit.center;
        let combined = ball.material.combine(material);
        let this = Surface {
            normal: hit.normal,
            velocity: surface_velocity,
            restitution: match ball.response {
                ResponseMode::Bounce => {
                    contact_restitution(combined, approach_speed, self.settings.resting_speed)
                }
                ResponseMode::Slide | ResponseMode::Stop => 0.0,
            },
        };
        let second = match ball.response {
            ResponseMode::Bounce => self.second_surface(i, time, with, this),
            _ => None,
        };
        let pushed = match ball.response {
            ResponseMode::Stop => None,
            _ => {
                let touch = Touch {
                    with,
                    surface: this,
                    hit,
                    material,
                    approach: approach_speed,
                };
                self.hinge_contact(i, time, touch, second)
            }
        };
        let turned = pushed.map_or([None; MAX_BODIES], |p| p.turned);
        let Response { velocity, kick } = match pushed {
            // A hinge takes no kick: its impulse is the whole exchange.
            Some(p) => Response {
                velocity: p.velocity,
                kick: 0.0,
            },
            None => self.obstacle_velocity(
                i,
                SurfaceOf { with, surface: this },
                second,
                combined,
                approach_speed,
            ),
        };
        on_contact(&Contact {
            ball: i,
            with,
            time,
            hit,
            approach_speed,
            other_velocity: surface_velocity,
            sensor: false,
            kick,
        });
        // A graze of the inside of a still arc rides it, chord by chord (`ride.rs`): it
        // neither rests nor settles there.
        let ride = match (with, second, ball.response) {
            (ContactWith::Obstacle(id), None, ResponseMode::Bounce) => ride_after(
                self.obstacles,
                id,
                &hit,
                [ball.velocity, velocity],
                approach_speed,
                ball.radius,
            ),
            _ => None,
        };
        self.balls[i].velocity = limit_speed(ride.unwrap_or(velocity), ball.max_speed);
        let clock = &mut self.step.clock[i];
        clock.time = time;
        clock.version = clock.version.wrapping_add(1);
        report.bounces += 1;
        let stops_dead = ball.response == ResponseMode::Stop && surface_velocity == Vec2::ZERO;
        self.count_bounce(i, time, with, this, stops_dead);
        if ride.is_none() && self.comes_to_rest(i, approach_speed, hit.normal) {
            // On the face of one still surface that takes no friction and no push, it
            // slides exactly.
            let face = (second.is_none()
                && pushed.is_none()
                && surface_velocity == Vec2::ZERO
                && !(combined.friction > 0.0))
                .then(|| self.still_face(with, &hit))
                .flatten();
            match face {
                Some(face) => self.slide_on(i, face, hit.normal),
                None => self.settle(i),
            }
        }
        self.moved(i);
        if turned.iter().any(Option::is_some) {
            report.hinge_impacts += 1;
        }
        for near in turned.into_iter().flatten() {
            self.repredict_near(near, time, Some(i), on_contact);
        }
        self.repredict(i);
    }

    /// The velocity of ball `i` after meeting surface `met` (with `combined`
    /// the ball's and the surface's materials): alone, or with a `second` surface it still
    /// touches (a corner or a squeeze; a squeeze is remembered in the ball's state), and the
    /// normal speed the surface's kick added (it fires only on a contact with one surface).
    fn obstacle_velocity(
        &mut self,
        i: usize,
        met: SurfaceOf,
        second: Option<SurfaceOf>,
        combined: Material,
        approach_speed: f32,
    ) -> Response {
        let ball = self.balls[i];
        let this = met.surface;
        match (ball.response, second) {
            (ResponseMode::Bounce, Some(other)) => {
                let velocity = match two_surfaces(ball.velocity, this, other.surface) {
                    TwoSurfaces::Leave(v) => v,
                    TwoSurfaces::Squeezed {
                        velocity,
                        faster_is_b,
                    } => {
                        let (faster, slower) = if faster_is_b { (other, met) } else { (met, other) };
                        self.step.clock[i].pinched = true;
                        self.step.state[i].pinched = Some(Pinched {
                            faster: faster.with,
                            faster_normal: faster.surface.normal,
                            slower: slower.with,
                            slower_normal: slower.surface.normal,
                        });
                        velocity
                    }
                };
                Response { velocity, kick: 0.0 }
            }
            // Stopping on a moving surface means riding along with it.
            (ResponseMode::Stop, _) => Response {
                velocity: this.velocity,
                kick: 0.0,
            },
            (mode, _) => {
                let relative = ball.velocity - this.velocity;
                let kick = match mode {
                    ResponseMode::Bounce => combined
                        .kick
                        .added(approach_speed, combined.restitution_at(approach_speed)),
                    _ => 0.0,
                };
                let velocity = respond(mode, relative, this.normal, combined, self.settings.resting_speed)
                    + this.velocity;
                Response { velocity, kick }
            }
        }
    }

    /// The face of `with` that the ball of `hit` touches, if its centre lies within that
    /// face and `with` holds still (a wall, or a moving obstacle without motion this
    /// step): not an end cap, a round shape or a ball. A capsule's face is moved out to
    /// its surface. Only such a face holds a slide.
    fn still_face(&self, with: ContactWith, hit: &Hit) -> Option<Segment> {
        let point = hit.point;
        let mut shape = None;
        match with {
            ContactWith::Moving(index) => {
                let m = &self.moving[index];
                if m.motion.angle == 0.0 && m.motion.pivot_motion == Vec2::ZERO {
                    shape = Some(m.obstacle.shape);
                }
            }
            ContactWith::Obstacle(id) => self.obstacles.query(Aabb::new(point, point), |found, o| {
                if found == id {
                    shape = Some(o.shape);
                }
            }),
            ContactWith::Ball(_) => {}
        }
        shape?.face_near(hit.center)
    }

    /// Count a contact of ball `i` with `with` against its bounce cap (raised in corners:
    /// as many more contacts as an elastic ball can take there), freeze the ball at the
    /// cap or when it `stops_dead`, and remember the contact.
    fn count_bounce(&mut self, i: usize, time: f32, with: ContactWith, this: Surface, stops_dead: bool) {
        let s = &mut self.step.state[i];
        s.bounces += 1;
        if s.bounces >= s.allowed
            && let Some(last) = s.last
            && last.with != with
        {
            s.allowed = s
                .allowed
                .max(s.bounces.saturating_add(corner_bounces(last.normal, this.normal)));
        }
        if s.bounces >= s.allowed.min(MAX_WEDGE_BOUNCES) || stops_dead {
            self.step.clock[i].frozen = true;
            // At the cap against a moving surface: ride with it rather than let it move on
            // into the waiting ball.
            if let ContactWith::Moving(index) = with {
                s.riding = Some(index);
            }
        }
        s.last = Some(LastContact {
            with,
            normal: this.normal,
            surface_velocity: this.velocity,
            restitution: this.restitution,
            time,
        });
    }
}

/// Where a ball that met a moving segment at `hit` touches it. The moving segment's search
/// finds a contact to within its tolerance, and may report it up to one tolerance inside
/// the segment; the next contact with the same part is then searched from there, so a
/// ball in sustained contact with one (pushing a spring-loaded gate open, several
/// contacts a step) would sink by up to a tolerance per contact. Put back at the contact
/// distance along the contact normal, it starts every contact from the surface.
fn touching_center(hit: Hit, radius: f32) -> Vec2 {
    if hit.center.distance(hit.point) < radius {
        hit.point + hit.normal * radius
    } else {
        hit.center
    }
}
