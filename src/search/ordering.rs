//! What the alpha-beta searches remember per thread to order moves: killer moves by ply and a
//! history table.
//!
//! The searches know moves only as the game's generic `Move` type, so both key on what every
//! move offers: equality (killers are kept as moves) and [`Hash`] (the history table is indexed
//! by [`move_hash`]). How a cutoff is rewarded and how the memory turns into an order is each
//! search's own: the solver ([`alphabeta`](super::alphabeta)), the engine
//! ([`engine`](super::engine)) and the score search ([`score`](super::score)) use these
//! tables with their own weights.

use std::hash::Hash;

use super::move_hash::move_hash;

/// The last two distinct moves that cut a node off, per ply, newest first.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    plies: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Killers<M> {
    /// No killers at any ply.
    pub fn new() -> Self {
        Killers { plies: Vec::new() }
    }

    /// Forgets every killer (keeping the memory, for the next search).
    pub fn clear(&mut self) {
        self.plies.clear();
    }

    /// The killers of `ply`, newest first (none at a ply without a cutoff yet).
    #[inline]
    pub fn get(&self, ply: u32) -> [Option<M>; 2] {
        self.plies.get(ply as usize).copied().unwrap_or([None, None])
    }

    /// Whether `mv` is one of the killers of `ply`.
    #[inline]
    pub fn contains(&self, mv: &M, ply: u32) -> bool {
        self.plies
            .get(ply as usize)
            .is_some_and(|k| k[0].as_ref() == Some(mv) || k[1].as_ref() == Some(mv))
    }

    /// Records `mv`, which cut a node off at `ply`, as the newest killer there (unless it
    /// already is).
    #[inline]
    pub fn note(&mut self, mv: M, ply: u32) {
        let p = ply as usize;
        if self.plies.len() <= p {
            self.plies.resize(p + 1, [None, None]);
        }
        let k = &mut self.plies[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }
}

impl<M: Copy + Eq> Default for Killers<M> {
    fn default() -> Self {
        Killers::new()
    }
}

/// A history table: one value per move slot (the low bits of [`move_hash`]), optionally one
/// table per side (the side to move taken from the ply's parity).
#[derive(Clone, Debug)]
pub struct HistoryTable<T> {
    values: Box<[T]>,
    /// Mask of a move's slot in one side's table.
    mask: usize,
    /// Offset of the second side's table (0: one table for both sides).
    side: usize,
}

impl<T: Copy + Default> HistoryTable<T> {
    /// `1 << bits` slots of default values, per side if `by_side`.
    pub fn new(bits: u32, by_side: bool) -> Self {
        let size = 1usize << bits;
        let sides = if by_side { 2 } else { 1 };
        HistoryTable {
            values: vec![T::default(); sides * size].into_boxed_slice(),
            mask: size - 1,
            side: if by_side { size } else { 0 },
        }
    }

    /// No slots at all, for a search that never reads or updates its history (allocates
    /// nothing; a read or update panics).
    pub fn none() -> Self {
        HistoryTable { values: Box::new([]), mask: 0, side: 0 }
    }

    /// The index of the move of hash `hash` ([`move_hash`]) for the side to move at `ply`.
    #[inline]
    fn index(&self, hash: u64, ply: u32) -> usize {
        (ply as usize & 1) * self.side + (hash as usize & self.mask)
    }

    /// The value of `mv` for the side to move at `ply`.
    #[inline]
    pub fn get<M: Hash>(&self, mv: &M, ply: u32) -> T {
        self.get_hashed(move_hash(mv), ply)
    }

    /// [`HistoryTable::get`] for a move whose [`move_hash`] is `hash`.
    #[inline]
    pub fn get_hashed(&self, hash: u64, ply: u32) -> T {
        self.values[self.index(hash, ply)]
    }

    /// The value of `mv` for the side to move at `ply`, to update.
    #[inline]
    pub fn get_mut<M: Hash>(&mut self, mv: &M, ply: u32) -> &mut T {
        let i = self.index(move_hash(mv), ply);
        &mut self.values[i]
    }

    /// Every value (to age them all at once).
    pub fn values_mut(&mut self) -> &mut [T] {
        &mut self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_last_two_distinct_moves() {
        let mut k = Killers::new();
        assert_eq!(k.get(3), [None, None]);
        k.note(7u8, 3);
        k.note(7, 3);
        assert_eq!(k.get(3), [Some(7), None]);
        k.note(8, 3);
        k.note(9, 3);
        assert_eq!(k.get(3), [Some(9), Some(8)]);
        assert!(k.contains(&8, 3) && !k.contains(&7, 3) && !k.contains(&9, 2));
    }

    #[test]
    fn history_by_side_and_shared() {
        let mut h = HistoryTable::<i32>::new(4, true);
        *h.get_mut(&5u8, 1) += 3;
        assert_eq!((h.get(&5u8, 1), h.get(&5u8, 3), h.get(&5u8, 2)), (3, 3, 0));
        let mut one = HistoryTable::<i32>::new(4, false);
        *one.get_mut(&5u8, 1) += 3;
        assert_eq!(one.get(&5u8, 2), 3);
        one.values_mut().iter_mut().for_each(|v| *v /= 3);
        assert_eq!(one.get_hashed(move_hash(&5u8), 0), 1);
    }
}
