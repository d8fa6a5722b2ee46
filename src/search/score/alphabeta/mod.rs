//! [`AlphaBetaScore`]: fail-soft negamax over scores on the shared table, driven at the root by null-window tests (MTD(f) steps and bisection), with threads testing thresholds side by side.

use std::ops::ControlFlow;
use std::sync::OnceLock;

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::search::busy::Busy;
use crate::search::ordering::{HistoryTable, Killers};
use crate::search::poll::NodePoll;

mod lean;

/// Nodes between two looks at the limits (and, with threads, at whether the test still
/// matters).
pub(super) const CHECK_INTERVAL: u64 = 1024;

/// Bits of a move's slot in the history table (per side). Twelve keep the slots of Gauss's
/// 74 moves apart ([`move_hash`](crate::search::move_hash::move_hash) has collisions among
/// them at ten), so the history orders exactly as it did with a hasher of its own.
pub(super) const HISTORY_BITS: u32 = 12;

/// Fail-soft alpha-beta over scores with a table, on one or several threads; see the
/// [module docs](super).
///
/// With `threads > 1` the first thread runs alone for [`SolverOptions::helper_join`] nodes
/// (a small tree is done before the others could wake up); then every thread runs null-window
/// tests of the root on the one shared table.
/// Before the first result they test the guess and its nearest neighbours side by side (the
/// guess is usually within a point, so "score >= s" and "score >= s + 1", the two tests that
/// close the interval, are often among them); after it, a thread takes the test the sequential
/// search would run next, and if another thread is already running it, joins that test, in
/// its own move order with [`ScoreFeatures::scramble`] (Lazy SMP), in the first thread's
/// otherwise (ABDADA, [`ScoreFeatures::defer`], then splits the work). A test whose
/// threshold another result has already decided is abandoned. Each result narrows the interval
/// by its fail-soft value, and the table's bounds hold whatever the window, so every thread
/// profits from the others' entries. The score is the one of one thread.
pub struct AlphaBetaScore {
    tt: TranspositionTable<ScoreEntry>,
    threads: usize,
    features: ScoreFeatures,
    /// [`SolverOptions::helper_join`].
    helper_join: u64,
    /// The helpers' threads (with more than one thread), made before the first solve's clock
    /// starts, as the table is made before it: made when helpers first joined, the spawning
    /// was timed as part of that solve (about 0.1 ms in this virtual machine, more than a
    /// whole solve of most of Connect Four's middle-game positions).
    pool: Option<rayon::ThreadPool>,
    /// Whether the first guess and each root test are logged on standard error.
    log: bool,
    /// The threads' [`Scratch`] of the last solve, kept for the next (a `Scratch<G>` each;
    /// a solve of another game makes new ones).
    scratch: Mutex<Vec<Box<dyn std::any::Any + Send>>>,
}

impl std::fmt::Debug for AlphaBetaScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaScore")
            .field("slots", &self.tt.capacity())
            .field("threads", &self.threads)
            .field("features", &self.features)
            .finish_non_exhaustive()
    }
}

impl AlphaBetaScore {
    /// A solver with `options.threads` threads and an `options.tt_mib` MiB table.
    pub fn new(options: &SolverOptions) -> Self {
        AlphaBetaScore {
            tt: TranspositionTable::new(options.tt_mib),
            threads: options.threads.max(1),
            features: ScoreFeatures::default(),
            helper_join: options.helper_join.unwrap_or(crate::search::SCORE_HELPER_JOIN_DEFAULT),
            pool: None,
            log: false,
            scratch: Mutex::new(Vec::new()),
        }
    }

    /// The same solver with the refinements `features` (to measure what each gives).
    #[must_use]
    pub fn with_features(mut self, features: ScoreFeatures) -> Self {
        self.features = features;
        self
    }

    /// The same solver logging its first guess and each root test (threshold, fail-soft
    /// value, nodes, time) on standard error when `log` (off by default).
    #[must_use]
    pub fn with_log(mut self, log: bool) -> Self {
        self.log = log;
        self
    }
}

/// What the threads of one solve share besides the table.
pub(super) struct Shared {
    interval: Mutex<Interval>,
    /// Copies of the interval's ends, read by running tests to see whether they still matter.
    pub(super) lo: AtomicI32,
    pub(super) hi: AtomicI32,
    /// Nodes of all threads, as last reported.
    pub(super) nodes: AtomicU64,
    /// A limit was reached: every thread stops.
    pub(super) stop: AtomicBool,
    threads: usize,
    /// Busy marks of the children being searched, salted by the threshold of their test
    /// ([`BUSY_SALT`]); made when the helpers start (a solve the first thread finishes alone
    /// makes none, and marks nothing while it is alone).
    pub(super) busy: OnceLock<Busy>,
}

/// Log2 of the number of [`Shared::busy`] counters.
pub(super) const BUSY_BITS: u32 = 12;
/// Mixes the threshold of a test into its [`Shared::busy`] marks.
pub(super) const BUSY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

impl Shared {
    /// The state of a solve on `threads` threads whose root value lies in `lo..=hi`.
    fn new(lo: i32, hi: i32, threads: usize) -> Self {
        Shared {
            interval: Mutex::new(Interval::new(lo, hi, threads)),
            lo: AtomicI32::new(lo),
            hi: AtomicI32::new(hi),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            threads,
            busy: OnceLock::new(),
        }
    }

    /// Whether the test "score >= t" is still undecided.
    fn open(&self, t: i32) -> bool {
        self.lo.load(Ordering::Relaxed) < t && t <= self.hi.load(Ordering::Relaxed)
    }
}

/// One thread's search.
pub(super) struct Worker<'a, G: Game> {
    tt: &'a TranspositionTable<ScoreEntry>,
    shared: &'a Shared,
    limits: &'a Limits,
    features: ScoreFeatures,
    start: Instant,
    stats: Stats,
    /// When the nodes were last added to [`Shared::nodes`].
    polling: NodePoll,
    /// The current test must end (a limit, or its threshold is decided).
    stopped: bool,
    /// The threshold of the current test.
    threshold: i32,
    /// Scramble of the move order's ties (0 for the first thread, and for every thread
    /// without [`ScoreFeatures::scramble`]).
    salt: u32,
    /// Per ply: whether the last node expanded there had only finished children, and a child
    /// buffer reused from node to node ([`Scratch::buffers`]).
    buffers: Vec<(bool, Vec<Child<G>>)>,
    /// Work below the cutoffs per (side, move) ([`ScoreFeatures::history`]).
    history: HistoryTable<u32>,
    /// Per ply: the last two distinct moves that cut a node off there
    /// ([`ScoreFeatures::killer`]).
    killers: Killers<G::Move>,
    /// Each root test is logged on standard error ([`AlphaBetaScore::with_log`]).
    log: bool,
}

impl<'a, G: Scored> Worker<'a, G> {
    fn new(
        tt: &'a TranspositionTable<ScoreEntry>,
        shared: &'a Shared,
        limits: &'a Limits,
        features: ScoreFeatures,
        start: Instant,
        id: usize,
        log: bool,
    ) -> Self {
        Worker {
            tt,
            shared,
            limits,
            features,
            start,
            stats: Stats::default(),
            polling: NodePoll::new(CHECK_INTERVAL),
            stopped: false,
            threshold: 0,
            salt: if features.scramble { (id as u32).wrapping_mul(0x9E37_79B9) } else { 0 },
            buffers: Vec::new(),
            // Unused without the feature: no slots, so a small solve allocates nothing.
            history: if features.history {
                HistoryTable::new(HISTORY_BITS, true)
            } else {
                HistoryTable::none()
            },
            killers: Killers::new(),
            log,
        }
    }

    /// The same worker with the buffers and killers of `scratch`, emptied (a kept scratch
    /// holds the last solve's).
    pub(super) fn with_scratch(mut self, scratch: Scratch<G>) -> Self {
        self.buffers = scratch.buffers;
        for (leafy, children) in &mut self.buffers {
            *leafy = false;
            children.clear();
        }
        self.killers = scratch.killers;
        self.killers.clear();
        self
    }

    /// The worker's buffers and killers, to keep for the next solve.
    pub(super) fn into_scratch(self) -> Scratch<G> {
        Scratch { buffers: self.buffers, killers: self.killers }
    }

    /// Records `mv`, which cut a node off at `ply`, as the newest killer there (with
    /// [`ScoreFeatures::killer`]; without it nobody reads them).
    #[inline]
    fn note_killer(&mut self, mv: G::Move, ply: u32) {
        if self.features.killer {
            self.killers.note(mv, ply);
        }
    }

    /// The table key of `pos`.
    #[inline]
    fn key(&self, pos: &G) -> u64 {
        if self.features.symmetry { pos.canonical_hash() } else { pos.hash() }
    }

    /// Every [`CHECK_INTERVAL`] nodes: reports the nodes, looks at the limits and (with
    /// threads) at whether the current test is still undecided.
    #[inline]
    fn check(&mut self) {
        if !self.polling.due(self.stats.nodes) {
            return;
        }
        let (shared, limits, start) = (self.shared, self.limits, self.start);
        let exceeded = |total| limits.is_exceeded(total, start);
        if self.polling.poll(self.stats.nodes, &shared.nodes, &shared.stop, exceeded)
            || (shared.threads > 1 && !shared.open(self.threshold))
        {
            self.stopped = true;
        }
    }

    /// Records that `mv` cut off a node at `ply` after its search grew the node count from
    /// `before`: the newest killer there, and (with history) the work in its slot.
    fn note_cutoff(&mut self, ply: u32, mv: G::Move, before: u64) {
        self.note_killer(mv, ply);
        if self.features.history {
            let work = (self.stats.nodes - before).min(u64::from(u32::MAX));
            let h = self.history.get_mut(&mv, ply);
            *h = h.saturating_add(work as u32);
        }
    }

    /// Fail-soft negamax of `pos`, whose table key is `key`: a value `v` with `v <= alpha` an
    /// upper bound, `v >= beta` a lower bound, else exact. Returns the best move index too;
    /// `None` when stopped.
    ///
    /// Children are played once, the ply's killer move first, then in generation order: a
    /// finished child is scored at once (and may cut the node off before the rest are even
    /// played); the others are looked up in the table (enhanced transposition cutoffs), then
    /// searched, the table's move first, then by lowest [`Scored::order_estimate`], then the
    /// killer, then by history. A node whose children all finished the game is cheap to redo
    /// and is neither stored nor, at the same ply later, looked up (in games where every line
    /// at a ply has the same length, such as Gauss, that removes the whole last layer from the
    /// table); at such a ply the children are scored with [`Scored::final_score_after`] without
    /// building them, or bounded ([`ScoreFeatures::bound`]).
    ///
    /// The node as named steps: [`Self::probe`], [`Self::plan`], [`Self::children`] (which
    /// runs [`Self::expand`], [`Self::transposition_cutoff`] and [`Self::search_children`]),
    /// then [`Self::store`].
    fn node(&mut self, pos: &G, key: u64, alpha: i32, beta: i32, ply: u32) -> Option<(i32, u8)> {
        let (alpha, beta) = match self.enter(pos, alpha, beta, ply) {
            ControlFlow::Continue(window) => window,
            ControlFlow::Break(settled) => return settled,
        };
        let p = ply as usize;
        if self.buffers.len() <= p + 1 {
            self.buffers.resize_with(p + 2, || (false, Vec::new()));
        }
        let probed = !self.buffers[p].0;
        let (probe, mut window) = match self.probe(key, probed, ply, (alpha, beta)) {
            ControlFlow::Continue(opened) => opened,
            ControlFlow::Break(settled) => return Some(settled),
        };
        let mut moves = G::Moves::default();
        pos.score_moves(&mut moves);
        let plan = self.plan(&moves, ply, probe.tt_move);
        let mut children = std::mem::take(&mut self.buffers[p].1);
        children.clear();
        let all_finished = self.children(pos, ply, &moves, &plan, &mut window, &mut children);
        self.buffers[p].1 = children;
        if all_finished? && !probe.probed {
            return Some(window.best);
        }
        self.store(&probe, &window);
        Some(window.best)
    }

    /// The start of every node: counts it; then [`ControlFlow::Break`] with its value if the
    /// game is over or the game's bounds settle it (a window outside them, or `lo == hi`; not
    /// at the root, whose interval starts within them), with `None` if the search must stop;
    /// else the window `(alpha, beta)` narrowed to those bounds.
    #[inline]
    fn enter(
        &mut self,
        pos: &G,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> ControlFlow<Option<(i32, u8)>, (i32, i32)> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if let Some(s) = pos.final_score() {
            return ControlFlow::Break(Some((s, NO_MOVE)));
        }
        self.check();
        if self.stopped {
            return ControlFlow::Break(None);
        }
        if ply == 0 {
            return ControlFlow::Continue((alpha, beta));
        }
        let (lo, hi) = pos.score_range();
        if hi <= alpha || lo == hi {
            return ControlFlow::Break(Some((hi, NO_MOVE)));
        }
        if lo >= beta {
            return ControlFlow::Break(Some((lo, NO_MOVE)));
        }
        ControlFlow::Continue((alpha.max(lo), beta.min(hi)))
    }

    /// Looks the node of table key `key` up if `probed` (the regular node skips it where the
    /// last node at its ply had only finished children):
    /// [`ControlFlow::Break`] with its value and move when the table settles it (never at the
    /// root), else the entry and the node's window: `(alpha, beta)` narrowed to its bounds,
    /// with no child yet.
    #[inline]
    fn probe(
        &mut self,
        key: u64,
        probed: bool,
        ply: u32,
        (alpha, beta): (i32, i32),
    ) -> ControlFlow<(i32, u8), (Probe, Window)> {
        let bound = G::SCORE_BOUND;
        let key = if probed { key } else { 0 };
        let mut window = Window { alpha, beta, best: (i32::MIN, NO_MOVE) };
        let mut probe = Probe {
            probed,
            key,
            lower: -bound,
            upper: bound,
            tt_move: NO_MOVE,
            alpha0: alpha,
            nodes_before: self.stats.nodes,
        };
        if probed && let Some(e) = self.tt.probe(key, &mut self.stats.tt) {
            (probe.lower, probe.upper) = (i32::from(e.lower), i32::from(e.upper));
            probe.tt_move = e.move_index;
            // At the root the move must be one of this position's (a symmetric image stored
            // under the same key numbers its moves differently) and proven by this search: no
            // early return and no narrowed window there (a bound from another thread could
            // invert the window, and a child's upper bound would then pass for a lower one).
            if ply > 0 {
                if probe.lower >= window.beta || probe.lower == probe.upper {
                    return ControlFlow::Break((probe.lower, probe.tt_move));
                }
                if probe.upper <= window.alpha {
                    return ControlFlow::Break((probe.upper, probe.tt_move));
                }
                window.alpha = window.alpha.max(probe.lower);
                window.beta = window.beta.min(probe.upper);
            }
        }
        probe.alpha0 = window.alpha;
        ControlFlow::Continue((probe, window))
    }

    /// The play order of the moves `moves` of a node at `ply` whose table move is `tt_move`,
    /// and which children are searched as soon as they are built.
    fn plan(&self, moves: &G::Moves, ply: u32, tt_move: u8) -> Plan {
        let p = ply as usize;
        let shallow = self.features.shallow && ply + SHALLOW_HEIGHT <= self.stats.max_depth + 1;
        let killers = if self.features.killer {
            let find = |k: Option<G::Move>| k.and_then(|k| moves.iter().position(|&m| m == k));
            self.killers.get(ply).map(find)
        } else {
            [None, None]
        };
        let n = moves.len();
        let eager = self.features.eager;
        let tt_first = (eager && usize::from(tt_move) < n).then_some(usize::from(tt_move));
        let mut order = arrayvec::ArrayVec::new();
        let mut first = 0u64;
        for k in [tt_first, killers[0], killers[1]].into_iter().flatten() {
            if first >> k & 1 == 0 {
                first |= 1 << k;
                order.push(k as u8);
            }
        }
        for i in 0..n {
            if first >> i & 1 == 0 {
                order.push(i as u8);
            }
        }
        Plan {
            order,
            tt_move,
            tt_first,
            killers,
            eager_killers: eager && self.buffers[p + 1].0,
            shallow,
            leafy: self.buffers[p].0,
        }
    }

    /// The children of a node: [`Self::expand`], then, unless that cut the node off,
    /// [`Self::transposition_cutoff`] and [`Self::search_children`] of the unfinished ones.
    /// Returns whether every child finished the game; `None` when stopped.
    fn children(
        &mut self,
        pos: &G,
        ply: u32,
        moves: &G::Moves,
        plan: &Plan,
        window: &mut Window,
        children: &mut Vec<Child<G>>,
    ) -> Option<bool> {
        let p = ply as usize;
        let all_finished = !self.expand(pos, ply, moves, plan, window, children)?;
        self.buffers[p].0 = all_finished;
        if !window.cut() && self.features.etc && !all_finished && !self.buffers[p + 1].0 {
            self.transposition_cutoff(children, window);
        }
        if !window.cut() {
            self.search_children(children, moves, ply, window)?;
        }
        Some(all_finished)
    }

    /// Plays the children in the plan's order, each once: a finished child is scored at once
    /// (where they are expected, without building it), a child [`Plan::at_once`] is searched
    /// at once, the others go to `children` with their order keys. Stops at a cutoff. Returns
    /// whether some child is unfinished; `None` when stopped.
    fn expand(
        &mut self,
        pos: &G,
        ply: u32,
        moves: &G::Moves,
        plan: &Plan,
        window: &mut Window,
        children: &mut Vec<Child<G>>,
    ) -> Option<bool> {
        let mut unfinished = false;
        // Where every move ends the game, the game may bound some of them without scoring.
        let bound =
            if plan.leafy && self.features.bound { pos.final_bound(window.alpha) } else { None };
        for &i in &plan.order {
            let i = usize::from(i);
            let mv = moves[i];
            // A bounded move is worth at most alpha: it cannot cut the node off, and the best
            // value stays an upper bound if the node fails low.
            let leaf = match bound {
                Some(b) if pos.final_at_most(mv) => Some(-b),
                _ if plan.leafy => pos.final_score_after(mv),
                _ => None,
            };
            // The child is built in its slot of `children` (a position is copied once, not
            // moved through temporaries), and taken out again if it ends the game.
            let finished = leaf.or_else(|| {
                children.push(Child { rank: 0, key: 0, index: i as u8, pos: pos.clone() });
                let child = &mut children.last_mut().expect("just pushed").pos;
                child.play(mv);
                let s = child.final_score();
                if s.is_some() {
                    children.pop();
                }
                s
            });
            if let Some(s) = finished {
                self.stats.nodes += 1;
                if window.raise(-s, i as u8) {
                    self.note_killer(mv, ply);
                    break;
                }
                continue;
            }
            unfinished = true;
            if plan.at_once(i) {
                // If it cuts the node off, the other children are never played.
                let cut = {
                    let child = &children.last().expect("just pushed").pos;
                    self.search_child(child, self.key(child), i as u8, mv, ply, window)?
                };
                children.pop();
                if cut {
                    break;
                }
                continue;
            }
            let child = children.last_mut().expect("just pushed");
            self.keep(child, mv, ply, plan);
        }
        Some(unfinished)
    }

    /// Sets the order keys of the unfinished child `child` of move `mv`: the table's move
    /// first, then by estimate (or shallow search), the killers, history, the tie-break.
    #[inline]
    fn keep(&mut self, child: &mut Child<G>, mv: G::Move, ply: u32, plan: &Plan) {
        let i = usize::from(child.index);
        child.key = self.key(&child.pos);
        let order = if i == usize::from(plan.tt_move) {
            i32::MIN
        } else if plan.shallow {
            let mut guess_nodes = 0;
            let bound = G::SCORE_BOUND + 1;
            let v = guess(&child.pos, SHALLOW_DEPTH, -bound, bound, &mut guess_nodes);
            self.stats.nodes += guess_nodes;
            v
        } else {
            child.pos.order_estimate()
        };
        let history = if Some(i) == plan.killers[0] {
            u32::MAX
        } else if Some(i) == plan.killers[1] {
            u32::MAX - 1
        } else if self.features.history {
            self.history.get(&mv, ply)
        } else {
            0
        };
        let tie = (i as u32).wrapping_mul(0x2545_F491) ^ self.salt;
        let tie = if self.salt == 0 { i as u32 } else { tie };
        child.rank = rank(order, history, tie);
    }

    /// Enhanced transposition cutoff: each child is worth at most its stored upper bound to
    /// its mover, so at least the negation to this node's mover; stops at a cutoff.
    fn transposition_cutoff(&mut self, children: &[Child<G>], window: &mut Window) {
        // Every child's bucket is fetched at once, so their cache misses overlap.
        for c in children {
            self.tt.prefetch(c.key);
        }
        for c in children {
            let Some(e) = self.tt.probe(c.key, &mut self.stats.tt) else {
                continue;
            };
            if window.raise(-i32::from(e.upper), c.index) {
                break;
            }
        }
    }

    /// The busy marks children at `ply` are deferred by ([`ScoreFeatures::defer`]): only
    /// threads defer busy children, once the helpers have started, and not near the leaves.
    #[inline]
    fn busy_marks(&self, ply: u32) -> Option<&'a Busy> {
        if self.features.defer && ply + DEFER_HEIGHT <= self.stats.max_depth {
            self.shared.busy.get()
        } else {
            None
        }
    }

    /// Searches the kept children in order until one cuts the node off. With threads, a
    /// child another thread is searching waits until the others are done (ABDADA's exclusive
    /// search), once this node has a value from some child. `None` when stopped.
    fn search_children(
        &mut self,
        children: &mut [Child<G>],
        moves: &G::Moves,
        ply: u32,
        window: &mut Window,
    ) -> Option<()> {
        let busy = self.busy_marks(ply);
        let mut deferred: arrayvec::ArrayVec<u8, 64> = arrayvec::ArrayVec::new();
        let mut searched = window.best.0 != i32::MIN;
        for k in 0..children.len() {
            select_next(children, k);
            let c = &children[k];
            let mark = match busy {
                Some(busy) if searched && !deferred.is_full() => {
                    // Marked per test: a thread testing another threshold does not wait.
                    let ck = c.key ^ (self.threshold as u64).wrapping_mul(BUSY_SALT);
                    if busy.is_busy(ck) {
                        deferred.push(k as u8);
                        continue;
                    }
                    busy.enter(ck);
                    Some((busy, ck))
                }
                _ => None,
            };
            searched = true;
            let mv = moves[usize::from(c.index)];
            let cut = self.search_child(&c.pos, c.key, c.index, mv, ply, window);
            if let Some((busy, ck)) = mark {
                busy.leave(ck);
            }
            if cut? {
                return Some(());
            }
        }
        for &k in &deferred {
            let c = &children[usize::from(k)];
            let mv = moves[usize::from(c.index)];
            if self.search_child(&c.pos, c.key, c.index, mv, ply, window)? {
                break;
            }
        }
        Some(())
    }

    /// Searches the child `child` (table key `key`) of move `mv` (index `index`) of a node at
    /// `ply` and takes its value into the node's window; returns whether it cuts the node off (recording the
    /// cutoff), `None` when stopped.
    #[inline]
    fn search_child(
        &mut self,
        child: &G,
        key: u64,
        index: u8,
        mv: G::Move,
        ply: u32,
        window: &mut Window,
    ) -> Option<bool> {
        let before = self.stats.nodes;
        let (v, _) = self.node(child, key, -window.beta, -window.alpha, ply + 1)?;
        let cut = window.raise(-v, index);
        if cut {
            self.note_cutoff(ply, mv, before);
        }
        Some(cut)
    }

    /// Stores the node's result, `window.best` against the window `(probe.alpha0,
    /// window.beta)` it was searched with, merged with the bounds `probe` read.
    fn store(&mut self, probe: &Probe, window: &Window) {
        let (alpha0, nodes_before) = (probe.alpha0, probe.nodes_before);
        let (mut lower, mut upper) = (probe.lower, probe.upper);
        let best = window.best.0;
        if best >= window.beta {
            lower = lower.max(best);
        } else if best <= alpha0 {
            upper = upper.min(best);
        } else {
            (lower, upper) = (best, best);
        }
        let work = (self.stats.nodes - nodes_before).max(1).ilog2() as u8;
        let entry = ScoreEntry {
            lower: lower as i16,
            upper: upper as i16,
            move_index: window.best.1,
            work,
        };
        self.tt.store(probe.key, entry, &mut self.stats.tt);
    }

    /// Runs root tests until the score is known or the search must stop; returns this
    /// thread's statistics.
    fn run(&mut self, root: &G, estimate: i32, id: usize) -> Stats {
        loop {
            let t = {
                let mut interval = self.shared.interval.lock().expect("no thread panicked");
                let Some(t) = interval.choose(estimate, self.features.mtdf) else { break };
                interval.testing[id] = Some(t);
                t
            };
            self.threshold = t;
            self.stopped = false;
            let before = self.stats.nodes;
            let result = if self.features.lean {
                self.lean_node(root, self.key(root), t - 1, t, 0)
            } else {
                self.node(root, self.key(root), t - 1, t, 0)
            };
            let mut interval = self.shared.interval.lock().expect("no thread panicked");
            interval.testing[id] = None;
            if self.log {
                let v = result.map_or_else(|| "stopped".to_string(), |(v, _)| v.to_string());
                eprintln!(
                    "score test t{id}: score >= {t}: value {v}, {} nodes, at {:.3} s",
                    self.stats.nodes - before,
                    self.start.elapsed().as_secs_f64()
                );
            }
            match result {
                Some((v, i)) => {
                    interval.record(t, v, i);
                    self.shared.lo.store(interval.lo, Ordering::Relaxed);
                    self.shared.hi.store(interval.hi, Ordering::Relaxed);
                }
                None if self.shared.stop.load(Ordering::Relaxed) => break,
                None => {}
            }
        }
        self.stats
    }
}

/// The report of a root whose [`Scored::score_range`] is exactly `score`, if one of its
/// `moves` ends the game with that score (Connect Four's immediate wins, most of its easiest
/// positions, as Pons' `solve` answers them before any search); `None` otherwise, and the
/// search finds the move. Counts the root and the children played as nodes.
fn settled_root<G: Scored>(
    root: &G,
    moves: &G::Moves,
    score: i32,
    start: Instant,
) -> Option<ScoreReport<G::Move>> {
    for (nodes, &mv) in (2..).zip(moves.iter()) {
        if root.final_score_after(mv) == Some(-score) {
            let stats = Stats { nodes, elapsed: start.elapsed(), ..Stats::default() };
            return Some(ScoreReport { score: Some(score), best_move: Some(mv), stats });
        }
    }
    None
}

impl<G: Scored> ScoreSolver<G> for AlphaBetaScore {
    /// The time counts from after the table is cleared (as Pons' benchmark resets his table
    /// outside the timing).
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        self.tt.clear();
        if self.threads > 1 && self.pool.is_none() {
            self.pool = Some(crate::search::thread_pool(self.threads - 1));
        }
        let start = Instant::now();
        debug_assert!(G::ACYCLIC, "score solvers need a game without cycles");
        if let Some(s) = root.final_score() {
            let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
            return ScoreReport { score: Some(s), best_move: None, stats };
        }
        let mut moves = G::Moves::default();
        root.score_moves(&mut moves);
        let bound = G::SCORE_BOUND;
        // The game's bounds on the root's value; one below `lo`, so that the test that proves
        // it also finds a move achieving it (with `lo` at `-bound` every move achieves it).
        let (root_lo, root_hi) = root.score_range();
        if root_lo == root_hi
            && let Some(report) = settled_root(root, &moves, root_lo, start)
        {
            return report;
        }
        let (root_lo, root_hi) = ((root_lo - 1).max(-bound), root_hi.min(bound));
        let threads = self.threads;
        let shared = Shared::new(root_lo, root_hi, threads);
        let mut guess_nodes = 0;
        let estimate = if self.features.guess {
            guess(root, guess_depth(root), -bound - 1, bound + 1, &mut guess_nodes)
                .clamp(-bound, bound)
        } else {
            root.score_estimate()
        };
        shared.nodes.store(guess_nodes, Ordering::Relaxed);
        let log = self.log;
        if log {
            eprintln!("score guess {estimate} ({guess_nodes} nodes)");
        }
        let (tt, features, scratch) = (&self.tt, self.features, &self.scratch);
        let run = |id: usize, limits: &Limits| {
            let done = || {
                shared.stop.load(Ordering::Relaxed)
                    || shared.lo.load(Ordering::Relaxed) >= shared.hi.load(Ordering::Relaxed)
            };
            if !super::super::wait_to_join(id, self.helper_join, &shared.nodes, done) {
                return Stats::default();
            }
            worker_run(
                scratch,
                Worker::<G>::new(tt, &shared, limits, features, start, id, log),
                |w| w.run(root, estimate, id),
            )
        };
        let mut stats = Stats { nodes: guess_nodes, ..Stats::default() };
        let outputs = if threads == 1 {
            vec![run(0, limits)]
        } else {
            run_threads(&mut self.pool, threads, self.helper_join, &shared, limits, start, &run)
        };
        for s in &outputs {
            stats.absorb(s);
        }
        stats.elapsed = start.elapsed();
        let interval = shared.interval.into_inner().expect("no thread panicked");
        let score = (interval.lo >= interval.hi).then_some(interval.lo);
        // With `lo` the trivial bound every move achieves it.
        let best = interval.best.map_or(Some(0), |i| Some(usize::from(i)));
        let best_move = score.and(best.and_then(|i| moves.get(i).copied()));
        ScoreReport { score, best_move, stats }
    }
}
