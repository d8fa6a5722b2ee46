//! The `auto` solver: df-pn for wins and losses, retrograde analysis for draws, in rounds.
//!
//! df-pn proves a win or a loss with few nodes, but a draw only when both of its boolean
//! searches fail, and in games with cycles those failures rest on repetitions along the path,
//! which the table cannot keep as facts: a draw with a thousand reachable positions can cost
//! df-pn (and alpha-beta) millions of nodes (GIPF S=2, K=3, 7+7, `2 3 7 7/3 3 W/_B/WWB/W_`:
//! 1,083 positions, retro answers in about a millisecond, df-pn had no answer after 20 s).
//! Retrograde analysis ([`super::retro`]) is exact on draws but must hold every reachable
//! position. Neither cost is known in advance, so the rounds interleave them with budgets that
//! grow fourfold: round r runs df-pn with `DFPN_NODES << 2r` nodes, then retro capped at
//! `RETRO_POSITIONS << 2r` positions (while the game has [`Game::exact_key`] and the cap is at
//! most the caller's node limit or [`DEFAULT_MAX_POSITIONS`]). The first exact answer ends
//! the solve. Work thrown away by a failed round is at most a third of the last round's, so
//! the solve costs at most a small constant factor more than the faster of the two would have
//! alone. The caller's limits bound the whole solve; the statistics add up every round.

use std::time::Instant;

use super::dfpn::DfpnSolver;
use super::retro::{DEFAULT_MAX_POSITIONS, RetroSolver};
use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::Game;

/// df-pn's node budget in the first round.
pub const DFPN_NODES: u64 = 20_000;
/// Retro's position cap in the first round.
pub const RETRO_POSITIONS: u64 = 50_000;

/// df-pn and retrograde analysis in alternating rounds (see the module docs).
pub struct PortfolioSolver {
    dfpn: DfpnSolver,
    retro: RetroSolver,
}

impl PortfolioSolver {
    /// A solver whose df-pn uses `options` (threads, table, df-pn settings).
    pub fn new(options: &SolverOptions) -> Self {
        PortfolioSolver { dfpn: DfpnSolver::new(options), retro: RetroSolver::quiet() }
    }
}

impl<G: Game> Solver<G> for PortfolioSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let mut stats = Stats::default();
        let node_cap = limits.nodes.unwrap_or(u64::MAX);
        let retro_cap = limits.nodes.map_or(DEFAULT_MAX_POSITIONS as u64, |n| n);
        let mut retro_open = root.exact_key().is_some();
        for round in 0..16u32 {
            let spent = stats.nodes;
            let remaining = |spent: u64| node_cap.saturating_sub(spent);
            let round_limits = |budget: u64, spent: u64| Limits {
                nodes: Some(budget.min(remaining(spent))),
                time: limits.time.map(|t| t.saturating_sub(start.elapsed())),
                stop: limits.stop.clone(),
            };
            // Once retro is out of the race, df-pn gets everything that is left.
            let dfpn_budget =
                if retro_open { DFPN_NODES.saturating_mul(1 << (2 * round)) } else { u64::MAX };
            let last_dfpn = !retro_open || dfpn_budget >= remaining(spent);
            let report =
                Solver::<G>::solve(&mut self.dfpn, root, &round_limits(dfpn_budget, spent));
            stats.absorb(&report.stats);
            if report.outcome.is_some() || last_dfpn || limits.is_exceeded(stats.nodes, start) {
                return finish(report, stats, start);
            }
            if retro_open {
                let cap = RETRO_POSITIONS.saturating_mul(1 << (2 * round));
                let last_retro = cap >= retro_cap;
                let report = self.retro.solve(root, &round_limits(cap.min(retro_cap), stats.nodes));
                stats.nodes += report.stats.nodes;
                stats.max_depth = stats.max_depth.max(report.stats.max_depth);
                if report.outcome.is_some() || limits.is_exceeded(stats.nodes, start) {
                    return finish(report, stats, start);
                }
                retro_open = !last_retro;
            }
        }
        // Round 15's retro cap (over 10^13 positions) is past every position limit.
        finish(Report::unknown(Stats::default()), stats, start)
    }
}

/// `report` with the statistics of every round.
fn finish<M>(mut report: Report<M>, stats: Stats, start: Instant) -> Report<M> {
    report.stats = Stats { elapsed: start.elapsed(), ..stats };
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::games::digraph::Digraph;
    use crate::search::brute::BruteSolver;

    #[test]
    fn agrees_with_brute_force_on_digraphs_with_cycles() {
        let mut draws = 0;
        for seed in 0..600 {
            let g = Digraph::random(3 + (seed % 9) as usize, seed ^ 0x907F);
            let want = BruteSolver::new().solve(&g, &Limits::none()).outcome;
            let options = SolverOptions { tt_mib: 1, ..SolverOptions::default() };
            let got = PortfolioSolver::new(&options).solve(&g, &Limits::none());
            assert_eq!(got.outcome, want, "seed {seed}");
            draws += usize::from(want == Some(Outcome::Draw));
        }
        assert!(draws > 30, "only {draws} draws");
    }

    #[test]
    fn node_limit_bounds_every_round() {
        let g = Digraph::random(12, 5);
        let options = SolverOptions { tt_mib: 1, ..SolverOptions::default() };
        let report = PortfolioSolver::new(&options).solve(&g, &Limits::nodes(3));
        assert!(report.stats.nodes <= 3 + 12, "{}", report.stats.nodes);
    }
}
