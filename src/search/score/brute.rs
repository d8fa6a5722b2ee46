//! [`BruteScore`]: plain minimax over final scores, the oracle of the other two.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Plain minimax over final scores: the oracle.
#[derive(Clone, Copy, Debug, Default)]
pub struct BruteScore;

impl BruteScore {
    /// The exact score of `pos` (exponential).
    pub fn score<G: Scored>(pos: &G, nodes: &mut u64) -> i32 {
        *nodes += 1;
        if let Some(s) = pos.final_score() {
            return s;
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                -Self::score(&child, nodes)
            })
            .max()
            .expect("a game that is not over has a move")
    }
}

impl<G: Scored> ScoreSolver<G> for BruteScore {
    fn solve_score(&mut self, root: &G, _limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        let mut nodes = 1;
        let mut best: Option<(i32, G::Move)> = None;
        let score = if let Some(s) = root.final_score() {
            s
        } else {
            let mut moves = G::Moves::default();
            root.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = root.clone();
                child.play(mv);
                let v = -Self::score(&child, &mut nodes);
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, mv));
                }
            }
            best.expect("a game that is not over has a move").0
        };
        let stats = Stats { nodes, elapsed: start.elapsed(), ..Stats::default() };
        ScoreReport { score: Some(score), best_move: best.map(|(_, m)| m), stats }
    }
}
