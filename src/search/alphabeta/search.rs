//! One thread's search: the negamax node, the root, and the iterative-deepening driver.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::entry::{AlphaBetaEntry, MAX_DEPTH, NO_MOVE, from_node, to_node};
use super::ordering::MoveOrdering;
use crate::game::{Game, MoveList, Outcome};
use crate::search::busy::Busy;
use crate::search::history::repeated_index;
use crate::search::mate::{WIN, loss_in, win_in};
use crate::search::poll::NodePoll;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Stats};

/// Nodes between two looks at the stop flag and the limits.
const CHECK_INTERVAL: u64 = 1024;

/// Nodes per ply of depth the draw questions may spend on top of what the bounded questions
/// spent (few in unit tests, so that abandoned draw questions are exercised).
const DRAW_ALLOWANCE_PER_PLY: u64 = if cfg!(test) { 8 } else { 1024 };

/// Least remaining depth at which a node looks for an enhanced transposition cutoff.
const ETC_MIN_DEPTH: u32 = 3;

/// Least remaining depth at which a node marks itself busy and defers busy children (ABDADA):
/// below it a subtree is too cheap for the shared counters to pay.
const BUSY_MIN_DEPTH: u32 = 3;

/// Log2 of the number of [`Busy`] counters (64 KiB of them).
const BUSY_BITS: u32 = 14;

/// `repetition_ply` of a result that no repetition influenced.
const NO_REPETITION: u32 = u32::MAX;

/// State shared by every thread of one solve.
pub(super) struct Shared {
    /// Set by the first thread to finish, or when a limit is exceeded: everyone stops.
    pub stop: AtomicBool,
    /// Nodes of all threads, flushed every [`CHECK_INTERVAL`] nodes (for the node limit).
    pub nodes: AtomicU64,
    /// Busy marks of the nodes whose children are being searched, when several threads
    /// search (`None` alone: nothing is ever deferred).
    busy: Option<Busy>,
    /// What the threads know of the root: bounds, the move behind the lower bound and the
    /// deepest iteration one of them completed (only read and written between root searches).
    root: Mutex<RootKnowledge>,
    /// Number of threads of the solve.
    threads: usize,
    /// Whether the threads pool their root knowledge ([`Shared::root`]) between root searches.
    share_root: bool,
}

/// The root bounds the threads of a solve share ([`Shared::root`]). Every bound a root search
/// returns is true, so a thread may take another's bounds as its own.
#[derive(Clone, Debug)]
struct RootKnowledge {
    /// `(lower, upper)` once a thread has published them.
    bounds: Option<(i32, i32)>,
    /// Index of the root move that achieved `lower`.
    best: Option<usize>,
    /// Deepest iteration a thread has completed (0: none).
    completed: u32,
    /// How many threads are in each iteration (index: depth), grown on demand.
    searching: Vec<u32>,
}

impl Shared {
    /// Shared state of a solve on `threads` threads; `defer` enables ABDADA deferral and
    /// `share_root` the pooling of root knowledge (both only matter with several threads).
    pub fn new(threads: usize, defer: bool, share_root: bool) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            busy: (threads > 1 && defer).then(|| Busy::new(BUSY_BITS)),
            root: Mutex::new(RootKnowledge {
                bounds: None,
                best: None,
                completed: 0,
                searching: Vec::new(),
            }),
            threads,
            share_root: threads > 1 && share_root,
        }
    }
}

/// What a node search returns: bounds on the value, and how the path influenced them.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeResult {
    /// Root-relative lower bound.
    pub lower: i32,
    /// Root-relative upper bound.
    pub upper: i32,
    /// Smallest ply of a path position that a repetition below this node repeated
    /// ([`NO_REPETITION`] if none). The result is a fact about the position alone when this is
    /// at least the node's own ply.
    pub repetition_ply: u32,
}

impl NodeResult {
    fn exact(score: i32) -> Self {
        NodeResult { lower: score, upper: score, repetition_ply: NO_REPETITION }
    }
}

/// The exact root value found by [`Searcher::solve_root`]: score and index of a best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RootResult {
    /// Exact root score.
    pub score: i32,
    /// Index of a move achieving it in the root's generated move list.
    pub move_index: usize,
}

/// One thread's search state.
pub(super) struct Searcher<'a, G: Game> {
    tt: &'a TranspositionTable<AlphaBetaEntry>,
    shared: &'a Shared,
    limits: &'a Limits,
    start: Instant,
    /// Hashes of the positions from the root to the current node's parent.
    path: Vec<u64>,
    /// Move buffers, one per ply, reused from node to node.
    moves: Vec<G::Moves>,
    /// Move-order buffers, one per ply.
    orders: Vec<Vec<(i32, u16)>>,
    /// Moves deferred because another thread was searching them, one buffer per ply.
    deferred: Vec<Vec<u16>>,
    ordering: MoveOrdering<G::Move>,
    /// When the nodes were last added to [`Shared::nodes`].
    polling: NodePoll,
    stopped: bool,
    /// Set with `stopped` when the current root search used up `node_budget`; only that root
    /// search is abandoned.
    over_budget: bool,
    /// `stats.nodes` at which the current root search is abandoned.
    node_budget: u64,
    /// Whether a position repeating one on the path scores a draw (only in draw questions).
    detect_repetitions: bool,
    /// What this thread measured.
    pub stats: Stats,
    /// 0 for the main thread.
    helper: usize,
}

impl<'a, G: Game> Searcher<'a, G> {
    /// A searcher on the shared table; `helper` 0 is the main thread, others vary the ordering.
    pub fn new(
        tt: &'a TranspositionTable<AlphaBetaEntry>,
        shared: &'a Shared,
        limits: &'a Limits,
        start: Instant,
        helper: usize,
    ) -> Self {
        let salt = (helper as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Searcher {
            helper,
            tt,
            shared,
            limits,
            start,
            path: Vec::new(),
            moves: Vec::new(),
            orders: Vec::new(),
            deferred: Vec::new(),
            ordering: MoveOrdering::new(salt),
            polling: NodePoll::new(CHECK_INTERVAL),
            stopped: false,
            detect_repetitions: false,
            over_budget: false,
            node_budget: u64::MAX,
            stats: Stats::default(),
        }
    }

    /// Iterative deepening from `first_depth` until the root value is exact; `None` if stopped.
    ///
    /// `root` must not be over. Each iteration of depth `d` asks the questions a depth-`d`
    /// search can always answer, each with the narrowest window that covers it (see the
    /// [parent module](super)): "a win within `d` plies?", "a loss within `d` plies?", then
    /// "a draw?", which is only answered once no horizon leaf matters.
    pub fn solve_root(&mut self, root: &G, first_depth: u32) -> Option<RootResult> {
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let mut lower = loss_in(0);
        let mut upper = win_in(0);
        let mut best: Option<usize> = None;
        // Nodes spent on the bounded questions and on the draw question, to balance them.
        let (mut bounded_nodes, mut draw_nodes) = (0u64, 0u64);
        // Least budget of the next draw question: doubles with every abandoned one.
        let mut draw_min_budget = DRAW_ALLOWANCE_PER_PLY;
        let mut depth = first_depth.max(1);
        while depth <= MAX_DEPTH {
            // With several threads: skip the iterations another thread has completed.
            if self.shared.share_root {
                depth = depth.max(self.share_root(&mut lower, &mut upper, &mut best, 0) + 1);
                depth = self.enter_iteration(depth);
                if depth > MAX_DEPTH {
                    break;
                }
            }
            for question in 0..3 {
                if self.shared.share_root {
                    self.share_root(&mut lower, &mut upper, &mut best, 0);
                }
                if lower == upper {
                    break;
                }
                let window = match question {
                    // Thresholds ("value >= s") a depth-d search decides: s >= win_in(d) ...
                    0 if upper >= win_in(depth) => Some((lower.max(win_in(depth) - 1), upper)),
                    // ... and s <= loss_in(d) + 1.
                    1 if lower <= loss_in(depth) => Some((lower, upper.min(loss_in(depth) + 1))),
                    // The draw thresholds 0 and 1, decided only without horizon influence: asked
                    // only while it has cost no more than the bounded questions.
                    2 if lower <= 0
                        && upper >= 0
                        && draw_nodes < draw_allowance(bounded_nodes, depth) =>
                    {
                        Some((lower.max(-1), upper.min(1)))
                    }
                    _ => None,
                };
                let Some((alpha, beta)) = window else { continue };
                // Limits are also looked at between root searches, however small they are.
                self.poll();
                if self.stopped {
                    return None;
                }
                let nodes_before = self.stats.nodes;
                self.detect_repetitions = question == 2;
                self.node_budget = if question == 2 && depth < MAX_DEPTH {
                    let allowance = draw_allowance(bounded_nodes, depth) - draw_nodes;
                    nodes_before + allowance.max(draw_min_budget)
                } else {
                    u64::MAX
                };
                let (result, index) = self.search_root(root, &moves, depth, alpha, beta, best);
                let spent = self.stats.nodes - nodes_before;
                if self.over_budget {
                    // Abandoned: what it stored is true, its root bounds are incomplete.
                    self.over_budget = false;
                    self.stopped = false;
                    draw_nodes += spent;
                    draw_min_budget = draw_min_budget.saturating_mul(2);
                    continue;
                }
                if self.stopped {
                    return None;
                }
                if question == 2 {
                    draw_nodes += spent;
                } else {
                    bounded_nodes += spent;
                }
                if result.lower > lower {
                    lower = result.lower;
                    best = index;
                }
                upper = upper.min(result.upper);
                debug_assert!(lower <= upper, "inconsistent root bounds {lower} > {upper}");
            }
            if self.shared.share_root {
                self.share_root(&mut lower, &mut upper, &mut best, depth);
                self.leave_iteration(depth);
            }
            if lower == upper {
                let move_index = best.expect("a root search raised the lower bound");
                return Some(RootResult { score: lower, move_index });
            }
            depth += 1;
        }
        None
    }

    /// The iteration a thread starts instead of `depth`: a helper skips iterations that half
    /// the threads are already in. Counts the thread in.
    fn enter_iteration(&self, mut depth: u32) -> u32 {
        let mut root = self.shared.root.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let limit = (self.shared.threads as u32 / 2).max(1);
        loop {
            let i = depth as usize;
            if root.searching.len() <= i {
                root.searching.resize(i + 1, 0);
            }
            if self.helper == 0 || root.searching[i] < limit || depth >= MAX_DEPTH {
                root.searching[i] += 1;
                return depth;
            }
            depth += 1;
        }
    }

    /// Counts the thread out of iteration `depth`.
    fn leave_iteration(&self, depth: u32) {
        let mut root = self.shared.root.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = root.searching.get_mut(depth as usize) {
            *n = n.saturating_sub(1);
        }
    }

    /// Merges this thread's root bounds with the shared ones (both ways) and records that
    /// iteration `completed` is done (0: nothing new); returns the deepest completed one.
    fn share_root(
        &self,
        lower: &mut i32,
        upper: &mut i32,
        best: &mut Option<usize>,
        completed: u32,
    ) -> u32 {
        let mut root = self.shared.root.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((l, u)) = root.bounds {
            if l > *lower {
                *lower = l;
                *best = root.best;
            }
            *upper = (*upper).min(u);
        }
        if root.bounds.is_none_or(|(l, _)| *lower > l) {
            root.best = *best;
        }
        root.bounds = Some((*lower, *upper));
        root.completed = root.completed.max(completed);
        root.completed
    }

    /// Searches every root move (the previous best first) with window `(alpha, beta)`; returns
    /// the bounds and the move that gave the lower bound.
    fn search_root(
        &mut self,
        root: &G,
        moves: &G::Moves,
        depth: u32,
        alpha: i32,
        beta: i32,
        previous_best: Option<usize>,
    ) -> (NodeResult, Option<usize>) {
        self.count_node(0);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if let Some(b) = previous_best {
            order.retain(|&i| i != b);
            order.insert(0, b);
        }
        self.path.push(root.hash());
        let mut lower = loss_in(0) - 1;
        let mut upper = loss_in(0);
        let mut best = None;
        let busy = if depth > BUSY_MIN_DEPTH { self.shared.busy.as_ref() } else { None };
        let mut deferred = Vec::new();
        let mut k = 0;
        loop {
            // First the moves in order, deferring those another thread is on; then those.
            let i = if k < order.len() {
                order[k]
            } else if let Some(&i) = deferred.get(k - order.len()) {
                i
            } else {
                break;
            };
            k += 1;
            let mut child = root.clone();
            child.play(moves[i]);
            if k > 1 && k <= order.len() && busy.is_some_and(|b| b.is_busy(child.hash())) {
                deferred.push(i);
                continue;
            }
            let r = self.search(&child, 1, depth - 1, -beta, -alpha.max(lower));
            if self.stopped {
                break;
            }
            upper = upper.max(-r.lower);
            if -r.upper > lower {
                lower = -r.upper;
                best = Some(i);
            }
            if lower >= beta {
                upper = win_in(1);
                break;
            }
        }
        self.path.pop();
        (NodeResult { lower, upper, repetition_ply: NO_REPETITION }, best)
    }

    /// Negamax with alpha-beta over bounds, fail-soft.
    ///
    /// Searches `pos`, `ply` plies below the root with `depth` plies left before the horizon,
    /// and returns root-relative bounds `lower <= value <= upper` that always hold. Fail-soft
    /// contract (Pons): if `upper <= alpha` the result is an upper bound, if `lower >= beta` a
    /// lower bound, and any threshold "value >= s" with `alpha < s <= beta` that a depth-`depth`
    /// search can decide (a win or loss within `depth` plies of this node) is decided, so a
    /// value inside the window within reach comes back exact (`lower == upper`). Horizon leaves
    /// contribute their honest bounds (not over, so a win or loss is at least one ply away),
    /// which is why a window around a draw may come back undecided.
    ///
    /// `value` is the game-theoretic value when `repetition_ply >= ply`; otherwise the bounds
    /// may rest on draws by repetition of positions above this node (see the parent module).
    // Long: the steps around the child loop are named (`repetition`, `probe_tt`,
    // `transposition_cutoff`, `store_tt`); the loop itself (ABDADA deferral, bounds, the
    // repetition horizon) shares five running values with the store after it, and every
    // solver's tests and the bench signature pin it.
    fn search(&mut self, pos: &G, ply: u32, depth: u32, alpha: i32, beta: i32) -> NodeResult {
        self.count_node(ply);
        if self.stopped {
            return NodeResult::exact(0);
        }
        if let Some(outcome) = pos.outcome() {
            return NodeResult::exact(terminal_score(outcome, ply));
        }
        if let Some(repeated) = self.repetition(pos) {
            return NodeResult { lower: 0, upper: 0, repetition_ply: repeated };
        }
        // Not over: the value is at best a win, at worst a loss, one ply later.
        let mut lower = loss_in(ply + 1);
        let mut upper = win_in(ply + 1);
        if depth == 0 {
            return NodeResult { lower, upper, repetition_ply: NO_REPETITION };
        }

        let hash = pos.hash();
        let entry = self.probe_tt(hash, ply, &mut lower, &mut upper);
        if lower >= beta || upper <= alpha || lower == upper {
            return NodeResult { lower, upper, repetition_ply: NO_REPETITION };
        }
        let alpha = alpha.max(lower);
        let beta = beta.min(upper);

        let mut moves = self.take_moves(ply);
        pos.generate_moves(&mut moves);
        let mut order = std::mem::take(&mut self.orders[ply as usize]);
        self.ordering.order(&moves, ply, entry.move_index, &mut order);

        if depth >= ETC_MIN_DEPTH
            && let Some((score, index)) = self.transposition_cutoff(pos, ply, &moves, &order, beta)
        {
            self.orders[ply as usize] = order;
            self.moves[ply as usize] = moves;
            lower = lower.max(score);
            self.store_tt(hash, ply, depth, (lower, upper), false, index, entry);
            return NodeResult { lower, upper, repetition_ply: NO_REPETITION };
        }

        self.path.push(hash);
        let mut best = loss_in(0) - 1;
        let mut best_index = NO_MOVE;
        let mut children_upper = loss_in(0) - 1;
        let mut repetition_ply = NO_REPETITION;
        let mut cutoff = false;
        // ABDADA: with several threads, a node with enough depth left is marked busy while its
        // children are searched, and its first pass defers the children (but the first) that
        // another thread is searching; they are searched last, when their results are likely
        // in the table. Only the order changes, so the result is the same.
        let busy = if depth >= BUSY_MIN_DEPTH { self.shared.busy.as_ref() } else { None };
        let mut deferred = std::mem::take(&mut self.deferred[ply as usize]);
        deferred.clear();
        if let Some(b) = busy {
            b.enter(hash);
        }
        let mut k = 0;
        loop {
            let index = if k < order.len() {
                order[k].1
            } else if let Some(&index) = deferred.get(k - order.len()) {
                index
            } else {
                break;
            };
            k += 1;
            let mut child = pos.clone();
            child.play(moves[usize::from(index)]);
            if k > 1 && k <= order.len() && busy.is_some_and(|b| b.is_busy(child.hash())) {
                deferred.push(index);
                continue;
            }
            let r = self.search(&child, ply + 1, depth - 1, -beta, -alpha.max(best));
            if self.stopped {
                break;
            }
            repetition_ply = repetition_ply.min(r.repetition_ply);
            children_upper = children_upper.max(-r.lower);
            if -r.upper > best {
                best = -r.upper;
                best_index = index;
            }
            if best >= beta {
                self.ordering.reward(moves[usize::from(index)], ply, depth);
                cutoff = true;
                break;
            }
        }
        if let Some(b) = busy {
            b.leave(hash);
        }
        self.path.pop();
        self.orders[ply as usize] = order;
        self.moves[ply as usize] = moves;
        self.deferred[ply as usize] = deferred;
        if self.stopped {
            return NodeResult::exact(0);
        }

        lower = lower.max(best);
        if !cutoff {
            upper = upper.min(children_upper);
        }
        // No `lower <= upper` check here: at a path-dependent node a draw by repetition may
        // meet a table fact about the real value ("loses in 5") and cross it. Each bound is
        // still backed on its own, which is all the parent uses; root bounds never cross.
        let path_dependent = repetition_ply < ply;
        self.store_tt(hash, ply, depth, (lower, upper), path_dependent, best_index, entry);
        NodeResult { lower, upper, repetition_ply }
    }

    /// Enhanced transposition cutoff: looks at every child without searching it (a finished
    /// game, or the table's upper bound on it) and returns a lower bound `>= beta` and the move
    /// that gives it, if one does. A table bound is a fact about the child whatever the path
    /// (even a child that repeats a path position), so the cutoff is one too.
    fn transposition_cutoff(
        &mut self,
        pos: &G,
        ply: u32,
        moves: &G::Moves,
        order: &[(i32, u16)],
        beta: i32,
    ) -> Option<(i32, u16)> {
        for &(_, index) in order {
            let mut child = pos.clone();
            child.play(moves[usize::from(index)]);
            let child_upper = if let Some(outcome) = child.outcome() {
                terminal_score(outcome, ply + 1)
            } else {
                let entry = self.tt.probe(child.hash(), &mut self.stats.tt)?;
                from_node(i32::from(entry.upper), ply + 1)
            };
            if -child_upper >= beta {
                return Some((-child_upper, index));
            }
        }
        None
    }

    /// Looks `hash` up and narrows `lower`/`upper` with what the table knows; returns the entry
    /// (or [`AlphaBetaEntry::EMPTY`]).
    fn probe_tt(
        &mut self,
        hash: u64,
        ply: u32,
        lower: &mut i32,
        upper: &mut i32,
    ) -> AlphaBetaEntry {
        let Some(entry) = self.tt.probe(hash, &mut self.stats.tt) else {
            return AlphaBetaEntry::EMPTY;
        };
        *lower = (*lower).max(from_node(i32::from(entry.lower), ply));
        *upper = (*upper).min(from_node(i32::from(entry.upper), ply));
        entry
    }

    /// Stores what is a fact about the position alone, merged with the entry probed earlier.
    ///
    /// A path-independent result is stored whole. A path-dependent one keeps only a lower bound
    /// that is a win and an upper bound that is a loss: those rest on proof trees that end at
    /// real game ends, never on a repetition, so they hold on every path.
    #[expect(clippy::too_many_arguments, reason = "the node's state, named")]
    fn store_tt(
        &mut self,
        hash: u64,
        ply: u32,
        depth: u32,
        (lower, upper): (i32, i32),
        path_dependent: bool,
        best_index: u16,
        old: AlphaBetaEntry,
    ) {
        let lower = if !path_dependent || lower > 0 { to_node(lower, ply) } else { -WIN };
        let upper = if !path_dependent || upper < 0 { to_node(upper, ply) } else { WIN };
        let entry = AlphaBetaEntry {
            lower: lower.max(i32::from(old.lower)) as i16,
            upper: upper.min(i32::from(old.upper)) as i16,
            move_index: if best_index == NO_MOVE { old.move_index } else { best_index },
            depth: old.depth.max(depth.min(255) as u8),
        };
        if entry != old {
            self.tt.store(hash, entry, &mut self.stats.tt);
        }
    }

    /// The ply of the path position `pos` repeats, if any (the latest, within the game's
    /// reversible window, as [`History::repeats`](crate::search::history::History::repeats)).
    #[inline]
    fn repetition(&self, pos: &G) -> Option<u32> {
        if !self.detect_repetitions {
            return None;
        }
        repeated_index(&self.path, pos).map(|i| i as u32)
    }

    /// The move buffer of `ply`, emptied.
    fn take_moves(&mut self, ply: u32) -> G::Moves {
        let ply = ply as usize;
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, G::Moves::default);
            self.orders.resize_with(ply + 1, Vec::new);
            self.deferred.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        moves
    }

    /// Counts a node; every [`CHECK_INTERVAL`] nodes, looks at the stop flag and the limits.
    #[inline]
    fn count_node(&mut self, ply: u32) {
        self.stats.nodes += 1;
        if self.stats.nodes >= self.node_budget {
            self.stopped = true;
            self.over_budget = true;
        }
        self.stats.max_depth = self.stats.max_depth.max(ply);
        if self.polling.due(self.stats.nodes) {
            self.poll();
        }
    }

    /// Adds the unflushed nodes to the shared count, then looks at the stop flag and the limits.
    fn poll(&mut self) {
        let (limits, start) = (self.limits, self.start);
        let shared = self.shared;
        if self.polling.poll(self.stats.nodes, &shared.nodes, &shared.stop, |total| {
            limits.is_exceeded(total, start)
        }) {
            self.stopped = true;
        }
    }
}

/// How many nodes the draw questions may have spent in all, at `depth`, when the bounded
/// questions spent `bounded_nodes`: as many, plus a little per ply, so that a draw question is
/// asked again every few plies even when the bounded questions cost next to nothing (each one
/// then gets twice the budget of the last, so it eventually gets any budget it needs).
fn draw_allowance(bounded_nodes: u64, depth: u32) -> u64 {
    bounded_nodes + DRAW_ALLOWANCE_PER_PLY * u64::from(depth)
}

/// Root-relative score of a finished game at `ply`.
fn terminal_score(outcome: Outcome, ply: u32) -> i32 {
    match outcome {
        Outcome::Win => win_in(ply),
        Outcome::Draw => 0,
        Outcome::Loss => loss_in(ply),
    }
}
