//! Pons' move-sequence notation: a position is the columns played from the empty board, one
//! digit each, `1` the leftmost (`4453`: the first player in column 4, the second on top of
//! it, then 5 and 3).
//!
//! The empty board is the empty string, or `-` where a field may not be empty (dataset and
//! result files; [`Notation::format_position`] writes `-`). Other board sizes than 7x6 take a
//! prefix `WxH:` (`6x5:3344`, `5x4:-`). A move is one column digit.
//!
//! ```
//! use bitsolve::games::connect4::Connect4;
//! use bitsolve::{Game, Notation};
//! let mut pos = Connect4::parse_position("445").unwrap();
//! pos.play(pos.parse_move("3").unwrap());
//! assert_eq!(pos.format_position(), "4453");
//! assert_eq!(Connect4::parse_position("-").unwrap(), Connect4::default());
//! let err = Connect4::parse_position("44448").unwrap_err();
//! assert_eq!(err.column, 5); // column 8 does not exist on 7 columns
//! ```

use super::Connect4;
use crate::game::Game;
use crate::notation::{Notation, ParseError};

/// Reads the optional `WxH:` prefix; returns the empty board and the byte offset of the moves.
fn parse_size(text: &str) -> Result<(Connect4, usize), ParseError> {
    let Some(colon) = text.find(':') else {
        return Ok((Connect4::default(), 0));
    };
    let size = &text[..colon];
    let err = |m: String| ParseError::at_offset(text, 0, m);
    let Some((w, h)) = size.split_once('x') else {
        return Err(err(format!("expected a board size `WxH:` before the moves, found `{size}`")));
    };
    let number = |s: &str| s.parse::<u8>().ok().filter(|_| s.bytes().all(|b| b.is_ascii_digit()));
    let (Some(w), Some(h)) = (number(w), number(h)) else {
        return Err(err(format!("board size `{size}`: expected two numbers, `WxH`")));
    };
    Ok((Connect4::new(w, h).map_err(err)?, colon + 1))
}

impl Notation for Connect4 {
    /// `[WxH:]moves`: see the [module docs](self). Surrounding spaces are ignored.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let start = text.len() - text.trim_start().len();
        let body = text.trim();
        let (mut pos, at) =
            parse_size(body).map_err(|e| ParseError::at_offset(text, start, e.message))?;
        let moves = &body[at..];
        if moves == "-" {
            return Ok(pos);
        }
        for (i, ch) in moves.char_indices() {
            let offset = start + at + i;
            let col = pos.parse_column(ch).map_err(|m| ParseError::at_offset(text, offset, m))?;
            pos.play(col);
        }
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let mut out = String::new();
        if (self.width, self.height) != (7, 6) {
            out = format!("{}x{}:", self.width, self.height);
        }
        let moves = self.move_sequence();
        if moves.is_empty() {
            out.push('-');
        } else {
            out.push_str(&moves);
        }
        out
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let mut chars = text.trim().chars();
        let start = text.len() - text.trim_start().len();
        match (chars.next(), chars.next()) {
            (Some(ch), None) => {
                self.parse_column(ch).map_err(|m| ParseError::at_offset(text, start, m))
            }
            _ => Err(ParseError::new(1, 1, format!("expected one column digit 1-{}", self.width))),
        }
    }

    fn format_move(&self, col: u8) -> String {
        (col + 1).to_string()
    }
}

impl Connect4 {
    /// The 0-based column of the digit `ch` if a stone can be dropped there now.
    fn parse_column(&self, ch: char) -> Result<u8, String> {
        let w = self.width;
        let col = match ch.to_digit(10) {
            Some(d) if (1..=u32::from(w)).contains(&d) => d as u8 - 1,
            Some(d) => return Err(format!("column {d} is not on the board (1-{w})")),
            None => return Err(format!("expected a column digit 1-{w}, found `{ch}`")),
        };
        if self.outcome() == Some(crate::game::Outcome::Loss) {
            return Err("the game is already won: no move after four in a row".into());
        }
        if !self.can_play(col) {
            return Err(format!("column {} is full", col + 1));
        }
        Ok(col)
    }

    /// A move sequence that reaches this position (the position keeps no history; any
    /// sequence that reaches the same board is the same position).
    fn move_sequence(&self) -> String {
        let mut unwinding = Unwinding {
            h: u32::from(self.height),
            w: self.width,
            failed: std::collections::HashSet::new(),
            undo: Vec::with_capacity(self.stones() as usize),
        };
        let last = self.position ^ self.mask;
        let found = unwinding.unwind(self.mask, last, self.position);
        debug_assert!(found, "every position is reached by some sequence");
        unwinding.undo.iter().rev().map(|&c| char::from(b'1' + c)).collect()
    }
}

/// The search for a move sequence reaching a position, backwards: the last mover's stone is
/// taken from the top of some column, then the other player's, and so on; a choice can lead
/// to a dead end (the other player owns no column top), so the search backtracks, and the
/// boards it found to be dead ends are remembered (at most one visit per board).
struct Unwinding {
    h: u32,
    w: u8,
    /// Boards (masks) from which no sequence leads back to the empty board.
    failed: std::collections::HashSet<u64>,
    /// The columns undone, newest first.
    undo: Vec<u8>,
}

impl Unwinding {
    /// Whether the board `mask`, with `last` the stones of the player who moved last and
    /// `other` the others, is reached from the empty board by a sequence in which nobody had
    /// four in a row before the last stone.
    fn unwind(&mut self, mask: u64, last: u64, other: u64) -> bool {
        if mask == 0 {
            return true;
        }
        if self.failed.contains(&mask) {
            return false;
        }
        for col in 0..self.w {
            let column = ((1u64 << self.h) - 1) << (u32::from(col) * (self.h + 1));
            let stones = mask & column;
            if stones == 0 {
                continue;
            }
            let top = 1u64 << stones.ilog2();
            // The stone must be the last mover's, and the board before it must not be won.
            if last & top == 0 || super::aligned(last & !top, self.h) {
                continue;
            }
            self.undo.push(col);
            if self.unwind(mask & !top, other, last & !top) {
                return true;
            }
            self.undo.pop();
        }
        self.failed.insert(mask);
        false
    }
}
