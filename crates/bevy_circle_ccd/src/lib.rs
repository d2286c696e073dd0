//! # bevy_circle_ccd
//!
//! Exact continuous collision detection for fast circles in [Bevy](https://bevy.org):
//! balls, pucks and bullets. A ball at any speed never passes through a wall, bounces
//! exactly (several times within one fixed step if it must), and loses no time doing so.
//! The math lives in [`ccd_core`]; this crate is the plugin.
//!
//! ## Quick start
//! ```
//! use bevy::prelude::*;
//! use bevy_circle_ccd::prelude::*;
//!
//! fn setup(mut commands: Commands) {
//!     // A box of four walls, a post, and a very fast ball.
//!     let corners = [Vec2::new(-100.0, -100.0), Vec2::new(100.0, -100.0), Vec2::new(100.0, 100.0), Vec2::new(-100.0, 100.0)];
//!     for i in 0..4 {
//!         commands.spawn((StaticSegment::new(corners[i], corners[(i + 1) % 4]), Transform::default()));
//!     }
//!     commands.spawn((Pillar::new(10.0), Transform::from_xyz(30.0, 20.0, 0.0)));
//!     commands.spawn((MovingCircle::new(5.0, Vec2::new(20_000.0, 7_000.0)), Transform::from_xyz(0.0, 0.0, 0.0)));
//! }
//!
//! fn check(balls: Query<&Transform, With<MovingCircle>>) {
//!     for ball in &balls {
//!         // At 20,000 units/s in a 200-unit box: dozens of bounces a second, never out.
//!         assert!(ball.translation.x.abs() <= 95.0 + 1e-2 && ball.translation.y.abs() <= 95.0 + 1e-2);
//!     }
//! }
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TransformPlugin, CircleCcdPlugin::default()))
//!     .insert_resource(Time::<Fixed>::from_hz(120.0))
//!     .insert_resource(bevy::time::TimeUpdateStrategy::FixedTimesteps(1))
//!     .add_systems(Startup, setup)
//!     .add_systems(FixedPostUpdate, check.after(CircleCcdSystems::Report));
//! for _ in 0..240 {
//!     app.update();
//! }
//! ```
//!
//! ## Where everything is
//! | what | where |
//! |---|---|
//! | the plugin and its system sets | [`CircleCcdPlugin`], [`CircleCcdSystems`] (`plugin.rs`) |
//! | components: circles, walls, pillars, materials, layers, sensors; marking a bad entity | [`MovingCircle`], [`StaticSegment`], [`Pillar`], …, [`CcdInvalid`] (`components.rs`) |
//! | capsules, exact arcs, chains, polygons and boxes, one body per entity | [`CcdShape`] (`shape.rs`) |
//! | global settings and per-step statistics | [`CcdSettings`], [`CcdStats`] (`settings.rs`) |
//! | the broadphase, kept in sync incrementally | [`CcdWorld`] (`world.rs`) |
//! | the fixed step and its report | `step.rs` |
//! | the circles in and out of the step: gathered and checked, written back | `circles.rs` |
//! | the step when nothing but walls can meet a circle: the core's lone engine reading each circle as it steps it | `lone.rs` |
//! | the step's threads: Bevy's compute pool as the core's `Parallel` | `pool.rs` |
//! | the audit: did any circle end inside a surface? | [`CcdFaults`] (`audit.rs`) |
//! | what is read of a circle or an obstacle, and the one obstacle builder | `query.rs` |
//! | kinematic obstacles (flippers) | [`Kinematic`] (`kinematic.rs`) |
//! | hinged bodies the balls push (spinners, gates, motorised flippers) | [`Hinge`], [`HingePart`], [`HingeStops`] (`hinge_body.rs`); driven each step by `hinge.rs` |
//! | reflection of the core's types the components hold | `remote.rs` |
//! | contact messages and observer events | [`CircleHit`], [`CircleHitEvent`] (`events.rs`) |
//! | contacts that start and end, opt-in per entity | [`CcdContactEvents`], [`CcdContactStarted`], [`CcdContactEnded`] (`contacts.rs`) |
//! | questions of the world: casts, points, overlaps | [`CcdQuery`] (`spatial.rs`) |
//! | a circle's path ahead, through moving parts and the game's rules | [`CcdPredict`] (`predict.rs`) |
//! | holding a circle out of the step, its own gravity | [`CcdDisabled`], [`CcdGravityScale`] (`components.rs`) |
//! | debug gizmos (feature `debug-draw`) | `CcdDebugPlugin` (`debug.rs`), each shape by its [`ccd_core::ObstacleShape::outline`] |
//!
//! ## Switching a wall on and off
//! **Insert or remove its shape** ([`StaticSegment`], [`Pillar`] or [`CcdShape`]) in a
//! system that runs before [`CircleCcdSystems::Prepare`]: the step sees the change at
//! once, in that very step. On a [`Kinematic`] body the motion goes on without the shape,
//! so a turning gate comes back exactly where its body has turned to. (A [`CcdSensor`]
//! still reports, [`CcdLayers`] filter per pair, and despawning loses the body's motion:
//! they are for other needs.)
//!
//! A wall switched on over a circle: a circle that moves into it is met at once (`time`
//! 0) and bounced back, however deep it overlaps, from the side its centre is on; a
//! [`OneSided`] wall meets only a circle whose centre is on its front (or exactly on its
//! line), and lets one whose centre has crossed go on. The Block it example
//! (`examples/block_it`) switches its gates this way and tests that rule at every phase
//! of a crossing.
//!
//! ## Interpolation
//! The step moves circles on the fixed timestep. For smooth drawing at any frame rate,
//! add [`TransformInterpolation`] to the entities you want smoothed; the plugin adds
//! `bevy_transform_interpolation`'s plugin (opt out with
//! [`CircleCcdPlugin::interpolation`]). That crate is used rather than a home-made easing
//! because it already handles teleports, fixed-loop timing and per-entity opt-in, and
//! Avian uses the same one, so mixed projects ease one way. It is re-exported here but not
//! in the [`prelude`]: bevy_rapier's prelude has a `TransformInterpolation` of its own,
//! and a name in both preludes could not be used in a project with both.
//!
//! ## Thousands of circles
//! A circle whose step meets nothing costs one broadphase query: the core sweeps it on its
//! own ("free flight", `ccd_core`'s `multiball/lone.rs`), with or without gravity, and the
//! sweep's machinery runs only for the circles near something. Beyond the step, three
//! things decide what a frame of many moving circles costs:
//! - [`CcdSettings::threads`] spreads the circles' own sweeps over Bevy's compute pool
//!   (the results are the same on any number of threads, bit for bit). When nothing but
//!   walls can meet a circle ([`CcdSettings::ball_ball`] off, no [`Kinematic`] or
//!   [`Hinge`]) each thread reads, checks and steps its own run of the circles in one pass
//!   (`lone.rs`); otherwise the circles are first gathered on one thread (the step's
//!   order is the query's) and stepped together by the core.
//! - [`CcdSettings::audit`] checks every circle after every step, about one broadphase
//!   query more per circle: for tests and soak runs, off in a shipped game (its default).
//! - Bevy's `StaticTransformOptimizations` marks, every frame, which transform trees
//!   changed, so that propagation can skip the still ones. When most entities move every
//!   step there is nothing to skip and the marking is pure cost: such a scene should
//!   insert `StaticTransformOptimizations::Disabled`. (The plugin leaves that choice to
//!   the app: it is Bevy's, for the whole world.)
//!
//! In the 2,000-ball pit (`benches/ball_pit.rs`) the audit and the marking each cost about
//! a fifth of the frame; `docs/performance-log.md` gives the figures.
//!
//! ## Names beside Avian and Rapier
//! The prelude shares no name with Avian's or bevy_rapier's, so a project can glob-import
//! all three: the crate's own sensors and layers are [`CcdSensor`] and [`CcdLayers`]. The
//! combine rule and the hinge's spring and motor are the core's types
//! ([`CombineRule`], [`HingeSpring`], [`HingeMotor`]), re-exported, with their reflection
//! in `remote.rs`.
#![warn(missing_docs)]
// Functions of about a screen: at most 80 lines of code (tests aside), six parameters
// (clippy.toml).
#![cfg_attr(not(test), warn(clippy::too_many_lines))]

mod audit;
mod circles;
mod components;
mod contacts;
#[cfg(feature = "debug-draw")]
mod debug;
mod events;
mod hinge;
mod hinge_body;
mod kinematic;
mod lone;
mod plugin;
mod pool;
mod predict;
mod query;
mod remote;
mod settings;
mod shape;
mod spatial;
mod step;
mod stepped;
mod world;

pub use audit::{CcdFault, CcdFaults, FaultKind, MAX_FAULT_WARNINGS};
pub use bevy_transform_interpolation::prelude::TransformInterpolation;
pub use ccd_core;
pub use ccd_core::{CombineRule, HingeMotor, HingeSpring};
pub use components::{
    CcdDisabled, CcdGravityScale, CcdInvalid, CcdLayers, CcdMass, CcdMaterial, CcdMaxSpeed, CcdRide,
    CcdSensor, CircleResponse, Kicker, Kinematic, MovingCircle, OneSided, Pillar, PredictPath, StaticSegment,
};
pub use contacts::{
    CcdContactEnded, CcdContactEndedEvent, CcdContactEvents, CcdContactStarted, CcdContactStartedEvent,
    touch_slop,
};
#[cfg(feature = "debug-draw")]
pub use debug::{CcdDebugPlugin, CcdGizmos, ContactMark, LastStepPaths, SweptPath, leg_between};
pub use events::{CircleHit, CircleHitEvent, HitFeature};
pub use hinge_body::{Hinge, HingePart, HingeStops, MAX_SPRING_OMEGA_DT};
pub use plugin::{CircleCcdPlugin, CircleCcdSystems};
pub use predict::{
    CcdPredict, CcdPredictError, CcdPredictHook, CcdPredictHorizon, CcdPredictStart, CcdPredictStop,
    CcdPredictedBall, CcdPredictedContact, CcdPredictedParts, CcdPrediction,
};
pub use settings::{CcdSettings, CcdStats};
pub use shape::CcdShape;
pub use spatial::{CcdCastHit, CcdQuery, CcdQueryFilter};
pub use world::{CcdWorld, ObstaclePart};

/// Everything a game usually needs.
pub mod prelude {
    pub use crate::{
        CcdCastHit, CcdContactEnded, CcdContactEndedEvent, CcdContactEvents, CcdContactStarted,
        CcdContactStartedEvent, CcdDisabled, CcdFaults, CcdGravityScale, CcdInvalid, CcdLayers, CcdMass,
        CcdMaterial, CcdMaxSpeed, CcdPredict, CcdPredictHook, CcdPredictHorizon, CcdPredictStart,
        CcdPredictedContact, CcdPredictedParts, CcdQuery, CcdQueryFilter, CcdRide, CcdSensor, CcdSettings,
        CcdShape, CcdStats, CcdWorld, CircleCcdPlugin, CircleCcdSystems, CircleHit, CircleHitEvent,
        CircleResponse, CombineRule, Hinge, HingeMotor, HingePart, HingeSpring, HingeStops, HitFeature,
        Kicker, Kinematic, MovingCircle, OneSided, Pillar, PredictPath, StaticSegment,
    };
    #[cfg(feature = "debug-draw")]
    pub use crate::{CcdDebugPlugin, CcdGizmos};
}
