//! What a ball does when it meets a surface (a wall, a moving part or a hinged body's
//! part): one decision, [`meet`], which the lone sweep (`bounce.rs`) and the event
//! machinery (`multiball/obstacle_contact.rs`) both call. Each gives it what the ball met
//! and answers its questions about the surroundings ([`Surroundings`]); each then carries
//! the outcome ([`Met`]) into its own state.
//!
//! The decision, in order:
//!
//! 1. **Restitution**: the combined material's at the approach speed (relative to the
//!    surface), 0 for a contact slower than the resting speed, and 0 for a ball that
//!    slides or stops ([`ResponseMode`]).
//! 2. **A second surface** the ball touches at the same instant, facing the first: its
//!    last contact, a moment ago, or a surface within touching distance now
//!    ([`second_surface`]). The two are one contact: a *corner*, or a *squeeze* when they
//!    close in on the ball.
//! 3. **Hinged bodies**: a part the ball pushes takes the impulse exchange, or one contact
//!    with its stop and the second surface ([`Surroundings::push`]).
//! 4. **The response** otherwise: bounce (with the surface's kick), slide or stop,
//!    relative to the surface; a corner or a squeeze as one contact.
//! 5. **Chords**: in the event machinery, a ball beside another ball that grazes the
//!    inside of a still arc goes on along the next chord (`ride/chord.rs`); every other
//!    ball rides it exactly (its rest, 8).
//! 6. **The speed limit** ([`limit_speed`]).
//! 7. **The bounce cap** ([`Bounces`]), raised in a corner by the bounces an elastic ball
//!    can take there ([`corner_bounces`]), and along chords by the contacts the chords
//!    left in the step bring ([`chord_contacts`]); a ball that stops dead on a still
//!    surface halts too.
//! 8. **Rest**, under gravity ([`Rest`]), by the caller's [`RestRule`]. Both rides a
//!    wall's round part it lands on too slowly to hop, or grazes from inside, alone
//!    (`ride/`; the event machinery's ball must be in flight and touch no other ball).
//!    On a face the two come to rest by two rules, each written here once: a lone ball
//!    slides on a face it lands on too slowly to hop (and is held still in a wedge of two
//!    faces); an event ball in flight that lands slower than the resting speed is held
//!    still where it slid into a face that wedges it with the face it slid on (the
//!    bottom of a V), slides on the face of one still surface, and elsewhere *settles*:
//!    it takes the rest of the step's gravity at once and moves on straight, and the
//!    resting contacts hold it. A face's end where another face goes on flat (a seam, a
//!    chain's flat joint) is no round part of its own: a ball that lands there lands on
//!    the faces (`Facts::seam_face`).
//!    (One rule for both changed the classic pinball table: a ball wedged in a corner
//!    took 1,968 capped steps in 300 s.)

use crate::ball::Ball;
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::instant::ONE_BALL_HINGES;
use crate::material::Material;
use crate::obstacle::{Obstacle, ObstacleShape};
use crate::response::{
    ResponseMode, Surface, TwoSurfaces, contact_restitution, limit_speed, respond, rested, rough_pull,
    rub_across, rub_on_surface, slide_along, two_surfaces,
};
use crate::ride::{
    Chord, Ridden, ends_on, flat_joint, grazes_inside, heads_off_end, ridden, ride_chord, ride_radius,
    rides_at_most, rides_same,
};
use crate::shape::{Aabb, Segment, is_point};
use crate::tolerance::{CHAIN_VERTEX_SLOP_REL, MAX_WEDGE_BOUNCES, SIMULTANEOUS_TIME_REL, TOUCH_SLOP_REL};
use glam::Vec2;

/// What the caller's world answers while a ball meets a surface: which other surfaces are
/// near it, which hold still, and what a hinged body does when the ball pushes it.
pub(crate) trait Surroundings {
    /// Calls `visit` with every solid surface whose box may meet `area`, walls first, then
    /// (if `moving`) the moving parts: what it is, the obstacle where it is at the
    /// contact's instant, and the velocity of its surface's point nearest `center`.
    fn surfaces_near(
        &self,
        area: Aabb,
        center: Vec2,
        moving: bool,
        visit: impl FnMut(ContactWith, &Obstacle, Vec2),
    );

    /// Whether a moving part's swept box meets `area`.
    fn moving_near(&self, area: Aabb) -> bool;

    /// The shape of `with`, looked up near `point`, if it holds still over the step (a
    /// wall, or a moving part that does not move this step).
    fn still_shape(&self, with: ContactWith, point: Vec2) -> Option<ObstacleShape>;

    /// The ball pushes a hinged body: `touch`, with the `second` surface it touches, if
    /// any. `Some` with the ball's new velocity and the bodies turned anew when a hinged
    /// body takes part; `None` when none does (the surfaces' response applies).
    fn push(&mut self, touch: Touch, second: Option<SurfaceOf>) -> Option<Pushed>;
}

/// The rules a contact follows, from the step's settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// The step, seconds.
    pub(crate) dt: f32,
    /// Approach speed below which a contact does not bounce, units/s.
    pub(crate) resting_speed: f32,
    /// The step's gravity, units/s².
    pub(crate) gravity: Vec2,
}

/// What a ball met, and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meeting {
    /// What it met.
    pub(crate) with: ContactWith,
    /// Where: `hit.center` is the ball's centre, `hit.normal` points towards it.
    pub(crate) hit: Hit,
    /// Seconds since the step's start.
    pub(crate) time: f32,
    /// The surface's material.
    pub(crate) material: Material,
    /// The velocity of the surface's point under the ball (zero for a wall).
    pub(crate) surface_velocity: Vec2,
    /// How the ball may come to rest here under gravity.
    pub(crate) rule: RestRule,
}

/// The rule by which a ball comes to rest at a contact under gravity: the lone sweep's or
/// the event machinery's (see the [module](self) docs, item 8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RestRule {
    /// A lone ball (`bounce.rs`). It slides on the face it met when gravity presses it on
    /// and it leaves no faster than a hop that is over within an instant
    /// ([`SIMULTANEOUS_TIME_REL`] of the step), or at any speed when it came slower than
    /// the resting speed or than a fall from within the touch slop gives. Slid into a
    /// second face, or into a corner, that holds it against gravity, it is held there.
    Lone {
        /// The contact is with a face (not a round part: an end or a pillar).
        on_face: bool,
        /// The normal of the face it was sliding on, if it was.
        sliding_on: Option<Vec2>,
        /// Its slide ended a moment ago (off a face's end at a seam or a joint, or at the
        /// next face's end cap there), and it has not slid since: landing on the next
        /// face, it slides on at the speed it came.
        ran_off: bool,
    },
    /// A ball of the event machinery. In flight (or any, without gravity), meeting a wall's
    /// round part alone, it rides it as a lone ball does; beside another ball, it follows
    /// the inside of an arc it grazes along chords (`ride/chord.rs`). In flight, it comes
    /// to rest where gravity presses it on and it came slower than the resting speed or
    /// than a fall from within the touch slop gives: held still where the face it slid
    /// into this instant and this one wedge it against gravity (the bottom of a V), as a
    /// lone ball is; else it slides on the face of one still surface, no corner and no
    /// hinged body, unless friction holds it there; anywhere else it settles.
    Event {
        /// It was in flight (on its parabola), not settled or sliding.
        in_flight: bool,
        /// The normal of the face it slid on till this instant, where that face and this
        /// surface wedge it against gravity ([`wedged`]); it then meets this one in flight.
        sliding_on: Option<Vec2>,
        /// It touches another ball (asked only where it may graze a round part's inside:
        /// [`rides_at_most`]). Ridden, the part's curve would turn it into that ball at
        /// once, and the two would meet again and again at one instant.
        beside_ball: bool,
        /// How fast it was leaving the surface at its leg's start, where that is no more
        /// than the separation bias a rest leaves (then gravity took it over its flight, and
        /// the landing's friction takes it too); else 0.
        left_with: f32,
    },
}

/// A surface a ball touches, and whose it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SurfaceOf {
    pub(crate) with: ContactWith,
    pub(crate) surface: Surface,
}

/// A ball's contact with a surface, as a hinged body's push needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch {
    /// The ball (its centre and velocity at the contact).
    pub(crate) ball: Ball,
    /// The contact's instant, seconds since the step's start.
    pub(crate) time: f32,
    /// What the ball met.
    pub(crate) with: ContactWith,
    /// Its surface there, with the contact's restitution.
    pub(crate) surface: Surface,
    /// Where.
    pub(crate) hit: Hit,
    /// The surface's material.
    pub(crate) material: Material,
    /// The approach speed along the normal, relative to the surface.
    pub(crate) approach: f32,
}

/// What a push of hinged bodies did: the ball's new velocity, and the box of each body
/// turned anew (whose nearby balls must be predicted again).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pushed {
    pub(crate) velocity: Vec2,
    pub(crate) turned: [Option<Aabb>; ONE_BALL_HINGES],
}

/// A ball's bounces so far in the step: how many, how many it may take before it waits
/// (the cap, raised in corners and along chords), and the last one with a wall or a
/// moving part.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Bounces {
    pub(crate) count: u32,
    pub(crate) allowed: u32,
    pub(crate) last: Option<LastContact>,
}

impl Bounces {
    /// None yet, `allowed` allowed.
    pub(crate) fn new(allowed: u32) -> Self {
        Self {
            count: 0,
            allowed,
            last: None,
        }
    }

    /// Whether the cap is reached: the ball waits at its last contact.
    #[inline]
    pub(crate) fn capped(&self) -> bool {
        self.count >= self.allowed.min(MAX_WEDGE_BOUNCES)
    }

    /// Raise the cap to `more` contacts beyond those taken so far, where the geometry
    /// bounds them (a corner's bounces, an arc's chords); never lower it. [`capped`]
    /// holds it to [`MAX_WEDGE_BOUNCES`].
    ///
    /// [`capped`]: Self::capped
    #[inline]
    pub(crate) fn allow(&mut self, more: u32) {
        self.allowed = self.allowed.max(self.count.saturating_add(more));
    }
}

/// A ball's last solid contact with a wall or a moving part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LastContact {
    pub(crate) with: ContactWith,
    pub(crate) normal: Vec2,
    pub(crate) surface_velocity: Vec2,
    /// The contact's restitution ([`contact_restitution`]).
    pub(crate) restitution: f32,
    /// Seconds since the step's start.
    pub(crate) time: f32,
}

/// A ball squeezed between two surfaces closing in on it: it ignores the faster for the
/// rest of the step, and is pushed out of it at the step's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Squeeze {
    /// The faster surface.
    pub(crate) faster: ContactWith,
    /// Its normal towards the ball when the squeeze began (which side the ball is on).
    pub(crate) faster_normal: Vec2,
    /// The slower surface, which the ball keeps to.
    pub(crate) slower: ContactWith,
    pub(crate) slower_normal: Vec2,
}

/// Why a ball waits at its contact for the rest of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// It reached the bounce cap.
    Capped,
    /// It stops ([`ResponseMode::Stop`]) on a surface that does not move.
    Stopped,
}

/// How a ball comes to rest at a contact ([`RestRule`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Rest {
    /// On this face: it slides along it until its foot leaves it, at `acceleration`
    /// (gravity's part along the face) less `friction`, kinetic friction's steady
    /// deceleration `μ·N/m` against its motion, units/s². (The event machinery's
    /// `acceleration` is its slide's whole pull, friction in it, and keeps the separation
    /// bias; its `friction` says where the slide stops.)
    Slide {
        face: Segment,
        acceleration: Vec2,
        friction: f32,
    },
    /// Anywhere else (event machinery): the rest of the step's gravity at once, then
    /// straight.
    Settle,
    /// Wedged between two faces that hold it against gravity (the lone sweep's, and the
    /// event machinery's where it slid into the second): at rest for the rest of the
    /// step, carrying none of its gravity.
    Held,
    /// On a round part: it rides the circle `ridden` of `on` (the surface met, or the
    /// round part a face met at its end ends on: [`lip_beyond`]), with `friction` (the
    /// materials' combined coefficient), as `ride/` solves it, from `speed` (in f64: the
    /// ball's own, not its f32 velocity's after the contact, so that a ride's energy
    /// takes no rounding at each step's landing).
    Ride {
        on: ContactWith,
        ridden: Ridden,
        friction: f32,
        speed: f64,
    },
    /// Off a round part's outside along its tangent, where the press would not hold it
    /// it flies on from just clear of it, curving less than the part.
    Leaves,
}

/// What a ball does after meeting a surface.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Met {
    /// Its velocity from the contact on.
    pub(crate) velocity: Vec2,
    /// The approach speed along the normal, relative to the surface (what the contact
    /// report gives).
    pub(crate) approach: f32,
    /// The normal speed the surface's kick added (0 when it did not fire).
    pub(crate) kick: f32,
    /// Squeezed between two surfaces closing in.
    pub(crate) squeeze: Option<Squeeze>,
    /// A hinged body took part.
    pub(crate) pushed: bool,
    /// The boxes of the hinged bodies the push turned anew.
    pub(crate) turned: [Option<Aabb>; ONE_BALL_HINGES],
    /// It waits for the rest of the step.
    pub(crate) halt: Option<Halt>,
    /// It comes to rest there.
    pub(crate) rest: Option<Rest>,
}

/// Ball `ball` (its centre and velocity those of the contact's instant) meets a surface as
/// `meeting` says, with its `bounces` so far (updated): what it does, step by step as the
/// [module](self) docs list them.
pub(crate) fn meet(
    world: &mut impl Surroundings,
    ball: &Ball,
    meeting: &Meeting,
    rules: &Rules,
    bounces: &mut Bounces,
) -> Met {
    let facts = Facts::new(ball, meeting, rules);
    // A lone ball looks for a second face at any response: it may hold a slide still.
    let second = match (ball.response, meeting.rule) {
        (ResponseMode::Bounce, _) | (_, RestRule::Lone { .. }) => {
            second_surface(&*world, &facts, bounces.last)
        }
        _ => None,
    };
    let mut met = facts.push_or_respond(world, second);
    // The event machinery's ball beside another ball that grazes the inside of a still
    // arc follows it along chords: it neither rests nor settles there. One in flight
    // that lands there (gravity presses it in, too slowly to hop) comes to rest as on
    // any surface: gravity bends a chord's flight back onto the arc at once (3e-5 s
    // on a bowl's bottom), and it met the arc again and again to the bounce cap.
    let chord = match (meeting.with, second, ball.response, meeting.rule) {
        (
            ContactWith::Obstacle(_),
            None,
            ResponseMode::Bounce,
            RestRule::Event {
                beside_ball: true,
                in_flight,
                ..
            },
        ) if !(in_flight && facts.lands(&met)) => ride(&*world, &facts, met.velocity),
        _ => None,
    };
    if let Some(chord) = chord {
        bounces.allow(chord_contacts(chord, rules.dt - meeting.time));
    }
    met.velocity = limit_speed(chord.map_or(met.velocity, |c| c.velocity), ball.max_speed);
    met.halt = facts.count(bounces);
    met.rest = facts.rest(&*world, &mut met, second, chord.is_some());
    met
}

/// What a contact is, before anything is decided: the ball, what it met and how, the
/// rules, the materials combined, the approach speed relative to the surface, and the
/// surface with the contact's restitution.
struct Facts<'a> {
    ball: &'a Ball,
    meeting: &'a Meeting,
    rules: &'a Rules,
    combined: Material,
    approach: f32,
    this: Surface,
}

impl<'a> Facts<'a> {
    /// The facts of `ball` meeting `meeting`'s surface under `rules`.
    fn new(ball: &'a Ball, meeting: &'a Meeting, rules: &'a Rules) -> Self {
        let combined = ball.material.combine(meeting.material);
        let normal = meeting.hit.normal;
        let approach = -(ball.velocity - meeting.surface_velocity).dot(normal);
        let this = Surface {
            normal,
            velocity: meeting.surface_velocity,
            restitution: match ball.response {
                ResponseMode::Bounce => contact_restitution(combined, approach, rules.resting_speed),
                ResponseMode::Slide | ResponseMode::Stop => 0.0,
            },
        };
        Self {
            ball,
            meeting,
            rules,
            combined,
            approach,
            this,
        }
    }

    /// The hinged bodies' push, if one takes part (a ball that stops pushes none); else the
    /// surfaces' response ([`response`]).
    fn push_or_respond(&self, world: &mut impl Surroundings, second: Option<SurfaceOf>) -> Met {
        let Meeting {
            with,
            hit,
            time,
            material,
            ..
        } = *self.meeting;
        let pushed = match self.ball.response {
            ResponseMode::Stop => None,
            _ => {
                let touch = Touch {
                    ball: *self.ball,
                    time,
                    with,
                    surface: self.this,
                    hit,
                    material,
                    approach: self.approach,
                };
                world.push(touch, second)
            }
        };
        match pushed {
            // A hinged body takes no kick: its impulse is the whole exchange.
            Some(p) => Met {
                velocity: p.velocity,
                turned: p.turned,
                pushed: true,
                ..Met::new(self.approach)
            },
            None => response(self, second),
        }
    }

    /// Count the contact against the ball's `bounces` ([`count`]); why it waits, if it
    /// does: at the cap, or stopped dead on a still surface.
    fn count(&self, bounces: &mut Bounces) -> Option<Halt> {
        let meeting = self.meeting;
        let stops_dead = self.ball.response == ResponseMode::Stop && meeting.surface_velocity == Vec2::ZERO;
        let this = LastContact {
            with: meeting.with,
            normal: self.this.normal,
            surface_velocity: meeting.surface_velocity,
            restitution: self.this.restitution,
            time: meeting.time,
        };
        let capped = count_contact(bounces, this);
        if stops_dead { Some(Halt::Stopped) } else { capped }
    }

    /// Whether and how the ball comes to rest, by the meeting's [`RestRule`], with its
    /// velocity then (`met.velocity` changed to suit): `second` is the surface it touches
    /// at the same instant, if any; `chord` when it follows an arc along chords.
    fn rest(
        &self,
        world: &impl Surroundings,
        met: &mut Met,
        second: Option<SurfaceOf>,
        chord: bool,
    ) -> Option<Rest> {
        match self.meeting.rule {
            RestRule::Lone {
                on_face,
                sliding_on,
                ran_off,
            } if met.halt.is_none()
                && (on_face || (self.lands(met) && self.at_seam(world)))
                && !(ran_off && self.heads_off_end(world, met)) =>
            {
                let cornered = second.map(|s| s.surface.normal);
                let rest = self.lone_rest(world, met, cornered, sliding_on);
                if ran_off && matches!(rest, Some(Rest::Slide { .. })) {
                    self.keep_speed(met);
                }
                rest
            }
            RestRule::Lone { .. } if met.halt.is_none() && second.is_none() => self.round_rest(world, met),
            RestRule::Event { .. } if chord => None,
            RestRule::Event {
                in_flight,
                sliding_on,
                left_with,
                beside_ball,
            } => {
                // A ball in flight (or any, without gravity) that meets a wall's round part
                // alone rides it as a lone ball does; on a face, or settled, the event rule.
                let round = !beside_ball
                    && met.halt.is_none()
                    && second.is_none()
                    && !met.pushed
                    && matches!(self.meeting.with, ContactWith::Obstacle(_))
                    && (in_flight || self.rules.gravity == Vec2::ZERO)
                    // What `round_rest` asks first, by arithmetic alone: it lands, or may
                    // graze (a bounce, most contacts, looks up no shape).
                    && (self.lands(met) || rides_at_most(self.approach, self.ball.velocity));
                match round.then(|| self.round_rest(world, met)).flatten() {
                    Some(rest) => Some(rest),
                    None if in_flight => self.event_rest(world, met, second.is_some(), sliding_on, left_with),
                    None => None,
                }
            }
            _ => None,
        }
    }

    /// Whether the ball met a face's end at a seam ([`Facts::seam_face`]). Asked of a lone
    /// ball's round contacts only where it lands: most are bounces, and a lookup each
    /// cost 0.7% of the lone 2,000-ball pit.
    fn at_seam(&self, world: &impl Surroundings) -> bool {
        world
            .still_shape(self.meeting.with, self.meeting.hit.point)
            .is_some_and(|shape| self.seam_face(world, &shape).is_some())
    }

    /// The face a ball lands on where it met a face (a segment or a chain's edge) at its
    /// end, its foot there (to the touch slop or the f32 rounding), and another still face
    /// goes on flat from that end ([`Segment::flat_beyond`]): at such a seam the end is no
    /// round part of its own. The face it heads onto (past the end, by its velocity or from
    /// rest by gravity, the other one; else its own), reaching a touch slop across the seam
    /// so that the foot stands on it. (Met as the end's round part, a ball let go at rest
    /// exactly over a seam rode it, off the faces' line, 8e-4 of its speed fast at 30 Hz,
    /// and over some of a chain's joints met the point again and again, to the bounce cap.
    /// On its face's very end, its slide ran off at once, and the landing beyond turned its
    /// fall along the face: 6e-4 fast.)
    fn seam_face(&self, world: &impl Surroundings, shape: &ObstacleShape) -> Option<Segment> {
        let Facts {
            ball, meeting, rules, ..
        } = *self;
        let face = shape.line()?;
        let (end, near) = if is_point(meeting.hit.point, face.a) {
            (face.a, face.b)
        } else if is_point(meeting.hit.point, face.b) {
            (face.b, face.a)
        } else {
            return None;
        };
        let mut far = None;
        world.surfaces_near(Aabb::new(end, end), ball.center, false, |candidate, o, _| {
            let Some(other) = o.shape.line() else {
                return;
            };
            if far.is_none() && candidate != meeting.with && !o.sensor && ball.layers.interacts(o.layers) {
                far = face.flat_beyond(end, other);
            }
        });
        let far = far?;
        let past = (end - near).try_normalize()?;
        // Its foot at the seam, to the touch slop or the f32 rounding of the coordinates,
        // whichever is more: further off, it is over one face, and met the other's end
        // beside it (sliding, not met at all: `is_seam_end`).
        let slop =
            (TOUCH_SLOP_REL * ball.radius).max(CHAIN_VERTEX_SLOP_REL * end.abs().max_element().max(1.0));
        if !((ball.center - end).dot(past).abs() <= slop) {
            return None;
        }
        let heading = ball.velocity.dot(past);
        let heading = if heading == 0.0 {
            rules.gravity.dot(past)
        } else {
            heading
        };
        let across = past * (TOUCH_SLOP_REL * ball.radius);
        Some(if heading > 0.0 {
            Segment::new(end - across, far)
        } else {
            Segment::new(near, end + across)
        })
    }

    /// Whether the ball met a face at its end, heading past it (it slid off the end, and
    /// its rounded centre's foot lies a hair inside the face): it rides the end's cap.
    /// Asked only after a slide ran off (`RestRule::Lone::ran_off`): every other face
    /// contact of a lone ball would pay for the lookup (0.9% of the 2,000-ball pit).
    fn heads_off_end(&self, world: &impl Surroundings, met: &Met) -> bool {
        let meeting = self.meeting;
        world
            .still_shape(meeting.with, meeting.hit.point)
            .and_then(|shape| shape.core_segment())
            .is_some_and(|core| heads_off_end(core, meeting.hit.center, met.velocity))
    }

    /// [`RestRule::Lone`]: on the face it met (`cornered`: the normal of a second surface
    /// it met with it, if any; `sliding_on`: that of the face it slid on before).
    fn lone_rest(
        &self,
        world: &impl Surroundings,
        met: &mut Met,
        cornered: Option<Vec2>,
        sliding_on: Option<Vec2>,
    ) -> Option<Rest> {
        let Facts {
            ball, meeting, rules, ..
        } = *self;
        let (g, n) = (rules.gravity, meeting.hit.normal);
        if g == Vec2::ZERO {
            return None;
        }
        if !self.lands(met) {
            return None;
        }
        // At the face's end (its foot past it, or within the f32 rounding of it) the ball
        // lands on the end's round part, or on the part the face ends on ([`lip_beyond`]):
        // it rides it, or flies on along its tangent. (Taken for no rest at all, it flew on
        // and met the face's end again at once, leg after leg, to the bounce cap: a fast
        // ball off a steep slope's lip onto an arc.)
        let shape = world.still_shape(meeting.with, meeting.hit.point)?;
        let Some(face) = self
            .seam_face(world, &shape)
            .or_else(|| shape.face_near(meeting.hit.center))
        else {
            return if cornered.is_none() {
                self.round_rest(world, met)
            } else {
                None
            };
        };
        // A landing on the face alone stops the ball's fall into it: its normal impulse is
        // the approach, whatever the restitution, and friction takes μ times that. (The
        // response's bounce impulse, (1 + e) times it, took it twice at e = 1 at every
        // step's start: 3.4e-4 of the speed lost in 1 s at 1 kHz on a 20° slope. The
        // approach is gravity's press over the flight before, when no friction acted.) In
        // a corner, the two surfaces' response stands. It slides on along the face as it
        // came: where friction took nearly all its speed along the face, the response's
        // part along it was the rounding of what the bounce left along the normal, and its
        // direction was noise (a ball let go on a rough slope slid off it sideways, into
        // it, by 1.6e-4 in one step at 60 Hz).
        let v = met.velocity;
        met.velocity = v - n * v.dot(n);
        if cornered.is_none() && self.combined.friction > 0.0 {
            met.velocity = rub_across(ball.velocity, n, self.combined.friction * met.approach);
        }
        if cornered.or(sliding_on).is_some_and(|other| wedged(n, other, g)) {
            met.velocity = Vec2::ZERO;
            return Some(Rest::Held);
        }
        // Pressed on by gravity's part into the face: N/m = −g·n.
        let friction = self.combined.friction * -g.dot(n);
        Some(Rest::Slide {
            face,
            acceleration: g - n * g.dot(n),
            friction: if friction > 0.0 { friction } else { 0.0 },
        })
    }

    /// A ball that slid off a face's end and lands on the next face slides on at the
    /// speed it came: without friction, a lasting contact does no work (the normal speed
    /// it turns, gained in its fall from the seam, is below the touch slop's), so a slide
    /// across the seams of a slope keeps its energy.
    fn keep_speed(&self, met: &mut Met) {
        if !(self.combined.friction > 0.0)
            && let Some(along) = met.velocity.try_normalize()
        {
            met.velocity = along * self.ball.velocity.length();
        }
    }

    /// Whether the lone ball lands to stay (after the response `met`): gravity presses it
    /// on, and it came slower than the resting speed or than a fall from within the touch
    /// slop gives, or it leaves no faster than a hop that is over within an instant
    /// ([`SIMULTANEOUS_TIME_REL`] of the step; a hop at speed `u` lasts `2u / g_n`).
    fn lands(&self, met: &Met) -> bool {
        let Facts {
            ball, meeting, rules, ..
        } = *self;
        let n = meeting.hit.normal;
        let pressing = -rules.gravity.dot(n);
        let settling = settling_speed(pressing, ball.radius);
        let approach = met.approach;
        let still = approach < rules.resting_speed.max(settling) || !(approach > 0.0);
        let hop_speed = 0.5 * pressing * SIMULTANEOUS_TIME_REL * rules.dt;
        pressing > 0.0 && (still || met.velocity.dot(n) <= hop_speed)
    }

    /// On a round part (a pillar, an end, an arc from either side), by either rule: the
    /// ball rides it (`ride/`) when gravity presses it on and it lands too slowly to hop
    /// (as on a face), or when it grazes the inside of a curve, and the press holds it
    /// there. It goes on along the curve at the speed it came, less what friction took (a
    /// lasting contact does no work; on a landing, the normal speed it turns is below the
    /// touch slop's); where the press would not hold it, it flies on along the tangent.
    fn round_rest(&self, world: &impl Surroundings, met: &mut Met) -> Option<Rest> {
        let Facts {
            ball,
            meeting,
            rules,
            combined,
            approach,
            ..
        } = *self;
        if ball.response == ResponseMode::Stop || meeting.surface_velocity != Vec2::ZERO {
            return None;
        }
        let (g, n) = (rules.gravity, meeting.hit.normal);
        let shape = world.still_shape(meeting.with, meeting.hit.point)?;
        let ridden = ridden(&shape, meeting.hit.center, ball.radius)?;
        // A face's end at a seam is no round part of its own: it lands on the faces.
        if self.seam_face(world, &shape).is_some() {
            return None;
        }
        // Touching another surface that holds it too (a seam's next face, beside the end
        // it met): the two hold it together, and it does not ride the one round part. A
        // face going on from the arc's end is not one: the ride does not reach it before
        // the end.
        let r = f64::from(ball.radius);
        let settling = settling_speed(-g.dot(n), ball.radius);
        let alone = |on: ContactWith, ridden: &Ridden| {
            !touches_another(world, ball, [meeting.with, on], n, settling, |o| {
                flat_joint(ridden, r, &o.shape).is_some()
                    || rides_same(ridden, &o.shape, meeting.hit.center, ball.radius)
                    || ends_on(ridden, r, &o.shape, meeting.hit.center, ball.velocity)
            })
        };
        // A face met at its end, where it ends on a round part the ball heads onto (which
        // touches it there): the part rides it.
        let (on, ridden) = if alone(meeting.with, &ridden) {
            (meeting.with, ridden)
        } else {
            lip_beyond(world, ball, &shape, meeting.hit.center).filter(|(on, part)| alone(*on, part))?
        };
        let lands = self.lands(met);
        let grazes =
            ridden.inside && grazes_inside(approach, ball.velocity, ridden.radius as f32, ball.radius);
        if !(lands || grazes) {
            return None;
        }
        // Its speed as it came, less what friction took from its speed along the surface.
        let tangent = n.perp();
        let along = met.velocity.dot(tangent);
        // None where it lands too slowly to hop: the ride's own friction takes its toll
        // from there on (the landing's impulse would take it again at every step's start,
        // 1.2e-5 of L lower turns at 1 kHz); and none without friction (the f32 rounding
        // of the response's speed along the surface, clipped at zero, would take a little
        // at every landing).
        let friction_loss = if combined.friction > 0.0 && !lands {
            f64::from((ball.velocity.dot(tangent).abs() - along.abs()).max(0.0))
        } else {
            0.0
        };
        // A landing takes the speed across the part (an inelastic touch: it was gained
        // in a fall from within the touch slop, and given along the part it pushed a ball
        // let go a few ulps off a bowl's side along its swing, 2e-4 of a period); a graze
        // of a curve's inside turns it (the chord's approach is the curve's).
        let came = if grazes {
            ball.velocity.as_dvec2().length()
        } else {
            f64::from(ball.velocity.dot(tangent)).abs()
        };
        let speed = (came - friction_loss).max(0.0);
        met.velocity = if along == 0.0 {
            Vec2::ZERO
        } else {
            tangent * (speed as f32 * along.signum())
        };
        let side = if ridden.inside { 1.0 } else { -1.0 };
        let out = if ridden.inside { -n } else { n };
        let press = side * (met.velocity.length_squared() / ridden.radius as f32 + g.dot(out));
        if press > 0.0 {
            Some(Rest::Ride {
                on,
                ridden,
                friction: combined.friction,
                speed,
            })
        } else {
            (!ridden.inside).then_some(Rest::Leaves)
        }
    }

    /// [`RestRule::Event`] for a ball in flight (`corner`: it touches a second surface;
    /// `sliding_on` and `left_with`, as the rule says).
    fn event_rest(
        &self,
        world: &impl Surroundings,
        met: &mut Met,
        corner: bool,
        sliding_on: Option<Vec2>,
        left_with: f32,
    ) -> Option<Rest> {
        let Facts {
            ball,
            meeting,
            rules,
            approach,
            ..
        } = *self;
        let (g, n) = (rules.gravity, meeting.hit.normal);
        let pressing = -g.dot(n);
        if !(pressing > 0.0) {
            return None;
        }
        let settling = settling_speed(pressing, ball.radius);
        if !(approach < rules.resting_speed.max(settling)) {
            return None;
        }
        // Slid into this face, and wedged between the two: both hold it, and gravity with
        // them, so it carries none of the rest of the step's. (Settled with it, it met
        // the face it slid on again at once and bounced that gravity off: at no resting
        // speed a ball let go at the bottom of a V hopped, 0.35 u/s after 10 s at 30 Hz.)
        if sliding_on.is_some_and(|other| wedged(n, other, g)) {
            met.velocity = Vec2::ZERO;
            return Some(Rest::Held);
        }
        let alone = !corner && !met.pushed && meeting.surface_velocity == Vec2::ZERO;
        let face = alone
            .then(|| world.still_shape(meeting.with, meeting.hit.point))
            .flatten()
            .and_then(|shape| {
                self.seam_face(world, &shape)
                    .or_else(|| shape.face_near(meeting.hit.center))
            });
        if let Some(face) = face
            && let Some(rest) = self.event_slide(face, met, left_with)
        {
            return Some(rest);
        }
        met.velocity += g * (rules.dt - meeting.time);
        Some(Rest::Settle)
    }

    /// [`RestRule::Event`] on `face`, the face of one still wall the ball lands on alone,
    /// pressed on by gravity, leaving it at `left_with` at its leg's start
    /// ([`RestRule::Event`]): it slides on along it, at gravity's part along it less
    /// kinetic friction (`μ·N/m`) against its motion ([`rough_pull`]: Coulomb friction under a
    /// steady press is a steady deceleration), until it stops (`EventKind::SlideStops`).
    /// Where friction holds it at rest, it stays. (Settled with the rest of the step's
    /// gravity, it met the face again at once, approaching at `g·cos θ·(dt − t)`, and
    /// bounced at its restitution: at no resting speed, a ball on a rough 20° slope hopped
    /// down it, 7.2e-4 fast after 1 s.) `None` where a number is not finite.
    fn event_slide(&self, face: Segment, met: &mut Met, left_with: f32) -> Option<Rest> {
        let (g, n) = (self.rules.gravity, self.meeting.hit.normal);
        let (mu, velocity) = (self.combined.friction, self.ball.velocity);
        let friction = mu * -g.dot(n);
        // A landing takes the approach, and friction μ times what gravity pressed it on
        // with over its flight (not the bounce's): the approach and the separation bias it
        // left its last rest with. (Rubbed by the approach alone, a slide down a rough
        // slope gained μ times the bias a step, 5e-5 of its speed after 1 s at 120 Hz; by
        // the bias it leaves with now, it gained or lost μ·1e-5 of its change of speed.)
        let landed = if friction > 0.0 {
            let across = self.approach.max(0.0) + left_with;
            rested(rub_on_surface(velocity, n, mu * across), n)
        } else {
            rested(met.velocity, n)
        };
        let slide = rough_pull(g, n, landed, friction).map(|pull| slide_along(pull, n));
        let rest = match slide {
            Some(acceleration) => Rest::Slide {
                face,
                acceleration,
                friction,
            },
            None => Rest::Settle,
        };
        let finite = landed.is_finite() && slide.is_none_or(|a| a.is_finite());
        finite.then(|| {
            met.velocity = landed;
            rest
        })
    }
}

impl Met {
    /// Nothing decided yet but the approach.
    fn new(approach: f32) -> Self {
        Self {
            velocity: Vec2::ZERO,
            approach,
            kick: 0.0,
            squeeze: None,
            pushed: false,
            turned: [None; ONE_BALL_HINGES],
            halt: None,
            rest: None,
        }
    }
}

/// The velocity of the ball of `facts` after meeting its surface: alone (bounce with the
/// kick, slide or stop, relative to the surface), or as one contact with a `second`
/// surface it still touches (a corner, or a squeeze), where no kick fires.
fn response(facts: &Facts<'_>, second: Option<SurfaceOf>) -> Met {
    let Facts {
        ball,
        combined,
        approach,
        this,
        rules,
        ..
    } = *facts;
    let met = SurfaceOf {
        with: facts.meeting.with,
        surface: this,
    };
    let mut out = Met::new(approach);
    match (ball.response, second) {
        (ResponseMode::Bounce, Some(other)) => match two_surfaces(ball.velocity, this, other.surface) {
            TwoSurfaces::Leave(v) => out.velocity = v,
            TwoSurfaces::Squeezed {
                velocity,
                faster_is_b,
            } => {
                let (faster, slower) = if faster_is_b { (other, met) } else { (met, other) };
                out.velocity = velocity;
                out.squeeze = Some(Squeeze {
                    faster: faster.with,
                    faster_normal: faster.surface.normal,
                    slower: slower.with,
                    slower_normal: slower.surface.normal,
                });
            }
        },
        (mode, _) => {
            if mode == ResponseMode::Bounce {
                out.kick = combined.kick.added(approach, combined.restitution_at(approach));
            }
            // Relative to a moving surface; a wall's velocity is zero, and is neither taken
            // off nor added (that would turn a −0 into a +0).
            out.velocity = if this.velocity == Vec2::ZERO {
                respond(mode, ball.velocity, this.normal, combined, rules.resting_speed)
            } else {
                respond(
                    mode,
                    ball.velocity - this.velocity,
                    this.normal,
                    combined,
                    rules.resting_speed,
                ) + this.velocity
            };
        }
    }
    out
}

/// Another surface the ball of `facts` touches as it meets its surface (`this`), facing
/// it (their normals more than 90° apart): the most opposed one. It is the `last` contact
/// if that was with something else a moment ago (within [`SIMULTANEOUS_TIME_REL`] of the
/// step); else, where moving parts are near, any surface within touching distance (a
/// flipper striking a ball that rests on a wall); else a wall the ball moves into at this
/// very instant too (straight into a corner).
fn second_surface(
    world: &impl Surroundings,
    facts: &Facts<'_>,
    last: Option<LastContact>,
) -> Option<SurfaceOf> {
    let Facts {
        ball,
        meeting,
        rules,
        this,
        ..
    } = *facts;
    if let Some(last) = last
        && last.with != meeting.with
        && last.normal.dot(this.normal) < 0.0
        && meeting.time - last.time <= SIMULTANEOUS_TIME_REL * rules.dt
    {
        let surface = Surface {
            normal: last.normal,
            velocity: last.surface_velocity,
            restitution: last.restitution,
        };
        return Some(SurfaceOf {
            with: last.with,
            surface,
        });
    }
    let reach = ball.radius * (1.0 + TOUCH_SLOP_REL);
    let near = Aabb::new(ball.center, ball.center).inflated(reach);
    let moving_near = world.moving_near(near);
    let mut best: Option<SurfaceOf> = None;
    world.surfaces_near(near, ball.center, moving_near, |candidate, obstacle, velocity| {
        if candidate == meeting.with || obstacle.sensor || !ball.layers.interacts(obstacle.layers) {
            return;
        }
        let Some((point, normal)) = obstacle.closest_to(ball.center) else {
            return;
        };
        let approach = -(ball.velocity - velocity).dot(normal);
        // Away from moving parts, only a wall the ball moves into at this instant.
        if (ball.center - point).length() > reach
            || !obstacle.takes_contact(point, normal)
            || (!moving_near && !(approach > 0.0))
        {
            return;
        }
        let facing = normal.dot(this.normal);
        if facing < 0.0 && best.is_none_or(|b| facing < b.surface.normal.dot(this.normal)) {
            let combined = ball.material.combine(obstacle.material);
            let surface = Surface {
                normal,
                velocity,
                restitution: contact_restitution(combined, approach, rules.resting_speed),
            };
            best = Some(SurfaceOf {
                with: candidate,
                surface,
            });
        }
    });
    best
}

/// The speed of a fall from within the touch slop onto a surface that `pressing` (the
/// part of gravity into it, units/s²) presses a ball of `radius` onto: a contact slower
/// than this is a landing, not a hop.
#[inline]
pub(crate) fn settling_speed(pressing: f32, radius: f32) -> f32 {
    (2.0 * pressing.max(0.0) * TOUCH_SLOP_REL * radius).sqrt()
}

/// The round part a face `shape` ends on, where a ball centred at `center` meets the
/// face at that end, heading off it onto the part ([`ends_on`] seen from the face): the
/// part's surface and its ridden circle. Met there, the face's end cap is no ride (the
/// part's surface turns away from the end's tangent less than the cap does: riding the
/// cap, the ball would run into the part), and taken for the face it was met again at
/// once, leg after leg, to the bounce cap (alone, 4 of 400 random lips of e = 1 and 0.5,
/// μ = 0 and 0.2). `None` anywhere else, and for any shape but a face.
fn lip_beyond(
    world: &impl Surroundings,
    ball: &Ball,
    shape: &ObstacleShape,
    center: Vec2,
) -> Option<(ContactWith, Ridden)> {
    if !matches!(shape, ObstacleShape::Segment(_) | ObstacleShape::Edge(_)) {
        return None;
    }
    let r = f64::from(ball.radius);
    let reach = ball.radius * (1.0 + TOUCH_SLOP_REL);
    let near = Aabb::new(center, center).inflated(reach);
    let mut found = None;
    world.surfaces_near(near, center, false, |candidate, obstacle, _| {
        if found.is_some() || obstacle.sensor || !ball.layers.interacts(obstacle.layers) {
            return;
        }
        found = ridden(&obstacle.shape, center, ball.radius)
            .filter(|part| part.span.is_none() || part.radius > r)
            .filter(|part| ends_on(part, r, shape, center, ball.velocity))
            .map(|part| (candidate, part));
    });
    found
}

/// Whether `ball` touches (within the touch slop) a solid surface other than `with`'s two
/// that holds it there with the contact of `normal`, one that `joins` does not pass. A
/// surface holds it where it faces the contact (their normals more than 90° apart, as a
/// corner's in [`second_surface`]) or where the ball does not move into it faster than
/// `into_speed` (a chain's next face at a joint, the ball sliding along it). A surface
/// turned from the part by less, that the ball moves into, does not: the ride meets it
/// on its way. (Counted, a wall turned 5° into an arc's ride kept the ball from riding,
/// and the arc caught it after flights shorter than an ulp of its centre, to the bounce
/// cap.)
fn touches_another(
    world: &impl Surroundings,
    ball: &Ball,
    with: [ContactWith; 2],
    normal: Vec2,
    into_speed: f32,
    joins: impl Fn(&Obstacle) -> bool,
) -> bool {
    let reach = ball.radius * (1.0 + TOUCH_SLOP_REL);
    let near = Aabb::new(ball.center, ball.center).inflated(reach);
    let mut touches = false;
    world.surfaces_near(near, ball.center, false, |candidate, obstacle, _| {
        if with.contains(&candidate) || obstacle.sensor || !ball.layers.interacts(obstacle.layers) {
            return;
        }
        touches |= obstacle.closest_to(ball.center).is_some_and(|(point, other)| {
            (ball.center - point).length() <= reach
                && (other.dot(normal) < 0.0 || !(-ball.velocity.dot(other) > into_speed))
        }) && !joins(obstacle);
    });
    touches
}

/// The next chord, if the ball of `facts` (at its velocity before the contact) grazed the
/// inside of a still arc, and the contact left it at `after` (see `ride/chord.rs`). Most
/// contacts are turned away by their angle alone, before the shape is looked up.
fn ride(world: &impl Surroundings, facts: &Facts<'_>, after: Vec2) -> Option<Chord> {
    let Facts {
        ball,
        meeting,
        approach,
        ..
    } = *facts;
    let before = ball.velocity;
    if !rides_at_most(approach, before) {
        return None;
    }
    let hit = &meeting.hit;
    let shape = world.still_shape(meeting.with, hit.point)?;
    let radius = ride_radius(&shape, hit, ball.radius)?;
    ride_chord([before, after], approach, hit.normal, radius, ball.radius)
}

/// The contacts a ball may take beyond those it took, by the end of the step, `left`
/// seconds away, when it goes along `chord`: this graze, and for each chord that starts
/// in the time left, the graze at its end and a push of the ball beside it (the chord's
/// tilt towards the arc's centre closes in on that ball, which is what sent it along
/// chords). A corner bounds the bounces in it; an arc bounds the chords along it.
/// Without it a ball riding a bowl's side beside a ball, pressed into it, met the arc
/// and the ball in turn every 4 ms at 30 Hz, and reached the cap of 16 in a step.
fn chord_contacts(chord: Chord, left: f32) -> u32 {
    chord.within(left).saturating_mul(2).saturating_add(1)
}

/// Count a bounce `this` against the cap of `bounces` (raised in a corner: as many more
/// bounces as an elastic ball can take there), and remember it. `Some(Halt::Capped)` at
/// the cap.
pub(crate) fn count_contact(bounces: &mut Bounces, this: LastContact) -> Option<Halt> {
    bounces.count += 1;
    if bounces.count >= bounces.allowed
        && let Some(last) = bounces.last
        && last.with != this.with
    {
        bounces.allow(corner_bounces(last.normal, this.normal));
    }
    bounces.last = Some(this);
    bounces.capped().then_some(Halt::Capped)
}

/// Whether a ball held on a face of unit normal `n` and on another of normal `other` (both
/// towards the ball) is wedged between them under `gravity`: gravity along each face
/// pushes it into the other, so gravity lies between the two normals' opposites and the
/// faces hold it still.
pub(crate) fn wedged(n: Vec2, other: Vec2, gravity: Vec2) -> bool {
    let this_way = (gravity - n * gravity.dot(n)).dot(other);
    let that_way = (gravity - other * gravity.dot(other)).dot(n);
    gravity.dot(other) < 0.0 && this_way <= 0.0 && that_way <= 0.0
}

/// The most times an elastic ball can bounce between two walls with these normals before
/// it comes out of their corner: `⌈π/α⌉ + 1`, where `α` is the angle between the walls
/// (unfold the corner by reflecting it about each wall the ball meets: the path becomes a
/// straight line, which crosses at most `⌈π/α⌉` copies of the walls). Parallel walls (a
/// channel) are no corner: they bound nothing, and the cap holds.
pub(crate) fn corner_bounces(a: Vec2, b: Vec2) -> u32 {
    // The angle between the walls, from the cross product: accurate near zero.
    let alpha = a.perp_dot(b).abs().atan2(-a.dot(b));
    if alpha > 0.0 {
        ((std::f32::consts::PI / alpha).ceil() as u32).saturating_add(1)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_bounces_by_hand() {
        // A V of angle α opening along +x: its walls' normals, facing into it, are
        // (sin(α/2), ∓cos(α/2)); the cap is raised by ⌈π/α⌉ + 1.
        let normals = |degrees: f32| {
            let (s, c) = (degrees.to_radians() / 2.0).sin_cos();
            (Vec2::new(s, -c), Vec2::new(s, c))
        };
        // The README's figures: a cap of 16, raised in a 1° V by 180 + 1, up to 1,024.
        assert_eq!(crate::SweepSettings::default().max_bounces, 16);
        let (a, b) = normals(1.0);
        assert_eq!(corner_bounces(a, b), 181);
        assert_eq!(crate::MAX_WEDGE_BOUNCES, 1024);
        // MAX_WEDGE_BOUNCES "covers a V of 0.18°" (π/α = 1,000), and no narrower by much:
        // at 0.17°, ⌈π/α⌉ = 1,059.
        let (a, b) = normals(0.18);
        assert!(corner_bounces(a, b) <= crate::MAX_WEDGE_BOUNCES);
        let (a, b) = normals(0.17);
        assert!(corner_bounces(a, b) > crate::MAX_WEDGE_BOUNCES);
        // Parallel walls (a channel) are no corner.
        assert_eq!(corner_bounces(Vec2::Y, -Vec2::Y), 0);
    }
}
