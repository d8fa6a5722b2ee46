//! Every cache of the game, in one place, with its size (here, under the reductions, since
//! most of them memoise a reduction and hold its types; the position's settled memo and its
//! [`Root`] handle live here too, so that there is one place).
//!
//! A position reaches the caches of its solve through the one `Arc` it holds, [`Root`]: the
//! graph and the solve's [`Caches`], made with the root position (by [`Geography::new`] and
//! again whenever the reductions are set, [`Geography::with_reductions`]: a new root for the
//! solvers) and passed on to every position played from it, so cloning a position (at every
//! node of a search) costs one reference count, as when it held the graph alone. The caches go
//! when the last position of the solve does. Two solves in one process (batch mode, several at
//! once on several threads) never share a table, except a [`BridgeContext`] handed to both by
//! the caller ([`Geography::with_bridge_context`]).
//!
//! | Cache | Memoises | Key (checked) | Entries | Bytes | Scope |
//! |---|---|---|---|---|---|
//! | shared settled | result, canonical hash, numbers | memo key (xor) | ≤ 2^24 | ≤ 384 MiB | solve |
//! | sub-game | a bridge's far side won? | its hash (63 bits) | 2^20 | 8 MiB | context |
//! | settled memo | traps, result, canonical, numbers | memo key (all) | 2^19 | 20 MiB | thread |
//! | parity memo | the parity-set test | component hash (63 bits) | 2^20 | 8 MiB | thread |
//! | piece memo | a pendant piece's value | piece hash (62 bits) | 2^16 | 512 KiB | thread |
//! | child tests | a position's tests of children | its hash (all) | 2^12 | 512 KiB | thread |
//! | base elimination | siblings' GF(2) elimination | parent's hash (all) | 1 | 6 KiB | thread |
//! | spare eliminations | a free list, not a memo | none | a few | 6 KiB each | thread |
//!
//! * Shared settled (slots of 24 bytes, [`SHARED_SETTLED_ENTRIES`] at most): the second level
//!   of the settled memo, what [`Geography::refresh`] settles but the traps (found again),
//!   keyed by [`Geography::memo_key`] (component hash, reductions, the solve's salt); in the
//!   solve's [`Caches`], read and written by its threads with relaxed atomics, a slot's first
//!   word the key xor the other two. Used without [`Reductions::PIECES`] and
//!   [`Reductions::BRIDGES`]. It grows with the solve: 2^18, 2^21 and 2^24 entries (6, 48
//!   and 384 MiB), each made once a thread of the solve has settled the positions
//!   [`SHARED_LEVELS`] gives (small solves make none), all freed with the solve's last
//!   position.
//! * Sub-game ([`CACHE_ENTRIES`] words, [`SubgameCache`]): the far sides of bridges solved by
//!   [`Reductions::BRIDGES`], in a [`BridgeContext`] held by the solve's [`Caches`]: one per
//!   solve, unless the caller hands one context to several ([`Geography::with_bridge_context`]);
//!   relaxed atomics, one word an entry.
//! * Settled memo ([`SETTLED_ENTRIES`] slots of 40 bytes): the first level, everything
//!   [`Geography::refresh`] settles beyond the component, with [`Reductions::TRAPS`],
//!   [`Reductions::PIECES`] or [`Reductions::PARITY_SET`] and without bridges.
//! * Parity memo ([`PARITY_MEMO_ENTRIES`] words): the parity-set loss test of a token and the
//!   edges of its component (or a child's), df-pn asking again at every visit of a node.
//! * Piece memo ([`PIECE_MEMO_ENTRIES`] words): drop, hot or neither, of a pendant piece
//!   ([`Reductions::PIECES`]).
//! * Child tests ([`CHILD_TEST_ENTRIES`] slots of 128 bytes, [`ChildTests`]): what the parity
//!   tests of an undecided position found about its children, for when they are settled.
//! * Base elimination and spare eliminations: the rows of a position outside its token's closed
//!   neighbourhood, eliminated once for the positions after its moves, and the eliminations of
//!   dropped [`Nearby`]s kept for the next (a fresh one is 6 KiB to zero).
//!
//! The per-thread memos stay thread-private: they are written at nearly every node, and
//! sharing them would take locks or atomic slots of several words; they are scratch that a
//! thread fills again quickly. They are made (every page written, see [`crate::memory`]) on a
//! thread's first use and live as long as the thread. None of them can give an answer that
//! belongs to another graph: every key hashes the vertex pairs of the edges it depends on
//! (the answer is a function of those edges, whatever the graph), and the settled memo's key
//! also holds the salt of the solve ([`Caches::salt`]), so a solve never finds what another
//! left there (each is solved from cold). Every slotted table trusts its checked key bits
//! (a collision could give a wrong answer, as in the search's transposition tables).
//!
//! The `#[cfg(test)]` counters [`INHERITED`] and [`SPLIT_FOUND`] are statistics for the tests,
//! per thread, kept here with the caches they count hits of.
//!
//! The module's tests check the bytes in the table against the types.
//!
//! [`Geography::new`]: super::super::Geography::new
//! [`Geography::with_reductions`]: super::super::Geography::with_reductions
//! [`Geography::with_bridge_context`]: super::super::Geography::with_bridge_context
//! [`Geography::refresh`]: super::super::Geography::refresh
//! [`Geography::memo_key`]: super::super::Geography::memo_key
//! [`Reductions::PIECES`]: super::super::Reductions::PIECES
//! [`Reductions::TRAPS`]: super::super::Reductions::TRAPS
//! [`Reductions::PARITY_SET`]: super::super::Reductions::PARITY_SET
//! [`Reductions::BRIDGES`]: super::super::Reductions::BRIDGES
//! [`Nearby`]: super::Nearby

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, OnceLock};

use super::super::Outcome;
use super::super::graph::Graph;
use super::{BridgeContext, ChildTests, Elimination, ParityNumbers};

/// What every position of one solve shares, behind the one `Arc` each holds: the graph and
/// the solve's caches.
#[derive(Debug)]
pub(in crate::games::geography) struct Root {
    /// The graph.
    pub(in crate::games::geography) graph: Arc<Graph>,
    /// The solve's caches.
    pub(in crate::games::geography) caches: Caches,
}

impl Root {
    /// A new root on `graph` with empty caches, holding `bridges` (the bridge reduction's
    /// context, when the reductions hold [`Reductions::BRIDGES`](super::super::Reductions::BRIDGES)).
    pub(in crate::games::geography) fn new(
        graph: Arc<Graph>,
        bridges: Option<Arc<BridgeContext>>,
    ) -> Arc<Root> {
        static SOLVES: AtomicU64 = AtomicU64::new(0);
        let salt = crate::zobrist::splitmix64(SOLVES.fetch_add(1, Relaxed)).1;
        let settled = [const { OnceLock::new() }; SHARED_LEVELS.len()];
        Arc::new(Root { graph, caches: Caches { salt, bridges, settled } })
    }
}

/// The caches of one solve (see the module docs): the shared settled table, growing as the
/// solve's threads settle positions ([`SHARED_LEVELS`]), and the bridge reduction's context.
pub(in crate::games::geography) struct Caches {
    /// Mixed into the keys of what [`Geography::refresh`](super::super::Geography::refresh)
    /// memoises, drawn for every root (a count of the roots made, mixed), so that a solve
    /// never finds what another left in the per-thread settled memo.
    pub(in crate::games::geography) salt: u64,
    /// The bridge reduction's cache and scan limit: `Some` exactly when the reductions hold
    /// [`Reductions::BRIDGES`](super::super::Reductions::BRIDGES).
    pub(in crate::games::geography) bridges: Option<Arc<BridgeContext>>,
    /// The levels of the shared settled table, each made when a thread has settled the
    /// positions [`SHARED_LEVELS`] gives it; the largest made is the table.
    settled: [OnceLock<SharedSettled>; SHARED_LEVELS.len()],
}

impl fmt::Debug for Caches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caches")
            .field("salt", &self.salt)
            .field("bridges", &self.bridges)
            .field(
                "shared_settled_levels",
                &self.settled.iter().filter(|l| l.get().is_some()).count(),
            )
            .finish()
    }
}

/// What the settled memos keep of a position: the traps, the result, the canonical hash and
/// the parity numbers.
pub(in crate::games::geography) type Settled = (u128, Option<Outcome>, u64, ParityNumbers);

/// Entries of the per-thread settled memo (a power of two; 40 bytes each, 20 MiB a thread).
/// Four times as many saved no time on the hard positions of `scripts/geography-reach-hard.sh`.
pub(in crate::games::geography) const SETTLED_ENTRIES: usize = 1 << 19;

/// Entries of the shared settled table of a solve at its largest (a power of two; 24 bytes
/// each, 384 MiB).
pub(in crate::games::geography) const SHARED_SETTLED_ENTRIES: usize = 1 << 24;

/// The levels of the shared settled table of a solve: the positions a thread settles for the
/// solve (found in neither memo) before the level is made, and its entries (6 MiB, 48 MiB,
/// 384 MiB). From then on the level is the table, starting with what the smaller one held
/// (which is left, unused, until the solve ends: 438 MiB at most). Making a table writes every page ([`crate::memory`]),
/// which costs: measured on the 2-core machine under load, 30-45 ms for 24 MiB and 0.6-0.8 s
/// for 384 MiB (another 0.2 s to free it), where a thread settles its first 2^15 positions of
/// a contest position in about 0.7 s (the parity rules are dear). So a solve makes each level
/// once it has settled a small share of what the level holds: small solves (the tests', the
/// bench's, most of a batch's) make none or the first only, and the 384 MiB is made only when
/// a thread has settled 2^19 positions (about 10 s), for the long solves that settle millions
/// and come back to positions settled long before. A thread counts for the last solve it
/// settled a position of (changing solves starts its count again). When a level is made
/// changes no answer: every settled value is a function of its key.
pub(in crate::games::geography) const SHARED_LEVELS: [(u32, usize); 3] =
    [(1 << 10, 1 << 18), (1 << 14, 1 << 21), (1 << 19, SHARED_SETTLED_ENTRIES)];

/// The per-thread settled memo and the count of positions settled for the solve of salt
/// `solve` on this thread.
struct SettledMemo {
    /// Slots of the key (0: empty), the traps' two halves, the canonical hash and the packed
    /// result and numbers.
    slots: Box<[[u64; 5]]>,
    /// The salt of the solve counted in `settled`.
    solve: u64,
    /// Positions settled on this thread for `solve`, up to the last of [`SHARED_LEVELS`].
    settled: u32,
}

thread_local! {
    /// The per-thread settled memo (see [`SettledMemo`]).
    static SETTLED: RefCell<SettledMemo> = RefCell::new(SettledMemo {
        slots: crate::memory::zeroed_mapped(SETTLED_ENTRIES),
        solve: 0,
        settled: 0,
    });
}

fn settled_slot(key: u64) -> usize {
    (key >> 40) as usize & (SETTLED_ENTRIES - 1)
}

/// The values of `key` in this thread's settled memo, if its slot holds them.
pub(in crate::games::geography) fn settled_lookup(key: u64) -> Option<Settled> {
    if key == 0 {
        return None;
    }
    SETTLED.with(|memo| {
        let [k, lo, hi, canonical, packed] = memo.borrow().slots[settled_slot(key)];
        (k == key).then(|| {
            let (decided, numbers) = unpack(packed);
            (u128::from(hi) << 64 | u128::from(lo), decided, canonical, numbers)
        })
    })
}

/// Keeps the values of `key` in this thread's settled memo.
pub(in crate::games::geography) fn settled_store(
    key: u64,
    (traps, decided, canonical, numbers): Settled,
) {
    let packed = pack(decided, numbers);
    let slot_value = [key, traps as u64, (traps >> 64) as u64, canonical, packed];
    SETTLED.with(|memo| memo.borrow_mut().slots[settled_slot(key)] = slot_value);
}

impl Caches {
    /// The shared table's result, canonical hash and parity numbers of `key`, if the table is
    /// made and has them.
    pub(in crate::games::geography) fn shared_lookup(
        &self,
        key: u64,
    ) -> Option<(Option<Outcome>, u64, ParityNumbers)> {
        self.settled.iter().rev().find_map(OnceLock::get)?.lookup(key)
    }

    /// Keeps the values of `key`, which this thread has just settled, in its settled memo and,
    /// when `shared`, in the solve's shared table, whose next level is made first if this
    /// thread has now settled the positions [`SHARED_LEVELS`] gives it.
    pub(in crate::games::geography) fn store_settled(
        &self,
        key: u64,
        settled: Settled,
        shared: bool,
    ) {
        let packed = pack(settled.1, settled.3);
        let count = SETTLED.with(|memo| {
            let mut memo = memo.borrow_mut();
            memo.slots[settled_slot(key)] =
                [key, settled.0 as u64, (settled.0 >> 64) as u64, settled.2, packed];
            if !shared {
                return 0;
            }
            if memo.solve != self.salt {
                (memo.solve, memo.settled) = (self.salt, 0);
            }
            memo.settled = (memo.settled + 1).min(SHARED_LEVELS[SHARED_LEVELS.len() - 1].0);
            memo.settled
        });
        if !shared {
            return;
        }
        let wanted = SHARED_LEVELS.iter().rposition(|&(after, _)| count >= after);
        let made = self.settled.iter().rposition(|level| level.get().is_some());
        let Some(level) = wanted.max(made) else { return };
        let table = self.settled[level].get_or_init(|| {
            let mut table = SharedSettled::new(SHARED_LEVELS[level].1);
            if let Some(smaller) = self.settled[..level].iter().rev().find_map(OnceLock::get) {
                table.take_from(smaller);
            }
            table
        });
        table.store(key, settled.2, packed);
    }

    /// Makes a shared settled table of 2^12 entries now (for the tests: the table then holds
    /// every position settled, and thousands of roots can each have one).
    #[cfg(test)]
    pub(in crate::games::geography) fn make_shared_table(&self) {
        self.settled[0].get_or_init(|| SharedSettled::new(1 << 12));
    }

    /// Flips a bit of the canonical-hash word of `key`'s slot in the shared table, as a write
    /// of another thread landing in the middle of this one's would.
    #[cfg(test)]
    pub(in crate::games::geography) fn tear_shared(&self, key: u64) {
        if let Some(table) = self.settled.iter().rev().find_map(OnceLock::get) {
            table.slot(key)[1].fetch_xor(1, Relaxed);
        }
    }
}

/// The second level of the settled memo: every settled position's result, canonical hash and
/// parity numbers (the traps are found again), for every thread of the solve, kept as long as
/// no other position takes its slot. A per-thread memo holds a few hundred thousand
/// positions; a long solve settles millions and comes back to positions settled long before
/// (13 % of the positions settled on `s1:58` in 40 s had been settled before), and threads
/// settle the same positions. Slots are three words, the first the key xor the other two, so a
/// slot half written by one thread and half by another reads as empty (the tests').
struct SharedSettled {
    slots: Box<[[AtomicU64; 3]]>,
}

impl SharedSettled {
    /// An empty table of `entries` slots (a power of two), every page written
    /// ([`crate::memory`]).
    fn new(entries: usize) -> Self {
        debug_assert!(entries.is_power_of_two());
        SharedSettled { slots: crate::memory::zeroed_mapped(entries) }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 3] {
        &self.slots[(key >> 20) as usize & (self.slots.len() - 1)]
    }

    fn lookup(&self, key: u64) -> Option<(Option<Outcome>, u64, ParityNumbers)> {
        if key == 0 {
            return None;
        }
        let [check, canonical, packed] = self.slot(key).each_ref().map(|w| w.load(Relaxed));
        (check ^ canonical ^ packed == key).then(|| {
            let (decided, numbers) = unpack(packed);
            (decided, canonical, numbers)
        })
    }

    /// Keeps what `smaller` holds (a level made before; slots written meanwhile by other
    /// threads may be missed, which only loses them).
    fn take_from(&mut self, smaller: &SharedSettled) {
        for slot in &smaller.slots {
            let [check, canonical, packed] = slot.each_ref().map(|w| w.load(Relaxed));
            let key = check ^ canonical ^ packed;
            if key != 0 {
                self.store(key, canonical, packed);
            }
        }
    }

    fn store(&self, key: u64, canonical: u64, packed: u64) {
        if key == 0 {
            return;
        }
        let [check, canonical_word, packed_word] = self.slot(key);
        check.store(key ^ canonical ^ packed, Relaxed);
        canonical_word.store(canonical, Relaxed);
        packed_word.store(packed, Relaxed);
    }
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

/// Entries of the per-thread parity memo (a power of two; 8 bytes each, 8 MiB a thread).
pub(in crate::games::geography) const PARITY_MEMO_ENTRIES: usize = 1 << 20;

/// Entries of the per-thread piece memo (a power of two; 8 bytes each, 512 KiB a thread).
pub(in crate::games::geography) const PIECE_MEMO_ENTRIES: usize = 1 << 16;

/// Entries of the per-thread child-tests memo (a power of two; 128 bytes each, 512 KiB a
/// thread).
pub(in crate::games::geography) const CHILD_TEST_ENTRIES: usize = 1 << 12;

thread_local! {
    /// The parity memo: slot `hash % entries` holds the hash with its low bit replaced by the
    /// answer (0: empty). The test is a pure function of the token and its component's edges,
    /// so the memo changes no result (up to 63-bit hash collisions, as for the search's
    /// tables); df-pn regenerates the children of a node at every visit, and the memo spares
    /// the repeated tests.
    static PARITY_MEMO: RefCell<Box<[u64]>> =
        RefCell::new(crate::memory::zeroed_mapped(PARITY_MEMO_ENTRIES));
    /// The piece memo: slot `key % entries` holds the key with its low two bits replaced by
    /// the answer (1: drop, 2: hot, 3: neither; 0: empty).
    static PIECE_MEMO: RefCell<Box<[u64]>> =
        RefCell::new(crate::memory::zeroed_mapped(PIECE_MEMO_ENTRIES));
    /// The [`ChildTests`] of recently settled positions, by slot of their component hash.
    static CHILD_TESTS: RefCell<Vec<(u64, ChildTests)>> =
        RefCell::new(vec![(0, ChildTests::new(0)); CHILD_TEST_ENTRIES]);
    /// The base elimination of [`Nearby`](super::Nearby): the component hash of
    /// the position before the move (0: none) and the elimination of its rows outside the
    /// closed neighbourhood of its token.
    static BASE_ELIMINATION: RefCell<(u64, Box<Elimination>)> =
        RefCell::new((0, Box::new(Elimination::new())));
    /// Eliminations given back by dropped [`Nearby`](super::Nearby)s, for the
    /// next ones.
    static SPARE_ELIMINATIONS: RefCell<Vec<Box<Elimination>>> = const { RefCell::new(Vec::new()) };
}

/// The parity memo's answer for `hash` (its low bit ignored), if its slot holds it.
pub(in crate::games::geography) fn parity_lookup(hash: u64) -> Option<bool> {
    let tag = hash & !1;
    let slot = (hash >> 40) as usize & (PARITY_MEMO_ENTRIES - 1);
    PARITY_MEMO.with(|memo| {
        let entry = memo.borrow()[slot];
        (entry & !1 == tag).then_some(entry & 1 == 1)
    })
}

/// Keeps the parity-set answer `loss` of `hash` in the parity memo.
pub(in crate::games::geography) fn parity_store(hash: u64, loss: bool) {
    let slot = (hash >> 40) as usize & (PARITY_MEMO_ENTRIES - 1);
    PARITY_MEMO.with(|memo| memo.borrow_mut()[slot] = hash & !1 | u64::from(loss));
}

/// The piece memo's answer code (1 to 3) for `key` (its low two bits ignored), if its slot
/// holds it.
pub(in crate::games::geography) fn piece_lookup(key: u64) -> Option<u64> {
    let tag = key & !3;
    let slot = (key >> 40) as usize & (PIECE_MEMO_ENTRIES - 1);
    PIECE_MEMO.with(|memo| {
        let entry = memo.borrow()[slot];
        (entry & !3 == tag && entry & 3 != 0).then_some(entry & 3)
    })
}

/// Keeps the answer code `code` (1 to 3) of `key` in the piece memo.
pub(in crate::games::geography) fn piece_store(key: u64, code: u64) {
    let slot = (key >> 40) as usize & (PIECE_MEMO_ENTRIES - 1);
    PIECE_MEMO.with(|memo| memo.borrow_mut()[slot] = key & !3 | code);
}

fn child_tests_slot(key: u64) -> usize {
    (key >> 40) as usize & (CHILD_TEST_ENTRIES - 1)
}

/// The child tests kept for the position of component hash `key`, if its slot holds them.
pub(in crate::games::geography) fn child_tests_lookup(key: u64) -> Option<ChildTests> {
    CHILD_TESTS.with(|memo| {
        let (k, tests) = memo.borrow()[child_tests_slot(key)];
        (k == key).then_some(tests)
    })
}

/// Keeps `tests` of the position of component hash `key`.
pub(in crate::games::geography) fn child_tests_store(key: u64, tests: &ChildTests) {
    CHILD_TESTS.with(|memo| memo.borrow_mut()[child_tests_slot(key)] = (key, *tests));
}

/// Runs `f` on this thread's base elimination and its key.
pub(in crate::games::geography) fn with_base_elimination<R>(
    f: impl FnOnce(&mut u64, &mut Elimination) -> R,
) -> R {
    BASE_ELIMINATION.with(|base| {
        let (key, elimination) = &mut *base.borrow_mut();
        f(key, elimination)
    })
}

/// An elimination given back earlier on this thread, or a new one (neither cleared).
pub(in crate::games::geography) fn spare_elimination() -> Box<Elimination> {
    SPARE_ELIMINATIONS
        .with(|spare| spare.borrow_mut().pop())
        .unwrap_or_else(|| Box::new(Elimination::new()))
}

/// Gives `elimination` back for the next [`spare_elimination`] on this thread.
pub(in crate::games::geography) fn give_back_elimination(elimination: Box<Elimination>) {
    SPARE_ELIMINATIONS.with(|spare| spare.borrow_mut().push(elimination));
}

/// Entries of a sub-game table (a power of two; 8 bytes each, 8 MiB).
pub const CACHE_ENTRIES: usize = 1 << 20;

/// A table of solved sub-games, the far sides of bridges (see [`super::super::subgame`]): each entry
/// one atomic word holding 63 bits of the key and the result bit, written and read with relaxed
/// atomics (a torn entry cannot occur); entries are overwritten freely, and a lost entry is only
/// solved again. Shared by the threads that use it.
pub struct SubgameCache {
    table: Box<[AtomicU64]>,
}

impl Default for SubgameCache {
    fn default() -> Self {
        SubgameCache::new()
    }
}

impl fmt::Debug for SubgameCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SubgameCache({} entries)", self.table.len())
    }
}

#[inline]
fn subgame_slot(key: u64) -> usize {
    (key >> (64 - CACHE_ENTRIES.trailing_zeros())) as usize
}

impl SubgameCache {
    /// An empty table of [`CACHE_ENTRIES`] entries.
    pub fn new() -> Self {
        SubgameCache { table: (0..CACHE_ENTRIES).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Whether the player to move wins the position whose geography hash is `key`, if the
    /// table holds it.
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<bool> {
        let tag = key & !1;
        if tag == 0 {
            return None;
        }
        let entry = self.table[subgame_slot(key)].load(Relaxed);
        (entry & !1 == tag).then_some(entry & 1 == 1)
    }

    /// Records that the player to move wins (`true`) or loses the position with hash `key`.
    #[inline]
    pub fn store(&self, key: u64, win: bool) {
        let tag = key & !1;
        if tag != 0 {
            self.table[subgame_slot(key)].store(tag | u64::from(win), Relaxed);
        }
    }

    /// Empties the table (for measurements that must start cold).
    pub fn clear(&self) {
        for entry in &*self.table {
            entry.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many settled positions found their parent's tests (statistics for the tests).
    pub(in crate::games::geography) static INHERITED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many split tests of
    /// [`Nearby::any_loss_after`](super::Nearby::any_loss_after) found a parity
    /// set without the prefix's last vertex, and how many found one holding it (statistics
    /// for the tests).
    pub(in crate::games::geography) static SPLIT_FOUND: std::cell::Cell<(usize, usize)> =
        const { std::cell::Cell::new((0, 0)) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn the_sizes_in_the_table_are_the_types_sizes() {
        const MIB: usize = 1 << 20;
        assert_eq!(size_of::<[AtomicU64; 3]>() * SHARED_SETTLED_ENTRIES, 384 * MIB);
        let levels = SHARED_LEVELS.map(|(_, entries)| size_of::<[AtomicU64; 3]>() * entries);
        assert_eq!(levels, [6 * MIB, 48 * MIB, 384 * MIB]);
        assert!(SHARED_LEVELS.is_sorted() && SHARED_LEVELS.iter().all(|l| l.1.is_power_of_two()));
        assert_eq!(size_of::<[u64; 5]>() * SETTLED_ENTRIES, 20 * MIB);
        assert_eq!(size_of::<u64>() * PARITY_MEMO_ENTRIES, 8 * MIB);
        assert_eq!(size_of::<u64>() * PIECE_MEMO_ENTRIES, MIB / 2);
        assert_eq!(size_of::<(u64, ChildTests)>(), 128);
        assert_eq!(size_of::<(u64, ChildTests)>() * CHILD_TEST_ENTRIES, MIB / 2);
        assert_eq!(size_of::<u64>() * CACHE_ENTRIES, 8 * MIB);
        let elimination = size_of::<Elimination>();
        assert!((6 * 1024..6 * 1024 + 256).contains(&elimination), "{elimination}");
    }
}
