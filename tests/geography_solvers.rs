//! Geography: every shared solver, running on positions with all exact reductions on, agrees
//! with plain brute force (no reductions) on thousands of random small graphs (uniform,
//! bipartite, and sparse or chain-rich ones with bridges and forced chains); and the bipartite
//! GF(2) rule agrees with brute force on random bipartite graphs.

use std::sync::Arc;

use bitsolve::games::geography::generator::{
    below, random_bipartite, random_chains, random_graph, random_sparse,
};
use bitsolve::games::geography::{Reductions, reductions};
use bitsolve::search::brute::BruteSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{
    Game, Geography, Limits, Notation, Outcome, Solver, SolverKind, SolverOptions, make_solver,
};

fn random_position(rng: &mut KeyStream, bipartite: bool) -> Geography {
    let n = 3 + below(rng, 6) as usize;
    let percent = 25 + below(rng, 40);
    let graph = if bipartite {
        let left = 1 + below(rng, n as u64 - 1) as usize;
        random_bipartite(left, n - left, percent, rng)
    } else {
        random_graph(n, percent, rng)
    };
    play_some(Geography::new(Arc::new(graph), below(rng, n as u64) as u8).unwrap(), rng)
}

/// A random position on a graph with bridges and forced chains: a random tree plus a few edges,
/// or hubs joined by paths of 1 to 4 edges.
fn structured_position(rng: &mut KeyStream, chains: bool) -> Geography {
    let graph = if chains {
        random_chains(2 + below(rng, 3) as usize, 2 + below(rng, 4) as usize, rng)
    } else {
        let n = 4 + below(rng, 9) as usize;
        random_sparse(n, below(rng, 4) as usize, rng)
    };
    let token = below(rng, graph.vertex_count() as u64) as u8;
    play_some(Geography::new(Arc::new(graph), token).unwrap(), rng)
}

/// Up to 2 random moves from `pos`, then every reduction on.
fn play_some(mut pos: Geography, rng: &mut KeyStream) -> Geography {
    for _ in 0..below(rng, 3) {
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[below(rng, moves.len() as u64) as usize]);
    }
    pos.with_reductions(Reductions::ALL)
}

#[test]
fn solvers_with_reductions_agree_with_plain_brute_force() {
    solvers_with_reductions_agree_with_plain_brute_force_on(1000);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_with_reductions_agree_with_plain_brute_force_deep() {
    solvers_with_reductions_agree_with_plain_brute_force_on(3000);
}

/// The check of `solvers_with_reductions_agree_with_plain_brute_force` on `count` samples.
fn solvers_with_reductions_agree_with_plain_brute_force_on(count: u64) {
    let configs: Vec<(SolverKind, SolverOptions)> = [
        (SolverKind::Alphabeta, 1),
        (SolverKind::Alphabeta, 2),
        (SolverKind::Pns, 1),
        (SolverKind::Dfpn, 1),
        (SolverKind::Dfpn, 2),
    ]
    .into_iter()
    .map(|(k, threads)| {
        (k, SolverOptions { threads, helper_join: Some(0), tt_mib: 1, ..SolverOptions::default() })
    })
    .collect();
    let mut solvers: Vec<_> =
        configs.iter().map(|(k, o)| (*k, make_solver::<Geography>(*k, o))).collect();
    let mut rng = KeyStream::new(11);
    let mut outcomes = [0usize; 3];
    let mut checked = 0;
    for i in 0..count {
        let pos = match i % 5 {
            0 => random_position(&mut rng, true),
            1 | 2 => structured_position(&mut rng, i % 5 == 1),
            _ => random_position(&mut rng, false),
        };
        let Some(truth) = BruteSolver::new().solve(&pos.plain(), &Limits::nodes(200_000)).outcome
        else {
            continue;
        };
        checked += 1;
        outcomes[truth as usize] += 1;
        for (kind, solver) in &mut solvers {
            let report = solver.solve(&pos, &Limits::none());
            let text = pos.format_position();
            assert_eq!(report.outcome, Some(truth), "{kind:?} on {text}");
            if let Some(mv) = report.best_move {
                let mut child = pos.plain();
                child.play(mv);
                let v = BruteSolver::new().solve(&child, &Limits::none()).outcome;
                assert_eq!(v.map(Outcome::flip), Some(truth), "{kind:?} move {mv} on {text}");
            }
        }
    }
    let n = count as usize;
    assert!(checked * 10 > n * 9, "only {checked} checked");
    assert!(outcomes[0] * 30 > n && outcomes[2] * 30 > n, "{outcomes:?}");
}

#[test]
fn bipartite_rule_agrees_with_brute_force() {
    let mut rng = KeyStream::new(12);
    let mut decided = 0;
    for _ in 0..3000 {
        let pos = random_position(&mut rng, true).with_reductions(Reductions::NONE);
        let Some(truth) = BruteSolver::new().solve(&pos, &Limits::nodes(200_000)).outcome else {
            continue;
        };
        let rule = reductions::bipartite_outcome(&pos).expect("bipartite graphs are decided");
        assert_eq!(rule, truth, "{}", pos.format_position());
        decided += 1;
    }
    assert!(decided > 2500);
}
