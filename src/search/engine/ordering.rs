//! Move ordering for the engine: table move, the game's hint, killers, history.
//!
//! The killers and the history table are the shared ones of [`crate::search::ordering`]
//! (the history one table per side, the side to move taken from the ply's parity); here are
//! the engine's weights: hints dominate, and history moves by "gravity".

use std::hash::Hash;

use crate::search::ordering::{HistoryTable, Killers};

/// Log2 of the history entries per side.
const HISTORY_BITS: u32 = 12;
/// History scores stay within `±HISTORY_MAX` (the "gravity" update keeps them there).
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Ordering weight of one unit of [`Evaluate::move_hint`](super::Evaluate::move_hint): hints
/// dominate history, which breaks ties between moves with the same hint.
pub(super) const HINT_WEIGHT: i32 = 4 * HISTORY_MAX;
/// Bonus of the first killer (the second gets half), in hint units times [`HINT_WEIGHT`].
const KILLER_BONUS: i32 = 3 * HINT_WEIGHT;
/// Ordering score of the table move.
pub(super) const TT_MOVE_SCORE: i32 = i32::MAX;

/// Per-thread ordering state: two killers per ply and a history table per side.
pub(super) struct MoveOrdering<M> {
    killers: Killers<M>,
    history: HistoryTable<i32>,
}

impl<M: Copy + Eq + Hash> MoveOrdering<M> {
    /// Empty heuristics.
    pub fn new() -> Self {
        MoveOrdering { killers: Killers::new(), history: HistoryTable::new(HISTORY_BITS, true) }
    }

    /// Ordering score of `mv` at `ply` (not the table move), given its hint.
    #[inline]
    pub fn score(&self, mv: &M, ply: u32, hint: i32) -> i32 {
        let mut score = hint.saturating_mul(HINT_WEIGHT) + self.history(mv, ply);
        let k = self.killers.get(ply);
        if k[0].as_ref() == Some(mv) {
            score += KILLER_BONUS;
        } else if k[1].as_ref() == Some(mv) {
            score += KILLER_BONUS / 2;
        }
        score
    }

    /// The history score of `mv` for the side to move at `ply`.
    #[inline]
    pub fn history(&self, mv: &M, ply: u32) -> i32 {
        self.history.get(mv, ply)
    }

    /// Whether `mv` is a killer at `ply`.
    #[inline]
    pub fn is_killer(&self, mv: &M, ply: u32) -> bool {
        self.killers.contains(mv, ply)
    }

    /// `best` caused a cutoff at `ply` after `tried` failed: rewards `best` (killer, history
    /// by `bonus`, at least 0) and penalises the others (history by `-bonus`).
    pub fn reward(&mut self, best: M, tried: &[M], ply: u32, bonus: i32) {
        self.killers.note(best, ply);
        self.update(&best, ply, bonus);
        for mv in tried {
            self.update(mv, ply, -bonus);
        }
    }

    /// History "gravity": the entry moves towards `±HISTORY_MAX` by `bonus`, less the closer it
    /// already is, so it never leaves the range.
    fn update(&mut self, mv: &M, ply: u32, bonus: i32) {
        let e = self.history.get_mut(mv, ply);
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_then_killer_then_history() {
        let mut o = MoveOrdering::<u16>::new();
        assert_eq!(o.score(&7, 3, 0), 0);
        o.reward(7, &[5, 6], 3, 16);
        assert!(o.is_killer(&7, 3) && !o.is_killer(&7, 2));
        assert!(o.score(&7, 3, 0) > o.score(&8, 3, 0));
        assert!(o.score(&5, 3, 0) < 0);
        // A hint of one more unit outweighs history, but not a killer.
        assert!(o.score(&8, 3, 1) > o.score(&9, 3, 0) + HISTORY_MAX);
        assert!(o.score(&7, 3, 0) > o.score(&8, 3, 2));
        for _ in 0..10_000 {
            o.reward(7, &[], 1, HISTORY_MAX / 4);
        }
        assert!(o.history(&7, 1) <= HISTORY_MAX);
    }
}
