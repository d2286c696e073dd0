//! The same input gives the same bits: on one thread or several, and run after run.
//!
//! The ball-pit scene (2,000 balls, so every thread gets work) with a spinning paddle,
//! under gravity, with and without ball–ball contacts: every centre, every velocity and
//! every reported contact must match the one-thread run bit for bit.
#![allow(clippy::unwrap_used, reason = "a test: a bad obstacle is a failed test")]

#[path = "../benches/common/pit.rs"]
mod pit;

use ccd_core::{
    Ball, Contact, ContactWith, MovingObstacle, MultiballScratch, MultiballSettings, MultiballStep, Obstacle,
    ObstacleShape, Parallel, Segment, SegmentMotion, Threads, Vec2, step_balls_parallel,
};

/// Balls in the pit for the whole test.
const BALLS: usize = 2000;
/// Steps per run: 1 s at the pit's rate.
const STEPS: usize = 120;
/// The paddle's turn per step, radians (about 60 rad/s at 120 Hz).
const PADDLE_TURN: f32 = 0.5;

/// Everything a run produced, as bits.
#[derive(Debug, PartialEq, Eq)]
struct Trace {
    balls: Vec<[u32; 4]>,
    contacts: Vec<ContactBits>,
    events: u64,
    /// The most balls swept on their own, and through the event machinery, in one step.
    most_lone: u32,
    most_event: u32,
}

fn bits(b: &Ball) -> [u32; 4] {
    [b.center.x, b.center.y, b.velocity.x, b.velocity.y].map(f32::to_bits)
}

/// Every field of a contact, floats as their bits.
type ContactBits = (usize, ContactWith, bool, [u32; 10]);

fn contact_bits(c: &Contact) -> ContactBits {
    let floats = [
        c.time,
        c.hit.toi,
        c.hit.center.x,
        c.hit.center.y,
        c.hit.point.x,
        c.hit.point.y,
        c.hit.normal.x,
        c.hit.normal.y,
        c.approach_speed,
        c.kick,
    ];
    (c.ball, c.with, c.sensor, floats.map(f32::to_bits))
}

fn run(pool: &impl Parallel, ball_ball: bool) -> Trace {
    let (grid, mut balls) = pit::build(BALLS, 11);
    let mut moving = [MovingObstacle::new(
        Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(120.0, 0.0))),
        SegmentMotion {
            pivot: Vec2::ZERO,
            angle: PADDLE_TURN,
            pivot_motion: Vec2::ZERO,
        },
    )];
    let settings = MultiballSettings {
        ball_ball,
        gravity: Vec2::new(0.0, -500.0),
        ..Default::default()
    };
    let dt = (1.0 / pit::HZ) as f32;
    let mut scratch = MultiballScratch::default();
    let mut trace = Trace {
        balls: Vec::new(),
        contacts: Vec::new(),
        events: 0,
        most_lone: 0,
        most_event: 0,
    };
    for _ in 0..STEPS {
        let step = MultiballStep {
            balls: &mut balls,
            dt,
            obstacles: &grid,
            moving: &mut moving,
        };
        let report = step_balls_parallel(pool, step, &settings, &mut scratch, |c| {
            trace.contacts.push(contact_bits(c));
        });
        trace.events += u64::from(report.events);
        trace.most_lone = trace.most_lone.max(report.lone_balls);
        trace.most_event = trace.most_event.max(report.event_balls);
        let m = &mut moving[0];
        if let ObstacleShape::Segment(s) = m.obstacle.shape {
            m.obstacle.shape = ObstacleShape::Segment(m.motion.segment_at(s, 1.0));
        }
    }
    trace.balls = balls.iter().map(bits).collect();
    trace
}

fn same_on_any_threads(ball_ball: bool) {
    let one = run(&Threads(1), ball_ball);
    assert!(one.contacts.len() > 1000, "a busy scene: {}", one.contacts.len());
    // Both parallel parts had work for two threads: the lone sweeps, and (with ball–ball)
    // the first prediction of the event machinery's balls.
    let enough = 2 * ccd_core::MIN_ITEMS_PER_THREAD as u32;
    // (The lone sweeps go to the threads in runs cut over every ball.)
    const { assert!(BALLS >= 2 * ccd_core::tolerance::LONE_BALLS_PER_TASK) };
    assert!(one.most_lone >= enough, "lone balls {}", one.most_lone);
    if ball_ball {
        assert!(one.most_event >= enough, "event balls {}", one.most_event);
    }
    assert_eq!(one, run(&Threads(1), ball_ball), "two runs on one thread");
    for threads in [2, 3] {
        assert_eq!(one, run(&Threads(threads), ball_ball), "{threads} threads");
    }
}

#[test]
fn without_ball_ball_threads_change_no_bit() {
    same_on_any_threads(false);
}

#[test]
fn with_ball_ball_threads_change_no_bit() {
    same_on_any_threads(true);
}
