//! Connect Four on a board of `W` columns and `H` rows (7x6 by default): drop a stone into a
//! column, four in a row (across, up or diagonal) wins, a full board is a draw.
//!
//! The position is a pair of bitboards in the style of Pascal Pons' solver (facts from his
//! public source `PascalPons/connect4`, `Position.hpp`; no code taken): `position` holds the
//! stones of the side to move, `mask` every stone, and each column takes `H + 1` bits, the top
//! one a sentinel that is always empty, so shifts along a line never wrap into the next column.
//! Boards with `W * (H + 1) <= 64` and `W <= 9` fit (columns are written as one digit).
//!
//! ```text
//! bit index of each cell, 7x6:    .  .  .  .  .  .  .   <- sentinel row (always 0)
//!                                 5 12 19 26 33 40 47
//!                                 4 11 18 25 32 39 46
//!                                 3 10 17 24 31 38 45
//!                                 2  9 16 23 30 37 44
//!                                 1  8 15 22 29 36 43
//!                                 0  7 14 21 28 35 42
//! ```
//!
//! `position + mask` is a unique key of the position (Pons' key): it adds one bit at the top of
//! every column, so it encodes the column heights and the mover's stones. [`Game::hash`] is a
//! bijective mix of it, so two different positions never share a hash, and it is also the
//! [`Game::exact_key`].
//!
//! Scores ([`Scored`]) follow Pons' definition: a player who wins with their `k`-th stone
//! scores `W*H/2 + 1 - k` (`22 - k` on 7x6); in general, the side to move that wins with the
//! next stone, `n` stones being on the board, scores `(W*H + 1 - n) / 2` (his `Solver.cpp`). A
//! draw is 0, a loss the negation.
//!
//! ```
//! use bitsolve::games::connect4::Connect4;
//! use bitsolve::{Game, Notation, Outcome, Scored};
//! let pos = Connect4::parse_position("4455").unwrap();
//! assert_eq!(pos.outcome(), None);
//! let won = Connect4::parse_position("4455667").unwrap();
//! assert_eq!(won.outcome(), Some(Outcome::Loss));
//! assert_eq!(won.final_score(), Some(-18)); // the first player won with its 4th stone
//! ```

pub mod notation;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

use crate::game::capability::{Capabilities, SearchHints};
use crate::game::{Game, Outcome, Perft, Scored};

/// Widest board (columns are written as one digit `1..=9`).
pub const MAX_WIDTH: u8 = 9;

/// The move list: at most one move per column, in the order the searches should try them.
pub type Connect4Moves = ArrayVec<u8, { MAX_WIDTH as usize }>;

/// A Connect Four position; moves are 0-based columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4 {
    /// Stones of the side to move.
    position: u64,
    /// Every stone.
    mask: u64,
    /// The lowest cell of every column.
    bottom: u64,
    width: u8,
    height: u8,
    /// `width * height`.
    cells: u8,
    /// Cells where the side to move's stones complete a line of four, occupied or not, as
    /// computed when it last moved (its stones have not changed since; `& !mask` gives its
    /// threats now).
    my_lines: u64,
    /// The same for the player who moved last.
    their_lines: u64,
    /// Stones on the board.
    moves: u8,
    /// The last move made four in a row (the side to move has lost).
    won: bool,
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4::new(7, 6).expect("7x6 fits")
    }
}

/// Bits of every cell that completes a line of four with three stones of `stones` (empty or
/// not: the caller masks). `h` is the board height; lines run along the shifts 1 (up),
/// `h + 1` (across) and `h`, `h + 2` (the two diagonals).
#[inline]
fn completions(stones: u64, h: u32) -> u64 {
    if h == 6 {
        // The standard board's height as a constant: every shift an immediate.
        completions_by(stones, 6, |x, n| x << n, |x, n| x >> n)
    } else if 3 * (h + 2) < 64 {
        // Every shift below is under 64 (all boards up to 19 rows, 7x6 among them): plain
        // shifts, without the compare and select of each checked one (a quarter of the
        // instructions of a Connect Four search went to them).
        completions_by(stones, h, |x, n| x << n, |x, n| x >> n)
    } else {
        // Tall boards: shifts of 64 or more give 0 instead of overflowing.
        completions_by(
            stones,
            h,
            |x, n| x.checked_shl(n).unwrap_or(0),
            |x, n| x.checked_shr(n).unwrap_or(0),
        )
    }
}

/// [`completions`] with the shifts `up` and `down`.
#[inline]
fn completions_by(
    stones: u64,
    h: u32,
    up: impl Fn(u64, u32) -> u64,
    down: impl Fn(u64, u32) -> u64,
) -> u64 {
    // Vertical: only from below, as stones fall.
    let mut r = up(stones, 1) & up(stones, 2) & up(stones, 3);
    for d in [h + 1, h, h + 2] {
        let pair = up(stones, d) & up(stones, 2 * d);
        r |= pair & up(stones, 3 * d);
        r |= pair & down(stones, d);
        let pair = down(stones, d) & down(stones, 2 * d);
        r |= pair & up(stones, d);
        r |= pair & down(stones, 3 * d);
    }
    r
}

/// Whether `stones` hold four in a row.
#[inline]
fn aligned(stones: u64, h: u32) -> bool {
    [1, h + 1, h, h + 2].into_iter().any(|d| {
        let pair = stones & stones.checked_shr(d).unwrap_or(0);
        pair & pair.checked_shr(2 * d).unwrap_or(0) != 0
    })
}

/// The columns of a board of `w` columns (the index), centre first: 3, 2, 4, 1, 5, 0, 6 on 7.
const CENTRE_FIRST: [[u8; MAX_WIDTH as usize]; MAX_WIDTH as usize + 1] = {
    let mut table = [[0; MAX_WIDTH as usize]; MAX_WIDTH as usize + 1];
    let mut w = 1;
    while w <= MAX_WIDTH as usize {
        let mut i = 0;
        while i < w {
            let step = i.div_ceil(2);
            table[w][i] = if i % 2 == 0 { (w / 2 + step) as u8 } else { (w / 2 - step) as u8 };
            i += 1;
        }
        w += 1;
    }
    table
};

impl Connect4 {
    /// The empty board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// A size outside `1..=9` columns, `1..` rows with `width * (height + 1) <= 64`.
    pub fn new(width: u8, height: u8) -> Result<Self, String> {
        if !(1..=MAX_WIDTH).contains(&width)
            || height == 0
            || u32::from(width) * (u32::from(height) + 1) > 64
        {
            return Err(format!(
                "board {width}x{height} does not fit: 1 to 9 columns, 1 row or more, and \
                 columns x (rows + 1) at most 64"
            ));
        }
        let bottom =
            (0..u32::from(width)).fold(0, |b, c| b | 1u64 << (c * (u32::from(height) + 1)));
        Ok(Connect4 {
            position: 0,
            mask: 0,
            bottom,
            my_lines: 0,
            their_lines: 0,
            width,
            height,
            cells: width * height,
            moves: 0,
            won: false,
        })
    }

    /// Columns.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Stones on the board.
    #[inline]
    pub fn stones(&self) -> u32 {
        u32::from(self.moves)
    }

    /// Cells on the board.
    #[inline]
    pub fn cells(&self) -> u32 {
        u32::from(self.cells)
    }

    #[inline]
    fn h(&self) -> u32 {
        u32::from(self.height)
    }

    /// Every cell of the board (sentinels excluded).
    #[inline]
    fn board(&self) -> u64 {
        self.bottom * ((1u64 << self.height) - 1)
    }

    /// The cells of column `col`.
    #[inline]
    fn column(&self, col: u8) -> u64 {
        ((1u64 << self.height) - 1) << (u32::from(col) * (self.h() + 1))
    }

    /// The cell a stone dropped now would land on, in every column that is not full.
    #[inline]
    fn playable(&self) -> u64 {
        (self.mask + self.bottom) & self.board()
    }

    /// Empty cells where the side to move (`mine`) or the other side would complete four.
    #[inline]
    fn threats(&self, mine: bool) -> u64 {
        let lines = if mine { self.my_lines } else { self.their_lines };
        lines & self.board() & !self.mask
    }

    /// Whether the side to move can win with its next stone.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.threats(true) & self.playable() != 0
    }

    /// The cells the side to move can play without letting the opponent win with the next
    /// stone (Pons' `possibleNonLosingMoves`): the only block if the opponent has one playable
    /// winning cell, none if it has two, and never the cell below one of its winning cells.
    /// Meaningful when the side to move cannot win at once.
    #[inline]
    pub fn non_losing_moves(&self) -> u64 {
        let playable = self.playable();
        let theirs = self.threats(false);
        let forced = playable & theirs;
        let candidates = match forced.count_ones() {
            0 => playable,
            1 => forced,
            _ => return 0,
        };
        candidates & !(theirs >> 1)
    }

    /// Whether column `col` (0-based) takes a stone: on the board, not full, game not over.
    pub fn can_play(&self, col: u8) -> bool {
        col < self.width && self.outcome().is_none() && self.playable() & self.column(col) != 0
    }

    /// The columns whose playable cell is in `cells`, centre first, then sorted: a move that
    /// wins at once first, one that lets the opponent win at once last (a threat of theirs
    /// elsewhere stays open, or our stone lets them play on top of it).
    fn moves_among(&self, cells: u64, moves: &mut Connect4Moves) {
        let (my_wins, their_wins) = (self.threats(true), self.threats(false));
        let their_playable = their_wins & self.playable();
        let (column, stride) = ((1u64 << self.height) - 1, self.h() + 1);
        let mut neutral = Connect4Moves::new();
        let mut losing = Connect4Moves::new();
        for &col in &CENTRE_FIRST[usize::from(self.width)][..usize::from(self.width)] {
            let cell = cells & column << (u32::from(col) * stride);
            if cell == 0 {
                continue;
            }
            if my_wins & cell != 0 {
                moves.push(col);
            } else if their_playable & !cell != 0 || their_wins & (cell << 1) != 0 {
                losing.push(col);
            } else {
                neutral.push(col);
            }
        }
        moves.extend(neutral);
        moves.extend(losing);
    }

    /// The bijective mix (the `SplitMix64` finaliser) of the key `position + mask`.
    #[inline]
    fn mixed_key(&self) -> u64 {
        let mut z = self.position + self.mask;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Game for Connect4 {
    type Move = u8;
    type Moves = Connect4Moves;
    const ACYCLIC: bool = true;

    /// The columns that take a stone, best first: an immediate win, then the others centre
    /// columns first, moves that lose at once last. Every solver tries moves in this order
    /// before its own heuristics reorder them (the score searches by
    /// [`Scored::order_estimate`], the threats each move makes).
    fn generate_moves(&self, moves: &mut Connect4Moves) {
        if self.outcome().is_some() {
            return;
        }
        self.moves_among(self.playable(), moves);
    }

    #[inline]
    fn play(&mut self, col: u8) {
        debug_assert!(self.can_play(col), "illegal column {col}");
        let cell = (self.mask + (self.bottom & self.column(col))) & self.column(col);
        self.position ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
        // The mover's stone completed four iff it fell on one of its line cells.
        self.won = self.my_lines & cell != 0;
        self.my_lines = self.their_lines;
        self.their_lines = completions(self.position ^ self.mask, self.h());
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Loss)
        } else if u32::from(self.moves) == self.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.mixed_key()
    }

    /// Pons' key `position + mask` (the board size is left out: it never changes in a game).
    fn exact_key(&self) -> Option<u128> {
        Some(u128::from(self.position + self.mask))
    }

    /// The score searches' own ordering aids do not pay: the threat count orders well.
    const CAPABILITIES: Capabilities<Self> = Capabilities::NONE
        .with_search_hints(SearchHints { sharp_order_estimate: true, ..SearchHints::DEFAULT });
}

impl Scored for Connect4 {
    /// `(W*H + 1) / 2` is at most 32 on every board that fits.
    const SCORE_BOUND: i32 = 32;
    /// A full board without four in a row.
    const ZERO_IS_DRAW: bool = true;

    #[inline]
    fn final_score(&self) -> Option<i32> {
        match self.outcome()? {
            // The last mover won with the `moves`-th stone on the board.
            Outcome::Loss => Some(-((self.cells() + 2 - self.stones()) / 2).cast_signed()),
            _ => Some(0),
        }
    }

    /// Pons' pruning: while some move does not let the opponent win at once, the moves that
    /// do (below an opponent's threat, or not blocking the one threat that must be blocked)
    /// are left out; their value, a loss at the opponent's next stone, is the least any move
    /// can have. With an immediate win, or when every move loses, all are kept (the bounds of
    /// [`Scored::score_range`] settle such a node anyway).
    #[inline]
    fn score_moves(&self, moves: &mut Connect4Moves) {
        if self.outcome().is_some() {
            return;
        }
        let keep = self.non_losing_moves();
        if keep == 0 || self.can_win_next() {
            self.moves_among(self.playable(), moves);
            return;
        }
        // No move among `keep` wins at once or lets the opponent win at once: centre first.
        let stride = self.h() + 1;
        for &col in &CENTRE_FIRST[usize::from(self.width)][..usize::from(self.width)] {
            if keep >> (u32::from(col) * stride) & self.column(0) != 0 {
                moves.push(col);
            }
        }
    }

    /// Pons' bounds from the stones left: a win with the next stone at best, a loss to the
    /// opponent's next stone at worst. Exact when the side to move can win at once, or cannot
    /// stop the opponent from winning at once (two threats, or one above the only block);
    /// otherwise the best is a win with the stone after next and the worst a loss to the
    /// opponent's stone after next.
    #[inline]
    fn score_range(&self) -> (i32, i32) {
        let left = (self.cells() - self.stones()).cast_signed();
        if self.can_win_next() {
            return ((left + 1) / 2, (left + 1) / 2);
        }
        if self.non_losing_moves() == 0 {
            return (-left / 2, -left / 2);
        }
        (-(left - 2) / 2, (left - 1) / 2)
    }

    /// After the move that led here (this position's opponent moved last): a child where the
    /// mover can win at once is tried last; otherwise more completion cells of the player who
    /// just moved first.
    #[inline]
    fn order_estimate(&self) -> i32 {
        if self.can_win_next() {
            return 1000;
        }
        -(self.threats(false).count_ones() as i32)
    }

    /// The mover wins iff the stone lands on one of its line cells; else the game ends only
    /// when the stone fills the board.
    #[inline]
    fn final_score_after(&self, col: u8) -> Option<i32> {
        let cell = self.playable() & self.column(col);
        if self.my_lines & cell != 0 {
            // The child's side to move has lost to stone number `moves + 1`.
            Some(-((self.cells() + 1 - self.stones()) / 2).cast_signed())
        } else if self.stones() + 1 == self.cells() {
            Some(0)
        } else {
            None
        }
    }

    /// [`Scored::order_estimate`] of the position after dropping a stone in `col`, from this
    /// one: the opponent's lines are already known, the mover's are its stones and the new one
    /// (Pons' move score, the winning cells a move makes).
    #[inline]
    fn order_estimate_after(&self, col: u8) -> i32 {
        let board = self.board();
        let cell = self.playable() & self.column(col);
        let mask = self.mask | cell;
        let playable = (mask + self.bottom) & board;
        // The child's side to move is this one's opponent, its lines this one's `their_lines`.
        if self.their_lines & board & !mask & playable != 0 {
            return 1000;
        }
        let made = completions(self.position | cell, self.h()) & board & !mask;
        -(made.count_ones() as i32)
    }
}

impl Perft for Connect4 {}
