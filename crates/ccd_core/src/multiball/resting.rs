//! The resting-contact solve at the start of a step: slow contacts (a ball rolling on a
//! floor, a pile under gravity) lose their approach by sequential impulses before any
//! event, so they neither chatter nor sink.
//!
//! A seam between two segments that share an end point and lie on one line is one flat
//! wall: a ball on the face of one segment next to the seam also lies within reach of the
//! other segment's end cap, whose normal is tilted by about its distance from the seam
//! over the radius. Such a cap contact is dropped when it sits on the face of a segment the
//! ball rests on (see [`drop_seam_caps`]): kept, it turned the rolling ball's speed into a
//! hop.
//!
//! Every contact the solve changed a velocity at is reported once, at the start of the
//! step (time 0), as the single-ball sweep reports a resting contact.

use super::report::Contact;
use super::resting_contacts::{Rest, RestingContacts, RestingPair, WallContact};
use super::sim::Sim;
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::instant::{OneBall, Row};
use crate::obstacle::{ObstacleShape, Obstacles};
use crate::response::{Accumulated, leave_wall, rest_step, without_approach, without_bias};
use crate::shape::{Aabb, Segment};
use crate::tolerance::{PRESS_SLACK_REL, RESTING_ITERATIONS, RESTING_SOLVE_TOLERANCE_REL, TOUCH_SLOP_REL};
use glam::{DVec2, Vec2};

/// Where on `s` the point closest to `p` is: an end cap (the end point itself) or a face.
fn rest_on(s: Segment, p: Vec2) -> (Vec2, Rest) {
    let d = s.direction();
    let along = (p - s.a).dot(d);
    if !(along > 0.0) {
        (s.a, Rest::Cap)
    } else if !(along < d.length_squared()) {
        (s.b, Rest::Cap)
    } else {
        (s.a + d * (along / d.length_squared()), Rest::Face(s))
    }
}

/// Drop the end-cap contacts of `contacts` (one ball's) that sit, within `slop`, on the
/// face of another segment the ball rests on: at a seam the face stands for both.
fn drop_seam_caps(contacts: &mut Vec<WallContact>, start: usize, slop: f32) {
    let mut k = start;
    while k < contacts.len() {
        let cap = contacts[k];
        let seam = cap.on == Rest::Cap
            && contacts[start..].iter().any(|c| match c.on {
                Rest::Face(s) => (s.closest_point(cap.point) - cap.point).length() <= slop,
                _ => false,
            });
        if seam {
            contacts.remove(k);
        } else {
            k += 1;
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Resting contacts: before any event, remove the slow approach of touching pairs and of
    /// balls touching walls (a pile under gravity), by sequential impulses in a fixed order.
    /// Only approaches slower than the resting speed are touched; real impacts are left to
    /// the exact event-driven phase. `flight` holds the velocities before the step's
    /// gravity was added (empty without gravity).
    pub(super) fn solve_resting(&mut self, rest: &mut RestingContacts, flight: &[Vec2]) {
        for marks in [&mut rest.resting, &mut rest.touched, &mut rest.paired] {
            marks.clear();
            marks.resize(self.balls.len(), false);
        }
        rest.walls.clear();
        rest.pairs.clear();
        if !(self.settings.resting_speed > 0.0) {
            return;
        }
        self.gather_resting(rest);
        // Under gravity, the separation bias a wall contact left the ball with last step
        // (in its flight velocity, before the step's gravity was added) is no motion: kept,
        // it would cut the normal impulse, and the friction it bounds, by its size.
        if let Some(flight) = flight.get(..self.balls.len()) {
            for c in &rest.walls {
                let before = flight[c.ball];
                self.balls[c.ball].velocity += without_bias(before, c.normal) - before;
            }
        }
        self.report.resting_passes = self.sequential_impulses(&mut rest.walls, &mut rest.pairs);
        self.leave_pushing_walls(&rest.walls);
        self.propagate_shock(&rest.walls, &mut rest.pairs);
        self.report_resting(&rest.walls, &rest.pairs);
        self.correct_overlaps(&rest.pairs);
        self.mark_resting(rest);
    }

    /// The slow contacts of the step's start: the walls and the balls touching each ball
    /// that met something last step (any other was in flight, and a wall or a ball it
    /// meets now is an event), slower than the resting speed (faster approaches are
    /// impacts, resolved exactly as events).
    fn gather_resting(&mut self, rest: &mut RestingContacts) {
        for k in 0..self.balls.len() {
            if self.step.clock[k].waiting || !self.met_before(k) {
                continue;
            }
            self.gather_walls(k, &mut rest.walls);
            if self.settings.ball_ball {
                self.gather_pairs(k, &mut rest.pairs, &mut rest.found);
            }
        }
        let resting = self.settings.resting_speed;
        rest.walls.retain(|c| c.approach < resting);
        rest.pairs.retain(|p| p.approach < resting);
    }

    /// The sequential impulses on the slow contacts, pass after pass until one changes no
    /// velocity by more than [`RESTING_SOLVE_TOLERANCE_REL`] of the resting speed, at most
    /// [`RESTING_ITERATIONS`] passes; returns how many it took.
    fn sequential_impulses(&mut self, walls: &mut [WallContact], pairs: &mut [RestingPair]) -> u32 {
        if walls.is_empty() && pairs.is_empty() {
            return 0;
        }
        let tolerance = RESTING_SOLVE_TOLERANCE_REL * self.settings.resting_speed;
        let mut passes = 0;
        while passes < RESTING_ITERATIONS {
            passes += 1;
            let mut change = 0.0_f32;
            for c in walls.iter_mut() {
                let v = self.balls[c.ball].velocity;
                let dv = rest_step(v, c.normal, 1.0, c.friction, &mut c.taken);
                self.balls[c.ball].velocity = v + dv;
                change = change.max(dv.length());
            }
            for p in pairs.iter_mut() {
                let (a, b) = (self.balls[p.a], self.balls[p.b]);
                let inv_sum = a.inverse_mass + b.inverse_mass;
                let impulse = rest_step(
                    a.velocity - b.velocity,
                    p.normal,
                    inv_sum,
                    p.friction,
                    &mut p.taken,
                );
                self.balls[p.a].velocity += impulse * a.inverse_mass;
                self.balls[p.b].velocity -= impulse * b.inverse_mass;
                change = change.max(impulse.length() * inv_sum);
            }
            if !(change > tolerance) {
                break;
            }
        }
        passes
    }

    /// A wall contact that pushed leaves at the separation bias, so that rounding does not
    /// make the ball's next sweep see it approach again. A ball against several walls (in a
    /// V) leaves them all as one contact: the sequential solve converges slowly in a narrow
    /// V, and a bias along one wall would turn the ball into the other.
    fn leave_pushing_walls(&mut self, walls: &[WallContact]) {
        for group in walls.chunk_by(|a, b| a.ball == b.ball) {
            let k = group[0].ball;
            if group.len() > 1 {
                self.leave_walls(k, group);
            } else if group[0].taken.normal > 0.0 {
                self.balls[k].velocity = leave_wall(self.balls[k].velocity, group[0].normal);
            }
        }
    }

    /// The balls in a slow contact: only their velocities (and, for an overlap, their
    /// centres) changed, so only their swept boxes did. Those the solve pressed on (a
    /// normal impulse) are at rest; one that only touches (a ball running down along a
    /// wall that gravity does not press it into) is not.
    fn mark_resting(&mut self, rest: &mut RestingContacts) {
        let step_gravity = |k: usize| self.gravity_of(k).length() * self.dt;
        let presses = |taken: f32, speed: f32, gravity: f32| taken > PRESS_SLACK_REL * (speed + gravity);
        let RestingContacts {
            walls,
            pairs,
            resting: pressed,
            touched,
            paired,
            ..
        } = rest;
        for c in walls.iter() {
            touched[c.ball] = true;
            pressed[c.ball] |= presses(
                c.taken.normal,
                self.balls[c.ball].velocity.length(),
                step_gravity(c.ball),
            );
        }
        for p in pairs.iter() {
            touched[p.a] = true;
            touched[p.b] = true;
            let relative = (self.balls[p.a].velocity - self.balls[p.b].velocity).length();
            let pair_pressed = presses(p.taken.normal, relative, step_gravity(p.a).max(step_gravity(p.b)));
            pressed[p.a] |= pair_pressed;
            pressed[p.b] |= pair_pressed;
        }
        for (k, _) in touched.iter().enumerate().filter(|(_, t)| **t) {
            self.moved(k);
        }
        for p in pairs.iter() {
            paired[p.a] = true;
            paired[p.b] = true;
        }
    }

    /// Ball `k`, touching the walls of `group`, leaving all of them (or sliding along
    /// them) with the velocity nearest its own, as one inelastic contact
    /// (`instant.rs`), which also leaves each at the separation bias.
    fn leave_walls(&mut self, k: usize, group: &[WallContact]) {
        let velocity = self.balls[k].velocity;
        if group.iter().all(|c| velocity.dot(c.normal) > 0.0) {
            return;
        }
        // Against walls alone, the ball's mass does not matter: 1. Past the problem's
        // rows, the walls are left out.
        let mut problem = OneBall::around(velocity.as_dvec2(), 1.0);
        for c in group {
            problem.push(Row::surface(OneBall::BALL, c.normal.as_dvec2(), DVec2::ZERO));
        }
        if let Some(out) = problem.solve() {
            let v = out.velocities[OneBall::BALL].as_vec2();
            if v.is_finite() {
                self.balls[k].velocity = v;
            }
        }
    }

    /// The walls ball `k` touches, seams merged.
    fn gather_walls(&mut self, k: usize, walls: &mut Vec<WallContact>) {
        let b = self.balls[k];
        let slop = b.radius * TOUCH_SLOP_REL;
        let start = walls.len();
        let near = Aabb::new(b.center, b.center).inflated(b.radius + slop);
        self.obstacles.query(near, |id, o| {
            if o.sensor || !b.layers.interacts(o.layers) {
                return;
            }
            let (point, on) = match o.shape {
                ObstacleShape::Segment(s) => rest_on(s, b.center),
                // A chain's inner vertex is its next edge's: met once, there.
                ObstacleShape::Edge(e) => match rest_on(e.segment, b.center) {
                    (p, Rest::Cap) if p == e.segment.b && e.has_after() => return,
                    found => found,
                },
                ObstacleShape::Circle(c) => {
                    let n = (b.center - c.center).normalize_or_zero();
                    (c.center + n * c.radius, Rest::Pillar)
                }
                ObstacleShape::Capsule(_) | ObstacleShape::Arc(_) => {
                    let Some(near) = o.shape.surface_near(b.center) else {
                        return;
                    };
                    let on = o.shape.face_near(b.center).map_or(Rest::Pillar, Rest::Face);
                    (near.point, on)
                }
            };
            let gap = b.center - point;
            let material = b.material.combine(o.material);
            // A kicker that fires at this approach is no resting contact: the event that
            // follows bounces and kicks the ball, as the single-ball sweep does.
            // On a face, the face's own normal: from the f32 closest point (its rounding at
            // the face's scale, ~1e-5 at 100 units), the normal tilted by up to 3e-5 rad,
            // and the velocity the solve left along it went into the face by as much.
            let normal = match on {
                Rest::Face(face) => face.normal_toward(gap),
                _ => gap.try_normalize(),
            };
            if let Some(normal) = normal
                && gap.length() <= b.radius + slop
                && o.takes_contact(point, normal)
                && !material.kick.fires(f64::from(-b.velocity.dot(normal)))
            {
                walls.push(WallContact {
                    ball: k,
                    obstacle: id,
                    point,
                    normal,
                    // Friction combines both materials, as in every other contact (the
                    // ball's own alone made a rough ball stick on a frictionless ramp).
                    friction: material.friction,
                    on,
                    approach: -b.velocity.dot(normal),
                    taken: Accumulated::default(),
                });
            }
        });
        drop_seam_caps(walls, start, slop);
    }

    /// Whether ball `k` met something last step (every ball, on a step that does not
    /// follow one of the same balls).
    #[inline]
    fn met_before(&self, k: usize) -> bool {
        self.met_before.len() != self.balls.len()
            || self
                .met_before
                .get(self.step.order.caller(k))
                .copied()
                .unwrap_or(true)
    }

    /// The balls that touch `k`: those after it (by index), and those before it that the
    /// gathering passes over (they met nothing last step), so each pair is found once.
    fn gather_pairs(&mut self, k: usize, pairs: &mut Vec<RestingPair>, found: &mut Vec<usize>) {
        let b = self.balls[k];
        found.clear();
        // A ball within the touch slop of this one has a point of its circle, which its box
        // holds, within this one's radius plus the slop of the pair: a box that small
        // finds it (a quarter of the area of one reaching the largest ball's centre).
        let reach =
            Aabb::new(b.center, b.center).inflated(b.radius + (b.radius + self.max_radius) * TOUCH_SLOP_REL);
        self.step.grid.query(reach, |j| found.push(j));
        for &j in found.iter() {
            if j == k
                || (j < k && self.met_before(j))
                || !b.layers.interacts(self.balls[j].layers)
                || !self.step.clock[j].valid
            {
                continue;
            }
            let o = self.balls[j];
            let offset = b.center - o.center;
            if let Some(normal) = offset.try_normalize()
                && offset.length() <= (b.radius + o.radius) * (1.0 + TOUCH_SLOP_REL)
            {
                pairs.push(RestingPair {
                    a: k,
                    b: j,
                    normal,
                    friction: b.material.combine(o.material).friction,
                    approach: -(b.velocity - o.velocity).dot(normal),
                    taken: Accumulated::default(),
                });
            }
        }
    }

    /// Shock propagation: one pass from the bottom up, each lower ball held still, so a
    /// stack stops in one sweep instead of after many halvings. It only removes approach,
    /// so it never adds energy. `pairs` is sorted bottom up on the way.
    fn propagate_shock(&mut self, walls: &[WallContact], pairs: &mut [RestingPair]) {
        let resting = self.settings.resting_speed;
        let Some(up) = (-self.settings.gravity).try_normalize() else {
            return;
        };
        for c in walls {
            let v = self.balls[c.ball].velocity;
            if -v.dot(c.normal) < resting {
                self.balls[c.ball].velocity = without_approach(v, c.normal);
            }
        }
        let balls = &*self.balls;
        let height = |p: &RestingPair| up.dot(balls[p.a].center).min(up.dot(balls[p.b].center));
        pairs.sort_by(|x, y| height(x).total_cmp(&height(y)));
        for p in pairs.iter() {
            let (low, high) = if up.dot(self.balls[p.a].center) <= up.dot(self.balls[p.b].center) {
                (p.a, p.b)
            } else {
                (p.b, p.a)
            };
            let (a, b) = (self.balls[high], self.balls[low]);
            let Some(n) = (a.center - b.center).try_normalize() else {
                continue;
            };
            let relative = a.velocity - b.velocity;
            if -relative.dot(n) < resting {
                self.balls[high].velocity = b.velocity + without_approach(relative, n);
            }
        }
    }

    /// Report every resting contact the solve acted on, once, at time 0.
    fn report_resting(&mut self, walls: &[WallContact], pairs: &[RestingPair]) {
        for c in walls.iter().filter(|c| c.taken.normal > 0.0) {
            self.report.bounces += 1;
            self.contacts.push(Contact {
                ball: c.ball,
                with: ContactWith::Obstacle(c.obstacle),
                time: 0.0,
                hit: Hit {
                    toi: 0.0,
                    center: self.balls[c.ball].center,
                    point: c.point,
                    normal: c.normal,
                },
                approach_speed: c.approach.max(0.0),
                other_velocity: Vec2::ZERO,
                sensor: false,
                kick: 0.0,
            });
        }
        for &RestingPair {
            a: i,
            b: j,
            approach,
            taken,
            ..
        } in pairs
        {
            if taken.normal > 0.0 {
                let (a, b) = (self.balls[i], self.balls[j]);
                let normal = (a.center - b.center).normalize_or_zero();
                self.report.bounces += 1;
                self.contacts.push(Contact {
                    ball: i,
                    with: ContactWith::Ball(j),
                    time: 0.0,
                    hit: Hit {
                        toi: 0.0,
                        center: a.center,
                        point: b.center + normal * b.radius,
                        normal,
                    },
                    approach_speed: approach.max(0.0),
                    other_velocity: b.velocity,
                    sensor: false,
                    kick: 0.0,
                });
            }
        }
    }
}
