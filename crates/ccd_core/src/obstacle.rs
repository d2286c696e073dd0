//! [`Obstacle`]: a shape (a segment, a pillar, a capsule, a chain's edge or an arc) with a
//! material, one-sidedness, sensor flag and collision layers, and the [`Obstacles`] trait
//! every obstacle store implements.

use crate::hit::{ContactOrder, Hit};
use crate::material::Material;
use crate::parabola::Parabola;
use crate::shape::{Aabb, Capsule, ChainEdge, Circle, CircleArc, Polygon, Polyline, Segment, ShapeError};
use crate::sweep::{
    CurvedHit, sweep_circle_arc_ordered, sweep_circle_capsule_ordered, sweep_circle_chain_edge_ordered,
    sweep_circle_circle_ordered, sweep_circle_segment_ordered, sweep_parabola_arc_ordered,
    sweep_parabola_capsule_ordered, sweep_parabola_chain_edge_ordered, sweep_parabola_circle_ordered,
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
    /// A segment with a radius.
    Capsule(Capsule),
    /// One edge of a [`Polyline`] or a [`Polygon`]: a segment that knows its neighbours.
    Edge(ChainEdge),
    /// An arc, as a rail or a rounded band.
    Arc(CircleArc),
}

impl ObstacleShape {
    /// The bounding box.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        match self {
            Self::Segment(s) => s.aabb(),
            Self::Circle(c) => c.aabb(),
            Self::Capsule(c) => c.aabb(),
            Self::Edge(e) => e.aabb(),
            Self::Arc(a) => a.aabb(),
        }
    }

    /// `Ok` when the geometry is usable (see each shape's `validate`).
    pub fn validate(&self) -> Result<(), ShapeError> {
        match self {
            Self::Segment(s) => s.validate(),
            Self::Circle(c) => c.validate(),
            Self::Capsule(c) => c.validate(),
            Self::Edge(e) => e.validate(),
            Self::Arc(a) => a.validate(),
        }
    }

    /// The point of the shape's core (its segment, its centre, its curve) closest to `p`,
    /// and how far the surface lies from the core (its rounding).
    #[inline]
    pub(crate) fn core_near(&self, p: Vec2) -> (Vec2, f32) {
        match self {
            Self::Segment(s) => (s.closest_point(p), 0.0),
            Self::Edge(e) => (e.segment.closest_point(p), 0.0),
            Self::Capsule(c) => (c.segment.closest_point(p), c.radius),
            Self::Circle(c) => (c.center, c.radius),
            Self::Arc(a) => (a.closest_point(p), a.thickness),
        }
    }

    /// The point of the shape's surface closest to `p`, and how far that surface lies
    /// from its core (segment, centre or curve): the core's closest point is
    /// `point − normal · rounding`. `None` for `p` on the core itself.
    #[inline]
    pub(crate) fn surface_near(&self, p: Vec2) -> Option<SurfacePoint> {
        let (core, rounding) = self.core_near(p);
        let gap = p - core;
        let round = gap.try_normalize()?;
        // Within a flat face, the face's own normal (see `Segment::normal_toward`).
        let normal = match self.core_segment() {
            Some(s) if s.holds_foot_of(p) => s.normal_toward(gap).unwrap_or(round),
            _ => round,
        };
        Some(SurfacePoint {
            point: core + normal * rounding,
            normal,
            core,
            rounding,
        })
    }

    /// The line of a thin flat shape, a segment or a chain's edge: its own segment. `None`
    /// for a capsule (its face lies off its core) and a round shape.
    #[inline]
    pub(crate) fn line(&self) -> Option<Segment> {
        match self {
            Self::Segment(s) => Some(*s),
            Self::Edge(e) => Some(e.segment),
            Self::Capsule(_) | Self::Circle(_) | Self::Arc(_) => None,
        }
    }

    /// The segment a flat shape is made round: a segment's or an edge's own, a capsule's
    /// core. `None` for a round shape.
    #[inline]
    pub(crate) fn core_segment(&self) -> Option<Segment> {
        match self {
            Self::Segment(s) => Some(*s),
            Self::Edge(e) => Some(e.segment),
            Self::Capsule(c) => Some(c.segment),
            Self::Circle(_) | Self::Arc(_) => None,
        }
    }

    /// The flat face whose closest point to `p` lies strictly between its ends, moved out
    /// to the surface on `p`'s side: a segment's or an edge's own face, a capsule's face
    /// offset by its radius. `None` at an end cap or on a round shape.
    #[inline]
    pub(crate) fn face_near(&self, p: Vec2) -> Option<Segment> {
        let (core, rounding) = match self {
            Self::Segment(s) => (*s, 0.0),
            Self::Edge(e) => (e.segment, 0.0),
            Self::Capsule(c) => (c.segment, c.radius),
            Self::Circle(_) | Self::Arc(_) => return None,
        };
        if !core.holds_foot_of(p) {
            return None;
        }
        let out = (p - core.closest_point(p)).try_normalize().unwrap_or(Vec2::ZERO) * rounding;
        Some(Segment::new(core.a + out, core.b + out))
    }
}

/// A shape's surface point nearest a given point ([`ObstacleShape::surface_near`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SurfacePoint {
    /// On the surface.
    pub(crate) point: Vec2,
    /// Unit, from the surface towards the given point.
    pub(crate) normal: Vec2,
    /// The core's closest point (the segment's, the arc curve's, the pillar's centre).
    pub(crate) core: Vec2,
    /// How far the surface lies from the core.
    pub(crate) rounding: f32,
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
    /// Whether the obstacle responds to a contact at `point` (on its surface) whose normal
    /// (from the obstacle towards the circle) is `normal`: always, except a one-sided
    /// segment or chain touched from behind, which a circle passes through. The one front
    /// test of the crate (sweeps, moving obstacles and resting contacts all ask it).
    ///
    /// A one-sided chain's front at an inner vertex is that of either edge where the chain
    /// bends away from its front (a convex corner), of both where it bends towards it.
    #[inline]
    #[must_use]
    pub fn takes_contact(&self, point: Vec2, normal: Vec2) -> bool {
        match self.shape {
            ObstacleShape::Segment(s) if self.one_sided => normal.dot(s.direction().perp()) > 0.0,
            ObstacleShape::Edge(e) if self.one_sided => edge_front_takes(e, point, normal),
            _ => true,
        }
    }

    /// The point of the obstacle's surface closest to `p` and the unit normal from it
    /// towards `p` (`None` for `p` on the obstacle's core, where no normal is defined).
    #[inline]
    pub(crate) fn closest_to(&self, p: Vec2) -> Option<(Vec2, Vec2)> {
        self.shape.surface_near(p).map(|s| (s.point, s.normal))
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

    /// A solid, elastic capsule on all layers.
    #[inline]
    #[must_use]
    pub const fn capsule(capsule: Capsule) -> Self {
        Self::new(ObstacleShape::Capsule(capsule))
    }

    /// A solid, two-sided, elastic arc on all layers.
    #[inline]
    #[must_use]
    pub const fn arc(arc: CircleArc) -> Self {
        Self::new(ObstacleShape::Arc(arc))
    }

    /// A two-sided, elastic chain edge on all layers.
    #[inline]
    #[must_use]
    pub const fn edge(edge: ChainEdge) -> Self {
        Self::new(ObstacleShape::Edge(edge))
    }

    /// The edges of `chain` as two-sided, elastic obstacles, in order (set one-sidedness,
    /// materials and layers on each).
    ///
    /// ```
    /// use ccd_core::{Obstacle, Polyline, Vec2};
    /// let guide = Polyline::open([Vec2::ZERO, Vec2::new(5.0, 1.0), Vec2::new(9.0, 4.0)]);
    /// assert_eq!(Obstacle::polyline(&guide).count(), 2);
    /// ```
    pub fn polyline(chain: &Polyline) -> impl Iterator<Item = Self> + '_ {
        chain.edges().map(Self::edge)
    }

    /// The edges of `polygon` as one-sided, elastic obstacles facing outward, in order.
    pub fn polygon(polygon: &Polygon) -> impl Iterator<Item = Self> + '_ {
        polygon.edges().map(|e| Self::edge(e).with_one_sided(true))
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

    /// One-sided (segments and chain edges only).
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
        self.shape.aabb()
    }

    /// `Ok` when the geometry is usable: finite, a non-negative radius, a segment of
    /// non-zero length, an arc with a radius and a span.
    pub fn validate(&self) -> Result<(), ShapeError> {
        self.shape.validate()
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
        let found = match self.shape {
            ObstacleShape::Segment(s) => sweep_circle_segment_ordered(circle, motion, s),
            ObstacleShape::Circle(c) => return sweep_circle_circle_ordered(circle, motion, c),
            ObstacleShape::Capsule(c) => return sweep_circle_capsule_ordered(circle, motion, c),
            ObstacleShape::Edge(e) => sweep_circle_chain_edge_ordered(circle, motion, e),
            ObstacleShape::Arc(a) => return sweep_circle_arc_ordered(circle, motion, a),
        }?;
        self.takes_contact(found.0.point, found.0.normal).then_some(found)
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
        let found = match self.shape {
            ObstacleShape::Segment(s) => sweep_parabola_segment_ordered(circle, path, reach, s),
            ObstacleShape::Circle(c) => return sweep_parabola_circle_ordered(circle, path, reach, c),
            ObstacleShape::Capsule(c) => return sweep_parabola_capsule_ordered(circle, path, reach, c),
            ObstacleShape::Edge(e) => sweep_parabola_chain_edge_ordered(circle, path, reach, e),
            ObstacleShape::Arc(a) => return sweep_parabola_arc_ordered(circle, path, reach, a),
        }?;
        self.takes_contact(found.0.hit.point, found.0.hit.normal)
            .then_some(found)
    }
}

/// Whether a one-sided chain edge `e` takes a contact at `point` with `normal`: on its face
/// and at an open end, the edge's own front; at its start vertex (an inner one), either
/// edge's front where the chain bends away from the front there (a convex corner seen
/// from the front), both where it bends towards it.
#[inline]
fn edge_front_takes(e: ChainEdge, point: Vec2, normal: Vec2) -> bool {
    let d = e.segment.direction();
    let front = normal.dot(d.perp()) > 0.0;
    if point != e.segment.a || !e.has_before() {
        return front;
    }
    let before = e.segment.a - e.before;
    let front_before = normal.dot(before.perp()) > 0.0;
    // The front is the left: a turn to the right (clockwise) makes the corner convex there.
    if before.perp_dot(d) < 0.0 {
        front || front_before
    } else {
        front && front_before
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_near_a_long_face_is_the_faces_own() {
        // A face 211 long, far from the origin, and points 1 off it all along: the f32
        // closest point is rounded at the face's scale (an ulp of 200 is 1.5e-5), and a
        // normal taken from it tilts by up to that over the distance 1. The face's own is
        // square to it to the f32 rounding of a unit vector.
        let face = Segment::new(Vec2::new(3.0, -7.0), Vec2::new(203.0, 63.0));
        let shape = ObstacleShape::Segment(face);
        let along = face.direction().normalize();
        let across = along.perp();
        let mut worst = 0.0_f32;
        for k in 1..1000 {
            let p = face.a + face.direction() * (k as f32 / 1000.0) + across;
            let near = shape.surface_near(p).unwrap();
            worst = worst.max(near.normal.dot(along).abs());
            assert!(near.normal.dot(across) > 0.0, "on the side of {p}");
        }
        assert!(worst <= 2.0 * f32::EPSILON, "tilted by {worst:.1e} rad");
    }
}
