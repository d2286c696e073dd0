//! The components users put on entities.

use crate::remote::CombineRuleReflect;
use bevy::prelude::*;
use ccd_core::{CombineRule, Layers, Material, ResponseMode, ShapeError};

/// A moving circle: a ball, a puck or a bullet, moved by exact swept CCD every fixed step.
///
/// Its position is the entity's [`Transform`] translation (x and y; z is kept). Put moving
/// circles at the top of the hierarchy: the translation is read as world space.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(Transform)]
pub struct MovingCircle {
    /// Radius in world units. Must be finite and not negative.
    pub radius: f32,
    /// Velocity in world units per second.
    pub velocity: Vec2,
}

impl MovingCircle {
    /// A circle of `radius` moving at `velocity`.
    #[inline]
    #[must_use]
    pub const fn new(radius: f32, velocity: Vec2) -> Self {
        Self { radius, velocity }
    }

    /// `Ok`, or the first bad field: `radius` (non-finite or negative) or `velocity`.
    pub fn validate(&self) -> Result<(), ShapeError> {
        if !self.radius.is_finite() {
            return Err(ShapeError::NonFinite { field: "radius" });
        }
        if self.radius < 0.0 {
            return Err(ShapeError::NegativeRadius { field: "radius" });
        }
        if !self.velocity.is_finite() {
            return Err(ShapeError::NonFinite { field: "velocity" });
        }
        Ok(())
    }
}

impl Default for MovingCircle {
    /// Radius 1, at rest.
    fn default() -> Self {
        Self::new(1.0, Vec2::ZERO)
    }
}

/// How much of the world's gravity ([`CcdSettings::gravity`](crate::CcdSettings::gravity))
/// one [`MovingCircle`] feels: 1 (the default, as without the component) all of it, 0
/// none (a puck gliding over a table in a world that falls), 2 twice as much, −1 the
/// same turned upwards (a balloon). It flies the exact parabola of its own gravity, and
/// rests, slides and rides under it. Must be finite.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_ccd::prelude::*;
/// fn spawn(mut commands: Commands) {
///     // Feels half of the world's gravity.
///     commands.spawn((MovingCircle::new(5.0, Vec2::X * 100.0), CcdGravityScale(0.5)));
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdGravityScale(pub f32);

impl Default for CcdGravityScale {
    /// 1: the world's gravity.
    fn default() -> Self {
        Self(1.0)
    }
}

/// Holds a [`MovingCircle`] out of the simulation while it keeps all its components: the
/// step neither moves it nor lets anything meet it (no ball, wall or moving part), and the
/// audit skips it. Its `Transform` and velocity stay as they are, or as the game sets
/// them; remove the marker and the circle is stepped again from there, the next step.
///
/// A pinball saucer holds a ball this way, and kicks it out by setting its velocity and
/// removing the marker:
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_ccd::prelude::*;
/// fn hold(mut commands: Commands, ball: Entity) {
///     commands.entity(ball).insert(CcdDisabled);
/// }
/// fn kick_out(mut commands: Commands, mut balls: Query<&mut MovingCircle>, ball: Entity) {
///     if let Ok(mut circle) = balls.get_mut(ball) {
///         circle.velocity = Vec2::new(300.0, -800.0);
///     }
///     commands.entity(ball).remove::<CcdDisabled>();
/// }
/// ```
///
/// It applies to moving circles only: an obstacle is taken out by removing its shape.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdDisabled;

/// A wall from `a` to `b`, in the entity's local space, placed in the world by its
/// `Transform` and its ancestors' (the pose its [`GlobalTransform`] gets). A whole table
/// can be a parent with child walls, moved or rotated.
///
/// The pose is composed from the `Transform`s as they are when the step runs, not read
/// from the `GlobalTransform`, which Bevy updates only later in the frame: a wall spawned,
/// moved or re-parented in `FixedUpdate` before
/// [`CircleCcdSystems::Prepare`](crate::CircleCcdSystems::Prepare) is swept where it is
/// in that very step.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(Transform)]
pub struct StaticSegment {
    /// First end point, local space.
    pub a: Vec2,
    /// Second end point, local space.
    pub b: Vec2,
}

impl StaticSegment {
    /// The segment from `a` to `b`.
    #[inline]
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Self { a, b }
    }
}

impl Default for StaticSegment {
    /// A unit segment along +x.
    fn default() -> Self {
        Self::new(Vec2::ZERO, Vec2::X)
    }
}

/// A static circle (post, bumper) centred on its entity's global translation (from its
/// `Transform` and its ancestors' at the time of the step, as for [`StaticSegment`]). Its
/// radius is scaled by the transform's scale, as a capsule's is; the scale must be the
/// same on both axes.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(Transform)]
pub struct Pillar {
    /// Radius in local units (world units times the transform's scale). Must be finite
    /// and not negative.
    pub radius: f32,
}

impl Pillar {
    /// A pillar of `radius`.
    #[inline]
    #[must_use]
    pub const fn new(radius: f32) -> Self {
        Self { radius }
    }
}

impl Default for Pillar {
    /// Radius 1.
    fn default() -> Self {
        Self::new(1.0)
    }
}

/// Restitution and friction, on a circle or an obstacle. Without it, a thing is
/// [`CcdMaterial::ELASTIC`].
///
/// A contact combines the two by [`Material::combine`], with the rules of both sides
/// ([`CombineRule`]; the later one in its list wins). By default **restitution
/// multiplies** (`e = e_circle · e_obstacle`, so a kicker with `e = 1.5` returns half as
/// much again as the ball alone would) and **friction is the geometric mean**
/// (`μ = sqrt(μ_circle · μ_obstacle)`). Rubber can lose bounce with impact speed:
/// `e / (1 + falloff·v / falloff_speed)`, with `falloff_speed` in your own units per
/// second.
///
/// ```
/// use bevy_circle_ccd::prelude::*;
/// // A post rubber in mm/s, ported from Avian with `Max` restitution, halving its bounce
/// // at 1 m/s.
/// let rubber = CcdMaterial::new(0.9, 0.3)
///     .with_rules(CombineRule::Max, CombineRule::Classic)
///     .with_falloff(1.0, 1000.0);
/// assert_eq!(rubber.restitution_rule, CombineRule::Max);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdMaterial {
    /// Coefficient of restitution; above 1 kicks.
    pub restitution: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// How restitution combines with the other side's. Default [`CombineRule::Classic`].
    #[reflect(remote = CombineRuleReflect)]
    pub restitution_rule: CombineRule,
    /// How friction combines with the other side's. Default [`CombineRule::Classic`].
    #[reflect(remote = CombineRuleReflect)]
    pub friction_rule: CombineRule,
    /// Restitution falloff with impact speed (dimensionless, ≥ 0). Default 0: none.
    pub falloff: f32,
    /// The speed at which a falloff of 1 halves the bounce, world units per second.
    /// Default 1.
    pub falloff_speed: f32,
}

impl CcdMaterial {
    /// Restitution 1, friction 0: the default.
    pub const ELASTIC: Self = Self::new(1.0, 0.0);

    /// A material, combined by the classic rule, with no falloff.
    #[inline]
    #[must_use]
    pub const fn new(restitution: f32, friction: f32) -> Self {
        Self {
            restitution,
            friction,
            restitution_rule: CombineRule::Classic,
            friction_rule: CombineRule::Classic,
            falloff: 0.0,
            falloff_speed: 1.0,
        }
    }

    /// With these combine rules for restitution and friction.
    #[inline]
    #[must_use]
    pub const fn with_rules(mut self, restitution: CombineRule, friction: CombineRule) -> Self {
        self.restitution_rule = restitution;
        self.friction_rule = friction;
        self
    }

    /// With restitution falling with impact speed: `e / (1 + falloff·v / speed)`.
    #[inline]
    #[must_use]
    pub const fn with_falloff(mut self, falloff: f32, speed: f32) -> Self {
        self.falloff = falloff;
        self.falloff_speed = speed;
        self
    }

    /// The first field that is negative or not finite, by its full name
    /// (`CcdMaterial.friction`, …).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeRadius`] (a negative value)
    /// naming the field.
    pub fn validate(&self) -> Result<(), ShapeError> {
        ShapeError::non_negative("CcdMaterial.restitution", self.restitution)?;
        ShapeError::non_negative("CcdMaterial.friction", self.friction)?;
        ShapeError::non_negative("CcdMaterial.falloff", self.falloff)?;
        ShapeError::non_negative("CcdMaterial.falloff_speed", self.falloff_speed)?;
        if self.falloff > 0.0 && !(self.falloff_speed > 0.0) {
            return Err(ShapeError::OutOfRange {
                field: "CcdMaterial.falloff_speed",
                range: "above 0 when `falloff` is set (the falloff is per falloff_speed of impact)",
            });
        }
        Ok(())
    }
}

impl CcdMaterial {
    /// The value written in `field` ([`CcdMaterial::validate`]'s names), to quote back in a
    /// refusal.
    pub(crate) fn given(&self, field: &str) -> Option<String> {
        Some(match field {
            "CcdMaterial.restitution" => self.restitution.to_string(),
            "CcdMaterial.friction" => self.friction.to_string(),
            "CcdMaterial.falloff" => self.falloff.to_string(),
            "CcdMaterial.falloff_speed" => self.falloff_speed.to_string(),
            _ => return None,
        })
    }
}

impl Default for CcdMaterial {
    fn default() -> Self {
        Self::ELASTIC
    }
}

impl From<CcdMaterial> for Material {
    fn from(m: CcdMaterial) -> Self {
        Material::new(m.restitution, m.friction)
            .with_rules(m.restitution_rule, m.friction_rule)
            .with_falloff(m.falloff, m.falloff_speed)
    }
}

/// An active surface on an obstacle of any shape ([`StaticSegment`], [`Pillar`] or
/// [`CcdShape`](crate::CcdShape)): a pop bumper, a slingshot, a
/// kicker, a block that speeds the ball up. When a circle meets it faster than
/// `threshold` along the normal, the circle leaves at `max(e·v_in, min_out) + speed`
/// along the normal, and then its whole outgoing velocity (that normal part and the
/// tangential part after friction) is multiplied by `speed_scale`, at the instant of
/// impact; it spends the rest of the step on that velocity ([`ccd_core::Kick`]). Each kick
/// is reported in [`CircleHit::kick`](crate::CircleHit::kick) (the normal speed added over
/// a plain bounce, the scale included). `threshold`, `min_out` and `speed` are in world
/// units per second, none negative; `speed_scale` is a factor above 0 (1: unscaled). The
/// default never fires.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn spawn_bumper(mut commands: Commands) {
///     // Sends a ball away at 1,100 mm/s or more when it arrives faster than 100 mm/s.
///     commands.spawn((
///         Pillar::new(22.0),
///         Kicker::new(100.0, 1100.0, 0.0),
///         CcdMaterial::new(0.9, 0.0),
///         Transform::from_xyz(0.0, 300.0, 0.0),
///     ));
///     // A block that makes the ball 5% faster on every hit, from the instant of impact:
///     // a ball at 400 mm/s leaves it at 1.05 · 400 = 420 mm/s (elastic, no friction).
///     commands.spawn((
///         StaticSegment::new(Vec2::new(-30.0, 0.0), Vec2::new(30.0, 0.0)),
///         Kicker::scaling(0.0, 1.05),
///         CcdMaterial::new(1.0, 0.0),
///         Transform::from_xyz(0.0, 500.0, 0.0),
///     ));
/// }
/// # App::new().add_systems(Startup, spawn_bumper);
/// # let kick = ccd_core::Kick::from(Kicker::scaling(0.0, 1.05));
/// # let block = ccd_core::Material::ELASTIC.with_kick(kick);
/// # let out = ccd_core::reflect(Vec2::new(0.0, -400.0), Vec2::Y, block, 0.0);
/// # assert!((out - Vec2::new(0.0, 420.0)).length() < 1e-3);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Kicker {
    /// Approach speed along the normal above which it fires.
    pub threshold: f32,
    /// The least normal speed a circle leaves with when it fires.
    pub min_out: f32,
    /// Normal speed added when it fires, on top of `max(e·v_in, min_out)`.
    pub speed: f32,
    /// When it fires, the circle's whole outgoing velocity is multiplied by this (a factor
    /// above 0; 1 leaves it as it is, 1.05 is 5% faster). A bad value marks the entity
    /// [`CcdInvalid`] naming `Kicker.speed_scale`.
    pub speed_scale: f32,
}

/// [`Kicker::speed_scale`] that leaves the speed as it is (a factor, no unit).
const UNSCALED: f32 = 1.0;

impl Kicker {
    /// Fires above `threshold`, sending the circle away at `max(e·v_in, min_out) + speed`
    /// (unscaled: `speed_scale` 1).
    #[inline]
    #[must_use]
    pub const fn new(threshold: f32, min_out: f32, speed: f32) -> Self {
        Self {
            threshold,
            min_out,
            speed,
            speed_scale: UNSCALED,
        }
    }

    /// Above `threshold`, multiplies the circle's outgoing velocity (its plain bounce,
    /// after friction) by `scale`; `min_out` and `speed` are 0. `Kicker::scaling(0.0,
    /// 1.05)` makes every hit 5% faster.
    /// A ball that rolls on a surface scaling at any approach is scaled at every touch:
    /// give such a surface a `threshold` above its rolling bounces.
    #[inline]
    #[must_use]
    pub const fn scaling(threshold: f32, scale: f32) -> Self {
        Self::new(threshold, 0.0, 0.0).with_speed_scale(scale)
    }

    /// With `speed_scale` set to `scale`.
    #[inline]
    #[must_use]
    pub const fn with_speed_scale(mut self, scale: f32) -> Self {
        self.speed_scale = scale;
        self
    }
}

impl Default for Kicker {
    /// Never fires: all speeds 0, `speed_scale` 1.
    fn default() -> Self {
        Self::new(0.0, 0.0, 0.0)
    }
}

impl From<Kicker> for ccd_core::Kick {
    fn from(k: Kicker) -> Self {
        ccd_core::Kick::new(k.threshold, k.min_out, k.speed).with_speed_scale(k.speed_scale)
    }
}

/// Makes a [`StaticSegment`], or every edge of a [`CcdShape`](crate::CcdShape) chain, one-sided: it
/// collides only on its front side, the side of `(b − a).perp()` (to the left when
/// walking from `a` to `b`). A gate or lane guide. (A polygon's edges are one-sided
/// already, facing out; round shapes have no back to ignore, and are unchanged.)
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct OneSided;

/// Makes an obstacle of any shape a sensor: circles entering its reach are
/// reported (with [`CircleHit::sensor`](crate::CircleHit::sensor) set) but not deflected.
/// A drain line or a rollover.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdSensor;

/// Collision layers, on a circle or an obstacle. Two things collide when each one's
/// `memberships` meets the other's `filters`. Without it, a thing is on every layer and
/// collides with every layer.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdLayers {
    /// Layers this thing is on.
    pub memberships: u32,
    /// Layers this thing collides with.
    pub filters: u32,
}

impl CcdLayers {
    /// Every layer.
    pub const ALL: Self = Self::new(u32::MAX, u32::MAX);

    /// Layers from bitmasks.
    #[inline]
    #[must_use]
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }
}

impl Default for CcdLayers {
    fn default() -> Self {
        Self::ALL
    }
}

impl From<CcdLayers> for Layers {
    fn from(l: CcdLayers) -> Self {
        Layers::new(l.memberships, l.filters)
    }
}

/// What a circle does when it meets a surface. Without it, a circle bounces.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Component, Default, Debug, PartialEq)]
pub enum CircleResponse {
    /// Reflect with restitution and friction.
    #[default]
    Bounce,
    /// Keep only the tangential velocity, as a character controller does.
    Slide,
    /// Halt at the contact point with zero velocity.
    Stop,
}

impl From<CircleResponse> for ResponseMode {
    fn from(r: CircleResponse) -> Self {
        match r {
            CircleResponse::Bounce => ResponseMode::Bounce,
            CircleResponse::Slide => ResponseMode::Slide,
            CircleResponse::Stop => ResponseMode::Stop,
        }
    }
}

/// Asks for the circle's predicted bounce path (drawn by the debug gizmos, or computed
/// with [`CcdWorld::predict_path`](crate::CcdWorld::predict_path)).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct PredictPath {
    /// Stop after this many contacts. Default 8.
    pub max_bounces: u32,
    /// Stop after this many seconds. Default 2.
    pub max_time: f32,
}

impl Default for PredictPath {
    fn default() -> Self {
        Self {
            max_bounces: 8,
            max_time: 2.0,
        }
    }
}

/// Put by the plugin on an entity whose CCD components hold a bad value (a NaN, a
/// negative radius, a zero-length segment). The entity is skipped, and warned about once,
/// until the value is fixed; then the plugin removes this marker.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
pub struct CcdInvalid {
    /// The component and field at fault, such as `"MovingCircle.velocity"`.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Makes an obstacle of any shape move, with the balls swept exactly against its
/// motion through the step (a flipper, a sliding gate, a moving bumper).
///
/// A kinematic obstacle uses its own [`Transform`] as its pose in the world, so spawn it
/// as a root entity (no parent). Its segment end points are in its local space, and it
/// turns about its origin.
///
/// The motion belongs to the body, not to its shape: a `Kinematic` entity without a
/// shape at the moment is still moved every step (with
/// `Velocity`) or followed (its pose remembered, with `FollowTransform`), so a gate whose
/// segment is taken off for a while comes back where it would have been, and a followed
/// one is not swept over the distance it moved while it had no shape.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[require(Transform)]
pub enum Kinematic {
    /// Moves at these velocities; the plugin advances the `Transform` every step. Any turn
    /// rate works, even more than half a turn per step (a spinner): the obstacle is swept
    /// through the whole `angular · dt`.
    Velocity {
        /// Counter-clockwise turn rate about the entity's origin, radians per second.
        angular: f32,
        /// Velocity of the origin, world units per second.
        linear: Vec2,
    },
    /// Your systems set the `Transform` to the pose wanted at the end of the next step; the
    /// plugin sweeps the obstacle from the previous step's pose to it (turning by the
    /// shorter way, less than half a turn per step).
    FollowTransform,
}

impl Default for Kinematic {
    /// At rest, velocity-driven.
    fn default() -> Self {
        Self::Velocity {
            angular: 0.0,
            linear: Vec2::ZERO,
        }
    }
}

impl Kinematic {
    /// Turning at `angular` rad/s about the entity's origin.
    #[must_use]
    pub const fn turning(angular: f32) -> Self {
        Self::Velocity {
            angular,
            linear: Vec2::ZERO,
        }
    }
}

/// The mass of a [`MovingCircle`] for ball–ball impulses. Without it, a ball's mass is its
/// area, `π r²` (so equal balls have equal mass). Must be positive and finite, and large
/// enough that `1 / mass` is finite (a subnormal mass is refused).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct CcdMass(pub f32);

/// The fastest a [`MovingCircle`] leaves a contact, world units per second: each
/// contact's response (a bounce, a kick, a push by a moving paddle or another ball) is
/// scaled down to it at the instant of the contact, inside the step, so the rest of the
/// step is flown at the limited speed and the time of flight stays exact. Gravity may
/// take it faster between contacts. Must not be negative or NaN (`f32::INFINITY` is no
/// limit, as without the component).
///
/// A breakout ball struck by the side of a fast paddle would otherwise leave at the
/// paddle's speed plus its own, without bound.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct CcdMaxSpeed(pub f32);

/// What a [`MovingCircle`]'s last step rode: put it on a circle, and the plugin writes it
/// every step (a circle without it costs nothing). A ball pressed onto a round part (a
/// [`Pillar`], an end or a round cap, an arc from either side) rides it on its exact
/// circle; this says for how long, and how much energy friction took on the way, so a
/// game can play a rolling sound on a wire ramp, or check that a ride keeps its energy:
/// kinetic plus potential, plus `friction_loss`, holds from one step to the next.
///
/// A circle the step moved through the event machinery (another ball or a moving part
/// near it) rides the same exact circle and tallies it the same way, unless it touches
/// another ball there (it then follows the part along chords, or settles, and tallies no
/// ride).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_ccd::prelude::*;
/// fn rolling_sound(balls: Query<(&MovingCircle, &CcdRide)>, time: Res<Time<Fixed>>) {
///     for (circle, ride) in &balls {
///         let riding = ride.time / time.delta_secs().max(f32::MIN_POSITIVE);
///         let _loudness = riding * circle.velocity.length();
///     }
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CcdRide {
    /// Seconds of the last step the circle rode a round part, moving along it (not held
    /// still on a post's top or by friction).
    pub time: f32,
    /// The kinetic plus potential energy per unit mass friction took on those rides,
    /// world units²/s² (0 without friction).
    pub friction_loss: f32,
}

impl From<ccd_core::RideTally> for CcdRide {
    fn from(tally: ccd_core::RideTally) -> Self {
        Self {
            time: tally.time,
            friction_loss: tally.friction_loss,
        }
    }
}

/// The range a mass (a [`CcdMass`], or the area `π r²` that stands for it) must lie in.
pub(crate) const MASS_RANGE: &str = "positive and finite, with a finite inverse (1 / value)";

/// `Ok` when `mass` is in [`MASS_RANGE`].
pub(crate) fn check_mass(field: &'static str, mass: f32) -> Result<(), ShapeError> {
    if !mass.is_finite() {
        return Err(ShapeError::NonFinite { field });
    }
    if mass > 0.0 && (1.0 / mass).is_finite() {
        Ok(())
    } else {
        Err(ShapeError::OutOfRange {
            field,
            range: MASS_RANGE,
        })
    }
}

/// Warn once about a bad value and mark the entity, unless it is marked already.
pub(crate) fn mark_invalid(
    commands: &mut bevy::prelude::Commands,
    entity: bevy::prelude::Entity,
    already_marked: bool,
    field: &'static str,
    reason: impl core::fmt::Display,
) {
    if already_marked {
        return;
    }
    tracing::warn!("bevy_circle_ccd: entity {entity}: `{field}` is invalid ({reason}); skipped until fixed");
    commands.entity(entity).try_insert(CcdInvalid {
        field: field.to_owned(),
        reason: reason.to_string(),
    });
}

/// A refusal's reason with the value given, when it is known: what is accepted, then what
/// was written.
pub(crate) fn quoted(reason: impl core::fmt::Display, given: Option<String>) -> String {
    match given {
        Some(value) => format!("{reason}; given {value}"),
        None => reason.to_string(),
    }
}

/// A placement quoted for a refusal that names it: its translation, rotation and scale.
pub(crate) fn placement_given(
    translation: bevy::math::Vec3,
    rotation: bevy::math::Quat,
    scale: bevy::math::Vec3,
) -> String {
    format!("translation {translation}, rotation {rotation}, scale {scale}")
}

/// Why a moving thing with a parent is skipped.
pub(crate) const PARENTED: &str =
    "it moves in world space, from its own Transform, so it must be a root entity (no ChildOf)";
