//! Best-first proof-number search (Allis) over an arena of nodes.
//!
//! The tree lives in one `Vec<Node>` of 16 bytes plus the move; a node names its first child by
//! `u32` index and the children of a node are contiguous. There is no parent link: the descent
//! keeps the path of indices it took, and the update walks back along it. There is no
//! transposition table, so the tree is a real tree and every node has exactly one path to the
//! root.
//!
//! # What is proven
//!
//! The outcome is found with two boolean searches: "does the side to move win?" and, if that is
//! disproven, "does the opponent win?"; if both are disproven the root is a draw. In each search
//! one side is the *prover*; at its nodes (OR nodes) the proof number is the minimum over the
//! children and the disproof number the sum, and the other way round at the other side's nodes
//! (AND nodes).
//!
//! # Initial numbers
//!
//! A new leaf that is a finished game or a repetition is solved at once; any other new leaf
//! gets mobility numbers (df-pn+, Nagai): `pn = 1, dn = moves` at OR nodes, `pn = moves,
//! dn = 1` at AND nodes. On 3x4 and 4x4 Ataxx (wins in 3) this cuts the search from a few
//! hundred expansions to 22.
//!
//! # Cycles
//!
//! A child whose position repeats one on its own tree path (root included) is a draw leaf, that
//! is, a disproof for whichever side is the prover. Because the tree has no transpositions this
//! path dependence is harmless: every node is evaluated only in the context of its own path, and
//! at the root the result is exactly the value of [`BruteSolver`](super::brute::BruteSolver).
//!
//! # Memory
//!
//! Once a node other than the root is proven or disproven, nothing below it is ever looked at
//! again (the descent never enters a solved node), so its subtree is released: every child
//! block below it goes to a free list kept per block length, and later expansions with that
//! many moves reuse it. The root's children are kept for the best move; for a loss the most
//! stubborn move is the root child whose proof took the most expansions, counted on the way.
//!
//! The arena holds at most `tt_mib` MiB worth of nodes (and at least [`MIN_NODES`]); when an
//! expansion would overflow it and no released block of the right length is free, the search
//! gives up and reports an unknown outcome.

use std::time::Instant;

use super::history::History;
use super::{Limits, Report, Solver, SolverOptions, Stats};
use crate::game::{Game, MoveList, Outcome};

/// Proof or disproof number of a solved node's losing side.
const INF: u32 = u32::MAX;
/// Largest proof or disproof number of an unsolved node.
const MAX_FINITE: u32 = INF - 1;
/// Index meaning "no node".
const NONE: u32 = u32::MAX;
/// The arena always has room for at least this many nodes, whatever `tt_mib` says.
pub const MIN_NODES: usize = 1 << 12;

/// One node of the tree: 16 bytes plus the move (20 bytes for two-byte moves).
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// Proof number (for the prover of the current boolean search).
    pn: u32,
    /// Disproof number.
    dn: u32,
    /// First child index (`NONE` until expanded, and again once the subtree is released).
    first_child: u32,
    /// Number of children.
    children: u32,
    /// The move from the parent (`None` for the root).
    mv: Option<M>,
}

impl<M> Node<M> {
    fn leaf(mv: Option<M>, pn: u32, dn: u32) -> Self {
        Node { pn, dn, first_child: NONE, children: 0, mv }
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.children) as usize
    }

    fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Best-first proof-number search; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct PnsSolver {
    /// Arena budget in bytes.
    bytes: usize,
    /// Most nodes the arena may hold, overriding `bytes` (tests).
    node_cap: Option<usize>,
    /// [`SolverOptions::weak_numbers`].
    weak: bool,
}

/// Why a boolean search ended without an answer.
struct Stopped;

/// One boolean search: the arena, the free blocks, the path and the counters.
struct Search<'a, G: Game> {
    nodes: Vec<Node<G::Move>>,
    max_nodes: usize,
    /// Released child blocks, by length: `free[n]` holds first indices of blocks of `n` nodes.
    free: Vec<Vec<u32>>,
    /// Indices from the root to the current leaf.
    path: Vec<u32>,
    /// Expansions below each root child (for choosing the most stubborn losing move).
    root_work: Vec<u64>,
    /// Whether the side to move at the root is the prover.
    root_proves: bool,
    /// Weak proof numbers ([`SolverOptions::weak_numbers`]).
    weak: bool,
    limits: &'a Limits,
    start: Instant,
    stats: &'a mut Stats,
}

impl PnsSolver {
    /// A solver whose arena is bounded by `options.tt_mib` MiB (threads and epsilon unused).
    pub fn new(options: &SolverOptions) -> Self {
        PnsSolver {
            bytes: options.tt_mib.saturating_mul(1 << 20),
            node_cap: None,
            weak: options.weak_numbers,
        }
    }

    /// Most nodes the arena holds for moves of type `M`.
    fn max_nodes<M>(&self) -> usize {
        self.node_cap.unwrap_or_else(|| {
            (self.bytes / size_of::<Node<M>>()).clamp(MIN_NODES, NONE as usize - 1)
        })
    }
}

impl<G: Game> Search<'_, G> {
    /// Whether the mover at `depth` plies below the root is the prover.
    fn is_or(&self, depth: u32) -> bool {
        depth.is_multiple_of(2) == self.root_proves
    }

    /// Runs until the root is solved; `Ok(true)` when proven, `Ok(false)` when disproven.
    fn run(&mut self, root: &G) -> Result<bool, Stopped> {
        self.nodes.clear();
        self.free.iter_mut().for_each(Vec::clear);
        self.root_work.clear();
        self.nodes.push(Node::leaf(None, 1, 1));
        let mut history = History::new();
        let mut moves = G::Moves::default();
        let mut next_check = 0;
        while !self.nodes[0].is_solved() {
            if self.stats.nodes >= next_check {
                next_check = self.stats.nodes + 1024;
                if self.limits.is_exceeded(self.stats.nodes, self.start) {
                    return Err(Stopped);
                }
            }
            // Descend to the most-proving leaf.
            let mut pos = root.clone();
            history.clear();
            history.push(pos.hash());
            self.path.clear();
            self.path.push(0);
            let mut cur = 0usize;
            let mut depth = 0u32;
            while self.nodes[cur].first_child != NONE {
                let or = self.is_or(depth);
                let range = self.nodes[cur].range();
                let best = range
                    .min_by_key(|&c| if or { self.nodes[c].pn } else { self.nodes[c].dn })
                    .expect("an expanded unsolved node has children");
                pos.play(self.nodes[best].mv.expect("a child has a move"));
                history.push(pos.hash());
                self.path.push(best as u32);
                cur = best;
                depth += 1;
            }
            self.stats.max_depth = self.stats.max_depth.max(depth);
            if let Some(&child) = self.path.get(1) {
                self.root_work[child as usize - self.nodes[0].first_child as usize] += 1;
            }
            self.expand(cur, depth, &pos, &history, &mut moves)?;
            if cur == 0 {
                self.root_work = vec![0; self.nodes[0].children as usize];
            }
            self.update_ancestors();
        }
        Ok(self.nodes[0].pn == 0)
    }

    /// A block of `n` consecutive free nodes: a released one, or new ones at the arena's end.
    fn allocate(&mut self, n: usize) -> Result<usize, Stopped> {
        if let Some(first) = self.free.get_mut(n).and_then(Vec::pop) {
            return Ok(first as usize);
        }
        if self.nodes.len() + n > self.max_nodes {
            return Err(Stopped);
        }
        let first = self.nodes.len();
        self.nodes.resize(first + n, Node::leaf(None, 1, 1));
        Ok(first)
    }

    /// Creates the children of leaf `cur` (at `depth`, position `pos`, path `history`).
    fn expand(
        &mut self,
        cur: usize,
        depth: u32,
        pos: &G,
        history: &History,
        moves: &mut G::Moves,
    ) -> Result<(), Stopped> {
        self.stats.nodes += 1;
        moves.clear();
        pos.generate_moves(moves);
        let first = self.allocate(moves.len())?;
        let child_or = self.is_or(depth + 1);
        let mut grand = G::Moves::default();
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let prover_wins = match child.outcome() {
                Some(o) => Some(if child_or { o == Outcome::Win } else { o == Outcome::Loss }),
                None if history.repeats(&child) => Some(false),
                None => None,
            };
            let (pn, dn) = match prover_wins {
                Some(true) => (0, INF),
                Some(false) => (INF, 0),
                None => {
                    // Mobility: one good move proves an OR node, all must be refuted at an
                    // AND node.
                    grand.clear();
                    child.generate_moves(&mut grand);
                    let n = (grand.len() as u32).clamp(1, MAX_FINITE);
                    if child_or { (1, n) } else { (n, 1) }
                }
            };
            self.nodes[first + i] = Node::leaf(Some(mv), pn, dn);
        }
        self.nodes[cur].first_child = first as u32;
        self.nodes[cur].children = moves.len() as u32;
        Ok(())
    }

    /// Recomputes the numbers of the freshly expanded leaf at the end of the path and of its
    /// ancestors while they change; releases the subtree of every node that becomes solved.
    fn update_ancestors(&mut self) {
        for k in (0..self.path.len()).rev() {
            let cur = self.path[k] as usize;
            let node = self.nodes[cur];
            let or = self.is_or(k as u32);
            let (mut min, mut sum, mut max, mut open) = (INF, 0u32, 0u32, 0u32);
            for child in &self.nodes[node.range()] {
                let (m, s) = if or { (child.pn, child.dn) } else { (child.dn, child.pn) };
                min = min.min(m);
                sum = sum.saturating_add(s);
                max = max.max(s);
                open += u32::from(s != 0);
            }
            if self.weak {
                // Weak proof numbers: the largest plus one per other open child.
                sum = max.saturating_add(open.saturating_sub(1));
            }
            let sum = if min == 0 { INF } else { sum.min(MAX_FINITE) };
            let (pn, dn) = if or { (min, sum) } else { (sum, min) };
            if k + 1 < self.path.len() && pn == node.pn && dn == node.dn {
                return;
            }
            self.nodes[cur].pn = pn;
            self.nodes[cur].dn = dn;
            if cur != 0 && (pn == 0 || dn == 0) {
                self.release_below(cur);
            }
        }
    }

    /// Returns every node below `top` to the free lists; `top` becomes a leaf.
    fn release_below(&mut self, top: usize) {
        let mut stack = vec![top];
        while let Some(x) = stack.pop() {
            let node = self.nodes[x];
            if node.first_child == NONE {
                continue;
            }
            stack.extend(node.range());
            let n = node.children as usize;
            if self.free.len() <= n {
                self.free.resize_with(n + 1, Vec::new);
            }
            self.free[n].push(node.first_child);
            self.nodes[x].first_child = NONE;
            self.nodes[x].children = 0;
        }
    }

    /// The root child `i` (index within the root's children) and its move.
    fn root_child(&self, i: usize) -> &Node<G::Move> {
        &self.nodes[self.nodes[0].first_child as usize + i]
    }
}

impl<G: Game> Solver<G> for PnsSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        if let Some(outcome) = root.outcome() {
            return Report::finished(outcome, None, start);
        }
        let mut stats = Stats::default();
        let mut search = Search::<G> {
            nodes: Vec::new(),
            max_nodes: self.max_nodes::<G::Move>(),
            free: Vec::new(),
            path: Vec::new(),
            root_work: Vec::new(),
            root_proves: true,
            weak: self.weak,
            limits,
            start,
            stats: &mut stats,
        };
        let answer = (|| {
            if search.run(root)? {
                // Win: a move to a child proven lost for the opponent.
                let n = search.nodes[0].children as usize;
                let i = (0..n).find(|&i| search.root_child(i).pn == 0).expect("proof move");
                return Ok((Outcome::Win, search.root_child(i).mv));
            }
            // Without draws a disproved win is a loss; otherwise ask whether the opponent wins.
            if G::DRAWS {
                search.root_proves = false;
                if !search.run(root)? {
                    // Draw: a move to a child where the opponent's win is disproven.
                    let n = search.nodes[0].children as usize;
                    let i = (0..n).find(|&i| search.root_child(i).dn == 0).expect("drawing move");
                    return Ok((Outcome::Draw, search.root_child(i).mv));
                }
            }
            // Loss: every move loses; resist where the last search took most expansions.
            let work = &search.root_work;
            let i = (0..work.len()).max_by_key(|&i| work[i]).expect("a move");
            Ok((Outcome::Loss, search.root_child(i).mv))
        })();
        drop(search);
        stats.elapsed = start.elapsed();
        match answer {
            Ok((outcome, best_move)) => Report::solved(outcome, None, best_move, stats),
            Err(Stopped) => Report::unknown(stats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{brute, check, layered, positions};

    #[test]
    fn pns_matches_brute() {
        let mut solver = PnsSolver::new(&SolverOptions { tt_mib: 1, ..SolverOptions::default() });
        let mut outcomes = [0u32; 3];
        for pos in positions(5000, 1500) {
            let expected = brute(&pos);
            outcomes[expected as usize] += 1;
            let report = solver.solve(&pos, &Limits::none());
            check(&pos, expected, &report, "pns");
        }
        assert!(outcomes.iter().all(|&n| n > 10), "{outcomes:?}");
    }

    #[test]
    fn pns_weak_numbers_match_brute() {
        let mut solver =
            PnsSolver::new(&SolverOptions { weak_numbers: true, ..SolverOptions::default() });
        for pos in positions(3000, 1000) {
            let expected = brute(&pos);
            let report = solver.solve(&pos, &Limits::none());
            check(&pos, expected, &report, "pns weak");
        }
    }

    #[test]
    fn limits_give_unknown() {
        let big = layered(60, 5, 25);
        let mut solver = PnsSolver::new(&SolverOptions::default());
        assert_eq!(solver.solve(&big, &Limits::nodes(10)).outcome, None);
        assert_eq!(solver.solve(&big, &Limits::none()).outcome, Some(brute(&big)));
        // A full arena is a stop too.
        let mut tiny = PnsSolver::new(&SolverOptions { tt_mib: 0, ..SolverOptions::default() });
        tiny.node_cap = Some(8);
        assert_eq!(tiny.solve(&big, &Limits::none()).outcome, None);
    }
}
