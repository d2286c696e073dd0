//! Contacts that start and end: [`CcdContactStarted`] and [`CcdContactEnded`], as messages
//! and as observer events, for every pair in which the circle or the other entity has
//! [`CcdContactEvents`].
//!
//! A contact is one per pair of a circle and an entity, whatever parts of the entity's
//! shape it meets (the edges of a chain, a polygon or a compound are one contact). It
//! starts at the first contact the step reports between the two, and lasts, step after
//! step, while the circle at the step's end touches the entity: its clearance
//! ([`ccd_core::clearance`]) from any of the entity's parts, where they are at the step's
//! end, is at most the touch slop ([`touch_slop`]). A resting, sliding or riding circle
//! is one contact from its landing to its leaving; a bounce starts and ends within one
//! step. A contact also ends when either side is despawned, held out
//! ([`CcdDisabled`]) or loses its shape.
//!
//! A sensor's contact is the circle in it: it starts at the first crossing the step
//! reports ([`CircleHit::sensor`]) and lasts while, at a step's end, the circle overlaps
//! or touches the sensor (a centre inside a static solid polygon sensor counts), so a ball
//! passing through a round or solid zone is one contact from entering to leaving, and a
//! ball crossing a sensor line within a step starts and ends in that step. (A circle
//! spawned already inside a sensor starts no contact until it crosses in.)

use crate::components::{CcdDisabled, MovingCircle};
use crate::events::{CircleHit, HitFeature};
use crate::kinematic::Kinematics;
use crate::settings::CcdSettings;
use crate::step::StepHits;
use crate::world::CcdWorld;
use bevy::ecs::system::SystemParam;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use ccd_core::tolerance::TOUCH_SLOP_REL;
use ccd_core::{Circle, clearance};

/// Opts an entity's contacts into [`CcdContactStarted`] and [`CcdContactEnded`]: put it on
/// a circle, or on an obstacle of any shape (a brick, a flipper, a floor). A pair is
/// reported when either side has it.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn spawn_brick(mut commands: Commands) {
///     commands
///         .spawn((CcdShape::rect(Vec2::new(20.0, 8.0)), CcdContactEvents, Transform::default()))
///         .observe(|start: On<CcdContactStartedEvent>, mut commands: Commands| {
///             commands.entity(start.contact.other).despawn();
///         });
/// }
/// # App::new().add_systems(Startup, spawn_brick);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdContactEvents;

/// A circle came into contact with an entity (see [`CcdContactEvents`]): the first contact
/// of the pair, as the step met it. A ball–ball contact is written twice, once from each
/// ball (`circle` that ball, `other` the other, the normal towards `circle`).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct CcdContactStarted {
    /// The moving circle.
    pub circle: Entity,
    /// What it touched: an obstacle's entity (as [`CircleHit::other`] names it) or another
    /// circle.
    pub other: Entity,
    /// Which part of `other`'s shape it met first ([`CircleHit::part`]).
    pub part: u32,
    /// Where on that part ([`CircleHit::feature`]).
    pub feature: HitFeature,
    /// The contact point on `other`'s surface, world space.
    pub point: Vec2,
    /// Unit normal from `other` towards the circle's centre.
    pub normal: Vec2,
    /// Approach speed along the normal at the start, world units per second, relative to
    /// `other` when it moves.
    pub speed: f32,
    /// Whether `other` is a [`CcdSensor`](crate::CcdSensor) (the circle entered it).
    pub sensor: bool,
}

/// A contact that started ([`CcdContactStarted`]) is over: at the step's end the circle no
/// longer touches the entity (or either is gone). Written once per started contact, twice
/// for a ball–ball one (once from each ball).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CcdContactEnded {
    /// The moving circle.
    pub circle: Entity,
    /// What it touched.
    pub other: Entity,
}

/// A [`CcdContactStarted`] triggered on an entity: on the circle and on the obstacle (each
/// ball, for a ball–ball contact, with its own view).
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CcdContactStartedEvent {
    /// The entity it is triggered on.
    pub entity: Entity,
    /// The contact.
    pub contact: CcdContactStarted,
}

/// A [`CcdContactEnded`] triggered on an entity, as [`CcdContactStartedEvent`] is.
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcdContactEndedEvent {
    /// The entity it is triggered on.
    pub entity: Entity,
    /// The contact.
    pub contact: CcdContactEnded,
}

/// The clearance up to which a circle of `radius` at `center` touches a surface, world
/// units: [`TOUCH_SLOP_REL`] of its radius (what makes two balls touch in the core's
/// contacts of one instant), plus 16 f32 ulps of its coordinates (a centre placed at
/// contact is rounded to them).
#[must_use]
pub fn touch_slop(radius: f32, center: Vec2) -> f32 {
    const COORDINATE_ULPS: f32 = 16.0;
    TOUCH_SLOP_REL * radius + COORDINATE_ULPS * f32::EPSILON * center.abs().max_element()
}

/// A circle and what it touches; a ball–ball pair once, the lower entity first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Pair {
    circle: Entity,
    other: Entity,
    ball_ball: bool,
}

impl Pair {
    fn new(circle: Entity, other: Entity, ball_ball: bool) -> Self {
        if ball_ball && other < circle {
            Self {
                circle: other,
                other: circle,
                ball_ball,
            }
        } else {
            Self {
                circle,
                other,
                ball_ball,
            }
        }
    }
}

/// The contacts that last from one step to the next, in order, and the step's buffers.
#[derive(Resource, Default, Debug)]
pub(crate) struct ContactPairs {
    /// The pairs touching at the last step's end, sorted.
    touching: Vec<Pair>,
    /// The same, for lookup.
    touching_set: HashSet<Pair>,
    /// This step's first contact of each reported pair, in the step's order.
    met: Vec<(Pair, CircleHit)>,
    met_set: HashSet<Pair>,
    next: Vec<Pair>,
}

/// What [`track_contacts`] reads.
#[derive(SystemParam)]
pub(crate) struct ContactInput<'w, 's> {
    hits: Res<'w, StepHits>,
    settings: Res<'w, CcdSettings>,
    world: Res<'w, CcdWorld>,
    kinematics: Res<'w, Kinematics>,
    marked: Query<'w, 's, (), With<CcdContactEvents>>,
    circles: Query<'w, 's, (&'static Transform, &'static MovingCircle), Without<CcdDisabled>>,
}

/// What [`track_contacts`] writes.
#[derive(SystemParam)]
pub(crate) struct ContactOutput<'w, 's> {
    started: MessageWriter<'w, CcdContactStarted>,
    ended: MessageWriter<'w, CcdContactEnded>,
    commands: Commands<'w, 's>,
    /// Every entity: an event is triggered only on those that still exist.
    alive: Query<'w, 's, ()>,
}

/// Start, keep and end the contacts of the step just taken. Runs in
/// [`CircleCcdSystems::Report`](crate::CircleCcdSystems::Report), before the hits are
/// written.
pub(crate) fn track_contacts(
    input: ContactInput,
    mut output: ContactOutput,
    mut pairs: ResMut<ContactPairs>,
) {
    if input.marked.is_empty() && pairs.touching.is_empty() {
        return;
    }
    let pairs = &mut *pairs;
    pairs.met.clear();
    pairs.met_set.clear();
    for hit in &input.hits.0 {
        if !(input.marked.contains(hit.circle) || input.marked.contains(hit.other)) {
            continue;
        }
        let pair = Pair::new(hit.circle, hit.other, input.circles.contains(hit.other));
        if pairs.met_set.insert(pair) {
            pairs.met.push((pair, *hit));
        }
    }
    pairs.next.clear();
    let entity_events = input.settings.entity_events;
    // The contacts that lasted into this step, then the new ones, in the step's order.
    for &pair in &pairs.touching {
        if input.touches(pair) {
            pairs.next.push(pair);
        } else {
            output.end(pair, entity_events);
        }
    }
    for &(pair, hit) in &pairs.met {
        if pairs.touching_set.contains(&pair) {
            continue;
        }
        output.start(pair, &hit, entity_events);
        if input.touches(pair) {
            pairs.next.push(pair);
        } else {
            output.end(pair, entity_events);
        }
    }
    pairs.next.sort_unstable();
    std::mem::swap(&mut pairs.touching, &mut pairs.next);
    pairs.touching_set.clear();
    pairs.touching_set.extend(pairs.touching.iter().copied());
}

impl ContactInput<'_, '_> {
    /// Whether the pair touches at the step's end.
    fn touches(&self, pair: Pair) -> bool {
        let Ok((transform, circle)) = self.circles.get(pair.circle) else {
            return false;
        };
        let ball = Circle::new(transform.translation.truncate(), circle.radius);
        let slop = touch_slop(ball.radius, ball.center);
        if pair.ball_ball {
            return self.circles.get(pair.other).is_ok_and(|(t, c)| {
                let other = t.translation.truncate();
                ball.center.distance(other) - ball.radius - c.radius <= slop
            });
        }
        let still = self
            .world
            .obstacles(pair.other)
            .any(|o| clearance(ball, o) <= slop);
        // Inside a solid polygon (only a sensor's can hold a circle), clear of its edges.
        let inside = || {
            self.world
                .polygons(pair.other)
                .is_some_and(|polygons| polygons.iter().any(|p| p.contains(ball.center)))
        };
        still || inside() || {
            let k = &self.kinematics;
            k.entities
                .iter()
                .zip(&k.moving)
                .any(|(&e, m)| e == pair.other && clearance(ball, &m.at_end()) <= slop)
        }
    }
}

impl ContactOutput<'_, '_> {
    /// The views of `pair` (one, or each ball's): `(circle, other)`.
    fn views(pair: Pair) -> impl Iterator<Item = (Entity, Entity)> {
        let second = pair.ball_ball.then_some((pair.other, pair.circle));
        std::iter::once((pair.circle, pair.other)).chain(second)
    }

    /// The entities a view's event is triggered on: the circle, and an obstacle (a ball
    /// gets its own view), those that still exist.
    fn targets(&self, pair: Pair, circle: Entity, other: Entity) -> [Option<Entity>; 2] {
        let alive = |e: Entity| self.alive.contains(e).then_some(e);
        [alive(circle), (!pair.ball_ball).then_some(other).and_then(alive)]
    }

    fn start(&mut self, pair: Pair, hit: &CircleHit, entity_events: bool) {
        for (circle, other) in Self::views(pair) {
            let contact = CcdContactStarted {
                circle,
                other,
                part: hit.part,
                feature: hit.feature,
                point: hit.point,
                // The hit's normal points at its circle; the other ball's view turns it.
                normal: if circle == hit.circle {
                    hit.normal
                } else {
                    -hit.normal
                },
                speed: hit.speed,
                sensor: hit.sensor,
            };
            self.started.write(contact);
            if entity_events {
                for entity in self.targets(pair, circle, other).into_iter().flatten() {
                    self.commands.trigger(CcdContactStartedEvent { entity, contact });
                }
            }
        }
    }

    fn end(&mut self, pair: Pair, entity_events: bool) {
        for (circle, other) in Self::views(pair) {
            let contact = CcdContactEnded { circle, other };
            self.ended.write(contact);
            if entity_events {
                for entity in self.targets(pair, circle, other).into_iter().flatten() {
                    self.commands.trigger(CcdContactEndedEvent { entity, contact });
                }
            }
        }
    }
}
