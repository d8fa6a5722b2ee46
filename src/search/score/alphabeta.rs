//! [`AlphaBetaScore`]: fail-soft negamax over scores on the shared table, driven at the root by null-window tests (MTD(f) steps and bisection), with threads testing thresholds side by side.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Nodes between two looks at the limits (and, with threads, at whether the test still
/// matters).
pub(super) const CHECK_INTERVAL: u64 = 1024;

/// Bits of a move's slot in the history table.
pub(super) const HISTORY_BITS: u32 = 10;

/// Fail-soft alpha-beta over scores with a table, on one or several threads; see the
/// [module docs](super).
///
/// With `threads > 1` every thread runs null-window tests of the root on the one shared table.
/// Before the first result they test the guess and its nearest neighbours side by side (the
/// guess is usually within a point, so "score >= s" and "score >= s + 1", the two tests that
/// close the interval, are often among them); after it, a thread takes the test the sequential
/// search would run next, and if another thread is already running it, joins that test in its
/// own move order (Lazy SMP). A test whose
/// threshold another result has already decided is abandoned. Each result narrows the interval
/// by its fail-soft value, and the table's bounds hold whatever the window, so every thread
/// profits from the others' entries. The score is the one of one thread.
pub struct AlphaBetaScore {
    tt: TranspositionTable<ScoreEntry>,
    threads: usize,
    features: ScoreFeatures,
    /// [`SolverOptions::helper_join`].
    helper_join: u64,
    /// Built by the first parallel solve.
    pool: Option<rayon::ThreadPool>,
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
            helper_join: options.helper_join,
            pool: None,
        }
    }

    /// The same solver with the refinements `features` (to measure what each gives).
    #[must_use]
    pub fn with_features(mut self, features: ScoreFeatures) -> Self {
        self.features = features;
        self
    }
}

/// The root interval and the tests running on it, shared by the threads of one solve.
pub(super) struct Interval {
    /// The score is in `lo..=hi`.
    lo: i32,
    hi: i32,
    /// Index of a root move achieving at least `lo` (`None` while `lo` is the trivial bound).
    best: Option<u8>,
    /// Test results recorded so far.
    results: u32,
    /// Whether the last result raised `lo` (it lowered `hi` otherwise).
    last_high: bool,
    /// The threshold each thread is testing.
    testing: Vec<Option<i32>>,
}

impl Interval {
    /// The next threshold `t` (the test "score >= t") for a thread, or `None` once the score
    /// is known.
    fn choose(&mut self, estimate: i32, mtdf: bool) -> Option<i32> {
        let (lo, hi) = (self.lo, self.hi);
        if lo >= hi {
            return None;
        }
        // Before the first result every thread tests near the estimate (the first the
        // estimate itself, the others its neighbours), not at the far ends of the interval.
        let guess = if self.results == 0 {
            estimate
        } else if mtdf {
            if self.last_high { lo + 1 } else { hi }
        } else {
            lo + (hi - lo + 1) / 2
        }
        .clamp(lo + 1, hi);
        let taken = |t: i32| self.testing.contains(&Some(t));
        if self.results > 0 && taken(guess) {
            // The next test of the sequential search is running: join it (in this thread's own
            // move order) rather than start a farther one, which the fail-soft values seldom
            // make useful.
            return Some(guess);
        }
        // Lower thresholds first: a test the score passes ("score >= t" true) is usually far
        // cheaper than one it fails, so a wasted guess below costs little; and the first guess
        // was more often above the score than below it (4 and 1 of 10 positions with 12
        // placements left).
        for step in 0..=hi - lo {
            for t in [guess - step, guess + step] {
                if lo < t && t <= hi && !taken(t) {
                    return Some(t);
                }
            }
        }
        Some(guess)
    }

    /// Takes in the fail-soft value `v` of the test `t` and the root move index it found.
    fn record(&mut self, t: i32, v: i32, move_index: u8) {
        self.results += 1;
        if v >= t {
            self.last_high = true;
            if v > self.lo {
                self.lo = v;
                self.best = Some(move_index);
            }
        } else {
            self.last_high = false;
            self.hi = self.hi.min(v);
        }
        debug_assert!(self.lo <= self.hi, "inconsistent bounds {} > {}", self.lo, self.hi);
    }
}

/// What the threads of one solve share besides the table.
pub(super) struct Shared {
    interval: Mutex<Interval>,
    /// Copies of the interval's ends, read by running tests to see whether they still matter.
    lo: AtomicI32,
    hi: AtomicI32,
    /// Nodes of all threads, as last reported.
    nodes: AtomicU64,
    /// A limit was reached: every thread stops.
    stop: AtomicBool,
    threads: usize,
    /// Keys of positions some thread is searching, by slot.
    busy: Vec<AtomicU64>,
}

/// Slots of [`Shared::busy`] (a power of two).
pub(super) const BUSY_SLOTS: usize = 1 << 12;
/// Mixes the threshold of a test into its [`Shared::busy`] marks.
pub(super) const BUSY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

impl Shared {
    /// Whether another thread is searching the position of key `key`.
    fn is_busy(&self, key: u64) -> bool {
        self.busy[key as usize & (BUSY_SLOTS - 1)].load(Ordering::Relaxed) == key
    }

    /// Marks the position of `key` as being searched.
    fn set_busy(&self, key: u64) {
        self.busy[key as usize & (BUSY_SLOTS - 1)].store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key` (if no other position took its slot since).
    fn clear_busy(&self, key: u64) {
        let _ = self.busy[key as usize & (BUSY_SLOTS - 1)].compare_exchange(
            key,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Whether the test "score >= t" is still undecided.
    fn open(&self, t: i32) -> bool {
        self.lo.load(Ordering::Relaxed) < t && t <= self.hi.load(Ordering::Relaxed)
    }
}

/// A not finished child in a node's buffer.
pub(super) struct Child<G> {
    /// Order key: the table's move first, then lower [`Scored::order_estimate`]s.
    order: i32,
    /// History score (larger first among equal `order`).
    history: u32,
    /// Tie-break (the move index, or a per-thread scramble of it for helpers).
    tie: u32,
    /// Index of the move in the generated list.
    index: u8,
    pos: G,
}

/// One thread's search.
pub(super) struct Worker<'a, G: Game> {
    tt: &'a TranspositionTable<ScoreEntry>,
    shared: &'a Shared,
    limits: &'a Limits,
    features: ScoreFeatures,
    start: Instant,
    stats: Stats,
    /// Nodes already added to [`Shared::nodes`].
    counted: u64,
    /// The current test must end (a limit, or its threshold is decided).
    stopped: bool,
    /// The threshold of the current test.
    threshold: i32,
    /// Scramble of the move order's ties (0 for the first thread).
    salt: u32,
    /// Per ply: whether the last node expanded there had only finished children, and a child
    /// buffer reused from node to node.
    buffers: Vec<(bool, Vec<Child<G>>)>,
    /// Cutoff counts per (side parity, move slot).
    history: Vec<u32>,
    /// Per ply: the last two distinct moves that cut a node off there, newest first
    /// ([`ScoreFeatures::killer`]).
    killers: Vec<[Option<G::Move>; 2]>,
    /// Each root test is logged on standard error (`BITSOLVE_SCORE_LOG` set).
    log: bool,
}

/// A cheap hasher for a move's history slot.
pub(super) struct SlotHasher(u64);

impl std::hash::Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// Takes the value `v` of the child with move index `index` into a node's best value and
/// move and its `alpha`; returns whether it cuts the node off (`v >= beta`).
#[inline]
pub(super) fn raise(best: &mut (i32, u8), alpha: &mut i32, beta: i32, v: i32, index: u8) -> bool {
    if v <= best.0 {
        return false;
    }
    *best = (v, index);
    *alpha = (*alpha).max(v);
    v >= beta
}

/// The history slot of `mv` for the mover at `ply`.
pub(super) fn history_slot<M: std::hash::Hash>(mv: &M, ply: u32) -> usize {
    let mut h = SlotHasher(0x243F_6A88_85A3_08D3);
    mv.hash(&mut h);
    let slot = (std::hash::Hasher::finish(&h) >> (64 - HISTORY_BITS)) as usize;
    slot | (ply as usize & 1) << HISTORY_BITS
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
            counted: 0,
            stopped: false,
            threshold: 0,
            salt: (id as u32).wrapping_mul(0x9E37_79B9),
            buffers: Vec::new(),
            history: vec![0; 2 << HISTORY_BITS],
            killers: Vec::new(),
            log,
        }
    }

    /// The table key of `pos`.
    #[inline]
    fn key(&self, pos: &G) -> u64 {
        if self.features.symmetry { pos.canonical_hash() } else { pos.hash() }
    }

    /// Every [`CHECK_INTERVAL`] nodes: reports the nodes, looks at the limits and (with
    /// threads) at whether the current test is still undecided.
    fn check(&mut self) {
        let fresh = self.stats.nodes - self.counted;
        if fresh < CHECK_INTERVAL {
            return;
        }
        self.counted = self.stats.nodes;
        let total = self.shared.nodes.fetch_add(fresh, Ordering::Relaxed) + fresh;
        if self.shared.stop.load(Ordering::Relaxed) || self.limits.is_exceeded(total, self.start) {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        } else if self.shared.threads > 1 && !self.shared.open(self.threshold) {
            self.stopped = true;
        }
    }

    /// Records `mv` as the newest killer of ply `p`.
    fn note_killer(&mut self, p: usize, mv: G::Move) {
        let k = &mut self.killers[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Records that `mv` cut off a node at `ply` (index `p`) after its search grew the node
    /// count from `before`: the newest killer there, and (with history) the work in its slot.
    fn note_cutoff(&mut self, p: usize, ply: u32, mv: G::Move, before: u64) {
        self.note_killer(p, mv);
        if self.features.history {
            let slot = history_slot(&mv, ply);
            let work = (self.stats.nodes - before).min(u64::from(u32::MAX));
            self.history[slot] = self.history[slot].saturating_add(work as u32);
        }
    }

    /// Fail-soft negamax: a value `v` with `v <= alpha` an upper bound, `v >= beta` a lower
    /// bound, else exact. Returns the best move index too; `None` when stopped.
    ///
    /// Children are played once, the ply's killer move first, then in generation order: a
    /// finished child is scored at once (and may cut the node off before the rest are even
    /// played); the others are looked up in the table (enhanced transposition cutoffs), then
    /// searched, the table's move first, then by lowest [`Scored::order_estimate`], then the
    /// killer, then by history. A node whose children all finished the game is cheap to redo
    /// and is neither stored nor, at the same ply later, looked up (in games where every line
    /// at a ply has the same length, such as Gauss, that removes the whole last layer from the
    /// table); at such a ply the children are scored with [`Scored::final_score_after`],
    /// without building them.
    #[allow(clippy::too_many_lines, reason = "one node: probe, children, ETC, search, store")]
    fn node(&mut self, pos: &G, mut alpha: i32, mut beta: i32, ply: u32) -> Option<(i32, u8)> {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if let Some(s) = pos.final_score() {
            return Some((s, NO_MOVE));
        }
        self.check();
        if self.stopped {
            return None;
        }
        let p = ply as usize;
        if self.buffers.len() <= p + 1 {
            self.buffers.resize_with(p + 2, || (false, Vec::new()));
            self.killers.resize(p + 2, [None; 2]);
        }
        let bound = G::SCORE_BOUND;
        let (mut lower, mut upper, mut tt_move) = (-bound, bound, NO_MOVE);
        let probe = !self.buffers[p].0;
        let key = if probe { self.key(pos) } else { 0 };
        if probe && let Some(e) = self.tt.probe(key, &mut self.stats.tt) {
            (lower, upper, tt_move) = (i32::from(e.lower), i32::from(e.upper), e.move_index);
            // At the root the move must be one of this position's (a symmetric image stored
            // under the same key numbers its moves differently) and proven by this search: no
            // early return and no narrowed window there (a bound from another thread could
            // invert the window, and a child's upper bound would then pass for a lower one).
            if ply > 0 {
                if lower >= beta || lower == upper {
                    return Some((lower, tt_move));
                }
                if upper <= alpha {
                    return Some((upper, tt_move));
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let nodes_before = self.stats.nodes;
        let alpha0 = alpha;
        let mut best = (i32::MIN, NO_MOVE);
        let mut children = std::mem::take(&mut self.buffers[p].1);
        children.clear();
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        let shallow = self.features.shallow && ply + SHALLOW_HEIGHT <= self.stats.max_depth + 1;
        let (killer, killer2) = if self.features.killer {
            let find = |k: Option<G::Move>| k.and_then(|k| moves.iter().position(|&m| m == k));
            (find(self.killers[p][0]), find(self.killers[p][1]))
        } else {
            (None, None)
        };
        let n = moves.len();
        let eager = self.features.eager;
        let tt_first = (eager && usize::from(tt_move) < n).then_some(usize::from(tt_move));
        // Whether the children's children all end the game (as far as the last node at the
        // next ply showed): then the killers are searched as soon as they are built.
        let eager_killers = eager && self.buffers[p + 1].0;
        // Play order: the table's move (with `eager`), the killers, then the rest in
        // generation order.
        let mut play_order: arrayvec::ArrayVec<u8, 64> = arrayvec::ArrayVec::new();
        let mut first = 0u64;
        for k in [tt_first, killer, killer2].into_iter().flatten() {
            if first >> k & 1 == 0 {
                first |= 1 << k;
                play_order.push(k as u8);
            }
        }
        for i in 0..n {
            if first >> i & 1 == 0 {
                play_order.push(i as u8);
            }
        }
        let mut unfinished = false;
        let leafy = self.buffers[p].0;
        for &i in &play_order {
            let i = usize::from(i);
            let mv = moves[i];
            // Where the children are expected to finish the game, each is scored without
            // building it; the others are built once.
            let mut built = None;
            let finished = if leafy { pos.final_score_after(mv) } else { None };
            let finished = finished.or_else(|| {
                let mut child = pos.clone();
                child.play(mv);
                let s = child.final_score();
                built = Some(child);
                s
            });
            if let Some(s) = finished {
                self.stats.nodes += 1;
                if raise(&mut best, &mut alpha, beta, -s, i as u8) {
                    self.note_killer(p, mv);
                    break;
                }
            } else {
                unfinished = true;
                let child = built.expect("an unfinished child was built");
                if Some(i) == tt_first
                    || (eager_killers && (Some(i) == killer || Some(i) == killer2))
                {
                    // Searched at once: if it cuts the node off, the other children are
                    // never played.
                    let before = self.stats.nodes;
                    let Some((v, _)) = self.node(&child, -beta, -alpha, ply + 1) else {
                        self.buffers[p].1 = children;
                        return None;
                    };
                    if raise(&mut best, &mut alpha, beta, -v, i as u8) {
                        self.note_cutoff(p, ply, mv, before);
                        break;
                    }
                    continue;
                }
                let order = if i == usize::from(tt_move) {
                    i32::MIN
                } else if shallow {
                    let mut guess_nodes = 0;
                    let bound = G::SCORE_BOUND + 1;
                    let v = guess(&child, SHALLOW_DEPTH, -bound, bound, &mut guess_nodes);
                    self.stats.nodes += guess_nodes;
                    v
                } else {
                    child.order_estimate()
                };
                let history = if Some(i) == killer {
                    u32::MAX
                } else if Some(i) == killer2 {
                    u32::MAX - 1
                } else if self.features.history {
                    self.history[history_slot(&mv, ply)]
                } else {
                    0
                };
                let tie = (i as u32).wrapping_mul(0x2545_F491) ^ self.salt;
                let tie = if self.salt == 0 { i as u32 } else { tie };
                children.push(Child { order, history, tie, index: i as u8, pos: child });
            }
        }
        let all_finished = !unfinished;
        self.buffers[p].0 = all_finished;
        if best.0 < beta && self.features.etc && !all_finished && !self.buffers[p + 1].0 {
            for c in &children {
                let Some(e) = self.tt.probe(self.key(&c.pos), &mut self.stats.tt) else {
                    continue;
                };
                // The child is worth at most its upper bound to its mover: at least the
                // negation to this node's mover.
                let v = -i32::from(e.upper);
                if v > best.0 {
                    best = (v, c.index);
                    alpha = alpha.max(v);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best.0 < beta {
            // With threads, a child another thread is searching waits until the others are
            // done (ABDADA's exclusive search), once this node has a value from some child.
            let defer = self.features.defer
                && self.shared.threads > 1
                && ply + DEFER_HEIGHT <= self.stats.max_depth;
            let mut deferred: arrayvec::ArrayVec<u8, 64> = arrayvec::ArrayVec::new();
            let mut searched = best.0 != i32::MIN;
            let key = |c: &Child<G>| (c.order, std::cmp::Reverse(c.history), c.tie);
            let mut cut = false;
            for k in 0..children.len() {
                // Selection rather than a full sort: most nodes stop after a child or two.
                let mut first = k;
                for j in k + 1..children.len() {
                    if key(&children[j]) < key(&children[first]) {
                        first = j;
                    }
                }
                children.swap(k, first);
                let c = &children[k];
                let mark = if defer && searched && !deferred.is_full() {
                    // Marked per test: a thread testing another threshold does not wait.
                    let ck = self.key(&c.pos) ^ (self.threshold as u64).wrapping_mul(BUSY_SALT);
                    if self.shared.is_busy(ck) {
                        deferred.push(k as u8);
                        continue;
                    }
                    self.shared.set_busy(ck);
                    Some(ck)
                } else {
                    None
                };
                searched = true;
                let before = self.stats.nodes;
                let result = self.node(&c.pos, -beta, -alpha, ply + 1);
                if let Some(ck) = mark {
                    self.shared.clear_busy(ck);
                }
                let Some((v, _)) = result else {
                    self.buffers[p].1 = children;
                    return None;
                };
                if raise(&mut best, &mut alpha, beta, -v, c.index) {
                    self.note_cutoff(p, ply, moves[usize::from(c.index)], before);
                    cut = true;
                    break;
                }
            }
            if !cut {
                for &k in &deferred {
                    let c = &children[usize::from(k)];
                    let before = self.stats.nodes;
                    let Some((v, _)) = self.node(&c.pos, -beta, -alpha, ply + 1) else {
                        self.buffers[p].1 = children;
                        return None;
                    };
                    if raise(&mut best, &mut alpha, beta, -v, c.index) {
                        self.note_cutoff(p, ply, moves[usize::from(c.index)], before);
                        break;
                    }
                }
            }
        }
        self.buffers[p].1 = children;
        if all_finished && !probe {
            return Some(best);
        }
        if best.0 >= beta {
            lower = lower.max(best.0);
        } else if best.0 <= alpha0 {
            upper = upper.min(best.0);
        } else {
            (lower, upper) = (best.0, best.0);
        }
        let work = (self.stats.nodes - nodes_before).max(1).ilog2() as u8;
        let entry =
            ScoreEntry { lower: lower as i16, upper: upper as i16, move_index: best.1, work };
        self.tt.store(key, entry, &mut self.stats.tt);
        Some(best)
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
            let result = self.node(root, t - 1, t, 0);
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

impl<G: Scored> ScoreSolver<G> for AlphaBetaScore {
    fn solve_score(&mut self, root: &G, limits: &Limits) -> ScoreReport<G::Move> {
        let start = Instant::now();
        self.tt.clear();
        debug_assert!(G::ACYCLIC, "score solvers need a game without cycles");
        if let Some(s) = root.final_score() {
            let stats = Stats { nodes: 1, elapsed: start.elapsed(), ..Stats::default() };
            return ScoreReport { score: Some(s), best_move: None, stats };
        }
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let bound = G::SCORE_BOUND;
        let threads = self.threads;
        let shared = Shared {
            interval: Mutex::new(Interval {
                lo: -bound,
                hi: bound,
                best: None,
                results: 0,
                last_high: false,
                testing: vec![None; threads],
            }),
            lo: AtomicI32::new(-bound),
            hi: AtomicI32::new(bound),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            threads,
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        };
        let mut guess_nodes = 0;
        let estimate = if self.features.guess {
            guess(root, guess_depth(root), -bound - 1, bound + 1, &mut guess_nodes)
                .clamp(-bound, bound)
        } else {
            root.score_estimate()
        };
        shared.nodes.store(guess_nodes, Ordering::Relaxed);
        let log = std::env::var_os("BITSOLVE_SCORE_LOG").is_some();
        if log {
            eprintln!("score guess {estimate} ({guess_nodes} nodes)");
        }
        let (tt, features) = (&self.tt, self.features);
        let run = |id: usize| {
            let done = || {
                shared.stop.load(Ordering::Relaxed)
                    || shared.lo.load(Ordering::Relaxed) >= shared.hi.load(Ordering::Relaxed)
            };
            if !super::super::wait_to_join(id, self.helper_join, &shared.nodes, done) {
                return Stats::default();
            }
            Worker::<G>::new(tt, &shared, limits, features, start, id, log).run(root, estimate, id)
        };
        let outputs = if threads == 1 {
            vec![run(0)]
        } else {
            let pool = self.pool.get_or_insert_with(|| super::super::thread_pool(threads));
            pool.broadcast(|context| run(context.index()))
        };
        let mut stats = Stats { nodes: guess_nodes, ..Stats::default() };
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
