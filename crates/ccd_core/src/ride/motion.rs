//! The motion of a ball's centre on the circle it rides, solved in f64 with error
//! control, and the events that end a run of it.
//!
//! A ball of no spin (a sliding disc) in lasting contact with a circle has its centre on
//! the circle of radius `L` about the same centre (`L = R + w + r` outside, `R − w − r`
//! inside). With the angle `ψ` of the centre about that centre and `ω = ψ'`, unit vectors
//! `û` (out from the centre) and `t̂` (along increasing `ψ`):
//!
//! - the press of the surface per unit mass is `N/m = s·(L·ω² + g·û)`, `s = +1` inside and
//!   `−1` outside (on the inside `g·û = |g|·cos θ`, θ from the direction of gravity, and
//!   this is `v²/L + g·cos θ`; outside, from the top, `g·cos α − v²/L`);
//! - the angle obeys `L·ψ'' = g·t̂ − μ·(N/m)·sign(ω)`.
//!
//! **Two balls together.** Two balls of one radius and mass that touch on the same circle
//! and press on each other ride it as one: their centres sit at `ψ ∓ h` about the middle
//! angle `ψ`, with `sin h = r/L` (they are `2·r` apart). Adding their two equations of
//! motion, the pushes between them (along the chord, which is the middle's tangent `t̂`,
//! at `h` to each one's own) cancel, and the middle obeys `L·ψ'' = cos h·(g·t̂) − μ·N̄/m·
//! sign(ω)`, a pendulum under gravity scaled by `cos h` (friction by the mean press `N̄`).
//! Taking one from the other, the press between them is
//! `f/m = tan h·(g·û + μ·s·sign(ω)·(g·t̂))`, and each one's surface press is
//! `N/m = s·(L·ω² + g·û_i + (f/m)·sin h)`. The pair rides while all three are above zero:
//! in a bowl they press on each other below the level of its centre; on a post they never
//! do (the one further down runs ahead), so each rides alone.
//!
//! **How it is solved.** By the Dormand–Prince 5(4) pair with its embedded error
//! estimate: every accepted step has an estimated local error below [`RIDE_TOLERANCE`] in
//! the angle (and in the rate times the ride's own time scale), so a ride of `n` steps is
//! within about `n ×` that of the exact solution, far below the f32 of the ball's state
//! (a ride of a frame takes a handful of steps). The exact solution in Jacobi elliptic
//! functions would do for a frictionless ride, but not with friction, and would need a
//! second code path for the loop's two regimes; one integrator serves every case.
//!
//! **Events.** A run goes on until, first: the press reaches zero (the ball leaves), the
//! angle leaves the ridden part (the face or cap ends), the rate reaches zero (a turning
//! point, where friction may hold the ball), a target angle is reached (another contact
//! found on the way), or the time is up. Each is checked at the end of every step, whose
//! turn is capped at [`MAX_RIDE_STEP_ANGLE`] so that no event comes and goes within one;
//! the step that crosses one is cut by bisection of its length ([`MAX_RIDE_EVENT_HALVINGS`]),
//! re-taking the step from its start.

use crate::tolerance::{MAX_RIDE_EVENT_HALVINGS, MAX_RIDE_STEP_ANGLE, MAX_RIDE_STEPS, RIDE_TOLERANCE};
use glam::DVec2;

/// The circle a ball's centre rides, and what drives it along.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Track {
    /// The circle's centre.
    pub(crate) center: DVec2,
    /// The radius of the centre's circle, `L` (above 0).
    pub(crate) radius: f64,
    /// The ball rides the inside (the surface holds it from outside the centre's circle).
    pub(crate) inside: bool,
    /// Gravity, units/s².
    pub(crate) gravity: DVec2,
    /// The friction coefficient, μ.
    pub(crate) friction: f64,
    /// Unit, from the centre towards where the ride's angle is zero.
    pub(crate) zero: DVec2,
    /// Half the angle between two balls that ride the circle together, touching (see
    /// "Two balls together" in the module docs): the track's angle is their middle's.
    /// Zero for a ball alone.
    pub(crate) half_gap: f64,
}

/// The presses on two balls riding together at a track's state, per unit mass of one:
/// the surface's on each (the one behind the middle, the one ahead) and the two balls'
/// on each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairPress {
    pub(crate) behind: f64,
    pub(crate) ahead: f64,
    pub(crate) between: f64,
}

impl PairPress {
    /// The least of the three: the pair rides on while it is above zero.
    #[inline]
    pub(crate) fn least(&self) -> f64 {
        self.behind.min(self.ahead).min(self.between)
    }
}

/// Where a ball is on its [`Track`]: the angle from the track's zero, counter-clockwise,
/// radians, and its rate, rad/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RideState {
    pub(crate) angle: f64,
    pub(crate) rate: f64,
}

impl Track {
    /// The unit vector out from the centre at `angle`.
    #[inline]
    pub(crate) fn radial(&self, angle: f64) -> DVec2 {
        let (s, c) = angle.sin_cos();
        self.zero * c + self.zero.perp() * s
    }

    /// The unit tangent at `angle`, along increasing angle.
    #[inline]
    pub(crate) fn tangent(&self, angle: f64) -> DVec2 {
        self.radial(angle).perp()
    }

    /// The ball's centre at `angle`.
    #[inline]
    pub(crate) fn position(&self, angle: f64) -> DVec2 {
        self.center + self.radial(angle) * self.radius
    }

    /// The ball's velocity at `state`.
    #[inline]
    pub(crate) fn velocity(&self, state: RideState) -> DVec2 {
        self.tangent(state.angle) * (self.radius * state.rate)
    }

    /// Kinetic plus potential energy per unit mass at `state`, `½·(L·ω)² − g·p`.
    #[inline]
    pub(crate) fn energy(&self, state: RideState) -> f64 {
        let speed = self.radius * state.rate;
        let height = if self.half_gap == 0.0 {
            self.gravity.dot(self.position(state.angle))
        } else {
            // Two balls together: their mean height, their middle's on the chord.
            let reach = self.radius * self.half_gap.cos();
            self.gravity.dot(self.center + self.radial(state.angle) * reach)
        };
        0.5 * speed * speed - height
    }

    /// `+1` on the inside, `−1` on the outside.
    #[inline]
    fn side(&self) -> f64 {
        if self.inside { 1.0 } else { -1.0 }
    }

    /// The surface's press on the ball per unit mass, `N/m` (see the module docs):
    /// negative where the ball would have to be pulled to stay on. For two balls riding
    /// together, the least of their [`PairPress`]es, friction taken against the rate's
    /// sign.
    #[inline]
    pub(crate) fn press(&self, state: RideState) -> f64 {
        if self.half_gap != 0.0 {
            return self.pair_press(state, state.rate.signum()).least();
        }
        self.side() * (self.radius * state.rate * state.rate + self.gravity.dot(self.radial(state.angle)))
    }

    /// The presses on two balls riding together at `state`, moving towards `heading` (±1,
    /// or 0 at rest): see "Two balls together" in the module docs.
    pub(crate) fn pair_press(&self, state: RideState, heading: f64) -> PairPress {
        let (s, h) = (self.side(), self.half_gap);
        let out = self.gravity.dot(self.radial(state.angle));
        let along = self.gravity.dot(self.tangent(state.angle));
        let between = h.tan() * (out + self.friction * heading * s * along);
        let spin = self.radius * state.rate * state.rate;
        let on = |offset: f64| {
            s * (spin + self.gravity.dot(self.radial(state.angle + offset)) + between * h.sin())
        };
        PairPress {
            behind: on(-h),
            ahead: on(h),
            between,
        }
    }

    /// The surface's mean press on a ball, `N/m`, that friction acts on: the ball's own
    /// alone, the mean of the two for two balls together.
    #[inline]
    fn mean_press(&self, state: RideState, heading: f64) -> f64 {
        if self.half_gap == 0.0 {
            return self.press(state);
        }
        let p = self.pair_press(state, heading);
        0.5 * (p.behind + p.ahead)
    }

    /// Gravity's pull along the track at `angle`, units/s² (for two balls together, on
    /// their middle: each one's along its own tangent, their mean).
    #[inline]
    pub(crate) fn pull(&self, angle: f64) -> f64 {
        let pull = self.gravity.dot(self.tangent(angle));
        if self.half_gap == 0.0 {
            pull
        } else {
            pull * self.half_gap.cos()
        }
    }

    /// The angular acceleration at `state` for a ball moving towards `heading` (±1):
    /// friction acts against it.
    #[inline]
    fn acceleration(&self, state: RideState, heading: f64) -> f64 {
        let friction = self.friction * self.mean_press(state, heading).max(0.0) * heading;
        (self.pull(state.angle) - friction) / self.radius
    }

    /// Whether friction holds a ball at rest at `angle`: gravity's pull along the track is
    /// no more than `μ·N/m`.
    #[inline]
    pub(crate) fn holds_at_rest(&self, angle: f64) -> bool {
        let at_rest = RideState { angle, rate: 0.0 };
        self.pull(angle).abs() <= self.friction * self.mean_press(at_rest, 0.0).max(0.0)
    }

    /// The track's own time scale, 1/s: how fast its pendulum swings, or the ball turns.
    #[inline]
    fn rate_scale(&self, state: RideState) -> f64 {
        state.rate.abs() + (self.gravity.length() / self.radius).sqrt()
    }
}

/// What ended a run of a ride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunEnd {
    /// The time given is up.
    TimeUp,
    /// The press reached zero: the ball leaves the track and flies.
    Leaves,
    /// The angle reached an end of the ridden part.
    Ends,
    /// The rate reached zero: a turning point.
    Turns,
    /// The target angle was reached.
    Reached,
    /// [`MAX_RIDE_STEPS`] steps were taken before any of these.
    Capped,
}

/// A run's limits: the ridden part's angles `[low, high]` (infinite for a whole circle),
/// the direction of motion `heading` (±1; the run ends where the rate turns), a target
/// angle (infinite for none), and the time, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RunLimits {
    pub(crate) low: f64,
    pub(crate) high: f64,
    pub(crate) heading: f64,
    pub(crate) target: f64,
    pub(crate) time: f64,
}

/// Where a run ended, when (seconds from its start), why, and the steps it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Run {
    pub(crate) state: RideState,
    pub(crate) time: f64,
    pub(crate) end: RunEnd,
    pub(crate) steps: u32,
}

/// Ride `track` from `start` within `limits`, to the first event (see the module docs).
/// The state reported at an event is the bisection's end on the event's side (the press
/// at or below zero, the angle at or past the end), except for a target, reported on the
/// near side: a contact found there is met early, never late.
pub(crate) fn run(track: &Track, start: RideState, limits: RunLimits) -> Run {
    let mut done = Run {
        state: start,
        time: 0.0,
        end: RunEnd::TimeUp,
        steps: 0,
    };
    let scale = track.rate_scale(start);
    let mut h = if scale > 0.0 {
        limits.time.min(MAX_RIDE_STEP_ANGLE / scale)
    } else {
        limits.time
    };
    while done.time < limits.time {
        if done.steps >= MAX_RIDE_STEPS {
            done.end = RunEnd::Capped;
            return done;
        }
        done.steps += 1;
        let scale = track.rate_scale(done.state);
        h = h.min(limits.time - done.time);
        if scale > 0.0 {
            h = h.min(MAX_RIDE_STEP_ANGLE / scale);
        }
        let (next, error) = dormand_prince(track, done.state, h, limits.heading);
        let error = error
            .angle
            .abs()
            .max(error.rate.abs() / scale.max(f64::MIN_POSITIVE))
            / RIDE_TOLERANCE;
        if error > 1.0 {
            h *= (0.9 * error.powf(-0.2)).max(0.2);
            continue;
        }
        if event_at(next, track, &limits).is_some() {
            return cut(track, done, h, &limits);
        }
        done.time += h;
        done.state = next;
        h *= (0.9 * error.max(1e-10).powf(-0.2)).min(5.0);
    }
    done.time = limits.time;
    done
}

/// The step of length `h` from `before` crosses an event: find where, by halving.
fn cut(track: &Track, before: Run, h: f64, limits: &RunLimits) -> Run {
    let (mut near, mut far) = (0.0, h);
    for _ in 0..MAX_RIDE_EVENT_HALVINGS {
        let mid = 0.5 * (near + far);
        if !(mid > near && mid < far) {
            break;
        }
        let (state, _) = dormand_prince(track, before.state, mid, limits.heading);
        if event_at(state, track, limits).is_some() {
            far = mid;
        } else {
            near = mid;
        }
    }
    let (at_far, _) = dormand_prince(track, before.state, far, limits.heading);
    let end = event_at(at_far, track, limits).unwrap_or(RunEnd::TimeUp);
    let taken = if end == RunEnd::Reached { near } else { far };
    let (state, _) = dormand_prince(track, before.state, taken, limits.heading);
    Run {
        state,
        time: before.time + taken,
        end,
        steps: before.steps,
    }
}

/// The event `state` is at or past, if any, the earliest-listed first.
#[inline]
fn event_at(state: RideState, track: &Track, limits: &RunLimits) -> Option<RunEnd> {
    if !(track.press(state) > 0.0) {
        return Some(RunEnd::Leaves);
    }
    if !(state.angle > limits.low && state.angle < limits.high) {
        return Some(RunEnd::Ends);
    }
    if !(state.rate * limits.heading > 0.0) {
        return Some(RunEnd::Turns);
    }
    if !((limits.target - state.angle) * limits.heading > 0.0) {
        return Some(RunEnd::Reached);
    }
    None
}

/// One Dormand–Prince 5(4) step of length `h` from `y` (the fifth-order result), with the
/// difference of the embedded fourth-order one (the local error estimate).
fn dormand_prince(track: &Track, y: RideState, h: f64, heading: f64) -> (RideState, RideState) {
    let f = |s: RideState| RideState {
        angle: s.rate,
        rate: track.acceleration(s, heading),
    };
    let at = |weights: &[f64], k: &[RideState]| {
        let mut s = y;
        for (w, k) in weights.iter().zip(k) {
            s.angle += h * w * k.angle;
            s.rate += h * w * k.rate;
        }
        s
    };
    let mut k = [RideState {
        angle: 0.0,
        rate: 0.0,
    }; 7];
    k[0] = f(y);
    for (i, row) in DP_A.iter().enumerate() {
        k[i + 1] = f(at(row, &k[..=i]));
    }
    let next = at(DP_A[5], &k[..6]);
    let error = k.iter().zip(DP_E).fold(
        RideState {
            angle: 0.0,
            rate: 0.0,
        },
        |e, (k, w)| RideState {
            angle: e.angle + h * w * k.angle,
            rate: e.rate + h * w * k.rate,
        },
    );
    (next, error)
}

/// The Dormand–Prince tableau's rows (the sixth is the fifth-order weights, used for the
/// seventh stage: the pair is "first same as last").
const DP_A: [&[f64]; 6] = [
    &[1.0 / 5.0],
    &[3.0 / 40.0, 9.0 / 40.0],
    &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
    &[
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
    ],
    &[
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
    ],
    &[
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
    ],
];

/// The fifth-order weights less the fourth-order ones: the local error estimate's.
const DP_E: [f64; 7] = [
    71.0 / 57600.0,
    0.0,
    -71.0 / 16695.0,
    71.0 / 1920.0,
    -17253.0 / 339200.0,
    22.0 / 525.0,
    -1.0 / 40.0,
];

#[cfg(test)]
mod tests;
