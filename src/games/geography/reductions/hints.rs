//! df-pn's initial numbers and the bipartite guess (search guidance, exact either way).

#[allow(clippy::wildcard_imports)]
use super::*;

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
pub(in crate::games::geography) fn deep_numbers(numbers: ParityNumbers) -> (u64, u64) {
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
    let mut rows = [0u128; super::super::MAX_VERTICES];
    let (left, right) = two_colour(pos, |_, _, _| true).unwrap_or_else(|| unreachable!());
    for v in left {
        rows[v as usize] = pos.rows[v as usize] & right.0;
    }
    row_outcome(pos.token, left, &rows)
}
