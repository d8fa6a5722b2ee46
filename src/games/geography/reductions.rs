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

use arrayvec::ArrayVec;

use super::graph::{MAX_VERTICES, Vertices, edge_key, token_key};
use super::subgame::{SUBGAME_EDGE_LIMIT, SubgameCache};
use super::{Geography, Reductions};
use crate::bitboard::Bitboard128;
use crate::game::Outcome;
use crate::zobrist::splitmix64;

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
const PIECE_NODE_BUDGET: u32 = 4096;

/// What [`pieces`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceVerdict {
    /// Vertices whose edges were dropped: the pieces that never help, and the hot cut vertices.
    pub dropped: u128,
    /// A piece hanging at the token wins: the mover wins.
    pub win: bool,
}

/// Pendant pieces ([`super::Reductions::PIECES`]) on adjacency `rows` with the token on `s`;
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
fn small_piece_value(rows: &mut [u128; MAX_VERTICES], cut: u8, piece: u128) -> PieceValue {
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
pub(super) fn drop_vertices(rows: &mut [u128; MAX_VERTICES], set: u128) {
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

/// Entries of the per-thread memo of [`piece_value`] (a power of two).
const PIECE_MEMO_ENTRIES: usize = 1 << 16;

thread_local! {
    /// Per-thread memo of [`piece_value`]: slot `key % entries` holds the key with its low two
    /// bits replaced by the answer (1: drop, 2: hot, 3: neither; 0: empty).
    /// Written when made (512 KiB; see [`crate::memory`]).
    static PIECE_MEMO: std::cell::RefCell<Vec<u64>> =
        std::cell::RefCell::new(crate::memory::zeroed_mapped(PIECE_MEMO_ENTRIES).into_vec());
}

/// What a pendant piece means for its cut vertex (see [`pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PieceValue {
    /// Entering it never helps: drop it.
    Drop,
    /// Entering it wins: its cut vertex is hot.
    Hot,
    /// A pass, or over the node budget: nothing follows.
    Neither,
}

/// What piece `h` at `v` means (see [`pieces`]), through the per-thread memo keyed by the
/// piece's edges and `v`.
fn piece_value(rows: &mut [u128; MAX_VERTICES], v: u8, h: u128) -> PieceValue {
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
    let tag = key & !3;
    let slot = (key >> 40) as usize & (PIECE_MEMO_ENTRIES - 1);
    let cached = PIECE_MEMO.with(|memo| {
        let entry = memo.borrow()[slot];
        (entry & !3 == tag && entry & 3 != 0).then_some(entry & 3)
    });
    let code = cached.unwrap_or_else(|| {
        let mut budget = PIECE_NODE_BUDGET;
        let code = match standalone_win(rows, v, v, h, false, &mut budget) {
            Some(false) => 1,
            Some(true) => match standalone_win(rows, v, v, h, true, &mut budget) {
                Some(true) => 2,
                _ => 3,
            },
            None => 3,
        };
        PIECE_MEMO.with(|memo| memo.borrow_mut()[slot] = tag | code);
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
fn standalone_win(
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

/// What the three-move parity rule ([`Reductions::PARITY_DEEP`]) works out for an undecided
/// position, df-pn's initial numbers with [`Reductions::PN_HINT`] ([`proof_numbers_hint`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ParityNumbers {
    /// The moves the opponent cannot answer by a move into a parity set of the mover (the
    /// disproof number; 0 when not worked out).
    pub(super) open: u16,
    /// The fewest such open replies the opponent keeps after a move of the mover (the proof
    /// number: what df-pn's numbers become when the position is expanded, each child numbered
    /// by its open moves).
    pub(super) fewest: u16,
}

impl ParityNumbers {
    /// Not worked out.
    pub(super) const NONE: ParityNumbers = ParityNumbers { open: 0, fewest: 0 };
}

/// Entries of the per-thread memo of [`cached_independent_set_loss`] (a power of two).
const PARITY_MEMO_ENTRIES: usize = 1 << 20;

thread_local! {
    /// Per-thread memo of the parity-set test: slot `hash % entries` holds the hash with its
    /// low bit replaced by the answer (0: empty). The test is a pure function of the token and
    /// its component's edges, so the memo changes no result (up to 63-bit hash collisions, as
    /// for the search's tables); df-pn regenerates the children of a node at every visit, and
    /// the memo spares the repeated tests.
    static PARITY_MEMO: std::cell::RefCell<Vec<u64>> =
        std::cell::RefCell::new(crate::memory::zeroed_mapped(PARITY_MEMO_ENTRIES).into_vec());
}

/// [`independent_set_loss`] through a per-thread memo (2^20 slots) keyed by
/// [`Geography::component_hash`].
pub fn cached_independent_set_loss(pos: &Geography) -> bool {
    memo_parity_loss(pos.component_hash(), &pos.rows, pos.token)
}

/// [`parity_loss`] through the per-thread memo, keyed by `hash`, a hash of the token and of a
/// set of remaining edges holding those of the token's component.
fn memo_parity_loss(hash: u64, rows: &[u128; MAX_VERTICES], token: u8) -> bool {
    memo_or(hash, || parity_loss(rows, token))
}

/// The memoised parity-set answer of `hash` (see [`memo_parity_loss`]), or `compute`'s, which
/// is then memoised.
fn memo_or(hash: u64, compute: impl FnOnce() -> bool) -> bool {
    let tag = hash & !1;
    if tag == 0 {
        return compute();
    }
    let slot = (hash >> 40) as usize & (PARITY_MEMO_ENTRIES - 1);
    if let Some(loss) = PARITY_MEMO.with(|memo| {
        let entry = memo.borrow()[slot];
        (entry & !1 == tag).then_some(entry & 1 == 1)
    }) {
        return loss;
    }
    let loss = compute();
    PARITY_MEMO.with(|memo| memo.borrow_mut()[slot] = tag | u64::from(loss));
    loss
}

/// The parity-set rules of [`decide`]: `Some(Loss)` when the mover is in a parity set
/// ([`Reductions::PARITY_SET`]), `Some(Win)` when a move puts the opponent in one
/// ([`Reductions::PARITY_WIN`]) or when a move leaves the opponent only replies after which the
/// mover can put him in one ([`Reductions::PARITY_DEEP`]). With the win rules, one elimination of
/// the component's rows serves every test: the positions a few moves away differ from this one
/// by a few edges, and [`Nearby`] works out their kernels from it; every answer of the first two
/// rules is memoised as [`cached_independent_set_loss`]'s.
fn parity_decide(pos: &Geography) -> (Option<Outcome>, ParityNumbers) {
    let (loss_rule, win_rule, deep_rule) = (
        pos.reductions.contains(Reductions::PARITY_SET),
        pos.reductions.contains(Reductions::PARITY_WIN),
        pos.reductions.contains(Reductions::PARITY_DEEP),
    );
    if !win_rule && !deep_rule {
        let loss = loss_rule && cached_independent_set_loss(pos);
        return (loss.then_some(Outcome::Loss), ParityNumbers::NONE);
    }
    let s = pos.token;
    let mut nearby = Nearby::new(pos);
    // With both win rules, the parent's tests already answered this position's parity-set
    // test (the parent is undecided, so no move of its led to a parity set), its win
    // certificate and some of its open-move tests (`ChildTests`).
    let inherited = if win_rule && deep_rule { ChildTests::inherited(pos) } else { None };
    if loss_rule && inherited.is_none() {
        let loss = memo_or(pos.component_hash(), || {
            nearby
                .elimination()
                .parity_set(&pos.rows, s)
                .unwrap_or_else(|| parity_loss(&pos.rows, s))
        });
        if loss {
            return (Some(Outcome::Loss), ParityNumbers::NONE);
        }
    }
    if let Some(known) = inherited
        && known.won
    {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    let win_known = inherited.is_some_and(|known| !known.unsure);
    if win_rule && !win_known && parity_win_with(pos, &mut nearby) {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    if !deep_rule {
        return (None, ParityNumbers::NONE);
    }
    let mut tests = ChildTests::new(pos.rows[s as usize]);
    let fewest = fewest_open_replies_into(pos, &mut nearby, &mut tests);
    if fewest == 0 {
        return (Some(Outcome::Win), ParityNumbers::NONE);
    }
    let known = inherited.unwrap_or(Inherited::NOTHING);
    match open_moves_into(pos, &mut nearby, &mut tests, known) {
        0 => (Some(Outcome::Loss), ParityNumbers::NONE),
        open => {
            if win_rule {
                tests.store(pos.component_hash());
            }
            (None, ParityNumbers { open, fewest })
        }
    }
}

/// What the parity tests of an undecided position found about the positions after its moves
/// (its children), kept per thread for when the children are settled, as df-pn does when it
/// expands the position. The tests ask the same questions the children ask themselves:
///
/// * the open-move test of a move `s -> x` (is there a reply `x -> z` into a parity set of the
///   mover?) is the child's parity-set win certificate ([`Reductions::PARITY_WIN`]);
/// * the three-move test of a reply `x -> y` (is there an answer `y -> z` into a parity set of
///   the opponent?) is the child's open-move test of its move `y`.
///
/// Each question is asked of the same graph (the child's, or its view without traps, is the
/// parent's, or its view, less the edge moved along: the child finds the record by that hash)
/// and answered by the same exact test, so a child that finds its parent's record settles to
/// what it would settle to alone, with fewer tests. Answers the parent did not reach (its
/// three-move count stops at the fewest so far) or where a test gave up (kernel too large) are
/// asked again.
#[derive(Clone, Copy)]
struct ChildTests {
    /// The moves of the token (in the position, or its view without traps).
    moves: u128,
    /// The moves the opponent answers by a move into a parity set of the mover (the child's
    /// mover wins).
    won: u128,
    /// The moves whose answer is not known: no answer found and some test gave up.
    unsure: u128,
    /// For the first [`CHILD_TEST_MOVES`] moves (by vertex): the replies (by their rank among
    /// the move's replies, the first 16) whose three-move test ended with every answer tested,
    /// and of those the ones answered into a parity set.
    tested: [u16; CHILD_TEST_MOVES],
    answered: [u16; CHILD_TEST_MOVES],
}

/// Moves of a position whose replies [`ChildTests`] records (a contest vertex has at most a
/// dozen neighbours).
const CHILD_TEST_MOVES: usize = 16;

/// Entries of the per-thread [`ChildTests`] memo (a power of two).
const CHILD_TEST_ENTRIES: usize = 1 << 12;

thread_local! {
    /// The [`ChildTests`] of recently settled positions, by slot of their component hash.
    static CHILD_TESTS: std::cell::RefCell<Vec<(u64, ChildTests)>> =
        std::cell::RefCell::new(vec![(0, ChildTests::new(0)); CHILD_TEST_ENTRIES]);
}

#[cfg(test)]
thread_local! {
    /// How many settled positions found their parent's tests (for the tests).
    pub(super) static INHERITED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many split tests of [`Nearby::any_loss_after`] found a parity set without the
    /// prefix's last vertex, and how many found one holding it (for the tests).
    pub(super) static SPLIT_FOUND: std::cell::Cell<(usize, usize)> =
        const { std::cell::Cell::new((0, 0)) };
}

/// What a child takes from its parent's [`ChildTests`].
#[derive(Clone, Copy)]
struct Inherited {
    /// The mover wins by the parity-set win certificate.
    won: bool,
    /// The certificate's answer is not known (ask again).
    unsure: bool,
    /// The moves whose open-move test is answered, and of those the answered ones.
    tested: u128,
    answered: u128,
}

impl Inherited {
    /// Nothing known.
    const NOTHING: Inherited = Inherited { won: false, unsure: true, tested: 0, answered: 0 };
}

/// The rank of `x` among the set bits of `set`.
fn rank(set: u128, x: u8) -> usize {
    (set & ((1u128 << x) - 1)).count_ones() as usize
}

/// The members of `set` whose rank among its set bits is in `ranks`.
fn by_rank(set: u128, ranks: u16) -> u128 {
    let mut out = 0u128;
    for (r, v) in Bitboard128(set).into_iter().enumerate().take(16) {
        if ranks >> r & 1 == 1 {
            out |= 1u128 << v;
        }
    }
    out
}

impl ChildTests {
    /// Nothing tested yet for a position whose token has the moves `moves`.
    const fn new(moves: u128) -> Self {
        ChildTests {
            moves,
            won: 0,
            unsure: 0,
            tested: [0; CHILD_TEST_MOVES],
            answered: [0; CHILD_TEST_MOVES],
        }
    }

    fn slot(key: u64) -> usize {
        (key >> 40) as usize & (CHILD_TEST_ENTRIES - 1)
    }

    /// Keeps these tests of the position with component hash `key`.
    fn store(&self, key: u64) {
        CHILD_TESTS.with(|memo| memo.borrow_mut()[Self::slot(key)] = (key, *self));
    }

    /// Records the three-move test of the reply of rank `r` to the move `x`.
    fn note_reply(&mut self, x: u8, r: usize, answered: bool) {
        let i = rank(self.moves, x);
        if i < CHILD_TEST_MOVES && r < 16 {
            self.tested[i] |= 1 << r;
            self.answered[i] |= u16::from(answered) << r;
        }
    }

    /// What the parent of `pos` found about it, when `pos` was reached by a move that kept the
    /// component whole and the parent's tests are still kept.
    fn inherited(pos: &Geography) -> Option<Inherited> {
        let (from, x) = (pos.came_from, pos.token);
        if from == u8::MAX {
            return None;
        }
        let key = pos.component_hash() ^ edge_key(from, x) ^ token_key(from) ^ token_key(x);
        if key == 0 {
            return None;
        }
        let tests = CHILD_TESTS.with(|memo| {
            let (k, tests) = memo.borrow()[Self::slot(key)];
            (k == key).then_some(tests)
        })?;
        let bit = 1u128 << x;
        if tests.moves & bit == 0 {
            return None;
        }
        #[cfg(test)]
        INHERITED.with(|n| n.set(n.get() + 1));
        let i = rank(tests.moves, x);
        let replies = pos.rows[x as usize];
        let (tested, answered) = if i < CHILD_TEST_MOVES {
            (by_rank(replies, tests.tested[i]), by_rank(replies, tests.answered[i]))
        } else {
            (0, 0)
        };
        Some(Inherited {
            won: tests.won & bit != 0,
            unsure: tests.unsure & bit != 0,
            tested,
            answered,
        })
    }
}

/// [`open_moves_into`] with nothing known from the parent.
#[cfg(test)]
pub(super) fn open_moves(pos: &Geography, nearby: &mut Nearby) -> u16 {
    let mut tests = ChildTests::new(pos.rows[pos.token as usize]);
    open_moves_into(pos, nearby, &mut tests, Inherited::NOTHING)
}

/// The moves of the token that the opponent cannot answer by a move into a parity set of the
/// mover ([`Reductions::PARITY_DEEP`]); when there is none, the mover loses. The answers
/// `known` from the parent's tests are taken as they are; every answer is recorded in `tests`.
fn open_moves_into(
    pos: &Geography,
    nearby: &mut Nearby,
    tests: &mut ChildTests,
    known: Inherited,
) -> u16 {
    let s = pos.token;
    let rows = &pos.rows;
    let mut open = 0;
    for y in Bitboard128(rows[s as usize]) {
        let y = y as u8;
        let answered = if known.tested >> y & 1 == 1 {
            known.answered >> y & 1 == 1
        } else {
            let answers = rows[y as usize] & !(1u128 << s);
            let answers = without_leaf_beside(rows, answers, 1u128 << s | 1u128 << y);
            let (answered, gave_up) = nearby.any_loss_after(&[s, y], answers);
            if gave_up && !answered {
                tests.unsure |= 1u128 << y;
            }
            answered
        };
        if answered {
            tests.won |= 1u128 << y;
        }
        open += u16::from(!answered);
    }
    open
}

/// The parity-set win certificate ([`Reductions::PARITY_WIN`]): `true` when some move of the
/// token leads to a position the parity-set rule ([`independent_set_loss`]) decides lost for the
/// opponent, so the mover wins. On a bipartite component this is exactly the winning half of the
/// bipartite rule (a set `X` of the far side with an odd number of edges to the token and an
/// even number to every other vertex of the token's side: after the move into `X`, `X` is a
/// parity set of the opponent).
pub fn parity_win(pos: &Geography) -> bool {
    parity_win_with(pos, &mut Nearby::new(pos))
}

/// [`parity_win`] with `nearby` the position's (elimination made on the first child whose
/// answer is not memoised).
fn parity_win_with(pos: &Geography, nearby: &mut Nearby) -> bool {
    let s = pos.token;
    let rows = &pos.rows;
    let hash_base = pos.component_hash() ^ token_key(s);
    for x in Bitboard128(rows[s as usize]) {
        let x = x as u8;
        // The child's token and edges (those the move cut off included: a function of them).
        let hash = hash_base ^ edge_key(s, x) ^ token_key(x);
        // A neighbour of `x` left with the edge to `x` only wins at once for the opponent
        // (every vertex outside a parity set has an even, so not one, edge into it).
        let beyond = rows[x as usize] & !(1u128 << s);
        let unsafe_move = Bitboard128(beyond).into_iter().any(|y| rows[y as usize] == 1u128 << x);
        let loss = beyond == 0
            || (!unsafe_move
                && memo_or(hash, || {
                    nearby.loss_after(&[s, x]).unwrap_or_else(|| {
                        let mut child = *rows;
                        child[s as usize] &= !(1u128 << x);
                        child[x as usize] &= !(1u128 << s);
                        parity_loss(&child, x)
                    })
                }));
        if loss {
            return true;
        }
    }
    false
}

/// The vertices `z` of `answers` without a neighbour off the path `path` (a set of vertices)
/// whose only edge is to `z`: from such a neighbour's `z`, the player to move steps there and
/// wins at once, so `z` is in no parity set after the moves (a vertex outside the set with an
/// edge into it has an even number, two or more). Cheaper than the parity test, which would
/// find the same.
fn without_leaf_beside(rows: &[u128; MAX_VERTICES], answers: u128, path: u128) -> u128 {
    let mut out = answers;
    for z in Bitboard128(answers) {
        let bit = 1u128 << z;
        if Bitboard128(rows[z as usize] & !path).into_iter().any(|w| rows[w as usize] == bit) {
            out &= !bit;
        }
    }
    out
}

/// [`fewest_open_replies_into`] without recording.
#[cfg(test)]
pub(super) fn fewest_open_replies(pos: &Geography, nearby: &mut Nearby) -> u16 {
    fewest_open_replies_into(pos, nearby, &mut ChildTests::new(pos.rows[pos.token as usize]))
}

/// The three-move parity certificate ([`Reductions::PARITY_DEEP`]) and df-pn's initial proof
/// number with it: the fewest replies `x -> y` of the opponent, over the moves `s -> x`, that
/// the mover cannot answer by a move `y -> z` into a parity set of the opponent (the set exists
/// in the position after the three moves). 0 means the certificate holds: the mover wins.
/// A reply the certificate cannot answer (or a kernel too large to enumerate) counts as open;
/// a move after which the opponent can step onto a vertex left without edges does not count
/// ([`FEWEST_CAP`] when no move counts).
///
/// The moves with fewer replies are tried first, and a move's count stops at the fewest so
/// far: only the minimum is needed (side by side, one thread, on `s9:47` and `s8:59`: the
/// same nodes, a fifth fewer leaf tests than in plain order). Every reply whose answers were
/// all tested (or one of them found) is recorded in `tests`.
fn fewest_open_replies_into(pos: &Geography, nearby: &mut Nearby, tests: &mut ChildTests) -> u16 {
    let s = pos.token;
    let rows = &pos.rows;
    let mut moves: ArrayVec<(u32, u8), MAX_VERTICES> = Bitboard128(rows[s as usize])
        .into_iter()
        .map(|x| (rows[x as usize].count_ones(), x as u8))
        .collect();
    moves.sort_unstable();
    let mut fewest = FEWEST_CAP;
    for (_, x) in moves {
        let replies = rows[x as usize] & !(1u128 << s);
        // A reply to a vertex whose only edge is from `x` leaves the mover stuck.
        if Bitboard128(replies).into_iter().any(|y| rows[y as usize] == 1u128 << x) {
            continue;
        }
        let mut open = 0;
        for (r, y) in Bitboard128(replies).into_iter().enumerate() {
            let answers = rows[y as usize] & !(1u128 << x);
            let path = 1u128 << s | 1u128 << x | 1u128 << y;
            let answers = without_leaf_beside(rows, answers, path);
            let (answered, gave_up) = nearby.any_loss_after(&[s, x, y as u8], answers);
            if answered || !gave_up {
                tests.note_reply(x, r, answered);
            }
            if !answered {
                open += 1;
                if open >= fewest {
                    break;
                }
            }
        }
        fewest = fewest.min(open);
        if fewest == 0 {
            return 0;
        }
    }
    fewest
}

/// [`fewest_open_replies_into`] when every move lets the opponent win at once.
pub(super) const FEWEST_CAP: u16 = 255;

/// Parity-set tests of the positions a few moves away from one whose component rows are all
/// eliminated: a position reached by moves along a path differs from it by the path's edges,
/// a change of low rank, so its kernel follows from the elimination and the reductions of a
/// few unit vectors, without an elimination of its own.
///
/// With `A` the eliminated adjacency and `D` the removed edges (`A' = A + D` over GF(2)),
/// `A' v = 0` is `A v = D v`, and `D v` lies in the span of the unit vectors of the path's
/// vertices `S`, with coefficients fixed by `v` on `S`. For each assignment `a` of `v` on `S`
/// (the token's coordinate 1), `b = D v` is known; the elimination writes each `e_u` as
/// `A p_u + r_u` with a residue `r_u` outside the row space, so `A v = b` is solvable exactly when
/// the residues of `b` cancel, with the solutions `sum p_u` plus the kernel of `A`; the kernel
/// vectors fix the coordinates on `S` back to `a`. The solutions are the kernel vectors of `A'`
/// holding the token, enumerated for an independent one (a parity set), as the test from
/// scratch enumerates them.
pub(super) struct Nearby<'p> {
    /// The position whose component is eliminated.
    pos: &'p Geography,
    /// Whether `elimination` holds the component's rows yet (made on first use).
    ready: bool,
    /// Taken from the thread's spare eliminations and given back when dropped (a fresh one
    /// would be 4 KiB to zero for every position settled); `None` only while being dropped.
    elimination: Option<Box<Elimination>>,
    /// Index in `units` of each vertex's reduction, `u8::MAX` when not yet computed.
    slot: [u8; MAX_VERTICES],
    /// `(p_u, r_u)` with `A p_u = e_u + r_u`, for the first `UNITS` vertices asked for (the
    /// others are reduced again when asked).
    units: ArrayVec<(u128, u128), UNITS>,
}

thread_local! {
    /// The base elimination of [`Nearby::elimination`]: the component hash of the position
    /// before the move (0: none) and the elimination of its rows outside the closed
    /// neighbourhood of its token.
    static SHARED_BASE: std::cell::RefCell<(u64, Box<Elimination>)> =
        std::cell::RefCell::new((0, Box::new(Elimination::new())));
    /// Eliminations given back by dropped [`Nearby`]s, for the next ones.
    static SPARE_ELIMINATIONS: std::cell::RefCell<Vec<Box<Elimination>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Nearby<'_> {
    fn drop(&mut self) {
        if let Some(elimination) = self.elimination.take() {
            SPARE_ELIMINATIONS.with(|spare| spare.borrow_mut().push(elimination));
        }
    }
}

/// Assignments on a path with a solution that [`PathShape::solutions`] keeps.
const SOLUTIONS: usize = 32;

/// Unit-vector reductions a [`Nearby`] keeps.
const UNITS: usize = 48;

/// Kernel vectors vanishing on a path that [`Nearby::loss_after`] keeps: more are more than it
/// enumerates anyway.
const ZERO_ON_PATH: usize = KERNEL_ENUMERATION_DIM + 1;

impl<'p> Nearby<'p> {
    /// The engine of `pos`'s component; the elimination is made on first use.
    pub(super) fn new(pos: &'p Geography) -> Self {
        let mut elimination = SPARE_ELIMINATIONS
            .with(|spare| spare.borrow_mut().pop())
            .unwrap_or_else(|| Box::new(Elimination::new()));
        elimination.clear();
        Nearby {
            pos,
            ready: false,
            elimination: Some(elimination),
            slot: [u8::MAX; MAX_VERTICES],
            units: ArrayVec::new(),
        }
    }

    /// The elimination of the component's rows.
    ///
    /// After a move from `p` that kept the component whole ([`Geography::came_from`]), the
    /// rows outside `p`'s closed neighbourhood in the position before the move are the same in
    /// every position after a move of `p`'s: their elimination (the base) is kept per thread
    /// and shared by those positions, which add the rows of `p`'s neighbourhood to a copy.
    /// The row space, and so every answer, is the same as with the rows added in plain order.
    fn elimination(&mut self) -> &Elimination {
        let elimination = self.elimination.get_or_insert_with(|| Box::new(Elimination::new()));
        if !self.ready {
            let pos = self.pos;
            let (from, token) = (pos.came_from, pos.token);
            let mut rest = pos.component.0;
            if from != u8::MAX {
                // The component hash of the position before the move.
                let key = pos.component_hash()
                    ^ edge_key(from, token)
                    ^ token_key(from)
                    ^ token_key(token);
                let around = pos.rows[from as usize] | 1u128 << from | 1u128 << token;
                SHARED_BASE.with(|base| {
                    let mut base = base.borrow_mut();
                    if base.0 != key || key == 0 {
                        base.1.clear();
                        for v in Bitboard128(rest & !around) {
                            base.1.add(v as usize, pos.rows[v as usize]);
                        }
                        base.0 = key;
                    }
                    elimination.copy_from(&base.1);
                });
                rest &= around;
            }
            for v in Bitboard128(rest) {
                elimination.add(v as usize, pos.rows[v as usize]);
            }
            self.ready = true;
        }
        elimination
    }

    /// `(p_u, r_u)`: the rows summing to `e_u` but for the residue `r_u` (no pivot bit).
    fn unit(&mut self, u: usize) -> (u128, u128) {
        if self.slot[u] != u8::MAX {
            return self.units[self.slot[u] as usize];
        }
        let (row, combo) = self.elimination().reduce(1u128 << u, 0);
        if self.units.try_push((combo, row)).is_ok() {
            self.slot[u] = (self.units.len() - 1) as u8;
        }
        (combo, row)
    }

    /// Whether, after the moves along `path` (its first vertex the token, each step along a
    /// remaining edge, every edge distinct), the player on its last vertex is in a parity set;
    /// `None` when more than `2^KERNEL_ENUMERATION_DIM` kernel vectors hold that vertex (as
    /// [`Elimination::parity_set`]).
    pub(super) fn loss_after(&mut self, path: &[u8]) -> Option<bool> {
        let shape = PathShape::new(path);
        let n = shape.len;
        let mut units = [(0u128, 0u128); 8];
        for (unit, &v) in units.iter_mut().zip(&shape.verts[..n]) {
            *unit = self.unit(v as usize);
        }
        // The kernel of the unchanged rows by its coordinates on the path.
        let mut kernel = KernelOnPath::new();
        for &k in &self.elimination().kernel {
            kernel.add(shape.on_path(k), k);
        }
        let mut firsts = ArrayVec::new();
        shape.solutions(&units[..n], &kernel.reach, &mut firsts)?;
        self.finish(&shape, &firsts, &kernel)
    }

    /// The end of [`Nearby::loss_after`] once the kernel vectors of the changed rows that match
    /// each solvable assignment on the path (`firsts`) and the kernel of the unchanged rows on
    /// the path (`kernel`) are known: whether one of them is independent after the moves.
    fn finish(&self, shape: &PathShape, firsts: &[u128], kernel: &KernelOnPath) -> Option<bool> {
        let (zero, zeros) = (&kernel.zero, kernel.zeros);
        if firsts.is_empty() {
            return Some(false);
        }
        if zeros > KERNEL_ENUMERATION_DIM || firsts.len() << zeros > 1 << KERNEL_ENUMERATION_DIM {
            return None;
        }
        let after = shape.rows_after(&self.pos.rows);
        let independent = |x: u128| shape.independent(&after, &self.pos.rows, x);
        Some(firsts.iter().any(|&x| any_in_coset(x, &zero[..zeros], independent)))
    }

    /// Whether some last move `z` of `lasts` (moves from the last vertex of `prefix`, a path of
    /// distinct vertices starting at the token) puts the player on `z` in a parity set, as
    /// [`Nearby::loss_after`] of `prefix` then `z` would say, and, when none does, whether some
    /// test gave up. The work the paths share (the prefix's shape, unit reductions,
    /// the kernel on it and the images of its edges) is done once; a `z` on the prefix is
    /// tested on its own.
    pub(super) fn any_loss_after(&mut self, prefix: &[u8], lasts: u128) -> (bool, bool) {
        let head = PathShape::new(prefix);
        let n0 = head.len;
        debug_assert!(n0 == prefix.len() && n0 < 8);
        let mut gave_up = false;
        let mut path = [0u8; 8];
        path[..n0].copy_from_slice(prefix);
        let mut units = [(0u128, 0u128); 8];
        for (unit, &v) in units.iter_mut().zip(&head.verts[..n0]) {
            *unit = self.unit(v as usize);
        }
        // The kernel by its coordinates on the prefix.
        let mut prefix_kernel = PrefixKernel { reach: [(0, 0); 8], zero: ArrayVec::new() };
        for &k in &self.elimination().kernel {
            prefix_kernel.add(head.on_path(k), k);
        }
        // The images of the prefix's edges (solution part, residue, coordinates on the prefix).
        let mut images = [(0u128, 0u128, 0u32); 8];
        for &(i, j) in &head.edges[..head.steps] {
            let (i, j) = (i as usize, j as usize);
            images[i].0 ^= units[j].0;
            images[i].1 ^= units[j].1;
            images[j].0 ^= units[i].0;
            images[j].1 ^= units[i].1;
        }
        for image in images.iter_mut().take(n0) {
            image.2 = head.on_path(image.0);
        }
        let last = head.token;
        let last_on = head.on_path(units[last].0);
        let mut kernel = KernelOnPath::new();
        // Split on the coordinate of the prefix's last vertex when no test below can give up
        // (at most 2^n0 solvable assignments, each with at most 2^k kernel vectors vanishing on
        // the path) and the half it takes off costs little to enumerate.
        let k = prefix_kernel.zero.len();
        let split =
            n0 <= 5 && k <= SPLIT_ZEROS && (1usize << n0) << k <= 1 << KERNEL_ENUMERATION_DIM;
        let mut held: ArrayVec<(u128, u128, u32), 16> = ArrayVec::new();
        if split {
            let (mut sum, mut residue) =
                (units[last].0 ^ images[last].0, units[last].1 ^ images[last].1);
            let mut bits = 1u32 << last | 1 << n0;
            for step in 0u32..1 << (n0 - 1) {
                if step > 0 {
                    let b = step.trailing_zeros() as usize;
                    let i = b + usize::from(b >= last);
                    sum ^= images[i].0;
                    residue ^= images[i].1;
                    bits ^= 1 << i;
                }
                held.push((sum, residue, bits));
            }
        }
        let beyond = Beyond {
            head: &head,
            units: &units,
            prefix_kernel: &prefix_kernel,
            images: &images,
            split,
            held: &held,
        };
        if split && self.free_answers(&beyond, last_on) & lasts & !head.mask != 0 {
            #[cfg(test)]
            SPLIT_FOUND.with(|n| n.set((n.get().0 + 1, n.get().1)));
            return (true, false);
        }
        for z in Bitboard128(lasts) {
            let z = z as u8;
            let answer = if head.mask >> z & 1 == 1 {
                path[n0] = z;
                self.loss_after(&path[..=n0])
            } else {
                self.loss_after_beyond(&beyond, last_on, z, &mut kernel)
            };
            match answer {
                Some(true) => return (true, gave_up),
                Some(false) => {}
                None => gave_up = true,
            }
        }
        (false, gave_up)
    }

    /// [`Nearby::loss_after`] of the prefix then a move to `z`, off the prefix, from what
    /// [`Nearby::any_loss_after`] worked out for the prefix (`kernel` is scratch space).
    ///
    /// When the prefix is split, only the solutions whose coordinate on the prefix's last vertex
    /// is 1 are looked at (those with 0 are [`Nearby::free_answers`]'s): an assignment is
    /// solvable when its residue is `z`'s, which most are not, so most `z` end before the
    /// kernel on the path is worked out.
    fn loss_after_beyond(
        &mut self,
        prefix: &Beyond,
        last_on: u32,
        z: u8,
        kernel: &mut KernelOnPath,
    ) -> Option<bool> {
        let head = prefix.head;
        let (n0, last) = (head.len, head.token);
        let uz = self.unit(z as usize);
        let z_bit = |x: u128| ((x >> z & 1) as u32) << n0;
        let mut firsts = ArrayVec::new();
        if prefix.split {
            if prefix.held.iter().all(|h| h.1 != uz.1) {
                return Some(false);
            }
            // The kernel on the path is the prefix's, with `z`'s coordinate fixed last by the
            // first vector vanishing on the prefix that holds `z` (as `with_vertex` builds it,
            // which is needed only when a solution is found).
            let pk = prefix.prefix_kernel;
            let on_z = || pk.zero.iter().copied().find(|&vec| vec >> z & 1 == 1);
            for &(sum, residue, bits) in prefix.held {
                if residue != uz.1 {
                    continue;
                }
                let x = sum ^ uz.0;
                let Some(mut x) =
                    fix_on_path(&pk.reach, x, head.on_path(x) ^ bits & ((1 << n0) - 1))
                else {
                    continue;
                };
                if x >> z & 1 == 0 {
                    match on_z() {
                        Some(vec) => x ^= vec,
                        None => continue,
                    }
                }
                firsts.push(x);
            }
            if firsts.is_empty() {
                return Some(false);
            }
            pk.with_vertex(n0, z, kernel);
            let answer = self.finish_beyond(head, z, &firsts, kernel);
            #[cfg(test)]
            if answer == Some(true) {
                SPLIT_FOUND.with(|n| n.set((n.get().0, n.get().1 + 1)));
            }
            return answer;
        }
        prefix.prefix_kernel.with_vertex(n0, z, kernel);
        // The images with the edge {last, z}: setting z puts e_last into D v, setting last
        // puts e_z; each with its mismatch against the assignment.
        let mut images: ArrayVec<(u128, u128, u32), 8> =
            prefix.images[..n0].iter().copied().collect();
        images[last].0 ^= uz.0;
        images[last].1 ^= uz.1;
        images[last].2 ^= head.on_path(uz.0);
        let (sum, residue) = prefix.units[last];
        images.push((sum, residue, last_on));
        for (i, image) in images.iter_mut().enumerate() {
            image.2 = image.2 ^ z_bit(image.0) ^ 1 << i;
        }
        gray_solutions(&images, n0, &kernel.reach, &mut firsts)?;
        self.finish_beyond(head, z, &firsts, kernel)
    }

    /// [`Nearby::finish`] of the prefix `head` then a move to `z`.
    fn finish_beyond(
        &self,
        head: &PathShape,
        z: u8,
        firsts: &[u128],
        kernel: &KernelOnPath,
    ) -> Option<bool> {
        if firsts.is_empty() {
            return Some(false);
        }
        let (n0, last) = (head.len, head.token);
        let mut shape = PathShape { ..*head };
        shape.verts[n0] = z;
        shape.mask |= 1u128 << z;
        shape.len = n0 + 1;
        shape.edges[shape.steps] = (last as u8, n0 as u8);
        shape.steps += 1;
        shape.token = n0;
        self.finish(&shape, firsts, kernel)
    }
}

impl Nearby<'_> {
    /// The vertices `z` off the prefix for which a move `last -> z` after the prefix puts the
    /// player on `z` in a parity set by a set without `last` (the prefix's last vertex).
    ///
    /// Such a set `v` (with `v_z = 1`, `v_last = 0`) solves `A v = D_P v + e_last` (`D_P` the
    /// prefix's edges), whatever `z` is: the edge `{last, z}` adds `v_z e_last + v_last e_z`
    /// to `D v`. And it is independent after the move exactly when it is after the prefix
    /// (the edge `{last, z}` has no end in it but `z`). So every independent solution of that
    /// system, over the assignments on the prefix with `last`'s coordinate 0, serves every `z`
    /// it holds: one enumeration for all of them ([`Nearby::any_loss_after`] tests only the
    /// sets holding `last` per `z`).
    fn free_answers(&self, prefix: &Beyond, last_on: u32) -> u128 {
        let head = prefix.head;
        let (n0, last) = (head.len, head.token);
        let after = head.rows_after(&self.pos.rows);
        let independent = |x: u128| head.independent(&after, &self.pos.rows, x);
        let zero = &prefix.prefix_kernel.zero;
        let (mut sum, mut residue, mut mismatch) =
            (prefix.units[last].0, prefix.units[last].1, last_on);
        let mut found = 0u128;
        for step in 0u32..1 << (n0 - 1) {
            if step > 0 {
                let b = step.trailing_zeros() as usize;
                let i = b + usize::from(b >= last);
                let image = prefix.images[i];
                sum ^= image.0;
                residue ^= image.1;
                mismatch ^= image.2 ^ 1 << i;
            }
            if residue != 0 {
                continue;
            }
            let Some(mut x) = fix_on_path(&prefix.prefix_kernel.reach, sum, mismatch) else {
                continue;
            };
            if independent(x) {
                found |= x;
            }
            for i in 1u32..1 << zero.len() {
                x ^= zero[i.trailing_zeros() as usize];
                if independent(x) {
                    found |= x;
                }
            }
        }
        found
    }
}

/// Largest number of kernel vectors vanishing on a prefix for which [`Nearby::any_loss_after`]
/// enumerates [`Nearby::free_answers`] (`2^k` sets per assignment).
const SPLIT_ZEROS: usize = 4;

/// What the tests of the last moves after one prefix share ([`Nearby::any_loss_after`]): its
/// shape, the unit reductions of its vertices, the kernel on it and the images of its edges.
struct Beyond<'a> {
    head: &'a PathShape,
    units: &'a [(u128, u128); 8],
    prefix_kernel: &'a PrefixKernel,
    images: &'a [(u128, u128, u32); 8],
    /// Whether the tests split on the coordinate of the prefix's last vertex
    /// ([`Nearby::free_answers`]).
    split: bool,
    /// When split: for each assignment on the prefix with the last vertex's coordinate 1 (and
    /// the next vertex's), the solution part and residue of `D v` but for the next vertex's
    /// unit, and the assignment's bits.
    held: &'a [(u128, u128, u32)],
}

/// The kernel of the unchanged rows by its coordinates on a path: for each lowest bit, a kernel
/// vector with that pattern bit (a basis reaching every pattern in the span), and a basis of the
/// kernel vectors vanishing on the path (`zeros` of them; more than [`ZERO_ON_PATH`] are too
/// many to enumerate, only the first are kept).
struct KernelOnPath {
    reach: [(u32, u128); 8],
    zero: [u128; ZERO_ON_PATH],
    zeros: usize,
}

impl KernelOnPath {
    fn new() -> Self {
        KernelOnPath { reach: [(0, 0); 8], zero: [0; ZERO_ON_PATH], zeros: 0 }
    }

    /// Adds the kernel vector `vec` whose coordinates on the path are `key`.
    fn add(&mut self, key: u32, vec: u128) {
        if let Some(vec) = reach_or_zero(&mut self.reach, key, vec) {
            self.push_zero(vec);
        }
    }

    /// Counts a kernel vector vanishing on the path, kept while there is room.
    fn push_zero(&mut self, vec: u128) {
        if self.zeros < ZERO_ON_PATH {
            self.zero[self.zeros] = vec;
        }
        self.zeros += 1;
    }
}

/// Reduces the kernel vector `vec` with coordinates `key` on a path by `reach` (a vector per
/// lowest bit of its coordinates): it joins `reach` when it brings a new lowest bit, else
/// comes back, reduced, vanishing on the path.
fn reach_or_zero(reach: &mut [(u32, u128); 8], mut key: u32, mut vec: u128) -> Option<u128> {
    while key != 0 {
        let b = key.trailing_zeros() as usize;
        if reach[b].0 == 0 {
            reach[b] = (key, vec);
            return None;
        }
        key ^= reach[b].0;
        vec ^= reach[b].1;
    }
    Some(vec)
}

/// The kernel of the unchanged rows by its coordinates on a path's prefix, as
/// [`KernelOnPath`] but with every vector vanishing on the prefix kept: the kernel on the
/// prefix and one more vertex follows from it ([`PrefixKernel::with_vertex`]) without
/// reducing every kernel vector again.
struct PrefixKernel {
    reach: [(u32, u128); 8],
    zero: ArrayVec<u128, MAX_VERTICES>,
}

impl PrefixKernel {
    /// Adds the kernel vector `vec` whose coordinates on the prefix are `key`.
    fn add(&mut self, key: u32, vec: u128) {
        if let Some(vec) = reach_or_zero(&mut self.reach, key, vec) {
            self.zero.push(vec);
        }
    }

    /// Makes `out` the [`KernelOnPath`] of the prefix (`n0` vertices) and then `z` (index `n0`,
    /// the entries above it are left as they are): the same
    /// one [`KernelOnPath::add`] makes from every kernel vector in order. The new coordinate
    /// is the highest, so every reduction of a lower bit goes as on the prefix; a vector that
    /// vanished on the prefix is reduced only by the first such vector holding `z`.
    fn with_vertex(&self, n0: usize, z: u8, out: &mut KernelOnPath) {
        let z_bit = |x: u128| ((x >> z & 1) as u32) << n0;
        for (to, &(key, vec)) in out.reach.iter_mut().zip(&self.reach[..n0]) {
            *to = if key == 0 { (0, 0) } else { (key | z_bit(vec), vec) };
        }
        out.reach[n0] = (0, 0);
        out.zeros = 0;
        for &vec in &self.zero {
            let vec = if z_bit(vec) == 0 {
                vec
            } else if out.reach[n0].0 == 0 {
                out.reach[n0] = (1 << n0, vec);
                continue;
            } else {
                vec ^ out.reach[n0].1
            };
            out.push_zero(vec);
        }
    }
}

/// A path of moves as [`Nearby::loss_after`] uses it: its distinct vertices, its edges as pairs
/// of their indices, the index of its last vertex (the token after the moves).
struct PathShape {
    /// The distinct vertices (`len` of them).
    verts: [u8; 8],
    /// The path's edges (`steps` of them) as indices into `verts`.
    edges: [(u8, u8); 8],
    len: usize,
    steps: usize,
    token: usize,
    mask: u128,
}

impl PathShape {
    fn new(path: &[u8]) -> Self {
        let mut shape =
            PathShape { verts: [0; 8], edges: [(0, 0); 8], len: 0, steps: 0, token: 0, mask: 0 };
        let mut prev = 0u8;
        for (k, &v) in path.iter().enumerate() {
            let i = if shape.mask >> v & 1 == 1 {
                shape.verts[..shape.len].iter().position(|&w| w == v).unwrap_or(0) as u8
            } else {
                shape.verts[shape.len] = v;
                shape.mask |= 1u128 << v;
                shape.len += 1;
                (shape.len - 1) as u8
            };
            if k > 0 {
                shape.edges[shape.steps] = (prev, i);
                shape.steps += 1;
            }
            prev = i;
        }
        shape.token = prev as usize;
        shape
    }

    /// The rows of the path's vertices (by index) after its moves, from the rows before.
    // Not inlined, these two cost 1.4 % more instructions on `s8:52` (callgrind).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn rows_after(&self, rows: &[u128; MAX_VERTICES]) -> [u128; 8] {
        let mut after = [0u128; 8];
        for (row, &v) in after.iter_mut().zip(&self.verts[..self.len]) {
            *row = rows[v as usize];
        }
        for &(i, j) in &self.edges[..self.steps] {
            after[i as usize] &= !(1u128 << self.verts[j as usize]);
            after[j as usize] &= !(1u128 << self.verts[i as usize]);
        }
        after
    }

    /// Whether no two vertices of `x` are adjacent after the path's moves (`after` from
    /// [`PathShape::rows_after`], `rows` before the moves).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn independent(&self, after: &[u128; 8], rows: &[u128; MAX_VERTICES], x: u128) -> bool {
        for (&v, &row) in self.verts[..self.len].iter().zip(after) {
            if x >> v & 1 == 1 && row & x != 0 {
                return false;
            }
        }
        Bitboard128(x & !self.mask).into_iter().all(|w| rows[w as usize] & x == 0)
    }

    /// The bits of `x` on the path's vertices, by index.
    fn on_path(&self, x: u128) -> u32 {
        let mut bits = 0u32;
        for i in 0..self.len {
            bits |= ((x >> self.verts[i] & 1) as u32) << i;
        }
        bits
    }

    /// One kernel vector of the changed rows for each assignment on the path (the token's
    /// coordinate 1) that has one, from the unit reductions `units` (by index) and the
    /// kernel's `reach` ([`Nearby::kernel_on_path`]).
    /// `None` when there are more than [`SOLUTIONS`] (more than it enumerates).
    fn solutions(
        &self,
        units: &[(u128, u128)],
        reach: &[(u32, u128); 8],
        firsts: &mut ArrayVec<u128, SOLUTIONS>,
    ) -> Option<()> {
        // Everything is linear in the assignment: the images of the unit assignments (the
        // solution part, its residue, and its mismatch with the assignment on the path), then
        // every assignment holding the token in Gray-code order.
        let mut images = [(0u128, 0u128, 0u32); 8];
        for &(i, j) in &self.edges[..self.steps] {
            let (i, j) = (i as usize, j as usize);
            // Setting the coordinate of `j` puts `e_i` into `D v`, and the other way round.
            images[i].0 ^= units[j].0;
            images[i].1 ^= units[j].1;
            images[j].0 ^= units[i].0;
            images[j].1 ^= units[i].1;
        }
        for (i, image) in images.iter_mut().enumerate().take(self.len) {
            image.2 = 1 << i ^ self.on_path(image.0);
        }
        gray_solutions(&images[..self.len], self.token, reach, firsts)
    }
}

/// The solvable assignments on a path of `images.len()` vertices (the token's, `token`, set):
/// for each, one kernel vector of the changed rows, from the images of the unit assignments
/// (solution part, residue, mismatch with the assignment on the path) and the kernel's `reach`;
/// every assignment holding the token in Gray-code order. `None` when there are more than
/// [`SOLUTIONS`].
fn gray_solutions(
    images: &[(u128, u128, u32)],
    token: usize,
    reach: &[(u32, u128); 8],
    firsts: &mut ArrayVec<u128, SOLUTIONS>,
) -> Option<()> {
    let (mut sum, mut residue, mut mismatch) = images[token];
    // The other coordinates by their rank: the token's index is skipped.
    let count = images.len() - 1;
    for step in 0u32..1 << count {
        if step > 0 {
            let b = step.trailing_zeros() as usize;
            let image = images[b + usize::from(b >= token)];
            sum ^= image.0;
            residue ^= image.1;
            mismatch ^= image.2;
        }
        if residue != 0 {
            continue;
        }
        if let Some(solution) = fix_on_path(reach, sum, mismatch) {
            firsts.try_push(solution).ok()?;
        }
    }
    Some(())
}

/// `x` with the kernel vectors of `reach` (one per lowest bit of their coordinates on a path)
/// added to cancel its mismatch `left` with the assignment on the path, or `None` when they
/// cannot.
fn fix_on_path(reach: &[(u32, u128); 8], mut x: u128, mut left: u32) -> Option<u128> {
    while left != 0 {
        let (key, vec) = reach[left.trailing_zeros() as usize];
        if key == 0 {
            return None;
        }
        left ^= key;
        x ^= vec;
    }
    Some(x)
}

/// The parity-set loss certificate ([`Reductions::PARITY_SET`]): `true` when some independent
/// set `T` of the token's component holds the token `s` and every vertex outside `T` has an
/// even number of remaining edges into `T`; then the mover loses.
///
/// Proof (the pairing argument behind the bipartite rule of Fraenkel, Scheinerman and Ullman,
/// which needs no bipartiteness): while the token is in `T`, the mover must leave `T` (no edge
/// inside `T`) to some `r`, whose number of edges into `T` becomes odd, so at least one;
/// the opponent moves back into `T` along one of them, and `r` is even again. Only edges between
/// `T` and the rest are ever used, so the invariant holds after every reply and the opponent
/// is never stuck; the game is finite, so the mover gets stuck.
///
/// The test is exact when the GF(2) kernel of the component's adjacency has at most 11
/// dimensions (`kernel_parity_loss`: the parity sets are exactly the independent kernel
/// vectors holding the token). Otherwise the set is looked for inside an independent set `I`:
/// the token's colour class of the
/// breadth-first layers of the component (even distance from the token), thinned greedily to
/// an independent set (a vertex is kept unless it is adjacent to the token or to a vertex kept
/// before; ascending order, then, if that fails and the class has odd edges, descending
/// order). Inside `I` the
/// condition is linear over GF(2): the row of `s` is a sum of rows of other vertices of `I`
/// (all rows of `I` vanish on `I`'s columns). On a bipartite component `I` is the whole side,
/// so this is exactly the losing half of the bipartite rule; with odd cycles it is a sufficient
/// condition only.
pub fn independent_set_loss(pos: &Geography) -> bool {
    parity_loss(&pos.rows, pos.token)
}

/// The parity-set test of [`independent_set_loss`] on adjacency `rows` with the token on `s`.
fn parity_loss(rows: &[u128; MAX_VERTICES], s: u8) -> bool {
    // Layered search: the component, and its even layers (the token's colour class).
    let mut seen = 1u128 << s;
    let mut frontier = seen;
    let mut left = seen;
    let mut even = true;
    while frontier != 0 {
        let mut next = 0u128;
        let mut f = frontier;
        while f != 0 {
            let v = f.trailing_zeros() as usize;
            f &= f - 1;
            next |= rows[v];
        }
        frontier = next & !seen;
        seen |= frontier;
        even = !even;
        if even {
            left |= frontier;
        }
    }
    if let Some(loss) = kernel_parity_loss(rows, s, seen) {
        return loss;
    }
    // Every neighbour of the token is outside the set and has the edge to the token into it,
    // so it needs another edge into the set: into the class, away from the token's neighbours.
    let target = rows[s as usize];
    if !every_row_meets(rows, target, left & !(target | 1u128 << s)) {
        return false;
    }
    let first = thin(rows, s, left, false);
    if certificate(rows, s, first) {
        return true;
    }
    // Odd edges inside the class: the other greedy orders keep other vertices.
    let other = thin(rows, s, left, true);
    other != first && certificate(rows, s, other)
}

/// Kernel dimensions up to which [`kernel_parity_loss`] enumerates the kernel.
const KERNEL_ENUMERATION_DIM: usize = 10;

/// The exact parity-set test on the token's `component`, when its GF(2) kernel is small.
///
/// A set `T` is a parity set (independent, holding the token `s`, every other vertex with an
/// even number of edges into `T`) exactly when its indicator vector `x` has `A x = 0` over
/// GF(2) (`A` the component's adjacency: vertices of `T` have no edge into `T`, the others an
/// even number), `x_s = 1`, and `T` is independent. Gaussian elimination of the rows, with the
/// combination of original rows each reduced row stands for, gives a basis of the kernel; the
/// vectors holding `s` are one of them plus the span of the others (cleared of `s`), which is
/// enumerated in Gray-code order for an independent one when it has at most
/// `KERNEL_ENUMERATION_DIM` dimensions (`None` above that).
fn kernel_parity_loss(rows: &[u128; MAX_VERTICES], s: u8, component: u128) -> Option<bool> {
    let mut elimination = Elimination::new();
    for v in Bitboard128(component) {
        elimination.add(v as usize, rows[v as usize]);
    }
    elimination.parity_set(rows, s)
}

/// Gaussian elimination over GF(2) of adjacency rows added one at a time, with the
/// combination of added rows each reduced row stands for; the added rows that reduce to zero
/// give a basis of the kernel of the rows added (sets of vertices whose rows sum to zero).
/// The elimination of a whole component also serves the positions a few moves away
/// ([`Nearby`]): it writes any unit vector as a sum of rows plus a residue.
#[derive(Clone)]
struct Elimination {
    /// Basis rows by pivot (each one's lowest bit, which no basis row added before it has),
    /// each with the set of added rows it is the sum of (side by side: a reduction step reads
    /// both).
    basis: [(u128, u128); MAX_VERTICES],
    pivots: u128,
    kernel: ArrayVec<u128, MAX_VERTICES>,
}

impl Elimination {
    fn new() -> Self {
        Elimination { basis: [(0, 0); MAX_VERTICES], pivots: 0, kernel: ArrayVec::new() }
    }

    /// Becomes a copy of `other` (without the temporary a `clone_from` makes).
    fn copy_from(&mut self, other: &Elimination) {
        self.basis = other.basis;
        self.pivots = other.pivots;
        self.kernel.clear();
        self.kernel.extend(other.kernel.iter().copied());
    }

    /// Empties it (the rows kept in the arrays are only read at pivots).
    fn clear(&mut self) {
        self.pivots = 0;
        self.kernel.clear();
    }

    /// `row` (standing for the added rows `combo`) reduced by the basis: the residue, with no
    /// pivot bit, and the added rows it stands for then.
    fn reduce(&self, mut row: u128, mut combo: u128) -> (u128, u128) {
        // Each basis row's lowest bit is its pivot, so reducing by the lowest pivot hit never
        // brings back a lower one; a row with its pivot in the high half has an empty low half.
        let (low_pivots, high_pivots) = (self.pivots as u64, (self.pivots >> 64) as u64);
        loop {
            let hit = row as u64 & low_pivots;
            if hit == 0 {
                break;
            }
            let (basis_row, basis_combo) = self.basis[hit.trailing_zeros() as usize];
            row ^= basis_row;
            combo ^= basis_combo;
        }
        loop {
            let hit = (row >> 64) as u64 & high_pivots;
            if hit == 0 {
                return (row, combo);
            }
            let (basis_row, basis_combo) = self.basis[64 + hit.trailing_zeros() as usize];
            row ^= basis_row;
            combo ^= basis_combo;
        }
    }

    /// Adds the row `row` of vertex `v`.
    fn add(&mut self, v: usize, row: u128) {
        let (row, combo) = self.reduce(row, 1u128 << v);
        if row == 0 {
            self.kernel.push(combo);
        } else {
            let p = row.trailing_zeros() as usize;
            self.basis[p] = (row, combo);
            self.pivots |= 1u128 << p;
        }
    }

    /// With every row of a component added (`rows`, the token on `s`): whether some
    /// independent kernel vector holds `s` (a parity set), enumerating the kernel vectors that
    /// hold `s` when there are at most `2^KERNEL_ENUMERATION_DIM` (`None` above that).
    fn parity_set(&self, rows: &[u128; MAX_VERTICES], s: u8) -> Option<bool> {
        let mut kernel = self.kernel.clone();
        let token = 1u128 << s;
        let Some(first) = kernel.iter().position(|k| k & token != 0) else {
            return Some(false); // no kernel vector holds the token
        };
        let base = kernel.swap_remove(first);
        for k in &mut kernel {
            if *k & token != 0 {
                *k ^= base;
            }
        }
        if kernel.len() > KERNEL_ENUMERATION_DIM {
            return None;
        }
        let independent = |x: u128| {
            let mut rest = x;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if rows[v] & x != 0 {
                    return false;
                }
            }
            true
        };
        Some(any_in_coset(base, &kernel, independent))
    }
}

/// Whether some vector of `start` plus the span of `span` passes `test` (Gray-code order).
fn any_in_coset(start: u128, span: &[u128], test: impl Fn(u128) -> bool) -> bool {
    let mut x = start;
    if test(x) {
        return true;
    }
    for i in 1u32..1 << span.len() {
        x ^= span[i.trailing_zeros() as usize];
        if test(x) {
            return true;
        }
    }
    false
}

/// Whether the row of every vertex of `ys` has a neighbour in `set`.
fn every_row_meets(rows: &[u128; MAX_VERTICES], mut ys: u128, set: u128) -> bool {
    while ys != 0 {
        let y = ys.trailing_zeros() as usize;
        ys &= ys - 1;
        if rows[y] & set == 0 {
            return false;
        }
    }
    true
}

/// The class `left` (holding the token `s`) thinned greedily to an independent set: a vertex
/// is kept unless it is adjacent to the token or to a vertex kept before it (in ascending or
/// `descending` vertex order). The token is not in the result.
fn thin(rows: &[u128; MAX_VERTICES], s: u8, left: u128, descending: bool) -> u128 {
    let mut kept = 0u128;
    let mut blocked = rows[s as usize] | 1u128 << s;
    let mut rest = left & !(1u128 << s);
    while rest != 0 {
        let v = if descending {
            let v = 127 - rest.leading_zeros() as usize;
            rest &= !(1u128 << v);
            v
        } else {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            v
        };
        if blocked >> v & 1 == 0 {
            kept |= 1u128 << v;
            blocked |= rows[v];
        }
    }
    kept
}

/// Whether the token's row is a GF(2) sum of rows of `candidates` (an independent set not
/// adjacent to the token `s`).
fn certificate(rows: &[u128; MAX_VERTICES], s: u8, mut candidates: u128) -> bool {
    let target = rows[s as usize];
    // Every column of the token's row needs a candidate.
    if !every_row_meets(rows, target, candidates) {
        return false;
    }
    // Peel: a candidate with a 1 in a column no other candidate has, where the token's row
    // has 0, is in no sum equal to the token's row; a column of the token's row that no
    // candidate has rules every sum out.
    loop {
        let (mut once, mut twice) = (0u128, 0u128);
        let mut c = candidates;
        while c != 0 {
            let v = c.trailing_zeros() as usize;
            c &= c - 1;
            twice |= once & rows[v];
            once |= rows[v];
        }
        if target & !once != 0 {
            return false;
        }
        let lonely = once & !twice & !target;
        let mut removed = 0u128;
        let mut c = candidates;
        while c != 0 {
            let v = c.trailing_zeros() as usize;
            c &= c - 1;
            if rows[v] & lonely != 0 {
                removed |= 1u128 << v;
            }
        }
        if removed == 0 {
            break;
        }
        candidates &= !removed;
    }
    row_outcome(s, Bitboard128(candidates | 1u128 << s), rows) == Outcome::Loss
}

/// Initial df-pn numbers `(phi, delta)` of an unfinished position from its mover's view
/// ([`Reductions::PN_HINT`]). With [`Reductions::PARITY_DEEP`]: `deep_numbers` of the fewest
/// open replies a move leaves the opponent (what expanding the position makes `phi`) and of the
/// open moves (`delta`, the children a disproof must refute). Otherwise the mover needs one
/// good move (`phi = 1`), and the opponent must refute every move that does not hand it an
/// immediate win (`delta` = the number of such safe moves, [`Geography::safe_replies`], at
/// least 1).
pub fn proof_numbers_hint(pos: &Geography) -> (u64, u64) {
    let numbers = pos.parity_numbers;
    if numbers.open > 0 {
        // The three-move parity rule counted the moves no parity-set reply answers, and the
        // fewest replies left open after a move.
        return deep_numbers(numbers);
    }
    let (safe, _) = pos.safe_replies(pos.token, 0, 0);
    let delta = u64::from(safe.max(1));
    if pos.reductions.contains(Reductions::PN_GUESS) {
        return match bipartite_guess(pos) {
            Outcome::Win => (1, GUESS_WEIGHT * delta),
            _ => (GUESS_WEIGHT, delta),
        };
    }
    (1, delta)
}

/// df-pn's initial numbers from the three-move counts of an undecided position: `phi =
/// FEWEST_WEIGHT * fewest` and `delta = round(4 * open^2.5)`, both at least 1.
///
/// A disproof refutes every open move, each a sub-tree of its own, so the cost grows faster
/// than the count: measured (one thread, `docs/geography.md`), `phi : delta` as `2 fewest :
/// open` (session 34) took 7.05M nodes on nine hard positions of 194-204 edges and 8.18M on
/// `s1:58`; `16 fewest : 4 open^2.5` 5.37M and 6.65M, and on twenty other positions of 194-200
/// edges (30 s each) solved 19 against 17, with 10 % fewer nodes on the 17 both solved. The
/// shape matters more than the scale: adding 1 to either number, or squaring `fewest`, cost
/// 18-29 %; `open^2` and `open^3` with other weights of `fewest` lay between.
pub(super) fn deep_numbers(numbers: ParityNumbers) -> (u64, u64) {
    let (fewest, open) = (u64::from(numbers.fewest.max(1)), u64::from(numbers.open.max(1)));
    // round(4 * open^2.5) = round(sqrt(16 * open^5)): `r` rounded up when x - r^2 > r. The open
    // moves are the token's moves, fewer than MAX_VERTICES, so 16 * open^5 < 2^40.
    let x = 16 * open.pow(5);
    let r = x.isqrt();
    let delta = if x - r * r > r { r + 1 } else { r };
    (fewest * FEWEST_WEIGHT, delta)
}

/// How much `deep_numbers` scales the fewest open replies (the proof number) against the
/// open moves' `4 * open^2.5` (the disproof number).
pub const FEWEST_WEIGHT: u64 = 16;

/// How much [`Reductions::PN_GUESS`] scales the numbers of the side the guess disfavours.
pub const GUESS_WEIGHT: u64 = 2;

/// The bipartite rule applied to the token's component with its odd edges left out: the
/// component is 2-coloured by breadth-first search from the token, edges between vertices of
/// the same colour are ignored, and the GF(2) rule decides the rest. Exact when the component
/// is bipartite; otherwise a guess (for [`Reductions::PN_GUESS`]).
pub fn bipartite_guess(pos: &Geography) -> Outcome {
    let mut rows = [0u128; super::MAX_VERTICES];
    let (left, right) = two_colour(pos, |_, _, _| true).unwrap_or_else(|| unreachable!());
    for v in left {
        rows[v as usize] = pos.rows[v as usize] & right.0;
    }
    row_outcome(pos.token, left, &rows)
}

/// Breadth-first 2-colouring of the token's component, the token on the left: the two sides.
/// `visit(v, neighbours, side)` sees each vertex once, with the vertices coloured so far on
/// its side; it returning `false` stops the colouring with `None`.
fn two_colour(
    pos: &Geography,
    mut visit: impl FnMut(u32, Vertices, Vertices) -> bool,
) -> Option<(Vertices, Vertices)> {
    let mut left = Vertices::from_cell(u32::from(pos.token));
    let mut right = Vertices::EMPTY;
    let mut seen = left;
    let mut frontier = left;
    while let Some(v) = frontier.pop_first() {
        let nb = pos.neighbours(v as u8);
        let on_left = left.contains(v);
        if !visit(v, nb, if on_left { left } else { right }) {
            return None;
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
    Some((left, right))
}

/// The bipartite rule: `Some(result)` if the token's component is bipartite, `None` otherwise.
///
/// With the component 2-coloured so that the token `s` is on side `L`, the mover wins iff the
/// GF(2) row of `s` (its remaining neighbours, a subset of `R`) is not a sum of other rows of `L`
/// (Fraenkel, Scheinerman and Ullman 1993; see the module docs).
pub fn bipartite_outcome(pos: &Geography) -> Option<Outcome> {
    let mut rows = [0u128; super::MAX_VERTICES];
    let (left, _) = two_colour(pos, |v, nb, side| {
        rows[v as usize] = nb.0;
        !nb.intersects(side) // else an odd cycle
    })?;
    Some(row_outcome(pos.token, left, &rows))
}

/// Whether the row of `s` lies outside the span of the other rows of `left`: `Win` if so.
fn row_outcome(s: u8, left: Vertices, rows: &[u128; super::MAX_VERTICES]) -> Outcome {
    if in_span(rows[s as usize], rows, left.0 & !(1u128 << s)) {
        Outcome::Loss
    } else {
        Outcome::Win
    }
}

/// Whether `target` is a GF(2) sum of rows of the vertices in `set`. Gaussian elimination in
/// insertion order: each new row is reduced by the basis so far (pivot: its lowest remaining
/// bit), so no basis row holds an earlier row's pivot; `target` is kept reduced the same way
/// and the answer is known as soon as it reaches zero.
fn in_span(target: u128, rows: &[u128; super::MAX_VERTICES], mut set: u128) -> bool {
    let mut t = target;
    if t == 0 {
        return true;
    }
    let mut basis: ArrayVec<(u128, u128), 128> = ArrayVec::new();
    while set != 0 {
        let v = set.trailing_zeros() as usize;
        set &= set - 1;
        let mut r = rows[v];
        for &(pivot, row) in &basis {
            r ^= row & u128::from(r & pivot != 0).wrapping_neg();
        }
        if r == 0 {
            continue;
        }
        let pivot = r & r.wrapping_neg();
        if t & pivot != 0 {
            t ^= r;
            if t == 0 {
                return true;
            }
        }
        basis.push((pivot, r));
    }
    false
}

/// A far side replaced by the bridge reduction: the subtree `vertices` entered at `entry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FarSide {
    /// The bridge's far endpoint (the only way in).
    pub entry: u8,
    /// The bridge's near endpoint.
    pub near: u8,
    /// The far side's vertices (the entry included).
    pub vertices: Vertices,
    /// Number of remaining edges with both ends in `vertices`.
    pub edges: u32,
}

/// Every bridge `{near, entry}` of the token's component whose far side (the side without the
/// token) has between 2 and `limit` edges, keeping only the outermost ones (a far side inside
/// another listed one is left out), found by one depth-first search from the token (Tarjan's
/// low-link rule: the tree edge `p -> c` is a bridge iff no back edge from `c`'s subtree reaches
/// `p` or above; Tarjan, "A note on finding the bridges of a graph", IPL 2 (1974) 160-161).
pub fn small_far_sides(pos: &Geography, limit: u32) -> ArrayVec<FarSide, 64> {
    // Discovery times are 1-based; `order[i]` is the vertex discovered at time `i + 1` and
    // `prefix[i]` the degree sum of the first `i` discovered vertices, so a subtree (a run of
    // consecutive discovery times) has its degree sum by one subtraction.
    let mut disc = [0u8; MAX_VERTICES];
    let mut low = [0u8; MAX_VERTICES];
    let mut order = [0u8; MAX_VERTICES];
    let mut prefix = [0u32; MAX_VERTICES + 1];
    let mut stack: ArrayVec<(u8, u128), MAX_VERTICES> = ArrayVec::new();
    let mut found: ArrayVec<FarSide, 64> = ArrayVec::new();
    let root = pos.token;
    let mut time = 1usize;
    disc[root as usize] = 1;
    low[root as usize] = 1;
    order[0] = root;
    prefix[1] = pos.degree(root);
    stack.push((root, pos.rows[root as usize]));
    while let Some(top) = stack.last_mut() {
        let v = top.0;
        if top.1 != 0 {
            let w = top.1.trailing_zeros() as u8;
            top.1 &= top.1 - 1;
            let dw = disc[w as usize];
            if dw == 0 {
                time += 1;
                disc[w as usize] = time as u8;
                low[w as usize] = time as u8;
                order[time - 1] = w;
                prefix[time] = prefix[time - 1] + pos.degree(w);
                // The tree edge back to the parent is not a back edge (simple graph: one edge).
                stack.push((w, pos.rows[w as usize] & !(1u128 << v)));
            } else if dw < low[v as usize] {
                low[v as usize] = dw;
            }
            continue;
        }
        stack.pop();
        let Some(&(p, _)) = stack.last() else { break };
        let (lv, dv, dp) = (low[v as usize], disc[v as usize] as usize, disc[p as usize]);
        if lv < low[p as usize] {
            low[p as usize] = lv;
        }
        if lv > dp {
            // A bridge: the far side is the subtree of `v`, discovery times `dv..=time`.
            // Inner edges count twice in its degree sum, the bridge once.
            let edges = (prefix[time] - prefix[dv - 1] - 1) / 2;
            if (2..=limit).contains(&edges) && !found.is_full() {
                let mut vertices = 0u128;
                for &u in &order[dv - 1..time] {
                    vertices |= 1u128 << u;
                }
                found.push(FarSide { entry: v, near: p, vertices: Bitboard128(vertices), edges });
            }
        }
    }
    // Post-order lists inner far sides before the ones holding them: keep the outermost.
    let mut covered = 0u128;
    let mut outer: ArrayVec<FarSide, 64> = ArrayVec::new();
    for side in found.into_iter().rev() {
        if covered >> side.entry & 1 == 0 {
            covered |= side.vertices.0;
            outer.push(side);
        }
    }
    outer
}

/// The bridge reduction looks for bridges only in token components of at most this many edges
/// (the default of [`BridgeContext::scan_edge_limit`]). A tuning limit, not a condition of
/// exactness: the search for bridges costs about 1.7 us on a 100-vertex contest component
/// (several times a plain node), and the contest positions at the edge of the solver's reach
/// (150 to 200 component edges) rarely have a small far side (`examples/geography_reach.rs`
/// measures both settings).
pub const BRIDGE_SCAN_EDGE_LIMIT: u32 = 64;

/// What the bridge reduction of a position owns: its sub-game cache and its bridge scan limit.
/// Positions with [`Reductions::BRIDGES`] hold one behind an `Arc` and pass it on to the
/// positions played from them, so a game (and every thread searching it) shares one cache and
/// nothing is process-global: [`Game::outcome`](crate::Game::outcome) and
/// [`Game::hash`](crate::Game::hash) depend only on the position and its own context.
#[derive(Debug)]
pub struct BridgeContext {
    cache: SubgameCache,
    scan_edge_limit: u32,
}

impl BridgeContext {
    /// A context with an empty cache that scans for bridges in token components of at most
    /// `scan_edge_limit` edges ([`BRIDGE_SCAN_EDGE_LIMIT`] is the usual value; `u32::MAX`: scan
    /// every component). Any limit is exact; it only trades the cost of the scan against what
    /// it finds.
    pub fn new(scan_edge_limit: u32) -> Self {
        BridgeContext { cache: SubgameCache::new(), scan_edge_limit }
    }

    /// The bridge scan limit.
    pub fn scan_edge_limit(&self) -> u32 {
        self.scan_edge_limit
    }

    /// The sub-game cache.
    pub fn cache(&self) -> &SubgameCache {
        &self.cache
    }
}

impl Default for BridgeContext {
    /// [`BridgeContext::new`] with [`BRIDGE_SCAN_EDGE_LIMIT`].
    fn default() -> Self {
        BridgeContext::new(BRIDGE_SCAN_EDGE_LIMIT)
    }
}

/// Zobrist key of a forced chain object with ends `a` and `b` and length parity `odd` (a key
/// family of its own, combined by wrapping addition so that parallel chains do not cancel).
#[inline]
pub fn chain_key(a: u8, b: u8, odd: bool) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    splitmix64(0xC4A1_2000_0000 ^ (u64::from(lo) << 9 | u64::from(hi) << 1 | u64::from(odd))).1
}

/// The hash of the token's component after the bridge and chain reductions the position
/// applies ([`Reductions::BRIDGES`], [`Reductions::CHAINS`]); equal hashes mean equal values (up
/// to 64-bit collisions). Without either flag: [`Geography::component_hash`].
///
/// * **Bridges.** Each outermost far side of 2 to [`SUBGAME_EDGE_LIMIT`] edges
///   ([`small_far_sides`]) is solved ([`SubgameCache::solve`], cached in the position's
///   [`BridgeContext`], whose scan limit applies) and replaced by a gadget of
///   the same value: no edge when the mover at its entry loses (the entry becomes a leaf), the
///   edge from the entry to its lowest far neighbour when that mover wins. This is exact: the
///   token can reach the far side only across the bridge and never come back, and nothing
///   touches the far side's edges before, so crossing leads to the sub-game "mover at the entry,
///   far-side edges only", whose value is all that matters. A far side over the node budget is
///   left as it is.
/// * **Chains.** On the (reduced) component, a maximal path `u - c1 - ... - c(L-1) - w` (`L >= 2`)
///   whose interior vertices have degree 2 and do not hold the token is hashed as the object
///   `(u, w, L mod 2)` instead of its edges. Exact: the interior vertices have no other edges, so
///   the chain can only be entered at an end, after which the `L` moves to the other end are
///   forced and delete exactly the chain; the position then reached is the same whatever the
///   chain's interior, and the side to move there depends only on `L mod 2`. By induction on
///   the number of edges (every other move keeps the chain as it is), two positions that
///   differ only in such chains with the same ends and parities have the same value.
pub fn canonical_hash(pos: &Geography) -> u64 {
    let mut hash = pos.component_hash();
    let bridges = pos.bridge_context();
    let chains = pos.reductions.contains(Reductions::CHAINS);
    if bridges.is_none() && !chains {
        return hash;
    }
    let (sides, cache) = match bridges {
        Some(c) if pos.component_edge_count() <= c.scan_edge_limit => {
            (small_far_sides(pos, SUBGAME_EDGE_LIMIT), Some(&c.cache))
        }
        _ => (ArrayVec::new(), None),
    };
    // The adjacency after the bridge gadgets (copied only when a far side is replaced).
    let mut reduced: Option<Box<[u128; MAX_VERTICES]>> = None;
    for side in sides {
        let inside = side.vertices.0;
        let mut far = [0u128; MAX_VERTICES];
        let mut far_edges = 0u64;
        for v in side.vertices {
            far[v as usize] = pos.rows[v as usize] & inside;
            for w in Bitboard128(far[v as usize] & !((2u128 << v) - 1)) {
                far_edges ^= edge_key(v as u8, w as u8);
            }
        }
        let key = far_edges ^ token_key(side.entry);
        let Some(win) = cache.and_then(|c| c.solve(&mut far, side.entry, key)) else { continue };
        hash ^= far_edges;
        let rows = reduced.get_or_insert_with(|| Box::new(pos.rows));
        for v in side.vertices {
            rows[v as usize] &= !inside;
        }
        if win {
            let y = (pos.rows[side.entry as usize] & inside).trailing_zeros() as u8;
            hash ^= edge_key(side.entry, y);
            rows[side.entry as usize] |= 1u128 << y;
            rows[y as usize] = 1u128 << side.entry;
        }
    }
    if chains {
        let sum = match reduced.as_deref() {
            Some(rows) => {
                let mut interior = 0u128;
                for v in pos.component {
                    if rows[v as usize].count_ones() == 2 {
                        interior |= 1u128 << v;
                    }
                }
                chain_objects(pos, rows, interior, &mut hash)
            }
            None => chain_objects(pos, &pos.rows, pos.two & pos.component.0, &mut hash),
        };
        hash = hash.wrapping_add(sum);
    }
    hash
}

/// Finds the maximal forced chains of the token's component in `rows`, removes their edges'
/// keys from `hash` and returns the wrapping sum of their [`chain_key`]s.
/// `degree_two` holds the component's vertices of degree 2 in `rows`.
fn chain_objects(
    pos: &Geography,
    rows: &[u128; MAX_VERTICES],
    degree_two: u128,
    hash: &mut u64,
) -> u64 {
    let mut interior = degree_two & !(1u128 << pos.token);
    let mut sum = 0u64;
    while interior != 0 {
        // Walk both ways from an interior vertex to the chain's ends.
        let v = interior.trailing_zeros() as u8;
        interior &= !(1u128 << v);
        let row = rows[v as usize];
        let mut keys = 0u64;
        let mut len = 0u32;
        let mut ends = [v; 2];
        for (end, first) in ends.iter_mut().zip([row.trailing_zeros(), row.ilog2()]) {
            let (mut prev, mut cur) = (v, first as u8);
            loop {
                keys ^= edge_key(prev, cur);
                len += 1;
                if interior >> cur & 1 == 0 {
                    break;
                }
                interior &= !(1u128 << cur);
                let next = (rows[cur as usize] & !(1u128 << prev)).trailing_zeros() as u8;
                prev = cur;
                cur = next;
            }
            *end = cur;
        }
        *hash ^= keys;
        sum = sum.wrapping_add(chain_key(ends[0], ends[1], len % 2 == 1));
    }
    sum
}
