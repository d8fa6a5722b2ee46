//! Plain negamax without pruning or table: the oracle every other solver is tested against.
//!
//! It states what every solver must compute: the exact [`Value`] of the root, where a position
//! repeating one on the path is a draw. Exponential; meant for small positions.

use std::time::Instant;

use super::history::History;
use super::{Limits, Report, Solver, Stats, Value};
use crate::game::Game;

/// The brute-force solver.
#[derive(Clone, Debug, Default)]
pub struct BruteSolver {
    history: History,
    stats: Stats,
    start: Option<Instant>,
    stopped: bool,
}

impl BruteSolver {
    /// A new solver.
    pub fn new() -> Self {
        BruteSolver::default()
    }

    /// Exact value of `pos` at `ply` below the root; `None` if a limit stopped the search.
    fn negamax<G: Game>(&mut self, pos: &G, ply: u32, limits: &Limits) -> Option<Value> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if self.stats.nodes.is_multiple_of(4096)
            && limits.is_exceeded(self.stats.nodes, self.start.unwrap_or_else(Instant::now))
        {
            self.stopped = true;
        }
        if self.stopped {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            return Some(Value::terminal(outcome));
        }
        if self.history.repeats(pos) {
            return Some(Value::Draw);
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        self.history.push(pos.hash());
        let mut best: Option<Value> = None;
        for &mv in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let Some(v) = self.negamax(&child, ply + 1, limits) else {
                self.history.pop();
                return None;
            };
            best = Some(best.map_or(v.parent(), |b| b.max(v.parent())));
        }
        self.history.pop();
        best
    }
}

impl<G: Game> Solver<G> for BruteSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        *self = BruteSolver { start: Some(start), ..BruteSolver::default() };
        let mut best: Option<(Value, G::Move)> = None;
        let mut value = root.outcome().map(Value::terminal);
        if value.is_none() {
            let mut moves = G::Moves::default();
            root.generate_moves(&mut moves);
            self.stats.nodes += 1;
            self.history.push(root.hash());
            for &mv in moves.iter() {
                let mut child = root.clone();
                child.play(mv);
                let Some(v) = self.negamax(&child, 1, limits) else { break };
                if best.is_none_or(|(b, _)| v.parent() > b) {
                    best = Some((v.parent(), mv));
                }
            }
            value = best.map(|(v, _)| v);
        }
        self.stats.elapsed = start.elapsed();
        if self.stopped {
            return Report::unknown(self.stats);
        }
        let value = value.expect("a position that is not over has a move");
        Report::solved(value.outcome(), value.plies(), best.map(|(_, m)| m), self.stats)
    }
}
