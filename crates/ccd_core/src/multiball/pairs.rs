//! Ball–ball contacts at one instant: the events of one instant gathered into one batch,
//! which starts a contact of one instant (`cluster.rs`), solved as one problem
//! ([`crate::instant`]) with the walls, moving obstacles and hinged parts its balls touch,
//! and so independently of the order of the events: a symmetric break stays symmetric.
//!
//! The model is Poisson's, on the contact's complementarity problem: first the compression
//! impulses that stop every approach, then `(1 + e)` times them, with one `e` for the whole
//! contact (the least of the rows struck). With `e = 1` and no friction this keeps the
//! kinetic energy exactly, and with `e < 1` it can only lose energy; the momentum is always
//! kept. Balls that touch are one contact: a row of touching balls struck at one end moves
//! as one body (against a wall, the striker leaves at `−e·v` and the row stays). Contacts
//! that only appear because of the contact's impulses (a ball pushed into one it was
//! leaving) are the next contact, at the same instant; so with gaps between its balls a
//! Newton's cradle passes the impact on ball by ball, as a real cradle does.
//!
//! Why this model: resolving near-simultaneous contacts one pair at a time in a fixed order
//! keeps energy but breaks symmetry by the order; sharing out pairwise impulses keeps
//! symmetry but loses energy whenever a ball meets two others at once (7.5 % in 5 s at
//! 10,000 balls). The complementarity problem is the one simultaneous model that keeps both.

use super::cluster::{ClusterBuffers, Seed};
use super::queue::BallEvent;
use super::sim::Sim;
use super::state::{Pair, Retry};
use crate::obstacle::Obstacles;
use crate::tolerance::{MAX_INSTANT_BALLS, MAX_INSTANT_ROWS, SIMULTANEOUS_TIME_REL};

/// The buffers of the ball–ball events, kept between events: the events gathered at one
/// instant, the balls whose partner changed course, and the contact they start.
#[derive(Clone, Debug, Default)]
pub(super) struct PairBuffers {
    /// The ball–ball events taken together at one instant.
    batch: Vec<Pair>,
    /// Balls whose partner changed course: predicted again after the batch.
    retry: Vec<Retry>,
    /// The contact of one instant the batch starts (a wall event may start one too).
    pub(super) cluster: ClusterBuffers,
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Ball `i` meets `partner.other` at `partner.time` (if the partner has not changed
    /// course since): resolve it with every other ball–ball event at the same instant.
    pub(super) fn ball_event(&mut self, i: usize, partner: BallEvent, bufs: &mut PairBuffers) {
        let (j, time) = (partner.other as usize, partner.time);
        if self.step.clock[j].version != partner.other_version {
            // The partner changed course: this ball's leg goes on; look again.
            self.advance(i, time);
            self.repredict(i);
            return;
        }
        bufs.batch.clear();
        bufs.retry.clear();
        bufs.batch.push(Pair { a: i, b: j });
        self.gather_simultaneous(time, &mut bufs.batch, &mut bufs.retry);
        self.resolve_instant(time, Seed::Pairs(&bufs.batch), &mut bufs.cluster);
        for &Retry { ball: a, time: t } in &bufs.retry {
            if !bufs.batch.iter().any(|p| p.has(a)) {
                self.advance(a, t);
                self.repredict(a);
            }
        }
    }

    /// Take every other ball–ball event within [`SIMULTANEOUS_TIME_REL`] of the step after
    /// `time` into `batch`, while the batch fits one contact (see [`fits`]); a ball whose
    /// partner has changed course goes to `retry`.
    fn gather_simultaneous(&mut self, time: f32, batch: &mut Vec<Pair>, retry: &mut Vec<Retry>) {
        let window = time + SIMULTANEOUS_TIME_REL * self.dt;
        while let Some(key) = self.step.queue.peek() {
            if key.time > window {
                break;
            }
            let a = key.ball as usize;
            let Some(BallEvent {
                time: at,
                other,
                other_version,
            }) = self.step.due.ball(a)
            else {
                break;
            };
            if !fits(batch, a, other as usize) {
                // The contact is full: this event is the next contact, at the same instant.
                self.report.instant_caps += 1;
                break;
            }
            self.step.queue.pop();
            self.step.due.take(a);
            let b = other as usize;
            if self.step.clock[b].version != other_version {
                retry.push(Retry { ball: a, time: at });
            } else if !batch.iter().any(|p| p.is(a, b)) {
                batch.push(Pair { a, b });
            }
        }
    }
}

/// Whether `batch` with the pair of balls `a` and `b` still fits one contact of one
/// instant: at most [`MAX_INSTANT_BALLS`] balls, and at most half of [`MAX_INSTANT_ROWS`]
/// pairs, which leaves the other half for the surfaces its balls touch.
fn fits(batch: &[Pair], a: usize, b: usize) -> bool {
    let known = |k: usize| batch.iter().any(|p| p.has(k));
    let mut balls = 0;
    for k in 0..batch.len() {
        let p = batch[k];
        balls += usize::from(!batch[..k].iter().any(|q| q.has(p.a)));
        balls += usize::from(!batch[..k].iter().any(|q| q.has(p.b)) && p.b != p.a);
    }
    let new = usize::from(!known(a)) + usize::from(!known(b));
    batch.len() < MAX_INSTANT_ROWS / 2 && balls + new <= MAX_INSTANT_BALLS
}
