//! Combine rules and restitution that falls with impact speed, through both paths,
//! against hand-computed numbers.
#![allow(clippy::unwrap_used, reason = "a test: a bad setup is a failed test")]

use ccd_core::{
    Ball, Circle, CombineRule, Material, MultiballScratch, MultiballSettings, MultiballStep, Obstacle,
    Segment, SweepSettings, Vec2, step_balls, sweep_bounces,
};

/// Units per second: f32 velocities near 1,000 round at 6e-5; the f64 response rounds
/// once. A thousandth is ten times both.
const TOL: f32 = 1e-3;

fn floor(material: Material) -> Obstacle {
    Obstacle::segment(Segment::new(Vec2::new(-1e4, 0.0), Vec2::new(1e4, 0.0))).with_material(material)
}

fn bounce(ball: Material, floor_material: Material, speed: f32) -> Vec2 {
    // Radius 10 at height 20, falling at `speed`; the step is long enough to reach the
    // floor and short enough not to come back: 15/speed s.
    let settings = SweepSettings {
        material: ball,
        ..SweepSettings::default()
    };
    let out = sweep_bounces(
        Circle::new(Vec2::new(0.0, 20.0), 10.0),
        Vec2::new(0.0, -speed),
        15.0 / speed,
        &[floor(floor_material)][..],
        &settings,
        |_| {},
    )
    .unwrap();
    out.velocity
}

#[test]
fn rubber_loses_bounce_with_impact_speed() {
    // e(v) = e0 / (1 + f·v / v_ref) with e0 = 0.9, f = 1, v_ref = 1,000 (1 m/s in mm):
    // at 200 mm/s 0.9 / 1.2 = 0.75 → out 150; at 1,000 0.45 → 450; at 3,000 0.225 → 675.
    let rubber = Material::new(0.9, 0.0).with_falloff(1.0, 1000.0);
    for (speed, out) in [(200.0, 150.0), (1000.0, 450.0), (3000.0, 675.0)] {
        let v = bounce(Material::ELASTIC, rubber, speed);
        assert!((v.y - out).abs() < TOL, "in at {speed}: out {v}");
    }
    // Without the falloff (the default) the bounce keeps 0.9 at any speed.
    let v = bounce(Material::ELASTIC, Material::new(0.9, 0.0), 3000.0);
    assert!((v.y - 2700.0).abs() < TOL, "{v}");
}

#[test]
fn combine_rules_decide_the_bounce() {
    // Ball e = 0.8, floor e = 0.5, in at 1,000: Classic/Multiply 0.4 → 400; Average 0.65
    // → 650; Min 0.5 → 500; Max 0.8 → 800. The floor names the rule, the ball keeps
    // Classic, which yields to any other.
    let ball = Material::new(0.8, 0.0);
    for (rule, out) in [
        (CombineRule::Classic, 400.0),
        (CombineRule::Average, 650.0),
        (CombineRule::Min, 500.0),
        (CombineRule::Multiply, 400.0),
        (CombineRule::Max, 800.0),
    ] {
        let floor_material = Material::new(0.5, 0.0).with_rules(rule, CombineRule::Classic);
        let v = bounce(ball, floor_material, 1000.0);
        assert!((v.y - out).abs() < TOL, "{rule:?}: out {v}");
    }
}

#[test]
fn ball_ball_contacts_fall_off_too() {
    // Two equal balls head on at ±1,000: approach 2,000, e = 1 / (1 + 1·2,000/1,000) = 1/3,
    // so they part at 2,000/3 relative: ±333.33 each, momentum zero throughout.
    let rubber = Material::new(1.0, 0.0).with_falloff(1.0, 1000.0);
    let mut balls = [
        Ball::new(Vec2::new(-15.0, 0.0), Vec2::new(1000.0, 0.0), 10.0),
        Ball::new(Vec2::new(15.0, 0.0), Vec2::new(-1000.0, 0.0), 10.0),
    ];
    for b in &mut balls {
        b.material = rubber;
    }
    // They touch after 5 units of closing each, at 0.005 s; a step of 0.006 s.
    step_balls(
        MultiballStep::new(&mut balls, 0.006, &mut [][..] as &[Obstacle]),
        &MultiballSettings::default(),
        &mut MultiballScratch::default(),
        |_| {},
    );
    assert!(
        (balls[0].velocity.x + 1000.0 / 3.0).abs() < TOL,
        "{}",
        balls[0].velocity
    );
    assert!(
        (balls[1].velocity.x - 1000.0 / 3.0).abs() < TOL,
        "{}",
        balls[1].velocity
    );
}
