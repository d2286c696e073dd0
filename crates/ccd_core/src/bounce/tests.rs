//! Hand-computed multi-bounce cases.

use super::*;
use crate::{Obstacle, Segment};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The seed of [`keep_earliest_holds_the_earliest_in_order_like_a_sorted_list`]'s values.
const KEEP_EARLIEST_SEED: u64 = 99;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn wall(a: Vec2, b: Vec2) -> Obstacle {
    Obstacle::segment(Segment::new(a, b))
}

fn floor() -> Obstacle {
    wall(v(-100.0, 0.0), v(100.0, 0.0))
}

/// A channel between y = 0 and y = 4: a ball of radius 1 at y = 2 moving at 10 units/s
/// vertically meets a wall every 0.2 s.
fn channel() -> [Obstacle; 2] {
    [floor(), wall(v(-100.0, 4.0), v(100.0, 4.0))]
}

fn run(
    circle: Circle,
    velocity: Vec2,
    dt: f32,
    obstacles: &[Obstacle],
    settings: &SweepSettings,
) -> (SweepOutcome, Vec<BounceHit>) {
    let mut hits = Vec::new();
    let out = sweep_bounces(circle, velocity, dt, obstacles, settings, |h| hits.push(*h)).unwrap();
    (out, hits)
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-4
}

#[test]
fn single_bounce_by_hand() {
    // From (0, 5) at (2, −8): the centre reaches y = 1 at t = 0.5 s, at x = 1. Reflected to
    // (2, 8), the last 0.5 s carries it to (2, 5).
    let (out, hits) = run(
        Circle::new(v(0.0, 5.0), 1.0),
        v(2.0, -8.0),
        1.0,
        &[floor()],
        &SweepSettings::default(),
    );
    assert!(close(out.center, v(2.0, 5.0)), "{out:?}");
    assert_eq!(out.velocity, v(2.0, 8.0));
    assert_eq!((out.bounces, out.capped), (1, false));
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].time, 0.5);
    assert_eq!(hits[0].hit.point, v(1.0, 0.0));
    assert_eq!(hits[0].approach_speed, 8.0);
}

#[test]
fn five_bounces_in_one_step_lose_no_time() {
    // Contacts at t = 0.1, 0.3, 0.5, 0.7, 0.9; after the last (at y = 1, going up) 0.1 s
    // remains: the ball ends at (1, 2) moving (1, 10).
    let (out, hits) = run(
        Circle::new(v(0.0, 2.0), 1.0),
        v(1.0, -10.0),
        1.0,
        &channel(),
        &SweepSettings::default(),
    );
    assert_eq!(out.bounces, 5);
    assert!(close(out.center, v(1.0, 2.0)), "{out:?}");
    assert!(close(out.velocity, v(1.0, 10.0)));
    let times: Vec<f32> = hits.iter().map(|h| h.time).collect();
    for (got, want) in times.iter().zip([0.1, 0.3, 0.5, 0.7, 0.9]) {
        assert!((got - want).abs() < 1e-5, "{times:?}");
    }
}

#[test]
fn bounce_cap_holds_the_ball_at_its_last_contact() {
    let settings = SweepSettings {
        max_bounces: 3,
        ..Default::default()
    };
    let (out, hits) = run(
        Circle::new(v(0.0, 2.0), 1.0),
        v(1.0, -10.0),
        1.0,
        &channel(),
        &settings,
    );
    assert_eq!((out.bounces, out.capped, hits.len()), (3, true, 3));
    // The third contact is on the floor at t = 0.5 s, x = 0.5.
    assert!(close(out.center, v(0.5, 1.0)), "{out:?}");
    assert!(close(out.velocity, v(1.0, 10.0)));
}

#[test]
fn corner_bounces_back_out() {
    // Into the corner of the floor and a wall at x = 10, at 45°: both are touched at
    // t = 0.4 s, the ball turns round and leaves along its incoming line.
    let walls = [floor(), wall(v(10.0, -100.0), v(10.0, 100.0))];
    let (out, hits) = run(
        Circle::new(v(5.0, 5.0), 1.0),
        v(10.0, -10.0),
        1.0,
        &walls,
        &SweepSettings::default(),
    );
    assert_eq!(hits.len(), 2);
    assert!(close(out.center, v(3.0, 7.0)));
    assert!(close(out.velocity, v(-10.0, 10.0)));
}

#[test]
fn stop_and_slide_modes() {
    let ball = Circle::new(v(0.0, 5.0), 1.0);
    let stop = SweepSettings {
        response: ResponseMode::Stop,
        ..Default::default()
    };
    let (out, _) = run(ball, v(3.0, -4.0), 2.0, &[floor()], &stop);
    assert_eq!(
        (out.center, out.velocity, out.bounces),
        (v(3.0, 1.0), Vec2::ZERO, 1)
    );

    // Slide: the contact at t = 1 s keeps (3, 0); the last second adds 3 along x.
    let slide = SweepSettings {
        response: ResponseMode::Slide,
        ..Default::default()
    };
    let (out, _) = run(ball, v(3.0, -4.0), 2.0, &[floor()], &slide);
    assert!(close(out.center, v(6.0, 1.0)), "{out:?}");
    assert!((out.velocity.x - 3.0).abs() < 1e-5 && out.velocity.y >= 0.0);
}

#[test]
fn restitution_and_resting_contact() {
    let ball = Circle::new(v(0.0, 5.0), 1.0);
    // e = 0.5: contact at t = 0.5 s, then up at 4 units/s for 0.5 s: y = 3.
    let half = SweepSettings {
        material: Material::new(0.5, 0.0),
        ..Default::default()
    };
    let (out, _) = run(ball, v(0.0, -8.0), 1.0, &[floor()], &half);
    assert!(close(out.center, v(0.0, 3.0)), "{out:?}");
    // Approaching slower than the resting speed: no bounce, it rolls on.
    let rest = SweepSettings {
        resting_speed: 1.0,
        ..Default::default()
    };
    let (out, _) = run(
        Circle::new(v(0.0, 1.2), 1.0),
        v(5.0, -0.4),
        1.0,
        &[floor()],
        &rest,
    );
    assert!(close(out.center, v(5.0, 1.0)), "{out:?}");
    assert!(out.velocity.y.abs() < 1e-3);
}

#[test]
fn resting_on_a_floor_under_gravity_never_sinks() {
    // Gravity pulls the ball into the floor every step; the resting threshold turns each
    // contact into rolling. After 10 s it lies still at y = 1 and has lost no x-speed.
    let settings = SweepSettings {
        resting_speed: 50.0,
        ..Default::default()
    };
    let dt = 1.0 / 120.0;
    let mut center = v(0.0, 1.0);
    let mut velocity = v(3.0, 0.0);
    for _ in 0..1200 {
        velocity += v(0.0, -981.0) * dt;
        let out = sweep_bounces(
            Circle::new(center, 1.0),
            velocity,
            dt,
            &[floor()],
            &settings,
            |_| {},
        )
        .unwrap();
        assert!(!out.capped);
        center = out.center;
        velocity = out.velocity;
        assert!(center.y >= 1.0 - 1e-4, "sank to {center}");
    }
    assert!((center.y - 1.0).abs() < 1e-3);
    assert!((velocity.x - 3.0).abs() < 1e-4);
    assert!((center.x - 30.0).abs() < 1e-2, "{center}");
}

#[test]
fn one_sided_gate() {
    // Front normal of (−5,0)→(5,0) is +y: blocks from above, lets through from below.
    let gate = [Obstacle::segment(Segment::new(v(-5.0, 0.0), v(5.0, 0.0))).with_one_sided(true)];
    let (out, _) = run(
        Circle::new(v(0.0, -3.0), 1.0),
        v(0.0, 6.0),
        1.0,
        &gate,
        &SweepSettings::default(),
    );
    assert_eq!((out.center, out.bounces), (v(0.0, 3.0), 0));
    let (out, _) = run(
        Circle::new(v(0.0, 3.0), 1.0),
        v(0.0, -6.0),
        1.0,
        &gate,
        &SweepSettings::default(),
    );
    assert_eq!(out.bounces, 1);
    assert!(close(out.center, v(0.0, 5.0)));
}

#[test]
fn sensor_reports_in_time_order_without_deflecting() {
    // A sensor line at x = 3 (touched when the centre reaches x = 2, t = 0.2 s) and a wall
    // at x = 8 (touched at x = 7, t = 0.7 s). In 0.9 s the ball comes back to x = 5, still
    // clear of the sensor: two reports, and the sensor never deflected it.
    let obstacles = [
        wall(v(8.0, -10.0), v(8.0, 10.0)),
        wall(v(3.0, -10.0), v(3.0, 10.0)).with_sensor(true),
    ];
    let ball = Circle::new(v(0.0, 0.0), 1.0);
    let (out, hits) = run(ball, v(10.0, 0.0), 0.9, &obstacles, &SweepSettings::default());
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!(hits[0].sensor && (hits[0].time - 0.2).abs() < 1e-6 && hits[0].obstacle == ObstacleId(1));
    assert!(!hits[1].sensor && (hits[1].time - 0.7).abs() < 1e-6);
    assert_eq!(out.bounces, 1);
    assert!(close(out.center, v(5.0, 0.0)));
    // Over 1.1 s it re-enters the sensor's reach from the other side at t = 1.0 s (centre
    // x = 4): a new entry, reported.
    let (_, hits) = run(ball, v(10.0, 0.0), 1.1, &obstacles, &SweepSettings::default());
    assert_eq!(hits.len(), 3);
    assert!(hits[2].sensor && (hits[2].time - 1.0).abs() < 1e-5);
}

#[test]
fn sensor_already_overlapped_is_not_reported_again() {
    let sensor = [wall(v(3.0, -10.0), v(3.0, 10.0)).with_sensor(true)];
    let (out, hits) = run(
        Circle::new(v(2.5, 0.0), 1.0),
        v(1.0, 0.0),
        1.0,
        &sensor,
        &SweepSettings::default(),
    );
    assert!(hits.is_empty());
    assert_eq!(out.center, v(3.5, 0.0));
}

#[test]
fn layers_filter_obstacles() {
    let ghost = [floor().with_layers(Layers::new(0b10, 0b10))];
    let ball = SweepSettings {
        layers: Layers::new(0b01, 0b01),
        ..Default::default()
    };
    let (out, _) = run(Circle::new(v(0.0, 5.0), 1.0), v(0.0, -8.0), 1.0, &ghost, &ball);
    assert_eq!((out.center, out.bounces), (v(0.0, -3.0), 0));
}

#[test]
fn bad_input_is_an_error_naming_the_field() {
    let s = SweepSettings::default();
    let call = |c: Circle, vel: Vec2, dt: f32| sweep_bounces(c, vel, dt, &[floor()], &s, |_| {});
    let ball = Circle::new(v(0.0, 5.0), 1.0);
    assert_eq!(
        call(ball, v(f32::NAN, 0.0), 1.0),
        Err(ShapeError::NonFinite { field: "velocity" })
    );
    assert_eq!(
        call(ball, v(0.0, 1.0), f32::INFINITY),
        Err(ShapeError::NonFinite { field: "dt" })
    );
    assert_eq!(
        call(ball, v(0.0, 1.0), -1.0),
        Err(ShapeError::NegativeRadius { field: "dt" })
    );
    assert_eq!(
        call(Circle::new(v(0.0, 5.0), -2.0), v(0.0, 1.0), 1.0),
        Err(ShapeError::NegativeRadius { field: "radius" })
    );
    assert_eq!(
        call(Circle::new(v(f32::NAN, 5.0), 1.0), v(0.0, 1.0), 1.0),
        Err(ShapeError::NonFinite { field: "center" })
    );
}

#[test]
fn empty_scene_and_zero_velocity() {
    let none: [Obstacle; 0] = [];
    let (out, hits) = run(
        Circle::new(v(1.0, 2.0), 1.0),
        v(3.0, 4.0),
        0.5,
        &none,
        &SweepSettings::default(),
    );
    assert_eq!((out.center, out.bounces, hits.len()), (v(2.5, 4.0), 0, 0));
    let (out, _) = run(
        Circle::new(v(1.0, 2.0), 1.0),
        Vec2::ZERO,
        0.5,
        &[floor()],
        &SweepSettings::default(),
    );
    assert_eq!(out.center, v(1.0, 2.0));
}

#[test]
fn keep_earliest_holds_the_earliest_in_order_like_a_sorted_list() {
    // Against a brute-force reference: every value seen, sorted, the first four kept.
    // Values on a coarse grid so that ties happen; the kept list is stable for them.
    let mut list = [0.0_f32; 4];
    let mut len = 0;
    let mut seen = Vec::new();
    let mut rng = StdRng::seed_from_u64(KEEP_EARLIEST_SEED);
    for _ in 0..300 {
        let value = f32::from(rng.random::<u8>()) * 0.5;
        keep_earliest(&mut list, &mut len, value, |x| *x);
        seen.push(value);
        let mut expected = seen.clone();
        expected.sort_by(f32::total_cmp);
        expected.truncate(4);
        assert_eq!(&list[..len], &expected[..]);
    }
}
