//! The parity-set loss rule by GF(2) elimination: kernels, thinned colour classes, certificates.

#[allow(clippy::wildcard_imports)]
use super::*;

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
pub(super) fn parity_loss(rows: &[u128; MAX_VERTICES], s: u8) -> bool {
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
pub(super) const KERNEL_ENUMERATION_DIM: usize = 10;

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
pub(super) fn kernel_parity_loss(
    rows: &[u128; MAX_VERTICES],
    s: u8,
    component: u128,
) -> Option<bool> {
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
pub(in crate::games::geography) struct Elimination {
    /// Basis rows by pivot (each one's lowest bit, which no basis row added before it has),
    /// each with the set of added rows it is the sum of (side by side: a reduction step reads
    /// both).
    basis: [(u128, u128); MAX_VERTICES],
    pivots: u128,
    pub(super) kernel: ArrayVec<u128, MAX_VERTICES>,
}

impl Elimination {
    pub(in crate::games::geography) fn new() -> Self {
        Elimination { basis: [(0, 0); MAX_VERTICES], pivots: 0, kernel: ArrayVec::new() }
    }

    /// Becomes a copy of `other` (without the temporary a `clone_from` makes).
    pub(super) fn copy_from(&mut self, other: &Elimination) {
        self.basis = other.basis;
        self.pivots = other.pivots;
        self.kernel.clear();
        self.kernel.extend(other.kernel.iter().copied());
    }

    /// Empties it (the rows kept in the arrays are only read at pivots).
    pub(super) fn clear(&mut self) {
        self.pivots = 0;
        self.kernel.clear();
    }

    /// `row` (standing for the added rows `combo`) reduced by the basis: the residue, with no
    /// pivot bit, and the added rows it stands for then.
    pub(super) fn reduce(&self, mut row: u128, mut combo: u128) -> (u128, u128) {
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
    pub(super) fn add(&mut self, v: usize, row: u128) {
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
    pub(super) fn parity_set(&self, rows: &[u128; MAX_VERTICES], s: u8) -> Option<bool> {
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
pub(super) fn any_in_coset(start: u128, span: &[u128], test: impl Fn(u128) -> bool) -> bool {
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
pub(super) fn every_row_meets(rows: &[u128; MAX_VERTICES], mut ys: u128, set: u128) -> bool {
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
pub(super) fn thin(rows: &[u128; MAX_VERTICES], s: u8, left: u128, descending: bool) -> u128 {
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
pub(super) fn certificate(rows: &[u128; MAX_VERTICES], s: u8, mut candidates: u128) -> bool {
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
