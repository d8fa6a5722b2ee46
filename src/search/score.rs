//! Exact final scores of [`Scored`] games: the value is a points difference, not only a result.
//!
//! Three ways to the same number, behind one [`ScoreSolver`] interface:
//!
//! * [`BruteScore`]: plain minimax over final scores, the oracle.
//! * [`AlphaBetaScore`]: fail-soft negamax over scores on the shared lock-free table (entries
//!   hold a lower and an upper bound, valid whatever the window), driven at the root by
//!   null-window tests: the first at the root's [`Scored::score_estimate`], then bisection of
//!   the remaining interval, each test narrowing it by its fail-soft value (MTD(f) and Pons'
//!   null-window bisection). The table survives between tests, so later tests reuse earlier
//!   bounds.
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

/// Nodes between two looks at the limits.
const CHECK_INTERVAL: u64 = 1024;

/// Fail-soft alpha-beta over scores with a table; see the [module docs](self).
pub struct AlphaBetaScore {
    tt: TranspositionTable<ScoreEntry>,
    stats: Stats,
    start: Instant,
    limits: Limits,
    stopped: bool,
}

/// Per ply: whether the last node expanded there had only finished children, and a child
/// buffer `(order key, move index, child)` reused from node to node.
type Buffers<G> = Vec<(bool, Vec<(i32, u8, G)>)>;

impl std::fmt::Debug for AlphaBetaScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaScore")
            .field("slots", &self.tt.capacity())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl AlphaBetaScore {
    /// A solver with an `options.tt_mib` MiB table (sequential: `options.threads` is ignored).
    pub fn new(options: &SolverOptions) -> Self {
        AlphaBetaScore {
            tt: TranspositionTable::new(options.tt_mib),
            stats: Stats::default(),
            start: Instant::now(),
            limits: Limits::none(),
            stopped: false,
        }
    }

    /// Fail-soft negamax: a value `v` with `v <= alpha` an upper bound, `v >= beta` a lower
    /// bound, else exact. Returns the best move index too; `None` when stopped.
    ///
    /// Children are played once, in generation order: a finished child is scored at once (and
    /// may cut the node off before the rest are even played); the others are searched after,
    /// the table's move first, then by lowest [`Scored::score_estimate`]. A node whose children
    /// all finished the game is cheap to redo and is neither stored nor, at the same ply
    /// later, looked up (in games where every line at a ply has the same length, such as
    /// Gauss, that removes the whole last layer from the table).
    fn node<G: Scored>(
        &mut self,
        buffers: &mut Buffers<G>,
        pos: &G,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
    ) -> Option<(i32, u8)> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if let Some(s) = pos.final_score() {
            return Some((s, NO_MOVE));
        }
        if self.stats.nodes.is_multiple_of(CHECK_INTERVAL)
            && self.limits.is_exceeded(self.stats.nodes, self.start)
        {
            self.stopped = true;
        }
        if self.stopped {
            return None;
        }
        let p = ply as usize;
        if buffers.len() <= p {
            buffers.resize_with(p + 1, || (false, Vec::new()));
        }
        let key = pos.hash();
        let bound = G::SCORE_BOUND;
        let (mut lower, mut upper, mut tt_move) = (-bound, bound, NO_MOVE);
        let probe = !buffers[p].0;
        if probe && let Some(e) = self.tt.probe(key, &mut self.stats.tt) {
            (lower, upper, tt_move) = (i32::from(e.lower), i32::from(e.upper), e.move_index);
            if lower >= beta || lower == upper {
                return Some((lower, tt_move));
            }
            if upper <= alpha {
                return Some((upper, tt_move));
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let nodes_before = self.stats.nodes;
        let alpha0 = alpha;
        let mut best = (i32::MIN, NO_MOVE);
        let mut children = std::mem::take(&mut buffers[p].1);
        children.clear();
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            if let Some(s) = child.final_score() {
                self.stats.nodes += 1;
                if -s > best.0 {
                    best = (-s, i as u8);
                    alpha = alpha.max(-s);
                    if -s >= beta {
                        break;
                    }
                }
            } else {
                let order =
                    if i == usize::from(tt_move) { i32::MIN } else { child.score_estimate() };
                children.push((order, i as u8, child));
            }
        }
        let all_finished = children.is_empty();
        buffers[p].0 = all_finished;
        if best.0 < beta {
            children.sort_unstable_by_key(|&(order, i, _)| (order, i));
            for &(_, i, ref child) in &children {
                let Some((v, _)) = self.node(buffers, child, -beta, -alpha, ply + 1) else {
                    buffers[p].1 = children;
                    return None;
                };
                let v = -v;
                if v > best.0 {
                    best = (v, i);
                    alpha = alpha.max(v);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        buffers[p].1 = children;
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
}

impl<G: Scored> ScoreSolver<G> for AlphaBetaScore {
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        self.start = Instant::now();
        self.stats = Stats::default();
        self.stopped = false;
        self.limits = limits.clone();
        self.tt.clear();
        debug_assert!(G::ACYCLIC, "score solvers need a game without cycles");
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let bound = G::SCORE_BOUND;
        let (mut lo, mut hi) = (-bound, bound);
        let mut best_move = moves.first().copied();
        let mut guess = root.score_estimate().clamp(lo + 1, hi);
        let mut result = None;
        let mut buffers = Buffers::<G>::new();
        if let Some(s) = root.final_score() {
            result = Some(s);
            best_move = None;
        }
        while result.is_none() {
            // Test "score >= t" with the null window (t - 1, t).
            let t = guess.clamp(lo + 1, hi);
            let Some((v, i)) = self.node(&mut buffers, root, t - 1, t, 0) else { break };
            if v >= t {
                lo = v;
                best_move = Some(moves[usize::from(i)]);
            } else {
                hi = v;
            }
            if lo >= hi {
                result = Some(lo);
            }
            guess = lo + (hi - lo + 1) / 2;
        }
        self.stats.elapsed = self.start.elapsed();
        ScoreReport { score: result, best_move: result.and(best_move), stats: self.stats }
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
