//! Best-first proof-number search (Allis) over an arena of nodes.
//!
//! The tree lives in one `Vec<Node>`; a node names its parent and its first child by `u32`
//! index, and the children of a node are contiguous. There is no transposition table, so the
//! tree is a real tree and every node has exactly one path to the root.
//!
//! # What is proven
//!
//! The outcome is found with two boolean searches: "does the side to move win?" and, if that is
//! disproven, "does the opponent win?"; if both are disproven the root is a draw. In each search
//! one side is the *prover*; at its nodes (OR nodes) the proof number is the minimum over the
//! children and the disproof number the sum, and the other way round at the other side's nodes
//! (AND nodes).
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
//! The arena holds at most `tt_mib` MiB worth of nodes (and at least [`MIN_NODES`]); when an
//! expansion would overflow it the search gives up and reports an unknown outcome.

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

/// One node of the tree.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// Proof number (for the prover of the current boolean search).
    pn: u32,
    /// Disproof number.
    dn: u32,
    /// Parent index (`NONE` for the root).
    parent: u32,
    /// First child index (`NONE` until expanded).
    first_child: u32,
    /// Number of children.
    children: u32,
    /// The move from the parent (`None` for the root).
    mv: Option<M>,
}

impl<M> Node<M> {
    fn leaf(parent: u32, mv: Option<M>, pn: u32, dn: u32) -> Self {
        Node { pn, dn, parent, first_child: NONE, children: 0, mv }
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.children) as usize
    }
}

/// Best-first proof-number search; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct PnsSolver {
    /// Most nodes the arena may hold.
    max_nodes: usize,
}

/// Why a boolean search ended without an answer.
struct Stopped;

/// One boolean search: the arena, the path and the counters.
struct Search<'a, G: Game> {
    nodes: Vec<Node<G::Move>>,
    max_nodes: usize,
    /// Whether the side to move at the root is the prover.
    root_proves: bool,
    limits: &'a Limits,
    start: Instant,
    stats: &'a mut Stats,
}

impl PnsSolver {
    /// A solver whose arena is bounded by `options.tt_mib` MiB (threads and epsilon unused).
    pub fn new(options: &SolverOptions) -> Self {
        let bytes = options.tt_mib.saturating_mul(1 << 20);
        // Node size for a typical small move; exact for one-byte moves.
        let node = size_of::<Node<u16>>();
        PnsSolver { max_nodes: (bytes / node).clamp(MIN_NODES, NONE as usize - 1) }
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
        self.nodes.push(Node::leaf(NONE, None, 1, 1));
        let mut history = History::new();
        let mut moves = G::Moves::default();
        let mut next_check = 0;
        while self.nodes[0].pn != 0 && self.nodes[0].dn != 0 {
            if self.stats.nodes >= next_check {
                next_check = self.stats.nodes + 1024;
                if self.limits.is_exceeded(self.stats.nodes, self.start) {
                    return Err(Stopped);
                }
            }
            // Descend to the most-proving leaf.
            let mut pos = root.clone();
            clear(&mut history);
            history.push(pos.hash());
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
                cur = best;
                depth += 1;
            }
            self.stats.max_depth = self.stats.max_depth.max(depth);
            self.expand(cur, depth, &pos, &history, &mut moves)?;
            self.update_ancestors(cur, depth);
        }
        Ok(self.nodes[0].pn == 0)
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
        if self.nodes.len() + moves.len() > self.max_nodes {
            return Err(Stopped);
        }
        let child_or = self.is_or(depth + 1);
        let first = self.nodes.len() as u32;
        for &mv in moves.iter() {
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
                None => (1, 1),
            };
            self.nodes.push(Node::leaf(cur as u32, Some(mv), pn, dn));
        }
        self.nodes[cur].first_child = first;
        self.nodes[cur].children = moves.len() as u32;
        Ok(())
    }

    /// Recomputes the numbers of the freshly expanded `cur` and of its ancestors while they
    /// change.
    fn update_ancestors(&mut self, mut cur: usize, mut depth: u32) {
        let mut first = true;
        loop {
            let node = self.nodes[cur];
            let or = self.is_or(depth);
            let (mut min, mut sum) = (INF, 0u32);
            for child in &self.nodes[node.range()] {
                let (m, s) = if or { (child.pn, child.dn) } else { (child.dn, child.pn) };
                min = min.min(m);
                sum = sum.saturating_add(s);
            }
            let sum = if min == 0 { INF } else { sum.min(MAX_FINITE) };
            let (pn, dn) = if or { (min, sum) } else { (sum, min) };
            if !first && pn == node.pn && dn == node.dn {
                return;
            }
            first = false;
            self.nodes[cur].pn = pn;
            self.nodes[cur].dn = dn;
            if node.parent == NONE {
                return;
            }
            cur = node.parent as usize;
            depth -= 1;
        }
    }

    /// Size of the subtree under each root child (for choosing the most stubborn losing move).
    fn root_child_sizes(&self) -> Vec<u64> {
        let mut size = vec![1u64; self.nodes.len()];
        for i in (1..self.nodes.len()).rev() {
            let parent = self.nodes[i].parent as usize;
            size[parent] += size[i];
        }
        size[self.nodes[0].range()].to_vec()
    }

    /// The root child `i` (index within the root's children) and its move.
    fn root_child(&self, i: usize) -> &Node<G::Move> {
        &self.nodes[self.nodes[0].first_child as usize + i]
    }
}

/// Empties a [`History`].
fn clear(history: &mut History) {
    while !history.is_empty() {
        history.pop();
    }
}

impl<G: Game> Solver<G> for PnsSolver {
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let start = Instant::now();
        let mut stats = Stats::default();
        if let Some(outcome) = root.outcome() {
            stats.elapsed = start.elapsed();
            return Report { outcome: Some(outcome), plies: None, best_move: None, stats };
        }
        let mut search = Search::<G> {
            nodes: Vec::new(),
            max_nodes: self.max_nodes,
            root_proves: true,
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
            search.root_proves = false;
            if search.run(root)? {
                // Loss: every move loses; resist with the largest subtree.
                let sizes = search.root_child_sizes();
                let i = (0..sizes.len()).max_by_key(|&i| sizes[i]).expect("a move");
                return Ok((Outcome::Loss, search.root_child(i).mv));
            }
            // Draw: a move to a child where the opponent's win is disproven.
            let n = search.nodes[0].children as usize;
            let i = (0..n).find(|&i| search.root_child(i).dn == 0).expect("drawing move");
            Ok((Outcome::Draw, search.root_child(i).mv))
        })();
        drop(search);
        stats.elapsed = start.elapsed();
        match answer {
            Ok((outcome, best_move)) => {
                Report { outcome: Some(outcome), plies: None, best_move, stats }
            }
            Err(Stopped) => Report::unknown(stats),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::dfpn::tests::{brute, check, layered, positions};

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
    fn limits_give_unknown() {
        let big = layered(60, 5, 25);
        let mut solver = PnsSolver::new(&SolverOptions::default());
        assert_eq!(solver.solve(&big, &Limits::nodes(10)).outcome, None);
        assert_eq!(solver.solve(&big, &Limits::none()).outcome, Some(brute(&big)));
        // A full arena is a stop too.
        let mut tiny = PnsSolver::new(&SolverOptions { tt_mib: 0, ..SolverOptions::default() });
        tiny.max_nodes = 8;
        assert_eq!(tiny.solve(&big, &Limits::none()).outcome, None);
    }
}
