//! Two surfaces at once: a corner, or a ball squeezed between a moving obstacle and
//! something else.
//!
//! When a ball meets a surface while it still touches another one facing it, the two are
//! one contact ([`two_surfaces`](crate::response::two_surfaces)): in a corner the ball
//! leaves with the velocity nearest its own that moves into neither; between two surfaces
//! closing in on each other (a flipper rising towards a wall) it is squeezed, takes the
//! slower surface's speed along the squeeze, ignores the faster surface for the rest of
//! the step, and is then pushed out of it by position ([`Sim::squeeze_out`]). Bounce after
//! bounce between the two would instead multiply its speed.
//!
//! The other surface is found two ways: the ball's last contact, if it was a moment ago
//! (within [`SIMULTANEOUS_TIME_REL`] of the step); and, where moving obstacles are near, by
//! looking for surfaces within touching distance now (a ball resting on a wall that a
//! flipper strikes has no recent contact with the wall).

use super::free_place::{Keepout, nearest_free_place};
use super::sim::Sim;
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::obstacle::{Obstacle, ObstacleShape, Obstacles};
use crate::shape::{Aabb, Circle, Segment};
use crate::tolerance::TOUCH_SLOP_REL;
use glam::Vec2;

/// The room a squeezed ball's place is looked for in, in radii: this far around its centre,
/// and [`SQUEEZE_MARGIN_RADII`] around the body that squeezed it (which it may have to go
/// round, out past its end). The surfaces that reach into the room are gathered.
const SQUEEZE_REACH_RADII: f32 = 4.0;
/// See [`SQUEEZE_REACH_RADII`]: beside the squeezing body, room for the ball and a radius
/// more.
const SQUEEZE_MARGIN_RADII: f32 = 3.0;

/// Dimensionless, of the radius. A place out of a squeeze lies on one or two borders, found
/// in f32: it may round a few ulps inside them. A hundredth of the audit's slop
/// ([`PENETRATION_SLOP_REL`](crate::PENETRATION_SLOP_REL)) is far above that rounding.
const PLACE_ROUNDING_REL: f32 = 1e-5;

/// Chords an arc's keep-out is cut into for the free-place search. Each is grown by its
/// sagitta, so the keep-out covers the arc; 16 chords of a quarter turn stray by 0.12 %
/// of the radius.
const ARC_KEEPOUT_PIECES: u32 = 16;

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Whether moving obstacle `index` is `with` or another part moving with it (the same
    /// motion and hinge: one body, a flipper's faces and tip), so that a squeeze by a body
    /// ignores all of its parts.
    pub(super) fn moves_with(&self, with: ContactWith, index: usize) -> bool {
        let ContactWith::Moving(part) = with else {
            return false;
        };
        let (Some(a), Some(b)) = (self.moving.get(part), self.moving.get(index)) else {
            return false;
        };
        part == index || (a.motion == b.motion && a.hinge.map(|h| h.id) == b.hinge.map(|h| h.id))
    }

    /// A ball that reached the bounce cap against a moving obstacle, carried from its last
    /// contact to the end of the step as the obstacle's material point under it is (turned
    /// and moved with it), with its velocity relative to the surface turned along.
    pub(super) fn ride_to_end(&mut self, k: usize) {
        self.ride(k, 1.0);
    }

    /// Every ball riding a part of the body of moving obstacle `part`, carried to `time`
    /// seconds and let go there: the body's motion is about to change (an impact or a
    /// limit), and a rider rides only the motion it met.
    ///
    /// From `time` on a rider moves on its own velocity, and the caller's
    /// [`Sim::repredict_near`] (after the body turns anew) predicts it again: a body that
    /// turns back into it meets it in a contact, whose impulse exchange never adds energy,
    /// and one that turns away leaves it. Carried on by the new motion instead, it would
    /// take the body's whole change of velocity, as from a body of infinite inertia: a
    /// hinge that its stop turned back flung it off with up to twice the arm's speed more,
    /// and energy the hinge never lost.
    pub(super) fn carry_riders(&mut self, part: usize, time: f32) {
        for k in 0..self.balls.len() {
            if let Some(index) = self.step.state[k].riding
                && self.moves_with(ContactWith::Moving(part), index)
                && self.ride(k, time / self.dt)
            {
                self.release(k);
            }
        }
    }

    /// Ball `k`, riding until now, moves on its own again: no longer waiting, its course
    /// changed (a partner's event with it is stale) and its box moved. At the bounce cap
    /// still, it rides again from its next contact.
    fn release(&mut self, k: usize) {
        self.step.state[k].riding = None;
        let clock = &mut self.step.clock[k];
        clock.waiting = false;
        clock.version = clock.version.wrapping_add(1);
        self.moved(k);
    }

    /// Ball `k`, riding a moving obstacle from its clock's time, carried to fraction `to`
    /// of the step (its clock and its last contact moved there too). Returns whether it is
    /// there (it is already when `to` is not after its clock; it is left where it was when
    /// the carry is not finite).
    fn ride(&mut self, k: usize, to: f32) -> bool {
        let state = &self.step.state[k];
        let (Some(index), Some(last), time) = (state.riding, state.bounces.last, self.step.clock[k].time)
        else {
            return false;
        };
        let Some(m) = self.moving.get(index) else {
            return false;
        };
        let from = time / self.dt;
        if !(to > from) {
            return true;
        }
        let motion = m.motion;
        let turn = Vec2::from_angle(motion.angle * (to - from));
        let p = self.balls[k].center;
        let end = motion.pivot_at(to) + turn.rotate(p - motion.pivot_at(from));
        let relative = turn.rotate(self.balls[k].velocity - last.surface_velocity);
        let surface = m.surface_velocity(end, to, self.dt);
        let velocity = relative + surface;
        if end.is_finite() && velocity.is_finite() {
            self.balls[k].center = end;
            self.balls[k].velocity = velocity;
            self.step.clock[k].time = to * self.dt;
            if let Some(last) = &mut self.step.state[k].bounces.last {
                last.surface_velocity = surface;
                last.time = to * self.dt;
            }
            return true;
        }
        false
    }

    /// The obstacle a contact was with, where it is at the end of the step (a static one
    /// is looked up near `p`).
    fn obstacle_at_end(&self, with: ContactWith, p: Vec2, reach: f32) -> Option<Obstacle> {
        match with {
            ContactWith::Moving(index) => self.moving.get(index).map(|m| m.rest_of_step(1.0).0),
            ContactWith::Obstacle(id) => {
                let mut found = None;
                self.obstacles.query(Aabb::new(p, p).inflated(reach), |other, o| {
                    if other == id {
                        found = Some(*o);
                    }
                });
                found
            }
            ContactWith::Ball(_) => None,
        }
    }

    /// A squeezed ball, at the end of the step, out of the faster surface (which it
    /// ignored while that surface moved on): at the nearest place clear of every surface
    /// near it, the faster body's every part included, that it reaches without passing
    /// through any surface but the faster body's ([`nearest_free_place`]). Two bodies that
    /// close on it to less than its diameter (two flipper tips) leave no place between
    /// them: it goes out of the gap. If no place is found within reach, it goes just out of
    /// the faster surface.
    pub(super) fn squeeze_out(&mut self, k: usize) {
        let Some(squeeze) = self.step.state[k].squeeze else {
            return;
        };
        let ball = self.balls[k];
        let r = ball.radius;
        let reach = SQUEEZE_REACH_RADII * r;
        // Its place is near the ball or beside the faster body (squeezed out past its end):
        // the surfaces that can reach into that room are gathered.
        let mut room = Aabb::new(ball.center, ball.center).inflated(reach);
        for (index, m) in self.moving.iter().enumerate() {
            if self.moves_with(squeeze.faster, index) {
                room = room.union(m.at_end().aabb().inflated(SQUEEZE_MARGIN_RADII * r));
            }
        }
        let keepouts = self.keepouts_in(k, squeeze.faster, room.inflated(r));
        let slack = r * TOUCH_SLOP_REL;
        let inside =
            |k: &Keepout| (ball.center - k.segment.closest_point(ball.center)).length() < k.radius - slack;
        if !keepouts.iter().any(inside) {
            return;
        }
        if let Some(place) = nearest_free_place(ball.center, &keepouts, room, r * PLACE_ROUNDING_REL) {
            self.balls[k].center = place;
            return;
        }
        let Some(faster) = self.obstacle_at_end(squeeze.faster, ball.center, reach) else {
            return;
        };
        let target = match faster.shape.face_near(ball.center).or(match faster.shape {
            ObstacleShape::Segment(f) => Some(f),
            ObstacleShape::Edge(e) => Some(e.segment),
            _ => None,
        }) {
            Some(f) => {
                let Some(face) = f.normal_toward(squeeze.faster_normal) else {
                    return;
                };
                ball.center + face * (r - (ball.center - f.a).dot(face)).max(0.0)
            }
            None => {
                // A round part: out along the normal from its core's closest point.
                let Some(near) = faster.shape.surface_near(ball.center) else {
                    return;
                };
                near.core + near.normal * (near.rounding + r)
            }
        };
        if target.is_finite() {
            self.balls[k].center = self.swept_push(k, target, [squeeze.faster, squeeze.slower]);
        }
    }

    /// Every solid surface of ball `k`'s layers whose box meets `near` at the end of the
    /// step, as a keep-out for its centre: the static ones (a one-sided segment only if
    /// the centre is on its front side) and the moving ones where they end the step, the
    /// parts of the body `faster` marked as surfaces it may cross on its way out.
    fn keepouts_in(&self, k: usize, faster: ContactWith, near: Aabb) -> Vec<Keepout> {
        let ball = self.balls[k];
        let mut keepouts = Vec::new();
        let mut add = |obstacle: &Obstacle, crossable: bool| {
            if obstacle.sensor
                || !ball.layers.interacts(obstacle.layers)
                || !obstacle.aabb().intersects(&near)
            {
                return;
            }
            let one_way = |s: Segment| {
                obstacle.one_sided && s.front_normal().is_some_and(|n| n.dot(ball.center - s.a) < 0.0)
            };
            let mut keep = |segment: Segment, radius: f32| {
                keepouts.push(Keepout {
                    segment,
                    radius,
                    crossable,
                });
            };
            match obstacle.shape {
                ObstacleShape::Segment(s) if !one_way(s) => keep(s, ball.radius),
                ObstacleShape::Edge(e) if !one_way(e.segment) => keep(e.segment, ball.radius),
                ObstacleShape::Segment(_) | ObstacleShape::Edge(_) => {}
                ObstacleShape::Circle(c) => keep(Segment::new(c.center, c.center), c.radius + ball.radius),
                ObstacleShape::Capsule(c) => keep(c.segment, c.radius + ball.radius),
                ObstacleShape::Arc(a) => {
                    // Chords of the arc, each grown by the sagitta it cuts off: a keep-out
                    // never smaller than the arc's.
                    let pieces = ARC_KEEPOUT_PIECES;
                    let sagitta = a.radius * (1.0 - (0.5 * a.span() / pieces as f32).cos());
                    let points: Vec<Vec2> = a.points(pieces).collect();
                    for pair in points.windows(2) {
                        keep(
                            Segment::new(pair[0], pair[1]),
                            ball.radius + a.thickness + sagitta,
                        );
                    }
                }
            }
        };
        self.obstacles.query(near, |_, o| add(o, false));
        for (index, m) in self.moving.iter().enumerate() {
            if self.moving_boxes[index].intersects(&near) {
                add(&m.at_end(), self.moves_with(faster, index));
            }
        }
        keepouts
    }

    /// Where ball `k` stops on a straight push to `target` at the end of the step: at the
    /// first other surface in the way (every static obstacle and every moving one where it
    /// ends the step, but the two of the squeeze, `ignore`, which the push is out of and
    /// towards), else at `target`. A push out of a squeeze never carries a ball into a third
    /// surface.
    fn swept_push(&self, k: usize, target: Vec2, ignore: [ContactWith; 2]) -> Vec2 {
        let ball = self.balls[k];
        let motion = target - ball.center;
        let circle = Circle::new(ball.center, ball.radius);
        let mut first: Option<Hit> = None;
        let ignored = |with: ContactWith| {
            ignore.iter().any(|&squeezing| match with {
                ContactWith::Moving(index) => self.moves_with(squeezing, index),
                _ => squeezing == with,
            })
        };
        let mut consider = |with: ContactWith, obstacle: &Obstacle| {
            if ignored(with) || obstacle.sensor || !ball.layers.interacts(obstacle.layers) {
                return;
            }
            if let Some(hit) = obstacle.sweep(circle, motion)
                && first.is_none_or(|f| hit.toi < f.toi)
            {
                first = Some(hit);
            }
        };
        self.obstacles
            .query(Aabb::swept(ball.center, motion, ball.radius), |id, o| {
                consider(ContactWith::Obstacle(id), o);
            });
        for (index, m) in self.moving.iter().enumerate() {
            consider(ContactWith::Moving(index), &m.at_end());
        }
        first.map_or(target, |hit| hit.center)
    }
}
