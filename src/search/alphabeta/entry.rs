//! Packed integer scores and the transposition-table entry of the alpha-beta solver.
//!
//! # Scores
//!
//! Scores are the shared [`mate`] encoding, counted from the root as in Pons' Connect 4 solver:
//! a win for the side to move that ends at ply `e` below the root scores `WIN - e`, a loss
//! ending there `-(WIN - e)`, a draw 0. Sooner wins and later losses are larger, and the
//! score of a position for its parent's mover is just the negation, so windows negate too.
//!
//! The table cannot store root-relative scores (the same position occurs at many plies), so it
//! stores them relative to the node: a win in `d` plies is `WIN - d` there. [`to_node`]
//! and [`from_node`] convert.
//!
//! # Table entry
//!
//! ```text
//! bits  0..16  lower   i16  node-relative lower bound on the exact value
//! bits 16..32  upper   i16  node-relative upper bound on the exact value
//! bits 32..48  move    u16  index of the best move in the generated move list (0xFFFF: none)
//! bits 48..56  depth   u8   remaining depth of the search that produced the bounds (saturated)
//! bits 56..63  unused
//! ```
//!
//! Both bounds hold for the position's game-theoretic value whatever the path to it (see the
//! [parent module](super) for why), so an entry never needs a depth to be trusted; the depth is
//! only the replacement priority. A bound nobody knows is stored as the trivial
//! `-WIN` / `WIN` (a loss or win in 0 plies).

use crate::search::Value;
use crate::search::mate::{self, WIN};
use crate::search::tt::TtEntry;

/// Every nonzero score of the solver is a proven result (it has no heuristic scores), so the
/// [`mate`] encoding's heuristic limit is 0.
const HEURISTIC_LIMIT: i32 = 0;

/// Deepest iteration the solver tries; keeps every score far from the `i16` limits.
pub(super) const MAX_DEPTH: u32 = 10_000;

/// "No move" in [`AlphaBetaEntry::move_index`].
pub(super) const NO_MOVE: u16 = u16::MAX;

/// Converts a root-relative score of a node at `ply` into a node-relative one.
#[inline]
pub(super) const fn to_node(score: i32, ply: u32) -> i32 {
    mate::to_node(score, ply, HEURISTIC_LIMIT)
}

/// Converts a node-relative score of a node at `ply` into a root-relative one.
#[inline]
pub(super) const fn from_node(score: i32, ply: u32) -> i32 {
    mate::from_node(score, ply, HEURISTIC_LIMIT)
}

/// The [`Value`] of an exact root score.
pub(super) fn value_of(score: i32) -> Value {
    match mate::distance(score, HEURISTIC_LIMIT) {
        None => Value::Draw,
        Some(d) if d >= 0 => Value::Win(d as u32),
        Some(d) => Value::Loss(d.unsigned_abs()),
    }
}

/// What the table remembers about one position: see the [module docs](self) for the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AlphaBetaEntry {
    /// Node-relative lower bound.
    pub lower: i16,
    /// Node-relative upper bound.
    pub upper: i16,
    /// Index of the best move found, or [`NO_MOVE`].
    pub move_index: u16,
    /// Remaining depth of the search that last improved the entry.
    pub depth: u8,
}

impl AlphaBetaEntry {
    /// An entry that knows nothing.
    pub const EMPTY: AlphaBetaEntry =
        AlphaBetaEntry { lower: -WIN as i16, upper: WIN as i16, move_index: NO_MOVE, depth: 0 };
}

impl TtEntry for AlphaBetaEntry {
    fn to_bits(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.move_index) << 32
            | u64::from(self.depth) << 48
    }

    fn from_bits(bits: u64) -> Self {
        AlphaBetaEntry {
            lower: (bits as u16).cast_signed(),
            upper: ((bits >> 16) as u16).cast_signed(),
            move_index: (bits >> 32) as u16,
            depth: (bits >> 48) as u8,
        }
    }

    /// Exact values first, then proven wins and losses, then by search depth.
    fn priority(self) -> u32 {
        if self.lower == self.upper {
            512
        } else if self.lower > 0 || self.upper < 0 {
            256 + u32::from(self.depth)
        } else {
            u32::from(self.depth)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_bits_round_trip() {
        let entries = [
            AlphaBetaEntry::EMPTY,
            AlphaBetaEntry { lower: -29_990, upper: 0, move_index: 3, depth: 255 },
            AlphaBetaEntry { lower: 29_999, upper: 29_999, move_index: 0, depth: 1 },
        ];
        for e in entries {
            assert_eq!(AlphaBetaEntry::from_bits(e.to_bits()), e);
            assert_eq!(e.to_bits() >> 63, 0);
        }
    }

    #[test]
    fn node_relative_scores_round_trip() {
        for ply in [0, 1, 7, 100] {
            for s in [
                0,
                mate::win_in(ply),
                mate::win_in(ply + 5),
                mate::loss_in(ply),
                mate::loss_in(ply + 9),
            ] {
                assert_eq!(from_node(to_node(s, ply), ply), s);
            }
            assert_eq!(to_node(mate::win_in(ply + 3), ply), mate::win_in(3));
        }
        assert_eq!(value_of(mate::win_in(5)), Value::Win(5));
        assert_eq!(value_of(mate::loss_in(4)), Value::Loss(4));
        assert_eq!(value_of(0), Value::Draw);
    }
}
