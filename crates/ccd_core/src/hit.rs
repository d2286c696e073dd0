//! [`Hit`]: the answer of every pair query.

use glam::Vec2;

/// The first contact of a swept circle with an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Fraction of `motion` travelled at first contact, in `[0, 1]`.
    pub toi: f32,
    /// The moving circle's centre at contact: `circle.center + motion * toi`.
    pub center: Vec2,
    /// The contact point on the obstacle's surface.
    pub point: Vec2,
    /// Unit vector from `point` towards `center`.
    pub normal: Vec2,
}

impl Hit {
    /// `Some(self)` when every field is finite and the contact is approached, that is
    /// `motion · normal < 0`; `None` otherwise. Every query ends here, so no NaN, no
    /// infinity and no receding contact ever leaves the crate, with one exception: a
    /// moving segment's search that reaches its iteration cap reports the earliest time it
    /// could not prove clear, which need not be approached (its `iterations` equal
    /// [`MAX_MOVING_SEGMENT_ITERATIONS`](crate::MAX_MOVING_SEGMENT_ITERATIONS); the
    /// response leaves a velocity that does not approach unchanged).
    #[inline]
    #[must_use]
    pub(crate) fn approached_by(self, motion: Vec2) -> Option<Self> {
        self.finite_if(motion.dot(self.normal) < 0.0)
    }

    /// `Some(self)` when every field is finite and `approached` holds: the curved sweeps'
    /// form of [`Hit::approached_by`], whose approach depends on the instant.
    #[inline]
    #[must_use]
    pub(crate) fn finite_if(self, approached: bool) -> Option<Self> {
        let finite = self.toi.is_finite()
            && self.center.is_finite()
            && self.point.is_finite()
            && self.normal.is_finite();
        (finite && approached).then_some(self)
    }
}

/// Which end caps of a segment a sweep counts: both for a lone segment; a chain's edge
/// leaves the cap at its end to the edge after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Caps {
    /// The cap around `a`.
    pub(crate) a: bool,
    /// The cap around `b`.
    pub(crate) b: bool,
}

impl Caps {
    /// Both caps: a lone segment.
    pub(crate) const BOTH: Self = Self { a: true, b: true };
}

/// The kind of surface a contact is on, for ordering contacts that tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Feature {
    /// A flat face of a segment.
    Face,
    /// A round part: a segment's end cap, or a circle.
    Round,
}

/// What orders two contacts of one leg with different obstacles: the exact (f64) time of
/// first contact, then the feature, a face before a round part.
///
/// Two segments that share an end point and lie on one line are one flat wall. A circle
/// that meets it near the seam reaches the face of one segment and the end cap of the
/// other at nearly the same time: in f32 the two times are often equal, and the cap's
/// normal (tilted by about the distance to the seam over the radius) would win by store
/// order. The f64 times are computed from the same exact f32 inputs and tell the two
/// apart; when even they are equal the contact is at the seam itself, where the face's
/// normal and the cap's agree, and the face wins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactOrder {
    /// The time of first contact, as a fraction of the motion.
    pub(crate) toi: f64,
    /// The kind of surface touched.
    pub(crate) feature: Feature,
}

impl ContactOrder {
    /// Whether this contact comes strictly before `other`.
    #[inline]
    pub(crate) fn before(self, other: Self) -> bool {
        self.toi < other.toi || (self.toi == other.toi && self.feature < other.feature)
    }
}
