//! A ball meets a wall or a moving obstacle.

use super::report::{Contact, ContactWith, MultiballReport};
use super::scratch::{LastContact, Pinched};
use super::sim::Sim;
use crate::bounce::corner_bounces;
use crate::hit::Hit;
use crate::obstacle::Obstacles;
use crate::response::{Material, ResponseMode, Surface, TwoSurfaces, respond, two_surfaces};
use crate::tolerance::MAX_WEDGE_BOUNCES;
use glam::Vec2;

/// A contact with a wall or a moving obstacle, as predicted.
#[derive(Clone, Copy, Debug)]
pub(super) struct WallHit {
    pub(super) with: ContactWith,
    pub(super) material: Material,
    pub(super) hit: Hit,
    /// The velocity of the surface's point under the ball (zero for a wall).
    pub(super) surface_velocity: Vec2,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `i` meets a wall or a moving obstacle at `time`: report it, change the velocity
    /// (alone, or with a second surface it still touches: a corner or a squeeze), count
    /// it against the bounce cap (raised in corners), and predict the ball's next event.
    pub(super) fn resolve_wall(
        &mut self,
        i: usize,
        time: f32,
        contact: WallHit,
        report: &mut MultiballReport,
        on_contact: &mut impl FnMut(&Contact),
    ) {
        let WallHit {
            with,
            material,
            hit,
            surface_velocity,
        } = contact;
        self.flush_sensors(i, time, on_contact);
        let ball = self.balls[i];
        let relative = ball.velocity - surface_velocity;
        on_contact(&Contact {
            ball: i,
            with,
            time,
            hit,
            approach_speed: -relative.dot(hit.normal),
            sensor: false,
        });
        self.balls[i].center = hit.center;
        let this = Surface {
            normal: hit.normal,
            velocity: surface_velocity,
        };
        let second = match ball.response {
            ResponseMode::Bounce => self.second_surface(i, time, with, this),
            _ => None,
        };
        let velocity = match (ball.response, second) {
            (ResponseMode::Bounce, Some((other_with, other))) => {
                match two_surfaces(ball.velocity, this, other) {
                    TwoSurfaces::Leave(v) => v,
                    TwoSurfaces::Squeezed {
                        velocity,
                        faster_is_b,
                    } => {
                        let (faster, slower) = if faster_is_b {
                            ((other_with, other), (with, this))
                        } else {
                            ((with, this), (other_with, other))
                        };
                        self.scratch.state[i].pinched = Some(Pinched {
                            faster: faster.0,
                            faster_normal: faster.1.normal,
                            slower: slower.0,
                            slower_normal: slower.1.normal,
                        });
                        velocity
                    }
                }
            }
            // Stopping on a moving surface means riding along with it.
            (ResponseMode::Stop, _) => surface_velocity,
            (mode, _) => {
                let combined = ball.material.combine(material);
                respond(mode, relative, hit.normal, combined, self.settings.resting_speed) + surface_velocity
            }
        };
        self.balls[i].velocity = velocity;
        let s = &mut self.scratch.state[i];
        s.time = time;
        s.version = s.version.wrapping_add(1);
        s.bounces += 1;
        report.bounces += 1;
        // In a corner, as many more contacts as an elastic ball can take there.
        if s.bounces >= s.allowed
            && let Some(last) = s.last
            && last.with != with
        {
            s.allowed = s
                .allowed
                .max(s.bounces.saturating_add(corner_bounces(last.normal, hit.normal)));
        }
        if s.bounces >= s.allowed.min(MAX_WEDGE_BOUNCES)
            || ball.response == ResponseMode::Stop && surface_velocity == Vec2::ZERO
        {
            s.frozen = true;
            // At the cap against a moving surface: ride with it rather than let it move on
            // into the waiting ball.
            if let ContactWith::Moving(index) = with {
                s.riding = Some(index);
            }
        }
        s.last = Some(LastContact {
            with,
            normal: hit.normal,
            surface_velocity,
            time,
        });
        self.moved(i);
        self.predict(i, on_contact);
    }
}
