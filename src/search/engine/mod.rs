//! The playing engine: a heuristic, time-limited search for games too big to solve, generic over
//! [`Game`] plus an [`Evaluate`] hook. Solvers (the rest of [`crate::search`]) prove values; the
//! engine picks good moves within a budget, and reports a proven win or loss when it sees one.
//!
//! This module fixes the interface every player uses (the Ataxx arbiter and UAI front ends, the
//! geography and Gauss players, the match referees): [`Engine::search`] with [`SearchLimits`],
//! [`SearchInfo`] callbacks per finished iteration and a [`SearchResult`].
//!
//! Scores are `i32` from the side to move's view. A proven result is encoded as
//! `WIN - plies` / `-(WIN - plies)` (see [`win_in`], [`loss_in`], [`mate_distance`]); static
//! evaluations must stay within `±EVAL_LIMIT`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};

/// Score of a win at the root itself (the side to move has already won).
pub const WIN: i32 = 30_000;
/// Longest search path the engine supports; proven scores lie within `WIN - MAX_PLY ..= WIN`.
pub const MAX_PLY: u32 = 1_000;
/// Static evaluations must satisfy `|eval| <= EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = WIN - MAX_PLY as i32 - 1;

/// The score of a forced win `plies` plies from the root.
pub const fn win_in(plies: u32) -> i32 {
    WIN - plies as i32
}

/// The score of a forced loss `plies` plies from the root.
pub const fn loss_in(plies: u32) -> i32 {
    -(WIN - plies as i32)
}

/// `Some(plies)` (positive: a win, negative: a loss) if `score` is a proven result.
pub const fn mate_distance(score: i32) -> Option<i32> {
    if score > EVAL_LIMIT {
        Some(WIN - score)
    } else if score < -EVAL_LIMIT {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// What the engine needs from a game beyond its rules: a static evaluation and optional hints.
pub trait Evaluate: Game {
    /// Static score of a position that is not over, from the side to move's view, within
    /// `±EVAL_LIMIT`. Larger is better for the side to move.
    fn evaluate(&self) -> i32;

    /// A cheap ordering hint for `mv` in this position (larger is tried first), e.g. the
    /// material it gains. Default: no preference.
    fn move_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether a rule outside [`Game`] (a move-count rule such as Ataxx's 50 jumps) has already
    /// ended this position in a draw. Default: never.
    fn is_rule_draw(&self) -> bool {
        false
    }
}

/// Engine-wide settings (UAI `Threads` and `Hash`).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads sharing one table.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: 1, hash_mib: 16 }
    }
}

/// When one search must stop. Every field is optional; with none set the search runs until
/// `stop` is raised or `MAX_PLY` is reached.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Abort the search (returning the last finished iteration's move) after this much time.
    pub hard_time: Option<Duration>,
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop as soon as this flag becomes true (UAI `stop`, set from another thread).
    pub stop: Option<Arc<AtomicBool>>,
}

/// What one finished iteration found (for UAI `info` lines and logs).
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the root side's view (see [`mate_distance`]).
    pub score: i32,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, starting with the best move.
    pub pv: Vec<M>,
}

/// The answer of [`Engine::search`].
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<M>,
    /// The last finished iteration's information.
    pub info: SearchInfo<M>,
}

/// A reusable engine: keeps its table and tuning between searches of one game.
pub struct Engine<G: Evaluate> {
    options: EngineOptions,
    _game: std::marker::PhantomData<fn() -> G>,
}

/// Per-search state of the reference implementation.
struct Context<'a> {
    limits: &'a SearchLimits,
    start: Instant,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    path: Vec<u64>,
}

impl Context<'_> {
    fn must_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(1024) {
            let l = self.limits;
            self.aborted = l.hard_time.is_some_and(|t| self.start.elapsed() >= t)
                || l.nodes.is_some_and(|n| self.nodes >= n)
                || l.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.aborted
    }
}

impl<G: Evaluate> Engine<G> {
    /// A new engine with these options.
    pub fn new(options: &EngineOptions) -> Self {
        Engine { options: options.clone(), _game: std::marker::PhantomData }
    }

    /// Changes threads and table size (clears the table).
    pub fn set_options(&mut self, options: &EngineOptions) {
        self.options = options.clone();
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Searches `root` and returns the best move found within `limits`.
    ///
    /// `history` holds the hashes of the game's earlier positions, oldest first, without the
    /// root; a position that repeats one of them or one on the search path scores as a draw.
    /// `on_info` is called after every finished iteration.
    ///
    /// The reference implementation: iterative-deepening alpha-beta with move hints, no table.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut ctx = Context {
            limits,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            path: history.to_vec(),
        };
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let mut best: Option<G::Move> = moves.first().copied();
        let mut info = SearchInfo {
            depth: 0,
            seldepth: 0,
            score: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: best.into_iter().collect(),
        };
        if moves.len() <= 1 {
            return SearchResult { best_move: best, info };
        }
        let max_depth = limits.depth.unwrap_or(MAX_PLY).min(MAX_PLY);
        for depth in 1..=max_depth {
            if limits.soft_time.is_some_and(|t| ctx.start.elapsed() >= t) {
                break;
            }
            let mut order: Vec<G::Move> = moves.to_vec();
            if let Some(b) = best {
                // Previous best first, then by hint.
                order.sort_by_key(|&m| (m != b, -root.move_hint(m)));
            }
            let mut alpha = -WIN - 1;
            let mut iteration_best = None;
            ctx.path.push(root.hash());
            for &mv in &order {
                let mut child = root.clone();
                child.play(mv);
                let score = -Self::negamax(&child, depth - 1, 1, -WIN - 1, -alpha, &mut ctx);
                if ctx.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(mv);
                }
            }
            ctx.path.pop();
            if ctx.aborted {
                break;
            }
            best = iteration_best.or(best);
            info = SearchInfo {
                depth,
                seldepth: ctx.seldepth,
                score: alpha,
                nodes: ctx.nodes,
                elapsed: ctx.start.elapsed(),
                pv: best.into_iter().collect(),
            };
            on_info(&info);
            if mate_distance(alpha).is_some() {
                break;
            }
        }
        info.nodes = ctx.nodes;
        info.elapsed = ctx.start.elapsed();
        SearchResult { best_move: best, info }
    }

    fn negamax(
        pos: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        ctx: &mut Context<'_>,
    ) -> i32 {
        ctx.nodes += 1;
        ctx.seldepth = ctx.seldepth.max(ply);
        if let Some(outcome) = pos.outcome() {
            return match outcome {
                Outcome::Win => win_in(ply),
                Outcome::Loss => loss_in(ply),
                Outcome::Draw => 0,
            };
        }
        if pos.is_rule_draw() || (!G::ACYCLIC && ctx.path.contains(&pos.hash())) {
            return 0;
        }
        if depth == 0 || ply >= MAX_PLY || ctx.must_abort() {
            return pos.evaluate();
        }
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        moves.sort_by_key(|&m| -pos.move_hint(m));
        let mut best = -WIN - 1;
        ctx.path.push(pos.hash());
        for &mv in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let score = -Self::negamax(&child, depth - 1, ply + 1, -beta, -alpha, ctx);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta || ctx.aborted {
                break;
            }
        }
        ctx.path.pop();
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::digraph::Digraph;
    use crate::notation::Notation;

    impl Evaluate for Digraph {
        fn evaluate(&self) -> i32 {
            0
        }
    }

    #[test]
    fn finds_a_forced_win_on_a_small_graph() {
        // 0 -> 1 -> (2 stuck): moving to 1 leaves the opponent a move to 2, after which we are
        // stuck; moving to 3 (no successors) wins at once.
        let pos = Digraph::parse_position("0|1 3;2;;;").unwrap();
        let mut engine = Engine::<Digraph>::new(&EngineOptions::default());
        let result = engine.search(
            &pos,
            &[],
            &SearchLimits { depth: Some(4), ..SearchLimits::default() },
            &mut |_| {},
        );
        assert_eq!(pos.format_move(result.best_move.unwrap()), "3");
        assert_eq!(mate_distance(result.info.score), Some(1));
    }
}
