//! A per-thread memo of what [`super::Geography::refresh`] works out beyond the component: the traps,
//! the decided result and the canonical hash, keyed by the component hash and the reductions.

use super::Outcome;
use super::reductions::ParityNumbers;
use std::cell::RefCell;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// Entries (a power of two; 20 MiB a thread, written when made: see [`crate::memory`]).
/// Four times as many saved no time on the hard positions of
/// `scripts/geography-reach-hard.sh`.
const ENTRIES: usize = 1 << 19;

thread_local! {
    /// Slots of the key (0: empty), the traps' two halves, the canonical hash and the
    /// result; all zeros when made.
    static MEMO: RefCell<Vec<[u64; 5]>> =
        RefCell::new(crate::memory::zeroed_mapped(ENTRIES).into_vec());
}

/// What is memoised for `key`.
pub(super) type Settled = (u128, Option<Outcome>, u64, ParityNumbers);

fn slot(key: u64) -> usize {
    (key >> 40) as usize & (ENTRIES - 1)
}

/// The memoised values of `key`, if its slot holds them.
pub(super) fn lookup(key: u64) -> Option<Settled> {
    if key == 0 {
        return None;
    }
    MEMO.with(|memo| {
        let [k, lo, hi, canonical, packed] = memo.borrow()[slot(key)];
        (k == key).then(|| {
            let (decided, numbers) = unpack(packed);
            (u128::from(hi) << 64 | u128::from(lo), decided, canonical, numbers)
        })
    })
}

/// Memoises the values of `key`.
pub(super) fn store(key: u64, (traps, decided, canonical, numbers): Settled) {
    let packed = pack(decided, numbers);
    let slot_value = [key, traps as u64, (traps >> 64) as u64, canonical, packed];
    MEMO.with(|memo| memo.borrow_mut()[slot(key)] = slot_value);
}

/// A salt for the memo keys of a new root ([`super::Geography::memo_salt`]).
pub(super) fn fresh_salt() -> u64 {
    static ROOTS: AtomicU64 = AtomicU64::new(0);
    crate::zobrist::splitmix64(ROOTS.fetch_add(1, Relaxed)).1
}

/// The result and parity numbers in one word.
fn pack(decided: Option<Outcome>, numbers: ParityNumbers) -> u64 {
    let decided = match decided {
        None => 0,
        Some(Outcome::Win) => 1,
        Some(Outcome::Loss) => 2,
        Some(Outcome::Draw) => 3,
    };
    decided | u64::from(numbers.open) << 8 | u64::from(numbers.fewest) << 24
}

/// [`pack`] undone.
fn unpack(packed: u64) -> (Option<Outcome>, ParityNumbers) {
    let decided = match packed & 0xFF {
        1 => Some(Outcome::Win),
        2 => Some(Outcome::Loss),
        3 => Some(Outcome::Draw),
        _ => None,
    };
    (decided, ParityNumbers { open: (packed >> 8) as u16, fewest: (packed >> 24) as u16 })
}

/// Entries of the table shared by every thread (a power of two; 24 bytes each, 384 MiB
/// in all, every page written when the table is made: see [`crate::memory`]).
const SHARED_ENTRIES: usize = 1 << 24;

/// The second level: every settled position's result, canonical hash and parity numbers
/// (the traps are found again), for every thread, kept as long as no other position takes
/// its slot. A per-thread memo holds a few hundred thousand positions; a long solve
/// settles millions and comes back to positions settled long before (13 % of the
/// positions settled on `s1:58` in 40 s had been settled before), and threads settle the
/// same positions. Slots are three words, the first the key xor the other two, so a slot
/// half written by one thread and half by another reads as empty (the table's test).
static SHARED: std::sync::LazyLock<Box<[[AtomicU64; 3]]>> =
    std::sync::LazyLock::new(|| crate::memory::zeroed_mapped::<[AtomicU64; 3]>(SHARED_ENTRIES));

fn shared_slot(key: u64) -> &'static [AtomicU64; 3] {
    &SHARED[(key >> 20) as usize & (SHARED_ENTRIES - 1)]
}

/// The shared table's result, canonical hash and parity numbers of `key`, if it has them.
pub(super) fn shared_lookup(key: u64) -> Option<(Option<Outcome>, u64, ParityNumbers)> {
    if key == 0 {
        return None;
    }
    let [check, canonical, packed] = shared_slot(key).each_ref().map(|w| w.load(Relaxed));
    (check ^ canonical ^ packed == key).then(|| {
        let (decided, numbers) = unpack(packed);
        (decided, canonical, numbers)
    })
}

/// Flips a bit of the canonical-hash word of `key`'s slot, as a write of another thread
/// landing in the middle of this one's would.
#[cfg(test)]
pub(super) fn tear_shared(key: u64) {
    shared_slot(key)[1].fetch_xor(1, Relaxed);
}

/// Keeps the result, canonical hash and parity numbers of `key` in the shared table.
pub(super) fn shared_store(
    key: u64,
    decided: Option<Outcome>,
    canonical: u64,
    numbers: ParityNumbers,
) {
    if key == 0 {
        return;
    }
    let packed = pack(decided, numbers);
    let [check, canonical_word, packed_word] = shared_slot(key);
    check.store(key ^ canonical ^ packed, Relaxed);
    canonical_word.store(canonical, Relaxed);
    packed_word.store(packed, Relaxed);
}
