//! Wall and pair forecast: each ball's next event, from its clock to the end of the step.
//!
//! A ball's next event is the earliest of: the first static obstacle on its leg (with the
//! sensors it crosses before), the first moving obstacle (swept against the obstacle's
//! motion), and the first other ball (swept against that ball's leg). Only the earliest is
//! scheduled; a partner that changes course first makes it stale (see `step.rs`).

use super::forecast::{Forecast, Leg, Next};
use super::moving_sweep::moving_contact;
use super::pair_sweep::earlier;
use super::queue::{Event, EventKind, Key};
use super::sim::Sim;
use super::state::{Clock, SensorHit};
use crate::bounce::{Counted, JustMet, Solid, foot_leaves_face, is_seam_end, keep_earliest, solid_on};
use crate::contact_with::ContactWith;
use crate::hit::Hit;
use crate::meet::LastContact;
use crate::obstacle::{Obstacle, Obstacles};
use crate::response::slide_stops;
use crate::ride::{ends_on, flat_joint, rides_same};
use crate::shape::Segment;
use crate::tolerance::{MAX_SENSOR_HITS_PER_LEG as SENSORS_PER_LEG, TOUCH_SLOP_REL};
use glam::Vec2;

/// The sensors a leg crosses, the earliest [`SENSORS_PER_LEG`] of them.
struct SensorList {
    hits: [SensorHit; SENSORS_PER_LEG],
    count: usize,
}

/// Where a forecast puts the sensors a leg crosses: kept ([`SensorList`], when the
/// forecast is scheduled), or only counted (`usize`, when predicting: no 384-byte list
/// per forecast).
trait SensorSink {
    fn add(&mut self, entry: SensorHit);
    fn count(&self) -> usize;
}

impl SensorSink for SensorList {
    /// Keeps the earliest [`SENSORS_PER_LEG`], in time order (when full, the latest goes).
    fn add(&mut self, entry: SensorHit) {
        keep_earliest(&mut self.hits, &mut self.count, entry, |e| e.time);
    }
    fn count(&self) -> usize {
        self.count
    }
}

impl SensorSink for usize {
    fn add(&mut self, _: SensorHit) {
        *self = (*self + 1).min(SENSORS_PER_LEG);
    }
    fn count(&self) -> usize {
        *self
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Find ball `i`'s next event from its clock and schedule it (replacing any it had).
    pub(super) fn repredict(&mut self, i: usize) {
        let forecast = self.predict(i);
        self.schedule(i, forecast.as_ref());
    }

    /// Schedule ball `i`'s predicted event, once every ball swept on its own that its leg may
    /// reach has joined the event machinery (predicting it again with them); then predict and
    /// schedule those that joined, the same way.
    pub(super) fn schedule(&mut self, i: usize, forecast: Option<&Forecast>) {
        // Nearly always nothing to join: schedule it as it is, without moving it around.
        if !forecast.is_some_and(Forecast::wants_joins) {
            self.enqueue(i, forecast);
            return;
        }
        // The balls that joined, waiting for their first forecast: a stack (nothing
        // called from here schedules).
        self.event.joining.clear();
        let mut current = Some((i, forecast.copied()));
        loop {
            let (k, mut forecast) = match current.take() {
                Some(first) => first,
                None => match self.event.joining.pop() {
                    Some(j) => (j, self.predict(j)),
                    None => break,
                },
            };
            while let Some(p) = forecast.filter(Forecast::wants_joins) {
                let now = self.step.clock[k].time;
                for &j in &p.next.joins[..usize::from(p.next.join_count)] {
                    if self.join(j as usize, now) {
                        self.event.joining.push(j as usize);
                    }
                }
                forecast = self.predict(k);
            }
            self.enqueue(k, forecast.as_ref());
        }
    }

    /// Ball `i`'s next event and the sensors before it, without changing anything (so many
    /// balls can be predicted at once). `None` for a ball that waits or has no leg left.
    pub(super) fn predict(&self, i: usize) -> Option<Forecast> {
        self.predict_with(i, self.settings.ball_ball)
    }

    /// [`Sim::predict`], looking for other balls only if `balls` (the step's first forecasts
    /// find them pair by pair instead, see `first_forecasts.rs`).
    pub(super) fn predict_with(&self, i: usize, balls: bool) -> Option<Forecast> {
        let Clock {
            waiting,
            time: start,
            sliding,
            on_round,
            ..
        } = self.step.clock[i];
        if waiting {
            return None;
        }
        let ball = self.balls[i];
        let left = self.dt - start;
        let leg = Leg {
            circle: ball.circle(),
            start,
            left,
            motion: ball.velocity * left,
            curve: self.curve_of(i),
        };
        // A ball at rest, with nothing moving but balls, meets nothing of its own; another
        // ball may still meet it. It looks for them all the same: a ball that met it
        // later than its last event left that contact to it (`predict_balls`).
        let still = leg.motion == Vec2::ZERO && leg.curve.is_none() && self.moving.is_empty();
        if !(left > 0.0) || (still && !balls) {
            return None;
        }
        let mut next = Next::NONE;
        let mut sensors = 0_usize;
        // A sliding ball's foot leaving its face, and friction bringing it to rest on it
        // (read only for a sliding ball: the state is larger than the clock).
        if sliding && let Some(on) = self.step.state[i].slide {
            if let Some(curve) = leg.curve
                && let Some(s) = foot_leaves_face(on.face, ball.center, curve)
            {
                next.consider(start + (s * f64::from(left)) as f32, EventKind::SlideEnds);
            }
            if on.friction > 0.0
                && let Some(normal) = on.face.normal_toward(ball.center - on.face.a)
                && let Some(stop) = slide_stops(ball.velocity, normal, on.acceleration)
                && stop < f64::from(left)
            {
                next.consider(start + stop as f32, EventKind::SlideStops);
            }
        }
        // A ball riding a round part reaches its chord's end (read only for such a ball).
        if on_round
            && let Some(on) = self.step.state[i].round
            && on.to_time < self.dt
        {
            next.consider(on.to_time, EventKind::ChordEnds);
        }
        if !still {
            self.predict_walls(i, leg, &mut next, &mut sensors);
            self.predict_moving(i, leg, &mut next, &mut sensors);
        }
        if balls {
            self.predict_balls(i, leg, &mut next);
        }
        Some(Forecast {
            next,
            leg,
            sensors: sensors > 0,
        })
    }

    /// The face ball `i` slides on, if it is sliding (the state is read only then: it is
    /// larger than the clock).
    #[inline]
    fn sliding_face(&self, i: usize) -> Option<Segment> {
        if self.step.clock[i].sliding {
            self.step.state[i].slide.map(|on| on.face)
        } else {
            None
        }
    }

    /// The faster of the two surfaces squeezing ball `i`, if it is squeezed (read only for
    /// such a ball: the state is larger than the clock).
    #[inline]
    fn squeezed_by(&self, i: usize) -> Option<ContactWith> {
        if self.step.clock[i].squeezed {
            self.step.state[i].squeeze.map(|p| p.faster)
        } else {
            None
        }
    }

    /// The first static obstacle on the leg, and the sensors crossed on the way.
    fn predict_walls(&self, i: usize, leg: Leg, next: &mut Next, sensors: &mut impl SensorSink) {
        if let Some(face) = self.sliding_face(i) {
            self.predict_slide_walls(i, leg, face, next, sensors);
        } else if self.step.clock[i].on_round {
            self.predict_round_walls(i, leg, next, sensors);
        } else {
            self.walls_passing(i, leg, next, sensors, |_: &Obstacle, _: &Hit| false);
        }
    }

    /// [`Sim::predict_walls`] for a ball riding a round part: the part is no contact on
    /// its chord (the chord cuts into a post's outside by its sagitta), nor is a face going
    /// on flat from an arc's end, nor another obstacle's end at the same point (the same
    /// round part), as on the lone ride's search (`bounce/ride_leg.rs`).
    #[cold]
    #[inline(never)]
    fn predict_round_walls(&self, i: usize, leg: Leg, next: &mut Next, sensors: &mut impl SensorSink) {
        let Some(on) = self.step.state[i].round else {
            return;
        };
        let (r, chord) = (self.balls[i].radius, self.balls[i].velocity);
        let passed = |o: &Obstacle, hit: &Hit| {
            flat_joint(&on.ridden, f64::from(r), &o.shape).is_some()
                || rides_same(&on.ridden, &o.shape, hit.center, r)
                || ends_on(&on.ridden, f64::from(r), &o.shape, hit.center, chord)
        };
        self.walls_passing(i, leg, next, sensors, passed);
    }

    /// [`Sim::predict_walls`] for a ball sliding on `face`: it passes the seams of its
    /// face ([`is_seam_end`]), as a lone slide does. Out of line and cold, so that every
    /// other leg's search stays about as lean as it was: with the test inlined, the ball
    /// pit's event machinery, which slides over no seam, ran 0.7–1.4% more instructions;
    /// as it is, 0.36%.
    #[cold]
    #[inline(never)]
    fn predict_slide_walls(
        &self,
        i: usize,
        leg: Leg,
        face: Segment,
        next: &mut Next,
        sensors: &mut impl SensorSink,
    ) {
        let at_seam = |o: &Obstacle, hit: &Hit| is_seam_end(o, hit, face);
        self.walls_passing(i, leg, next, sensors, at_seam);
    }

    /// The first static obstacle on the leg but those `passed` says are no contact, and
    /// the sensors crossed on the way.
    #[inline(always)]
    fn walls_passing(
        &self,
        i: usize,
        leg: Leg,
        next: &mut Next,
        sensors: &mut impl SensorSink,
        passed: impl Fn(&Obstacle, &Hit) -> bool,
    ) {
        let ball = self.balls[i];
        // A squeezed ball ignores the faster of the two surfaces squeezing it; a ball riding
        // a round part, the wall it rides.
        let skip = match self.squeezed_by(i) {
            Some(ContactWith::Obstacle(id)) => Some(id),
            _ if self.step.clock[i].on_round => self.step.state[i].round.map(|on| on.obstacle),
            _ => None,
        };
        // The wall this leg starts from, if the ball's centre lies on it, is met again at
        // once from the other side: that contact is dropped (see `met_again_from_behind`).
        let just_met = match self.step.state[i].bounces.last {
            Some(LastContact {
                with: ContactWith::Obstacle(id),
                normal,
                time,
                ..
            }) if time == leg.start => Some(JustMet { id, normal }),
            _ => None,
        };
        let on_sensor = |id, hit: Hit| {
            sensors.add(SensorHit {
                time: leg.start + hit.toi * leg.left,
                with: ContactWith::Obstacle(id),
                hit,
            });
        };
        let counted = Counted {
            layers: ball.layers,
            skip,
            just_met,
        };
        if let Some(Solid {
            id, material, hit, ..
        }) = solid_on(
            leg.circle,
            leg.course(),
            self.obstacles,
            counted,
            passed,
            on_sensor,
        ) {
            next.consider(
                leg.start + hit.toi * leg.left,
                EventKind::Obstacle { id, material, hit },
            );
        }
    }

    /// The first moving obstacle the leg meets, swept against its motion.
    fn predict_moving(&self, i: usize, leg: Leg, next: &mut Next, sensors: &mut impl SensorSink) {
        let ball = self.balls[i];
        let squeezed_by = self.squeezed_by(i);
        let bounds = leg.bounds();
        let from = leg.start / self.dt;
        for (index, m) in self.moving.iter().enumerate() {
            if !ball.layers.interacts(m.obstacle.layers)
                || !self.moving_boxes[index].intersects(&bounds)
                || squeezed_by.is_some_and(|faster| self.moves_with(faster, index))
            {
                continue;
            }
            let (obstacle, rest) = m.rest_of_step(from);
            let found = moving_contact(leg, m, from, obstacle.shape, rest).and_then(|h| {
                obstacle
                    .takes_contact(h.hit.point, h.hit.normal)
                    .then_some((h.hit, h.surface_motion))
            });
            let Some((hit, surface_motion)) = found else {
                continue;
            };
            let time = leg.start + hit.toi * leg.left;
            if obstacle.sensor {
                if hit.toi > 0.0 && sensors.count() < SENSORS_PER_LEG {
                    sensors.add(SensorHit {
                        time,
                        with: ContactWith::Moving(index),
                        hit,
                    });
                }
                continue;
            }
            let surface_velocity = surface_motion / leg.left;
            next.consider(
                time,
                EventKind::Moving {
                    index,
                    hit,
                    surface_velocity,
                },
            );
        }
    }

    /// The first other ball the leg meets, each swept against the other's own leg.
    fn predict_balls(&self, i: usize, leg: Leg, next: &mut Next) {
        let ball = self.balls[i];
        let balls = &*self.balls;
        let clocks = &self.step.clock;
        // Two balls whose swept boxes for the rest of the step are apart cannot touch: the
        // grid lists only the boxes that meet this one. The margin keeps f32 rounding of
        // the boxes from dropping a contact at their very edge.
        let reach = leg.bounds().inflated(self.max_radius * TOUCH_SLOP_REL);
        let (lone, order) = (&self.lone, &self.step.order);
        let in_events = &self.in_events;
        let shared_layers = self.shared_layers;
        let queue = &self.step.queue;
        self.step.grid.query_except(reach, i, |j| {
            if !shared_layers && !ball.layers.interacts(balls[j].layers) {
                return;
            }
            if !clocks[j].valid {
                // Swept on its own so far, and its path may be reached: it must join.
                if !in_events[j] && lone[order.caller(j)].ball.is_some() {
                    next.must_join(j);
                }
                return;
            }
            // A contact after the earliest event found so far (and the window after it)
            // cannot change the forecast: look only that far. Nor can one after the other
            // ball's own next event: the other changes course there, or finds that event
            // gone, and forecasts again either way, finding this ball then if they still meet.
            let until = earlier(next.best_time, queue.time_of(j));
            if let Some(time) = self.pair_contact(i, j, until) {
                next.consider(
                    time,
                    EventKind::Ball {
                        other: j as u32,
                        other_version: clocks[j].version,
                    },
                );
            }
        });
    }

    /// Keep the sensors up to the event, and schedule the event (none: any older one of
    /// the ball's is dropped all the same).
    pub(super) fn enqueue(&mut self, i: usize, forecast: Option<&Forecast>) {
        let Some(&Forecast {
            ref next,
            leg,
            sensors,
        }) = forecast
        else {
            self.step.due.set(i, None);
            self.step.queue.remove(i);
            return;
        };
        let end = next.best.map_or(self.dt, |e| e.time);
        let n = if sensors {
            self.keep_sensors(i, leg, end)
        } else {
            0
        };
        self.step.clock[i].sensors = n as u8;
        self.step.due.set(i, next.best);
        match next.best {
            Some(Event { time, .. }) => self.step.queue.push(Key { time, ball: i as u32 }),
            None => self.step.queue.remove(i),
        }
    }
}

impl<O: Obstacles + ?Sized> Sim<'_, O> {
    /// Gather the sensors ball `i`'s leg crosses up to `end` (an earlier solid contact cuts
    /// the leg) into its list, in time order. Returns how many.
    fn keep_sensors(&mut self, i: usize, leg: Leg, end: f32) -> usize {
        let mut again = Next::NONE;
        let mut found = SensorList {
            hits: [SensorHit::NONE; SENSORS_PER_LEG],
            count: 0,
        };
        self.predict_walls(i, leg, &mut again, &mut found);
        self.predict_moving(i, leg, &mut again, &mut found);
        let mut n = 0;
        let kept = &mut self.step.sensors[i];
        for entry in &found.hits[..found.count] {
            if entry.time <= end {
                kept[n] = *entry;
                n += 1;
            }
        }
        kept[..n].sort_by(|a, b| a.time.total_cmp(&b.time));
        n
    }
}
