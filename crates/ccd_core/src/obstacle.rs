//! [`Obstacle`]: a segment or a pillar with a material, one-sidedness, sensor flag and
//! collision layers, and the [`Obstacles`] trait every obstacle store implements.

use crate::hit::{ContactOrder, Hit};
use crate::material::Material;
use crate::parabola::Parabola;
use crate::shape::{Aabb, Circle, Segment, ShapeError};
use crate::sweep::{
    CurvedHit, sweep_circle_circle_ordered, sweep_circle_segment_ordered, sweep_parabola_circle_ordered,
    sweep_parabola_segment_ordered,
};
use glam::Vec2;

/// The geometry of an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObstacleShape {
    /// A wall: two faces and two rounded end points.
    Segment(Segment),
    /// A pillar: a static circle.
    Circle(Circle),
}

/// Membership and filter bitmasks. Two things interact when each one's `memberships`
/// meets the other's `filters`.
///
/// ```
/// use ccd_core::Layers;
/// let ball = Layers::new(0b01, 0b11);
/// let ghost_wall = Layers::new(0b10, 0b10);
/// assert!(!ball.interacts(ghost_wall), "the wall does not look for layer 1");
/// assert!(ball.interacts(Layers::ALL));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layers {
    /// The layers this thing is on.
    pub memberships: u32,
    /// The layers this thing collides with.
    pub filters: u32,
}

impl Layers {
    /// On every layer and colliding with every layer. The default.
    pub const ALL: Self = Self::new(u32::MAX, u32::MAX);

    /// Layers from bitmasks.
    #[inline]
    #[must_use]
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }

    /// Whether `self` and `other` collide.
    #[inline]
    #[must_use]
    pub const fn interacts(self, other: Self) -> bool {
        (self.memberships & other.filters) != 0 && (other.memberships & self.filters) != 0
    }
}

impl Default for Layers {
    fn default() -> Self {
        Self::ALL
    }
}

/// A static obstacle for the multi-bounce sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obstacle {
    /// Its geometry.
    pub shape: ObstacleShape,
    /// Its material, combined with the ball's by [`Material::combine`].
    pub material: Material,
    /// A one-sided segment collides only on its front side, the side of
    /// [`Segment::front_normal`]; a circle hitting it from behind passes through. Ignored
    /// for circles.
    pub one_sided: bool,
    /// A sensor reports contacts but never deflects the circle.
    pub sensor: bool,
    /// Collision layers.
    pub layers: Layers,
}

impl Obstacle {
    /// Whether the obstacle responds to a contact whose normal (from the obstacle towards
    /// the circle) is `normal`: always, except a one-sided segment touched from behind,
    /// which a circle passes through. The one front test of the crate (sweeps, moving
    /// obstacles and resting contacts all ask it).
    #[inline]
    #[must_use]
    pub fn takes_contact(&self, normal: Vec2) -> bool {
        match self.shape {
            ObstacleShape::Segment(s) if self.one_sided => normal.dot(s.direction().perp()) > 0.0,
            _ => true,
        }
    }

    /// The point of the obstacle closest to `p` and the unit normal from it towards `p`
    /// (`None` for `p` on the obstacle itself, where no normal is defined).
    #[inline]
    pub(crate) fn closest_to(&self, p: Vec2) -> Option<(Vec2, Vec2)> {
        let point = match self.shape {
            ObstacleShape::Segment(s) => s.closest_point(p),
            ObstacleShape::Circle(c) => c.center + (p - c.center).try_normalize()? * c.radius,
        };
        Some((point, (p - point).try_normalize()?))
    }

    /// A solid, two-sided, elastic wall on all layers.
    #[inline]
    #[must_use]
    pub const fn segment(segment: Segment) -> Self {
        Self::new(ObstacleShape::Segment(segment))
    }

    /// A solid, elastic pillar on all layers.
    #[inline]
    #[must_use]
    pub const fn pillar(circle: Circle) -> Self {
        Self::new(ObstacleShape::Circle(circle))
    }

    const fn new(shape: ObstacleShape) -> Self {
        Self {
            shape,
            material: Material::ELASTIC,
            one_sided: false,
            sensor: false,
            layers: Layers::ALL,
        }
    }

    /// With `material`.
    #[inline]
    #[must_use]
    pub const fn with_material(mut self, material: Material) -> Self {
        self.material = material;
        self
    }

    /// One-sided (segments only).
    #[inline]
    #[must_use]
    pub const fn with_one_sided(mut self, one_sided: bool) -> Self {
        self.one_sided = one_sided;
        self
    }

    /// A sensor, or not.
    #[inline]
    #[must_use]
    pub const fn with_sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// With collision `layers`.
    #[inline]
    #[must_use]
    pub const fn with_layers(mut self, layers: Layers) -> Self {
        self.layers = layers;
        self
    }

    /// The bounding box of the obstacle's geometry.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        match self.shape {
            ObstacleShape::Segment(s) => s.aabb(),
            ObstacleShape::Circle(c) => c.aabb(),
        }
    }

    /// `Ok` when the geometry is usable: finite, a non-negative radius, a segment of
    /// non-zero length.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match self.shape {
            ObstacleShape::Segment(s) => s.validate(),
            ObstacleShape::Circle(c) => c.validate(),
        }
    }

    /// First contact of `circle` moving by `motion` with this obstacle, honouring
    /// one-sidedness (layers and sensors are the caller's business).
    ///
    /// ```
    /// use ccd_core::{Circle, Obstacle, Segment, Vec2};
    /// // A one-sided floor facing up: hit from above, passed through from below.
    /// let gate = Obstacle::segment(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))).with_one_sided(true);
    /// assert!(gate.sweep(Circle::new(Vec2::new(0.0, 3.0), 1.0), Vec2::new(0.0, -4.0)).is_some());
    /// assert!(gate.sweep(Circle::new(Vec2::new(0.0, -3.0), 1.0), Vec2::new(0.0, 4.0)).is_none());
    /// ```
    #[inline]
    #[must_use]
    pub fn sweep(&self, circle: Circle, motion: Vec2) -> Option<Hit> {
        self.sweep_ordered(circle, motion).map(|(hit, _)| hit)
    }

    /// [`Obstacle::sweep`], with what orders the contact against other obstacles'.
    #[inline]
    pub(crate) fn sweep_ordered(&self, circle: Circle, motion: Vec2) -> Option<(Hit, ContactOrder)> {
        match self.shape {
            ObstacleShape::Segment(s) => {
                let found = sweep_circle_segment_ordered(circle, motion, s)?;
                self.takes_contact(found.0.normal).then_some(found)
            }
            ObstacleShape::Circle(c) => sweep_circle_circle_ordered(circle, motion, c),
        }
    }

    /// First contact of `circle`, whose centre follows the curve `path` (under gravity),
    /// with this obstacle, honouring one-sidedness:
    /// [`sweep_parabola_segment`](crate::sweep_parabola_segment) or
    /// [`sweep_parabola_circle`](crate::sweep_parabola_circle).
    ///
    /// ```
    /// use ccd_core::{Circle, Obstacle, Parabola, Segment, Vec2};
    /// // A one-sided floor facing up catches a ball falling onto it, not one thrown up through it.
    /// let floor = Obstacle::segment(Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))).with_one_sided(true);
    /// let g = Vec2::new(0.0, -10.0);
    /// assert!(floor.sweep_curved(Circle::new(Vec2::new(0.0, 3.0), 1.0), Parabola::new(Vec2::ZERO, g, 1.0)).is_some());
    /// assert!(floor.sweep_curved(Circle::new(Vec2::new(0.0, -3.0), 1.0), Parabola::new(Vec2::new(0.0, 9.0), g, 0.5)).is_none());
    /// ```
    #[inline]
    #[must_use]
    pub fn sweep_curved(&self, circle: Circle, path: Parabola) -> Option<CurvedHit> {
        self.sweep_curved_ordered(circle, path).map(|(hit, _)| hit)
    }

    /// [`Obstacle::sweep_curved`], with what orders the contact against other obstacles'.
    #[inline]
    pub(crate) fn sweep_curved_ordered(
        &self,
        circle: Circle,
        path: Parabola,
    ) -> Option<(CurvedHit, ContactOrder)> {
        self.sweep_curved_within(circle, path, path.aabb(circle.center, circle.radius))
    }

    /// [`Obstacle::sweep_curved_ordered`] with the box the circle sweeps along `path`
    /// given (a leg's search computes it once for all its obstacles).
    #[inline]
    pub(crate) fn sweep_curved_within(
        &self,
        circle: Circle,
        path: Parabola,
        reach: Aabb,
    ) -> Option<(CurvedHit, ContactOrder)> {
        match self.shape {
            ObstacleShape::Segment(s) => {
                let found = sweep_parabola_segment_ordered(circle, path, reach, s)?;
                self.takes_contact(found.0.hit.normal).then_some(found)
            }
            ObstacleShape::Circle(c) => sweep_parabola_circle_ordered(circle, path, reach, c),
        }
    }
}

/// The handle of an obstacle inside an [`Obstacles`] store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObstacleId(pub u32);

/// A store of obstacles that can list those near a box.
///
/// A slice is the simplest store (it lists everything, and the id is the index);
/// [`Grid`](crate::Grid) is the fast one.
pub trait Obstacles {
    /// Calls `f` for every obstacle whose bounding box may meet `bounds`: never fewer,
    /// possibly more. The order must be the same every time for the same store and box,
    /// so that simulations are deterministic.
    fn query(&self, bounds: Aabb, f: impl FnMut(ObstacleId, &Obstacle));
}

impl Obstacles for [Obstacle] {
    #[inline]
    fn query(&self, bounds: Aabb, mut f: impl FnMut(ObstacleId, &Obstacle)) {
        for (i, obstacle) in self.iter().enumerate() {
            if obstacle.aabb().intersects(&bounds) {
                f(ObstacleId(i as u32), obstacle);
            }
        }
    }
}

impl<const N: usize> Obstacles for [Obstacle; N] {
    #[inline]
    fn query(&self, bounds: Aabb, f: impl FnMut(ObstacleId, &Obstacle)) {
        self.as_slice().query(bounds, f);
    }
}

impl Obstacles for Vec<Obstacle> {
    #[inline]
    fn query(&self, bounds: Aabb, f: impl FnMut(ObstacleId, &Obstacle)) {
        self.as_slice().query(bounds, f);
    }
}
