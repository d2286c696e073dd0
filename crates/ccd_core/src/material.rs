//! [`Material`]: how a surface or a ball bounces and rubs, and how two of them combine at
//! a contact ([`CombineRule`]), with restitution that can fall with impact speed.

use crate::kick::Kick;

/// How the coefficients of two materials combine at a contact.
///
/// When the two sides name different rules, the one that comes later in this list wins:
/// `Classic < Average < Min < Multiply < Max` (the order Avian and Rapier use for their
/// four rules, so a material ported from either combines as it did there; `Classic`, this
/// crate's own rule, yields to any other).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CombineRule {
    /// This crate's rule and the default: restitution multiplies (`e_a·e_b`), friction is
    /// the geometric mean (`sqrt(μ_a·μ_b)`).
    #[default]
    Classic,
    /// The mean: `(a + b) / 2`.
    Average,
    /// The smaller: `min(a, b)`.
    Min,
    /// The product: `a·b` (for friction too).
    Multiply,
    /// The larger: `max(a, b)`.
    Max,
}

impl CombineRule {
    /// The rule of a contact between sides with rules `self` and `other`: the later one
    /// in the list (see the type's docs).
    #[inline]
    #[must_use]
    pub fn with(self, other: Self) -> Self {
        self.max(other)
    }

    /// Combine two restitutions (both already non-negative and finite).
    #[inline]
    #[must_use]
    fn restitution(self, a: f32, b: f32) -> f32 {
        match self {
            Self::Classic | Self::Multiply => a * b,
            _ => self.common(a, b),
        }
    }

    /// Combine two friction coefficients (both already non-negative and finite).
    #[inline]
    #[must_use]
    fn friction(self, a: f32, b: f32) -> f32 {
        match self {
            Self::Classic => (a * b).sqrt(),
            Self::Multiply => a * b,
            _ => self.common(a, b),
        }
    }

    fn common(self, a: f32, b: f32) -> f32 {
        match self {
            Self::Average => 0.5 * (a + b),
            Self::Min => a.min(b),
            Self::Max => a.max(b),
            Self::Classic | Self::Multiply => a * b,
        }
    }
}

/// How a surface or a ball bounces and rubs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Coefficient of restitution: the fraction of the approach speed returned along the
    /// normal. `1` is a perfect bounce, `0` kills the bounce; above `1` kicks (pinball
    /// bumpers and slingshots).
    pub restitution: f32,
    /// Coulomb friction coefficient `μ`: a contact takes at most `μ·|Δv_n|` of tangential
    /// speed, and never reverses it. `0` is frictionless.
    pub friction: f32,
    /// How restitution combines with the other side's. Default [`CombineRule::Classic`].
    pub restitution_rule: CombineRule,
    /// How friction combines with the other side's. Default [`CombineRule::Classic`].
    pub friction_rule: CombineRule,
    /// Restitution that falls with impact speed (rubber): at an approach speed `v` along
    /// the normal the restitution is `e / (1 + falloff·v / falloff_speed)`, so `falloff = 1`
    /// halves the bounce at `falloff_speed`. Dimensionless, `≥ 0`. Default 0: constant.
    pub falloff: f32,
    /// The reference speed of [`falloff`](Self::falloff), in world units per second
    /// (1,000 for 1 m/s in a game measured in millimetres). Default 1.
    pub falloff_speed: f32,
    /// An active surface's kick at the instant of impact. Default [`Kick::NONE`].
    pub kick: Kick,
}

impl Material {
    /// A perfect, frictionless bounce: restitution 1, friction 0. The default.
    pub const ELASTIC: Self = Self::new(1.0, 0.0);

    /// A material with `restitution` and `friction`, combined by the classic rule, with no
    /// falloff and no kick.
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
            kick: Kick::NONE,
        }
    }

    /// With `kick` (an active surface: a bumper, a slingshot, a kicker).
    #[inline]
    #[must_use]
    pub const fn with_kick(mut self, kick: Kick) -> Self {
        self.kick = kick;
        self
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

    /// The restitution at an approach speed `approach` along the normal, after the
    /// falloff: `e / (1 + falloff·approach / falloff_speed)` (bad values count as no
    /// falloff, so this is never NaN or negative).
    ///
    /// ```
    /// use ccd_core::Material;
    /// // Rubber in mm/s: e = 0.9, halved at 1 m/s.
    /// let rubber = Material::new(0.9, 0.0).with_falloff(1.0, 1000.0);
    /// assert_eq!(rubber.restitution_at(0.0), 0.9);
    /// assert_eq!(rubber.restitution_at(1000.0), 0.45);
    /// assert_eq!(rubber.restitution_at(3000.0), 0.225);
    /// ```
    #[inline]
    #[must_use]
    pub fn restitution_at(&self, approach: f32) -> f32 {
        let e = sanitize(self.restitution);
        let (f, speed) = (sanitize(self.falloff), sanitize(self.falloff_speed));
        if f == 0.0 || speed == 0.0 {
            return e;
        }
        let scale = 1.0 + f * sanitize(approach) / speed;
        if scale.is_finite() { e / scale } else { 0.0 }
    }

    /// The material of a contact between a ball of material `self` and a surface of
    /// material `other`.
    ///
    /// - **Restitution and friction** combine by the rules of the two sides (the later
    ///   rule in [`CombineRule`]'s list wins). By default (both `Classic`) restitution
    ///   multiplies, `e = e_ball · e_surface`, so a default surface (`e = 1`) leaves the
    ///   ball's own restitution, and friction is the geometric mean,
    ///   `μ = sqrt(μ_ball · μ_surface)`, so a frictionless surface stays frictionless.
    /// - **The falloff and the kick are the surface's**: `other`'s when it has one, else
    ///   `self`'s.
    ///
    /// Negative or non-finite values are treated as 0, so a bad material can weaken a
    /// bounce but never produce NaN.
    ///
    /// ```
    /// use ccd_core::{CombineRule, Material};
    /// let ball = Material::new(0.8, 0.09);
    /// let wall = Material::new(1.5, 0.16);
    /// let contact = ball.combine(wall);
    /// assert!((contact.restitution - 1.2).abs() < 1e-6);
    /// assert!((contact.friction - 0.12).abs() < 1e-6);
    /// // A wall ported from Avian with `Max` restitution: max(0.8, 0.5) = 0.8.
    /// let ported = Material::new(0.5, 0.16).with_rules(CombineRule::Max, CombineRule::Classic);
    /// assert_eq!(ball.combine(ported).restitution, 0.8);
    /// ```
    #[inline]
    #[must_use]
    pub fn combine(self, other: Self) -> Self {
        let e_rule = self.restitution_rule.with(other.restitution_rule);
        let mu_rule = self.friction_rule.with(other.friction_rule);
        let e = e_rule.restitution(sanitize(self.restitution), sanitize(other.restitution));
        let mu = mu_rule.friction(sanitize(self.friction), sanitize(other.friction));
        let kick = if other.kick.is_active() {
            other.kick
        } else {
            self.kick
        };
        let (falloff, speed) = if sanitize(other.falloff) > 0.0 {
            (other.falloff, other.falloff_speed)
        } else {
            (self.falloff, self.falloff_speed)
        };
        Self::new(sanitize(e), sanitize(mu))
            .with_rules(e_rule, mu_rule)
            .with_falloff(falloff, speed)
            .with_kick(kick)
    }
}

impl Default for Material {
    fn default() -> Self {
        Self::ELASTIC
    }
}

/// A non-negative finite value, or 0.
#[inline]
pub(crate) fn sanitize(x: f32) -> f32 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(e: CombineRule, mu: CombineRule) -> (Material, Material) {
        (Material::new(0.8, 0.1).with_rules(e, mu), Material::new(0.4, 0.9))
    }

    #[test]
    fn each_rule_by_hand() {
        // Ball (0.8, 0.1), surface (0.4, 0.9); the ball's rule wins over the surface's
        // Classic whatever it is (Classic is first in the list).
        let cases = [
            (CombineRule::Classic, 0.32, 0.3),
            (CombineRule::Average, 0.6, 0.5),
            (CombineRule::Min, 0.4, 0.1),
            (CombineRule::Multiply, 0.32, 0.09),
            (CombineRule::Max, 0.8, 0.9),
        ];
        for (rule, e, mu) in cases {
            let (a, b) = rules(rule, rule);
            for c in [a.combine(b), b.combine(a)] {
                assert!((c.restitution - e).abs() < 1e-6, "{rule:?}: e {}", c.restitution);
                assert!((c.friction - mu).abs() < 1e-6, "{rule:?}: μ {}", c.friction);
            }
        }
    }

    #[test]
    fn the_later_rule_wins() {
        use CombineRule::*;
        let order = [Classic, Average, Min, Multiply, Max];
        for (i, &a) in order.iter().enumerate() {
            for (j, &b) in order.iter().enumerate() {
                assert_eq!(a.with(b), order[i.max(j)]);
            }
        }
        // Restitution Min against Max: Max wins, max(0.8, 0.4) = 0.8; friction rules apart.
        let a = Material::new(0.8, 0.1).with_rules(Min, Average);
        let b = Material::new(0.4, 0.9).with_rules(Max, Classic);
        let c = a.combine(b);
        assert_eq!((c.restitution, c.friction), (0.8, 0.5));
    }

    #[test]
    fn falloff_by_hand_and_taken_from_the_surface() {
        // VP's rubber: e(v) = e0 / (1 + f·v / 1 m/s); e0 = 0.9, f = 0.5, in mm/s:
        // at 2 m/s, 0.9 / (1 + 0.5·2) = 0.45.
        let rubber = Material::new(0.9, 0.0).with_falloff(0.5, 1000.0);
        assert!((rubber.restitution_at(2000.0) - 0.45).abs() < 1e-6);
        let ball = Material::new(1.0, 0.0);
        let c = ball.combine(rubber);
        assert!((c.restitution_at(2000.0) - 0.45).abs() < 1e-6);
        // Bad values: no falloff, never NaN.
        let bad = Material::new(0.9, 0.0).with_falloff(f32::NAN, -1.0);
        assert_eq!(bad.restitution_at(1e30), 0.9);
        let huge = Material::new(0.9, 0.0).with_falloff(1e30, 1e-30);
        assert_eq!(huge.restitution_at(1e30), 0.0);
    }
}
