//! A brute-force f64 reference for swept-circle queries, sharing no code with `ccd_core`.
//!
//! The obstacle is a segment `a..b` (a point when `a == b`, which is also how a static
//! circle is modelled: its centre, with the contact distance `r1 + r2`). Along the path
//! `c + t·m`, `t ∈ [0, 1]`, the distance to a convex set is a convex function of `t`, so
//! its minimum is found by ternary search, and the first contact by bisection of
//! `dist(t) − R` on `[0, t_min]`, where that function is non-increasing.

#![allow(dead_code)]

/// A point or vector in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

impl P {
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    pub fn from32(v: ccd_core::Vec2) -> Self {
        Self::new(f64::from(v.x), f64::from(v.y))
    }

    pub fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y)
    }

    pub fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y)
    }

    pub fn scale(self, k: f64) -> Self {
        Self::new(self.x * k, self.y * k)
    }

    pub fn dot(self, o: Self) -> f64 {
        self.x * o.x + self.y * o.y
    }

    pub fn cross(self, o: Self) -> f64 {
        self.x * o.y - self.y * o.x
    }

    pub fn len(self) -> f64 {
        self.x.hypot(self.y)
    }
}

/// The unsigned angle between two non-zero vectors, in radians.
pub fn angle_between(u: P, v: P) -> f64 {
    u.cross(v).abs().atan2(u.dot(v))
}

/// A segment `a..b`, or the point `a` when `a == b`.
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    pub a: P,
    pub b: P,
}

impl Seg {
    pub const fn new(a: P, b: P) -> Self {
        Self { a, b }
    }

    pub const fn point(p: P) -> Self {
        Self { a: p, b: p }
    }

    /// The closest point of the segment to `p`.
    pub fn closest(&self, p: P) -> P {
        let d = self.b.sub(self.a);
        let l2 = d.dot(d);
        if l2 == 0.0 {
            return self.a;
        }
        let s = (p.sub(self.a).dot(d) / l2).clamp(0.0, 1.0);
        self.a.add(d.scale(s))
    }

    pub fn dist(&self, p: P) -> f64 {
        p.sub(self.closest(p)).len()
    }
}

/// What the reference knows about one swept query.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    /// Distance from the start centre to the obstacle.
    pub d0: f64,
    /// Smallest distance over the whole motion, and where (fraction of the motion).
    pub d_min: f64,
    pub t_min: f64,
    /// First `t ∈ [0, 1]` with `dist(t) <= contact`, if any.
    pub first_contact: Option<f64>,
}

/// Distance from `c + t·m` to `seg`.
pub fn dist_at(seg: &Seg, c: P, m: P, t: f64) -> f64 {
    seg.dist(c.add(m.scale(t)))
}

/// Brute-force reference for a circle centre `c` moving by `m` against `seg` with contact
/// distance `contact`.
pub fn reference(seg: &Seg, c: P, m: P, contact: f64) -> Reference {
    let f = |t: f64| dist_at(seg, c, m, t);
    // Ternary search for the minimum of the convex function f on [0, 1].
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
        if hi - lo <= f64::EPSILON * 4.0 {
            break;
        }
    }
    // The end points are candidates too (the search never evaluates them exactly).
    let mut t_min = 0.5 * (lo + hi);
    let mut d_min = f(t_min);
    for t in [0.0, 1.0] {
        let d = f(t);
        if d < d_min {
            (t_min, d_min) = (t, d);
        }
    }
    let d0 = f(0.0);
    let first_contact = if d0 <= contact {
        Some(0.0)
    } else if d_min <= contact {
        // f(lo) > contact >= f(hi), f non-increasing on [0, t_min].
        let (mut lo, mut hi) = (0.0_f64, t_min);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if f(mid) <= contact {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    } else {
        None
    };
    Reference {
        d0,
        d_min,
        t_min,
        first_contact,
    }
}

/// Whether `p` is inside the polygon `verts` (crossing number; boundary points count as
/// either).
pub fn inside_polygon(p: P, verts: &[P]) -> bool {
    let mut inside = false;
    let n = verts.len();
    for i in 0..n {
        let (u, v) = (verts[i], verts[(i + 1) % n]);
        if (u.y > p.y) != (v.y > p.y) {
            let x = u.x + (p.y - u.y) / (v.y - u.y) * (v.x - u.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}
