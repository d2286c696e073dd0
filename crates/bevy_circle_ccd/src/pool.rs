//! The step's threads: Bevy's compute task pool as `ccd_core`'s [`Parallel`], or the
//! calling thread alone when there is no pool.

use crate::settings::CcdSettings;
use bevy::tasks::ComputeTaskPool;
use ccd_core::{OneThread, Parallel};

/// The pool the step's threads come from: Bevy's compute pool, or the calling thread alone
/// when there is none.
pub(crate) enum StepPool<'a> {
    Bevy(TaskPool<'a>),
    Calling(OneThread),
}

impl StepPool<'_> {
    /// The pool for `settings`.
    pub(crate) fn new(settings: &CcdSettings) -> Self {
        match ComputeTaskPool::try_get() {
            Some(pool) => {
                // The calling thread takes a chunk too (see `TaskPool`): by Bevy's defaults
                // a two-core machine has one compute thread besides it.
                let threads = if settings.threads == 0 {
                    pool.thread_num() + 1
                } else {
                    settings.threads
                };
                StepPool::Bevy(TaskPool { pool, threads })
            }
            None => StepPool::Calling(OneThread),
        }
    }

    /// Whether the step's other work (the gathered circles' write-back) goes to Bevy's
    /// pool too: more than one thread asked for, and a pool with threads of its own.
    pub(crate) fn parallel(&self) -> bool {
        match self {
            StepPool::Bevy(pool) => pool.threads != 1 && pool.pool.thread_num() > 0,
            StepPool::Calling(_) => false,
        }
    }
}

impl Parallel for StepPool<'_> {
    fn threads(&self) -> usize {
        match self {
            StepPool::Bevy(pool) => pool.threads,
            StepPool::Calling(_) => 1,
        }
    }

    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        match self {
            StepPool::Bevy(pool) => pool.for_each_chunk(items, f),
            StepPool::Calling(one) => one.for_each_chunk(items, f),
        }
    }

    fn for_each_task<T: Send>(&self, tasks: &mut [T], f: &(dyn Fn(&mut T) + Sync)) {
        match self {
            StepPool::Bevy(pool) => pool.for_each_task(tasks, f),
            StepPool::Calling(one) => one.for_each_task(tasks, f),
        }
    }
}

/// Bevy's compute task pool as `ccd_core`'s [`Parallel`]: items split into at most
/// `threads` chunks, the first run on the calling thread and the rest as tasks on the
/// pool's threads.
pub(crate) struct TaskPool<'a> {
    pool: &'a ComputeTaskPool,
    threads: usize,
}

impl Parallel for TaskPool<'_> {
    fn threads(&self) -> usize {
        self.threads
    }

    fn for_each_chunk<T: Send>(&self, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        let threads = self
            .threads
            .min(items.len() / ccd_core::tolerance::MIN_ITEMS_PER_THREAD)
            .max(1);
        self.on_threads(threads, items, f);
    }

    fn for_each_task<T: Send>(&self, tasks: &mut [T], f: &(dyn Fn(&mut T) + Sync)) {
        let threads = self.threads.min(tasks.len()).max(1);
        self.on_threads(threads, tasks, &|chunk| chunk.iter_mut().for_each(f));
    }
}

impl TaskPool<'_> {
    /// `items` in `threads` chunks, one a thread (the first on the calling thread).
    fn on_threads<T: Send>(&self, threads: usize, items: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
        if threads < 2 {
            f(items);
            return;
        }
        let chunk = items.len().div_ceil(threads);
        self.pool.scope(|scope| {
            let mut parts = items.chunks_mut(chunk);
            // The first chunk on the calling thread, which would otherwise only wait.
            if let Some(part) = parts.next() {
                scope.spawn_on_scope(async move { f(part) });
            }
            for part in parts {
                scope.spawn(async move { f(part) });
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::TaskPool;
    use bevy::tasks::{ComputeTaskPool, TaskPoolBuilder};
    use ccd_core::Parallel;
    use ccd_core::tolerance::MIN_ITEMS_PER_THREAD;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    /// Runs `run` with a pool of two threads and a job that, called twice, waits (up to a
    /// deadline far beyond any wake-up) until both calls have started: they meet only if
    /// they run at the same time, on two threads. A pool that runs everything on the
    /// calling thread (Bevy without `multi_threaded`) runs them one after the other: the
    /// first waits out the deadline alone.
    fn meet_on_two_threads(run: impl FnOnce(&TaskPool, &(dyn Fn() + Sync))) {
        let pool = ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(1).build());
        let started = AtomicUsize::new(0);
        let met = AtomicUsize::new(0);
        let job = || {
            started.fetch_add(1, Ordering::SeqCst);
            let deadline = Instant::now() + Duration::from_secs(5);
            while started.load(Ordering::SeqCst) < 2 && Instant::now() < deadline {
                std::thread::yield_now();
            }
            if started.load(Ordering::SeqCst) == 2 {
                met.fetch_add(1, Ordering::SeqCst);
            }
        };
        run(&TaskPool { pool, threads: 2 }, &job);
        assert_eq!(started.load(Ordering::SeqCst), 2, "two calls");
        // The second call always sees both started; the first only if they overlapped.
        assert_eq!(
            met.load(Ordering::SeqCst),
            2,
            "the two calls did not run at the same time"
        );
    }

    #[test]
    fn two_threads_run_two_chunks_at_the_same_time() {
        meet_on_two_threads(|pool, job| {
            let mut items = vec![0_u8; 2 * MIN_ITEMS_PER_THREAD];
            pool.for_each_chunk(&mut items, &|_| job());
        });
    }

    #[test]
    fn two_threads_run_two_tasks_at_the_same_time() {
        // Two tasks, far fewer than the items a chunk needs: each still gets a thread.
        meet_on_two_threads(|pool, job| pool.for_each_task(&mut [0_u8; 2], &|_| job()));
    }
}
