//! Gravity in the event machinery: which balls fly and which are settled.
//!
//! A ball in *flight* follows the parabola of the step's gravity: its leg from its clock is
//! a [`Parabola`](crate::Parabola), every contact is found on that curve (`next_event.rs`)
//! and met with the velocity of its instant, as a lone ball's sweep does. Two balls in
//! flight fall alike, so between them the motion stays straight (`pair_sweep.rs`).
//!
//! A ball that *rests* on something (a floor, a held flipper, a pile) is *settled*. At the
//! step's start the resting solve (`resting.rs`) runs on the velocities with the step's
//! gravity added, and the balls it presses on stay settled; every other ball gets its
//! velocity back and flies. A ball in flight that comes to rest on a wall or a moving
//! obstacle during the step (a contact slower than the resting speed, or than a fall from
//! within the touch slop, with gravity pressing it in: the event machinery's rest rule in
//! `meet.rs`) settles there; so does one that meets a settled ball slower than the resting
//! speed, or that a settled ball it struck does not leave faster than the rest of the
//! step's gravity would bring it back (`cluster/gravity.rs`). A settled ball moves in one
//! of two ways:
//!
//! - *Sliding*, on the face of one still wall and touching no other surface (a ball on a
//!   slope): its leg is the parabola of gravity's part along the face, exactly as
//!   `s(t) = ½·g·sin θ·t²` says. At the step's start (`slide_from_start`), on a
//!   frictionless face the resting solve's change along it is spread evenly over the step;
//!   on a rough face the ball slides from its velocity at the start, at gravity's part
//!   along the face less friction against its motion ([`rough_pull`]: Coulomb friction
//!   under a steady press is a steady deceleration), as does a ball that lands on a still
//!   face during the step (`meet.rs`, `event_slide`) or comes to rest on one in a contact
//!   of one instant (`Sim::come_to_rest`). Where friction brings it to rest
//!   (`EventKind::SlideStops`), friction holds it, or it slides back from rest
//!   (`Sim::stop_slide`). A moving face, a hinged part the ball pushes or a corner settle
//!   it straight. A slide that reaches a seam goes on along the next face, at its friction
//!   (`Sim::leave_face`).
//! - *Riding*, on the round part of one wall (a pillar, an end cap, an arc from either
//!   side) and touching nothing else: it rides it exactly, as a lone ball does, its leg
//!   the chord to the next point of the ride (`round.rs`). At the step's start
//!   (`ride_from_start`) it rides from its velocity then; so does one that lands there
//!   during the step (`meet.rs`) or comes to rest there in a contact of one instant
//!   (`Sim::come_to_rest`); where the press would not hold it, it flies. A settled ball
//!   that grazes the inside of a wall's round part flies from there, the gravity it
//!   carries taken back, and rides it (`obstacle_contact.rs`); beside another ball (in a
//!   pile on a bowl) it settles there, or goes on along a chord (`meet.rs`). Two balls of one radius
//!   and mass touching each other and one round part, the same, and nothing else, with
//!   no friction between them, ride it together from the step's start where they press
//!   on each other (`round_pair.rs`), or each alone where they only press on the part
//!   (two balls on a post): where the resting solve pressed on both and they draw apart
//!   slower than the resting speed, or where they close in or draw apart no faster than
//!   the resting event floor (a fast pair round a loop's upper side is pressed by its
//!   speed, which a velocity solve does not see). Two balls in flight that a contact of
//!   one instant brings to rest together on one round part ride it together from there
//!   (`Sim::ride_landed`).
//! - *Straight*, anywhere else (in a V, in a pile, beside another ball on a round part
//!   it does not ride with):
//!   it takes the rest of the step's gravity at once (`v += g·(dt − t)`) and moves on
//!   straight, and the resting contacts take away what presses it in (`Sim::settle`).
//!
//! A sliding ball whose foot leaves its face (an event, `EventKind::SlideEnds`) slides on
//! across a seam, or flies on from there (`Sim::leave_face`); one that meets anything
//! settles straight at that instant, unless it is struck sliding on a still face and
//! slides on, friction against its new motion (`cluster/gravity.rs`), or grazes a still wall's round part (a post its
//! face ends on), from where it flies, and lands on it (`obstacle_contact.rs`), or
//! slides into a still face that wedges it with its own against gravity (the other side
//! of a V), which it meets in flight: it bounces off, or the two faces hold it there,
//! carrying no gravity (`meet.rs`). A settled
//! ball carries the rest of the step's gravity in its velocity: an impact takes it out and
//! is solved on the velocities of its instant, and the balls that rest after it take the
//! rest of the step's gravity then (`cluster/gravity.rs`). Settling is one way within a step (flight, then sliding, then
//! straight), so it cannot go back and forth, but for a round part: a ride ends in flight
//! (where the press vanishes, the part ends, or the ball meets anything, `round.rs`), and
//! a settled ball flies again where it grazes a round part's inside, at a contact counted
//! against its bounce cap.

use super::cluster::{Alone, Touching};
use super::resting_contacts::{OnlyWall, Rest, RestingContacts, RestingPair, WallContact};
use super::round::{going_on, landed};
use super::round_pair::{PairStart, Together};
use super::sim::Sim;
use super::state::SlideOn;
use crate::bounce::{end_left, reseats, seat, still_wall};
use crate::contact_with::ContactWith;
use crate::obstacle::{ObstacleId, Obstacles};
use crate::response::{rested, rough_pull, slide_along};
use crate::ride::{Ridden, ends_on, ridden, rides_same};
use crate::shape::{Aabb, Segment};
use crate::tolerance::{RESTING_EVENT_FRACTION, TOUCH_SLOP_REL};
use glam::Vec2;

/// What the step's start keeps, between steps: the velocities before the step's gravity
/// was added, and the resting solve's contacts.
#[derive(Clone, Debug, Default)]
pub(super) struct Settling {
    flight: Vec<Vec2>,
    pub(super) rest: RestingContacts,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// The step's start: the resting solve on the velocities with the step's gravity added,
    /// then every ball it did not find resting flies (its velocity back, its leg curved).
    ///
    /// Every ball starts the step curved (`prepare` puts it in the ball grid by its curve's
    /// box). For the solve each is taken as settled; the balls it presses on stay settled,
    /// and every other is put back as it was, curve and box. A ball that only touches a
    /// surface, with nothing pressing it on (running down along a wall), flies its curve.
    pub(super) fn start_gravity(&mut self, settling: &mut Settling) {
        let Settling { flight, rest } = settling;
        let g = self.settings.gravity;
        // The velocities before the step's gravity, which the resting solve also reads
        // (none without gravity).
        flight.clear();
        if g == Vec2::ZERO {
            self.solve_resting(rest, flight);
            return;
        }
        flight.extend(self.balls.iter().map(|b| b.velocity));
        let dt = self.dt;
        for (b, clock) in self.balls.iter_mut().zip(self.step.clock.iter_mut()) {
            if !clock.waiting {
                b.velocity += b.gravity(g) * dt;
                clock.curved = false;
            }
        }
        self.solve_resting(rest, flight);
        for (k, &flight_velocity) in flight.iter().enumerate() {
            if self.step.clock[k].waiting {
                continue;
            }
            if !rest.resting[k] {
                self.balls[k].velocity = flight_velocity;
                self.step.clock[k].curved = true;
                if rest.touched[k] {
                    // Its box was updated as a settled ball's.
                    self.moved(k);
                }
            }
        }
        self.slide_pressed(rest, flight);
    }

    /// A pressed ball on one wall, touching nothing else, slides on its face, or rides
    /// its round part (which two walls' ends at one point may make together).
    fn slide_pressed(&mut self, rest: &RestingContacts, flight: &[Vec2]) {
        for group in rest.walls.chunk_by(|a, b| a.ball == b.ball) {
            let Some(c) = group
                .first()
                .and_then(|c| self.one_surface(group, flight[c.ball]))
            else {
                continue;
            };
            if !rest.resting[c.ball] {
                continue;
            }
            if rest.paired[c.ball] {
                self.seat_in_pile(c);
                continue;
            }
            match c.on {
                Rest::Face(face) => {
                    let wall = OnlyWall {
                        face,
                        point: c.point,
                        normal: c.normal,
                        friction: c.friction,
                    };
                    self.touch(c.ball, wall);
                    self.slide_from_start(c.ball, wall, flight[c.ball]);
                }
                Rest::Cap | Rest::Pillar => self.ride_from_start(c, flight[c.ball]),
            }
        }
        self.ride_pairs(rest, flight);
    }

    /// Ball `c.ball`, pressed on the round part of the one wall of `c` and on a ball (in
    /// a pile in a bowl), is put back on the circle its centre rides where the f32
    /// rounding of its straight legs sank it, as a slide's start puts back a ball alone
    /// on its face ([`seat`]): while a pile moves steadily, each step rounds its balls'
    /// centres the same way. (Three piled in a bowl of 2, swinging, sank 7.5e-5 into it at
    /// 1 kHz, 79 f32 spacings. Piled on slopes of 0.02 to 0.3 rad, at 30 Hz to 1 kHz, the
    /// balls under the pile sank into the face by at most 2.2 f32 epsilons of their
    /// coordinates, so a face is left as it is.)
    fn seat_in_pile(&mut self, c: &WallContact) {
        if matches!(c.on, Rest::Face(_)) {
            return;
        }
        let ball = self.balls[c.ball];
        let seated = still_wall(self.obstacles, ContactWith::Obstacle(c.obstacle), c.point)
            .and_then(|shape| ridden(&shape, ball.center, ball.radius))
            .map_or(ball.center, |part| seat_round(&part, ball.center, ball.radius));
        if seated != ball.center && seated.is_finite() {
            self.balls[c.ball].center = seated;
            self.moved(c.ball);
        }
    }

    /// Two balls that touch each other and, each, one round part, the same, and nothing
    /// else, with no friction between them, ride it together from the step's start
    /// (`round_pair.rs`), or each alone where they press on the part and not on each
    /// other (see the module docs for which pairs); any other pair goes on as before.
    fn ride_pairs(&mut self, rest: &RestingContacts, flight: &[Vec2]) {
        for (n, pair) in rest.pairs.iter().enumerate() {
            let [a, b] = [pair.a, pair.b];
            let resting = self.settings.resting_speed;
            let together = pair.approach.abs() <= resting * RESTING_EVENT_FRACTION
                || (rest.resting[a] && rest.resting[b] && pair.approach > -resting);
            if !together || pair.friction != 0.0 || self.step.clock[a].waiting || self.step.clock[b].waiting {
                continue;
            }
            let (Some(on), Some(other)) =
                (self.round_only(rest, a, flight), self.round_only(rest, b, flight))
            else {
                continue;
            };
            let others = |m: usize, q: &RestingPair| m != n && [q.a, q.b].iter().any(|&k| k == a || k == b);
            if on.0 != other.0 || on.1 != other.1 || rest.pairs.iter().enumerate().any(|(m, q)| others(m, q))
            {
                continue;
            }
            let start = PairStart {
                centers: [a, b].map(|k| self.balls[k].center),
                velocities: [flight[a], flight[b]],
            };
            match self.start_pair_round([a, b], (on.0, on.1), on.2, start) {
                Together::Ride => {}
                Together::Apart => {
                    for k in [a, b] {
                        self.ride_alone(k, (on.0, on.1), on.2, flight[k]);
                    }
                }
                Together::Not => continue,
            }
            self.moved(a);
            self.moved(b);
        }
    }

    /// Ball `k`, pressed on the round part `ridden` of wall `obstacle` (of combined
    /// `friction`), alone or beside a ball it parts from at once, rides the part alone
    /// from its `flight_velocity` at the step's start, or flies where the press would not
    /// hold it.
    fn ride_alone(&mut self, k: usize, part: (ObstacleId, Ridden), friction: f32, flight_velocity: Vec2) {
        let start = going_on(self.balls[k].center, flight_velocity);
        if !self.start_round(k, part, friction, start) {
            self.balls[k].velocity = flight_velocity;
            self.step.clock[k].curved = true;
        }
    }

    /// The round part ball `k` is pressed on, if it touches that one surface and no
    /// other wall (of `rest.walls`): the wall, its circle for the ball, and the combined
    /// friction.
    fn round_only(
        &self,
        rest: &RestingContacts,
        k: usize,
        flight: &[Vec2],
    ) -> Option<(ObstacleId, Ridden, f32)> {
        let from = rest.walls.partition_point(|c| c.ball < k);
        let to = from + rest.walls[from..].partition_point(|c| c.ball == k);
        let c = self.one_surface(&rest.walls[from..to], flight[k])?;
        if !matches!(c.on, Rest::Cap | Rest::Pillar) {
            return None;
        }
        let ball = self.balls[k];
        let shape = still_wall(self.obstacles, ContactWith::Obstacle(c.obstacle), c.point)?;
        Some((c.obstacle, ridden(&shape, ball.center, ball.radius)?, c.friction))
    }

    /// The one surface a ball's resting contacts `group` touch, the ball moving at
    /// `velocity`: one contact, or a round part whose every other contact is the same
    /// round part (the ends of walls that meet at one point, [`rides_same`]) or a face
    /// that ends on it where the ball heads off that face ([`ends_on`]: a lip).
    fn one_surface<'g>(&self, group: &'g [WallContact], velocity: Vec2) -> Option<&'g WallContact> {
        let [first, others @ ..] = group else {
            return None;
        };
        if others.is_empty() {
            return Some(first);
        }
        let ball = self.balls[first.ball];
        let r = f64::from(ball.radius);
        let shape_of =
            |c: &WallContact| still_wall(self.obstacles, ContactWith::Obstacle(c.obstacle), c.point);
        group.iter().enumerate().find_map(|(k, c)| {
            let ridden = shape_of(c).and_then(|shape| ridden(&shape, ball.center, ball.radius))?;
            let joins = |o: &WallContact| {
                shape_of(o).is_some_and(|shape| {
                    rides_same(&ridden, &shape, ball.center, ball.radius)
                        || ends_on(&ridden, r, &shape, ball.center, velocity)
                })
            };
            group
                .iter()
                .enumerate()
                .all(|(j, o)| j == k || joins(o))
                .then_some(c)
        })
    }

    /// Ball `c.ball`, pressed on the round part of the one wall it touches, `c`, by the
    /// resting solve, rides it from its velocity at the step's start (`round.rs`); where
    /// the press would not hold it there (a fast ball over a post's top), it flies.
    fn ride_from_start(&mut self, c: &WallContact, flight_velocity: Vec2) {
        let k = c.ball;
        let ball = self.balls[k];
        let Some(ridden) = still_wall(self.obstacles, ContactWith::Obstacle(c.obstacle), c.point)
            .and_then(|shape| ridden(&shape, ball.center, ball.radius))
        else {
            return;
        };
        self.ride_alone(k, (c.obstacle, ridden), c.friction, flight_velocity);
        self.moved(k);
    }

    /// Ball `k`, in flight or sliding, comes to rest on something at its clock: it takes
    /// the rest of the step's gravity at once and moves on straight, as the resting solve's
    /// balls do (see the module docs).
    pub(super) fn settle(&mut self, k: usize) {
        let s = &mut self.step.clock[k];
        if s.curved || s.sliding {
            s.curved = false;
            s.sliding = false;
            let left = self.dt - s.time;
            self.balls[k].velocity += self.gravity_of(k) * left;
        }
    }

    /// Ball `k`, in flight, comes to rest at its clock on surface `s` of a contact of one
    /// instant (`cluster.rs`); `alone` says what else it touches there. On the face of a
    /// still wall, touching no other surface, where gravity or its motion moves it along
    /// the face, it slides on, friction against its motion ([`rough_pull`]), as a ball
    /// that lands there alone does (`meet.rs`, `event_slide`); on a wall's round part,
    /// touching nothing else (a ride's chord, turned from the solve's velocity, would turn
    /// into a ball it touches), it rides it (`round.rs`), or flies on where the press would
    /// not hold it. Anywhere else, and where it is still (on
    /// a level floor, or held by friction), it settles. (Settled on a slope, it took the
    /// rest of the step's gravity into it, met it again at once, and at no resting speed
    /// bounced off it: a ball struck along a rough slope hopped down it, 1.6e-2 off it at
    /// 30 Hz. Settled on a bowl's inside, it met it again along chords, 4e-5 s apart, to
    /// the bounce cap.)
    pub(super) fn come_to_rest(&mut self, k: usize, s: &Touching, alone: Alone) {
        let ball = self.balls[k];
        let shape = alone
            .surface
            .then(|| still_wall(self.obstacles, s.with, s.point))
            .flatten();
        if let (Some(shape), ContactWith::Obstacle(id), true) = (shape, s.with, alone.ball)
            && let Some(ridden) = ridden(&shape, ball.center, ball.radius)
        {
            let along = rested(ball.velocity, s.normal);
            let friction = ball.material.combine(s.material).friction;
            let start = landed(ball.center, along, f64::from(along.length()));
            self.start_round(k, (id, ridden), friction, start);
            return;
        }
        let face = shape.and_then(|shape| shape.face_near(ball.center));
        let g = self.gravity_of(k);
        let friction = ball.material.combine(s.material).friction * -g.dot(s.normal);
        let velocity = rested(ball.velocity, s.normal);
        let slide = rough_pull(g, s.normal, velocity, friction)
            .map(|pull| slide_along(pull, s.normal))
            .filter(|a| a.is_finite() && *a != Vec2::ZERO);
        let (Some(face), Some(acceleration), true) = (face, slide, velocity.is_finite()) else {
            self.settle(k);
            return;
        };
        self.balls[k].velocity = velocity;
        let clock = &mut self.step.clock[k];
        clock.curved = false;
        clock.sliding = true;
        self.step.state[k].slide = Some(SlideOn {
            face,
            acceleration,
            friction: friction.max(0.0),
        });
    }

    /// Ball `k`, pressed on the one wall `wall` by the resting solve and found within the
    /// touch slop above it, or sunk into it as a slide's rounding sinks it ([`seat`]), is
    /// put back at the contact distance. Each step leaves a ball at rest at the separation
    /// bias, which lifts it by 1e-5 of the distance it moves along the wall: over a long
    /// roll the lift would pass the touch slop, and the ball would fall back onto the wall
    /// in a hop.
    ///
    /// It moves along the normal only: put at `point + normal·r`, it took the f32 rounding
    /// of the closest point along the wall (up to 1e-5 on a floor 200 long), a step's
    /// slide off by that much.
    fn touch(&mut self, k: usize, wall: OnlyWall) {
        let ball = &mut self.balls[k];
        let above = (ball.center - wall.point).dot(wall.normal) - ball.radius;
        let touching = if above > 0.0 {
            ball.center - wall.normal * above
        } else {
            seat(ball.center, wall.face, wall.normal, ball.radius)
        };
        if touching != ball.center && touching.is_finite() {
            ball.center = touching;
            self.moved(k);
        }
    }

    /// Ball `k`, pressed on the one wall `wall` by the resting solve, slides along it from
    /// the step's start. Without friction it keeps the velocity the solve gave it at the
    /// step's end, and gets there along the parabola of gravity's part along the wall. With
    /// friction it slides from its velocity at the start, at gravity's part along the wall
    /// less friction against its motion ([`rough_pull`]: Coulomb friction under a steady
    /// press is a steady deceleration), until friction stops it (`Sim::stop_slide`). (The
    /// solve's whole change spread evenly over the step went past the instant it stopped:
    /// a ball pushed up a rough slope that stops and slides back was 6e-2 of its travel off
    /// at 30 Hz.) A ball that friction holds, or whose velocity along a level wall the solve
    /// left unchanged, keeps the solve's velocity and moves straight, as before.
    fn slide_from_start(&mut self, k: usize, wall: OnlyWall, flight_velocity: Vec2) {
        let g = self.gravity_of(k);
        let friction = wall.friction * -g.dot(wall.normal);
        let rough = friction > 0.0;
        let Some(pull) = (if rough {
            rough_pull(g, wall.normal, flight_velocity, friction)
        } else {
            Some(g)
        }) else {
            return;
        };
        let slide = slide_along(pull, wall.normal);
        if slide == Vec2::ZERO || !slide.is_finite() {
            return;
        }
        // What the solve left of the approach is the separation bias, now of the start's
        // speed along the wall.
        let start = if rough {
            flight_velocity
        } else {
            self.balls[k].velocity - slide * self.dt
        };
        self.balls[k].velocity = rested(start, wall.normal);
        self.step.clock[k].sliding = true;
        self.step.state[k].slide = Some(SlideOn {
            face: wall.face,
            acceleration: slide,
            friction: friction.max(0.0),
        });
        self.moved(k);
    }

    /// Sliding ball `k`'s foot leaves its face at `time`. At a seam, where a segment goes
    /// on flat from that end ([`Segment::flat_beyond`]), it slides on along it, its velocity kept
    /// (the faces turn by less than [`SEAM_FLAT_SIN`](crate::tolerance::SEAM_FLAT_SIN)),
    /// at that face's friction ([`rough_pull`], until it stops), as a lone slide does.
    /// Anywhere else it flies from there. (It flew
    /// over every seam and landed on the next face: on a rough slope, moving straight for
    /// the rest of the step, 5.5e-4 of its distance short after 200 seams.)
    pub(super) fn leave_face(&mut self, k: usize, time: f32) {
        self.advance(k, time);
        if self.step.clock[k].sliding
            && let Some(on) = self.step.state[k].slide
            && let Some(next) = self.face_beyond(k, on.face)
        {
            self.step.state[k].slide = Some(next);
            let clock = &mut self.step.clock[k];
            clock.version = clock.version.wrapping_add(1);
            self.moved(k);
            self.repredict(k);
            return;
        }
        let clock = &mut self.step.clock[k];
        if clock.sliding {
            clock.sliding = false;
            clock.curved = true;
            clock.version = clock.version.wrapping_add(1);
            self.step.state[k].slide = None;
        }
        self.moved(k);
        self.repredict(k);
    }

    /// The slide of ball `k` as its foot leaves `face` at a seam, if a still segment or a
    /// chain's edge on its layers goes on flat from there and the ball moves along it:
    /// from a touch slop behind the seam, so that its foot stands on it. (A chain's joint
    /// was flown over, without friction: on a rough chain, 3.9e-5 of the speed fast after
    /// 1 s at 30 Hz.)
    fn face_beyond(&self, k: usize, face: Segment) -> Option<SlideOn> {
        let ball = self.balls[k];
        let end = end_left(face, ball.center);
        let mut next = None;
        self.obstacles.query(Aabb::new(end, end), |_, o| {
            let Some(other) = o.shape.line() else {
                return;
            };
            if o.sensor || !ball.layers.interacts(o.layers) {
                return;
            }
            if next.is_none() {
                next = face.flat_beyond(end, other).map(|far| (far, o.material));
            }
        });
        let (far, material) = next?;
        let along = (far - end).try_normalize()?;
        if !(ball.velocity.dot(along) > 0.0) {
            return None;
        }
        let face = Segment::new(end - along * (TOUCH_SLOP_REL * ball.radius), far);
        let normal = if along.perp().dot(ball.center - end) > 0.0 {
            along.perp()
        } else {
            -along.perp()
        };
        let g = self.gravity_of(k);
        let friction = ball.material.combine(material).friction * -g.dot(normal);
        let pull = rough_pull(g, normal, ball.velocity, friction)?;
        let acceleration = slide_along(pull, normal);
        acceleration.is_finite().then_some(SlideOn {
            face,
            acceleration,
            friction: friction.max(0.0),
        })
    }

    /// Sliding ball `k`, which slides on along its face from a contact of one instant at
    /// its clock (`cluster/gravity.rs`), pulled again for the velocity the contact left
    /// it: gravity's part along the face less friction against its new motion
    /// ([`rough_pull`]). Where friction holds it at rest, it stays. (Without friction the
    /// pull is gravity's part along the face whatever the velocity.)
    pub(super) fn pull_again(&mut self, k: usize) {
        let Some(on) = self.step.state[k].slide else {
            return;
        };
        let center = self.balls[k].center;
        let Some(normal) = on.face.normal_toward(center - on.face.a) else {
            return;
        };
        if !(on.friction > 0.0) {
            return;
        }
        let g = self.gravity_of(k);
        let pull = rough_pull(g, normal, self.balls[k].velocity, on.friction)
            .map(|pull| slide_along(pull, normal))
            .filter(|a| a.is_finite() && *a != Vec2::ZERO);
        if let Some(acceleration) = pull {
            self.step.state[k].slide = Some(SlideOn { acceleration, ..on });
            return;
        }
        self.balls[k].velocity = rested(Vec2::ZERO, normal);
        self.step.state[k].slide = None;
        self.step.clock[k].sliding = false;
    }

    /// Sliding ball `k`'s friction brings it to rest on its face at `time`: friction holds
    /// it there for the rest of the step, or it slides back down the face from rest, at a
    /// pull of its own ([`rough_pull`]).
    pub(super) fn stop_slide(&mut self, k: usize, time: f32) {
        self.advance(k, time);
        let g = self.gravity_of(k);
        let center = self.balls[k].center;
        let on_face = self.step.state[k]
            .slide
            .and_then(|on| Some((on, on.face.normal_toward(center - on.face.a)?)));
        let back = on_face.and_then(|(on, normal)| {
            let pull = rough_pull(g, normal, Vec2::ZERO, on.friction)?;
            let acceleration = slide_along(pull, normal);
            (acceleration.is_finite() && acceleration != Vec2::ZERO).then_some(SlideOn { acceleration, ..on })
        });
        if let Some((_, normal)) = on_face {
            self.balls[k].velocity = rested(Vec2::ZERO, normal);
        }
        self.step.state[k].slide = back;
        let clock = &mut self.step.clock[k];
        clock.sliding = back.is_some();
        clock.version = clock.version.wrapping_add(1);
        self.moved(k);
        self.repredict(k);
    }
}

/// `center`, of a ball of `radius` resting on the round part `part`, put back on the
/// circle its centre rides where it has sunk into the part (beyond the circle from a
/// bowl's inside, within it on a post), at the depths a face's [`seat`] puts one back
/// at ([`reseats`]); otherwise as it is.
fn seat_round(part: &Ridden, center: Vec2, radius: f32) -> Vec2 {
    let out = center.as_dvec2() - part.center;
    let distance = out.length();
    let sunk = if part.inside {
        distance - part.radius
    } else {
        part.radius - distance
    };
    if distance > 0.0 && reseats(sunk, center, radius) {
        (part.center + out * (part.radius / distance)).as_vec2()
    } else {
        center
    }
}
