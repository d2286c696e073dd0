//! [`Ball`]: a moving circle with its material, layers, response and speed limit, as
//! [`step_balls`](crate::step_balls) steps it and a contact ([`meet`](crate::meet)) sees
//! it.

use crate::material::Material;
use crate::obstacle::Layers;
use crate::response::ResponseMode;
use crate::shape::Circle;
use glam::Vec2;

/// A ball for [`step_balls`](crate::step_balls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Centre.
    pub center: Vec2,
    /// Velocity, world units per second.
    pub velocity: Vec2,
    /// Radius.
    pub radius: f32,
    /// `1 / mass`. [`Ball::new`] uses the area (`π r²`) as the mass. Zero makes a ball
    /// that other balls cannot push.
    pub inverse_mass: f32,
    /// Restitution and friction.
    pub material: Material,
    /// Collision layers, against obstacles and other balls.
    pub layers: Layers,
    /// Bounce, slide or stop.
    pub response: ResponseMode,
    /// The fastest it leaves a contact, world units per second: each contact's response
    /// (a bounce, a kick, a push by a moving part or another ball) is scaled down to it
    /// ([`limit_speed`](crate::limit_speed)), at the instant of the contact, so the rest of
    /// the step is flown at the limited speed. Gravity may take it faster between
    /// contacts. `f32::INFINITY` (the default) for no limit.
    pub max_speed: f32,
    /// How much of the step's gravity it feels: 1 (the default) all of it, 0 none (a
    /// puck on a level table in a world that falls), 2 twice as much, −1 the same turned
    /// upwards (a balloon). Finite; [`Ball::gravity`] is what it feels.
    pub gravity_scale: f32,
}

impl Ball {
    /// A ball with mass from its area, elastic, on all layers.
    ///
    /// ```
    /// use ccd_core::{Ball, Vec2};
    /// let b = Ball::new(Vec2::ZERO, Vec2::X, 2.0);
    /// assert!((b.inverse_mass - 1.0 / (std::f32::consts::PI * 4.0)).abs() < 1e-7);
    /// ```
    #[must_use]
    pub fn new(center: Vec2, velocity: Vec2, radius: f32) -> Self {
        let area = std::f32::consts::PI * radius * radius;
        Self {
            center,
            velocity,
            radius,
            inverse_mass: if area > 0.0 && area.is_finite() {
                1.0 / area
            } else {
                1.0
            },
            material: Material::ELASTIC,
            layers: Layers::ALL,
            response: ResponseMode::Bounce,
            max_speed: f32::INFINITY,
            gravity_scale: 1.0,
        }
    }

    /// The gravity this ball feels in a world of `gravity`: `gravity ·`
    /// [`gravity_scale`](Ball::gravity_scale).
    ///
    /// ```
    /// use ccd_core::{Ball, Vec2};
    /// let mut b = Ball::new(Vec2::ZERO, Vec2::ZERO, 1.0);
    /// b.gravity_scale = 0.5;
    /// assert_eq!(b.gravity(Vec2::new(0.0, -9.8)), Vec2::new(0.0, -4.9));
    /// ```
    #[inline]
    #[must_use]
    pub fn gravity(&self, gravity: Vec2) -> Vec2 {
        // The common scale, 1, taken apart: the lone sweep then keeps the step's gravity
        // as it was (multiplying by 1 for every ball cost 7 % of a 2,000-ball pit's lone
        // step, in code the compiler could no longer share between the balls).
        if self.gravity_scale == 1.0 {
            gravity
        } else {
            gravity * self.gravity_scale
        }
    }

    pub(crate) fn circle(&self) -> Circle {
        Circle::new(self.center, self.radius)
    }

    /// Whether the ball can be stepped: a finite centre, velocity, inverse mass and gravity
    /// scale, a finite radius, and neither the radius nor the inverse mass negative (what
    /// [`Circle::validate`](crate::Circle::validate) asks of its circle, and more). Every
    /// test is taken (`&`, not `&&`): one branch per ball, not eight.
    #[inline]
    pub(crate) fn usable(&self) -> bool {
        self.center.is_finite()
            & self.velocity.is_finite()
            & self.radius.is_finite()
            & (self.radius >= 0.0)
            & self.inverse_mass.is_finite()
            & (self.inverse_mass >= 0.0)
            & self.gravity_scale.is_finite()
    }
}
