//! [`BisectionScore`]: the bisection over any win/loss solver, through the wrapper game [`Threshold`].

#[allow(clippy::wildcard_imports)]
use super::*;

/// The wrapper game that turns "is the final score at least `t`?" into a win/loss question.
///
/// It plays exactly like the wrapped game; once that is over, the mover at the root (the side
/// to move when [`Threshold::new`] was called) wins if its final score is at least the
/// threshold, and loses otherwise. Turns must alternate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threshold<G> {
    inner: G,
    at_least: i32,
    /// Whether the side to move is the root's opponent.
    flipped: bool,
}

/// Hash key of [`Threshold::flipped`].
pub(super) const FLIPPED_KEY: u64 = 0x5EED_F11B_7A11_0001;

impl<G: Scored> Threshold<G> {
    /// The question "does the side to move of `inner` score at least `threshold`?".
    pub fn new(inner: G, threshold: i32) -> Self {
        Threshold { inner, at_least: threshold, flipped: false }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

impl<G: Scored> Game for Threshold<G> {
    type Move = G::Move;
    type Moves = G::Moves;
    const ACYCLIC: bool = G::ACYCLIC;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.inner.score_moves(moves);
    }

    fn play(&mut self, mv: Self::Move) {
        self.inner.play(mv);
        self.flipped = !self.flipped;
    }

    fn outcome(&self) -> Option<Outcome> {
        let score = self.inner.final_score()?;
        let root_score = if self.flipped { -score } else { score };
        let root_wins = root_score >= self.at_least;
        Some(if root_wins == self.flipped { Outcome::Loss } else { Outcome::Win })
    }

    fn hash(&self) -> u64 {
        self.inner.hash() ^ if self.flipped { FLIPPED_KEY } else { 0 }
    }

    fn reversible_plies(&self) -> Option<u32> {
        self.inner.reversible_plies()
    }
}

/// Bisection over thresholds, each decided by a win/loss solver on [`Threshold`].
pub struct BisectionScore {
    kind: SolverKind,
    options: SolverOptions,
}

impl std::fmt::Debug for BisectionScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BisectionScore").field("kind", &self.kind).finish_non_exhaustive()
    }
}

impl BisectionScore {
    /// Thresholds decided by solver `kind` built with `options`.
    pub fn new(kind: SolverKind, options: &SolverOptions) -> Self {
        BisectionScore { kind, options: options.clone() }
    }
}

impl<G: Scored> ScoreSolver<G> for BisectionScore {
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        let mut stats = Stats::default();
        if let Some(s) = root.final_score() {
            stats.elapsed = start.elapsed();
            return ScoreReport { score: Some(s), best_move: None, stats };
        }
        let mut solver = make_solver::<Threshold<G>>(self.kind, &self.options);
        let mut moves = G::Moves::default();
        root.score_moves(&mut moves);
        let (mut lo, mut hi) = (-G::SCORE_BOUND, G::SCORE_BOUND);
        let mut best_move = moves.first().copied();
        let mut t = root.score_estimate().clamp(lo + 1, hi);
        let budget = limits.time;
        let mut limits = limits.clone();
        limits.time = budget.map(|t| t.saturating_sub(start.elapsed()));
        while lo < hi {
            let report = solver.solve(&Threshold::new(root.clone(), t), &limits);
            stats.absorb(&report.stats);
            match report.outcome {
                Some(Outcome::Win) => {
                    lo = t;
                    best_move = report.best_move;
                }
                Some(_) => hi = t - 1,
                None => break,
            }
            if let Some(n) = limits.nodes.as_mut() {
                *n = n.saturating_sub(report.stats.nodes);
            }
            // Whole-solve wall time, table set-up between thresholds included.
            limits.time = budget.map(|t| t.saturating_sub(start.elapsed()));
            t = lo + (hi - lo + 1) / 2;
        }
        stats.elapsed = start.elapsed();
        let score = (lo == hi).then_some(lo);
        ScoreReport { score, best_move: score.and(best_move), stats }
    }
}
