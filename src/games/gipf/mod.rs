//! Generalised GIPF ("basic GIPF" without GIPF pieces) on a hexagonal board of side `S`
//! (2 to 7) with rows of `K` to remove.
//!
//! One type [`Gipf`] serves every board size: `S` is known only at run time (the `gipf`
//! interpreter reads it from `LOAD_GAME_BOARD`), so a position holds a `&'static`
//! [`HexGeometry`] built once per `S`, and the board as two `u128` bit sets (127 cells at most).
//!
//! A move in search is a push *together with* its row-removal choice ([`GipfMove`]), so the
//! turns alternate. Moves are generated in the official order (edge cells clockwise from the
//! top-left corner, dots E, SE, SW, W, NW, NE), and pushes or choices that lead to the same
//! resulting state (board and reserves) are generated once, first occurrence kept.
//!
//! Rules (see `datasets/gipf/PROTOCOL.md`): push with the row-full rule; then for the mover's
//! colour, then the opponent's: find the maximal same-colour runs of length `>= K` on the three
//! line families; if no two of their contiguous segments share a cell remove them all, else
//! branch over each intersecting run and look again. Removing a run clears its whole contiguous
//! segment: own pieces return to the reserve, the others are captured. The player to move loses
//! with an empty reserve or without a legal push.

pub mod notation;
#[cfg(test)]
mod tests;

use std::fmt::Write as _;

use arrayvec::ArrayVec;

use crate::game::{Game, Outcome, Perft, Player};
use crate::geometry::hex::{HexGeometry, MAX_SIDE, MIN_SIDE, Windows};
use crate::zobrist::{keys, splitmix64};

/// Capacity of [`GipfMoves`]. A position has at most `12S - 6 = 78` pushes (S = 7); a push
/// without a row to remove has one result, and one that completes rows has a few (one per
/// order of removing intersecting runs, duplicates merged), all new runs crossing the pushed
/// line. Random playouts on every board size stay far below this (see the tests).
pub const MAX_MOVES: usize = 512;

/// The move list of [`Gipf`]: no heap allocation per node.
pub type GipfMoves = ArrayVec<GipfMove, MAX_MOVES>;

/// A GIPF move: a push (index into [`HexGeometry::pushes`]) and which of its distinct
/// row-removal results to take (0 when there is no choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GipfMove {
    /// The push, by index in the geometry's push table.
    pub push: u8,
    /// The removal choice, by index among the push's distinct results.
    pub choice: u8,
}

/// Board and reserves: what a move changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// White's and Black's pieces on the board.
    pub board: [u128; 2],
    /// White's and Black's reserves.
    pub reserve: [u32; 2],
}

/// A run of at least `K` pieces of one colour found on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Colour index: 0 white, 1 black.
    pub colour: usize,
    /// Index of the line in the geometry.
    pub line: u16,
    /// First cell of the run (in line order).
    pub first: u8,
    /// Last cell of the run.
    pub last: u8,
    /// The whole contiguous non-empty segment of the line containing the run.
    pub segment: u128,
}

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

/// A GIPF position.
#[derive(Clone, Debug)]
pub struct Gipf {
    geo: &'static HexGeometry,
    windows: &'static Windows,
    k: u32,
    pieces: [u32; 2],
    state: State,
    to_move: Player,
    hash: u64,
}

impl PartialEq for Gipf {
    fn eq(&self, other: &Self) -> bool {
        self.geo.side == other.geo.side
            && self.k == other.k
            && self.pieces == other.pieces
            && self.state == other.state
            && self.to_move == other.to_move
    }
}

impl Eq for Gipf {}

const CELL_KEYS: [u64; 2 * 128] = keys::<256>(0x6171_7066_2d63_656c);
const SIDE_KEY: u64 = keys::<1>(0x6171_7066_2d73_6964)[0];

fn reserve_key(colour: usize, value: u32) -> u64 {
    splitmix64(0x7265_7365_7276_6500 ^ ((colour as u64) << 40) ^ u64::from(value)).1
}

fn params_key(side: usize, k: u32) -> u64 {
    splitmix64(0x7061_7261_6d73_0000 ^ ((side as u64) << 32) ^ u64::from(k)).1
}

fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(i)
        }
    })
}

/// A 64-bit summary of a state's board (equal states have equal fingerprints).
#[inline]
fn fingerprint(st: &State) -> u64 {
    let mix = st.board[0] ^ st.board[1].rotate_left(37);
    ((mix as u64) ^ (mix >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

const fn colour_of(p: Player) -> usize {
    p.index()
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
        let mut board = [0u128; 2];
        for (t, g) in text.rows.iter().zip(&geo.rows) {
            for (&ch, &cell) in t.iter().zip(g) {
                match ch {
                    'W' => board[0] |= 1 << cell,
                    'B' => board[1] |= 1 << cell,
                    '_' => {}
                    _ => return Err(LoadError::Content),
                }
            }
        }
        if board[0].count_ones() + text.reserve[0] > gw {
            return Err(LoadError::WhiteCount);
        }
        if board[1].count_ones() + text.reserve[1] > gb {
            return Err(LoadError::BlackCount);
        }
        let mut pos = Gipf {
            geo,
            windows: Windows::get(side, k as usize),
            k,
            pieces: [gw, gb],
            state: State { board, reserve: text.reserve },
            to_move: text.to_move,
            hash: 0,
        };
        let rows = pos.runs_of(&pos.state, 0).len() + pos.runs_of(&pos.state, 1).len();
        if rows > 0 {
            return Err(LoadError::Rows(rows));
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The board geometry.
    pub fn geometry(&self) -> &'static HexGeometry {
        self.geo
    }

    /// Side length `S`.
    pub fn side(&self) -> usize {
        self.geo.side
    }

    /// Row length `K` that removes pieces.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Board and reserves.
    pub fn state(&self) -> State {
        self.state
    }

    /// The side to move (`First` = white).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The hash computed from nothing (tests compare it with the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = params_key(self.geo.side, self.k);
        for c in 0..2 {
            for cell in bits(self.state.board[c]) {
                h ^= CELL_KEYS[c * 128 + cell];
            }
            h ^= reserve_key(c, self.state.reserve[c]);
        }
        if self.to_move == Player::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// Every maximal run of `colour` of length `>= K` in `state`, lines in geometry order.
    pub fn runs_of(&self, state: &State, colour: usize) -> Vec<Run> {
        let mine = state.board[colour];
        let occupied = state.board[0] | state.board[1];
        let k = self.k as usize;
        let mut out = Vec::new();
        for (li, line) in self.geo.lines.iter().enumerate() {
            let cells = &line.cells;
            if cells.len() < k {
                continue;
            }
            let mut i = 0;
            while i < cells.len() {
                if mine >> cells[i] & 1 == 0 {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < cells.len() && mine >> cells[i] & 1 == 1 {
                    i += 1;
                }
                if i - start >= k {
                    let mut lo = start;
                    while lo > 0 && occupied >> cells[lo - 1] & 1 == 1 {
                        lo -= 1;
                    }
                    let mut hi = i;
                    while hi < cells.len() && occupied >> cells[hi] & 1 == 1 {
                        hi += 1;
                    }
                    let segment = cells[lo..hi].iter().fold(0u128, |m, &c| m | 1 << c);
                    out.push(Run {
                        colour,
                        line: li as u16,
                        first: cells[start],
                        last: cells[i - 1],
                        segment,
                    });
                }
            }
        }
        out
    }

    /// Removes the segment of `run`: own pieces back to the reserve, others captured.
    pub fn remove_run(state: &mut State, run: &Run) {
        let c = run.colour;
        state.reserve[c] += (state.board[c] & run.segment).count_ones();
        state.board[0] &= !run.segment;
        state.board[1] &= !run.segment;
    }

    /// Whether some two runs' segments share a cell.
    fn any_intersect(runs: &[Run]) -> bool {
        runs.iter()
            .enumerate()
            .any(|(i, a)| runs[i + 1..].iter().any(|b| a.segment & b.segment != 0))
    }

    /// The state after push `push` by the side to move, before removing rows; `None` if the line
    /// is full or the side to move has no piece in reserve.
    pub fn pushed(&self, push: usize) -> Option<State> {
        if self.state.reserve[colour_of(self.to_move)] == 0 {
            return None;
        }
        let p = &self.geo.pushes[push];
        let occupied = self.state.board[0] | self.state.board[1];
        let j = p.cells.iter().position(|&c| occupied >> c & 1 == 0)?;
        let mut st = self.state;
        let mover = colour_of(self.to_move);
        for i in (1..=j).rev() {
            let (from, to) = (p.cells[i - 1], p.cells[i]);
            for c in 0..2 {
                if st.board[c] >> from & 1 == 1 {
                    st.board[c] |= 1 << to;
                } else {
                    st.board[c] &= !(1 << to);
                }
            }
        }
        let entry = p.cells[0];
        st.board[1 - mover] &= !(1 << entry);
        st.board[mover] |= 1 << entry;
        st.reserve[mover] -= 1;
        Some(st)
    }

    /// The state after push `push` by the side to move, before removing rows, and the index
    /// along the push of the first empty cell (the last cell whose content changed); `None` if
    /// the line is full.
    #[inline]
    fn push_raw(&self, push: usize) -> Option<(State, usize)> {
        let p = &self.geo.pushes[push];
        let [b0, b1] = self.state.board;
        let occupied = b0 | b1;
        if p.mask & !occupied == 0 {
            return None;
        }
        let cells = &p.cells;
        let mut j = 0;
        while occupied >> cells[j] & 1 == 1 {
            j += 1;
        }
        // Shift the pieces on cells[0..j] one step along the push onto cells[1..=j]; the
        // entry cell gets the mover's piece.
        let (mut s0, mut s1) = (0u128, 0u128);
        let mut span = 1u128 << cells[0];
        for w in cells[..=j].windows(2) {
            let (from, to) = (w[0], w[1]);
            s0 |= (b0 >> from & 1) << to;
            s1 |= (b1 >> from & 1) << to;
            span |= 1 << to;
        }
        let entry = 1u128 << cells[0];
        let mut reserve = self.state.reserve;
        let board = if self.to_move == Player::First {
            reserve[0] -= 1;
            [(b0 & !span) | s0 | entry, (b1 & !span) | s1]
        } else {
            reserve[1] -= 1;
            [(b0 & !span) | s0, (b1 & !span) | s1 | entry]
        };
        Some((State { board, reserve }, j))
    }

    /// Whether `line` holds `K` consecutive pieces of the set `mine`.
    #[inline]
    fn line_has_run(&self, mine: u128, line: u16) -> bool {
        let line = &self.geo.lines[line as usize];
        if ((mine & line.mask).count_ones()) < self.k {
            return false;
        }
        let mut run = 0;
        for &c in &line.cells {
            if mine >> c & 1 == 1 {
                run += 1;
                if run >= self.k {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        false
    }

    /// Whether the raw result `st` of a push has a row to remove. A legal position has none,
    /// and removals create none, so every new run of a colour passes through a cell that colour
    /// gained: only the windows of `K` cells through each gained cell are looked at
    /// ([`Windows::full_through`], at most `3K` mask tests per cell).
    /// `st` must come from [`Gipf::pushed`] on this position.
    #[inline]
    pub fn push_makes_run(&self, st: &State) -> bool {
        for colour in 0..2 {
            let mine = st.board[colour];
            if mine.count_ones() < self.k {
                continue;
            }
            let mut gained = mine & !self.state.board[colour];
            while gained != 0 {
                let c = gained.trailing_zeros() as usize;
                gained &= gained - 1;
                if self.windows.full_through(c, mine) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Gipf::push_makes_run`] by scanning the lines through the gained cells (the version
    /// before the window tables; kept to check and measure them).
    #[doc(hidden)]
    pub fn push_makes_run_by_lines(&self, st: &State) -> bool {
        for colour in 0..2 {
            let mine = st.board[colour];
            if mine.count_ones() < self.k {
                continue;
            }
            let mut gained = mine & !self.state.board[colour];
            while gained != 0 {
                let c = gained.trailing_zeros() as usize;
                gained &= gained - 1;
                let masks = &self.geo.line_masks_of_cell[c];
                for (f, &line) in self.geo.lines_of_cell[c].iter().enumerate() {
                    if (mine & masks[f]).count_ones() >= self.k && self.line_has_run(mine, line) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Every result of resolving the rows of `st` (mover's colour first), in branch order,
    /// duplicates included.
    pub fn resolutions(&self, st: State, out: &mut Vec<State>) {
        self.resolve_from(st, 0, out);
    }

    fn resolve_from(&self, mut st: State, step: usize, out: &mut Vec<State>) {
        let mover = colour_of(self.to_move);
        for step in step..2 {
            let colour = if step == 0 { mover } else { 1 - mover };
            let runs = self.runs_of(&st, colour);
            if runs.is_empty() {
                continue;
            }
            if !Self::any_intersect(&runs) {
                for r in &runs {
                    Self::remove_run(&mut st, r);
                }
                continue;
            }
            for (i, r) in runs.iter().enumerate() {
                let crosses =
                    runs.iter().enumerate().any(|(j, o)| j != i && o.segment & r.segment != 0);
                if crosses {
                    let mut next = st;
                    Self::remove_run(&mut next, r);
                    self.resolve_from(next, step, out);
                }
            }
            return;
        }
        out.push(st);
    }

    /// The distinct results of push `push` (empty if the line is full), in branch order.
    pub fn push_results(&self, push: usize) -> Vec<State> {
        let Some(st) = self.pushed(push) else { return Vec::new() };
        let mut all = Vec::new();
        self.resolutions(st, &mut all);
        let mut out: Vec<State> = Vec::with_capacity(all.len());
        for s in all {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// Every legal move with its resulting state, one per distinct resulting state, in the
    /// official order (first occurrence kept).
    pub fn children(&self) -> Vec<(GipfMove, State)> {
        let mut out: Vec<(GipfMove, State)> = Vec::new();
        if self.state.reserve[colour_of(self.to_move)] == 0 {
            return out;
        }
        for push in 0..self.geo.pushes.len() {
            for (choice, st) in self.push_results(push).into_iter().enumerate() {
                if !out.iter().any(|(_, s)| *s == st) {
                    let mv = GipfMove { push: push as u8, choice: choice as u8 };
                    out.push((mv, st));
                }
            }
        }
        out
    }

    /// Whether the side to move has a push whose line is not full.
    pub fn has_push(&self) -> bool {
        let occupied = self.state.board[0] | self.state.board[1];
        self.geo.pushes.iter().any(|p| p.mask & !occupied != 0)
    }

    /// Replaces board and reserves by `st` and passes the turn, updating the hash.
    pub fn set_state_and_pass(&mut self, st: State) {
        let mut h = self.hash;
        for c in 0..2 {
            for cell in bits(self.state.board[c] ^ st.board[c]) {
                h ^= CELL_KEYS[c * 128 + cell];
            }
            if self.state.reserve[c] != st.reserve[c] {
                h ^= reserve_key(c, self.state.reserve[c]) ^ reserve_key(c, st.reserve[c]);
            }
        }
        self.state = st;
        self.to_move = !self.to_move;
        self.hash = h ^ SIDE_KEY;
    }

    /// The winner, if the game is over (the side to move loses with an empty reserve or no
    /// legal push).
    pub fn winner(&self) -> Option<Player> {
        self.outcome().map(|_| !self.to_move)
    }

    /// Whether the side to move is stuck with pieces left (all lines full).
    pub fn is_deadlock(&self) -> bool {
        self.state.reserve[colour_of(self.to_move)] > 0 && !self.has_push()
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
        pieces: [u32; 2],
        st: &State,
        to_move: Player,
    ) -> String {
        let s = geo.side;
        let mut out = String::new();
        let _ = writeln!(out, "{s} {k} {} {}", pieces[0], pieces[1]);
        let p = if to_move == Player::First { 'W' } else { 'B' };
        let _ = writeln!(out, "{} {} {p}", st.reserve[0], st.reserve[1]);
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
        if st.board[0] >> cell & 1 == 1 {
            'W'
        } else if st.board[1] >> cell & 1 == 1 {
            'B'
        } else {
            '_'
        }
    }

    /// The parameters `[S, K, GW, GB]`.
    pub fn params(&self) -> [u32; 4] {
        [self.geo.side as u32, self.k, self.pieces[0], self.pieces[1]]
    }
}

impl Game for Gipf {
    type Move = GipfMove;
    type Moves = GipfMoves;

    /// The moves of [`Gipf::children`] without allocating: a push that completes no row (the
    /// usual case) has one result, computed with bit operations; only pushes that complete
    /// rows go through the general resolution.
    fn generate_moves(&self, moves: &mut GipfMoves) {
        if self.outcome().is_some() {
            return;
        }
        // Results so far, hashed by a fingerprint of the board, to merge pushes with the same
        // result.
        // An open-addressing set (index + 1 into `seen`, 0 empty) at most half full.
        let mut seen: ArrayVec<State, MAX_MOVES> = ArrayVec::new();
        let mut slots = [0u16; 2 * MAX_MOVES];
        let mut add = |st: State, mv: GipfMove, moves: &mut GipfMoves| {
            let mut i = (fingerprint(&st) >> 54) as usize;
            loop {
                match slots[i] {
                    0 => {
                        seen.push(st);
                        slots[i] = seen.len() as u16;
                        moves.push(mv);
                        return;
                    }
                    k if seen[k as usize - 1] == st => return,
                    _ => i = (i + 1) % (2 * MAX_MOVES),
                }
            }
        };
        let occupied = self.state.board[0] | self.state.board[1];
        // Empty entry cells already pushed onto: another push onto one has the same result.
        let mut empty_entries_done = 0u128;
        for push in 0..self.geo.pushes.len() {
            let entry = 1u128 << self.geo.pushes[push].cells[0];
            if entry & occupied == 0 {
                if empty_entries_done & entry != 0 {
                    continue;
                }
                empty_entries_done |= entry;
            }
            let Some((st, _)) = self.push_raw(push) else { continue };
            if !self.push_makes_run(&st) {
                add(st, GipfMove { push: push as u8, choice: 0 }, moves);
                continue;
            }
            for (choice, st) in self.push_results(push).into_iter().enumerate() {
                add(st, GipfMove { push: push as u8, choice: choice as u8 }, moves);
            }
        }
    }

    /// The first legal push with its first removal choice: what [`Gipf::generate_moves`] lists
    /// first, found without generating the rest.
    fn first_move(&self) -> Option<GipfMove> {
        if self.state.reserve[colour_of(self.to_move)] == 0 {
            return None;
        }
        let occupied = self.state.board[0] | self.state.board[1];
        let push = self.geo.pushes.iter().position(|p| p.mask & !occupied != 0)?;
        Some(GipfMove { push: push as u8, choice: 0 })
    }

    fn play(&mut self, mv: GipfMove) {
        let push = mv.push as usize;
        let (st, _) = self.push_raw(push).expect("a legal move's line is not full");
        let st =
            if self.push_makes_run(&st) { self.push_results(push)[mv.choice as usize] } else { st };
        self.set_state_and_pass(st);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state.reserve[colour_of(self.to_move)] == 0 || !self.has_push() {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Board, reserves and side to move packed into 128 bits: `n` bits per colour for the `n`
    /// cells, then 8 bits per reserve and one for the side. Fits for `S <= 4` (`n <= 37`) and
    /// for `S = 5` (`n = 61`: `2n + 17 = 139` bits) not, so `None` from `S = 5` up. The
    /// parameters `S K GW GB` never change during a game.
    fn exact_key(&self) -> Option<u128> {
        let n = self.geo.cell_count as u32;
        let [w, b] = self.state.reserve;
        if 2 * n + 17 > 128 || w > 255 || b > 255 {
            return None;
        }
        let side = u128::from(self.to_move == Player::Second);
        let reserves = u128::from(w) | u128::from(b) << 8 | side << 16;
        Some(self.state.board[0] | self.state.board[1] << n | reserves << (2 * n))
    }
}

impl Perft for Gipf {}
