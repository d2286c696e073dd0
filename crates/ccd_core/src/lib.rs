//! # ccd_core
//!
//! Exact continuous collision detection for moving circles in 2D: balls, pucks and
//! bullets against walls (segments), pillars (circles), capsules, chains, polygons and
//! exact arcs. Pure math on
//! [`glam::Vec2`]; no engine, no allocation on the hot path.
//!
//! A ball at any speed never passes through a wall, bounces exactly, several times within
//! one step if it must, and loses no time doing so.
//!
//! ## Where everything is
//! | question | answer |
//! |---|---|
//! | the shared primitive: a ray against a circle | [`ray_circle_toi`] (`ray.rs`) |
//! | when does a moving circle touch a segment? | [`sweep_circle_segment`] (`sweep/circle_segment.rs`) |
//! | … a static circle (pillar)? | [`sweep_circle_circle`] (`sweep/circle_circle.rs`) |
//! | … another moving circle (ball, kinematic pillar)? | [`sweep_circle_moving_circle`] (`sweep/moving_circle.rs`) |
//! | … a [`Capsule`] (rounded segment)? | [`sweep_circle_capsule`], [`sweep_parabola_capsule`] (`sweep/circle_capsule.rs`) |
//! | … one edge of a [`Polyline`] or [`Polygon`] ([`ChainEdge`]: no ghost vertices)? | [`sweep_circle_chain_edge`], [`sweep_parabola_chain_edge`] (`sweep/circle_chain_edge.rs`) |
//! | … an exact [`CircleArc`], from inside or outside? | [`sweep_circle_arc`], [`sweep_parabola_arc`] (`sweep/circle_arc.rs`) |
//! | … a turning, sliding segment (flipper)? | [`sweep_circle_moving_segment`] (`sweep/moving_segment.rs`) |
//! | … a turning, sliding arc? | [`sweep_circle_moving_arc`] (`sweep/moving_arc.rs`, on the search in `sweep/moving_search.rs`) |
//! | … under gravity, on a [`Parabola`] (`parabola.rs`)? | [`sweep_parabola_segment`], [`sweep_parabola_circle`] (`sweep/parabola_segment.rs`, `sweep/parabola_circle.rs`), each a polynomial's first root (`roots.rs`); [`sweep_parabola_moving_segment`] (`sweep/moving_segment.rs`) |
//! | what does a ball do when it meets a surface (bounce, corner, kick, ride, speed limit, cap, rest)? | one decision for every path (`meet.rs`) |
//! | what does a contact do to the velocity? | [`reflect`], [`slide`], [`respond`], [`Material`] (`response.rs`) |
//! | … a contact that lasts on a round part (a post, a bowl, a loop): ride it, leave it where the press vanishes? | exactly, in f64 (`ride/`: the circle in `mod.rs`, the motion and its events in `motion.rs`; the lone sweep's run in `bounce/ride_leg.rs`, its f32 end in `ride/place.rs`; the event machinery's, chord by chord, in `multiball/round.rs`; where a face goes on flat from an arc's end, `ride/joint.rs` and `bounce/joint.rs`); two balls pressed together ride as one (`Track::half_gap` in `ride/motion.rs`, `multiball/round_pair.rs`); a ball that meets another on an arc's inside follows it along chords (`ride/chord.rs`) |
//! | … with several surfaces at once (a corner, a hinge on its stop, a squeeze)? | one contact with restitution (`instant.rs`) |
//! | obstacles with materials, one-sidedness, sensors, layers | [`Obstacle`], [`Obstacles`] (`obstacle.rs`) |
//! | what a contact was with: a wall, a moving obstacle or a ball | [`ContactWith`] (`contact_with.rs`) |
//! | a ball as the event machinery steps it | [`Ball`] (`ball.rs`) |
//! | hinged bodies the ball pushes: spinners, gates, motorised flippers | [`HingeBody`], [`hinge_impulse`], [`HingeDrive`] (`hinge/`) |
//! | move through a whole step, bouncing | [`sweep_bounces`] (`bounce.rs`; one leg's search in `bounce/leg.rs`, sliding under gravity in `bounce/slide.rs`) |
//! | many balls, flippers and ball–ball, event by event | [`step_balls`] (`multiball/`) |
//! | did a ball end up inside a wall, or cross a one-way part backwards? (the audit) | [`penetration`], [`crossed_one_way`] (`penetration.rs`) |
//! | where will the ball go? | [`predict_path`] (`predict.rs`) |
//! | which obstacles are near? | [`Grid`] (`broadphase.rs`; its cell arithmetic in `broadphase/cells.rs`, its growth in `broadphase/growth.rs`) |
//! | every tolerance and cap, with its units and reason | [`tolerance`] |
//! | a shape's outline, for drawing | [`ObstacleShape::outline`] (`outline.rs`) |
//!
//! ## Example
//! ```
//! use ccd_core::{sweep_circle_segment, Circle, Segment, Vec2};
//! let ball = Circle::new(Vec2::new(0.0, 10.0), 1.0);
//! let floor = Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0));
//! // Even a million units in one step stops at the floor: the centre ends at y = 1.
//! let hit = sweep_circle_segment(ball, Vec2::new(0.0, -1e6), floor).unwrap();
//! assert!((hit.center.y - 1.0).abs() < 1e-3);
//! assert_eq!(hit.normal, Vec2::Y);
//! ```
#![warn(missing_docs)]
// Functions of about a screen: at most 80 lines of code (tests aside), six parameters
// (clippy.toml).
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

mod ball;
mod bounce;
mod broadphase;
mod contact_with;
mod hinge;
mod hit;
mod instant;
mod kick;
mod material;
mod meet;
mod multiball;
mod obstacle;
mod outline;
mod parabola;
mod penetration;
mod predict;
mod ray;
mod response;
mod ride;
mod roots;
mod shape;
mod sweep;
pub mod tolerance;

pub use ball::Ball;
pub use bounce::{BounceHit, RideTally, SweepOutcome, SweepSettings, sweep_bounces};
pub use broadphase::{DEFAULT_CELL_SIZE, Grid};
pub use contact_with::ContactWith;
pub use glam::Vec2;
pub use hinge::{
    HingeBody, HingeContact, HingeDrive, HingeImpulse, HingeLimits, HingeMotor, HingeSpring, hinge_impulse,
};
pub use hit::Hit;
pub use kick::Kick;
pub use material::{CombineRule, Material};
pub use multiball::{
    BallReader, Contact, LoneSweeps, MovingObstacle, MultiballReport, MultiballScratch, MultiballSettings,
    MultiballStep, OneThread, Parallel, StepContext, Threads, step_balls, step_balls_parallel,
};
pub use obstacle::{Layers, Obstacle, ObstacleId, ObstacleShape, Obstacles};
pub use outline::OUTLINE_PIECES_PER_TURN;
pub use parabola::{Parabola, PathLeg};
pub use penetration::{Penetration, clearance, crossed_one_way, penetration, penetration_slop};
pub use predict::{PredictSettings, Prediction, predict_path};
pub use ray::ray_circle_toi;
pub use response::{ResponseMode, limit_speed, reflect, respond, slide};
pub use shape::{Aabb, Capsule, ChainEdge, Circle, CircleArc, Polygon, Polyline, Segment, ShapeError};
pub use sweep::{
    CurvedHit, MovingHit, SegmentMotion, moving_arc_tolerance, moving_segment_tolerance, sweep_circle_arc,
    sweep_circle_capsule, sweep_circle_chain_edge, sweep_circle_circle, sweep_circle_moving_arc,
    sweep_circle_moving_circle, sweep_circle_moving_segment, sweep_circle_segment, sweep_parabola_arc,
    sweep_parabola_capsule, sweep_parabola_chain_edge, sweep_parabola_circle, sweep_parabola_moving_arc,
    sweep_parabola_moving_segment, sweep_parabola_segment,
};
pub use tolerance::{
    ALLOWED_OVERLAP_REL, ARC_RIDE_SAG_REL, CHAIN_VERTEX_SLOP_REL, CLEARLY_APART_MARGIN,
    CONTACT_SOLVE_TOLERANCE, CORRECTION_SLIDE_MIN_REL, CROWDED_FRACTION, CROWDED_STAYS_FRACTION,
    DEFAULT_EVENTS_PER_BALL, DEFAULT_MAX_BOUNCES, END_FOOT_SLOP_REL, FULL_TURN_SLACK_REL, HINGE_LIMIT_SLOP,
    HINGE_RESTING_PUSHES, MAX_ARC_ENTRIES, MAX_CELLS_PER_OBSTACLE, MAX_CORRECTION_SLIDES, MAX_GRID_CELLS,
    MAX_HINGE_LIMIT_HITS, MAX_MOVING_SEGMENT_ITERATIONS, MAX_MOVING_SEGMENT_RESTARTS,
    MAX_RIDE_EVENT_HALVINGS, MAX_RIDE_HALF_ANGLE, MAX_RIDE_RUNS, MAX_RIDE_STEP_ANGLE, MAX_RIDE_STEPS,
    MAX_ROOT_ITERATIONS, MAX_SENSOR_HITS_PER_LEG, MAX_SIMULTANEOUS_PASSES, MAX_SIMULTANEOUS_ROUNDS,
    MAX_WEDGE_BOUNCES, MIN_CROWDED_BALLS, MIN_EVENT_BUDGET, MIN_ITEMS_PER_THREAD,
    MOVING_SEGMENT_TOLERANCE_REL, OVERLAP_CORRECTION_FRACTION, OVERLAP_CORRECTION_ITERATIONS,
    PENETRATION_SLOP_REL, RESTING_EVENT_FRACTION, RESTING_ITERATIONS, RESTING_SOLVE_TOLERANCE_REL,
    RIDE_SEARCH_SAG_REL, RIDE_TOLERANCE, ROOT_BRACKET_REL, SIMULTANEOUS_SOLVE_TOLERANCE_REL,
    SIMULTANEOUS_TIME_REL, SLIDE_SEAT_ULPS, SQUEEZE_SPEED_SLACK_REL, TOUCH_SLOP_REL,
};
