//! A ball whose centre lies exactly on a wall's line at the start of a step (issue 29):
//! a wall switched on over it. Its contact has no side of its own; the sweep takes the
//! normal against the motion (the side the ball came from). It must take that one contact
//! and leave to that side: before the fix, the bounce turned the motion round, the next
//! sweep from the same centre took the normal against the new motion, the other way, and
//! the ball took 16 contacts at time 0 every step, hit the bounce cap and never moved.
//!
//! Every expectation is the mirror image by hand: with `n` the unit normal of the wall on
//! the side the ball came from, an elastic contact sends `v` to `v − 2(v·n)n`, and the
//! ball ends the step at `c + (v − 2(v·n)n)·dt`, `|v·n|·dt` from the line on that side.
#![allow(clippy::expect_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, BounceHit, Circle, Contact, ContactWith, Material, MovingObstacle, MultiballScratch,
    MultiballSettings, MultiballStep, Obstacle, ObstacleId, ResponseMode, Segment, SegmentMotion,
    SweepSettings, Vec2, step_balls, sweep_bounces,
};
use glam::DVec2;

/// Seconds: one frame at 60 Hz.
const DT: f32 = 1.0 / 60.0;

/// Radius of the balls.
const RADIUS: f32 = 1.0;

/// Dimensionless. The f32 rounding of a velocity or a position, relative to its scale
/// (about 1e-7 for each of a few operations), a hundred times over.
const REL: f64 = 1e-5;

/// Walls whose line runs exactly through the ball's centre (the cross product of the
/// wall's direction and the offset of the centre from its start is 0 in exact
/// arithmetic): level, upright, a 3-4-5 slope, 45°, and a 5-12-13 slope through the origin.
fn walls() -> [(Segment, Vec2); 5] {
    [
        (
            Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)),
            Vec2::new(1.0, 0.0),
        ),
        (
            Segment::new(Vec2::new(3.0, -8.0), Vec2::new(3.0, 8.0)),
            Vec2::new(3.0, 2.0),
        ),
        (
            Segment::new(Vec2::new(-4.0, -3.0), Vec2::new(8.0, 6.0)),
            Vec2::new(4.0, 3.0),
        ),
        (
            Segment::new(Vec2::new(-2.0, -2.0), Vec2::new(6.0, 6.0)),
            Vec2::new(1.0, 1.0),
        ),
        (
            Segment::new(Vec2::new(-5.0, 12.0), Vec2::new(10.0, -24.0)),
            Vec2::ZERO,
        ),
    ]
}

/// The wall's unit normal `ν = d⊥/|d|`, in f64.
fn unit_normal(wall: Segment) -> DVec2 {
    (wall.b.as_dvec2() - wall.a.as_dvec2()).perp().normalize()
}

/// Velocities across the wall: at 0°, 30°, −60° and 85° from its normal, both ways, at
/// 0.5, 7 and 300 units/s (300 units/s moves 5 units in the step).
fn shots(wall: Segment) -> Vec<(f64, Vec2)> {
    let nu = unit_normal(wall);
    let along = nu.perp();
    let mut out = Vec::new();
    for degrees in [0.0_f64, 30.0, -60.0, 85.0] {
        let (sin, cos) = degrees.to_radians().sin_cos();
        for speed in [0.5_f64, 7.0, 300.0] {
            for way in [1.0, -1.0] {
                out.push((degrees, ((nu * cos * way + along * sin) * speed).as_vec2()));
            }
        }
    }
    out
}

/// By hand, in f64: the normal of the one contact (the side `v` comes from), the velocity
/// after it with restitution `e`, and where that velocity takes the centre by the end of
/// the step.
fn expected(wall: Segment, center: Vec2, v: Vec2, e: f64) -> (DVec2, DVec2, DVec2) {
    let nu = unit_normal(wall);
    let v = v.as_dvec2();
    let n = if v.dot(nu) < 0.0 { nu } else { -nu };
    let out = v - n * ((1.0 + e) * v.dot(n));
    (n, out, center.as_dvec2() + out * f64::from(DT))
}

/// Whether `got` is `want` to [`REL`] of `scale`.
fn close(got: Vec2, want: DVec2, scale: f64) -> bool {
    (got.as_dvec2() - want).length() <= REL * scale
}

/// One step of `sweep_bounces` with `settings`: the outcome and every contact reported.
fn sweep_step(
    center: Vec2,
    velocity: Vec2,
    walls: &[Obstacle],
    settings: &SweepSettings,
) -> (ccd_core::SweepOutcome, Vec<BounceHit>) {
    let mut hits = Vec::new();
    let out = sweep_bounces(Circle::new(center, RADIUS), velocity, DT, walls, settings, |h| {
        hits.push(*h);
    })
    .expect("valid inputs");
    (out, hits)
}

#[test]
fn sweep_bounces_takes_one_contact_and_leaves_to_the_side_it_came_from() {
    let mut cases = 0;
    for (segment, center) in walls() {
        let wall = [Obstacle::segment(segment)];
        for (_, v) in shots(segment) {
            let case = format!("wall {segment:?}, centre {center}, velocity {v}");
            let (n, v_out, end) = expected(segment, center, v, 1.0);
            let scale = f64::from(v.length());
            let (out, hits) = sweep_step(center, v, &wall, &SweepSettings::default());
            assert_eq!(hits.len(), 1, "{case}: {hits:?}");
            let hit = hits[0];
            assert_eq!(
                (hit.time, hit.hit.toi, hit.hit.center),
                (0.0, 0.0, center),
                "{case}"
            );
            assert!(close(hit.hit.normal, n, 1.0), "{case}: normal {}", hit.hit.normal);
            assert!(
                (f64::from(hit.approach_speed) + v.as_dvec2().dot(n)).abs() <= REL * scale,
                "{case}"
            );
            assert_eq!((out.bounces, out.capped), (1, false), "{case}");
            assert!(
                out.center.is_finite() && out.velocity.is_finite(),
                "{case}: {out:?}"
            );
            assert!(
                close(out.velocity, v_out, scale),
                "{case}: {} for {v_out}",
                out.velocity
            );
            assert!(
                close(out.center, end, scale * f64::from(DT) + 1.0),
                "{case}: {} for {end}",
                out.center
            );
            // On the side it came from, |v·n|·dt from the line.
            let off = (out.center - center).as_dvec2().dot(n);
            let want = -v.as_dvec2().dot(n) * f64::from(DT);
            assert!(
                off > 0.0 && (off - want).abs() <= REL * (want + 1.0),
                "{case}: {off} from the line"
            );
            // The next step goes on freely.
            let (next, hits) = sweep_step(out.center, out.velocity, &wall, &SweepSettings::default());
            assert!(hits.is_empty(), "{case}: {hits:?}");
            assert!(
                close(
                    next.center,
                    end + v_out * f64::from(DT),
                    scale * f64::from(DT) + 1.0
                ),
                "{case}"
            );
            cases += 1;
        }
    }
    assert_eq!(cases, 5 * 24);
}

#[test]
fn inelastic_and_sliding_balls_take_one_contact_too() {
    for (segment, center) in walls() {
        let wall = [Obstacle::segment(segment)];
        for (degrees, v) in shots(segment) {
            let case = format!("wall {segment:?}, centre {center}, velocity {v}");
            let scale = f64::from(v.length());
            // Restitution 1/2: the normal part comes back at half its speed.
            let half = SweepSettings {
                material: Material::new(0.5, 0.0),
                ..SweepSettings::default()
            };
            let (_, v_out, end) = expected(segment, center, v, 0.5);
            let (out, hits) = sweep_step(center, v, &wall, &half);
            assert_eq!((hits.len(), out.bounces, out.capped), (1, 1, false), "{case}");
            assert!(close(out.velocity, v_out, scale), "{case}: {}", out.velocity);
            assert!(
                close(out.center, end, scale * f64::from(DT) + 1.0),
                "{case}: {}",
                out.center
            );
            // Sliding: the normal part is removed; the ball goes on along the wall (and
            // leaves it to the side it came from at the separation speed, 1e-5 of that).
            let slide = SweepSettings {
                response: ResponseMode::Slide,
                ..SweepSettings::default()
            };
            let (n, v_out, end) = expected(segment, center, v, 0.0);
            let (out, hits) = sweep_step(center, v, &wall, &slide);
            if degrees == 0.0 {
                // Head on, nothing is left but the rounding of the velocity (1e-16 of the
                // speed), whose sign against the wall is rounding's: it may press the wall
                // again at once, with the same normal, at no speed. Never from the other
                // side, and the ball stays where it is.
                assert!(!hits.is_empty() && !out.capped, "{case}: {hits:?}");
                assert!(
                    hits.iter().all(|h| close(h.hit.normal, n, 1.0)),
                    "{case}: {hits:?}"
                );
                assert!(
                    close(out.center, center.as_dvec2(), 1.0),
                    "{case}: {}",
                    out.center
                );
                continue;
            }
            assert_eq!((hits.len(), out.bounces, out.capped), (1, 1, false), "{case}");
            assert!(close(out.velocity, v_out, scale), "{case}: {}", out.velocity);
            assert!(
                close(out.center, end, scale * f64::from(DT) + 1.0),
                "{case}: {}",
                out.center
            );
            assert!(out.velocity.as_dvec2().dot(n) >= 0.0, "{case}: {}", out.velocity);
        }
    }
}

/// `step_balls` on one ball: the contacts reported, the report, and the ball after.
fn multiball_step(
    ball: Ball,
    walls: &[Obstacle],
    moving: &mut [MovingObstacle],
) -> (Vec<Contact>, ccd_core::MultiballReport, Ball) {
    let mut balls = [ball];
    let mut contacts = Vec::new();
    let mut scratch = MultiballScratch::default();
    let report = step_balls(
        MultiballStep::new(&mut balls, DT, walls).with_moving(moving),
        &MultiballSettings::default(),
        &mut scratch,
        |c| contacts.push(*c),
    );
    (contacts, report, balls[0])
}

#[test]
fn step_balls_reports_one_contact() {
    for (segment, center) in walls() {
        let wall = [Obstacle::segment(segment)];
        for (_, v) in shots(segment) {
            let case = format!("wall {segment:?}, centre {center}, velocity {v}");
            let (_, v_out, end) = expected(segment, center, v, 1.0);
            let scale = f64::from(v.length());
            let (contacts, report, ball) = multiball_step(Ball::new(center, v, RADIUS), &wall, &mut []);
            assert_eq!(contacts.len(), 1, "{case}: {contacts:?}");
            assert_eq!(
                (contacts[0].with, contacts[0].time),
                (ContactWith::Obstacle(ObstacleId(0)), 0.0)
            );
            assert_eq!((report.bounces, report.capped_balls), (1, 0), "{case}");
            assert!(close(ball.velocity, v_out, scale), "{case}: {}", ball.velocity);
            assert!(
                close(ball.center, end, scale * f64::from(DT) + 1.0),
                "{case}: {}",
                ball.center
            );
            let (contacts, _, _) = multiball_step(ball, &wall, &mut []);
            assert!(contacts.is_empty(), "{case}: {contacts:?}");
        }
    }
}

/// The same through the event machinery: a small kinematic pillar (standing still) in
/// the corner of the ball's box away from where it goes, so the ball could meet it and is
/// stepped event by event. The pillar's centre is `r + p/2` from the ball's along each
/// axis, `√2·(r + p/2) > r + p` from it (for `p < 1.41·r`), and the ball moves away from
/// it: it is never touched.
#[test]
fn step_balls_event_machinery_reports_one_contact() {
    let pillar_radius = RADIUS / 4.0;
    for (segment, center) in walls() {
        let wall = [Obstacle::segment(segment)];
        for (_, v) in shots(segment) {
            let case = format!("wall {segment:?}, centre {center}, velocity {v}");
            let (_, v_out, end) = expected(segment, center, v, 1.0);
            let away = -Vec2::new(v_out.x.signum() as f32, v_out.y.signum() as f32);
            let corner = center + away * (RADIUS + pillar_radius / 2.0);
            let mut moving = [MovingObstacle::new(
                Obstacle::pillar(Circle::new(corner, pillar_radius)),
                SegmentMotion::default(),
            )];
            let scale = f64::from(v.length());
            let (contacts, report, ball) = multiball_step(Ball::new(center, v, RADIUS), &wall, &mut moving);
            assert_eq!(report.event_balls, 1, "{case}: {report:?}");
            assert_eq!(contacts.len(), 1, "{case}: {contacts:?}");
            assert_eq!(
                (contacts[0].with, contacts[0].time),
                (ContactWith::Obstacle(ObstacleId(0)), 0.0)
            );
            assert_eq!((report.bounces, report.capped_balls), (1, 0), "{case}");
            assert!(close(ball.velocity, v_out, scale), "{case}: {}", ball.velocity);
            assert!(
                close(ball.center, end, scale * f64::from(DT) + 1.0),
                "{case}: {}",
                ball.center
            );
        }
    }
}

#[test]
fn a_ball_on_a_pillars_centre_takes_one_contact() {
    // A pillar of radius 3 switched on over a ball: the normal is against the motion, the
    // ball comes straight back, −v, and ends at c − v·dt.
    let pillar = [Obstacle::pillar(Circle::new(Vec2::new(2.0, -1.0), 3.0))];
    for v in [Vec2::new(0.0, 5.0), Vec2::new(-6.0, 8.0), Vec2::new(240.0, -70.0)] {
        let (out, hits) = sweep_step(Vec2::new(2.0, -1.0), v, &pillar, &SweepSettings::default());
        assert_eq!(
            (hits.len(), out.bounces, out.capped),
            (1, 1, false),
            "{v}: {hits:?}"
        );
        assert!((hits[0].hit.normal + v.normalize()).length() < 1e-6, "{v}");
        assert!(
            (out.velocity + v).length() <= 1e-5 * v.length(),
            "{v}: {}",
            out.velocity
        );
        assert!(
            (out.center - (Vec2::new(2.0, -1.0) - v * DT)).length() < 1e-5,
            "{v}: {}",
            out.center
        );
    }
}

#[test]
fn a_point_that_reaches_the_line_bounces_once() {
    // A point (radius 0) at (1, 4) falls at 8 units/s for 1 s onto the floor y = 0: it is
    // on the line itself at t = 0.5, bounces, and rises 4 units in the last 0.5 s.
    let floor = [Obstacle::segment(Segment::new(
        Vec2::new(-10.0, 0.0),
        Vec2::new(10.0, 0.0),
    ))];
    let mut hits = Vec::new();
    let out = sweep_bounces(
        Circle::new(Vec2::new(1.0, 4.0), 0.0),
        Vec2::new(0.0, -8.0),
        1.0,
        &floor,
        &SweepSettings::default(),
        |h| hits.push(*h),
    )
    .expect("valid inputs");
    assert_eq!((hits.len(), out.bounces, out.capped), (1, 1, false), "{hits:?}");
    assert_eq!(
        (hits[0].time, hits[0].hit.center, hits[0].hit.normal),
        (0.5, Vec2::new(1.0, 0.0), Vec2::Y)
    );
    assert_eq!(
        (out.center, out.velocity),
        (Vec2::new(1.0, 4.0), Vec2::new(0.0, 8.0))
    );
}
