//! The threads of one [`AlphaBetaScore`](super::AlphaBetaScore) solve: the first alone for a
//! prelude, then the helpers beside it, and the memory each thread keeps from solve to solve.

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::alphabeta::{BUSY_BITS, Shared, Worker};
use super::node::Scratch;
use super::{Limits, Scored, Stats};
use crate::search::busy::Busy;

/// Runs `f` on `worker` after giving it a [`Scratch`] kept in `kept` (or a new one), and keeps
/// the worker's scratch there afterwards (in the same box: nothing is allocated once every
/// thread has one).
pub(super) fn worker_run<G: Scored, R>(
    kept: &Mutex<Vec<Box<dyn std::any::Any + Send>>>,
    worker: Worker<'_, G>,
    f: impl FnOnce(&mut Worker<'_, G>) -> R,
) -> R {
    let reused = kept.lock().expect("no thread panicked").pop();
    let mut slot =
        reused.filter(|b| b.is::<Scratch<G>>()).unwrap_or_else(|| Box::new(Scratch::<G>::new()));
    let scratch = slot.downcast_mut::<Scratch<G>>().expect("a scratch of this game");
    let mut worker = worker.with_scratch(std::mem::replace(scratch, Scratch::empty()));
    let result = f(&mut worker);
    *slot.downcast_mut::<Scratch<G>>().expect("a scratch of this game") = worker.into_scratch();
    kept.lock().expect("no thread panicked").push(slot);
    result
}

/// Runs the threads of a solve on `threads > 1` threads whose state is `shared`; `run(id,
/// limits)` runs thread `id` under `limits`. The first thread searches alone for `join` nodes
/// (a small tree is solved before a helper could even wake up: waking the pool cost about
/// 0.15 ms a solve on Connect Four's easiest positions, 15 times their one-thread time), and
/// marks no busy children meanwhile ([`Shared::busy`] is made after it). The interval, the
/// table and the node count carry over; the test the prelude stopped in is run again. Then it
/// goes on on the caller's thread at once while the helpers wake up in `pool` (a blocking
/// broadcast to the pool cost the wake-up of every thread before any searched). The pool of
/// `threads - 1` helpers is the solver's (made before its first solve is timed; made here if
/// it is missing). Returns every run's statistics.
pub(super) fn run_threads(
    pool: &mut Option<rayon::ThreadPool>,
    threads: usize,
    join: u64,
    shared: &Shared,
    limits: &Limits,
    start: Instant,
    run: &(dyn Fn(usize, &Limits) -> Stats + Sync),
) -> Vec<Stats> {
    let mut outputs = Vec::with_capacity(threads + 1);
    if join > 0 {
        let alone = Limits {
            nodes: Some(limits.nodes.map_or(join, |n| n.min(join))),
            time: limits.time,
            stop: limits.stop.clone(),
        };
        outputs.push(run(0, &alone));
    }
    let settled = shared.lo.load(Ordering::Relaxed) >= shared.hi.load(Ordering::Relaxed);
    if settled || limits.is_exceeded(shared.nodes.load(Ordering::Relaxed), start) {
        return outputs;
    }
    shared.stop.store(false, Ordering::Relaxed);
    shared.busy.get_or_init(|| Busy::new(BUSY_BITS));
    let helpers = Mutex::new(Vec::with_capacity(threads - 1));
    let pool = pool.get_or_insert_with(|| crate::search::thread_pool(threads - 1));
    let first = pool.in_place_scope(|scope| {
        for id in 1..threads {
            let helpers = &helpers;
            scope.spawn(move |_| {
                let s = run(id, limits);
                helpers.lock().expect("no thread panicked").push(s);
            });
        }
        run(0, limits)
    });
    outputs.extend(helpers.into_inner().expect("no thread panicked"));
    outputs.push(first);
    outputs
}
