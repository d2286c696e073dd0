//! A ball meets a wall or a moving obstacle: what it does is [`meet`]'s decision (the
//! same as for a lone ball); here the event machinery asks it, answers its questions
//! about the ball's surroundings ([`Around`]), and carries the outcome into the ball's
//! clock and state.

use super::cluster::{ClusterBuffers, Seed, Touching};
use super::report::Contact;
use super::round::landed;
use super::sim::Sim;
use super::state::SlideOn;
use crate::bounce::{leave_clear, seat, still_wall};
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::material::Material;
use crate::meet::{
    Meeting, Met, Pushed, Rest, RestRule, Rules, SurfaceOf, Surroundings, Touch, meet, wedged,
};
use crate::obstacle::{Obstacle, ObstacleShape, Obstacles};
use crate::ride::{grazes_inside, ridden, rides_at_most};
use crate::shape::Aabb;
use crate::tolerance::SEPARATION_SPEED_REL;
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

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `i` meets a wall or a moving obstacle at `time`: [`meet`] decides what it does;
    /// the contact is reported, the ball's clock and state follow, and it (and the balls
    /// near a hinged body it turned) are predicted again. A ball that strikes the surface
    /// (no slower than the resting speed) while it touches another ball is one contact with
    /// it and the surface instead (`cluster.rs`).
    pub(super) fn resolve_obstacle(
        &mut self,
        i: usize,
        time: f32,
        contact: ObstacleHit,
        bufs: &mut ClusterBuffers,
    ) {
        let left_with = self.left_with(i, contact);
        let sliding_on = self.wedging_slide(i, contact);
        let contact = self.arrive(i, time, contact, sliding_on.is_some());
        if self.strikes_beside_a_ball(i, time, contact, bufs) {
            return;
        }
        let beside_ball = self.grazes_beside_a_ball(i, time, contact, bufs);
        if !beside_ball {
            self.unsettle_graze(i, time, contact);
        }
        let ObstacleHit {
            with,
            material,
            hit,
            surface_velocity,
        } = contact;
        let ball = self.balls[i];
        let meeting = Meeting {
            with,
            hit,
            time,
            material,
            surface_velocity,
            rule: RestRule::Event {
                in_flight: self.step.clock[i].curved,
                sliding_on,
                left_with,
                beside_ball,
            },
        };
        let rules = Rules {
            dt: self.dt,
            resting_speed: self.settings.resting_speed,
            gravity: self.gravity_of(i),
        };
        let mut bounces = self.step.state[i].bounces;
        let met = meet(
            &mut Around { sim: self, time },
            &ball,
            &meeting,
            &rules,
            &mut bounces,
        );
        self.step.state[i].bounces = bounces;
        self.contacts.push(Contact {
            ball: i,
            with,
            time,
            hit,
            approach_speed: met.approach,
            other_velocity: surface_velocity,
            sensor: false,
            kick: met.kick,
        });
        self.report.bounces += 1;
        self.follow(i, &meeting, &met);
        self.moved(i);
        if met.turned.iter().any(Option::is_some) {
            self.report.hinge_impacts += 1;
        }
        for near in met.turned.into_iter().flatten() {
            self.repredict_near(near, time, Some(i));
        }
        self.repredict(i);
    }

    /// Ball `i`'s clock and state after `meeting` left it as `met`: its new velocity from
    /// the contact's instant, squeezed, waiting (riding a moving obstacle it waits on), or
    /// at rest (sliding, or settled).
    fn follow(&mut self, i: usize, meeting: &Meeting, met: &Met) {
        self.balls[i].velocity = met.velocity;
        let clock = &mut self.step.clock[i];
        clock.time = meeting.time;
        clock.version = clock.version.wrapping_add(1);
        let state = &mut self.step.state[i];
        if let Some(squeeze) = met.squeeze {
            clock.squeezed = true;
            state.squeeze = Some(squeeze);
        }
        if met.halt.is_some() {
            clock.waiting = true;
            // Waiting against a moving obstacle: ride with it rather than let it move on
            // into the waiting ball.
            if let ContactWith::Moving(index) = meeting.with {
                state.riding = Some(index);
            }
        }
        match met.rest {
            // (The event machinery's slide has friction in its acceleration: `event_slide`.)
            Some(Rest::Slide {
                face,
                acceleration,
                friction,
            }) => {
                clock.curved = false;
                // On a level frictionless face gravity has no part along it: the leg is
                // straight.
                clock.sliding = acceleration != Vec2::ZERO;
                let ball = &mut self.balls[i];
                ball.center = seat(ball.center, face, meeting.hit.normal, ball.radius);
                state.slide = Some(SlideOn {
                    face,
                    acceleration,
                    friction,
                });
            }
            Some(Rest::Ride {
                on,
                ridden,
                friction,
                speed,
            }) => {
                let on = match on {
                    ContactWith::Obstacle(id) => Some((id, ridden)),
                    ContactWith::Moving(_) | ContactWith::Ball(_) => None,
                };
                let start = landed(self.balls[i].center, met.velocity, speed);
                if !on.is_some_and(|on| self.start_round(i, on, friction, start)) {
                    self.settle(i);
                }
            }
            // Held in a V, it carries no gravity (`meet.rs`); settled, the rest of the step's.
            Some(Rest::Settle | Rest::Held) => clock.curved = false,
            Some(Rest::Leaves) => {
                // Off a round part's outside along its tangent: it flies on from just
                // clear of it, as a lone ball does.
                let ball = &mut self.balls[i];
                (ball.center, ball.velocity) = leave_clear(&meeting.hit, ball.velocity);
            }
            None => {}
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Settled ball `i` (it carries the rest of the step's gravity, `settle.rs`) that
    /// grazes the inside of a wall's round part at `time` flies from there, that gravity
    /// taken back, so that it rides the part as a ball in flight does (`meet.rs`). (Moving
    /// on straight, it met the part again along chords, 2e-5 s apart, to the bounce cap.)
    fn unsettle_graze(&mut self, i: usize, time: f32, contact: ObstacleHit) {
        let clock = self.step.clock[i];
        let g = self.gravity_of(i);
        if clock.curved || clock.sliding || clock.on_round || clock.waiting || g == Vec2::ZERO {
            return;
        }
        let ContactWith::Obstacle(_) = contact.with else {
            return;
        };
        let ball = self.balls[i];
        let flight = self.grazing_velocity(i, time);
        let approach = -flight.dot(contact.hit.normal);
        // Most contacts are turned away by their angle alone, before the shape is looked up.
        if !rides_at_most(approach, flight) {
            return;
        }
        let inside = still_wall(self.obstacles, contact.with, contact.hit.point)
            .and_then(|shape| ridden(&shape, ball.center, ball.radius))
            .filter(|r| r.inside);
        if let Some(r) = inside
            && grazes_inside(approach, flight, r.radius as f32, ball.radius)
            && flight.is_finite()
        {
            self.balls[i].velocity = flight;
            self.step.clock[i].curved = true;
        }
    }

    /// Whether sliding ball `i`, at the velocity of this instant, grazes the round part of
    /// a still wall at `contact` ([`rides_at_most`]): the face it slides on hands it over
    /// there (a lip: a post where the face ends, tangent to it). It then meets it as a ball
    /// in flight does (`meet.rs`): it rides it, or flies on along its tangent. (Settled
    /// there, it took the rest of the step's gravity at once and moved straight: off a
    /// slope onto a post, 3.0e-5 of the ride's radius off at 60 Hz, at 2·g·dt.)
    fn slides_onto_round(&self, i: usize, contact: ObstacleHit) -> bool {
        self.grazes_round(i, contact, self.balls[i].velocity)
    }

    /// The normal of the face sliding ball `i` slides on, where it and the face of
    /// `contact`'s still wall wedge the ball against gravity ([`wedged`]: it slid into the
    /// other side of a V). It meets that face in flight, at the velocity of the instant,
    /// and where it comes to rest there the two hold it (`meet.rs`). Asked by arithmetic
    /// first; the wall is looked up only for a wedge.
    fn wedging_slide(&self, i: usize, contact: ObstacleHit) -> Option<Vec2> {
        let ContactWith::Obstacle(_) = contact.with else {
            return None;
        };
        let ball = self.balls[i];
        let slide = self.step.state[i].slide.filter(|_| self.step.clock[i].sliding)?;
        let on = slide.face.normal_toward(ball.center - slide.face.a)?;
        let into_face = wedged(contact.hit.normal, on, self.gravity_of(i))
            && still_wall(self.obstacles, contact.with, contact.hit.point)
                .is_some_and(|shape| shape.face_near(contact.hit.center).is_some());
        into_face.then_some(on)
    }

    /// Whether ball `i`, at `velocity`, may graze the round part of `contact`'s wall (a
    /// still one): it comes in at a ride's angle at most ([`rides_at_most`]; most contacts
    /// are turned away by that alone), and the wall has a round part where it touches.
    #[inline]
    fn grazes_round(&self, i: usize, contact: ObstacleHit, velocity: Vec2) -> bool {
        let ContactWith::Obstacle(_) = contact.with else {
            return false;
        };
        let radius = self.balls[i].radius;
        rides_at_most(-velocity.dot(contact.hit.normal), velocity)
            && still_wall(self.obstacles, contact.with, contact.hit.point)
                .is_some_and(|shape| ridden(&shape, contact.hit.center, radius).is_some())
    }

    /// How fast ball `i` was leaving `contact`'s surface at its leg's start, where that is
    /// the separation bias of a rest (at most twice [`SEPARATION_SPEED_REL`] of its speed);
    /// else 0 ([`RestRule::Event`]).
    fn left_with(&self, i: usize, contact: ObstacleHit) -> f32 {
        let v = self.balls[i].velocity - contact.surface_velocity;
        let leaving = v.dot(contact.hit.normal);
        let bias = 2.0 * SEPARATION_SPEED_REL * v.length();
        if leaving > 0.0 && leaving <= bias {
            leaving
        } else {
            0.0
        }
    }

    /// Ball `i` arrives at `contact` at `time`: the sensors on the way are reported, a
    /// ball in flight or sliding takes the velocity of this instant (a sliding one
    /// settles, or flies where its face hands it to a round part, `slides_onto_round`, or
    /// where it slid into a face that `wedges` it with its own, `wedging_slide`), and it
    /// is placed at the contact (against a moving part's face or cap, at exactly the
    /// contact distance). Returns the contact with the ball's centre there.
    fn arrive(&mut self, i: usize, time: f32, contact: ObstacleHit, wedges: bool) -> ObstacleHit {
        let mut hit = contact.hit;
        self.flush_sensors(i, time);
        if self.step.clock[i].on_round {
            // Riding a round part: met with the ride's velocity of this instant.
            self.leave_round(i, time);
        }
        let clock = self.step.clock[i];
        if clock.curved || clock.sliding {
            // In flight or sliding: met with the velocity of this instant.
            self.balls[i].velocity = self.velocity_at(i, time);
            self.step.clock[i].time = time;
        }
        if clock.sliding {
            if wedges || self.slides_onto_round(i, contact) {
                // It flies from here, and lands on the round part or the face as a ball
                // in flight.
                self.step.clock[i].sliding = false;
                self.step.clock[i].curved = true;
                self.step.state[i].slide = None;
            } else {
                // A sliding ball that meets anything else settles there.
                self.settle(i);
            }
        }
        if let ContactWith::Moving(index) = contact.with
            && matches!(
                self.moving[index].obstacle.shape,
                ObstacleShape::Segment(_) | ObstacleShape::Edge(_) | ObstacleShape::Capsule(_)
            )
        {
            hit.center = touching_center(hit, self.balls[i].radius);
        }
        self.balls[i].center = hit.center;
        self.step.clock[i].time = time;
        ObstacleHit { hit, ..contact }
    }

    /// Ball `i` (at the contact) strikes the surface of `contact` at the resting speed or
    /// faster while it touches another ball: solve them all as one contact of one instant
    /// (`cluster.rs`). Returns whether it did.
    fn strikes_beside_a_ball(
        &mut self,
        i: usize,
        time: f32,
        contact: ObstacleHit,
        bufs: &mut ClusterBuffers,
    ) -> bool {
        let ObstacleHit {
            with,
            material,
            hit,
            surface_velocity,
        } = contact;
        let approach = -(self.effective_velocity(i) - surface_velocity).dot(hit.normal);
        if !(approach >= self.settings.resting_speed) || !self.touches_a_ball(i, time, bufs) {
            return false;
        }
        let seed = Touching {
            ball: i,
            with,
            point: hit.point,
            normal: hit.normal,
            velocity: surface_velocity,
            material,
        };
        self.resolve_instant(time, Seed::Surface(seed), bufs)
    }

    /// Whether ball `i` (at the contact) may graze the round part of `contact`'s wall
    /// ([`rides_at_most`]) while it touches another ball ([`RestRule::Event`]). Asked in
    /// that order, cheapest first: most contacts are turned away by their angle, most of
    /// the rest by the shape (a floor under a pile), before the pair grid is asked.
    fn grazes_beside_a_ball(
        &mut self,
        i: usize,
        time: f32,
        contact: ObstacleHit,
        bufs: &mut ClusterBuffers,
    ) -> bool {
        self.grazes_round(i, contact, self.grazing_velocity(i, time)) && self.beside_a_ball(i, time, bufs)
    }

    /// The velocity ball `i` grazes a surface with at `time`: a settled ball's without the
    /// rest of the step's gravity it carries (`settle.rs`), its flight's, as
    /// `unsettle_graze` lets it fly; any other's own. (Judged with that gravity, a settled
    /// ball in a pile came in too steeply to graze the bowl under it, so was not asked
    /// whether it touched a ball; it flew and rode the bowl, the ball on it landed on it
    /// again and again, and the pile reached the bounce cap.)
    fn grazing_velocity(&self, i: usize, time: f32) -> Vec2 {
        let clock = self.step.clock[i];
        let velocity = self.effective_velocity(i);
        if clock.curved || clock.sliding || clock.on_round || clock.waiting {
            velocity
        } else {
            velocity - self.gravity_of(i) * (self.dt - time)
        }
    }

    /// Calls `visit` with every solid surface whose box may meet `area` at `time`: what it
    /// is, the obstacle where it is then, and the velocity of its point nearest `center`;
    /// the walls, then (if `moving`) the moving obstacles.
    pub(super) fn surfaces_near(
        &self,
        area: Aabb,
        time: f32,
        center: Vec2,
        moving: bool,
        mut visit: impl FnMut(ContactWith, &Obstacle, Vec2),
    ) {
        self.obstacles
            .query(area, |id, o| visit(ContactWith::Obstacle(id), o, Vec2::ZERO));
        if !moving {
            return;
        }
        let toi = time / self.dt;
        for (index, m) in self.moving.iter().enumerate() {
            if !self.moving_boxes[index].intersects(&area) {
                continue;
            }
            let (obstacle, _) = m.rest_of_step(toi);
            let velocity = obstacle
                .closest_to(center)
                .map_or(Vec2::ZERO, |(point, _)| m.surface_velocity(point, toi, self.dt));
            visit(ContactWith::Moving(index), &obstacle, velocity);
        }
    }
}

/// The surroundings of ball `ball` meeting something at `time`, as [`meet`] asks after
/// them: the walls, the moving obstacles where they are then, and the hinged bodies it
/// may push.
struct Around<'s, 'a, O: ?Sized> {
    sim: &'s mut Sim<'a, O>,
    time: f32,
}

impl<O: Obstacles + ?Sized> Surroundings for Around<'_, '_, O> {
    fn surfaces_near(
        &self,
        area: Aabb,
        center: Vec2,
        moving: bool,
        visit: impl FnMut(ContactWith, &Obstacle, Vec2),
    ) {
        self.sim.surfaces_near(area, self.time, center, moving, visit);
    }

    fn moving_near(&self, area: Aabb) -> bool {
        self.sim.moving_boxes.iter().any(|b| b.intersects(&area))
    }

    /// A wall, or a kinematic obstacle without motion this step.
    fn still_shape(&self, with: ContactWith, point: Vec2) -> Option<ObstacleShape> {
        let ContactWith::Moving(index) = with else {
            return still_wall(self.sim.obstacles, with, point);
        };
        let m = self.sim.moving.get(index)?;
        let still = m.motion.angle == 0.0 && m.motion.pivot_motion == Vec2::ZERO;
        still.then_some(m.obstacle.shape)
    }

    fn push(&mut self, touch: Touch, second: Option<SurfaceOf>) -> Option<Pushed> {
        self.sim.hinge_contact(touch, second)
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
