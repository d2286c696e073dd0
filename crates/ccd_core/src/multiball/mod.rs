//! Event-driven stepping of many balls: walls, moving obstacles (flippers, kinematic
//! pillars, hinged gates) and ball–ball contacts, resolved exactly and in time order
//! within the step.
//!
//! Every ball keeps its own clock and its next event (a wall, a moving obstacle or another
//! ball). The earliest event of the whole step is resolved first; only the balls it
//! touched are predicted again. A uniform grid of swept boxes finds candidate pairs.
//! Nothing is dropped: after an event a ball spends the rest of the step on its new
//! velocity.
//!
//! # Words
//!
//! One word per idea, in every name, doc and comment of this module:
//!
//! | word | means |
//! |---|---|
//! | ball | a moving circle, [`Ball`](crate::Ball) |
//! | wall | a static obstacle, in the caller's [`Obstacles`](crate::Obstacles) store ([`ContactWith::Obstacle`](crate::ContactWith::Obstacle)) |
//! | moving obstacle | a kinematic or hinged shape, [`MovingObstacle`] ([`ContactWith::Moving`](crate::ContactWith::Moving)) |
//! | obstacle | a wall or a moving obstacle: anything a ball meets that is not a ball |
//! | hinged body, part | a body that turns about a pivot when balls push it; each of its shapes is one moving obstacle, a *part* |
//! | step | one call, `dt` seconds; times are seconds since its start, a *fraction* is a time over `dt` |
//! | phase | one stage of a step, over the read-only [`StepContext`], owning its state (`step.rs`) |
//! | meet | what a ball does when it meets a surface: the crate's one decision (`meet.rs`), for lone and event balls alike |
//! | clock, leg | a ball's own time within the step; its leg is its path from its clock to the end of the step |
//! | flight, settled, sliding | under gravity, a ball in flight has a parabola for a leg; a settled one rests on something: on the face of one still wall it is *sliding*, its leg the parabola of gravity's part along the face; otherwise it took the rest of the step's gravity at once and moves straight (`settle.rs`) |
//! | on a round part, chord | a ball pressed onto one wall's round part (a pillar, an end cap, an arc) rides it exactly, as a lone ball does; its leg is the straight *chord* to the next point of that ride, where it is put back on the exact ride (`round.rs`) |
//! | lone ball | a ball swept on its own ([`sweep_bounces`](crate::sweep_bounces)'s sweep), because nothing can meet it but walls ([`LoneSweeps`]) |
//! | store, place, run | where the lone engine reads the balls ([`BallReader`]: a slice, a game engine's query); a place in it (which may hold no ball of the step); a run of consecutive places, one task |
//! | free flight | a lone ball whose step's box meets no obstacle: its step ends where its path takes it, without the sweep's machinery (same result, bit for bit) |
//! | mark | a lone ball whose path can meet a moving obstacle or another ball is marked for the event machinery (`marks.rs`) |
//! | event ball | a ball stepped by the event machinery; a lone ball *joins* when an event ball's leg may reach its path |
//! | contact | a ball touching something at an instant, and the change of velocity there ([`Contact`]) |
//! | event | a ball's next contact, scheduled in the queue |
//! | predict, forecast | find a ball's next event from its clock, changing nothing; what it finds, with the leg it is on, is the ball's *forecast* (`Forecast`, `forecast.rs`). (A [`Prediction`](crate::Prediction) is [`predict_path`](crate::predict_path)'s: a whole path, for aiming.) |
//! | schedule, enqueue | keep a forecast as the ball's event (once the lone balls it reaches have joined); put it in the queue |
//! | repredict | predict and schedule again, after a ball changed course |
//! | pair, batch | two balls; the ball–ball events of one instant, taken together (`pairs.rs`) |
//! | contact of one instant | the balls that meet or touch at one instant, with the walls, moving obstacles and hinged parts they touch: one problem, one solve ([`crate::instant`], gathered in `cluster.rs`) |
//! | rest rule | how a ball comes to rest at a contact under gravity: the lone sweep's or the event machinery's ([`RestRule`](crate::meet::RestRule) in `meet.rs`) |
//! | corner, squeeze | two surfaces touched at once; two surfaces closing in on a ball |
//! | resting contact | one slower than [`MultiballSettings::resting_speed`], solved at the step's start |
//! | cap | a hard limit on a loop (bounces per ball, events per step), counted in the report |
//! | wait | a ball that waits holds still at its last contact for the rest of the step: at the bounce cap, stopped ([`ResponseMode::Stop`](crate::ResponseMode::Stop)), or when the event budget runs out (`Clock::waiting`); one at the cap against a moving obstacle *rides* it instead (`squeeze.rs`; not a round part's ride) |
//!
//! # The life of an event
//!
//! From [`step_balls`] to the message a game receives, phase by phase (`step.rs` lists
//! them), in the order the data passes through the files:
//!
//! 1. **read** (`step.rs`): [`step_balls_parallel`] takes a [`MultiballStep`] (balls,
//!    `dt`, walls, moving obstacles) and the [`MultiballScratch`] (each phase's state, one
//!    field a phase); the hinged bodies' clocks are readied (`hinge_clocks.rs`), the moving
//!    obstacles' swept boxes go into the [`StepContext`] (`context.rs`).
//! 2. **sweep** (`lone_runs.rs`): every ball is swept on its own, in runs of balls on the
//!    threads (`parallel.rs`), each ball by `lone.rs` (most in free flight). When nothing
//!    but walls can meet a ball, that is the step. (A game engine that keeps its balls
//!    itself drives the same engine with a reader of its own: the plugin does.)
//! 3. **mark** (`marks.rs`): a ball whose path's box meets another ball's or a moving
//!    obstacle's becomes an event ball.
//! 4. **events** (`events.rs`): the event balls are sorted along a Morton curve
//!    (`order.rs`); `sim.rs` gives each a clock (`Sim::prepare`) and the pair grid its box
//!    (`ball_grid.rs`).
//!    - Under gravity (`settle.rs`), the resting solve (`resting.rs`, its contacts in
//!      `resting_contacts.rs`) runs on the velocities with the step's gravity added; the
//!      balls it finds resting stay settled, every other flies on its parabola. Overlaps
//!      are pushed apart (`overlap.rs`).
//!    - `first_forecasts.rs`: every event ball's first forecast (`forecast.rs`), in
//!      parallel, each pair of balls swept once (`pair_sweep.rs`; the pairs in bands of
//!      the pair grid's rows, in parallel too).
//!    - `next_event.rs`: a forecast is the earliest of the ball's walls (`solid_on` in
//!      `bounce/leg.rs`, on a curve in flight; a sliding ball passes its face's seams),
//!      moving obstacles (`moving_sweep.rs`, on
//!      `sweep/`) and balls (`pair_sweep.rs`); a ball on a round part adds its chord's
//!      end (`round.rs`), and passes the part it rides. Scheduling it makes the lone balls its leg
//!      may reach join (`Sim::join`, `sim.rs`), then puts it in the queue (`queue.rs`).
//!    - The loop (`events.rs`): a hinge limit due first is taken (`hinges.rs`); else the
//!      earliest event is taken from the queue and resolved:
//!      - a wall or moving obstacle: `obstacle_contact.rs` asks the crate's one decision
//!        for a ball that meets a surface (`meet.rs`, as the lone sweep does), which
//!        answers with a second surface touched at the same instant (a corner or a
//!        squeeze) and hinged bodies (`hinges.rs`) as one contact (`instant.rs`, or
//!        `response.rs` for one surface);
//!        A ball that strikes the surface while it touches another ball is instead one
//!        contact of one instant with those balls (`cluster.rs`);
//!      - a chord's end: the ball is put on its exact ride, and rides on along the next
//!        chord, or flies off where the press vanished or the part ended (`round.rs`);
//!      - another ball: the ball–ball events of that instant as one batch (`pairs.rs`),
//!        which starts a contact of one instant (`cluster.rs`): its balls, the balls an
//!        impact reaches through touching ones, and every wall, moving obstacle and
//!        hinged part they touch, solved as one problem (`instant.rs`).
//!
//!      The contact is kept for the report, and the balls whose course changed are
//!      predicted again.
//!    - At the step's end every event ball moves to the end of its leg (`Sim::advance`,
//!      which reports the sensors it crossed), riders and squeezed balls are placed
//!      (`squeeze.rs`, `free_place.rs`), and the balls go back in the caller's order.
//! 5. **finish** (`lone_runs.rs`): every other ball keeps its own sweep: its end is written
//!    back in its run, and the runs' counts, lost time and contacts are added up in the
//!    caller's order.
//! 6. **report** (`step.rs`, `events.rs`): the event machinery's contacts go to
//!    `on_contact` in time order, each ball's in the order they happened, after the lone
//!    balls'; the counts are in the [`MultiballReport`] (`report.rs`), and what the next
//!    step needs in `Carried` (`state.rs`). In the plugin, `bevy_circle_ccd`'s `step.rs`
//!    turns each [`Contact`] into a `CircleHit` message and a `CircleHitEvent` for
//!    observers.
//!
//! # Where each part lives
//!
//! The files form a tree under `step.rs`: data files (`state.rs` and the files it reads)
//! import no behaviour, and every behaviour file of the event machinery extends `Sim`
//! (`sim.rs`) without importing another behaviour file except the one whose type it takes.
//!
//! | Part | File |
//! |---|---|
//! | The public entry, [`step_balls`] / [`step_balls_parallel`] (and [`LoneSweeps::step`] for a step of lone balls only), the phases in order, and [`MultiballScratch`], which holds each phase's state | `step.rs` |
//! | What every phase reads, and nothing in the step changes ([`StepContext`]) | `context.rs` |
//! | Inputs ([`MovingObstacle`]; the [`Ball`](crate::Ball) is the crate's), settings, the report | `moving.rs`, `settings.rs`, `report.rs` |
//! | The event balls' state, by lifetime, and what one step leaves for the next | `state.rs` |
//! | One ball swept on its own, and its place in the sweeps | `lone.rs` |
//! | The lone engine: runs of balls over the threads, read from any store ([`LoneSweeps`], [`BallReader`]) | `lone_runs.rs` |
//! | Which balls go through the event machinery | `marks.rs` |
//! | The events phase and its loop | `events.rs` |
//! | Spreading the independent work over threads ([`Parallel`]) | `parallel.rs` |
//! | The event queue (per-ball next event, a tournament tree over the balls) | `queue.rs` |
//! | Spatial order: the machinery works on the balls sorted along a Morton curve | `order.rs` |
//! | A forecast, and the step's first forecasts | `forecast.rs`, `first_forecasts.rs` |
//! | Predicting and scheduling each ball's next event | `next_event.rs` |
//! | When two balls, each on its own leg, first touch | `pair_sweep.rs` |
//! | When a ball on its leg first meets a moving obstacle | `moving_sweep.rs` |
//! | The candidate pairs: a grid of swept boxes | `ball_grid.rs`, its cells in `ball_grid/cell.rs` |
//! | The balls' clocks and legs, and joining | `sim.rs` |
//! | A ball meets an obstacle: the crate's decision (`meet.rs`) carried into the ball's clock | `obstacle_contact.rs` |
//! | Hinged bodies: impulse exchange, new motion from the impact on, limits | `hinges.rs`, `hinge_clocks.rs` |
//! | Squeezed balls and riders: ignoring the faster surface, pushed out at the step's end | `squeeze.rs`, the nearest free place in `free_place.rs` |
//! | Ball–ball events of one instant, taken as one batch | `pairs.rs` |
//! | The contact of one instant: who takes part, its rows, what follows | `cluster.rs`, solved by [`crate::instant`]; the rest of the step's gravity around it in `cluster/gravity.rs` |
//! | The resting solve for slow contacts under gravity | `resting.rs`, `resting_contacts.rs` |
//! | Gravity: which balls fly on parabolas, which are settled | `settle.rs` |
//! | A ball riding a still round part, chord by chord | `round.rs` |
//! | Two balls riding one round part together, pressed on each other | `round_pair.rs` |
//! | Overlap correction, by position only | `overlap.rs` |

mod ball_grid;
mod cluster;
mod context;
mod events;
mod first_forecasts;
mod forecast;
mod free_place;
mod hinge_clocks;
mod hinges;

mod lone;
mod lone_runs;
mod marks;
mod moving;
mod moving_sweep;
mod next_event;
mod obstacle_contact;
mod order;
mod overlap;
mod pair_sweep;
mod pairs;
mod parallel;
mod queue;
mod report;
mod resting;
mod resting_contacts;
mod round;
mod round_pair;
mod settings;
mod settle;
mod sim;
mod squeeze;
mod state;
mod step;

pub use context::StepContext;
pub use lone_runs::{BallReader, LoneSweeps};
pub use moving::MovingObstacle;
pub use parallel::{OneThread, Parallel, Threads};
pub use report::{Contact, MultiballReport};
pub use settings::MultiballSettings;

pub use step::{MultiballScratch, MultiballStep, step_balls, step_balls_parallel};

#[cfg(test)]
mod tests;
