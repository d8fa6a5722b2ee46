//! A lock-free transposition table shared by every thread of a search.
//!
//! # Layout
//!
//! The table is an array of 64-byte buckets (one cache line), each of four slots; a slot is two
//! `AtomicU64` words:
//!
//! ```text
//! word 0: key ^ data      (the full 64-bit Zobrist key, hidden by the data word)
//! word 1: data            bit 63 = 1 (occupied), bits 0..63 = the entry's 63-bit payload
//! ```
//!
//! This is Hyatt's lockless XOR scheme: a writer stores both words with plain atomic stores, no
//! lock. A reader loads both and accepts the slot only if `word0 ^ word1 == key`. A slot written
//! half by one thread and half by another ("torn") or holding another position fails that test
//! with probability 1 - 2^-64, so the full key is verified and a solver never reads a foreign
//! position's entry. Torn reads are told apart from foreign entries by where the recovered key
//! `word0 ^ word1` points: a genuine foreign entry indexes to the same bucket, a torn pair
//! almost never does; those are counted in [`TtStats::rejected`].
//!
//! The bucket of a key is chosen by Lemire's multiply-shift `(key * buckets) >> 64`, so any size
//! in MiB works without rounding to a power of two.
//!
//! # Replacement policy
//!
//! A store first looks for the same key in the bucket; if found, the entry type decides
//! ([`TtEntry::replaces`]) whether the new data replaces the old (so a proof is never replaced by
//! a guess). Otherwise the new entry goes to an empty slot, else it evicts the slot with the
//! lowest [`TtEntry::priority`] (search depth or work spent), the first such slot on ties; an
//! eviction is counted in [`TtStats::overwrites`].
//!
//! ```
//! use bitsolve::search::tt::{TranspositionTable, TtEntry, TtStats};
//! #[derive(Clone, Copy, PartialEq, Debug)]
//! struct Depth(u8);
//! impl TtEntry for Depth {
//!     fn to_bits(self) -> u64 { self.0 as u64 }
//!     fn from_bits(bits: u64) -> Self { Depth(bits as u8) }
//!     fn priority(self) -> u32 { self.0 as u32 }
//! }
//! let tt = TranspositionTable::<Depth>::new(1);
//! let mut stats = TtStats::default();
//! tt.store(0xDEAD_BEEF, Depth(7), &mut stats);
//! assert_eq!(tt.probe(0xDEAD_BEEF, &mut stats), Some(Depth(7)));
//! assert_eq!(tt.probe(0xDEAD_BEEE, &mut stats), None);
//! ```

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a table entry must provide: a 63-bit packing and a replacement priority.
pub trait TtEntry: Copy + Send + Sync {
    /// Packs the entry into the low 63 bits (bit 63 is ignored).
    fn to_bits(self) -> u64;
    /// Unpacks what [`TtEntry::to_bits`] packed.
    fn from_bits(bits: u64) -> Self;
    /// Replacement priority: entries with a lower priority are evicted first.
    fn priority(self) -> u32;
    /// Whether `self` should replace `old`, an entry for the same key. Default: always.
    fn replaces(self, old: Self) -> bool {
        let _ = old;
        true
    }
}

/// Table figures, kept per thread (no shared counters on the hot path) and summed at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that found their key.
    pub hits: u64,
    /// Entries written.
    pub stores: u64,
    /// Stores that evicted another position's entry.
    pub overwrites: u64,
    /// Slots rejected as torn (half written by one thread, half by another).
    pub rejected: u64,
}

impl TtStats {
    /// Adds `other`'s counters to `self`.
    pub fn absorb(&mut self, other: &TtStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.stores += other.stores;
        self.overwrites += other.overwrites;
        self.rejected += other.rejected;
    }

    /// Hits per probe, 0 when nothing was probed.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 { 0.0 } else { self.hits as f64 / self.probes as f64 }
    }
}

const OCCUPIED: u64 = 1 << 63;
const SLOTS: usize = 4;

#[derive(Default, bytemuck::Zeroable)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

const _: () = assert!(size_of::<Slot>() == 16);
const _: () = assert!(size_of::<Bucket>() == 64);

/// Buckets per page of the written-pages map (16 buckets of 64 bytes: 1 KiB).
const PAGE_BUCKETS: usize = 16;

/// The shared lock-free table; see the [module docs](self) for layout and policy.
pub struct TranspositionTable<E> {
    buckets: crate::memory::HugeSlice<Bucket>,
    /// One bit per page of [`PAGE_BUCKETS`] buckets, set by the first write to the page since
    /// the last clear, so that [`Self::clear`] zeroes only the pages written: after a small
    /// search that is a few KiB instead of the whole table (clearing 16 MiB took about 0.7 ms
    /// and left the caches full of zeroed lines, which the next search paid for in misses).
    written: Box<[AtomicU64]>,
    entry: PhantomData<E>,
}

impl<E: TtEntry> TranspositionTable<E> {
    /// A table of `mib` MiB (at least one bucket), every slot empty.
    ///
    /// Every page is written once here, and a table of 2 MiB or more starts on a huge page
    /// and asks for huge pages first ([`crate::memory::zeroed_huge_slice`]): probes at random keys would miss the TLB
    /// on most 4 KiB pages.
    ///
    /// # Panics
    /// If the memory cannot be allocated.
    pub fn new(mib: usize) -> Self {
        let count = (mib.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1);
        let buckets = crate::memory::zeroed_huge_slice::<Bucket>(count);
        let pages = count.div_ceil(PAGE_BUCKETS);
        let written = (0..pages.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        TranspositionTable { buckets, written, entry: PhantomData }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    /// Empties every slot: zeroes the pages written since the last clear (nothing to do if
    /// nothing was stored). Not meant to race with searches.
    pub fn clear(&self) {
        for (w, word) in self.written.iter().enumerate() {
            // A load first: most words are zero after a small search, and a swap is a locked
            // write even then (64 of them, about 0.6 us, after each of Connect Four's easiest
            // solves with a 4 MiB table).
            if word.load(Ordering::Relaxed) == 0 {
                continue;
            }
            let mut pages = word.swap(0, Ordering::Relaxed);
            while pages != 0 {
                let page = w * 64 + pages.trailing_zeros() as usize;
                pages &= pages - 1;
                let start = page * PAGE_BUCKETS;
                let end = (start + PAGE_BUCKETS).min(self.buckets.len());
                // SAFETY: every byte of a bucket lies in an atomic (an `UnsafeCell`), so
                // writing through a pointer from a shared reference is allowed; all-zero slots
                // are empty ones; no search runs during a clear (the method's contract), so
                // nothing reads them torn.
                unsafe {
                    std::ptr::write_bytes(
                        self.buckets[start..end].as_ptr().cast_mut(),
                        0,
                        end - start,
                    );
                }
            }
        }
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// A hint to the processor to bring the bucket of `key` into the cache, so that a probe
    /// soon after does not wait for memory (nothing on other architectures than x86-64).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = &self.buckets[self.bucket_index(key)];
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch changes nothing the
            // program sees (the pointer is to a live bucket anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(bucket).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// A copy of the entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64, stats: &mut TtStats) -> Option<E> {
        stats.probes += 1;
        let index = self.bucket_index(key);
        for slot in &self.buckets[index].slots {
            let data = slot.data.load(Ordering::Relaxed);
            if data & OCCUPIED == 0 {
                continue;
            }
            let stored = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored == key {
                stats.hits += 1;
                return Some(E::from_bits(data & !OCCUPIED));
            }
            if self.bucket_index(stored) != index {
                stats.rejected += 1;
            }
        }
        None
    }

    /// Stores `entry` for `key` under the replacement policy of the [module docs](self).
    #[inline]
    pub fn store(&self, key: u64, entry: E, stats: &mut TtStats) {
        let index = self.bucket_index(key);
        let slots = &self.buckets[index].slots;
        let mut victim = 0;
        let mut victim_priority = u32::MAX;
        for (i, slot) in slots.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            if data & OCCUPIED == 0 {
                if victim_priority > 0 {
                    victim = i;
                    victim_priority = 0;
                }
                continue;
            }
            let stored = slot.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored == key {
                if entry.replaces(E::from_bits(data & !OCCUPIED)) {
                    self.write(slot, index, key, entry);
                    stats.stores += 1;
                }
                return;
            }
            let priority = if self.bucket_index(stored) == index {
                E::from_bits(data & !OCCUPIED).priority()
            } else {
                0 // torn: worthless
            };
            if priority < victim_priority {
                victim = i;
                victim_priority = priority;
            }
        }
        let slot = &slots[victim];
        if slot.data.load(Ordering::Relaxed) & OCCUPIED != 0 {
            stats.overwrites += 1;
        }
        self.write(slot, index, key, entry);
        stats.stores += 1;
    }

    /// Writes `entry` for `key` into `slot` of the bucket `index`, marking its page written.
    #[inline]
    fn write(&self, slot: &Slot, index: usize, key: u64, entry: E) {
        let page = index / PAGE_BUCKETS;
        let (word, bit) = (&self.written[page / 64], 1u64 << (page % 64));
        // A load first: the bit is almost always set already, and a shared line that is only
        // read stays in every core's cache.
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
        let data = entry.to_bits() | OCCUPIED;
        slot.key_xor_data.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Occupied slots per thousand, estimated from the first 1000 buckets.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| b.slots.iter().filter(|s| s.data.load(Ordering::Relaxed) != 0).count())
            .sum();
        (used * 1000 / (sample * SLOTS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Raw(u64);
    impl TtEntry for Raw {
        fn to_bits(self) -> u64 {
            self.0
        }
        fn from_bits(bits: u64) -> Self {
            Raw(bits)
        }
        fn priority(self) -> u32 {
            (self.0 & 0xFF) as u32
        }
    }

    /// The payload every writer stores for `key`, so a reader can check what it got.
    fn payload(key: u64) -> Raw {
        Raw(key.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1)
    }

    #[test]
    fn store_then_probe_and_replacement() {
        let tt = TranspositionTable::<Raw>::new(0); // one bucket of four slots
        assert_eq!(tt.capacity(), 4);
        let mut st = TtStats::default();
        for k in 1..=4u64 {
            tt.store(k, Raw(k * 10), &mut st);
        }
        for k in 1..=4u64 {
            assert_eq!(tt.probe(k, &mut st), Some(Raw(k * 10)));
        }
        // Full bucket: the lowest priority (10 & 0xFF = 10) goes.
        tt.store(5, Raw(50), &mut st);
        assert_eq!(st.overwrites, 1);
        assert_eq!(tt.probe(1, &mut st), None);
        assert_eq!(tt.probe(5, &mut st), Some(Raw(50)));
        assert_eq!(st.rejected, 0);
        tt.clear();
        assert_eq!(tt.probe(5, &mut st), None);
    }

    /// A table smaller than one page of the written-pages map: every clear empties it, the
    /// second too (the page's mark is set again by the store between them).
    #[test]
    fn clear_empties_a_one_bucket_table() {
        let tt = TranspositionTable::<Raw>::new(0);
        let mut st = TtStats::default();
        tt.store(42, Raw(7), &mut st);
        tt.clear();
        assert_eq!(tt.probe(42, &mut st), None);
        tt.store(42, Raw(8), &mut st);
        assert_eq!(tt.probe(42, &mut st), Some(Raw(8)));
        tt.clear();
        assert_eq!(tt.probe(42, &mut st), None);
    }

    /// A clear (zeros over every page written since the last one) empties every bucket of a
    /// table of many, and the table works as before afterwards.
    #[test]
    fn clear_empties_every_bucket() {
        let tt = TranspositionTable::<Raw>::new(1);
        let mut st = TtStats::default();
        let keys: Vec<u64> =
            (1..=20_000u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
        for &k in &keys {
            tt.store(k, Raw(k & 0xFFFF), &mut st);
        }
        assert!(keys.iter().filter(|&&k| tt.probe(k, &mut st).is_some()).count() > 10_000);
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k, &mut st).is_none()));
        tt.store(keys[0], Raw(7), &mut st);
        assert_eq!(tt.probe(keys[0], &mut st), Some(Raw(7)));
    }

    /// Many threads hammer one small table with entries whose data is a function of the key;
    /// any accepted entry with the wrong data would be a torn or foreign read let through.
    #[test]
    fn concurrent_writers_never_leak_torn_entries() {
        let tt = Arc::new(TranspositionTable::<Raw>::new(0));
        let handles: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = Arc::clone(&tt);
                std::thread::spawn(move || {
                    let mut st = TtStats::default();
                    let mut bad = 0u64;
                    for i in 0..200_000u64 {
                        let key = (i * 4 + t) % 64 + 1;
                        tt.store(key, payload(key), &mut st);
                        let probe_key = (i * 7 + t * 3) % 64 + 1;
                        if let Some(e) = tt.probe(probe_key, &mut st) {
                            bad += u64::from(e != payload(probe_key));
                        }
                    }
                    (bad, st)
                })
            })
            .collect();
        let mut total = TtStats::default();
        for h in handles {
            let (bad, st) = h.join().unwrap();
            assert_eq!(bad, 0, "a corrupted entry was accepted");
            total.absorb(&st);
        }
        assert!(total.hits > 0 && total.stores == 800_000);
    }
}
