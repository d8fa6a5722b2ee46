//! Exact alpha-beta: negamax over bounds with a shared lock-free table, move ordering,
//! iterative deepening with narrow windows, and Lazy SMP on several threads.
//!
//! [`AlphaBetaSolver`] returns the exact value: the outcome, the distance in plies (shortest
//! win, longest loss) and a move that achieves it, the same as
//! [`BruteSolver`](super::brute::BruteSolver).
//!
//! ```
//! use bitsolve::search::alphabeta::AlphaBetaSolver;
//! use bitsolve::{Digraph, Limits, Notation, Outcome, Solver, SolverOptions, Value};
//! // 0 -> 1 or 2; 1 has no move (its mover loses); 2 -> 0 (a cycle).
//! let g = Digraph::parse_position("0|1 2;;0;").unwrap();
//! let mut solver = AlphaBetaSolver::new(&SolverOptions { tt_mib: 1, ..SolverOptions::default() });
//! let report = Solver::<Digraph>::solve(&mut solver, &g, &Limits::none());
//! assert_eq!(report.value(), Some(Value::Win(1)));
//! assert_eq!(report.best_move, Some(1));
//! ```
//!
//! # Bounds instead of values
//!
//! Scores are packed integers as in Pons' Connect 4 solver: a win ending `e` plies below the
//! root scores `WIN - e`, a loss there `-(WIN - e)`, a draw 0, so sooner wins and
//! later losses score higher and a child's score negates into its parent's. The table stores
//! them relative to the node (private `score` module).
//!
//! Every node returns a pair of such scores `lower <= value <= upper`, not a single fail-soft
//! score. A node that is not over but sits on the search
//! horizon returns its honest bounds, "a loss one ply later at worst, a win one ply later at
//! best"; an inner node combines its children's bounds by negamax, stopping when its lower
//! bound reaches `beta`. So every bound the search returns is true, whatever the depth, and
//! the table stores bounds, not depth-limited guesses: a table entry never needs a depth to be
//! trusted, and entries from deeper searches (other threads, earlier iterations) are simply
//! more bounds.
//!
//! # Exactness with a horizon
//!
//! A search with `d` plies left decides every threshold "value >= s" whose answer is settled
//! within `d` plies: `s` a win in at most `d` plies (a win that fast has a proof tree of depth
//! at most `d`, and a horizon leaf's upper bound is a win one ply beyond it), or `s` just
//! above a loss in at most `d` plies. By induction on the tree, alpha-beta over bounds decides
//! every such threshold inside its window `(alpha, beta]`. The draw thresholds 0 and 1 are
//! decided only if no horizon leaf is in the way: a horizon bound straddles 0.
//!
//! [`solve`](Solver::solve) keeps root bounds `[lower, upper]` and deepens `d = 1, 2, ...`; at
//! each depth it runs, while the bounds differ:
//!
//! 1. a window over the thresholds `>= win in d`: with a null window `(win_d - 1, win_d)` in
//!    the usual case, "is it a win within `d` plies?";
//! 2. a window over the thresholds `<= loss in d, plus one`: "is it a loss within `d`?";
//! 3. the window `(-1, 1)`: "is it a draw?", answered yes only once the search completes
//!    without a horizon leaf affecting the result.
//!
//! Steps 1 and 2 always answer, so after depth `d` no win or loss within `d` plies remains
//! unknown: a win is found at the first depth equal to its distance, with `upper` already
//! below every faster win, hence exact; a loss likewise. A draw is concluded only when the root
//! bounds meet at 0, that is when a search proved both "not a loss" and "not a win" with
//! every leaf of the proof a finished game, a repetition or a table fact. Once the depth
//! exceeds the longest repetition-free line, no horizon leaf remains and this must happen.
//!
//! Steps 1 and 2 (the *bounded* questions) ignore repetitions: "a win within `d` plies" is a
//! question about a finite tree, where a line that returns to an earlier position simply goes
//! on, and its answer is the same as in the game where endless play is a draw (the retrograde
//! win within `d` is exactly a forced game end within `d` plies; the winner never needs to
//! repeat). So every result of a bounded question is a fact about its position and is stored
//! whole, whatever the path; only step 3 treats a repetition as a draw (next section).
//!
//! Step 3 rarely pays before the depth exceeds the longest line, so it runs on a node budget:
//! the draw questions of a solve may spend as many nodes as the bounded questions did, plus
//! a little per ply, and each draw question that runs out is abandoned (what it stored stays
//! true) and the next one gets at least twice its budget. A win or loss is then found at the
//! cost of the bounded questions, and a draw at most about twice the cost it had before.
//!
//! Before searching its children, a node with a few plies left looks at each of them without
//! searching it (enhanced transposition cutoff): a child that is a finished game, or whose
//! table bound already refutes it, ends the node at once.
//!
//! # Repetitions and the table (graph-history interaction)
//!
//! In a game with cycles, the draw question (step 3) scores a position repeating one on the
//! current path as a draw, as in [`BruteSolver`](super::brute::BruteSolver). Such a draw depends on the path, so each result
//! carries `repetition_ply`, the smallest ply of a path position some repetition below it
//! repeated. A node at ply `p` whose subtree repeated only positions at plies `>= p` (its own
//! line) computed a fact about its position: the same search from that position as root. Its
//! bounds are stored whole. Otherwise the result is *path-dependent* and only two kinds of
//! bound are stored: a lower bound that is a win and an upper bound that is a loss. Such a
//! bound rests on a proof tree whose leaves are finished games (a repetition scores a draw and
//! cannot prove a win), so it holds on every path; its distance is an honest one-sided bound
//! (the path may only have made the win slower). Draws, "not a loss" and "not a win faster
//! than" from a path-dependent result are never stored.
//!
//! Why the root value is still the exact value with repetition draws inside the tree: let the
//! real value be the one of the game where endless play is a draw (the retrograde value). Any
//! bound the root search returns is backed by a tree whose leaves are finished games, table
//! facts (real bounds), horizon bounds (true for any position not over) and repetitions. Follow
//! the real optimal strategy of the side the bound claims to limit through that tree: for a
//! win it moves to strictly shorter wins, so the line never repeats a position and never meets
//! a repetition leaf; every other leaf contradicts the false bound. Hence root bounds are real
//! bounds, and the same argument at a path-independent node shows its result is a real fact.
//!
//! # Parallel search
//!
//! With `threads > 1` the solver runs Lazy SMP on an explicit rayon pool
//! ([`thread_pool`](super::thread_pool)): every thread runs the same iterative deepening on one
//! shared table; helpers start one ply deeper every other thread and break ordering ties in
//! their own pseudo-random order, so they fill the table with results the main line needs
//! later. Between root searches the threads pool what they know of the root (every root bound
//! is true, whoever found it): the bounds, the move behind the lower bound and the deepest
//! iteration completed; a thread takes the tighter bounds, skips the questions they answer and
//! the iterations another thread has completed (at 8 threads this cut the node overhead on
//! GIPF and Gauss from about 1.8-2.0 to 1.5-1.8, `results/parallel.md`). A helper also skips
//! an iteration that half the threads are already in, so the threads spread over two or more
//! depths (at 8 threads: Ataxx mid-game overhead 1.23-1.28 -> 1.04-1.09). The first thread to
//! reach the exact value raises a shared stop flag. Since every thread computes the exact value, the outcome and distance equal the sequential ones (the
//! best move may differ among equally good moves). Statistics are summed over threads.
//!
//! Helpers join one by one as the search grows ([`SolverOptions::helper_join`]): the first at
//! once, helper `k >= 2` once the threads have counted `helper_join << (k - 1)` nodes, so a
//! search of a few thousand nodes stays on two threads (at 8 threads the node overhead of trees of 1e4-1e6
//! nodes was 1.3-2.8 with every thread starting at once).
//!
//! On top of that the threads defer each other's work as in ABDADA (Weill 1996): a node with
//! at least three plies left marks itself busy in a small shared table of counters (beside the
//! transposition table, indexed by the low bits of the hash) while it searches its children,
//! and a thread's first pass over a node's moves skips every child but the first that another
//! thread has marked busy; the skipped children are searched after the others, when the busy
//! thread has usually stored their bounds. Deferral only changes the order of the moves, so
//! every result stays exact (a counter shared by two positions merely defers a move for
//! nothing). Plain Lazy SMP duplicates the helpers' work at the top of the tree; deferral sends
//! them to the siblings instead. [`AlphaBetaSolver::with_deferral`] turns it off to measure it
//! (`bitsolve parallel-study --solver alphabeta,alphabeta-lazy`).

mod entry;
mod ordering;
mod search;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use self::entry::{AlphaBetaEntry, value_of};
use self::search::{RootResult, Searcher, Shared};
use super::tt::TranspositionTable;
use super::{Limits, Report, Solver, SolverOptions, Stats, Value};
use crate::game::Game;

/// The exact alpha-beta solver; see the [module docs](self).
pub struct AlphaBetaSolver {
    threads: usize,
    /// ABDADA deferral of moves another thread is searching (with several threads).
    defer: bool,
    /// Pooling of root knowledge between root searches (with several threads).
    share_root: bool,
    /// [`SolverOptions::helper_join`].
    helper_join: u64,
    tt_mib: usize,
    /// Allocated with the solver (outside the timed solve), cleared by each later solve.
    tt: Option<Arc<TranspositionTable<AlphaBetaEntry>>>,
    /// Built by the first parallel solve.
    pool: Option<rayon::ThreadPool>,
}

impl AlphaBetaSolver {
    /// A solver with `options.threads` threads and an `options.tt_mib` MiB table.
    pub fn new(options: &SolverOptions) -> Self {
        AlphaBetaSolver {
            threads: options.threads.max(1),
            defer: true,
            share_root: true,
            helper_join: options.helper_join.unwrap_or(super::HELPER_JOIN_DEFAULT),
            tt_mib: options.tt_mib,
            tt: Some(Arc::new(TranspositionTable::new(options.tt_mib))),
            pool: None,
        }
    }

    /// The same solver with ABDADA deferral on (the default) or off (plain Lazy SMP, to
    /// measure what deferral gives). Without threads it changes nothing.
    #[must_use]
    pub fn with_deferral(mut self, defer: bool) -> Self {
        self.defer = defer;
        self
    }

    /// The same solver with the threads pooling what they know of the root (the default) or
    /// not (with deferral off too: plain Lazy SMP). Without threads it changes nothing.
    #[must_use]
    pub fn with_root_sharing(mut self, share: bool) -> Self {
        self.share_root = share;
        self
    }

    /// The table, empty.
    fn fresh_table(&mut self) -> Arc<TranspositionTable<AlphaBetaEntry>> {
        match &self.tt {
            Some(tt) => tt.clear(),
            None => self.tt = Some(Arc::new(TranspositionTable::new(self.tt_mib))),
        }
        Arc::clone(self.tt.as_ref().expect("just allocated"))
    }

    /// Runs one searcher per thread (one on the caller's thread when sequential); returns the
    /// first exact result and the summed statistics.
    fn run_threads<G: Game>(
        &mut self,
        root: &G,
        limits: &Limits,
        start: Instant,
    ) -> (Option<RootResult>, Stats) {
        let tt = self.fresh_table();
        let shared = Shared::new(self.threads, self.defer, self.share_root);
        let run = |helper: usize| {
            let done = || shared.stop.load(Ordering::Relaxed);
            if !super::wait_to_join(helper, self.helper_join, &shared.nodes, done) {
                return (None, Stats::default());
            }
            let mut searcher = Searcher::<G>::new(&tt, &shared, limits, start, helper);
            let result = searcher.solve_root(root, 1 + (helper % 2) as u32);
            if result.is_some() {
                shared.stop.store(true, Ordering::Relaxed);
            }
            (result, searcher.stats)
        };
        let outputs = if self.threads == 1 {
            vec![run(0)]
        } else {
            let threads = self.threads;
            let pool = self.pool.get_or_insert_with(|| super::thread_pool(threads));
            pool.broadcast(|context| run(context.index()))
        };
        let mut stats = Stats::default();
        let mut found: Option<RootResult> = None;
        for (result, thread_stats) in outputs {
            stats.absorb(&thread_stats);
            if let Some(r) = result {
                debug_assert!(found.is_none_or(|f| f.score == r.score), "threads disagree");
                found.get_or_insert(r);
            }
        }
        (found, stats)
    }
}

impl std::fmt::Debug for AlphaBetaSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaSolver")
            .field("threads", &self.threads)
            .field("defer", &self.defer)
            .field("tt_mib", &self.tt_mib)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Solver<G> for AlphaBetaSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        if let Some(outcome) = root.outcome() {
            let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
            let value = Value::terminal(outcome);
            return Report::solved(outcome, value.plies(), None, stats);
        }
        let (found, mut stats) = self.run_threads(root, limits, start);
        stats.elapsed = start.elapsed();
        let Some(found) = found else { return Report::unknown(stats) };
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let value = value_of(found.score);
        Report::solved(value.outcome(), value.plies(), Some(moves[found.move_index]), stats)
    }
}
