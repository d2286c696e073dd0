//! Corners and squeezes: no time lost at the bounce cap, and no speed pumped by a ball
//! squeezed between two surfaces.
//!
//! - In a narrow V, an elastic ball bounces about π/α times (α the V's angle) before it
//!   comes out, many of them within one step. Unfolding the V (reflecting it about each
//!   wall it meets) turns the path into a straight line, so the distance from the centre
//!   to the V's apex (moved in by r/sin(α/2), where the centre can go) follows that line
//!   exactly: the ball must come out when the line says, not later.
//! - A ball between a rising flipper and a wall is squeezed; bounce after bounce between
//!   the two would multiply its speed. It must never be faster than `(1 + e)·v_tip` (what
//!   one bounce off the blade could give a ball at rest); in fact the squeeze rule leaves
//!   it exactly at rest, and the test asserts that too.

use ccd_core::{
    Ball, Circle, ContactWith, Layers, Material, MovingObstacle, MultiballScratch, MultiballSettings,
    MultiballStep, Obstacle, Segment, SegmentMotion, SweepSettings, Vec2, penetration, penetration_slop,
    step_balls, sweep_bounces,
};
use glam::DVec2;

/// The V: apex at the origin, opening along +x, walls 2,000 long at ±α/2.
fn v_walls(alpha: f32) -> [Obstacle; 2] {
    let (s, c) = (alpha / 2.0).sin_cos();
    [
        Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(c, s) * 2000.0)),
        Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(c, -s) * 2000.0)),
    ]
}

/// A ball (r = 1, elastic) at (900, 0.3) shot at (−2000, 3) into a 1° V: it passes its
/// apex at 1.5 units, about 180 bounces in all, most of them in one step at 120 Hz.
struct Shot {
    alpha: f32,
    start: Vec2,
    velocity: Vec2,
    radius: f32,
}

const SHOT: Shot = Shot {
    alpha: 1.0 * std::f32::consts::PI / 180.0,
    start: Vec2::new(900.0, 0.3),
    velocity: Vec2::new(-2000.0, 3.0),
    radius: 1.0,
};

impl Shot {
    /// Where the centre's V has its apex: r/sin(α/2) along the opening.
    fn apex(&self) -> DVec2 {
        DVec2::new(f64::from(self.radius) / (f64::from(self.alpha) / 2.0).sin(), 0.0)
    }

    /// The distance from the centre to that apex at time `t`, by the unfolded line.
    fn distance(&self, t: f64) -> f64 {
        (self.start.as_dvec2() - self.apex() + self.velocity.as_dvec2() * t).length()
    }

    /// When the unfolded line is back at the starting distance: the ball is out.
    fn exit_time(&self) -> f64 {
        let rel = self.start.as_dvec2() - self.apex();
        let v = self.velocity.as_dvec2();
        2.0 * -rel.dot(v) / v.length_squared()
    }

    /// The bounces, by the unfolded line: seen from the centre's apex, the line turns from
    /// the start's direction to the exit's, and it crosses one image of a wall at every
    /// angle `(k + ½)·α` on the way (the walls are at ±α/2). 180 for this shot.
    fn bounces(&self) -> u32 {
        let rel = self.start.as_dvec2() - self.apex();
        let out = rel + self.velocity.as_dvec2() * self.exit_time();
        let from = rel.y.atan2(rel.x);
        // The turn is less than half a turn, counter-clockwise when rel × v > 0.
        let turn = rel.angle_to(out).abs() * rel.perp_dot(self.velocity.as_dvec2()).signum();
        let alpha = f64::from(self.alpha);
        let (lo, hi) = if turn > 0.0 {
            (from, from + turn)
        } else {
            (from + turn, from)
        };
        // The integers k with lo < (k + ½)·α < hi.
        let count = (hi / alpha - 0.5).floor() - (lo / alpha - 0.5).ceil() + 1.0;
        count as u32
    }

    /// How late the ball is at time `t` against the unfolded line (positive: behind it),
    /// in seconds, from its distance to the apex, once it is on its way out.
    fn delay(&self, t: f64, center: Vec2) -> f64 {
        let actual = (center.as_dvec2() - self.apex()).length();
        (self.distance(t) - actual) / self.velocity.as_dvec2().length()
    }
}

const HZ: f64 = 120.0;

/// Seconds. How far from the unfolded line's time the ball may come out: each of the 180
/// contacts places the centre to f32 rounding at coordinates near 900 (6e-5 units, 3e-8 s
/// at 2,000 units/s), so 180 of them are 5.5e-6 s at worst; twice that.
const EXIT_DELAY_TOL: f64 = 1e-5;

#[test]
fn single_ball_comes_out_of_a_one_degree_v_on_time() {
    let walls = v_walls(SHOT.alpha);
    let dt = (1.0 / HZ) as f32;
    let steps = (SHOT.exit_time() * HZ).ceil() as usize + 2;
    let (mut center, mut velocity, mut bounces) = (SHOT.start, SHOT.velocity, 0);
    for _ in 0..steps {
        let out = sweep_bounces(
            Circle::new(center, SHOT.radius),
            velocity,
            dt,
            &walls,
            &SweepSettings::default(),
            |_| {},
        )
        .unwrap();
        assert!(!out.capped, "the ball waited at the bounce cap");
        (center, velocity) = (out.center, out.velocity);
        bounces += out.bounces;
    }
    let t = steps as f64 / HZ;
    let delay = SHOT.delay(t, center);
    eprintln!("single-ball path: {bounces} bounces, exit delay {delay:e} s");
    // The README's figure: ⌈π/α⌉ = 180 at α = 1°.
    assert_eq!(SHOT.bounces(), 180);
    assert_eq!(bounces, SHOT.bounces(), "the unfolded line's bounces");
    assert!(delay.abs() < EXIT_DELAY_TOL, "delay {delay} s");
    // Elastic walls: the speed is kept, and by symmetry of the unfolded line the ball
    // leaves along the V.
    assert!((velocity.length() - SHOT.velocity.length()).abs() < 1e-2 * 1.0);
    assert!(velocity.x > 0.0);
}

#[test]
fn step_balls_comes_out_of_a_one_degree_v_on_time() {
    let walls = v_walls(SHOT.alpha);
    let dt = (1.0 / HZ) as f32;
    let steps = (SHOT.exit_time() * HZ).ceil() as usize + 2;
    let mut ball = [Ball::new(SHOT.start, SHOT.velocity, SHOT.radius)];
    let mut scratch = MultiballScratch::default();
    let (mut capped, mut bounces) = (0, 0);
    for _ in 0..steps {
        let report = step_balls(
            MultiballStep::new(&mut ball, dt, &walls[..]),
            &MultiballSettings::default(),
            &mut scratch,
            |_| {},
        );
        capped += report.capped_balls;
        bounces += report.bounces;
    }
    let delay = SHOT.delay(steps as f64 / HZ, ball[0].center);
    eprintln!("step_balls: {bounces} bounces, exit delay {delay:e} s");
    assert_eq!(capped, 0, "the ball waited at the bounce cap");
    assert_eq!(bounces, SHOT.bounces(), "the unfolded line's bounces");
    assert!(delay.abs() < EXIT_DELAY_TOL, "delay {delay} s");
    assert!(ball[0].velocity.x > 0.0);
}

/// What a squeeze did to the ball.
#[derive(Clone, Copy, Debug, Default)]
struct Squeezed {
    /// The fastest the ball went, at any step end.
    fastest: f32,
    /// Contacts with the blade reported.
    contacts: u32,
    /// Step ends with the ball beyond the wall or inside the blade (more than 1 % of r).
    violations: u32,
}

/// A flipper (pivot at the origin, 70 long) rising at 75 rad/s from −30° through 50°, and a
/// ball (r = 13.5, restitution `e`) at rest against a wall above it: the ball's centre at
/// `x`, the wall just low enough that the raised blade would reach `squeeze` into the ball.
/// The blade squeezes the ball against the wall; the run goes on 20 steps past the stroke.
fn squeezed(hz: f64, x: f32, squeeze: f32, e: f32) -> Squeezed {
    const LENGTH: f32 = 70.0;
    const RADIUS: f32 = 13.5;
    const OMEGA: f32 = 75.0;
    let start = -30f32.to_radians();
    let stroke = 50f32.to_radians();
    let dt = (1.0 / hz) as f32;
    // The raised blade's face under the ball is at x·tan 20° + r/cos 20° from the centre's
    // height when it touches; the wall is `squeeze` lower than that allows.
    let end = start + stroke;
    let wall_y = x * end.tan() + RADIUS / end.cos() + RADIUS - squeeze;
    let wall = [Obstacle::segment(Segment::new(
        Vec2::new(-200.0, wall_y),
        Vec2::new(200.0, wall_y),
    ))];
    let mut ball = [Ball::new(Vec2::new(x, wall_y - RADIUS), Vec2::ZERO, RADIUS)];
    ball[0].material = Material::new(e, 0.0);
    let mut scratch = MultiballScratch::default();
    let mut angle = start;
    let mut out = Squeezed::default();
    let steps = (stroke / (OMEGA * dt)).ceil() as usize + 20;
    for _ in 0..steps {
        let turn = (OMEGA * dt).min(start + stroke - angle).max(0.0);
        let blade = Segment::new(Vec2::ZERO, Vec2::from_angle(angle) * LENGTH);
        let flipper = MovingObstacle::new(
            Obstacle::segment(blade),
            SegmentMotion {
                pivot: Vec2::ZERO,
                angle: turn,
                pivot_motion: Vec2::ZERO,
            },
        );
        step_balls(
            MultiballStep::new(&mut ball, dt, &wall[..]).with_moving(&mut [flipper]),
            &MultiballSettings::default(),
            &mut scratch,
            |c| out.contacts += u32::from(matches!(c.with, ContactWith::Moving(_))),
        );
        angle += turn;
        let p = ball[0].center;
        out.fastest = out.fastest.max(ball[0].velocity.length());
        let beyond_wall = p.y > wall_y - RADIUS + 1e-2 * RADIUS;
        let dir = Vec2::from_angle(angle);
        let inside_blade = (0.0..=LENGTH).contains(&p.dot(dir)) && p.dot(dir.perp()) < RADIUS - 1e-2 * RADIUS;
        out.violations += u32::from(beyond_wall || inside_blade);
    }
    out
}

/// What this proves, for 2 rates × 3 restitutions × 3 positions × 3 squeezes: the blade
/// reached the ball in every run (at least one contact); at every step end the ball is
/// neither beyond the wall nor inside the blade by more than 1 % of its radius; and at
/// every step end its velocity is exactly zero, which is below `(1 + e)·v_tip`.
///
/// The exact zero is the independent expectation, by hand: the ball starts at rest
/// touching a still wall, with μ = 0 and no gravity, so every contact with the rising
/// blade is a squeeze (`two_surfaces`): the ball takes the slower surface's speed along
/// the squeeze, the still wall's 0, and keeps its speed across it, 0 for a ball at rest;
/// the push out of the blade at the end of the step moves its centre, not its velocity.
/// A contact resolved as a plain bounce off the blade instead would have thrown the ball
/// off at up to `(1 + e)·v_tip`, and pumping between blade and wall faster still. The
/// velocity is read at step ends only. The test does not bound how far the push-out moves
/// the ball's centre in one step.
#[test]
fn a_squeezed_ball_leaves_no_faster_than_the_flipper_can_throw_it() {
    let tip = 75.0 * 70.0;
    let mut failures = Vec::new();
    for hz in [120.0, 1000.0] {
        for e in [0.0, 0.5, 0.9] {
            let (mut worst, mut violations) = (0.0_f32, 0);
            for x in [30.0, 45.0, 60.0] {
                for squeeze in [2.0, 8.0, 20.0] {
                    let p = squeezed(hz, x, squeeze, e);
                    if p.contacts == 0 {
                        failures.push(format!(
                            "{hz} Hz, e = {e}, x = {x}, squeeze {squeeze}: the blade never reached the ball"
                        ));
                    }
                    // Exactly at rest: see the test's comment.
                    if p.fastest != 0.0 {
                        failures.push(format!(
                            "{hz} Hz, e = {e}, x = {x}, squeeze {squeeze}: moving at {} after a squeeze",
                            p.fastest
                        ));
                    }
                    worst = worst.max(p.fastest);
                    violations += p.violations;
                }
            }
            let bound = (1.0 + e) * tip;
            eprintln!(
                "{hz} Hz, e = {e}: fastest {worst:.0} against (1 + e)·v_tip = {bound:.0}; \
                 {violations} step ends beyond the wall or inside the blade"
            );
            if worst > bound || violations > 0 {
                failures.push(format!(
                    "{hz} Hz, e = {e}: fastest {worst}, {violations} violations"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// A flipper bat's outline in its own frame (pivot at the origin, tip along +x): the hull
/// of a base circle of radius 11.5 at the pivot and a tip circle of radius 6.5 whose far
/// edge is at x = 76, as the pinball example builds it: the two tangent faces and the tip
/// cut into six chords. (The base circle is a pillar at the pivot.)
fn bat_outline() -> Vec<Segment> {
    let (big, small, length) = (11.5_f32, 6.5_f32, 76.0_f32);
    let c = length - small;
    let nx = (big - small) / c;
    let ny = (1.0 - nx * nx).sqrt();
    let (top, bottom) = (Vec2::new(nx, ny), Vec2::new(nx, -ny));
    let tip = Vec2::new(c, 0.0);
    let mut parts = vec![
        Segment::new(top * big, tip + top * small),
        Segment::new(bottom * big, tip + bottom * small),
    ];
    let (from, to) = (top.to_angle(), bottom.to_angle());
    let chords = 6;
    for k in 0..chords {
        let at = |j: usize| tip + Vec2::from_angle(from + (to - from) * j as f32 / chords as f32) * small;
        parts.push(Segment::new(at(k), at(k + 1)));
    }
    parts
}

/// What this proves: two flipper bats whose tips pass closer than a ball's diameter (the
/// pinball tables' left bat held up and the right one rising, their tips 24 apart as the
/// right one sweeps by, for a ball 27 across) squeeze a ball caught between them out of
/// the gap, and at every step end it is inside no part of either bat, nor their pivots, by
/// more than the audit's slop. The pinball autoplay found a ball 0.64 deep in a tip chord
/// of the rising bat at 480 Hz (the push out of a squeeze knew only the one face it met).
/// The case is that run's, from its trace, and the ball is moved about it and sent at a
/// range of speeds.
#[test]
fn a_ball_caught_between_two_flipper_tips_is_squeezed_out_of_the_gap() {
    const RADIUS: f32 = 13.5;
    const HZ: f32 = 480.0;
    const OMEGA: f32 = -70.0;
    let (left_pivot, right_pivot) = (Vec2::new(153.4, 150.0), Vec2::new(322.6, 150.0));
    let (left_angle, top_angle) = (20f32.to_radians(), 160f32.to_radians());
    let place = |pivot: Vec2, angle: f32, s: Segment| {
        let turn = Vec2::from_angle(angle);
        Segment::new(pivot + turn.rotate(s.a), pivot + turn.rotate(s.b))
    };
    let pivots = [
        Obstacle::pillar(Circle::new(left_pivot, 11.5)),
        Obstacle::pillar(Circle::new(right_pivot, 11.5)),
    ];
    let settings = MultiballSettings {
        gravity: Vec2::new(0.0, -1110.0),
        ..MultiballSettings::default()
    };
    let dt = 1.0 / HZ;
    let mut worst = 0.0_f32;
    let mut failures = Vec::new();
    let mut squeezed = 0;
    for dx in [-2.0, 0.0, 2.0] {
        for dy in [-2.0, 0.0, 2.0] {
            for speed in [0.5, 1.0, 2.0] {
                let start = Vec2::new(235.74 + dx, 162.75 + dy);
                let mut ball = [Ball::new(start, Vec2::new(1370.5, -818.8) * speed, RADIUS)];
                let mut scratch = MultiballScratch::default();
                let mut angle = 3.1155_f32;
                for step in 0..12 {
                    let turn = (OMEGA * dt).max(top_angle - angle);
                    let mut bats: Vec<MovingObstacle> = bat_outline()
                        .into_iter()
                        .map(|s| {
                            MovingObstacle::new(
                                Obstacle::segment(place(right_pivot, angle, s)),
                                SegmentMotion {
                                    pivot: right_pivot,
                                    angle: turn,
                                    pivot_motion: Vec2::ZERO,
                                },
                            )
                        })
                        .chain(bat_outline().into_iter().map(|s| {
                            MovingObstacle::new(
                                Obstacle::segment(place(left_pivot, left_angle, s)),
                                SegmentMotion {
                                    pivot: left_pivot,
                                    angle: 0.0,
                                    pivot_motion: Vec2::ZERO,
                                },
                            )
                        }))
                        .collect();
                    let report = step_balls(
                        MultiballStep::new(&mut ball, dt, &pivots[..]).with_moving(&mut bats),
                        &settings,
                        &mut scratch,
                        |_| {},
                    );
                    squeezed += u32::from(report.bounces > 1);
                    angle += turn;
                    let circle = Circle::new(ball[0].center, RADIUS);
                    let ended: Vec<Obstacle> = bats
                        .iter()
                        .map(MovingObstacle::at_end)
                        .chain(pivots.iter().copied())
                        .collect();
                    for o in &ended {
                        if let Some(p) = penetration(circle, Layers::ALL, o) {
                            worst = worst.max(p.depth);
                            if p.depth > penetration_slop(RADIUS) {
                                failures.push(format!(
                                    "ball from {start} at {speed}×, step {step}: {} inside {o:?}",
                                    p.depth
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "deepest inside a bat or pivot at a step end: {worst} (slop {})",
        penetration_slop(RADIUS)
    );
    assert!(squeezed > 0, "no case was squeezed");
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

/// What this proves: a ball resting on both raised flipper tips (the left bat held, the
/// right one let go and falling back, its tip pressing the ball against the left tip as it
/// turns down) is squeezed out without spending the bounce cap, at 480 and 1,000 Hz and at
/// several fall rates, and at every step end it is inside neither bat by more than the
/// audit's slop. The pinball autoplay found this ball spending its 16 contacts a step at
/// time 0 against the held tip: the squeeze's velocity slid along that tip's face with
/// nothing to part them but rounding, which made it meet the face again at once.
#[test]
fn a_ball_on_two_raised_tips_is_squeezed_out_when_one_bat_falls() {
    const RADIUS: f32 = 13.5;
    let (left_pivot, right_pivot) = (Vec2::new(153.4, 150.0), Vec2::new(322.6, 150.0));
    let (left_angle, top_angle) = (20f32.to_radians(), 160f32.to_radians());
    // The bat falls back under a constant angular acceleration, rad/s², and is followed
    // until it has turned this far, rad.
    let fall = 0.8_f32;
    let settings = |dt: f32| MultiballSettings {
        gravity: Vec2::new(0.0, -1110.0),
        resting_speed: 2.0 * 1110.0 * dt,
        ..MultiballSettings::default()
    };
    let bat = |pivot: Vec2, angle: f32, turn: f32| -> Vec<MovingObstacle> {
        let place = Vec2::from_angle(angle);
        bat_outline()
            .into_iter()
            .map(|s| {
                let placed = Segment::new(pivot + place.rotate(s.a), pivot + place.rotate(s.b));
                let rubber = Obstacle {
                    material: Material::new(0.55, 0.3),
                    ..Obstacle::segment(placed)
                };
                let motion = SegmentMotion {
                    pivot,
                    angle: turn,
                    pivot_motion: Vec2::ZERO,
                };
                MovingObstacle::new(rubber, motion)
            })
            .collect()
    };
    let mut failures = Vec::new();
    for hz in [480.0_f32, 1000.0] {
        let dt = 1.0 / hz;
        for x in [236.1_f32, 237.0, 238.3, 239.5] {
            for acceleration in [100.0_f32, 220.0, 500.0] {
                let mut ball = [Ball::new(Vec2::new(x, 200.0), Vec2::ZERO, RADIUS)];
                let mut scratch = MultiballScratch::default();
                let (mut angle, mut spin) = (top_angle, 0.0_f32);
                // One second held, to settle on both tips; then the right bat falls.
                for step in 0.. {
                    let falling = step as f32 * dt >= 1.0;
                    let turn = if falling {
                        spin * dt + 0.5 * acceleration * dt * dt
                    } else {
                        0.0
                    };
                    if angle - top_angle > fall {
                        break;
                    }
                    let mut bats = bat(left_pivot, left_angle, 0.0);
                    bats.extend(bat(right_pivot, angle, turn));
                    let report = step_balls(
                        MultiballStep::new(&mut ball, dt, &[]).with_moving(&mut bats),
                        &settings(dt),
                        &mut scratch,
                        |_| {},
                    );
                    angle += turn;
                    spin += if falling { acceleration * dt } else { 0.0 };
                    let circle = Circle::new(ball[0].center, RADIUS);
                    let deepest = bats
                        .iter()
                        .filter_map(|o| penetration(circle, Layers::ALL, &o.at_end()))
                        .map(|p| p.depth)
                        .fold(0.0_f32, f32::max);
                    if report.capped_balls > 0 || deepest > penetration_slop(RADIUS) {
                        failures.push(format!(
                            "{hz} Hz, ball from x = {x}, bat at {acceleration} rad/s², step {step}: \
                             {} contacts, capped {}, {deepest} deep",
                            report.bounces, report.capped_balls
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
