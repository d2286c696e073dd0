//! [`CcdPredict`]: the path a circle will take, found by stepping a copy of the world
//! ahead at the fixed rate, exactly as the plugin will step it if nothing else changes:
//! - everything from where the last step left it (`stepped.rs`: a body drawn with
//!   `TransformInterpolation` is read at its easing's end, not where it is drawn);
//! - the circle with its own radius, material, layers, response, mass, speed limit and
//!   gravity scale;
//! - the static obstacles as the last step had them ([`CcdWorld`]: one spawned or moved
//!   since is seen from the next step on);
//! - every [`Kinematic`](crate::Kinematic) body moving by its motion (a followed body,
//!   [`Kinematic::FollowTransform`](crate::Kinematic::FollowTransform), finishes the move
//!   its `Transform` was given and then stands still: the game moves it, not the plugin);
//! - every [`Hinge`] turning by its angular velocity, spring, motor, damping and stops,
//!   and pushed by the circle as it will be;
//! - each step's moving parts built, placed and finished by the step's own code
//!   (`kinematic.rs`, `hinge.rs`), and the circle stepped by the core's `step_balls`.
//!
//! Other moving circles are not in it (they would move too, and a game predicting one
//! ball's path wants the walls; [`CcdQuery`](crate::CcdQuery) sees them where they are).
//!
//! A game whose rules change a part at a contact (a room that turns faster after each
//! block, a gate that times out) passes a [`CcdPredictHook`]: it is called before each
//! step, at each predicted contact and after each step, and may change the parts'
//! motions ([`CcdPredictedParts`]) from the next step on, as the game's own systems do
//! between two steps.

use crate::circles::{Defaults, checked_ball};
use crate::components::{CcdDisabled, CcdLayers, CcdMaterial, Kinematic};
use crate::events::CircleHit;
use crate::hinge::{PartQuery, place_body, push_part, turned};
use crate::hinge_body::Hinge;
use crate::kinematic::{KinematicParts, Kinematics, move_to};
use crate::query::CirclePartsReadOnly;
use crate::settings::CcdSettings;
use crate::shape::Part;
use crate::step::Lasting;
use crate::stepped::SteppedPoses;
use crate::world::CcdWorld;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use ccd_core::{Ball, Contact, ContactWith, MultiballScratch, MultiballSettings, MultiballStep, step_balls};
use core::ops::ControlFlow;

/// How far a prediction looks: it stops after the step in which it reaches either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CcdPredictHorizon {
    /// Impacts to predict (sensor crossings are listed but not counted).
    pub contacts: usize,
    /// Fixed steps to predict.
    pub steps: u32,
}

/// The circle where a predicted step starts or ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdPredictedBall {
    /// The step, counting from 0 (the coming one).
    pub step: u32,
    /// Seconds from now.
    pub seconds: f32,
    /// The centre and velocity, world frame.
    pub center: Vec2,
    /// The velocity, world units per second.
    pub velocity: Vec2,
}

/// One predicted contact: the [`CircleHit`] the step will write, and when.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdPredictedContact {
    /// The step it is in, counting from 0 (the coming one).
    pub step: u32,
    /// Seconds from now.
    pub seconds: f32,
    /// The hit, as the step will report it (`hit.time` from the start of its step).
    pub hit: CircleHit,
}

/// Why a prediction stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcdPredictStop {
    /// It reached the horizon's contacts.
    Contacts,
    /// It reached the horizon's steps.
    Steps,
    /// The hook said so.
    Hook,
}

/// A predicted path.
#[derive(Clone, Debug, PartialEq)]
pub struct CcdPrediction {
    /// The impacts and sensor crossings, in order (at most the horizon's impacts).
    pub contacts: Vec<CcdPredictedContact>,
    /// The centre's path: the start, each contact's centre, each step's end.
    pub path: Vec<Vec2>,
    /// The circle after the last predicted step.
    pub end: CcdPredictedBall,
    /// Why it stopped.
    pub stop: CcdPredictStop,
    /// Predicted steps in which the core reached a cap (bounces or events), as
    /// [`CcdStats::capped_steps`](crate::CcdStats::capped_steps) counts them.
    pub capped_steps: u32,
}

/// A circle to predict that is not in the world (yet): where it starts, how it moves,
/// and what it is made of, as a [`MovingCircle`](crate::MovingCircle) with those
/// components would be (its mass its area, as without [`CcdMass`](crate::CcdMass)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdPredictStart {
    /// The centre, world frame.
    pub center: Vec2,
    /// The velocity, world units per second.
    pub velocity: Vec2,
    /// The radius.
    pub radius: f32,
    /// Its material (default [`CcdMaterial::default`]).
    pub material: CcdMaterial,
    /// Its layers (default all).
    pub layers: CcdLayers,
    /// Its share of the world's gravity ([`CcdGravityScale`](crate::CcdGravityScale)),
    /// default 1.
    pub gravity_scale: f32,
    /// Its speed limit ([`CcdMaxSpeed`](crate::CcdMaxSpeed)), default none (infinite).
    pub max_speed: f32,
}

impl CcdPredictStart {
    /// A circle of `radius` at `center` moving at `velocity`, of the default material,
    /// on every layer, with the world's gravity and no speed limit.
    #[must_use]
    pub fn new(center: Vec2, velocity: Vec2, radius: f32) -> Self {
        Self {
            center,
            velocity,
            radius,
            material: CcdMaterial::default(),
            layers: CcdLayers::default(),
            gravity_scale: 1.0,
            max_speed: f32::INFINITY,
        }
    }

    /// The same, of `material`.
    #[must_use]
    pub fn with_material(self, material: CcdMaterial) -> Self {
        Self { material, ..self }
    }

    /// The core's ball, or the bad field and why (with the value given).
    fn ball(&self) -> Result<Ball, (&'static str, String)> {
        let refuse = |field: &'static str, accepted: &str, given: String| {
            Err((field, crate::components::quoted(accepted, Some(given))))
        };
        if !self.center.is_finite() {
            return refuse("CcdPredictStart.center", "finite", self.center.to_string());
        }
        if !self.velocity.is_finite() {
            return refuse("CcdPredictStart.velocity", "finite", self.velocity.to_string());
        }
        if !(self.radius.is_finite() && self.radius >= 0.0) {
            return refuse(
                "CcdPredictStart.radius",
                "finite and not negative",
                self.radius.to_string(),
            );
        }
        if let Err(e) = self.material.validate() {
            return Err((
                e.field(),
                crate::components::quoted(e, self.material.given(e.field())),
            ));
        }
        if !self.gravity_scale.is_finite() {
            return refuse(
                "CcdPredictStart.gravity_scale",
                "finite",
                self.gravity_scale.to_string(),
            );
        }
        if !(self.max_speed >= 0.0) {
            return refuse(
                "CcdPredictStart.max_speed",
                "not negative and not NaN",
                self.max_speed.to_string(),
            );
        }
        Ok(Ball {
            material: self.material.into(),
            layers: self.layers.into(),
            gravity_scale: self.gravity_scale,
            max_speed: self.max_speed,
            ..Ball::new(self.center, self.velocity, self.radius)
        })
    }
}

/// Why a circle cannot be predicted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CcdPredictError {
    /// The entity is not a [`MovingCircle`](crate::MovingCircle), or it is held by
    /// [`CcdDisabled`].
    NotACircle(Entity),
    /// The circle is refused by the step: its bad field and why.
    Refused {
        /// The circle.
        entity: Entity,
        /// Its bad field.
        field: &'static str,
        /// What is accepted, and what was given.
        reason: String,
    },
}

impl core::fmt::Display for CcdPredictError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NotACircle(e) => write!(
                f,
                "{e} is not a MovingCircle that the step moves (none, or held by CcdDisabled)"
            ),
            Self::Refused {
                entity,
                field,
                reason,
            } => write!(f, "{entity}: `{field}` is refused: {reason}"),
        }
    }
}

impl core::error::Error for CcdPredictError {}

/// A game's rules in a prediction: called before each step, at each contact and after
/// each step, each may change the moving parts for the steps after. Every method does
/// nothing by default; `()` is the hook of a game whose rules change nothing.
pub trait CcdPredictHook {
    /// Before step `ball.step`, the circle where it starts.
    fn before_step(&mut self, ball: &CcdPredictedBall, parts: &mut CcdPredictedParts) {
        let _ = (ball, parts);
    }

    /// At each predicted contact, after the step it is in (its changes take effect from
    /// the next step, as a game's system after the step does).
    fn on_contact(&mut self, contact: &CcdPredictedContact, parts: &mut CcdPredictedParts) {
        let _ = (contact, parts);
    }

    /// After each step, the circle where it ends: whether to go on.
    fn after_step(&mut self, ball: &CcdPredictedBall, parts: &CcdPredictedParts) -> ControlFlow<()> {
        let _ = (ball, parts);
        ControlFlow::Continue(())
    }
}

impl CcdPredictHook for () {}

/// A kinematic body in a prediction.
#[derive(Clone, Copy, Debug)]
struct PredictedKinematic {
    entity: Entity,
    kinematic: Kinematic,
    transform: Transform,
    on: bool,
}

/// A hinged body in a prediction, and its parts (itself among them when it has a shape).
#[derive(Clone, Debug)]
struct PredictedHinge {
    entity: Entity,
    hinge: Hinge,
    transform: Transform,
    parts: Vec<Entity>,
    on: bool,
}

/// The moving parts of a prediction, as a [`CcdPredictHook`] sees and changes them.
#[derive(Clone, Debug, Default)]
pub struct CcdPredictedParts {
    kinematic: Vec<PredictedKinematic>,
    hinges: Vec<PredictedHinge>,
}

impl CcdPredictedParts {
    fn kinematic_mut(&mut self, entity: Entity) -> Option<&mut PredictedKinematic> {
        self.kinematic.iter_mut().find(|k| k.entity == entity)
    }

    fn hinge_body_mut(&mut self, entity: Entity) -> Option<&mut PredictedHinge> {
        self.hinges.iter_mut().find(|h| h.entity == entity)
    }

    /// The kinematic bodies, in the step's order.
    pub fn kinematic_entities(&self) -> impl Iterator<Item = Entity> + '_ {
        self.kinematic.iter().map(|k| k.entity)
    }

    /// A kinematic body's motion.
    #[must_use]
    pub fn kinematic(&self, entity: Entity) -> Option<Kinematic> {
        self.kinematic
            .iter()
            .find(|k| k.entity == entity)
            .map(|k| k.kinematic)
    }

    /// Give a kinematic body a new motion from the next step on; `false` if `entity` is
    /// not a kinematic body of the prediction.
    pub fn set_kinematic(&mut self, entity: Entity, kinematic: Kinematic) -> bool {
        self.kinematic_mut(entity)
            .map(|k| k.kinematic = kinematic)
            .is_some()
    }

    /// A kinematic or hinged body's `Transform`, where the prediction has it now.
    #[must_use]
    pub fn transform(&self, entity: Entity) -> Option<&Transform> {
        let kinematic = self.kinematic.iter().find(|k| k.entity == entity);
        let hinged = || self.hinges.iter().find(|h| h.entity == entity);
        kinematic
            .map(|k| &k.transform)
            .or_else(|| hinged().map(|h| &h.transform))
    }

    /// A hinge's state, where the prediction has it now.
    #[must_use]
    pub fn hinge(&self, entity: Entity) -> Option<&Hinge> {
        self.hinges.iter().find(|h| h.entity == entity).map(|h| &h.hinge)
    }

    /// A hinge's state to change (its angular velocity, its motor), from the next step on.
    pub fn hinge_mut(&mut self, entity: Entity) -> Option<&mut Hinge> {
        self.hinge_body_mut(entity).map(|h| &mut h.hinge)
    }

    /// Take a kinematic or hinged body's shape away from the next step on, as removing its
    /// shape component does (a gate that times out): it meets nothing, and a kinematic
    /// body keeps moving. `false` if `entity` is neither.
    pub fn switch_off(&mut self, entity: Entity) -> bool {
        if let Some(k) = self.kinematic_mut(entity) {
            k.on = false;
            return true;
        }
        self.hinge_body_mut(entity).map(|h| h.on = false).is_some()
    }
}

/// Predicts a circle's path through the world, as a system parameter.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
///
/// fn aim(predict: CcdPredict, balls: Query<Entity, With<MovingCircle>>) {
///     // The next 5 impacts, looking at most 2 seconds ahead.
///     let horizon = CcdPredictHorizon { contacts: 5, steps: predict.steps_in(2.0) };
///     for ball in &balls {
///         if let Ok(ahead) = predict.predict(ball, horizon, &mut ()) {
///             for c in &ahead.contacts {
///                 println!("in {:.3} s {ball} meets {} at {}", c.seconds, c.hit.other, c.hit.point);
///             }
///         }
///     }
/// }
/// # App::new().add_systems(Update, aim);
/// ```
#[derive(SystemParam)]
pub struct CcdPredict<'w, 's> {
    world: Res<'w, CcdWorld>,
    settings: Res<'w, CcdSettings>,
    time: Res<'w, Time<Fixed>>,
    kinematics: Res<'w, Kinematics>,
    lasting: Res<'w, Lasting>,
    circles: Query<'w, 's, CirclePartsReadOnly, Without<CcdDisabled>>,
    kinematic: Query<'w, 's, KinematicParts<'static>>,
    hinges: Query<'w, 's, (Entity, &'static Hinge, &'static Transform), Without<ChildOf>>,
    hinge_parts: PartQuery<'w, 's>,
    /// Where the last step left an interpolated body.
    stepped: SteppedPoses<'w, 's>,
}

/// What a prediction keeps from step to step.
struct Run {
    ball: [Ball; 1],
    kinematics: Kinematics,
    /// Each hinge body's index in `parts.hinges` and its first part's among the moving
    /// obstacles, this step.
    bodies: Vec<(usize, usize)>,
    built: Vec<Part>,
    scratch: MultiballScratch,
    lasting: Lasting,
    /// The core's contacts of the step, and the hits kept of them.
    contacts: Vec<Contact>,
    hits: Vec<CircleHit>,
}

impl CcdPredict<'_, '_> {
    /// The fixed step, seconds.
    #[must_use]
    pub fn dt(&self) -> f32 {
        self.time.timestep().as_secs_f32()
    }

    /// The fixed steps that cover `seconds` (rounded up).
    #[must_use]
    pub fn steps_in(&self, seconds: f32) -> u32 {
        let steps = (seconds / self.dt()).ceil();
        if steps >= 0.0 { steps as u32 } else { 0 }
    }

    /// The moving parts as they are now, for a prediction to change.
    #[must_use]
    pub fn parts(&self) -> CcdPredictedParts {
        let mut kinematic: Vec<_> = (self.kinematic.iter())
            .map(|(entity, &kinematic, transform, ..)| PredictedKinematic {
                entity,
                kinematic,
                transform: self.stepped.of(entity, transform),
                on: true,
            })
            .collect();
        kinematic.sort_unstable_by_key(|k| k.entity);
        let mut hinges: Vec<_> = (self.hinges.iter())
            .map(|(entity, &hinge, transform)| PredictedHinge {
                entity,
                hinge,
                transform: self.stepped.of(entity, transform),
                parts: Vec::new(),
                on: true,
            })
            .collect();
        hinges.sort_unstable_by_key(|h| h.entity);
        for (part, _, of) in &self.hinge_parts {
            let body = of.map_or(part, |p| p.0);
            if let Ok(k) = hinges.binary_search_by_key(&body, |h| h.entity) {
                hinges[k].parts.push(part);
            }
        }
        for h in &mut hinges {
            h.parts.sort_unstable();
        }
        CcdPredictedParts { kinematic, hinges }
    }

    /// The path of `circle` from where it is now over `horizon`, with `hook` playing the
    /// game's rules (`&mut ()` for none).
    ///
    /// # Errors
    /// [`CcdPredictError`] when `circle` is not a moving circle the step moves, or is
    /// refused by it (its bad field named).
    pub fn predict(
        &self,
        circle: Entity,
        horizon: CcdPredictHorizon,
        hook: &mut impl CcdPredictHook,
    ) -> Result<CcdPrediction, CcdPredictError> {
        self.predict_with(circle, horizon, self.parts(), hook)
    }

    /// [`predict`](Self::predict) from the moving parts `parts` (from [`parts`](Self::parts),
    /// changed as the game will change them before the coming step).
    ///
    /// # Errors
    /// As [`predict`](Self::predict).
    pub fn predict_with(
        &self,
        circle: Entity,
        horizon: CcdPredictHorizon,
        parts: CcdPredictedParts,
        hook: &mut impl CcdPredictHook,
    ) -> Result<CcdPrediction, CcdPredictError> {
        let item = self
            .circles
            .get(circle)
            .map_err(|_| CcdPredictError::NotACircle(circle))?;
        let mut ball =
            checked_ball(&item, &Defaults::new()).map_err(|(field, reason)| CcdPredictError::Refused {
                entity: circle,
                field,
                reason,
            })?;
        ball.center = self.stepped.of(circle, item.transform).translation.truncate();
        Ok(self.run(circle, ball, horizon, parts, hook))
    }

    /// The path of a circle that is not in the world (yet): a shot being aimed, from
    /// `start`, through the moving parts as they are now. Its contacts name
    /// `Entity::PLACEHOLDER` as the circle.
    ///
    /// # Errors
    /// [`CcdPredictError::Refused`] (with `Entity::PLACEHOLDER`) naming the bad field of
    /// `start`.
    pub fn predict_start(
        &self,
        start: &CcdPredictStart,
        horizon: CcdPredictHorizon,
        hook: &mut impl CcdPredictHook,
    ) -> Result<CcdPrediction, CcdPredictError> {
        let ball = start.ball().map_err(|(field, reason)| CcdPredictError::Refused {
            entity: Entity::PLACEHOLDER,
            field,
            reason,
        })?;
        Ok(self.run(Entity::PLACEHOLDER, ball, horizon, self.parts(), hook))
    }

    /// Step `ball` (the circle `circle`) ahead over `horizon` from the moving parts
    /// `parts`, with `hook` playing the game's rules.
    fn run(
        &self,
        circle: Entity,
        ball: Ball,
        horizon: CcdPredictHorizon,
        mut parts: CcdPredictedParts,
        hook: &mut impl CcdPredictHook,
    ) -> CcdPrediction {
        let dt = self.dt();
        let mut run = Run {
            ball: [ball],
            kinematics: self.kinematics.followed(),
            bodies: Vec::new(),
            built: Vec::new(),
            scratch: MultiballScratch::default(),
            lasting: self.lasting.clone(),
            contacts: Vec::new(),
            hits: Vec::new(),
        };
        let at = |step: u32, ball: &Ball| CcdPredictedBall {
            step,
            seconds: step as f32 * dt,
            center: ball.center,
            velocity: ball.velocity,
        };
        let mut out = CcdPrediction {
            contacts: Vec::new(),
            path: vec![ball.center],
            end: at(0, &ball),
            stop: CcdPredictStop::Steps,
            capped_steps: 0,
        };
        let mut impacts = 0;
        for step in 0..horizon.steps {
            hook.before_step(&at(step, &run.ball[0]), &mut parts);
            let capped = self.step(circle, &mut parts, &mut run, dt);
            out.capped_steps += u32::from(capped);
            for hit in run.hits.drain(..) {
                if impacts >= horizon.contacts {
                    break;
                }
                impacts += usize::from(!hit.sensor);
                let contact = CcdPredictedContact {
                    step,
                    seconds: step as f32 * dt + hit.time,
                    hit,
                };
                out.path.push(hit.center);
                out.contacts.push(contact);
                hook.on_contact(&contact, &mut parts);
            }
            out.path.push(run.ball[0].center);
            out.end = at(step + 1, &run.ball[0]);
            if hook.after_step(&out.end, &parts).is_break() {
                out.stop = CcdPredictStop::Hook;
                break;
            }
            if impacts >= horizon.contacts {
                out.stop = CcdPredictStop::Contacts;
                break;
            }
        }
        out
    }

    /// One predicted step: build the moving parts, step the circle, keep its hits (as
    /// [`report_hits`](crate::step) keeps them) in `run.hits`, and move the parts on.
    /// Returns whether the core reached a cap.
    fn step(&self, circle: Entity, parts: &mut CcdPredictedParts, run: &mut Run, dt: f32) -> bool {
        self.build_moving(parts, run, dt);
        let settings = self.core_settings(dt);
        let contacts = &mut run.contacts;
        contacts.clear();
        let step =
            MultiballStep::new(&mut run.ball, dt, self.world.grid()).with_moving(&mut run.kinematics.moving);
        let report = step_balls(step, &settings, &mut run.scratch, |c| contacts.push(*c));
        run.hits.clear();
        for c in &run.contacts {
            let other = match c.with {
                ContactWith::Obstacle(id) => self.world.hit_other(id, c.hit.point, c.hit.normal),
                ContactWith::Moving(k) => {
                    (run.kinematics).hit_other(k, c.hit.point, c.hit.normal, c.time / dt)
                }
                ContactWith::Ball(_) => None,
            };
            if let Some(other) = other {
                run.hits.push(CircleHit::of_contact(c, circle, other));
            }
        }
        run.lasting
            .keep_impacts(&mut run.hits, settings.resting_speed, dt);
        self.finish_moving(parts, run, dt);
        report.capped_balls > 0 || report.event_budget_hit
    }

    /// The step's settings, as the plugin builds them (a gravity that is not finite is
    /// none, as the step has it).
    fn core_settings(&self, dt: f32) -> MultiballSettings {
        let s = &*self.settings;
        MultiballSettings {
            gravity: if s.gravity.is_finite() {
                s.gravity
            } else {
                Vec2::ZERO
            },
            ball_ball: s.ball_ball,
            max_bounces: s.max_bounces,
            max_events: s.max_events,
            resting_speed: s.resting_speed_for(dt),
        }
    }

    /// This step's moving obstacles, from the parts' states, as the step's `Prepare`
    /// builds them (a part the step refuses is left out; the step names it).
    fn build_moving(&self, parts: &mut CcdPredictedParts, run: &mut Run, dt: f32) {
        let k = &mut run.kinematics;
        k.clear();
        run.built.clear();
        for p in &parts.kinematic {
            let Ok((entity, _, _, obstacle, parented, hinge, hinge_part)) = self.kinematic.get(p.entity)
            else {
                continue;
            };
            if !p.on {
                k.add_shapeless(entity, p.kinematic, &p.transform, dt);
                continue;
            }
            let item = (
                entity,
                &p.kinematic,
                &p.transform,
                obstacle,
                parented,
                hinge,
                hinge_part,
            );
            let _refused = k.add(item, dt, &mut run.built);
        }
        run.bodies.clear();
        for (index, h) in parts.hinges.iter_mut().enumerate() {
            if !h.on {
                continue;
            }
            let Ok(placed) = place_body(&mut h.hinge, &h.transform, run.bodies.len() as u32, dt) else {
                continue;
            };
            let first = k.moving.len();
            for &part in &h.parts {
                if let Ok((_, p, _)) = self.hinge_parts.get(part) {
                    let _refused = push_part(part, &p, &placed, &mut run.built, k);
                }
            }
            if k.moving.len() > first {
                run.bodies.push((index, first));
            }
        }
    }

    /// Every part at its pose at the step's end, as the step's `finish` systems put them.
    fn finish_moving(&self, parts: &mut CcdPredictedParts, run: &mut Run, dt: f32) {
        run.kinematics.finish(|entity, end| {
            if let Some(p) = parts.kinematic_mut(entity) {
                move_to(&p.kinematic, &mut p.transform, end);
            }
        });
        for &(index, first) in &run.bodies {
            let (Some(h), Some(m)) = (parts.hinges.get_mut(index), run.kinematics.moving.get(first)) else {
                continue;
            };
            if let Some((angle, spin)) = turned(m, dt) {
                h.hinge.angle = angle;
                h.hinge.angular_velocity = spin;
                h.transform.rotation = Quat::from_rotation_z(angle);
            }
        }
    }
}
