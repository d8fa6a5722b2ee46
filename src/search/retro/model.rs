//! [`LayerModel`]: what the layered engine needs from a game (Ataxx's is
//! [`super::ataxx::AtaxxModel`], GIPF's [`super::gipf::GipfModel`]).
//!
//! Layers are numbered so that every move leads into the same layer or into a later one, at
//! most [`LayerModel::reach`] layers ahead (Ataxx: the next one, `layer + 1`; GIPF: any later
//! one, since a capture can take several pieces); the engine solves them from the last down
//! to 0. Positions are identified by their rank inside their layer
//! ([`crate::unmove::LayeredIndex`]).
//!
//! Inside a layer the engine walks backwards with un-moves
//! ([`LayerModel::for_each_layer_parent`]). A game whose un-moves find only some parents
//! (GIPF: un-pushes, but not the moves that remove rows) names the other in-layer moves
//! *hidden* ([`LayerModel::expand`]); the engine keeps those edges reversed in a list (8 bytes
//! per hidden edge) and treats them as un-moves.

use crate::game::Outcome;

/// How the propagation inside a layer finds the cells of each distance
/// ([`LayerModel::propagation`]). Both give the same cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    /// Lists of ranks per distance: 4 bytes per entry (every cell decided or waiting after the
    /// scan has one, plus slack), and only the cells of a distance are read.
    Buckets,
    /// One sweep of the layer's cells per distance at which something happens: no memory
    /// beyond the cells and counters, but every cell is read once per such distance (on the
    /// Ataxx boards of `benches/retro.rs` 11-24% slower than buckets).
    Sweeps,
}

/// A game seen by the layered engine: forward moves across layers, un-moves inside a layer.
pub trait LayerModel: Sync {
    /// A cheap handle on one position.
    type Pos: Copy + Send;

    /// Number of layers.
    fn layers(&self) -> usize;

    /// Number of positions of `layer`.
    fn layer_size(&self, layer: usize) -> u64;

    /// Calls `f(index, pos)` for the positions of `layer` of rank `start..end`, in order.
    fn scan(&self, layer: usize, start: u64, end: u64, f: impl FnMut(u64, Self::Pos));

    /// The position of rank `index` in `layer`.
    fn position(&self, layer: usize, index: u64) -> Self::Pos;

    /// The result of a finished position (side to move's view), `None` while in play.
    fn outcome(&self, pos: Self::Pos) -> Option<Outcome>;

    /// Calls `f(rank)` for each move of an unfinished position into the next layer.
    fn for_each_next_child(&self, pos: Self::Pos, f: impl FnMut(u64));

    /// Calls `f(rank)` for each move of an unfinished position that stays in its layer.
    fn for_each_layer_child(&self, pos: Self::Pos, f: impl FnMut(u64));

    /// Number of moves of an unfinished position that stay in its layer.
    fn layer_children(&self, pos: Self::Pos) -> u32;

    /// Calls `f(rank)` for each parent of `pos` in its own layer, once per move leading here,
    /// except the parents whose move to `pos` is hidden ([`LayerModel::expand`]).
    fn for_each_layer_parent(&self, pos: Self::Pos, f: impl FnMut(u64));

    /// Whether the engine should unrank only the positions it keeps ([`LayerModel::position`])
    /// instead of scanning every rank of a layer ([`LayerModel::scan`]) when it solves a subset
    /// (for indexes whose subset of interest is sparse). Default: scan.
    fn sparse(&self) -> bool {
        false
    }

    /// How the engine finds the cells of each distance while it propagates inside a layer.
    /// Default: buckets (faster when a layer holds many distances); models whose layers
    /// are too large for 4 bytes per bucket entry pick sweeps.
    fn propagation(&self) -> Propagation {
        Propagation::Buckets
    }

    /// How many layers ahead a move can lead (1: only into the next layer).
    fn reach(&self) -> usize {
        1
    }

    /// Calls `f(jump, rank)` for each move of an unfinished position into a later layer
    /// (`layer + jump`, `1 <= jump <= reach()`). By default the moves into the next layer.
    fn for_each_later_child(&self, pos: Self::Pos, mut f: impl FnMut(usize, u64)) {
        self.for_each_next_child(pos, |r| f(1, r));
    }

    /// All an unfinished position's moves in one call, as the engine's scan needs them: calls
    /// `later(jump, rank)` for the moves into later layers and `hidden(rank)` for the moves
    /// inside the layer whose parent [`LayerModel::for_each_layer_parent`] does not find, and
    /// returns the number of moves inside the layer (hidden ones included), each distinct
    /// child once. By default: no hidden move, [`LayerModel::for_each_later_child`] and
    /// [`LayerModel::layer_children`].
    fn expand(
        &self,
        pos: Self::Pos,
        later: impl FnMut(usize, u64),
        hidden: impl FnMut(u64),
    ) -> u32 {
        let _ = hidden;
        self.for_each_later_child(pos, later);
        self.layer_children(pos)
    }
}
