//! What the step reports: the [`CircleHit`] message and the [`CircleHitEvent`] entity event.

use bevy::prelude::*;

/// One contact of a [`MovingCircle`](crate::MovingCircle) with an obstacle or another
/// circle, written for every contact of every step, solid or sensor, in time order for
/// each circle.
///
/// A resting contact (a circle pressing on a surface slower than the resting speed, such
/// as a ball rolling along a floor) is a contact too: it is written once per step while
/// the circle presses on the surface, whether or not ball–ball or kinematic obstacles are
/// on. Tell it from an impact by its `speed`.
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
    /// - a static [`StaticSegment`](crate::StaticSegment) or [`Pillar`](crate::Pillar)
    ///   (a wall, a post, a bumper, a one-sided gate): that entity, also when it is a
    ///   child placed by its ancestors;
    /// - a [`Kinematic`](crate::Kinematic) segment or pillar (a flipper): the entity
    ///   that has the `Kinematic`;
    /// - a part of a [`Hinge`](crate::Hinge): the entity whose `StaticSegment` was hit,
    ///   which is the hinge's own entity or a [`HingePart`](crate::HingePart) (whose `.0`
    ///   is the hinge);
    /// - another [`MovingCircle`](crate::MovingCircle), in a ball–ball contact
    ///   ([`CcdSettings::ball_ball`](crate::CcdSettings::ball_ball)): the other circle.
    ///   A ball–ball contact is written once, with either circle as `circle` and the
    ///   other as `other`, so look in both fields for a given ball's contacts with balls.
    ///
    /// A static, kinematic or hinged obstacle with a [`CcdSensor`](crate::CcdSensor) is
    /// reported with [`sensor`](Self::sensor) set; a circle is never a sensor.
    pub other: Entity,
    /// The contact point on `other`'s surface, world space.
    pub point: Vec2,
    /// Unit normal from `other` towards the circle's centre.
    pub normal: Vec2,
    /// The circle's centre at contact.
    pub center: Vec2,
    /// Approach speed along the normal, world units per second (positive), relative to
    /// `other` when it moves (a kinematic or hinged part, another circle).
    pub speed: f32,
    /// Seconds from the start of the step to the contact.
    pub time: f32,
    /// Whether the obstacle is a [`CcdSensor`](crate::CcdSensor) (reported, not bounced off).
    pub sensor: bool,
    /// Normal speed a [`Kicker`](crate::Kicker) added at this contact, world units per
    /// second (0 when none fired, and always 0 for a ball–ball contact).
    pub kick: f32,
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
