//! df-pn against brute force on random digraphs, the depth guard, limits and table entries.

use super::*;
use crate::search::brute::BruteSolver;
use crate::search::testing::{brute, check, dense, layered, positions};
use crate::zobrist::KeyStream;

/// A countdown of `left` forced plies: the side to move at 0 loses. Paths as long as the
/// game, with no repetition to cut them.
#[derive(Clone, Debug)]
struct Countdown {
    left: u32,
}

impl Game for Countdown {
    type Move = u8;
    type Moves = Vec<u8>;
    const ACYCLIC: bool = true;

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.left > 0 {
            moves.push(0);
        }
    }

    fn play(&mut self, _: u8) {
        self.left -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.left == 0).then_some(Outcome::Loss)
    }

    fn hash(&self) -> u64 {
        crate::zobrist::splitmix64(u64::from(self.left)).1
    }
}

/// A path longer than [`MAX_PLY`] gives `unknown` (no stack overflow, on one thread or two);
/// one just inside it is solved.
#[test]
fn paths_beyond_the_depth_guard_give_unknown() {
    for threads in [1, 2] {
        let options =
            SolverOptions { threads, helper_join: Some(0), tt_mib: 16, ..SolverOptions::default() };
        let mut solver = DfpnSolver::new(&options);
        let deep = solver.solve(&Countdown { left: MAX_PLY + 10 }, &Limits::none());
        assert_eq!(deep.outcome, None, "threads {threads}");
        let inside = solver.solve(&Countdown { left: MAX_PLY - 11 }, &Limits::none());
        assert_eq!(inside.outcome, Some(Outcome::Win), "threads {threads}");
    }
}

fn differential(options: &SolverOptions, cyclic: u64, acyclic_count: u64, what: &str) {
    let mut solver = DfpnSolver::new(options);
    let mut outcomes = [0u32; 3];
    for pos in positions(cyclic, acyclic_count) {
        let expected = brute(&pos);
        outcomes[expected as usize] += 1;
        let report = solver.solve(&pos, &Limits::none());
        check(&pos, expected, &report, what);
    }
    // The sample must exercise every outcome.
    assert!(outcomes.iter().all(|&n| n > 10), "{outcomes:?}");
}

fn opts(threads: usize, tt_mib: usize, epsilon: Option<f64>) -> SolverOptions {
    SolverOptions { threads, helper_join: Some(0), tt_mib, epsilon, ..SolverOptions::default() }
}

#[test]
fn dfpn_matches_brute() {
    differential(&opts(1, 1, None), 5000, 1500, "dfpn");
}

#[test]
fn dfpn_without_mobility_matches_brute() {
    for (mobility, probe) in [(false, false), (false, true), (true, true)] {
        let what = format!("dfpn mobility={mobility} probe={probe}");
        let mut solver =
            DfpnSolver::new(&opts(1, 1, Some(1.0))).with_mobility(mobility).with_win_probe(probe);
        for pos in positions(1500, 500) {
            let expected = brute(&pos);
            let report = solver.solve(&pos, &Limits::none());
            check(&pos, expected, &report, &what);
        }
    }
}

#[test]
fn dfpn_epsilon_matches_brute() {
    differential(&opts(1, 1, Some(0.25)), 5000, 1500, "dfpn eps");
}

#[test]
fn dfpn_weak_numbers_match_brute() {
    let weak = |threads, tt_mib, epsilon| SolverOptions {
        weak_numbers: true,
        ..opts(threads, tt_mib, epsilon)
    };
    differential(&weak(1, 1, None), 4000, 1200, "dfpn weak");
    differential(&weak(1, 0, Some(0.5)), 3000, 1000, "dfpn weak eps tiny");
    differential(&weak(2, 1, Some(0.5)), 1500, 400, "dfpn weak x2 eps");
}

#[test]
fn dfpn_tiny_table_matches_brute() {
    differential(&opts(1, 0, None), 4000, 1000, "dfpn tiny");
    differential(&opts(1, 0, Some(0.25)), 4000, 1000, "dfpn eps tiny");
}

#[test]
fn parallel_dfpn_matches_brute() {
    differential(&opts(2, 1, None), 2000, 500, "dfpn x2");
    differential(&opts(2, 0, Some(0.25)), 1500, 400, "dfpn x2 eps tiny");
}

/// Bigger graphs, beyond the oracle: every configuration and PNS must agree.
#[test]
fn configurations_agree_on_bigger_graphs() {
    let mut solvers: Vec<DfpnSolver> = [
        opts(1, 1, None),
        opts(1, 1, Some(0.25)),
        opts(2, 1, None),
        opts(2, 0, Some(0.25)),
        opts(1, 0, None),
    ]
    .iter()
    .map(DfpnSolver::new)
    .collect();
    let mut pns = crate::search::pns::PnsSolver::new(&SolverOptions::default());
    for seed in 0..60 {
        let n = 30 + (seed % 31) as usize;
        for pos in [layered(n, seed, 25), layered(n, seed, 6), dense(n, seed, 10)] {
            let expected = pns.solve(&pos, &Limits::none()).outcome;
            assert!(expected.is_some());
            for solver in &mut solvers {
                assert_eq!(solver.solve(&pos, &Limits::none()).outcome, expected);
            }
        }
    }
}

#[test]
fn limits_give_unknown() {
    let big = layered(60, 5, 25);
    let stop = Arc::new(AtomicBool::new(true));
    let stopped = Limits { stop: Some(stop), ..Limits::none() };
    let no_time = Limits { time: Some(std::time::Duration::ZERO), ..Limits::none() };
    for threads in [1, 2] {
        let mut solver = DfpnSolver::new(&opts(threads, 1, None));
        for limits in [&stopped, &no_time] {
            let report = solver.solve(&big, limits);
            assert_eq!(report.outcome, None);
            assert_eq!(report.best_move, None);
            assert!(report.stats.nodes >= 1);
        }
        // The same solver still answers afterwards.
        assert_eq!(solver.solve(&big, &Limits::none()).outcome, Some(brute(&big)));
    }
}

mod bench_tests {
    use super::*;

    /// Nodes and time on bigger digraphs: `cargo test --release -- --ignored --nocapture big`.
    #[test]
    #[ignore = "measurement, not a check"]
    fn big_digraphs() {
        let configs = [(1, None), (1, Some(0.25)), (2, None), (2, Some(0.25))];
        for (n, seed) in [(40, 1), (40, 2), (50, 3), (50, 4), (60, 5), (60, 6), (60, 7)] {
            let pos = super::layered(n, seed, 25);
            let mut answers = Vec::new();
            for (threads, epsilon) in configs {
                let options = SolverOptions {
                    threads,
                    helper_join: Some(0),
                    tt_mib: 16,
                    epsilon,
                    ..SolverOptions::default()
                };
                let report = DfpnSolver::new(&options).solve(&pos, &Limits::none());
                answers.push(report.outcome);
                println!(
                    "n={n} seed={seed} threads={threads} eps={epsilon:?} outcome={:?} {}",
                    report.outcome, report.stats
                );
            }
            let pns = crate::search::pns::PnsSolver::new(&SolverOptions::default())
                .solve(&pos, &Limits::none());
            println!("n={n} seed={seed} pns outcome={:?} {}", pns.outcome, pns.stats);
            assert!(answers.iter().all(|&a| a == pns.outcome));
        }
    }
}

mod livelock_tests {
    use super::*;

    /// Regression: fresh leaves return at once, which once let frames cycle without progress
    /// (path-dependent disproofs re-created as fresh, busy-inflated thresholds). Every sample
    /// position must be solved well within a node budget, with tiny and small tables.
    #[test]
    fn every_sample_solves_within_a_node_budget() {
        for (threads, mib) in [(1, 0), (1, 1), (2, 1)] {
            let options = SolverOptions {
                threads,
                helper_join: Some(0),
                tt_mib: mib,
                ..SolverOptions::default()
            };
            let mut solver = DfpnSolver::new(&options);
            let count = if threads == 1 { 3000 } else { 800 };
            for (i, pos) in super::positions(count, count / 4).into_iter().enumerate() {
                let r = solver.solve(&pos, &Limits::nodes(2_000_000));
                assert!(r.outcome.is_some(), "threads={threads} mib={mib} position {i}");
            }
        }
    }
}

/// Geography as if draws were possible ([`Game::DRAWS`] left at `true`): the solvers then run
/// the second boolean search after a disproved win.
#[derive(Clone, Debug)]
struct WithDraws(crate::games::geography::Geography);

impl Game for WithDraws {
    type Move = u8;
    type Moves = crate::games::geography::GeographyMoves;
    const ACYCLIC: bool = true;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.0.generate_moves(moves);
    }

    fn play(&mut self, mv: u8) {
        self.0.play(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn hash(&self) -> u64 {
        self.0.hash()
    }
}

/// Without draws a disproved win is a loss: df-pn and PNS skip the second search (fewer
/// nodes on every lost position, the same values and the same stubborn moves as brute force
/// allows), and a won position costs the same.
#[test]
fn games_without_draws_need_one_boolean_search() {
    use crate::games::geography::{Geography, generator};
    let (mut losses, mut wins) = (0, 0);
    let mut rng = KeyStream::new(0xD4A3);
    for seed in 0..200u64 {
        let graph = generator::random_graph(5 + (seed % 3) as usize, 50, &mut rng);
        let token = generator::below(&mut rng, graph.vertex_count() as u64) as u8;
        let pos = Geography::new(std::sync::Arc::new(graph), token).unwrap();
        if pos.outcome().is_some() {
            continue;
        }
        let Some(brute) = BruteSolver::new().solve(&pos.plain(), &Limits::nodes(300_000)).outcome
        else {
            continue;
        };
        for kind in [crate::search::SolverKind::Dfpn, crate::search::SolverKind::Pns] {
            let options = opts(1, 16, Some(0.5));
            let one = crate::search::make_solver::<Geography>(kind, &options)
                .solve(&pos, &Limits::default());
            let two = crate::search::make_solver::<WithDraws>(kind, &options)
                .solve(&WithDraws(pos.clone()), &Limits::default());
            assert_eq!(one.outcome, Some(brute), "seed {seed} {kind:?}");
            assert_eq!(two.outcome, Some(brute), "seed {seed} {kind:?}");
            if brute == Outcome::Loss {
                assert!(one.stats.nodes < two.stats.nodes, "seed {seed} {kind:?}");
                let mv = one.best_move.expect("a loss still names a move");
                let mut legal = crate::games::geography::GeographyMoves::new();
                pos.generate_moves(&mut legal);
                assert!(legal.contains(&mv), "seed {seed} {kind:?}");
            } else {
                assert_eq!(one.stats.nodes, two.stats.nodes, "seed {seed} {kind:?}");
            }
        }
        if brute == Outcome::Loss { losses += 1 } else { wins += 1 }
    }
    assert!(losses >= 5 && wins >= 5, "{losses} losses, {wins} wins");
}
