//! GIPF on small boards: every solver agrees with the brute-force oracle on random positions,
//! the incremental hash equals the hash from scratch, and the one-line notation round-trips.

use bitsolve::search::brute::BruteSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{
    Game, Gipf, Limits, Notation, Outcome, Perft, Solver, SolverKind, SolverOptions, make_solver,
};
use proptest::prelude::*;

/// A random legal position: parameters, then random pushes from an empty or start board.
fn random_position(rng: &mut KeyStream) -> Gipf {
    let pick = |rng: &mut KeyStream, n: u64| rng.next_key() % n;
    let side = 2 + pick(rng, 2) as usize;
    let k = 3 + pick(rng, 2) as u32;
    let pieces = if side == 2 { 3 + pick(rng, 4) } else { 4 + pick(rng, 5) } as u32;
    let rows = (0..2 * side - 1)
        .map(|i| "_".repeat(side + i.min(2 * side - 2 - i)))
        .collect::<Vec<_>>()
        .join("/");
    let text = format!("{side} {k} {pieces} {pieces}/{pieces} {pieces} W/{rows}");
    let mut pos = Gipf::parse_position(&text).unwrap();
    for _ in 0..pick(rng, 2 * u64::from(pieces)) {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = bitsolve::games::gipf::GipfMoves::new();
        pos.generate_moves(&mut moves);
        let mv = moves[pick(rng, moves.len() as u64) as usize];
        pos.play(mv);
    }
    pos
}

#[test]
fn solvers_agree_with_brute_force() {
    solvers_agree_with_brute_force_on(100);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn solvers_agree_with_brute_force_deep() {
    solvers_agree_with_brute_force_on(300);
}

/// The check of `solvers_agree_with_brute_force` on `count` samples.
fn solvers_agree_with_brute_force_on(count: usize) {
    let mut rng = KeyStream::new(0x6769_7066);
    let mut checked = 0;
    let mut kinds = [0usize; 3];
    for _ in 0..count {
        let pos = random_position(&mut rng);
        let text = pos.format_position();
        let oracle = BruteSolver::new().solve(&pos, &Limits::nodes(100_000));
        let Some(truth) = oracle.value() else { continue };
        checked += 1;
        kinds[truth.outcome() as usize] += 1;
        let plain =
            SolverOptions { threads: 1, tt_mib: 1, epsilon: None, ..SolverOptions::default() };
        // df-pn and auto also with GIPF's own settings (no mobility, probe, epsilon 2).
        let tuned = SolverOptions { tt_mib: 1, ..SolverOptions::for_game::<Gipf>() };
        let configs = [
            (SolverKind::Alphabeta, plain.clone()),
            (SolverKind::Pns, plain.clone()),
            (SolverKind::Dfpn, plain.clone()),
            (SolverKind::Dfpn, tuned.clone()),
            (SolverKind::Retro, plain),
            (SolverKind::Auto, tuned),
        ];
        for (kind, options) in configs {
            let report = make_solver::<Gipf>(kind, &options).solve(&pos, &Limits::none());
            assert_eq!(report.outcome, Some(truth.outcome()), "{kind:?} {options:?} on {text}");
            if matches!(kind, SolverKind::Alphabeta | SolverKind::Retro) {
                assert_eq!(report.plies, truth.plies(), "{kind:?} distance on {text}");
            }
        }
    }
    assert!(checked * 3 >= count, "only {checked} positions were small enough");
    assert!(kinds[0] > 0 && kinds[2] > 0, "outcomes seen: {kinds:?}");
}

#[test]
fn start_positions_have_the_official_move_counts() {
    let s4 = Gipf::parse_position("4 4 15 15/12 12 W/W__B/_____/______/B_____W/______/_____/W__B")
        .unwrap();
    assert_eq!(s4.perft(1), 24);
    let s2 = Gipf::parse_position("2 3 5 5/2 2 W/WB/B_W/WB").unwrap();
    assert_eq!(s2.perft(1), 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn incremental_hash_equals_hash_from_scratch(seed in any::<u64>()) {
        let mut rng = KeyStream::new(seed);
        let pos = random_position(&mut rng);
        prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
    }

    #[test]
    fn notation_round_trips(seed in any::<u64>()) {
        let mut rng = KeyStream::new(seed);
        let pos = random_position(&mut rng);
        let text = pos.format_position();
        let back = Gipf::parse_position(&text).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.hash(), pos.hash());
        let mut moves = bitsolve::games::gipf::GipfMoves::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            prop_assert_eq!(pos.parse_move(&pos.format_move(mv)).unwrap(), mv);
        }
    }
}

/// A random S = 2 position with rows of `K` = 2 or 3: the board where play can go round in
/// circles (pieces return to the reserves), so draws by infinite play occur.
fn random_s2_position(rng: &mut KeyStream) -> Gipf {
    let pick = |rng: &mut KeyStream, n: u64| rng.next_key() % n;
    let k = if pick(rng, 3) == 0 { 3 } else { 2 };
    let (gw, gb) = (3 + pick(rng, 3) as u32, 3 + pick(rng, 3) as u32);
    let start = if pick(rng, 2) == 0 { "WB/B_W/WB" } else { "__/___/__" };
    let on_board = if start.starts_with('W') { 3 } else { 0 };
    let text = format!("2 {k} {gw} {gb}/{} {} W/{start}", gw - on_board, gb - on_board);
    let mut pos = Gipf::parse_position(&text).unwrap();
    for _ in 0..pick(rng, 24) {
        if pos.outcome().is_some() {
            break;
        }
        let mut moves = bitsolve::games::gipf::GipfMoves::new();
        pos.generate_moves(&mut moves);
        pos.play(moves[pick(rng, moves.len() as u64) as usize]);
    }
    pos
}

/// The retrograde solver (infinite play is a draw) gives the brute-force oracle's exact value
/// (repetition on the path is a draw), distance included, on S = 2 positions with cycles.
/// The oracle finishes only on positions close to the end, which are wins and losses; the
/// draws are checked against alpha-beta (itself checked against the oracle) below.
// Not split into a default part and a deep test: the first 170 samples hold only losses.
#[test]
fn retro_agrees_with_brute_force_on_small_boards_with_cycles() {
    let mut rng = KeyStream::new(0x0072_6574_726f);
    let mut kinds = [0usize; 3];
    let mut checked = 0;
    for _ in 0..500 {
        let pos = random_s2_position(&mut rng);
        let text = pos.format_position();
        let Some(truth) = BruteSolver::new().solve(&pos, &Limits::nodes(50_000)).value() else {
            continue;
        };
        checked += 1;
        kinds[truth.outcome() as usize] += 1;
        let report = retro().solve(&pos, &Limits::none());
        assert_eq!(report.value(), Some(truth), "retro on {text}");
        if let Some(mv) = report.best_move {
            let mut child = pos.clone();
            child.play(mv);
            let v = BruteSolver::new().solve(&child, &Limits::none()).value().unwrap();
            assert_eq!(v.parent(), truth, "retro's move {} on {text}", pos.format_move(mv));
        }
    }
    eprintln!("checked {checked}, outcomes (loss, draw, win) {kinds:?}");
    assert!(checked >= 150, "only {checked} positions were small enough");
    assert!(kinds[0] > 0 && kinds[2] > 0, "outcomes seen: {kinds:?}");
}

fn retro() -> Box<dyn Solver<Gipf>> {
    make_solver::<Gipf>(SolverKind::Retro, &SolverOptions::default())
}

/// On S = 2 positions far from the end, draws included, the retrograde solver and alpha-beta
/// (repetition draws, checked against the oracle above) agree whenever alpha-beta finishes.
#[test]
fn retro_agrees_with_alphabeta_on_drawn_small_boards() {
    retro_agrees_with_alphabeta(60);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn retro_agrees_with_alphabeta_on_drawn_small_boards_deep() {
    retro_agrees_with_alphabeta(200);
}

/// Retrograde analysis and alpha-beta agree on `count` random S = 2 boards.
fn retro_agrees_with_alphabeta(count: usize) {
    let mut rng = KeyStream::new(0x6472_6177);
    let mut kinds = [0usize; 3];
    let options = SolverOptions { tt_mib: 4, ..SolverOptions::default() };
    for _ in 0..count {
        let pos = random_s2_position(&mut rng);
        let text = pos.format_position();
        let ab = make_solver::<Gipf>(SolverKind::Alphabeta, &options)
            .solve(&pos, &Limits::nodes(300_000));
        let Some(outcome) = ab.outcome else { continue };
        kinds[outcome as usize] += 1;
        let report = retro().solve(&pos, &Limits::none());
        assert_eq!(report.outcome, Some(outcome), "retro against alphabeta on {text}");
    }
    eprintln!("outcomes (loss, draw, win) {kinds:?}");
    assert!(kinds.iter().all(|&n| n > 0), "every outcome must occur: {kinds:?}");
}

/// Every S = 2 variant of `results/gipf/small-variants.md` (K = 2, 3; GW, GB = 3..8) has the
/// retrograde value found there: with K = 3 White wins iff GW > 3 (the first push fills the
/// board and Black is stuck); with K = 2 White loses with GW = 3, wins with GB = 3 and
/// otherwise neither side can force a win (a draw), which the search passes proved for
/// GW <= 5 only.
#[test]
fn retro_solves_every_s2_variant() {
    for k in 2..=3 {
        for gw in 3..=8u32 {
            for gb in 3..=8u32 {
                let text = format!("2 {k} {gw} {gb}/{} {} W/WB/B_W/WB", gw - 3, gb - 3);
                let pos = Gipf::parse_position(&text).unwrap();
                let want = match (k, gw, gb) {
                    (_, 3, _) => Outcome::Loss,
                    (3, _, _) | (2, _, 3) => Outcome::Win,
                    _ => Outcome::Draw,
                };
                let report = retro().solve(&pos, &Limits::none());
                assert_eq!(report.outcome, Some(want), "{text}");
                assert!(report.stats.nodes <= 23_132, "{text}: {} positions", report.stats.nodes);
            }
        }
    }
}

/// The value of `pos` for the side to move when play stops after `n` plies (1 = it can force
/// a win within `n` plies, -1 = the opponent can, 0 = neither): memoised plain minimax, the
/// oracle of `WINNING_SEQUENCE_EXIST`.
fn bounded_value(pos: &Gipf, n: u32, memo: &mut std::collections::HashMap<(u128, u32), i8>) -> i8 {
    match pos.outcome() {
        Some(Outcome::Win) => return 1,
        Some(Outcome::Loss) => return -1,
        Some(Outcome::Draw) => return 0,
        None if n == 0 => return 0,
        None => {}
    }
    let key = (pos.exact_key().expect("S = 2 has exact keys"), n);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut moves = bitsolve::games::gipf::GipfMoves::new();
    pos.generate_moves(&mut moves);
    let mut best = -1;
    for &mv in &moves {
        let mut child = pos.clone();
        child.play(mv);
        best = best.max(-bounded_value(&child, n - 1, memo));
        if best == 1 {
            break;
        }
    }
    memo.insert(key, best);
    best
}

/// `WINNING_SEQUENCE_EXIST N` answers "can a side force a win within N plies" both ways it is
/// computed: the retrograde distance (shortest forced win, longest resistance) compared with N
/// gives the bounded minimax value for every N, draws included; and the interpreter's answers
/// equal the oracle's, for N up to 12 and for an N far beyond every distance.
#[test]
fn winning_sequence_matches_bounded_minimax() {
    winning_sequences_match(40);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn winning_sequence_matches_bounded_minimax_deep() {
    winning_sequences_match(120);
}

/// `WINNING_SEQUENCE_EXIST N` and retrograde distances match a bounded minimax on `rounds`
/// random S = 2 boards.
fn winning_sequences_match(rounds: usize) {
    use bitsolve::protocol::gipf::Interpreter;
    let mut rng = KeyStream::new(0x5E9E_4CE5);
    let mut seen = [0usize; 3];
    let mut huge = [0usize; 2];
    let mut interpreter = Interpreter::new(4, SolverKind::Auto);
    for round in 0..rounds {
        let pos = random_s2_position(&mut rng);
        let text = pos.format_position();
        let report = retro().solve(&pos, &Limits::none());
        let outcome = report.outcome.expect("S = 2 positions are small");
        let mut memo = std::collections::HashMap::new();
        for n in 0..=12 {
            let want = bounded_value(&pos, n, &mut memo);

            let sign = match outcome {
                Outcome::Win => 1,
                Outcome::Loss => -1,
                Outcome::Draw => 0,
            };
            let from_retro = if report.plies.is_some_and(|d| d <= n) { sign } else { 0 };
            assert_eq!(from_retro, want, "N = {n}: retro {:?} on {text}", report.value());
            seen[(want + 1) as usize] += 1;
            if round % 4 == 0 && n % 3 == 0 {
                let lines: Vec<&str> = text.split('/').collect();
                let board =
                    format!("LOAD_GAME_BOARD\n{}\nWINNING_SEQUENCE_EXIST {n}\n", lines.join("\n"));
                let got = interpreter.run(&board);
                let white_to_move = lines[1].ends_with('W');
                let expect = match (want, white_to_move) {
                    (0, _) => "NO_WINNING_SEQUENCE",
                    (1, true) | (-1, false) => "WHITE_HAS_WINNING_SEQUENCE",
                    _ => "BLACK_HAS_WINNING_SEQUENCE",
                };
                assert!(got.ends_with(&format!("{expect}\n")), "N = {n} on {text}: {got}");
            }
        }
        // An N beyond every distance: the retrograde step answers (the bounded search would
        // need N plies of depth); a draw has no winning sequence however long.
        if round % 8 != 1 {
            continue;
        }
        let lines: Vec<&str> = text.split('/').collect();
        let got = interpreter.run(&format!(
            "LOAD_GAME_BOARD\n{}\nWINNING_SEQUENCE_EXIST 1000000\n",
            lines.join("\n")
        ));
        let none = outcome == Outcome::Draw;
        assert_eq!(got.ends_with("NO_WINNING_SEQUENCE\n"), none, "{text}: {got}");
        huge[usize::from(none)] += 1;
    }
    assert!(seen.iter().all(|&k| k > 20), "values seen (loss, none, win): {seen:?}");
    assert!(huge.iter().all(|&k| k > 0), "huge N (decided, drawn): {huge:?}");
}
