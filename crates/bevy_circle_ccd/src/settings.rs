//! [`CcdSettings`] and [`CcdStats`].

use bevy::prelude::*;

/// Global settings of the CCD step.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct CcdSettings {
    /// Acceleration of every [`MovingCircle`](crate::MovingCircle), in world units per
    /// second². Default `Vec2::ZERO`. It acts inside the sweep: a circle in flight follows
    /// its parabola exactly, each contact found on the curve and met with the velocity of
    /// its instant (see `ccd_core::MultiballSettings::gravity`). A non-finite value is
    /// refused with a warning naming this field, and the step runs without gravity until
    /// it is fixed.
    pub gravity: Vec2,
    /// Contacts one circle may resolve in one step; past it the circle waits at its last
    /// contact until the next step (against a moving obstacle it rides along with it).
    /// In a corner the cap is raised by the bounces an elastic ball can take there before
    /// it comes out (`⌈π/α⌉ + 1` for walls at an angle α), up to
    /// [`ccd_core::MAX_WEDGE_BOUNCES`], so a ball never waits in a corner it can leave.
    /// Default 16.
    pub max_bounces: u32,
    /// Approach speed (world units per second) below which a contact stops the normal
    /// motion instead of bouncing, so a ball rolls along a slope without chatter.
    /// Default `None`: automatic, `2·|gravity|·dt`, twice what gravity can add in one step
    /// (zero without gravity, so every contact bounces exactly). `Some(0.0)` under gravity
    /// bounces every contact too: a ball near another or near a moving part then hops
    /// where it rests on a moving part, by up to about `¼·|gravity|·dt²` (see
    /// `docs/design.md`, "Not exact yet").
    pub resting_speed: Option<f32>,
    /// Whether each [`CircleHit`](crate::CircleHit) is also triggered as a
    /// [`CircleHitEvent`](crate::CircleHitEvent) on the obstacle and on the circle, for
    /// observers. Default `true`. Turning it off saves two triggers per contact.
    pub entity_events: bool,
    /// Whether the step runs. Default `true`.
    pub enabled: bool,
    /// Whether [`MovingCircle`](crate::MovingCircle)s collide with each other (their
    /// [`CcdLayers`](crate::CcdLayers) permitting), exactly and in time order
    /// within the step. Default `true`. Turn it off (or give the balls
    /// [`CcdLayers`](crate::CcdLayers) that exclude each other) when balls
    /// should pass through one another. Either way a circle that cannot meet another or a
    /// [`Kinematic`](crate::Kinematic) obstacle within the step is swept on its own, which
    /// is cheaper: the price of the event machinery is paid only where it is used.
    pub ball_ball: bool,
    /// Events one step may process before every circle waits where it is for the rest of
    /// the step (nothing tunnels; time is lost and [`CcdStats::event_budget_hit`] says
    /// so). Default 0: `64` per circle plus `1024`.
    pub max_events: u32,
    /// Threads the step may use for its independent work (each circle swept on its own,
    /// read and checked too when nothing but walls can meet one, and the first prediction
    /// of every circle that can meet another): the calling
    /// thread and tasks on Bevy's `ComputeTaskPool`. The results are the same with any
    /// number, bit for bit. Default 0: the pool's threads plus the calling one (on two
    /// cores Bevy's default pool has one compute thread, so 2). 1 keeps the step on the
    /// schedule's thread. The pool runs tasks on threads only with Bevy's
    /// `multi_threaded` feature (one of Bevy's default features); without it every
    /// chunk runs in turn on the calling thread, with the same results.
    pub threads: usize,
    /// Whether every step is audited: each circle is checked against every solid surface
    /// on its layers (static, kinematic and hinged, at their poses at the step's end) and
    /// every one-way segment it might have crossed, and each fault is counted in
    /// [`CcdFaults`](crate::CcdFaults). Default `false`: the CCD promises there are none,
    /// and the audit costs about one broadphase query per circle. Turn it on in tests,
    /// benches and soak runs.
    pub audit: bool,
}

impl Default for CcdSettings {
    fn default() -> Self {
        Self {
            gravity: Vec2::ZERO,
            max_bounces: ccd_core::DEFAULT_MAX_BOUNCES,
            resting_speed: None,
            entity_events: true,
            enabled: true,
            ball_ball: true,
            max_events: 0,
            threads: 0,
            audit: false,
        }
    }
}

impl CcdSettings {
    /// The resting speed in force for a step of `dt` seconds.
    #[inline]
    #[must_use]
    pub fn resting_speed_for(&self, dt: f32) -> f32 {
        match self.resting_speed {
            Some(speed) if speed.is_finite() => speed.max(0.0),
            _ => {
                let auto = 2.0 * self.gravity.length() * dt;
                if auto.is_finite() { auto } else { 0.0 }
            }
        }
    }
}

/// What the last step did. Read it for a stats panel or a profiler overlay.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct CcdStats {
    /// Steps run since the app started.
    pub steps: u64,
    /// Circles moved in the last step.
    pub circles: u32,
    /// Obstacles in the broadphase.
    pub obstacles: u32,
    /// Solid contacts resolved in the last step, over all circles.
    pub bounces: u32,
    /// The most contacts one circle resolved in the last step.
    pub max_bounces_per_circle: u32,
    /// Circles that reached the bounce cap (`max_bounces`, raised in corners) in the last
    /// step.
    pub capped: u32,
    /// Circle-seconds lost to caps in the last step: a circle at its bounce cap waits at
    /// its last contact for the rest of the step, and when the event budget runs out every
    /// circle does. 0 when no cap was reached.
    pub lost_time: f32,
    /// Steps since the app started in which a cap was reached (bounces or events). Each
    /// time it reaches a power of two the plugin warns, with the lost time: never silent,
    /// never a flood.
    pub capped_steps: u64,
    /// Circle-seconds lost to caps since the app started.
    pub total_lost_time: f64,
    /// Sensor contacts in the last step.
    pub sensor_hits: u32,
    /// Circles skipped in the last step because of a bad value.
    pub skipped: u32,
    /// Wall-clock time of the last step's sweep, in microseconds.
    pub step_micros: f32,
    /// Contacts since the app started, solid and sensor.
    pub total_hits: u64,
    /// Events processed in the last step by the event-driven path (ball–ball or moving
    /// obstacles); 0 when every circle was swept on its own.
    pub events: u32,
    /// Whether the last step ran out of events (see [`CcdSettings::max_events`]).
    pub event_budget_hit: bool,
    /// Kinematic obstacles moved in the last step.
    pub kinematic: u32,
    /// Circles that went through the event machinery in the last step (they could meet
    /// another circle or a kinematic obstacle); the others were swept on their own.
    pub event_circles: u32,
}
