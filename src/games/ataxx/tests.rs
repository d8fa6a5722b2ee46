use proptest::prelude::*;

use super::*;
use crate::game::Perft;
use crate::notation::Notation;

fn std_pos(fen: &str) -> AtaxxStandard {
    AtaxxStandard::parse_position(fen).unwrap()
}

fn moves_of<const P: bool>(pos: &Ataxx<P>) -> Vec<AtaxxMove> {
    let mut moves = <Ataxx<P> as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

/// Plays the moves picked by `choices` (indices modulo the number of moves) from `pos`,
/// stopping at the end of the game; calls `check` on every position reached.
fn walk<const P: bool>(mut pos: Ataxx<P>, choices: &[usize], mut check: impl FnMut(&Ataxx<P>)) {
    check(&pos);
    for &c in choices {
        let moves = moves_of(&pos);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[c % moves.len()]);
        check(&pos);
    }
}

#[test]
fn start_positions_of_small_boards() {
    let cases = [
        (2, 2, "xo/ox x 0 1"),
        (2, 3, "xo/2/ox x 0 1"),
        (3, 2, "x1o/o1x x 0 1"),
        (3, 3, "x1o/3/o1x x 0 1"),
        (4, 4, "x2o/4/4/o2x x 0 1"),
        (5, 5, "x3o/5/5/5/o3x x 0 1"),
        (7, 7, "x5o/7/7/7/7/7/o5x x 0 1"),
    ];
    for (w, h, fen) in cases {
        let start = AtaxxStandard::start(w, h);
        assert_eq!(start.format_position(), fen);
        assert_eq!(std_pos(fen), start);
        assert_eq!((start.width(), start.height()), (w, h));
    }
    assert_eq!(AtaxxStandard::startpos(), AtaxxStandard::start(7, 7));
    // 2x2: no empty square, the game is a draw at once.
    assert_eq!(AtaxxStandard::start(2, 2).outcome(), Some(Outcome::Draw));
    assert_eq!(AtaxxPolish::start(2, 2).outcome(), Some(Outcome::Draw));
}

#[test]
fn accessors_of_the_start() {
    let pos = AtaxxStandard::startpos();
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.stones(Player::First), Squares::EMPTY.with(48).with(6));
    assert_eq!(pos.stones(Player::Second), Squares::EMPTY.with(0).with(54));
    assert_eq!((pos.halfmove(), pos.fullmove()), (0, 1));
    assert_eq!(pos.empties().count(), 45);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    assert_eq!(pos.reversible_plies(), Some(0));
}

#[test]
fn counters_follow_the_moves() {
    let mut pos = AtaxxStandard::startpos();
    pos.play(pos.parse_move("g1e3").unwrap());
    assert_eq!((pos.halfmove(), pos.fullmove(), pos.side_to_move()), (1, 1, Player::Second));
    pos.play(pos.parse_move("b1").unwrap());
    assert_eq!((pos.halfmove(), pos.fullmove()), (0, 2));
    assert_eq!(pos.format_position(), "x5o/7/7/7/4x2/7/oo5 x 0 2");
}

#[test]
fn moves_in_both_notations() {
    let pos = AtaxxStandard::startpos();
    let clone = pos.parse_move("a6").unwrap();
    assert_eq!(clone, AtaxxMove::clone_to(40));
    assert_eq!(pos.parse_move("a7a6").unwrap(), clone);
    assert_eq!(pos.format_move(clone), "a6");
    assert_eq!(pos.format_move_long(clone), "a7a6");
    let jump = pos.parse_move("a7a5").unwrap();
    assert_eq!((jump.from(), jump.to()), (Some(48), Some(32)));
    assert_eq!(pos.format_move(jump), "a7a5");
    assert_eq!(pos.format_move_long(jump), "a7a5");
    for bad in ["", "a", "h1", "a8", "a1", "g7", "a7a4", "a1a2", "0000", "a7a6x", "d4"] {
        assert!(pos.parse_move(bad).is_err(), "{bad:?} accepted");
    }
    assert_eq!("a7a6".parse::<AtaxxMove>().unwrap(), clone);
    assert_eq!("a7a5".parse::<AtaxxMove>().unwrap(), jump);
    assert_eq!("0000".parse::<AtaxxMove>().unwrap(), AtaxxMove::PASS);
    assert_eq!("e5".parse::<AtaxxMove>().unwrap().to_string(), "e5");
    assert_eq!(format!("{jump:?}"), "AtaxxMove(a7a5)");
    assert!("a1d1".parse::<AtaxxMove>().is_err());
    let err = pos.parse_move("a7z5").unwrap_err();
    assert_eq!((err.line, err.column), (1, 3));
    // A forced pass.
    let stuck = std_pos("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(moves_of(&stuck), vec![AtaxxMove::PASS]);
    assert_eq!(stuck.parse_move("0000").unwrap(), AtaxxMove::PASS);
    assert_eq!(stuck.format_move(AtaxxMove::PASS), "0000");
    assert_eq!(stuck.format_move_long(AtaxxMove::PASS), "0000");
}

#[test]
fn fen_errors_name_the_column() {
    let cases = [
        ("x5o/7/7/7/7/7/o5q x 0 1", 17),
        ("x5o/7/7/7/7/7/o5x y 0 1", 19),
        ("x5o/7/7/7/7/7/o5x x z 1", 21),
        ("x5o/7/7/7/7/7/o5x x 0 1 9", 25),
        ("x5o/6/7/7/7/7/o5x x 0 1", 5),
        ("x5o/7/7/7/7/7/7/o5x x 0 1", 16),
        ("x8/9 x", 2),
        ("x5o/7/7/7/7/7/o5x", 18),
        ("", 1),
        ("  x5o/7/7/7/7/7/o5q x", 19),
    ];
    for (fen, column) in cases {
        let err = AtaxxStandard::parse_position(fen).unwrap_err();
        assert_eq!((err.line, err.column), (1, column), "{fen:?}: {err}");
    }
    // Clock and fullmove number are optional.
    assert_eq!(std_pos("x5o/7/7/7/7/7/o5x x"), AtaxxStandard::startpos());
    assert_eq!(std_pos("x5o/7/7/7/7/7/o5x o 7").halfmove(), 7);
}

#[test]
fn blocked_squares_and_odd_boards() {
    let pos = std_pos("x-o/1-1/o-x o 3 9");
    assert_eq!(pos.format_position(), "x-o/1-1/o-x o 3 9");
    assert_eq!(pos.valid().count(), 6);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    assert_ne!(pos.hash(), std_pos("x1o/3/o1x o 3 9").hash());
    let one = std_pos("x/1/o x 0 1");
    assert_eq!((one.width(), one.height()), (1, 3));
    assert_eq!(moves_of(&one), vec![AtaxxMove::clone_to(8)]);
}

#[test]
fn game_ends_under_each_rule_set() {
    // Full board: count decides.
    assert_eq!(std_pos("xxo/xxo/oox o 0 1").outcome(), Some(Outcome::Loss));
    assert_eq!(
        AtaxxPolish::parse_position("xxo/xxo/oox x 0 1").unwrap().outcome(),
        Some(Outcome::Win)
    );
    // One colour left.
    assert_eq!(std_pos("x2/3/3 o 0 1").outcome(), Some(Outcome::Loss));
    assert_eq!(std_pos("x2/3/3 x 0 1").outcome(), Some(Outcome::Win));
    assert!(moves_of(&std_pos("x2/3/3 x 0 1")).is_empty());
    // x is stuck but o can move: a pass, or a loss under Polish rules.
    let fen = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1";
    assert_eq!(std_pos(fen).outcome(), None);
    let polish = AtaxxPolish::parse_position(fen).unwrap();
    assert_eq!(polish.outcome(), Some(Outcome::Loss));
    assert!(moves_of(&polish).is_empty());
    // Empty squares out of everyone's reach: over under standard rules (count decides), a loss
    // for the stuck side to move under Polish rules.
    let fen = "xxo--2/xxx--2/-----2/-----2/7/7/7 x 0 1";
    assert_eq!(std_pos(fen).outcome(), Some(Outcome::Win));
    assert!(moves_of(&std_pos(fen)).is_empty());
    assert_eq!(std_pos(fen).perft(1), 0);
    let polish = AtaxxPolish::parse_position(fen).unwrap();
    assert_eq!(polish.outcome(), Some(Outcome::Loss));
}

#[test]
fn clock_limits_perft_but_not_the_game() {
    let expired = std_pos("x5o/7/7/7/7/7/o5x x 100 1");
    assert_eq!(expired.perft(1), 0);
    assert!(expired.split_perft(2).is_empty());
    assert_eq!(expired.outcome(), None);
    assert_eq!(moves_of(&expired).len(), 16);
    assert_eq!(std_pos("x5o/7/7/7/7/7/o5x x 99 1").perft(2), 6 * 16);
    let polish = AtaxxPolish::parse_position("x5o/7/7/7/7/7/o5x x 49 1").unwrap();
    assert_eq!(polish.perft(1), 16);
    assert_eq!(polish.perft(2), 6 * 16);
    let polish = AtaxxPolish::parse_position("x5o/7/7/7/7/7/o5x x 50 1").unwrap();
    assert_eq!(polish.perft(1), 0);
}

#[test]
fn split_perft_sums_to_perft() {
    let pos = std_pos("7/7/7/2x1o2/7/7/7 x 0 1");
    let split = pos.split_perft(3);
    assert_eq!(split.len(), 23);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 7887);
    let stuck = std_pos("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(stuck.split_perft(2), vec![(AtaxxMove::PASS, 75)]);
}

#[test]
fn fast_perft_matches_the_generic_one() {
    /// The trait's default perft, through `generate_moves` and `play`.
    fn slow<const P: bool>(pos: &Ataxx<P>, depth: u32) -> u64 {
        let limit = if P { POLISH_CLOCK_LIMIT } else { STANDARD_CLOCK_LIMIT };
        if depth == 0 {
            return 1;
        }
        if pos.halfmove() >= limit {
            return 0;
        }
        moves_of(pos)
            .into_iter()
            .map(|mv| {
                let mut child = pos.clone();
                child.play(mv);
                slow(&child, depth - 1)
            })
            .sum()
    }
    for fen in [
        "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1",
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
        "7/7/7/7/-------/-------/x5o x 0 1",
        "x2o/4/4/o2x x 97 1",
        "x1o/3/o1x x 0 1",
    ] {
        let pos = std_pos(fen);
        let polish = AtaxxPolish::parse_position(fen).unwrap();
        for depth in 0..=4 {
            assert_eq!(pos.perft(depth), slow(&pos, depth), "{fen} depth {depth}");
            assert_eq!(polish.perft(depth), slow(&polish, depth), "{fen} depth {depth}");
        }
    }
}

/// A random start: a board size from 2x2 to 7x7, a few blocked squares (kept away from the
/// corners), and a random walk of up to 60 plies.
fn arb_walk() -> impl Strategy<Value = (u32, u32, u64, Vec<usize>)> {
    (2u32..=7, 2u32..=7, any::<u64>(), prop::collection::vec(any::<usize>(), 0..60))
}

fn setup<const P: bool>(w: u32, h: u32, blocks: u64) -> Ataxx<P> {
    let mut pos = Ataxx::<P>::start(w, h);
    // About one square in eight blocked.
    let mask = blocks & (blocks >> 13) & (blocks >> 29);
    for sq in pos.empties() & Bitboard64(mask) {
        pos.block(sq);
    }
    pos
}

proptest! {
    #[test]
    fn incremental_hash_equals_scratch((w, h, blocks, choices) in arb_walk()) {
        walk(setup::<false>(w, h, blocks), &choices, |p| {
            assert_eq!(p.hash(), p.hash_from_scratch());
        });
    }

    #[test]
    fn fen_round_trips((w, h, blocks, choices) in arb_walk()) {
        walk(setup::<true>(w, h, blocks), &choices, |p| {
            let fen = p.format_position();
            let back = AtaxxPolish::parse_position(&fen).unwrap();
            assert_eq!(&back, p, "{fen}");
            assert_eq!(back.hash(), p.hash());
        });
    }

    #[test]
    fn generated_moves_are_legal_and_distinct((w, h, blocks, choices) in arb_walk()) {
        walk(setup::<false>(w, h, blocks), &choices, |p| {
            let moves = moves_of(p);
            let mut sorted = moves.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len());
            assert_eq!(moves.is_empty(), p.outcome().is_some());
            assert_eq!(moves.len() as u64, p.perft(1));
            for mv in moves {
                assert!(p.is_legal(mv));
                assert_eq!(p.parse_move(&p.format_move(mv)).unwrap(), mv);
                assert_eq!(p.parse_move(&p.format_move_long(mv)).unwrap(), mv);
            }
        });
    }

    #[test]
    fn polish_differs_only_when_stuck((w, h, blocks, choices) in arb_walk()) {
        walk(setup::<false>(w, h, blocks), &choices, |p| {
            let polish = AtaxxPolish::parse_position(&p.format_position()).unwrap();
            let (s, q) = (moves_of(p), moves_of(&polish));
            let stuck = !p.can_move(p.side_to_move()) && !p.empties().is_empty();
            if stuck && !p.stones(Player::First).is_empty() && !p.stones(Player::Second).is_empty() {
                assert!(q.is_empty());
                assert_eq!(polish.outcome(), Some(Outcome::Loss));
                assert!(s.is_empty() || s == vec![AtaxxMove::PASS]);
            } else {
                assert_eq!(s, q);
                assert_eq!(p.outcome(), polish.outcome());
            }
        });
    }
}

#[test]
fn small_boards_have_their_published_values() {
    use crate::search::{Limits, SolverKind, SolverOptions, make_solver};
    let cases = [
        (2, 2, Outcome::Draw),
        (2, 3, Outcome::Win),
        (3, 2, Outcome::Win),
        (2, 4, Outcome::Loss),
        (2, 5, Outcome::Win),
    ];
    for (w, h, expected) in cases {
        let options = SolverOptions::default();
        let standard = AtaxxStandard::start(w, h);
        let report = make_solver::<AtaxxStandard>(SolverKind::Brute, &options)
            .solve(&standard, &Limits::none());
        assert_eq!(report.outcome, Some(expected), "{w}x{h} standard");
        let polish = AtaxxPolish::start(w, h);
        let report =
            make_solver::<AtaxxPolish>(SolverKind::Brute, &options).solve(&polish, &Limits::none());
        assert_eq!(report.outcome, Some(expected), "{w}x{h} polish");
    }
}
