//! Every solver, sequential and parallel, agrees with the brute-force oracle on thousands of
//! random small positions of every game.
//!
//! The retrograde solver scores infinite play as a draw, the oracle a repetition on the path;
//! both give the same root value, distance included (the argument is in the docs of
//! `bitsolve::search::retro`), so it is held to the oracle's exact value everywhere, on the
//! digraphs' cycles too.

use bitsolve::search::brute::BruteSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{
    AtaxxPolish, AtaxxStandard, Connect4, Digraph, Limits, Notation, Solver, SolverKind,
    SolverOptions, Value, make_solver,
};

/// The solver configurations checked against brute force.
fn configurations() -> Vec<(SolverKind, SolverOptions)> {
    let mut out = Vec::new();
    for kind in [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn] {
        for threads in [1, 2] {
            if kind == SolverKind::Pns && threads == 2 {
                continue;
            }
            for tt_mib in [0, 4] {
                out.push((
                    kind,
                    SolverOptions {
                        threads,
                        helper_join: Some(0),
                        tt_mib,
                        epsilon: None,
                        ..SolverOptions::default()
                    },
                ));
            }
        }
    }
    out.push((
        SolverKind::Dfpn,
        SolverOptions { threads: 1, tt_mib: 4, epsilon: Some(0.25), ..SolverOptions::default() },
    ));
    out.push((SolverKind::Retro, SolverOptions::default()));
    out.push((SolverKind::Auto, SolverOptions { tt_mib: 1, ..SolverOptions::default() }));
    out
}

/// Solves `pos` with brute force (skipping it if that takes too long) and checks every
/// configuration against it. Returns the oracle's value if the position was checked.
fn check<G: Notation>(pos: &G, configs: &[(SolverKind, SolverOptions)]) -> Option<Value> {
    let oracle = BruteSolver::new().solve(pos, &Limits::nodes(200_000));
    let truth = oracle.value()?;
    for (kind, options) in configs {
        let report = make_solver::<G>(*kind, options).solve(pos, &Limits::none());
        let text = pos.format_position();
        assert_eq!(report.outcome, Some(truth.outcome()), "{kind:?} {options:?} on {text}");
        if matches!(kind, SolverKind::Alphabeta | SolverKind::Retro) {
            assert_eq!(report.plies, truth.plies(), "{kind:?} {options:?} distance on {text}");
        }
        check_best_move(pos, report.best_move, truth, &format!("{kind:?} {options:?}"));
    }
    Some(truth)
}

/// The positions of a random sample checked against brute force, and the oracle's outcomes
/// (loss, draw, win) among them.
#[derive(Default)]
struct Tally {
    checked: usize,
    outcomes: [usize; 3],
}

impl Tally {
    /// Checks `pos` (see [`check`]) and counts it, with its outcome, if it was checked.
    fn check<G: Notation>(&mut self, pos: &G, configs: &[(SolverKind, SolverOptions)]) {
        if let Some(truth) = check(pos, configs) {
            self.checked += 1;
            self.outcomes[truth.outcome() as usize] += 1;
        }
    }

    /// At least 80 % of the `count` positions drawn were checked, and every outcome occurred.
    fn assert_covers(&self, count: usize) {
        let (checked, outcomes) = (self.checked, self.outcomes);
        eprintln!("checked {checked} of {count}, outcomes (loss, draw, win) {outcomes:?}");
        assert!(checked * 10 >= count * 8, "only {checked} of {count} positions were small enough");
        assert!(outcomes.iter().all(|&n| n > 0), "every outcome must occur: {outcomes:?}");
    }
}

/// The best move must lead to a child whose value achieves the root's outcome.
fn check_best_move<G: Notation>(pos: &G, best: Option<G::Move>, truth: Value, who: &str) {
    let text = pos.format_position();
    if pos.outcome().is_some() {
        assert!(best.is_none(), "{who}: move at a finished position {text}");
        return;
    }
    let mv = best.unwrap_or_else(|| panic!("{who}: no best move on {text}"));
    let mut child = pos.clone();
    child.play(mv);
    let child_value = BruteSolver::new().solve(&child, &Limits::none()).value().unwrap();
    assert_eq!(
        child_value.parent().outcome(),
        truth.outcome(),
        "{who}: best move {} on {text} does not keep the result",
        pos.format_move(mv)
    );
}

/// A position reached by `plies` random moves from `start` (stopping at the end of the game).
fn random_playout<G: Notation>(start: &G, plies: u32, rng: &mut KeyStream) -> G {
    let mut pos = start.clone();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let mv = moves[(rng.next_key() % moves.len() as u64) as usize];
        pos.play(mv);
    }
    pos
}

fn ataxx_agrees<G: Notation>(count: usize, seed: u64) {
    // Boards of at most ten squares, some blocked. Draws are rare in Ataxx (equal counts on a
    // full even board); the 2x2 start is one, and the digraph test covers drawn cycles.
    let starts = [
        "x1/1o x 0 1",
        "x1o/o1x x 0 1",
        "x2o/o2x x 0 1",
        "xo/2/ox x 0 1",
        "x3o/o3x x 0 1",
        "x-2o/o2-x x 0 1",
        "xo/ox x 0 1",
    ];
    let configs = configurations();
    let mut rng = KeyStream::new(seed);
    let mut tally = Tally::default();
    for i in 0..count {
        let start = G::parse_position(starts[i % starts.len()]).unwrap();
        // Mostly positions still in play: a finished one is redrawn (up to a few times).
        let mut pos = start.clone();
        for _ in 0..4 {
            let plies = (rng.next_key() % 24) as u32;
            pos = random_playout(&start, plies, &mut rng);
            if pos.outcome().is_none() {
                break;
            }
        }
        tally.check(&pos, &configs);
    }
    tally.assert_covers(count);
}

#[test]
fn solvers_agree_with_brute_force_on_random_ataxx() {
    ataxx_agrees::<AtaxxStandard>(400, 1);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_agree_with_brute_force_on_random_ataxx_deep() {
    ataxx_agrees::<AtaxxStandard>(1500, 1);
}

#[test]
fn solvers_agree_with_brute_force_on_random_polish_ataxx() {
    ataxx_agrees::<AtaxxPolish>(400, 2);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_agree_with_brute_force_on_random_polish_ataxx_deep() {
    ataxx_agrees::<AtaxxPolish>(1500, 2);
}

#[test]
fn solvers_agree_with_brute_force_on_random_digraphs() {
    digraphs_agree(400);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_agree_with_brute_force_on_random_digraphs_deep() {
    digraphs_agree(1500);
}

/// Every configuration agrees with brute force on `count` random digraphs.
fn digraphs_agree(count: u64) {
    let configs = configurations();
    let mut outcomes = [0usize; 3];
    for seed in 0..count {
        let pos = Digraph::random(4 + (seed % 12) as usize, seed);
        let truth = check(&pos, &configs).expect("a digraph this small is solved by brute force");
        outcomes[truth.outcome() as usize] += 1;
    }
    assert!(outcomes.iter().all(|&n| n > 0), "every outcome must occur: {outcomes:?}");
}

/// Every configuration agrees with brute force on random Connect Four positions with few
/// empty cells: 7x6 late in the game, and whole small boards (4x4, 5x4, 4x5) from early on.
fn connect4_agrees(count: usize, seed: u64) {
    let boards = [("-", 29, 38), ("4x4:-", 3, 12), ("5x4:-", 8, 16), ("4x5:-", 8, 16)];
    let configs = configurations();
    let mut rng = KeyStream::new(seed);
    let mut tally = Tally::default();
    for i in 0..count {
        let (text, lo, hi) = boards[i % boards.len()];
        let start = Connect4::parse_position(text).unwrap();
        let plies = lo + (rng.next_key() % u64::from(hi - lo + 1)) as u32;
        let pos = random_playout(&start, plies, &mut rng);
        tally.check(&pos, &configs);
    }
    tally.assert_covers(count);
}

#[test]
fn solvers_agree_with_brute_force_on_random_connect4() {
    connect4_agrees(200, 3);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_agree_with_brute_force_on_random_connect4_deep() {
    connect4_agrees(1200, 3);
}
