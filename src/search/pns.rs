//! Placeholder: replaced by the real solver.

use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::Game;

/// Placeholder.
#[derive(Debug)]
pub struct PnsSolver;

impl PnsSolver {
    /// Placeholder.
    pub fn new(_options: &SolverOptions) -> Self {
        PnsSolver
    }
}

impl<G: Game> Solver<G> for PnsSolver {
    fn solve(&mut self, _root: &G, _limits: &Limits) -> Report<G::Move> {
        Report::unknown(Stats::default())
    }
}
