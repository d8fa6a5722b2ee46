//! Move choice for the geography client: exact when it can be, heuristic otherwise.
//!
//! Per move, within the budget: a move that a reduction proves winning is played at once; then
//! df-pn gets a share of the budget to prove the position (a proven win plays its winning move);
//! otherwise the playing engine ([`Engine`]) searches with the game's evaluation (mobility, odd
//! vertices near the token, forced-chain parity) for the rest. The budget is a hard bound: every
//! stage is given an absolute deadline well inside it.

use std::time::{Duration, Instant};

use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Limits, Outcome, Solver, SolverKind, SolverOptions, make_solver};

/// How a client picks its moves.
pub enum Strategy {
    /// The exact solver plus the engine, within a time budget per move.
    Engine(Box<EnginePlayer>),
    /// A uniformly random legal move (for tests and tournaments).
    Random(KeyStream),
}

impl Strategy {
    /// The move to play in `pos`, or `None` if it has no legal move.
    pub fn choose(&mut self, pos: &Geography) -> Option<u8> {
        match self {
            Strategy::Engine(p) => p.choose(pos),
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

/// The exact-then-heuristic player.
pub struct EnginePlayer {
    budget: Duration,
    solver: Box<dyn Solver<Geography>>,
    engine: Engine<Geography>,
}

impl EnginePlayer {
    /// A player that never thinks longer than `budget` per move.
    pub fn new(budget: Duration) -> Self {
        let options = SolverOptions { tt_mib: 16, ..SolverOptions::default() };
        EnginePlayer {
            budget,
            solver: make_solver::<Geography>(SolverKind::Dfpn, &options),
            engine: Engine::new(&EngineOptions::default()),
        }
    }

    /// The move to play in `pos`, or `None` if it has no legal move.
    pub fn choose(&mut self, pos: &Geography) -> Option<u8> {
        let start = Instant::now();
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        let first = *moves.first()?;
        if moves.len() == 1 {
            return Some(first);
        }
        if let Some(mv) = pos.decisive_move() {
            return Some(mv);
        }
        let exact = Limits { time: Some(self.budget.mul_f64(0.4)), ..Limits::default() };
        let report = self.solver.solve(pos, &exact);
        if report.outcome == Some(Outcome::Win)
            && let Some(mv) = report.best_move
        {
            return Some(mv);
        }
        let left = self.budget.saturating_sub(start.elapsed());
        let limits = SearchLimits {
            soft_time: Some(left.mul_f64(0.4)),
            hard_time: Some(left.mul_f64(0.9)),
            ..SearchLimits::default()
        };
        let result = self.engine.search(pos, &[], &limits, &mut |_| {});
        Some(result.best_move.unwrap_or(first))
    }
}
