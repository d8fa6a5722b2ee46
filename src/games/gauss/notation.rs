//! The one-line position form and the move form of Gauss.
//!
//! Position: six space-separated fields, then optional rule words.
//!
//! ```text
//! ..../...../....../......./....../...../.... r 10/5 5/10 0/0 0/0
//! ```
//!
//! 1. the 37 points row by row, top row first, rows separated by `/` (lengths 4, 5, 6, 7, 6,
//!    5, 4; the first and last point of each row and rows 1 and 7 are void): `.` empty, `r`
//!    red, `b` blue;
//! 2. the side to move: `r` (the red player, who moves first) or `b`;
//! 3. the red player's supply, `red/blue` discs held;
//! 4. the blue player's supply, `red/blue`;
//! 5. the bonus zones, `red/blue` (discs of each colour collected from inner cells);
//! 6. the risk zones, `red/blue` (discs collected from the void);
//! 7. rule options, any of `row` (collect straight rows of four instead of connected groups)
//!    and `risk-first` (tie-break on risk discs before void discs).
//!
//! Moves: a point name and a colour letter, `d4r` places red on the centre.
//!
//! ```
//! use bitsolve::games::gauss::Gauss;
//! use bitsolve::{Game, Notation};
//! let mut g = Gauss::default();
//! let mv = g.parse_move("d4r").unwrap();
//! g.play(mv);
//! assert_eq!(g.format_position(), "..../...../....../...r.../....../...../.... b 9/5 5/10 0/0 0/0");
//! ```

use super::board::{Board, POINTS};
use super::{Collection, Colour, Gauss, GaussMove, Rules, TieBreak};
use crate::game::Player;
use crate::notation::{Notation, ParseError};

/// The start position under the default rules.
pub const START: &str = "..../...../....../......./....../...../.... r 10/5 5/10 0/0 0/0";

/// The words of `text` with their byte offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

fn parse_board(text: &str, at: usize, word: &str) -> Result<[u64; 2], ParseError> {
    let b = Board::get();
    let rows: Vec<&str> = word.split('/').collect();
    if rows.len() != b.rows.len() {
        return Err(ParseError::at_offset(
            text,
            at,
            format!("expected 7 rows, got {}", rows.len()),
        ));
    }
    let mut discs = [0u64; 2];
    let mut offset = at;
    for (r, row) in rows.iter().enumerate() {
        let expected = b.rows[r].len();
        for (i, ch) in row.chars().enumerate() {
            let colour = match ch {
                '.' => None,
                'r' | 'R' => Some(0),
                'b' | 'B' => Some(1),
                _ => {
                    return Err(ParseError::at_offset(
                        text,
                        offset + i,
                        format!("`{ch}` is not a point (use `.`, `r` or `b`)"),
                    ));
                }
            };
            if i >= expected {
                return Err(ParseError::at_offset(
                    text,
                    offset + i,
                    format!("row {} has {expected} points", r + 1),
                ));
            }
            if let Some(c) = colour {
                discs[c] |= 1 << b.rows[r][i];
            }
        }
        if row.len() < expected {
            return Err(ParseError::at_offset(
                text,
                offset + row.len(),
                format!("row {} has {expected} points, got {}", r + 1, row.len()),
            ));
        }
        offset += row.len() + 1;
    }
    Ok(discs)
}

fn parse_pair(text: &str, at: usize, word: &str, what: &str) -> Result<[u8; 2], ParseError> {
    let err = || ParseError::at_offset(text, at, format!("{what}: expected `red/blue` counts"));
    let (a, b) = word.split_once('/').ok_or_else(err)?;
    let n = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 15);
    Ok([n(a).ok_or_else(err)?, n(b).ok_or_else(err)?])
}

impl Notation for Gauss {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let w = words(text);
        if w.len() < 6 {
            return Err(ParseError::at_offset(
                text,
                text.len(),
                "expected `board side red-supply blue-supply bonus risk` (see `bitsolve info --game gauss`)",
            ));
        }
        let discs = parse_board(text, w[0].0, w[0].1)?;
        let side = match w[1].1 {
            "r" | "R" => Player::First,
            "b" | "B" => Player::Second,
            _ => {
                return Err(ParseError::at_offset(text, w[1].0, "side to move must be `r` or `b`"));
            }
        };
        let red = parse_pair(text, w[2].0, w[2].1, "red player's supply")?;
        let blue = parse_pair(text, w[3].0, w[3].1, "blue player's supply")?;
        let bonus = parse_pair(text, w[4].0, w[4].1, "bonus zones")?;
        let risk = parse_pair(text, w[5].0, w[5].1, "risk zones")?;
        let mut rules = Rules::default();
        for &(at, word) in &w[6..] {
            match word {
                "row" => rules.collection = Collection::Row,
                "risk-first" => rules.tie_break = TieBreak::RiskThenVoid,
                _ => {
                    return Err(ParseError::at_offset(
                        text,
                        at,
                        format!("unknown rule option `{word}` (known: row, risk-first)"),
                    ));
                }
            }
        }
        Gauss::from_parts(discs, [red, blue], bonus, risk, side, rules)
            .map_err(|m| ParseError::at_offset(text, 0, m))
    }

    fn format_position(&self) -> String {
        let b = Board::get();
        let rows: Vec<String> =
            b.rows.iter().map(|row| row.iter().map(|&p| point_char(self, p)).collect()).collect();
        let pair = |x: [u8; 2]| format!("{}/{}", x[0], x[1]);
        let mut out = format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            Colour::of(self.side).letter(),
            pair(self.supply[0]),
            pair(self.supply[1]),
            pair(self.bonus),
            pair(self.risk)
        );
        if self.rules.collection == Collection::Row {
            out.push_str(" row");
        }
        if self.rules.tie_break == TieBreak::RiskThenVoid {
            out.push_str(" risk-first");
        }
        out
    }

    fn parse_move(&self, text: &str) -> Result<GaussMove, ParseError> {
        let t = text.trim();
        let lead = text.len() - text.trim_start().len();
        let Some(last) = t.chars().last() else {
            return Err(ParseError::new(1, 1, "empty move (expected e.g. `d4r`)"));
        };
        let colour = match last {
            'r' | 'R' => Colour::Red,
            'b' | 'B' => Colour::Blue,
            _ => {
                return Err(ParseError::at_offset(
                    text,
                    lead + t.len() - last.len_utf8(),
                    "a move ends with its colour, `r` or `b` (e.g. `d4r`)",
                ));
            }
        };
        let name = &t[..t.len() - 1];
        let board = Board::get();
        let point = board
            .point_by_name(name)
            .ok_or_else(|| ParseError::at_offset(text, lead, format!("no point `{name}`")))?;
        let mv = GaussMove::new(point, colour);
        if !board.is_inner(point) {
            return Err(ParseError::at_offset(text, lead, format!("`{name}` is on the void")));
        }
        if (self.discs[0] | self.discs[1]) >> point & 1 != 0 {
            return Err(ParseError::at_offset(text, lead, format!("`{name}` is occupied")));
        }
        if self.supply(self.side, colour) == 0 {
            return Err(ParseError::at_offset(
                text,
                lead + t.len() - 1,
                format!("the side to move holds no {} disc", colour.letter()),
            ));
        }
        Ok(mv)
    }

    fn format_move(&self, mv: GaussMove) -> String {
        format!("{}{}", Board::get().names[mv.point() as usize], mv.colour().letter())
    }
}

/// The character of a point in the position form.
fn point_char(g: &Gauss, p: u8) -> char {
    debug_assert!((p as usize) < POINTS);
    if g.discs[0] >> p & 1 != 0 {
        'r'
    } else if g.discs[1] >> p & 1 != 0 {
        'b'
    } else {
        '.'
    }
}
