//! Event-driven stepping of many balls: walls, moving obstacles (flippers, kinematic
//! pillars) and ball–ball contacts, resolved exactly and in time order within the step.
//!
//! Every ball keeps its own clock and its next event (a wall, a moving obstacle or another
//! ball). The earliest event of the whole step is processed first; only the balls it
//! touched are re-predicted. A uniform grid of swept boxes finds candidate pairs. Nothing
//! is dropped: after an event a ball spends the rest of the step on its new velocity.

mod ball_grid;

use crate::bounce::earliest_on_leg;
use crate::tolerance::SEPARATION_SPEED_REL;
use crate::{
    Aabb, Circle, Hit, Layers, Material, Obstacle, ObstacleId, ObstacleShape, Obstacles, ResponseMode,
    SegmentMotion, respond, sweep_circle_moving_circle, sweep_circle_moving_segment,
};
use ball_grid::BallGrid;
use glam::Vec2;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Default event budget per ball per step; the whole step may process
/// `balls · DEFAULT_EVENTS_PER_BALL + MIN_EVENT_BUDGET` events before it stops.
pub const DEFAULT_EVENTS_PER_BALL: u32 = 64;

/// Events always allowed per step, however few balls there are.
pub const MIN_EVENT_BUDGET: u32 = 1024;

/// Dimensionless. Ball–ball events less than this fraction of the step apart are
/// simultaneous and resolved together, order-independently, so a symmetric break stays
/// symmetric. 1e-6 of a step is far below any visible motion and far above the rounding
/// (about 1e-7) that makes mirrored contacts differ in their last bit.
pub const SIMULTANEOUS_TIME_REL: f32 = 1e-6;

/// Cap on the impulse passes over one batch of simultaneous ball–ball contacts. A pair
/// needs one pass; a ball struck from two sides at once a few.
pub const MAX_SIMULTANEOUS_PASSES: u32 = 32;

/// Dimensionless. Two balls whose centres are within `(1 + TOUCH_SLOP_REL)·(r₁ + r₂)` are
/// touching: they join the same simultaneous contact cluster and the resting-contact
/// solve. 1e-4 of the contact distance absorbs the rounding of positions placed at
/// contact by earlier steps (about 1e-7 relative) a thousand times over, and is far below
/// anything visible.
pub const TOUCH_SLOP_REL: f32 = 1e-4;

/// Dimensionless. Two balls already touching that close in slower than this fraction of the
/// resting speed make no event; the next step's resting-contact solve takes them. Without
/// it a settling pile turns into an endless chain of ever smaller contacts (inelastic
/// collapse). The overlap this allows is at most `0.05 · resting_speed · dt` per step, a
/// twentieth of what gravity adds to a resting contact in one step.
pub const RESTING_EVENT_FRACTION: f32 = 0.05;

/// Iterations of the resting-contact solve run at the start of each step (sequential
/// impulses over touching pairs and walls approaching slower than the resting speed).
pub const RESTING_ITERATIONS: u32 = 16;

/// Dimensionless. Overlap of two balls, as a fraction of their contact distance `r₁ + r₂`,
/// that the position correction leaves alone. Slow contacts skipped by
/// [`RESTING_EVENT_FRACTION`] let a pile sink in by up to `0.05 · resting_speed · dt` per
/// step; below this depth (1e-3 of the contact distance, a thousandth of a diameter)
/// nothing is visible and moving balls would only make the pile creep.
pub const ALLOWED_OVERLAP_REL: f32 = 1e-3;

/// Dimensionless. Fraction of the overlap beyond [`ALLOWED_OVERLAP_REL`] that one step's
/// position correction removes. Half keeps the correction gentle (no visible pop) while
/// the steady overlap stays within about twice the per-step creep.
pub const OVERLAP_CORRECTION_FRACTION: f32 = 0.5;

/// Passes of the position correction over the touching pairs at the start of a step.
pub const OVERLAP_CORRECTION_ITERATIONS: u32 = 16;

/// Slides along a wall allowed to one ball's position correction in one pass (a ball in
/// a corner slides once along each wall, then stops).
pub const MAX_CORRECTION_SLIDES: u32 = 2;

/// Sensor contacts remembered per ball per leg (see
/// [`MAX_SENSOR_HITS_PER_LEG`](crate::MAX_SENSOR_HITS_PER_LEG)).
const SENSORS_PER_LEG: usize = crate::MAX_SENSOR_HITS_PER_LEG;

/// A ball for [`step_balls`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Centre.
    pub center: Vec2,
    /// Velocity, world units per second.
    pub velocity: Vec2,
    /// Radius.
    pub radius: f32,
    /// `1 / mass`. [`Ball::new`] uses the area (`π r²`) as the mass. Zero makes a ball
    /// that other balls cannot push.
    pub inverse_mass: f32,
    /// Restitution and friction.
    pub material: Material,
    /// Collision layers, against obstacles and other balls.
    pub layers: Layers,
    /// Bounce, slide or stop.
    pub response: ResponseMode,
}

impl Ball {
    /// A ball with mass from its area, elastic, on all layers.
    ///
    /// ```
    /// use ccd_core::{Ball, Vec2};
    /// let b = Ball::new(Vec2::ZERO, Vec2::X, 2.0);
    /// assert!((b.inverse_mass - 1.0 / (std::f32::consts::PI * 4.0)).abs() < 1e-7);
    /// ```
    #[must_use]
    pub fn new(center: Vec2, velocity: Vec2, radius: f32) -> Self {
        let area = std::f32::consts::PI * radius * radius;
        Self {
            center,
            velocity,
            radius,
            inverse_mass: if area > 0.0 && area.is_finite() {
                1.0 / area
            } else {
                1.0
            },
            material: Material::ELASTIC,
            layers: Layers::ALL,
            response: ResponseMode::Bounce,
        }
    }

    fn circle(&self) -> Circle {
        Circle::new(self.center, self.radius)
    }
}

/// An obstacle that moves during the step: its shape at the step's start, and its motion.
/// A circle's centre moves in a straight line from its start to its end position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingObstacle {
    /// Shape, material, flags and layers, at the start of the step.
    pub obstacle: Obstacle,
    /// Motion over the whole step.
    pub motion: SegmentMotion,
}

impl MovingObstacle {
    /// The motion over the part of the step from fraction `from` to its end, as a motion of
    /// its own over `[0, 1]`, and the obstacle where it is at `from`.
    fn rest_of_step(&self, from: f32) -> (Obstacle, SegmentMotion) {
        let left = 1.0 - from;
        let m = self.motion;
        let motion = SegmentMotion {
            pivot: m.pivot_at(from),
            angle: m.angle * left,
            pivot_motion: m.pivot_motion * left,
        };
        let mut obstacle = self.obstacle;
        obstacle.shape = match obstacle.shape {
            ObstacleShape::Segment(s) => ObstacleShape::Segment(m.segment_at(s, from)),
            ObstacleShape::Circle(c) => {
                ObstacleShape::Circle(Circle::new(self.circle_center_at(c, from), c.radius))
            }
        };
        (obstacle, motion)
    }

    fn circle_center_at(&self, c: Circle, t: f32) -> Vec2 {
        let m = self.motion;
        let end = m.pivot + m.pivot_motion + Vec2::from_angle(m.angle).rotate(c.center - m.pivot);
        c.center.lerp(end, t)
    }

    /// Bounding box of everything it covers during the step.
    fn swept_aabb(&self) -> Aabb {
        let m = self.motion;
        match self.obstacle.shape {
            ObstacleShape::Segment(s) => {
                let lever = (s.a - m.pivot).length().max((s.b - m.pivot).length());
                let reach = Aabb::new(m.pivot, m.pivot).inflated(lever);
                let moved = Aabb::new(m.pivot + m.pivot_motion, m.pivot + m.pivot_motion).inflated(lever);
                reach.union(moved)
            }
            ObstacleShape::Circle(c) => {
                let end = self.circle_center_at(c, 1.0);
                Aabb::new(c.center.min(end), c.center.max(end)).inflated(c.radius)
            }
        }
    }
}

/// Settings of [`step_balls`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiballSettings {
    /// Whether balls collide with each other (layers permitting). Default `true`.
    pub ball_ball: bool,
    /// Contacts one ball may resolve in a step before it waits at its last contact for the
    /// rest of the step. Default [`DEFAULT_MAX_BOUNCES`](crate::DEFAULT_MAX_BOUNCES).
    pub max_bounces: u32,
    /// Events the whole step may process; `0` means
    /// `balls · DEFAULT_EVENTS_PER_BALL + MIN_EVENT_BUDGET`. Past it every ball stays where
    /// it is for the rest of the step: time is lost, nothing tunnels. Default 0.
    pub max_events: u32,
    /// Approach speed below which a contact removes the normal velocity instead of
    /// bouncing (resting contact), world units per second. Default 0.
    pub resting_speed: f32,
    /// The gravity the balls feel (already added to their velocities by the caller). Only
    /// its direction is used: resting piles are solved from the bottom up along it.
    /// Default zero (no bottom-up pass).
    pub gravity: Vec2,
}

impl Default for MultiballSettings {
    fn default() -> Self {
        Self {
            ball_ball: true,
            max_bounces: crate::DEFAULT_MAX_BOUNCES,
            max_events: 0,
            resting_speed: 0.0,
            gravity: Vec2::ZERO,
        }
    }
}

/// What a ball touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactWith {
    /// A static obstacle of the [`Obstacles`] store.
    Obstacle(ObstacleId),
    /// A moving obstacle, by index.
    Moving(usize),
    /// Another ball, by index.
    Ball(usize),
}

/// One contact during [`step_balls`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The ball, by index.
    pub ball: usize,
    /// What it touched. A ball–ball contact is reported once, with either ball as `ball`.
    pub with: ContactWith,
    /// Seconds since the start of the step.
    pub time: f32,
    /// Geometry: `hit.center` is the ball's centre, `hit.point` on the other's surface,
    /// `hit.normal` from the other towards the ball.
    pub hit: Hit,
    /// Approach speed along the normal (relative to a moving surface or ball).
    pub approach_speed: f32,
    /// Whether the obstacle is a sensor.
    pub sensor: bool,
}

/// Counts from one [`step_balls`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MultiballReport {
    /// Events processed (contacts resolved, plus re-predictions after a partner changed).
    pub events: u32,
    /// Solid contacts resolved, over all balls (a ball–ball contact counts once).
    pub bounces: u32,
    /// The most contacts one ball resolved.
    pub max_bounces_per_ball: u32,
    /// Balls that reached `max_bounces` and waited.
    pub capped_balls: u32,
    /// Whether the event budget ran out (every ball lost the rest of the step).
    pub event_budget_hit: bool,
    /// The deepest ball–ball overlap found at the start of the step, in world units,
    /// before the position correction (see [`ALLOWED_OVERLAP_REL`]).
    pub max_overlap: f32,
}

/// Reusable buffers for [`step_balls`], so stepping allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct MultiballScratch {
    state: Vec<BallState>,
    heap: BinaryHeap<Event>,
    grid: BallGrid,
    boxes: Vec<Aabb>,
    moving_boxes: Vec<Aabb>,
    batch: Vec<(usize, usize)>,
    retry: Vec<(usize, f32)>,
    pair_impulses: Vec<(Vec2, bool)>,
    degree: Vec<u32>,
    reported: Vec<bool>,
    cluster: Vec<usize>,
    links: Vec<(usize, usize)>,
    found: Vec<usize>,
    /// Resting wall contacts: ball, normal, and the combined friction coefficient.
    wall_contacts: Vec<(usize, Vec2, f32)>,
}

#[derive(Clone, Copy, Debug)]
struct BallState {
    /// The time of `Ball::center`, seconds since the step's start.
    time: f32,
    version: u32,
    bounces: u32,
    /// Waiting at its last contact for the rest of the step.
    frozen: bool,
    /// Passed `usable` at the step's start (cached: pair searches ask it of every
    /// candidate, and a ball's values stay finite through the step).
    valid: bool,
    sensors: [(f32, ContactWith, Hit); SENSORS_PER_LEG],
    sensor_count: u8,
}

impl Default for BallState {
    fn default() -> Self {
        let nothing = Hit {
            toi: 0.0,
            center: Vec2::ZERO,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
        };
        Self {
            time: 0.0,
            version: 0,
            bounces: 0,
            frozen: false,
            valid: false,
            sensors: [(0.0, ContactWith::Ball(0), nothing); SENSORS_PER_LEG],
            sensor_count: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum EventKind {
    Obstacle {
        id: ObstacleId,
        material: Material,
        hit: Hit,
    },
    Moving {
        index: usize,
        hit: Hit,
        surface_velocity: Vec2,
    },
    Ball {
        other: u32,
        other_version: u32,
    },
}

#[derive(Clone, Copy, Debug)]
struct Event {
    time: f32,
    ball: u32,
    version: u32,
    kind: EventKind,
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    /// Reversed, so the max-heap pops the earliest event; ties go to the lower ball index.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then_with(|| other.ball.cmp(&self.ball))
    }
}

/// Move every ball through `dt` seconds: against the static `obstacles`, the `moving`
/// obstacles and (if enabled) each other, event by event in time order.
///
/// Contacts are passed to `on_contact` in the order they are resolved (sensors when the
/// leg that crossed them ends). Bad balls (non-finite values, negative radius) are left
/// untouched and never interact.
///
/// ```
/// use ccd_core::{step_balls, Ball, MultiballScratch, MultiballSettings, Obstacle, Vec2};
/// // Equal balls head on at ±10 units/s, 10 apart (radius 1): they meet after 0.4 s and
/// // swap velocities; in the last 0.6 s each goes 6 units back: the first ends at x = −1 − 6.
/// let mut balls = [Ball::new(Vec2::new(-5.0, 0.0), Vec2::new(10.0, 0.0), 1.0), Ball::new(Vec2::new(5.0, 0.0), Vec2::new(-10.0, 0.0), 1.0)];
/// let none: [Obstacle; 0] = [];
/// let mut scratch = MultiballScratch::default();
/// let report = step_balls(&mut balls, 1.0, &none, &[], &MultiballSettings::default(), &mut scratch, |_| {});
/// assert_eq!(report.bounces, 1);
/// assert!((balls[0].center - Vec2::new(-7.0, 0.0)).length() < 1e-4);
/// assert!((balls[0].velocity - Vec2::new(-10.0, 0.0)).length() < 1e-4);
/// ```
pub fn step_balls<O: Obstacles + ?Sized>(
    balls: &mut [Ball],
    dt: f32,
    obstacles: &O,
    moving: &[MovingObstacle],
    settings: &MultiballSettings,
    scratch: &mut MultiballScratch,
    mut on_contact: impl FnMut(&Contact),
) -> MultiballReport {
    let mut report = MultiballReport::default();
    if !(dt > 0.0) || !dt.is_finite() || balls.is_empty() {
        return report;
    }
    let mut sim = Sim {
        balls,
        dt,
        obstacles,
        moving,
        settings,
        scratch,
        max_radius: 0.0,
    };
    sim.prepare();
    sim.solve_resting(&mut report);
    let budget = if settings.max_events > 0 {
        settings.max_events
    } else {
        (sim.balls.len() as u32)
            .saturating_mul(DEFAULT_EVENTS_PER_BALL)
            .saturating_add(MIN_EVENT_BUDGET)
    };
    for i in 0..sim.balls.len() {
        sim.predict(i, &mut on_contact);
    }
    while let Some(event) = sim.scratch.heap.pop() {
        let i = event.ball as usize;
        if sim.scratch.state[i].version != event.version {
            continue;
        }
        if report.events >= budget {
            report.event_budget_hit = true;
            // Everything before `event.time` is resolved: hold every ball there.
            for k in 0..sim.balls.len() {
                sim.advance(k, event.time, &mut on_contact);
                sim.scratch.state[k].frozen = true;
            }
            sim.scratch.heap.clear();
            break;
        }
        report.events += 1;
        match event.kind {
            EventKind::Ball { other, other_version } => {
                let j = other as usize;
                if sim.scratch.state[j].version != other_version {
                    // The partner changed course: this ball's leg goes on; look again.
                    sim.advance(i, event.time, &mut on_contact);
                    sim.predict(i, &mut on_contact);
                    continue;
                }
                // Gather every other valid pair event at (nearly) the same time.
                let mut batch = std::mem::take(&mut sim.scratch.batch);
                let mut retry = std::mem::take(&mut sim.scratch.retry);
                batch.clear();
                retry.clear();
                batch.push((i, j));
                let window = event.time + SIMULTANEOUS_TIME_REL * dt;
                while let Some(next) = sim.scratch.heap.peek().copied() {
                    let EventKind::Ball { other, other_version } = next.kind else {
                        break;
                    };
                    if next.time > window {
                        break;
                    }
                    sim.scratch.heap.pop();
                    let (a, b) = (next.ball as usize, other as usize);
                    if sim.scratch.state[a].version != next.version {
                        continue;
                    }
                    if sim.scratch.state[b].version != other_version {
                        retry.push((a, next.time));
                        continue;
                    }
                    if !batch.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)) {
                        batch.push((a, b));
                    }
                }
                sim.resolve_pairs(&batch, event.time, &mut report, &mut on_contact);
                for &(a, t) in &retry {
                    if !batch.iter().any(|&(x, y)| x == a || y == a) {
                        sim.advance(a, t, &mut on_contact);
                        sim.predict(a, &mut on_contact);
                    }
                }
                sim.scratch.batch = batch;
                sim.scratch.retry = retry;
            }
            EventKind::Obstacle { id, material, hit } => {
                sim.resolve_wall(
                    i,
                    event.time,
                    ContactWith::Obstacle(id),
                    material,
                    hit,
                    Vec2::ZERO,
                    &mut report,
                    &mut on_contact,
                );
            }
            EventKind::Moving {
                index,
                hit,
                surface_velocity,
            } => {
                let material = sim.moving[index].obstacle.material;
                sim.resolve_wall(
                    i,
                    event.time,
                    ContactWith::Moving(index),
                    material,
                    hit,
                    surface_velocity,
                    &mut report,
                    &mut on_contact,
                );
            }
        }
    }
    for k in 0..sim.balls.len() {
        if !sim.scratch.state[k].frozen {
            sim.advance(k, dt, &mut on_contact);
        }
        sim.flush_sensors(k, dt, &mut on_contact);
        let s = sim.scratch.state[k];
        report.max_bounces_per_ball = report.max_bounces_per_ball.max(s.bounces);
        report.capped_balls += u32::from(s.bounces >= settings.max_bounces);
    }
    report
}

struct Sim<'a, O: ?Sized> {
    balls: &'a mut [Ball],
    dt: f32,
    obstacles: &'a O,
    moving: &'a [MovingObstacle],
    settings: &'a MultiballSettings,
    scratch: &'a mut MultiballScratch,
    /// The largest ball radius, for neighbour searches.
    max_radius: f32,
}

fn usable(b: &Ball) -> bool {
    b.circle().validate().is_ok()
        && b.velocity.is_finite()
        && b.inverse_mass.is_finite()
        && b.inverse_mass >= 0.0
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    fn prepare(&mut self) {
        let n = self.balls.len();
        self.max_radius = self
            .balls
            .iter()
            .filter(|b| usable(b))
            .map(|b| b.radius)
            .fold(0.0, f32::max);
        self.scratch.state.clear();
        self.scratch.state.resize(n, BallState::default());
        // Once per step; `resolve_pairs` keeps it all zero between its calls.
        self.scratch.degree.clear();
        self.scratch.degree.resize(n, 0);
        self.scratch.heap.clear();
        for (ball, state) in self.balls.iter().zip(self.scratch.state.iter_mut()) {
            // A bad ball sits out the whole step.
            state.valid = usable(ball);
            state.frozen = !state.valid;
        }
        self.scratch.moving_boxes.clear();
        self.scratch
            .moving_boxes
            .extend(self.moving.iter().map(MovingObstacle::swept_aabb));
        if self.settings.ball_ball {
            self.scratch.boxes.clear();
            for k in 0..n {
                let b = self.swept_box(k);
                self.scratch.boxes.push(b);
            }
            self.scratch.grid.rebuild(&self.scratch.boxes);
        }
    }

    /// Resting contacts: before any event, remove the slow approach of touching pairs and of
    /// balls touching walls (a pile under gravity), by sequential impulses in a fixed order.
    /// Only approaches slower than the resting speed are touched; real impacts are left to
    /// the exact event-driven phase.
    fn solve_resting(&mut self, report: &mut MultiballReport) {
        let resting = self.settings.resting_speed;
        if !(resting > 0.0) {
            return;
        }
        let mut links = std::mem::take(&mut self.scratch.links);
        let mut walls = std::mem::take(&mut self.scratch.wall_contacts);
        let mut found = std::mem::take(&mut self.scratch.found);
        links.clear();
        walls.clear();
        for k in 0..self.balls.len() {
            if self.scratch.state[k].frozen {
                continue;
            }
            let b = self.balls[k];
            let slop = b.radius * TOUCH_SLOP_REL;
            // Walls touching the ball.
            let near = Aabb::new(b.center, b.center).inflated(b.radius + slop);
            self.obstacles.query(near, |_, o| {
                if o.sensor || !b.layers.interacts(o.layers) {
                    return;
                }
                let (point, reach) = match o.shape {
                    ObstacleShape::Segment(s) => (s.closest_point(b.center), b.radius),
                    ObstacleShape::Circle(c) => {
                        let n = (b.center - c.center).normalize_or_zero();
                        (c.center + n * c.radius, b.radius)
                    }
                };
                let gap = b.center - point;
                if let Some(n) = gap.try_normalize()
                    && gap.length() <= reach + slop
                    && (!o.one_sided
                        || matches!(o.shape, ObstacleShape::Segment(s) if n.dot(s.direction().perp()) > 0.0))
                {
                    // Friction combines both materials, as in every other contact (the
                    // ball's own alone made a rough ball stick on a frictionless ramp).
                    walls.push((k, n, b.material.combine(o.material).friction));
                }
            });
            if self.settings.ball_ball {
                found.clear();
                let reach = Aabb::new(b.center, b.center)
                    .inflated(b.radius * (1.0 + TOUCH_SLOP_REL) + self.max_radius);
                self.scratch.grid.query(reach, |j| found.push(j));
                for &j in &found {
                    if j <= k || !b.layers.interacts(self.balls[j].layers) || !self.scratch.state[j].valid {
                        continue;
                    }
                    let o = self.balls[j];
                    if (b.center - o.center).length() <= (b.radius + o.radius) * (1.0 + TOUCH_SLOP_REL) {
                        links.push((k, j));
                    }
                }
            }
        }
        for _ in 0..RESTING_ITERATIONS {
            let mut changed = false;
            for &(k, n, mu) in walls.iter() {
                let v = self.balls[k].velocity;
                let vn = v.dot(n);
                if vn < 0.0 && -vn < resting {
                    let tangent = v - n * vn;
                    let friction = mu.max(0.0) * -vn;
                    let t_len = tangent.length();
                    let kept = if t_len > friction {
                        tangent * ((t_len - friction) / t_len)
                    } else {
                        Vec2::ZERO
                    };
                    self.balls[k].velocity = kept + n * (SEPARATION_SPEED_REL * kept.length());
                    changed = true;
                }
            }
            for &(i, j) in links.iter() {
                let (a, b) = (self.balls[i], self.balls[j]);
                let relative = a.velocity - b.velocity;
                let Some(n) = (a.center - b.center).try_normalize() else {
                    continue;
                };
                let vn = relative.dot(n);
                let inv_sum = a.inverse_mass + b.inverse_mass;
                if vn < 0.0 && -vn < resting && inv_sum > 0.0 {
                    let jn =
                        (SEPARATION_SPEED_REL * (a.velocity.length() + b.velocity.length()) - vn) / inv_sum;
                    // Coulomb friction on the sliding, never reversing it.
                    let tangent = relative - n * vn;
                    let mu = a.material.combine(b.material).friction.max(0.0);
                    let jt = (tangent.length() / inv_sum).min(mu * jn);
                    let impulse = n * jn - tangent.normalize_or_zero() * jt;
                    self.balls[i].velocity += impulse * a.inverse_mass;
                    self.balls[j].velocity -= impulse * b.inverse_mass;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Shock propagation: one pass from the bottom up, each lower ball held still, so a
        // stack stops in one sweep instead of after many halvings. It only removes
        // approach, so it never adds energy.
        if let Some(up) = (-self.settings.gravity).try_normalize() {
            for &(k, n, _) in walls.iter() {
                let v = self.balls[k].velocity;
                let vn = v.dot(n);
                if vn < 0.0 && -vn < resting {
                    self.balls[k].velocity = v - n * vn;
                }
            }
            let balls = &*self.balls;
            let height = |(i, j): (usize, usize)| up.dot(balls[i].center).min(up.dot(balls[j].center));
            links.sort_by(|a, b| height(*a).total_cmp(&height(*b)));
            for &(i, j) in links.iter() {
                let (low, high) = if up.dot(self.balls[i].center) <= up.dot(self.balls[j].center) {
                    (i, j)
                } else {
                    (j, i)
                };
                let (a, b) = (self.balls[high], self.balls[low]);
                let Some(n) = (a.center - b.center).try_normalize() else {
                    continue;
                };
                let vn = (a.velocity - b.velocity).dot(n);
                if vn < 0.0 && -vn < resting {
                    self.balls[high].velocity -= n * vn;
                }
            }
        }
        self.correct_overlaps(&links, report);
        self.scratch.links = links;
        self.scratch.wall_contacts = walls;
        self.scratch.found = found;
        // Velocities changed: the swept boxes did too.
        if self.settings.ball_ball {
            for k in 0..self.balls.len() {
                self.moved(k);
            }
        }
    }

    /// Push overlapping touching balls apart, by positions only (velocities, so energy and
    /// momentum, are untouched). Each shift is swept against the walls and the moving
    /// obstacles at their start pose, so a correction never pushes a ball through anything.
    fn correct_overlaps(&mut self, links: &[(usize, usize)], report: &mut MultiballReport) {
        for pass in 0..OVERLAP_CORRECTION_ITERATIONS {
            let mut any = false;
            for &(i, j) in links {
                let (a, b) = (self.balls[i], self.balls[j]);
                let contact = a.radius + b.radius;
                let gap = a.center - b.center;
                let depth = contact - gap.length();
                if pass == 0 {
                    report.max_overlap = report.max_overlap.max(depth);
                }
                let excess = depth - ALLOWED_OVERLAP_REL * contact;
                let inv_sum = a.inverse_mass + b.inverse_mass;
                if !(excess > 0.0) || !(inv_sum > 0.0) {
                    continue;
                }
                // Coincident centres: any direction separates them; take a fixed one.
                let n = gap.try_normalize().unwrap_or(Vec2::Y);
                let push = n * (excess * OVERLAP_CORRECTION_FRACTION / inv_sum);
                self.shift(i, push * a.inverse_mass);
                self.shift(j, -push * b.inverse_mass);
                any = true;
            }
            if !any {
                break;
            }
        }
    }

    /// Move ball `k` by `delta`, sliding along the first walls or moving obstacles on the
    /// way (at most [`MAX_CORRECTION_SLIDES`] times) and never crossing one.
    fn shift(&mut self, k: usize, delta: Vec2) {
        let mut left = delta;
        for _ in 0..=MAX_CORRECTION_SLIDES {
            if left == Vec2::ZERO || !left.is_finite() {
                return;
            }
            let ball = self.balls[k];
            let circle = ball.circle();
            let mut first = earliest_on_leg(circle, left, self.obstacles, ball.layers)
                .solid
                .map(|(_, _, hit)| hit);
            for m in self.moving {
                if m.obstacle.sensor || !ball.layers.interacts(m.obstacle.layers) {
                    continue;
                }
                if let Some(hit) = m.obstacle.sweep(circle, left)
                    && first.is_none_or(|f| hit.toi < f.toi)
                {
                    first = Some(hit);
                }
            }
            let Some(hit) = first else {
                self.balls[k].center += left;
                return;
            };
            self.balls[k].center += left * hit.toi;
            // Keep the part of the rest that runs along the surface.
            let rest = left * (1.0 - hit.toi);
            left = rest - hit.normal * rest.dot(hit.normal).min(0.0);
        }
    }

    /// The box ball `k` sweeps from its clock to the end of the step (a point box for a
    /// waiting or bad ball).
    fn swept_box(&self, k: usize) -> Aabb {
        let b = &self.balls[k];
        let s = &self.scratch.state[k];
        if !b.center.is_finite() {
            return Aabb::new(Vec2::ZERO, Vec2::ZERO);
        }
        let motion = if s.frozen {
            Vec2::ZERO
        } else {
            b.velocity * (self.dt - s.time)
        };
        let r = if b.radius.is_finite() {
            b.radius.max(0.0)
        } else {
            0.0
        };
        let swept = Aabb::swept(b.center, motion, r);
        if swept.is_finite() {
            swept
        } else {
            Aabb::new(b.center, b.center)
        }
    }

    /// The velocity ball `k` moves with for the rest of the step.
    fn effective_velocity(&self, k: usize) -> Vec2 {
        if self.scratch.state[k].frozen {
            Vec2::ZERO
        } else {
            self.balls[k].velocity
        }
    }

    /// Move ball `k` along its leg to time `t`, reporting the sensors it entered before.
    fn advance(&mut self, k: usize, t: f32, on_contact: &mut impl FnMut(&Contact)) {
        self.flush_sensors(k, t, on_contact);
        let s = &mut self.scratch.state[k];
        if !s.frozen && t > s.time {
            self.balls[k].center += self.balls[k].velocity * (t - s.time);
        }
        if t > s.time {
            s.time = t;
        }
    }

    fn flush_sensors(&mut self, k: usize, until: f32, on_contact: &mut impl FnMut(&Contact)) {
        let s = &mut self.scratch.state[k];
        let count = s.sensor_count as usize;
        for &(time, with, hit) in &s.sensors[..count] {
            if time <= until {
                let approach = -self.balls[k].velocity.dot(hit.normal);
                on_contact(&Contact {
                    ball: k,
                    with,
                    time,
                    hit,
                    approach_speed: approach,
                    sensor: true,
                });
            }
        }
        s.sensor_count = 0;
    }

    /// Find ball `i`'s next event from its clock and schedule it.
    fn predict(&mut self, i: usize, _on_contact: &mut impl FnMut(&Contact)) {
        let state = self.scratch.state[i];
        if state.frozen {
            return;
        }
        let ball = self.balls[i];
        let start = state.time;
        let left = self.dt - start;
        let motion = ball.velocity * left;
        if !(left > 0.0) || (motion == Vec2::ZERO && self.moving.is_empty()) {
            return;
        }
        let circle = ball.circle();
        let mut best: Option<(f32, EventKind)> = None;
        let mut consider = |toi: f32, kind: EventKind| {
            let time = start + toi * left;
            if best.is_none_or(|(t, _)| time < t) {
                best = Some((time, kind));
            }
        };

        // Static obstacles, with the sensors on the way.
        let leg = earliest_on_leg(circle, motion, self.obstacles, ball.layers);
        if let Some((id, material, hit)) = leg.solid {
            consider(hit.toi, EventKind::Obstacle { id, material, hit });
        }
        let mut sensors = [(0.0, ContactWith::Ball(0), leg_placeholder()); SENSORS_PER_LEG];
        let mut sensor_count = 0;
        for &(id, hit) in leg.sensors() {
            sensors[sensor_count] = (start + hit.toi * left, ContactWith::Obstacle(id), hit);
            sensor_count += 1;
        }

        // Moving obstacles.
        let bounds = Aabb::swept(ball.center, motion, ball.radius);
        let from = start / self.dt;
        for (index, m) in self.moving.iter().enumerate() {
            if !ball.layers.interacts(m.obstacle.layers)
                || !self.scratch.moving_boxes[index].intersects(&bounds)
            {
                continue;
            }
            let (obstacle, rest) = m.rest_of_step(from);
            let found = match obstacle.shape {
                ObstacleShape::Segment(s) => {
                    sweep_circle_moving_segment(circle, motion, s, rest).and_then(|h| {
                        let front = s.direction().perp();
                        (!obstacle.one_sided || h.hit.normal.dot(front) > 0.0)
                            .then_some((h.hit, h.surface_motion))
                    })
                }
                ObstacleShape::Circle(c) => {
                    let other_motion = self.moving[index].circle_center_at(c, 1.0)
                        - self.moving[index].circle_center_at(c, from);
                    sweep_circle_moving_circle(circle, motion, c, other_motion).map(|h| (h, other_motion))
                }
            };
            let Some((hit, surface_motion)) = found else {
                continue;
            };
            if obstacle.sensor {
                if hit.toi > 0.0 && sensor_count < SENSORS_PER_LEG {
                    sensors[sensor_count] = (start + hit.toi * left, ContactWith::Moving(index), hit);
                    sensor_count += 1;
                }
                continue;
            }
            consider(
                hit.toi,
                EventKind::Moving {
                    index,
                    hit,
                    surface_velocity: surface_motion / left,
                },
            );
        }

        // Other balls.
        if self.settings.ball_ball {
            let balls = &*self.balls;
            let states = &self.scratch.state;
            let boxes = &self.scratch.boxes;
            let dt = self.dt;
            let resting_floor = self.settings.resting_speed * RESTING_EVENT_FRACTION;
            // Two balls whose swept boxes for the rest of the step are apart cannot touch:
            // skip the pair sweep (most grid candidates; the sweeps were most of a dense
            // step's time). The margin keeps f32 rounding of the boxes from dropping a
            // contact at their very edge.
            let reach = bounds.inflated(self.max_radius * TOUCH_SLOP_REL);
            self.scratch.grid.query(bounds, |j| {
                if j == i
                    || !ball.layers.interacts(balls[j].layers)
                    || !states[j].valid
                    || !boxes[j].intersects(&reach)
                {
                    return;
                }
                let other = balls[j];
                let os = states[j];
                let common = start.max(os.time);
                let vj = if os.frozen { Vec2::ZERO } else { other.velocity };
                let pi = ball.center + ball.velocity * (common - start);
                let pj = other.center + vj * (common - os.time);
                let rest = dt - common;
                if !(rest > 0.0) {
                    return;
                }
                if let Some(hit) = sweep_circle_moving_circle(
                    Circle::new(pi, ball.radius),
                    ball.velocity * rest,
                    Circle::new(pj, other.radius),
                    vj * rest,
                ) {
                    // Already touching: an event only if the pair closes in by the measure
                    // the impulse uses (`pair_impulse`: the line of centres, strictly
                    // closing). The sweep's own normal may differ from it in the last bit,
                    // and a contact the sweep calls closing but the impulse does not was
                    // resolved to nothing and found again at the same instant, over and
                    // over until the event budget ran out (a dense gas hit it within ten
                    // steps). Closing slower than the resting floor: the next resting
                    // solve's job.
                    if hit.toi == 0.0 {
                        let normal = (pi - pj).try_normalize().unwrap_or(hit.normal);
                        if -(ball.velocity - vj).dot(normal) <= resting_floor {
                            return;
                        }
                    }
                    let time = common + hit.toi * rest;
                    if best.is_none_or(|(t, _)| time < t) {
                        best = Some((
                            time,
                            EventKind::Ball {
                                other: j as u32,
                                other_version: os.version,
                            },
                        ));
                    }
                }
            });
        }

        let end = best.map_or(self.dt, |(t, _)| t);
        let s = &mut self.scratch.state[i];
        s.sensor_count = 0;
        // Sensors count only up to the leg's end (an earlier solid contact cuts the leg).
        let mut n = 0;
        for entry in sensors.iter().take(sensor_count) {
            if entry.0 <= end {
                s.sensors[n] = *entry;
                n += 1;
            }
        }
        s.sensors[..n].sort_by(|a, b| a.0.total_cmp(&b.0));
        s.sensor_count = n as u8;
        if let Some((time, kind)) = best {
            self.scratch.heap.push(Event {
                time,
                ball: i as u32,
                version: s.version,
                kind,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn resolve_wall(
        &mut self,
        i: usize,
        time: f32,
        with: ContactWith,
        material: Material,
        hit: Hit,
        surface_velocity: Vec2,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        self.flush_sensors(i, time, on_contact);
        let ball = &mut self.balls[i];
        let relative = ball.velocity - surface_velocity;
        let approach = -relative.dot(hit.normal);
        on_contact(&Contact {
            ball: i,
            with,
            time,
            hit,
            approach_speed: approach,
            sensor: false,
        });
        ball.center = hit.center;
        let combined = ball.material.combine(material);
        ball.velocity = match ball.response {
            // Stopping on a moving surface means riding along with it.
            ResponseMode::Stop => surface_velocity,
            mode => {
                respond(mode, relative, hit.normal, combined, self.settings.resting_speed) + surface_velocity
            }
        };
        let s = &mut self.scratch.state[i];
        s.time = time;
        s.version = s.version.wrapping_add(1);
        s.bounces += 1;
        report.bounces += 1;
        if s.bounces >= self.settings.max_bounces
            || ball.response == ResponseMode::Stop && surface_velocity == Vec2::ZERO
        {
            s.frozen = true;
        }
        self.moved(i);
        self.predict(i, on_contact);
    }

    /// Resolve simultaneous ball–ball contacts together: each pass computes every pair's
    /// impulse from the same velocities and applies them at once (shared out among a
    /// ball's contacts), so the result does not depend on the order of the pairs.
    fn resolve_pairs(
        &mut self,
        pairs: &[(usize, usize)],
        time: f32,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let mut cluster = std::mem::take(&mut self.scratch.cluster);
        let mut links = std::mem::take(&mut self.scratch.links);
        cluster.clear();
        links.clear();
        for &(i, j) in pairs {
            for k in [i, j] {
                if !cluster.contains(&k) {
                    cluster.push(k);
                }
            }
            links.push((i, j));
        }
        for &k in &cluster {
            self.advance(k, time, on_contact);
        }
        let mut impulses = std::mem::take(&mut self.scratch.pair_impulses);
        let mut degree = std::mem::take(&mut self.scratch.degree);
        let mut reported = std::mem::take(&mut self.scratch.reported);
        // All zero between calls (each pass resets the entries it raised), so it is sized
        // here but not cleared: clearing it was O(balls) per ball–ball event, about a tenth
        // of a 10,000-ball step.
        if degree.len() < self.balls.len() {
            degree.resize(self.balls.len(), 0);
        }
        reported.clear();
        // Only a real impact spreads through the balls touching the pair; slow (resting)
        // contacts stay pairwise, or a pile would be solved whole at every nudge.
        let impact = pairs.iter().any(|&(i, j)| {
            let (a, b) = (self.balls[i], self.balls[j]);
            let n = (a.center - b.center).normalize_or_zero();
            -(a.velocity - self.effective_velocity(j)).dot(n) >= self.settings.resting_speed
        });
        let mut grown = if impact { 0 } else { cluster.len() };
        for _ in 0..MAX_SIMULTANEOUS_PASSES {
            // Balls that joined the cluster bring the balls touching them.
            while grown < cluster.len() {
                let k = cluster[grown];
                grown += 1;
                self.touching(k, time, &mut cluster, &mut links, on_contact);
            }
            reported.resize(links.len(), false);
            impulses.clear();
            let mut any = false;
            for &(i, j) in links.iter() {
                let found = self.pair_impulse(i, j);
                any |= found.is_some();
                impulses.push(found.map_or((Vec2::ZERO, false), |imp| (imp, true)));
                if found.is_some() {
                    degree[i] += 1;
                    degree[j] += 1;
                }
            }
            if !any {
                break;
            }
            for (k, &(i, j)) in links.iter().enumerate() {
                let (impulse, active) = impulses[k];
                if !active {
                    continue;
                }
                if !reported[k] {
                    reported[k] = true;
                    let (a, b) = (self.balls[i], self.balls[j]);
                    let normal = (a.center - b.center).try_normalize().unwrap_or(Vec2::X);
                    let relative = a.velocity - self.effective_velocity(j);
                    let hit = Hit {
                        toi: 0.0,
                        center: a.center,
                        point: b.center + normal * b.radius,
                        normal,
                    };
                    on_contact(&Contact {
                        ball: i,
                        with: ContactWith::Ball(j),
                        time,
                        hit,
                        approach_speed: -relative.dot(normal),
                        sensor: false,
                    });
                    report.bounces += 1;
                    for b in [i, j] {
                        self.scratch.state[b].bounces += 1;
                    }
                }
                let share = 1.0 / degree[i].max(degree[j]) as f32;
                let inv_b = if self.scratch.state[j].frozen {
                    0.0
                } else {
                    self.balls[j].inverse_mass
                };
                let inv_a = self.balls[i].inverse_mass;
                self.balls[i].velocity += impulse * (inv_a * share);
                self.balls[j].velocity -= impulse * (inv_b * share);
            }
            for &(i, j) in links.iter() {
                degree[i] = 0;
                degree[j] = 0;
            }
        }
        for &k in &cluster {
            let s = &mut self.scratch.state[k];
            if s.bounces >= self.settings.max_bounces {
                s.frozen = true;
            }
            s.version = s.version.wrapping_add(1);
            self.moved(k);
        }
        for &k in &cluster {
            self.predict(k, on_contact);
        }
        self.scratch.pair_impulses = impulses;
        self.scratch.degree = degree;
        self.scratch.reported = reported;
        self.scratch.cluster = cluster;
        self.scratch.links = links;
    }

    /// Add to `links` every ball touching ball `k` at `time` (and to `cluster` if new).
    fn touching(
        &mut self,
        k: usize,
        time: f32,
        cluster: &mut Vec<usize>,
        links: &mut Vec<(usize, usize)>,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let b = self.balls[k];
        let reach =
            Aabb::new(b.center, b.center).inflated(b.radius * (2.0 + TOUCH_SLOP_REL) + self.max_radius);
        let mut found = std::mem::take(&mut self.scratch.found);
        found.clear();
        self.scratch.grid.query(reach, |j| found.push(j));
        for &j in &found {
            if j == k || !b.layers.interacts(self.balls[j].layers) || !self.scratch.state[j].valid {
                continue;
            }
            if links.iter().any(|&(x, y)| (x, y) == (k, j) || (x, y) == (j, k)) {
                continue;
            }
            self.advance(j, time, on_contact);
            let o = self.balls[j];
            let contact = (b.radius + o.radius) * (1.0 + TOUCH_SLOP_REL);
            if (b.center - o.center).length() <= contact {
                links.push((k, j));
                if !cluster.contains(&j) {
                    cluster.push(j);
                }
            }
        }
        self.scratch.found = found;
    }

    /// The impulse on ball `i` (ball `j` gets its opposite) if the pair closes in.
    fn pair_impulse(&self, i: usize, j: usize) -> Option<Vec2> {
        let (a, b) = (self.balls[i], self.balls[j]);
        let vb = self.effective_velocity(j);
        let relative = a.velocity - vb;
        let normal = (a.center - b.center)
            .try_normalize()
            .or_else(|| (-relative).try_normalize())?;
        let vn = relative.dot(normal);
        if !(vn < 0.0) {
            return None;
        }
        let inv_b = if self.scratch.state[j].frozen {
            0.0
        } else {
            b.inverse_mass
        };
        let inv_sum = a.inverse_mass + inv_b;
        if !(inv_sum > 0.0) {
            return None;
        }
        let combined = a.material.combine(b.material);
        let target = pair_separation_speed(
            a.velocity,
            vb,
            relative,
            normal,
            combined.restitution,
            self.settings.resting_speed,
        );
        let jn = (target - vn) / inv_sum;
        // Coulomb friction on the tangent, never reversing the sliding.
        let tangent = relative - normal * vn;
        let jt = (tangent.length() / inv_sum).min(combined.friction * jn);
        let impulse = normal * jn - tangent.normalize_or_zero() * jt;
        impulse.is_finite().then_some(impulse)
    }

    /// Ball `k` changed course: update its swept box in the pair grid.
    fn moved(&mut self, k: usize) {
        if self.settings.ball_ball {
            let b = self.swept_box(k);
            self.scratch.boxes[k] = b;
            self.scratch.grid.update(k, b);
        }
    }
}

/// The normal separation speed two balls should leave with: `e` times the approach, or for
/// a resting contact a tiny bias that keeps rounding from reporting a new approach.
fn pair_separation_speed(
    va: Vec2,
    vb: Vec2,
    relative: Vec2,
    normal: Vec2,
    restitution: f32,
    resting_speed: f32,
) -> f32 {
    let approach = -relative.dot(normal);
    let e = if restitution.is_finite() {
        restitution.max(0.0)
    } else {
        0.0
    };
    if approach < resting_speed || e == 0.0 {
        SEPARATION_SPEED_REL * (va.length() + vb.length())
    } else {
        e * approach
    }
}

fn leg_placeholder() -> Hit {
    Hit {
        toi: 0.0,
        center: Vec2::ZERO,
        point: Vec2::ZERO,
        normal: Vec2::ZERO,
    }
}

#[cfg(test)]
mod tests;
