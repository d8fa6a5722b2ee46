//! The parallel solvers at 2 and 4 threads against the brute-force oracle on random small
//! Ataxx positions: alpha-beta with ABDADA deferral and without it (plain Lazy SMP), and df-pn.
//! Helpers start at once (`helper_join: Some(0)`), and in one configuration join a running search.
//! Alpha-beta must give the exact value (outcome and distance), df-pn the outcome; every best
//! move must keep the result.

use bitsolve::search::alphabeta::AlphaBetaSolver;
use bitsolve::search::brute::BruteSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{
    AtaxxStandard, Game, Limits, Notation, Solver, SolverKind, SolverOptions, Value, make_solver,
};

/// The parallel configurations: (name, solver, whether it gives the distance).
fn solvers() -> Vec<(String, Box<dyn Solver<AtaxxStandard>>, bool)> {
    let mut out: Vec<(String, Box<dyn Solver<AtaxxStandard>>, bool)> = Vec::new();
    for threads in [2, 4] {
        for tt_mib in [0, 2] {
            let options =
                SolverOptions { threads, helper_join: Some(0), tt_mib, ..SolverOptions::default() };
            out.push((
                format!("alphabeta t{threads} tt{tt_mib}"),
                Box::new(AlphaBetaSolver::new(&options)),
                true,
            ));
            out.push((
                format!("alphabeta-lazy t{threads} tt{tt_mib}"),
                Box::new(AlphaBetaSolver::new(&options).with_deferral(false)),
                true,
            ));
            out.push((
                format!("dfpn t{threads} tt{tt_mib}"),
                make_solver::<AtaxxStandard>(SolverKind::Dfpn, &options),
                false,
            ));
        }
    }
    // Helpers joining a running search (the first at once, the others after 128 and 256 nodes
    // of the small positions).
    let options =
        SolverOptions { threads: 4, helper_join: Some(64), tt_mib: 2, ..SolverOptions::default() };
    out.push(("alphabeta t4 join64".into(), Box::new(AlphaBetaSolver::new(&options)), true));
    out.push((
        "dfpn t4 join64".into(),
        make_solver::<AtaxxStandard>(SolverKind::Dfpn, &options),
        false,
    ));
    out
}

fn random_playout(start: &AtaxxStandard, plies: u32, rng: &mut KeyStream) -> AtaxxStandard {
    let mut pos = start.clone();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = <AtaxxStandard as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        pos.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
    }
    pos
}

#[test]
fn parallel_solvers_agree_with_brute_force_on_random_ataxx() {
    let starts = ["x2o/o2x x 0 1", "x1o/o1x x 0 1", "xo/2/ox x 0 1", "x-2o/o2-x x 0 1"];
    let mut solvers = solvers();
    let mut rng = KeyStream::new(15);
    let (mut checked, mut with_distance) = (0, 0);
    for i in 0..400 {
        let start = AtaxxStandard::parse_position(starts[i % starts.len()]).unwrap();
        let pos = random_playout(&start, (rng.next_key() % 12) as u32, &mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        let oracle = BruteSolver::new().solve(&pos, &Limits::nodes(300_000));
        let Some(truth) = oracle.value() else { continue };
        checked += 1;
        with_distance += usize::from(truth.plies().is_some());
        let text = pos.format_position();
        for (name, solver, distance) in &mut solvers {
            let report = solver.solve(&pos, &Limits::none());
            assert_eq!(report.outcome, Some(truth.outcome()), "{name} on {text}");
            if *distance {
                assert_eq!(report.plies, truth.plies(), "{name} distance on {text}");
            }
            let mv = report.best_move.unwrap_or_else(|| panic!("{name}: no move on {text}"));
            let mut child = pos.clone();
            child.play(mv);
            let child_value: Value =
                BruteSolver::new().solve(&child, &Limits::none()).value().unwrap();
            assert_eq!(child_value.parent().outcome(), truth.outcome(), "{name} move on {text}");
        }
    }
    assert!(checked >= 50, "only {checked} positions checked");
    assert!(with_distance > 0);
}
