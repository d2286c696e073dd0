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

use super::ball_grid::BallGrid;
use super::moving::MovingObstacle;
use super::report::Contact;
use super::settings::MultiballSettings;
use crate::ball::Ball;
use crate::bounce::{BounceHit, SweepOutcome, SweepSettings, Watch, sweep_legs};
use crate::hit::ContactWith;
use crate::obstacle::Obstacles;
use crate::parabola::{Parabola, PathLeg};
use crate::shape::Aabb;
use glam::Vec2;

/// One ball swept on its own.
///
/// The fields the step reads for every ball after the sweeps (where it ended, its solid
/// contacts, whether it goes through the event machinery) come first, in one cache line
/// (`repr(C)` keeps them there): at 10,000 balls those passes over the list are memory
/// bound, and they skip the rest.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub(super) struct Lone {
    /// Where the sweep left it, and how many contacts it resolved (`None`: a bad ball).
    pub(super) end: Option<SweepOutcome>,
    /// How many of `contacts` are solid (not sensors): counted as the sweep finds them,
    /// on the sweep's own thread, so the step's tally after it reads no contact list.
    pub(super) solid_contacts: u32,
    /// Goes through the event machinery.
    pub(super) events: bool,
    /// Its contacts, in time order.
    pub(super) contacts: Vec<Contact>,
    /// The ball, by index, as it was at the step's start.
    pub(super) index: usize,
    pub(super) ball: Option<Ball>,
    /// The box around its path, inflated by its radius.
    pub(super) bounds: Option<Aabb>,
}

/// Sweep a ball on its own through `dt`, recording its path's box and contacts.
pub(super) fn sweep_lone<O: Obstacles + ?Sized>(
    lone: &mut Lone,
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
) {
    lone.contacts.clear();
    lone.solid_contacts = 0;
    lone.end = None;
    lone.bounds = None;
    let Some(ball) = lone.ball else {
        return;
    };
    let contacts = &mut lone.contacts;
    if let Some(swept) = sweep_ball(&ball, lone.index, dt, obstacles, settings, |c| contacts.push(c)) {
        lone.end = Some(swept.end);
        lone.bounds = Some(swept.bounds);
        lone.solid_contacts = swept.solid_contacts;
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
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
    on_contact: impl FnMut(Contact),
) -> Option<Swept> {
    match free_flight(ball, dt, settings.gravity, obstacles) {
        Some(flight) => Some(Swept {
            end: flight.end,
            bounds: flight.bounds,
            solid_contacts: 0,
        }),
        None => sweep_ball_legs(ball, k, dt, obstacles, settings, on_contact),
    }
}

/// [`sweep_ball`] by the sweep's machinery, leg by leg (what free flight skips).
fn sweep_ball_legs<O: Obstacles + ?Sized>(
    ball: &Ball,
    k: usize,
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
    mut on_contact: impl FnMut(Contact),
) -> Option<Swept> {
    let curved = settings.gravity != Vec2::ZERO;
    let sweep = SweepSettings {
        max_bounces: settings.max_bounces,
        resting_speed: settings.resting_speed,
        response: ball.response,
        material: ball.material,
        layers: ball.layers,
        max_speed: ball.max_speed,
        gravity: settings.gravity,
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

/// Whether ball `k`, whose path stays in `bounds`, can meet a moving obstacle (by their
/// swept boxes) or another ball (by the path boxes in `grid`, from `lone`).
pub(super) fn meets_something(
    k: usize,
    bounds: Aabb,
    lone: &[Lone],
    grid: &BallGrid,
    moving: &[MovingObstacle],
    moving_boxes: &[Aabb],
    ball_ball: bool,
) -> bool {
    let Some(ball) = lone[k].ball else {
        return false;
    };
    let near_moving = moving
        .iter()
        .zip(moving_boxes)
        .any(|(m, b)| b.intersects(&bounds) && ball.layers.interacts(m.obstacle.layers));
    if near_moving {
        return true;
    }
    if !ball_ball {
        return false;
    }
    let mut met = false;
    grid.query_except(bounds, k, |j| {
        met |= lone[j]
            .ball
            .is_some_and(|other| ball.layers.interacts(other.layers));
    });
    met
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broadphase::Grid;
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
        // is swept by `sweep_lone`, which takes free flight where it can, and by the
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
                index: k,
                ball: Some(ball),
                ..Lone::default()
            };
            let mut legs = fast.clone();
            // Straight steps and curved ones, in turn.
            let settings = if k % 4 < 2 { level } else { falling };
            sweep_lone(&mut fast, dt, &grid, &settings);
            let contacts = &mut legs.contacts;
            let swept = sweep_ball_legs(&ball, k, dt, &grid, &settings, |c| contacts.push(c)).unwrap();
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
            assert_eq!(fast.contacts, legs.contacts, "ball {k}");
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
