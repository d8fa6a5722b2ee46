//! [`AtaxxIndex`]: a combinatorial ranking of Ataxx positions, one layer per stone count.
//!
//! The rules are symmetric under swapping the colours together with the side to move, so a
//! position is indexed by its stones *relative to the side to move*: `own` (the mover's) and
//! `opp`. Layer `k` holds the positions with `k` stones; its rank is
//!
//! ```text
//! rank = colex_rank(occupied) * 2^k + pext(own, occupied)
//! ```
//!
//! where `colex_rank` ranks the `k`-subset of the board's `n` valid squares (numbered row by row,
//! blocked squares skipped) among all `C(n, k)` and `pext` packs the `k` bits saying which
//! occupied squares are the mover's. Layer `k` has `C(n, k) 2^k` positions and the layers sum
//! to `3^n`. Everything works on the stride-8 bitboards directly, a row (byte) at a time:
//! per row a table of colex terms (by the number of occupied squares below) and byte tables
//! for `pext` and `pdep`.
//!
//! Moves never lower the stone count (a clone adds one, a jump keeps it), so layers are solved
//! from `n` stones down to 0.

use std::marker::PhantomData;

use super::Ataxx;
use crate::bitboard::BytePext;
use crate::game::Player;
use crate::unmove::LayeredIndex;

/// Largest number of valid squares (7 x 7).
const MAX_SQUARES: usize = 49;

/// Largest number of valid squares an index supports: `3^40 < 2^64 < 3^41`.
pub const MAX_INDEXED: u32 = 40;

/// Size of the binomial table: `C(n, k)` for `n, k <= MAX_INDEXED`.
const BINOMIAL_SIZE: usize = MAX_INDEXED as usize + 1;

/// `C(n, k)` for `n, k <= MAX_INDEXED` (0 when `k > n`).
const fn binomials() -> [[u64; BINOMIAL_SIZE]; BINOMIAL_SIZE] {
    let mut t = [[0u64; BINOMIAL_SIZE]; BINOMIAL_SIZE];
    let mut n = 0;
    while n < BINOMIAL_SIZE {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1].saturating_add(t[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    t
}

/// Binomial coefficients.
static BINOMIAL: [[u64; BINOMIAL_SIZE]; BINOMIAL_SIZE] = binomials();

/// The layered index of the positions of one Ataxx board (size and blocked squares fixed).
///
/// `POLISH` only selects the position type of [`LayeredIndex`]; the ranks are the same for
/// both rule sets.
#[derive(Clone, Debug)]
pub struct AtaxxIndex<const POLISH: bool> {
    width: u32,
    height: u32,
    valid: u64,
    /// Number of valid squares.
    n: u32,
    /// Valid squares of each row (7 bits).
    row_valid: [u8; 7],
    /// Colex terms: `colex[(row * (n + 1) + below) * 128 + byte]` is the part of the rank due
    /// to the occupied squares `byte` of `row` when `below` occupied squares come before them.
    colex: Vec<u64>,
    /// Compact number (0..n) of each stride-8 square, 255 off the board.
    compact: [u8; 64],
    /// Stride-8 square of each compact number.
    square: [u8; MAX_SQUARES],
    /// `pext`/`pdep` tables.
    bits: &'static BytePext,
    rules: PhantomData<fn() -> Ataxx<POLISH>>,
}

impl<const POLISH: bool> AtaxxIndex<POLISH> {
    /// The index of the board of `pos` (its size and blocked squares; the stones do not matter).
    pub fn for_position(pos: &Ataxx<POLISH>) -> Self {
        Self::new(pos.width(), pos.height(), pos.valid().0)
    }

    /// The index of a `width` x `height` board whose valid squares are `valid` (stride 8).
    ///
    /// # Panics
    /// If a dimension is not in `1..=7`, `valid` has a square outside the rectangle or more
    /// than [`MAX_INDEXED`] squares (see [`AtaxxIndex::fits`]).
    pub fn new(width: u32, height: u32, valid: u64) -> Self {
        assert!((1..=7).contains(&width) && (1..=7).contains(&height), "board size out of range");
        let rect = (0..height).fold(0u64, |a, r| a | ((1u64 << width) - 1) << (8 * r));
        assert_eq!(valid & !rect, 0, "valid squares outside the board");
        assert!(Self::fits(valid), "more than {MAX_INDEXED} valid squares");
        let mut compact = [255u8; 64];
        let mut square = [0u8; MAX_SQUARES];
        let mut row_valid = [0u8; 7];
        let mut n = 0u32;
        for sq in 0..64u32 {
            if valid >> sq & 1 != 0 {
                compact[sq as usize] = n as u8;
                square[n as usize] = sq as u8;
                n += 1;
            }
        }
        for (r, rv) in row_valid.iter_mut().enumerate() {
            *rv = (valid >> (8 * r) & 0x7F) as u8;
        }
        let stride = (n + 1) as usize;
        let mut colex = vec![0u64; height as usize * stride * 128];
        for r in 0..height as usize {
            for below in 0..=n as usize {
                for byte in 0..128usize {
                    let bits = byte & row_valid[r] as usize;
                    if bits != byte {
                        continue;
                    }
                    let mut term = 0u64;
                    let mut j = below;
                    for i in 0..7 {
                        if bits >> i & 1 != 0 {
                            j += 1;
                            let c = compact[8 * r + i] as usize;
                            // More occupied squares than squares: an entry never looked up.
                            term += BINOMIAL[c].get(j).copied().unwrap_or(0);
                        }
                    }
                    colex[(r * stride + below) * 128 + byte] = term;
                }
            }
        }
        AtaxxIndex {
            width,
            height,
            valid,
            n,
            row_valid,
            colex,
            compact,
            square,
            bits: BytePext::get(),
            rules: PhantomData,
        }
    }

    /// Whether a board with the valid squares `valid` can be indexed: at most [`MAX_INDEXED`]
    /// squares, so that `3^n` ranks fit in 64 bits.
    pub fn fits(valid: u64) -> bool {
        valid.count_ones() <= MAX_INDEXED
    }

    /// Number of valid squares.
    pub fn squares(&self) -> u32 {
        self.n
    }

    /// The valid squares (stride 8).
    pub fn valid(&self) -> u64 {
        self.valid
    }

    /// Board width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of occupied-square sets of layer `k`: `C(n, k)`.
    pub fn combinations(&self, k: u32) -> u64 {
        BINOMIAL[self.n as usize][k as usize]
    }

    /// Number of positions with `k` stones: `C(n, k) 2^k`.
    pub fn layer_len(&self, k: u32) -> u64 {
        self.combinations(k) << k
    }

    /// Colex rank of the occupied set `occ` (stride 8) among the sets of its size.
    #[inline]
    pub fn colex_rank(&self, occ: u64) -> u64 {
        let stride = (self.n + 1) as usize;
        let (mut below, mut rank) = (0usize, 0u64);
        for r in 0..self.height as usize {
            let byte = (occ >> (8 * r) & 0x7F) as usize;
            rank += self.colex[(r * stride + below) * 128 + byte];
            below += byte.count_ones() as usize;
        }
        rank
    }

    /// `pext(own, occ)` over the stride-8 bytes.
    #[inline]
    pub fn pattern(&self, own: u64, occ: u64) -> u64 {
        self.bits.pext(own, occ, self.height)
    }

    /// `pdep(pattern, occ)`: the mover's stones given the occupied squares and the pattern.
    #[inline]
    pub fn deposit(&self, pattern: u64, occ: u64) -> u64 {
        self.bits.pdep(pattern, occ, self.height)
    }

    /// Layer (stone count) and rank of the position with the mover's stones `own` and the
    /// opponent's `opp` (stride 8, disjoint, on valid squares).
    #[inline]
    pub fn rank_stones(&self, own: u64, opp: u64) -> (u32, u64) {
        let occ = own | opp;
        let k = occ.count_ones();
        (k, self.colex_rank(occ) << k | self.pattern(own, occ))
    }

    /// Rank inside its layer of the position `own`, `opp` (see [`AtaxxIndex::rank_stones`]).
    #[inline]
    pub fn rank_in_layer(&self, own: u64, opp: u64) -> u64 {
        let occ = own | opp;
        self.colex_rank(occ) << occ.count_ones() | self.pattern(own, occ)
    }

    /// The occupied set (stride 8) of colex rank `rank` among the `k`-subsets.
    pub fn colex_unrank(&self, k: u32, mut rank: u64) -> u64 {
        let mut occ = 0u64;
        let mut j = k as usize;
        for c in (0..self.n as usize).rev() {
            if j == 0 {
                break;
            }
            let b = BINOMIAL[c][j];
            if b <= rank {
                rank -= b;
                occ |= 1 << self.square[c];
                j -= 1;
            }
        }
        occ
    }

    /// The occupied set following `occ` (stride 8) in colex order, among sets of the same
    /// size (meaningless after the last one).
    #[inline]
    pub fn next_combination(&self, occ: u64) -> u64 {
        // Gosper's hack on the compact numbering, then back to stride 8.
        let mut c = 0u64;
        for sq in crate::bitboard::Bitboard64(occ) {
            c |= 1 << self.compact[sq as usize];
        }
        if c == 0 {
            return 0;
        }
        let low = c & c.wrapping_neg();
        let ripple = c + low;
        let next = (((ripple ^ c) >> 2) / low) | ripple;
        let mut out = 0u64;
        for i in crate::bitboard::Bitboard64(next) {
            if i < self.n {
                out |= 1 << self.square[i as usize];
            }
        }
        out
    }

    /// Stones (`own`, `opp`) of rank `index` in layer `k`.
    pub fn unrank_stones(&self, k: u32, index: u64) -> (u64, u64) {
        let occ = self.colex_unrank(k, index >> k);
        let own = self.deposit(index & ((1u64 << k) - 1), occ);
        (own, occ ^ own)
    }

    /// The valid squares of each row, low 7 bits.
    pub fn row_valid(&self) -> [u8; 7] {
        self.row_valid
    }
}

impl<const POLISH: bool> LayeredIndex for AtaxxIndex<POLISH> {
    type Position = Ataxx<POLISH>;

    fn layers(&self) -> usize {
        self.n as usize + 1
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.layer_len(layer as u32)
    }

    /// Ranks the stones relative to the side to move: a position and its colour swap (with the
    /// other side to move) share a rank.
    fn rank(&self, pos: &Ataxx<POLISH>) -> Option<(usize, u64)> {
        if pos.valid().0 != self.valid || pos.width() != self.width || pos.height() != self.height {
            return None;
        }
        let side = pos.side_to_move();
        let (k, i) = self.rank_stones(pos.stones(side).0, pos.stones(!side).0);
        Some((k as usize, i))
    }

    /// The canonical representative: `x` (the first player) to move.
    fn unrank(&self, layer: usize, index: u64) -> Ataxx<POLISH> {
        let (own, opp) = self.unrank_stones(layer as u32, index);
        let mut pos = Ataxx::<POLISH>::empty(self.width, self.height);
        for sq in crate::bitboard::Bitboard64(pos.valid().0 & !self.valid) {
            pos.block(sq);
        }
        for sq in crate::bitboard::Bitboard64(own) {
            pos.put(Player::First, sq);
        }
        for sq in crate::bitboard::Bitboard64(opp) {
            pos.put(Player::Second, sq);
        }
        pos
    }

    fn solve_order(&self) -> Vec<usize> {
        (0..=self.n as usize).rev().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(s: &mut u64) -> u64 {
        *s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        *s >> 33
    }

    #[test]
    fn layers_sum_to_three_to_the_n() {
        let idx = AtaxxIndex::<false>::new(5, 4, 0x1F1F_1F1F);
        assert_eq!(idx.size(), 3u64.pow(20));
        assert_eq!(idx.layers(), 21);
        assert_eq!(idx.solve_order().first(), Some(&20));
    }

    #[test]
    fn whole_space_round_trips_on_tiny_boards() {
        // 3x3 with the centre blocked, 2x3 and 3x2: every rank of every layer, both ways.
        for (w, h, valid) in [(3, 3, 0x0007_0507u64), (3, 2, 0x0707), (2, 3, 0x0003_0303)] {
            let idx = AtaxxIndex::<true>::new(w, h, valid);
            let mut seen = std::collections::HashSet::new();
            for k in 0..=idx.squares() {
                let mut occ = idx.colex_unrank(k, 0);
                for c in 0..idx.combinations(k) {
                    assert_eq!(idx.colex_unrank(k, c), occ, "colex order");
                    assert_eq!(idx.colex_rank(occ), c);
                    for i in c << k..(c + 1) << k {
                        let (own, opp) = idx.unrank_stones(k, i);
                        assert_eq!(own & opp, 0);
                        assert_eq!((own | opp) & !valid, 0);
                        assert_eq!(idx.rank_stones(own, opp), (k, i));
                        assert!(seen.insert((own, opp)));
                        let pos = idx.unrank(k as usize, i);
                        assert_eq!(idx.rank(&pos), Some((k as usize, i)));
                    }
                    occ = idx.next_combination(occ);
                }
            }
            assert_eq!(seen.len() as u64, 3u64.pow(idx.squares()));
        }
    }

    #[test]
    fn random_positions_round_trip_on_big_boards() {
        let mut s = 7u64;
        for (w, h) in [(6, 6), (7, 5), (5, 4), (6, 3)] {
            let mut valid = (0..h).fold(0u64, |a, r| a | ((1u64 << w) - 1) << (8 * r));
            valid &= !(1u64 << (lcg(&mut s) % 7 + 8)); // one blocker somewhere in row 2
            let idx = AtaxxIndex::<false>::new(w, h, valid);
            for _ in 0..20_000 {
                let (mut own, mut opp) = (0u64, 0u64);
                for sq in crate::bitboard::Bitboard64(valid) {
                    match lcg(&mut s) % 3 {
                        0 => own |= 1 << sq,
                        1 => opp |= 1 << sq,
                        _ => {}
                    }
                }
                let (k, i) = idx.rank_stones(own, opp);
                assert!(i < idx.layer_len(k));
                assert_eq!(idx.unrank_stones(k, i), (own, opp));
            }
        }
    }

    #[test]
    fn colour_swap_shares_a_rank() {
        let mut pos = Ataxx::<false>::start(4, 4);
        let idx = AtaxxIndex::for_position(&pos);
        let r = idx.rank(&pos);
        pos.set_side_to_move(Player::Second);
        let mut swapped = Ataxx::<false>::empty(4, 4);
        for sq in pos.stones(Player::First) {
            swapped.put(Player::Second, sq);
        }
        for sq in pos.stones(Player::Second) {
            swapped.put(Player::First, sq);
        }
        assert_eq!(idx.rank(&pos), idx.rank(&swapped));
        assert_ne!(idx.rank(&pos), r);
        assert_eq!(idx.rank(&Ataxx::<false>::start(5, 4)), None);
    }
}
