//! Retrograde analysis: every position reachable from the root, labelled backwards from the
//! game ends. Exact for games with cycles, draws included.
//!
//! Three steps:
//!
//! 1. **Enumerate** ([`graph::GraphModel::enumerate`]). Breadth-first from the root over
//!    [`Game::generate_moves`] and [`Game::play`]; each new position gets the next dense `u32`
//!    id. Positions are told apart by [`Game::exact_key`], an injective 128-bit key, in an
//!    open-addressing table of ids (no Zobrist hash as a key, so no silent collision). Each
//!    position's distinct children are recorded as forward edges in CSR form (positions are
//!    expanded in id order, so the offsets come for free); the keys are dropped at the end and
//!    the edges reversed into lists of parents (a counting sort), keeping each position's
//!    number of distinct children.
//! 2. **Solve** with the layered engine ([`solve::solve_layer`]): the graph is ONE layer whose
//!    positions are the ids ([`graph::GraphModel`]), its parent lists the un-moves. The scan
//!    gives finished positions [`Game::outcome`] at distance 0 and each other position its
//!    counter of distinct children; the
//!    propagation then takes positions in order of distance: a parent of a loss is a win (one
//!    ply longer); a parent whose children have all turned out to be wins for the opponent is
//!    a loss (its counter reaches zero). So a win gets the shortest distance and a loss the
//!    longest, as minimax with [`Value`](super::Value) ordering does. Whatever is still
//!    undecided at the end is a **draw**: neither side can force the game to end in its
//!    favour, so best play goes on forever (or ends in a drawn finish).
//! 3. **Read** the root's cell (id 0, [`values::cell`]): value and distance; the best move is
//!    the first of the root's moves into a child of the opposite value one ply shorter (any
//!    drawn child for a draw).
//!
//! # Repetition as a draw versus infinite play as a draw
//!
//! The search solvers and the brute-force oracle ([`super::brute`]) score a position that
//! repeats one on the current path as a draw; this solver scores infinite play as a draw. Both
//! give the same value, distance included, *at the root* (not at inner nodes of a search,
//! where the path matters):
//!
//! * Retrograde win in `d`: the winner always moves to a loss of smaller distance and every
//!   reply of the loser reaches a win of smaller distance, so along the play the distance
//!   falls every ply. No position can repeat, and the game ends as a win within `d` plies;
//!   conversely, a strategy that wins under the repetition rule never lets a repetition
//!   happen, so it wins in the cycle game with the same plays. The shortest win (and the
//!   longest resistance) are therefore the same under both rules.
//! * Retrograde draw: each side can keep to positions that are draws or wins for itself
//!   (a drawn position always has a drawn move, and every move of the opponent from a drawn
//!   position reaches a draw or a win for us). If the opponent leaves the drawn positions, the
//!   win above follows without repeating anything seen before (those were draws), otherwise
//!   play repeats or ends in a drawn finish: a draw under both rules, for both sides.
//!
//! So the differential tests compare this solver with the brute-force oracle on any position,
//! cycles included.
//!
//! Memory: while enumerating, per position 16 bytes of key, 8 to 16 of table slots, 8 of CSR
//! offset and 1 of outcome, 4 bytes per distinct child, and the positions waiting in the
//! breadth-first queue. While solving (the keys gone): 16 bytes of offsets and 1 of outcome
//! per position, 3 bytes of cell and counter, 4 bytes per distinct child (its parent list
//! entry) and 4 bytes per entry of the engine's buckets of distances. The node limit of [`Limits`] caps the number of positions
//! ([`DEFAULT_MAX_POSITIONS`] without one): past it the solver reports `unknown` instead of
//! exhausting memory. The time limit and the stop flag are checked at the start and every few
//! thousand positions while enumerating, and followed by the engine's stop flag (a watcher
//! thread raises it when the time is up) while solving. The engine's limits are reported as
//! `unknown` too ([`Unknown::GaveUp`]): at most 255 distinct moves per position, distances up
//! to [`values::cell::MAX_DISTANCE`] plies, at most [`solve::MAX_LAYER`] positions.
//!
//! Threads: the enumeration is sequential; the engine runs in the current rayon pool (the
//! global one unless the caller installs another); a thread count is accepted and ignored.

pub mod ataxx;
pub mod driver;
pub mod file;
pub mod gipf;
pub mod graph;
pub mod hidden;
pub mod keyset;
pub mod layers;
pub mod model;
pub mod solve;
pub mod store;
pub mod strong;
pub mod table;
pub mod values;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use self::graph::{EnumerateError, GraphModel};
use self::solve::{Control, EngineError, solve_layer};
use self::values::{DRAW, LOSS, WIN, cell};
use super::{Limits, Report, Solver, Stats, Unknown};
use crate::game::{Game, Outcome};

/// Cap on the positions enumerated when the limits give no node limit (about 5 GB for GIPF).
pub const DEFAULT_MAX_POSITIONS: usize = 50_000_000;

/// How often the time limit is looked at while the engine runs.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// The retrograde solver (stateless between solves). It writes nothing: an unknown result
/// carries its reason ([`Report::unknown`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RetroSolver;

impl RetroSolver {
    /// A new solver.
    pub fn new() -> Self {
        RetroSolver
    }

    /// The same as [`RetroSolver::new`] (the solver no longer writes to stderr past its cap;
    /// kept for the callers that try it with a small cap first, [`crate::search::portfolio`]).
    pub fn quiet() -> Self {
        RetroSolver
    }
}

/// Why a solve gave up.
enum Stop {
    /// The enumeration ended without a graph.
    Enumerate(EnumerateError),
    /// The engine failed on a graph of this many positions.
    Engine(usize, EngineError),
}

fn stopped(limits: &Limits, start: Instant) -> bool {
    limits.time.is_some_and(|t| start.elapsed() >= t)
        || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
}

/// Runs `f` with a stop flag that follows the limits: the limits' own flag when there is no
/// time limit, otherwise one raised by a watcher thread once [`stopped`] says so (the engine
/// only reads a flag).
fn with_stop_flag<T>(limits: &Limits, start: Instant, f: impl FnOnce(&AtomicBool) -> T) -> T {
    if limits.time.is_none() {
        let idle = AtomicBool::new(false);
        return f(limits.stop.as_deref().unwrap_or(&idle));
    }
    let flag = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stopped(limits, start) {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::park_timeout(WATCH_EVERY);
            }
        });
        let out = f(&flag);
        done.store(true, Ordering::Relaxed);
        watcher.thread().unpark();
        out
    })
}

impl<G: Game> Solver<G> for RetroSolver {
    /// Solves `root` exactly; a node limit caps the positions enumerated. Reports `unknown`
    /// with its reason ([`Report::unknown`]) past the cap ([`Unknown::TooLarge`]), for games
    /// without [`Game::exact_key`] ([`Unknown::Unsupported`]), when the time limit or stop
    /// flag ends the solve ([`Unknown::Limit`]), and when the engine cannot hold the graph
    /// ([`Unknown::GaveUp`]: a position with more than 255 distinct moves, a distance past
    /// [`cell::MAX_DISTANCE`] plies, more than [`solve::MAX_LAYER`] positions).
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        if let Some(outcome) = root.outcome() {
            // One position enumerated: the root.
            let plies = (outcome != Outcome::Draw).then_some(0);
            let mut report = Report::finished(outcome, plies, start);
            report.stats.nodes = 1;
            return report;
        }
        let max = limits.nodes.map_or(DEFAULT_MAX_POSITIONS, |n| {
            usize::try_from(n).unwrap_or(usize::MAX).min(u32::MAX as usize - 1)
        });
        // An unknown result still reports the positions enumerated (past the cap: the cap + 1).
        let unknown = |stop: Stop| {
            let (nodes, reason) = match stop {
                Stop::Enumerate(EnumerateError::Stopped(n))
                | Stop::Engine(n, EngineError::Stopped) => (n, Unknown::Limit),
                Stop::Enumerate(EnumerateError::TooMany(n)) => {
                    (n, Unknown::TooLarge { positions: n as u64, max: max as u64 })
                }
                Stop::Enumerate(EnumerateError::NoKey) => (
                    0,
                    Unknown::Unsupported(
                        "the retrograde solver needs Game::exact_key, which this game (or this \
                         board size) lacks"
                            .into(),
                    ),
                ),
                Stop::Engine(n, e) => (n, Unknown::GaveUp(engine_failure(e))),
            };
            let stats = Stats { nodes: nodes as u64, elapsed: start.elapsed(), ..Stats::default() };
            Report::unknown_because(reason, stats)
        };
        let (graph, root_moves) = match GraphModel::enumerate(root, max, || stopped(limits, start))
        {
            Ok(g) => g,
            Err(e) => return unknown(Stop::Enumerate(e)),
        };
        let nodes = graph.len();
        let cells = with_stop_flag(limits, start, |flag| {
            let control = Control { progress: None, stop: Some(flag) };
            solve_layer(&graph, 0, &[], None, &control)
        });
        let cells = match cells {
            Ok(c) => c,
            Err(e) => return unknown(Stop::Engine(nodes, e)),
        };
        // The root is id 0; its best move leads to a child that keeps its value.
        let (value, distance) = (cell::value(cells[0]), cell::distance(cells[0]));
        let wanted = match value {
            WIN => LOSS,
            LOSS => WIN,
            _ => DRAW,
        };
        let best_move = root_moves.iter().find_map(|&(mv, c)| {
            let c = cells[c as usize];
            (cell::value(c) == wanted && (wanted == DRAW || cell::distance(c) + 1 == distance))
                .then_some(mv)
        });
        let (outcome, plies) = match value {
            WIN => (Outcome::Win, Some(u32::from(distance))),
            LOSS => (Outcome::Loss, Some(u32::from(distance))),
            _ => (Outcome::Draw, None),
        };
        let stats = Stats {
            nodes: nodes as u64,
            max_depth: graph.depth(),
            elapsed: start.elapsed(),
            ..Stats::default()
        };
        Report::solved(outcome, plies, best_move, stats)
    }
}

/// Why the engine could not solve the graph, in words.
fn engine_failure(e: EngineError) -> String {
    match e {
        EngineError::TooManyMoves => "the retrograde engine takes at most 255 distinct moves \
                                      per position, and a position has more"
            .into(),
        EngineError::LayerTooLarge(n) => {
            format!("the retrograde engine takes at most {} positions, not {n}", solve::MAX_LAYER)
        }
        e => format!("the retrograde engine gave up: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;
    use crate::games::digraph::Digraph;

    fn solve(succ: &[&[u8]], at: u8) -> Report<u8> {
        let g = Digraph::new(succ.iter().map(|s| s.to_vec()).collect(), at);
        RetroSolver::new().solve(&g, &Limits::none())
    }

    #[test]
    fn a_pure_cycle_is_a_draw() {
        // 0 -> 1 -> 2 -> 0: nobody can ever be stuck.
        let r = solve(&[&[1], &[2], &[0]], 0);
        assert_eq!(r.value(), Some(Value::Draw));
        assert_eq!(r.best_move, Some(1));
        assert_eq!(r.stats.nodes, 3);
        assert_eq!(r.stats.max_depth, 2);
    }

    #[test]
    fn a_cycle_with_an_exit_that_loses_for_the_leaver() {
        // From 0 the mover can go round 0 -> 1 -> 0 or step to 2, from where the opponent
        // moves to the dead end 3 and wins. Nobody wants to leave: a draw. From 1 the only
        // move returns to 0: also a draw.
        let succ: &[&[u8]] = &[&[1, 2], &[0], &[3], &[]];
        assert_eq!(solve(succ, 0).value(), Some(Value::Draw));
        assert_eq!(solve(succ, 0).best_move, Some(1));
        assert_eq!(solve(succ, 1).value(), Some(Value::Draw));
        assert_eq!(solve(succ, 2).value(), Some(Value::Win(1)));
        assert_eq!(solve(succ, 3).value(), Some(Value::Loss(0)));
    }

    #[test]
    fn a_cycle_with_a_winning_exit_is_won() {
        // 0 -> 1 -> 0 and 0 -> 2 (dead end): the mover at 0 wins at once; at 1 the only move
        // gives the opponent that win.
        let succ: &[&[u8]] = &[&[1, 2], &[0], &[]];
        assert_eq!(solve(succ, 0).value(), Some(Value::Win(1)));
        assert_eq!(solve(succ, 0).best_move, Some(2));
        assert_eq!(solve(succ, 1).value(), Some(Value::Loss(2)));
    }

    #[test]
    fn distances_are_shortest_wins_and_longest_losses() {
        // 0 wins at once via 3 (dead end); 1 must move to 2, which then wins via 3. 5 loses:
        // both its moves reach wins for the opponent.
        let succ: &[&[u8]] = &[&[1, 3], &[2], &[3], &[], &[5], &[0, 2]];
        assert_eq!(solve(succ, 0).value(), Some(Value::Win(1)));
        assert_eq!(solve(succ, 2).value(), Some(Value::Win(1)));
        assert_eq!(solve(succ, 1).value(), Some(Value::Loss(2)));
        // 5 -> 0 (win 1) or 5 -> 2 (win 1): loss in 2.
        assert_eq!(solve(succ, 5).value(), Some(Value::Loss(2)));
        assert_eq!(solve(succ, 4).value(), Some(Value::Win(3)));
    }

    #[test]
    fn the_position_cap_gives_unknown() {
        let r = RetroSolver::new()
            .solve(&Digraph::new(vec![vec![1], vec![2], vec![0]], 0), &Limits::nodes(2));
        assert_eq!(r.outcome, None);
        assert_eq!(r.unknown, Some(Unknown::TooLarge { positions: 3, max: 2 }));
        assert_eq!(r.unknown.unwrap().to_string(), "more than 2 positions");
        assert_eq!(r.stats.nodes, 3);
    }

    #[test]
    fn the_stop_flag_and_the_time_limit_give_unknown() {
        let succ: Vec<Vec<u8>> = (0..64u8).map(|v| vec![(v + 1) % 64, (v + 7) % 64]).collect();
        let g = Digraph::new(succ, 0);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let limits = Limits { stop: Some(stop.clone()), ..Limits::none() };
        let r = RetroSolver::new().solve(&g, &limits);
        assert_eq!((r.outcome, r.unknown), (None, Some(Unknown::Limit)));
        stop.store(false, Ordering::Relaxed);
        let r = RetroSolver::new().solve(&g, &limits);
        assert_eq!((r.value(), r.unknown), (Some(Value::Draw), None));
        let limits = Limits { time: Some(std::time::Duration::ZERO), ..Limits::none() };
        let r = RetroSolver::new().solve(&g, &limits);
        assert_eq!((r.outcome, r.unknown), (None, Some(Unknown::Limit)));
    }

    #[test]
    fn a_game_without_exact_key_gives_unknown() {
        use crate::notation::Notation;
        let g = crate::games::gauss::Gauss::parse_position(crate::games::gauss::notation::START)
            .unwrap();
        let r = RetroSolver::new().solve(&g, &Limits::none());
        assert_eq!(r.outcome, None);
        assert!(
            matches!(&r.unknown, Some(Unknown::Unsupported(why)) if why.contains("exact_key")),
            "{:?}",
            r.unknown
        );
    }
}
