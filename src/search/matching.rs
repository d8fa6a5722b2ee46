//! The matching solver: for games that are undirected vertex geography (moves reversible, no
//! position entered twice), the player to move from `v` wins iff every maximum matching of the
//! position graph covers `v` (Fraenkel, Scheinerman and Ullman 1993). Polynomial in the number of
//! positions; the graph comes from [`Game::position_graph`].
//!
//! A winning move goes along the edge of a maximum matching; from a lost position any move is
//! as good as another. The solver knows results only, not distances.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Limits, Report, Solver, Stats};
use crate::game::{Game, Outcome};
use crate::graph::matching::{covered_by_every_maximum_matching, maximum_matching};

/// Default cap on the positions enumerated when the limits give no node limit.
pub const DEFAULT_MAX_POSITIONS: usize = 100_000_000;

static WARNED: AtomicBool = AtomicBool::new(false);

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
    /// Solves `root`; a node limit caps the positions enumerated. Reports `unknown` (with a
    /// message on stderr) for games without a position graph or when the cap is exceeded.
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let max =
            limits.nodes.map_or(DEFAULT_MAX_POSITIONS, |n| n.min(u32::MAX as u64 - 1) as usize);
        let pg = match root.position_graph(max) {
            None => {
                if !WARNED.swap(true, Ordering::Relaxed) {
                    eprintln!(
                        "error: the matching solver needs a game that is undirected vertex \
                         geography (Game::position_graph); this game is not"
                    );
                }
                return Report::unknown(Stats { elapsed: start.elapsed(), ..Stats::default() });
            }
            Some(Err(err)) => {
                eprintln!("matching solver: {err}");
                return Report::unknown(Stats { elapsed: start.elapsed(), ..Stats::default() });
            }
            Some(Ok(pg)) => pg,
        };
        let stats = Stats {
            nodes: pg.graph.vertex_count() as u64,
            elapsed: start.elapsed(),
            ..Stats::default()
        };
        if pg.root_moves.is_empty() {
            return Report { outcome: Some(Outcome::Loss), plies: None, best_move: None, stats };
        }
        let m = maximum_matching(&pg.graph);
        let wins = covered_by_every_maximum_matching(&pg.graph, &m, pg.root);
        let best_move = if wins {
            let mate = m.mate(pg.root).expect("a covered root has a mate");
            pg.root_moves.iter().find(|(v, _)| *v == mate).map(|&(_, mv)| mv)
        } else {
            pg.root_moves.first().map(|&(_, mv)| mv)
        };
        let outcome = Some(if wins { Outcome::Win } else { Outcome::Loss });
        Report {
            outcome,
            plies: None,
            best_move,
            stats: Stats { elapsed: start.elapsed(), ..stats },
        }
    }
}
