//! What a contact does to a velocity: [`Material`], [`reflect`], [`slide`] and [`respond`].

use crate::tolerance::SEPARATION_SPEED_REL;
use glam::{DVec2, Vec2};

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
}

impl Material {
    /// A perfect, frictionless bounce: restitution 1, friction 0. The default.
    pub const ELASTIC: Self = Self::new(1.0, 0.0);

    /// A material with `restitution` and `friction`.
    #[inline]
    #[must_use]
    pub const fn new(restitution: f32, friction: f32) -> Self {
        Self {
            restitution,
            friction,
        }
    }

    /// The material of a contact between a ball of material `self` and a surface of
    /// material `other`.
    ///
    /// - **Restitution multiplies**: `e = e_ball · e_surface`. A default surface (`e = 1`)
    ///   leaves the ball's own restitution, and a kicker with `e = 1.5` returns half as
    ///   much again as the ball alone would.
    /// - **Friction is the geometric mean**: `μ = sqrt(μ_ball · μ_surface)`. A frictionless
    ///   surface stays frictionless whatever touches it.
    ///
    /// Negative or non-finite values are treated as 0, so a bad material can weaken a
    /// bounce but never produce NaN.
    ///
    /// ```
    /// use ccd_core::Material;
    /// let ball = Material::new(0.8, 0.09);
    /// let wall = Material::new(1.5, 0.16);
    /// let contact = ball.combine(wall);
    /// assert!((contact.restitution - 1.2).abs() < 1e-6);
    /// assert!((contact.friction - 0.12).abs() < 1e-6);
    /// ```
    #[inline]
    #[must_use]
    pub fn combine(self, other: Self) -> Self {
        let e = sanitize(self.restitution) * sanitize(other.restitution);
        let mu = (sanitize(self.friction) * sanitize(other.friction)).sqrt();
        Self::new(sanitize(e), sanitize(mu))
    }
}

impl Default for Material {
    fn default() -> Self {
        Self::ELASTIC
    }
}

/// A non-negative finite value, or 0.
#[inline]
fn sanitize(x: f32) -> f32 {
    if x.is_finite() && x > 0.0 { x } else { 0.0 }
}

/// What a moving circle does when it meets a surface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResponseMode {
    /// Reflect with restitution and friction ([`reflect`]). The default.
    #[default]
    Bounce,
    /// Keep only the tangential part of the velocity ([`slide`]), as a game character
    /// controller does.
    Slide,
    /// Halt at the contact point for the rest of the step, with zero velocity.
    Stop,
}

/// The velocity after a contact with a surface whose unit `normal` points towards the
/// circle.
///
/// `r = v − (1 + e)(v·n)n`, with friction taking at most `μ·|Δv_n|` off the tangential
/// part (Coulomb), never reversing it. A velocity already leaving the surface
/// (`v·n >= 0`) is returned unchanged.
///
/// **Resting contact.** If the approach speed `−v·n` is below `resting_speed`, the normal
/// part is removed instead of bounced, so a ball rolls along a slope without chatter.
///
/// ```
/// use ccd_core::{reflect, Material, Vec2};
/// // 3 across, 4 down onto a floor: an elastic bounce sends it 3 across, 4 up.
/// let v = reflect(Vec2::new(3.0, -4.0), Vec2::Y, Material::ELASTIC, 0.0);
/// assert_eq!(v, Vec2::new(3.0, 4.0));
/// // Half restitution and μ = 0.25: Δv_n = 1.5·4 = 6, so friction takes 1.5 off 3.
/// let v = reflect(Vec2::new(3.0, -4.0), Vec2::Y, Material::new(0.5, 0.25), 0.0);
/// assert_eq!(v, Vec2::new(1.5, 2.0));
/// ```
#[inline]
#[must_use]
pub fn reflect(velocity: Vec2, normal: Vec2, material: Material, resting_speed: f32) -> Vec2 {
    // In f64, with the normal renormalised: an f32 unit normal is off by up to 1e-7, and
    // trusting it would change the speed of every elastic bounce by that much in the same
    // direction. What is left is the final rounding, which does not drift one way.
    let (v, unit) = (velocity.as_dvec2(), normal.as_dvec2());
    let Some(unit) = unit.try_normalize() else {
        return velocity;
    };
    let vn = v.dot(unit);
    if !(vn < 0.0) {
        return velocity;
    }
    let approach = -vn;
    let e = f64::from(sanitize(material.restitution));
    let resting = approach < f64::from(resting_speed) || e == 0.0;
    let bounce = if resting { 0.0 } else { e * approach };
    let tangent = apply_friction(
        v - unit * vn,
        f64::from(sanitize(material.friction)) * (approach + bounce),
    );
    let out = if resting {
        f64::from(SEPARATION_SPEED_REL) * tangent.length()
    } else {
        bounce
    };
    (tangent + unit * out).as_vec2()
}

/// Reduce `tangent` by at most `max_loss` in length, never reversing it.
#[inline]
fn apply_friction(tangent: DVec2, max_loss: f64) -> DVec2 {
    let speed = tangent.length();
    if speed <= max_loss || speed == 0.0 {
        DVec2::ZERO
    } else {
        tangent * ((speed - max_loss) / speed)
    }
}

/// The velocity with its part into the surface removed: what is left slides along it.
/// A velocity already leaving the surface is returned unchanged.
///
/// ```
/// use ccd_core::{slide, Vec2};
/// let v = slide(Vec2::new(3.0, -4.0), Vec2::Y);
/// assert!((v - Vec2::new(3.0, 0.0)).length() < 1e-4);
/// ```
#[inline]
#[must_use]
pub fn slide(velocity: Vec2, normal: Vec2) -> Vec2 {
    let vn = velocity.dot(normal);
    if !(vn < 0.0) {
        return velocity;
    }
    let tangent = velocity - normal * vn;
    tangent + normal * (SEPARATION_SPEED_REL * tangent.length())
}

/// The velocity after a contact, by `mode`.
///
/// ```
/// use ccd_core::{respond, Material, ResponseMode, Vec2};
/// let v = Vec2::new(3.0, -4.0);
/// assert_eq!(respond(ResponseMode::Bounce, v, Vec2::Y, Material::ELASTIC, 0.0), Vec2::new(3.0, 4.0));
/// assert_eq!(respond(ResponseMode::Stop, v, Vec2::Y, Material::ELASTIC, 0.0), Vec2::ZERO);
/// ```
#[inline]
#[must_use]
pub fn respond(
    mode: ResponseMode,
    velocity: Vec2,
    normal: Vec2,
    material: Material,
    resting_speed: f32,
) -> Vec2 {
    match mode {
        ResponseMode::Bounce => reflect(velocity, normal, material, resting_speed),
        ResponseMode::Slide => slide(velocity, normal),
        ResponseMode::Stop => Vec2::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elastic_reflection_keeps_speed() {
        let n = Vec2::new(1.0, 1.0).normalize();
        let v = Vec2::new(-7.0, 2.0);
        let r = reflect(v, n, Material::ELASTIC, 0.0);
        assert!((r.length() - v.length()).abs() < 1e-5);
        // r = v − 2(v·n)n by hand: v·n = −5/√2, so r = v + 5·(1, 1) = (−2, 7).
        assert!((r - Vec2::new(-2.0, 7.0)).length() < 1e-5);
    }

    #[test]
    fn kicker_restitution_above_one() {
        let r = reflect(Vec2::new(0.0, -10.0), Vec2::Y, Material::new(1.5, 0.0), 0.0);
        assert_eq!(r, Vec2::new(0.0, 15.0));
    }

    #[test]
    fn friction_never_reverses() {
        // μ = 10 would take 10·8 = 80 off a tangential 3: it stops at 0 instead.
        let r = reflect(Vec2::new(3.0, -4.0), Vec2::Y, Material::new(1.0, 10.0), 0.0);
        assert_eq!(r, Vec2::new(0.0, 4.0));
    }

    #[test]
    fn resting_contact_removes_normal_part() {
        let r = reflect(Vec2::new(5.0, -0.5), Vec2::Y, Material::new(0.9, 0.0), 1.0);
        assert!((r.x - 5.0).abs() < 1e-6);
        // Only the separation bias remains: 1e-5 of the tangential speed, leaving.
        assert!(r.y > 0.0 && r.y <= 5.0 * SEPARATION_SPEED_REL * 1.001);
        // Faster than the threshold still bounces.
        let r = reflect(Vec2::new(5.0, -2.0), Vec2::Y, Material::new(0.5, 0.0), 1.0);
        assert_eq!(r, Vec2::new(5.0, 1.0));
    }

    #[test]
    fn leaving_velocity_unchanged() {
        let v = Vec2::new(1.0, 2.0);
        assert_eq!(reflect(v, Vec2::Y, Material::new(0.5, 0.5), 10.0), v);
        assert_eq!(slide(v, Vec2::Y), v);
    }

    #[test]
    fn combine_rule_and_bad_materials() {
        let c = Material::new(0.9, 0.0).combine(Material::new(1.2, 0.5));
        assert!((c.restitution - 1.08).abs() < 1e-6);
        assert_eq!(c.friction, 0.0);
        let bad = Material::new(f32::NAN, -3.0).combine(Material::new(f32::INFINITY, f32::NAN));
        assert_eq!(bad, Material::new(0.0, 0.0));
        let r = reflect(
            Vec2::new(1.0, -1.0),
            Vec2::Y,
            Material::new(f32::NAN, f32::NAN),
            0.0,
        );
        assert!(r.is_finite());
    }
}
