//! What the step reports: the [`CircleHit`] message and the [`CircleHitEvent`] entity event.

use bevy::prelude::*;

/// One contact of a [`MovingCircle`](crate::MovingCircle) with an obstacle, written for
/// every contact of every step, solid or sensor, in time order for each circle.
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
    /// The obstacle (segment or pillar entity).
    pub other: Entity,
    /// The contact point on the obstacle's surface, world space.
    pub point: Vec2,
    /// Unit normal from the obstacle towards the circle's centre.
    pub normal: Vec2,
    /// The circle's centre at contact.
    pub center: Vec2,
    /// Approach speed along the normal, world units per second (positive).
    pub speed: f32,
    /// Seconds from the start of the step to the contact.
    pub time: f32,
    /// Whether the obstacle is a [`Sensor`](crate::Sensor) (reported, not bounced off).
    pub sensor: bool,
    /// Normal speed a [`Kicker`](crate::Kicker) added at this contact, world units per
    /// second (0 when none fired).
    pub kick: f32,
}

/// A [`CircleHit`] triggered on one entity: once on the obstacle and once on the circle,
/// so a bumper can observe its own hits.
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
    /// The entity this event is triggered on: the obstacle or the circle.
    pub entity: Entity,
    /// The contact.
    pub hit: CircleHit,
}
