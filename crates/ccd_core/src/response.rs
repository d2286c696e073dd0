//! What a contact does to a velocity. Every velocity change of the crate lives here:
//!
//! | contact | function |
//! |---|---|
//! | a circle bounces off a wall, static or moving (with its [`Kick`](crate::Kick), if any: its added normal speed and its speed scale, relative to the surface) | [`reflect`], [`slide`], [`respond`] |
//! | balls meeting at one instant: each ball's push, and friction | `push_ball`, `pair_friction` |
//! | a slow contact (wall or pair), in the resting solve | `rest_step`, `leave_wall` |
//! | two surfaces at once: a corner, or a ball squeezed between two | `two_surfaces` |

use crate::instant::{OneBall, Row};
use crate::material::{Material, sanitize};
use crate::tolerance::{SEPARATION_SPEED_REL, SQUEEZE_SPEED_SLACK_REL};
use glam::{DVec2, Vec2};

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
/// **Falloff.** The restitution is the material's at this approach speed
/// ([`Material::restitution_at`]).
///
/// **Kick.** If the material's [`Kick`](crate::Kick) fires (approach above its threshold), the ball
/// leaves at `max(e·v_in, min_out) + speed` along the normal instead (never resting), and
/// then the whole velocity (that normal part and the tangential part after friction) is
/// multiplied by the kick's `speed_scale`. For a moving surface, `velocity` is relative to
/// it, so the scale is too.
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
    let e = f64::from(material.restitution_at(approach as f32));
    let kicked = material.kick.fires(approach);
    let resting = !kicked && (approach < f64::from(resting_speed) || e == 0.0);
    // The normal speed out before the kick's speed scale: friction takes its share of
    // this normal change, then the scale multiplies the whole velocity (1 when no kick
    // fires, exact in f64, so an unscaled bounce is unchanged to the bit).
    let bounce = if resting {
        0.0
    } else {
        material.kick.unscaled_outgoing(approach, e)
    };
    let tangent = apply_friction(
        v - unit * vn,
        f64::from(sanitize(material.friction)) * (approach + bounce),
    );
    let scale = material.kick.scale_at(approach);
    // A kick that leaves no normal speed (a pure scale on a dead surface) leaves as a
    // resting contact does, or rounding has the ball meet the surface again at once.
    if resting || bounce <= 0.0 {
        return leave_resting(tangent * scale, unit).as_vec2();
    }
    ((tangent + unit * bounce) * scale).as_vec2()
}

/// After a contact took the normal part of a velocity away, leave along `normal` with a
/// [`SEPARATION_SPEED_REL`] share of the tangential speed. The kinetic energy this adds,
/// `ε² = 1e-10` of the tangential part's, is a thousand times below the rounding of the
/// f32 velocity it is stored in, and far below the approach the contact removed.
#[inline]
fn leave_resting(tangent: DVec2, normal: DVec2) -> DVec2 {
    let eps = f64::from(SEPARATION_SPEED_REL);
    tangent + normal * (eps * tangent.length())
}

/// One side of a contact between two balls: its velocity and `1 / mass` (zero for a ball
/// that cannot be pushed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Body {
    pub(crate) velocity: Vec2,
    pub(crate) inverse_mass: f32,
}

/// Coulomb friction between two touching balls: the impulse on `a` (`b` takes its
/// opposite) that takes at most `limit` (μ times the normal impulse) off their sliding
/// across `normal`, never reversing it. `None` when neither can be pushed.
pub(crate) fn pair_friction(a: Body, b: Body, normal: DVec2, limit: f64) -> Option<Vec2> {
    let inv_sum = f64::from(a.inverse_mass) + f64::from(b.inverse_mass);
    if !(inv_sum > 0.0) {
        return None;
    }
    let relative = (a.velocity - b.velocity).as_dvec2();
    let tangent = relative - normal * relative.dot(normal);
    let jt = (tangent.length() / inv_sum).min(limit.max(0.0));
    let impulse = (-tangent.normalize_or_zero() * jt).as_vec2();
    impulse.is_finite().then_some(impulse)
}

/// The impulses a resting contact has taken so far in the resting solve: along the normal
/// (never pulling) and across it (within `μ` times the normal one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Accumulated {
    pub(crate) normal: f32,
    pub(crate) tangent: f32,
}

/// One pass of the resting solve at one contact: projected Gauss–Seidel on accumulated
/// impulses (as Box2D's contact solver), so friction is bounded by the whole normal
/// impulse the contact has taken, not by one pass's share. Returns the change of impulse
/// on `a` (`b` takes its opposite; a wall has no `b`): `relative` is `v_a − v_b`, `normal`
/// points from `b` to `a`, and `inv_sum` is `1/m_a + 1/m_b` (for a wall, 1: the impulse
/// is then a change of velocity). It only ever removes approach and sliding, so it never
/// adds energy.
pub(crate) fn rest_step(
    relative: Vec2,
    normal: Vec2,
    inv_sum: f32,
    friction: f32,
    acc: &mut Accumulated,
) -> Vec2 {
    if !(inv_sum > 0.0) || !relative.is_finite() {
        return Vec2::ZERO;
    }
    let normal_impulse = (acc.normal - relative.dot(normal) / inv_sum).max(0.0);
    let dn = normal_impulse - acc.normal;
    acc.normal = normal_impulse;
    let tangent = normal.perp();
    let sliding = (relative + normal * (dn * inv_sum)).dot(tangent);
    let limit = sanitize(friction) * acc.normal;
    let tangent_impulse = (acc.tangent - sliding / inv_sum).clamp(-limit, limit);
    let dt = tangent_impulse - acc.tangent;
    acc.tangent = tangent_impulse;
    normal * dn + tangent * dt
}

/// A velocity the resting solve left against a wall (`normal` towards the ball): leaving
/// at least at the separation bias, as [`reflect`] leaves a resting contact, so that
/// rounding does not make the ball's next sweep see it approach again.
pub(crate) fn leave_wall(velocity: Vec2, normal: Vec2) -> Vec2 {
    let (v, n) = (velocity.as_dvec2(), normal.as_dvec2());
    let Some(n) = n.try_normalize() else {
        return velocity;
    };
    let tangent = v - n * v.dot(n);
    if v.dot(n) < f64::from(SEPARATION_SPEED_REL) * tangent.length() {
        leave_resting(tangent, n).as_vec2()
    } else {
        velocity
    }
}

/// A velocity at rest on a wall of unit `normal` (towards the ball): its part along the
/// normal, approaching or leaving, replaced by the separation bias (a ball that comes to
/// rest, `multiball/settle.rs`, keeps no hop).
pub(crate) fn rested(velocity: Vec2, normal: Vec2) -> Vec2 {
    let (v, n) = (velocity.as_dvec2(), normal.as_dvec2());
    leave_resting(v - n * v.dot(n), n).as_vec2()
}

/// The part of `acceleration` along a wall of unit `normal` (towards the ball), computed in
/// f64, and leaving the wall at the separation bias, [`SEPARATION_SPEED_REL`] of it: a
/// sliding ball's acceleration. Rounded to f32, the part along the wall keeps a part into
/// it of about 1e-7 of its size, and a leg that starts touching the wall would meet it
/// again at once; the bias is a hundred times that.
pub(crate) fn slide_along(acceleration: Vec2, normal: Vec2) -> Vec2 {
    let (a, n) = (acceleration.as_dvec2(), normal.as_dvec2());
    let along = a - n * a.dot(n);
    (along + n * (along.length() * f64::from(SEPARATION_SPEED_REL))).as_vec2()
}

/// Gravity `g` less kinetic friction's steady deceleration `friction` (`μ·N/m`, units/s²)
/// against a slide along a wall of unit `normal` (towards the ball) at `velocity`: the
/// pull of the slide until it stops ([`slide_stops`]). From rest, it slides down the wall
/// where gravity's part along it beats friction; `None` where friction holds it there.
pub(crate) fn rough_pull(g: Vec2, normal: Vec2, velocity: Vec2, friction: f32) -> Option<Vec2> {
    if !(friction > 0.0) {
        return Some(g);
    }
    let (gd, n, v) = (g.as_dvec2(), normal.as_dvec2(), velocity.as_dvec2());
    let along = gd - n * gd.dot(n);
    let moving = v - n * v.dot(n);
    let speed = moving.length();
    // From rest it starts down the wall, if friction does not hold it.
    let direction = if speed > 0.0 {
        moving / speed
    } else {
        let pull = along.length();
        (pull > f64::from(friction)).then(|| along / pull)?
    };
    Some((gd - direction * f64::from(friction)).as_vec2())
}

/// When a slide along a wall of unit `normal` at `velocity`, pulled by `acceleration`,
/// comes to rest, seconds from now: where the pull along the wall is against the motion
/// along it. `None` where it does not slow (or does not move).
pub(crate) fn slide_stops(velocity: Vec2, normal: Vec2, acceleration: Vec2) -> Option<f64> {
    let along = normal.as_dvec2().perp();
    let (v, a) = (velocity.as_dvec2().dot(along), acceleration.as_dvec2().dot(along));
    (v * a < 0.0).then(|| -v / a)
}

/// A velocity that leaves a wall of unit `normal` (towards the ball) at no more than the
/// separation bias (as [`leave_wall`] and [`rested`] leave it), with that part removed;
/// any other velocity unchanged. The resting solve starts from it: the bias is no motion.
pub(crate) fn without_bias(velocity: Vec2, normal: Vec2) -> Vec2 {
    let (v, n) = (velocity.as_dvec2(), normal.as_dvec2());
    let vn = v.dot(n);
    let tangent = v - n * vn;
    // The bias twice (a sliding ball leaves at it, and its slide's acceleration leaves at
    // it too, `multiball/sim.rs`), and a few f32 roundings of the velocity that holds it.
    let bias =
        2.0 * f64::from(SEPARATION_SPEED_REL) * tangent.length() + 4.0 * f64::from(f32::EPSILON) * v.length();
    if vn > 0.0 && vn <= bias {
        tangent.as_vec2()
    } else {
        velocity
    }
}

/// A velocity with its approach along `normal` removed (nothing else): the resting solve's
/// shock propagation, which holds a lower ball still under an upper one.
#[inline]
pub(crate) fn without_approach(velocity: Vec2, normal: Vec2) -> Vec2 {
    let vn = velocity.dot(normal);
    if vn < 0.0 {
        velocity - normal * vn
    } else {
        velocity
    }
}

/// A surface a ball touches: its unit normal (towards the ball), the velocity of its
/// material point under the ball (zero for a wall), and the restitution of the contact
/// ([`contact_restitution`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Surface {
    pub(crate) normal: Vec2,
    pub(crate) velocity: Vec2,
    pub(crate) restitution: f32,
}

/// The restitution of a contact of `material` (ball and surface combined) at `approach`:
/// the material's at that speed ([`Material::restitution_at`]), or 0 for a resting
/// contact (slower than `resting_speed`), as [`reflect`] takes it.
#[inline]
pub(crate) fn contact_restitution(material: Material, approach: f32, resting_speed: f32) -> f32 {
    if approach < resting_speed {
        0.0
    } else {
        material.restitution_at(approach)
    }
}

/// How a ball touching two surfaces at once leaves them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TwoSurfaces {
    /// A corner the ball can leave: one contact with both, with restitution
    /// (`instant.rs`).
    Leave(Vec2),
    /// The two close in on each other across the ball: it is squeezed. Along the axis
    /// between them it takes the slower surface's speed (across it, it keeps its own), and
    /// the faster one (`true` for `b`) will push it out by position.
    Squeezed { velocity: Vec2, faster_is_b: bool },
}

/// A ball at `velocity` touching surfaces `a` and `b` at once (a corner, or a squeeze between
/// a flipper and a wall).
///
/// The two are one contact with restitution ([`OneBall`]): in a corner at `e = 1` the ball
/// keeps its energy; straight into a right-angle corner, or into the apex of a symmetric V,
/// it leaves at `−e·v`; a V closing on it (two flipper tips) throws it out of the V.
///
/// Two surfaces can also close in on each other across the ball with no way out (facing
/// each other, `a` moving towards `b` faster than `b` moves away), or so nearly so that
/// the way out is faster than any bounce (a wedge narrowing at a shallow angle throws the
/// ball out at the closing speed over the wedge's sine). Then the ball is squeezed: along
/// the axis between them it takes the slower surface's speed, it does not move into the
/// slower one, and the faster one will push it out by position. It never leaves faster
/// than a single bounce off either surface (with its restitution) would throw it, or than
/// it came.
pub(crate) fn two_surfaces(velocity: Vec2, a: Surface, b: Surface) -> TwoSurfaces {
    // Against walls and kinematic parts alone, the ball's mass does not matter: 1.
    let mut problem = OneBall::around(velocity.as_dvec2(), 1.0);
    for s in [a, b] {
        let row = Row::surface(OneBall::BALL, s.normal.as_dvec2(), s.velocity.as_dvec2());
        problem.push(row.with_restitution(s.restitution));
    }
    // A single bounce off `s`, with its restitution.
    let bounce = |s: Surface| {
        let material = Material::new(s.restitution, 0.0);
        (reflect(velocity - s.velocity, s.normal, material, 0.0) + s.velocity).length()
    };
    let fastest = velocity.length().max(bounce(a)).max(bounce(b));
    if let Some(out) = problem.solve() {
        let v = out.velocities[OneBall::BALL].as_vec2();
        // Within the f32 rounding of the speeds compared.
        if v.length() <= fastest * (1.0 + SQUEEZE_SPEED_SLACK_REL) {
            return TwoSurfaces::Leave(v);
        }
    }
    squeeze(velocity, a, b)
}

/// The ball squeezed between `a` and `b` (see [`two_surfaces`]).
fn squeeze(velocity: Vec2, a: Surface, b: Surface) -> TwoSurfaces {
    let axis = (a.normal - b.normal).normalize_or_zero();
    let (sa, sb) = (a.velocity.dot(axis), b.velocity.dot(axis));
    let (slower, speed, faster_is_b) = if sa.abs() <= sb.abs() {
        (a, sa, true)
    } else {
        (b, sb, false)
    };
    let along = velocity - axis * velocity.dot(axis) + axis * speed;
    // No approach to the slower surface either: the ball leaves it at the separation bias,
    // as a resting contact does, or rounding has it meet the surface again at once.
    TwoSurfaces::Squeezed {
        velocity: leave_wall(along - slower.velocity, slower.normal) + slower.velocity,
        faster_is_b,
    }
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

/// Coulomb friction of a ball on a surface: its velocity relative to the surface,
/// `relative`, with its part across `normal` reduced by at most `max_loss` (μ times the
/// change of its speed along the normal), never reversed.
pub(crate) fn rub_on_surface(relative: Vec2, normal: Vec2, max_loss: f32) -> Vec2 {
    let (v, n) = (relative.as_dvec2(), normal.as_dvec2());
    let along = n * v.dot(n);
    (along + apply_friction(v - along, f64::from(max_loss.max(0.0)))).as_vec2()
}

/// [`rub_on_surface`]'s part across `normal` alone (its part along it dropped, in f64):
/// the velocity a ball that lands on the surface slides on with.
pub(crate) fn rub_across(relative: Vec2, normal: Vec2, max_loss: f32) -> Vec2 {
    let (v, n) = (relative.as_dvec2(), normal.as_dvec2());
    apply_friction(v - n * v.dot(n), f64::from(max_loss.max(0.0))).as_vec2()
}

/// `velocity` scaled down to `max_speed` when it is faster: a ball's speed limit, applied
/// after each contact's response. Its direction is kept. A `max_speed` that is infinite
/// (the default) or not a number leaves every velocity as it is.
///
/// ```
/// use ccd_core::{limit_speed, Vec2};
/// assert_eq!(limit_speed(Vec2::new(30.0, 40.0), 10.0), Vec2::new(6.0, 8.0));
/// assert_eq!(limit_speed(Vec2::new(3.0, 4.0), 10.0), Vec2::new(3.0, 4.0));
/// ```
#[inline]
#[must_use]
pub fn limit_speed(velocity: Vec2, max_speed: f32) -> Vec2 {
    let speed_sq = velocity.length_squared();
    if speed_sq > max_speed * max_speed && max_speed >= 0.0 {
        velocity * (max_speed / speed_sq.sqrt())
    } else {
        velocity
    }
}

/// The velocity with its part into the surface removed: what is left slides along it.
/// A velocity already leaving the surface is returned unchanged. Like a resting contact,
/// it leaves with a [`SEPARATION_SPEED_REL`] share of the tangential speed, never faster
/// than it came.
///
/// ```
/// use ccd_core::{slide, Vec2};
/// let v = slide(Vec2::new(3.0, -4.0), Vec2::Y);
/// assert!((v - Vec2::new(3.0, 0.0)).length() < 1e-4);
/// ```
#[inline]
#[must_use]
pub fn slide(velocity: Vec2, normal: Vec2) -> Vec2 {
    let (v, n) = (velocity.as_dvec2(), normal.as_dvec2());
    let Some(n) = n.try_normalize() else {
        return velocity;
    };
    let vn = v.dot(n);
    if !(vn < 0.0) {
        return velocity;
    }
    leave_resting(v - n * vn, n).as_vec2()
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
    fn rough_pull_is_gravity_less_friction_against_the_slide_until_it_stops() {
        // A level floor, g = 10 down, moving at 3 along it, μ·N/m = 2: the pull is (−2, −10)
        // while it slides, and it stops after 3 / 2 = 1.5 s.
        let (g, up) = (Vec2::new(0.0, -10.0), Vec2::Y);
        let v = Vec2::new(3.0, 0.0);
        let pull = rough_pull(g, up, v, 2.0).unwrap();
        assert_eq!(pull, Vec2::new(-2.0, -10.0));
        assert_eq!(slide_stops(v, up, pull), Some(1.5));
        assert_eq!(slide_stops(-v, up, pull), None);
        // Without friction, gravity; at rest on the floor, none: friction holds it.
        assert_eq!(rough_pull(g, up, v, 0.0), Some(g));
        assert_eq!(rough_pull(g, up, Vec2::ZERO, 2.0), None);
        // At rest on a slope of 3 in 4 (sin 0.6, cos 0.8): gravity's part down it is 6 and
        // presses with 8. With μ·N/m = 2 it starts down the slope, the pull along it
        // 6 − 2 = 4; with μ·N/m = 7 (μ = 0.875, past tan = 0.75), friction holds it.
        let slope = Vec2::new(-0.6, 0.8);
        let down = Vec2::new(-0.8, -0.6);
        let pull = rough_pull(g, slope, Vec2::ZERO, 2.0).unwrap();
        assert!(
            (pull.dot(down) - 4.0).abs() < 1e-6 && (pull.dot(slope) + 8.0).abs() < 1e-6,
            "{pull}"
        );
        assert_eq!(rough_pull(g, slope, Vec2::ZERO, 7.0), None);
    }
    use crate::Kick;

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
    fn a_speed_scale_multiplies_the_whole_bounce() {
        // Elastic, scale 1.5: (3, −4) reflects to (3, 4), times 1.5 = (4.5, 6).
        let block = Material::ELASTIC.with_kick(Kick::scaling(0.0, 1.5));
        assert_eq!(
            reflect(Vec2::new(3.0, -4.0), Vec2::Y, block, 0.0),
            Vec2::new(4.5, 6.0)
        );
        // e = 0.5, μ = 0.25, scale 2: the normal out 0.5·4 = 2; friction takes
        // 0.25·(4 + 2) = 1.5 off 3, leaving 1.5; times 2 = (3, 4).
        let rough = Material::new(0.5, 0.25).with_kick(Kick::scaling(0.0, 2.0));
        assert_eq!(
            reflect(Vec2::new(3.0, -4.0), Vec2::Y, rough, 0.0),
            Vec2::new(3.0, 4.0)
        );
        // With min_out and speed: normal out max(0.5·4, 10) + 2 = 12; friction takes
        // 0.25·(4 + 12) = 4 off 3, leaving 0; times 0.5 = (0, 6).
        let bumper = Material::new(0.5, 0.25).with_kick(Kick::new(0.0, 10.0, 2.0).with_speed_scale(0.5));
        assert_eq!(
            reflect(Vec2::new(3.0, -4.0), Vec2::Y, bumper, 0.0),
            Vec2::new(0.0, 6.0)
        );
    }

    #[test]
    fn below_the_threshold_there_is_no_scale() {
        // Approach 4 ≤ 5: a plain elastic bounce, (3, 4). Above it, 8 > 5: (3, 8)·1.5.
        let block = Material::ELASTIC.with_kick(Kick::scaling(5.0, 1.5));
        assert_eq!(
            reflect(Vec2::new(3.0, -4.0), Vec2::Y, block, 0.0),
            Vec2::new(3.0, 4.0)
        );
        assert_eq!(
            reflect(Vec2::new(3.0, -8.0), Vec2::Y, block, 0.0),
            Vec2::new(4.5, 12.0)
        );
    }

    #[test]
    fn a_bad_speed_scale_is_a_plain_bounce_never_nan() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -2.0] {
            let m = Material::new(0.5, 0.0).with_kick(Kick::scaling(0.0, bad));
            let r = reflect(Vec2::new(3.0, -4.0), Vec2::Y, m, 0.0);
            assert_eq!(r, Vec2::new(3.0, 2.0), "{bad}");
        }
    }

    #[test]
    fn a_pure_scale_on_a_dead_surface_leaves_it() {
        // e = 0, scale 2: no normal speed to scale; the tangential 3 doubles to 6, and the
        // ball leaves at the separation bias (1e-5 of it), as a resting contact does.
        let dead = Material::new(0.0, 0.0).with_kick(Kick::scaling(0.0, 2.0));
        let r = reflect(Vec2::new(3.0, -4.0), Vec2::Y, dead, 0.0);
        assert!((r.x - 6.0).abs() < 1e-6, "{r}");
        assert!(r.y > 0.0 && r.y <= 6.0 * SEPARATION_SPEED_REL * 1.001, "{r}");
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
