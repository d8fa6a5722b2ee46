//! Move choice for the geography clients: the contest player, a plain alpha-beta opponent and a
//! random one.
//!
//! The contest player ([`EnginePlayer`]), per move, within a budget counted from the moment the
//! server's message arrived (the server's clock starts when it sends, so the budget is a share
//! of the limit, see `mod.rs`):
//! 1. a single legal move, or a move that a reduction proves winning, is played at once;
//! 2. the exact solver (df-pn) is tried only when it is expected to finish in its share of the
//!    budget: when the token's component has at most `reach` edges. `reach` adapts during the
//!    game: a failed attempt lowers it below the size that failed, a fast proof raises it. Once a
//!    position has been proven the solver gets most of the budget (its proofs get cheaper as the
//!    game shrinks): that is the switch from heuristic play to exact play;
//! 3. otherwise, and after a proven loss (the opponent may still err), the playing engine
//!    ([`Engine`]: iterative deepening with the evaluation of `games/geography/eval.rs`:
//!    mobility, odd vertices near the token, forced-chain parity) uses the rest of the budget.
//!
//! Every stage gets an absolute deadline inside the budget, so a move never takes longer than
//! the budget plus the time to stop a search (a few hundred nodes).
//!
//! [`PlainPlayer`] is the baseline the issue asks for: iterative-deepening plain alpha-beta on
//! the plain rules (no reductions, no table, no solver), evaluating a leaf by mobility alone.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use bitsolve::games::geography::Reductions;
use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};
use bitsolve::search::mate;
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Limits, Outcome, Solver, SolverKind, SolverOptions, make_solver};

/// How a client picks its moves.
pub enum Strategy {
    /// The exact solver plus the engine, within a time budget per move.
    Engine(Box<EnginePlayer>),
    /// Plain iterative-deepening alpha-beta on mobility (a baseline opponent).
    Plain(PlainPlayer),
    /// A uniformly random legal move (for tests and tournaments).
    Random(KeyStream),
}

impl Strategy {
    /// How the last move was chosen (for the client's log), if the strategy says.
    pub fn last_note(&self) -> Option<&str> {
        match self {
            Strategy::Engine(p) => Some(&p.note),
            _ => None,
        }
    }

    /// The move to play in `pos`, or `None` if it has no legal move. `received` is when the
    /// server's message arrived: the budget counts from then.
    pub fn choose(&mut self, pos: &Geography, received: Instant) -> Option<u8> {
        match self {
            Strategy::Engine(p) => p.choose(pos, received),
            Strategy::Plain(p) => p.choose(pos, received),
            Strategy::Random(rng) => {
                let mut moves = <Geography as Game>::Moves::default();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    return None;
                }
                let i = bitsolve::games::geography::generator::below(rng, moves.len() as u64);
                Some(moves[i as usize])
            }
        }
    }
}

/// Number of remaining edges in the token's component (the only ones that can still be used).
fn component_edges(pos: &Geography) -> u32 {
    pos.component().into_iter().map(|v| pos.degree(v as u8)).sum::<u32>() / 2
}

/// The first guess of how many component edges df-pn proves within its share of the budget.
/// Measured on a contest game (`scripts/geography-reach.sh 5 0.06`): with 60 ms positions of
/// 160-170 edges were proven in 3-20 ms and none of 175 or more; with 5 s about 180. The guess
/// is corrected after every attempt.
fn initial_reach(share: Duration) -> u32 {
    match share.as_millis() {
        0..100 => 166,
        100..500 => 172,
        500..2000 => 176,
        _ => 180,
    }
}

/// The exact-then-heuristic player.
pub struct EnginePlayer {
    budget: Duration,
    solver: Box<dyn Solver<Geography>>,
    engine: Engine<Geography>,
    /// Largest component size (edges) at which the solver is tried.
    reach: u32,
    /// Whether the last solver attempt proved its position (then the solver gets more time).
    proven: bool,
    /// How the last move was chosen.
    note: String,
    /// The reductions the solver's positions apply (`None`: those of the position given).
    reductions: Option<Reductions>,
}

impl EnginePlayer {
    /// A player that never thinks longer than `budget` per move.
    pub fn new(budget: Duration) -> Self {
        let options = SolverOptions { tt_mib: 16, ..SolverOptions::default() };
        EnginePlayer {
            budget,
            solver: make_solver::<Geography>(SolverKind::Dfpn, &options),
            engine: Engine::new(&EngineOptions::default()),
            reach: initial_reach(budget / 2),
            proven: false,
            note: String::new(),
            reductions: None,
        }
    }

    /// The same player, solving with the reductions `reductions` (`geography client
    /// --reductions`).
    #[must_use]
    pub fn with_reductions(mut self, reductions: Reductions) -> Self {
        self.reductions = Some(reductions);
        self
    }

    /// The move to play in `pos`, or `None` if it has no legal move; thinks until at most
    /// `start + budget`.
    pub fn choose(&mut self, pos: &Geography, start: Instant) -> Option<u8> {
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let first = *moves.first()?;
        if moves.len() == 1 {
            "only move".clone_into(&mut self.note);
            return Some(first);
        }
        if let Some(mv) = pos.decisive_move() {
            "decisive move".clone_into(&mut self.note);
            return Some(mv);
        }
        let edges = component_edges(pos);
        self.note = format!("{edges} edges, reach {}", self.reach);
        if pos.outcome().is_none() && edges <= self.reach {
            let left = self.budget.saturating_sub(start.elapsed());
            let share = left.mul_f64(if self.proven { 0.85 } else { 0.5 });
            let limits = Limits { time: Some(share), ..Limits::default() };
            let report = match self.reductions {
                Some(r) => self.solver.solve(&pos.clone().with_reductions(r), &limits),
                None => self.solver.solve(pos, &limits),
            };
            let _ = write!(
                self.note,
                ", solver {:?} in {:.1} ms",
                report.outcome,
                report.stats.elapsed.as_secs_f64() * 1000.0
            );
            if let Some(outcome) = report.outcome {
                self.proven = true;
                if report.stats.elapsed < share / 8 {
                    self.reach = self.reach.max(edges + 6);
                }
                if outcome == Outcome::Win
                    && let Some(mv) = report.best_move
                {
                    return Some(mv);
                }
            } else {
                self.proven = false;
                self.reach = self.reach.min(edges.saturating_sub(4));
            }
        }
        // A position a reduction calls lost is not over: play on under the plain rules, where
        // the engine still sees a move that makes the opponent's task hardest.
        let root = if pos.outcome().is_some() { pos.plain() } else { pos.clone() };
        let left = self.budget.saturating_sub(start.elapsed());
        let limits = SearchLimits {
            soft_time: Some(left.mul_f64(0.45)),
            hard_time: Some(left.mul_f64(0.95)),
            ..SearchLimits::default()
        };
        let result = self.engine.search(&root, &[], &limits, &mut |_| {});
        let _ =
            write!(self.note, ", engine depth {} score {}", result.info.depth, result.info.score);
        Some(result.best_move.unwrap_or(first))
    }
}

/// Scores beyond this are proven results (the shared [`mate`] encoding: `WIN - plies`); leaf
/// scores (mobilities) stay far below it.
const PLAIN_LIMIT: i32 = mate::WIN / 2;

/// Iterative-deepening plain alpha-beta (negamax) on the plain rules, leaf score = the mover's
/// mobility (its number of legal moves). No table, no reductions, no solver; the only ordering is
/// the previous iteration's best root move first.
pub struct PlainPlayer {
    budget: Duration,
    /// Depth limit (`None`: deepen until the time runs out).
    depth: Option<u32>,
    nodes: u64,
}

/// The search ran out of time.
struct OutOfTime;

impl PlainPlayer {
    /// A plain player thinking at most `budget` per move, to at most `depth` plies if given.
    pub fn new(budget: Duration, depth: Option<u32>) -> Self {
        PlainPlayer { budget, depth, nodes: 0 }
    }

    /// The move to play in `pos`, or `None` if it has no legal move.
    pub fn choose(&mut self, pos: &Geography, start: Instant) -> Option<u8> {
        let root = pos.plain();
        let mut moves = <Geography as Game>::Moves::default();
        root.generate_moves(&mut moves);
        let mut best = *moves.first()?;
        if moves.len() == 1 {
            return Some(best);
        }
        let deadline = start + self.budget;
        let max_depth = self.depth.unwrap_or(u32::MAX).max(1);
        let mut depth = 1;
        while depth <= max_depth && Instant::now() < deadline {
            // The previous best first.
            if let Some(i) = moves.iter().position(|&m| m == best) {
                moves.swap(0, i);
            }
            let Ok((mv, score)) = self.root(&root, &moves, depth, deadline) else { break };
            best = mv;
            if mate::distance(score, PLAIN_LIMIT).is_some() {
                break; // proven (within the horizon every line ended)
            }
            depth += 1;
        }
        Some(best)
    }

    fn root(
        &mut self,
        pos: &Geography,
        moves: &[u8],
        depth: u32,
        deadline: Instant,
    ) -> Result<(u8, i32), OutOfTime> {
        let (mut alpha, beta) = (-mate::WIN - 1, mate::WIN + 1);
        let mut best = moves[0];
        for &mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.negamax(&child, depth - 1, 1, -beta, -alpha, deadline)?;
            if score > alpha {
                alpha = score;
                best = mv;
            }
        }
        Ok((best, alpha))
    }

    fn negamax(
        &mut self,
        pos: &Geography,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        deadline: Instant,
    ) -> Result<i32, OutOfTime> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(128) && Instant::now() >= deadline {
            return Err(OutOfTime);
        }
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return Ok(mate::loss_in(ply.unsigned_abs()));
        }
        if depth == 0 {
            return Ok(moves.len() as i32);
        }
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, deadline)?;
            if score >= beta {
                return Ok(score);
            }
            alpha = alpha.max(score);
        }
        Ok(alpha)
    }
}
