//! The matching solver: for games that are undirected vertex geography (moves reversible, no
//! position entered twice), the player to move from `v` wins iff every maximum matching of the
//! position graph covers `v` (Fraenkel, Scheinerman and Ullman 1993). Polynomial in the number of
//! positions; the graph comes from [`crate::capability::GraphGame`].
//!
//! A winning move goes along the edge of a maximum matching; from a lost position any move is
//! as good as another. The solver knows results only, not distances.

use std::time::Instant;

use super::{Limits, Report, Solver, Stats, Unknown};
use crate::game::{Game, Outcome};
use crate::graph::PositionGraph;
use crate::graph::matching::{covered_by_every_maximum_matching, maximum_matching};

/// Default cap on the positions enumerated when the limits give no node limit.
pub const DEFAULT_MAX_POSITIONS: usize = 100_000_000;

/// The matching solver (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchingSolver;

impl MatchingSolver {
    /// A new solver.
    pub fn new() -> Self {
        MatchingSolver
    }
}

impl<G: Game> Solver<G> for MatchingSolver {
    /// Solves `root`; a node limit caps the positions enumerated. Reports `unknown` with its
    /// reason for games without a position graph ([`Unknown::Unsupported`]) or when the game
    /// gives up enumerating it, e.g. past the cap ([`Unknown::GaveUp`]).
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let max =
            limits.nodes.map_or(DEFAULT_MAX_POSITIONS, |n| n.min(u32::MAX as u64 - 1) as usize);
        let reason = match G::CAPABILITIES.position_graph.map(|graph| graph(root, max)) {
            None => Unknown::Unsupported(
                "the matching solver needs a game that is undirected vertex geography \
                 (capability::GraphGame); this game is not"
                    .into(),
            ),
            Some(Err(err)) => Unknown::GaveUp(format!("matching solver: {err}")),
            Some(Ok(pg)) => return solve_graph(&pg, start),
        };
        Report::unknown_because(reason, Stats { elapsed: start.elapsed(), ..Stats::default() })
    }
}

/// Solves the root of `pg` (a solve that started at `start`).
fn solve_graph<M: Copy>(pg: &PositionGraph<M>, start: Instant) -> Report<M> {
    let stats = Stats {
        nodes: pg.graph.vertex_count() as u64,
        elapsed: start.elapsed(),
        ..Stats::default()
    };
    if pg.root_moves.is_empty() {
        return Report::solved(Outcome::Loss, None, None, stats);
    }
    let m = maximum_matching(&pg.graph);
    let wins = covered_by_every_maximum_matching(&pg.graph, &m, pg.root);
    let best_move = if wins {
        let mate = m.mate(pg.root).expect("a covered root has a mate");
        pg.root_moves.iter().find(|(v, _)| *v == mate).map(|&(_, mv)| mv)
    } else {
        pg.root_moves.first().map(|&(_, mv)| mv)
    };
    let outcome = if wins { Outcome::Win } else { Outcome::Loss };
    Report::solved(outcome, None, best_move, Stats { elapsed: start.elapsed(), ..stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::digraph::Digraph;

    /// A game without a position graph gets no answer, and the report says why.
    #[test]
    fn a_game_without_a_graph_capability_gives_the_reason() {
        let g = Digraph::new(vec![vec![1], vec![]], 0);
        let r = MatchingSolver::new().solve(&g, &Limits::none());
        assert_eq!(r.outcome, None);
        let Some(Unknown::Unsupported(why)) = &r.unknown else { panic!("{:?}", r.unknown) };
        assert!(why.contains("GraphGame"), "{why}");
    }
}
