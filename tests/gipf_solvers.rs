//! GIPF on small boards: every solver agrees with the brute-force oracle on random positions,
//! the incremental hash equals the hash from scratch, and the one-line notation round-trips.

use bitsolve::search::brute::BruteSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{
    Game, Gipf, Limits, Notation, Perft, Solver, SolverKind, SolverOptions, make_solver,
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
    let mut rng = KeyStream::new(0x6769_7066);
    let mut checked = 0;
    let mut kinds = [0usize; 3];
    for _ in 0..300 {
        let pos = random_position(&mut rng);
        let text = pos.format_position();
        let oracle = BruteSolver::new().solve(&pos, &Limits::nodes(100_000));
        let Some(truth) = oracle.value() else { continue };
        checked += 1;
        kinds[truth.outcome() as usize] += 1;
        for kind in [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn] {
            let options =
                SolverOptions { threads: 1, tt_mib: 1, epsilon: None, ..SolverOptions::default() };
            let report = make_solver::<Gipf>(kind, &options).solve(&pos, &Limits::none());
            assert_eq!(report.outcome, Some(truth.outcome()), "{kind:?} on {text}");
            if kind == SolverKind::Alphabeta {
                assert_eq!(report.plies, truth.plies(), "alphabeta distance on {text}");
            }
        }
    }
    assert!(checked >= 100, "only {checked} positions were small enough");
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
