//! The engine's transposition-table entry: score, bound, depth, move and search generation.
//!
//! # Bit layout (63 bits available, 54 used)
//!
//! ```text
//!  bits  0..16  score (i16, mate scores relative to the node: see `to_tt`)
//!  bits 16..32  move: index of the best move in the node's generated move list
//!  bits 32..40  depth (u8, remaining plies of the search that stored it)
//!  bits 40..42  bound: 1 upper, 2 lower, 3 exact (0 never stored)
//!  bits 42..54  generation (12 bits) of the search that stored it
//! ```
//!
//! The move is kept as an index into [`Game::generate_moves`](crate::game::Game::generate_moves)'
//! output, which is deterministic; the table verifies the full 64-bit key, so the index always
//! refers to the same position's list (it is still bounds-checked before use). This keeps the
//! [`Evaluate`](super::Evaluate) trait free of a move packing.
//!
//! # Replacement
//!
//! [`TtEntry::priority`] is `generation * 256 + depth`: entries of earlier searches go first,
//! then shallow ones. For the same key a new entry replaces the old one unless the old one is
//! from the same search and more than two plies deeper, and the new one is not exact.

use super::{EVAL_LIMIT, WIN};
use crate::search::mate;
use crate::search::tt::TtEntry;

/// No move stored.
pub(super) const NO_MOVE: u16 = u16::MAX;

/// Generations cycle through `1..GENERATION_LIMIT`; the engine clears the table on wrap.
pub(super) const GENERATION_LIMIT: u16 = 1 << 12;

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    /// The true score is at most the stored one (the search failed low).
    Upper = 1,
    /// The true score is at least the stored one (the search failed high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One stored search result; see the [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct EngineEntry {
    /// Score relative to the node (see [`to_tt`]).
    pub score: i16,
    /// Best-move index, or [`NO_MOVE`].
    pub move_index: u16,
    /// Remaining depth of the search that stored it.
    pub depth: u8,
    /// Kind of bound.
    pub bound: Bound,
    /// Generation of the search that stored it.
    pub generation: u16,
}

impl TtEntry for EngineEntry {
    fn to_bits(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.move_index) << 16
            | u64::from(self.depth) << 32
            | (self.bound as u64) << 40
            | u64::from(self.generation & (GENERATION_LIMIT - 1)) << 42
    }

    fn from_bits(bits: u64) -> Self {
        let bound = match (bits >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        EngineEntry {
            score: bits as u16 as i16,
            move_index: (bits >> 16) as u16,
            depth: (bits >> 32) as u8,
            bound,
            generation: ((bits >> 42) as u16) & (GENERATION_LIMIT - 1),
        }
    }

    fn priority(self) -> u32 {
        u32::from(self.generation) << 8 | u32::from(self.depth)
    }

    fn replaces(self, old: Self) -> bool {
        self.generation != old.generation
            || self.bound == Bound::Exact
            || self.depth + 2 >= old.depth
    }
}

/// A root-relative score as stored at a node `ply` plies below the root: proven results count
/// their distance from the node, so the entry is valid wherever the position recurs.
pub(super) fn to_tt(score: i32, ply: u32) -> i16 {
    mate::to_node(score, ply, EVAL_LIMIT).clamp(-WIN, WIN) as i16
}

/// The inverse of [`to_tt`] at a node `ply` plies below the root.
pub(super) fn from_tt(stored: i16, ply: u32) -> i32 {
    mate::from_node(i32::from(stored), ply, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::engine::{loss_in, win_in};

    #[test]
    fn entry_round_trips_through_bits() {
        for (score, bound) in [(-WIN, Bound::Upper), (123, Bound::Lower), (WIN - 3, Bound::Exact)] {
            let e = EngineEntry {
                score: score as i16,
                move_index: 288,
                depth: 17,
                bound,
                generation: GENERATION_LIMIT - 1,
            };
            assert_eq!(EngineEntry::from_bits(e.to_bits()), e);
            assert!(e.to_bits() < 1 << 63);
        }
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        // A win 7 plies below the root, seen at ply 3, is a win in 4 from the node.
        assert_eq!(i32::from(to_tt(win_in(7), 3)), win_in(4));
        assert_eq!(from_tt(to_tt(win_in(7), 3), 5), win_in(9));
        assert_eq!(from_tt(to_tt(loss_in(6), 2), 2), loss_in(6));
        assert_eq!(from_tt(to_tt(-250, 9), 1), -250);
    }
}
