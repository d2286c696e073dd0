//! An event ball on a still round part (a pillar, an end cap, an arc from either side):
//! it rides it exactly, as a lone ball does (`ride/`), chord by chord.
//!
//! The ride's motion is the lone sweep's, solved in f64 (`ride::run`). The event
//! machinery needs a leg it can sweep against other balls and moving obstacles, so the
//! ride is cut into *chords*: each runs the exact motion to a point on the circle at most
//! [`chord_angle`] on, and the ball's leg is the straight line to it, at the speed that
//! gets it there on time. The chord's end is an event (`EventKind::ChordEnds`): there the
//! ball is put on the exact point, and the next chord starts from the exact state. So the
//! ride is exact at every chord's end and at the step's end; between them the ball is off
//! the circle by at most the chord's sagitta, [`RIDE_SEARCH_SAG_REL`] of its radius (what
//! the lone ride's search allows too), and it meets another ball, a moving obstacle or a
//! wall on the chord there, with the ride's exact velocity of that instant
//! ([`Sim::leave_round`]).
//!
//! A ride ends where the lone ride's does: where the press vanishes (it flies off), at
//! the round part's end (it flies on, and lands on a face going on from there), held
//! still at a turning point (by friction, or on an equilibrium), or where it meets
//! anything.

use super::sim::Sim;
use crate::bounce::RideTally;
use crate::obstacle::{ObstacleId, Obstacles};
use crate::ride::{Ridden, RideState, RunEnd, RunLimits, Start, Track, heading, in_f32, run, track_from};
use crate::tolerance::{MAX_RIDE_STEP_ANGLE, RIDE_SEARCH_SAG_REL};
use glam::{DVec2, Vec2};

/// A ball's ride of a still round part: the wall, its track, and the chord it is on.
#[derive(Clone, Copy, Debug)]
pub(super) struct OnRound {
    /// The wall ridden (its other parts are met as usual; this round part, on its way, is
    /// not a contact).
    pub(super) obstacle: ObstacleId,
    pub(super) ridden: Ridden,
    track: Track,
    /// The ridden part's angles on the track, and the way the ride goes.
    limits: RunLimits,
    /// The exact state at the chord's start, and its time (seconds into the step).
    from: RideState,
    from_time: f32,
    /// The exact state at the chord's end, its time, and what ends the run there.
    to: RideState,
    pub(super) to_time: f32,
    end: RunEnd,
    /// Riding with another ball (`Track::half_gap`): that ball, and this one's angle off
    /// their middle's, the track's.
    pub(super) partner: Option<usize>,
    offset: f64,
}

impl OnRound {
    /// This ball's own state at the track's `state`: its angle off the middle's for two
    /// balls riding together.
    #[inline]
    fn own(&self, state: RideState) -> RideState {
        RideState {
            angle: state.angle + self.offset,
            rate: state.rate,
        }
    }
}

/// The angle a chord of a ride of radius `l` turns, for a ball of `radius`: its sagitta is
/// [`RIDE_SEARCH_SAG_REL`] of the ball's radius, and it turns at most
/// [`MAX_RIDE_STEP_ANGLE`].
fn chord_angle(l: f64, radius: f32) -> f64 {
    let sag = f64::from(RIDE_SEARCH_SAG_REL * radius);
    (2.0 * (1.0 - sag / l).clamp(-1.0, 1.0).acos()).min(MAX_RIDE_STEP_ANGLE)
}

/// How long a chord of at most `piece` radians lasts from `state` on `track`: the time in
/// which the angle, at its rate and the most the track can speed it up (gravity, and
/// friction's part of the press), turns by `piece`. A chord ends at a time, not at an
/// angle: a run to a time takes its few steps, one to an angle bisects its last step to
/// the angle (its cost was 71% of a ride's step in the event machinery: a loop at 120 Hz
/// took 83 µs a step, where with runs to a time it takes 8.3 in all).
fn chord_time(track: &Track, state: RideState, piece: f64) -> f64 {
    let rate = state.rate.abs();
    let g = track.gravity.length();
    let speed_up = (g * (1.0 + track.friction) + track.friction * track.radius * rate * rate) / track.radius;
    2.0 * piece / (rate + (rate * rate + 2.0 * speed_up * piece).sqrt())
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `k` starts to ride `ridden`, a round part of wall `obstacle` (of combined
    /// `friction`), at its clock, from `start`. Returns whether it rides: not from the
    /// part's centre, nor where the press would not hold it (then nothing changes).
    pub(super) fn start_round(
        &mut self,
        k: usize,
        (obstacle, ridden): (ObstacleId, Ridden),
        friction: f32,
        start: Start,
    ) -> bool {
        let gravity = self.gravity_of(k).as_dvec2();
        let Some((track, state)) = track_from(&ridden, friction, gravity, start) else {
            return false;
        };
        if !(track.press(state) > 0.0) {
            return false;
        }
        let (low, high) = ridden.angles_from(track.zero);
        self.begin_round(k, (obstacle, ridden), (track, state), (low, high), None);
        true
    }

    /// Ball `k` rides `track` of wall `obstacle`'s round part `ridden` from `state` at its
    /// clock, between the track's angles `low..high`; with `partner` (the other ball, and
    /// this one's angle off their middle) for two balls riding together.
    pub(super) fn begin_round(
        &mut self,
        k: usize,
        (obstacle, ridden): (ObstacleId, Ridden),
        (track, state): (Track, RideState),
        (low, high): (f64, f64),
        partner: Option<(usize, f64)>,
    ) {
        let limits = RunLimits {
            low,
            high,
            heading: 0.0,
            target: f64::INFINITY,
            time: 0.0,
        };
        let time = self.step.clock[k].time;
        self.step.state[k].round = Some(OnRound {
            obstacle,
            ridden,
            track,
            limits,
            from: state,
            from_time: time,
            to: state,
            to_time: time,
            end: RunEnd::Reached,
            partner: partner.map(|(p, _)| p),
            offset: partner.map_or(0.0, |(_, offset)| offset),
        });
        let clock = &mut self.step.clock[k];
        clock.on_round = true;
        clock.curved = false;
        clock.sliding = false;
        self.next_chord(k);
    }

    /// Rider `k`'s next chord, from the end of its last (at its clock): the exact run to a
    /// point at most [`chord_angle`] on (or to the step's end, or the run's first event),
    /// and the ball's velocity along the chord to it. Held still (friction, or an
    /// equilibrium), it stays there to the step's end.
    fn next_chord(&mut self, k: usize) {
        let Some(mut on) = self.step.state[k].round else {
            return;
        };
        let now = self.step.clock[k].time;
        // At a turning point it is at rest: the next chord starts from it (friction may
        // hold it there).
        if on.end == RunEnd::Turns {
            on.to.rate = 0.0;
        }
        on.from = on.to;
        on.from_time = now;
        let from = on.from;
        let Some(heading) = heading(&on.track, from) else {
            on.to_time = self.dt;
            on.end = RunEnd::TimeUp;
            self.balls[k].center = on.track.position(on.own(from).angle).as_vec2();
            self.balls[k].velocity = Vec2::ZERO;
            self.step.state[k].round = Some(on);
            return;
        };
        let piece = chord_angle(on.track.radius, self.balls[k].radius);
        let left = f64::from(self.dt - now);
        let chord = chord_time(&on.track, from, piece);
        on.limits.heading = heading;
        on.limits.target = f64::INFINITY * heading;
        on.limits.time = chord.min(left);
        let ran = run(&on.track, from, on.limits);
        on.to = ran.state;
        on.end = ran.end;
        on.to_time = if ran.end == RunEnd::TimeUp && chord >= left {
            self.dt
        } else {
            ((f64::from(now) + ran.time) as f32).clamp(now, self.dt)
        };
        let a = on.track.position(on.own(from).angle);
        let b = on.track.position(on.own(ran.state).angle);
        let took = f64::from(on.to_time - now);
        self.balls[k].center = a.as_vec2();
        self.balls[k].velocity = if took > 0.0 {
            ((b - a) / took).as_vec2()
        } else {
            on.track.velocity(on.own(from)).as_vec2()
        };
        self.step.state[k].round = Some(on);
    }

    /// Rider `k` reaches its chord's end at `time`: put on the exact point of its ride;
    /// it rides on along the next chord, or, where the press vanished or the part ended,
    /// flies on from there.
    pub(super) fn chord_ends(&mut self, k: usize, time: f32) {
        self.flush_sensors(k, time);
        let Some(on) = self.step.state[k].round else {
            return;
        };
        self.step.clock[k].time = time;
        self.tally(k, &on, on.to, on.to_time - on.from_time);
        match on.end {
            RunEnd::Leaves | RunEnd::Ends if on.partner.is_some() => self.pair_ends(k, &on, time),
            RunEnd::Leaves | RunEnd::Ends => {
                let velocity = on.track.velocity(on.to);
                (self.balls[k].center, self.balls[k].velocity) = in_f32(&on.track, on.to, velocity, false);
                self.off_round(k);
            }
            RunEnd::Capped => {
                // The run's step cap: it waits there, as a capped ball does.
                self.balls[k].center = on.track.position(on.own(on.to).angle).as_vec2();
                self.off_round(k);
                self.step.clock[k].waiting = true;
                self.report.capped_balls += 1;
            }
            RunEnd::Reached | RunEnd::Turns | RunEnd::TimeUp => self.next_chord(k),
        }
        let clock = &mut self.step.clock[k];
        clock.version = clock.version.wrapping_add(1);
        self.moved(k);
        self.repredict(k);
    }

    /// Tally rider `k`'s ride on `on` from its chord's start to `to`, `took` seconds later:
    /// the time, if it moved, and what friction took (the ride's own f64 energy, as the
    /// lone ride's tally).
    fn tally(&mut self, k: usize, on: &OnRound, to: RideState, took: f32) {
        if !(took > 0.0) || (to == on.from && on.from.rate == 0.0) {
            return;
        }
        let tally = &mut self.step.rides[k];
        if *tally == RideTally::default() {
            self.step.riders.push(k as u32);
        }
        tally.time += took;
        if on.track.friction > 0.0 {
            tally.friction_loss += (on.track.energy(on.from) - on.track.energy(to)) as f32;
        }
    }

    /// Two balls riding together (`round_pair.rs`) reach their chords' end at `time`
    /// where the ride of the two ends (a press vanished, or one reached the part's end):
    /// each rides on alone from there ([`Sim::go_on_alone`]), ball `k` (its ride `on`) and
    /// its partner at once, at the same state, so that neither sees the other on a chord
    /// of the pair's for an instant.
    fn pair_ends(&mut self, k: usize, on: &OnRound, time: f32) {
        self.go_on_alone(k, on);
        let Some(p) = on.partner else {
            return;
        };
        let Some(theirs) = self.step.state[p].round.filter(|o| o.partner == Some(k)) else {
            return;
        };
        self.step.clock[p].time = time;
        self.tally(p, &theirs, theirs.to, theirs.to_time - theirs.from_time);
        self.go_on_alone(p, &theirs);
        let clock = &mut self.step.clock[p];
        clock.version = clock.version.wrapping_add(1);
        self.moved(p);
        self.repredict(p);
    }

    /// Rider `k`, whose ride `on` with another ball ended at its chord's end, rides on
    /// alone from there, or flies where its own press would not hold it.
    fn go_on_alone(&mut self, k: usize, on: &OnRound) {
        let at = on.own(on.to);
        let velocity = on.track.velocity(at);
        self.off_round(k);
        let (center, v) = in_f32(&on.track, at, velocity, true);
        (self.balls[k].center, self.balls[k].velocity) = (center, v);
        let friction = on.track.friction as f32;
        if !self.start_round(k, (on.obstacle, on.ridden), friction, going_on(center, v)) {
            (self.balls[k].center, self.balls[k].velocity) = in_f32(&on.track, at, velocity, false);
        }
    }

    /// Ball `p` rode with a ball that left the ride at `t` (it met something): it leaves
    /// the pair's ride there too, where its chord takes it, with the ride's velocity then,
    /// and flies from there, as a ball alone leaves its ride for a contact: it may be in
    /// that contact (the other, struck, pushes it), and lands on the part again if not.
    /// (Riding on with the pair's push, which the other no longer gave, it made energy:
    /// 2.3e-4 of 2·g·L where the other met a post slowly, and sank 6e-3 into it.)
    fn parted(&mut self, p: usize, t: f32) {
        let Some(mut on) = self.step.state[p].round else {
            return;
        };
        on.partner = None;
        self.step.state[p].round = Some(on);
        self.leave_round(p, t);
        let clock = &mut self.step.clock[p];
        clock.version = clock.version.wrapping_add(1);
        self.moved(p);
        self.repredict(p);
    }

    /// Whether balls `i` and `j` ride a round part together: no contact between them
    /// (`pair_sweep.rs`), though their chords cut into each other by a sagitta's share.
    #[cold]
    #[inline(never)]
    pub(super) fn ride_together(&self, i: usize, j: usize) -> bool {
        let partner = |k: usize| self.step.state[k].round.and_then(|on| on.partner);
        partner(i) == Some(j) && partner(j) == Some(i)
    }

    /// Rider `k` stops riding and flies (under gravity, on a parabola).
    fn off_round(&mut self, k: usize) {
        self.step.state[k].round = None;
        let flies = self.gravity_of(k) != Vec2::ZERO;
        let clock = &mut self.step.clock[k];
        clock.on_round = false;
        clock.curved = flies;
    }

    /// Rider `k` moves along its chord to `t`. At the chord's end at the step's end (or
    /// held still), it is put on the exact point of its ride, on the part's side, with the
    /// ride's velocity there: the next step rides on from it. Before its chord's end, it
    /// leaves the ride there for something it meets ([`Sim::leave_round`]).
    pub(super) fn ride_to(&mut self, k: usize, t: f32) {
        let Some(on) = self.step.state[k].round else {
            return;
        };
        if t < on.to_time {
            self.leave_round(k, t);
            return;
        }
        let velocity = match on.end {
            RunEnd::Turns => DVec2::ZERO,
            _ => on.track.velocity(on.own(on.to)),
        };
        (self.balls[k].center, self.balls[k].velocity) = in_f32(&on.track, on.own(on.to), velocity, true);
        if self.step.clock[k].time < t {
            self.tally(k, &on, on.to, on.to_time - on.from_time);
        }
        self.step.clock[k].time = t;
    }

    /// Rider `k` leaves its ride at `t`, before its chord's end, for something it meets
    /// there: it is where its chord takes it, with the ride's exact velocity then (the
    /// run taken again from the chord's start to `t`), and flies from there.
    pub(super) fn leave_round(&mut self, k: usize, t: f32) {
        let Some(on) = self.step.state[k].round else {
            return;
        };
        let s = self.step.clock[k].time;
        if t > s {
            self.balls[k].center += self.balls[k].velocity * (t - s);
        }
        let limits = RunLimits {
            time: f64::from(t - on.from_time).max(0.0),
            ..on.limits
        };
        let ran = run(&on.track, on.from, limits);
        self.tally(k, &on, ran.state, t - on.from_time);
        let velocity = on.track.velocity(on.own(ran.state)).as_vec2();
        if velocity.is_finite() {
            self.balls[k].velocity = velocity;
        }
        self.step.clock[k].time = t.max(s);
        self.off_round(k);
        if let Some(p) = on.partner {
            self.parted(p, t);
        }
    }
}

/// Where a ball at `center` with `velocity` starts a ride it lands on at `speed` (the
/// meeting's, in f64).
pub(super) fn landed(center: Vec2, velocity: Vec2, speed: f64) -> Start {
    Start {
        position: center.as_dvec2(),
        velocity: velocity.as_dvec2(),
        speed,
        landed: true,
    }
}

/// Where a ball at `center` with `velocity` starts a ride it goes on with from the step's
/// start.
pub(super) fn going_on(center: Vec2, velocity: Vec2) -> Start {
    let v = velocity.as_dvec2();
    Start {
        position: center.as_dvec2(),
        velocity: v,
        speed: v.length(),
        landed: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chords_sagitta_is_the_search_allowance() {
        // A ball of 0.5 on a circle of 10: a sagitta of 5e-6, so a chord of half-angle
        // acos(1 − 5e-7), 2·1e-3 rad to first order (√(2·5e-7) = 1e-3).
        let angle = chord_angle(10.0, 0.5);
        assert!((angle - 2.0e-3).abs() < 1e-9, "{angle}");
        // On a tight circle, the step cap.
        assert_eq!(chord_angle(1e-4, 0.5), MAX_RIDE_STEP_ANGLE);
    }

    #[test]
    fn a_chord_lasts_while_the_fastest_the_ride_can_go_turns_it_by_its_angle() {
        // L = 10, g = 10, no friction: the angle speeds up by at most g/L = 1 rad/s².
        let track = Track {
            center: DVec2::ZERO,
            radius: 10.0,
            inside: true,
            gravity: DVec2::new(0.0, -10.0),
            friction: 0.0,
            zero: DVec2::new(0.0, -1.0),
            half_gap: 0.0,
        };
        // From rest, ½·1·τ² = 2e-3: τ = √(4e-3) = 0.0632456.
        let rest = RideState {
            angle: 0.0,
            rate: 0.0,
        };
        assert!((chord_time(&track, rest, 2e-3) - 4e-3_f64.sqrt()).abs() < 1e-12);
        // At 1 rad/s, τ + ½·τ² = 2e-3: τ = −1 + √(1 + 4e-3) = 1.998004e-3.
        let moving = RideState {
            angle: 0.0,
            rate: 1.0,
        };
        assert!((chord_time(&track, moving, 2e-3) - ((1.004_f64).sqrt() - 1.0)).abs() < 1e-12);
        // With friction μ = 0.5 the bound grows by μ·(g + L·ω²)/L: 1.5 at rest.
        let rough = Track {
            friction: 0.5,
            ..track
        };
        assert!((chord_time(&rough, rest, 2e-3) - (4e-3_f64 / 1.5).sqrt()).abs() < 1e-12);
    }
}
