//! Exact final scores of [`Scored`] games: the value is a points difference, not only a result.
//!
//! Three ways to the same number, behind one [`ScoreSolver`] interface:
//!
//! * [`BruteScore`]: plain minimax over final scores, the oracle.
//! * [`AlphaBetaScore`]: fail-soft negamax over scores on the shared lock-free table (entries
//!   hold a lower and an upper bound, valid whatever the window), driven at the root by
//!   null-window tests: the first at a guess (a shallow search over
//!   [`Scored::score_estimate`]s), then bisection of the remaining interval, each test
//!   narrowing it by its fail-soft value (MTD(f) and Pons' null-window bisection). The table
//!   survives between tests, so later tests reuse earlier bounds. Refinements
//!   ([`ScoreFeatures`]): enhanced transposition cutoffs, killer and history ordering, MTD(f)
//!   steps at the root, the shallow first guess, ordering by two-ply searches near the root,
//!   and optionally symmetric table keys. With threads, different thresholds are tested side
//!   by side on the shared table (see [`AlphaBetaScore`]).
//! * [`BisectionScore`]: the same bisection over any win/loss [`Solver`](super::Solver): the
//!   wrapper game [`Threshold`] ends like the real game but its outcome is "the root's mover
//!   wins iff the final score is at least `t`", so alpha-beta, PNS or df-pn decide
//!   "score >= t" unchanged.
//!
//! Only games without cycles are supported (the score of endless play is undefined): the
//! searches keep no path.
//!
//! ```
//! use bitsolve::search::score::{AlphaBetaScore, BruteScore, ScoreSolver};
//! use bitsolve::{Game, Gauss, Limits, SolverOptions};
//! // Random placements until four are left.
//! let mut g = Gauss::default();
//! while g.remaining() > 4 {
//!     let mut moves = Default::default();
//!     g.generate_moves(&mut moves);
//!     g.play(moves[(g.hash() % moves.len() as u64) as usize]);
//! }
//! let exact = BruteScore.solve_score(&g, &Limits::none()).score;
//! let options = SolverOptions { tt_mib: 1, ..SolverOptions::default() };
//! assert_eq!(AlphaBetaScore::new(&options).solve_score(&g, &Limits::none()).score, exact);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::Instant;

use super::tt::{TranspositionTable, TtEntry};
use super::{Limits, SolverKind, SolverOptions, Stats, make_solver};
use crate::game::{Game, Outcome, Scored};

mod alphabeta;
mod bisection;
mod brute;
mod entry;
mod features;
mod interval;
mod node;
mod threads;

pub use alphabeta::*;
pub use bisection::*;
pub use brute::*;
#[allow(clippy::wildcard_imports)]
use entry::*;
pub use features::*;
use interval::Interval;
use node::{Child, Plan, Probe, Scratch, Window, rank, select_next};
use threads::{run_threads, worker_run};

/// The answer of a score solver for one root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreReport<M> {
    /// Exact final score for the side to move under perfect play; `None` if a limit stopped
    /// the search first.
    pub score: Option<i32>,
    /// A move that achieves the score (`None` at a finished position or when unknown).
    pub best_move: Option<M>,
    /// What the search measured.
    pub stats: Stats,
}

/// An algorithm computing exact final scores.
pub trait ScoreSolver<G: Scored>: Send {
    /// Solves `root` within `limits`.
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move>;
}

/// The score solver for `kind`: `brute` is [`BruteScore`], `alphabeta` [`AlphaBetaScore`] (with
/// [`ScoreFeatures::for_game`]), and the proof-number solvers decide the thresholds of a
/// [`BisectionScore`].
pub fn make_score_solver<G: Scored>(
    kind: SolverKind,
    options: &SolverOptions,
) -> Box<dyn ScoreSolver<G>> {
    match kind {
        SolverKind::Brute => Box::new(BruteScore),
        SolverKind::Alphabeta => {
            Box::new(AlphaBetaScore::new(options).with_features(ScoreFeatures::for_game::<G>()))
        }
        // The matching solver needs a position graph and the retrograde one an exact key, which
        // a threshold game lacks: they report every threshold unknown, so the score stays
        // unknown (`auto` is then df-pn).
        SolverKind::Pns
        | SolverKind::Dfpn
        | SolverKind::Matching
        | SolverKind::Retro
        | SolverKind::Table
        | SolverKind::Retro2
        | SolverKind::Auto => Box::new(BisectionScore::new(kind, options)),
    }
}
