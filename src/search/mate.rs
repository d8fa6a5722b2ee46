//! The one integer encoding of proven results ("mate scores") that the alpha-beta searches share.
//!
//! A score is an `i32` from the side to move's view, counted from the root as in Pons' Connect 4
//! solver: a win that ends `plies` plies below the root scores `WIN - plies`, a loss
//! `-(WIN - plies)`, a draw 0. Sooner wins and later losses are larger, and a score for the
//! parent's mover is just the negation. Heuristic scores (the engine's evaluations) stay within
//! a `limit` below every proven score, so `|score| > limit` tells a proven result.
//!
//! A transposition table cannot store root-relative proven scores (the same position occurs at
//! many plies), so it stores them relative to the node ([`to_node`], [`from_node`]).
//!
//! ```
//! use bitsolve::search::mate::{WIN, distance, from_node, loss_in, to_node, win_in};
//! let limit = WIN - 1_000;
//! assert!(win_in(3) > win_in(5) && loss_in(5) > loss_in(3));
//! // A win 7 plies below the root, seen 3 plies down, is a win in 4 from that node.
//! assert_eq!(to_node(win_in(7), 3, limit), win_in(4));
//! assert_eq!(from_node(win_in(4), 3, limit), win_in(7));
//! assert_eq!(distance(loss_in(6), limit), Some(-6));
//! assert_eq!(distance(250, limit), None);
//! ```

/// Score of a win at the root itself (the side to move has already won).
pub const WIN: i32 = 30_000;

/// The score of a forced win `plies` plies from the root.
#[inline]
pub const fn win_in(plies: u32) -> i32 {
    WIN - plies.cast_signed()
}

/// The score of a forced loss `plies` plies from the root.
#[inline]
pub const fn loss_in(plies: u32) -> i32 {
    -win_in(plies)
}

/// `Some(plies)` (positive: a win, negative: a loss) if `score` is a proven result, that is
/// `|score| > limit`.
#[inline]
pub const fn distance(score: i32, limit: i32) -> Option<i32> {
    if score > limit {
        Some(WIN - score)
    } else if score < -limit {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// A root-relative score of a node `ply` plies below the root, relative to the node: proven
/// results (`|score| > limit`) count their distance from the node, other scores are unchanged.
#[inline]
pub const fn to_node(score: i32, ply: u32, limit: i32) -> i32 {
    if score > limit {
        score + ply.cast_signed()
    } else if score < -limit {
        score - ply.cast_signed()
    } else {
        score
    }
}

/// The inverse of [`to_node`] at a node `ply` plies below the root.
#[inline]
pub const fn from_node(score: i32, ply: u32, limit: i32) -> i32 {
    if score > limit {
        score - ply.cast_signed()
    } else if score < -limit {
        score + ply.cast_signed()
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_relative_scores_round_trip() {
        for limit in [0, WIN - 1_001] {
            for ply in [0, 1, 7, 100] {
                for s in [0, win_in(ply), win_in(ply + 5), loss_in(ply), loss_in(ply + 9)] {
                    assert_eq!(from_node(to_node(s, ply, limit), ply, limit), s);
                }
                assert_eq!(to_node(win_in(ply + 3), ply, limit), win_in(3));
                assert_eq!(to_node(loss_in(ply + 3), ply, limit), loss_in(3));
            }
        }
        // Heuristic scores pass through unchanged.
        assert_eq!(to_node(-250, 9, WIN - 1_001), -250);
    }

    #[test]
    fn distances_are_signed_plies() {
        let limit = WIN - 1_001;
        assert_eq!(distance(win_in(0), limit), Some(0));
        assert_eq!(distance(win_in(12), limit), Some(12));
        assert_eq!(distance(loss_in(12), limit), Some(-12));
        assert_eq!(distance(limit, limit), None);
        assert_eq!(distance(0, 0), None);
        assert_eq!(distance(1, 0), Some(WIN - 1));
    }
}
