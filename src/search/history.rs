//! The search path, for games with cycles.
//!
//! A position that repeats one on the current path is scored as a draw: play could go round the
//! cycle forever, and infinite play is a draw. That score depends on the path, not only on the
//! position, so a result that used it must not be stored as a fact (the graph-history
//! interaction problem). Solvers track this with the `path_dependent` flags they return: a value
//! or proof computed without any repetition cut is exact for the position; a win or loss proven
//! with one is still true (a proof tree whose leaves are real game ends), but a draw, a failed
//! proof or a distance computed with one may be an artefact of the path.

use crate::game::Game;

/// Hashes of the positions from the root down to the current node.
#[derive(Clone, Debug, Default)]
pub struct History {
    hashes: Vec<u64>,
}

impl History {
    /// An empty path.
    pub fn new() -> Self {
        History::default()
    }

    /// Enters a position.
    #[inline]
    pub fn push(&mut self, hash: u64) {
        self.hashes.push(hash);
    }

    /// Leaves the last position entered.
    #[inline]
    pub fn pop(&mut self) {
        self.hashes.pop();
    }

    /// Empties the path.
    pub fn clear(&mut self) {
        self.hashes.clear();
    }

    /// Number of positions on the path.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the path is empty.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether `position` repeats one on the path. Always `false` for acyclic games. Looks back
    /// only as far as [`Game::reversible_plies`] allows.
    #[inline]
    pub fn repeats<G: Game>(&self, position: &G) -> bool {
        repeated_index(&self.hashes, position).is_some()
    }
}

/// The index in `path` (hashes of the positions from the oldest to the parent of `position`)
/// of the latest position that `position` repeats, looking back only as far as
/// [`Game::reversible_plies`] allows; always `None` for acyclic games. The one repetition rule
/// of every search.
///
/// ```
/// use bitsolve::search::history::repeated_index;
/// use bitsolve::{Digraph, Game, Notation};
/// let pos = Digraph::parse_position("0|1;0;").unwrap();
/// let mut path = vec![pos.hash()];
/// let mut child = pos.clone();
/// child.play(1);
/// path.push(child.hash());
/// assert_eq!(repeated_index(&path, &pos), Some(0));
/// assert_eq!(repeated_index(&path[1..], &pos), None);
/// ```
#[inline]
pub fn repeated_index<G: Game>(path: &[u64], position: &G) -> Option<usize> {
    if G::ACYCLIC {
        return None;
    }
    let hash = position.hash();
    let window = position.reversible_plies().map_or(path.len(), |p| p as usize);
    let first = path.len().saturating_sub(window);
    path[first..].iter().rposition(|&h| h == hash).map(|i| first + i)
}
