//! Busy marks: how many threads are searching each (hashed) position, in a small table of
//! counters beside the transposition table, the marks of ABDADA (Weill 1996).
//!
//! One table serves every parallel search: alpha-beta and the score search put off a child
//! another thread is on (exclusive search), df-pn adds the count to a busy child's `delta`
//! (virtual proof numbers). A counter is shared by every position whose key has the same low
//! bits (the table's bucket comes from the high ones), so a mark may be another position's:
//! marks only change the order of the work, never a result.

use std::sync::atomic::{AtomicU32, Ordering};

/// Counters of the threads inside each (hashed) position.
pub struct Busy {
    counters: Box<[AtomicU32]>,
}

impl Busy {
    /// `1 << bits` counters, all zero.
    pub fn new(bits: u32) -> Self {
        Busy { counters: (0..1usize << bits).map(|_| AtomicU32::new(0)).collect() }
    }

    /// The counter of `key`: its low bits.
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU32 {
        &self.counters[key as usize & (self.counters.len() - 1)]
    }

    /// Marks `key` as searched by one more thread.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).fetch_add(1, Ordering::Relaxed);
    }

    /// Removes one mark of [`Busy::enter`].
    #[inline]
    pub fn leave(&self, key: u64) {
        self.slot(key).fetch_sub(1, Ordering::Relaxed);
    }

    /// How many threads are searching `key` (or a position sharing its counter).
    #[inline]
    pub fn count(&self, key: u64) -> u32 {
        self.slot(key).load(Ordering::Relaxed)
    }

    /// Whether some thread is searching `key` (or a position sharing its counter).
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.count(key) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_count_threads_per_slot() {
        let busy = Busy::new(4);
        assert!(!busy.is_busy(3));
        busy.enter(3);
        busy.enter(3 + 16);
        assert_eq!(busy.count(3), 2);
        busy.leave(3);
        assert!(busy.is_busy(3) && !busy.is_busy(4));
        busy.leave(3 + 16);
        assert!(!busy.is_busy(3));
    }
}
