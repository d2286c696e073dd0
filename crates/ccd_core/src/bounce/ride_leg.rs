//! A lone ball's ride of a round part (see `ride/`): one run of its exact motion along
//! the circle, to the step's end or the run's first event, with the next thing it meets on
//! the way looked for along the arc it covers.
//!
//! The search goes along chords of the ridden circle, each short enough that its sagitta
//! is [`RIDE_SEARCH_SAG_REL`] of the ball's radius, with a ball that much larger: the arc
//! lies within it, so whatever the larger ball meets first, the true ball meets no
//! earlier. The run is then taken again to that angle, where the ball meets it (with a gap
//! of at most twice that sagitta): early, never late.

use super::leg::{Counted, Course, Solid, solid_on};
use super::{Sweep, SweepWatch, leg_hit, still_wall};
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::obstacle::{Obstacle, ObstacleId, Obstacles};
use crate::parabola::{Parabola, PathLeg};
use crate::ride::{
    Ridden, RideState, Run, RunEnd, RunLimits, Start, Track, ends_on, flat_joint, heading, in_f32,
    rides_same, run, track_from,
};
use crate::shape::{Aabb, Circle};
use crate::tolerance::{MAX_RIDE_RUNS, MAX_RIDE_STEP_ANGLE, RIDE_SEARCH_SAG_REL};
use glam::{DVec2, Vec2};
use std::f64::consts::{PI, TAU};

/// A round part a lone ball rides: the obstacle, its circle, and the friction of the two
/// materials.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RideOn {
    pub(super) obstacle: ObstacleId,
    pub(super) ridden: Ridden,
    pub(super) friction: f32,
    /// Where its next run starts from.
    pub(super) from: RideFrom,
}

impl RideOn {
    /// The ride of `obstacle`'s round part `ridden` a ball lands on at `speed`, with
    /// `friction`.
    pub(super) fn landed(obstacle: ObstacleId, ridden: Ridden, friction: f32, speed: f64) -> Self {
        Self {
            obstacle,
            ridden,
            friction,
            from: RideFrom::Landed { speed },
        }
    }
}

/// Where a ride's run starts from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum RideFrom {
    /// Its landing: the ball's centre, and the direction of its velocity, as the contact
    /// left them (f32), at this speed (f64).
    Landed { speed: f64 },
    /// The end of the run before, within the step: exact.
    Exact { position: DVec2, velocity: DVec2 },
}

/// What a ride's search found first: the obstacle met, and the angle on the ride where the
/// ball meets it.
struct Ahead {
    solid: Solid,
    angle: f64,
}

impl<O: Obstacles + ?Sized> Sweep<'_, O> {
    /// Ride `on` for at most `time_left` seconds: one run ([`run`]), or none past
    /// [`MAX_RIDE_RUNS`] in the step (capped); whether another leg follows.
    pub(super) fn ride_leg(&mut self, on: RideOn, time_left: f32, watch: &mut impl SweepWatch) -> bool {
        if self.runs >= MAX_RIDE_RUNS {
            return self.after_run(on, RunEnd::Capped, None, watch);
        }
        self.runs += 1;
        let Some((track, start)) = self.track(on) else {
            self.ride = None;
            return true;
        };
        let Some(heading) = heading(&track, start) else {
            // Held still: on an equilibrium (the top of a post, the bottom of a bowl), or
            // by friction.
            (self.out.center, self.out.velocity) = in_f32(
                &track,
                RideState {
                    angle: 0.0,
                    rate: 0.0,
                },
                DVec2::ZERO,
                true,
            );
            self.elapsed = self.rules.dt;
            return false;
        };
        let (low, high) = on.ridden.angles_from(track.zero);
        let limits = RunLimits {
            low,
            high,
            heading,
            target: f64::INFINITY * heading,
            time: f64::from(time_left),
        };
        let mut ran = run(&track, start, limits);
        let ahead = self.ahead_on_ride(&track, on, &ran, watch);
        if let Some(found) = &ahead {
            ran = run(
                &track,
                start,
                RunLimits {
                    target: found.angle,
                    ..limits
                },
            );
        }
        watch_ride(&track, &ran, watch);
        self.out.ride.time += ran.time as f32;
        if track.friction > 0.0 {
            self.out.ride.friction_loss += (track.energy(start) - track.energy(ran.state)) as f32;
        }
        let velocity = if ran.end == RunEnd::Turns {
            // At a turning point it is at rest: the next run starts from it (friction may
            // hold it there).
            DVec2::ZERO
        } else {
            track.velocity(ran.state)
        };
        self.ride = Some(RideOn {
            from: RideFrom::Exact {
                position: track.position(ran.state.angle),
                velocity,
            },
            ..on
        });
        // Where the ride goes on (the step's end, a turn), on the part's side; where it
        // leaves, off it, so that its flight does not start in touch.
        let stays = !matches!(ran.end, RunEnd::Leaves | RunEnd::Ends);
        (self.out.center, self.out.velocity) = in_f32(&track, ran.state, velocity, stays);
        self.elapsed = (self.elapsed + ran.time as f32).min(self.rules.dt);
        self.after_run(on, ran.end, ahead, watch)
    }

    /// What follows a run that ended at `end` (with the contact found `ahead`, if any):
    /// whether another leg follows.
    fn after_run(
        &mut self,
        on: RideOn,
        end: RunEnd,
        ahead: Option<Ahead>,
        watch: &mut impl SweepWatch,
    ) -> bool {
        match (end, ahead) {
            (RunEnd::Reached, Some(found)) => {
                self.ride = None;
                let solid = self.touching(found.solid);
                self.meet_solid(&solid, Course::Straight(Vec2::ZERO), 0.0, watch)
            }
            (RunEnd::TimeUp | RunEnd::Reached, _) => {
                self.elapsed = self.rules.dt;
                false
            }
            (RunEnd::Leaves, _) => {
                // Off the outside of a round part, it cannot come back to it before it
                // meets something else: the next leg skips it, so a rounded tangent
                // contact is not taken for a new one.
                self.left = (!on.ridden.inside).then_some(on.obstacle);
                self.ride = None;
                true
            }
            (RunEnd::Ends, _) => {
                self.ride = None;
                true
            }
            (RunEnd::Turns, _) => true,
            (RunEnd::Capped, _) => {
                self.out.capped = true;
                self.out.lost_time = (self.rules.dt - self.elapsed).max(0.0);
                false
            }
        }
    }

    /// The track of `on` from where its run starts (its angle 0 there), and the ball's
    /// state on it ([`track_from`]); `None` for a start on the round part's centre.
    fn track(&self, on: RideOn) -> Option<(Track, RideState)> {
        let start = match on.from {
            RideFrom::Landed { speed } => Start {
                position: self.out.center.as_dvec2(),
                velocity: self.out.velocity.as_dvec2(),
                speed,
                landed: true,
            },
            RideFrom::Exact { position, velocity } => Start {
                position,
                velocity,
                speed: velocity.length(),
                landed: false,
            },
        };
        track_from(&on.ridden, on.friction, self.rules.gravity.as_dvec2(), start)
    }

    /// The first solid obstacle the ride `ran` (from angle 0) meets on its arc, and where;
    /// sensors entered on the way are told to `watch` (at the time of the chord where each
    /// is entered, along the run's angle).
    fn ahead_on_ride(
        &self,
        track: &Track,
        on: RideOn,
        ran: &Run,
        watch: &mut impl SweepWatch,
    ) -> Option<Ahead> {
        let r = self.radius;
        let sag = f64::from(RIDE_SEARCH_SAG_REL * r);
        let piece = (2.0 * (1.0 - sag / track.radius).clamp(-1.0, 1.0).acos()).min(MAX_RIDE_STEP_ANGLE);
        let end = ran.state.angle;
        let pieces = (end.abs() / piece).ceil().max(1.0);
        // The larger ball covers the sagitta, and the rounding of the chords' f32 ends.
        let scale = track.center.abs().max_element() + track.radius;
        let larger = r + RIDE_SEARCH_SAG_REL * r + 4.0 * f32::EPSILON * scale as f32;
        let at = |k: f64| track.position(end * k / pieces).as_vec2();
        if !self.anything_near(track, on, end, larger) {
            return None;
        }
        let counted = Counted {
            layers: self.settings.layers,
            skip: Some(on.obstacle),
            just_met: None,
        };
        let mut k = 0.0;
        while k < pieces {
            let (from, to) = (at(k), at(k + 1.0));
            let time = self.elapsed + (ran.time * k / pieces) as f32;
            let chord = Circle::new(from, larger);
            let found = solid_on(
                chord,
                Course::Straight(to - from),
                self.obstacles,
                counted,
                // A face going on from the arc's end is not met before the end; another
                // obstacle's end at the same point is the same round part; a face that
                // ends on the part, where the ball heads off it, does not hold it.
                |o: &Obstacle, hit: &Hit| {
                    flat_joint(&on.ridden, f64::from(r), &o.shape).is_some()
                        || rides_same(&on.ridden, &o.shape, hit.center, r)
                        || ends_on(&on.ridden, f64::from(r), &o.shape, hit.center, to - from)
                },
                |id, hit| {
                    watch.hit(&leg_hit(id, hit, time, 0.0, Vec2::ZERO, true));
                },
            );
            if let Some(solid) = found {
                let (a, b) = (end * k / pieces, end * (k + 1.0) / pieces);
                let angle = angle_near(track, solid.hit.center, a).clamp(a.min(b), a.max(b));
                return Some(Ahead { solid, angle });
            }
            k += 1.0;
        }
        None
    }

    /// Whether any obstacle but the ridden one, on the ball's layers, lies near the arc
    /// from angle 0 to `end` for a ball of radius `larger`: the box of the whole circle
    /// when the arc turns a quarter or more, else of its ends and its bulge.
    fn anything_near(&self, track: &Track, on: RideOn, end: f64, larger: f32) -> bool {
        let reach = if end.abs() >= 0.5 * PI {
            Aabb::new(track.center.as_vec2(), track.center.as_vec2()).inflated(track.radius as f32)
        } else {
            let ends = [0.0, 0.5 * end, end].map(|a| track.position(a).as_vec2());
            let bulge = (track.radius * (1.0 - (0.5 * end).cos())) as f32;
            Aabb::new(
                ends[0].min(ends[1]).min(ends[2]),
                ends[0].max(ends[1]).max(ends[2]),
            )
            .inflated(bulge)
        }
        .inflated(larger);
        let mut any = false;
        self.obstacles.query(reach, |id, o| {
            any |= id != on.obstacle && self.settings.layers.interacts(o.layers);
        });
        any
    }

    /// The contact with the obstacle a ride's search found, as the ball touches it from its
    /// centre now: the surface's point nearest it and the normal from there.
    fn touching(&self, mut solid: Solid) -> Solid {
        let center = self.out.center;
        let with = ContactWith::Obstacle(solid.id);
        let surface = still_wall(self.obstacles, with, solid.hit.point).and_then(|s| s.surface_near(center));
        solid.hit = Hit {
            toi: 0.0,
            center,
            point: surface.map_or(solid.hit.point, |s| s.point),
            normal: surface.map_or(solid.hit.normal, |s| s.normal),
        };
        solid
    }
}

/// The ride's angle of `center` (about the track's centre), taken within half a turn of
/// `near`.
fn angle_near(track: &Track, center: Vec2, near: f64) -> f64 {
    let d = center.as_dvec2() - track.center;
    let angle = track.zero.perp_dot(d).atan2(track.zero.dot(d));
    near + (angle - near + PI).rem_euclid(TAU) - PI
}

/// Tell `watch` the legs of the run `ran` (from angle 0), as chords of at most
/// [`MAX_RIDE_STEP_ANGLE`] each, of equal time.
fn watch_ride(track: &Track, ran: &Run, watch: &mut impl SweepWatch) {
    if !(ran.time > 0.0) {
        return;
    }
    let end = ran.state.angle;
    let pieces = (end.abs() / MAX_RIDE_STEP_ANGLE).ceil().max(1.0);
    let duration = (ran.time / pieces) as f32;
    let mut k = 0.0;
    while k < pieces {
        let from = track.position(end * k / pieces).as_vec2();
        let to = track.position(end * (k + 1.0) / pieces).as_vec2();
        watch.leg(PathLeg {
            start: from,
            curve: Parabola::new((to - from) / duration, Vec2::ZERO, duration),
        });
        k += 1.0;
    }
}
