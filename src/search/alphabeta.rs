//! Placeholder: replaced by the real solver.

use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::Game;

/// Placeholder.
#[derive(Debug)]
pub struct AlphaBetaSolver;

impl AlphaBetaSolver {
    /// Placeholder.
    pub fn new(_options: &SolverOptions) -> Self {
        AlphaBetaSolver
    }
}

impl<G: Game> Solver<G> for AlphaBetaSolver {
    fn solve(&mut self, _root: &G, _limits: &Limits) -> Report<G::Move> {
        Report::unknown(Stats::default())
    }
}
