//! The Gauss board: the hexagon of side 4 (37 points) built from the shared hex geometry.
//!
//! GIPF's [`HexGeometry`] of side 3 is exactly this board: its 19 cells are Gauss's inner play
//! area and its ring of 18 dots is the void. Gauss numbers all 37 points together in reading
//! order (top row first, left to right), so a colour's discs fit one `u64`:
//!
//! ```text
//! row 0        0  1  2  3            a4 b5 c6 d7      (void)
//! row 1      4  5  6  7  8         a3 b4 c5 d6 e6
//! row 2    9 10 11 12 13 14      a2 b3 c4 d5 e5 f5
//! row 3  15 16 17 18 19 20 21  a1 b2 c3 d4 e4 f4 g4   (d4 = 18: the centre)
//! row 4    22 23 24 25 26 27      b1 c2 d3 e3 f3 g3
//! row 5      28 29 30 31 32         c1 d2 e2 f2 g2
//! row 6        33 34 35 36            d1 e1 f1 g1
//! ```
//!
//! The first and last point of every row, and rows 0 and 6, are void. Names are GIPF's (GF1)
//! names of the same points. Tables are built once on first use ([`Board::get`]) and checked
//! against a naive walk in the tests.

use std::sync::OnceLock;

use crate::geometry::hex::{DIRECTIONS, HexGeometry, Point};

/// Number of points (inner cells and void cells).
pub const POINTS: usize = 37;
/// Side length of the hexagon, counting the void ring.
pub const SIDE: usize = 4;
/// The longest ray from an inner cell (to the far void cell, the void cell included).
pub const MAX_RAY: usize = 6;

/// A straight ray from an inner cell: the points in one direction, nearest first, ending on the
/// void.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ray {
    /// The points, nearest first; only the first `len` are used.
    pub points: [u8; MAX_RAY],
    /// Number of points (at least 1: the ray ends on a void cell).
    pub len: u8,
    /// The same points as a bit set.
    pub mask: u64,
}

impl Ray {
    /// The points of the ray, nearest first.
    pub fn as_slice(&self) -> &[u8] {
        &self.points[..self.len as usize]
    }
}

/// Every table of the Gauss board.
#[derive(Clone, Debug)]
pub struct Board {
    /// `(r, x)` doubled-x coordinates of each point (as in [`HexGeometry`]).
    pub coords: [(i32, i32); POINTS],
    /// Name of each point (`d4` is the centre).
    pub names: Vec<String>,
    /// The 19 inner (playable) cells.
    pub inner: u64,
    /// The 18 void cells.
    pub void: u64,
    /// The up to 6 neighbours of each point.
    pub neighbours: [u64; POINTS],
    /// `step[p][d]`: the neighbour of `p` in direction `d` of [`DIRECTIONS`], if any.
    pub step: [[Option<u8>; 6]; POINTS],
    /// `rays[p][d]`: the ray from inner cell `p` in direction `d` (empty for void points).
    pub rays: [[Ray; 6]; POINTS],
    /// Point of each text row, left to right.
    pub rows: Vec<Vec<u8>>,
}

static BOARD: OnceLock<Board> = OnceLock::new();

impl Board {
    /// The board tables, built on first use.
    #[inline]
    pub fn get() -> &'static Board {
        BOARD.get_or_init(Board::build)
    }

    fn build() -> Board {
        let hex = HexGeometry::get(SIDE - 1);
        let mut points: Vec<((i32, i32), Point)> = Vec::new();
        for c in 0..hex.cell_count {
            points.push((hex.cell_coords[c], Point::Cell(c as u8)));
        }
        for d in 0..hex.dot_coords.len() {
            points.push((hex.dot_coords[d], Point::Dot(d as u8)));
        }
        points.sort_by_key(|&(rx, _)| rx);
        assert_eq!(points.len(), POINTS, "side-3 GIPF board plus its ring");
        let mut board = Board {
            coords: [(0, 0); POINTS],
            names: points.iter().map(|&(_, p)| hex.name(p).to_string()).collect(),
            inner: 0,
            void: 0,
            neighbours: [0; POINTS],
            step: [[None; 6]; POINTS],
            rays: [[Ray::default(); 6]; POINTS],
            rows: Vec::new(),
        };
        for (i, &(rx, p)) in points.iter().enumerate() {
            board.coords[i] = rx;
            match p {
                Point::Cell(_) => board.inner |= 1 << i,
                Point::Dot(_) => board.void |= 1 << i,
            }
            if board.rows.len() <= rx.0 as usize {
                board.rows.push(Vec::new());
            }
            board.rows[rx.0 as usize].push(i as u8);
        }
        let index_of = |r: i32, x: i32| board.coords.iter().position(|&c| c == (r, x));
        for p in 0..POINTS {
            let (r, x) = board.coords[p];
            for (d, &(dr, dx)) in DIRECTIONS.iter().enumerate() {
                if let Some(q) = index_of(r + dr, x + dx) {
                    board.step[p][d] = Some(q as u8);
                    board.neighbours[p] |= 1 << q;
                }
            }
        }
        for p in 0..POINTS {
            if board.void >> p & 1 != 0 {
                continue;
            }
            let step = &board.step;
            board.rays[p] = std::array::from_fn(|d| {
                let mut ray = Ray::default();
                let mut at = p;
                while let Some(q) = step[at][d] {
                    ray.points[ray.len as usize] = q;
                    ray.len += 1;
                    ray.mask |= 1 << q;
                    at = q as usize;
                }
                ray
            });
        }
        board
    }

    /// The point named `name` (e.g. `d4`), if any.
    pub fn point_by_name(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name)).map(|i| i as u8)
    }

    /// Whether `point` is an inner (playable) cell.
    #[inline]
    pub fn is_inner(&self, point: u8) -> bool {
        self.inner >> point & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_layout() {
        let b = Board::get();
        assert_eq!(b.inner.count_ones(), 19);
        assert_eq!(b.void.count_ones(), 18);
        assert_eq!(b.inner & b.void, 0);
        let lens: Vec<usize> = b.rows.iter().map(Vec::len).collect();
        assert_eq!(lens, [4, 5, 6, 7, 6, 5, 4]);
        assert_eq!(b.names[18], "d4");
        assert_eq!(b.point_by_name("d4"), Some(18));
        // The void is exactly the points with fewer than six neighbours.
        for p in 0..POINTS {
            assert_eq!(b.neighbours[p].count_ones() < 6, b.void >> p & 1 != 0, "point {p}");
        }
    }

    /// Every ray from an inner cell ends on exactly one void cell, its last point, and follows
    /// neighbour steps (naive walk in coordinates).
    #[test]
    fn rays_end_on_the_void() {
        let b = Board::get();
        for p in 0..POINTS {
            if !b.is_inner(p as u8) {
                continue;
            }
            for (d, &(dr, dx)) in DIRECTIONS.iter().enumerate() {
                let ray = b.rays[p][d].as_slice();
                assert!(!ray.is_empty());
                let voids = ray.iter().filter(|&&q| b.void >> q & 1 != 0).count();
                assert_eq!(voids, 1);
                assert!(b.void >> ray[ray.len() - 1] & 1 != 0);
                let (mut r, mut x) = b.coords[p];
                for &q in ray {
                    r += dr;
                    x += dx;
                    assert_eq!(b.coords[q as usize], (r, x));
                }
            }
        }
    }
}
