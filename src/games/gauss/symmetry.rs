//! The twelve symmetries of the Gauss board: the hexagon's six rotations about the centre
//! `d4`, each with or without a reflection.
//!
//! Every rule of Gauss is invariant under them: the inner area and the void ring map onto
//! themselves, neighbours onto neighbours, and the six rays from a cell onto the six rays from
//! its image, so the magnet step, the 6-connected groups and the straight rows of the collection
//! step commute with a symmetry, and the score counts only discs. A position and its image
//! therefore have the same legal moves (mapped), the same final score under perfect play, and
//! [`Gauss::canonical_hash`](crate::Scored::canonical_hash) gives them one table key. The tests
//! check all of that on random positions.

use std::sync::OnceLock;

use super::board::{Board, POINTS};
use super::{Gauss, GaussMove};

/// Number of symmetries (the identity included, as number 0).
pub const SYMMETRIES: usize = 12;

/// The symmetry tables.
#[derive(Debug)]
pub struct Symmetries {
    /// `perms[s][p]`: the image of point `p` under symmetry `s`.
    pub perms: [[u8; POINTS]; SYMMETRIES],
    /// `bytes[s][k][b]`: the image under `s` of the bit set `b << 8k` (fast set mapping).
    bytes: Vec<[[u64; 256]; 5]>,
}

static SYMMETRIES_TABLE: OnceLock<Symmetries> = OnceLock::new();

impl Symmetries {
    /// The tables, built on first use.
    #[inline]
    pub fn get() -> &'static Symmetries {
        SYMMETRIES_TABLE.get_or_init(Symmetries::build)
    }

    fn build() -> Symmetries {
        let b = Board::get();
        let centre = b.coords[usize::from(b.point_by_name("d4").expect("the centre"))];
        let index_of = |r: i32, x: i32| {
            b.coords
                .iter()
                .position(|&c| c == (r, x))
                .expect("a symmetry maps the board onto itself") as u8
        };
        let mut perms = [[0u8; POINTS]; SYMMETRIES];
        for (s, perm) in perms.iter_mut().enumerate() {
            for (p, image) in perm.iter_mut().enumerate() {
                // Doubled-x offsets to cube coordinates (q, r, -q - r).
                let (dr, dx) = (b.coords[p].0 - centre.0, b.coords[p].1 - centre.1);
                let (mut q, mut r) = ((dx - dr) / 2, dr);
                if s >= 6 {
                    // Reflection: swap the cube coordinates r and s = -q - r.
                    r = -q - r;
                }
                for _ in 0..s % 6 {
                    // Rotation by 60 degrees: (q, r, s) -> (-r, -s, -q).
                    (q, r) = (-r, q + r);
                }
                *image = index_of(centre.0 + r, centre.1 + 2 * q + r);
            }
        }
        let bytes = perms
            .iter()
            .map(|perm| {
                std::array::from_fn(|k| {
                    std::array::from_fn(|byte| {
                        let mut out = 0u64;
                        for bit in 0..8 {
                            let p = 8 * k + bit;
                            if byte >> bit & 1 != 0 && p < POINTS {
                                out |= 1 << perm[p];
                            }
                        }
                        out
                    })
                })
            })
            .collect();
        Symmetries { perms, bytes }
    }

    /// The image of the point set `bits` under symmetry `s`.
    #[inline]
    pub fn map(&self, s: usize, bits: u64) -> u64 {
        let t = &self.bytes[s];
        t[0][(bits & 0xFF) as usize]
            | t[1][(bits >> 8 & 0xFF) as usize]
            | t[2][(bits >> 16 & 0xFF) as usize]
            | t[3][(bits >> 24 & 0xFF) as usize]
            | t[4][(bits >> 32 & 0xFF) as usize]
    }

    /// The image of `mv` under symmetry `s`.
    pub fn map_move(&self, s: usize, mv: GaussMove) -> GaussMove {
        GaussMove::new(self.perms[s][usize::from(mv.point())], mv.colour())
    }
}

/// `SplitMix64`'s finaliser: a bijective mixer of 64-bit words.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Gauss {
    /// The image of this position under symmetry `s` of [`Symmetries`] (discs moved, everything
    /// else kept).
    #[must_use]
    pub fn transformed(&self, s: usize) -> Gauss {
        let sym = Symmetries::get();
        let mut g = *self;
        g.discs = [sym.map(s, self.discs[0]), sym.map(s, self.discs[1])];
        g.hash = g.hash_from_scratch();
        g
    }

    /// The key of [`Scored::canonical_hash`](crate::Scored::canonical_hash): the discs of the
    /// smallest of the twelve images (by the red then the blue set), mixed, with the keys of the
    /// counters, side and rules.
    pub(super) fn symmetric_key(&self) -> u64 {
        let sym = Symmetries::get();
        let mut best = (self.discs[0], self.discs[1]);
        for s in 1..SYMMETRIES {
            let red = sym.map(s, self.discs[0]);
            if red > best.0 {
                continue;
            }
            let image = (red, sym.map(s, self.discs[1]));
            best = best.min(image);
        }
        self.counter_hash()
            ^ self.rules_key()
            ^ mix(best.0 ^ 0x5851_F42D_4C95_7F2D)
            ^ mix(best.1.rotate_left(27) ^ 0x1405_7B7E_F767_814F)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::game::{Game, Scored};
    use crate::games::gauss::{GaussMoves, Rules};
    use crate::search::score::BruteScore;
    use crate::zobrist::KeyStream;

    /// Twelve distinct permutations that keep the inner area, the void and the neighbours, and
    /// send every ray onto a ray (same points in the same order).
    #[test]
    fn symmetries_keep_the_board() {
        let b = Board::get();
        let sym = Symmetries::get();
        let distinct: HashSet<_> = sym.perms.iter().collect();
        assert_eq!(distinct.len(), SYMMETRIES);
        assert_eq!(sym.perms[0], std::array::from_fn(|p| p as u8), "number 0 is the identity");
        for s in 0..SYMMETRIES {
            let perm = &sym.perms[s];
            assert_eq!(sym.map(s, b.inner), b.inner);
            assert_eq!(sym.map(s, b.void), b.void);
            for p in 0..POINTS {
                assert_eq!(sym.map(s, 1 << p), 1 << perm[p]);
                assert_eq!(sym.map(s, b.neighbours[p]), b.neighbours[usize::from(perm[p])]);
                if !b.is_inner(p as u8) {
                    continue;
                }
                let image_rays: Vec<Vec<u8>> =
                    b.rays[usize::from(perm[p])].iter().map(|r| r.as_slice().to_vec()).collect();
                for ray in &b.rays[p] {
                    let mapped: Vec<u8> =
                        ray.as_slice().iter().map(|&q| perm[usize::from(q)]).collect();
                    assert!(image_rays.contains(&mapped), "symmetry {s}, point {p}");
                }
            }
        }
    }

    fn random_positions(count: usize, remaining: &[u32], seed: u64) -> Vec<Gauss> {
        let mut rng = KeyStream::new(seed);
        (0..count)
            .map(|i| Gauss::random(remaining[i % remaining.len()], Rules::mixed(i), &mut rng))
            .collect()
    }

    /// Playing a move and then mapping equals mapping and then playing the mapped move, for
    /// every move of random positions at every stage of the game and every symmetry; and the
    /// images share one canonical key, which the position's other successors do not.
    #[test]
    fn symmetries_commute_with_the_rules() {
        for pos in random_positions(300, &[30, 24, 18, 12, 6, 2], 41) {
            let key = pos.canonical_hash();
            let mut moves = GaussMoves::new();
            pos.generate_moves(&mut moves);
            for s in 0..SYMMETRIES {
                let image = pos.transformed(s);
                assert_eq!(image.canonical_hash(), key);
                assert_eq!(image.final_score(), pos.final_score());
                assert_eq!(image.provisional_outcome(), pos.provisional_outcome());
                let mut image_moves = GaussMoves::new();
                image.generate_moves(&mut image_moves);
                let mapped: HashSet<GaussMove> =
                    moves.iter().map(|&m| Symmetries::get().map_move(s, m)).collect();
                assert_eq!(mapped, image_moves.iter().copied().collect());
                for &mv in &moves {
                    let mut a = pos;
                    a.play(mv);
                    let mut b = image;
                    b.play(Symmetries::get().map_move(s, mv));
                    assert_eq!(a.transformed(s), b, "symmetry {s}, move {mv:?}");
                }
            }
            // Successors that are not images of each other get different keys.
            let mut seen = std::collections::HashMap::new();
            for &mv in &moves {
                let mut child = pos;
                child.play(mv);
                let class: Vec<Gauss> = (0..SYMMETRIES).map(|s| child.transformed(s)).collect();
                if let Some(other) = seen.insert(child.canonical_hash(), class.clone()) {
                    assert!(other.contains(&child), "two unrelated children share a key");
                }
            }
        }
    }

    /// Images have the brute-force score of the original.
    #[test]
    fn images_have_the_same_exact_score() {
        for pos in random_positions(40, &[3, 4], 42) {
            let truth = BruteScore::score(&pos, &mut 0);
            for s in [1, 4, 6, 11] {
                assert_eq!(BruteScore::score(&pos.transformed(s), &mut 0), truth);
            }
        }
    }
}
