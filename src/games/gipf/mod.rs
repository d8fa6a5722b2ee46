//! Generalised GIPF ("basic GIPF" without GIPF pieces) on a hexagonal board of side `S`
//! (2 to 7) with rows of `K` to remove.
//!
//! One type [`Gipf`] serves every board size: `S` is known only at run time (the `gipf`
//! interpreter reads it from `LOAD_GAME_BOARD`), so a position holds a `&'static`
//! [`HexGeometry`] built once per `S`, and the board as one [`Bitboard128`] per player (127
//! cells at most).
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
//!
//! Files: this one holds the types, the hashing and the [`Game`] implementation; `rules.rs` the
//! push, row detection and removal; `load.rs` the load format and its checks; `notation.rs`
//! the one-line position notation.

pub mod index;
mod load;
pub mod notation;
mod rules;
pub mod symmetry;
#[cfg(test)]
mod tests;

use arrayvec::ArrayVec;

pub use load::{BoardText, LoadError};

use crate::bitboard::Bitboard128;
use crate::capability::{Capabilities, FirstMove, SearchHints};
use crate::game::{ByPlayer, Game, Outcome, Perft, Player};
use crate::geometry::hex::{HexGeometry, Windows};
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

/// Board and reserves: what a move changes. White is [`Player::First`], Black
/// [`Player::Second`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Each player's pieces on the board.
    pub board: ByPlayer<Bitboard128>,
    /// Each player's reserve.
    pub reserve: ByPlayer<u32>,
}

impl State {
    /// The cells holding a piece of either colour.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard128 {
        self.board.first | self.board.second
    }

    /// The number of pieces on the board and in the reserves (a removal lowers it by the
    /// pieces captured).
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.occupied().count() + self.reserve.first + self.reserve.second
    }
}

/// A run of at least `K` pieces of one colour found on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The colour of the run's pieces (`First` = white).
    pub colour: Player,
    /// Index of the line in the geometry.
    pub line: u16,
    /// First cell of the run (in line order).
    pub first: u8,
    /// Last cell of the run.
    pub last: u8,
    /// The whole contiguous non-empty segment of the line containing the run.
    pub segment: Bitboard128,
}

/// A GIPF position.
#[derive(Clone, Debug)]
pub struct Gipf {
    geo: &'static HexGeometry,
    windows: &'static Windows,
    k: u32,
    pieces: ByPlayer<u32>,
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

fn reserve_key(colour: Player, value: u32) -> u64 {
    splitmix64(0x7265_7365_7276_6500 ^ ((colour.index() as u64) << 40) ^ u64::from(value)).1
}

/// The Zobrist key of a piece of `colour` on `cell`.
#[inline]
fn cell_key(colour: Player, cell: u32) -> u64 {
    CELL_KEYS[colour.index() * 128 + cell as usize]
}

fn params_key(side: usize, k: u32) -> u64 {
    splitmix64(0x7061_7261_6d73_0000 ^ ((side as u64) << 32) ^ u64::from(k)).1
}

/// A 64-bit summary of a state's board (equal states have equal fingerprints).
#[inline]
fn fingerprint(st: &State) -> u64 {
    let mix = st.board.first.0 ^ st.board.second.0.rotate_left(37);
    ((mix as u64) ^ (mix >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Gipf {
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
        for c in Player::ALL {
            for cell in self.state.board[c] {
                h ^= cell_key(c, cell);
            }
            h ^= reserve_key(c, self.state.reserve[c]);
        }
        if self.to_move == Player::Second {
            h ^= SIDE_KEY;
        }
        h
    }

    /// Every legal move with its resulting state, one per distinct resulting state, in the
    /// official order (first occurrence kept).
    pub fn children(&self) -> Vec<(GipfMove, State)> {
        let mut out: Vec<(GipfMove, State)> = Vec::new();
        if self.state.reserve[self.to_move] == 0 {
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
        let occupied = self.state.occupied().0;
        self.geo.pushes.iter().any(|p| p.mask & !occupied != 0)
    }

    /// Replaces board and reserves by `st` and passes the turn, updating the hash.
    pub fn set_state_and_pass(&mut self, st: State) {
        let mut h = self.hash;
        for c in Player::ALL {
            for cell in self.state.board[c] ^ st.board[c] {
                h ^= cell_key(c, cell);
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
        self.state.reserve[self.to_move] > 0 && !self.has_push()
    }

    /// The parameters `[S, K, GW, GB]`.
    pub fn params(&self) -> [u32; 4] {
        [self.geo.side as u32, self.k, self.pieces.first, self.pieces.second]
    }

    /// The same position with the colours exchanged: pieces, reserves, piece totals (`GW` and
    /// `GB`) and the side to move. The rules treat both colours alike, so the side to move has
    /// the same value in both, every move keeps its notation, and playing a move commutes
    /// with the exchange.
    #[must_use]
    pub fn colour_swapped(&self) -> Gipf {
        let swap = |x: ByPlayer<u32>| ByPlayer { first: x.second, second: x.first };
        let mut g = Gipf {
            pieces: swap(self.pieces),
            state: State {
                board: ByPlayer { first: self.state.board.second, second: self.state.board.first },
                reserve: swap(self.state.reserve),
            },
            to_move: !self.to_move,
            ..self.clone()
        };
        g.hash = g.hash_from_scratch();
        g
    }
}

impl Game for Gipf {
    /// A cheap first move for df-pn's win probe, and the proof-number settings measured best:
    /// reply counts are nearly uniform (every push of a non-empty reserve), a side whose
    /// opponent has an empty reserve wins with any push, and df-pn with epsilon = 2 re-expands
    /// less than plain df-pn on official test 9 and the small variants (see `README.md`, GIPF).
    const CAPABILITIES: Capabilities<Self> = Capabilities::NONE
        .with_first_move()
        .with_tablebase()
        .with_strong_solve()
        .with_search_hints(SearchHints {
            informative_mobility: false,
            first_reply_wins_often: true,
            dfpn_epsilon: Some(2.0),
            sharp_order_estimate: false,
        });
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
        let occupied = self.state.occupied().0;
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

    fn play(&mut self, mv: GipfMove) {
        let push = mv.push as usize;
        let (st, _) = self.push_raw(push).expect("a legal move's line is not full");
        let st =
            if self.push_makes_run(&st) { self.push_results(push)[mv.choice as usize] } else { st };
        self.set_state_and_pass(st);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state.reserve[self.to_move] == 0 || !self.has_push() {
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
        let ByPlayer { first: w, second: b } = self.state.reserve;
        if 2 * n + 17 > 128 || w > 255 || b > 255 {
            return None;
        }
        let side = u128::from(self.to_move == Player::Second);
        let reserves = u128::from(w) | u128::from(b) << 8 | side << 16;
        let ByPlayer { first: white, second: black } = self.state.board;
        Some(white.0 | black.0 << n | reserves << (2 * n))
    }
}

impl FirstMove for Gipf {
    /// The first legal push with its first removal choice: what [`Gipf::generate_moves`] lists
    /// first, found without generating the rest.
    fn first_move(&self) -> Option<GipfMove> {
        if self.state.reserve[self.to_move] == 0 {
            return None;
        }
        let occupied = self.state.occupied().0;
        let push = self.geo.pushes.iter().position(|p| p.mask & !occupied != 0)?;
        Some(GipfMove { push: push as u8, choice: 0 })
    }
}

impl Perft for Gipf {}
