//! A bijective index of GIPF positions for the layered retrograde engine
//! ([`crate::search::retro::gipf`]), and the move and un-move helpers it needs.
//!
//! # Layers
//!
//! A side's pieces (board plus reserve) never grow: a push moves a piece from the reserve to
//! the board, and a removal sends the run colour's pieces back to its reserve and captures the
//! others. So the pair of totals `(tw, tb)` only goes down, and only by captures. The index of
//! a root with totals `(TW, TB)` has one layer per pair `tw <= TW`, `tb <= TB`, ordered by the
//! pieces captured so far, `(TW - tw) + (TB - tb)`, then by `tw` descending: every move stays
//! in its layer (no capture) or goes to a later one (layer 0 is the root's).
//!
//! # Ranks inside a layer
//!
//! A layer `(tw, tb)` is cut into blocks by the side to move (White first), the number `w` of
//! white pieces on the board (`0..=min(tw, n)`) and the number `b` of black ones
//! (`0..=min(tb, n - w)`), `n` the number of cells; the reserves are `tw - w` and `tb - b`. A
//! block holds `C(n, w) C(n - w, b)` positions: the colex rank of the white cells among the
//! `n` cells, times `C(n - w, b)`, plus the colex rank of the black cells among the `n - w`
//! cells left. Every placement is indexed, legal or not (a board with a row of `K` cannot
//! arise in play): the engine solves only the positions reachable from the root.
//!
//! # Moves and un-moves
//!
//! [`Gipf::for_each_child_state`] lists the distinct results of a position's moves, each
//! flagged *plain* when some push yields it without removing a row. Plain moves are undone
//! by [`Gipf::for_each_plain_parent`] (an un-push: the entry cell holds a piece of the side
//! that just moved, the line is shifted back by one up to a cell that becomes empty). Moves
//! that remove rows without capturing stay in the layer but are not undone here (the removed
//! runs could be anywhere); the engine keeps those edges explicitly.

use arrayvec::ArrayVec;

use super::{Gipf, MAX_MOVES, State};
use crate::bitboard::{Bitboard128, BytePext};
use crate::game::{ByPlayer, Game, Player};
use crate::unmove::LayeredIndex;

/// Largest number of cells the index takes (board masks are `u64`): `S <= 5`.
pub const MAX_CELLS: usize = 64;

/// One block of a layer: the positions with a given side to move and board counts.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    side: u8,
    w: u8,
    b: u8,
    /// `C(n - w, b)`: ranks of the black cells per white placement.
    inner: u64,
}

/// A position as the index sees it: board masks over the cells `0..n`, side to move and layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexedPos {
    /// White pieces on the board.
    pub white: u64,
    /// Black pieces on the board.
    pub black: u64,
    /// The side to move: 0 White, 1 Black.
    pub side: u8,
    /// The layer (pair of totals).
    pub layer: u32,
}

/// The layered index of every GIPF position reachable in principle from a root: same board
/// and `K`, totals at most the root's.
#[derive(Clone, Debug)]
pub struct GipfIndex {
    n: u32,
    totals: (u32, u32),
    /// `(tw, tb)` of each layer.
    layers: Vec<(u32, u32)>,
    /// The layer of `(tw, tb)`, at `tw * (TB + 1) + tb`.
    layer_of: Vec<u32>,
    /// Blocks of each layer, by start.
    blocks: Vec<Vec<Block>>,
    /// Start of each block, at `((side * (TW + 1) + w) * (TB + 1) + b)`, per layer
    /// (`u64::MAX`: no such block).
    starts: Vec<Vec<u64>>,
    sizes: Vec<u64>,
    binom: Vec<[u64; MAX_CELLS + 1]>,
    /// Bytes of the cell masks (`ceil(n / 8)`), for [`BytePext`].
    bytes: u32,
    /// `pext`/`pdep` tables.
    bits: &'static BytePext,
}

/// `C(a, k)` for `a, k <= 64` (fits `u64`: at most `C(64, 32) < 2^61`).
fn binomials() -> Vec<[u64; MAX_CELLS + 1]> {
    let mut t = vec![[0u64; MAX_CELLS + 1]; MAX_CELLS + 1];
    for a in 0..=MAX_CELLS {
        t[a][0] = 1;
        for k in 1..=a {
            t[a][k] = t[a - 1][k - 1] + if k < a { t[a - 1][k] } else { 0 };
        }
    }
    t
}

impl GipfIndex {
    /// The index of `n` cells with totals at most `(tw, tb)`, or `None` past [`MAX_CELLS`]
    /// cells or if a layer has `2^63` positions or more.
    pub fn new(n: usize, (tw, tb): (u32, u32)) -> Option<GipfIndex> {
        if n > MAX_CELLS {
            return None;
        }
        let binom = binomials();
        let n32 = n as u32;
        let mut pairs: Vec<(u32, u32)> =
            (0..=tw).flat_map(|w| (0..=tb).map(move |b| (w, b))).collect();
        pairs.sort_by_key(|&(w, b)| ((tw - w) + (tb - b), std::cmp::Reverse(w)));
        let mut layer_of = vec![0u32; ((tw + 1) * (tb + 1)) as usize];
        let (mut blocks, mut starts, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
        for (l, &(lw, lb)) in pairs.iter().enumerate() {
            layer_of[(lw * (tb + 1) + lb) as usize] = l as u32;
            let mut list = Vec::new();
            let mut st = vec![u64::MAX; (2 * (tw + 1) * (tb + 1)) as usize];
            let mut at = 0u64;
            for side in 0..2u8 {
                for w in 0..=lw.min(n32) {
                    for b in 0..=lb.min(n32 - w) {
                        let inner = binom[n - w as usize][b as usize];
                        let size = binom[n][w as usize].checked_mul(inner)?;
                        st[((u32::from(side) * (tw + 1) + w) * (tb + 1) + b) as usize] = at;
                        list.push(Block { start: at, side, w: w as u8, b: b as u8, inner });
                        at = at.checked_add(size).filter(|&a| a < 1 << 63)?;
                    }
                }
            }
            blocks.push(list);
            starts.push(st);
            sizes.push(at);
        }
        Some(GipfIndex {
            n: n32,
            totals: (tw, tb),
            layers: pairs,
            layer_of,
            blocks,
            starts,
            sizes,
            binom,
            bytes: n32.div_ceil(8),
            bits: BytePext::get(),
        })
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.n
    }

    /// The totals of layer 0 (the root's).
    pub fn totals(&self) -> (u32, u32) {
        self.totals
    }

    /// Number of layers.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// Positions of `layer`.
    pub fn size_of(&self, layer: usize) -> u64 {
        self.sizes[layer]
    }

    /// Positions of every layer.
    pub fn total_size(&self) -> u64 {
        self.sizes.iter().sum()
    }

    /// The totals `(tw, tb)` of `layer`.
    pub fn layer_totals(&self, layer: usize) -> (u32, u32) {
        self.layers[layer]
    }

    /// The layer of totals `(tw, tb)`, if in the index.
    pub fn layer_of(&self, tw: u32, tb: u32) -> Option<usize> {
        let (w0, b0) = self.totals;
        (tw <= w0 && tb <= b0).then(|| self.layer_of[(tw * (b0 + 1) + tb) as usize] as usize)
    }

    /// Colex rank of `set` (its `i`-th smallest element `c` adds `C(c, i + 1)`).
    #[inline]
    fn colex(&self, mut set: u64) -> u64 {
        let mut r = 0;
        let mut i = 1;
        while set != 0 {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            r += self.binom[c][i];
            i += 1;
        }
        r
    }

    /// The mask of the `n` cells.
    #[inline]
    fn cell_mask(&self) -> u64 {
        if self.n == 64 { u64::MAX } else { (1u64 << self.n) - 1 }
    }

    /// The set of `k` elements below `n` of colex rank `r`.
    #[inline]
    fn colex_unrank(&self, k: u32, mut r: u64, n: u32) -> u64 {
        let mut set = 0u64;
        let mut c = n as usize;
        for i in (1..=k as usize).rev() {
            c -= 1;
            while self.binom[c][i] > r {
                c -= 1;
            }
            r -= self.binom[c][i];
            set |= 1 << c;
        }
        set
    }

    /// The rank of `pos` in its layer. The masks must be disjoint, inside the `n` cells, and
    /// their counts within the layer's totals.
    #[inline]
    pub fn rank(&self, pos: &IndexedPos) -> u64 {
        let (w0, b0) = self.totals;
        let (w, b) = (pos.white.count_ones(), pos.black.count_ones());
        let start = self.starts[pos.layer as usize]
            [((u32::from(pos.side) * (w0 + 1) + w) * (b0 + 1) + b) as usize];
        // The black set packed over the cells without white.
        let compressed = self.bits.pext(pos.black, !pos.white & self.cell_mask(), self.bytes);
        start
            + self.colex(pos.white) * self.binom[(self.n - w) as usize][b as usize]
            + self.colex(compressed)
    }

    /// The position of rank `index` in `layer` (`index < size_of(layer)`).
    pub fn unrank(&self, layer: usize, index: u64) -> IndexedPos {
        let blocks = &self.blocks[layer];
        let at = blocks.partition_point(|bl| bl.start <= index) - 1;
        let bl = blocks[at];
        let inner = index - bl.start;
        let white = self.colex_unrank(u32::from(bl.w), inner / bl.inner, self.n);
        let compressed =
            self.colex_unrank(u32::from(bl.b), inner % bl.inner, self.n - u32::from(bl.w));
        // Spread the compressed black set over the cells without white.
        let black = self.bits.pdep(compressed, !white & self.cell_mask(), self.bytes);
        IndexedPos { white, black, side: bl.side, layer: layer as u32 }
    }

    /// The board and reserves of `pos`.
    #[inline]
    pub fn state(&self, pos: &IndexedPos) -> State {
        let (tw, tb) = self.layers[pos.layer as usize];
        State {
            board: ByPlayer {
                first: Bitboard128(u128::from(pos.white)),
                second: Bitboard128(u128::from(pos.black)),
            },
            reserve: ByPlayer {
                first: tw - pos.white.count_ones(),
                second: tb - pos.black.count_ones(),
            },
        }
    }

    /// The indexed form of `st` with `to_move` to move, if its totals are in the index.
    #[inline]
    pub fn pos_of(&self, st: &State, to_move: Player) -> Option<IndexedPos> {
        let (w, b) = (st.board.first.0, st.board.second.0);
        if (w | b) >> self.n != 0 {
            return None;
        }
        let tw = st.board.first.count() + st.reserve.first;
        let tb = st.board.second.count() + st.reserve.second;
        let layer = self.layer_of(tw, tb)? as u32;
        Some(IndexedPos { white: w as u64, black: b as u64, side: to_move.index() as u8, layer })
    }
}

/// A [`GipfIndex`] with the parameters of a root, as a [`LayeredIndex`] over [`Gipf`]
/// positions.
#[derive(Clone, Debug)]
pub struct GipfLayers {
    /// The index.
    pub index: GipfIndex,
    /// A position with the root's parameters (board, `K`, `GW`, `GB`).
    pub template: Gipf,
}

impl GipfLayers {
    /// The index of the positions below `root` (same parameters, totals at most its), or
    /// `None` for boards past [`MAX_CELLS`] cells.
    pub fn new(root: &Gipf) -> Option<GipfLayers> {
        let st = root.state();
        let totals = (
            st.board.first.count() + st.reserve.first,
            st.board.second.count() + st.reserve.second,
        );
        let index = GipfIndex::new(root.geometry().cell_count, totals)?;
        Some(GipfLayers { index, template: root.clone() })
    }

    /// The GIPF position of `pos`.
    pub fn gipf(&self, pos: &IndexedPos) -> Gipf {
        let to_move = if pos.side == 0 { Player::First } else { Player::Second };
        self.template.with_state(self.index.state(pos), to_move)
    }
}

impl LayeredIndex for GipfLayers {
    type Position = Gipf;

    fn layers(&self) -> usize {
        self.index.layer_count()
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.index.size_of(layer)
    }

    fn rank(&self, pos: &Gipf) -> Option<(usize, u64)> {
        if pos.geo.side != self.template.geo.side
            || pos.k != self.template.k
            || pos.pieces != self.template.pieces
        {
            return None;
        }
        let p = self.index.pos_of(&pos.state, pos.to_move)?;
        Some((p.layer as usize, self.index.rank(&p)))
    }

    fn unrank(&self, layer: usize, index: u64) -> Gipf {
        self.gipf(&self.index.unrank(layer, index))
    }

    fn solve_order(&self) -> Vec<usize> {
        (0..self.index.layer_count()).rev().collect()
    }
}

impl Gipf {
    /// This position's parameters (board, `K`, `GW`, `GB`) with board and reserves `st` and
    /// `to_move` to move (no check of the board: rows of `K` are allowed).
    #[must_use]
    pub fn with_state(&self, st: State, to_move: Player) -> Gipf {
        let mut pos = Gipf { state: st, to_move, hash: 0, ..self.clone() };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The same as [`Gipf::with_state`] without the hash (left 0): for the retrograde
    /// engine, which never hashes.
    #[must_use]
    pub(crate) fn with_state_unhashed(&self, st: State, to_move: Player) -> Gipf {
        Gipf { state: st, to_move, hash: 0, ..self.clone() }
    }

    /// Calls `f(state, plain)` once per distinct result of this position's moves (nothing if
    /// the game is over), `plain` when some push gives it without removing a row. The same
    /// states as [`Gipf::generate_moves`] with [`Game::play`].
    pub fn for_each_child_state(&self, mut f: impl FnMut(State, bool)) {
        if self.outcome().is_some() {
            return;
        }
        let mut seen: ArrayVec<(State, bool), MAX_MOVES> = ArrayVec::new();
        let mut add = |st: State, plain: bool| {
            if let Some(e) = seen.iter_mut().find(|(s, _)| *s == st) {
                e.1 |= plain;
            } else {
                seen.push((st, plain));
            }
        };
        let occupied = self.state.occupied().0;
        let mut empty_entries_done = 0u128;
        let mut results = Vec::new();
        for push in 0..self.geo.pushes.len() {
            let entry = 1u128 << self.geo.pushes[push].cells[0];
            if entry & occupied == 0 {
                if empty_entries_done & entry != 0 {
                    continue;
                }
                empty_entries_done |= entry;
            }
            let Some((st, _)) = self.push_raw(push) else { continue };
            if !self.push_makes_run(&st) {
                add(st, true);
                continue;
            }
            results.clear();
            self.resolutions_after_push(st, &mut results);
            for &st in &results {
                add(st, false);
            }
        }
        // By reference: moving the array out would copy all of its capacity.
        for &(st, plain) in &seen {
            f(st, plain);
        }
    }

    /// Calls `f(parent)` once per distinct position (with the other side to move) that has a
    /// plain move to this one: a push that removes no row ([`Gipf::for_each_child_state`]).
    /// The board of `self` need not be legal.
    pub fn for_each_plain_parent(&self, mut f: impl FnMut(Gipf)) {
        let mover = !self.to_move;
        let mine = self.state.board[mover].0;
        let occupied = self.state.occupied().0;
        let mut found: ArrayVec<State, MAX_MOVES> = ArrayVec::new();
        for p in &self.geo.pushes {
            let cells = &p.cells;
            if mine >> cells[0] & 1 == 0 {
                continue;
            }
            // Parent board: cells[i - 1] takes what cells[i] holds (i = 1..=j), cells[j]
            // empties; cells[0..=j] must all be occupied here.
            for j in 0..cells.len() {
                if occupied >> cells[j] & 1 == 0 {
                    break;
                }
                let mut st = self.state;
                for i in 1..=j {
                    let (to, from) = (u32::from(cells[i - 1]), u32::from(cells[i]));
                    for c in Player::ALL {
                        let bb = st.board[c];
                        st.board[c] = if bb.contains(from) { bb.with(to) } else { bb.without(to) };
                    }
                }
                let last = u32::from(cells[j]);
                st.board.first = st.board.first.without(last);
                st.board.second = st.board.second.without(last);
                st.reserve[mover] += 1;
                if found.contains(&st) {
                    continue;
                }
                let parent = self.with_state_unhashed(st, mover);
                if parent.push_makes_run(&self.state) {
                    continue;
                }
                found.push(st);
                f(parent);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zobrist::KeyStream;

    #[test]
    fn layers_are_ordered_by_captures() {
        let idx = GipfIndex::new(19, (5, 4)).unwrap();
        assert_eq!(idx.layer_totals(0), (5, 4));
        let mut last = 0;
        for l in 0..idx.layer_count() {
            let (w, b) = idx.layer_totals(l);
            assert_eq!(idx.layer_of(w, b), Some(l));
            let d = (5 - w) + (4 - b);
            assert!(d >= last);
            last = d;
        }
    }

    /// Every rank of small boards unranks to a position that ranks back to it, and all
    /// positions are distinct (the whole space of a tiny index).
    #[test]
    fn whole_space_round_trips() {
        for (n, totals) in [(7, (3, 3)), (7, (4, 2)), (5, (5, 5)), (1, (1, 1))] {
            let idx = GipfIndex::new(n, totals).unwrap();
            let mut all = std::collections::HashSet::new();
            for l in 0..idx.layer_count() {
                let (tw, tb) = idx.layer_totals(l);
                for r in 0..idx.size_of(l) {
                    let p = idx.unrank(l, r);
                    assert_eq!(p.white & p.black, 0);
                    assert!((p.white | p.black) >> n == 0);
                    assert!(p.white.count_ones() <= tw && p.black.count_ones() <= tb);
                    assert_eq!(idx.rank(&p), r);
                    let st = idx.state(&p);
                    let to_move = if p.side == 0 { Player::First } else { Player::Second };
                    assert_eq!(idx.pos_of(&st, to_move), Some(p));
                    assert!(all.insert(p));
                }
            }
            // Count: every placement within the totals, either side.
            let mut want = 0u64;
            let b = binomials();
            for tw in 0..=totals.0 {
                for tb in 0..=totals.1 {
                    for w in 0..=tw.min(n as u32) {
                        for bl in 0..=tb.min(n as u32 - w) {
                            want += 2 * b[n][w as usize] * b[n - w as usize][bl as usize];
                        }
                    }
                }
            }
            assert_eq!(all.len() as u64, want);
            assert_eq!(idx.total_size(), want);
        }
    }

    #[test]
    fn random_positions_round_trip() {
        let mut rng = KeyStream::new(0x1DE7);
        // S = 5 with 12 + 12 pieces has layers past 2^63 positions: refused.
        assert!(GipfIndex::new(61, (12, 12)).is_none());
        for (n, t) in [(19usize, 12), (37, 12), (61, 6)] {
            let idx = GipfIndex::new(n, (t, t)).unwrap();
            for _ in 0..20_000 {
                let l = (rng.next_key() % idx.layer_count() as u64) as usize;
                let r = rng.next_key() % idx.size_of(l);
                let p = idx.unrank(l, r);
                assert_eq!(idx.rank(&p), r);
            }
        }
    }
}
