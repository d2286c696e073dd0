//! The step when nothing but walls can meet a circle: ball–ball contacts off and no
//! moving obstacle (`ccd_core`'s [`MultiballScratch::steps_all_lone`]). Then the core's
//! lone engine ([`LoneSweeps`]) steps each circle on its own, reading it from the query as
//! it goes ([`CircleReader`], on the pool's threads, one run of the query's order each),
//! with no list of balls gathered first; the ends are then written back in one pass over
//! the query, which also marks the circles refused and clears the marks of those fine
//! again.
//!
//! The results are those of the gathered path, bit for bit, on any number of threads: the
//! engine keeps the query's order for the hits (circle by circle, each circle's in time
//! order), sums the lost time in it, and carries the step on in the core's scratch as its
//! own step would.

use crate::circles::{Defaults, Stepped, checked_ball, write};
use crate::events::CircleHit;
use crate::query::Circles;
use crate::world::CcdWorld;
use bevy::prelude::*;
use ccd_core::{
    Ball, BallReader, ContactWith, LoneSweeps, MultiballScratch, MultiballSettings, Parallel, StepContext,
};

/// The circles of the query as the lone engine reads them: each checked and made a
/// [`Ball`] as it is read, known by its entity; a refused one is no ball of the step.
struct CircleReader<'q, 'w, 's> {
    circles: &'q Circles<'w, 's>,
    defaults: Defaults,
}

impl BallReader for CircleReader<'_, '_, '_> {
    type Id = Entity;

    fn len(&self) -> usize {
        self.circles.iter().len()
    }

    /// A run of the query is read from its start: one run per thread.
    fn seeks(&self) -> bool {
        true
    }

    fn read(&self, first: usize, count: usize, mut visit: impl FnMut(Option<(Entity, Ball)>)) {
        // The circles before the run passed over (no iterator adaptors around the query's:
        // with them each item went through memory, at twice the cost).
        for (n, parts) in self.circles.iter().enumerate() {
            if n < first {
                continue;
            }
            if n >= first + count {
                break;
            }
            visit(
                checked_ball(&parts, &self.defaults)
                    .ok()
                    .map(|b| (parts.entity, b)),
            );
        }
    }
}

/// What the core's step reads: the step, the static world, the core's settings and the
/// pool whose threads take its independent work.
#[derive(Clone, Copy)]
pub(crate) struct CoreInput<'a, P> {
    pub(crate) dt: f32,
    pub(crate) world: &'a CcdWorld,
    pub(crate) settings: &'a MultiballSettings,
    pub(crate) pool: &'a P,
}

/// Step every circle on its own, write the ends back, mark the refused circles and clear
/// the marks of those fine again by command. Returns the report the core's step would,
/// and how many circles were stepped and refused; pushes the hits to `hits`, in the
/// query's order.
pub(crate) fn step_lone<P: Parallel>(
    circles: &mut Circles,
    input: CoreInput<'_, P>,
    sweeps: &mut LoneSweeps<Entity>,
    scratch: &mut MultiballScratch,
    hits: &mut Vec<CircleHit>,
    commands: &mut Commands,
) -> Stepped {
    let reader = CircleReader {
        circles,
        defaults: Defaults::new(),
    };
    let ctx = StepContext::new(input.dt, input.world.grid(), input.settings);
    let report = sweeps.step(input.pool, &reader, &ctx, scratch, |entity, c| {
        // Only walls meet a lone ball.
        if let ContactWith::Obstacle(id) = c.with
            && let Some(other) = input.world.hit_other(id, c.hit.point, c.hit.normal)
        {
            hits.push(CircleHit::of_contact(c, entity, other));
        }
    });
    let mut stepped = 0_u32;
    for (mut parts, (end, ride)) in circles.iter_mut().zip(sweeps.ends().zip(sweeps.rides())) {
        if let Some((center, velocity)) = end {
            write(&mut parts, center, velocity, ride);
            stepped += 1;
            if parts.invalid {
                commands
                    .entity(parts.entity)
                    .try_remove::<crate::components::CcdInvalid>();
            }
        }
    }
    let skipped = if (stepped as usize) < sweeps.ends().len() {
        mark_refused(circles, sweeps, commands)
    } else {
        0
    };
    Stepped {
        report,
        circles: stepped,
        skipped,
    }
}

/// Mark each circle the step refused (it has no end), saying its bad field and why;
/// returns how many.
fn mark_refused(circles: &Circles, sweeps: &LoneSweeps<Entity>, commands: &mut Commands) -> u32 {
    let defaults = Defaults::new();
    let mut skipped = 0;
    for (parts, end) in circles.iter().zip(sweeps.ends()) {
        if end.is_none()
            && let Err((field, reason)) = checked_ball(&parts, &defaults)
        {
            skipped += 1;
            crate::components::mark_invalid(commands, parts.entity, parts.invalid, field, reason);
        }
    }
    skipped
}
