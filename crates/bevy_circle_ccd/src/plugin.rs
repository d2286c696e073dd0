//! [`CircleCcdPlugin`] and the [`CircleCcdSystems`] sets.

use crate::audit::CcdFaults;
use crate::audit::{AuditStarts, audit_step, note_starts};
use crate::components::{
    CcdDisabled, CcdGravityScale, CcdInvalid, CcdLayers, CcdMass, CcdMaterial, CcdMaxSpeed, CcdRide,
    CcdSensor, CircleResponse, Kicker, Kinematic, MovingCircle, OneSided, Pillar, PredictPath, StaticSegment,
};
use crate::contacts::{CcdContactEnded, CcdContactEvents, CcdContactStarted, ContactPairs, track_contacts};
use crate::events::CircleHit;
use crate::hinge::{Hinges, finish_hinges, prepare_hinges};
use crate::hinge_body::{Hinge, HingePart};
use crate::kinematic::{Kinematics, finish_kinematics, prepare_kinematics};
use crate::remote::CombineRuleReflect;
use crate::settings::{CcdSettings, CcdStats};
use crate::shape::CcdShape;
use crate::step::{Lasting, StepHits, report_hits, step_circles};
use crate::world::CcdWorld;
use crate::world::{LetGo, PendingRemovals, note_let_go, note_removal, sync_world};

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy_transform_interpolation::prelude::TransformInterpolationPlugin;

/// Exact continuous collision detection for [`MovingCircle`]s against obstacles of any
/// shape ([`StaticSegment`], [`Pillar`], [`CcdShape`]), still, [`Kinematic`] or hinged
/// ([`Hinge`]), on the fixed timestep.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_ccd::prelude::*;
/// App::new().add_plugins((MinimalPlugins, CircleCcdPlugin::default()));
/// ```
#[derive(Debug, Clone)]
pub struct CircleCcdPlugin {
    /// The schedule the step runs in. Default [`FixedPostUpdate`]: the step lasts one
    /// fixed timestep, whatever the frame rate, and a game's [`FixedUpdate`] systems
    /// (input, moving a paddle, spawning) run before it with no ordering; a
    /// `FixedPostUpdate` system that reads the step's results (its hits, the balls' new
    /// places) orders itself `.after(CircleCcdSystems::Report)`. A game that keeps its
    /// rules in `FixedUpdate` around the step gives `FixedUpdate` here and orders them
    /// `.before(CircleCcdSystems::Prepare)` or `.after(CircleCcdSystems::Report)`. The
    /// fixed rate is Bevy's `Time::<Fixed>` (64 Hz unless the game sets it).
    pub schedule: InternedScheduleLabel,
    /// Whether to add `bevy_transform_interpolation`'s `TransformInterpolationPlugin`, so
    /// that entities carrying [`TransformInterpolation`](crate::TransformInterpolation)
    /// are drawn smoothly between fixed steps. Interpolation stays opt-in per entity.
    /// Default `true`; set `false` if your app adds that plugin itself.
    pub interpolation: bool,
}

impl Default for CircleCcdPlugin {
    fn default() -> Self {
        Self {
            schedule: FixedPostUpdate.intern(),
            interpolation: true,
        }
    }
}

impl CircleCcdPlugin {
    /// The plugin running in `schedule`.
    #[must_use]
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            ..default()
        }
    }
}

/// The plugin's system sets, in the order they run, for ordering your own systems.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CircleCcdSystems {
    /// Bring the broadphase up to date with added, changed and removed obstacles, each
    /// placed by its `Transform` and its ancestors' as they are now. Run the systems that
    /// spawn, move or re-parent obstacles before this set for the step to see it.
    Prepare,
    /// Move every circle (gravity, then the multi-bounce or event-driven sweep), then put
    /// every kinematic obstacle at its end-of-step pose, then audit the result when
    /// [`CcdSettings::audit`] is on ([`CcdFaults`]).
    Step,
    /// Start, keep and end the contacts ([`CcdContactStarted`], [`CcdContactEnded`]), write
    /// [`CircleHit`] messages and trigger [`CircleHitEvent`](crate::CircleHitEvent)s.
    Report,
}

impl Plugin for CircleCcdPlugin {
    fn build(&self, app: &mut App) {
        register_types(app);
        app.init_resource::<CcdSettings>()
            .init_resource::<CcdStats>()
            .init_resource::<CcdWorld>()
            .init_resource::<StepHits>()
            .init_resource::<Lasting>()
            .init_resource::<PendingRemovals>()
            .init_resource::<LetGo>()
            .init_resource::<Kinematics>()
            .init_resource::<Hinges>()
            .init_resource::<CcdFaults>()
            .init_resource::<AuditStarts>()
            .init_resource::<ContactPairs>()
            .add_observer(note_removal::<Hinge>)
            .add_observer(note_removal::<HingePart>)
            .add_observer(note_removal::<Kinematic>)
            .add_observer(note_removal::<StaticSegment>)
            .add_observer(note_removal::<Pillar>)
            .add_observer(note_removal::<CcdShape>)
            .add_observer(note_removal::<OneSided>)
            .add_observer(note_removal::<CcdSensor>)
            .add_observer(note_removal::<CcdMaterial>)
            .add_observer(note_removal::<Kicker>)
            .add_observer(note_removal::<CcdLayers>)
            .add_observer(note_let_go)
            .add_message::<CircleHit>()
            .add_message::<CcdContactStarted>()
            .add_message::<CcdContactEnded>()
            .configure_sets(
                self.schedule,
                (
                    CircleCcdSystems::Prepare,
                    CircleCcdSystems::Step,
                    CircleCcdSystems::Report,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    (sync_world, prepare_kinematics, prepare_hinges, note_starts)
                        .chain()
                        .in_set(CircleCcdSystems::Prepare),
                    (step_circles, finish_kinematics, finish_hinges, audit_step)
                        .chain()
                        .in_set(CircleCcdSystems::Step),
                    (track_contacts, report_hits)
                        .chain()
                        .in_set(CircleCcdSystems::Report),
                ),
            );
        if self.interpolation && !app.is_plugin_added::<TransformInterpolationPlugin>() {
            app.add_plugins(TransformInterpolationPlugin::default());
        }
    }
}

/// Every component, resource and message of the plugin, for reflection (the inspector,
/// scenes, the remote protocol).
fn register_types(app: &mut App) {
    app.register_type::<(
        MovingCircle,
        StaticSegment,
        Pillar,
        CcdMaterial,
        OneSided,
        CcdSensor,
        CcdShape,
    )>()
    .register_type::<(
        CcdLayers,
        CircleResponse,
        PredictPath,
        CcdInvalid,
        Kinematic,
        CcdMass,
        CcdMaxSpeed,
        Kicker,
        CombineRuleReflect,
        Hinge,
        HingePart,
    )>()
    .register_type::<(CcdSettings, CcdStats, CcdWorld, CircleHit, CcdFaults)>()
    .register_type::<(
        CcdDisabled,
        CcdGravityScale,
        CcdContactEvents,
        CcdContactStarted,
        CcdContactEnded,
        CcdRide,
    )>();
}
