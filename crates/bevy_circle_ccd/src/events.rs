//! What the step reports: the [`CircleHit`] message and the [`CircleHitEvent`] entity event.

use bevy::prelude::*;

/// An impact of a [`MovingCircle`](crate::MovingCircle) on an obstacle or another circle,
/// or its crossing of a sensor: every bounce of every step, in time order for each circle.
///
/// A contact that lasts (a ball resting on a flipper, a pile of balls, a puck pushed
/// along by a paddle) is a hit when it starts, and not again while it goes on: a contact
/// of a circle with what it also met in the step before, slower than the resting speed
/// ([`CcdSettings::resting_speed`](crate::CcdSettings::resting_speed)), is not written,
/// nor one slower than closing the touch slop ([`touch_slop`](crate::touch_slop)) in a
/// step (the circle was in touch as the step began).
/// For when such a contact starts and ends, see
/// [`CcdContactEvents`](crate::CcdContactEvents).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn count_drains(mut hits: MessageReader<CircleHit>) {
///     for hit in hits.read().filter(|h| h.sensor) {
///         println!("{} touched sensor {} at {}", hit.circle, hit.other, hit.point);
///     }
/// }
/// # App::new().add_systems(Update, count_drains);
/// ```
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct CircleHit {
    /// The moving circle.
    pub circle: Entity,
    /// What it touched, by entity, one of:
    /// - a static [`StaticSegment`](crate::StaticSegment), [`Pillar`](crate::Pillar) or
    ///   [`CcdShape`](crate::CcdShape) (a wall, a post, a bumper, a one-sided gate, a
    ///   brick, an orbit's rail): that entity, also when it is a child placed by its
    ///   ancestors; [`part`](Self::part) and [`feature`](Self::feature) say where on it;
    /// - a [`Kinematic`](crate::Kinematic) body of any shape (a flipper, a paddle): the
    ///   entity that has the `Kinematic`;
    /// - a part of a [`Hinge`](crate::Hinge): the entity whose shape was hit, which is
    ///   the hinge's own entity or a [`HingePart`](crate::HingePart) (whose `.0` is the
    ///   hinge);
    /// - another [`MovingCircle`](crate::MovingCircle), in a ball–ball contact
    ///   ([`CcdSettings::ball_ball`](crate::CcdSettings::ball_ball)): the other circle.
    ///   A ball–ball contact is written once, with either circle as `circle` and the
    ///   other as `other`, so look in both fields for a given ball's contacts with balls.
    ///
    /// A static, kinematic or hinged obstacle with a [`CcdSensor`](crate::CcdSensor) is
    /// reported with [`sensor`](Self::sensor) set; a circle is never a sensor.
    pub other: Entity,
    /// Which part of `other`'s shape: the edge index of a chain or a polygon (edge `i`
    /// joins points `i` and `i + 1`), the index among a compound's parts (each chain or
    /// polygon counting one per edge); 0 for a segment, a pillar, a capsule, an arc and a
    /// circle.
    pub part: u32,
    /// Where on that part: its face, a vertex, an arc's side or end, or a round body.
    pub feature: HitFeature,
    /// The contact point on `other`'s surface, world space.
    pub point: Vec2,
    /// Unit normal from `other` towards the circle's centre.
    pub normal: Vec2,
    /// The circle's centre at contact.
    pub center: Vec2,
    /// Approach speed along the normal, world units per second (positive), relative to
    /// `other` when it moves (a kinematic or hinged part, another circle).
    pub speed: f32,
    /// `other`'s velocity at the contact point as the circle met it, world units per
    /// second: zero for a static obstacle, the surface's for a kinematic or hinged body
    /// (its turn included), the other circle's for a ball–ball contact.
    pub other_velocity: Vec2,
    /// Seconds from the start of the step to the contact.
    pub time: f32,
    /// Whether the obstacle is a [`CcdSensor`](crate::CcdSensor) (reported, not bounced off).
    pub sensor: bool,
    /// Normal speed a [`Kicker`](crate::Kicker) added at this contact, world units per
    /// second (0 when none fired, and always 0 for a ball–ball contact).
    pub kick: f32,
}

/// What a [`CircleHit`] names of the other side: its entity, part and feature.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HitOther {
    pub(crate) entity: Entity,
    pub(crate) part: u32,
    pub(crate) feature: HitFeature,
}

impl CircleHit {
    /// The hit of `circle` that the core's contact `c` reports, against `other`.
    pub(crate) fn of_contact(c: &ccd_core::Contact, circle: Entity, other: HitOther) -> Self {
        Self {
            circle,
            other: other.entity,
            part: other.part,
            feature: other.feature,
            point: c.hit.point,
            normal: c.hit.normal,
            center: c.hit.center,
            speed: c.approach_speed,
            other_velocity: c.other_velocity,
            time: c.time,
            sensor: c.sensor,
            kick: c.kick,
        }
    }
}

/// Where on a shape a [`CircleHit`] touched.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[reflect(Debug, PartialEq)]
pub enum HitFeature {
    /// A flat face: a segment's, a capsule's, or an edge of a chain or a polygon.
    #[default]
    Face,
    /// A vertex, by its index among the shape's points: a corner of a chain or a polygon,
    /// or an end of a segment or a capsule (0 for `a`, 1 for `b`).
    Vertex(u32),
    /// An arc's outer side (the side away from its centre).
    ArcOutside,
    /// An arc's inner side.
    ArcInside,
    /// An arc's round end: 0 at its start angle, 1 at its end.
    ArcEnd(u32),
    /// A round body: a pillar or another circle.
    Round,
}

/// How close, relative to a segment's length or an arc's radius, a contact must be to an
/// end to be that end's (a face's contact there is the same contact as the end's).
const END_REL: f32 = 1e-4;

impl HitFeature {
    /// The feature of `shape` (where it was at the contact) at the surface `point` with
    /// `normal`, its segment's ends labelled `ends`.
    pub(crate) fn of(shape: &ccd_core::ObstacleShape, ends: [u32; 2], point: Vec2, normal: Vec2) -> Self {
        use ccd_core::ObstacleShape;
        let (segment, rounding) = match *shape {
            ObstacleShape::Segment(s) => (s, 0.0),
            ObstacleShape::Edge(e) => (e.segment, 0.0),
            ObstacleShape::Capsule(c) => (c.segment, c.radius),
            ObstacleShape::Circle(_) => return Self::Round,
            ObstacleShape::Arc(a) => {
                let core = point - normal * a.thickness;
                let (start, end) = a.ends();
                let near = END_REL * a.radius;
                return if core.distance(start) <= near {
                    Self::ArcEnd(0)
                } else if core.distance(end) <= near {
                    Self::ArcEnd(1)
                } else if normal.dot(core - a.center) > 0.0 {
                    Self::ArcOutside
                } else {
                    Self::ArcInside
                };
            }
        };
        let d = segment.direction();
        let along = (point - normal * rounding - segment.a).dot(d) / d.length_squared();
        if along <= END_REL {
            Self::Vertex(ends[0])
        } else if along >= 1.0 - END_REL {
            Self::Vertex(ends[1])
        } else {
            Self::Face
        }
    }
}

/// A [`CircleHit`] triggered on one entity: once on [`CircleHit::other`] and once on
/// [`CircleHit::circle`], so a bumper can observe its own hits. `other` is any of the kinds
/// its docs list: for a hinge, the part that was hit (observe the part, or every part); for
/// a ball–ball contact, the other ball, so each of the two balls gets the event once.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn spawn_bumper(mut commands: Commands) {
///     commands
///         .spawn((Pillar::new(20.0), Transform::from_xyz(0.0, 100.0, 0.0)))
///         .observe(|hit: On<CircleHitEvent>| println!("bumped at {} units/s", hit.hit.speed));
/// }
/// # App::new().add_systems(Startup, spawn_bumper);
/// ```
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CircleHitEvent {
    /// The entity this event is triggered on: the hit's `other` or its `circle`.
    pub entity: Entity,
    /// The contact.
    pub hit: CircleHit,
}
