//! A game from outside the library needs only [`Game`] (and [`Notation`] to be read from text):
//! tic-tac-toe, written here with the four required methods and nothing else, is solved by
//! every generic solver, which agree with an independent minimax on every reachable position.
//! The solvers that need more of a game (an exact key, a position graph, a table file, GIPF)
//! say why they cannot answer instead of answering wrongly.

use std::collections::HashMap;

use arrayvec::ArrayVec;
use bitsolve::{
    Game, Limits, Notation, Outcome, ParseError, Player, SolverKind, SolverOptions, make_solver,
};

/// Tic-tac-toe: the squares of each player as bits 0..9 (row by row), and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TicTacToe {
    stones: [u16; 2],
    side: Player,
}

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

impl Game for TicTacToe {
    type Move = u8;
    type Moves = ArrayVec<u8, 9>;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        if self.outcome().is_none() {
            let taken = self.stones[0] | self.stones[1];
            moves.extend((0..9).filter(|&sq| taken >> sq & 1 == 0));
        }
    }

    fn play(&mut self, mv: u8) {
        self.stones[self.side.index()] |= 1 << mv;
        self.side = !self.side;
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.stones[(!self.side).index()];
        // (clippy's `contains` suggestion would test `last & line` against the lines instead)
        #[allow(clippy::manual_contains)]
        let three = LINES.iter().any(|&line| last & line == line);
        if three {
            Some(Outcome::Loss)
        } else if self.stones[0] | self.stones[1] == 0o777 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        // An injective key, then mixed: no two positions share a hash.
        let key = u64::from(self.stones[0])
            | u64::from(self.stones[1]) << 9
            | (self.side.index() as u64) << 18;
        let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 27)
    }
}

impl Notation for TicTacToe {
    /// Nine characters `x`, `o` or `.` row by row, a space and the side to move (`x` or `o`).
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 11 || chars[9] != ' ' {
            return Err(ParseError::new(
                1,
                1,
                "expected nine squares, a space and the side to move",
            ));
        }
        let mut pos = TicTacToe { stones: [0, 0], side: Player::First };
        for (sq, &c) in chars[..9].iter().enumerate() {
            match c {
                'x' => pos.stones[0] |= 1 << sq,
                'o' => pos.stones[1] |= 1 << sq,
                '.' => {}
                _ => return Err(ParseError::new(1, sq + 1, format!("`{c}` is not x, o or ."))),
            }
        }
        pos.side = match chars[10] {
            'x' => Player::First,
            'o' => Player::Second,
            c => return Err(ParseError::new(1, 11, format!("side `{c}` is not x or o"))),
        };
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let square = |sq: u32| match (self.stones[0] >> sq & 1, self.stones[1] >> sq & 1) {
            (1, _) => 'x',
            (_, 1) => 'o',
            _ => '.',
        };
        let side = if self.side == Player::First { 'x' } else { 'o' };
        format!("{} {side}", (0..9).map(square).collect::<String>())
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let mut moves = ArrayVec::new();
        self.generate_moves(&mut moves);
        match text.parse::<u8>() {
            Ok(n) if (1..=9).contains(&n) && moves.contains(&(n - 1)) => Ok(n - 1),
            _ => Err(ParseError::new(1, 1, format!("`{text}` is not a legal move (1-9)"))),
        }
    }

    fn format_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }
}

/// Minimax by hand, memoised: the oracle, independent of the library's solvers.
fn minimax(pos: TicTacToe, memo: &mut HashMap<TicTacToe, i8>) -> i8 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        };
    }
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let mut moves = ArrayVec::new();
    pos.generate_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&mv| {
            let mut child = pos;
            child.play(mv);
            -minimax(child, memo)
        })
        .max()
        .expect("an unfinished position has a move");
    memo.insert(pos, best);
    best
}

/// Every position reachable from the empty board.
fn reachable() -> Vec<TicTacToe> {
    let start = TicTacToe::parse_position("......... x").unwrap();
    let (mut seen, mut stack) = (vec![start], vec![start]);
    let mut known = std::collections::HashSet::from([start]);
    while let Some(pos) = stack.pop() {
        let mut moves = ArrayVec::new();
        pos.generate_moves(&mut moves);
        for &mv in &moves {
            let mut child = pos;
            child.play(mv);
            if known.insert(child) {
                seen.push(child);
                stack.push(child);
            }
        }
    }
    seen
}

#[test]
fn every_generic_solver_solves_a_game_that_implements_only_game_and_notation() {
    let positions = reachable();
    assert_eq!(positions.len(), 5478, "the legal tic-tac-toe positions");
    let mut memo = HashMap::new();
    let options = |threads| SolverOptions { threads, tt_mib: 1, ..SolverOptions::default() };
    let kinds = [
        (SolverKind::Brute, 1),
        (SolverKind::Alphabeta, 1),
        (SolverKind::Alphabeta, 2),
        (SolverKind::Pns, 1),
        (SolverKind::Dfpn, 1),
        (SolverKind::Dfpn, 2),
        (SolverKind::Auto, 1),
    ];
    let mut counts = [0usize; 3];
    for (kind, threads) in kinds {
        let mut solver = make_solver::<TicTacToe>(kind, &options(threads));
        // The two-thread solvers on every tenth position (each solve starts a thread pool).
        for pos in positions.iter().step_by(if threads > 1 { 10 } else { 1 }) {
            let want = match minimax(*pos, &mut memo) {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            };
            let report = solver.solve(pos, &Limits::none());
            let text = pos.format_position();
            assert_eq!(report.outcome, Some(want), "{kind:?} x{threads} on {text}");
            if let Some(mv) = report.best_move {
                let mut child = *pos;
                child.play(mv);
                let after = -minimax(child, &mut memo);
                assert_eq!(
                    after,
                    minimax(*pos, &mut memo),
                    "{kind:?}: best move {} on {text}",
                    pos.format_move(mv)
                );
            }
            if kind == SolverKind::Brute {
                counts[want as usize] += 1;
            }
        }
    }
    assert!(counts.iter().all(|&n| n > 100), "wins, draws and losses all occur: {counts:?}");
    // The empty board is a draw.
    let start = TicTacToe::parse_position("......... x").unwrap();
    assert_eq!(minimax(start, &mut memo), 0);
}

#[test]
fn solvers_that_need_more_of_a_game_say_why() {
    let start = TicTacToe::parse_position("x...o.... x").unwrap();
    for kind in [SolverKind::Retro, SolverKind::Matching, SolverKind::Table, SolverKind::Retro2] {
        let report = make_solver::<TicTacToe>(kind, &SolverOptions::default())
            .solve(&start, &Limits::none());
        assert_eq!(report.outcome, None, "{kind:?}");
        let reason = report.unknown.map(|u| u.to_string()).unwrap_or_default();
        assert!(!reason.is_empty(), "{kind:?} gives a reason");
    }
}

#[test]
fn its_notation_reads_what_it_writes_and_locates_errors() {
    for pos in reachable().iter().step_by(97) {
        assert_eq!(TicTacToe::parse_position(&pos.format_position()).unwrap(), *pos);
    }
    let err = TicTacToe::parse_position("xo?...... x").unwrap_err();
    assert_eq!((err.line, err.column), (1, 3));
    let pos = TicTacToe::parse_position("x........ o").unwrap();
    assert!(pos.parse_move("1").is_err(), "an occupied square");
    assert_eq!(pos.parse_move("5").unwrap(), 4);
}
