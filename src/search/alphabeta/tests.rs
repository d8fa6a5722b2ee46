//! Differential tests against the brute-force oracle.

use super::*;
use crate::game::Outcome;
use crate::games::digraph::Digraph;
use crate::notation::Notation;
use crate::search::brute::BruteSolver;
use crate::zobrist::KeyStream;

/// Solver configurations: (threads, table MiB). 0 MiB is a single bucket of four slots, which
/// forces collisions and replacements all the time.
const CONFIGS: [(usize, usize); 4] = [(1, 0), (1, 1), (2, 0), (2, 1)];

fn solvers() -> Vec<AlphaBetaSolver> {
    CONFIGS
        .iter()
        .map(|&(threads, tt_mib)| {
            AlphaBetaSolver::new(&SolverOptions { threads, tt_mib, epsilon: None })
        })
        .collect()
}

fn brute_value(g: &Digraph) -> Value {
    let report = Solver::<Digraph>::solve(&mut BruteSolver::new(), g, &Limits::none());
    report.value().expect("brute force always finishes")
}

/// The same graph with the token on `at`.
fn moved_to(g: &Digraph, at: usize) -> Digraph {
    let text = g.format_position();
    let (_, graph) = text.split_once('|').unwrap();
    Digraph::parse_position(&format!("{at}|{graph}")).unwrap()
}

/// A random acyclic graph: edges only go to higher vertices.
fn random_dag(n: usize, seed: u64) -> Digraph {
    let mut s = KeyStream::new(seed ^ 0xDA6);
    let successors = (0..n)
        .map(|v| {
            let above = (n - v - 1) as u64;
            if above == 0 {
                return Vec::new();
            }
            let degree = s.next_key() % 4;
            (0..degree).map(|_| (v as u64 + 1 + s.next_key() % above) as u8).collect()
        })
        .collect();
    Digraph::new(successors, 0)
}

/// Checks every configuration on `g` against the oracle: outcome, distance and best move.
fn check(g: &Digraph, solvers: &mut [AlphaBetaSolver]) -> Value {
    let expected = brute_value(g);
    for (solver, config) in solvers.iter_mut().zip(CONFIGS) {
        let report = Solver::<Digraph>::solve(solver, g, &Limits::none());
        let context = format!("{} with {config:?}", g.format_position());
        assert_eq!(report.value(), Some(expected), "{context}");
        assert_eq!(report.outcome, Some(expected.outcome()), "{context}");
        assert_eq!(report.plies, expected.plies(), "{context}");
        assert!(report.stats.nodes > 0);
        if g.outcome().is_some() {
            assert_eq!(report.best_move, None, "{context}");
            continue;
        }
        let best = report.best_move.expect("a best move");
        let mut child = g.clone();
        child.play(best);
        assert_eq!(brute_value(&child).parent(), expected, "best move {best} of {context}");
    }
    expected
}

#[test]
fn alphabeta_agrees_with_brute_force_on_random_cyclic_digraphs() {
    let mut solvers = solvers();
    let mut seen = [0usize; 3];
    let mut positions = 0;
    for n in 4..=13usize {
        for seed in 0..300u64 {
            let g = Digraph::random(n, seed * 31 + n as u64);
            let g = moved_to(&g, (seed as usize * 7) % n);
            let value = check(&g, &mut solvers);
            seen[value.outcome() as usize] += 1;
            positions += 1;
        }
    }
    assert_eq!(positions, 3000);
    // The sample must exercise every outcome.
    assert!(seen.iter().all(|&c| c > 100), "outcomes seen: {seen:?}");
}

#[test]
fn alphabeta_agrees_with_brute_force_on_random_dags() {
    let mut solvers = solvers();
    let mut positions = 0;
    for n in 2..=18usize {
        for seed in 0..60u64 {
            check(&random_dag(n, seed * 97 + n as u64), &mut solvers);
            positions += 1;
        }
    }
    assert_eq!(positions, 17 * 60);
}

#[test]
fn cycle_without_exit_is_a_draw_and_terminal_roots_are_reported() {
    let mut solvers = solvers();
    let cycle = Digraph::parse_position("0|1;2;0;").unwrap();
    assert_eq!(check(&cycle, &mut solvers), Value::Draw);
    let over = Digraph::parse_position("1|1;;").unwrap();
    assert_eq!(check(&over, &mut solvers), Value::Loss(0));
    // Escaping the cycle loses; staying draws.
    let trap = Digraph::parse_position("0|1 2;0;3;;").unwrap();
    assert_eq!(check(&trap, &mut solvers), Value::Draw);
}

#[test]
fn node_limit_gives_an_unknown_report() {
    let g = Digraph::random(60, 7);
    for threads in [1, 2] {
        let mut solver = AlphaBetaSolver::new(&SolverOptions { threads, tt_mib: 0, epsilon: None });
        let report = Solver::<Digraph>::solve(&mut solver, &g, &Limits::nodes(1));
        if report.outcome.is_none() {
            assert_eq!(report.best_move, None);
        }
        let full = Solver::<Digraph>::solve(&mut solver, &g, &Limits::none());
        assert!(full.outcome.is_some() || g.outcome() == Some(Outcome::Loss));
    }
}
