//! Exact reductions of undirected edge geography: facts that decide a position, or shrink what
//! must be hashed, without search. Each has its own differential test against brute force.
//!
//! * **Only the token's component matters.** Edges the token cannot reach can never be used, so
//!   the hash covers the token and the remaining edges of its component ([`component_of`]).
//! * **Immediate win.** If a neighbour `w` of the token has remaining degree 1 (only the edge to
//!   the token), moving to `w` leaves the opponent without a move.
//! * **Bipartite components** ([`bipartite_outcome`]). Fraenkel, Scheinerman and Ullman,
//!   "Undirected edge geography", Theoretical Computer Science 112 (1993) 371-381, show UEG is
//!   PSPACE-complete in general but polynomial on bipartite graphs, via linear algebra over
//!   GF(2): with sides `L` (holding the token `s`) and `R` and the `L x R` adjacency matrix over
//!   GF(2), the player to move wins iff the row of `s` is **not** in the span of the other rows
//!   of `L`. (Check on a path `s-t-u`: rows `s = u = {t}`, so `s` is in the span and the mover
//!   loses: `s->t`, `t->u`, stuck.) Our differential tests confirm the rule on thousands of
//!   random bipartite graphs.
//! * **Bridges** ([`canonical_hash`], [`small_far_sides`], [`super::subgame`]). The far side of
//!   a bridge of the token's component is an independent sub-game entered once; small ones are
//!   solved once, cached in the position's [`BridgeContext`], hashed as a one-edge or zero-edge
//!   gadget of the same value, and a position whose whole component is a cached sub-game is
//!   decided at once.
//! * **Forced chains** ([`canonical_hash`]). Paths through degree-2 vertices are hashed by
//!   their ends and the parity of their length only.
//! * **Parity sets** ([`independent_set_loss`], opt-in [`Reductions::PARITY_SET`]). The
//!   pairing argument behind the losing half of the bipartite rule needs no bipartiteness: an
//!   independent set holding the token into which every other vertex has an even number of
//!   edges means the mover loses, on any component. Tested exactly through the GF(2) kernel of
//!   the component's adjacency when it is small (the sets are its independent vectors holding
//!   the token), else by GF(2) elimination on a thinned colour class.
//! * **Parity-set wins** ([`parity_win`], opt-in [`Reductions::PARITY_WIN`]). A move after
//!   which the parity-set rule decides the opponent lost wins; on a bipartite component this is
//!   exactly the winning half of the bipartite rule, so the two parity rules together
//!   generalise the whole GF(2) rule to components with odd cycles (as sufficient conditions).
//! * **Two plies** (opt-in [`Reductions::TWO_PLY`]): every move walks next to a vertex of
//!   degree 1, so the mover loses.
//! * **Leaf traps** ([`traps`], opt-in [`Reductions::TRAPS`]). A vertex next to a leaf (neither
//!   the token) is never worth entering: the opponent walks on to the leaf. Its edges are
//!   dropped before the other rules and the hash see the position, again and again while new
//!   leaves appear.
//!
//! Search guidance (opt-in, exact either way): [`Reductions::ORDERING`] (moves by the safe
//! replies they leave, [`Geography::safe_replies`]), [`Reductions::PN_HINT`] (df-pn initial
//! numbers from them, [`proof_numbers_hint`]) and [`Reductions::PN_GUESS`] (leaning on
//! [`bipartite_guess`]). `scripts/geography-reach-hard.sh` measures each side by side.
//!
//! # Layout, by concern
//!
//! This module keeps the component helpers and [`decide`]; the rest lives in submodules whose
//! items it re-exports: `pieces` (leaf traps, pendant pieces), `parity` (the parity-set rules
//! one to three moves deep, their memos' use, the open moves and fewest open replies), `nearby`
//! (parity-set tests of positions a few moves away, from the kernel of a low-rank change),
//! `gf2` (GF(2) elimination: the parity-set loss rule), `bipartite` (the bipartite rule),
//! `hints` (df-pn's initial numbers, the bipartite guess) and `bridges` (far sides of bridges,
//! forced chains, the canonical hash).

use arrayvec::ArrayVec;

use super::graph::{MAX_VERTICES, Vertices, edge_key, token_key};
use super::subgame::{SUBGAME_EDGE_LIMIT, SubgameCache};
use super::{Geography, Reductions};
use crate::bitboard::Bitboard128;
use crate::game::Outcome;
use crate::zobrist::splitmix64;

mod bipartite;
mod bridges;
pub(super) mod caches;
mod gf2;
mod hints;
mod nearby;
mod parity;
mod pieces;

pub use bipartite::*;
pub use bridges::*;
pub use gf2::*;
pub use hints::*;
pub(super) use nearby::*;
pub use parity::*;
pub use pieces::*;

/// The token's component: the vertices reachable from the token over remaining edges.
pub fn component_of(pos: &Geography) -> Vertices {
    let mut seen = Vertices::from_cell(u32::from(pos.token));
    let mut frontier = seen;
    while let Some(v) = frontier.pop_first() {
        let new = pos.neighbours(v as u8).difference(seen);
        seen = seen.union(new);
        frontier = frontier.union(new);
    }
    seen
}

/// XOR of the keys of the remaining edges with both ends in `vertices` (a union of components,
/// so no remaining edge leaves it).
pub fn edges_hash(pos: &Geography, vertices: Vertices) -> u64 {
    let mut hash = 0;
    for v in vertices {
        for w in pos.neighbours(v as u8) {
            if v < w {
                hash ^= edge_key(v as u8, w as u8);
            }
        }
    }
    hash
}

/// Number of remaining edges with both ends in `vertices` (a union of components).
pub fn edge_count(pos: &Geography, vertices: Vertices) -> u32 {
    vertices.into_iter().map(|v| pos.degree(v as u8)).sum::<u32>() / 2
}

/// The result of `pos` if it is over or a reduction that `pos` applies decides it.
pub fn decide(pos: &Geography) -> Option<Outcome> {
    decide_with_open_moves(pos).0
}

/// [`decide`], with the position's [`ParityNumbers`] when it is undecided and
/// [`Reductions::PARITY_DEEP`] is on (else zeros). None open decides a loss.
pub(super) fn decide_with_open_moves(pos: &Geography) -> (Option<Outcome>, ParityNumbers) {
    let around = pos.neighbours(pos.token);
    if around.is_empty() {
        return (Some(Outcome::Loss), ParityNumbers::NONE);
    }
    if pos.reductions.contains(Reductions::IMMEDIATE_WIN)
        && around.into_iter().any(|w| pos.degree(w as u8) == 1)
    {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    // Only far sides of at most SUBGAME_EDGE_LIMIT edges and their sub-positions are cached, so
    // larger components need no (cache-missing) lookup.
    if let Some(context) = pos.bridge_context()
        && pos.component_edge_count() <= SUBGAME_EDGE_LIMIT
        && let Some(win) = context.cache.lookup(pos.component_hash())
    {
        // A far side solved by the bridge reduction, entered across its bridge.
        return (Some(if win { Outcome::Win } else { Outcome::Loss }), ParityNumbers::NONE);
    }
    if pos.reductions.contains(Reductions::BIPARTITE)
        && let Some(outcome) = bipartite_outcome(pos)
    {
        return (Some(outcome), ParityNumbers::NONE);
    }
    let (parity, numbers) = parity_decide(pos);
    if parity.is_some() {
        return (parity, ParityNumbers::NONE);
    }
    if pos.reductions.contains(Reductions::TWO_PLY) {
        let (safe, wins) = pos.safe_replies(pos.token, 0, 0);
        if wins {
            return (Some(Outcome::Win), ParityNumbers::NONE);
        }
        if safe == 0 {
            return (Some(Outcome::Loss), ParityNumbers::NONE);
        }
    }
    (None, numbers)
}
