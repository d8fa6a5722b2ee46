//! One df-pn search thread: the recursive `mid` with its children, thresholds, child selection
//! (busy counters for several threads) and the repetition bookkeeping of the
//! [parent module](super#graph-history-interaction-ghi).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

use super::MAX_PLY;
use super::entry::{DfpnEntry, INF, MAX_FINITE};
use crate::game::{Game, MoveList, Outcome};
use crate::search::busy::Busy;
use crate::search::history::repeated_index;
use crate::search::poll::NodePoll;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Stats};

/// Marks "no repetition below": the result does not depend on the path.
const NO_REP: u32 = u32::MAX;
/// Salt of the key of a position whose mover is the disprover.
const DISPROVER_SALT: u64 = 0x5DEE_CE66_D1CE_4E5B;
/// Nodes between two checks of the limits.
const CHECK_EVERY: u64 = 1024;

/// Marks a remembered child whose initial numbers were not worked out (it was in the table).
const UNKNOWN: (u64, u64) = (u64::MAX, u64::MAX);
/// The most children a remembered list holds (nodes with more are not remembered).
const CACHE_WIDTH: usize = 16;
/// Bits of the index of a thread's [`ChildCache`] (2^14 lists, about 8.5 MiB for one-byte moves).
const CACHE_BITS: u32 = 14;
/// Nodes a search thread visits before it allocates its cache by default: small searches
/// never pay for it.
pub(super) const CACHE_AFTER: u64 = 4096;

/// A remembered child: its move, table key, and initial numbers (or [`UNKNOWN`]); `ended` if
/// the game is over there (then the numbers are its result and the table is not read).
#[derive(Clone, Copy, Debug)]
struct Known<M> {
    mv: M,
    key: u64,
    numbers: (u64, u64),
    ended: bool,
}

/// The children of one node as [`Worker::children`] generated them the first time.
type Remembered<M> = ArrayVec<Known<M>, CACHE_WIDTH>;

/// One thread's direct-mapped cache of the children of the nodes it expanded, by table key
/// (acyclic games only, where a child's initial numbers do not depend on the path).
///
/// df-pn enters a node again and again as its thresholds grow, and every entry used to play
/// every move again to find the children's keys and initial numbers (for geography a clone of
/// the position, the move and the component's upkeep per child). Those are functions of the
/// position, so they are remembered; only the table is read again. The lists are exactly what
/// the generation gives, so the search and its node counts are the same with or without the
/// cache. A list cut short by a solved child read from the table is not remembered (the table
/// may lose it).
struct ChildCache<M> {
    keys: Vec<u64>,
    lists: Vec<Remembered<M>>,
}

impl<M: Copy> ChildCache<M> {
    fn new() -> Self {
        ChildCache { keys: Vec::new(), lists: Vec::new() }
    }

    fn index(key: u64) -> usize {
        (key & ((1 << CACHE_BITS) - 1)) as usize
    }

    /// The slot holding the list of the node with table key `key`.
    fn find(&self, key: u64) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        let i = Self::index(key);
        (self.keys[i] == key && !self.lists[i].is_empty()).then_some(i)
    }

    /// Remembers `list` for `key` (allocating the cache once the thread has visited `after`
    /// nodes), replacing whatever the slot held.
    fn store(&mut self, key: u64, list: Remembered<M>, nodes: u64, after: u64) {
        if self.keys.is_empty() {
            if nodes < after {
                return;
            }
            self.keys = vec![0; 1 << CACHE_BITS];
            self.lists = (0..1 << CACHE_BITS).map(|_| ArrayVec::new()).collect();
        }
        let i = Self::index(key);
        self.keys[i] = key;
        self.lists[i] = list;
    }
}

/// A child of the node being searched, with its current numbers.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child<M> {
    mv: M,
    key: u64,
    phi: u64,
    delta: u64,
    /// Ply of the repeated ancestor a disproof depends on, or `NO_REP`.
    rep: u32,
    /// Nodes spent below the child by this frame.
    work: u64,
    /// Whether the child's numbers come from the table or a call (not fresh initial numbers).
    seen: bool,
}

/// What `mid` returns.
#[derive(Clone, Copy, Debug)]
pub(super) struct Res {
    phi: u64,
    delta: u64,
    rep: u32,
    work: u64,
}

/// Everything one thread shares with the others during one boolean search.
pub(super) struct Shared<'a> {
    pub tt: &'a TranspositionTable<DfpnEntry>,
    pub busy: Option<&'a Busy>,
    pub epsilon: Option<f64>,
    pub weak: bool,
    pub mobility: bool,
    pub probe: bool,
    /// Nodes a thread visits before it allocates its [`ChildCache`]; `None`: no cache.
    pub cache_after: Option<u64>,
    pub limits: &'a Limits,
    pub start: Instant,
    pub nodes: &'a AtomicU64,
    pub stop: &'a AtomicBool,
}

/// One thread's search state.
pub(super) struct Worker<'a, G: Game> {
    shared: &'a Shared<'a>,
    path: Vec<u64>,
    /// How many path positions have each value of the low [`PATH_FILTER_BITS`] bits of their
    /// hash: a zero count rules a repetition out without scanning the path (paths of proof
    /// searches in games with long cycles reach thousands of plies).
    path_filter: Vec<u32>,
    /// What this thread measured.
    pub stats: Stats,
    /// When the nodes were last added to [`Shared::nodes`].
    polling: NodePoll,
    stopped: bool,
    /// Tie-breaking seed; 0 keeps the natural move order.
    rng: u64,
    root_children: Vec<Child<G::Move>>,
    /// The children of the nodes this thread expanded.
    cache: ChildCache<G::Move>,
    /// Buffer for the replies of a child whose mobility is counted.
    grand: G::Moves,
}

/// Bits of the hash indexing [`Worker::path_filter`].
const PATH_FILTER_BITS: u32 = 16;
const PATH_FILTER_MASK: u64 = (1 << PATH_FILTER_BITS) - 1;

/// The table key of a position for the boolean search where its mover proves or not.
fn tt_key(hash: u64, mover_proves: bool) -> u64 {
    if mover_proves { hash } else { hash ^ DISPROVER_SALT }
}

/// `phi` and `delta` of a node from its children's. `delta` is the sum of the children's `phi`,
/// or with `weak` (weak proof numbers, Ueda, Hashimoto, Hashimoto and Iida, "Weak proof-number
/// search", Computers and Games 2008) the largest of them plus one for every other child not
/// yet refuted: in a DAG a transposed subtree counts once per path through it in the sum, so
/// the sum overestimates; the weak number does not add them up.
fn combine<M>(children: &[Child<M>], weak: bool) -> (u64, u64) {
    let phi = children.iter().map(|c| c.delta).min().unwrap_or(INF);
    let delta = if phi == 0 {
        INF
    } else if weak {
        let (mut max, mut open) = (0u64, 0u64);
        for c in children {
            max = max.max(c.phi);
            open += u64::from(c.phi != 0);
        }
        max.saturating_add(open.saturating_sub(1)).min(MAX_FINITE)
    } else {
        children.iter().fold(0u64, |s, c| s.saturating_add(c.phi)).min(MAX_FINITE)
    };
    (phi, delta)
}

impl<'a, G: Game> Worker<'a, G> {
    /// A worker; thread 0 keeps the natural move order, others break ties at random.
    pub fn new(shared: &'a Shared<'a>, thread: usize) -> Self {
        Worker {
            shared,
            path: Vec::new(),
            path_filter: vec![0; 1 << PATH_FILTER_BITS],
            stats: Stats::default(),
            polling: NodePoll::new(CHECK_EVERY),
            stopped: false,
            rng: if thread == 0 {
                0
            } else {
                0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(thread as u64)
            },
            root_children: Vec::new(),
            cache: ChildCache::new(),
            grand: G::Moves::default(),
        }
    }

    /// Counts a node and checks the limits now and then.
    fn count_node(&mut self, ply: u32) {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        let nodes = self.stats.nodes;
        if self.polling.due(nodes) || nodes == 1 {
            // The limits are looked at one interval ahead of the shared count before the flush.
            let ahead = CHECK_EVERY.saturating_sub(self.polling.unflushed(nodes));
            let (shared, limits, start) = (self.shared, self.shared.limits, self.shared.start);
            self.polling.poll(nodes, shared.nodes, shared.stop, |total| {
                limits.is_exceeded(total + ahead, start)
            });
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Ply of the path position `pos` repeats, if any.
    fn repetition(&self, pos: &G) -> Option<u32> {
        if G::ACYCLIC {
            return None;
        }
        let hash = pos.hash();
        if self.path_filter[(hash & PATH_FILTER_MASK) as usize] == 0 {
            return None;
        }
        repeated_index(&self.path, pos).map(|i| i as u32)
    }

    /// The children of `pos` (table key `key`) with their initial numbers (game end,
    /// repetition, table, or the hint / mobility / 1-1 estimate). Stops at the first child that
    /// settles `pos` for its mover without depending on the path: the other children cannot
    /// change the result. In acyclic games the list is remembered (see [`ChildCache`]) and a
    /// frame entering `pos` again reads it instead of playing every move again.
    fn children(&mut self, pos: &G, key: u64, mover_proves: bool) -> Vec<Child<G::Move>> {
        if G::ACYCLIC
            && let Some(slot) = self.cache.find(key)
        {
            return self.children_remembered(pos, slot, mover_proves);
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let child_proves = !mover_proves;
        let solved = |goal_met: bool| if goal_met { (0, INF) } else { (INF, 0) };
        let mut out = Vec::with_capacity(moves.len());
        let mut list = Remembered::new();
        let mut complete =
            G::ACYCLIC && self.shared.cache_after.is_some() && moves.len() <= CACHE_WIDTH;
        for &mv in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let key = tt_key(child.hash(), child_proves);
            let mut rep = NO_REP;
            let mut seen = false;
            let mut initial = UNKNOWN;
            let mut ended = false;
            let (phi, delta) = if let Some(o) = child.outcome() {
                ended = true;
                initial = solved(if child_proves { o == Outcome::Win } else { o != Outcome::Loss });
                initial
            } else if let Some(ply) = self.repetition(&child) {
                rep = ply;
                solved(!child_proves)
            } else if let Some(e) = self.shared.tt.probe(key, &mut self.stats.tt) {
                seen = true;
                e.numbers()
            } else {
                initial = self.initial_numbers(&child, child_proves);
                initial
            };
            out.push(Child { mv, key, phi, delta, rep, work: 0, seen });
            if complete {
                list.push(Known { mv, key, numbers: initial, ended });
            }
            if delta == 0 && rep == NO_REP {
                // Cut short by the table: another visit may not be.
                complete &= !seen;
                break;
            }
        }
        if complete && let Some(after) = self.shared.cache_after {
            self.cache.store(key, list, self.stats.nodes, after);
        }
        out
    }

    /// [`Worker::children`] from a remembered list: game ends and initial numbers as they
    /// were, the table read again; a child whose initial numbers were never worked out (it was
    /// in the table then) is played now if the table lost it.
    fn children_remembered(
        &mut self,
        pos: &G,
        slot: usize,
        mover_proves: bool,
    ) -> Vec<Child<G::Move>> {
        let len = self.cache.lists[slot].len();
        let child_proves = !mover_proves;
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            let known = self.cache.lists[slot][i];
            let mut seen = false;
            let (phi, delta) = if known.ended {
                known.numbers
            } else if let Some(e) = self.shared.tt.probe(known.key, &mut self.stats.tt) {
                seen = true;
                e.numbers()
            } else if known.numbers != UNKNOWN {
                known.numbers
            } else {
                let mut child = pos.clone();
                child.play(known.mv);
                let numbers = self.initial_numbers(&child, child_proves);
                self.cache.lists[slot][i].numbers = numbers;
                numbers
            };
            out.push(Child {
                mv: known.mv,
                key: known.key,
                phi,
                delta,
                rep: NO_REP,
                work: 0,
                seen,
            });
            if delta == 0 {
                break;
            }
        }
        out
    }

    /// Initial numbers of a child new to the search (not over, not a repetition, not in the
    /// table): the game's hint, else mobility and the win probe as configured, else `1, 1`.
    fn initial_numbers(&mut self, child: &G, child_proves: bool) -> (u64, u64) {
        if let Some((phi, delta)) = G::CAPABILITIES.proof_numbers_hint.and_then(|hint| hint(child))
        {
            return (phi.clamp(1, MAX_FINITE), delta.clamp(1, MAX_FINITE));
        }
        let (mobility, probe) = (self.shared.mobility, self.shared.probe);
        if !mobility && !probe {
            return (1, 1);
        }
        // Mobility needs every reply; the probe only the first.
        let grand = &mut self.grand;
        grand.clear();
        let first = if mobility {
            child.generate_moves(grand);
            grand.first().copied()
        } else {
            crate::capability::first_move(child)
        };
        let wins_at_once = probe
            && first.is_some_and(|g| {
                let mut next = child.clone();
                next.play(g);
                next.outcome().is_some_and(|o| {
                    if child_proves { o == Outcome::Loss } else { o != Outcome::Win }
                })
            });
        if wins_at_once {
            (0, INF)
        } else if mobility {
            // Mobility: the child's mover needs one good move, its opponent must refute all
            // of them.
            (1, grand.len().max(1) as u64)
        } else {
            (1, 1)
        }
    }

    /// The threshold for the best child's `delta` given the second best `delta2`.
    fn next_threshold(&self, delta2: u64) -> u64 {
        if delta2 >= MAX_FINITE {
            return INF;
        }
        let plain = delta2 + 1;
        match self.shared.epsilon {
            None => plain,
            Some(e) => plain.max((delta2 as f64 * (1.0 + e)).ceil() as u64).min(INF),
        }
    }

    /// Index of the child to search and the second-smallest (effective) `delta`.
    fn select(&mut self, children: &[Child<G::Move>]) -> (usize, u64) {
        let n = children.len();
        let offset = if self.rng == 0 {
            0
        } else {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            (self.rng % n as u64) as usize
        };
        let (mut best, mut best_delta, mut second) = (offset, u64::MAX, u64::MAX);
        for k in 0..n {
            let i = (k + offset) % n;
            let c = &children[i];
            let mut delta = c.delta;
            if let Some(busy) = self.shared.busy
                && c.phi != 0
                && c.delta != 0
            {
                let others = u64::from(busy.count(c.key));
                delta = delta.saturating_add(others).min(MAX_FINITE);
            }
            if delta < best_delta {
                second = best_delta;
                best = i;
                best_delta = delta;
            } else if delta < second {
                second = delta;
            }
        }
        (best, second.min(INF))
    }

    /// Searches `pos` (at `ply`, not over, not a repetition) until `phi >= th_phi` or
    /// `delta >= th_delta`; stores the result unless it is a path-dependent disproof.
    fn mid(&mut self, pos: &G, ply: u32, mover_proves: bool, th_phi: u64, th_delta: u64) -> Res {
        let (mut th_phi, mut th_delta) = (th_phi, th_delta);
        self.count_node(ply);
        let hash = pos.hash();
        let key = tt_key(hash, mover_proves);
        if ply >= MAX_PLY {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
        if self.stopped {
            return Res { phi: 1, delta: 1, rep: NO_REP, work: 1 };
        }
        self.path.push(hash);
        self.path_filter[(hash & PATH_FILTER_MASK) as usize] += 1;
        if let Some(busy) = self.shared.busy {
            busy.enter(key);
        }
        let mut children = self.children(pos, key, mover_proves);
        let mut work = 1u64;
        let (phi, delta) = combine(&children, self.shared.weak);
        // Under table pressure a fresh-looking child may just have been evicted, and
        // re-creating it is no progress: then every frame must expand.
        let pressure = self.stats.tt.overwrites * 16 > self.stats.tt.stores;
        if phi != 0 && delta != 0 && (pressure || children.iter().any(|c| c.seen)) {
            // Make progress: numbers read from the table may already exceed the thresholds
            // (inflated through cycles or changed by transpositions); expanding at least once
            // keeps a frame from returning without work forever. A node whose children are
            // all fresh has exact initial numbers and may return at once (no dive).
            th_phi = th_phi.max(phi + 1);
            th_delta = th_delta.max(delta + 1);
        }
        loop {
            let (phi, delta) = combine(&children, self.shared.weak);
            if phi >= th_phi || delta >= th_delta || self.stopped {
                break;
            }
            let (best, delta2) = self.select(&children);
            let c = children[best];
            // Above the child's own delta even when busy counters made it look worse (or
            // better) than it is, so the call cannot return at once with unchanged numbers.
            let child_th_delta = th_phi.min(self.next_threshold(delta2)).max(c.delta + 1);
            let child_th_phi =
                if th_delta >= INF { INF } else { (th_delta - delta + c.phi).min(INF) };
            let mut child = pos.clone();
            child.play(c.mv);
            let r = self.mid(&child, ply + 1, !mover_proves, child_th_phi, child_th_delta);
            let c = &mut children[best];
            (c.phi, c.delta, c.rep, c.seen) = (r.phi, r.delta, r.rep, true);
            c.work += r.work;
            work += r.work;
        }
        if let Some(busy) = self.shared.busy {
            busy.leave(key);
        }
        self.path.pop();
        self.path_filter[(hash & PATH_FILTER_MASK) as usize] -= 1;
        let (phi, delta) = combine(&children, self.shared.weak);
        let disproof = (mover_proves && delta == 0) || (!mover_proves && phi == 0);
        let mut rep = if !disproof {
            NO_REP
        } else if mover_proves {
            // Every move refuted: depends on every child's repetition.
            children.iter().map(|c| c.rep).min().unwrap_or(NO_REP)
        } else {
            // One refuting move suffices: use the least path-dependent one.
            children.iter().filter(|c| c.delta == 0).map(|c| c.rep).max().unwrap_or(NO_REP)
        };
        if rep >= ply {
            rep = NO_REP;
        }
        if !self.stopped {
            // A path-dependent disproof is stored as an unsolved heuristic (the solved side
            // becomes 1): the position is then seen, not fresh, the next time.
            let entry = if rep == NO_REP {
                DfpnEntry::new(phi, delta, work)
            } else {
                DfpnEntry::new(phi.max(1), delta.max(1), work)
            };
            self.shared.tt.store(key, entry, &mut self.stats.tt);
        }
        if ply == 0 {
            self.root_children = children;
        }
        Res { phi, delta, rep, work }
    }

    /// Runs one boolean search from `root`: `Some(proven, best move)` unless stopped.
    pub fn search(&mut self, root: &G, root_proves: bool) -> Option<(bool, Option<G::Move>)> {
        let r = self.mid(root, 0, root_proves, INF, INF);
        self.polling.flush(self.stats.nodes, self.shared.nodes);
        if self.stopped {
            return None;
        }
        let proven = if root_proves { r.phi == 0 } else { r.delta == 0 };
        let children = &self.root_children;
        let best = if root_proves == proven {
            // The root's mover reached its goal: a move to a refuted child.
            children.iter().find(|c| c.delta == 0)
        } else {
            // The root's mover failed: resist longest.
            children.iter().max_by_key(|c| c.work)
        };
        Some((proven, best.map(|c| c.mv)))
    }
}
