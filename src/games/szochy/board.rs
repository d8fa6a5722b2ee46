//! The board of one szochy instance: size, holes, and precomputed move tables.

#![allow(clippy::many_single_char_names)] // graph and board notation: g, m, n, u, v, w

use std::fmt::Write as _;

/// Largest board (squares), so a set of squares fits a `u128`.
pub const MAX_SQUARES: usize = 128;
/// Most movable pieces of one instance (a position packs into 7 bits per piece of a `u128`).
pub const MAX_PIECES: usize = 18;

/// A piece type. Pieces of one type are indistinguishable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// King: one step in any of the 8 directions.
    King,
    /// Queen: slides along ranks, files and diagonals.
    Queen,
    /// Bishop: slides along diagonals.
    Bishop,
    /// Knight: the (1,2) leap, jumping over anything.
    Knight,
    /// Rook: slides along ranks and files.
    Rook,
}

impl Piece {
    /// Every type, in the order positions are stored.
    pub const ALL: [Piece; 5] =
        [Piece::King, Piece::Queen, Piece::Bishop, Piece::Knight, Piece::Rook];

    /// The lowercase letter: `k q b n r`.
    pub const fn letter(self) -> char {
        match self {
            Piece::King => 'k',
            Piece::Queen => 'q',
            Piece::Bishop => 'b',
            Piece::Knight => 'n',
            Piece::Rook => 'r',
        }
    }

    /// The type of a letter (either case).
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.letter() == c.to_ascii_lowercase())
    }
}

/// Per-type sets of occupied squares (bit `s` of entry `t`: a piece of type `Piece::ALL[t]` on
/// square `s`). The position of the game: pieces of one type are indistinguishable.
pub type Placement = [u128; 5];

/// A move: a piece type, from and to square indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SzochyMove {
    /// Index into [`Piece::ALL`].
    pub piece: u8,
    /// Square left.
    pub from: u8,
    /// Square entered.
    pub to: u8,
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// An `n x m` board with holes: square `(i, j)` (1-based, `i` horizontal) has index
/// `(j - 1) * n + (i - 1)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    n: u32,
    m: u32,
    holes: u128,
    king: Vec<u128>,
    knight: Vec<u128>,
    /// Rays per square as sets: 4 orthogonal then 4 diagonal, each stopping before a hole or
    /// the edge. Even directions run towards higher square indices, odd ones towards lower.
    rays: Vec<[u128; 8]>,
}

impl Board {
    /// A board of `n` columns and `m` rows with the given hole squares (indices).
    ///
    /// # Errors
    /// If `n` or `m` is 0 or the board has more than [`MAX_SQUARES`] squares.
    pub fn new(n: u32, m: u32, holes: u128) -> Result<Board, String> {
        if n == 0 || m == 0 {
            return Err(format!("board {n} x {m}: both sides must be at least 1"));
        }
        if (n as usize) * (m as usize) > MAX_SQUARES {
            return Err(format!("board {n} x {m} has more than {MAX_SQUARES} squares"));
        }
        let squares = n * m;
        let mut board =
            Board { n, m, holes, king: Vec::new(), knight: Vec::new(), rays: Vec::new() };
        let inside = |i: i32, j: i32| i >= 0 && j >= 0 && i < n as i32 && j < m as i32;
        for s in 0..squares {
            let (i, j) = ((s % n) as i32, (s / n) as i32);
            let leap = |deltas: &[(i32, i32)]| {
                let mut set = 0u128;
                for &(di, dj) in deltas {
                    let (a, b) = (i + di, j + dj);
                    if inside(a, b) {
                        let t = (b as u32) * n + a as u32;
                        if holes >> t & 1 == 0 {
                            set |= 1 << t;
                        }
                    }
                }
                set
            };
            let king: Vec<(i32, i32)> = ROOK_DIRS.iter().chain(&BISHOP_DIRS).copied().collect();
            board.king.push(leap(&king));
            board.knight.push(leap(&KNIGHT));
            let mut rays = [0u128; 8];
            for (d, &(di, dj)) in ROOK_DIRS.iter().chain(&BISHOP_DIRS).enumerate() {
                let (mut a, mut b) = (i + di, j + dj);
                while inside(a, b) {
                    let t = (b as u32) * n + a as u32;
                    if holes >> t & 1 == 1 {
                        break;
                    }
                    rays[d] |= 1 << t;
                    a += di;
                    b += dj;
                }
            }
            board.rays.push(rays);
        }
        Ok(board)
    }

    /// Columns (the horizontal coordinate `i` runs over `1..=n`).
    pub fn columns(&self) -> u32 {
        self.n
    }

    /// Rows (the vertical coordinate `j` runs over `1..=m`).
    pub fn rows(&self) -> u32 {
        self.m
    }

    /// The set of hole squares.
    pub fn holes(&self) -> u128 {
        self.holes
    }

    /// Number of squares.
    pub fn squares(&self) -> u32 {
        self.n * self.m
    }

    /// The index of 1-based square `(i, j)`, if it is on the board.
    pub fn square(&self, i: i64, j: i64) -> Option<u8> {
        (i >= 1 && j >= 1 && i <= i64::from(self.n) && j <= i64::from(self.m))
            .then(|| ((j - 1) as u32 * self.n + (i - 1) as u32) as u8)
    }

    /// The 1-based coordinates of a square index.
    pub fn coords(&self, s: u8) -> (u32, u32) {
        (u32::from(s) % self.n + 1, u32::from(s) / self.n + 1)
    }

    /// `i,j` for a square.
    pub fn square_name(&self, s: u8) -> String {
        let (i, j) = self.coords(s);
        format!("{i},{j}")
    }

    /// The squares reached by sliding from `s` along rays `dirs` (even: towards higher
    /// indices, so the first blocker is the lowest set bit; odd: the highest).
    #[inline]
    fn slide(&self, s: usize, dirs: std::ops::Range<usize>, occupied: u128) -> u128 {
        let rays = &self.rays[s];
        let mut set = 0;
        for d in dirs {
            let ray = rays[d];
            let blockers = ray & occupied;
            set |= if blockers == 0 {
                ray
            } else if d % 2 == 0 {
                ray & ((1u128 << blockers.trailing_zeros()) - 1)
            } else {
                ray & ((u128::MAX << blockers.ilog2()) << 1)
            };
        }
        set
    }

    /// The squares a piece of `piece` on `s` may move to, with `occupied` squares taken.
    #[inline]
    pub fn targets(&self, piece: Piece, s: u8, occupied: u128) -> u128 {
        let s = s as usize;
        match piece {
            Piece::King => self.king[s] & !occupied,
            Piece::Knight => self.knight[s] & !occupied,
            Piece::Rook => self.slide(s, 0..4, occupied),
            Piece::Bishop => self.slide(s, 4..8, occupied),
            Piece::Queen => self.slide(s, 0..8, occupied),
        }
    }

    /// Calls `f` with every move and the placement it leads to.
    #[inline]
    pub fn for_each_child(&self, pl: &Placement, mut f: impl FnMut(SzochyMove, &Placement)) {
        let occupied = pl.iter().fold(0, |a, b| a | b);
        for (t, piece) in Piece::ALL.into_iter().enumerate() {
            let mut from_set = pl[t];
            while from_set != 0 {
                let from = from_set.trailing_zeros() as u8;
                from_set &= from_set - 1;
                let mut to_set = self.targets(piece, from, occupied);
                while to_set != 0 {
                    let to = to_set.trailing_zeros() as u8;
                    to_set &= to_set - 1;
                    let mut child = *pl;
                    child[t] ^= (1u128 << from) | (1u128 << to);
                    f(SzochyMove { piece: t as u8, from, to }, &child);
                }
            }
        }
    }

    /// The pieces of a placement as `k1,2 q3,3` (types in [`Piece::ALL`] order, squares
    /// ascending).
    pub fn format_pieces(&self, pl: &Placement) -> String {
        let mut out = String::new();
        for (t, piece) in Piece::ALL.into_iter().enumerate() {
            let mut set = pl[t];
            while set != 0 {
                let s = set.trailing_zeros() as u8;
                set &= set - 1;
                if !out.is_empty() {
                    out.push(' ');
                }
                let _ = write!(out, "{}{}", piece.letter(), self.square_name(s));
            }
        }
        out
    }

    /// A move as `k1,2-2,3`.
    pub fn format_move(&self, mv: SzochyMove) -> String {
        format!(
            "{}{}-{}",
            Piece::ALL[mv.piece as usize].letter(),
            self.square_name(mv.from),
            self.square_name(mv.to)
        )
    }
}

/// Piece counts per type of a placement.
pub fn counts(pl: &Placement) -> [u8; 5] {
    pl.map(|b| b.count_ones() as u8)
}

/// Packs a placement into a `u128`: each type's squares ascending, 7 bits each (the counts per
/// type are fixed for an instance, so they need not be stored). At most [`MAX_PIECES`] pieces.
#[inline]
pub fn encode(pl: &Placement) -> u128 {
    let mut key = 0u128;
    for &bb in pl {
        let mut set = bb;
        while set != 0 {
            key = key << 7 | u128::from(set.trailing_zeros());
            set &= set - 1;
        }
    }
    key
}

/// The inverse of [`encode`] for pieces counted by `counts`.
#[inline]
pub fn decode(mut key: u128, counts: &[u8; 5]) -> Placement {
    let mut pl = [0u128; 5];
    for t in (0..5).rev() {
        for _ in 0..counts[t] {
            pl[t] |= 1u128 << (key & 127);
            key >>= 7;
        }
    }
    pl
}

/// The move that turns `a` into `b`, if they differ by one piece moving.
pub fn move_between(a: &Placement, b: &Placement) -> Option<SzochyMove> {
    let t = (0..5).find(|&t| a[t] != b[t])?;
    let from = a[t] & !b[t];
    let to = b[t] & !a[t];
    (from.is_power_of_two() && to.is_power_of_two()).then(|| SzochyMove {
        piece: t as u8,
        from: from.trailing_zeros() as u8,
        to: to.trailing_zeros() as u8,
    })
}
