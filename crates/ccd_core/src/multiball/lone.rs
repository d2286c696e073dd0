//! Lone balls: which balls need the event machinery at all (the price is paid only for
//! what is used).
//!
//! Every ball is first swept on its own (its walls only, with [`sweep_bounces`], in
//! parallel): a *lone* ball. The sweep gives its exact path if nothing else touches it,
//! and the box around that path bounds where it goes. Most lone balls fly free (their
//! step's box meets no obstacle): `free_flight` ends such a step where the path takes it,
//! the sweep's result without the sweep's machinery. A ball whose box meets another
//! ball's box (ball–ball on, layers permitting) or a moving obstacle's swept box can meet
//! them, and goes through the event machinery with them (an *event ball*); every other
//! ball keeps its own sweep. That is exact: two balls whose paths' boxes are apart cannot
//! touch.
//!
//! The event machinery can change a ball's path. If its new leg reaches a lone ball's
//! box, that ball *joins* the event machinery at that instant (`Sim::join`, in `sim.rs`):
//! its own sweep is replayed up to then, with its contacts, and it gets a clock there.
//! Joining needs no rounds: a ball joins once, at the first instant any leg may reach it.

use super::context::StepContext;
use super::report::Contact;
use crate::ball::Ball;
use crate::bounce::{BounceHit, RideTally, SweepOutcome, SweepSettings, Watch, sweep_legs};
use crate::contact_with::ContactWith;
use crate::obstacle::Obstacles;
use crate::parabola::{Parabola, PathLeg};
use crate::shape::Aabb;
use glam::Vec2;

/// One place of the lone sweeps: the ball there at the step's start, and its sweep.
///
/// The fields the step reads for every ball after the sweeps (where it ended, its solid
/// contacts, whether it goes through the event machinery) come first, in one cache line
/// (`repr(C)` keeps them there): at 10,000 balls those passes over the list are memory
/// bound, and they skip the rest.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(super) struct Lone {
    /// Where the sweep left it, and how many contacts it resolved (`None`: not swept, a
    /// bad ball or none).
    pub(super) end: Option<SweepOutcome>,
    /// How many of its contacts are solid (not sensors): counted as the sweep finds them,
    /// on the sweep's own thread, so the step's tally after it reads no contact list.
    pub(super) solid_contacts: u32,
    /// Goes through the event machinery.
    pub(super) events: bool,
    /// A ball of the step is here (a reader may refuse a place: then none is).
    pub(super) held: bool,
    /// The ball as it was at the step's start (`None`: no ball of the step here, or a bad
    /// one, which is never swept).
    pub(super) ball: Option<Ball>,
    /// The box around its path, inflated by its radius.
    pub(super) bounds: Option<Aabb>,
}

impl Lone {
    /// Its ball's rides in the sweep: none if it was not stepped on its own.
    pub(super) fn ride(&self) -> RideTally {
        self.end
            .filter(|_| !self.events)
            .map(|e| e.ride)
            .unwrap_or_default()
    }

    /// Sweep the ball here (ball `k` of the step, for its contacts) on its own through the
    /// step of `ctx`, recording where it ends, its path's box and its solid contacts; its
    /// contacts go to `on_contact` in time order.
    pub(super) fn sweep<O: Obstacles + ?Sized>(
        &mut self,
        k: usize,
        ctx: &StepContext<'_, O>,
        on_contact: impl FnMut(Contact),
    ) {
        self.solid_contacts = 0;
        self.end = None;
        self.bounds = None;
        let Some(ball) = self.ball else {
            return;
        };
        if let Some(swept) = sweep_ball(&ball, k, ctx, on_contact) {
            self.end = Some(swept.end);
            self.bounds = Some(swept.bounds);
            self.solid_contacts = swept.solid_contacts;
        }
    }
}

/// A ball's step swept on its own: where it ends, the box of its path, its solid contacts.
pub(super) struct Swept {
    pub(super) end: SweepOutcome,
    /// The box around its path, inflated by its radius.
    pub(super) bounds: Aabb,
    /// Its contacts that are not sensors.
    pub(super) solid_contacts: u32,
}

/// Sweep `ball` (ball `k`, for its contacts) on its own through `dt`, passing its contacts
/// to `on_contact` in time order: in free flight, or by the sweep's machinery, leg by leg.
/// `None` when the sweep refuses it.
pub(super) fn sweep_ball<O: Obstacles + ?Sized>(
    ball: &Ball,
    k: usize,
    ctx: &StepContext<'_, O>,
    on_contact: impl FnMut(Contact),
) -> Option<Swept> {
    match free_flight(ball, ctx.dt, ball.gravity(ctx.settings.gravity), ctx.obstacles) {
        Some(flight) => Some(Swept {
            end: flight.end,
            bounds: flight.bounds,
            solid_contacts: 0,
        }),
        None => sweep_ball_legs(ball, k, ctx, on_contact),
    }
}

/// [`sweep_ball`] by the sweep's machinery, leg by leg (what free flight skips).
fn sweep_ball_legs<O: Obstacles + ?Sized>(
    ball: &Ball,
    k: usize,
    ctx: &StepContext<'_, O>,
    mut on_contact: impl FnMut(Contact),
) -> Option<Swept> {
    let StepContext {
        dt,
        obstacles,
        settings,
        ..
    } = *ctx;
    let gravity = ball.gravity(settings.gravity);
    let curved = gravity != Vec2::ZERO;
    let sweep = SweepSettings {
        max_bounces: settings.max_bounces,
        resting_speed: settings.resting_speed,
        response: ball.response,
        material: ball.material,
        layers: ball.layers,
        max_speed: ball.max_speed,
        gravity,
    };
    let mut path = Aabb::new(ball.center, ball.center);
    let mut legs = path;
    let mut solid_contacts = 0;
    let result = sweep_legs(
        ball.circle(),
        ball.velocity,
        dt,
        obstacles,
        &sweep,
        &mut Watch(
            |h: &BounceHit| {
                if !h.sensor {
                    solid_contacts += 1;
                    if !curved {
                        path = path.union(Aabb::new(h.hit.center, h.hit.center));
                    }
                }
                on_contact(wall_contact(k, h));
            },
            // A curved leg bulges between its ends: its own box.
            |leg: PathLeg| {
                if curved {
                    legs = legs.union(leg.curve.aabb(leg.start, 0.0));
                }
            },
        ),
    );
    let end = result.ok()?;
    path = path.union(legs).union(Aabb::new(end.center, end.center));
    Some(Swept {
        end,
        bounds: path.inflated(ball.radius),
        solid_contacts,
    })
}

/// A step in free flight: where it ends, and the box of its path.
struct Flight {
    end: SweepOutcome,
    /// The box of the centre's path, inflated by the radius (as [`Lone::bounds`]).
    bounds: Aabb,
}

/// The leg a whole step would be, met nothing: what it sweeps and where it goes.
struct WholeLeg {
    /// The box the circle sweeps (what the sweep's leg queries).
    reach: Aabb,
    /// The centre's displacement and velocity at the end.
    offset: Vec2,
    velocity: Vec2,
    /// The box of the centre's path, from the start.
    path: Aabb,
}

/// A ball's step of `dt` under `gravity` in free flight: `None` unless the box the path
/// sweeps meets no obstacle on its layers (then the sweep decides).
///
/// Such a step meets nothing, and [`sweep_legs`] would end it where the path takes it, by
/// the same arithmetic: a straight leg's motion `velocity · dt`, its box [`Aabb::swept`]
/// and its end `center + motion`, or a curve's [`Parabola`], its box
/// [`Parabola::aabb`] and its end [`Parabola::offset`] and [`Parabola::velocity_at`]. The
/// result is the sweep's, bit for bit. Most balls of an open scene fly free in most steps
/// (nine in ten in the ball pit), and this skips the sweep's machinery for them.
#[inline]
fn free_flight<O: Obstacles + ?Sized>(ball: &Ball, dt: f32, gravity: Vec2, obstacles: &O) -> Option<Flight> {
    if !gravity.is_finite() {
        // The sweep refuses it, and names it.
        return None;
    }
    let start = Aabb::new(ball.center, ball.center);
    let WholeLeg {
        reach,
        offset,
        velocity,
        path,
    } = if gravity == Vec2::ZERO {
        let motion = ball.velocity * dt;
        WholeLeg {
            reach: Aabb::swept(ball.center, motion, ball.radius),
            offset: motion,
            velocity: ball.velocity,
            path: start,
        }
    } else {
        let curve = Parabola::new(ball.velocity, gravity, dt);
        WholeLeg {
            reach: curve.aabb(ball.center, ball.radius),
            offset: curve.offset(1.0),
            velocity: curve.velocity_at(1.0),
            path: start.union(curve.aabb(ball.center, 0.0)),
        }
    };
    let mut near = false;
    obstacles.query(reach, |_, obstacle| {
        near |= ball.layers.interacts(obstacle.layers);
    });
    if near {
        return None;
    }
    let center = ball.center + offset;
    let end = SweepOutcome {
        center,
        velocity,
        bounces: 0,
        capped: false,
        lost_time: 0.0,
        ride: RideTally::default(),
    };
    let bounds = start
        .union(path)
        .union(Aabb::new(center, center))
        .inflated(ball.radius);
    Some(Flight { end, bounds })
}

/// Ball `k`'s contact with a wall, as its lone sweep reports it.
pub(super) fn wall_contact(k: usize, h: &BounceHit) -> Contact {
    Contact {
        ball: k,
        with: ContactWith::Obstacle(h.obstacle),
        time: h.time,
        hit: h.hit,
        approach_speed: h.approach_speed,
        // A lone ball meets walls only.
        other_velocity: Vec2::ZERO,
        sensor: h.sensor,
        kick: h.kick,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broadphase::Grid;
    use crate::multiball::MultiballSettings;
    use crate::obstacle::{Layers, Obstacle};
    use crate::shape::{Circle, Segment};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The seed of the scene and balls below.
    const SEED: u64 = 30;

    #[test]
    fn free_flight_ends_where_the_sweep_would_bit_for_bit() {
        // A field of walls (some one-sided, some sensors, some on a layer the odd balls
        // ignore) and pillars, and balls from slow to fast, with and without gravity: each
        // is swept by `Lone::sweep`, which takes free flight where it can, and by the
        // sweep's machinery alone.
        let mut rng = StdRng::seed_from_u64(SEED);
        let mut grid = Grid::default();
        let other = Layers::new(2, 2);
        for _ in 0..400 {
            let a = Vec2::new(rng.random_range(-500.0..500.0), rng.random_range(-500.0..500.0));
            let b = a + Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(5.0..60.0);
            let wall = Obstacle::segment(Segment::new(a, b))
                .with_one_sided(rng.random_bool(0.2))
                .with_sensor(rng.random_bool(0.1));
            let wall = if rng.random_bool(0.2) {
                wall.with_layers(other)
            } else {
                wall
            };
            grid.insert(wall).unwrap();
            let c = Vec2::new(rng.random_range(-500.0..500.0), rng.random_range(-500.0..500.0));
            grid.insert(Obstacle::pillar(Circle::new(c, rng.random_range(1.0..10.0))))
                .unwrap();
        }
        let level = MultiballSettings::default();
        let falling = MultiballSettings {
            gravity: Vec2::new(0.0, -1000.0),
            ..level
        };
        let dt = 1.0 / 120.0;
        // Free flights and all steps, straight and curved.
        let (mut free, mut total) = ([0; 2], [0; 2]);
        for k in 0..20_000 {
            let center = Vec2::new(rng.random_range(-520.0..520.0), rng.random_range(-520.0..520.0));
            let velocity = Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..8000.0);
            let mut ball = Ball::new(center, velocity, rng.random_range(0.5..6.0));
            if k % 2 == 1 {
                ball.layers = Layers::new(1, 1);
            }
            let mut fast = Lone {
                ball: Some(ball),
                ..Lone::default()
            };
            let mut legs = fast;
            // Straight steps and curved ones, in turn.
            let settings = if k % 4 < 2 { level } else { falling };
            let ctx = StepContext::new(dt, &grid, &settings);
            let (mut fast_contacts, mut legs_contacts) = (Vec::new(), Vec::new());
            fast.sweep(k, &ctx, |c| fast_contacts.push(c));
            let swept = sweep_ball_legs(&ball, k, &ctx, |c| legs_contacts.push(c)).unwrap();
            legs.end = Some(swept.end);
            legs.bounds = Some(swept.bounds);
            legs.solid_contacts = swept.solid_contacts;
            let curved = usize::from(k % 4 >= 2);
            total[curved] += 1;
            free[curved] += usize::from(free_flight(&ball, dt, settings.gravity, &grid).is_some());
            let bits = |l: &Lone| {
                l.end
                    .map(|e| [e.center.x, e.center.y, e.velocity.x, e.velocity.y].map(f32::to_bits))
            };
            assert_eq!(bits(&fast), bits(&legs), "ball {k}");
            assert_eq!(fast.end, legs.end, "ball {k}");
            assert_eq!(fast.bounds, legs.bounds, "ball {k}");
            assert_eq!(fast_contacts, legs_contacts, "ball {k}");
            assert_eq!(fast.solid_contacts, legs.solid_contacts, "ball {k}");
        }
        // Both ways are taken often, straight and curved.
        for (free, total) in free.into_iter().zip(total) {
            assert!(
                free * 10 > total && free * 10 < total * 9,
                "{free} of {total} in free flight"
            );
        }
    }
}
