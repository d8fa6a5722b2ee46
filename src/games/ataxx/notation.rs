//! FEN for positions; UAI and `<from><to>` forms for moves.

use super::moves::{parse_square, square_name};
use super::tables::{JUMPS, NEIGHBOURS};
use super::{Ataxx, AtaxxMove};
use crate::game::{Game, Player};
use crate::notation::{Notation, ParseError};

/// The error for the text `text` starting at 0-based byte `offset` of the line.
fn error(text: &str, offset: usize, message: impl Into<String>) -> ParseError {
    ParseError::at_offset(text, offset, message)
}

/// Reads a decimal counter field that starts at byte `offset`.
fn parse_counter(text: &str, field: &str, offset: usize, what: &str) -> Result<u16, ParseError> {
    field.parse().map_err(|_| error(text, offset, format!("bad {what} {field:?}")))
}

impl<const POLISH: bool> Ataxx<POLISH> {
    /// Writes `mv` as `<from><to>` always (the arbiter form): a clone names the lowest own stone
    /// next to its destination; the pass is `0000`.
    pub fn format_move_long(&self, mv: AtaxxMove) -> String {
        match (mv.from(), mv.to()) {
            (_, None) => "0000".to_owned(),
            (Some(from), Some(to)) => format!("{}{}", square_name(from), square_name(to)),
            (None, Some(to)) => {
                let sources = NEIGHBOURS[to as usize] & self.stones(self.side_to_move()).0;
                let from = if sources == 0 { to } else { sources.trailing_zeros() };
                format!("{}{}", square_name(from), square_name(to))
            }
        }
    }

    /// Reads the board field of a FEN (ranks from the top, separated by `/`), which starts at
    /// byte `base` of `text`.
    fn parse_board(text: &str, board: &str, base: usize) -> Result<Self, ParseError> {
        // Each rank: the byte offset where it starts, then its squares (`.` for empty).
        let mut ranks: Vec<(usize, Vec<u8>)> = vec![(base, Vec::new())];
        for (i, c) in board.char_indices() {
            let rank = &mut ranks.last_mut().expect("never empty").1;
            match c {
                '/' => ranks.push((base + i + 1, Vec::new())),
                'x' | 'o' | '-' => rank.push(c as u8),
                '1'..='7' => rank.extend(std::iter::repeat_n(b'.', (c as u8 - b'0') as usize)),
                _ => return Err(error(text, base + i, format!("unexpected {c:?} in the board"))),
            }
            if ranks.len() > 7 {
                return Err(error(text, base + i, "more than 7 ranks"));
            }
        }
        let width = ranks[0].1.len();
        for (at, rank) in &ranks {
            if rank.is_empty() || rank.len() > 7 || rank.len() != width {
                let message = format!("rank of {} squares, expected {width} (1..7)", rank.len());
                return Err(error(text, *at, message));
            }
        }
        let height = ranks.len() as u32;
        let mut pos = Self::empty(width as u32, height);
        for (r, (_, rank)) in ranks.iter().enumerate() {
            for (file, &c) in rank.iter().enumerate() {
                let sq = (height - 1 - r as u32) * 8 + file as u32;
                match c {
                    b'x' => pos.put(Player::First, sq),
                    b'o' => pos.put(Player::Second, sq),
                    b'-' => pos.block(sq),
                    _ => {}
                }
            }
        }
        Ok(pos)
    }

    /// Reads `text` as a square of this board, or an error at `offset`.
    fn board_square(&self, text: &str, offset: usize) -> Result<u32, ParseError> {
        let sq = parse_square(text, offset)?;
        if sq % 8 >= self.width() || sq / 8 >= self.height() {
            return Err(error(text, offset, "square outside the board"));
        }
        Ok(sq)
    }
}

impl<const POLISH: bool> Notation for Ataxx<POLISH> {
    /// Reads a FEN: `<board> <side> [<halfmove> [<fullmove>]]`, such as
    /// `x5o/7/7/7/7/7/o5x x 0 1`. The board lists ranks from the top separated by `/`, with `x`
    /// (first player), `o` (second player), `-` (blocked) and digits for runs of empty
    /// squares; its rank length gives the width and its number of ranks the height.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut fields = text.split(' ').filter(|f| !f.is_empty()).map(|f| {
            let offset = f.as_ptr() as usize - text.as_ptr() as usize;
            (f, offset)
        });
        let Some((board, at)) = fields.next() else {
            return Err(error(text, 0, "empty position"));
        };
        let mut pos = Self::parse_board(text, board, at)?;
        let side = match fields.next() {
            Some(("x", _)) => Player::First,
            Some(("o", _)) => Player::Second,
            Some((_, at)) => return Err(error(text, at, "side to move must be x or o")),
            None => return Err(error(text, text.len(), "missing side to move")),
        };
        pos.set_side_to_move(side);
        let halfmove = match fields.next() {
            Some((f, at)) => parse_counter(text, f, at, "halfmove clock")?,
            None => 0,
        };
        let fullmove = match fields.next() {
            Some((f, at)) => parse_counter(text, f, at, "fullmove number")?,
            None => 1,
        };
        if let Some((_, at)) = fields.next() {
            return Err(error(text, at, "unexpected text after the fullmove number"));
        }
        pos.set_counters(halfmove, fullmove);
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.height()).rev() {
            let mut run = 0;
            for file in 0..self.width() {
                let sq = rank * 8 + file;
                let c = if self.stones(Player::First).contains(sq) {
                    'x'
                } else if self.stones(Player::Second).contains(sq) {
                    'o'
                } else if !self.valid().contains(sq) {
                    '-'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    out.push(char::from(b'0' + run));
                    run = 0;
                }
                out.push(c);
            }
            if run > 0 {
                out.push(char::from(b'0' + run));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side_to_move() == Player::First { 'x' } else { 'o' };
        format!("{out} {side} {} {}", self.halfmove(), self.fullmove())
    }

    /// Reads a move in UAI form (`f1` clone, `g1e3` jump, `0000` pass) or in the arbiter's
    /// `<from><to>` form, where a clone is written with a source next to its destination
    /// (`a7a6`). The move must be legal here.
    fn parse_move(&self, text: &str) -> Result<AtaxxMove, ParseError> {
        let mv = match text.len() {
            4 if text == "0000" => AtaxxMove::PASS,
            2 => AtaxxMove::clone_to(self.board_square(text, 0)?),
            4 => {
                let from = self.board_square(text, 0)?;
                let to = self.board_square(text, 2)?;
                if !self.stones(self.side_to_move()).contains(from) {
                    return Err(error(text, 0, "no stone of the side to move there"));
                }
                if NEIGHBOURS[from as usize] >> to & 1 != 0 {
                    AtaxxMove::clone_to(to)
                } else if JUMPS[from as usize] >> to & 1 != 0 {
                    AtaxxMove::jump(from, to)
                } else {
                    return Err(error(text, 2, "destination is not 1 or 2 squares away"));
                }
            }
            _ => return Err(error(text, 0, "expected a square, two squares or 0000")),
        };
        if !self.is_legal(mv) {
            return Err(error(text, 0, format!("illegal move {mv}")));
        }
        debug_assert!({
            let mut moves = <Self as Game>::Moves::default();
            self.generate_moves(&mut moves);
            moves.contains(&mv)
        });
        Ok(mv)
    }

    /// Writes the UAI form (see [`AtaxxMove`]'s `Display`); [`Ataxx::format_move_long`] gives
    /// the arbiter's `<from><to>` form.
    fn format_move(&self, mv: AtaxxMove) -> String {
        mv.to_string()
    }
}
