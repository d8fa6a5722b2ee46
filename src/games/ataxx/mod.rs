//! Ataxx on boards from 1x1 to 7x7, with blocked squares, under two rule sets.
//!
//! # Board layout
//!
//! A board of `width` x `height` squares is embedded in a stride-8 [`Bitboard64`]: square
//! `8 * rank + file`, a1 = bit 0, b1 = bit 1, a2 = bit 8. Column 7 (`h`) and row 7 (rank 8)
//! never hold a square, so they form a guard band for shifts:
//!
//! ```text
//!   rank 8 | 56 57 58 59 60 61 62 | 63     <- guard row (never on the board)
//!   rank 7 | 48 49 50 51 52 53 54 | 55
//!   rank 6 | 40 41 42 43 44 45 46 | 47
//!   rank 5 | 32 33 34 35 36 37 38 | 39
//!   rank 4 | 24 25 26 27 28 29 30 | 31
//!   rank 3 | 16 17 18 19 20 21 22 | 23
//!   rank 2 |  8  9 10 11 12 13 14 | 15
//!   rank 1 |  0  1  2  3  4  5  6 |  7     <- guard column h
//!             a  b  c  d  e  f  g    h
//! ```
//!
//! A smaller board uses the lower-left corner (a 5x5 board is a1..e5). Blocked squares (`-` in
//! FEN) are simply left out of the mask of valid squares.
//!
//! # Rules
//!
//! A move clones a stone to an empty square at king distance 1 or jumps it to an empty square
//! at distance exactly 2; every opponent stone next to the destination changes colour.
//!
//! * [`AtaxxStandard`] (community rules, UAI): a side with no move but the game not over plays
//!   [`AtaxxMove::PASS`]. The game is over when a side has no stones or when no empty square is
//!   within distance 2 of any stone (a full board included); more stones wins.
//! * [`AtaxxPolish`] (the assignment's rules): no pass. The game is over when the board is full
//!   (more stones wins), when only one colour is left (it wins), or when the side to move has
//!   no move while empty squares remain (it loses).
//!
//! # What solvers see
//!
//! The [`Game`] model leaves out the move-count rules: the halfmove clock (100 plies without a
//! clone under standard rules, 50 consecutive jumps under Polish rules) and the Polish
//! threefold repetition are part of neither [`Game::outcome`] nor [`Game::hash`]. Searches
//! treat a position repeated on their path as a draw instead. Since the number of stones never
//! decreases and a clone adds one, no position before the last clone can recur, so
//! [`Game::reversible_plies`] returns the halfmove clock. [`Perft`](crate::game::Perft) does honour the clock,
//! because the published perft numbers do (see [`Perft` for `Ataxx`](crate::game::Perft#implementors)).
//!
//! ```
//! use bitsolve::{AtaxxStandard, Notation, Perft};
//! let pos = AtaxxStandard::parse_position("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
//! assert_eq!(pos.perft(1), 16);
//! assert_eq!(pos.format_position(), "x5o/7/7/7/7/7/o5x x 0 1");
//! ```

pub mod elo;
mod eval;
pub mod index;
mod moves;
pub mod nnue;
mod notation;
mod perft;
pub mod record;
mod tables;
#[cfg(test)]
mod tests;
pub mod timeman;
pub mod unmove;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard64;
use crate::game::{ByPlayer, Game, Outcome, Player};
pub use eval::{FEATURES, WEIGHTS_ENDGAME, WEIGHTS_MIDDLE, WEIGHTS_OPENING};
pub use moves::AtaxxMove;
use tables::{JUMPS, NEIGHBOURS, dilate, reach};

/// A set of squares of an Ataxx board (stride 8).
pub type Squares = Bitboard64;

/// Upper bound on the number of legal moves in any position.
///
/// Clones go to distinct empty squares: at most 49. Each jump joins an own stone and an empty
/// square at king distance exactly 2, so an unordered pair of squares at distance 2 gives at
/// most one jump; a 7x7 board has 240 such pairs (480 ordered ones: for each of the 16 offsets
/// `(dx, dy)`, `(7 - |dx|) (7 - |dy|)` squares). The pass only comes alone. 49 + 240 = 289.
pub const MAX_MOVES: usize = 289;

/// Halfmove clock at which a standard game is over (in [`Perft`](crate::game::Perft); not in [`Game::outcome`]).
pub const STANDARD_CLOCK_LIMIT: u32 = 100;

/// Number of consecutive jumps after which a Polish game is drawn (in [`Perft`](crate::game::Perft); not in
/// [`Game::outcome`]). The assignment's "last 50 moves were all jumps" is read as 50 plies.
pub const POLISH_CLOCK_LIMIT: u32 = 50;

/// An Ataxx position. `POLISH` selects the rule set: see the [module docs](self).
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Ataxx<const POLISH: bool> {
    stones: ByPlayer<Squares>,
    valid: Squares,
    hash: u64,
    halfmove: u16,
    fullmove: u16,
    side: Player,
    width: u8,
    height: u8,
}

/// Ataxx under the community rules (a side without a move passes).
pub type AtaxxStandard = Ataxx<false>;
/// Ataxx under the assignment's rules (a side without a move loses).
pub type AtaxxPolish = Ataxx<true>;

/// The squares of a `width` x `height` board.
fn rectangle(width: u32, height: u32) -> Squares {
    let row = (1u64 << width) - 1;
    Bitboard64((0..height).fold(0u64, |acc, r| acc | row << (8 * r)))
}

impl<const POLISH: bool> Ataxx<POLISH> {
    /// An empty `width` x `height` board with every square valid, first player to move.
    ///
    /// # Panics
    /// If a dimension is not in `1..=7`.
    #[track_caller]
    pub fn empty(width: u32, height: u32) -> Self {
        assert!((1..=7).contains(&width) && (1..=7).contains(&height), "board size out of range");
        let valid = rectangle(width, height);
        Ataxx {
            stones: ByPlayer::default(),
            valid,
            // Squares off the board hash like blocked ones, so boards of different sizes never
            // share a hash.
            hash: (!valid).into_iter().fold(0, |h, sq| h ^ tables::blocked_key(sq)),
            halfmove: 0,
            fullmove: 1,
            side: Player::First,
            width: width as u8,
            height: height as u8,
        }
    }

    /// The four-corner start on a `width` x `height` board: the first player (`x`) on the
    /// top-left and bottom-right corners, the second (`o`) on the other two; `x` to move.
    ///
    /// # Panics
    /// If a dimension is not in `2..=7`.
    #[track_caller]
    pub fn start(width: u32, height: u32) -> Self {
        assert!(width >= 2 && height >= 2, "the start position needs at least 2x2");
        let mut pos = Self::empty(width, height);
        let (left, right, bottom, top) = (0, width - 1, 0, 8 * (height - 1));
        pos.put(Player::First, top + left);
        pos.put(Player::First, bottom + right);
        pos.put(Player::Second, bottom + left);
        pos.put(Player::Second, top + right);
        pos
    }

    /// The standard 7x7 start, `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn startpos() -> Self {
        Self::start(7, 7)
    }

    /// Puts a stone of `player` on the empty valid square `sq` (for setting up positions).
    ///
    /// # Panics
    /// If `sq` is not an empty valid square.
    #[track_caller]
    pub fn put(&mut self, player: Player, sq: u32) {
        assert!(self.empties().contains(sq), "square {sq} is not empty and valid");
        self.stones[player] = self.stones[player].with(sq);
        self.hash ^= tables::stone_key(player.index(), sq);
    }

    /// Removes `sq` from the board (a blocked square), which must be empty.
    ///
    /// # Panics
    /// If `sq` is not an empty valid square.
    #[track_caller]
    pub fn block(&mut self, sq: u32) {
        assert!(self.empties().contains(sq), "square {sq} is not empty and valid");
        self.valid = self.valid.without(sq);
        self.hash ^= tables::blocked_key(sq);
    }

    /// Number of files.
    pub fn width(&self) -> u32 {
        u32::from(self.width)
    }

    /// Number of ranks.
    pub fn height(&self) -> u32 {
        u32::from(self.height)
    }

    /// The player to move.
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// The stones of `player`.
    pub fn stones(&self, player: Player) -> Squares {
        self.stones[player]
    }

    /// The squares of the board that are not blocked.
    pub fn valid(&self) -> Squares {
        self.valid
    }

    /// The empty (valid, unoccupied) squares.
    pub fn empties(&self) -> Squares {
        self.valid - self.stones.first - self.stones.second
    }

    /// Plies since the last clone (jumps and passes count).
    pub fn halfmove(&self) -> u32 {
        u32::from(self.halfmove)
    }

    /// Full-move number: 1 at the start, up by one after each move of the second player.
    pub fn fullmove(&self) -> u32 {
        u32::from(self.fullmove)
    }

    /// Sets the halfmove clock and the fullmove number (as read from a FEN).
    pub fn set_counters(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Player) {
        if side != self.side {
            self.side = side;
            self.hash ^= tables::SIDE_KEY;
        }
    }

    /// The Zobrist hash computed from nothing: stones, side to move and blocked squares of the
    /// `width` x `height` rectangle. [`Game::hash`] keeps the same value up to date.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Player::Second { tables::SIDE_KEY } else { 0 };
        for p in Player::ALL {
            for sq in self.stones[p] {
                h ^= tables::stone_key(p.index(), sq);
            }
        }
        for sq in !self.valid {
            h ^= tables::blocked_key(sq);
        }
        h
    }

    /// Whether `player` has a clone or a jump (ignoring whose turn it is).
    pub fn can_move(&self, player: Player) -> bool {
        reach(self.stones[player].0) & self.empties().0 != 0
    }

    /// Outcome by stone count, from the side to move's view.
    fn by_count(&self) -> Outcome {
        let own = self.stones[self.side].count();
        let opp = self.stones[!self.side].count();
        match own.cmp(&opp) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => Outcome::Loss,
        }
    }

    /// Whether `mv` is legal here (a cheap check, without generating every move).
    pub fn is_legal(&self, mv: AtaxxMove) -> bool {
        let own = self.stones[self.side].0;
        let empty = self.empties().0;
        let over = own == 0 || self.stones[!self.side].is_empty();
        if over {
            return false;
        }
        match (mv.from(), mv.to()) {
            (_, None) => !POLISH && !self.can_move(self.side) && self.can_move(!self.side),
            (None, Some(to)) => empty >> to & 1 != 0 && NEIGHBOURS[to as usize] & own != 0,
            (Some(from), Some(to)) => {
                own >> from & 1 != 0 && empty >> to & 1 != 0 && JUMPS[from as usize] >> to & 1 != 0
            }
        }
    }
}

impl<const POLISH: bool> Game for Ataxx<POLISH> {
    type Move = AtaxxMove;
    type Moves = ArrayVec<AtaxxMove, MAX_MOVES>;

    const ACYCLIC: bool = false;

    const CAPABILITIES: crate::game::capability::Capabilities<Self> =
        crate::game::capability::Capabilities::NONE.with_tablebase();

    fn generate_moves(&self, moves: &mut Self::Moves) {
        let own = self.stones[self.side].0;
        let opp = self.stones[!self.side].0;
        if own == 0 || opp == 0 {
            return;
        }
        let empty = self.empties().0;
        for to in Bitboard64(dilate(own) & empty) {
            moves.push(AtaxxMove::clone_to(to));
        }
        for from in Bitboard64(own) {
            for to in Bitboard64(JUMPS[from as usize] & empty) {
                moves.push(AtaxxMove::jump(from, to));
            }
        }
        if !POLISH && moves.is_empty() && reach(opp) & empty != 0 {
            moves.push(AtaxxMove::PASS);
        }
    }

    fn play(&mut self, mv: AtaxxMove) {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self:?}");
        let me = self.side;
        if let Some(to) = mv.to() {
            let bit = 1u64 << to;
            if let Some(from) = mv.from() {
                self.stones[me].0 ^= 1 << from;
                self.hash ^= tables::stone_key(me.index(), from);
                self.halfmove = self.halfmove.saturating_add(1);
            } else {
                self.halfmove = 0;
            }
            self.stones[me].0 |= bit;
            self.hash ^= tables::stone_key(me.index(), to);
            let flips = NEIGHBOURS[to as usize] & self.stones[!me].0;
            self.stones[me].0 |= flips;
            self.stones[!me].0 ^= flips;
            for sq in Bitboard64(flips) {
                self.hash ^= tables::flip_key(sq);
            }
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if me == Player::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !me;
        self.hash ^= tables::SIDE_KEY;
        debug_assert_eq!(self.hash, self.hash_from_scratch());
    }

    fn outcome(&self) -> Option<Outcome> {
        let own = self.stones[self.side];
        let opp = self.stones[!self.side];
        if own.is_empty() || opp.is_empty() || self.empties().is_empty() {
            return Some(self.by_count());
        }
        let own_moves = self.can_move(self.side);
        if POLISH {
            (!own_moves).then_some(Outcome::Loss)
        } else {
            (!own_moves && !self.can_move(!self.side)).then(|| self.by_count())
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn reversible_plies(&self) -> Option<u32> {
        Some(self.halfmove())
    }

    /// Both players' stones (55 bits each: squares are `8 * row + column` below 7 x 7) and
    /// the side to move. The blocked squares and the board size never change; the clocks are
    /// left out as [`Game::hash`] leaves them out.
    fn exact_key(&self) -> Option<u128> {
        let (first, second) = (self.stones[Player::First].0, self.stones[Player::Second].0);
        debug_assert!((first | second) >> 55 == 0, "a square beyond the 7 x 7 board");
        let side = u128::from(self.side == Player::Second);
        Some(u128::from(first) | u128::from(second) << 55 | side << 110)
    }
}
