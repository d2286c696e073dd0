//! One lone ball's step: [`step_lone_ball`] does for one ball what [`step_balls`] does
//! for each when nothing but walls can meet a ball (no ball–ball contacts, no moving
//! obstacle), for a caller that walks its balls itself: a game engine steps them where it
//! stores them, on its own threads, with no list of balls gathered first and written back
//! after.
//!
//! Such a step is each ball's own lone sweep (`lone.rs`), the same bit for bit. What one
//! step leaves for the next (which balls met a wall, whether the step was crowded) the
//! caller hands back with [`MultiballScratch::carry_lone_step`], so that a later call of
//! [`step_balls`] (ball–ball contacts turned on, a moving obstacle added) goes on exactly
//! as if it had made every step.
//!
//! [`step_balls`]: super::step_balls

use super::lone::sweep_ball;
use super::moving::MovingObstacle;
use super::report::Contact;
use super::settings::MultiballSettings;
use super::sim::usable;
use super::state::MultiballScratch;
use super::step::can_meet;
use crate::ball::Ball;
use crate::bounce::SweepOutcome;
use crate::obstacle::Obstacles;

/// What [`step_lone_ball`] did with a ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoneStep {
    /// Where the step left it (its centre and velocity at the end), its bounces, whether
    /// it reached the bounce cap, and the time it lost there (as
    /// [`MultiballReport`](super::MultiballReport) counts them).
    pub outcome: SweepOutcome,
    /// Its contacts that are not sensors: the report's bounces.
    pub solid_contacts: u32,
}

/// Step `ball` through `dt` against the walls alone, exactly as [`step_balls`] steps each
/// ball when nothing but walls can meet one (see [`MultiballScratch::steps_all_lone`]):
/// the same end, bit for bit, and the same contacts in the same order, passed to
/// `on_contact` naming ball `index`. The ball's end is the outcome's centre and velocity.
///
/// Returns `None` for a ball [`step_balls`] would not move (a centre, velocity, radius or inverse mass that is not finite, a negative
/// radius or inverse mass), or a `dt` that is not finite and positive.
///
/// ```
/// use ccd_core::{Ball, MultiballSettings, Obstacle, Segment, Vec2, step_lone_ball};
/// // A floor at y = 0; a ball of radius 1 at (0, 3) falls at 10 units/s for 0.5 s: it
/// // touches the floor at t = 0.2 s (centre height 1) and rises for the last 0.3 s, to 4.
/// let floor = [Obstacle::segment(Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)))];
/// let ball = Ball::new(Vec2::new(0.0, 3.0), Vec2::new(0.0, -10.0), 1.0);
/// let mut times = Vec::new();
/// let step = step_lone_ball(&ball, 0, 0.5, &floor, &MultiballSettings::default(), |c| {
///     times.push(c.time)
/// })
/// .unwrap();
/// assert_eq!(step.solid_contacts, 1);
/// assert!((times[0] - 0.2).abs() < 1e-6);
/// let end = step.outcome;
/// assert!((end.center.y - 4.0).abs() < 1e-5 && end.velocity == Vec2::new(0.0, 10.0));
/// ```
///
/// [`step_balls`]: super::step_balls
#[must_use]
pub fn step_lone_ball<O: Obstacles + ?Sized>(
    ball: &Ball,
    index: usize,
    dt: f32,
    obstacles: &O,
    settings: &MultiballSettings,
    mut on_contact: impl FnMut(&Contact),
) -> Option<LoneStep> {
    if !(dt > 0.0) || !dt.is_finite() || !usable(ball) {
        return None;
    }
    let swept = sweep_ball(ball, index, dt, obstacles, settings, |c| on_contact(&c))?;
    Some(LoneStep {
        outcome: swept.end,
        solid_contacts: swept.solid_contacts,
    })
}

impl MultiballScratch {
    /// Whether [`step_balls`] would step every ball as a lone ball now, as [`step_lone_ball`]
    /// does: when nothing but walls can meet a ball (`settings.ball_ball` off, no moving
    /// obstacle).
    ///
    /// [`step_balls`]: super::step_balls
    #[must_use]
    pub fn steps_all_lone(&self, settings: &MultiballSettings, moving: &[MovingObstacle]) -> bool {
        !can_meet(moving, settings.ball_ball)
    }

    /// Carry a step made ball by ball with [`step_lone_ball`] (when
    /// [`steps_all_lone`](Self::steps_all_lone) said so) to the next one, as
    /// [`step_balls`] carries its own: of `balls` balls, those of `met` (by index) met a
    /// wall (a contact that is not a sensor's). A step of no balls carries nothing, as
    /// [`step_balls`] does.
    ///
    /// [`step_balls`]: super::step_balls
    pub fn carry_lone_step(&mut self, balls: usize, met: impl IntoIterator<Item = usize>) {
        if balls == 0 {
            return;
        }
        let carried = &mut self.carried;
        carried.met.clear();
        carried.met.resize(balls, false);
        for k in met {
            if let Some(m) = carried.met.get_mut(k) {
                *m = true;
            }
        }
        carried.crowded = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broadphase::Grid;
    use crate::multiball::{MultiballStep, OneThread, step_balls_parallel};
    use crate::obstacle::Obstacle;
    use crate::shape::{Circle, Segment};
    use crate::sweep::SegmentMotion;
    use glam::Vec2;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The step, seconds.
    const DT: f32 = 1.0 / 60.0;

    fn bits(b: &Ball) -> [u32; 4] {
        [b.center.x, b.center.y, b.velocity.x, b.velocity.y].map(f32::to_bits)
    }

    /// A box of half side 200 with a sensor line across it, a narrow wedge in a corner
    /// (the lone runs' scene) and a pillar.
    fn walls() -> Grid {
        let mut grid = super::super::lone_runs::tests::walls();
        grid.insert(Obstacle::pillar(Circle::new(Vec2::new(-60.0, 40.0), 25.0)))
            .unwrap();
        grid
    }

    /// Fast balls all over the box, and every 250th a bad one (a NaN velocity, a negative
    /// radius).
    fn balls(n: usize) -> Vec<Ball> {
        let mut rng = StdRng::seed_from_u64(30);
        (0..n)
            .map(|k| {
                let at = Vec2::new(rng.random_range(-190.0..190.0), rng.random_range(-190.0..190.0));
                let v = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * 30_000.0;
                match k % 250 {
                    0 => Ball::new(at, Vec2::NAN, 2.0),
                    1 => Ball::new(at, v, -2.0),
                    _ => Ball::new(at, v, 2.0),
                }
            })
            .collect()
    }

    /// What a step leaves: each ball's bits, its contacts, and the report's lone-ball
    /// figures (lone balls, bounces, most bounces, capped balls, lost time's bits).
    #[derive(Debug, PartialEq)]
    struct Outcome {
        balls: Vec<[u32; 4]>,
        contacts: Vec<Contact>,
        figures: [u32; 5],
    }

    /// One step of `start` by `step_balls`, from `scratch`.
    fn by_step(
        start: &mut [Ball],
        grid: &Grid,
        settings: &MultiballSettings,
        scratch: &mut MultiballScratch,
    ) -> Outcome {
        let mut contacts = Vec::new();
        let step = MultiballStep {
            balls: start,
            dt: DT,
            obstacles: grid,
            moving: &mut [],
        };
        let r = step_balls_parallel(&OneThread, step, settings, scratch, |c| contacts.push(*c));
        Outcome {
            balls: start.iter().map(bits).collect(),
            contacts,
            figures: [
                r.lone_balls,
                r.bounces,
                r.max_bounces_per_ball,
                r.capped_balls,
                r.lost_time.to_bits(),
            ],
        }
    }

    /// One step of `start` ball by ball with `step_lone_ball`; returns the balls that met
    /// a wall too.
    fn by_ball(start: &mut [Ball], grid: &Grid, settings: &MultiballSettings) -> (Outcome, Vec<usize>) {
        let mut contacts = Vec::new();
        let (mut figures, mut lost, mut met) = ([0; 5], 0.0_f32, Vec::new());
        for (k, ball) in start.iter_mut().enumerate() {
            let Some(step) = step_lone_ball(ball, k, DT, grid, settings, |c| contacts.push(*c)) else {
                continue;
            };
            ball.center = step.outcome.center;
            ball.velocity = step.outcome.velocity;
            figures[0] += 1;
            figures[1] += step.solid_contacts;
            figures[2] = figures[2].max(step.outcome.bounces);
            figures[3] += u32::from(step.outcome.capped);
            lost += step.outcome.lost_time;
            if step.solid_contacts > 0 {
                met.push(k);
            }
        }
        figures[4] = lost.to_bits();
        let balls = start.iter().map(bits).collect();
        (
            Outcome {
                balls,
                contacts,
                figures,
            },
            met,
        )
    }

    #[test]
    fn each_lone_ball_ends_as_the_step_ends_it() {
        let grid = walls();
        let mut order_shows = false;
        for gravity in [Vec2::ZERO, Vec2::new(0.0, -3.0e5)] {
            let settings = MultiballSettings {
                ball_ball: false,
                max_bounces: 2,
                gravity,
                ..MultiballSettings::default()
            };
            let start = balls(3000);
            let step = by_step(
                &mut start.clone(),
                &grid,
                &settings,
                &mut MultiballScratch::default(),
            );
            let (lone, _) = by_ball(&mut start.clone(), &grid, &settings);
            // A busy scene: capped balls, sensor crossings, bad balls left alone.
            let sensed = step.contacts.iter().filter(|c| c.sensor).count();
            assert!(step.figures[3] > 20, "{gravity}: capped {}", step.figures[3]);
            assert!(sensed > 500, "{gravity}: sensor contacts {sensed}");
            assert_eq!(
                step.figures[0],
                3000 - 2 * 12,
                "{gravity}: the bad balls are not stepped"
            );
            for k in [0, 1, 250, 251] {
                assert_eq!(step.balls[k], bits(&start[k]), "bad ball {k} moved");
            }
            let first = |a: &[[u32; 4]], b: &[[u32; 4]]| a.iter().zip(b).position(|(x, y)| x != y);
            assert_eq!(
                first(&lone.balls, &step.balls),
                None,
                "{gravity}: a ball ends elsewhere"
            );
            assert_eq!(lone.contacts.len(), step.contacts.len(), "{gravity}: contacts");
            let contact = lone.contacts.iter().zip(&step.contacts).position(|(a, b)| a != b);
            assert_eq!(contact, None, "{gravity}: a contact differs");
            assert_eq!(lone.figures, step.figures, "{gravity}: the report's figures");
            // The lost time is an f32 sum: a different order would show in its bits.
            let lost: Vec<f32> = start
                .iter()
                .enumerate()
                .filter_map(|(k, ball)| step_lone_ball(ball, k, DT, &grid, &settings, |_| {}))
                .map(|s| s.outcome.lost_time)
                .collect();
            let backwards = lost.iter().rev().fold(0.0_f32, |s, t| s + t);
            order_shows |= backwards.to_bits() != step.figures[4];
        }
        assert!(order_shows, "the lost time's sum does not show its order");
    }

    #[test]
    fn a_bad_ball_or_step_is_not_stepped() {
        let grid = walls();
        let settings = MultiballSettings::default();
        let good = Ball::new(Vec2::ZERO, Vec2::new(100.0, 0.0), 2.0);
        let bad = [
            Ball::new(Vec2::new(f32::NAN, 0.0), Vec2::ZERO, 2.0),
            Ball::new(Vec2::ZERO, Vec2::new(0.0, f32::INFINITY), 2.0),
            Ball::new(Vec2::ZERO, Vec2::ZERO, -1.0),
            Ball {
                inverse_mass: -1.0,
                ..good
            },
        ];
        for ball in bad {
            let called = std::cell::Cell::new(false);
            assert!(step_lone_ball(&ball, 0, DT, &grid, &settings, |_| called.set(true)).is_none());
            assert!(!called.get());
        }
        for dt in [0.0, -DT, f32::NAN, f32::INFINITY] {
            assert!(
                step_lone_ball(&good, 0, dt, &grid, &settings, |_| {}).is_none(),
                "dt {dt}"
            );
        }
        // By hand: 100 units/s for 1/60 s in open space.
        let end = step_lone_ball(&good, 0, DT, &grid, &settings, |_| {}).unwrap();
        assert_eq!(end.outcome.center, Vec2::new(100.0 * DT, 0.0));
        assert_eq!(end.solid_contacts, 0);
    }

    #[test]
    fn a_lone_step_carried_goes_on_as_the_steps_own() {
        // Under gravity, balls drop onto the floor and rest there: which met a wall last
        // step decides where the next step's resting solve looks. A step made ball by ball
        // and carried on must leave the next step (ball–ball contacts on) exactly as a
        // step of `step_balls` would.
        let grid = walls();
        let gravity = Vec2::new(0.0, -1000.0);
        let walls_only = MultiballSettings {
            ball_ball: false,
            gravity,
            ..MultiballSettings::default()
        };
        let with_balls = MultiballSettings {
            ball_ball: true,
            ..walls_only
        };
        let mut rng = StdRng::seed_from_u64(31);
        // A row on the floor, creeping sideways; a row in the air above, falling.
        let start: Vec<Ball> = (0..120)
            .map(|k| {
                let x = -180.0 + 6.0 * (k % 60) as f32;
                let y = if k < 60 { -198.0 + 1e-3 } else { -150.0 };
                Ball::new(Vec2::new(x, y), Vec2::new(rng.random_range(-5.0..5.0), -1.0), 2.0)
            })
            .collect();
        // The first step: by `step_balls`, or ball by ball and carried.
        let mut own = MultiballScratch::default();
        let mut by_steps = start.clone();
        assert!(own.steps_all_lone(&walls_only, &[]));
        by_step(&mut by_steps, &grid, &walls_only, &mut own);
        let mut carried = MultiballScratch::default();
        let mut by_balls = start.clone();
        let (_, met) = by_ball(&mut by_balls, &grid, &walls_only);
        carried.carry_lone_step(by_balls.len(), met.iter().copied());
        // Some met the floor, some did not: a carry of all or none would differ.
        assert!(met.len() >= 50 && met.len() <= 70, "{} met the floor", met.len());
        assert_eq!(carried.carried.met, own.carried.met, "which balls met a wall");
        assert_eq!(carried.carried.crowded, own.carried.crowded);
        // And the steps after it, ball–ball contacts on, go on alike.
        for k in 0..3 {
            let a = by_step(&mut by_steps, &grid, &with_balls, &mut own);
            let b = by_step(&mut by_balls, &grid, &with_balls, &mut carried);
            assert!(a == b, "step {k} after the carried one differs");
        }
    }

    #[test]
    fn steps_all_lone_only_while_nothing_but_walls_can_meet() {
        let grid = walls();
        let walls_only = MultiballSettings {
            ball_ball: false,
            ..MultiballSettings::default()
        };
        let with_balls = MultiballSettings {
            ball_ball: true,
            ..walls_only
        };
        let mut scratch = MultiballScratch::default();
        assert!(scratch.steps_all_lone(&walls_only, &[]));
        assert!(!scratch.steps_all_lone(&with_balls, &[]));
        let gate = MovingObstacle::new(
            Obstacle::segment(Segment::new(Vec2::new(300.0, 0.0), Vec2::new(310.0, 0.0))),
            SegmentMotion {
                pivot: Vec2::new(300.0, 0.0),
                angle: 0.1,
                pivot_motion: Vec2::ZERO,
            },
        );
        assert!(!scratch.steps_all_lone(&walls_only, &[gate]));
        // A packed crowd, ball–ball on: most balls go through the event machinery, and the
        // step is crowded. With ball–ball contacts then off, nothing but walls can meet a
        // ball: the next step is every ball's own sweep all the same.
        let mut crowd: Vec<Ball> = (0..400)
            .map(|k| {
                let at = Vec2::new((k % 20) as f32 * 4.1 - 40.0, (k / 20) as f32 * 4.1 - 40.0);
                Ball::new(
                    at,
                    Vec2::new(((k * 37) % 11) as f32 - 5.0, ((k * 53) % 13) as f32 - 6.0) * 100.0,
                    2.0,
                )
            })
            .collect();
        by_step(&mut crowd, &grid, &with_balls, &mut scratch);
        assert!(scratch.carried.crowded, "a crowded step");
        assert!(
            scratch.steps_all_lone(&walls_only, &[]),
            "crowded, and ball–ball off: every ball on its own"
        );
        let (expected, _) = by_ball(&mut crowd.clone(), &grid, &walls_only);
        let got = by_step(&mut crowd, &grid, &walls_only, &mut scratch);
        assert_eq!(
            got.balls, expected.balls,
            "each ball ends where its own step takes it"
        );
        assert_eq!(got.contacts, expected.contacts);
        assert_eq!(got.figures, expected.figures);
        assert!(!scratch.carried.crowded);
        // A step of no balls carries nothing.
        scratch.carry_lone_step(0, [0]);
        assert!(scratch.carried.met.len() == 400);
    }
}
