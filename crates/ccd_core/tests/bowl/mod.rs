//! The f64 references of a ball sliding in a bowl, shared by the tests that check rides
//! against them: the pendulum's period, and the turns with friction.

use std::f64::consts::PI;

/// Gravity of the reference, units/s² (down).
pub const G: f64 = 10.0;

/// The complete elliptic integral of the first kind, K(k), by the arithmetic–geometric
/// mean: K = π / (2·AGM(1, √(1 − k²))). A pendulum of length L under g from rest at θ₀
/// swings with the period 4·K(sin(θ₀/2))·√(L/g).
#[allow(dead_code, reason = "each test crate uses its own share of this module")]
pub fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0_f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    PI / (2.0 * a)
}

/// One classic Runge–Kutta step of length `h` of an angle and its rate, `(θ, ω)`, whose
/// acceleration is `accel(θ, ω)`.
pub fn rk4_step(accel: impl Fn(f64, f64) -> f64, (theta, omega): (f64, f64), h: f64) -> (f64, f64) {
    let f = |t: f64, w: f64| (w, accel(t, w));
    let k1 = f(theta, omega);
    let k2 = f(theta + 0.5 * h * k1.0, omega + 0.5 * h * k1.1);
    let k3 = f(theta + 0.5 * h * k2.0, omega + 0.5 * h * k2.1);
    let k4 = f(theta + h * k3.0, omega + h * k3.1);
    (
        theta + h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0),
        omega + h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1),
    )
}

/// The turning points of a ball sliding from rest at `theta0` from the bottom of a bowl
/// (L, g = [`G`]) with friction `mu`, by an f64 Runge–Kutta integration of the same
/// equations (steps of 1e-5 s): each turning point's angle, until friction holds it.
#[allow(dead_code, reason = "each test crate uses its own share of this module")]
pub fn reference_turns(l: f64, mu: f64, theta0: f64, count: usize) -> Vec<f64> {
    let accel = |theta: f64, omega: f64, heading: f64| {
        let press = l * omega * omega + G * theta.cos();
        (-G * theta.sin() - mu * press * heading) / l
    };
    let (mut theta, mut omega) = (theta0, 0.0_f64);
    let mut heading = -theta0.signum();
    let mut turns = Vec::new();
    let h = 1e-5;
    while turns.len() < count {
        let next = rk4_step(|t, w| accel(t, w, heading), (theta, omega), h);
        if next.1 * heading <= 0.0 {
            // The rate crosses zero within this step: the turn, by linear interpolation.
            let at = theta + (next.0 - theta) * omega / (omega - next.1);
            turns.push(at);
            if (G * at.sin()).abs() <= mu * G * at.cos() {
                break;
            }
            (theta, omega, heading) = (at, 0.0, -heading);
            continue;
        }
        (theta, omega) = next;
    }
    turns
}
