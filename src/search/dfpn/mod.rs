//! Depth-first proof-number search (Nagai's df-pn) on the shared lock-free table, sequential or
//! with several threads.
//!
//! # Outcome from boolean searches
//!
//! The solver first asks "does the side to move win?"; if that is disproven it asks "does the
//! opponent win?"; if both are disproven the root is a draw. In each search one side is the
//! *prover*, the other the *disprover*.
//!
//! # Phi/delta form
//!
//! Every node is seen from its mover: `phi` is the cost of proving the mover's goal, `delta` the
//! cost of refuting it. The prover's goal is "I win", the disprover's is "the prover does not
//! win". So `phi = pn, delta = dn` at the prover's nodes and `phi = dn, delta = pn` at the
//! disprover's, and everywhere `phi(n) = min delta(c)`, `delta(n) = sum phi(c)`. A node is
//! solved when `phi = 0` (mover reaches its goal) or `delta = 0` (it cannot).
//!
//! `mid(n, th_phi, th_delta)` expands below `n` until `phi >= th_phi` or `delta >= th_delta`,
//! always into the child `c1` with the smallest `delta`, with thresholds
//! `th_delta(c1) = min(th_phi(n), next(delta(c2)))` (`c2` the second best) and
//! `th_phi(c1) = th_delta(n) - delta(n) + phi(c1)`. Plain df-pn uses `next(x) = x + 1`; with
//! [`SolverOptions::epsilon`] `= Some(e)` it uses the 1+epsilon trick of Pawlewicz and Lew,
//! `next(x) = max(x + 1, ceil(x * (1 + e)))`, which stays longer in a subtree and re-expands
//! less.
//!
//! # Table entries
//!
//! A [`DfpnEntry`] packs `phi` and `delta` into 28 bits each (saturating; a stored 0 is a solved
//! value, the other number is then infinite) and `log2` of the work spent below the node into 6
//! bits. The priority is that work, plus a large bonus for solved entries, so expensive entries
//! and facts survive eviction; an unsolved entry never replaces a solved one for the same key.
//! The key is the position's hash, salted by whether its mover is the prover, so both boolean
//! searches share the table: "mover wins" entries from the first search are the same questions
//! as those of the second at positions with the other parity.
//!
//! # Graph-history interaction (GHI)
//!
//! A position that repeats one on the current path is a draw, that is, a disproof for the
//! prover, *for this path only*. The solver handles it as follows.
//!
//! * Every call of `mid` keeps its children's numbers in a local array, initialised from the
//!   table and updated from each recursive call's return value (not re-read from the table). So
//!   numbers stored for other paths, or overwritten in a tiny table, never feed back into a
//!   running frame; each child call returns numbers beyond the thresholds it got, which forces
//!   the best child to change or the frame to exit, and the recursion depth is bounded by the
//!   number of positions (a repetition is a leaf). Hence every call terminates.
//! * A repetition leaf carries the ply of the repeated ancestor. A disproof propagates the
//!   ply its justification depends on: the smallest over all children at the prover's nodes,
//!   the largest over the refuting children at the disprover's. Once the recursion is back at
//!   (or above) the repeated ply the dependence is gone: a disproof whose repetition leaves all
//!   repeat positions inside its own subtree is a strategy for the disprover in the
//!   infinite game (go round the cycle forever), a fact.
//! * Cycles also inflate *unsolved* numbers through the table: on two paths `a -> b` and
//!   `b -> a` each node's stored number is computed from the other's, and without care a frame
//!   returns immediately, its parent raises a threshold by one, and so on for ever without a
//!   single expansion. A frame whose numbers come (partly) from the table therefore raises its
//!   own thresholds to at least its entry numbers + 1, so it expands at least once; growth then
//!   comes with real work. A frame whose children are all *fresh* (game ends, repetitions, or
//!   initial numbers: nothing read from the table) has exact initial numbers and returns at
//!   once when they exceed its thresholds, as in plain df-pn. (Forcing those too made every
//!   call dive down to a solved node: 1.66M nodes and depth 513 for a win in 3 on 4x4 Ataxx.)
//!   When the table is under pressure (more than 1 store in 16 evicts another position), a
//!   fresh-looking child may only have been evicted, so every frame is forced again.
//! * Path-dependent disproofs are never stored as disproofs; they live only in the frames of
//!   the current path. The position is stored as an *unsolved* heuristic instead (the solved
//!   side becomes 1, the other stays huge), so it is not fresh when met again. Unsolved
//!   numbers are heuristics and are stored freely.
//! * Proofs never use a repetition (a proof tree's leaves are real game ends or stored proofs),
//!   so every proof is a fact about the position and is always stored.
//!
//! # Initial numbers
//!
//! A new child that is a finished game or a repetition is solved at once; any other new child
//! gets the mobility numbers of df-pn+ (Nagai): `phi = 1`, `delta =` its number of moves (its
//! mover needs one good move, the opponent must refute every one). So 1-ply wins are seen
//! without descending, and the prover prefers moves that leave the opponent few replies.
//! [`SolverOptions::mobility`] `= false` (or [`DfpnSolver::with_mobility`]`(false)`) gives new children `phi = delta = 1` instead.
//!
//! Mobility is not free and not always informative. It costs one move generation per new
//! child, so `b + 1` generations and `b^2` moves played per expansion instead of one
//! generation and `b` plays. In games where the number of replies says little about who wins
//! (GIPF: every edge push is legal until lines fill up, so counts are nearly uniform), it only
//! rescales the numbers: `delta = 18..42` everywhere makes the `+1` threshold steps tiny
//! relative to the numbers, so df-pn switches between siblings after little work and
//! re-expands far more. On the empty S=4 GIPF board (official test 9, position 8) it takes over
//! 170k nodes at under 3k nodes/s (about 60 s), against 23k nodes with `phi = delta = 1`.
//! Scaling it relatively (`1 + moves - min over siblings`, or `moves / min`) was no better for
//! GIPF and worse for Ataxx; on small Ataxx boards it saves 2x to 20x nodes, so it stays on by
//! default and the GIPF interpreter turns it off.
//!
//! With [`SolverOptions::win_probe`] (or [`DfpnSolver::with_win_probe`]`(true)`), a new child also plays its mover's *first*
//! move: if that ends the game in the child's mover's favour, the child is solved at once (a
//! fact, no repetition involved). It costs one move generation and one play per new child and
//! finds the wins that do not depend on the move, such as GIPF's "the opponent's reserve is
//! empty": on official GIPF test 9 it cuts the nodes 3x to 10x (the last layer of every proof
//! is never expanded). Off by default (a generation per child for nothing in most games).
//!
//! Generating the children stops at the first one that settles the node for its mover without
//! a repetition (a child game end or stored fact that refutes the child's mover): the others
//! cannot change the node's numbers, and a finished node need not play the rest.
//!
//! Stored facts are valid in any context, so the root's answer is exact: it equals the value of
//! [`BruteSolver`](super::brute::BruteSolver), which is the value of the infinite game.
//!
//! # Remembered children
//!
//! df-pn enters a node again and again as its thresholds grow, and each entry needs the
//! children's table keys and initial numbers: without care every entry plays every move again
//! (for geography a copy of the position, the move and the component's upkeep per child, the
//! settling itself memoised). In acyclic games those are functions of the position, so each
//! thread keeps a direct-mapped cache of the lists it generated (2^14 lists of up to 16
//! children, allocated once the thread has visited 4096 nodes); a node entered again reads its
//! children's keys and initial numbers from it and only probes the table, and only the child
//! searched next is played. The lists are exactly what the generation gives (a list cut short
//! by a solved child read from the table is not kept, the table may lose it), so the search
//! and its node counts are the same with the cache as without
//! ([`DfpnSolver::with_child_cache`]). Geography `s8:52` (one thread, callgrind): 4.851G ->
//! 4.715G instructions, the same 77,116 nodes.
//!
//! # Threads
//!
//! With [`SolverOptions::threads`] `> 1`, every thread of an explicit rayon pool runs the same
//! df-pn from the root on one shared `Arc<TranspositionTable>`. For diversity, a thread entering
//! a node bumps a counter in a small shared table of "busy" counters, and other threads add the
//! count to the `delta` of a busy child when choosing where to go (virtual proof numbers): a
//! near-tie goes to a child nobody is on, a clearly better child is still shared; threads other
//! than the first also break ties from a per-thread random offset. (Inflating by half the
//! child's `delta` per thread, as before, sent threads to poor children: at 8 threads the node
//! overhead on geography and Ataxx mid-game positions fell from 1.5-1.8 to 0.8-1.1 with the
//! additive count, `results/parallel.md`.) A child chosen through
//! inflated numbers still gets a `delta` threshold above its real `delta`, so it always works.
//! Helpers join one by one as each boolean search grows ([`SolverOptions::helper_join`]): on
//! GIPF starts of 3e4 nodes the node overhead at 8 threads fell from 2.8 to 1.3.
//! The first thread to settle the root of a boolean search stops the others. Every answer rests
//! only on facts, so the outcome is the sequential one. The pool's threads have 256 MiB stacks
//! (reserved, not committed): `mid` recurses once per ply. A sequential search runs on the
//! one thread of such a pool (kept as long as the solver), and a path longer than [`MAX_PLY`] plies stops the search
//! (`unknown`) instead of overflowing it: the depth-bounded games of `WINNING_SEQUENCE_EXIST`
//! with a huge bound, and long cycles of GIPF, reach such paths.

mod entry;
#[cfg(test)]
pub(crate) mod tests;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::busy::Busy;
use super::tt::TranspositionTable;
use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::{Game, Outcome};
pub use entry::DfpnEntry;
use worker::{Shared, Worker};

/// Log2 of the number of [`Busy`] counters shared by the threads.
const BUSY_BITS: u32 = 12;

/// The deepest path a search follows; deeper, it stops and reports `unknown` (a frame of
/// `mid` is well under 2 KiB, so this fits the 256 MiB stack of every search thread).
pub const MAX_PLY: u32 = 100_000;

/// Depth-first proof-number search; see the [module docs](self).
pub struct DfpnSolver {
    tt: Arc<TranspositionTable<DfpnEntry>>,
    epsilon: Option<f64>,
    weak: bool,
    threads: usize,
    /// The search threads (one for a sequential search), with deep stacks.
    pool: rayon::ThreadPool,
    mobility: bool,
    probe: bool,
    /// [`SolverOptions::helper_join`].
    helper_join: u64,
    /// Nodes a thread visits before it remembers children (acyclic games); `None`: never.
    cache_after: Option<u64>,
}

impl DfpnSolver {
    /// A solver with a table of `options.tt_mib` MiB, `options.threads` threads and the
    /// threshold rule `options.epsilon`.
    pub fn new(options: &SolverOptions) -> Self {
        let threads = options.threads.max(1);
        DfpnSolver {
            tt: Arc::new(TranspositionTable::new(options.tt_mib)),
            epsilon: options.epsilon,
            weak: options.weak_numbers,
            threads,
            pool: deep_pool(threads),
            helper_join: options.helper_join.unwrap_or(super::HELPER_JOIN_DEFAULT),
            mobility: options.mobility,
            probe: options.win_probe,
            cache_after: Some(worker::CACHE_AFTER),
        }
    }

    /// Turns the mobility initialisation of new children on (the default) or off (then they
    /// get `phi = delta = 1`); see the [module docs](self#initial-numbers).
    #[must_use]
    pub fn with_mobility(mut self, on: bool) -> Self {
        self.mobility = on;
        self
    }

    /// Sets after how many nodes a search thread starts remembering the children of the nodes
    /// it expands (acyclic games only; see the [module docs](self#remembered-children)):
    /// `None` never, default `Some(4096)`. The search is the same either way, only faster.
    #[must_use]
    pub fn with_child_cache(mut self, after: Option<u64>) -> Self {
        self.cache_after = after;
        self
    }

    /// Turns the first-reply probe on or off (the default); see the
    /// [module docs](self#initial-numbers).
    #[must_use]
    pub fn with_win_probe(mut self, on: bool) -> Self {
        self.probe = on;
        self
    }
}

/// Stack of a parallel search thread: `mid` recurses once per ply and paths can be long.
const STACK_BYTES: usize = 256 << 20;

/// A rayon pool of `threads` threads with deep stacks.
///
/// # Panics
/// If the operating system refuses to start threads.
fn deep_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .build()
        .expect("cannot start worker threads")
}
impl DfpnSolver {
    /// One boolean search on every thread; `None` if stopped by a limit.
    fn search<G: Game>(
        &self,
        root: &G,
        root_proves: bool,
        limits: &Limits,
        start: Instant,
        nodes: &AtomicU64,
        stats: &mut Stats,
    ) -> Option<(bool, Option<G::Move>)> {
        let stop = AtomicBool::new(false);
        let busy = (self.threads > 1).then(|| Busy::new(BUSY_BITS));
        let shared = Shared {
            tt: &self.tt,
            busy: busy.as_ref(),
            epsilon: self.epsilon,
            weak: self.weak,
            mobility: self.mobility,
            probe: self.probe,
            cache_after: self.cache_after,
            limits,
            start,
            nodes,
            stop: &stop,
        };
        if self.threads == 1 {
            // On the pool's one thread, for its deep stack.
            let (answer, worker_stats) = self.pool.install(|| {
                let mut worker = Worker::<G>::new(&shared, 0);
                let answer = worker.search(root, root_proves);
                (answer, worker.stats)
            });
            stats.absorb(&worker_stats);
            return answer;
        }
        let pool = &self.pool;
        let answer = Mutex::new(None);
        let total = Mutex::new(Stats::default());
        pool.scope(|scope| {
            for thread in 0..self.threads {
                let (shared, answer, total) = (&shared, &answer, &total);
                scope.spawn(move |_| {
                    let done = || shared.stop.load(Ordering::Relaxed);
                    if !super::wait_to_join(thread, self.helper_join, shared.nodes, done) {
                        return;
                    }
                    let mut worker = Worker::<G>::new(shared, thread);
                    if let Some(found) = worker.search(root, root_proves) {
                        let mut answer = answer.lock().expect("no panics while locked");
                        answer.get_or_insert(found);
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                    total.lock().expect("no panics while locked").absorb(&worker.stats);
                });
            }
        });
        stats.absorb(&total.into_inner().expect("no panics while locked"));
        answer.into_inner().expect("no panics while locked")
    }
}

impl<G: Game> Solver<G> for DfpnSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        if let Some(outcome) = root.outcome() {
            return Report::finished(outcome, None, start);
        }
        let mut stats = Stats::default();
        self.tt.clear();
        let nodes = AtomicU64::new(0);
        let answer =
            self.search(root, true, limits, start, &nodes, &mut stats).and_then(|(win, best)| {
                if win {
                    return Some((Outcome::Win, best));
                }
                if !G::DRAWS {
                    // No draws: not winning is losing (the first search's root children already
                    // give the most stubborn move).
                    return Some((Outcome::Loss, best));
                }
                let (loss, best) = self.search(root, false, limits, start, &nodes, &mut stats)?;
                Some((if loss { Outcome::Loss } else { Outcome::Draw }, best))
            });
        stats.elapsed = start.elapsed();
        match answer {
            Some((outcome, best_move)) => Report::solved(outcome, None, best_move, stats),
            None => Report::unknown(stats),
        }
    }
}
