//! Placeholder: replaced by the real solver.

use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::Game;

/// Placeholder.
#[derive(Debug)]
pub struct DfpnSolver;

impl DfpnSolver {
    /// Placeholder.
    pub fn new(_options: &SolverOptions) -> Self {
        DfpnSolver
    }
}

impl<G: Game> Solver<G> for DfpnSolver {
    fn solve(&mut self, _root: &G, _limits: &Limits) -> Report<G::Move> {
        Report::unknown(Stats::default())
    }
}
