//! Move ordering for the alpha-beta solver: table move, killers, history.
//!
//! The killers and the history table are the shared ones of
//! [`crate::search::ordering`]; here are the solver's weights: the history is one table for
//! both sides, a cutoff adds the square of the depth left, and the table is halved when an
//! entry grows too large.

use std::hash::Hash;

use crate::search::move_hash::move_hash;
use crate::search::ordering::{HistoryTable, Killers};

use super::entry::NO_MOVE;

/// Log2 of the history table's size.
const HISTORY_BITS: u32 = 12;
/// History scores are halved once one of them passes this.
const HISTORY_LIMIT: i32 = 1 << 24;
/// Ordering score of the table move.
const TT_MOVE_SCORE: i32 = i32::MAX;
/// Ordering score of the first killer; the second gets one less.
const KILLER_SCORE: i32 = 1 << 30;

/// Per-thread ordering state: killer moves by ply and a history table.
pub(super) struct MoveOrdering<M> {
    killers: Killers<M>,
    history: HistoryTable<i32>,
    /// Nonzero in Lazy-SMP helpers: perturbs ties so helpers explore in another order.
    salt: u64,
}

impl<M: Copy + Eq + Hash> MoveOrdering<M> {
    /// Empty heuristics; `salt` 0 for the main thread.
    pub fn new(salt: u64) -> Self {
        MoveOrdering {
            killers: Killers::new(),
            history: HistoryTable::new(HISTORY_BITS, false),
            salt,
        }
    }

    /// Fills `order` with `(score, index)` of every move, best first.
    pub fn order(&mut self, moves: &[M], ply: u32, tt_move: u16, order: &mut Vec<(i32, u16)>) {
        order.clear();
        let killers = self.killers.get(ply);
        for (i, mv) in moves.iter().enumerate() {
            let index = i.min(usize::from(NO_MOVE - 1)) as u16;
            let score = if index == tt_move {
                TT_MOVE_SCORE
            } else if killers[0] == Some(*mv) {
                KILLER_SCORE
            } else if killers[1] == Some(*mv) {
                KILLER_SCORE - 1
            } else {
                let h = move_hash(mv);
                let history = self.history.get_hashed(h, ply);
                if self.salt == 0 {
                    history
                } else {
                    // Helpers: history first, then a per-helper pseudo-random tie-break.
                    history.saturating_mul(16)
                        + ((h ^ self.salt).wrapping_mul(self.salt | 1) >> 60) as i32
                }
            };
            order.push((score, index));
        }
        // Stable on equal scores: generation order breaks ties (deterministic).
        order.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }

    /// Rewards `mv`, which caused a cutoff at `ply` with `depth` plies left.
    pub fn reward(&mut self, mv: M, ply: u32, depth: u32) {
        self.killers.note(mv, ply);
        let entry = self.history.get_mut(&mv, ply);
        let bonus = depth.min(1000).cast_signed().pow(2);
        *entry = entry.saturating_add(bonus);
        if *entry > HISTORY_LIMIT {
            for h in self.history.values_mut() {
                *h /= 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_move_then_killers_then_history() {
        let moves = [10u8, 11, 12, 13];
        let mut ordering = MoveOrdering::new(0);
        let mut order = Vec::new();
        ordering.order(&moves, 3, NO_MOVE, &mut order);
        let indices: Vec<u16> = order.iter().map(|&(_, i)| i).collect();
        assert_eq!(indices, [0, 1, 2, 3]);
        ordering.reward(12, 3, 4);
        ordering.reward(11, 5, 4);
        ordering.order(&moves, 3, 3, &mut order);
        let indices: Vec<u16> = order.iter().map(|&(_, i)| i).collect();
        assert_eq!(indices, [3, 2, 1, 0]);
    }
}
