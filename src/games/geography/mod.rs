//! Undirected edge geography: a token on a simple undirected graph; the side to move slides it
//! along an incident edge and deletes that edge; a side that cannot move loses.
//!
//! The graph ([`Graph`], up to 128 vertices) is shared behind an [`Arc`]; a position is the set
//! of remaining edges ([`EdgeSet`]), the token and a few cached facts, so it clones cheaply. The
//! game is acyclic: every move deletes an edge.
//!
//! Exact reductions ([`Reductions`]; [`Reductions::DEFAULT`] on from [`Geography::new`]) are
//! part of the game, so every shared
//! solver profits: [`Game::outcome`] may decide a position that is not yet over (an immediate
//! win, the bipartite rule of [`reductions`], or a component that is a cached far side of a
//! bridge, [`subgame`], in the cache of the position's own [`BridgeContext`]), and [`Game::hash`] covers only the token's component, with small far
//! sides of bridges replaced by equal-value gadgets and forced chains by their ends and parity
//! ([`reductions::canonical_hash`]). The remaining edges themselves are never changed by a
//! reduction: a position always follows the real game. [`Geography::plain`] turns them off (the brute-force oracle uses that). With
//! reductions on, solvers' distances (`plies`) count to the decided position, not to the end.
//!
//! The game's caches (the memos of what settling a position works out, the bridges' sub-game
//! table) belong to a solve, not to the process: the graph and the caches are made with a root
//! position (by [`Geography::new`], and again whenever the reductions are set) and shared, behind
//! the one `Arc` a position holds, by every position played from it, and freed with the last of
//! them (the list of caches, their keys and sizes: `caches.rs`).
//!
//! Notation (the body of the contest's `200` message): `<n> <token> <m> <a1> <b1> ... <am> <bm>`;
//! a move is the vertex the token moves to.
//!
//! ```
//! use bitsolve::{Game, Notation, Outcome};
//! use bitsolve::games::geography::Geography;
//! // A path 0-1-2 with the token on 0: moving to 1 lets the opponent finish at 2.
//! let pos = Geography::parse_position("3 0 2 0 1 1 2").unwrap();
//! assert_eq!(pos.outcome(), Some(Outcome::Loss)); // decided by the bipartite rule
//! assert_eq!(pos.plain().outcome(), None); // but not over yet
//! ```

mod eval;
pub mod generator;
pub mod graph;
mod notation;
pub mod reductions;
pub mod subgame;
mod switches;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard128;

pub use graph::{EdgeSet, Graph, GraphError, MAX_EDGES, MAX_VERTICES, Vertices};
use graph::{edge_key, token_key};
pub use reductions::BridgeContext;
use reductions::caches;
pub use switches::Reductions;

use crate::capability::{Capabilities, Configurable, GameOption, ProofNumberHint, SearchHints};
use crate::game::{Game, Outcome, Perft};
use crate::zobrist::KeyStream;

/// The move list: target vertices.
pub type GeographyMoves = ArrayVec<u8, MAX_VERTICES>;

/// A position of undirected edge geography.
#[derive(Clone, Debug)]
pub struct Geography {
    /// The graph and the caches of the solve, shared by every position played from the root
    /// position that made them (see `caches.rs`): one reference count to clone.
    root: Arc<caches::Root>,
    edges: EdgeSet,
    token: u8,
    /// Remaining adjacency: bit `w` of row `v` is set iff the edge `{v, w}` remains.
    rows: [u128; MAX_VERTICES],
    /// Incremental Zobrist hash of the token and every remaining edge.
    full_hash: u64,
    /// Vertices reachable from the token over remaining edges (the token included).
    component: Vertices,
    /// XOR of the keys of the remaining edges outside the token's component (they can never be
    /// removed, so this only grows, when the component splits).
    outside_hash: u64,
    /// Number of remaining edges outside the token's component (only grows, like
    /// `outside_hash`).
    outside_edges: u32,
    /// The vertices of remaining degree exactly 2 (kept up to date by `play`).
    two: u128,
    /// The vertices of remaining degree exactly 1 (kept up to date by `play`).
    one: u128,
    /// The vertices whose edges are dropped: the traps of [`Reductions::TRAPS`] and the
    /// pendant pieces and hot vertices of [`Reductions::PIECES`] (empty without them).
    traps: u128,
    /// The result when the position is over or a reduction decides it.
    decided: Option<Outcome>,
    /// With [`Reductions::PARITY_DEEP`], for an undecided position: df-pn's initial numbers
    /// from the three-move parity rule ([`reductions::proof_numbers_hint`]); zeros when not
    /// worked out.
    parity_numbers: reductions::ParityNumbers,
    /// While [`Geography::refresh`] settles the position after a move that kept the token's
    /// component whole (and in its view without traps): the vertex the token came from, so
    /// the parity rules can share an elimination among the positions after the moves of one
    /// position (keyed by the edges, so a view with other traps does not share it); otherwise
    /// `u8::MAX`.
    came_from: u8,
    /// The hash the solvers see ([`Game::hash`]), after the hash reductions.
    canonical: u64,
    /// The reductions; setting them makes a new root (new caches, the bridge reduction's
    /// context kept if it stays on).
    reductions: Reductions,
}

impl PartialEq for Geography {
    fn eq(&self, other: &Self) -> bool {
        self.token == other.token
            && self.full_hash == other.full_hash
            && self.remaining_edges() == other.remaining_edges()
    }
}

impl Geography {
    /// The position with every edge of `graph` present and the token on `token`, with the
    /// [`Reductions::DEFAULT`] reductions.
    ///
    /// # Errors
    /// When `token` is not a vertex of the graph.
    pub fn new(graph: Arc<Graph>, token: u8) -> Result<Self, GraphError> {
        if token as usize >= graph.vertex_count() {
            return Err(GraphError(format!(
                "token {token} is not a vertex (0..{})",
                graph.vertex_count() - 1
            )));
        }
        let edges = EdgeSet::full(graph.edges().len());
        let mut rows = [0u128; MAX_VERTICES];
        for (v, row) in rows.iter_mut().enumerate().take(graph.vertex_count()) {
            *row = graph.adjacency(v as u8).0;
        }
        let mut pos = Geography {
            root: caches::Root::new(graph, None),
            edges,
            token,
            rows,
            full_hash: 0,
            component: Vertices::EMPTY,
            outside_hash: 0,
            outside_edges: 0,
            two: 0,
            one: 0,
            traps: 0,
            decided: None,
            parity_numbers: reductions::ParityNumbers::NONE,
            came_from: u8::MAX,
            canonical: 0,
            reductions: Reductions::DEFAULT,
        };
        pos.full_hash = pos.hash_from_scratch();
        pos.component = reductions::component_of(&pos);
        pos.outside_hash = reductions::edges_hash(&pos, pos.component_complement());
        pos.outside_edges = reductions::edge_count(&pos, pos.component_complement());
        for v in 0..pos.root.graph.vertex_count() {
            pos.note_degree(v as u8);
        }
        pos.refresh(None);
        Ok(pos)
    }

    /// A contest start: the contest graph on `n` vertices from `seed` and a uniformly random
    /// token (see [`generator::contest_graph`]).
    ///
    /// # Errors
    /// When `n` is out of range for the generator.
    pub fn contest_start(n: usize, seed: u64) -> Result<Self, GraphError> {
        let graph = generator::contest_graph(n, seed)?;
        let token = generator::below(&mut KeyStream::new(seed ^ 0x7_0CE4), n as u64) as u8;
        Geography::new(Arc::new(graph), token)
    }

    /// The same position with only the reductions in `reductions`, the root of a new solve:
    /// its caches start empty (those of the position it came from stay with that one's
    /// solve). Turning [`Reductions::BRIDGES`] on gives a position without a [`BridgeContext`]
    /// a new one (empty cache, [`reductions::BRIDGE_SCAN_EDGE_LIMIT`]); turning it off drops the
    /// context.
    #[must_use]
    pub fn with_reductions(mut self, reductions: Reductions) -> Self {
        let bridges = if reductions.contains(Reductions::BRIDGES) {
            Some(self.bridge_context().cloned().unwrap_or_default())
        } else {
            None
        };
        self.reductions = reductions;
        self.root = caches::Root::new(Arc::clone(&self.root.graph), bridges);
        self.refresh(None);
        self
    }

    /// [`Geography::with_reductions`] with the solve's shared settled table made at once (it
    /// then holds every position settled, from the root on).
    #[cfg(test)]
    #[must_use]
    fn with_reductions_and_shared_table(mut self, reductions: Reductions) -> Self {
        assert!(!reductions.contains(Reductions::BRIDGES));
        self.reductions = reductions;
        self.root = caches::Root::new(Arc::clone(&self.root.graph), None);
        self.root.caches.make_shared_table();
        self.refresh(None);
        self
    }

    /// The same position with the bridge reduction on, using `context` (its cache and scan
    /// limit; share one context between positions to share the solved sub-games), the root of
    /// a new solve as with [`Geography::with_reductions`].
    #[must_use]
    pub fn with_bridge_context(mut self, context: Arc<BridgeContext>) -> Self {
        self.reductions = self.reductions.with(Reductions::BRIDGES);
        self.root = caches::Root::new(Arc::clone(&self.root.graph), Some(context));
        self.refresh(None);
        self
    }

    /// The bridge reduction's context, when the position applies it.
    pub fn bridge_context(&self) -> Option<&Arc<BridgeContext>> {
        self.root.caches.bridges.as_ref()
    }

    /// The same position under the plain rules (no reduction): the oracle's view.
    #[must_use]
    pub fn plain(&self) -> Self {
        self.clone().with_reductions(Reductions::NONE)
    }

    /// The reductions this position applies.
    pub fn reductions(&self) -> Reductions {
        self.reductions
    }

    /// The shared graph.
    pub fn graph(&self) -> &Arc<Graph> {
        &self.root.graph
    }

    /// The token's vertex.
    pub fn token(&self) -> u8 {
        self.token
    }

    /// The remaining edges.
    pub fn edge_set(&self) -> &EdgeSet {
        &self.edges
    }

    /// The remaining edges as vertex pairs, in edge-number order.
    pub fn remaining_edges(&self) -> Vec<(u8, u8)> {
        self.edges.iter().map(|e| self.root.graph.edges()[e]).collect()
    }

    /// Number of remaining edges.
    pub fn edge_count(&self) -> u32 {
        self.edges.count()
    }

    /// The vertices reachable from the token over remaining edges (the token included).
    pub fn component(&self) -> Vertices {
        self.component
    }

    /// Remaining neighbours of `v`.
    #[inline]
    pub fn neighbours(&self, v: u8) -> Vertices {
        Bitboard128(self.rows[v as usize])
    }

    /// Remaining degree of `v`.
    #[inline]
    pub fn degree(&self, v: u8) -> u32 {
        self.rows[v as usize].count_ones()
    }

    /// The vertices of the graph outside the token's component.
    fn component_complement(&self) -> Vertices {
        let n = self.root.graph.vertex_count();
        let all = if n == 128 { u128::MAX } else { (1u128 << n) - 1 };
        Bitboard128(all & !self.component.0)
    }

    /// Number of remaining edges in the token's component.
    pub fn component_edge_count(&self) -> u32 {
        self.edges.count() - self.outside_edges
    }

    /// The vertices of remaining degree 2.
    pub fn degree_two(&self) -> Vertices {
        Bitboard128(self.two)
    }

    /// Hash of the token and the remaining edges of its component.
    pub fn component_hash(&self) -> u64 {
        self.full_hash ^ self.outside_hash
    }

    /// The incremental hash of the token and all remaining edges (whatever the reductions).
    pub fn full_hash(&self) -> u64 {
        self.full_hash
    }

    /// The full hash computed from scratch (for checking the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        self.edges.iter().fold(token_key(self.token), |h, e| {
            let (a, b) = self.root.graph.edges()[e];
            h ^ edge_key(a, b)
        })
    }

    /// A move that wins at once by a reduction or the rules: one whose resulting position is
    /// decided as a loss for the opponent. `None` if no move does.
    pub fn decisive_move(&self) -> Option<u8> {
        let mut moves = GeographyMoves::new();
        self.generate_moves(&mut moves);
        moves.into_iter().find(|&mv| {
            let mut child = self.clone();
            child.play(mv);
            child.outcome() == Some(Outcome::Loss)
        })
    }

    /// For the side to move with the token on `token`, on the remaining edges without `{a, b}`
    /// (pass `a == b` to remove nothing): the number of moves that do not let the opponent win
    /// at once (a move to `x` lets the opponent win at once when `x` has another neighbour of
    /// remaining degree 1), and whether some move wins at once (to a vertex whose only edge is
    /// the one from `token`; such moves are not counted as safe). With [`Reductions::TRAPS`]
    /// the position's traps and their edges are left out.
    pub fn safe_replies(&self, token: u8, a: u8, b: u8) -> (u32, bool) {
        // The position's traps are out of play (and stay traps after the move).
        let traps = self.traps;
        let row = |v: u8| -> u128 {
            let r = if traps >> v & 1 == 1 { 0 } else { self.rows[v as usize] & !traps };
            if a == b {
                r
            } else if v == a {
                r & !(1u128 << b)
            } else if v == b {
                r & !(1u128 << a)
            } else {
                r
            }
        };
        let mut safe = 0;
        let mut wins = false;
        let mut rest = row(token);
        while rest != 0 {
            let next = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let beyond = row(next) & !(1u128 << token);
            if beyond == 0 {
                wins = true;
                continue;
            }
            let mut trap = false;
            let mut ys = beyond;
            while ys != 0 {
                let far = ys.trailing_zeros() as u8;
                ys &= ys - 1;
                // After t -> x the edge {t, x} is gone; y's degree counts that.
                let dy = row(far).count_ones() - u32::from(far == token);
                if dy == 1 {
                    trap = true;
                    break;
                }
            }
            if !trap {
                safe += 1;
            }
        }
        (safe, wins)
    }

    /// The token's component after a move from `from` to the token: the cached component if
    /// the edge just removed was not a bridge (the token still reaches `from`), else the new,
    /// smaller one. A layered search from the token stops as soon as it meets `from` or one of
    /// its neighbours, which on contest graphs takes a layer or two instead of the whole
    /// component.
    /// The union of the neighbourhoods of the vertices in `set` (a bit mask).
    pub(crate) fn neighbours_of_set(&self, mut set: u128) -> u128 {
        let mut out = 0u128;
        while set != 0 {
            let v = set.trailing_zeros() as usize;
            set &= set - 1;
            out |= self.rows[v];
        }
        out
    }

    fn component_after_move(&self, from: u8) -> Vertices {
        let goal = self.rows[from as usize] | 1u128 << from;
        let mut seen = 1u128 << self.token;
        let mut frontier = seen;
        while frontier != 0 {
            if seen & goal != 0 {
                return self.component;
            }
            frontier = self.neighbours_of_set(frontier) & !seen;
            seen |= frontier;
        }
        if seen & goal != 0 { self.component } else { Bitboard128(seen) }
    }

    /// Recomputes the cached component (incrementally after a move from `from`), the outside
    /// hash and the decided result.
    fn refresh(&mut self, from: Option<u8>) {
        let component = match from {
            Some(from) => self.component_after_move(from),
            None => reductions::component_of(self),
        };
        debug_assert_eq!(component, reductions::component_of(self));
        let cut_off = Bitboard128(self.component.0 & !component.0);
        if !cut_off.is_empty() {
            // The move cut a bridge: the far side's edges can never be used again.
            self.outside_hash ^= reductions::edges_hash(self, cut_off);
            self.outside_edges += reductions::edge_count(self, cut_off);
        }
        self.component = component;
        // Without bridges (whose cache grows), the rest is a function of the token, the
        // component's edges and the reductions: the solvers generate the same children again
        // and again, so with the dearer rules it is memoised.
        let key = self.memo_key();
        let memoised = !self.reductions.contains(Reductions::BRIDGES)
            && (self.reductions.contains(Reductions::TRAPS)
                || self.reductions.contains(Reductions::PIECES)
                || self.reductions.contains(Reductions::PARITY_SET));
        if memoised && let Some(settled) = caches::settled_lookup(key) {
            (self.traps, self.decided, self.canonical, self.parity_numbers) = settled;
            return;
        }
        // Settled long ago (or by another thread): the traps are found again (cheap), the rest
        // is the shared table's.
        let shared = memoised && !self.reductions.contains(Reductions::PIECES);
        if shared && let Some((decided, canonical, numbers)) = self.root.caches.shared_lookup(key) {
            self.traps = if self.reductions.contains(Reductions::TRAPS) {
                reductions::traps(&self.rows, self.token, self.one & self.component.0)
            } else {
                0
            };
            (self.decided, self.canonical, self.parity_numbers) = (decided, canonical, numbers);
            caches::settled_store(
                key,
                (self.traps, self.decided, self.canonical, self.parity_numbers),
            );
            return;
        }
        self.came_from = match from {
            Some(from) if cut_off.is_empty() => from,
            _ => u8::MAX,
        };
        self.find_traps_and_settle();
        self.came_from = u8::MAX;
        if memoised {
            let settled = (self.traps, self.decided, self.canonical, self.parity_numbers);
            self.root.caches.store_settled(key, settled, shared);
        }
    }

    /// The key of what [`Geography::refresh`] memoises: the component hash, the reductions and
    /// the salt of the position's root.
    fn memo_key(&self) -> u64 {
        self.component_hash() ^ (u64::from(self.reductions.0) << 48) ^ self.root.caches.salt
    }

    /// Sets the traps, the decided result and the canonical hash from the token and the
    /// component (what `refresh` memoises).
    fn find_traps_and_settle(&mut self) {
        self.traps = if self.reductions.contains(Reductions::PIECES) {
            let Some(dropped) = self.traps_and_pieces() else {
                // A piece hanging at the token wins.
                self.traps = 0;
                self.decided = Some(Outcome::Win);
                self.parity_numbers = reductions::ParityNumbers::NONE;
                self.canonical = self.component_hash();
                return;
            };
            dropped
        } else if self.reductions.contains(Reductions::TRAPS) {
            reductions::traps(&self.rows, self.token, self.one & self.component.0)
        } else {
            0
        };
        if self.traps == 0 {
            self.settle();
        } else {
            let untrapped = self.without_traps();
            self.decided = untrapped.decided;
            self.parity_numbers = untrapped.parity_numbers;
            self.canonical = untrapped.canonical;
        }
    }

    /// The vertices dropped by the leaf traps (with [`Reductions::TRAPS`]) and the pendant
    /// pieces, found again and again until nothing changes; `None` when a piece at the token
    /// wins.
    fn traps_and_pieces(&self) -> Option<u128> {
        let with_traps = self.reductions.contains(Reductions::TRAPS);
        let mut rows = self.rows;
        let mut dropped = 0u128;
        let mut leaves = self.one & self.component.0;
        loop {
            if with_traps {
                let traps = reductions::traps(&rows, self.token, leaves);
                reductions::drop_vertices(&mut rows, traps);
                dropped |= traps;
            }
            let verdict = reductions::pieces(&mut rows, self.token);
            if verdict.win {
                return None;
            }
            if verdict.dropped == 0 {
                return Some(dropped);
            }
            dropped |= verdict.dropped;
            leaves = 0;
            for v in self.component {
                if rows[v as usize].is_power_of_two() {
                    leaves |= 1u128 << v;
                }
            }
        }
    }

    /// Sets the decided result and the canonical hash from the rest of the position.
    fn settle(&mut self) {
        (self.decided, self.parity_numbers) = reductions::decide_with_open_moves(self);
        self.canonical = if self.decided.is_some() {
            // Solvers stop here; the plain component hash is enough.
            self.component_hash()
        } else {
            reductions::canonical_hash(self)
        };
    }

    /// Records in the degree-1 and degree-2 sets whether `v` has remaining degree 1 or 2.
    fn note_degree(&mut self, v: u8) {
        let bit = 1u128 << v;
        let degree = self.rows[v as usize].count_ones();
        self.one = if degree == 1 { self.one | bit } else { self.one & !bit };
        self.two = if degree == 2 { self.two | bit } else { self.two & !bit };
    }

    /// The position of equal value without the edges of its traps ([`Reductions::TRAPS`]),
    /// settled by the other reductions. Only its rows, component, component hash and edge
    /// count, degree-2 set, result and canonical hash are meaningful: its full hash covers its
    /// component alone, and its edge set still holds the traps' edges (its count of edges
    /// outside the component is set to match).
    fn without_traps(&self) -> Geography {
        let mut view = self.clone();
        view.reductions = self.reductions.without(Reductions::TRAPS).without(Reductions::PIECES);
        view.traps = 0;
        let traps = self.traps;
        let (mut dropped_hash, mut dropped) = (0u64, 0u32);
        let mut touched = traps;
        for v in Bitboard128(traps) {
            let row = self.rows[v as usize];
            touched |= row;
            for w in Bitboard128(row & !(traps & (2u128 << v).wrapping_sub(1))) {
                dropped_hash ^= edge_key(v as u8, w as u8);
                dropped += 1;
                view.rows[w as usize] &= !(1u128 << v);
            }
            view.rows[v as usize] = 0;
        }
        if self.reductions.contains(Reductions::CHAINS) {
            for v in Bitboard128(touched) {
                view.note_degree(v as u8);
            }
        }
        // The smaller component: the parts cut off from the token take their edges along.
        let mut seen = 1u128 << self.token;
        let mut frontier = seen;
        while frontier != 0 {
            frontier = view.neighbours_of_set(frontier) & !seen;
            seen |= frontier;
        }
        view.component = Bitboard128(seen);
        // The traps lost every edge, and nearly all the other vertices cut off are the leaves
        // beside them, left without one: only the cut-off vertices that kept an edge (a part
        // hanging behind a trap, with both ends of its edges cut off) take edges along.
        let mut carried = 0u128;
        for v in Bitboard128(self.component.0 & !seen & !traps) {
            if view.rows[v as usize] != 0 {
                carried |= 1u128 << v;
            }
        }
        dropped_hash ^= reductions::edges_hash(&view, Bitboard128(carried));
        dropped += reductions::edge_count(&view, Bitboard128(carried));
        view.full_hash = self.component_hash() ^ dropped_hash;
        debug_assert_eq!(
            view.full_hash,
            token_key(view.token) ^ reductions::edges_hash(&view, view.component)
        );
        view.outside_hash = 0;
        view.outside_edges = self.edges.count() - (self.component_edge_count() - dropped);
        view.settle();
        view
    }
}

/// The reductions `bitsolve solve` gives geography positions unless `--game-option
/// reductions=...` says otherwise: the set measured best on contest positions at the edge of the
/// solver's reach (the client's default too; `results/geography/reach-hard.md`, and
/// `results/geography/reach-bands.md`, where the three-move parity certificate with its open
/// moves as initial numbers beat the set without it on the hard positions of the bands).
pub const SOLVE_REDUCTIONS: &str = "default,guided,parity-set,parity-win,parity-deep,traps";

impl Game for Geography {
    type Move = u8;
    type Moves = GeographyMoves;
    const ACYCLIC: bool = true;
    /// Every move deletes an edge and a side without a move loses.
    const DRAWS: bool = false;
    /// The exact reductions as a game option, df-pn initial numbers from the three-move parity
    /// rule, and df-pn with epsilon = 0.5: on three contest positions of 184 to 204 component
    /// edges (`s9:47`, `s2:42`, `s3:76` of `results/geography/reach-hard.md`, reductions
    /// `default,guided,parity-set,traps`, one thread, 256 MiB, side by side) 5.44M nodes in
    /// 42.3 s against 9.51M nodes in 50.3 s with plain thresholds.
    const CAPABILITIES: Capabilities<Self> = Capabilities::NONE
        .with_options()
        .with_proof_numbers_hint()
        .with_search_hints(SearchHints { dfpn_epsilon: Some(0.5), ..SearchHints::DEFAULT });

    fn generate_moves(&self, moves: &mut GeographyMoves) {
        // A position decided by a reduction but not over still lists its moves, so callers
        // can play it out (the solvers stop at `outcome()` anyway).
        // Moves into traps lose at once; a decided position lists them too.
        let traps = if self.decided.is_some() { 0 } else { self.traps };
        for w in Bitboard128(self.rows[self.token as usize] & !traps) {
            moves.push(w as u8);
        }
        if self.reductions.contains(Reductions::ORDERING) && moves.len() > 1 {
            let t = self.token;
            moves.sort_by_cached_key(|&w| {
                // The opponent at `w` after the edge {t, w} is gone.
                let (safe, wins) = self.safe_replies(w, t, w);
                if self.degree(w) == 1 {
                    0 // leaves the opponent stuck
                } else if wins {
                    u32::MAX // the opponent wins at once
                } else {
                    1 + safe
                }
            });
        }
    }

    fn play(&mut self, mv: u8) {
        let e = self.root.graph.edge_between(self.token, mv);
        debug_assert!(e.is_some_and(|e| self.edges.contains(e)), "illegal move {mv}");
        let Some(e) = e else { return };
        self.edges.remove(e);
        self.rows[self.token as usize] &= !(1u128 << mv);
        self.rows[mv as usize] &= !(1u128 << self.token);
        self.note_degree(self.token);
        self.note_degree(mv);
        self.full_hash ^= edge_key(self.token, mv) ^ token_key(self.token) ^ token_key(mv);
        let from = self.token;
        self.token = mv;
        debug_assert_eq!(self.full_hash, self.hash_from_scratch());
        self.refresh(Some(from));
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decided
    }

    fn hash(&self) -> u64 {
        if self.reductions.contains(Reductions::BRIDGES)
            || self.reductions.contains(Reductions::CHAINS)
            || self.reductions.contains(Reductions::TRAPS)
            || self.reductions.contains(Reductions::PIECES)
        {
            self.canonical
        } else if self.reductions.contains(Reductions::COMPONENT_HASH) {
            self.component_hash()
        } else {
            self.full_hash
        }
    }
}

impl Configurable for Geography {
    const OPTIONS: &'static [GameOption] = &[GameOption {
        name: "reductions",
        solve_default: SOLVE_REDUCTIONS,
        help: "the exact reductions and search guidance, a comma-separated union of names \
               such as default,bridges,chains (an unknown name lists them all; see `Reductions`)",
    }];

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "reductions" => {
                let reductions: Reductions = value.parse()?;
                *self = self.clone().with_reductions(reductions);
                Ok(())
            }
            _ => Err(crate::capability::unknown_option(name, Self::OPTIONS)),
        }
    }
}

impl ProofNumberHint for Geography {
    fn proof_numbers_hint(&self) -> Option<(u64, u64)> {
        if self.reductions.contains(Reductions::PN_HINT) {
            Some(reductions::proof_numbers_hint(self))
        } else {
            None
        }
    }
}

impl Perft for Geography {}
