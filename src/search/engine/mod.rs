//! The playing engine: a heuristic, time-limited search for games too big to solve, generic over
//! [`Game`](crate::game::Game) plus an [`Evaluate`] hook. Solvers (the rest of [`crate::search`]) prove values; the
//! engine picks good moves within a budget, and reports a proven win or loss when it sees one.
//!
//! This module fixes the interface every player uses (the Ataxx arbiter and UAI front ends, the
//! geography and Gauss players, the match referees): [`Engine::search`] with [`SearchLimits`],
//! [`SearchInfo`] callbacks per finished iteration and a [`SearchResult`].
//!
//! Scores are `i32` from the side to move's view. A proven result is encoded as
//! `WIN - plies` / `-(WIN - plies)`, the shared [`crate::search::mate`] encoding (see
//! [`win_in`], [`loss_in`], [`mate_distance`]); static evaluations must stay within
//! `±EVAL_LIMIT`.

mod entry;
mod evalcache;
mod ordering;
#[cfg(test)]
mod tests;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::search::tt::TranspositionTable;
use entry::{EngineEntry, GENERATION_LIMIT};
use evalcache::EvalCache;
use worker::{Shared, Worker};

pub use crate::game::Evaluate;
pub use crate::search::mate::{WIN, loss_in, win_in};

/// Longest search path the engine supports; proven scores lie within `WIN - MAX_PLY ..= WIN`.
pub const MAX_PLY: u32 = 1_000;
/// Static evaluations must satisfy `|eval| <= EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = WIN - MAX_PLY as i32 - 1;

/// `Some(plies)` (positive: a win, negative: a loss) if `score` is a proven result.
pub const fn mate_distance(score: i32) -> Option<i32> {
    crate::search::mate::distance(score, EVAL_LIMIT)
}

/// Engine-wide settings (UAI `Threads` and `Hash`).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads sharing one table.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Keep a cache of static evaluations (`G::EVAL_CACHE_BITS` slots as a power of two;
    /// none for a game that sets none; `src/search/engine/evalcache.rs`). The search is the
    /// same node for node, only faster where the evaluation is dear and the searches short:
    /// the Ataxx self-play generator's 5,000-node searches with a net ran 1.33-1.39 times as
    /// fast, 30,000-node searches 1.24-1.29, 1-s searches from a fresh engine about 1.5 %. Off
    /// by default here; the Ataxx front ends turn it on (+40.5 Elo at 1 s + 10 ms).
    pub eval_cache: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: 1, hash_mib: 16, eval_cache: false }
    }
}

/// When one search must stop. Every field is optional; with none set the search runs until
/// `stop` is raised or `MAX_PLY` is reached.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search (returning the last finished iteration's move) after this much time.
    pub hard_time: Option<Duration>,
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop as soon as this flag becomes true (UAI `stop`, set from another thread).
    pub stop: Option<Arc<AtomicBool>>,
    /// Scale `soft_time` after each iteration by how settled the best root move is: the
    /// share of the root's nodes spent below it (all iterations so far), from about 0.75 of the
    /// soft limit when it took nearly all of them to 2.25 when it took few. The hard limit
    /// still holds.
    pub soft_by_nodes: bool,
}

/// What one finished iteration found (for UAI `info` lines and logs).
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the root side's view (see [`mate_distance`]).
    pub score: i32,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, starting with the best move.
    pub pv: Vec<M>,
}

/// The answer of [`Engine::search`].
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<M>,
    /// The last finished iteration's information.
    pub info: SearchInfo<M>,
}

/// A reusable engine: keeps its table between searches of one game.
///
/// The search is iterative-deepening principal variation search with aspiration windows over
/// the lock-free [`TranspositionTable`] (entries in `entry.rs`), ordered by table move,
/// [`Evaluate::move_hint`], killers and history, with reverse futility pruning, late move
/// pruning and late move reductions (see `worker/mod.rs`). With `threads > 1` the helpers run the
/// same search on the shared table (Lazy SMP) and the calling thread's result is returned.
pub struct Engine<G: Evaluate> {
    options: EngineOptions,
    tt: Arc<TranspositionTable<EngineEntry>>,
    /// Static evaluations by [`Evaluate::eval_key`]: no slots unless
    /// [`EngineOptions::eval_cache`] (see `evalcache.rs`).
    eval_cache: Arc<EvalCache>,
    /// Generation of the next search, in `1..GENERATION_LIMIT`.
    generation: u16,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Evaluate> Engine<G> {
    /// A new engine with these options.
    pub fn new(options: &EngineOptions) -> Self {
        Engine {
            options: options.clone(),
            tt: Arc::new(TranspositionTable::new(options.hash_mib)),
            eval_cache: Arc::new(Self::new_eval_cache(options)),
            generation: 1,
            _game: std::marker::PhantomData,
        }
    }

    /// Changes threads and table size (clears the table).
    pub fn set_options(&mut self, options: &EngineOptions) {
        if options.hash_mib == self.options.hash_mib {
            self.tt.clear();
        } else {
            self.tt = Arc::new(TranspositionTable::new(options.hash_mib));
        }
        self.eval_cache = Arc::new(Self::new_eval_cache(options));
        self.options = options.clone();
        self.generation = 1;
    }

    /// The evaluation cache `options` ask for, empty.
    fn new_eval_cache(options: &EngineOptions) -> EvalCache {
        EvalCache::new(if options.eval_cache { G::EVAL_CACHE_BITS } else { 0 })
    }

    /// Slots of the evaluation cache in use (tests).
    #[cfg(test)]
    pub(crate) fn eval_cache_filled(&self) -> usize {
        self.eval_cache.filled()
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.eval_cache.clear();
        self.generation = 1;
    }

    /// Searches `root` and returns the best move found within `limits`.
    ///
    /// `history` holds the hashes of the game's earlier positions, oldest first, without the
    /// root; a position that repeats one of them or one on the search path scores as a draw
    /// (within the game's [`Game::reversible_plies`](crate::game::Game::reversible_plies) window), and so does a position for which
    /// [`Evaluate::is_rule_draw`] holds. `on_info` is called after every finished iteration
    /// (by the calling thread).
    ///
    /// The result holds a legal move whenever the root has one, even if the search is stopped
    /// during its first iteration (then the move with the best hint). A root with a single
    /// legal move is answered at once (depth 0).
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut moves = G::Moves::default();
        if root.outcome().is_none() {
            root.generate_moves(&mut moves);
        }
        // Until an iteration finishes: the move the game's hint likes best.
        let fallback = moves.iter().copied().max_by_key(|&m| root.move_hint(m));
        let mut info = SearchInfo {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: fallback.into_iter().collect(),
        };
        if moves.len() <= 1 {
            info.elapsed = start.elapsed();
            return SearchResult { best_move: fallback, info };
        }
        if self.generation >= GENERATION_LIMIT - 1 {
            self.tt.clear();
            self.generation = 1;
        }
        self.generation += 1;
        let shared = Arc::new(Shared {
            tt: Arc::clone(&self.tt),
            eval_cache: Arc::clone(&self.eval_cache),
            limits: limits.clone(),
            start,
            generation: self.generation,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        });
        let max_depth = limits.depth.unwrap_or(MAX_PLY).clamp(1, MAX_PLY - 1);
        // Helpers are not joined: the answer never waits for a thread the operating system has
        // not scheduled since the stop. Each stops at its next look at the flag (within 256
        // nodes of running), holding only its own copies and the shared state.
        for helper in 1..self.options.threads.max(1) {
            let shared = Arc::clone(&shared);
            let (root, history) = (root.clone(), history.to_vec());
            std::thread::spawn(move || {
                let mut worker = Worker::<G>::new(&shared, &history);
                worker.iterate(&root, MAX_PLY - 1, (helper % 2) as u32, None);
            });
        }
        let mut worker = Worker::<G>::new(&shared, history);
        let last = worker.iterate(root, max_depth, 0, Some(on_info));
        worker.poll();
        shared.stop.store(true, Ordering::Relaxed);
        let partial = worker.root_best.filter(|_| worker.aborted);
        if let Some(last) = last {
            info = last;
        }
        // An interrupted iteration's best root move was searched with the full window and beat
        // the previous best (which it tried first), so it is at least as good.
        let best_move = partial.or_else(|| info.pv.first().copied()).or(fallback);
        info.nodes = shared.nodes.load(Ordering::Relaxed);
        info.elapsed = start.elapsed();
        if info.pv.first() != best_move.as_ref() {
            info.pv = best_move.into_iter().collect();
        }
        SearchResult { best_move, info }
    }
}
