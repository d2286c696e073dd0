//! [`Parallel`]: how [`step_balls_parallel`](crate::step_balls_parallel) spreads its
//! independent work over threads.
//!
//! These parts of a multiball step are independent per ball, or per band of the pair
//! grid's rows: sweeping every ball on its own (its walls only; see `lone.rs`), writing the
//! lone balls' ends back (both in `lone_runs.rs`), the first forecast of every ball that
//! goes through the event machinery, and the pairs of those forecasts
//! (`first_forecasts.rs`). Each item's result depends on that item alone, and what must
//! keep an order is put in order after, so any chunking, on any number of threads, gives
//! the same results, bit for bit.

/// Runs independent work on several threads.
pub trait Parallel: Sync {
    /// How many threads it runs work on (the calling thread among them). Default 1.
    fn threads(&self) -> usize {
        1
    }

    /// Calls `f` on chunks that together cover `items`, possibly at once, and returns when
    /// every chunk is done.
    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync));

    /// Calls `f` on every task, possibly on several at once, and returns when every task
    /// is done. Unlike [`Parallel::for_each_chunk`]'s items, each task is already worth a
    /// thread (the caller sized it), so two tasks may go to two threads. The default runs
    /// them one after the other on the calling thread.
    fn for_each_task<T: Send>(&self, tasks: &mut [T], f: &(dyn Fn(&mut T) + Sync)) {
        tasks.iter_mut().for_each(f);
    }
}

/// Everything on the calling thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OneThread;

impl Parallel for OneThread {
    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        f(items);
    }
}

/// This many threads from `std::thread::scope` (the calling thread is one of them).
/// Fewer than two, or too few items to be worth a thread, runs on the calling thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

use crate::tolerance::MIN_ITEMS_PER_THREAD;

impl Parallel for Threads {
    fn threads(&self) -> usize {
        self.0.max(1)
    }

    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        let threads = self.0.min(items.len() / MIN_ITEMS_PER_THREAD).max(1);
        on_threads(threads, items, f);
    }

    fn for_each_task<T: Send>(&self, tasks: &mut [T], f: &(dyn Fn(&mut T) + Sync)) {
        on_threads(self.0.min(tasks.len()).max(1), tasks, &|chunk| {
            chunk.iter_mut().for_each(f)
        });
    }
}

/// `items` in `threads` chunks, one a thread (the first on the calling thread).
fn on_threads<T: Send>(threads: usize, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
    if threads < 2 {
        f(items);
        return;
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut chunks = items.chunks_mut(chunk);
        let first = chunks.next();
        for rest in chunks {
            scope.spawn(move || f(rest));
        }
        if let Some(first) = first {
            f(first);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_visited_once_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let mut items: Vec<(usize, u32)> = (0..1000).map(|i| (i, 0)).collect();
            Threads(threads).for_each_chunk(&mut items, &|chunk: &mut [(usize, u32)]| {
                for item in chunk {
                    item.1 += 1 + item.0 as u32;
                }
            });
            assert!(items.iter().all(|&(i, n)| n == 1 + i as u32), "{threads} threads");
        }
    }

    #[test]
    fn every_task_runs_once_and_two_tasks_take_two_threads() {
        for threads in [1, 2, 3, 8] {
            // Fewer tasks than the items a thread needs: tasks are not items.
            let mut tasks: Vec<(usize, u32, Option<std::thread::ThreadId>)> =
                (0..5).map(|i| (i, 0, None)).collect();
            Threads(threads).for_each_task(&mut tasks, &|t| {
                t.1 += 1 + t.0 as u32;
                t.2 = Some(std::thread::current().id());
            });
            assert!(
                tasks.iter().all(|&(i, n, _)| n == 1 + i as u32),
                "{threads} threads"
            );
            let mut ids: Vec<_> = tasks.iter().filter_map(|t| t.2).collect();
            ids.sort_by_key(|id| format!("{id:?}"));
            ids.dedup();
            assert_eq!(ids.len(), threads.min(5), "{threads} threads");
        }
    }
}
