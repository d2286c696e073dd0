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
    /// infinity and no receding contact ever leaves the crate.
    #[inline]
    #[must_use]
    pub(crate) fn approached_by(self, motion: Vec2) -> Option<Self> {
        let finite = self.toi.is_finite()
            && self.center.is_finite()
            && self.point.is_finite()
            && self.normal.is_finite();
        (finite && motion.dot(self.normal) < 0.0).then_some(self)
    }
}
