//! Differential tests against the brute-force oracle.

use super::*;
use crate::games::digraph::Digraph;
use crate::notation::Notation;
use crate::search::brute::BruteSolver;
use crate::zobrist::KeyStream;

/// Solver configurations: (threads, table MiB). 0 MiB is a single bucket of four slots, which
/// forces collisions and replacements all the time.
const CONFIGS: [(usize, usize); 6] = [(1, 0), (1, 1), (2, 0), (2, 1), (4, 0), (4, 1)];

fn solvers() -> Vec<AlphaBetaSolver> {
    CONFIGS
        .iter()
        .map(|&(threads, tt_mib)| {
            AlphaBetaSolver::new(&SolverOptions {
                threads,
                tt_mib,
                epsilon: None,
                helper_join: Some(0),
                ..SolverOptions::default()
            })
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

/// A random graph with cycles and few dead ends (about one vertex in `sink_one_in`), so play
/// is long and repetitions matter.
fn random_cyclic(n: usize, seed: u64, sink_one_in: u64) -> Digraph {
    let mut s = KeyStream::new(seed ^ 0xC7C1E);
    let successors = (0..n)
        .map(|_| {
            if s.next_key().is_multiple_of(sink_one_in) {
                return Vec::new();
            }
            let degree = 1 + s.next_key() % 3;
            (0..degree).map(|_| (s.next_key() % n as u64) as u8).collect()
        })
        .collect();
    Digraph::new(successors, (s.next_key() % n as u64) as u8)
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
    let mut longest = 0;
    let mut positions = 0;
    for n in 4..=14usize {
        for seed in 0..250u64 {
            let g = Digraph::random(n, seed * 31 + n as u64);
            let g = moved_to(&g, (seed as usize * 7) % n);
            let value = check(&g, &mut solvers);
            seen[value.outcome() as usize] += 1;
            positions += 1;
        }
    }
    for n in 4..=20usize {
        for seed in 0..150u64 {
            let value = check(&random_cyclic(n, seed * 17 + n as u64, 4 + seed % 12), &mut solvers);
            seen[value.outcome() as usize] += 1;
            longest = longest.max(value.plies().unwrap_or(0));
            positions += 1;
        }
    }
    assert_eq!(positions, 11 * 250 + 17 * 150);
    // The sample must exercise every outcome and some long games.
    assert!(seen.iter().all(|&c| c > 300), "outcomes seen: {seen:?}");
    assert!(longest >= 7, "longest game {longest}");
}

/// Larger graphs, beyond the oracle: two threads must give exactly the sequential value.
#[test]
fn parallel_search_agrees_with_sequential_on_larger_digraphs() {
    let mut sequential = AlphaBetaSolver::new(&SolverOptions {
        threads: 1,
        tt_mib: 1,
        epsilon: None,
        ..SolverOptions::default()
    });
    let mut parallel = solvers();
    for n in [30usize, 40, 50, 60] {
        for seed in 0..60u64 {
            let g = random_cyclic(n, seed * 7 + n as u64, 8 + seed % 30);
            let expected = Solver::<Digraph>::solve(&mut sequential, &g, &Limits::none()).value();
            assert!(expected.is_some());
            for solver in &mut parallel {
                let report = Solver::<Digraph>::solve(solver, &g, &Limits::none());
                assert_eq!(report.value(), expected, "{}", g.format_position());
                if let Some(best) = report.best_move {
                    let mut child = g.clone();
                    child.play(best);
                    let child_value =
                        Solver::<Digraph>::solve(&mut sequential, &child, &Limits::none());
                    assert_eq!(child_value.value().map(Value::parent), expected);
                }
            }
        }
    }
}

#[test]
fn alphabeta_agrees_with_brute_force_on_random_dags() {
    let mut solvers = solvers();
    let mut positions = 0;
    for n in 2..=20usize {
        for seed in 0..60u64 {
            check(&random_dag(n, seed * 97 + n as u64), &mut solvers);
            positions += 1;
        }
    }
    assert_eq!(positions, 19 * 60);
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
fn limits_give_an_unknown_report() {
    let mut probe = AlphaBetaSolver::new(&SolverOptions {
        threads: 1,
        tt_mib: 1,
        epsilon: None,
        ..SolverOptions::default()
    });
    // A graph that needs a few thousand nodes, more than one limit-check interval.
    let g = (0..1000)
        .map(|seed| random_cyclic(64, seed, 16 + seed % 48))
        .find(|g| Solver::<Digraph>::solve(&mut probe, g, &Limits::none()).stats.nodes > 2048)
        .expect("some graph is hard enough");
    for threads in [1, 2] {
        let mut solver = AlphaBetaSolver::new(&SolverOptions {
            threads,
            tt_mib: 1,
            epsilon: None,
            ..SolverOptions::default()
        });
        let full = Solver::<Digraph>::solve(&mut solver, &g, &Limits::none());
        assert!(full.value().is_some());
        let limited = Solver::<Digraph>::solve(&mut solver, &g, &Limits::nodes(1));
        assert_eq!(limited.outcome, None);
        assert_eq!((limited.plies, limited.best_move), (None, None));
        let stop = Some(Arc::new(std::sync::atomic::AtomicBool::new(true)));
        let stopped = Solver::<Digraph>::solve(&mut solver, &g, &Limits { stop, ..Limits::none() });
        assert_eq!(stopped.outcome, None);
        let again = Solver::<Digraph>::solve(&mut solver, &g, &Limits::none());
        assert_eq!(again.value(), full.value());
    }
}
