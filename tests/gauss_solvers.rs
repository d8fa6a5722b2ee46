//! Gauss against the oracles: every score solver equals brute-force minimax over final scores,
//! and every win/loss solver equals the brute-force solver, on random positions with few
//! placements left (both rule readings).

use bitsolve::games::gauss::Gauss;
use bitsolve::search::brute::BruteSolver;
use bitsolve::search::score::{
    AlphaBetaScore, BisectionScore, BruteScore, ScoreSolver, make_score_solver,
};
use bitsolve::{Game, Limits, Notation, Outcome, Scored, Solver, SolverKind, SolverOptions};

fn options(tt_mib: usize) -> SolverOptions {
    SolverOptions { tt_mib, ..SolverOptions::default() }
}

/// Random positions: `per_count` for each number of remaining placements in `counts`.
fn positions(counts: &[(u32, usize)], seed: u64) -> Vec<Gauss> {
    Gauss::random_suite(counts, seed)
}

#[test]
fn score_solvers_agree_with_brute_force() {
    let mut solvers: Vec<(&str, Box<dyn ScoreSolver<Gauss>>)> = vec![
        ("alphabeta-score tt0", Box::new(AlphaBetaScore::new(&options(0)))),
        ("alphabeta-score tt4", Box::new(AlphaBetaScore::new(&options(4)))),
        ("bisect-alphabeta", Box::new(BisectionScore::new(SolverKind::Alphabeta, &options(4)))),
        ("bisect-dfpn", make_score_solver(SolverKind::Dfpn, &options(4))),
        ("bisect-pns", make_score_solver(SolverKind::Pns, &options(4))),
    ];
    let mut seen = std::collections::BTreeMap::new();
    for pos in positions(&[(0, 2), (1, 30), (2, 30), (3, 20), (4, 4)], 6) {
        let text = pos.format_position();
        let truth = BruteScore.solve_score(&pos, &Limits::none()).score.unwrap();
        *seen.entry(truth.signum()).or_insert(0) += 1;
        for (name, solver) in &mut solvers {
            let report = solver.solve_score(&pos, &Limits::none());
            assert_eq!(report.score, Some(truth), "{name} on {text}");
            match report.best_move {
                None => assert!(pos.outcome().is_some(), "{name}: no move on {text}"),
                Some(mv) => {
                    let mut child = pos;
                    child.play(mv);
                    let child_score = BruteScore.solve_score(&child, &Limits::none()).score;
                    assert_eq!(child_score, Some(-truth), "{name}: best move on {text}");
                }
            }
        }
    }
    assert_eq!(seen.len(), 3, "wins, draws and losses by score: {seen:?}");
}

#[test]
fn win_loss_solvers_agree_with_brute_force_and_the_score() {
    let kinds = [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn];
    for pos in positions(&[(1, 30), (2, 30), (3, 15)], 7) {
        let text = pos.format_position();
        let truth = BruteSolver::new().solve(&pos, &Limits::none());
        let score = BruteScore.solve_score(&pos, &Limits::none()).score.unwrap();
        let outcome = truth.outcome.unwrap();
        // A positive score is a win whatever the tie-breaks; a negative one a loss.
        if score > 0 {
            assert_eq!(outcome, Outcome::Win, "{text}");
        } else if score < 0 {
            assert_eq!(outcome, Outcome::Loss, "{text}");
        }
        for kind in kinds {
            let report =
                bitsolve::make_solver::<Gauss>(kind, &options(4)).solve(&pos, &Limits::none());
            assert_eq!(report.outcome, truth.outcome, "{kind:?} on {text}");
            if kind == SolverKind::Alphabeta {
                assert_eq!(report.plies, truth.plies, "{kind:?} distance on {text}");
            }
        }
    }
}

#[test]
fn a_score_solve_respects_its_node_limit() {
    let pos = positions(&[(12, 1)], 8)[0];
    let report = AlphaBetaScore::new(&options(1)).solve_score(&pos, &Limits::nodes(5_000));
    assert_eq!(report.score, None);
    assert_eq!(report.best_move, None);
    assert!(pos.final_score().is_none());
}
