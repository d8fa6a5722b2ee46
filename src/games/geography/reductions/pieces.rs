//! Leaf traps and pendant pieces: parts of the component that can be dropped or decided on their own.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The traps of [`Reductions::TRAPS`] on adjacency `rows` with the token on `s`, given the
/// `leaves` of its component (its vertices of degree 1): a vertex `v` other than `s` is a trap
/// when a neighbour `w` other than `s` has no other edge. Entering `v` loses at once (the
/// opponent moves to `w`, where the mover is stuck), so the position has the value of the one
/// without `v`'s edges: by induction on the edges, every move not into `v` leads to positions
/// where `v` is still a trap of the same leaf (the token never reaches `w`, whose only
/// neighbour is `v`), and a mover whose only moves enter traps loses either way. Dropping a
/// trap's edges can make new leaves among its neighbours, so this repeats until no trap is
/// left; the result is every vertex dropped.
pub fn traps(rows: &[u128; MAX_VERTICES], s: u8, leaves: u128) -> u128 {
    let token = 1u128 << s;
    let mut dropped = 0u128;
    let mut check = leaves & !token;
    while check != 0 {
        let mut found = 0u128;
        while check != 0 {
            let w = check.trailing_zeros() as usize;
            check &= check - 1;
            let row = rows[w] & !dropped;
            // A single remaining neighbour (none: `row` is 0 and adds nothing).
            found |= if row & row.wrapping_sub(1) == 0 { row } else { 0 };
        }
        found &= !(dropped | token);
        dropped |= found;
        // Only the neighbours of the new traps lost edges.
        let mut f = found;
        while f != 0 {
            let v = f.trailing_zeros() as usize;
            f &= f - 1;
            check |= rows[v];
        }
        check &= !(dropped | token);
    }
    dropped
}

/// Largest pendant piece (in edges, those to its cut vertex included) that [`pieces`] solves.
pub const PIECE_EDGE_LIMIT: u32 = 24;

/// Node budget of one stand-alone solve of a pendant piece ([`pieces`]); a piece that needs
/// more is left alone.
pub(super) const PIECE_NODE_BUDGET: u32 = 4096;

/// What [`pieces`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceVerdict {
    /// Vertices whose edges were dropped: the pieces that never help, and the hot cut vertices.
    pub dropped: u128,
    /// A piece hanging at the token wins: the mover wins.
    pub win: bool,
}

/// Pendant pieces ([`super::super::Reductions::PIECES`]) on adjacency `rows` with the token on `s`;
/// the edges of every dropped vertex are removed from `rows`.
///
/// A *piece* at a cut vertex `v` is a part `H` of the token's component that `v` separates
/// from the token (a component of the component without `v`, not holding the token; when
/// `v` is the token, any component of the rest). The game enters `H` only from `v`. When `H`
/// has one or two edges to `v`, entering `H` either ends the game inside it, or comes back to
/// `v` with both edges to `H` used, after which `H` is cut off and the game goes on from `v`
/// without `H`. Let `w` be whether the player to move at `v` then wins, and `f(w)` what
/// entering `H` is worth to the player who enters it: `f(false)` is the stand-alone game on `H`
/// and `v` with the token on `v` (coming back to `v`, the player to move there is stuck),
/// `f(true)` the same game where coming back to `v` wins for the player to move there. Both
/// are solved by brute force when `H` is small.
///
/// * `f(false)` is a loss: entering `H` is worth at most `w`, what the player at `v` gets
///   anyway (if `w` holds, a winning move outside `H` exists; coming back with the same player
///   to move is that same position). By induction on the edges (moves elsewhere keep `H` a
///   piece at `v` with the same values) the position has the value of the one without `H`'s
///   edges: `H` is dropped. Hanging even cycles of degree-2 vertices are such pieces.
/// * `f(false)` and `f(true)` are wins: the player at `v` wins by entering `H`, whatever the
///   rest. If `v` is the token the mover wins; otherwise `v` is *hot*: entering it loses,
///   and, as for the leaf traps (the one-vertex case), the position has the value of the one
///   without `v`'s edges.
/// * Otherwise (`H` is a pass, like a hanging odd cycle: the one who enters it hands the move
///   back at `v`) nothing follows: passes cancel in pairs, so `H` is left alone.
///
/// The pieces are found by one depth-first search from the token (low points, as for
/// articulation points), innermost first; a dropped piece is left out of the pieces around it.
/// After a hot vertex is dropped the search stops (the caller repeats it, with the traps, until
/// nothing changes). Pieces of more than [`PIECE_EDGE_LIMIT`] edges, or whose stand-alone solves
/// need more than `PIECE_NODE_BUDGET` nodes, are left alone.
pub fn pieces(rows: &mut [u128; MAX_VERTICES], token: u8) -> PieceVerdict {
    let mut verdict = PieceVerdict::default();
    // Depth-first search: discovery times (0: not seen), low points, subtrees, parents.
    let mut disc = [0u8; MAX_VERTICES];
    let mut low = [0u8; MAX_VERTICES];
    let mut sub = [0u128; MAX_VERTICES];
    let mut parent = [u8::MAX; MAX_VERTICES];
    let mut stack: ArrayVec<(u8, u128), MAX_VERTICES> = ArrayVec::new();
    let mut time = 1u8;
    disc[token as usize] = time;
    low[token as usize] = time;
    sub[token as usize] = 1u128 << token;
    stack.push((token, rows[token as usize]));
    while let Some(top) = stack.last_mut() {
        let vertex = top.0 as usize;
        if top.1 != 0 {
            let next = top.1.trailing_zeros() as usize;
            top.1 &= top.1 - 1;
            if disc[next] == 0 {
                time += 1;
                disc[next] = time;
                low[next] = time;
                sub[next] = 1u128 << next;
                parent[next] = vertex as u8;
                stack.push((next as u8, rows[next]));
            } else if next != parent[vertex] as usize {
                low[vertex] = low[vertex].min(disc[next]);
            }
            continue;
        }
        stack.pop();
        let Some(&(cut, _)) = stack.last() else { break };
        let cut = cut as usize;
        low[cut] = low[cut].min(low[vertex]);
        if low[vertex] >= disc[cut] {
            // The subtree of `vertex` is a piece at `cut`.
            let piece = sub[vertex];
            match small_piece_value(rows, cut as u8, piece) {
                PieceValue::Drop => {
                    drop_vertices(rows, piece);
                    verdict.dropped |= piece;
                    continue; // not part of the pieces around it
                }
                PieceValue::Hot if cut == token as usize => {
                    verdict.win = true;
                    return verdict;
                }
                PieceValue::Hot => {
                    drop_vertices(rows, 1u128 << cut);
                    verdict.dropped |= 1u128 << cut;
                    return verdict;
                }
                PieceValue::Neither => {}
            }
        }
        sub[cut] |= sub[vertex];
    }
    verdict
}

/// [`piece_value`] of `piece` at `cut` when it has at most two edges to `cut` and at most
/// [`PIECE_EDGE_LIMIT`] edges in all; [`PieceValue::Neither`] otherwise.
pub(super) fn small_piece_value(
    rows: &mut [u128; MAX_VERTICES],
    cut: u8,
    piece: u128,
) -> PieceValue {
    let entries = (rows[cut as usize] & piece).count_ones();
    if entries > 2 {
        return PieceValue::Neither;
    }
    // Each edge inside the piece is counted from both ends, an edge to `cut` from one.
    let mut degrees = entries;
    let mut rest = piece;
    while rest != 0 {
        let u = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        degrees += rows[u].count_ones();
    }
    if degrees / 2 > PIECE_EDGE_LIMIT {
        return PieceValue::Neither;
    }
    piece_value(rows, cut, piece)
}

/// Removes every edge of the vertices in `set` from `rows`.
pub(in crate::games::geography) fn drop_vertices(rows: &mut [u128; MAX_VERTICES], set: u128) {
    let mut rest = set;
    while rest != 0 {
        let u = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut row = rows[u];
        while row != 0 {
            let w = row.trailing_zeros() as usize;
            row &= row - 1;
            rows[w] &= !(1u128 << u);
        }
        rows[u] = 0;
    }
}

/// What a pendant piece means for its cut vertex (see [`pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PieceValue {
    /// Entering it never helps: drop it.
    Drop,
    /// Entering it wins: its cut vertex is hot.
    Hot,
    /// A pass, or over the node budget: nothing follows.
    Neither,
}

/// What piece `h` at `v` means (see [`pieces`]), through the per-thread piece memo (of the
/// game's caches) keyed by the piece's edges and `v`.
pub(super) fn piece_value(rows: &mut [u128; MAX_VERTICES], v: u8, h: u128) -> PieceValue {
    let mut key = token_key(v) ^ 0x5A17_C0DE_0000_0000;
    let mut rest = h;
    while rest != 0 {
        let u = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let mut row = rows[u as usize] & ((h & !((2u128 << u) - 1)) | 1u128 << v);
        while row != 0 {
            let w = row.trailing_zeros() as u8;
            row &= row - 1;
            key ^= edge_key(u, w);
        }
    }
    let code = caches::piece_lookup(key).unwrap_or_else(|| {
        let mut budget = PIECE_NODE_BUDGET;
        let code = match standalone_win(rows, v, v, h, false, &mut budget) {
            Some(false) => 1,
            Some(true) => match standalone_win(rows, v, v, h, true, &mut budget) {
                Some(true) => 2,
                _ => 3,
            },
            None => 3,
        };
        caches::piece_store(key, code);
        code
    });
    match code {
        1 => PieceValue::Drop,
        2 => PieceValue::Hot,
        _ => PieceValue::Neither,
    }
}

/// Whether the mover wins the stand-alone game of piece `h` at `v` with the token on `at`
/// (from `v` only the edges into `h` count; back at `v` with none left, the player to move
/// there wins iff `back_wins`); `None` when `budget` nodes run out. `rows` is restored before
/// returning. Not the bridges' [`SubgameCache::solve`]: that one plays the plain rules on a
/// copy of the far side's rows, and `f(true)` needs the ending where coming back wins.
pub(super) fn standalone_win(
    rows: &mut [u128; MAX_VERTICES],
    at: u8,
    v: u8,
    h: u128,
    back_wins: bool,
    budget: &mut u32,
) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let moves_of = |rows: &[u128; MAX_VERTICES], x: u8| {
        if x == v { rows[x as usize] & h } else { rows[x as usize] }
    };
    let moves = moves_of(rows, at);
    if moves == 0 {
        // Stuck inside the piece, or back at `v` (the piece has an edge there at the start).
        return Some(at == v && back_wins);
    }
    let here = 1u128 << at;
    // A move to a vertex of the piece with no other edge wins at once.
    let mut rest = moves & !(1u128 << v);
    while rest != 0 {
        let y = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        if rows[y as usize] & !here == 0 {
            return Some(true);
        }
    }
    let mut rest = moves;
    while rest != 0 {
        let y = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        rows[at as usize] &= !(1u128 << y);
        rows[y as usize] &= !here;
        let child = standalone_win(rows, y, v, h, back_wins, budget);
        rows[at as usize] |= 1u128 << y;
        rows[y as usize] |= here;
        match child {
            None => return None,
            Some(false) => return Some(true),
            Some(true) => {}
        }
    }
    Some(false)
}
