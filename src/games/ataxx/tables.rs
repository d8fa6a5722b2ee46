//! Constant tables and shift helpers for the stride-8 Ataxx grid.
//!
//! Every table covers the whole 8x8 word (square `8 * rank + file`), whatever the board size:
//! callers always intersect the result with the empty squares, which lie on the board. Column 7
//! and row 7 never hold a square (boards are at most 7x7), so they act as a permanent guard
//! band: a one-column shift out of the board lands in column 7 and is masked by [`BOARD7`], so
//! the one-step dilation needs no per-file masks of its own.

use crate::zobrist::keys;

/// Every square a board of up to 7x7 can use: files a..g of ranks 1..7.
pub const BOARD7: u64 = 0x007F_7F7F_7F7F_7F7F;

/// For each square, the squares at king distance exactly `distance` (within the 8x8 word).
const fn ring_table(distance: i32) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0usize;
    while sq < 64 {
        let (x, y) = ((sq % 8) as u8 as i32, (sq / 8) as u8 as i32);
        let mut dy = -distance;
        while dy <= distance {
            let mut dx = -distance;
            while dx <= distance {
                let (tx, ty) = (x + dx, y + dy);
                let on_ring = dx.abs() == distance || dy.abs() == distance;
                if on_ring && tx >= 0 && tx < 8 && ty >= 0 && ty < 8 {
                    table[sq] |= 1 << (ty * 8 + tx);
                }
                dx += 1;
            }
            dy += 1;
        }
        sq += 1;
    }
    table
}

/// For each square, its (up to 8) neighbours: the clone targets, and the stones a move there
/// converts.
pub const NEIGHBOURS: [u64; 64] = ring_table(1);

/// For each square, the (up to 16) squares at king distance exactly 2: the jump targets.
pub const JUMPS: [u64; 64] = ring_table(2);

/// Squares at king distance at most 1 from a stone of `b` (including `b`), within [`BOARD7`].
///
/// Shifts by one column spill into the guard column 7, which the mask removes, so no file masks
/// are needed.
#[inline]
pub const fn dilate(b: u64) -> u64 {
    let h = (b | (b << 1) | (b >> 1)) & BOARD7;
    (h | (h << 8) | (h >> 8)) & BOARD7
}

/// Squares at king distance at most 2 from a stone of `b`, within [`BOARD7`].
#[inline]
pub const fn reach(b: u64) -> u64 {
    dilate(dilate(b))
}

/// Seed of the Ataxx Zobrist keys (fixed, so hashes are stable across runs).
const SEED: u64 = 0xA7A8_0000_0000_0001;

/// Zobrist keys: a stone of the first player on each square (0..64), of the second player
/// (64..128), the second player to move (128), then a blocked square (129..193).
const KEYS: [u64; 193] = keys::<193>(SEED);

/// Key of a stone of player index `player` (0 or 1) on `sq`.
#[inline]
pub const fn stone_key(player: usize, sq: u32) -> u64 {
    KEYS[player * 64 + sq as usize]
}

/// Key toggled when a stone on `sq` changes colour.
#[inline]
pub const fn flip_key(sq: u32) -> u64 {
    KEYS[sq as usize] ^ KEYS[64 + sq as usize]
}

/// Key present when the second player is to move.
pub const SIDE_KEY: u64 = KEYS[128];

/// Key of a blocked square on `sq` (part of the board, not of the play).
#[inline]
pub const fn blocked_key(sq: u32) -> u64 {
    KEYS[129 + sq as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The naive construction: coordinates and the king distance, square by square.
    fn naive(distance: i32) -> Vec<u64> {
        (0..64)
            .map(|sq: i32| {
                (0..64)
                    .filter(|&t: &i32| {
                        let d = ((t % 8) - (sq % 8)).abs().max((t / 8 - sq / 8).abs());
                        d == distance
                    })
                    .fold(0u64, |acc, t| acc | 1 << t)
            })
            .collect()
    }

    #[test]
    fn tables_match_naive_construction() {
        assert_eq!(NEIGHBOURS.to_vec(), naive(1));
        assert_eq!(JUMPS.to_vec(), naive(2));
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(JUMPS[3 * 8 + 3].count_ones(), 16);
    }

    #[test]
    fn dilation_matches_tables() {
        for sq in 0..64u32 {
            let (x, y) = (sq % 8, sq / 8);
            if x == 7 || y == 7 {
                continue;
            }
            let b = 1u64 << sq;
            assert_eq!(dilate(b), (NEIGHBOURS[sq as usize] | b) & BOARD7, "square {sq}");
            assert_eq!(
                reach(b),
                (JUMPS[sq as usize] | NEIGHBOURS[sq as usize] | b) & BOARD7,
                "square {sq}"
            );
        }
    }

    #[test]
    fn keys_are_distinct() {
        let mut k = KEYS.to_vec();
        k.sort_unstable();
        k.dedup();
        assert_eq!(k.len(), KEYS.len());
    }
}
