//! A small lock-free cache of static evaluations, shared by the threads of one engine.
//!
//! Iterative deepening evaluates the same positions again and again: the leaves of one
//! iteration are the nodes near the horizon of the next, where reverse futility and futility
//! pruning read the static evaluation, and a short search (the self-play generator's 5,000
//! nodes a move) re-evaluates its frontier at every iteration. For a game whose evaluation
//! costs far more than a memory probe (a neural net's sum over its hidden layer) the engine
//! keeps the last evaluation per slot. The key is the game's [`Evaluate::eval_key`], which
//! determines the evaluation, so a hit returns exactly what `evaluate` would: the search is
//! the same, node for node.
//!
//! Each slot is one `u64`: the key's high 32 bits, then the evaluation's 32 bits; the slot is
//! picked by the key's low bits, so a hit checks `32 + bits` bits of the key. Keys whose high
//! half is 0 are never cached (0 marks an empty slot).
//!
//! [`Evaluate::eval_key`]: crate::game::Evaluate::eval_key

use std::sync::atomic::{AtomicU64, Ordering};

/// Most slots a cache may have, as a power of two.
pub const MAX_BITS: u32 = 24;

/// The cache: `2^bits` slots (none for `bits` = 0).
pub struct EvalCache {
    slots: Box<[AtomicU64]>,
    mask: u64,
}

impl EvalCache {
    /// A cache of `2^bits` empty slots (`bits` at most [`MAX_BITS`]); 0 gives a cache that
    /// holds nothing.
    pub fn new(bits: u32) -> Self {
        let len = if bits == 0 { 0 } else { 1usize << bits.min(MAX_BITS) };
        EvalCache {
            slots: (0..len).map(|_| AtomicU64::new(0)).collect(),
            mask: (len as u64).saturating_sub(1),
        }
    }

    /// Whether the cache has no slots.
    pub fn is_off(&self) -> bool {
        self.slots.is_empty()
    }

    /// The slot of `key` and its check value, if `key` can be cached.
    #[inline]
    fn slot(&self, key: u64) -> Option<(&AtomicU64, u64)> {
        let check = key >> 32;
        if check == 0 {
            return None;
        }
        self.slots.get((key & self.mask) as usize).map(|s| (s, check))
    }

    /// The evaluation stored under `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let (slot, check) = self.slot(key)?;
        let v = slot.load(Ordering::Relaxed);
        (v >> 32 == check).then_some(v as u32 as i32)
    }

    /// Stores `eval` under `key` (replacing whatever the slot held).
    #[inline]
    pub fn store(&self, key: u64, eval: i32) {
        if let Some((slot, check)) = self.slot(key) {
            slot.store(check << 32 | u64::from(eval as u32), Ordering::Relaxed);
        }
    }

    /// Slots in use.
    #[cfg(test)]
    pub fn filled(&self) -> usize {
        self.slots.iter().filter(|s| s.load(Ordering::Relaxed) != 0).count()
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_the_whole_checked_key() {
        let c = EvalCache::new(4);
        assert_eq!(c.probe(0x1234_5678_0000_0003), None);
        c.store(0x1234_5678_0000_0003, -250);
        assert_eq!(c.probe(0x1234_5678_0000_0003), Some(-250));
        // Same slot, another high half: a miss, and a store replaces the slot.
        assert_eq!(c.probe(0x1234_5679_0000_0003), None);
        c.store(0x1234_5679_0000_0003, 7);
        assert_eq!(c.probe(0x1234_5679_0000_0003), Some(7));
        assert_eq!(c.probe(0x1234_5678_0000_0003), None);
        // Negative and extreme evaluations survive the packing.
        for e in [i32::MIN, -1, 0, 1, i32::MAX] {
            c.store(0xdead_beef_0000_0001, e);
            assert_eq!(c.probe(0xdead_beef_0000_0001), Some(e));
        }
        c.clear();
        assert_eq!(c.probe(0x1234_5679_0000_0003), None);
    }

    #[test]
    fn keys_with_an_empty_high_half_and_a_cache_without_slots_hold_nothing() {
        let c = EvalCache::new(4);
        c.store(0x0000_0000_0000_0005, 9);
        assert_eq!(c.probe(0x0000_0000_0000_0005), None);
        let off = EvalCache::new(0);
        assert!(off.is_off());
        off.store(0x1234_5678_0000_0003, 1);
        assert_eq!(off.probe(0x1234_5678_0000_0003), None);
    }
}
