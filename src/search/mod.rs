//! Solvers: one [`Solver`] interface, many algorithms, all over the [`Game`] trait.
//!
//! Every solver returns a [`Report`]: the game-theoretic [`Outcome`] of the root for the side to
//! move, the distance in plies where the algorithm knows it, a best move, and [`Stats`].
//!
//! Games with cycles: a position that repeats one on the current search path counts as a draw
//! (infinite play is a draw). Such draws depend on the path, so solvers never store them in the
//! transposition table as facts; see [`history`].

pub mod alphabeta;
pub mod brute;
mod busy;
pub mod dfpn;
pub mod engine;
mod factory;
pub mod history;
pub mod matching;
pub mod mate;
pub mod move_hash;
mod ordering;
pub mod pns;
mod poll;
pub mod portfolio;
pub mod retro;
pub mod score;
#[cfg(test)]
pub(crate) mod testing;
pub mod tt;
pub mod value;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};
pub use factory::make_solver;
pub use tt::{TranspositionTable, TtStats};
pub use value::Value;

/// When a search must give up. A solver that stops early reports no outcome.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after about this much wall time.
    pub time: Option<Duration>,
    /// Stop as soon as this flag becomes true (set by another thread).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all.
    pub fn none() -> Self {
        Limits::default()
    }

    /// Only a node limit.
    pub fn nodes(n: u64) -> Self {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    /// Whether a search that started at `start` and has visited `nodes` nodes must stop now.
    /// Cheap enough to call every few thousand nodes.
    pub fn is_exceeded(&self, nodes: u64, start: Instant) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || self.time.is_some_and(|t| start.elapsed() >= t)
            || self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// What a search measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited (a node is counted once per visit, revisits included).
    pub nodes: u64,
    /// Transposition-table figures (zero for solvers without a table).
    pub tt: TtStats,
    /// Deepest ply reached below the root.
    pub max_depth: u32,
    /// Wall time of the whole solve.
    pub elapsed: Duration,
}

impl Stats {
    /// Nodes per second over the whole solve.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 { self.nodes as f64 / secs } else { 0.0 }
    }

    /// Adds the counters of `other` (per-thread figures into a total); keeps the larger depth.
    pub fn absorb(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.tt.absorb(&other.tt);
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes={} time_ms={:.3} nps={:.0} max_depth={} tt_probes={} tt_hits={} tt_stores={} \
             tt_overwrites={} tt_rejected={}",
            self.nodes,
            self.elapsed.as_secs_f64() * 1000.0,
            self.nodes_per_second(),
            self.max_depth,
            self.tt.probes,
            self.tt.hits,
            self.tt.stores,
            self.tt.overwrites,
            self.tt.rejected,
        )
    }
}

/// Why a [`Report`] has no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// A limit (nodes, time) or the stop flag ended the search first.
    Limit,
    /// The solver had to store more positions than its cap `max`; it had `positions` when it
    /// gave up.
    TooLarge {
        /// Positions enumerated when the solver gave up (the cap plus one).
        positions: u64,
        /// The cap.
        max: u64,
    },
    /// The solver does not apply to this game (or this board size); the text says why.
    Unsupported(String),
    /// The solver gave up for the reason given (the game's own message, e.g. a position graph
    /// past its cap).
    GaveUp(String),
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unknown::Limit => f.write_str("stopped by a limit (nodes, time or stop)"),
            Unknown::TooLarge { max, .. } => write!(f, "more than {max} positions"),
            Unknown::Unsupported(why) | Unknown::GaveUp(why) => f.write_str(why),
        }
    }
}

/// The answer of a solver for one root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The root's game-theoretic result for the side to move; `None` if the search stopped first.
    pub outcome: Option<Outcome>,
    /// Why `outcome` is `None` (always `None` when there is an outcome).
    pub unknown: Option<Unknown>,
    /// Plies to the end of the game with best play, for solvers that compute it (win: shortest
    /// win, loss: longest resistance); `None` for draws and for solvers that prove only results.
    pub plies: Option<u32>,
    /// A move that achieves `outcome` (`None` at a finished position or when unknown).
    pub best_move: Option<M>,
    /// What the search measured.
    pub stats: Stats,
}

impl<M> Report<M> {
    /// A report with no answer (search stopped by a limit: [`Unknown::Limit`]).
    pub fn unknown(stats: Stats) -> Self {
        Report::unknown_because(Unknown::Limit, stats)
    }

    /// A report with no answer, for `reason`.
    pub fn unknown_because(reason: Unknown, stats: Stats) -> Self {
        Report { outcome: None, unknown: Some(reason), plies: None, best_move: None, stats }
    }

    /// A report with an answer: the root's `outcome`, the distance in `plies` if known, a move
    /// that achieves it.
    pub fn solved(
        outcome: Outcome,
        plies: Option<u32>,
        best_move: Option<M>,
        stats: Stats,
    ) -> Self {
        Report { outcome: Some(outcome), unknown: None, plies, best_move, stats }
    }

    /// The report for a root that is already a finished game with result `outcome` (`plies`:
    /// `Some(0)` for solvers that report distances, `None` for those that do not).
    pub fn finished(outcome: Outcome, plies: Option<u32>, start: Instant) -> Self {
        let stats = Stats { elapsed: start.elapsed(), ..Stats::default() };
        Report::solved(outcome, plies, None, stats)
    }

    /// The outcome and distance together, when the solver knows both.
    pub fn value(&self) -> Option<Value> {
        match (self.outcome?, self.plies) {
            (Outcome::Draw, _) => Some(Value::Draw),
            (Outcome::Win, Some(d)) => Some(Value::Win(d)),
            (Outcome::Loss, Some(d)) => Some(Value::Loss(d)),
            _ => None,
        }
    }
}

/// A game-solving algorithm.
pub trait Solver<G: Game>: Send {
    /// Solves `root` within `limits`.
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move>;
}

/// The algorithms `bitsolve` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum SolverKind {
    /// Plain negamax without pruning or table: the oracle.
    Brute,
    /// Negamax with alpha-beta, transposition table, move ordering and iterative deepening;
    /// Lazy-SMP style with several threads.
    Alphabeta,
    /// Best-first proof-number search over an arena.
    Pns,
    /// Depth-first proof-number search on the shared table; several threads share the table.
    Dfpn,
    /// Maximum matching on the position graph, for games that are undirected vertex geography
    /// ([`crate::capability::GraphGame`]); reports `unknown` with a message for other games.
    Matching,
    /// Retrograde analysis of every position reachable from the root ([`retro`]): exact,
    /// draws by infinite play included; needs [`Game::exact_key`] and memory for every
    /// position (a node limit caps the positions).
    Retro,
    /// df-pn and retrograde analysis in rounds with growing budgets, the first exact answer
    /// wins ([`portfolio`]): fast wins and losses, and draws proved by retro where they have
    /// few reachable positions.
    Auto,
    /// Lookups in a solved Ataxx table file ([`retro::table`], `--table FILE`): value and a
    /// best move, no distance; `unknown` for positions not in the table.
    Table,
    /// The indexed layered retrograde engine on GIPF ([`retro::gipf`]) over the positions
    /// reachable from the root only (about 12 bytes per reachable position), `--tt-mib` as its
    /// memory budget; `unsupported` for other games.
    Retro2,
}

impl SolverKind {
    /// Every solver, in a fixed order.
    pub const ALL: [SolverKind; 9] = [
        SolverKind::Brute,
        SolverKind::Alphabeta,
        SolverKind::Pns,
        SolverKind::Dfpn,
        SolverKind::Matching,
        SolverKind::Retro,
        SolverKind::Auto,
        SolverKind::Table,
        SolverKind::Retro2,
    ];

    /// The solver's name on the command line and in result files.
    pub const fn name(self) -> &'static str {
        match self {
            SolverKind::Brute => "brute",
            SolverKind::Alphabeta => "alphabeta",
            SolverKind::Pns => "pns",
            SolverKind::Dfpn => "dfpn",
            SolverKind::Matching => "matching",
            SolverKind::Retro => "retro",
            SolverKind::Auto => "auto",
            SolverKind::Table => "table",
            SolverKind::Retro2 => "retro2",
        }
    }
}

/// Options shared by every solver.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools, reason = "independent switches, each a flag of its own")]
pub struct SolverOptions {
    /// Worker threads (1 = sequential).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mib: usize,
    /// The df-pn 1+epsilon threshold factor (`None`: plain df-pn thresholds).
    pub epsilon: Option<f64>,
    /// df-pn and PNS: weak proof numbers (Ueda et al. 2008): the number a node adds up over its
    /// children is instead the largest child's plus one per other unrefuted child, which
    /// counts subtrees reached through transpositions less often (default off; measured on
    /// geography in `docs/geography.md`: fewer nodes with the strong reductions, more without).
    pub weak_numbers: bool,
    /// df-pn and PNS: initialise a new leaf's numbers from its move count (df-pn+ style
    /// mobility) instead of 1 (default on; off pays for games with uniform branching, GIPF).
    pub mobility: bool,
    /// df-pn: a new leaf whose mover wins with its first reply counts as solved at once (default
    /// off; on pays where immediate wins are common, GIPF).
    pub win_probe: bool,
    /// Parallel alpha-beta, df-pn and the score alpha-beta: the first helper starts at once
    /// (in the score alpha-beta once the first thread has counted `helper_join` nodes alone),
    /// helper `k >= 2` joins the search once all threads together have counted
    /// `helper_join << (k - 1)` nodes (one more thread each time the search doubles; 0: all
    /// threads start at once). See `wait_to_join`. `None`: the solver's own default,
    /// [`HELPER_JOIN_DEFAULT`], or [`SCORE_HELPER_JOIN_DEFAULT`] in the score alpha-beta.
    pub helper_join: Option<u64>,
    /// retro2 on GIPF: keep one position per class under the twelve symmetries of the board
    /// (about 12 times fewer positions; the reachable count is then of classes). Off by
    /// default; `bitsolve solve --symmetry` refuses it for the other solvers.
    pub symmetry: bool,
    /// The table file of the table solver (`--table FILE`), opened once and shared.
    pub table: Option<std::sync::Arc<retro::file::TableFile>>,
    /// retro2: the directory of its checkpoints and tables (`--checkpoint DIR`): a solve
    /// resumes from them, and a root found in a table built earlier is answered from it.
    pub checkpoint: Option<std::sync::Arc<std::path::Path>>,
    /// The retrograde solvers: progress lines on standard error (`--progress`).
    pub progress: bool,
}

/// Options are equal when every field is, the table by identity (the same opened file).
impl PartialEq for SolverOptions {
    fn eq(&self, other: &Self) -> bool {
        let same_table = match (&self.table, &other.table) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_table
            && self.threads == other.threads
            && self.tt_mib == other.tt_mib
            && self.epsilon == other.epsilon
            && self.weak_numbers == other.weak_numbers
            && self.mobility == other.mobility
            && self.win_probe == other.win_probe
            && self.helper_join == other.helper_join
            && self.symmetry == other.symmetry
            && self.checkpoint == other.checkpoint
            && self.progress == other.progress
    }
}

/// Default transposition table size in MiB.
pub const TT_MIB_DEFAULT: usize = 64;

/// Default of [`SolverOptions::helper_join`]: the second helper joins after 32768 nodes, the
/// third after 65536 and so on (a few milliseconds of search; measured in
/// `results/parallel.md`: at 8 threads the node overhead of the suite's parts is 0.9-1.7, and
/// 1.3-2.8 with every thread starting at once).
pub const HELPER_JOIN_DEFAULT: u64 = 16384;

/// The score alpha-beta's default of [`SolverOptions::helper_join`]: its first thread searches
/// alone for 2048 nodes (about 0.4 ms on Connect Four), then the helpers start beside it.
/// Chosen on Connect Four's tuning sets (`datasets/connect4/*.tsv`, timed beside Pons' solver):
/// on `L1_R1` two threads took 0.85-0.99x his time with any join from 64 to 4096 nodes and
/// 1.2-1.4x with [`HELPER_JOIN_DEFAULT`], which most of them never reach; on `L2_R1` (about 100
/// nodes a solve) joins under 2048 cost more than they gave. The report on a fresh draw is
/// `results/connect4/pons.md`.
pub const SCORE_HELPER_JOIN_DEFAULT: u64 = 2048;

/// Waits until helper thread `helper` of a parallel search may join: at once for threads 0
/// and 1 or with `unit` 0, else once the threads together have counted `unit << (helper - 1)`
/// nodes in `nodes` (so helpers join one by one as the search doubles, and a small search,
/// where extra threads mostly duplicate work, stays on two threads). Two threads split even a
/// small tree well (the deferral of busy moves, the shared table), so the first helper starts
/// at once: measured in `results/parallel.md`, that lifts 2-thread speedups on trees of 1e4-1e5
/// nodes and costs little overhead at 8 threads. Returns `false`, without joining, if
/// `done()` turns true first (the search ended or was stopped). A waiting helper sleeps.
pub(crate) fn wait_to_join(
    helper: usize,
    unit: u64,
    nodes: &std::sync::atomic::AtomicU64,
    done: impl Fn() -> bool,
) -> bool {
    if helper <= 1 || unit == 0 {
        return true;
    }
    let goal = unit.saturating_mul(1u64 << (helper - 1).min(40));
    loop {
        if done() {
            return false;
        }
        if nodes.load(std::sync::atomic::Ordering::Relaxed) >= goal {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            threads: 1,
            tt_mib: TT_MIB_DEFAULT,
            epsilon: None,
            weak_numbers: false,
            mobility: true,
            win_probe: false,
            helper_join: None,
            symmetry: false,
            table: None,
            checkpoint: None,
            progress: false,
        }
    }
}

impl SolverOptions {
    /// The default options with the proof-number settings game `G` runs best with
    /// ([`crate::capability::SearchHints`] in [`Game::CAPABILITIES`]): what `bitsolve solve`,
    /// `compare` and the GIPF interpreter start from before any flag.
    pub fn for_game<G: Game>() -> Self {
        let hints = G::CAPABILITIES.search_hints;
        SolverOptions {
            epsilon: hints.dfpn_epsilon,
            mobility: hints.informative_mobility,
            win_probe: hints.first_reply_wins_often,
            ..SolverOptions::default()
        }
    }

    /// These options with the df-pn epsilon a user asked for, if any: `Some(0)` (or less) means
    /// plain thresholds, `None` keeps the current one.
    #[must_use]
    pub fn with_epsilon_flag(mut self, epsilon: Option<f64>) -> Self {
        if let Some(e) = epsilon {
            self.epsilon = (e > 0.0).then_some(e);
        }
        self
    }
}

/// Builds the explicit rayon pool a parallel solver runs on.
///
/// # Panics
/// If the operating system refuses to start threads.
pub fn thread_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("cannot start worker threads")
}
