//! The twelve symmetries of the hexagonal board (six rotations, each with or without a
//! reflection) as permutations of the cells, and the canonical form of a board under them.
//!
//! The lines, the dots and the pushes of the board are the same under each symmetry, and so
//! are the rules (rows of `K`, their removal), so a position and its image have the same
//! value and distance: the tests check that the children of an image are the images of the
//! children, on random positions of every board size. The retrograde solver `retro2` uses
//! this to keep one position per class ([`BoardSymmetry::canonical`]).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::geometry::hex::{HexGeometry, MAX_SIDE};

/// The number of symmetries of the hexagon.
pub const SYMMETRIES: usize = 12;

/// The symmetries of one board as cell permutations, with byte tables to map a board mask
/// (cells `0..n`, `n <= 64`, bit `i` for cell `i`).
#[derive(Debug)]
pub struct BoardSymmetry {
    /// `perms[s][c]`: the cell that symmetry `s` takes cell `c` to (`perms[0]` is the
    /// identity).
    perms: Vec<Vec<u8>>,
    /// Bytes of a mask (`ceil(n / 8)`).
    bytes: usize,
    /// `tables[(s - 1) * bytes + j][v]`: the image under symmetry `s >= 1` of the cells of byte
    /// `j` of a mask whose byte `j` is `v`.
    tables: Vec<[u64; 256]>,
}

static TABLES: [OnceLock<Option<BoardSymmetry>>; MAX_SIDE + 1] =
    [const { OnceLock::new() }; MAX_SIDE + 1];

impl BoardSymmetry {
    /// The symmetries of the board of side `side`, built on first use; `None` past 64 cells.
    ///
    /// # Panics
    /// If `side` is not a supported side ([`HexGeometry::get`]).
    pub fn get(side: usize) -> Option<&'static BoardSymmetry> {
        TABLES[side].get_or_init(|| BoardSymmetry::build(HexGeometry::get(side))).as_ref()
    }

    fn build(geo: &HexGeometry) -> Option<BoardSymmetry> {
        let n = geo.cell_count;
        if n > 64 {
            return None;
        }
        let s = geo.side as i32;
        let at: HashMap<(i32, i32), u8> =
            geo.cell_coords.iter().enumerate().map(|(c, &p)| (p, c as u8)).collect();
        // Doubled-x offsets (dr, dx) from the centre (S, 2S) as q * E + t * SE, E = (0, 2)
        // and SE = (1, 1): t = dr, q = (dx - dr) / 2. A turn by 60 degrees clockwise takes
        // E to SE and SE to SW = SE - E; the reflection in the E-W axis keeps E and takes SE
        // to NE = E - SE.
        let turn = |(q, t): (i32, i32)| (-t, q + t);
        let reflect = |(q, t): (i32, i32)| (q + t, -t);
        let mut perms = Vec::with_capacity(SYMMETRIES);
        for mirrored in [false, true] {
            for turns in 0..6 {
                let perm: Option<Vec<u8>> = geo
                    .cell_coords
                    .iter()
                    .map(|&(r, x)| {
                        let (dr, dx) = (r - s, x - 2 * s);
                        let mut qt = ((dx - dr) / 2, dr);
                        if mirrored {
                            qt = reflect(qt);
                        }
                        for _ in 0..turns {
                            qt = turn(qt);
                        }
                        let (q, t) = qt;
                        at.get(&(t + s, 2 * q + t + 2 * s)).copied()
                    })
                    .collect();
                perms.push(perm?);
            }
        }
        let bytes = n.div_ceil(8);
        let mut tables = Vec::with_capacity((SYMMETRIES - 1) * bytes);
        for perm in &perms[1..] {
            for j in 0..bytes {
                let mut t = [0u64; 256];
                for (v, slot) in t.iter_mut().enumerate() {
                    for b in 0..8 {
                        let c = 8 * j + b;
                        if v >> b & 1 == 1 && c < n {
                            *slot |= 1 << perm[c];
                        }
                    }
                }
                tables.push(t);
            }
        }
        Some(BoardSymmetry { perms, bytes, tables })
    }

    /// The cell that symmetry `s` (`0..12`) takes `cell` to.
    #[must_use]
    pub fn cell(&self, s: usize, cell: usize) -> usize {
        usize::from(self.perms[s][cell])
    }

    /// The image of the board mask `mask` under symmetry `s` (`0..12`).
    #[inline]
    #[must_use]
    pub fn apply(&self, s: usize, mask: u64) -> u64 {
        if s == 0 {
            return mask;
        }
        let t = &self.tables[(s - 1) * self.bytes..s * self.bytes];
        let mut out = 0;
        for (j, table) in t.iter().enumerate() {
            out |= table[(mask >> (8 * j)) as usize & 0xff];
        }
        out
    }

    /// The canonical form of the board `(white, black)`: the least image, comparing white
    /// masks first.
    #[inline]
    #[must_use]
    pub fn canonical(&self, white: u64, black: u64) -> (u64, u64) {
        let mut best = (white, black);
        for s in 1..SYMMETRIES {
            let w = self.apply(s, white);
            if w > best.0 {
                continue;
            }
            let b = self.apply(s, black);
            if (w, b) < best {
                best = (w, b);
            }
        }
        best
    }

    /// The number of distinct images of the board `(white, black)` (its orbit): 12 over the
    /// number of symmetries that fix it.
    #[inline]
    #[must_use]
    pub fn orbit_size(&self, white: u64, black: u64) -> u64 {
        let fixing = (0..SYMMETRIES)
            .filter(|&s| self.apply(s, white) == white && self.apply(s, black) == black)
            .count();
        (SYMMETRIES / fixing) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Notation;
    use crate::bitboard::Bitboard128;
    use crate::game::{ByPlayer, Game};
    use crate::games::gipf::{Gipf, GipfMoves, State};
    use crate::zobrist::KeyStream;

    /// The image of a state under symmetry `s`.
    fn image(sym: &BoardSymmetry, s: usize, st: &State) -> State {
        let map = |b: Bitboard128| Bitboard128(u128::from(sym.apply(s, b.0 as u64)));
        State {
            board: ByPlayer { first: map(st.board.first), second: map(st.board.second) },
            reserve: st.reserve,
        }
    }

    /// Every symmetry permutes the cells, keeps neighbours neighbours and the lines lines, and
    /// the twelve are distinct.
    #[test]
    fn symmetries_permute_cells_and_lines() {
        for side in 2..=5 {
            let geo = HexGeometry::get(side);
            let sym = BoardSymmetry::get(side).expect("at most 64 cells");
            let n = geo.cell_count;
            let mut seen = std::collections::HashSet::new();
            for s in 0..SYMMETRIES {
                let mut cells: Vec<usize> = (0..n).map(|c| sym.cell(s, c)).collect();
                assert!(seen.insert(cells.clone()), "side {side}: symmetry {s} repeats");
                cells.sort_unstable();
                assert_eq!(cells, (0..n).collect::<Vec<_>>(), "side {side}: {s} permutes");
                let lines: std::collections::HashSet<u64> =
                    geo.lines.iter().map(|l| l.mask as u64).collect();
                for l in &geo.lines {
                    assert!(lines.contains(&sym.apply(s, l.mask as u64)), "a line's image");
                }
                for c in 0..n as u64 {
                    assert_eq!(sym.apply(s, 1 << c), 1 << sym.cell(s, c as usize));
                }
            }
        }
        assert!(BoardSymmetry::get(6).is_none(), "91 cells do not fit a mask");
    }

    /// On random positions of every size (random playouts), the children of an image are the
    /// images of the children, with the same plain flags, and the outcome is the same.
    #[test]
    fn moves_commute_with_the_symmetries() {
        let mut rng = KeyStream::new(12);
        let mut checked = 0;
        for (side, k, gw, gb) in [(2, 3, 4, 4), (3, 3, 7, 7), (3, 4, 8, 8), (4, 4, 12, 12)] {
            let sym = BoardSymmetry::get(side).unwrap();
            for _ in 0..40 {
                let text = crate::games::gipf::tests::start_text(side, k, gw, gb);
                let mut g = Gipf::parse_position(&text).unwrap();
                let plies = rng.next_key() % 30;
                for _ in 0..plies {
                    let mut moves = GipfMoves::default();
                    g.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    g.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
                }
                let mut children = Vec::new();
                g.for_each_child_state(|st, plain| children.push((st, plain)));
                for s in 0..SYMMETRIES {
                    let h = g.with_state(image(sym, s, &g.state()), g.to_move());
                    assert_eq!(h.outcome(), g.outcome());
                    let mut got = Vec::new();
                    h.for_each_child_state(|st, plain| got.push((st, plain)));
                    let mut want: Vec<(State, bool)> =
                        children.iter().map(|(st, p)| (image(sym, s, st), *p)).collect();
                    let key = |x: &(State, bool)| {
                        (
                            x.0.board.first.0,
                            x.0.board.second.0,
                            x.0.reserve.first,
                            x.0.reserve.second,
                            x.1,
                        )
                    };
                    got.sort_by_key(key);
                    want.sort_by_key(key);
                    assert_eq!(got, want, "side {side}, symmetry {s}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 1900);
    }

    /// The orbit size is the number of distinct images, and the canonical form is the least
    /// of them, on random boards (sparse, dense, and symmetric ones made by folding a random
    /// half onto itself).
    #[test]
    fn orbits_count_the_distinct_images() {
        let mut rng = KeyStream::new(13);
        let mut sizes = std::collections::BTreeSet::new();
        for side in 2..=4 {
            let sym = BoardSymmetry::get(side).unwrap();
            let cells = HexGeometry::get(side).cell_count;
            let all = (1u64 << cells) - 1;
            for i in 0..3000 {
                let (mut w, mut b) = (rng.next_key() & all, rng.next_key() & all);
                if i % 3 == 0 {
                    (w, b) = (w & rng.next_key() & rng.next_key(), b & rng.next_key());
                }
                if i % 3 == 1 {
                    // The union of the images under one symmetry and its powers is fixed by it.
                    let s = (rng.next_key() % SYMMETRIES as u64) as usize;
                    (w, b) = (w & rng.next_key() & rng.next_key(), 0);
                    for _ in 0..SYMMETRIES {
                        w |= sym.apply(s, w);
                    }
                }
                b &= !w;
                let images: std::collections::BTreeSet<(u64, u64)> =
                    (0..SYMMETRIES).map(|s| (sym.apply(s, w), sym.apply(s, b))).collect();
                assert_eq!(sym.orbit_size(w, b), images.len() as u64, "side {side}");
                assert_eq!(sym.canonical(w, b), *images.first().unwrap());
                sizes.insert(images.len());
            }
        }
        assert!(sizes.len() >= 4, "orbits of several sizes: {sizes:?}");
    }
}
