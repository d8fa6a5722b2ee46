//! Connect Four against a plain grid model (rules, outcomes, scores), the notation on hostile
//! strings, the key and the score bounds.

use super::*;
use crate::notation::Notation;
use crate::search::Limits;
use crate::search::score::{BruteScore, ScoreSolver};
use crate::zobrist::KeyStream;

/// The plain model: `grid[col][row]`, 0 empty, 1 first player, 2 second.
#[derive(Clone)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<Vec<u8>>,
    stones: usize,
    winner: u8,
}

impl Grid {
    fn new(w: usize, h: usize) -> Grid {
        Grid { w, h, cells: vec![vec![0; h]; w], stones: 0, winner: 0 }
    }

    fn legal(&self) -> Vec<u8> {
        if self.winner != 0 || self.stones == self.w * self.h {
            return Vec::new();
        }
        (0..self.w).filter(|&c| self.cells[c][self.h - 1] == 0).map(|c| c as u8).collect()
    }

    fn play(&mut self, col: u8) {
        let c = usize::from(col);
        let r = self.cells[c].iter().position(|&x| x == 0).unwrap();
        let me = 1 + (self.stones % 2) as u8;
        self.cells[c][r] = me;
        self.stones += 1;
        for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: i64| {
                (1..4)
                    .take_while(|&k| {
                        let (x, y) = (c as i64 + sign * k * dc, r as i64 + sign * k * dr);
                        x >= 0
                            && y >= 0
                            && (x as usize) < self.w
                            && (y as usize) < self.h
                            && self.cells[x as usize][y as usize] == me
                    })
                    .count()
            };
            if 1 + run(1) + run(-1) >= 4 {
                self.winner = me;
            }
        }
    }

    /// Pons' score at the end, for the side to move.
    fn final_score(&self) -> Option<i32> {
        if self.winner != 0 {
            Some(-(((self.w * self.h + 2 - self.stones) / 2) as i32))
        } else if self.stones == self.w * self.h {
            Some(0)
        } else {
            None
        }
    }
}

fn random_game(w: u8, h: u8, rng: &mut KeyStream) -> Vec<(Connect4, Grid)> {
    let mut pos = Connect4::new(w, h).unwrap();
    let mut grid = Grid::new(usize::from(w), usize::from(h));
    let mut out = vec![(pos, grid.clone())];
    loop {
        let mut moves = Connect4Moves::new();
        pos.generate_moves(&mut moves);
        let mut sorted: Vec<u8> = moves.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, grid.legal(), "{}", pos.format_position());
        if moves.is_empty() {
            return out;
        }
        let col = moves[(rng.next_key() % moves.len() as u64) as usize];
        pos.play(col);
        grid.play(col);
        out.push((pos, grid.clone()));
    }
}

#[test]
fn rules_outcomes_and_scores_equal_the_plain_grid_on_random_games() {
    let mut rng = KeyStream::new(4);
    for (w, h) in [(7, 6), (4, 4), (5, 4), (6, 7), (9, 6), (1, 63), (8, 7), (4, 5)] {
        for _ in 0..200 {
            for (pos, grid) in random_game(w, h, &mut rng) {
                assert_eq!(pos.final_score(), grid.final_score(), "{}", pos.format_position());
                let text = pos.format_position();
                assert_eq!(Connect4::parse_position(&text), Ok(pos), "{text}");
            }
        }
    }
}

#[test]
fn pons_examples_and_the_score_of_a_won_game() {
    // From Pons' blog (part 2): "4455" scores 18, "44455554221" -15.
    for (text, score) in [("4455", 18), ("44455554221", -15)] {
        let pos = Connect4::parse_position(text).unwrap();
        let (lo, hi) = pos.score_range();
        assert!(lo <= score && score <= hi, "{text}: {lo}..{hi}");
    }
    // The first player wins with its 4th stone: 22 - 4 for the winner.
    let won = Connect4::parse_position("1213141").unwrap();
    assert_eq!(won.final_score(), Some(-18));
}

#[test]
fn score_bounds_hold_on_random_positions_with_few_empty_cells() {
    let mut rng = KeyStream::new(9);
    let mut checked = 0;
    for (w, h) in [(7, 6), (5, 4), (4, 4)] {
        for _ in 0..60 {
            let game = random_game(w, h, &mut rng);
            let total = usize::from(w) * usize::from(h);
            for (pos, _) in game.iter().filter(|(p, _)| p.outcome().is_none()) {
                if total - pos.stones() as usize > 9 {
                    continue;
                }
                let exact = BruteScore.solve_score(pos, &Limits::none()).score.unwrap();
                let (lo, hi) = pos.score_range();
                assert!(
                    lo <= exact && exact <= hi,
                    "{}: {exact} not in {lo}..{hi}",
                    pos.format_position()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn hash_and_exact_key_tell_every_position_apart() {
    let mut rng = KeyStream::new(11);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..300 {
        for (pos, _) in random_game(7, 6, &mut rng) {
            let text = pos.format_position();
            let old = seen.insert(pos.hash(), (pos.exact_key(), text.clone()));
            if let Some((key, other)) = old {
                assert_eq!(key, pos.exact_key(), "{text} and {other}");
                assert_eq!(Connect4::parse_position(&other), Ok(pos), "{text} and {other}");
            }
        }
    }
}

fn grid_perft(grid: &Grid, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    grid.legal()
        .into_iter()
        .map(|c| {
            let mut child = grid.clone();
            child.play(c);
            grid_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_equals_the_plain_grid() {
    let pos = Connect4::default();
    for d in 1..=6 {
        assert_eq!(pos.perft(d), 7u64.pow(d), "no line of four before ply 7");
    }
    for (w, h, d) in [(4, 4, 9), (5, 4, 7), (3, 5, 10)] {
        let pos = Connect4::new(w, h).unwrap();
        let grid = Grid::new(usize::from(w), usize::from(h));
        assert_eq!(pos.perft(d), grid_perft(&grid, d), "{w}x{h} depth {d}");
    }
}

#[test]
fn sizes_positions_and_moves_are_read_and_written() {
    let pos = Connect4::parse_position("6x5:3344").unwrap();
    assert_eq!((pos.width(), pos.height(), pos.stones()), (6, 5, 4));
    // The position keeps no history: the text is some sequence reaching it.
    assert_eq!(Connect4::parse_position(&pos.format_position()), Ok(pos));
    assert!(pos.format_position().starts_with("6x5:"));
    assert_eq!(Connect4::parse_position("5x4:-").unwrap().format_position(), "5x4:-");
    assert_eq!(Connect4::parse_position("").unwrap(), Connect4::default());
    assert_eq!(Connect4::parse_position(" 44 ").unwrap().format_position(), "44");
    let pos = Connect4::parse_position("4").unwrap();
    assert_eq!(pos.parse_move("4"), Ok(3));
    assert_eq!(pos.format_move(3), "4");
    // Nine columns of six rows fill 63 bits.
    assert!(Connect4::parse_position("9x6:99999912345678").is_ok());
}

#[test]
fn hostile_strings_get_a_located_error() {
    let cases: &[(&str, usize, &str)] = &[
        ("4450", 4, "column 0 is not on the board"),
        ("48", 2, "column 8 is not on the board"),
        ("4444444", 7, "column 4 is full"),
        ("12121213", 8, "already won"),
        ("44a", 3, "expected a column digit"),
        ("4é", 2, "expected a column digit"),
        ("  4x", 4, "expected a column digit"),
        ("--", 1, "expected a column digit"),
        ("8x8:4", 1, "does not fit"),
        ("0x6:", 1, "does not fit"),
        ("10x6:1", 1, "does not fit"),
        ("7y6:1", 1, "board size"),
        ("ax6:1", 1, "two numbers"),
        ("7x99999999999:1", 1, "two numbers"),
        ("4x4:5", 5, "column 5 is not on the board"),
    ];
    for &(text, column, words) in cases {
        let err = Connect4::parse_position(text).unwrap_err();
        assert_eq!(err.column, column, "{text}: {err}");
        assert!(err.message.contains(words), "{text}: {err}");
    }
    // A string longer than the board: every column fills, the first extra stone is refused.
    let long = "1234567".repeat(7);
    assert!(Connect4::parse_position(&long).is_err());
    let pos = Connect4::parse_position("1111112222223333334444445555556666667777777").err();
    assert!(pos.is_some());
    let pos = Connect4::default();
    for bad in ["", "0", "8", "44", "x", " "] {
        assert!(pos.parse_move(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn order_estimates_and_final_scores_from_the_parent_equal_those_of_the_child() {
    let mut rng = KeyStream::new(13);
    let mut checked = 0;
    for (w, h) in [(7, 6), (4, 4), (6, 7), (9, 6), (1, 63), (8, 7)] {
        for _ in 0..100 {
            for (pos, _) in random_game(w, h, &mut rng) {
                let mut moves = Connect4Moves::new();
                pos.generate_moves(&mut moves);
                for &col in &moves {
                    let mut child = pos;
                    child.play(col);
                    let text = pos.format_position();
                    assert_eq!(
                        pos.order_estimate_after(col),
                        child.order_estimate(),
                        "{text} {col}"
                    );
                    assert_eq!(pos.final_score_after(col), child.final_score(), "{text} {col}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
