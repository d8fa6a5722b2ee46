//! The solver factory: [`make_solver`] builds any solver of [`SolverKind`] for any game (the
//! vocabulary of solvers, reports and limits stays in the parent module).

use super::{Solver, SolverKind, SolverOptions};
use super::{alphabeta, brute, dfpn, matching, pns, portfolio, retro};
use crate::game::Game;

/// Builds the solver `kind` with `options`.
pub fn make_solver<G: Game>(kind: SolverKind, options: &SolverOptions) -> Box<dyn Solver<G>> {
    match kind {
        SolverKind::Brute => Box::new(brute::BruteSolver::new()),
        SolverKind::Alphabeta => Box::new(alphabeta::AlphaBetaSolver::new(options)),
        SolverKind::Pns => Box::new(pns::PnsSolver::new(options)),
        SolverKind::Dfpn => Box::new(dfpn::DfpnSolver::new(options)),
        SolverKind::Matching => Box::new(matching::MatchingSolver::new()),
        SolverKind::Retro => Box::new(retro::RetroSolver::new()),
        SolverKind::Auto => Box::new(portfolio::PortfolioSolver::new(options)),
        SolverKind::Table => Box::new(retro::table::TableSolver::new(options.table.clone())),
        SolverKind::Retro2 => Box::new(retro::gipf::Retro2Solver::new(options)),
    }
}
