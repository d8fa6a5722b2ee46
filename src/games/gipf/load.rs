//! Loading and printing boards in the interpreter's load format (`LOAD_GAME_BOARD`), with the
//! checks and messages of the specification.

use std::fmt::Write as _;

use super::{Gipf, State};
use crate::bitboard::Bitboard128;
use crate::game::{ByPlayer, Player};
use crate::geometry::hex::{HexGeometry, MAX_SIDE, MIN_SIDE, Windows};

/// Why a board could not be loaded (the messages of `LOAD_GAME_BOARD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Header values out of range (`S` not in 2..=7, `K < 2`, ...).
    Parameters,
    /// A character other than `W`, `B`, `_` in a row.
    Content,
    /// A row with the wrong number of cells.
    RowLength,
    /// Too many white pieces.
    WhiteCount,
    /// Too many black pieces.
    BlackCount,
    /// This many rows of length `K` or more are on the board.
    Rows(usize),
}

impl LoadError {
    /// The interpreter's message.
    pub fn message(self) -> String {
        match self {
            LoadError::Parameters => "WRONG_GAME_PARAMETERS".into(),
            LoadError::Content => "WRONG_BOARD_CONTENT".into(),
            LoadError::RowLength => "WRONG_BOARD_ROW_LENGTH".into(),
            LoadError::WhiteCount => "WRONG_WHITE_PAWNS_NUMBER".into(),
            LoadError::BlackCount => "WRONG_BLACK_PAWNS_NUMBER".into(),
            LoadError::Rows(1) => "ERROR_FOUND_1_ROW_OF_LENGTH_K".into(),
            LoadError::Rows(n) => format!("ERROR_FOUND_{n}_ROWS_OF_LENGTH_K"),
        }
    }
}

/// The parameters and contents of a board, as read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardText {
    /// `S K GW GB`.
    pub params: [u32; 4],
    /// White and black reserves.
    pub reserve: [u32; 2],
    /// The side to move.
    pub to_move: Player,
    /// The cell characters of each row.
    pub rows: Vec<Vec<char>>,
}

impl Gipf {
    /// Builds a position from its text parts, checking it as `LOAD_GAME_BOARD` does (row
    /// lengths, white count, black count, rows of `K`, in this order).
    ///
    /// # Errors
    /// The first check that fails.
    pub fn from_text(text: &BoardText) -> Result<Gipf, LoadError> {
        let [s, k, gw, gb] = text.params;
        let side = s as usize;
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) || k < 2 {
            return Err(LoadError::Parameters);
        }
        let geo = HexGeometry::get(side);
        if text.rows.len() != geo.rows.len()
            || text.rows.iter().zip(&geo.rows).any(|(t, g)| t.len() != g.len())
        {
            return Err(LoadError::RowLength);
        }
        let mut board = ByPlayer::<Bitboard128>::default();
        for (t, g) in text.rows.iter().zip(&geo.rows) {
            for (&ch, &cell) in t.iter().zip(g) {
                let colour = match ch {
                    'W' => Player::First,
                    'B' => Player::Second,
                    '_' => continue,
                    _ => return Err(LoadError::Content),
                };
                board[colour] = board[colour].with(u32::from(cell));
            }
        }
        let [white, black] = text.reserve;
        if board.first.count() + white > gw {
            return Err(LoadError::WhiteCount);
        }
        if board.second.count() + black > gb {
            return Err(LoadError::BlackCount);
        }
        let mut pos = Gipf {
            geo,
            windows: Windows::get(side, k as usize),
            k,
            pieces: ByPlayer { first: gw, second: gb },
            state: State { board, reserve: ByPlayer { first: white, second: black } },
            to_move: text.to_move,
            hash: 0,
        };
        let rows = Player::ALL.iter().map(|&c| pos.runs_of(&pos.state, c).len()).sum::<usize>();
        if rows > 0 {
            return Err(LoadError::Rows(rows));
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The board in the load format: two header lines and the rows, each line ending in `\n`,
    /// with the official spacing (cells followed by a space; upper rows padded).
    pub fn board_text(&self) -> String {
        Self::state_text(self.geo, self.k, self.pieces, &self.state, self.to_move)
    }

    /// [`Gipf::board_text`] of another state with the same parameters.
    pub fn text_of(&self, st: &State, to_move: Player) -> String {
        Self::state_text(self.geo, self.k, self.pieces, st, to_move)
    }

    fn state_text(
        geo: &HexGeometry,
        k: u32,
        pieces: ByPlayer<u32>,
        st: &State,
        to_move: Player,
    ) -> String {
        let s = geo.side;
        let mut out = String::new();
        let _ = writeln!(out, "{s} {k} {} {}", pieces.first, pieces.second);
        let p = if to_move == Player::First { 'W' } else { 'B' };
        let _ = writeln!(out, "{} {} {p}", st.reserve.first, st.reserve.second);
        for (i, row) in geo.rows.iter().enumerate() {
            let indent = (s - 1).abs_diff(i);
            out.push_str(&" ".repeat(indent));
            for &cell in row {
                out.push(Self::cell_char(st, cell));
                out.push(' ');
            }
            if i < s - 1 {
                out.push_str(&" ".repeat(indent));
            }
            out.push('\n');
        }
        out
    }

    fn cell_char(st: &State, cell: u8) -> char {
        let cell = u32::from(cell);
        if st.board.first.contains(cell) {
            'W'
        } else if st.board.second.contains(cell) {
            'B'
        } else {
            '_'
        }
    }
}
