//! Move ordering for the alpha-beta solver: table move, killers, history.
//!
//! The solver knows moves only as the game's generic `Move` type, so the heuristics key on
//! what every move offers: equality (killers are stored as moves) and [`Hash`] (the history
//! table is indexed by a hash of the move).

use std::hash::Hash;

use crate::search::move_hash::move_hash;

use super::entry::NO_MOVE;

/// History table size (a power of two).
const HISTORY_SIZE: usize = 1 << 12;
/// History scores are halved once one of them passes this.
const HISTORY_LIMIT: i32 = 1 << 24;
/// Ordering score of the table move.
const TT_MOVE_SCORE: i32 = i32::MAX;
/// Ordering score of the first killer; the second gets one less.
const KILLER_SCORE: i32 = 1 << 30;

/// Per-thread ordering state: killer moves by ply and a history table.
pub(super) struct MoveOrdering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    /// Nonzero in Lazy-SMP helpers: perturbs ties so helpers explore in another order.
    salt: u64,
}

impl<M: Copy + Eq + Hash> MoveOrdering<M> {
    /// Empty heuristics; `salt` 0 for the main thread.
    pub fn new(salt: u64) -> Self {
        MoveOrdering { killers: Vec::new(), history: vec![0; HISTORY_SIZE], salt }
    }

    /// Fills `order` with `(score, index)` of every move, best first.
    pub fn order(&mut self, moves: &[M], ply: u32, tt_move: u16, order: &mut Vec<(i32, u16)>) {
        order.clear();
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let killers = self.killers[ply];
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
                let history = self.history[h as usize & (HISTORY_SIZE - 1)];
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
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        let entry = &mut self.history[move_hash(&mv) as usize & (HISTORY_SIZE - 1)];
        let bonus = depth.min(1000).cast_signed().pow(2);
        *entry = entry.saturating_add(bonus);
        if *entry > HISTORY_LIMIT {
            for h in &mut self.history {
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
