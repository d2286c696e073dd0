//! The impulse exchange between a ball and a hinged body at the instant of impact.

use glam::{DVec2, Vec2};

/// A ball touching a hinged body: everything [`hinge_impulse`] needs, at the instant of
/// contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeContact {
    /// The ball's velocity.
    pub ball_velocity: Vec2,
    /// `1 / m` of the ball (0: a ball nothing can push).
    pub inverse_mass: f32,
    /// From the pivot to the contact point.
    pub arm: Vec2,
    /// Unit normal at the contact, from the body towards the ball.
    pub normal: Vec2,
    /// The pivot's own velocity (zero for a fixed hinge).
    pub pivot_velocity: Vec2,
    /// The body's angular velocity, radians per second, counter-clockwise.
    pub angular_velocity: f32,
    /// `1 / I` of the body about the pivot (0: kinematic).
    pub inverse_inertia: f32,
}

/// What an impact did: the new velocities and the impulses (on the ball; the body takes
/// the opposite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HingeImpulse {
    /// The ball's velocity after the impact.
    pub ball_velocity: Vec2,
    /// The body's angular velocity after the impact, radians per second.
    pub angular_velocity: f32,
    /// The impulse along the normal, `J = (1 + e)·v_rel / (1/m + d²/I)` (mass · length /
    /// time); 0 when the contact is not closing in.
    pub normal_impulse: f32,
    /// The friction impulse along the tangent `normal.perp()`.
    pub tangent_impulse: f32,
}

/// The impact of a ball on a hinged body, with restitution `restitution` and Coulomb
/// friction `friction`.
///
/// With `v_rel` the approach speed of the ball relative to the body's surface point along
/// the normal and `d = arm × normal` the lever arm, the normal impulse is
/// `J = (1 + e)·v_rel / (1/m + d²/I)`. It changes the ball by `J/m` along the normal and
/// the body by `−d·J/I`, so angular momentum about the pivot is kept, and with `e = 1` and
/// no friction so is the kinetic energy of both. Friction then takes the tangential slip
/// away, by at most `μ·J`, with the tangent's own effective mass. Computed in f64.
///
/// ```
/// use ccd_core::{hinge_impulse, HingeContact, Vec2};
/// // A ball of mass 1 falls at 2 onto the arm of a body of inertia 1, one unit from the
/// // pivot: d = 1, J = 2·2 / (1 + 1) = 2. The ball stops (−2 + 2/1) and the arm swings
/// // down at ω = −d·J/I = −2 rad/s: its point under the ball leaves at 2, as equal masses
/// // swap velocities.
/// let contact = HingeContact {
///     ball_velocity: Vec2::new(0.0, -2.0),
///     inverse_mass: 1.0,
///     arm: Vec2::new(1.0, 0.0),
///     normal: Vec2::Y,
///     pivot_velocity: Vec2::ZERO,
///     angular_velocity: 0.0,
///     inverse_inertia: 1.0,
/// };
/// let after = hinge_impulse(contact, 1.0, 0.0);
/// assert!((after.normal_impulse - 2.0).abs() < 1e-6);
/// assert!(after.ball_velocity.length() < 1e-6);
/// assert!((after.angular_velocity + 2.0).abs() < 1e-6);
/// ```
#[must_use]
pub fn hinge_impulse(contact: HingeContact, restitution: f32, friction: f32) -> HingeImpulse {
    let unchanged = HingeImpulse {
        ball_velocity: contact.ball_velocity,
        angular_velocity: contact.angular_velocity,
        normal_impulse: 0.0,
        tangent_impulse: 0.0,
    };
    let Some(n) = contact.normal.as_dvec2().try_normalize() else {
        return unchanged;
    };
    let arm = contact.arm.as_dvec2();
    let inv_m = f64::from(contact.inverse_mass);
    let inv_i = f64::from(contact.inverse_inertia);
    let mut v = contact.ball_velocity.as_dvec2();
    let mut w = f64::from(contact.angular_velocity);
    let pivot = contact.pivot_velocity.as_dvec2();
    let relative = |v: DVec2, w: f64| v - (pivot + arm.perp() * w);
    let vn = relative(v, w).dot(n);
    if !(vn < 0.0) {
        return unchanged;
    }
    let e = f64::from(restitution.max(0.0));
    let d = arm.perp_dot(n);
    let k = inv_m + d * d * inv_i;
    if !(k > 0.0) {
        return unchanged;
    }
    let j = -(1.0 + e) * vn / k;
    v += n * (j * inv_m);
    w -= d * j * inv_i;
    // Friction along the tangent, against the slip left after the normal impulse.
    let t = n.perp();
    let dt = arm.perp_dot(t);
    let kt = inv_m + dt * dt * inv_i;
    let limit = f64::from(friction.max(0.0)) * j;
    let jt = if kt > 0.0 && limit > 0.0 {
        (-relative(v, w).dot(t) / kt).clamp(-limit, limit)
    } else {
        0.0
    };
    v += t * (jt * inv_m);
    w -= dt * jt * inv_i;
    HingeImpulse {
        ball_velocity: v.as_vec2(),
        angular_velocity: w as f32,
        normal_impulse: j as f32,
        tangent_impulse: jt as f32,
    }
}
