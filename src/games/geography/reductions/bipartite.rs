//! The bipartite rule of Fraenkel, Scheinerman and Ullman: two-colouring and the span test over GF(2).

#[allow(clippy::wildcard_imports)]
use super::*;

/// Breadth-first 2-colouring of the token's component, the token on the left: the two sides.
/// `visit(v, neighbours, side)` sees each vertex once, with the vertices coloured so far on
/// its side; it returning `false` stops the colouring with `None`.
pub(super) fn two_colour(
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
    let mut rows = [0u128; super::super::MAX_VERTICES];
    let (left, _) = two_colour(pos, |v, nb, side| {
        rows[v as usize] = nb.0;
        !nb.intersects(side) // else an odd cycle
    })?;
    Some(row_outcome(pos.token, left, &rows))
}

/// Whether the row of `s` lies outside the span of the other rows of `left`: `Win` if so.
pub(super) fn row_outcome(
    s: u8,
    left: Vertices,
    rows: &[u128; super::super::MAX_VERTICES],
) -> Outcome {
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
pub(super) fn in_span(
    target: u128,
    rows: &[u128; super::super::MAX_VERTICES],
    mut set: u128,
) -> bool {
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
