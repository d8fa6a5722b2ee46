//! [`GraphModel`]: the positions reachable from a root, enumerated breadth-first, as ONE layer
//! of the layered engine ([`super::solve`]), so that any game with [`Game::exact_key`] is
//! solved by the same propagation as the indexed games ([`super::RetroSolver`]).
//!
//! The enumeration gives each position a dense `u32` id in breadth-first order (the root is
//! id 0), tells positions apart by their exact keys ([`KeyIds`]) and records each position's
//! distinct children as forward edges in CSR form. The keys are dropped once the graph is
//! built: the model answers the engine from the edges and the finished positions' outcomes
//! alone, without the game.
//!
//! Every move stays inside the one layer. Once enumerated, the forward edges are reversed into
//! parent lists (CSR, a counting sort) and dropped, keeping each position's number of distinct
//! children: the engine then walks back through [`LayerModel::for_each_layer_parent`] as it
//! does with the un-moves of the indexed games, one lookup per decided position. (Reporting
//! every move as a *hidden* edge instead, [`LayerModel::expand`], was measured slower and
//! larger: on Ataxx 3x5, one thread, 48.5 s and 969 MB against 38.0 s and 759 MB with the
//! parent lists, and 41.2 s and 899 MB for the breadth-first labelling this replaced.)

use std::collections::VecDeque;

use super::model::LayerModel;
use super::values::{code, outcome};
use crate::game::{Game, MoveList, Outcome};

/// How often (in positions expanded) the enumeration asks whether to stop.
pub const CHECK_EVERY: usize = 4096;

/// An open-addressing set of 128-bit keys, each with a dense id (its insertion order).
///
/// Slots hold `id + 1` (0 = empty) and the keys live in one vector indexed by id, so a
/// position costs 16 bytes of key and 8 to 16 bytes of slots (load kept between 1/4 and 1/2).
pub struct KeyIds {
    keys: Vec<u128>,
    slots: Vec<u32>,
    mask: usize,
}

impl Default for KeyIds {
    fn default() -> Self {
        KeyIds::new()
    }
}

impl KeyIds {
    /// An empty set.
    pub fn new() -> Self {
        KeyIds { keys: Vec::new(), slots: vec![0; 1024], mask: 1023 }
    }

    #[inline]
    fn slot_of(key: u128, mask: usize) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let h = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h ^ (h >> 29)) as usize) & mask
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The id of `key`, if it is in the set.
    pub fn get(&self, key: u128) -> Option<u32> {
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
    pub fn insert(&mut self, key: u128) -> (u32, bool) {
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

/// Why an enumeration ended without a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnumerateError {
    /// The stop check said stop, after this many positions had been found.
    Stopped(usize),
    /// More positions than allowed: this many were found (the cap plus one).
    TooMany(usize),
    /// A position without an exact key ([`Game::exact_key`]).
    NoKey,
}

/// The positions reachable from a root as one layer of the engine: position `i` is the `i`-th
/// found by the breadth-first enumeration ([`GraphModel::enumerate`]).
#[derive(Clone, Debug, Default)]
pub struct GraphModel {
    /// `starts[i + 1] - starts[i]` is the number of distinct children of `i`.
    starts: Vec<u64>,
    /// While the graph is built: the distinct children of `i` are
    /// `targets[starts[i]..starts[i + 1]]`, in increasing order (dropped by
    /// [`GraphModel::reverse`]).
    targets: Vec<u32>,
    /// The parents of `i` are `parents[parent_starts[i]..parent_starts[i + 1]]`, once per
    /// distinct move to `i`.
    parent_starts: Vec<u64>,
    parents: Vec<u32>,
    /// Per position: the 2-bit code of its outcome if finished ([`code`]), else 0.
    finished: Vec<u8>,
    /// Plies from the root to the farthest position.
    depth: u32,
}

/// A graph and the root's moves, each with the id of the position it leads to (in the order
/// of [`Game::generate_moves`], repeated children included).
pub type Enumerated<M> = (GraphModel, Vec<(M, u32)>);

impl GraphModel {
    /// Enumerates every position reachable from `root`, breadth-first, up to `max` positions.
    /// `stop` is asked at the start and every [`CHECK_EVERY`] positions expanded.
    ///
    /// # Errors
    /// [`EnumerateError::Stopped`] when `stop` says so, [`EnumerateError::TooMany`] past `max`
    /// positions, [`EnumerateError::NoKey`] for a position without an exact key.
    pub fn enumerate<G: Game>(
        root: &G,
        max: usize,
        stop: impl Fn() -> bool,
    ) -> Result<Enumerated<G::Move>, EnumerateError> {
        if stop() {
            return Err(EnumerateError::Stopped(0));
        }
        let mut ids = KeyIds::new();
        ids.insert(root.exact_key().ok_or(EnumerateError::NoKey)?);
        let mut queue = VecDeque::from([root.clone()]);
        let mut graph = GraphModel::default();
        let mut root_moves = Vec::new();
        let mut moves = G::Moves::default();
        let mut layer_end = 1usize;
        let mut expanded = 0usize;
        while let Some(pos) = queue.pop_front() {
            if expanded == layer_end {
                graph.depth += 1;
                layer_end = ids.len();
            }
            expanded += 1;
            if expanded.is_multiple_of(CHECK_EVERY) && stop() {
                return Err(EnumerateError::Stopped(ids.len()));
            }
            let first = graph.targets.len();
            graph.starts.push(first as u64);
            let result = pos.outcome();
            graph.finished.push(result.map_or(0, code));
            if result.is_some() {
                continue;
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play(mv);
                let (id, new) = ids.insert(child.exact_key().ok_or(EnumerateError::NoKey)?);
                if new {
                    if ids.len() > max {
                        return Err(EnumerateError::TooMany(ids.len()));
                    }
                    queue.push_back(child);
                }
                if expanded == 1 {
                    root_moves.push((mv, id));
                }
                graph.targets.push(id);
            }
            dedup_tail(&mut graph.targets, first);
        }
        graph.starts.push(graph.targets.len() as u64);
        drop(queue);
        drop(ids);
        graph.reverse();
        Ok((graph, root_moves))
    }

    /// A graph from successor lists (position `i` moves to each of `successors[i]`, repeats
    /// counted once); a position without successors is finished with `outcome(i)`, whatever
    /// `outcome` says of the others. Depth 0 (no enumeration was done).
    ///
    /// # Panics
    /// If a successor is not below `successors.len()`.
    pub fn from_successors(
        successors: &[Vec<u32>],
        outcome: impl Fn(usize) -> Outcome,
    ) -> GraphModel {
        let n = successors.len();
        let mut graph = GraphModel::default();
        for (i, list) in successors.iter().enumerate() {
            assert!(list.iter().all(|&t| (t as usize) < n), "a successor of {i} is out of range");
            let first = graph.targets.len();
            graph.starts.push(first as u64);
            graph.targets.extend_from_slice(list);
            dedup_tail(&mut graph.targets, first);
            graph.finished.push(if list.is_empty() { code(outcome(i)) } else { 0 });
        }
        graph.starts.push(graph.targets.len() as u64);
        graph.reverse();
        graph
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.finished.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.finished.is_empty()
    }

    /// Number of edges (distinct children summed over the positions).
    pub fn edges(&self) -> usize {
        self.parents.len()
    }

    /// Plies from the root to the farthest position (the number of breadth-first layers after
    /// the root's).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Replaces the forward edges by parent lists (a counting sort by child).
    fn reverse(&mut self) {
        let n = self.len();
        let mut starts = vec![0u64; n + 1];
        for &t in &self.targets {
            starts[t as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut parents = vec![0u32; self.targets.len()];
        for p in 0..n {
            for &t in &self.targets[self.starts[p] as usize..self.starts[p + 1] as usize] {
                parents[fill[t as usize] as usize] = p as u32;
                fill[t as usize] += 1;
            }
        }
        self.targets = Vec::new();
        self.parent_starts = starts;
        self.parents = parents;
    }

    /// The number of distinct children of position `id`.
    pub fn children(&self, id: u32) -> u32 {
        let i = id as usize;
        (self.starts[i + 1] - self.starts[i]) as u32
    }

    /// The parents of position `id`, once per distinct move to it, in increasing order.
    pub fn parents(&self, id: u32) -> &[u32] {
        let i = id as usize;
        &self.parents[self.parent_starts[i] as usize..self.parent_starts[i + 1] as usize]
    }
}

/// Sorts `v[from..]` and removes its repeats.
fn dedup_tail(v: &mut Vec<u32>, from: usize) {
    let tail = &mut v[from..];
    if tail.len() < 2 {
        return;
    }
    tail.sort_unstable();
    let mut kept = 1;
    for i in 1..tail.len() {
        if tail[i] != tail[kept - 1] {
            tail[kept] = tail[i];
            kept += 1;
        }
    }
    v.truncate(from + kept);
}

impl LayerModel for GraphModel {
    /// The position's id.
    type Pos = u32;

    fn layers(&self) -> usize {
        1
    }

    fn layer_size(&self, _layer: usize) -> u64 {
        self.len() as u64
    }

    fn scan(&self, _layer: usize, start: u64, end: u64, mut f: impl FnMut(u64, u32)) {
        for i in start..end.min(self.len() as u64) {
            f(i, i as u32);
        }
    }

    fn position(&self, _layer: usize, index: u64) -> u32 {
        index as u32
    }

    fn outcome(&self, pos: u32) -> Option<Outcome> {
        outcome(self.finished[pos as usize])
    }

    /// There is no next layer.
    fn for_each_next_child(&self, _pos: u32, _f: impl FnMut(u64)) {}

    /// The children themselves are not kept (only their number and the parent lists, which is
    /// all the engine's solve reads); the forward reachability pass, which would need them,
    /// is not used on this model.
    fn for_each_layer_child(&self, _pos: u32, _f: impl FnMut(u64)) {
        unreachable!("GraphModel keeps parent lists, not children: it is not walked forwards");
    }

    fn layer_children(&self, pos: u32) -> u32 {
        self.children(pos)
    }

    fn for_each_layer_parent(&self, pos: u32, mut f: impl FnMut(u64)) {
        for &p in self.parents(pos) {
            f(u64::from(p));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::Value;
    use crate::search::brute::BruteSolver;
    use crate::search::retro::RetroSolver;
    use crate::search::{Limits, Report, Solver, Unknown};
    use crate::zobrist::splitmix64;

    /// A token on a graph whose vertices may have several edges to the same vertex (unlike
    /// [`crate::games::digraph::Digraph`], which merges them and stops at 64 vertices): a move
    /// is the index of an out-edge, and a side whose vertex has none loses.
    #[derive(Clone, Debug)]
    struct Multi {
        successors: Arc<Vec<Vec<u32>>>,
        at: u32,
    }

    impl Multi {
        fn new(successors: Vec<Vec<u32>>, at: u32) -> Self {
            Multi { successors: Arc::new(successors), at }
        }
    }

    impl Game for Multi {
        type Move = u16;
        type Moves = Vec<u16>;

        fn generate_moves(&self, moves: &mut Vec<u16>) {
            moves.extend(0..self.successors[self.at as usize].len() as u16);
        }

        fn play(&mut self, mv: u16) {
            self.at = self.successors[self.at as usize][mv as usize];
        }

        fn outcome(&self) -> Option<Outcome> {
            self.successors[self.at as usize].is_empty().then_some(Outcome::Loss)
        }

        fn hash(&self) -> u64 {
            splitmix64(u64::from(self.at)).1
        }

        fn exact_key(&self) -> Option<u128> {
            Some(u128::from(self.at))
        }
    }

    fn solve(succ: &[&[u32]], at: u32) -> Report<u16> {
        let g = Multi::new(succ.iter().map(|s| s.to_vec()).collect(), at);
        RetroSolver::new().solve(&g, &Limits::none())
    }

    #[test]
    fn two_moves_to_the_same_child_count_once() {
        // 0 moves twice to 1 and once to 2; 1 and 2 win at once by moving to the dead end 3.
        // 0 has two distinct children, both wins for the opponent: a loss in 2 (counting the
        // child 1 twice would leave 0 waiting for a third refutation, and a draw).
        let succ: &[&[u32]] = &[&[1, 1, 2], &[3], &[3], &[]];
        let lists: Vec<Vec<u32>> = succ.iter().map(|s| s.to_vec()).collect();
        let model = GraphModel::from_successors(&lists, |_| Outcome::Loss);
        let mut hidden = Vec::new();
        let inside = model.expand(0, |_, _| panic!("no later layer"), |c| hidden.push(c));
        assert_eq!((inside, hidden), (2, vec![]));
        assert_eq!((model.parents(1), model.parents(3)), (&[0][..], &[1, 2][..]));
        assert_eq!(model.edges(), 4);
        assert_eq!(solve(succ, 0).value(), Some(Value::Loss(2)));
        assert_eq!(solve(succ, 1).value(), Some(Value::Win(1)));
        // The best move of a win is one of its moves to a loss, here moves 1 and 2 of 0 lead to
        // the same child.
        let succ: &[&[u32]] = &[&[2, 1, 1], &[], &[1]];
        let r = solve(succ, 0);
        assert_eq!((r.value(), r.best_move), (Some(Value::Win(1)), Some(1)));
        assert_eq!(r.stats.nodes, 3);
    }

    #[test]
    fn the_enumeration_dedupes_children_and_keeps_the_root_moves() {
        let g = Multi::new(vec![vec![2, 1, 2, 0], vec![0, 0], vec![]], 0);
        let (model, root_moves) = GraphModel::enumerate(&g, 10, || false).unwrap();
        // Breadth-first ids: 0 is the root, then 2 (first move), then 1.
        assert_eq!(root_moves, vec![(0, 1), (1, 2), (2, 1), (3, 0)]);
        assert_eq!((model.children(0), model.children(1), model.children(2)), (3, 0, 1));
        assert_eq!(model.parents(0), &[0, 2]);
        assert_eq!((model.parents(1), model.parents(2)), (&[0][..], &[0][..]));
        assert_eq!((model.len(), model.edges(), model.depth()), (3, 4, 1));
        assert_eq!(model.outcome(1), Some(Outcome::Loss));
        assert_eq!(model.outcome(0), None);
    }

    #[test]
    fn cycles_are_draws_unless_a_side_can_force_an_exit() {
        // 0 -> 1 -> 2 -> 0 with a second edge 0 -> 1: a pure cycle, a draw.
        let r = solve(&[&[1, 1], &[2], &[0]], 0);
        assert_eq!((r.value(), r.best_move), (Some(Value::Draw), Some(0)));
        assert_eq!((r.stats.nodes, r.stats.max_depth), (3, 2));
        // Now 2 can also step to the dead end 3 and win: 1 (only move to 2) loses in 2, and 0
        // wins in 3 by either of its moves to 1.
        let succ: &[&[u32]] = &[&[1, 1], &[2], &[0, 3], &[]];
        assert_eq!(solve(succ, 2).value(), Some(Value::Win(1)));
        assert_eq!(solve(succ, 1).value(), Some(Value::Loss(2)));
        let r = solve(succ, 0);
        assert_eq!((r.value(), r.best_move), (Some(Value::Win(3)), Some(0)));
    }

    #[test]
    fn random_multigraphs_agree_with_brute_force() {
        let mut seed = 48u64;
        let mut next = |m: u64| {
            let (s, x) = splitmix64(seed);
            seed = s;
            x % m
        };
        for _ in 0..300 {
            let n = 2 + next(14) as usize;
            let succ: Vec<Vec<u32>> =
                (0..n).map(|_| (0..next(4)).map(|_| next(n as u64) as u32).collect()).collect();
            for at in 0..n as u32 {
                let g = Multi::new(succ.clone(), at);
                let retro = RetroSolver::new().solve(&g, &Limits::none());
                let brute = BruteSolver::new().solve(&g, &Limits::none());
                assert_eq!(retro.value(), brute.value(), "{succ:?} at {at}");
                if let Some(mv) = retro.best_move {
                    // The best move keeps the value: the child's value is the opposite, one ply
                    // shorter.
                    let mut child = g.clone();
                    child.play(mv);
                    let c = RetroSolver::new().solve(&child, &Limits::none()).value();
                    assert_eq!(c.map(Value::parent), retro.value(), "{succ:?} at {at}");
                }
            }
        }
    }

    #[test]
    fn more_than_255_distinct_moves_give_unknown() {
        // 0 moves to each of 1..=n, dead ends.
        let fan = |n: u32, distinct: bool| {
            let mut succ = vec![(1..=n).map(|c| if distinct { c } else { 1 }).collect()];
            succ.extend((0..n).map(|_| Vec::new()));
            RetroSolver::new().solve(&Multi::new(succ, 0), &Limits::none())
        };
        assert_eq!(fan(255, true).value(), Some(Value::Win(1)));
        assert_eq!(fan(300, false).value(), Some(Value::Win(1)));
        let r = fan(256, true);
        assert_eq!(r.outcome, None);
        assert!(matches!(&r.unknown, Some(Unknown::GaveUp(why)) if why.contains("255")), "{r:?}");
        assert_eq!(r.stats.nodes, 257);
    }

    #[test]
    fn distances_past_the_cells_give_unknown() {
        // A chain 0 -> 1 -> ... -> n - 1 (dead end): 0 is decided in n - 1 plies.
        let chain = |n: u32| {
            let succ = (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { Vec::new() }).collect();
            RetroSolver::new().solve(&Multi::new(succ, 0), &Limits::none())
        };
        let r = chain(1000);
        assert_eq!((r.value(), r.stats.max_depth), (Some(Value::Win(999)), 999));
        let r = chain(20_000);
        assert_eq!(r.outcome, None);
        assert!(matches!(&r.unknown, Some(Unknown::GaveUp(why)) if why.contains("16383")), "{r:?}");
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
