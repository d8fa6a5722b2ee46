//! The hexagonal GIPF board of side `S` (2 to 7) with its surrounding ring of dots.
//!
//! Points are addressed on the "dot grid" (board plus ring): rows `r = 0..=2S`, row `r` holding
//! `L(r) = S + 1 + min(r, 2S - r)` points. Doubled-x coordinates `(r, x)` with
//! `x = |r - S| + 2p` make the six neighbours `(0, ±2)` and `(±1, ±1)`.
//! GF1 names (`a1`, `e5`, ...): letter `c = p + max(0, r - S)`, number
//! `n = S + min(c, S) - r + 1`.
//!
//! Board cells are numbered `0..3S(S-1)+1` in reading order (top row first), so a board fits a
//! `u128` for every supported `S`. Dots are numbered separately in reading order. Everything is
//! built once per `S` on first use ([`HexGeometry::get`]) and lives for the whole program.

use std::sync::OnceLock;

/// Smallest supported side length.
pub const MIN_SIDE: usize = 2;
/// Largest supported side length (127 cells: the most a `u128` holds).
pub const MAX_SIDE: usize = 7;

/// The six directions, clockwise from East, as `(dr, dx)` steps in doubled-x coordinates.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// A point of the dot grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    /// A board cell, by cell index.
    Cell(u8),
    /// A dot of the ring, by dot index.
    Dot(u8),
}

/// One push: a piece enters at `dot` and is pushed onto `cells[0]`, then along `cells`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Push {
    /// The dot the piece starts on.
    pub dot: u8,
    /// Direction index into [`DIRECTIONS`] of the push.
    pub direction: u8,
    /// The board cells from the entry cell to the far edge, in push order.
    pub cells: Vec<u8>,
    /// The same cells as a bit set.
    pub mask: u128,
}

/// A maximal straight line of board cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Line family: 0 = "\\" (down-right), 1 = "/" (same GF1 letter), 2 = horizontal.
    pub family: u8,
    /// The cells in order along the line.
    pub cells: Vec<u8>,
    /// The same cells as a bit set.
    pub mask: u128,
}

/// Every precomputed table of the board of one side length.
#[derive(Clone, Debug)]
pub struct HexGeometry {
    /// Side length `S`.
    pub side: usize,
    /// Number of board cells, `3S(S-1)+1`.
    pub cell_count: usize,
    /// `(r, x)` of each cell.
    pub cell_coords: Vec<(i32, i32)>,
    /// `(r, x)` of each dot.
    pub dot_coords: Vec<(i32, i32)>,
    /// GF1 name of each cell.
    pub cell_names: Vec<String>,
    /// GF1 name of each dot.
    pub dot_names: Vec<String>,
    /// Board text rows: the cells of each of the `2S-1` rows, left to right.
    pub rows: Vec<Vec<u8>>,
    /// Every line of every family, "\\" first, then "/", then horizontal; within a family in
    /// reading order of the first cell.
    pub lines: Vec<Line>,
    /// The `12S-6` pushes in the official generation order (edge cells clockwise from the
    /// top-left corner; per cell the dots in the direction order E, SE, SW, W, NW, NE).
    pub pushes: Vec<Push>,
    /// For each cell, the indices into `lines` of its three lines.
    pub lines_of_cell: Vec<[u16; 3]>,
    /// For each cell, the cell sets of its three lines (as `lines_of_cell`).
    pub line_masks_of_cell: Vec<[u128; 3]>,
    grid: Vec<Vec<Option<Point>>>,
}

static TABLES: [OnceLock<HexGeometry>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];

/// The windows of `K` consecutive cells on the lines of one board (a row of `K` pieces of one
/// colour covers exactly one of them), built once per `(S, K)` on first use
/// ([`Windows::get`]).
///
/// For S = 4: 48 windows for K = 4 (the 21 lines are 4 to 7 cells long), 69 for K = 3.
#[derive(Clone, Debug)]
pub struct Windows {
    /// Side length `S`.
    pub side: usize,
    /// Window length `K`.
    pub k: usize,
    /// Every window as a cell set: lines in [`HexGeometry::lines`] order, along each line.
    pub masks: Vec<u128>,
    /// The line (index into [`HexGeometry::lines`]) of each window.
    pub line_of: Vec<u16>,
    /// The windows through each cell, flattened: cell `c`'s are
    /// `through[through_start[c]..through_start[c + 1]]` (at most `3K`).
    pub through: Vec<u128>,
    /// Offsets into `through`, one per cell plus one.
    pub through_start: Vec<u32>,
}

/// Window tables by side and by `K` up to `2S` (from `2S` on, longer than every line: empty).
static WINDOWS: [[OnceLock<Windows>; 2 * MAX_SIDE + 1]; MAX_SIDE + 1] =
    [const { [const { OnceLock::new() }; 2 * MAX_SIDE + 1] }; MAX_SIDE + 1];

impl Windows {
    /// The windows of `k` cells on the board of side `side`, built on first use. A `k` longer
    /// than every line (or 0) has no windows.
    ///
    /// # Panics
    /// If `side` is outside `MIN_SIDE..=MAX_SIDE`.
    pub fn get(side: usize, k: usize) -> &'static Windows {
        let geo = HexGeometry::get(side);
        // Every k above the longest line (2S - 1) has the same empty table.
        let k = k.min(2 * side);
        WINDOWS[side][k].get_or_init(|| Windows::build(geo, k))
    }

    fn build(geo: &HexGeometry, k: usize) -> Windows {
        let mut masks = Vec::new();
        let mut line_of = Vec::new();
        if k > 0 {
            for (li, line) in geo.lines.iter().enumerate() {
                for w in line.cells.windows(k) {
                    masks.push(w.iter().fold(0u128, |m, &c| m | 1 << c));
                    line_of.push(li as u16);
                }
            }
        }
        let mut through = Vec::new();
        let mut through_start = vec![0u32];
        for cell in 0..geo.cell_count {
            through.extend(masks.iter().copied().filter(|&m| m >> cell & 1 == 1));
            through_start.push(through.len() as u32);
        }
        Windows { side: geo.side, k, masks, line_of, through, through_start }
    }

    /// The windows through `cell`.
    #[inline]
    pub fn through_cell(&self, cell: usize) -> &[u128] {
        &self.through[self.through_start[cell] as usize..self.through_start[cell + 1] as usize]
    }

    /// Whether some window through `cell` lies inside `set`.
    #[inline]
    pub fn full_through(&self, cell: usize, set: u128) -> bool {
        for &w in self.through_cell(cell) {
            if set & w == w {
                return true;
            }
        }
        false
    }
}

/// Number of points in row `r` of the dot grid.
fn row_len(side: i32, r: i32) -> i32 {
    side + 1 + r.min(2 * side - r)
}

impl HexGeometry {
    /// The geometry of side `side`, built on first use.
    ///
    /// # Panics
    /// If `side` is outside `MIN_SIDE..=MAX_SIDE`.
    pub fn get(side: usize) -> &'static HexGeometry {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&side), "unsupported side {side}");
        TABLES[side].get_or_init(|| HexGeometry::build(side))
    }

    fn build(side: usize) -> HexGeometry {
        let s = i32::try_from(side).expect("small side");
        let width = (4 * s + 1) as usize;
        let mut grid = vec![vec![None; width]; (2 * s + 1) as usize];
        let mut geo = HexGeometry {
            side,
            cell_count: 0,
            cell_coords: Vec::new(),
            dot_coords: Vec::new(),
            cell_names: Vec::new(),
            dot_names: Vec::new(),
            rows: Vec::new(),
            lines: Vec::new(),
            pushes: Vec::new(),
            lines_of_cell: Vec::new(),
            line_masks_of_cell: Vec::new(),
            grid: Vec::new(),
        };
        for r in 0..=2 * s {
            let len = row_len(s, r);
            let mut row = Vec::new();
            for p in 0..len {
                let x = (r - s).abs() + 2 * p;
                let c = p + (r - s).max(0);
                let n = s + c.min(s) - r + 1;
                let name = format!("{}{}", (b'a' + c as u8) as char, n);
                let is_dot = r == 0 || r == 2 * s || p == 0 || p == len - 1;
                let point = if is_dot {
                    geo.dot_coords.push((r, x));
                    geo.dot_names.push(name);
                    Point::Dot((geo.dot_coords.len() - 1) as u8)
                } else {
                    geo.cell_coords.push((r, x));
                    geo.cell_names.push(name);
                    row.push((geo.cell_coords.len() - 1) as u8);
                    Point::Cell((geo.cell_coords.len() - 1) as u8)
                };
                grid[r as usize][x as usize] = Some(point);
            }
            if !row.is_empty() {
                geo.rows.push(row);
            }
        }
        geo.cell_count = geo.cell_coords.len();
        geo.grid = grid;

        // Lines: a line starts at a cell whose predecessor is not a cell.
        for (family, dir) in [(0u8, 1usize), (1, 5), (2, 0)] {
            for cell in 0..geo.cell_count {
                let (r, x) = geo.cell_coords[cell];
                let (dr, dx) = DIRECTIONS[dir];
                if matches!(geo.point_at(r - dr, x - dx), Some(Point::Cell(_))) {
                    continue;
                }
                let cells = geo.walk(cell as u8, dir);
                let mask = cells.iter().fold(0u128, |m, &c| m | 1u128 << c);
                geo.lines.push(Line { family, cells, mask });
            }
        }
        geo.lines_of_cell = vec![[0; 3]; geo.cell_count];
        geo.line_masks_of_cell = vec![[0; 3]; geo.cell_count];
        for (i, line) in geo.lines.iter().enumerate() {
            for &c in &line.cells {
                geo.lines_of_cell[c as usize][line.family as usize] = i as u16;
                geo.line_masks_of_cell[c as usize][line.family as usize] = line.mask;
            }
        }

        // Pushes, in the official order.
        for &cell in &geo.edge_cells_clockwise() {
            let (r, x) = geo.cell_coords[cell as usize];
            for (d, &(dr, dx)) in DIRECTIONS.iter().enumerate() {
                if let Some(Point::Dot(dot)) = geo.point_at(r + dr, x + dx) {
                    let direction = (d + 3) % 6;
                    let cells = geo.walk(cell, direction);
                    let mask = cells.iter().fold(0u128, |m, &c| m | 1u128 << c);
                    geo.pushes.push(Push { dot, direction: direction as u8, cells, mask });
                }
            }
        }
        geo
    }

    /// The point at `(r, x)`, if any.
    pub fn point_at(&self, r: i32, x: i32) -> Option<Point> {
        if r < 0 || x < 0 {
            return None;
        }
        *self.grid.get(r as usize)?.get(x as usize)?
    }

    /// The cells from `cell` in direction `dir` (inclusive) up to the edge.
    fn walk(&self, cell: u8, dir: usize) -> Vec<u8> {
        let (dr, dx) = DIRECTIONS[dir];
        let (mut r, mut x) = self.cell_coords[cell as usize];
        let mut out = Vec::new();
        while let Some(Point::Cell(c)) = self.point_at(r, x) {
            out.push(c);
            r += dr;
            x += dx;
        }
        out
    }

    /// The board's edge cells clockwise, starting at the top-left corner cell.
    pub fn edge_cells_clockwise(&self) -> Vec<u8> {
        let s = self.side;
        let mut out = Vec::new();
        // Top row left to right.
        out.extend(self.rows[0].iter().copied());
        // Right side top to bottom (excluding the top row).
        for row in &self.rows[1..] {
            out.push(*row.last().unwrap());
        }
        // Bottom row right to left (excluding its last cell).
        let bottom = &self.rows[2 * s - 2];
        out.extend(bottom.iter().rev().skip(1).copied());
        // Left side bottom to top (excluding the bottom and top rows).
        for row in self.rows[1..2 * s - 2].iter().rev() {
            out.push(row[0]);
        }
        out
    }

    /// The point named `name` (GF1, e.g. `e5`), if it exists.
    pub fn point_by_name(&self, name: &str) -> Option<Point> {
        let bytes = name.as_bytes();
        if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
            return None;
        }
        let letter = i32::from(bytes[0] - b'a');
        if !name[1..].bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: i32 = name[1..].parse().ok()?;
        let side = i32::try_from(self.side).expect("small side");
        if letter > 2 * side || number < 1 {
            return None;
        }
        let row = side + letter.min(side) - number + 1;
        if row < 0 || row > 2 * side {
            return None;
        }
        let pos = letter - (row - side).max(0);
        if pos < 0 || pos >= row_len(side, row) {
            return None;
        }
        self.point_at(row, (row - side).abs() + 2 * pos)
    }

    /// The name of a point.
    pub fn name(&self, point: Point) -> &str {
        match point {
            Point::Cell(c) => &self.cell_names[c as usize],
            Point::Dot(d) => &self.dot_names[d as usize],
        }
    }

    /// `(r, x)` of a point.
    pub fn coords(&self, point: Point) -> (i32, i32) {
        match point {
            Point::Cell(c) => self.cell_coords[c as usize],
            Point::Dot(d) => self.dot_coords[d as usize],
        }
    }

    /// The direction index from `a` to its neighbour `b`, if they are neighbours.
    pub fn direction_between(&self, a: Point, b: Point) -> Option<usize> {
        let (ra, xa) = self.coords(a);
        let (rb, xb) = self.coords(b);
        DIRECTIONS.iter().position(|&(dr, dx)| ra + dr == rb && xa + dx == xb)
    }

    /// The push starting on `dot` in direction `dir`, by index into `pushes`.
    pub fn push_index(&self, dot: u8, dir: usize) -> Option<usize> {
        self.pushes.iter().position(|p| p.dot == dot && p.direction as usize == dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_for_every_side() {
        for s in MIN_SIDE..=MAX_SIDE {
            let g = HexGeometry::get(s);
            assert_eq!(g.cell_count, 3 * s * (s - 1) + 1);
            assert_eq!(g.pushes.len(), 12 * s - 6);
            assert_eq!(g.dot_coords.len(), 6 * s);
            assert_eq!(g.edge_cells_clockwise().len(), 6 * (s - 1));
            assert_eq!(g.lines.len(), 3 * (2 * s - 1));
            for (cell, lines) in g.lines_of_cell.iter().enumerate() {
                for (f, &l) in lines.iter().enumerate() {
                    assert_eq!(g.lines[l as usize].family as usize, f);
                    assert!(g.lines[l as usize].cells.contains(&(cell as u8)));
                }
            }
            for (i, row) in g.rows.iter().enumerate() {
                assert_eq!(row.len(), s + i.min(2 * s - 2 - i));
            }
        }
    }

    /// Naive construction: every pair of cells at unit distance in a direction is consecutive
    /// in exactly one line, and each name round-trips.
    #[test]
    fn lines_match_naive_adjacency() {
        for s in MIN_SIDE..=MAX_SIDE {
            let g = HexGeometry::get(s);
            let mut pairs = 0;
            for a in 0..g.cell_count {
                for b in 0..g.cell_count {
                    let (ra, xa) = g.cell_coords[a];
                    let (rb, xb) = g.cell_coords[b];
                    if [(0, 2), (1, 1), (1, -1)].contains(&(rb - ra, xb - xa)) {
                        pairs += 1;
                    }
                }
                let name = &g.cell_names[a];
                assert_eq!(g.point_by_name(name), Some(Point::Cell(a as u8)));
            }
            let consecutive: usize = g.lines.iter().map(|l| l.cells.len() - 1).sum();
            assert_eq!(pairs, consecutive);
        }
    }

    /// The windows of every `(S, K)` against a construction from coordinates only: from every
    /// cell, `K - 1` unit steps E, SE or NE that stay on the board.
    #[test]
    fn windows_match_naive_construction() {
        for s in MIN_SIDE..=MAX_SIDE {
            let g = HexGeometry::get(s);
            for k in 1..=2 * s + 1 {
                let mut naive = Vec::new();
                for cell in 0..g.cell_count {
                    let (r, x) = g.cell_coords[cell];
                    for (dr, dx) in [(0, 2), (1, 1), (-1, 1)] {
                        let mut mask = 0u128;
                        for i in 0..k as i32 {
                            if let Some(Point::Cell(c)) = g.point_at(r + i * dr, x + i * dx) {
                                mask |= 1 << c;
                            } else {
                                mask = 0;
                                break;
                            }
                        }
                        if mask != 0 {
                            naive.push(mask);
                        }
                    }
                }
                let w = Windows::get(s, k);
                assert_eq!(w.k, k.min(2 * s), "S={s} K={k}");
                let mut table = w.masks.clone();
                table.sort_unstable();
                naive.sort_unstable();
                assert_eq!(table, naive, "S={s} K={k}");
                // Sum over the lines of (length - K + 1), where positive.
                let count: usize =
                    g.lines.iter().map(|l| (l.cells.len() + 1).saturating_sub(k)).sum();
                assert_eq!(w.masks.len(), count);
                for (i, &m) in w.masks.iter().enumerate() {
                    assert_eq!(m & !g.lines[w.line_of[i] as usize].mask, 0);
                }
                for cell in 0..g.cell_count {
                    let mut through: Vec<u128> = w.through_cell(cell).to_vec();
                    let mut expect: Vec<u128> =
                        naive.iter().copied().filter(|&m| m >> cell & 1 == 1).collect();
                    through.sort_unstable();
                    expect.sort_unstable();
                    assert_eq!(through, expect, "S={s} K={k} cell {cell}");
                    assert!(through.len() <= 3 * k);
                }
            }
        }
        assert_eq!(Windows::get(4, 4).masks.len(), 48);
        assert_eq!(Windows::get(4, 3).masks.len(), 69);
        assert!(Windows::get(2, 100).masks.is_empty());
    }

    #[test]
    fn official_push_order_s2_and_s4() {
        let name = |g: &HexGeometry, p: &Push| {
            format!("{}-{}", g.dot_names[p.dot as usize], g.cell_names[p.cells[0] as usize])
        };
        let g = HexGeometry::get(2);
        let got: Vec<String> = g.pushes.iter().map(|p| name(g, p)).collect();
        assert_eq!(
            got.join(" "),
            "a2-b3 a3-b3 b4-b3 d4-c4 b4-c4 c5-c4 e3-d3 e2-d3 d4-d3 e2-d2 e1-d2 d1-d2 d1-c2 \
             c1-c2 b1-c2 b1-b2 a1-b2 a2-b2"
        );
        let g = HexGeometry::get(4);
        let got: Vec<String> = g.pushes.iter().map(|p| name(g, p)).collect();
        assert_eq!(
            got.join(" "),
            "a4-b5 a5-b5 b6-b5 b6-c6 c7-c6 c7-d7 d8-d7 f8-e8 d8-e8 e9-e8 g7-f7 f8-f7 h6-g6 \
             g7-g6 i5-h5 i4-h5 h6-h5 i4-h4 i3-h4 i3-h3 i2-h3 i2-h2 i1-h2 h1-h2 h1-g2 g1-g2 \
             g1-f2 f1-f2 f1-e2 e1-e2 d1-e2 d1-d2 c1-d2 c1-c2 b1-c2 b1-b2 a1-b2 a2-b2 a2-b3 \
             a3-b3 a3-b4 a4-b4"
        );
    }
}
