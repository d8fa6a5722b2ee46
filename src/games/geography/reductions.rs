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

use super::graph::{Vertices, edge_key};
use super::{Geography, Reductions};
use crate::game::Outcome;

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

/// The result of `pos` if it is over or a reduction that `pos` applies decides it.
pub fn decide(pos: &Geography) -> Option<Outcome> {
    let around = pos.neighbours(pos.token);
    if around.is_empty() {
        return Some(Outcome::Loss);
    }
    if pos.reductions.contains(Reductions::IMMEDIATE_WIN)
        && around.into_iter().any(|w| pos.degree(w as u8) == 1)
    {
        return Some(Outcome::Win);
    }
    if pos.reductions.contains(Reductions::BIPARTITE) {
        return bipartite_outcome(pos);
    }
    None
}

/// The bipartite rule: `Some(result)` if the token's component is bipartite, `None` otherwise.
///
/// With the component 2-coloured so that the token `s` is on side `L`, the mover wins iff the
/// GF(2) row of `s` (its remaining neighbours, a subset of `R`) is not a sum of other rows of `L`
/// (Fraenkel, Scheinerman and Ullman 1993; see the module docs).
pub fn bipartite_outcome(pos: &Geography) -> Option<Outcome> {
    let mut rows = [0u128; super::MAX_VERTICES];
    let mut left = Vertices::from_cell(u32::from(pos.token));
    let mut right = Vertices::EMPTY;
    let mut seen = left;
    let mut frontier = left;
    while let Some(v) = frontier.pop_first() {
        let nb = pos.neighbours(v as u8);
        rows[v as usize] = nb.0;
        let on_left = left.contains(v);
        if nb.intersects(if on_left { left } else { right }) {
            return None; // an odd cycle
        }
        let new = nb.difference(seen);
        if on_left {
            right = right.union(new);
        } else {
            left = left.union(new);
        }
        seen = seen.union(new);
        frontier = frontier.union(new);
    }
    Some(row_outcome(pos.token, left, &rows))
}

/// Whether the row of `s` lies outside the span of the other rows of `left`: `Win` if so.
fn row_outcome(s: u8, left: Vertices, rows: &[u128; super::MAX_VERTICES]) -> Outcome {
    // An XOR basis indexed by leading bit.
    let mut basis = [0u128; 128];
    for v in left.without(u32::from(s)) {
        let mut r = rows[v as usize];
        while r != 0 {
            let top = 127 - r.leading_zeros() as usize;
            if basis[top] == 0 {
                basis[top] = r;
                break;
            }
            r ^= basis[top];
        }
    }
    let mut r = rows[s as usize];
    while r != 0 {
        let top = 127 - r.leading_zeros() as usize;
        if basis[top] == 0 {
            return Outcome::Win;
        }
        r ^= basis[top];
    }
    Outcome::Loss
}
