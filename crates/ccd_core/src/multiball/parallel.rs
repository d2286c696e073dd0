//! [`Parallel`]: how [`step_balls_parallel`](crate::step_balls_parallel) spreads its
//! independent work over threads.
//!
//! Two parts of a multiball step are independent per ball: sweeping every ball on its own
//! (its walls only; see `lone.rs`), and the first prediction of every ball that goes
//! through the event machinery. Each item's result depends on that item alone, so any
//! chunking, on any number of threads, gives the same results, bit for bit.

/// Runs independent work on several threads.
pub trait Parallel: Sync {
    /// Calls `f` on chunks that together cover `items`, possibly at once, and returns when
    /// every chunk is done.
    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync));
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
    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        let threads = self.0.min(items.len() / MIN_ITEMS_PER_THREAD).max(1);
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
}
