//! Trajectory prediction in the terminal, with nothing but `ccd_core`.
//!
//! A ball is fired into a box with a few baffles and a pillar. The example predicts its
//! bounce path, draws it as ASCII art, then runs the same motion step by step with
//! `sweep_bounces` and checks, after every step, that the ball is in the box and inside no
//! wall or pillar (exit code 1 otherwise).
//!
//! ```text
//! cargo run --release --example trajectory
//! ```

use ccd_core::{
    Circle, Grid, Layers, Obstacle, ObstacleShape, Obstacles, PredictSettings, Segment, SweepSettings, Vec2,
    penetration, penetration_slop, predict_path, sweep_bounces,
};

const WIDTH: usize = 72;
const HEIGHT: usize = 28;
/// The box spans [0, 720] × [0, 560] world units.
const BOX: Vec2 = Vec2::new(720.0, 560.0);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut grid = Grid::default();
    let corners = [Vec2::ZERO, Vec2::new(BOX.x, 0.0), BOX, Vec2::new(0.0, BOX.y)];
    for i in 0..4 {
        grid.insert(Obstacle::segment(Segment::new(corners[i], corners[(i + 1) % 4])))?;
    }
    grid.insert(Obstacle::segment(Segment::new(
        Vec2::new(150.0, 80.0),
        Vec2::new(300.0, 220.0),
    )))?;
    grid.insert(Obstacle::segment(Segment::new(
        Vec2::new(480.0, 420.0),
        Vec2::new(640.0, 300.0),
    )))?;
    grid.insert(Obstacle::pillar(Circle::new(Vec2::new(420.0, 180.0), 40.0)))?;

    let ball = Circle::new(Vec2::new(60.0, 480.0), 8.0);
    let velocity = Vec2::new(900.0, -650.0);
    let settings = PredictSettings {
        max_bounces: 12,
        max_time: 3.0,
        ..Default::default()
    };
    let mut legs = Vec::new();
    let prediction = predict_path(ball, velocity, &grid, &settings, &mut legs)?;

    let mut canvas = vec![[' '; WIDTH]; HEIGHT];
    draw_obstacles(&grid, &mut canvas);
    for leg in &legs {
        draw_line(&mut canvas, leg.start, leg.end(), '.');
    }
    plot(&mut canvas, ball.center, 'S');
    for leg in &legs {
        plot(&mut canvas, leg.end(), 'o');
    }
    for row in canvas.iter().rev() {
        println!("{}", row.iter().collect::<String>());
    }
    println!(
        "predicted {} bounces over {:.3} s in {} legs",
        prediction.bounces,
        prediction.time,
        legs.len()
    );

    // Now run it for real at 120 Hz for 10 s and check, after every step, that it is
    // inside the box and inside no wall or pillar (the audit's check, `ccd_core::penetration`).
    let dt = 1.0 / 120.0;
    let (mut center, mut v) = (ball.center, velocity);
    let (mut bounces, mut max_in_step, mut deepest) = (0, 0, 0.0_f32);
    for _ in 0..1200 {
        let out = sweep_bounces(ball.at(center), v, dt, &grid, &SweepSettings::default(), |_| {})?;
        (center, v) = (out.center, out.velocity);
        bounces += out.bounces;
        max_in_step = max_in_step.max(out.bounces);
        let inside = center.cmpge(Vec2::splat(ball.radius)).all() && center.cmple(BOX - ball.radius).all();
        if !inside {
            return Err(format!("the ball escaped to {center}").into());
        }
        let now = ball.at(center);
        grid.query(now.aabb(), |_, obstacle| {
            if let Some(p) = penetration(now, Layers::ALL, obstacle) {
                deepest = deepest.max(p.depth);
            }
        });
        if deepest > penetration_slop(ball.radius) {
            return Err(format!("the ball sits {deepest} inside a surface at {center}").into());
        }
    }
    println!(
        "simulated 10 s at 120 Hz: {bounces} bounces (at most {max_in_step} in one step), speed {:.1} (started {:.1}), \
         no escape, no fault (deepest inside a surface {deepest:.6}, a fault past {:.6})",
        v.length(),
        velocity.length(),
        penetration_slop(ball.radius)
    );
    Ok(())
}

fn to_cell(p: Vec2) -> Option<(usize, usize)> {
    let x = (p.x / BOX.x * (WIDTH - 1) as f32).round();
    let y = (p.y / BOX.y * (HEIGHT - 1) as f32).round();
    ((0.0..WIDTH as f32).contains(&x) && (0.0..HEIGHT as f32).contains(&y))
        .then_some((x as usize, y as usize))
}

fn plot(canvas: &mut [[char; WIDTH]], p: Vec2, mark: char) {
    if let Some((x, y)) = to_cell(p) {
        canvas[y][x] = mark;
    }
}

fn draw_line(canvas: &mut [[char; WIDTH]], a: Vec2, b: Vec2, mark: char) {
    let n = ((b - a).length() / 5.0).ceil().max(1.0) as usize;
    for i in 0..=n {
        plot(canvas, a.lerp(b, i as f32 / n as f32), mark);
    }
}

fn draw_obstacles(grid: &Grid, canvas: &mut [[char; WIDTH]]) {
    grid.query(
        ccd_core::Aabb::new(Vec2::splat(-1.0), BOX + 1.0),
        |_, obstacle| {
            let mark = if matches!(obstacle.shape, ObstacleShape::Circle(_)) {
                '@'
            } else {
                '#'
            };
            for pair in obstacle.shape.outline().windows(2) {
                draw_line(canvas, pair[0], pair[1], mark);
            }
        },
    );
}
