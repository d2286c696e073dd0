//! The event queue: each ball's next event, earliest first.
//!
//! Each ball has at most one scheduled event, kept apart in 16 bytes ([`Schedule`]); the
//! queue holds only its time. The queue is a complete binary tree over the balls
//! (a tournament): a leaf per ball holds its event's time, and every inner node the
//! earlier of its two children, so the root is the earliest of all. Scheduling a ball
//! replaces its leaf and replays the matches up its path, stopping where nothing changes:
//! at most `log2(n)` steps, with no stale entries to skip later and nothing to allocate.
//! The balls are in spatial order (see `order.rs`), so the balls an event re-forecasts share
//! most of their paths up the tree.
//!
//! Each node is one `u64`: the time's bits above the ball's index. Times are never
//! negative, and the bits of non-negative `f32`s order as the numbers do, so one integer
//! compare orders two events, and ties go to the lower ball index.

use crate::hit::Hit;
use crate::material::Material;
use crate::obstacle::ObstacleId;
use glam::Vec2;

/// What a ball's next event is.
#[derive(Clone, Copy, Debug)]
pub(super) enum EventKind {
    Obstacle {
        id: ObstacleId,
        material: Material,
        hit: Hit,
    },
    Moving {
        index: usize,
        hit: Hit,
        surface_velocity: Vec2,
    },
    Ball {
        other: u32,
        other_version: u32,
    },
    /// A sliding ball's foot leaves its face: it flies from there (`settle.rs`).
    SlideEnds,
    /// Friction brings a sliding ball to rest on its face: it stays, or slides back
    /// (`settle.rs`).
    SlideStops,
    /// A ball riding a round part reaches its chord's end: it rides on, or flies off
    /// (`round.rs`).
    ChordEnds,
}

/// A ball's next event: when, and with what.
#[derive(Clone, Copy, Debug)]
pub(super) struct Event {
    pub(super) time: f32,
    pub(super) kind: EventKind,
}

/// A ball's scheduled event with another ball: when, which, and the other's version then
/// (the event is stale if the other has changed course since).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BallEvent {
    pub(super) time: f32,
    pub(super) other: u32,
    pub(super) other_version: u32,
}

/// Each ball's scheduled event, 16 bytes a ball ([`Due`]): every event reads its ball's,
/// in no spatial order, so four fit a cache line. A ball event (nearly all of them) is
/// held whole; an obstacle event's contact waits in `obstacles`, read only when it comes.
#[derive(Clone, Debug, Default)]
pub(super) struct Schedule {
    due: Vec<Due>,
    obstacles: Vec<EventKind>,
}

/// One ball's scheduled event (see [`Schedule`]).
#[derive(Clone, Copy, Debug)]
struct Due {
    time: f32,
    other: u32,
    other_version: u32,
    what: Pending,
}

/// What a ball's scheduled event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Nothing,
    Ball,
    /// A wall or moving obstacle: the contact is in `Schedule::obstacles`.
    Obstacle,
}

impl Due {
    const NONE: Self = Self {
        time: 0.0,
        other: 0,
        other_version: 0,
        what: Pending::Nothing,
    };
}

impl Schedule {
    /// `n` balls, none with an event.
    pub(super) fn reset(&mut self, n: usize) {
        self.due.clear();
        self.due.resize(n, Due::NONE);
        if self.obstacles.len() < n {
            // Read only where `Pending::Obstacle` says: grown, never cleared.
            self.obstacles.resize(
                n,
                EventKind::Ball {
                    other: 0,
                    other_version: 0,
                },
            );
        }
    }

    /// Ball `i`'s event (none: any it had is dropped).
    #[inline]
    pub(super) fn set(&mut self, i: usize, event: Option<Event>) {
        let mut due = Due::NONE;
        match event {
            None => {}
            Some(Event {
                time,
                kind: EventKind::Ball { other, other_version },
            }) => {
                due = Due {
                    time,
                    other,
                    other_version,
                    what: Pending::Ball,
                };
            }
            Some(Event { time, kind: obstacle }) => {
                due.time = time;
                due.what = Pending::Obstacle;
                self.obstacles[i] = obstacle;
            }
        }
        self.due[i] = due;
    }

    /// Whether ball `i` has an event.
    #[inline]
    pub(super) fn has(&self, i: usize) -> bool {
        self.due[i].what != Pending::Nothing
    }

    /// Ball `i`'s event, if it is with another ball: its time, the other ball and the
    /// other's version.
    #[inline]
    pub(super) fn ball(&self, i: usize) -> Option<BallEvent> {
        let d = &self.due[i];
        (d.what == Pending::Ball).then_some(BallEvent {
            time: d.time,
            other: d.other,
            other_version: d.other_version,
        })
    }

    /// Take ball `i`'s event out (its tie stays).
    #[inline]
    pub(super) fn take(&mut self, i: usize) -> Option<Event> {
        let d = &mut self.due[i];
        let what = std::mem::replace(&mut d.what, Pending::Nothing);
        match what {
            Pending::Nothing => None,
            Pending::Ball => Some(Event {
                time: d.time,
                kind: EventKind::Ball {
                    other: d.other,
                    other_version: d.other_version,
                },
            }),
            Pending::Obstacle => Some(Event {
                time: d.time,
                kind: self.obstacles[i],
            }),
        }
    }
}

/// A scheduled event: its time and its ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Key {
    pub(super) time: f32,
    pub(super) ball: u32,
}

/// A node of the tree with no event under it: later than every event (the end of time
/// above the largest index, which no ball has), and its time reads as infinite, so
/// [`EventQueue::time_of`] needs no test for it.
const EMPTY: u64 = ((f32::INFINITY.to_bits() as u64) << 32) | u32::MAX as u64;

/// An event's place in the order: the time's bits above the ball's index (see the module
/// docs). A negative time (never scheduled) counts as 0; NaN (never scheduled either)
/// as the end of time, so it still comes out.
#[inline]
fn rank(time: f32, ball: u32) -> u64 {
    let bits = if time > 0.0 {
        time.to_bits()
    } else if time.is_nan() {
        f32::INFINITY.to_bits()
    } else {
        0
    };
    (u64::from(bits) << 32) | u64::from(ball)
}

/// Every ball's next event, earliest at the root (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct EventQueue {
    /// Leaves: a power of two, at least the number of balls.
    leaves: usize,
    /// The tree, root at 1, the leaves from `leaves` on; `EMPTY` where no event.
    nodes: Vec<u64>,
    /// The number of balls.
    balls: usize,
}

impl EventQueue {
    /// Empty, for `balls` balls.
    pub(super) fn reset(&mut self, balls: usize) {
        self.leaves = balls.max(1).next_power_of_two();
        self.nodes.clear();
        self.nodes.resize(2 * self.leaves, EMPTY);
        self.balls = balls;
    }

    /// Schedule `key`, replacing its ball's event if it had one.
    #[inline]
    pub(super) fn push(&mut self, key: Key) {
        if (key.ball as usize) < self.balls {
            self.set(key.ball as usize, rank(key.time, key.ball));
        }
    }

    /// Drop `ball`'s event, if it has one.
    #[inline]
    pub(super) fn remove(&mut self, ball: usize) {
        if ball < self.balls {
            self.set(ball, EMPTY);
        }
    }

    /// Take the earliest event out.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<Key> {
        let key = self.peek()?;
        self.set(key.ball as usize, EMPTY);
        Some(key)
    }

    /// The earliest event.
    #[inline]
    pub(super) fn peek(&self) -> Option<Key> {
        let top = *self.nodes.get(1)?;
        (top != EMPTY).then(|| Key {
            time: f32::from_bits((top >> 32) as u32),
            ball: top as u32,
        })
    }

    /// The time of `ball`'s scheduled event; infinite if it has none.
    #[inline]
    pub(super) fn time_of(&self, ball: usize) -> f32 {
        let rank = self.nodes.get(self.leaves + ball).copied().unwrap_or(EMPTY);
        f32::from_bits((rank >> 32) as u32)
    }

    /// Put `value` at `ball`'s leaf and replay the matches above it, up to the first node
    /// that keeps its winner.
    #[inline]
    fn set(&mut self, ball: usize, value: u64) {
        let mut at = self.leaves + ball;
        self.nodes[at] = value;
        while at > 1 {
            let winner = self.nodes[at].min(self.nodes[at ^ 1]);
            at >>= 1;
            if self.nodes[at] == winner {
                break;
            }
            self.nodes[at] = winner;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The seed of [`pops_in_time_then_ball_order_like_a_sorted_list`]'s operations.
    const QUEUE_OPS_SEED: u64 = 7;

    /// The queue against a sorted list: every pop is the earliest (time, then ball) of
    /// what is scheduled, through pushes that replace, removals and pops mixed.
    #[test]
    fn pops_in_time_then_ball_order_like_a_sorted_list() {
        let balls = 37;
        let mut queue = EventQueue::default();
        queue.reset(balls);
        let mut reference: Vec<Option<f32>> = vec![None; balls];
        let mut rng = StdRng::seed_from_u64(QUEUE_OPS_SEED);
        for _ in 0..5_000 {
            let ball = rng.random_range(0..balls);
            match rng.random_range(0..4) {
                0 | 1 => {
                    // Times on a coarse grid, so ties happen.
                    let time = f32::from(rng.random_range(0..50_u8)) * 0.125;
                    queue.push(Key {
                        time,
                        ball: ball as u32,
                    });
                    reference[ball] = Some(time);
                }
                2 => {
                    queue.remove(ball);
                    reference[ball] = None;
                }
                _ => {
                    let expected = (0..balls)
                        .filter_map(|b| reference[b].map(|t| (t, b)))
                        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                    let got = queue.pop();
                    match expected {
                        None => assert_eq!(got, None),
                        Some((time, b)) => {
                            assert_eq!(got, Some(Key { time, ball: b as u32 }));
                            reference[b] = None;
                        }
                    }
                }
            }
        }
    }

    /// What is set is what is taken, once: a ball event whole, an obstacle event's contact
    /// from its own list; the tie outlives the taking; a reset drops everything.
    #[test]
    fn a_schedule_gives_back_what_was_set_once() {
        let hit = Hit {
            toi: 0.25,
            center: Vec2::new(1.0, 2.0),
            point: Vec2::new(1.0, 3.0),
            normal: Vec2::Y,
        };
        let mut due = Schedule::default();
        due.reset(3);
        due.set(
            0,
            Some(Event {
                time: 0.5,
                kind: EventKind::Ball {
                    other: 2,
                    other_version: 7,
                },
            }),
        );
        let obstacle = EventKind::Moving {
            index: 4,
            hit,
            surface_velocity: Vec2::X,
        };
        due.set(
            1,
            Some(Event {
                time: 0.25,
                kind: obstacle,
            }),
        );
        assert_eq!(
            due.ball(0),
            Some(BallEvent {
                time: 0.5,
                other: 2,
                other_version: 7
            })
        );
        assert_eq!(due.ball(1), None, "an obstacle event is not a ball event");
        assert!(due.has(0) && due.has(1) && !due.has(2));
        assert!(matches!(
            due.take(0),
            Some(Event {
                time: 0.5,
                kind: EventKind::Ball {
                    other: 2,
                    other_version: 7
                }
            })
        ));
        assert!(due.take(0).is_none(), "taken once");
        match due.take(1) {
            Some(Event {
                time: t,
                kind:
                    EventKind::Moving {
                        index,
                        hit: h,
                        surface_velocity,
                    },
            }) => {
                assert_eq!((t, index, h, surface_velocity), (0.25, 4, hit, Vec2::X));
            }
            other => panic!("{other:?}"),
        }
        due.set(2, None);
        assert!(!due.has(2));
        due.reset(3);
        assert!(!due.has(0) && !due.has(1));
    }
}
