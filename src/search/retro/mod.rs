//! Retrograde analysis: every position reachable from the root, labelled backwards from the
//! game ends. Exact for games with cycles, draws included.
//!
//! Three steps:
//!
//! 1. **Enumerate.** Breadth-first from the root over [`Game::generate_moves`] and
//!    [`Game::play`]; each new position gets the next dense `u32` id. Positions are told apart
//!    by [`Game::exact_key`], an injective 128-bit key, in an open-addressing table of ids (no
//!    Zobrist hash as a key, so no silent collision). Children are recorded as forward edges in
//!    CSR form (positions are expanded in id order, so the offsets come for free).
//! 2. **Reverse.** The forward edges become predecessor lists, again in CSR form; the forward
//!    lists are dropped and only each position's number of moves is kept.
//! 3. **Label.** Finished positions take [`Game::outcome`] at distance 0. A FIFO queue then
//!    spreads results to predecessors: a predecessor of a loss is a win (one ply longer); a
//!    predecessor whose moves have all turned out to be wins for the opponent is a loss (its
//!    count of unresolved moves reaches zero). The queue holds positions in order of distance,
//!    so a win gets the shortest distance and a loss the longest, as minimax with
//!    [`Value`](super::Value) ordering does. Whatever is still unresolved at the end is a
//!    **draw**: neither side can force the game to end in its favour, so best play goes on
//!    forever (or ends in a drawn finish).
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
//! Memory: per position about 16 bytes of key, 4 to 8 of table slots, 16 of predecessor
//! offsets (two copies while they are filled), 4 of move count and 7 of outcome, label and
//! distance; 8 bytes per move (forward and reverse edge, both alive while the reverse lists
//! are built); and the positions waiting in the breadth-first queue. On GIPF S = 3 that comes
//! to 85 to 125 bytes per position. The node limit of [`Limits`] caps the
//! number of positions ([`DEFAULT_MAX_POSITIONS`] without one): past it the solver reports
//! `unknown` instead of exhausting memory. The time limit and the stop flag are checked at the
//! start and every few thousand positions in every step. Single-threaded; a thread count is accepted and
//! ignored.

pub mod ataxx;
pub mod driver;
pub mod file;
pub mod gipf;
pub mod hidden;
pub mod keyset;
pub mod layers;
pub mod model;
pub mod solve;
pub mod store;
pub mod strong;
pub mod table;
pub mod values;

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Limits, Report, Solver, Stats, Unknown};
use crate::game::{Game, MoveList, Outcome};

/// Cap on the positions enumerated when the limits give no node limit (about 5 GB for GIPF).
pub const DEFAULT_MAX_POSITIONS: usize = 50_000_000;

/// How often (in positions) the time limit and the stop flag are looked at.
const CHECK_EVERY: usize = 4096;

/// Label of a position while labelling.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

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

/// An open-addressing set of 128-bit keys, each with a dense id (its insertion order).
///
/// Slots hold `id + 1` (0 = empty) and the keys live in one vector indexed by id, so a
/// position costs 16 bytes of key and 4 to 8 bytes of slots (load kept at most 1/2).
struct KeyIds {
    keys: Vec<u128>,
    slots: Vec<u32>,
    mask: usize,
}

impl KeyIds {
    fn new() -> Self {
        KeyIds { keys: Vec::new(), slots: vec![0; 1024], mask: 1023 }
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let h = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h ^ (h >> 29)) as usize) & mask
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    /// The id of `key`, if it is in the set.
    fn get(&self, key: u128) -> Option<u32> {
        let mut i = Self::slot_of(key, self.mask);
        loop {
            match self.slots[i] {
                0 => return None,
                s if self.keys[s as usize - 1] == key => return Some(s - 1),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// The id of `key` and whether it is new (then it gets the next id).
    fn insert(&mut self, key: u128) -> (u32, bool) {
        let mut i = Self::slot_of(key, self.mask);
        loop {
            match self.slots[i] {
                0 => break,
                s if self.keys[s as usize - 1] == key => return (s - 1, false),
                _ => i = (i + 1) & self.mask,
            }
        }
        let id = self.keys.len() as u32;
        self.keys.push(key);
        self.slots[i] = id + 1;
        if 2 * self.keys.len() > self.slots.len() {
            self.grow();
        }
        (id, true)
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mask = size - 1;
        let mut slots = vec![0u32; size];
        for (id, &key) in self.keys.iter().enumerate() {
            let mut i = Self::slot_of(key, mask);
            while slots[i] != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = id as u32 + 1;
        }
        self.slots = slots;
        self.mask = mask;
    }
}

/// Why a solve gave up.
enum Stop {
    /// Time limit or stop flag, after enumerating this many positions.
    Limit(usize),
    /// More positions than allowed: this many were enumerated (the cap plus one).
    TooMany(usize),
    /// A position without an exact key.
    NoKey,
}

/// The reachable position graph: ids, and each position's move count and predecessors.
struct Retro {
    ids: KeyIds,
    /// Number of moves of each position (0 for finished ones), counted down while labelling.
    remaining: Vec<u32>,
    /// Outcome of each finished position (`None` for positions in play).
    finished: Vec<Option<Outcome>>,
    /// Predecessor lists in CSR form: those of `i` are `preds[pred_start[i]..pred_start[i+1]]`.
    pred_start: Vec<usize>,
    preds: Vec<u32>,
    /// Deepest breadth-first layer (plies from the root to the farthest position).
    layers: u32,
}

impl Retro {
    /// Enumerates every position reachable from `root` and builds the predecessor lists.
    fn build<G: Game>(
        root: &G,
        max: usize,
        limits: &Limits,
        start: Instant,
    ) -> Result<Retro, Stop> {
        let mut ids = KeyIds::new();
        let root_key = root.exact_key().ok_or(Stop::NoKey)?;
        ids.insert(root_key);
        let mut queue = VecDeque::from([root.clone()]);
        let mut starts: Vec<usize> = Vec::new();
        let mut targets: Vec<u32> = Vec::new();
        let mut finished = Vec::new();
        let mut moves = G::Moves::default();
        let (mut layers, mut layer_end) = (0u32, 1usize);
        let mut expanded = 0usize;
        while let Some(pos) = queue.pop_front() {
            if expanded == layer_end {
                layers += 1;
                layer_end = ids.len();
            }
            expanded += 1;
            if expanded.is_multiple_of(CHECK_EVERY) && stopped(limits, start) {
                return Err(Stop::Limit(ids.len()));
            }
            starts.push(targets.len());
            let outcome = pos.outcome();
            finished.push(outcome);
            if outcome.is_some() {
                continue;
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play(mv);
                let key = child.exact_key().ok_or(Stop::NoKey)?;
                let (id, new) = ids.insert(key);
                if new {
                    if ids.len() > max {
                        return Err(Stop::TooMany(ids.len()));
                    }
                    queue.push_back(child);
                }
                targets.push(id);
            }
        }
        starts.push(targets.len());
        drop(queue);
        let n = ids.len();
        let remaining: Vec<u32> = starts.windows(2).map(|w| (w[1] - w[0]) as u32).collect();
        drop(starts);
        // Counting sort of the edges by target.
        let mut pred_start = vec![0usize; n + 1];
        for &t in &targets {
            pred_start[t as usize + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut fill = pred_start.clone();
        let mut preds = vec![0u32; targets.len()];
        let mut source = 0usize;
        let mut left = remaining.first().copied().unwrap_or(0);
        for (e, &t) in targets.iter().enumerate() {
            while left == 0 {
                source += 1;
                left = remaining[source];
            }
            left -= 1;
            preds[fill[t as usize]] = source as u32;
            fill[t as usize] += 1;
            if e % (CHECK_EVERY * 16) == 0 && stopped(limits, start) {
                return Err(Stop::Limit(n));
            }
        }
        Ok(Retro { ids, remaining, finished, pred_start, preds, layers })
    }

    /// Labels every position: win or loss with its distance, or draw. Returns labels and
    /// distances (the distance of a draw is meaningless).
    fn label(&mut self, limits: &Limits, start: Instant) -> Result<(Vec<u8>, Vec<u32>), Stop> {
        let n = self.ids.len();
        let mut label = vec![UNKNOWN; n];
        let mut dist = vec![0u32; n];
        let mut queue: Vec<u32> = Vec::new();
        for (i, f) in self.finished.iter().enumerate() {
            match f {
                Some(Outcome::Win) => label[i] = WIN,
                Some(Outcome::Loss) => label[i] = LOSS,
                Some(Outcome::Draw) => label[i] = DRAW,
                None => continue,
            }
            if label[i] != DRAW {
                queue.push(i as u32);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head] as usize;
            head += 1;
            if head.is_multiple_of(CHECK_EVERY * 16) && stopped(limits, start) {
                return Err(Stop::Limit(n));
            }
            let d = dist[c] + 1;
            for &p in &self.preds[self.pred_start[c]..self.pred_start[c + 1]] {
                let p = p as usize;
                if label[p] != UNKNOWN {
                    continue;
                }
                if label[c] == LOSS {
                    label[p] = WIN;
                } else {
                    self.remaining[p] -= 1;
                    if self.remaining[p] > 0 {
                        continue;
                    }
                    label[p] = LOSS;
                }
                dist[p] = d;
                queue.push(p as u32);
            }
        }
        for l in &mut label {
            if *l == UNKNOWN {
                *l = DRAW;
            }
        }
        Ok((label, dist))
    }
}

fn stopped(limits: &Limits, start: Instant) -> bool {
    limits.time.is_some_and(|t| start.elapsed() >= t)
        || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
}

impl<G: Game> Solver<G> for RetroSolver {
    /// Solves `root` exactly; a node limit caps the positions enumerated. Reports `unknown`
    /// with its reason ([`Report::unknown`]) past the cap ([`Unknown::TooLarge`]), for games
    /// without [`Game::exact_key`] ([`Unknown::Unsupported`]), and when the time limit or stop
    /// flag ends the solve ([`Unknown::Limit`]).
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
                Stop::Limit(n) => (n, Unknown::Limit),
                Stop::TooMany(n) => (n, Unknown::TooLarge { positions: n as u64, max: max as u64 }),
                Stop::NoKey => (
                    0,
                    Unknown::Unsupported(
                        "the retrograde solver needs Game::exact_key, which this game (or this \
                         board size) lacks"
                            .into(),
                    ),
                ),
            };
            let stats = Stats { nodes: nodes as u64, elapsed: start.elapsed(), ..Stats::default() };
            Report::unknown_because(reason, stats)
        };
        if stopped(limits, start) {
            return unknown(Stop::Limit(0));
        }
        let mut retro = match Retro::build(root, max, limits, start) {
            Ok(r) => r,
            Err(stop) => return unknown(stop),
        };
        let nodes = retro.ids.len();
        let (label, dist) = match retro.label(limits, start) {
            Ok(l) => l,
            Err(stop) => return unknown(stop),
        };
        // The root is id 0; its best move leads to a child that keeps its value.
        let mut moves = G::Moves::default();
        root.generate_moves(&mut moves);
        let wanted = match label[0] {
            WIN => LOSS,
            LOSS => WIN,
            _ => DRAW,
        };
        let best_move = moves.iter().copied().find(|&mv| {
            let mut child = root.clone();
            child.play(mv);
            let Some(c) = child.exact_key().and_then(|k| retro.ids.get(k)) else { return false };
            let c = c as usize;
            label[c] == wanted && (wanted == DRAW || dist[c] + 1 == dist[0])
        });
        let (outcome, plies) = match label[0] {
            WIN => (Outcome::Win, Some(dist[0])),
            LOSS => (Outcome::Loss, Some(dist[0])),
            _ => (Outcome::Draw, None),
        };
        let stats = Stats {
            nodes: nodes as u64,
            max_depth: retro.layers,
            elapsed: start.elapsed(),
            ..Stats::default()
        };
        Report::solved(outcome, plies, best_move, stats)
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

    #[test]
    fn key_ids_survive_growth() {
        let mut ids = KeyIds::new();
        for i in 0..10_000u128 {
            assert_eq!(ids.insert((i * 0x1_0000_0001) << 40), (i as u32, true));
        }
        for i in 0..10_000u128 {
            assert_eq!(ids.insert((i * 0x1_0000_0001) << 40), (i as u32, false));
            assert_eq!(ids.get((i * 0x1_0000_0001) << 40), Some(i as u32));
        }
        assert_eq!(ids.get(7), None);
    }
}
