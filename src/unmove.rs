//! Traits for indexed retrograde analysis ([`crate::search::retro`]): a layered index of a
//! game's positions and un-move generation.
//!
//! They live outside [`crate::search`] so that the games can implement them (the game modules
//! never import `search`). A game that wants an indexed strong solve implements both:
//!
//! * [`LayeredIndex`]: a bijection between the positions of one *layer* (a region of the
//!   position space closed under the moves that stay in it, for Ataxx one stone count) and
//!   `0..layer_size`, and the order in which layers are solved: every move leads to the same
//!   layer or to a layer solved earlier.
//! * [`Unmove`]: the parents of a position, the positions with a move that leads to it. The
//!   solver propagates results backwards with it instead of storing the edges.
//!
//! GIPF could plug in later with layers by pieces left (board plus reserve never grow); its
//! un-moves (un-pushes and un-captures) are the hard part.

use crate::game::Game;

/// A bijective index of the positions of a game, one layer at a time.
///
/// Layers are numbered `0..layers()`; [`LayeredIndex::solve_order`] lists them so that every
/// move of a position of a layer leads into that layer or into one listed before it.
pub trait LayeredIndex {
    /// The positions indexed.
    type Position;

    /// Number of layers.
    fn layers(&self) -> usize;

    /// Number of positions of `layer`.
    fn layer_size(&self, layer: usize) -> u64;

    /// The layer of `pos` and its rank inside it, or `None` if `pos` is not on this index's
    /// board (another size or other blocked squares).
    fn rank(&self, pos: &Self::Position) -> Option<(usize, u64)>;

    /// The position of rank `index` in `layer` (`index < layer_size(layer)`); the inverse of
    /// [`LayeredIndex::rank`] on the index's canonical representatives.
    fn unrank(&self, layer: usize, index: u64) -> Self::Position;

    /// The layers in dependency order: a move never leads to a layer listed later.
    fn solve_order(&self) -> Vec<usize>;

    /// Total number of positions over all layers.
    fn size(&self) -> u64 {
        (0..self.layers()).map(|l| self.layer_size(l)).sum()
    }
}

/// Un-move generation: the positions from which one move leads to `self`.
pub trait Unmove: Game {
    /// Appends every parent of `self`: each position `p`, not finished, with a legal move `m`
    /// such that `p` after `m` equals `self` ([`Game::exact_key`]), once per such move.
    /// Counters that [`Game::exact_key`] leaves out (clocks) are left at their defaults.
    fn parents(&self, out: &mut Vec<Self>);
}
