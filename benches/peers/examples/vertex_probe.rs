//! One ball, one bounce, on Avian 2D: how much speed does a fast ball keep when it hits
//! the outer 512-gon of the ball pit near a vertex, where two segment colliders meet?
//!
//! Same settings as the benchmark (120 Hz, default 6 substeps, `SweptCcd`, e = 1 with the
//! Max rule, μ = 0, no gravity). The ball starts 60 units from the wall and aims at a point
//! `offset` units along the wall from the vertex; the table shows |v| after the bounce
//! divided by |v| before (1 for an exact elastic bounce).
//!
//! ```text
//! cargo run --release --example vertex_probe            # speed 3000, 6 substeps
//! cargo run --release --example vertex_probe -- 4000 12 # speed 4000, 12 substeps
//! ```

use avian2d::prelude::*;
use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;

const SIDES: i32 = 512;
const RADIUS: f32 = 1000.0;

fn corner(i: i32) -> Vec2 {
    Vec2::from_angle(i as f32 / SIDES as f32 * std::f32::consts::TAU) * RADIUS
}

/// Speed after the first bounce over speed before.
fn bounce(speed: f32, angle_deg: f32, offset: f32, substeps: u32) -> f32 {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(1),
    }))
    .add_plugins(TransformPlugin)
    .insert_resource(Time::<Fixed>::from_hz(120.0))
    .insert_resource(Time::<Virtual>::from_max_delta(Duration::from_secs(1)))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .add_plugins(PhysicsPlugins::default())
    .insert_resource(SubstepCount(substeps))
    .insert_resource(Gravity(Vec2::ZERO));
    let material = (
        Restitution::new(1.0).with_combine_rule(CoefficientCombine::Max),
        Friction::ZERO,
    );
    for i in -40..40 {
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::segment(corner(i), corner(i + 1)),
            material,
            Transform::default(),
        ));
    }
    // The vertex at angle 0 is (1000, 0); the wall there is nearly vertical. Aim at the
    // point `offset` along the wall (positive y) from the vertex, coming from the inside
    // at `angle_deg` from the inward normal.
    let target = corner(0) + Vec2::Y * offset - Vec2::X * 4.0;
    let dir = Vec2::from_angle(angle_deg.to_radians());
    let start = target - dir * 60.0;
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(4.0),
            SweptCcd::default(),
            material,
            LinearVelocity(dir * speed),
            Transform::from_translation(start.extend(0.0)),
        ))
        .id();
    app.finish();
    app.cleanup();
    for _ in 0..60 {
        app.update();
        let Some(v) = app.world().get::<LinearVelocity>(ball) else {
            break;
        };
        if v.0.dot(dir) < 0.0 || v.0.x < 0.0 {
            return v.0.length() / speed;
        }
    }
    f32::NAN
}

fn main() {
    let args: Vec<f32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let speed = args.first().copied().unwrap_or(3000.0);
    let substeps = args.get(1).copied().unwrap_or(6.0) as u32;
    let edge = (corner(1) - corner(0)).length();
    println!(
        "Avian 2D, 512-gon edge {edge:.2}, ball r=4 at {speed} u/s, {substeps} substeps: |v| after / before"
    );
    let offsets: Vec<f32> = (-8..=8).map(|i| i as f32 * 0.75).collect();
    print!("{:>8}", "angle");
    for o in &offsets {
        print!(" {o:>6.2}");
    }
    println!("   (offset from the vertex along the wall)");
    for angle in [0.0, 15.0, 30.0, 45.0, 60.0] {
        print!("{angle:>8}");
        for &o in &offsets {
            print!(" {:>6.3}", bounce(speed, angle, o, substeps));
        }
        println!();
    }
}
