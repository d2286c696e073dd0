//! The shapes under test, their exact f64 distances, and one case (a ball on a leg against a shape).

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Capsule,
    Arc,
    Polyline,
    Polygon,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Capsule => "capsule",
            Self::Arc => "arc",
            Self::Polyline => "open polyline",
            Self::Polygon => "polygon",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Shape {
    Capsule(Capsule),
    Arc(CircleArc),
    Polyline(Polyline),
    Polygon(Polygon),
}

pub(crate) fn v_code(p: Vec2) -> String {
    format!("Vec2::new({:?}, {:?})", p.x, p.y)
}

pub(crate) fn points_code(points: &[Vec2]) -> String {
    let inner: Vec<String> = points.iter().map(|&p| v_code(p)).collect();
    format!("[{}]", inner.join(", "))
}

impl Shape {
    /// The shape as Rust code.
    pub(crate) fn code(&self) -> String {
        match self {
            Self::Capsule(c) => format!(
                "Capsule::new({}, {}, {:?})",
                v_code(c.segment.a),
                v_code(c.segment.b),
                c.radius
            ),
            Self::Arc(a) => format!(
                "CircleArc::new({}, {:?}, {:?}, {:?}).with_thickness({:?})",
                v_code(a.center),
                a.radius,
                a.start,
                a.end,
                a.thickness
            ),
            Self::Polyline(p) if p.closed => format!("Polyline::closed({})", points_code(&p.points)),
            Self::Polyline(p) => format!("Polyline::open({})", points_code(&p.points)),
            Self::Polygon(p) => format!("Polygon::new({})", points_code(&p.points)),
        }
    }

    /// The chain's obstacles (none for a capsule or an arc).
    pub(crate) fn obstacles(&self) -> Vec<Obstacle> {
        match self {
            Self::Polyline(p) => Obstacle::polyline(p).collect(),
            Self::Polygon(p) => Obstacle::polygon(p).collect(),
            Self::Capsule(_) | Self::Arc(_) => Vec::new(),
        }
    }

    pub(crate) fn scale(&self) -> f64 {
        let max = |p: Vec2| f64::from(p.abs().max_element());
        match self {
            Self::Capsule(c) => max(c.segment.a).max(max(c.segment.b)).max(f64::from(c.radius)),
            Self::Arc(a) => max(a.center) + f64::from(a.radius) + f64::from(a.thickness),
            Self::Polyline(p) => p.points.iter().map(|&q| max(q)).fold(0.0, f64::max),
            Self::Polygon(p) => p.points.iter().map(|&q| max(q)).fold(0.0, f64::max),
        }
    }
}

/// The closest point to `p` of the segment from `a` to `b`.
pub(crate) fn segment_closest(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let d = b - a;
    let u = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    a + d * u
}

/// An arc in f64, from the f32 fields.
#[derive(Clone, Debug)]
pub(crate) struct ExactArc {
    pub(crate) center: DVec2,
    pub(crate) radius: f64,
    pub(crate) start: f64,
    pub(crate) span: f64,
    pub(crate) ends: [DVec2; 2],
}

impl ExactArc {
    /// Whether the direction of `rel` (from the centre) is within the angle range.
    pub(crate) fn holds(&self, rel: DVec2) -> bool {
        self.span >= TAU || (rel.y.atan2(rel.x) - self.start).rem_euclid(TAU) <= self.span
    }

    pub(crate) fn distance(&self, p: DVec2) -> f64 {
        let rel = p - self.center;
        if self.holds(rel) {
            (rel.length() - self.radius).abs()
        } else {
            p.distance(self.ends[0]).min(p.distance(self.ends[1]))
        }
    }
}

/// The shape's core (segments or a curve) and its rounding, in f64.
#[derive(Clone, Debug)]
pub(crate) enum Exact {
    Segments {
        segments: Vec<[DVec2; 2]>,
        rounding: f64,
    },
    Arc {
        arc: ExactArc,
        thickness: f64,
    },
}

impl Exact {
    pub(crate) fn of(shape: &Shape) -> Self {
        let chain = |points: &[Vec2], closed: bool| -> Vec<[DVec2; 2]> {
            let n = points.len();
            let edges = if closed { n } else { n - 1 };
            (0..edges)
                .map(|i| [points[i].as_dvec2(), points[(i + 1) % n].as_dvec2()])
                .collect()
        };
        match shape {
            Shape::Capsule(c) => Self::Segments {
                segments: vec![[c.segment.a.as_dvec2(), c.segment.b.as_dvec2()]],
                rounding: f64::from(c.radius),
            },
            Shape::Arc(a) => {
                let center = a.center.as_dvec2();
                let radius = f64::from(a.radius);
                let (start, end) = (f64::from(a.start), f64::from(a.end));
                let at = |angle: f64| center + DVec2::new(angle.cos(), angle.sin()) * radius;
                Self::Arc {
                    arc: ExactArc {
                        center,
                        radius,
                        start,
                        span: end - start,
                        ends: [at(start), at(end)],
                    },
                    thickness: f64::from(a.thickness),
                }
            }
            Shape::Polyline(p) => Self::Segments {
                segments: chain(&p.points, p.closed),
                rounding: 0.0,
            },
            Shape::Polygon(p) => Self::Segments {
                segments: chain(&p.points, true),
                rounding: 0.0,
            },
        }
    }

    pub(crate) fn rounding(&self) -> f64 {
        match self {
            Self::Segments { rounding, .. } => *rounding,
            Self::Arc { thickness, .. } => *thickness,
        }
    }

    /// How many parts the core has, for the reference: each segment, or the arc.
    pub(crate) fn parts(&self) -> usize {
        match self {
            Self::Segments { segments, .. } => segments.len(),
            Self::Arc { .. } => 1,
        }
    }

    /// Distance from `p` to the part `j` of the core.
    pub(crate) fn part_distance(&self, j: usize, p: DVec2) -> f64 {
        match self {
            Self::Segments { segments, .. } => {
                let [a, b] = segments[j];
                p.distance(segment_closest(a, b, p))
            }
            Self::Arc { arc, .. } => arc.distance(p),
        }
    }

    /// The point of the part `j` of the core closest to `p`.
    pub(crate) fn part_closest(&self, j: usize, p: DVec2) -> DVec2 {
        match self {
            Self::Segments { segments, .. } => {
                let [a, b] = segments[j];
                segment_closest(a, b, p)
            }
            Self::Arc { .. } => self.closest(p),
        }
    }

    /// Distance from `p` to the core.
    pub(crate) fn core_distance(&self, p: DVec2) -> f64 {
        match self {
            Self::Segments { segments, .. } => segments
                .iter()
                .map(|&[a, b]| p.distance_squared(segment_closest(a, b, p)))
                .fold(f64::INFINITY, f64::min)
                .sqrt(),
            Self::Arc { arc, .. } => arc.distance(p),
        }
    }

    /// Points of the core, one of which is the closest to `p`: every segment's closest
    /// point; the arc's end points and, within the range, the curve's closest point.
    pub(crate) fn candidates(&self, p: DVec2) -> Vec<DVec2> {
        match self {
            Self::Segments { segments, .. } => {
                segments.iter().map(|&[a, b]| segment_closest(a, b, p)).collect()
            }
            Self::Arc { arc, .. } => {
                let rel = p - arc.center;
                let mut out = arc.ends.to_vec();
                if arc.holds(rel)
                    && let Some(dir) = rel.try_normalize()
                {
                    out.push(arc.center + dir * arc.radius);
                }
                out
            }
        }
    }

    pub(crate) fn closest(&self, p: DVec2) -> DVec2 {
        self.candidates(p)
            .into_iter()
            .min_by(|a, b| p.distance(*a).total_cmp(&p.distance(*b)))
            .unwrap()
    }

    /// The unit normals at `p` (from the core towards `p`) of every candidate within
    /// `window` of the closest distance, or `None` where the normal is ill-defined (`p`
    /// within 1e-2 of the core, or of an arc's centre).
    pub(crate) fn normals(&self, p: DVec2, window: f64) -> Option<Vec<DVec2>> {
        if let Self::Arc { arc, .. } = self
            && p.distance(arc.center) < 1e-2
        {
            return None;
        }
        let candidates = self.candidates(p);
        let nearest = candidates
            .iter()
            .map(|q| p.distance(*q))
            .fold(f64::INFINITY, f64::min);
        if nearest < 1e-2 {
            return None;
        }
        Some(
            candidates
                .into_iter()
                .filter(|q| p.distance(*q) <= nearest + window)
                .map(|q| (p - q) / p.distance(q))
                .collect(),
        )
    }
}

pub(crate) fn angle_between(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b).atan2(a.dot(b)).abs()
}

// ---------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------

/// A ball on a leg against a shape. A straight leg has zero gravity and is run through the
/// straight query with `motion = velocity · duration`.
#[derive(Clone, Copy)]
pub(crate) struct Case<'a> {
    pub(crate) circle: Circle,
    pub(crate) path: Parabola,
    pub(crate) straight: bool,
    pub(crate) shape: &'a Shape,
    pub(crate) exact: &'a Exact,
}

impl Case<'_> {
    pub(crate) fn motion(&self) -> Vec2 {
        self.path.velocity * self.path.duration
    }

    /// The centre after the fraction `s`, in f64 from the f32 inputs.
    pub(crate) fn at(&self, s: f64) -> DVec2 {
        let c = self.circle.center.as_dvec2();
        if self.straight {
            return c + self.motion().as_dvec2() * s;
        }
        let t = s * f64::from(self.path.duration);
        c + self.path.velocity.as_dvec2() * t + self.path.gravity.as_dvec2() * (0.5 * t * t)
    }

    /// The centre's velocity at the fraction `s`, per unit fraction.
    pub(crate) fn velocity(&self, s: f64) -> DVec2 {
        if self.straight {
            return self.motion().as_dvec2();
        }
        let t = f64::from(self.path.duration);
        (self.path.velocity.as_dvec2() + self.path.gravity.as_dvec2() * (s * t)) * t
    }

    /// Distance from the centre to the shape's surface minus the ball's radius.
    pub(crate) fn gap(&self, s: f64) -> f64 {
        self.exact.core_distance(self.at(s)) - self.exact.rounding() - f64::from(self.circle.radius)
    }

    /// [`Case::gap`] for the part `j` of the shape alone.
    pub(crate) fn part_gap(&self, j: usize, s: f64) -> f64 {
        self.exact.part_distance(j, self.at(s)) - self.exact.rounding() - f64::from(self.circle.radius)
    }

    pub(crate) fn scale(&self) -> f64 {
        let (t, v, g) = (
            f64::from(self.path.duration),
            self.path.velocity.as_dvec2(),
            self.path.gravity.as_dvec2(),
        );
        let motion = if self.straight {
            self.motion().as_dvec2().length()
        } else {
            v.length() * t
        };
        f64::from(self.circle.center.abs().max_element())
            .max(motion)
            .max(0.5 * g.length() * t * t)
            .max(f64::from(self.circle.radius))
            .max(self.shape.scale())
    }

    pub(crate) fn tol(&self) -> f64 {
        1e-4 + 1e-6 * self.scale()
    }

    /// The largest speed along the leg, in units per unit fraction.
    pub(crate) fn speed(&self) -> f64 {
        if self.straight {
            return self.motion().as_dvec2().length();
        }
        let t = f64::from(self.path.duration);
        (self.path.velocity.as_dvec2() * t).length() + (self.path.gravity.as_dvec2() * t * t).length()
    }

    /// Every obstacle's contact (one for a capsule or an arc, one per edge for a chain).
    pub(crate) fn all_hits(&self) -> Vec<Option<Hit>> {
        let (circle, path, motion) = (self.circle, self.path, self.motion());
        match self.shape {
            Shape::Capsule(c) if self.straight => vec![sweep_circle_capsule(circle, motion, *c)],
            Shape::Capsule(c) => vec![sweep_parabola_capsule(circle, path, *c).map(|f| f.hit)],
            Shape::Arc(a) if self.straight => vec![sweep_circle_arc(circle, motion, *a)],
            Shape::Arc(a) => vec![sweep_parabola_arc(circle, path, *a).map(|f| f.hit)],
            Shape::Polyline(_) | Shape::Polygon(_) => self
                .shape
                .obstacles()
                .iter()
                .map(|o| {
                    if self.straight {
                        o.sweep(circle, motion)
                    } else {
                        o.sweep_curved(circle, path).map(|f| f.hit)
                    }
                })
                .collect(),
        }
    }

    /// The first contact: the earliest over the shape's obstacles.
    pub(crate) fn query(&self) -> Option<Hit> {
        earliest(&self.all_hits())
    }

    /// The case as Rust code.
    pub(crate) fn code(&self) -> String {
        let query = match (self.shape, self.straight) {
            (Shape::Capsule(_), true) => "sweep_circle_capsule(circle, path.velocity * path.duration, shape)",
            (Shape::Capsule(_), false) => "sweep_parabola_capsule(circle, path, shape)",
            (Shape::Arc(_), true) => "sweep_circle_arc(circle, path.velocity * path.duration, shape)",
            (Shape::Arc(_), false) => "sweep_parabola_arc(circle, path, shape)",
            (Shape::Polyline(_), true) => {
                "Obstacle::polyline(&shape).filter_map(|o| o.sweep(circle, path.velocity * path.duration)) (earliest)"
            }
            (Shape::Polyline(_), false) => {
                "Obstacle::polyline(&shape).filter_map(|o| o.sweep_curved(circle, path)) (earliest)"
            }
            (Shape::Polygon(_), true) => {
                "Obstacle::polygon(&shape).filter_map(|o| o.sweep(circle, path.velocity * path.duration)) (earliest)"
            }
            (Shape::Polygon(_), false) => {
                "Obstacle::polygon(&shape).filter_map(|o| o.sweep_curved(circle, path)) (earliest)"
            }
        };
        format!(
            "let circle = Circle::new({}, {:?});\nlet path = Parabola::new({}, {}, {:?});\nlet shape = {};\n// query: {query}",
            v_code(self.circle.center),
            self.circle.radius,
            v_code(self.path.velocity),
            v_code(self.path.gravity),
            self.path.duration,
            self.shape.code(),
        )
    }
}
