//! Exact final scores of [`Scored`] games: the value is a points difference, not only a result.
//!
//! Three ways to the same number, behind one [`ScoreSolver`] interface:
//!
//! * [`BruteScore`]: plain minimax over final scores, the oracle.
//! * [`AlphaBetaScore`]: fail-soft negamax over scores on the shared lock-free table (entries
//!   hold a lower and an upper bound, valid whatever the window), driven at the root by
//!   null-window tests: the first at a guess (a shallow search over
//!   [`Scored::score_estimate`]s), then bisection of the remaining interval, each test
//!   narrowing it by its fail-soft value (MTD(f) and Pons' null-window bisection). The table
//!   survives between tests, so later tests reuse earlier bounds. Refinements
//!   ([`ScoreFeatures`]): enhanced transposition cutoffs, killer and history ordering, MTD(f)
//!   steps at the root, the shallow first guess, ordering by two-ply searches near the root,
//!   and optionally symmetric table keys. With threads, different thresholds are tested side
//!   by side on the shared table (see [`AlphaBetaScore`]).
//! * [`BisectionScore`]: the same bisection over any win/loss [`Solver`](super::Solver): the
//!   wrapper game [`Threshold`] ends like the real game but its outcome is "the root's mover
//!   wins iff the final score is at least `t`", so alpha-beta, PNS or df-pn decide
//!   "score >= t" unchanged.
//!
//! Only games without cycles are supported (the score of endless play is undefined): the
//! searches keep no path.
//!
//! ```
//! use bitsolve::search::score::{AlphaBetaScore, BruteScore, ScoreSolver};
//! use bitsolve::{Game, Gauss, Limits, SolverOptions};
//! // Random placements until four are left.
//! let mut g = Gauss::default();
//! while g.remaining() > 4 {
//!     let mut moves = Default::default();
//!     g.generate_moves(&mut moves);
//!     g.play(moves[(g.hash() % moves.len() as u64) as usize]);
//! }
//! let exact = BruteScore.solve_score(&g, &Limits::none()).score;
//! let options = SolverOptions { tt_mib: 1, ..SolverOptions::default() };
//! assert_eq!(AlphaBetaScore::new(&options).solve_score(&g, &Limits::none()).score, exact);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

use super::tt::{TranspositionTable, TtEntry};
use super::{Limits, SolverKind, SolverOptions, Stats, make_solver};
use crate::game::{Game, Outcome, Scored};

/// The answer of a score solver for one root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreReport<M> {
    /// Exact final score for the side to move under perfect play; `None` if a limit stopped
    /// the search first.
    pub score: Option<i32>,
    /// A move that achieves the score (`None` at a finished position or when unknown).
    pub best_move: Option<M>,
    /// What the search measured.
    pub stats: Stats,
}

/// An algorithm computing exact final scores.
pub trait ScoreSolver<G: Scored>: Send {
    /// Solves `root` within `limits`.
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move>;
}

/// The score solver for `kind`: `brute` is [`BruteScore`], `alphabeta` [`AlphaBetaScore`], and
/// the proof-number solvers decide the thresholds of a [`BisectionScore`].
pub fn make_score_solver<G: Scored>(
    kind: SolverKind,
    options: &SolverOptions,
) -> Box<dyn ScoreSolver<G>> {
    match kind {
        SolverKind::Brute => Box::new(BruteScore),
        SolverKind::Alphabeta => Box::new(AlphaBetaScore::new(options)),
        // The matching solver needs a position graph and the retrograde one an exact key, which
        // a threshold game lacks: they report every threshold unknown, so the score stays
        // unknown (`auto` is then df-pn).
        SolverKind::Pns
        | SolverKind::Dfpn
        | SolverKind::Matching
        | SolverKind::Retro
        | SolverKind::Table
        | SolverKind::Retro2
        | SolverKind::Auto => Box::new(BisectionScore::new(kind, options)),
    }
}

/// Plain minimax over final scores: the oracle.
#[derive(Clone, Copy, Debug, Default)]
pub struct BruteScore;

impl BruteScore {
    /// The exact score of `pos` (exponential).
    pub fn score<G: Scored>(pos: &G, nodes: &mut u64) -> i32 {
        *nodes += 1;
        if let Some(s) = pos.final_score() {
            return s;
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                -Self::score(&child, nodes)
            })
            .max()
            .expect("a game that is not over has a move")
    }
}

impl<G: Scored> ScoreSolver<G> for BruteScore {
    fn solve_score(&mut self, root: &G, _limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        let mut nodes = 1;
        let mut best: Option<(i32, G::Move)> = None;
        let score = if let Some(s) = root.final_score() {
            s
        } else {
            let mut moves = G::Moves::default();
            root.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = root.clone();
                child.play(mv);
                let v = -Self::score(&child, &mut nodes);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, mv));
                }
            }
            best.expect("a game that is not over has a move").0
        };
        let stats = Stats { nodes, elapsed: start.elapsed(), ..Stats::default() };
        ScoreReport { score: Some(score), best_move: best.map(|(_, m)| m), stats }
    }
}

/// Table entry of [`AlphaBetaScore`].
///
/// ```text
/// bits  0..16  lower  i16  lower bound on the exact score
/// bits 16..32  upper  i16  upper bound on the exact score
/// bits 32..40  move   u8   index of the best move found (0xFF: none)
/// bits 40..48  work   u8   log2 of the nodes searched below (replacement priority)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ScoreEntry {
    lower: i16,
    upper: i16,
    move_index: u8,
    work: u8,
}

const NO_MOVE: u8 = u8::MAX;

impl TtEntry for ScoreEntry {
    fn to_bits(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.move_index) << 32
            | u64::from(self.work) << 40
    }

    fn from_bits(bits: u64) -> Self {
        ScoreEntry {
            lower: (bits as u16).cast_signed(),
            upper: ((bits >> 16) as u16).cast_signed(),
            move_index: (bits >> 32) as u8,
            work: (bits >> 40) as u8,
        }
    }

    fn priority(self) -> u32 {
        u32::from(self.work) + if self.lower == self.upper { 64 } else { 0 }
    }
}

/// Nodes between two looks at the limits (and, with threads, at whether the test still
/// matters).
const CHECK_INTERVAL: u64 = 1024;

/// Bits of a move's slot in the history table.
const HISTORY_BITS: u32 = 10;

/// The refinements of [`AlphaBetaScore`]'s search. [`ScoreFeatures::default`] is what the
/// solver uses; turning one off ([`AlphaBetaScore::with_features`]) only measures what it gives,
/// the scores stay exact either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools, reason = "independent switches, each measured alone")]
pub struct ScoreFeatures {
    /// Enhanced transposition cutoffs: before searching its children, a node looks each of them
    /// up in the table, and a child whose stored upper bound already proves the cut ends the
    /// node at once (a lower one raises `alpha` before the first search).
    pub etc: bool,
    /// History heuristic: among children with equal score estimates, the moves that caused
    /// more cutoffs (weighted by the work below them) elsewhere in the search come first.
    pub history: bool,
    /// Table keys from [`Scored::canonical_hash`]: positions equal up to a symmetry of the
    /// game share one entry. Off by default: on ten random Gauss positions with 9 placements
    /// left it saved 0.5% of the nodes and cost about 15% more time (symmetric positions are
    /// rare once the board is crowded).
    pub symmetry: bool,
    /// Root tests step from the last fail-soft value (MTD(f)) instead of bisecting the
    /// remaining interval (after the first test at the estimate, which both do).
    pub mtdf: bool,
    /// At nodes with at least [`SHALLOW_HEIGHT`] plies below them (the top few plies, where a
    /// wrong first child costs a large subtree), children are ordered by a
    /// [`SHALLOW_DEPTH`]-ply search over estimates (the search of the first guess) instead of
    /// their own estimate.
    /// On ten random Gauss positions with 11 placements left (one thread) it took 26% fewer
    /// nodes and 29% less time; the one position with 12 left that took longest went from
    /// 151 s to 76 s on two threads. (A one-ply search from height 4, measured first, saved
    /// 9% of the nodes but cost 28% more time.)
    pub shallow: bool,
    /// The first root test is at the value of a search over score estimates to
    /// [`guess_depth`] plies instead of the root's own estimate: on random Gauss positions
    /// with 10 and 12 placements left it is within one point of the exact score far more
    /// often, so fewer root tests are needed.
    pub guess: bool,
    /// Killer moves: per ply, the last two moves that cut a node off are tried first there
    /// (before the other children are even played, so a node whose children all finish the
    /// game often stops after one), and among children with equal estimates they come first.
    pub killer: bool,
    /// The table's move is searched as soon as it is built, before the other children are
    /// played, and so are the killers at nodes whose grandchildren end the game (where
    /// building every child only to order them costs more than the order saves). On random
    /// Gauss positions with 11 and 12 placements left it took 1% more nodes and 17% less time.
    pub eager: bool,
    /// With threads, at nodes at least [`DEFER_HEIGHT`] plies above the deepest seen, a child
    /// that another thread is searching is put off until the node's other children are
    /// searched (the exclusive search of ABDADA), the first child searched excepted; threads
    /// that run the same test then split its work instead of repeating it. On 2 threads it took
    /// 9% fewer nodes and 10% less time on nine random Gauss positions with 11 and 12 left
    /// (two runs each, alternating with runs without it).
    pub defer: bool,
}

/// Height (plies down to the deepest node seen so far) from which [`ScoreFeatures::defer`]
/// applies: below it subtrees are too small to be worth the marks.
pub const DEFER_HEIGHT: u32 = 4;

/// Plies of the search that makes the first guess ([`ScoreFeatures::guess`]) when the game
/// does not tell how many plies are left ([`Scored::plies_left`]).
pub const GUESS_DEPTH: u32 = 6;

/// Deepest first guess for games that tell how many plies are left.
pub const GUESS_DEPTH_MAX: u32 = 8;

/// The depth of the first guess at `root`: [`GUESS_DEPTH`], or, when the game tells the plies
/// left, the deepest up to [`GUESS_DEPTH_MAX`] that leaves an even number of plies below its
/// horizon. On Gauss the estimate at a horizon with an odd number of placements left is biased
/// (the side to move there has one placement more than the other): on ten random positions
/// with 12 placements left the guesses of 7 and 9 plies missed the exact scores by 15 and 12
/// points in all, those of 6 and 8 plies by 6 and 7; with 11 left, 7 plies missed by 4 in all,
/// 6 and 8 by 9 and 13. The 12-left position that took longest (exact score -3) was guessed
/// -1 at 6 plies and -2 at 8, and solved in 48 s instead of 62 s on two threads.
pub fn guess_depth<G: Scored>(root: &G) -> u32 {
    match root.plies_left() {
        None => GUESS_DEPTH,
        Some(left) => {
            let depth = left.min(GUESS_DEPTH_MAX);
            depth - (left - depth) % 2
        }
    }
}

/// Fail-soft alpha-beta over scores to `depth` plies, [`Scored::score_estimate`] at the horizon,
/// children ordered by [`Scored::order_estimate`]: the first guess of the root tests. Counts
/// its nodes in `nodes`.
fn guess<G: Scored>(pos: &G, depth: u32, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(s) = pos.final_score() {
        return s;
    }
    if depth == 0 {
        return pos.score_estimate();
    }
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        // The children's values are their estimates: no need to build them.
        let mut best = i32::MIN;
        for &mv in moves.iter() {
            *nodes += 1;
            best = best.max(-pos.estimate_after(mv));
            if best >= beta {
                break;
            }
        }
        return best;
    }
    let mut children: Vec<(i32, G)> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (child.order_estimate(), child)
        })
        .collect();
    children.sort_by_key(|c| c.0);
    let mut best = i32::MIN;
    for (_, child) in &children {
        let v = -guess(child, depth - 1, -beta, -alpha, nodes);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// Height (plies down to the deepest node seen so far) from which nodes order their children
/// by a search of [`SHALLOW_DEPTH`] plies ([`ScoreFeatures::shallow`]). On the positions with
/// 11 placements left heights 7 and 8 did about as well; 6 and 9 took more nodes.
pub const SHALLOW_HEIGHT: u32 = 7;

/// Plies of the ordering search of [`ScoreFeatures::shallow`] below each child (1 and 3 took
/// more time on the positions with 11 placements left).
pub const SHALLOW_DEPTH: u32 = 2;

impl Default for ScoreFeatures {
    fn default() -> Self {
        ScoreFeatures {
            etc: true,
            history: true,
            symmetry: false,
            mtdf: true,
            shallow: true,
            killer: true,
            guess: true,
            eager: true,
            defer: true,
        }
    }
}

impl ScoreFeatures {
    /// Every refinement off: the plain search of the first version.
    pub const NONE: ScoreFeatures = ScoreFeatures {
        etc: false,
        history: false,
        symmetry: false,
        mtdf: false,
        shallow: false,
        killer: false,
        guess: false,
        eager: false,
        defer: false,
    };
}

/// Fail-soft alpha-beta over scores with a table, on one or several threads; see the
/// [module docs](self).
///
/// With `threads > 1` every thread runs null-window tests of the root on the one shared table.
/// Before the first result they test the guess and its nearest neighbours side by side (the
/// guess is usually within a point, so "score >= s" and "score >= s + 1", the two tests that
/// close the interval, are often among them); after it, a thread takes the test the sequential
/// search would run next, and if another thread is already running it, joins that test in its
/// own move order (Lazy SMP). A test whose
/// threshold another result has already decided is abandoned. Each result narrows the interval
/// by its fail-soft value, and the table's bounds hold whatever the window, so every thread
/// profits from the others' entries. The score is the one of one thread.
pub struct AlphaBetaScore {
    tt: TranspositionTable<ScoreEntry>,
    threads: usize,
    features: ScoreFeatures,
    /// [`SolverOptions::helper_join`].
    helper_join: u64,
    /// Built by the first parallel solve.
    pool: Option<rayon::ThreadPool>,
}

impl std::fmt::Debug for AlphaBetaScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaScore")
            .field("slots", &self.tt.capacity())
            .field("threads", &self.threads)
            .field("features", &self.features)
            .finish_non_exhaustive()
    }
}

impl AlphaBetaScore {
    /// A solver with `options.threads` threads and an `options.tt_mib` MiB table.
    pub fn new(options: &SolverOptions) -> Self {
        AlphaBetaScore {
            tt: TranspositionTable::new(options.tt_mib),
            threads: options.threads.max(1),
            features: ScoreFeatures::default(),
            helper_join: options.helper_join,
            pool: None,
        }
    }

    /// The same solver with the refinements `features` (to measure what each gives).
    #[must_use]
    pub fn with_features(mut self, features: ScoreFeatures) -> Self {
        self.features = features;
        self
    }
}

/// The root interval and the tests running on it, shared by the threads of one solve.
struct Interval {
    /// The score is in `lo..=hi`.
    lo: i32,
    hi: i32,
    /// Index of a root move achieving at least `lo` (`None` while `lo` is the trivial bound).
    best: Option<u8>,
    /// Test results recorded so far.
    results: u32,
    /// Whether the last result raised `lo` (it lowered `hi` otherwise).
    last_high: bool,
    /// The threshold each thread is testing.
    testing: Vec<Option<i32>>,
}

impl Interval {
    /// The next threshold `t` (the test "score >= t") for a thread, or `None` once the score
    /// is known.
    fn choose(&mut self, estimate: i32, mtdf: bool) -> Option<i32> {
        let (lo, hi) = (self.lo, self.hi);
        if lo >= hi {
            return None;
        }
        // Before the first result every thread tests near the estimate (the first the
        // estimate itself, the others its neighbours), not at the far ends of the interval.
        let guess = if self.results == 0 {
            estimate
        } else if mtdf {
            if self.last_high { lo + 1 } else { hi }
        } else {
            lo + (hi - lo + 1) / 2
        }
        .clamp(lo + 1, hi);
        let taken = |t: i32| self.testing.contains(&Some(t));
        if self.results > 0 && taken(guess) {
            // The next test of the sequential search is running: join it (in this thread's own
            // move order) rather than start a farther one, which the fail-soft values seldom
            // make useful.
            return Some(guess);
        }
        // Lower thresholds first: a test the score passes ("score >= t" true) is usually far
        // cheaper than one it fails, so a wasted guess below costs little; and the first guess
        // was more often above the score than below it (4 and 1 of 10 positions with 12
        // placements left).
        for step in 0..=hi - lo {
            for t in [guess - step, guess + step] {
                if lo < t && t <= hi && !taken(t) {
                    return Some(t);
                }
            }
        }
        Some(guess)
    }

    /// Takes in the fail-soft value `v` of the test `t` and the root move index it found.
    fn record(&mut self, t: i32, v: i32, move_index: u8) {
        self.results += 1;
        if v >= t {
            self.last_high = true;
            if v > self.lo {
                self.lo = v;
                self.best = Some(move_index);
            }
        } else {
            self.last_high = false;
            self.hi = self.hi.min(v);
        }
        debug_assert!(self.lo <= self.hi, "inconsistent bounds {} > {}", self.lo, self.hi);
    }
}

/// What the threads of one solve share besides the table.
struct Shared {
    interval: Mutex<Interval>,
    /// Copies of the interval's ends, read by running tests to see whether they still matter.
    lo: AtomicI32,
    hi: AtomicI32,
    /// Nodes of all threads, as last reported.
    nodes: AtomicU64,
    /// A limit was reached: every thread stops.
    stop: AtomicBool,
    threads: usize,
    /// Keys of positions some thread is searching, by slot.
    busy: Vec<AtomicU64>,
}

/// Slots of [`Shared::busy`] (a power of two).
const BUSY_SLOTS: usize = 1 << 12;
/// Mixes the threshold of a test into its [`Shared::busy`] marks.
const BUSY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

impl Shared {
    /// Whether another thread is searching the position of key `key`.
    fn is_busy(&self, key: u64) -> bool {
        self.busy[key as usize & (BUSY_SLOTS - 1)].load(Ordering::Relaxed) == key
    }

    /// Marks the position of `key` as being searched.
    fn set_busy(&self, key: u64) {
        self.busy[key as usize & (BUSY_SLOTS - 1)].store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key` (if no other position took its slot since).
    fn clear_busy(&self, key: u64) {
        let _ = self.busy[key as usize & (BUSY_SLOTS - 1)].compare_exchange(
            key,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Whether the test "score >= t" is still undecided.
    fn open(&self, t: i32) -> bool {
        self.lo.load(Ordering::Relaxed) < t && t <= self.hi.load(Ordering::Relaxed)
    }
}

/// A not finished child in a node's buffer.
struct Child<G> {
    /// Order key: the table's move first, then lower [`Scored::order_estimate`]s.
    order: i32,
    /// History score (larger first among equal `order`).
    history: u32,
    /// Tie-break (the move index, or a per-thread scramble of it for helpers).
    tie: u32,
    /// Index of the move in the generated list.
    index: u8,
    pos: G,
}

/// One thread's search.
struct Worker<'a, G: Game> {
    tt: &'a TranspositionTable<ScoreEntry>,
    shared: &'a Shared,
    limits: &'a Limits,
    features: ScoreFeatures,
    start: Instant,
    stats: Stats,
    /// Nodes already added to [`Shared::nodes`].
    counted: u64,
    /// The current test must end (a limit, or its threshold is decided).
    stopped: bool,
    /// The threshold of the current test.
    threshold: i32,
    /// Scramble of the move order's ties (0 for the first thread).
    salt: u32,
    /// Per ply: whether the last node expanded there had only finished children, and a child
    /// buffer reused from node to node.
    buffers: Vec<(bool, Vec<Child<G>>)>,
    /// Cutoff counts per (side parity, move slot).
    history: Vec<u32>,
    /// Per ply: the last two distinct moves that cut a node off there, newest first
    /// ([`ScoreFeatures::killer`]).
    killers: Vec<[Option<G::Move>; 2]>,
    /// Each root test is logged on standard error (`BITSOLVE_SCORE_LOG` set).
    log: bool,
}

/// A cheap hasher for a move's history slot.
struct SlotHasher(u64);

impl std::hash::Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// Takes the value `v` of the child with move index `index` into a node's best value and
/// move and its `alpha`; returns whether it cuts the node off (`v >= beta`).
#[inline]
fn raise(best: &mut (i32, u8), alpha: &mut i32, beta: i32, v: i32, index: u8) -> bool {
    if v <= best.0 {
        return false;
    }
    *best = (v, index);
    *alpha = (*alpha).max(v);
    v >= beta
}

/// The history slot of `mv` for the mover at `ply`.
fn history_slot<M: std::hash::Hash>(mv: &M, ply: u32) -> usize {
    let mut h = SlotHasher(0x243F_6A88_85A3_08D3);
    mv.hash(&mut h);
    let slot = (std::hash::Hasher::finish(&h) >> (64 - HISTORY_BITS)) as usize;
    slot | (ply as usize & 1) << HISTORY_BITS
}

impl<'a, G: Scored> Worker<'a, G> {
    fn new(
        tt: &'a TranspositionTable<ScoreEntry>,
        shared: &'a Shared,
        limits: &'a Limits,
        features: ScoreFeatures,
        start: Instant,
        id: usize,
        log: bool,
    ) -> Self {
        Worker {
            tt,
            shared,
            limits,
            features,
            start,
            stats: Stats::default(),
            counted: 0,
            stopped: false,
            threshold: 0,
            salt: (id as u32).wrapping_mul(0x9E37_79B9),
            buffers: Vec::new(),
            history: vec![0; 2 << HISTORY_BITS],
            killers: Vec::new(),
            log,
        }
    }

    /// The table key of `pos`.
    #[inline]
    fn key(&self, pos: &G) -> u64 {
        if self.features.symmetry { pos.canonical_hash() } else { pos.hash() }
    }

    /// Every [`CHECK_INTERVAL`] nodes: reports the nodes, looks at the limits and (with
    /// threads) at whether the current test is still undecided.
    fn check(&mut self) {
        let fresh = self.stats.nodes - self.counted;
        if fresh < CHECK_INTERVAL {
            return;
        }
        self.counted = self.stats.nodes;
        let total = self.shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
        if self.shared.stop.load(Ordering::Relaxed) || self.limits.is_exceeded(total, self.start) {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        } else if self.shared.threads > 1 && !self.shared.open(self.threshold) {
            self.stopped = true;
        }
    }

    /// Records `mv` as the newest killer of ply `p`.
    fn note_killer(&mut self, p: usize, mv: G::Move) {
        let k = &mut self.killers[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Records that `mv` cut off a node at `ply` (index `p`) after its search grew the node
    /// count from `before`: the newest killer there, and (with history) the work in its slot.
    fn note_cutoff(&mut self, p: usize, ply: u32, mv: G::Move, before: u64) {
        self.note_killer(p, mv);
        if self.features.history {
            let slot = history_slot(&mv, ply);
            let work = (self.stats.nodes - before).min(u64::from(u32::MAX));
            self.history[slot] = self.history[slot].saturating_add(work as u32);
        }
    }

    /// Fail-soft negamax: a value `v` with `v <= alpha` an upper bound, `v >= beta` a lower
    /// bound, else exact. Returns the best move index too; `None` when stopped.
    ///
    /// Children are played once, the ply's killer move first, then in generation order: a
    /// finished child is scored at once (and may cut the node off before the rest are even
    /// played); the others are looked up in the table (enhanced transposition cutoffs), then
    /// searched, the table's move first, then by lowest [`Scored::order_estimate`], then the
    /// killer, then by history. A node whose children all finished the game is cheap to redo
    /// and is neither stored nor, at the same ply later, looked up (in games where every line
    /// at a ply has the same length, such as Gauss, that removes the whole last layer from the
    /// table); at such a ply the children are scored with [`Scored::final_score_after`],
    /// without building them.
    #[allow(clippy::too_many_lines, reason = "one node: probe, children, ETC, search, store")]
    fn node(&mut self, pos: &G, mut alpha: i32, mut beta: i32, ply: u32) -> Option<(i32, u8)> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if let Some(s) = pos.final_score() {
            return Some((s, NO_MOVE));
        }
        self.check();
        if self.stopped {
            return None;
        }
        let p = ply as usize;
        if self.buffers.len() <= p + 1 {
            self.buffers.resize_with(p + 2, || (false, Vec::new()));
            self.killers.resize(p + 2, [None; 2]);
        }
        let bound = G::SCORE_BOUND;
        let (mut lower, mut upper, mut tt_move) = (-bound, bound, NO_MOVE);
        let probe = !self.buffers[p].0;
        let key = if probe { self.key(pos) } else { 0 };
        if probe && let Some(e) = self.tt.probe(key, &mut self.stats.tt) {
            (lower, upper, tt_move) = (i32::from(e.lower), i32::from(e.upper), e.move_index);
            // At the root the move must be one of this position's (a symmetric image stored
            // under the same key numbers its moves differently) and proven by this search: no
            // early return and no narrowed window there (a bound from another thread could
            // invert the window, and a child's upper bound would then pass for a lower one).
            if ply > 0 {
                if lower >= beta || lower == upper {
                    return Some((lower, tt_move));
                }
                if upper <= alpha {
                    return Some((upper, tt_move));
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let nodes_before = self.stats.nodes;
        let alpha0 = alpha;
        let mut best = (i32::MIN, NO_MOVE);
        let mut children = std::mem::take(&mut self.buffers[p].1);
        children.clear();
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let shallow = self.features.shallow && ply + SHALLOW_HEIGHT <= self.stats.max_depth + 1;
        let (killer, killer2) = if self.features.killer {
            let find = |k: Option<G::Move>| k.and_then(|k| moves.iter().position(|&m| m == k));
            (find(self.killers[p][0]), find(self.killers[p][1]))
        } else {
            (None, None)
        };
        let n = moves.len();
        let eager = self.features.eager;
        let tt_first = (eager && usize::from(tt_move) < n).then_some(usize::from(tt_move));
        // Whether the children's children all end the game (as far as the last node at the
        // next ply showed): then the killers are searched as soon as they are built.
        let eager_killers = eager && self.buffers[p + 1].0;
        // Play order: the table's move (with `eager`), the killers, then the rest in
        // generation order.
        let mut play_order: arrayvec::ArrayVec<u8, 64> = arrayvec::ArrayVec::new();
        let mut first = 0u64;
        for k in [tt_first, killer, killer2].into_iter().flatten() {
            if first >> k & 1 == 0 {
                first |= 1 << k;
                play_order.push(k as u8);
            }
        }
        for i in 0..n {
            if first >> i & 1 == 0 {
                play_order.push(i as u8);
            }
        }
        let mut unfinished = false;
        let leafy = self.buffers[p].0;
        for &i in &play_order {
            let i = usize::from(i);
            let mv = moves[i];
            // Where the children are expected to finish the game, each is scored without
            // building it; the others are built once.
            let mut built = None;
            let finished = if leafy { pos.final_score_after(mv) } else { None };
            let finished = finished.or_else(|| {
                let mut child = pos.clone();
                child.play(mv);
                let s = child.final_score();
                built = Some(child);
                s
            });
            if let Some(s) = finished {
                self.stats.nodes += 1;
                if raise(&mut best, &mut alpha, beta, -s, i as u8) {
                    self.note_killer(p, mv);
                    break;
                }
            } else {
                unfinished = true;
                let child = built.expect("an unfinished child was built");
                if Some(i) == tt_first
                    || (eager_killers && (Some(i) == killer || Some(i) == killer2))
                {
                    // Searched at once: if it cuts the node off, the other children are
                    // never played.
                    let before = self.stats.nodes;
                    let Some((v, _)) = self.node(&child, -beta, -alpha, ply + 1) else {
                        self.buffers[p].1 = children;
                        return None;
                    };
                    if raise(&mut best, &mut alpha, beta, -v, i as u8) {
                        self.note_cutoff(p, ply, mv, before);
                        break;
                    }
                    continue;
                }
                let order = if i == usize::from(tt_move) {
                    i32::MIN
                } else if shallow {
                    let mut guess_nodes = 0;
                    let bound = G::SCORE_BOUND + 1;
                    let v = guess(&child, SHALLOW_DEPTH, -bound, bound, &mut guess_nodes);
                    self.stats.nodes += guess_nodes;
                    v
                } else {
                    child.order_estimate()
                };
                let history = if Some(i) == killer {
                    u32::MAX
                } else if Some(i) == killer2 {
                    u32::MAX - 1
                } else if self.features.history {
                    self.history[history_slot(&mv, ply)]
                } else {
                    0
                };
                let tie = (i as u32).wrapping_mul(0x2545_F491) ^ self.salt;
                let tie = if self.salt == 0 { i as u32 } else { tie };
                children.push(Child { order, history, tie, index: i as u8, pos: child });
            }
        }
        let all_finished = !unfinished;
        self.buffers[p].0 = all_finished;
        if best.0 < beta && self.features.etc && !all_finished && !self.buffers[p + 1].0 {
            for c in &children {
                let Some(e) = self.tt.probe(self.key(&c.pos), &mut self.stats.tt) else {
                    continue;
                };
                // The child is worth at most its upper bound to its mover: at least the
                // negation to this node's mover.
                let v = -i32::from(e.upper);
                if v > best.0 {
                    best = (v, c.index);
                    alpha = alpha.max(v);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best.0 < beta {
            // With threads, a child another thread is searching waits until the others are
            // done (ABDADA's exclusive search), once this node has a value from some child.
            let defer = self.features.defer
                && self.shared.threads > 1
                && ply + DEFER_HEIGHT <= self.stats.max_depth;
            let mut deferred: arrayvec::ArrayVec<u8, 64> = arrayvec::ArrayVec::new();
            let mut searched = best.0 != i32::MIN;
            let key = |c: &Child<G>| (c.order, std::cmp::Reverse(c.history), c.tie);
            let mut cut = false;
            for k in 0..children.len() {
                // Selection rather than a full sort: most nodes stop after a child or two.
                let mut first = k;
                for j in k + 1..children.len() {
                    if key(&children[j]) < key(&children[first]) {
                        first = j;
                    }
                }
                children.swap(k, first);
                let c = &children[k];
                let mark = if defer && searched && !deferred.is_full() {
                    // Marked per test: a thread testing another threshold does not wait.
                    let ck = self.key(&c.pos) ^ (self.threshold as u64).wrapping_mul(BUSY_SALT);
                    if self.shared.is_busy(ck) {
                        deferred.push(k as u8);
                        continue;
                    }
                    self.shared.set_busy(ck);
                    Some(ck)
                } else {
                    None
                };
                searched = true;
                let before = self.stats.nodes;
                let result = self.node(&c.pos, -beta, -alpha, ply + 1);
                if let Some(ck) = mark {
                    self.shared.clear_busy(ck);
                }
                let Some((v, _)) = result else {
                    self.buffers[p].1 = children;
                    return None;
                };
                if raise(&mut best, &mut alpha, beta, -v, c.index) {
                    self.note_cutoff(p, ply, moves[usize::from(c.index)], before);
                    cut = true;
                    break;
                }
            }
            if !cut {
                for &k in &deferred {
                    let c = &children[usize::from(k)];
                    let before = self.stats.nodes;
                    let Some((v, _)) = self.node(&c.pos, -beta, -alpha, ply + 1) else {
                        self.buffers[p].1 = children;
                        return None;
                    };
                    if raise(&mut best, &mut alpha, beta, -v, c.index) {
                        self.note_cutoff(p, ply, moves[usize::from(c.index)], before);
                        break;
                    }
                }
            }
        }
        self.buffers[p].1 = children;
        if all_finished && !probe {
            return Some(best);
        }
        if best.0 >= beta {
            lower = lower.max(best.0);
        } else if best.0 <= alpha0 {
            upper = upper.min(best.0);
        } else {
            (lower, upper) = (best.0, best.0);
        }
        let work = (self.stats.nodes - nodes_before).max(1).ilog2() as u8;
        let entry =
            ScoreEntry { lower: lower as i16, upper: upper as i16, move_index: best.1, work };
        self.tt.store(key, entry, &mut self.stats.tt);
        Some(best)
    }

    /// Runs root tests until the score is known or the search must stop; returns this
    /// thread's statistics.
    fn run(&mut self, root: &G, estimate: i32, id: usize) -> Stats {
        loop {
            let t = {
                let mut interval = self.shared.interval.lock().expect("no thread panicked");
                let Some(t) = interval.choose(estimate, self.features.mtdf) else { break };
                interval.testing[id] = Some(t);
                t
            };
            self.threshold = t;
            self.stopped = false;
            let before = self.stats.nodes;
            let result = self.node(root, t - 1, t, 0);
            let mut interval = self.shared.interval.lock().expect("no thread panicked");
            interval.testing[id] = None;
            if self.log {
                let v = result.map_or_else(|| "stopped".to_string(), |(v, _)| v.to_string());
                eprintln!(
                    "score test t{id}: score >= {t}: value {v}, {} nodes, at {:.3} s",
                    self.stats.nodes - before,
                    self.start.elapsed().as_secs_f64()
                );
            }
            match result {
                Some((v, i)) => {
                    interval.record(t, v, i);
                    self.shared.lo.store(interval.lo, Ordering::Relaxed);
                    self.shared.hi.store(interval.hi, Ordering::Relaxed);
                }
                None if self.shared.stop.load(Ordering::Relaxed) => break,
                None => {}
            }
        }
        self.stats
    }
}

impl<G: Scored> ScoreSolver<G> for AlphaBetaScore {
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        self.tt.clear();
        debug_assert!(G::ACYCLIC, "score solvers need a game without cycles");
        if let Some(s) = root.final_score() {
            let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
            return ScoreReport { score: Some(s), best_move: None, stats };
        }
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let bound = G::SCORE_BOUND;
        let threads = self.threads;
        let shared = Shared {
            interval: Mutex::new(Interval {
                lo: -bound,
                hi: bound,
                best: None,
                results: 0,
                last_high: false,
                testing: vec![None; threads],
            }),
            lo: AtomicI32::new(-bound),
            hi: AtomicI32::new(bound),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            threads,
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        };
        let mut guess_nodes = 0;
        let estimate = if self.features.guess {
            guess(root, guess_depth(root), -bound - 1, bound + 1, &mut guess_nodes)
                .clamp(-bound, bound)
        } else {
            root.score_estimate()
        };
        shared.nodes.store(guess_nodes, Ordering::Relaxed);
        let log = std::env::var_os("BITSOLVE_SCORE_LOG").is_some();
        if log {
            eprintln!("score guess {estimate} ({guess_nodes} nodes)");
        }
        let (tt, features) = (&self.tt, self.features);
        let run = |id: usize| {
            let done = || {
                shared.stop.load(Ordering::Relaxed)
                    || shared.lo.load(Ordering::Relaxed) >= shared.hi.load(Ordering::Relaxed)
            };
            if !super::wait_to_join(id, self.helper_join, &shared.nodes, done) {
                return Stats::default();
            }
            Worker::<G>::new(tt, &shared, limits, features, start, id, log).run(root, estimate, id)
        };
        let outputs = if threads == 1 {
            vec![run(0)]
        } else {
            let pool = self.pool.get_or_insert_with(|| super::thread_pool(threads));
            pool.broadcast(|context| run(context.index()))
        };
        let mut stats = Stats { nodes: guess_nodes, ..Stats::default() };
        for s in &outputs {
            stats.absorb(s);
        }
        stats.elapsed = start.elapsed();
        let interval = shared.interval.into_inner().expect("no thread panicked");
        let score = (interval.lo >= interval.hi).then_some(interval.lo);
        // With `lo` the trivial bound every move achieves it.
        let best = interval.best.map_or(Some(0), |i| Some(usize::from(i)));
        let best_move = score.and(best.and_then(|i| moves.get(i).copied()));
        ScoreReport { score, best_move, stats }
    }
}

/// The wrapper game that turns "is the final score at least `t`?" into a win/loss question.
///
/// It plays exactly like the wrapped game; once that is over, the mover at the root (the side
/// to move when [`Threshold::new`] was called) wins if its final score is at least the
/// threshold, and loses otherwise. Turns must alternate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threshold<G> {
    inner: G,
    at_least: i32,
    /// Whether the side to move is the root's opponent.
    flipped: bool,
}

/// Hash key of [`Threshold::flipped`].
const FLIPPED_KEY: u64 = 0x5EED_F11B_7A11_0001;

impl<G: Scored> Threshold<G> {
    /// The question "does the side to move of `inner` score at least `threshold`?".
    pub fn new(inner: G, threshold: i32) -> Self {
        Threshold { inner, at_least: threshold, flipped: false }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

impl<G: Scored> Game for Threshold<G> {
    type Move = G::Move;
    type Moves = G::Moves;
    const ACYCLIC: bool = G::ACYCLIC;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.inner.generate_moves(moves);
    }

    fn play(&mut self, mv: Self::Move) {
        self.inner.play(mv);
        self.flipped = !self.flipped;
    }

    fn outcome(&self) -> Option<Outcome> {
        let score = self.inner.final_score()?;
        let root_score = if self.flipped { -score } else { score };
        let root_wins = root_score >= self.at_least;
        Some(if root_wins == self.flipped { Outcome::Loss } else { Outcome::Win })
    }

    fn hash(&self) -> u64 {
        self.inner.hash() ^ if self.flipped { FLIPPED_KEY } else { 0 }
    }

    fn reversible_plies(&self) -> Option<u32> {
        self.inner.reversible_plies()
    }
}

/// Bisection over thresholds, each decided by a win/loss solver on [`Threshold`].
pub struct BisectionScore {
    kind: SolverKind,
    options: SolverOptions,
}

impl std::fmt::Debug for BisectionScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BisectionScore").field("kind", &self.kind).finish_non_exhaustive()
    }
}

impl BisectionScore {
    /// Thresholds decided by solver `kind` built with `options`.
    pub fn new(kind: SolverKind, options: &SolverOptions) -> Self {
        BisectionScore { kind, options: *options }
    }
}

impl<G: Scored> ScoreSolver<G> for BisectionScore {
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        let mut stats = Stats::default();
        if let Some(s) = root.final_score() {
            stats.elapsed = start.elapsed();
            return ScoreReport { score: Some(s), best_move: None, stats };
        }
        let mut solver = make_solver::<Threshold<G>>(self.kind, &self.options);
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let (mut lo, mut hi) = (-G::SCORE_BOUND, G::SCORE_BOUND);
        let mut best_move = moves.first().copied();
        let mut t = root.score_estimate().clamp(lo + 1, hi);
        let budget = limits.time;
        let mut limits = limits.clone();
        limits.time = budget.map(|t| t.saturating_sub(start.elapsed()));
        while lo < hi {
            let report = solver.solve(&Threshold::new(root.clone(), t), &limits);
            stats.absorb(&report.stats);
            match report.outcome {
                Some(Outcome::Win) => {
                    lo = t;
                    best_move = report.best_move;
                }
                Some(_) => hi = t - 1,
                None => break,
            }
            if let Some(n) = limits.nodes.as_mut() {
                *n = n.saturating_sub(report.stats.nodes);
            }
            // Whole-solve wall time, table set-up between thresholds included.
            limits.time = budget.map(|t| t.saturating_sub(start.elapsed()));
            t = lo + (hi - lo + 1) / 2;
        }
        stats.elapsed = start.elapsed();
        let score = (lo == hi).then_some(lo);
        ScoreReport { score, best_move: score.and(best_move), stats }
    }
}
