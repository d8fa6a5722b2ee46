//! The Gauss score solver with threads and with each search refinement on or off equals
//! brute-force minimax over final scores on thousands of random positions with few placements
//! left (both rule readings), and so does its best move.

use std::collections::HashMap;

use bitsolve::games::gauss::Gauss;
use bitsolve::search::score::{AlphaBetaScore, BruteScore, ScoreFeatures, ScoreSolver};
use bitsolve::{Game, Limits, Notation, Scored, SolverOptions};

/// Random positions: `per_count` for each number of remaining placements in `counts`.
fn positions(counts: &[(u32, usize)], seed: u64) -> Vec<Gauss> {
    Gauss::random_suite(counts, seed)
}

/// Minimax over final scores with a memo keyed by the 64-bit hash: the brute-force value,
/// fast enough for thousands of positions with up to seven placements left.
fn memo_score(pos: &Gauss, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(s) = pos.final_score() {
        return s;
    }
    let key = pos.hash();
    if let Some(&s) = memo.get(&key) {
        return s;
    }
    let mut moves = <Gauss as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    let mut best = i32::MIN;
    for &mv in &moves {
        let mut child = *pos;
        child.play(mv);
        best = best.max(-memo_score(&child, memo));
    }
    memo.insert(key, best);
    best
}

fn solver(threads: usize, tt_mib: usize, features: ScoreFeatures) -> AlphaBetaScore {
    let options =
        SolverOptions { threads, helper_join: Some(0), tt_mib, ..SolverOptions::default() };
    AlphaBetaScore::new(&options).with_features(features)
}

/// Every configuration under test: threads, table size, refinements.
fn configurations() -> Vec<(String, AlphaBetaScore)> {
    let all = ScoreFeatures {
        etc: true,
        history: true,
        symmetry: true,
        mtdf: true,
        shallow: true,
        killer: true,
        guess: true,
        eager: true,
        defer: true,
        scramble: true,
        lean: false,
        bound: true,
    };
    let mut out = Vec::new();
    for (threads, tt_mib, features) in [
        (1, 2, ScoreFeatures::default()),
        (1, 2, ScoreFeatures::NONE),
        (1, 0, all),
        (1, 2, ScoreFeatures { killer: true, guess: true, ..ScoreFeatures::NONE }),
        (1, 2, ScoreFeatures { eager: true, killer: true, ..ScoreFeatures::NONE }),
        (2, 2, ScoreFeatures::default()),
        (2, 1, ScoreFeatures { eager: true, ..ScoreFeatures::NONE }),
        (2, 1, ScoreFeatures { defer: true, killer: true, ..ScoreFeatures::NONE }),
        (2, 1, ScoreFeatures { killer: true, guess: true, ..ScoreFeatures::NONE }),
        // The bound on the last placement alone and with threads.
        (1, 2, ScoreFeatures { bound: true, ..ScoreFeatures::NONE }),
        (2, 1, ScoreFeatures { bound: true, killer: true, ..ScoreFeatures::NONE }),
        (3, 1, all),
        // The lean node: alone, with a table of one bucket page, and with threads deferring.
        (1, 2, ScoreFeatures { lean: true, ..ScoreFeatures::NONE }),
        (1, 0, ScoreFeatures { lean: true, symmetry: true, ..ScoreFeatures::NONE }),
        (2, 1, ScoreFeatures { lean: true, defer: true, ..ScoreFeatures::NONE }),
        (3, 1, ScoreFeatures { lean: true, defer: true, scramble: true, ..ScoreFeatures::NONE }),
    ] {
        out.push((
            format!("threads={threads} tt={tt_mib} {features:?}"),
            solver(threads, tt_mib, features),
        ));
    }
    out
}

/// Checks `report` against the exact `truth` of `pos`: the score, and a best move whose child
/// has the negated score.
fn check(
    name: &str,
    pos: &Gauss,
    truth: i32,
    report: &bitsolve::search::score::ScoreReport<bitsolve::games::gauss::GaussMove>,
    memo: &mut HashMap<u64, i32>,
) {
    let text = pos.format_position();
    assert_eq!(report.score, Some(truth), "{name} on {text}");
    match report.best_move {
        None => assert!(pos.final_score().is_some(), "{name}: no move on {text}"),
        Some(mv) => {
            let mut child = *pos;
            child.play(mv);
            assert_eq!(memo_score(&child, memo), -truth, "{name}: best move on {text}");
        }
    }
}

#[test]
fn memo_oracle_equals_brute_force() {
    let mut memo = HashMap::new();
    for pos in positions(&[(1, 20), (2, 20), (3, 20), (4, 10)], 31) {
        let truth = BruteScore.solve_score(&pos, &Limits::none()).score.unwrap();
        assert_eq!(memo_score(&pos, &mut memo), truth, "{}", pos.format_position());
    }
}

#[test]
fn threaded_scores_equal_brute_force_on_small_positions() {
    scores_equal_brute_force(&[(1, 100), (2, 200), (3, 200), (4, 50)]);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn threaded_scores_equal_brute_force_on_small_positions_deep() {
    scores_equal_brute_force(&[(1, 300), (2, 600), (3, 600), (4, 150)]);
}

/// Every configuration's score equals brute force on random positions with `counts`
/// (placements left, positions).
fn scores_equal_brute_force(counts: &[(u32, usize)]) {
    let mut configs = configurations();
    let mut memo = HashMap::new();
    let mut signs = std::collections::BTreeMap::new();
    for pos in positions(counts, 32) {
        let truth = BruteScore.solve_score(&pos, &Limits::none()).score.unwrap();
        *signs.entry(truth.signum()).or_insert(0) += 1;
        for (name, solver) in &mut configs {
            let report = solver.solve_score(&pos, &Limits::none());
            check(name, &pos, truth, &report, &mut memo);
        }
    }
    assert_eq!(signs.len(), 3, "wins, draws and losses by score: {signs:?}");
}

/// Every configuration against the memo oracle on `counts` positions.
fn check_against_memo(counts: &[(u32, usize)], seed: u64) {
    let mut configs = configurations();
    let mut memo = HashMap::new();
    for pos in positions(counts, seed) {
        let truth = memo_score(&pos, &mut memo);
        for (name, solver) in &mut configs {
            let report = solver.solve_score(&pos, &Limits::none());
            check(name, &pos, truth, &report, &mut memo);
        }
    }
}

#[test]
fn threaded_scores_equal_the_oracle_with_five_and_six_left() {
    check_against_memo(&[(5, 10), (6, 1)], 33);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn threaded_scores_equal_the_oracle_with_five_and_six_left_deep() {
    check_against_memo(&[(5, 30), (6, 4)], 33);
}

/// The deep case (minutes: the oracle visits millions of positions).
#[test]
#[ignore = "slow: seven placements left"]
fn threaded_scores_equal_the_oracle_with_seven_left() {
    check_against_memo(&[(7, 3)], 36);
}

#[test]
fn a_threaded_solve_respects_its_limits() {
    let pos = positions(&[(14, 1)], 34)[0];
    let mut s = solver(2, 1, ScoreFeatures::default());
    let report = s.solve_score(&pos, &Limits::nodes(20_000));
    assert_eq!(report.score, None);
    assert_eq!(report.best_move, None);
    // The same solver still answers afterwards.
    let small = positions(&[(3, 1)], 35)[0];
    let truth = BruteScore.solve_score(&small, &Limits::none()).score;
    assert_eq!(s.solve_score(&small, &Limits::none()).score, truth);
}

/// With the default join the threaded search starts alone: a node limit below the join
/// stops it there, a larger one in the threaded part, and either way it answers afterwards.
#[test]
fn a_threaded_solve_with_a_prelude_respects_its_limits() {
    let pos = positions(&[(14, 1)], 34)[0];
    let options = SolverOptions { threads: 2, tt_mib: 1, ..SolverOptions::default() };
    let mut s = AlphaBetaScore::new(&options);
    let join = bitsolve::search::SCORE_HELPER_JOIN_DEFAULT;
    for limit in [join / 2, join * 4] {
        let report = s.solve_score(&pos, &Limits::nodes(limit));
        assert_eq!((report.score, report.best_move), (None, None), "limit {limit}");
        assert!(report.stats.nodes >= limit, "limit {limit}: {} nodes", report.stats.nodes);
    }
    let small = positions(&[(5, 1)], 35)[0];
    let truth = BruteScore.solve_score(&small, &Limits::none()).score;
    assert_eq!(s.solve_score(&small, &Limits::none()).score, truth);
}

/// The shortcut the score search takes at the last ply (scoring a move without building the
/// position) equals playing the move and scoring the result, for every move of thousands of
/// random positions at every stage of the game (both rule readings).
#[test]
fn final_score_after_equals_play_then_final_score() {
    let counts: Vec<(u32, usize)> = (1..=30).map(|n| (n, if n <= 3 { 400 } else { 60 })).collect();
    let mut checked = 0;
    for pos in positions(&counts, 37) {
        let mut moves = <Gauss as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        for &mv in &moves {
            let mut child = pos;
            child.play(mv);
            assert_eq!(
                pos.final_score_after(mv),
                child.final_score(),
                "{} then {mv:?}",
                pos.format_position()
            );
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked} moves");
}
