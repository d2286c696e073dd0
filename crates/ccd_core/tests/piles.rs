//! Three balls piled in a bowl, through the event machinery (`step_balls`, ball–ball on,
//! at the plugin's resting speed 2·g·dt), stepped at 30, 60, 120 and 1,000 Hz. Two lie
//! touching at the bottom of a narrow bowl and a third is let down onto them: none rides
//! the bowl while another touches it (the curve would turn it into that ball); they
//! settle there as on a floor, with no step capped. Three piled there at rest stay where
//! they are. Run with `--nocapture` for the figures.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test: a bad setup is a failed test"
)]

use ccd_core::{
    ALLOWED_OVERLAP_REL, Ball, CircleArc, CombineRule, Material, MultiballScratch, MultiballSettings,
    MultiballStep, Obstacle, RESTING_ITERATIONS, SLIDE_SEAT_ULPS, Vec2, step_balls,
};

mod bowl;
use bowl::G;

const RATES: [f32; 4] = [30.0, 60.0, 120.0, 1000.0];

/// The balls' radius.
const R: f32 = 0.5;

/// The bowl: the lower half of a circle of radius 2 about (7, −12). A ball's centre
/// moves on the circle of `L = 2 − R` = 1.5 about its centre; two balls touching there
/// are `2·h` apart, `sin h = R/L` = 1/3.
const BOWL_CENTER: Vec2 = Vec2::new(7.0, -12.0);
const BOWL_RADIUS: f32 = 2.0;

/// Three balls in the bowl, each of restitution `e` (walls too), stepped at `rate`.
struct Pile {
    balls: [Ball; 3],
    walls: Vec<Obstacle>,
    scratch: MultiballScratch,
    settings: MultiballSettings,
    dt: f32,
}

impl Pile {
    /// Two balls at rest touching at the bottom, at `∓h`, and a third at rest `gap` above
    /// touching them (above the right-hand one's contact, `off` to the right of their
    /// middle).
    fn new(e: f32, off: f32, gap: f32, rate: f32) -> Self {
        let material = Material::new(e, 0.0).with_rules(CombineRule::Min, CombineRule::Min);
        let arc = CircleArc::new(
            BOWL_CENTER,
            BOWL_RADIUS,
            std::f32::consts::PI,
            std::f32::consts::TAU,
        );
        let l = BOWL_RADIUS - R;
        let h = (R / l).asin();
        let at = |a: f32| BOWL_CENTER + Vec2::new(l * a.sin(), -l * a.cos());
        let (left, right) = (at(-h), at(h));
        // `2·R + gap` from the right-hand one, `off` right of the middle.
        let (dx, reach) = (R - off, 2.0 * R + gap);
        let top = (left + right) * 0.5 + Vec2::new(off, (reach * reach - dx * dx).sqrt());
        let ball = |c: Vec2| Ball {
            material,
            ..Ball::new(c, Vec2::ZERO, R)
        };
        let dt = 1.0 / rate;
        Self {
            balls: [ball(left), ball(right), ball(top)],
            walls: vec![Obstacle::arc(arc).with_material(material)],
            scratch: MultiballScratch::default(),
            settings: MultiballSettings {
                gravity: Vec2::new(0.0, -G as f32),
                resting_speed: 2.0 * G as f32 * dt,
                ..MultiballSettings::default()
            },
            dt,
        }
    }

    /// One step; returns how many balls reached the bounce cap.
    fn step(&mut self) -> u32 {
        let step = MultiballStep::new(&mut self.balls, self.dt, &self.walls);
        step_balls(step, &self.settings, &mut self.scratch, |_| {}).capped_balls
    }

    /// Kinetic plus potential energy of the three, per unit mass, in f64.
    fn energy(&self) -> f64 {
        let one = |b: &Ball| 0.5 * b.velocity.as_dvec2().length_squared() + G * f64::from(b.center.y);
        self.balls.iter().map(one).sum()
    }

    /// How far the deepest ball is into the bowl, and the deepest two into each other.
    fn sunk(&self) -> (f64, f64) {
        let l = f64::from(BOWL_RADIUS - R);
        let mut worst = (f64::MIN, f64::MIN);
        for (i, b) in self.balls.iter().enumerate() {
            worst.0 = worst.0.max(f64::from(b.center.distance(BOWL_CENTER)) - l);
            for o in &self.balls[i + 1..] {
                worst.1 = worst.1.max(f64::from(2.0 * R - b.center.distance(o.center)));
            }
        }
        worst
    }
}

#[test]
fn a_ball_let_down_onto_two_in_a_narrow_bowl_piles_on_them_with_no_step_capped() {
    // Let down 1e-3 above the two, over their middle and 0.05 to one side, with
    // restitution 1, 0.5 and 0, for 6 s: no step is capped (before, a settled ball beside
    // another flew and rode the bowl, or went along a chord its flight bent back from at
    // once, the ball above landed on it again and again, and 226 balls in all reached the
    // cap, up to 47 in one run); none sinks into another deeper than the overlap the
    // position correction leaves alone (before, 5.2e-3 at 30 Hz), nor into the bowl
    // deeper than where a resting ball is put back on it, `SLIDE_SEAT_ULPS` f32 epsilons
    // of its coordinates (3.2e-6 near 13.4), and one step's rounding on top, an f32
    // spacing there (before, 7.5e-5 at 1 kHz, as the pile swung). The energy is printed:
    // the resting contacts take some (they do not bounce), and at 30 Hz the settled
    // balls' straight legs swing it both ways.
    let l = f64::from(BOWL_RADIUS - R);
    let allowed = f64::from(ALLOWED_OVERLAP_REL * 2.0 * R);
    let (mut overlap, mut bowl, mut energy) = (0.0_f64, 0.0_f64, [0.0_f64; 2]);
    for rate in RATES {
        for e in [1.0, 0.5, 0.0] {
            for off in [0.0, 0.05] {
                let mut pile = Pile::new(e, off, 1e-3, rate);
                let e0 = pile.energy();
                for k in 0..(6.0 * rate) as usize {
                    let capped = pile.step();
                    assert_eq!(capped, 0, "{rate} Hz, e = {e}, {off} off: step {k} capped");
                    let (into_bowl, into_each_other) = pile.sunk();
                    (bowl, overlap) = (bowl.max(into_bowl), overlap.max(into_each_other));
                    let change = (pile.energy() - e0) / (3.0 * G * l);
                    energy = [energy[0].min(change), energy[1].max(change)];
                }
            }
        }
    }
    println!(
        "a ball let down onto two in a narrow bowl, 6 s at 30 to 1,000 Hz: no step capped; into each other at most {overlap:.1e} (left alone up to {allowed:.0e}); into the bowl at most {bowl:.1e}; energy from {:.1e} to {:.1e} of 3·g·L off the start's",
        energy[0], energy[1]
    );
    assert!(overlap <= allowed, "sunk into each other by {overlap}");
    let rounding = f64::from(SLIDE_SEAT_ULPS * 13.4 * f32::EPSILON + 8.0 * f32::EPSILON);
    assert!(
        bowl <= rounding,
        "sunk into the bowl by {bowl} (rounding {rounding:.1e})"
    );
}

#[test]
fn a_pile_of_three_at_rest_in_a_narrow_bowl_stays_where_it_is() {
    // Two at the bottom touching, the third on them touching both, all at rest: the pile
    // is held (statics: pushed apart by the one above, the two are pressed together by
    // the bowl's curve, for `3·L·sin h > L²·sin h·cos h/√(4R² − L²·sin²h)` at `sin h =
    // R/L`). For 60 s no ball moves or sinks into the bowl by more than the f32 rounding
    // of its centre (coordinates near 13: 1e-6 a spacing); each step's resting solve
    // stops within its tolerance, short of its cap.
    let mut worst = [0.0_f64; 2];
    let mut passes = 0;
    for rate in RATES {
        let mut pile = Pile::new(0.5, 0.0, 0.0, rate);
        let start = pile.balls.map(|b| b.center);
        for _ in 0..(60.0 * rate) as usize {
            let step = MultiballStep::new(&mut pile.balls, pile.dt, &pile.walls);
            let report = step_balls(step, &pile.settings, &mut pile.scratch, |_| {});
            assert_eq!(report.capped_balls, 0, "{rate} Hz: no step is capped");
            passes = passes.max(report.resting_passes);
            for (b, s) in pile.balls.iter().zip(start) {
                worst[0] = worst[0].max(f64::from(b.center.distance(s)));
            }
            worst[1] = worst[1].max(pile.sunk().0);
        }
    }
    println!(
        "three at rest piled in a narrow bowl, 60 s at 30 to 1,000 Hz: moved at most {:.1e}, into the bowl at most {:.1e}; at most {passes} passes of the resting solve",
        worst[0], worst[1]
    );
    assert!(passes < RESTING_ITERATIONS, "the resting solve reached its cap");
    assert!(worst[0] < 4e-6 && worst[1] < 4e-6, "moved {:?}", worst);
}
