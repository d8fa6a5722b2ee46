//! Values of solved positions: 2-bit codes, packed 32 to a word, and the 16-bit working cell
//! of the layer being solved (value and distance).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Outcome;

/// Not decided yet.
pub const UNKNOWN: u8 = 0;
/// A win for the side to move.
pub const WIN: u8 = 1;
/// A loss for the side to move.
pub const LOSS: u8 = 2;
/// A draw.
pub const DRAW: u8 = 3;

/// The 2-bit code of an outcome.
pub fn code(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Win => WIN,
        Outcome::Loss => LOSS,
        Outcome::Draw => DRAW,
    }
}

/// The outcome of a 2-bit code (`None` for [`UNKNOWN`]).
pub fn outcome(code: u8) -> Option<Outcome> {
    match code & 3 {
        WIN => Some(Outcome::Win),
        LOSS => Some(Outcome::Loss),
        DRAW => Some(Outcome::Draw),
        _ => None,
    }
}

/// A zeroed vector of `len` values; a large one is asked to be backed by huge pages
/// ([`advise_huge_pages`](crate::memory::advise_huge_pages)). Zeroed by the allocator, so its
/// pages are untouched until written and take huge pages when first written.
pub fn zeroed_huge<T: bytemuck::Zeroable>(len: usize) -> Vec<T> {
    let v: Vec<T> = bytemuck::allocation::zeroed_vec(len);
    crate::memory::advise_huge_pages(&v);
    v
}

/// A working cell: `value << 14 | distance` once decided. While undecided (value 0), bit 13
/// says whether a winning move into a solved layer is known, and bits 0..13 hold the
/// distance it wins in, or (without it) the longest distance over the moves into solved
/// layers, all wins for the opponent.
pub mod cell {
    /// Largest distance a cell holds.
    pub const MAX_DISTANCE: u16 = (1 << 14) - 1;
    /// Largest auxiliary distance an undecided cell holds.
    pub const MAX_AUX: u16 = (1 << 13) - 1;
    /// Flag of an undecided cell: a winning move into a solved layer is known.
    pub const HAS_WIN: u16 = 1 << 13;

    /// The cell of a position left out of the solve (not reachable): decided, so that nothing
    /// propagates into it, and stored as 0 ([`super::UNKNOWN`]) in tables.
    pub const SKIPPED: u16 = decided(super::DRAW, MAX_DISTANCE);

    /// The 2-bit code a cell is stored as: its value, 0 for [`SKIPPED`].
    #[inline]
    pub const fn stored(c: u16) -> u8 {
        if c == SKIPPED { 0 } else { value(c) }
    }

    /// A decided cell.
    #[inline]
    pub const fn decided(value: u8, distance: u16) -> u16 {
        (value as u16) << 14 | distance
    }

    /// The 2-bit value of a cell.
    #[inline]
    pub const fn value(c: u16) -> u8 {
        (c >> 14) as u8
    }

    /// The distance of a decided cell, or the auxiliary distance of an undecided one.
    #[inline]
    pub const fn distance(c: u16) -> u16 {
        c & MAX_DISTANCE
    }

    /// The auxiliary distance of an undecided cell.
    #[inline]
    pub const fn aux(c: u16) -> u16 {
        c & MAX_AUX
    }
}

/// 2-bit values, 32 per `u64` word, with atomic writes.
#[derive(Debug, Default)]
pub struct PackedValues {
    words: Vec<AtomicU64>,
    len: u64,
}

impl PackedValues {
    /// `len` values, all [`UNKNOWN`].
    pub fn new(len: u64) -> Self {
        PackedValues { words: zeroed_huge(len.div_ceil(32) as usize), len }
    }

    /// From little-endian words as written by [`PackedValues::to_bytes`].
    pub fn from_words(words: Vec<u64>, len: u64) -> Self {
        PackedValues { words: words.into_iter().map(AtomicU64::new).collect(), len }
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value at `i`.
    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        (self.words[(i / 32) as usize].load(Ordering::Relaxed) >> (2 * (i % 32)) & 3) as u8
    }

    /// Sets the value at `i` (other values of the word are kept, even under concurrent writes).
    #[inline]
    pub fn set(&self, i: u64, value: u8) {
        let shift = 2 * (i % 32);
        let word = &self.words[(i / 32) as usize];
        let mask = 3u64 << shift;
        let bits = u64::from(value & 3) << shift;
        let mut old = word.load(Ordering::Relaxed);
        while let Err(now) = word.compare_exchange_weak(
            old,
            old & !mask | bits,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            old = now;
        }
    }

    /// Sets the bits `bits` (of 2) of the value at `i`; returns the value before.
    #[inline]
    pub fn or(&self, i: u64, bits: u8) -> u8 {
        let shift = 2 * (i % 32);
        let old =
            self.words[(i / 32) as usize].fetch_or(u64::from(bits & 3) << shift, Ordering::Relaxed);
        (old >> shift & 3) as u8
    }

    /// Sets the bits `bits` (of 2) of the value at `i`; returns those of them that were not
    /// set before. Looks before it writes: setting bits already set costs no atomic write.
    #[inline]
    pub fn insert(&self, i: u64, bits: u8) -> u8 {
        let shift = 2 * (i % 32);
        let bits = u64::from(bits & 3) << shift;
        let word = &self.words[(i / 32) as usize];
        let old = word.load(Ordering::Relaxed);
        if old & bits == bits {
            return 0;
        }
        let old = word.fetch_or(bits, Ordering::Relaxed);
        ((bits & !old) >> shift) as u8
    }

    /// The words as little-endian bytes (`len.div_ceil(32) * 8` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes()).collect()
    }

    /// Bytes of memory per value.
    pub fn bytes_per_value(&self) -> f64 {
        if self.len == 0 { 0.0 } else { (self.words.len() * 8) as f64 / self.len as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_values_keep_neighbours() {
        let v = PackedValues::new(100);
        for i in 0..100 {
            v.set(i, (i % 4) as u8);
        }
        v.set(33, WIN);
        assert_eq!(v.insert(34, 3), 1);
        assert_eq!(v.insert(34, 3), 0);
        v.set(34, 2);
        for i in 0..100 {
            let want = if i == 33 { WIN } else { (i % 4) as u8 };
            assert_eq!(v.get(i), want);
        }
        let bytes = v.to_bytes();
        assert_eq!(bytes.len(), 4 * 8);
        let words = bytes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let w = PackedValues::from_words(words, 100);
        assert!((0..100).all(|i| w.get(i) == v.get(i)));
    }

    #[test]
    fn cells_round_trip() {
        let c = cell::decided(LOSS, 1234);
        assert_eq!((cell::value(c), cell::distance(c)), (LOSS, 1234));
        assert_eq!(outcome(code(Outcome::Draw)), Some(Outcome::Draw));
        assert_eq!(outcome(UNKNOWN), None);
    }
}
