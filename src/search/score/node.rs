//! The pieces of a node of [`AlphaBetaScore`](super::AlphaBetaScore)'s search: its children
//! and their order, its window, what the table told it, how it plays its children, and the
//! memory a thread keeps from solve to solve.

use super::Game;
use crate::search::ordering::Killers;

/// A not finished child in a node's buffer.
pub(super) struct Child<G> {
    /// Search order, smallest first ([`rank`]): the table's move first, then lower
    /// [`Scored::order_estimate`]s, then more history, then the tie-break.
    pub(super) rank: u128,
    /// The child's table key.
    pub(super) key: u64,
    /// Index of the move in the generated list.
    pub(super) index: u8,
    pub(super) pos: G,
}

/// The search order of a child as one number, smallest first: the order key (the table's
/// move first, then lower [`Scored::order_estimate`]s), then more history, then the tie-break
/// (the move index, or a per-thread scramble of it for helpers). One comparison of numbers
/// instead of three of fields.
#[inline]
pub(super) fn rank(order: i32, history: u32, tie: u32) -> u128 {
    let order = order.cast_unsigned() ^ 0x8000_0000; // i32 order as u32 order
    (u128::from(order) << 64) | (u128::from(!history) << 32) | u128::from(tie)
}

/// Moves the first of `children[k..]` in search order to `k`: one step of a selection sort,
/// since most nodes stop after a child or two.
pub(super) fn select_next<G>(children: &mut [Child<G>], k: usize) {
    let mut first = k;
    for j in k + 1..children.len() {
        if children[j].rank < children[first].rank {
            first = j;
        }
    }
    children.swap(k, first);
}

/// A node's window and its best child so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
    /// The best value and the index of its move (`i32::MIN` and [`NO_MOVE`] before any).
    pub(super) best: (i32, u8),
}

impl Window {
    /// Takes the value `v` of the child with move index `index` into the best value and move
    /// and `alpha`; returns whether it cuts the node off (`v >= beta`).
    #[inline]
    pub(super) fn raise(&mut self, v: i32, index: u8) -> bool {
        if v <= self.best.0 {
            return false;
        }
        self.best = (v, index);
        self.alpha = self.alpha.max(v);
        v >= self.beta
    }

    /// Whether the best child cuts the node off.
    #[inline]
    pub(super) fn cut(&self) -> bool {
        self.best.0 >= self.beta
    }
}

/// What the table told a node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    /// Whether the node is looked up and stored (not at a ply whose last node had only
    /// finished children).
    pub(super) probed: bool,
    /// The table key (0 when not `probed`).
    pub(super) key: u64,
    /// The stored bounds (the trivial ones without an entry).
    pub(super) lower: i32,
    pub(super) upper: i32,
    /// The stored move index, or [`NO_MOVE`].
    pub(super) tt_move: u8,
    /// The node's `alpha` once narrowed by the game's and the table's bounds: what its result
    /// is stored against.
    pub(super) alpha0: i32,
    /// The node count when the node started searching its children (the work below it).
    pub(super) nodes_before: u64,
}

/// How a node plays its children.
pub(super) struct Plan {
    /// Move indices in play order: the table's move (with [`ScoreFeatures::eager`]), the
    /// killers, then the rest in generation order.
    pub(super) order: arrayvec::ArrayVec<u8, 64>,
    /// The table's move index, or [`NO_MOVE`].
    pub(super) tt_move: u8,
    /// The table's move, searched as soon as it is built ([`ScoreFeatures::eager`]).
    pub(super) tt_first: Option<usize>,
    /// Indices of the ply's killers ([`ScoreFeatures::killer`]).
    pub(super) killers: [Option<usize>; 2],
    /// Whether the killers are searched as soon as they are built too (the children's
    /// children all end the game, as far as the last node at the next ply showed).
    pub(super) eager_killers: bool,
    /// Whether the children are ordered by a shallow search ([`ScoreFeatures::shallow`]).
    pub(super) shallow: bool,
    /// Whether the children are expected to finish the game: scored without building them.
    pub(super) leafy: bool,
}

impl Plan {
    /// Whether the child of move index `i` is searched as soon as it is built.
    #[inline]
    pub(super) fn at_once(&self, i: usize) -> bool {
        Some(i) == self.tt_first
            || (self.eager_killers && (Some(i) == self.killers[0] || Some(i) == self.killers[1]))
    }
}

/// One thread's memory that outlives a solve: the child buffers per ply and the killers.
/// Connect Four's easiest positions are solved in a few hundred nanoseconds, and allocating
/// these anew took about half the instructions of such a solve.
pub(super) struct Scratch<G: Game> {
    /// Per ply: whether the last node expanded there had only finished children, and a child
    /// buffer reused from node to node.
    pub(super) buffers: Vec<(bool, Vec<Child<G>>)>,
    /// Per ply: the last two distinct moves that cut a node off there
    /// ([`ScoreFeatures::killer`]).
    pub(super) killers: Killers<G::Move>,
}

impl<G: Game> Scratch<G> {
    /// Room for 64 plies of buffers.
    pub(super) fn new() -> Self {
        Scratch { buffers: Vec::with_capacity(64), killers: Killers::new() }
    }

    /// Nothing (allocates nothing): a placeholder while a worker holds the scratch.
    pub(super) fn empty() -> Self {
        Scratch { buffers: Vec::new(), killers: Killers::new() }
    }
}
