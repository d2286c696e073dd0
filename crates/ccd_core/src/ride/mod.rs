//! Contacts that last on a circle: a ball pressed onto a pillar, a round end, or an arc
//! from outside or inside rides it, its centre on a circle, until the press vanishes, the
//! round part ends, or it meets something else.
//!
//! | part | file |
//! |---|---|
//! | which circle a contact rides, and over which angles ([`Ridden`], [`ridden`]) | `mod.rs` |
//! | the motion on it, solved in f64, and the events that end it ([`run`]) | `motion.rs` |
//! | a face going on flat from a ridden arc's end, and the arc a slide runs into ([`flat_joint`], [`arc_joining`]) | `joint.rs` |
//! | where a ride's run leaves the ball in f32, at a step's end ([`in_f32`]) | `place.rs` |
//! | the event machinery's ball beside another ball on an arc's inside, chord by chord | `chord.rs` |
//!
//! The lone sweep (`bounce/ride_leg.rs`) and the event machinery (`multiball/round.rs`,
//! its exact ride cut into chords whose ends are events) both ride exactly, from the same
//! start ([`track_from`]). Two balls of the event machinery pressed together on one
//! part ride it as one track ([`Track::half_gap`], "Two balls together" in `motion.rs`;
//! `multiball/round_pair.rs`); a ball that meets another on an arc's inside within a step
//! follows it along chords of its own (see `meet.rs`).
//!
//! A ball here is a sliding disc with no spin: it slides round a curve as it slides on a
//! face, and friction is a deceleration `μ·N/m` along its path.

mod chord;
mod joint;
mod motion;
mod place;

pub(crate) use chord::{Chord, grazes_inside, ride_chord, ride_radius, rides_at_most};
pub(crate) use joint::{arc_joining, ends_on, flat_joint};
pub(crate) use motion::{RideState, Run, RunEnd, RunLimits, Track, run};
pub(crate) use place::in_f32;

use crate::obstacle::ObstacleShape;
use crate::shape::Segment;
use crate::tolerance::{END_FOOT_SLOP_REL, TOUCH_SLOP_REL};
use glam::{DVec2, Vec2};
use std::f64::consts::TAU;

/// The circle a ball's centre rides on a round part, and the part's angles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ridden {
    /// The round part's centre.
    pub(crate) center: DVec2,
    /// The radius of the circle the ball's centre rides, `L`.
    pub(crate) radius: f64,
    /// On the inside of the round part (a bowl), not its outside (a post).
    pub(crate) inside: bool,
    /// The directions from the centre that bound the part, counter-clockwise from the
    /// first to the second (`None`: the whole circle).
    pub(crate) span: Option<[DVec2; 2]>,
}

impl Ridden {
    /// The part's angle range as seen from the unit direction `zero` (the ride's angle
    /// 0): `(low, high)` with `low ≤ 0 ≤ high`; infinite for a whole circle. A `zero` just
    /// outside the range (by rounding) is taken as at its nearer end.
    pub(crate) fn angles_from(&self, zero: DVec2) -> (f64, f64) {
        let Some([from, to]) = self.span else {
            return (f64::NEG_INFINITY, f64::INFINITY);
        };
        let turn = |a: DVec2, b: DVec2| a.perp_dot(b).atan2(a.dot(b)).rem_euclid(TAU);
        let total = match turn(from, to) {
            0.0 => TAU,
            t => t,
        };
        let mut x = turn(from, zero);
        if x > total {
            x = if x - total < TAU - x { total } else { 0.0 };
        }
        (-x, total - x)
    }
}

/// The circle a ball of `radius` centred at `center` rides on `shape`, if it touches a
/// round part there: a pillar, a segment's, capsule's or chain edge's end, an arc's curve
/// from either side, or an arc's end. `None` on a flat face (the ball slides there) or for
/// an inside too tight to hold the ball.
pub(crate) fn ridden(shape: &ObstacleShape, center: Vec2, radius: f32) -> Option<Ridden> {
    // A point on a point (a ball of no radius at a segment's end) rides no circle.
    ridden_any(shape, center, radius).filter(|r| r.radius > 0.0 && r.radius.is_finite())
}

/// Whether the round part of `shape` that a ball of `radius` centred at `center` touches
/// is the circle `ridden`, from the same side, its centre and radius within the touch slop
/// of the ball's: two segments' or capsules' ends at one point (a polygon's separate
/// edges at a vertex, a slingshot's rubber beside its kicking face) are one round part,
/// and riding one the ball touches the other without meeting it. (Taken as another
/// surface, the other held the ball with the first, so that it did not ride, and the ride
/// met it at once: a ball let go just off such a point hopped on it to the bounce cap,
/// step after step, and never fell.)
pub(crate) fn rides_same(ridden: &Ridden, shape: &ObstacleShape, center: Vec2, radius: f32) -> bool {
    let slop = f64::from(TOUCH_SLOP_REL * radius);
    ridden_any(shape, center, radius).is_some_and(|other| {
        other.inside == ridden.inside
            && other.center.distance(ridden.center) <= slop
            && (other.radius - ridden.radius).abs() <= slop
    })
}

/// [`ridden`], before its circle is checked.
fn ridden_any(shape: &ObstacleShape, center: Vec2, radius: f32) -> Option<Ridden> {
    let r = f64::from(radius);
    let p = center.as_dvec2();
    let (core, rounding) = match *shape {
        ObstacleShape::Circle(c) => {
            return Some(Ridden {
                center: c.center.as_dvec2(),
                radius: f64::from(c.radius) + r,
                inside: false,
                span: None,
            });
        }
        ObstacleShape::Arc(arc) => return arc_ridden(arc, p, r),
        ObstacleShape::Segment(s) => (s, 0.0),
        ObstacleShape::Edge(e) => (e.segment, 0.0),
        ObstacleShape::Capsule(c) => (c.segment, c.radius),
    };
    let on_face = shape.face_near(center).is_some() && end_near(core, p).is_none();
    (!on_face).then(|| end_ridden(core, f64::from(rounding), p, r))
}

/// The end of `segment` the foot of `p` lies at, within [`END_FOOT_SLOP_REL`] of the
/// coordinates' scale, if any; for a segment of no length, its point.
fn end_near(segment: Segment, p: DVec2) -> Option<DVec2> {
    let (a, b) = (segment.a.as_dvec2(), segment.b.as_dvec2());
    let length = (b - a).length();
    if !(length > 0.0) {
        return Some(a);
    }
    let along = (p - a).dot(b - a) / length;
    let scale = p
        .abs()
        .max_element()
        .max(a.abs().max_element())
        .max(b.abs().max_element());
    let slop = f64::from(END_FOOT_SLOP_REL) * scale;
    if along <= slop {
        Some(a)
    } else if along >= length - slop {
        Some(b)
    } else {
        None
    }
}

/// Whether a ball centred at `center`, moving at `velocity`, is at an end of `face` and
/// heading past it (off the face, onto the end's round cap).
pub(crate) fn heads_off_end(face: Segment, center: Vec2, velocity: Vec2) -> bool {
    let p = center.as_dvec2();
    end_near(face, p).is_some_and(|end| {
        let other = if end == face.a.as_dvec2() { face.b } else { face.a };
        velocity.as_dvec2().dot(end - other.as_dvec2()) > 0.0
    })
}

/// The end of `segment` nearer `p`, rounded by `rounding`, as a ball of radius `r` rides
/// it: the half turn facing away from the segment.
fn end_ridden(segment: Segment, rounding: f64, p: DVec2, r: f64) -> Ridden {
    let (a, b) = (segment.a.as_dvec2(), segment.b.as_dvec2());
    let (end, other) = if (p - a).dot(b - a) <= 0.0 { (a, b) } else { (b, a) };
    Ridden {
        center: end,
        radius: rounding + r,
        inside: false,
        span: half_turn_away(end - other),
    }
}

/// The half turn of directions whose dot product with `away` is not negative, or `None`
/// for a zero `away` (a point: the whole circle).
fn half_turn_away(away: DVec2) -> Option<[DVec2; 2]> {
    let axis = away.try_normalize()?;
    Some([-axis.perp(), axis.perp()])
}

/// What a ball of radius `r` centred at `p` rides on `arc`: its curve from inside or
/// outside within the arc's angles, or beyond them, the nearer end's round cap.
fn arc_ridden(arc: crate::shape::CircleArc, p: DVec2, r: f64) -> Option<Ridden> {
    let c = arc.center.as_dvec2();
    let (big, band) = (f64::from(arc.radius), f64::from(arc.thickness));
    let frame = arc.frame();
    if frame.holds(p - c) {
        return arc_curve(arc, (p - c).length() < big, r);
    }
    let (start, end) = (c + frame.start_dir * big, c + frame.end_dir * big);
    // Away from the arc at each end: back along the curve's tangent there.
    let (cap, away) = if (p - start).length_squared() <= (p - end).length_squared() {
        (start, -frame.start_dir.perp())
    } else {
        (end, frame.end_dir.perp())
    };
    Some(Ridden {
        center: cap,
        radius: band + r,
        inside: false,
        span: half_turn_away(away),
    })
}

/// The circle a ball of radius `r` rides on the curve of `arc`, from its inside or its
/// outside; `None` for an inside too tight to hold the ball.
pub(crate) fn arc_curve(arc: crate::shape::CircleArc, inside: bool, r: f64) -> Option<Ridden> {
    let (big, band) = (f64::from(arc.radius), f64::from(arc.thickness));
    let frame = arc.frame();
    let radius = if inside { big - band - r } else { big + band + r };
    (radius > 0.0).then_some(Ridden {
        center: arc.center.as_dvec2(),
        radius,
        inside,
        span: (!arc.is_full_turn()).then_some([frame.start_dir, frame.end_dir]),
    })
}

/// The unit direction from `ridden`'s centre to `p` (`None` at the centre).
#[inline]
pub(crate) fn zero_at(ridden: &Ridden, p: DVec2) -> Option<DVec2> {
    (p - ridden.center).try_normalize()
}

/// Where a ride starts: the ball's centre and velocity, the speed it rides at, and
/// whether it has just landed on the part (else it goes on from a ride's end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Start {
    pub(crate) position: DVec2,
    pub(crate) velocity: DVec2,
    pub(crate) speed: f64,
    pub(crate) landed: bool,
}

/// The track of `ridden` (of `friction`, under `gravity`) from `start` (its angle 0
/// there), and the ball's state on it; `None` for a start on the round part's centre.
///
/// The centre is put on the exact circle (it is off by the f32 rounding of where it
/// landed), and the speed changed by what gravity's work over that move would: the ride
/// keeps the ball's energy, which a bare projection, step after step, would not (7e-5 of
/// it gained over 2,800 steps of a slide off a post at 1 kHz). Not for a landing from the
/// free side: that move is the rest of a fall whose speed the landing took.
pub(crate) fn track_from(
    ridden: &Ridden,
    friction: f32,
    gravity: DVec2,
    start: Start,
) -> Option<(Track, RideState)> {
    let Start {
        position: p,
        velocity: v,
        speed,
        landed,
    } = start;
    let zero = zero_at(ridden, p)?;
    let track = Track {
        center: ridden.center,
        radius: ridden.radius,
        inside: ridden.inside,
        gravity,
        friction: f64::from(friction),
        zero,
        half_gap: 0.0,
    };
    let along = v.dot(zero.perp());
    // A landing from the free side fell that far before it touched, and the landing took
    // the fall's speed (`meet.rs`): its move on the circle gains nothing.
    let free_side = (p - track.center).length() < track.radius;
    let speed = if landed && free_side == track.inside {
        speed
    } else {
        place::with_work(DVec2::X * speed, track.gravity.dot(track.position(0.0) - p)).x
    };
    let rate = if along == 0.0 {
        0.0
    } else {
        along.signum() * speed / ridden.radius
    };
    Some((track, RideState { angle: 0.0, rate }))
}

/// Which way a ride from `start` goes (±1): its rate's, or from rest, gravity's pull's;
/// `None` when it stays at rest (no pull, or friction holds it).
pub(crate) fn heading(track: &Track, start: RideState) -> Option<f64> {
    if start.rate != 0.0 {
        return Some(start.rate.signum());
    }
    let pull = track.pull(start.angle);
    (pull != 0.0 && !track.holds_at_rest(start.angle)).then(|| pull.signum())
}

#[cfg(test)]
mod tests;
