//! Text forms of GIPF positions and moves.
//!
//! One-line position: the load format's lines joined with `/`:
//! `S K GW GB/RW RB P/row/row/...`, rows top to bottom, cells `W`, `B`, `_` with or without
//! spaces, e.g. `2 3 5 5/2 2 W/WB/B_W/WB` (the S=2 start). Extra tokens after the fourth header
//! number are ignored (the assignment's sample header has a stray one). A text of several lines
//! is read as the load format itself (the lines after `LOAD_GAME_BOARD`; CRLF, trailing spaces
//! and blank lines are tolerated), so a board copied from a protocol file can be solved as it is.
//!
//! Moves: `<dot>-<cell>` in GF1 names (`a1-b2`); when the push has several distinct row-removal
//! results, `:<n>` picks the n-th (0-based, in the generation order), e.g. `e9-e8:2`.

use super::{BoardText, Gipf, GipfMove};
use crate::game::{Game, Player};
use crate::geometry::hex::Point;
use crate::notation::{Notation, ParseError};

/// Reads the header line `S K GW GB ...` (the first four integers).
pub fn parse_params(line: &str) -> Option<[u32; 4]> {
    let mut it = line.split_whitespace();
    let mut out = [0u32; 4];
    for v in &mut out {
        *v = it.next()?.parse().ok()?;
    }
    Some(out)
}

/// Reads the second header line `RW RB P`.
pub fn parse_reserves(line: &str) -> Option<([u32; 2], Player)> {
    let mut it = line.split_whitespace();
    let w = it.next()?.parse().ok()?;
    let b = it.next()?.parse().ok()?;
    let p = match it.next()? {
        "W" => Player::First,
        "B" => Player::Second,
        _ => return None,
    };
    Some(([w, b], p))
}

/// The cells of a board row: every non-space character.
pub fn parse_row(line: &str) -> Vec<char> {
    line.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Notation for Gipf {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        // The load format (the lines of `LOAD_GAME_BOARD`, CRLF and blank lines tolerated) when
        // the text has several lines, else the one-line form with `/` between the lines.
        let separator = if text.trim().contains('\n') { '\n' } else { '/' };
        let mut parts: Vec<(usize, &str)> = Vec::new();
        let mut offset = 0;
        for part in text.split(separator) {
            if separator == '/' || !part.trim().is_empty() {
                parts.push((offset, part));
            }
            offset += part.len() + 1;
        }
        let err = |i: usize, msg: &str| {
            let at =
                parts.get(i).map_or(text.len(), |&(o, p)| o + (p.len() - p.trim_start().len()));
            ParseError::at_offset(text, at, msg)
        };
        if parts.len() < 3 {
            return Err(err(parts.len().saturating_sub(1), "expected `S K GW GB/RW RB P/rows...`"));
        }
        let params = parse_params(parts[0].1).ok_or_else(|| err(0, "expected `S K GW GB`"))?;
        let (reserve, to_move) =
            parse_reserves(parts[1].1).ok_or_else(|| err(1, "expected `RW RB W|B`"))?;
        let rows = parts[2..].iter().map(|&(_, r)| parse_row(r)).collect();
        let board = BoardText { params, reserve, to_move, rows };
        Gipf::from_text(&board).map_err(|e| err(2, &format!("invalid board: {}", e.message())))
    }

    fn format_position(&self) -> String {
        let text = self.board_text();
        let mut lines = text.lines();
        let mut out = vec![lines.next().unwrap().to_string(), lines.next().unwrap().to_string()];
        out.extend(lines.map(|l| l.split_whitespace().collect::<String>()));
        out.join("/")
    }

    fn parse_move(&self, text: &str) -> Result<GipfMove, ParseError> {
        let text = text.trim();
        let (push_text, choice) = match text.split_once(':') {
            Some((p, c)) => {
                let choice = c.trim().parse::<u8>().map_err(|_| {
                    ParseError::at_offset(text, p.len() + 1, "expected a choice number")
                })?;
                (p, choice)
            }
            None => (text, 0),
        };
        let geo = self.geometry();
        let Some((from, to)) = push_text.split_once('-') else {
            return Err(ParseError::new(1, 1, "expected `<dot>-<cell>`"));
        };
        let from_point = geo.point_by_name(from.trim());
        let to_point = geo.point_by_name(to.trim());
        let (Some(Point::Dot(dot)), Some(to_point @ Point::Cell(_))) = (from_point, to_point)
        else {
            return Err(ParseError::new(1, 1, "not a push from a dot to a board cell"));
        };
        let push = geo
            .direction_between(Point::Dot(dot), to_point)
            .and_then(|d| geo.push_index(dot, d))
            .ok_or_else(|| ParseError::new(1, 1, "the cell is not next to the dot"))?;
        let mv = GipfMove { push: push as u8, choice };
        let mut moves = super::GipfMoves::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) { Ok(mv) } else { Err(ParseError::new(1, 1, "illegal move here")) }
    }

    fn format_move(&self, mv: GipfMove) -> String {
        let geo = self.geometry();
        let p = &geo.pushes[mv.push as usize];
        let base =
            format!("{}-{}", geo.dot_names[p.dot as usize], geo.cell_names[p.cells[0] as usize]);
        if mv.choice == 0 { base } else { format!("{base}:{}", mv.choice) }
    }
}
