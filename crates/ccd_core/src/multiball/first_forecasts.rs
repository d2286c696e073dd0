//! The step's first forecasts: every ball's walls (in parallel), then every pair of balls
//! whose boxes meet, found once from the pair grid itself (its rows in bands, in
//! parallel), then each ball's forecast completed and scheduled in order. (When most
//! balls are swept on their own, the first forecasts are made one grid query per ball,
//! a batch at a time, instead.)
//!
//! Forecast one ball at a time, every pair would be tested twice (once from each ball's
//! query), and each ball would walk the grid cells around it on its own; in a crowded
//! step a third of all forecasts are these first ones. Pair by pair, the cells are walked
//! once and each pair is swept once. The result is the forecast each ball would make alone
//! (see `next_event.rs`): the earliest of its walls and of the balls it meets before that
//! other ball's own scheduled event, scheduled in the same order.

use super::forecast::{FirstForecast, Forecast};
use super::parallel::Parallel;
use super::sim::Sim;
use super::state::{BallContact, BandJoin, PairBand, PairContact};
use crate::obstacle::Obstacles;
use crate::tolerance::CROWDED_FRACTION;

/// Balls predicted together, one query each, before their forecasts are scheduled (when few
/// balls are in the machinery): 2,048 forecasts (about 300 KB) stay in the second-level cache
/// between the two, and are still enough to share among threads (each share starts a
/// thread). Each batch sees the events the earlier ones scheduled.
const PREDICT_BATCH: usize = 2048;

/// Bands of grid rows the pair pass is cut into, each a task: enough that two to eight
/// threads share them evenly (a thread takes a block of bands in a row, and the pit's
/// middle rows hold more pairs than its edges), few enough that each holds hundreds of
/// pairs.
const PAIR_BANDS: usize = 16;

/// The buffers of the step's first forecasts, kept between steps.
#[derive(Clone, Debug, Default)]
pub(super) struct FirstBuffers {
    /// The first forecasts, made in parallel.
    forecasts: Vec<FirstForecast>,
    /// The first forecasts' ball contacts: each pair once, as found.
    pair_contacts: Vec<PairContact>,
    /// The pair pass's bands of grid rows, each a task.
    pair_bands: Vec<PairBand>,
    /// Each first forecast's earliest event time before the pairs.
    first_limits: Vec<f32>,
    /// The pair contacts by ball: ball `k`'s are `contact_list[contact_starts[k]..contact_starts[k + 1]]`.
    contact_starts: Vec<u32>,
    contact_list: Vec<BallContact>,
}

impl<O: Obstacles + Sync + ?Sized> Sim<'_, O> {
    /// Predict and schedule every ball's first event: pair by pair when most balls are in
    /// the machinery (walking every cell of the grid, the balls swept on their own in it
    /// too, is worth it only then), else one grid query per ball.
    pub(super) fn predict_first<P: Parallel>(&mut self, pool: &P, first: &mut FirstBuffers) {
        let n = self.balls.len();
        let event_balls = self.step.clock.iter().filter(|c| c.valid).count();
        if self.settings.ball_ball && event_balls as f32 >= CROWDED_FRACTION * n as f32 {
            self.predict_by_pairs(pool, first);
        } else {
            self.predict_each(pool, &mut first.forecasts);
        }
    }

    /// [`PREDICT_BATCH`] balls at a time: each batch predicted in parallel (walls and balls),
    /// then scheduled in order. The batches do not depend on the threads, so neither do
    /// the results.
    fn predict_each<P: Parallel>(&mut self, pool: &P, forecasts: &mut Vec<FirstForecast>) {
        for start in (0..self.balls.len()).step_by(PREDICT_BATCH) {
            self.fill_forecasts(forecasts, start..(start + PREDICT_BATCH).min(self.balls.len()));
            let sim = &*self;
            pool.for_each_chunk(forecasts, &|chunk: &mut [FirstForecast]| {
                for p in chunk.iter_mut().filter(|p| p.valid) {
                    p.forecast = sim.predict(p.ball);
                }
            });
            for p in forecasts.iter().filter(|p| p.valid) {
                self.schedule(p.ball, p.forecast.as_ref());
            }
        }
    }

    /// One entry per ball of `range`, nothing predicted yet.
    fn fill_forecasts(&self, forecasts: &mut Vec<FirstForecast>, range: std::ops::Range<usize>) {
        forecasts.clear();
        forecasts.extend(range.map(|ball| FirstForecast {
            ball,
            valid: self.step.clock[ball].valid,
            forecast: None,
        }));
    }

    /// Every ball's walls (in parallel), every pair of balls once, then each forecast
    /// completed with its ball contacts and scheduled in order.
    fn predict_by_pairs<P: Parallel>(&mut self, pool: &P, first: &mut FirstBuffers) {
        self.fill_forecasts(&mut first.forecasts, 0..self.balls.len());
        let sim = &*self;
        pool.for_each_chunk(&mut first.forecasts, &|chunk: &mut [FirstForecast]| {
            for p in chunk.iter_mut().filter(|p| p.valid) {
                p.forecast = sim.predict_with(p.ball, false);
            }
        });
        self.find_pair_contacts(pool, first);
        // The balls with a pair contact ahead: how crowded the step is.
        self.report.crowding_balls = first.contact_starts.windows(2).filter(|w| w[1] > w[0]).count() as u32;
        let FirstBuffers {
            forecasts,
            contact_starts: starts,
            contact_list: contacts,
            ..
        } = first;
        let window = self.pair_window();
        for FirstForecast {
            ball: k,
            valid,
            forecast,
        } in forecasts.iter_mut()
        {
            let k = *k;
            if !*valid {
                continue;
            }
            if let Some(p) = forecast.as_mut() {
                // The contacts a query from this ball would take (see `predict_balls`):
                // those before its earliest event and before the other ball's own.
                for &BallContact { other, time } in &contacts[starts[k] as usize..starts[k + 1] as usize] {
                    let j = other as usize;
                    let until = p.best_time().min(self.step.queue.time_of(j));
                    if time <= until + window {
                        p.consider_ball(time, j, self.step.clock[j].version);
                    }
                }
            }
            self.schedule(k, forecast.as_ref());
        }
    }

    /// Sweep every pair of balls whose boxes meet, once (the grid's rows in bands, in
    /// parallel), and list each contact under both balls (`contact_list`, ball `k`'s from
    /// `contact_starts[k]` to `contact_starts[k + 1]`, in the order found). A ball swept
    /// on its own whose box a predicted ball's meets must join before that forecast
    /// holds, as its query would find.
    fn find_pair_contacts<P: Parallel>(&self, pool: &P, first: &mut FirstBuffers) {
        let FirstBuffers {
            forecasts,
            pair_contacts: found,
            pair_bands: bands,
            first_limits: limits,
            contact_starts: starts,
            contact_list: list,
        } = first;
        found.clear();
        // A pair matters to a ball only before its earliest event so far (its walls): those
        // times apart, 4 bytes a ball (the pairs come in no order the forecasts' 150 bytes a
        // ball would keep in cache).
        limits.clear();
        limits.extend(
            forecasts
                .iter()
                .map(|p| p.forecast.as_ref().map_or(f32::NEG_INFINITY, Forecast::best_time)),
        );
        // The grid's rows in bands, each a task; their findings joined in band order are
        // the whole grid's, in its order.
        let rows = self.step.grid.rows();
        let count = rows.clamp(1, PAIR_BANDS);
        bands.resize_with(count.max(bands.len()), PairBand::default);
        for (b, band) in bands.iter_mut().take(count).enumerate() {
            band.rows = rows * b / count..rows * (b + 1) / count;
        }
        let first_limits = &limits[..];
        pool.for_each_task(&mut bands[..count], &|band: &mut PairBand| {
            self.pairs_in_band(band, first_limits);
        });
        for band in &bands[..count] {
            found.extend_from_slice(&band.found);
            for join in &band.joins {
                if let Some(p) = forecasts[join.predicted as usize].forecast.as_mut() {
                    p.must_join(join.lone as usize);
                }
            }
        }
        // By ball: count, then each ball's first place, then fill (each start moves to the
        // next ball's as its contacts go in), then move the starts back.
        let n = forecasts.len();
        starts.clear();
        starts.resize(n + 1, 0);
        for &PairContact { a, b, .. } in found.iter() {
            starts[a as usize + 1] += 1;
            starts[b as usize + 1] += 1;
        }
        for k in 1..=n {
            starts[k] += starts[k - 1];
        }
        list.clear();
        list.resize(found.len() * 2, BallContact { other: 0, time: 0.0 });
        for &PairContact { a, b, time } in found.iter() {
            for (me, other) in [(a, b), (b, a)] {
                let at = &mut starts[me as usize];
                list[*at as usize] = BallContact { other, time };
                *at += 1;
            }
        }
        starts.copy_within(0..n, 1);
        starts[0] = 0;
    }

    /// The pairs of `band`'s rows: each pair of predicted balls swept (up to the later of
    /// their `limits`), and each lone ball a predicted ball's box meets noted to join.
    fn pairs_in_band(&self, band: &mut PairBand, limits: &[f32]) {
        band.found.clear();
        band.joins.clear();
        let (balls, clocks) = (&*self.balls, &self.step.clock);
        let (lone, order, in_events) = (&self.lone, &self.step.order, &self.in_events);
        self.step.grid.for_each_pair_in_rows(band.rows.clone(), |a, b| {
            if !self.shared_layers && !balls[a].layers.interacts(balls[b].layers) {
                return;
            }
            match (clocks[a].valid, clocks[b].valid) {
                (true, true) => {
                    let until = limits[a].max(limits[b]);
                    if let Some(time) = self.pair_contact(a, b, until) {
                        band.found.push(PairContact {
                            a: a as u32,
                            b: b as u32,
                            time,
                        });
                    }
                }
                (true, false) | (false, true) => {
                    let (predicted, other) = if clocks[a].valid { (a, b) } else { (b, a) };
                    if !in_events[other] && lone[order.caller(other)].ball.is_some() {
                        band.joins.push(BandJoin {
                            predicted: predicted as u32,
                            lone: other as u32,
                        });
                    }
                }
                (false, false) => {}
            }
        });
    }
}
