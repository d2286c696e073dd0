//! Two balls touching on one round part, through the event machinery (`step_balls`,
//! ball–ball on, at the plugin's resting speed 2·g·dt), stepped at 30, 60, 120 and
//! 1,000 Hz, against closed forms: in a bowl they press on each other and swing together
//! as one pendulum, their middle's, under gravity scaled by cos h (sin h = r/L); on a
//! post they part at once, and each slides off where its own press vanishes. Run with
//! `--nocapture` for the figures.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test: a bad setup is a failed test"
)]

use ccd_core::{
    Ball, Circle, CircleArc, CombineRule, ContactWith, Material, MultiballScratch, MultiballSettings,
    MultiballStep, Obstacle, RESTING_EVENT_FRACTION, Vec2, step_balls,
};
use glam::DVec2;

mod bowl;
use bowl::{G, elliptic_k, rk4_step};

const RATES: [f32; 4] = [30.0, 60.0, 120.0, 1000.0];

/// The balls' radius.
const R: f64 = 0.5;

/// Two balls of radius [`R`] stepped together through the event machinery at `rate`,
/// gravity [`G`] down, at the plugin's resting speed, 2·g·dt: a ball pressed on a round
/// part at a step's start rides it from there, alone or with the ball it presses on.
struct Pair {
    balls: [Ball; 2],
    walls: Vec<Obstacle>,
    scratch: MultiballScratch,
    settings: MultiballSettings,
    dt: f32,
}

impl Pair {
    fn new(walls: Vec<Obstacle>, centers: [Vec2; 2], rate: f32) -> Self {
        let dt = 1.0 / rate;
        let settings = MultiballSettings {
            gravity: Vec2::new(0.0, -G as f32),
            resting_speed: 2.0 * G as f32 * dt,
            ..MultiballSettings::default()
        };
        Self {
            balls: centers.map(|c| Ball::new(c, Vec2::ZERO, R as f32)),
            walls,
            scratch: MultiballScratch::default(),
            settings,
            dt,
        }
    }

    /// One step; asserts that it was not capped. Returns how many balls went through
    /// the event machinery.
    fn step(&mut self) -> u32 {
        let step = MultiballStep::new(&mut self.balls, self.dt, &self.walls);
        let report = step_balls(step, &self.settings, &mut self.scratch, |_| {});
        assert_eq!(report.capped_balls, 0, "no step is capped: {report:?}");
        report.event_balls
    }

    /// Kinetic plus potential energy of both, per unit mass, in f64.
    fn energy(&self) -> f64 {
        let one = |b: &Ball| 0.5 * b.velocity.as_dvec2().length_squared() + G * f64::from(b.center.y);
        self.balls.iter().map(one).sum()
    }
}

/// The angle from straight down about `c` of the point `p`, counter-clockwise.
fn from_bottom(p: DVec2, c: Vec2) -> f64 {
    let d = p - c.as_dvec2();
    d.x.atan2(-d.y)
}

#[test]
fn two_balls_touching_in_a_bowl_swing_together_as_one_pendulum() {
    // The lower half of an arc of 10 about (7, −12): the balls' centres ride L = 9.5.
    // Let go at rest touching, their middle at φ₀ from the bottom, each h = asin(r/L) off
    // it: they press on each other (by g·cos φ·tan h) as long as their middle is below
    // the bowl's centre, and the middle swings as a pendulum of L under g·cos h, of
    // period T = 4·K(sin(φ₀/2))·√(L/(g·cos h)). The n-th pass of the bottom is at
    // (2n − 1)·T/4; the issue's bound for a ball alone, 1e-4 of a period at the 10th. The
    // two stay touching and on the circle, and keep their energy.
    let c = Vec2::new(7.0, -12.0);
    let bowl = || {
        vec![Obstacle::arc(CircleArc::new(
            c,
            10.0,
            std::f32::consts::PI,
            std::f32::consts::TAU,
        ))]
    };
    let l = 9.5_f64;
    let h = (R / l).asin();
    let mut worst = [0.0_f64; 5];
    for phi0 in [0.2_f64, 0.6, 1.2] {
        let period = 4.0 * elliptic_k((phi0 / 2.0).sin()) * (l / (G * h.cos())).sqrt();
        let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
        for rate in RATES {
            let mut pair = Pair::new(bowl(), [at(phi0 - h), at(phi0 + h)], rate);
            let e0 = pair.energy();
            let middle = |p: &Pair| from_bottom(0.5 * (p.balls[0].center + p.balls[1].center).as_dvec2(), c);
            let mut passes = Vec::new();
            let mut before = middle(&pair);
            let mut n = 0_u64;
            while passes.len() < 10 {
                assert_eq!(pair.step(), 2, "φ₀ {phi0} at {rate} Hz: both are event balls");
                n += 1;
                let now = middle(&pair);
                if before != 0.0 && before.signum() != now.signum() {
                    passes.push((n as f64 - 1.0 + before / (before - now)) * f64::from(pair.dt));
                }
                before = now;
                let gap = f64::from((pair.balls[0].center - pair.balls[1].center).length()) - 2.0 * R;
                let off = pair
                    .balls
                    .iter()
                    .map(|b| (f64::from((b.center - c).length()) - l).abs());
                let energy = (pair.energy() - e0).abs() / (2.0 * G * l);
                let energy_slot = if rate > 240.0 { 4 } else { 3 };
                worst[energy_slot] = worst[energy_slot].max(energy);
                for (slot, x) in worst[1..3].iter_mut().zip([gap.abs(), off.fold(0.0, f64::max)]) {
                    *slot = slot.max(x);
                }
                assert!(n < 1_000_000, "φ₀ {phi0} at {rate} Hz: stopped swinging");
            }
            let expected = 19.0 * period / 4.0;
            worst[0] = worst[0].max((passes[9] - expected).abs() / period);
            assert!(
                (passes[9] - expected).abs() < 1e-4 * period,
                "φ₀ {phi0} at {rate} Hz: the 10th pass at {} s, not {expected} s",
                passes[9]
            );
        }
    }
    println!(
        "two balls in a bowl, φ₀ 0.2 to 1.2, 30 to 1,000 Hz: the 10th pass within {:.1e} of a period; apart by 2·r within {:.1e}; on the circle within {:.1e}; energy within {:.1e} of 2·g·L up to 120 Hz, {:.1e} at 1 kHz",
        worst[0], worst[1], worst[2], worst[3], worst[4]
    );
    // Touching: within the f32 rounding of their centres (coordinates near 20, an ulp
    // 1.9e-6). On the circle: within 1e-6·L, as a ball alone. Energy: 2e-6 up to 120 Hz
    // (the issue's bound for a closed scene is 1e-5), and 2e-5 at 1 kHz (its 1e-4): the
    // f32 state rounded at each of 30,000 steps' ends.
    assert!(worst[1] < 4e-6, "apart by {}", worst[1]);
    assert!(worst[2] < 1e-6 * l, "off the circle by {}", worst[2]);
    assert!(worst[3] < 2e-6, "energy off by {} up to 120 Hz", worst[3]);
    assert!(worst[4] < 2e-5, "energy off by {} at 1 kHz", worst[4]);
}

#[test]
fn two_balls_touching_on_a_post_part_and_each_slides_off_alone() {
    // A pillar of 9.5 about (3, −2), balls of 0.5: L = 10. Let go at rest touching, at θ₀
    // = 0.3 and θ₀ + 2·asin(r/L) from the top, the one further down runs ahead (they
    // never press on each other on a post): each slides off alone from rest, and leaves
    // where cos θ = ⅔·cos θ₀ of its own, at speed √(2·g·L·(cos θ₀ − cos θ)) (the issue's
    // bounds: 1e-4 rad, 1e-5 relative). Where each left is read off its ride tally
    // ([`left_ride`]).
    let c = Vec2::new(3.0, -2.0);
    let l = 10.0_f64;
    let gap = 2.0 * (R / l).asin();
    let theta0 = [0.3_f64, 0.3 + gap];
    let mut worst = [0.0_f64; 3];
    for rate in RATES {
        let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (l * a.cos()) as f32);
        let mut pair = Pair::new(vec![Obstacle::pillar(Circle::new(c, 9.5))], theta0.map(at), rate);
        let e0 = pair.energy();
        let mut left = [None; 2];
        assert_eq!(pair.step(), 2, "{rate} Hz: both are event balls at first");
        for _ in 0..(5.0 * rate) as usize {
            pair.step();
            for (k, slot) in left.iter_mut().enumerate() {
                *slot = left_ride(&pair, k).or(*slot);
            }
            if pair
                .balls
                .iter()
                .all(|b| f64::from((b.center - c).length()) > l + 1e-2)
            {
                break;
            }
        }
        worst[2] = worst[2].max((pair.energy() - e0).abs() / (2.0 * G * l));
        for (k, slot) in left.into_iter().enumerate() {
            let (p, v) = slot.unwrap_or_else(|| panic!("{rate} Hz: ball {k} never rode"));
            let d = p - c.as_dvec2();
            let theta = d.x.atan2(d.y);
            let expected = (2.0 / 3.0 * theta0[k].cos()).acos();
            let speed = (2.0 * G * l * (theta0[k].cos() - expected.cos())).sqrt();
            worst[0] = worst[0].max((theta - expected).abs());
            worst[1] = worst[1].max((v.length() / speed - 1.0).abs());
            assert!(
                (theta - expected).abs() < 1e-4,
                "{rate} Hz, ball {k}: left at {theta}, not {expected}"
            );
            assert!(
                (v.length() / speed - 1.0).abs() < 1e-5,
                "{rate} Hz, ball {k}: left at {} u/s, not {speed}",
                v.length()
            );
        }
    }
    println!(
        "two balls touching on a post, 30 to 1,000 Hz: each leaves within {:.1e} rad, at a speed within {:.1e} of the closed form; energy within {:.1e} of 2·g·L",
        worst[0], worst[1], worst[2]
    );
    assert!(worst[2] < 1e-5, "energy off by {}", worst[2]);
}

/// Where ball `k` of `pair` last left a ride, and its velocity then, read off its ride
/// tally after a step (`None` if it rode none of that step): in the last step it rode,
/// the ride ran from the step's start and the flight from its end to the step's, so the
/// state it left with is the step's end taken back along the flight's parabola (in f64).
fn left_ride(pair: &Pair, k: usize) -> Option<(DVec2, DVec2)> {
    let rode = pair.scratch.ride(k).time;
    if !(rode > 0.0) {
        return None;
    }
    let g = DVec2::new(0.0, -G);
    let flew = f64::from(pair.dt) - f64::from(rode);
    let v = pair.balls[k].velocity.as_dvec2();
    Some((
        pair.balls[k].center.as_dvec2() - v * flew + 0.5 * g * flew * flew,
        v - g * flew,
    ))
}

#[test]
fn two_balls_going_round_a_loop_together_part_level_with_its_centre() {
    // A full ring of 10 about (−4, 6), balls of 0.5: L = 9.5. The two start touching at
    // the bottom, moving round at v₀ = √(3.5·g·L). Together their middle keeps
    // v² = v₀² − 2·g·cos h·L·(1 − cos φ), and they press on each other until it is level
    // with the centre (φ = π/2), where v*² = v₀² − 2·g·L·cos h; there they part. The one
    // ahead, at θ₁ = π/2 + h, rides on alone and leaves the ring where its press
    // vanishes, v²/L + g·cos θ = 0 with v² = v*² − 2·g·L·(cos θ₁ − cos θ): at
    // cos θ = (2·g·L·cos θ₁ − v*²)/(3·g·L), at v² = −g·L·cos θ (1e-4 rad, 1e-5 relative,
    // as for a ball alone).
    let c = Vec2::new(-4.0, 6.0);
    let l = 9.5_f64;
    let h = (R / l).asin();
    let v0 = (3.5 * G * l).sqrt();
    let v_star2 = v0 * v0 - 2.0 * G * l * h.cos();
    let theta1 = std::f64::consts::FRAC_PI_2 + h;
    let cos_leave = (2.0 * G * l * theta1.cos() - v_star2) / (3.0 * G * l);
    let expected = cos_leave.acos();
    let expected_speed = (-G * l * cos_leave).sqrt();
    let mut worst = [0.0_f64; 2];
    for rate in RATES {
        let ring = vec![Obstacle::arc(CircleArc::new(c, 10.0, 0.0, std::f32::consts::TAU))];
        let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
        let mut pair = Pair::new(ring, [at(-h), at(h)], rate);
        for (b, a) in pair.balls.iter_mut().zip([-h, h]) {
            b.velocity = (DVec2::new(a.cos(), a.sin()) * v0).as_vec2();
        }
        let mut left = None;
        for _ in 0..(3.0 * rate) as usize {
            pair.step();
            left = left_ride(&pair, 1).or(left);
            if f64::from((pair.balls[1].center - c).length()) < l - 1e-2 {
                break;
            }
        }
        let (p, v) = left.expect("the ball ahead rode");
        let theta = from_bottom(p, c);
        worst[0] = worst[0].max((theta - expected).abs());
        worst[1] = worst[1].max((v.length() / expected_speed - 1.0).abs());
        assert!(
            (theta - expected).abs() < 1e-4,
            "{rate} Hz: the ball ahead left at {theta}, not {expected}"
        );
        assert!(
            (v.length() / expected_speed - 1.0).abs() < 1e-5,
            "{rate} Hz: the ball ahead left at {} u/s, not {expected_speed}",
            v.length()
        );
    }
    println!(
        "two balls round a loop, parting level with its centre, 30 to 1,000 Hz: the one ahead leaves within {:.1e} rad, at a speed within {:.1e} of the closed form",
        worst[0], worst[1]
    );
}

#[test]
fn a_ball_dropped_onto_two_resting_in_a_bowl_parts_them_and_keeps_the_energy() {
    // The bowl of 10 about (7, −12), two balls at rest touching at its bottom (held there:
    // their middle's pull is zero), and a third dropped from 4 above onto the right-hand
    // one: the two that rode together part where it strikes. Every contact is elastic:
    // for 3 s (after which the three come together pressed at the bottom, and the
    // resting contacts, which do not bounce, take energy) the three keep their energy
    // (within 1e-5 of 3·g·L), none sinks into the bowl by more than the f32 rounding,
    // nor into another by more than a slow contact allows.
    let c = Vec2::new(7.0, -12.0);
    let l = 9.5_f64;
    let h = (R / l).asin();
    let mut worst = [0.0_f64; 3];
    for rate in RATES {
        let bowl = vec![Obstacle::arc(CircleArc::new(
            c,
            10.0,
            std::f32::consts::PI,
            std::f32::consts::TAU,
        ))];
        let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
        let mut pair = Pair::new(bowl, [at(-h), at(h)], rate);
        let dropped = Ball::new(at(h + 0.02) + Vec2::new(0.0, 4.0), Vec2::ZERO, R as f32);
        let mut three = [pair.balls[0], pair.balls[1], dropped];
        let energy = |balls: &[Ball]| -> f64 {
            let one = |b: &Ball| 0.5 * b.velocity.as_dvec2().length_squared() + G * f64::from(b.center.y);
            balls.iter().map(one).sum()
        };
        let e0 = energy(&three);
        // Two balls touching that close in slower than this make no event: the next
        // step's resting solve takes them (at most this deep, `RESTING_EVENT_FRACTION`).
        let allowed = f64::from(RESTING_EVENT_FRACTION * pair.settings.resting_speed * pair.dt);
        for _ in 0..(3.0 * rate) as usize {
            let step = MultiballStep::new(&mut three, pair.dt, &pair.walls);
            let report = step_balls(step, &pair.settings, &mut pair.scratch, |_| {});
            assert_eq!(report.capped_balls, 0, "{rate} Hz: no step is capped: {report:?}");
            worst[0] = worst[0].max((energy(&three) - e0).abs() / (3.0 * G * l));
            for (i, b) in three.iter().enumerate() {
                worst[1] = worst[1].max(f64::from((b.center - c).length()) - l);
                for other in &three[i + 1..] {
                    let sunk = 2.0 * R - f64::from((b.center - other.center).length());
                    worst[2] = worst[2].max(sunk / allowed);
                }
            }
        }
    }
    println!(
        "a ball dropped onto two in a bowl, 3 s at 30 to 1,000 Hz: energy within {:.1e} of 3·g·L; into the bowl at most {:.1e}; into each other at most {:.2} of what a slow contact allows",
        worst[0], worst[1], worst[2]
    );
    assert!(worst[0] < 1e-5, "energy off by {}", worst[0]);
    assert!(worst[1] < 4e-6, "sunk into the bowl by {}", worst[1]);
    assert!(
        worst[2] <= 1.0,
        "sunk into each other by {} of the allowance",
        worst[2]
    );
}

/// The middle angle of two balls riding the inside of a circle of `l` together (`h` off
/// it each) under [`G`] with friction `mu`, from rest at `phi0`, at the times `times`, by
/// an f64 Runge–Kutta integration (steps of 1e-5 s) of each ball's own equation of
/// motion: for each, `L·a = g·t̂ᵢ ± f·cos h − μ·sign(ω)·Nᵢ`, `Nᵢ = L·ω² + g·ûᵢ + f·sin h`,
/// the two solved together for the common acceleration `a` and the press `f` between
/// them, as a 2×2 linear system. Where the rate turns and friction holds the pair (its
/// pull no more than μ times its presses at rest), it stays.
fn rough_pair_reference(l: f64, h: f64, mu: f64, phi0: f64, times: &[f64]) -> Vec<f64> {
    let accel = |phi: f64, omega: f64, heading: f64| {
        // Per ball i at θᵢ = φ ∓ h from the bottom: g·t̂ = −G·sin θ, g·û = G·cos θ.
        // The one ahead is pushed on by f (along the chord, at h to its tangent), the one
        // behind back: L·a ∓ f·cos h + μ·σ·f·sin h = g·t̂ − μ·σ·(L·ω² + g·û), − ahead.
        let row = |theta: f64, ahead: f64| {
            let rhs = -G * theta.sin() - mu * heading * (l * omega * omega + G * theta.cos());
            (l, -ahead * h.cos() + mu * heading * h.sin(), rhs)
        };
        let (a1, b1, c1) = row(phi - h, -1.0);
        let (a2, b2, c2) = row(phi + h, 1.0);
        let det = a1 * b2 - a2 * b1;
        (c1 * b2 - c2 * b1) / det
    };
    let holds = |phi: f64| {
        let pull = -G * ((phi - h).sin() + (phi + h).sin());
        let f = h.tan() * G * phi.cos();
        let press = G * ((phi - h).cos() + (phi + h).cos()) + 2.0 * f * h.sin();
        pull.abs() <= mu * press
    };
    let (mut phi, mut omega, mut t) = (phi0, 0.0_f64, 0.0_f64);
    let mut heading = -phi0.signum();
    let mut held = false;
    let step = 1e-5;
    let mut out = Vec::with_capacity(times.len());
    for &until in times {
        while t + step <= until && !held {
            let next = rk4_step(|p, w| accel(p, w, heading), (phi, omega), step);
            t += step;
            if next.1 * heading <= 0.0 {
                // The rate turns within this step: there, by linear interpolation.
                phi += (next.0 - phi) * omega / (omega - next.1);
                omega = 0.0;
                heading = -heading;
                held = holds(phi);
                continue;
            }
            (phi, omega) = next;
        }
        // The last part of a step: the state moves on by its rate (below 1e-5 s).
        out.push(if held { phi } else { phi + omega * (until - t) });
    }
    out
}

#[test]
fn with_friction_two_balls_in_a_bowl_swing_as_their_own_equations_say() {
    // The bowl of 10 about (7, −12) of friction μ = 0.2 (the larger of the two, the
    // balls' none), two balls touching in it, their middle from rest at 1.2 rad: where
    // their middle is at every step's end for 6 s against the f64 reference of each
    // ball's own equation ([`rough_pair_reference`]), through their turns and to where
    // friction holds them.
    let c = Vec2::new(7.0, -12.0);
    let l = 9.5_f64;
    let h = (R / l).asin();
    let mu = 0.2_f32;
    let rough = Material::new(1.0, mu).with_rules(CombineRule::Classic, CombineRule::Max);
    let mut worst = [0.0_f64; 2];
    for rate in RATES {
        let bowl = vec![
            Obstacle::arc(CircleArc::new(
                c,
                10.0,
                std::f32::consts::PI,
                std::f32::consts::TAU,
            ))
            .with_material(rough),
        ];
        let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
        let mut pair = Pair::new(bowl, [at(1.2 - h), at(1.2 + h)], rate);
        let steps = (6.0 * rate) as usize;
        let times: Vec<f64> = (1..=steps).map(|n| n as f64 / f64::from(rate)).collect();
        let reference = rough_pair_reference(l, h, f64::from(mu), 1.2, &times);
        for want in reference {
            pair.step();
            let middle = 0.5 * (pair.balls[0].center + pair.balls[1].center).as_dvec2();
            let got = from_bottom(middle, c);
            let slot = &mut worst[usize::from(rate > 240.0)];
            *slot = slot.max((got - want).abs());
        }
    }
    println!(
        "two balls in a bowl with μ 0.2, 6 s: the middle within {:.1e} rad of the f64 reference up to 120 Hz, {:.1e} at 1 kHz",
        worst[0], worst[1]
    );
    // A ball alone, against the same reference with h = 0, is as far off: 2.1e-5 and
    // 1.0e-4 in the lone sweep, 1.1e-5 and 9.4e-5 through the event machinery. Most of it
    // comes at the turns (a slow ball's f32 state rounded at a step's end shifts its
    // turn in time), and the 1 kHz figure has six times the steps and turns to add up.
    assert!(worst[0] < 2e-5, "up to 120 Hz: {}", worst[0]);
    assert!(worst[1] < 2e-4, "at 1 kHz: {}", worst[1]);
}

#[test]
fn two_balls_swinging_together_part_where_one_meets_a_post_slowly() {
    // The bowl of 10 about (7, −12), and a post of 0.5 standing in it on the balls'
    // circle (L = 9.5), where the ball ahead of two swinging together from 0.6 rad meets
    // it δ = 5e-4 and 2e-3 rad before its turn: at 0.2 and 0.46 u/s, slower than the
    // resting speed at 30 and 60 Hz, so no contact of one instant takes both. The ball
    // behind leaves the pair's ride there too and flies: it no longer has the other to
    // push. Where it rode on with the pair's push, it made energy (2.3e-4 of 2·g·L at
    // 60 Hz) and the two sank 6e-3 into each other. Over 6 s the two never gain energy
    // (slow contacts lose it: they do not bounce), and nothing sinks deeper than a slow
    // contact allows (`RESTING_EVENT_FRACTION` of the resting speed for a step) and the
    // f32 rounding of the centres. (The ball ahead is held between the post and the bowl
    // there, a corner: a step may reach its bounce cap, and wait out the step.)
    let c = Vec2::new(7.0, -12.0);
    let l = 9.5_f64;
    let h = (R / l).asin();
    let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
    let mut worst = [0.0_f64; 2];
    for before in [5e-4_f64, 2e-3] {
        let post = at(-0.6 - h + before - 2.0 * h);
        for rate in RATES {
            let walls = vec![
                Obstacle::arc(CircleArc::new(
                    c,
                    10.0,
                    std::f32::consts::PI,
                    std::f32::consts::TAU,
                )),
                Obstacle::pillar(Circle::new(post, 0.5)),
            ];
            let mut pair = Pair::new(walls, [at(0.6 - h), at(0.6 + h)], rate);
            let e0 = pair.energy();
            let allowed = f64::from(RESTING_EVENT_FRACTION * pair.settings.resting_speed * pair.dt) + 4e-6;
            for _ in 0..(6.0 * rate) as usize {
                let step = MultiballStep::new(&mut pair.balls, pair.dt, &pair.walls);
                step_balls(step, &pair.settings, &mut pair.scratch, |_| {});
                worst[0] = worst[0].max((pair.energy() - e0) / (2.0 * G * l));
                let [a, b] = pair.balls;
                let sunk = [
                    2.0 * R - f64::from((a.center - b.center).length()),
                    2.0 * R - f64::from((a.center - post).length()),
                    2.0 * R - f64::from((b.center - post).length()),
                    f64::from((a.center - c).length()) - l,
                    f64::from((b.center - c).length()) - l,
                ];
                worst[1] = worst[1].max(sunk.into_iter().fold(0.0, f64::max) / allowed);
            }
        }
    }
    println!(
        "two balls swinging together onto a post, 6 s at 30 to 1,000 Hz: energy gained at most {:.1e} of 2·g·L; sunk at most {:.2} of what a slow contact allows",
        worst[0], worst[1]
    );
    assert!(worst[0] < 1e-6, "energy gained: {}", worst[0]);
    assert!(worst[1] <= 1.0, "sunk {} of the allowance", worst[1]);
}

#[test]
fn a_ball_that_catches_another_riding_a_bowl_rides_on_with_it_at_once() {
    // The bowl of 10 about (7, −12), two balls let go at rest on it, one at 0.3 rad, the
    // other 2·h + δ further up (δ = 1e-3 and 5e-3 rad): each rides alone, the one above
    // runs faster and catches the other, slower than the resting speed, so the contact
    // takes away their approach, `a`, and with it ¼·a² of their energy a unit mass. From
    // that instant, within the step, the two ride on together (before, they went straight
    // to the step's end, 1.9e-4 of 2·g·L off at 30 Hz and 1.1e-5 at 60 Hz). Their energy,
    // that loss added back, stays within 1e-5 of 2·g·L for 3 s, and from the contact on
    // they touch within the f32 rounding.
    let c = Vec2::new(7.0, -12.0);
    let l = 9.5_f64;
    let h = (R / l).asin();
    let at = |a: f64| c + Vec2::new((l * a.sin()) as f32, (-l * a.cos()) as f32);
    let mut worst = [0.0_f64; 2];
    for gap in [1e-3_f64, 5e-3] {
        for rate in RATES {
            let bowl = vec![Obstacle::arc(CircleArc::new(
                c,
                10.0,
                std::f32::consts::PI,
                std::f32::consts::TAU,
            ))];
            let mut pair = Pair::new(bowl, [at(0.3), at(0.3 + 2.0 * h + gap)], rate);
            let e0 = pair.energy();
            let (mut lost, mut met) = (0.0_f64, false);
            for _ in 0..(3.0 * rate) as usize {
                let step = MultiballStep::new(&mut pair.balls, pair.dt, &pair.walls);
                let report = step_balls(step, &pair.settings, &mut pair.scratch, |contact| {
                    // A contact of the step's start is the resting solve's: none before
                    // they meet.
                    if matches!(contact.with, ContactWith::Ball(_)) && contact.time > 0.0 {
                        lost += 0.25 * f64::from(contact.approach_speed).powi(2);
                        met = true;
                    }
                });
                assert_eq!(report.capped_balls, 0, "{rate} Hz: {report:?}");
                worst[0] = worst[0].max((pair.energy() + lost - e0).abs() / (2.0 * G * l));
                if met {
                    let apart = f64::from((pair.balls[0].center - pair.balls[1].center).length());
                    worst[1] = worst[1].max((apart - 2.0 * R).abs());
                }
            }
            assert!(met, "δ {gap} at {rate} Hz: they never met");
        }
    }
    println!(
        "a ball catching another in a bowl, 30 Hz to 1 kHz: energy, the contact's loss added back, within {:.1e} of 2·g·L; from the contact on 2·r apart within {:.1e}",
        worst[0], worst[1]
    );
    assert!(worst[0] < 1e-5, "energy off by {}", worst[0]);
    assert!(worst[1] < 4e-6, "apart by {} more or less than 2·r", worst[1]);
}
