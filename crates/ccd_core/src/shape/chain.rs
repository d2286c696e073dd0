//! Chains of segments: [`Polyline`] (open or closed) and [`Polygon`] (closed and solid),
//! both stored as [`ChainEdge`]s that know their neighbours.

use super::{Aabb, Segment, ShapeError};
use glam::Vec2;

/// One edge of a chain: a segment and the chain's points just before and after it.
///
/// Its neighbours make a chain one surface, not a row of separate walls:
/// - an inner vertex belongs to the edge that starts there (its `a`), so a ball meets
///   each vertex once;
/// - a vertex is met only where it is the chain's closest point. A ball rolling across a
///   flat or concave joint meets the next face, never the vertex's round cap (no ghost
///   normal).
///
/// At an open end, `before` equals `segment.a` (or `after` equals `segment.b`): there the
/// edge ends in a round cap of its own, as a lone segment does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainEdge {
    /// The edge itself. A one-sided chain collides on the side of
    /// [`Segment::front_normal`].
    pub segment: Segment,
    /// The chain's point before `segment.a`, or `segment.a` at an open start.
    pub before: Vec2,
    /// The chain's point after `segment.b`, or `segment.b` at an open end.
    pub after: Vec2,
}

impl ChainEdge {
    /// A lone edge, open at both ends: a segment.
    #[inline]
    #[must_use]
    pub const fn lone(segment: Segment) -> Self {
        Self {
            segment,
            before: segment.a,
            after: segment.b,
        }
    }

    /// Whether an edge comes before this one (its start is an inner vertex).
    #[inline]
    #[must_use]
    pub fn has_before(&self) -> bool {
        self.before != self.segment.a
    }

    /// Whether an edge comes after this one (its end is an inner vertex, which that edge
    /// owns).
    #[inline]
    #[must_use]
    pub fn has_after(&self) -> bool {
        self.after != self.segment.b
    }

    /// `Ok` when all three points are finite and the segment has a length.
    pub fn validate(&self) -> Result<(), ShapeError> {
        self.segment.validate()?;
        if !self.before.is_finite() {
            return Err(ShapeError::NonFinite { field: "before" });
        }
        if !self.after.is_finite() {
            return Err(ShapeError::NonFinite { field: "after" });
        }
        Ok(())
    }

    /// The bounding box of the edge.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.segment.aabb()
    }
}

/// A chain of points joined by segments, open or closed: a lane guide, an orbit's wall, a
/// ramp's entry. Optionally one-sided (set on the obstacle): it then collides only on its
/// front, the left as one walks the points in order (the side of
/// [`Segment::front_normal`] of every edge).
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    /// The points, in order. A closed chain does not repeat the first point at the end.
    pub points: Vec<Vec2>,
    /// Whether the last point joins the first.
    pub closed: bool,
}

impl Polyline {
    /// The open chain through `points`.
    #[must_use]
    pub fn open(points: impl Into<Vec<Vec2>>) -> Self {
        Self {
            points: points.into(),
            closed: false,
        }
    }

    /// The closed chain through `points` (the last joins the first).
    #[must_use]
    pub fn closed(points: impl Into<Vec<Vec2>>) -> Self {
        Self {
            points: points.into(),
            closed: true,
        }
    }

    /// How many edges it has.
    #[inline]
    #[must_use]
    pub fn edge_count(&self) -> usize {
        edge_count(self.points.len(), self.closed)
    }

    /// `Ok` when it has at least 2 points (3 if closed), all finite, and no edge of zero
    /// length. The error names the first bad point.
    ///
    /// ```
    /// use ccd_core::{Polyline, ShapeError, Vec2};
    /// assert!(Polyline::open([Vec2::ZERO, Vec2::X, Vec2::ONE]).validate().is_ok());
    /// assert_eq!(
    ///     Polyline::open([Vec2::ZERO, Vec2::X, Vec2::X]).validate(),
    ///     Err(ShapeError::RepeatedPoint { field: "points", index: 2 })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_points(&self.points, self.closed)
    }

    /// Its edges, in order: edge `i` runs from `points[i]` to the next point.
    pub fn edges(&self) -> impl Iterator<Item = ChainEdge> + '_ {
        let n = self.points.len();
        let closed = self.closed;
        (0..self.edge_count()).map(move |i| {
            let at = |k: usize| self.points[k % n];
            let (a, b) = (at(i), at(i + 1));
            ChainEdge {
                segment: Segment::new(a, b),
                before: if closed || i > 0 { at(i + n - 1) } else { a },
                after: if closed || i + 2 < n { at(i + 2) } else { b },
            }
        })
    }

    /// The bounding box of its points.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        bounds(&self.points)
    }
}

/// A closed, solid polygon, convex or not: a brick, a bumper's body, a paddle. Its edges
/// face outward whatever the points' winding, so a ball from outside is held out, and a
/// ball that finds itself inside (the polygon was placed on it) leaves freely.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// The corners, in order (either winding), the first not repeated at the end.
    pub points: Vec<Vec2>,
}

impl Polygon {
    /// The polygon with corners `points`.
    #[must_use]
    pub fn new(points: impl Into<Vec<Vec2>>) -> Self {
        Self {
            points: points.into(),
        }
    }

    /// The box of half-size `half_size` around `center`, turned by `angle` radians
    /// (counter-clockwise), corners counter-clockwise from the lower left.
    ///
    /// ```
    /// use ccd_core::{Polygon, Vec2};
    /// let brick = Polygon::rect(Vec2::new(10.0, 5.0), Vec2::new(2.0, 1.0), 0.0);
    /// assert_eq!(brick.points[0], Vec2::new(8.0, 4.0));
    /// assert_eq!(brick.points[2], Vec2::new(12.0, 6.0));
    /// ```
    #[must_use]
    pub fn rect(center: Vec2, half_size: Vec2, angle: f32) -> Self {
        let turn = Vec2::from_angle(angle);
        let corners = [
            Vec2::new(-half_size.x, -half_size.y),
            Vec2::new(half_size.x, -half_size.y),
            Vec2::new(half_size.x, half_size.y),
            Vec2::new(-half_size.x, half_size.y),
        ];
        Self::new(corners.map(|c| center + turn.rotate(c)))
    }

    /// Twice the signed area: above 0 for counter-clockwise corners.
    #[must_use]
    pub fn twice_signed_area(&self) -> f64 {
        let n = self.points.len();
        (0..n)
            .map(|i| {
                let (p, q) = (self.points[i].as_dvec2(), self.points[(i + 1) % n].as_dvec2());
                p.perp_dot(q)
            })
            .sum()
    }

    /// `Ok` when it has at least 3 corners, all finite, no edge of zero length, an area,
    /// and no two edges that cross or touch (other than neighbours at their shared corner).
    ///
    /// ```
    /// use ccd_core::{Polygon, ShapeError, Vec2};
    /// // A bow tie: edges 0 and 2 cross.
    /// let bow = Polygon::new([Vec2::ZERO, Vec2::ONE, Vec2::X, Vec2::Y]);
    /// assert_eq!(bow.validate(), Err(ShapeError::SelfIntersecting { field: "points", first: 0, second: 2 }));
    /// ```
    pub fn validate(&self) -> Result<(), ShapeError> {
        validate_points(&self.points, true)?;
        self.check_simple()?;
        if self.twice_signed_area() == 0.0 {
            return Err(ShapeError::OutOfRange {
                field: "points",
                range: "enclosing an area",
            });
        }
        Ok(())
    }

    /// The first pair of edges that cross or touch, other than neighbours at their shared
    /// corner (neighbours that fold back onto each other count).
    fn check_simple(&self) -> Result<(), ShapeError> {
        let n = self.points.len();
        let edge = |i: usize| Segment::new(self.points[i], self.points[(i + 1) % n]);
        for first in 0..n {
            for second in first + 1..n {
                let neighbours = second == first + 1 || (first == 0 && second == n - 1);
                let (e, f) = (edge(first), edge(second));
                let bad = if neighbours {
                    folds_back(e, f) || folds_back(f, e)
                } else {
                    segments_meet(e, f)
                };
                if bad {
                    return Err(ShapeError::SelfIntersecting {
                        field: "points",
                        first,
                        second,
                    });
                }
            }
        }
        Ok(())
    }

    /// Its edges, facing outward. Edge `i` lies between `points[i]` and the next corner;
    /// for counter-clockwise corners it runs backwards (from the next corner to
    /// `points[i]`), so that its front, the left of its direction, is the outside.
    pub fn edges(&self) -> impl Iterator<Item = ChainEdge> + '_ {
        let n = self.points.len();
        let backwards = self.twice_signed_area() > 0.0;
        let at = move |k: usize| self.points[k % n];
        (0..n).map(move |i| {
            if backwards {
                ChainEdge {
                    segment: Segment::new(at(i + 1), at(i)),
                    before: at(i + 2),
                    after: at(i + n - 1),
                }
            } else {
                ChainEdge {
                    segment: Segment::new(at(i), at(i + 1)),
                    before: at(i + n - 1),
                    after: at(i + 2),
                }
            }
        })
    }

    /// Whether `p` lies strictly inside (the even–odd rule; a point on an edge may go
    /// either way).
    #[must_use]
    pub fn contains(&self, p: Vec2) -> bool {
        let n = self.points.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (self.points[i].as_dvec2(), self.points[(i + 1) % n].as_dvec2());
            let q = p.as_dvec2();
            if (a.y > q.y) != (b.y > q.y) {
                let x = a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y);
                if q.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// The distance from `p` to the polygon's boundary, negative inside: how far a circle
    /// centred at `p` reaches into the solid is its radius less this.
    ///
    /// ```
    /// use ccd_core::{Polygon, Vec2};
    /// let brick = Polygon::rect(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0);
    /// assert_eq!(brick.signed_distance(Vec2::new(0.0, 3.0)), 2.0);
    /// assert_eq!(brick.signed_distance(Vec2::new(0.5, 0.25)), -0.75);
    /// ```
    #[must_use]
    pub fn signed_distance(&self, p: Vec2) -> f32 {
        let n = self.points.len();
        let distance = (0..n)
            .map(|i| {
                let edge = Segment::new(self.points[i], self.points[(i + 1) % n]);
                p.distance(edge.closest_point(p))
            })
            .fold(f32::INFINITY, f32::min);
        if self.contains(p) { -distance } else { distance }
    }

    /// The bounding box of its corners.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        bounds(&self.points)
    }
}

/// Edges of a chain of `points` points.
#[inline]
fn edge_count(points: usize, closed: bool) -> usize {
    match (closed, points) {
        (_, 0 | 1) => 0,
        (false, n) => n - 1,
        (true, 2) => 1,
        (true, n) => n,
    }
}

/// The bounding box of `points` (a point box at the origin for none).
fn bounds(points: &[Vec2]) -> Aabb {
    let first = points.first().copied().unwrap_or(Vec2::ZERO);
    points
        .iter()
        .fold(Aabb::new(first, first), |b, &p| b.union(Aabb::new(p, p)))
}

/// Enough points, all finite, no edge of zero length.
fn validate_points(points: &[Vec2], closed: bool) -> Result<(), ShapeError> {
    let least = if closed { 3 } else { 2 };
    if points.len() < least {
        return Err(ShapeError::TooFewPoints {
            field: "points",
            least: least as u8,
        });
    }
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(ShapeError::NonFinitePoint {
            field: "points",
            index,
        });
    }
    if let Some(index) = (1..points.len()).find(|&i| points[i] == points[i - 1]) {
        return Err(ShapeError::RepeatedPoint {
            field: "points",
            index,
        });
    }
    if closed && points[0] == points[points.len() - 1] {
        return Err(ShapeError::RepeatedPoint {
            field: "points",
            index: points.len() - 1,
        });
    }
    Ok(())
}

/// Whether `f`, which starts where `e` ends, turns straight back along it.
fn folds_back(e: Segment, f: Segment) -> bool {
    let (d, g) = (e.direction().as_dvec2(), f.direction().as_dvec2());
    d.perp_dot(g) == 0.0 && d.dot(g) < 0.0
}

/// Whether two segments share a point, in exact f64 orientation tests (every product of
/// f32 differences is exact in f64 up to the differences' own rounding).
fn segments_meet(e: Segment, f: Segment) -> bool {
    let orient =
        |p: Vec2, q: Vec2, r: Vec2| (q.as_dvec2() - p.as_dvec2()).perp_dot(r.as_dvec2() - p.as_dvec2());
    let within = |p: Vec2, q: Vec2, r: Vec2| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    let (o1, o2) = (orient(e.a, e.b, f.a), orient(e.a, e.b, f.b));
    let (o3, o4) = (orient(f.a, f.b, e.a), orient(f.a, f.b, e.b));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true;
    }
    (o1 == 0.0 && within(e.a, e.b, f.a))
        || (o2 == 0.0 && within(e.a, e.b, f.b))
        || (o3 == 0.0 && within(f.a, f.b, e.a))
        || (o4 == 0.0 && within(f.a, f.b, e.b))
}
