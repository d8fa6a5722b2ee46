//! One search thread: iterative deepening with aspiration windows around a principal variation
//! search (PVS) node.
//!
//! The node, top to bottom: game end and draw detection, mate-distance pruning, the horizon
//! (static evaluation), the table probe, reverse futility pruning, internal iterative
//! reduction (a ply less without a table move), then the moves in order
//! (table move, hint, killers, history) with late move pruning and late move reductions
//! (lessened by the move's history where the game asks, `Evaluate::HISTORY_REDUCTIONS`). The
//! table's move is extended by a ply when a half-depth search without it shows it is singular
//! (and a node where another move also reaches the table's bound returns at once: multicut).
//! Threads share only the table and the stop flag (Lazy SMP).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::entry::{Bound, EngineEntry, NO_MOVE, from_tt, to_tt};
use super::evalcache::EvalCache;
use super::ordering::{HISTORY_MAX, MoveOrdering, TT_MOVE_SCORE};
use super::{
    EVAL_LIMIT, Evaluate, MAX_PLY, SearchInfo, SearchLimits, WIN, loss_in, mate_distance, win_in,
};
use crate::game::{MoveList, Outcome};
use crate::search::history::repeated_index;
use crate::search::poll::NodePoll;
use crate::search::tt::{TranspositionTable, TtStats};

/// A score outside every real one: the initial window `(-INFINITY, INFINITY)`.
const INFINITY: i32 = WIN + 1;
/// Nodes between two looks at the clock and the limits.
const CHECK_INTERVAL: u64 = 256;
/// Reverse futility pruning: deepest remaining depth, and margin per ply.
const RFP_DEPTH: i32 = 5;
const RFP_MARGIN: i32 = 120;
/// Late move pruning: deepest remaining depth; a node at depth `d` tries at most
/// `LMP_BASE + LMP_SCALE * d * d` moves once it has one that does not lose.
const LMP_DEPTH: i32 = 5;
const LMP_BASE: usize = 4;
const LMP_SCALE: usize = 3;
/// Internal iterative reduction: least remaining depth at which a node without a table move
/// is searched a ply shallower (its move ordering is poor; the next visit has the move).
const IIR_DEPTH: i32 = 4;
/// Futility pruning ([`Evaluate::FUTILITY_MARGINS`]): deepest remaining depth, and the moves
/// a node tries before it may stop.
const FP_DEPTH: i32 = 6;
const FP_MOVES: usize = 3;
/// Moves a node tries before it skips the game's futile moves ([`Evaluate::is_futile`]).
const FUTILE_AFTER: usize = 2;
/// Late move reductions: least remaining depth and least number of moves tried first.
const LMR_DEPTH: i32 = 3;
const LMR_MOVES: usize = 2;
/// Singular extensions: least remaining depth, how much shallower the table's entry may be,
/// and the margin per ply below the table's score that the other moves must stay under.
const SE_DEPTH: i32 = 6;
const SE_TT_MARGIN: i32 = 3;
const SE_MARGIN: i32 = 2;
/// First aspiration half-window, and the least depth that uses one.
const ASPIRATION_DELTA: i32 = 40;
const ASPIRATION_DEPTH: u32 = 4;
/// Once the half-window passes this, a failing side opens fully.
const ASPIRATION_MAX: i32 = 500;
/// [`SearchLimits::soft_by_nodes`]: the least depth whose node shares count, and the soft
/// limit's factor `(NODE_TM_BASE - share) * NODE_TM_SCALE` for the best move's share.
const NODE_TM_DEPTH: u32 = 7;
const NODE_TM_BASE: f64 = 1.5;
const NODE_TM_SCALE: f64 = 1.5;

/// Ordering scores and move indices of one node, best first once sorted.
type Order = Vec<(i32, u16)>;

/// The main thread's per-iteration report.
pub(super) type InfoCallback<'c, M> = &'c mut dyn FnMut(&SearchInfo<M>);

/// What every thread of one search shares.
pub(super) struct Shared {
    /// The table.
    pub tt: Arc<TranspositionTable<EngineEntry>>,
    /// The engine's cache of static evaluations.
    pub eval_cache: Arc<EvalCache>,
    /// The caller's limits.
    pub limits: SearchLimits,
    /// When the search started.
    pub start: Instant,
    /// Generation stamped on new table entries.
    pub generation: u16,
    /// Raised when a limit is hit or the main thread is done: every thread stops.
    pub stop: AtomicBool,
    /// Nodes of all threads, flushed every [`CHECK_INTERVAL`] nodes.
    pub nodes: AtomicU64,
}

/// One thread's search state.
pub(super) struct Worker<'a, G: Evaluate> {
    shared: &'a Shared,
    /// Hashes of the game's earlier positions, then the search path down to the parent.
    path: Vec<u64>,
    ordering: MoveOrdering<G::Move>,
    /// Triangular principal-variation table: `pv[ply]` is the line found from `ply`.
    pv: Vec<Vec<G::Move>>,
    /// Move and order buffers per ply, reused from node to node.
    moves: Vec<G::Moves>,
    orders: Vec<Order>,
    tried: Vec<Vec<G::Move>>,
    /// Per ply: the index of the move a singular search there leaves out, or [`NO_MOVE`].
    excluded: Vec<u16>,
    /// `LMR[depth][moves tried]`, both capped at 63.
    lmr: Box<[[u8; 64]; 64]>,
    /// The root move to try first (the last iteration's best).
    root_first: Option<G::Move>,
    /// The best root move of the current iteration so far.
    pub root_best: Option<G::Move>,
    /// Its index in the root's move list.
    root_best_index: u16,
    /// Nodes spent below each root move (by index in the root's move list), all iterations.
    root_nodes: Vec<u64>,
    /// When [`Worker::nodes`] were last added to [`Shared::nodes`].
    polling: NodePoll,
    /// Nodes this thread visited.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Set once a limit is hit: every node returns at once.
    pub aborted: bool,
    /// Table figures.
    pub tt_stats: TtStats,
}

impl<'a, G: Evaluate> Worker<'a, G> {
    /// A worker; `history` are the hashes of the game's positions before the root.
    pub fn new(shared: &'a Shared, history: &[u64]) -> Self {
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Worker {
            shared,
            path: history.to_vec(),
            ordering: MoveOrdering::new(),
            pv: Vec::new(),
            moves: Vec::new(),
            orders: Vec::new(),
            tried: Vec::new(),
            excluded: Vec::new(),
            lmr,
            root_first: None,
            root_best: None,
            root_best_index: NO_MOVE,
            root_nodes: Vec::new(),
            polling: NodePoll::new(CHECK_INTERVAL),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            tt_stats: TtStats::default(),
        }
    }

    /// Nodes of every thread as far as known here (the shared count plus this thread's
    /// unflushed ones).
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.polling.unflushed(self.nodes)
    }

    /// Iterative deepening from `root` (not over) up to `max_depth`; the main thread (`on_info`
    /// given) reports each finished iteration and returns the last one, helpers (`None`) start
    /// at depth `1 + offset` and return `None`.
    pub fn iterate(
        &mut self,
        root: &G,
        max_depth: u32,
        offset: u32,
        mut on_info: Option<InfoCallback<'_, G::Move>>,
    ) -> Option<SearchInfo<G::Move>> {
        let limits = &self.shared.limits;
        let mut last: Option<SearchInfo<G::Move>> = None;
        let mut score = 0;
        let mut depth = 1 + offset;
        let mut soft_time = limits.soft_time;
        self.root_nodes.clear();
        while depth <= max_depth {
            let main = on_info.is_some();
            if main && soft_time.is_some_and(|t| self.shared.start.elapsed() >= t) {
                break;
            }
            self.root_best = None;
            self.root_best_index = NO_MOVE;
            self.seldepth = 0;
            let s = self.aspiration(root, depth, score);
            if self.aborted {
                break;
            }
            score = s;
            let pv = self.pv[0].clone();
            self.root_first = pv.first().copied();
            if let Some(report) = on_info.as_deref_mut() {
                let info = SearchInfo {
                    depth,
                    seldepth: self.seldepth,
                    score,
                    nodes: self.total_nodes(),
                    elapsed: self.shared.start.elapsed(),
                    pv,
                };
                report(&info);
                last = Some(info);
                // A proven result: stop once the iteration is deep enough that a shorter win
                // (or a longer defence) would have been seen without reductions.
                if mate_distance(score).is_some_and(|d| depth >= 2 * d.unsigned_abs() + 2) {
                    break;
                }
                if limits.soft_by_nodes
                    && depth >= NODE_TM_DEPTH
                    && let Some(share) = self.best_move_share()
                {
                    let factor = (NODE_TM_BASE - share) * NODE_TM_SCALE;
                    soft_time = limits.soft_time.map(|t| t.mul_f64(factor));
                }
            }
            depth += 1;
        }
        last
    }

    /// The share of the root's nodes (all iterations so far) spent below the current best
    /// root move, if it is known.
    fn best_move_share(&self) -> Option<f64> {
        let total: u64 = self.root_nodes.iter().sum();
        let best = *self.root_nodes.get(usize::from(self.root_best_index))?;
        (total > 0).then(|| best as f64 / total as f64)
    }

    /// One root search of `depth` plies, in a window around `previous` that widens on failure.
    fn aspiration(&mut self, root: &G, depth: u32, previous: i32) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && previous.abs() < EVAL_LIMIT {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.negamax(root, depth as i32, 0, alpha, beta, true);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha =
                    if delta > ASPIRATION_MAX { -INFINITY } else { (score - delta).max(-INFINITY) };
            } else if score >= beta && beta < INFINITY {
                beta =
                    if delta > ASPIRATION_MAX { INFINITY } else { (score + delta).min(INFINITY) };
            } else {
                return score;
            }
            delta *= 2;
        }
    }

    /// Counts a node; every [`CHECK_INTERVAL`] nodes, flushes the count and looks at the limits.
    #[inline]
    fn count_node(&mut self, ply: u32) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.polling.due(self.nodes) {
            self.poll();
        }
    }

    /// Flushes the node count and sets `aborted` if any limit is hit.
    pub fn poll(&mut self) {
        let shared = self.shared;
        let limits = &shared.limits;
        let exceeded = |total: u64| {
            limits.hard_time.is_some_and(|t| shared.start.elapsed() >= t)
                || limits.nodes.is_some_and(|n| total >= n)
                || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        };
        if self.polling.poll(self.nodes, &shared.nodes, &shared.stop, exceeded) {
            self.aborted = true;
        }
    }

    /// Whether `pos` repeats a position of the game or of the search path (within the game's
    /// reversible window).
    #[inline]
    fn repeats(&self, pos: &G) -> bool {
        repeated_index(&self.path, pos).is_some()
    }

    /// The static evaluation, clamped to the documented range, from the engine's cache when
    /// it holds the position's [`Evaluate::eval_key`].
    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
        let cache = &self.shared.eval_cache;
        let key = if cache.is_off() { None } else { pos.eval_key() };
        if let Some(eval) = key.and_then(|k| cache.probe(k)) {
            return eval;
        }
        let eval = pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if let Some(k) = key {
            cache.store(k, eval);
        }
        eval
    }

    /// Makes sure the per-ply buffers reach `ply`.
    fn ensure_ply(&mut self, ply: usize) {
        if self.pv.len() <= ply + 1 {
            self.pv.resize_with(ply + 2, Vec::new);
            self.moves.resize_with(ply + 1, G::Moves::default);
            self.orders.resize_with(ply + 1, Vec::new);
            self.tried.resize_with(ply + 1, Vec::new);
            self.excluded.resize(ply + 1, NO_MOVE);
        }
    }

    /// Principal variation search of `pos`, `ply` plies below the root with `depth` plies to
    /// the horizon; returns a fail-soft score from the side to move's view, root-relative for
    /// proven results. `pv_node`: the window may be wider than one point.
    ///
    /// The node as named steps: [`Self::settled`] (game end, draws, mate-distance pruning), the
    /// horizon, [`Self::probe_tt`], [`Self::reverse_futility`], [`Self::order_moves`], the move
    /// loop ([`Self::search_child`] with late move pruning), then [`Self::store_tt`].
    // Long: the move loop shares its state (alpha, best, the order, the moves tried, the
    // multicut) with the steps around it; a loop of its own would take and return all of it in
    // the engine's hottest function, and any change here must pass an SPRT.
    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        let p = ply as usize;
        self.ensure_ply(p);
        self.pv[p].clear();
        self.count_node(ply);
        let root = ply == 0;
        // A singular search: the same node again without one move (the parent frame holds
        // the game checks, the table's entry and the path).
        let excluded = self.excluded[p];
        let singular = excluded != NO_MOVE;
        if !root
            && !singular
            && let Some(score) = self.settled(pos, ply, &mut alpha, &mut beta)
        {
            return score;
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return self.evaluate(pos);
        }
        let hash = pos.hash();
        let (cutoff, entry) = self.probe_tt(hash, (depth, ply), (alpha, beta), pv_node, singular);
        let tt_move = entry.map_or(NO_MOVE, |e| e.move_index);
        if let Some(score) = cutoff {
            return score;
        }
        let futility = match self.near_horizon(pos, depth, (alpha, beta), pv_node, root || singular)
        {
            Ok(bound) => bound,
            Err(score) => return score,
        };

        let depth = internal_reduction(depth, tt_move, root || singular);
        let (moves, mut order, mut tried) = self.order_moves(pos, ply, tt_move);
        self.path.push(hash);
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_index = NO_MOVE;
        let mut multicut = None;
        for k in 0..order.len() {
            let (order_score, index) = select_next(&mut order, k);
            if index == excluded {
                continue;
            }
            let mv = moves[usize::from(index)];
            let futile = !root && pos.is_futile(mv) && !self.ordering.is_killer(&mv, ply);
            let below = futility.is_some_and(|f| f <= alpha);
            if late_move_prunes(pv_node, depth, best, k, (futile, below)) {
                break;
            }
            let extension = if k == 0 && order_score == TT_MOVE_SCORE && !root && !pv_node {
                match self.singular(pos, depth, ply, beta, index, entry) {
                    Singular::Cut(score) => {
                        multicut = Some(score);
                        break;
                    }
                    other => other.extension(),
                }
            } else {
                0
            };
            // (A singular search cut short by the limits leaves `aborted` set, which the
            // child's search returns on at once.)
            let mut child = pos.clone();
            child.play(mv);
            self.shared.tt.prefetch(child.hash());
            let window = (alpha, beta);
            let depth = depth + extension;
            let before = self.nodes;
            let score = self.search_child(&child, depth, ply, window, pv_node, k, order_score, mv);
            self.count_root_nodes(root, index, before);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_index = index;
                    self.record_best(mv, index, ply, pv_node);
                    if score >= beta {
                        self.ordering.reward(mv, &tried, ply, history_bonus::<G>(depth));
                        break;
                    }
                }
            }
            tried.push(mv);
        }
        self.path.pop();
        self.moves[p] = moves;
        self.orders[p] = order;
        self.tried[p] = tried;
        if self.aborted {
            return 0;
        }
        if let Some(score) = multicut {
            return score;
        }
        if singular {
            return best;
        }
        let bounds = (alpha_start, beta);
        let best_index = if best_index == NO_MOVE { tt_move } else { best_index };
        self.store_tt(hash, best, bounds, best_index, depth, ply);
        best
    }

    /// At the root, adds the nodes visited since the count was `before` to the root move with
    /// index `index`.
    fn count_root_nodes(&mut self, root: bool, index: u16, before: u64) {
        if !root {
            return;
        }
        let i = usize::from(index);
        if self.root_nodes.len() <= i {
            self.root_nodes.resize(i + 1, 0);
        }
        self.root_nodes[i] += self.nodes - before;
    }

    /// The score of a non-root node that needs no search: a finished game, a draw by rule or
    /// repetition, an aborted search, or a window that mate-distance pruning closes (which it
    /// narrows otherwise).
    fn settled(&self, pos: &G, ply: u32, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        if let Some(outcome) = pos.outcome() {
            return Some(match outcome {
                Outcome::Win => win_in(ply),
                Outcome::Loss => loss_in(ply),
                Outcome::Draw => 0,
            });
        }
        if pos.is_rule_draw() || self.repeats(pos) || self.aborted {
            return Some(0);
        }
        // Not over: a win or a loss is at least one ply away.
        *alpha = (*alpha).max(loss_in(ply + 1));
        *beta = (*beta).min(win_in(ply + 1));
        (*alpha >= *beta).then_some(*alpha)
    }

    /// Looks the position up: its score when a non-PV node may return it at once, and the
    /// entry (for the table's move and the singular extension). A singular search's repeat of
    /// its parent looks nothing up.
    fn probe_tt(
        &mut self,
        hash: u64,
        (depth, ply): (i32, u32),
        (alpha, beta): (i32, i32),
        pv_node: bool,
        singular: bool,
    ) -> (Option<i32>, Option<EngineEntry>) {
        if singular {
            return (None, None);
        }
        let Some(e) = self.shared.tt.probe(hash, &mut self.tt_stats) else {
            return (None, None);
        };
        if pv_node || i32::from(e.depth) < depth {
            return (None, Some(e));
        }
        let s = from_tt(e.score, ply);
        let usable = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        (usable.then_some(s), Some(e))
    }

    /// Singular extension of the table's move (index `index`) at a non-PV node: when the
    /// table holds a lower or exact bound from nearly this depth, the node is searched again
    /// at half depth without that move, against a bound just below the table's score. If no
    /// other move reaches it, the move is singular and is extended; if that bound is already
    /// at least `beta`, several moves cut off and the node returns it (multicut); if the table
    /// alone says the node fails high, the move is searched one ply shallower.
    fn singular(
        &mut self,
        pos: &G,
        depth: i32,
        ply: u32,
        beta: i32,
        index: u16,
        entry: Option<EngineEntry>,
    ) -> Singular {
        let Some(e) = entry else { return Singular::None };
        let score = i32::from(e.score);
        if depth < SE_DEPTH
            || i32::from(e.depth) < depth - SE_TT_MARGIN
            || e.bound == Bound::Upper
            || score.abs() >= EVAL_LIMIT
        {
            return Singular::None;
        }
        let singular_beta = score - SE_MARGIN * depth;
        let p = ply as usize;
        self.excluded[p] = index;
        let s = self.negamax(pos, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, false);
        self.excluded[p] = NO_MOVE;
        if s < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if score >= beta {
            Singular::Reduce
        } else {
            Singular::None
        }
    }

    /// The pruning near the horizon before the move loop: reverse futility pruning's cutoff
    /// (`Err`), else the futility bound for the move loop ([`futility_bound`], `Ok`). The static
    /// evaluation is computed once for both, and only where one of them can use it (never at
    /// an `exempt` node: the root, or a singular search's repeat of its parent).
    fn near_horizon(
        &self,
        pos: &G,
        depth: i32,
        (alpha, beta): (i32, i32),
        pv_node: bool,
        exempt: bool,
    ) -> Result<Option<i32>, i32> {
        let near = (!pv_node && depth <= RFP_DEPTH && beta.abs() < EVAL_LIMIT)
            || (G::FUTILITY_MARGINS.is_some() && depth <= FP_DEPTH);
        let eval = (!exempt && near).then(|| self.evaluate(pos));
        if let Some(score) = eval.and_then(|e| Self::reverse_futility(e, depth, beta, pv_node)) {
            return Err(score);
        }
        Ok(futility_bound::<G>(eval, depth, alpha))
    }

    /// Reverse futility pruning: far above beta with little depth left, assume it holds.
    fn reverse_futility(eval: i32, depth: i32, beta: i32, pv_node: bool) -> Option<i32> {
        if pv_node || depth > RFP_DEPTH || beta.abs() >= EVAL_LIMIT {
            return None;
        }
        (eval - RFP_MARGIN * depth >= beta).then_some(eval)
    }

    /// The moves of `pos` with their ordering scores (the root's previous best or the table
    /// move first, then killers, history and hints), in the buffers of `ply`, and the emptied
    /// buffer of moves tried.
    fn order_moves(&mut self, pos: &G, ply: u32, tt_move: u16) -> (G::Moves, Order, Vec<G::Move>) {
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        let mut order = std::mem::take(&mut self.orders[p]);
        let mut tried = std::mem::take(&mut self.tried[p]);
        moves.clear();
        order.clear();
        tried.clear();
        pos.generate_moves(&mut moves);
        for (i, mv) in moves.iter().enumerate() {
            let first =
                if ply == 0 { self.root_first == Some(*mv) } else { i == usize::from(tt_move) };
            let score = if first {
                TT_MOVE_SCORE
            } else {
                self.ordering.score(mv, ply, pos.move_hint(*mv))
            };
            order.push((score, i as u16));
        }
        (moves, order, tried)
    }

    /// The score of `child` (reached by `mv`, the `searched`-th move of its parent at `ply`)
    /// for the parent: the first move with the full window, later ones with a null window and
    /// a late move reduction, re-searched when they beat alpha.
    #[expect(clippy::too_many_arguments, reason = "the move's place in its node, named")]
    fn search_child(
        &mut self,
        child: &G,
        depth: i32,
        ply: u32,
        (alpha, beta): (i32, i32),
        pv_node: bool,
        searched: usize,
        order_score: i32,
        mv: G::Move,
    ) -> i32 {
        if searched == 0 {
            return -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, pv_node);
        }
        let reduction = if depth >= LMR_DEPTH
            && searched >= LMR_MOVES
            && order_score != TT_MOVE_SCORE
            && !self.ordering.is_killer(&mv, ply)
        {
            let r = i32::from(self.lmr[(depth as usize).min(63)][searched.min(63)])
                + i32::from(!pv_node)
                - history_relief::<G>(self.ordering.history(&mv, ply));
            r.clamp(0, depth - 2)
        } else {
            0
        };
        let mut s = -self.negamax(child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, false);
        if s > alpha && reduction > 0 {
            s = -self.negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha, false);
        }
        if s > alpha && s < beta && pv_node {
            s = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, true);
        }
        s
    }

    /// A new best move `mv` (index `index` in its node's list) that raised alpha at `ply`: the
    /// root's best, and the PV line.
    fn record_best(&mut self, mv: G::Move, index: u16, ply: u32, pv_node: bool) {
        if ply == 0 {
            self.root_best = Some(mv);
            self.root_best_index = index;
        }
        if pv_node {
            let p = ply as usize;
            let (head, tail) = self.pv.split_at_mut(p + 1);
            head[p].clear();
            head[p].push(mv);
            head[p].extend_from_slice(&tail[0]);
        }
    }

    /// Stores the node's result: `best` against the window it was searched with.
    fn store_tt(
        &mut self,
        hash: u64,
        best: i32,
        (alpha_start, beta): (i32, i32),
        move_index: u16,
        depth: i32,
        ply: u32,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = EngineEntry {
            score: to_tt(best, ply),
            move_index,
            depth: depth.clamp(0, 255) as u8,
            bound,
            generation: self.shared.generation,
        };
        self.shared.tt.store(hash, entry, &mut self.tt_stats);
    }
}

/// What a singular search says about the table's move.
enum Singular {
    /// Not tried, or nothing to change.
    None,
    /// The move is singular: one ply deeper.
    Extend,
    /// The table's bound alone fails high: one ply shallower.
    Reduce,
    /// Another move also reaches the bound, which is at least beta: the node's score.
    Cut(i32),
}

impl Singular {
    /// Plies added to the table move's search.
    fn extension(&self) -> i32 {
        match self {
            Singular::Extend => 1,
            Singular::Reduce => -1,
            Singular::None | Singular::Cut(_) => 0,
        }
    }
}

/// Futility pruning: the static evaluation `eval` plus the game's margin at `depth`, which a
/// node's later moves are taken not to lift past alpha, when the game has margins, the node is
/// within [`FP_DEPTH`] of the horizon and alpha is no proven result.
fn futility_bound<G: Evaluate>(eval: Option<i32>, depth: i32, alpha: i32) -> Option<i32> {
    let (base, per_ply) = G::FUTILITY_MARGINS?;
    let eval = eval?;
    (depth <= FP_DEPTH && alpha.abs() < EVAL_LIMIT).then_some(eval + base + per_ply * depth)
}

/// The history bonus of a cutoff at `depth` plies: the game's [`Evaluate::HISTORY_REDUCTIONS`]
/// step, else `depth^2` (at most a quarter of the range).
fn history_bonus<G: Evaluate>(depth: i32) -> i32 {
    match G::HISTORY_REDUCTIONS {
        Some((per_ply, max, _)) => (per_ply * depth).clamp(0, max),
        None => (depth * depth).min(HISTORY_MAX / 4),
    }
}

/// Plies a late move's reduction is lessened by for its `history`: the history divided by the
/// game's [`Evaluate::HISTORY_REDUCTIONS`] divisor, rounded half away from zero; 0 without.
fn history_relief<G: Evaluate>(history: i32) -> i32 {
    match G::HISTORY_REDUCTIONS {
        Some((_, _, divisor)) => (history + history.signum() * (divisor / 2)) / divisor,
        None => 0,
    }
}

/// Internal iterative reduction: `depth` less a ply when the node has no table move at
/// [`IIR_DEPTH`] or more, unless `exempt` (the root, which orders by the last iteration, or a
/// singular search's repeat of its parent).
fn internal_reduction(depth: i32, tt_move: u16, exempt: bool) -> i32 {
    if tt_move == NO_MOVE && !exempt && depth >= IIR_DEPTH { depth - 1 } else { depth }
}

/// Late move pruning, once a node has a move that does not lose: a non-PV node near the
/// horizon stops after `LMP_BASE + LMP_SCALE * depth^2` moves, any node below the root stops
/// at a `futile` move ([`Evaluate::is_futile`], not a killer) once it has tried
/// [`FUTILE_AFTER`] (the hint orders such moves last), and a node whose [`futility_bound`] is
/// `below` alpha stops once it has tried [`FP_MOVES`].
fn late_move_prunes(
    pv_node: bool,
    depth: i32,
    best: i32,
    searched: usize,
    (futile, below): (bool, bool),
) -> bool {
    best > -EVAL_LIMIT
        && ((futile && searched >= FUTILE_AFTER)
            || (below && searched >= FP_MOVES)
            || (!pv_node
                && depth <= LMP_DEPTH
                && searched >= LMP_BASE + LMP_SCALE * (depth * depth) as usize))
}

/// One step of a selection sort of `order` (most nodes cut off after a few moves, so a full
/// sort would be wasted): moves the best of `order[k..]` to `k` and returns it. The highest
/// score first, the lowest index among equal scores (one integer key).
fn select_next(order: &mut Order, k: usize) -> (i32, u16) {
    let pick = (k..order.len())
        .max_by_key(|&j| (i64::from(order[j].0) << 16) | i64::from(!order[j].1))
        .unwrap_or(k);
    order.swap(k, pick);
    order[k]
}

#[cfg(test)]
mod tests;
