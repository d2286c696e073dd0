//! Two event balls riding one still round part together, touching and pressing on each
//! other (two balls in a bowl, round a loop): the middle of the two rides a track of
//! [`Track::half_gap`] (the equations: "Two balls together" in `ride/motion.rs`), each
//! ball at its own angle off the middle's, chord by chord as a ball alone (`round.rs`).
//!
//! The two are each other's *partner*: they are no contact to each other on their chords
//! (`pair_sweep.rs`; the chords of two balls turning together cut into each other by a
//! sagitta's share), their chords end together, and what ends the ride of one ends the
//! other's at that instant:
//! - where one of the three presses vanishes, or either ball reaches the part's end, each
//!   rides on alone from there, or flies where its own press would not hold it
//!   (`Sim::pair_ends`);
//! - where either meets anything, it leaves the ride there as a ball alone does, and the
//!   other leaves it too, from the point of its chord at that instant, and flies: it
//!   may be in that contact, and lands on the part again if not (`Sim::parted`).
//!
//! A pair starts to ride at a step's start, where the resting solve finds two balls of
//! one radius, mass and gravity touching the same round part and each other, and nothing
//! else, with no friction between them (`settle.rs` says which): from their velocities
//! before the step's gravity, as a ball alone goes on. And within a step, where two balls
//! in flight (two riders that met each other leave their rides for that contact) come to
//! rest together on one round part in a contact of one instant (`cluster.rs`,
//! [`Sim::ride_landed`]): from their velocities after it.

use super::round::going_on;
use super::sim::Sim;
use crate::bounce::still_wall;
use crate::contact_with::ContactWith;
use crate::material::Material;
use crate::obstacle::{ObstacleId, Obstacles};
use crate::ride::{Ridden, RideState, Track, ridden, zero_at};
use glam::{DVec2, Vec2};

/// Where two balls start a ride together: their centres and velocities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PairStart {
    pub(super) centers: [Vec2; 2],
    pub(super) velocities: [Vec2; 2],
}

/// Whether two balls ride a round part together ([`Sim::start_pair_round`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Together {
    /// They ride it together.
    Ride,
    /// They press on the part, not on each other: each rides it alone.
    Apart,
    /// Neither: they go on as before.
    Not,
}

/// The track the middle of two touching balls of `radius` rides on `ridden` (of
/// `friction`, under `gravity`) from `start`, its angle 0 at their middle; their state on
/// it; and each ball's angle off the middle's (`∓h`). `None` where the balls do not sit on
/// the part's circle side by side (a centre on the part's centre, or a ball too large
/// for the circle).
///
/// The speed is the one that keeps the two balls' energy as the centres are put on
/// their exact points, as a ball alone's start keeps its own (`ride::track_from`).
pub(super) fn pair_track(
    ridden: &Ridden,
    (friction, gravity): (f32, DVec2),
    radius: f32,
    start: PairStart,
) -> Option<(Track, RideState, [f64; 2])> {
    let l = ridden.radius;
    let sin_h = f64::from(radius) / l;
    if !(sin_h > 0.0 && sin_h < 1.0) {
        return None;
    }
    let h = sin_h.asin();
    let [p, q] = start.centers.map(Vec2::as_dvec2);
    let [v, w] = start.velocities.map(Vec2::as_dvec2);
    let (up, uq) = (zero_at(ridden, p)?, zero_at(ridden, q)?);
    let zero = (up + uq).try_normalize()?;
    let track = Track {
        center: ridden.center,
        radius: l,
        inside: ridden.inside,
        gravity,
        friction: f64::from(friction),
        zero,
        half_gap: h,
    };
    // The mean energy per unit mass, kept at the middle's exact height.
    let energy = 0.25 * (v.length_squared() + w.length_squared()) - 0.5 * gravity.dot(p + q);
    let height = gravity.dot(track.center + zero * (l * h.cos()));
    let speed = (2.0 * (energy + height)).max(0.0).sqrt();
    let along = v.dot(up.perp()) + w.dot(uq.perp());
    let rate = if along == 0.0 {
        0.0
    } else {
        along.signum() * speed / l
    };
    let first = if zero.perp_dot(up) < 0.0 { -h } else { h };
    Some((track, RideState { angle: 0.0, rate }, [first, -first]))
}

/// Two balls in flight that a contact of one instant (`cluster.rs`) may bring to rest
/// together on one wall's round part: the balls, their velocities after the contact, the
/// wall, and its material.
#[derive(Clone, Copy, Debug)]
pub(super) struct LandingPair {
    pub(super) balls: [usize; 2],
    pub(super) velocities: [Vec2; 2],
    pub(super) obstacle: ObstacleId,
    pub(super) material: Material,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// The two balls of `landing`, which the contact of one instant just brought to rest on
    /// its wall (each settled, straight: [`Sim::settle`]), ride its round part together
    /// from their velocities after the contact, or each alone where they press on the part
    /// and not on each other; else they stay settled.
    pub(super) fn ride_landed(&mut self, landing: LandingPair) {
        let [a, b] = landing.balls;
        let settled = |k: usize| {
            let c = self.step.clock[k];
            !(c.curved || c.sliding || c.on_round || c.waiting)
        };
        if !(settled(a) && settled(b)) {
            return;
        }
        let ridden_of = |k: usize| {
            let ball = self.balls[k];
            let at = ContactWith::Obstacle(landing.obstacle);
            still_wall(self.obstacles, at, ball.center)
                .and_then(|shape| ridden(&shape, ball.center, ball.radius))
        };
        let (Some(on), Some(other)) = (ridden_of(a), ridden_of(b)) else {
            return;
        };
        if on != other {
            return;
        }
        let friction = self.balls[a].material.combine(landing.material).friction;
        let start = PairStart {
            centers: [a, b].map(|k| self.balls[k].center),
            velocities: landing.velocities,
        };
        if self.start_pair_round([a, b], (landing.obstacle, on), friction, start) == Together::Apart {
            for (k, velocity) in [a, b].into_iter().zip(landing.velocities) {
                let start = going_on(self.balls[k].center, velocity);
                self.start_round(k, (landing.obstacle, on), friction, start);
            }
        }
    }

    /// Balls `pair`, pressed by the resting solve on the round part `ridden` of wall
    /// `obstacle` (of combined `friction`) and on each other, and on nothing else, ride it
    /// together from `start` at the step's start: two balls of one radius, mass and
    /// gravity, side by side on the part, that press on each other and on it there. Else
    /// nothing changes, and the answer says whether they part at once (they press on the
    /// part, not on each other: two balls on a post).
    pub(super) fn start_pair_round(
        &mut self,
        pair: [usize; 2],
        (obstacle, ridden): (ObstacleId, Ridden),
        friction: f32,
        start: PairStart,
    ) -> Together {
        let [a, b] = pair;
        let (ball, other) = (self.balls[a], self.balls[b]);
        let gravity = self.gravity_of(a);
        if ball.radius != other.radius
            || ball.inverse_mass != other.inverse_mass
            || gravity != self.gravity_of(b)
        {
            return Together::Not;
        }
        let Some((track, state, offsets)) =
            pair_track(&ridden, (friction, gravity.as_dvec2()), ball.radius, start)
        else {
            return Together::Not;
        };
        let (low, high) = ridden.angles_from(track.zero);
        let (low, high) = (low + track.half_gap, high - track.half_gap);
        if !(low < 0.0 && high > 0.0) {
            return Together::Not;
        }
        let press = track.pair_press(state, state.rate.signum());
        if !(press.least() > 0.0) {
            let apart = press.between <= 0.0 && press.ahead.min(press.behind) > 0.0;
            return if apart { Together::Apart } else { Together::Not };
        }
        for (k, partner, offset) in [(a, b, offsets[0]), (b, a, offsets[1])] {
            let part = (obstacle, ridden);
            self.begin_round(k, part, (track, state), (low, high), Some((partner, offset)));
        }
        Together::Ride
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_balls_side_by_side_in_a_bowl_ride_their_middle_at_their_mean_energy() {
        // A bowl whose balls' centres ride L = 10 about the origin, balls of 1: sin h =
        // 1/10. Two at rest at ±h about the bottom: the middle is the bottom, each one
        // h off it (the one to the right, at +h from straight down, is ahead), and the
        // pair is at rest (their energy is their middle's: its height is L·cos h below
        // the centre, theirs too).
        let ridden = Ridden {
            center: DVec2::ZERO,
            radius: 10.0,
            inside: true,
            span: None,
        };
        let h = 0.1_f64.asin();
        let at = |a: f64| Vec2::new((10.0 * a.sin()) as f32, (-10.0 * a.cos()) as f32);
        let start = PairStart {
            centers: [at(h), at(-h)],
            velocities: [Vec2::ZERO; 2],
        };
        let g = DVec2::new(0.0, -10.0);
        let (track, state, offsets) = pair_track(&ridden, (0.0, g), 1.0, start).unwrap();
        assert!((track.zero - DVec2::new(0.0, -1.0)).length() < 1e-7);
        assert_eq!(offsets, [h, -h]);
        // Listed the other way round, each keeps its own side.
        let swapped = PairStart {
            centers: [at(-h), at(h)],
            ..start
        };
        assert_eq!(pair_track(&ridden, (0.0, g), 1.0, swapped).unwrap().2, [-h, h]);
        assert_eq!(state.rate, 0.0);
        // The press between them at the bottom is g·tan h = 10/√99; on the bowl each
        // presses g·cos h + g·tan h·sin h = g/cos h = 10/√0.99.
        let press = track.pair_press(
            RideState {
                angle: 0.0,
                rate: 0.0,
            },
            0.0,
        );
        assert!(
            (press.between - 10.0 / 99.0_f64.sqrt()).abs() < 1e-12,
            "{press:?}"
        );
        assert!((press.ahead - 10.0 / 0.99_f64.sqrt()).abs() < 1e-12, "{press:?}");
        assert!((press.behind - press.ahead).abs() < 1e-12, "{press:?}");
        // Moving right at 2 u/s each: rate 0.2 rad/s, the right-hand one ahead.
        let moving = PairStart {
            velocities: [Vec2::new(2.0, 0.0); 2],
            ..start
        };
        let (_, state, _) = pair_track(&ridden, (0.0, g), 1.0, moving).unwrap();
        assert!((state.rate - 0.2).abs() < 1e-6, "{state:?}");
    }
}
