//! The board of undirected edge geography: a simple graph of up to [`MAX_VERTICES`] vertices
//! (adjacency rows as `u128` bit sets) and the set of its remaining edges ([`EdgeSet`]).
//!
//! Edges are numbered `0..m` in the order they were given; vertex `v`'s incident edges are kept
//! as `(neighbour, edge number)` pairs so a position can list its remaining neighbours without a
//! bit matrix of its own.

use std::fmt;

use crate::bitboard::Bitboard128;
use crate::zobrist::splitmix64;

/// A set of vertices (bit `v` = vertex `v`).
pub type Vertices = Bitboard128;

/// Most vertices a graph may have (the width of [`Vertices`]).
pub const MAX_VERTICES: usize = 128;
/// Most edges a graph may have: contest graphs (degree at most 7) have at most 448.
pub const MAX_EDGES: usize = 512;
const EDGE_WORDS: usize = MAX_EDGES / 64;

/// Why a graph was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError(pub String);

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GraphError {}

/// A set of edge numbers below [`MAX_EDGES`]: a fixed bit array, so positions stay `Copy`-cheap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EdgeSet([u64; EDGE_WORDS]);

impl EdgeSet {
    /// The set `{0, .., m-1}`.
    ///
    /// # Panics
    /// If `m > MAX_EDGES`.
    pub fn full(m: usize) -> Self {
        assert!(m <= MAX_EDGES);
        let mut words = [0u64; EDGE_WORDS];
        for (i, w) in words.iter_mut().enumerate() {
            let lo = i * 64;
            if m >= lo + 64 {
                *w = !0;
            } else if m > lo {
                *w = (1u64 << (m - lo)) - 1;
            }
        }
        EdgeSet(words)
    }

    /// Whether edge `e` is in the set.
    #[inline]
    pub fn contains(&self, e: usize) -> bool {
        self.0[e / 64] >> (e % 64) & 1 != 0
    }

    /// Removes edge `e`.
    #[inline]
    pub fn remove(&mut self, e: usize) {
        self.0[e / 64] &= !(1u64 << (e % 64));
    }

    /// Number of edges in the set.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The edge numbers in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + b)
            })
        })
    }
}

/// Zobrist key of the edge `{a, b}`. Keys depend only on the vertex pair, so the same remaining
/// edges and token hash alike whatever graph they came from (a table may be reused between
/// positions re-read from the protocol).
#[inline]
pub fn edge_key(a: u8, b: u8) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    splitmix64(0x6E06_7A9B_ED6E ^ (u64::from(lo) << 8 | u64::from(hi))).1
}

/// Zobrist key of the token on vertex `v`.
#[inline]
pub fn token_key(v: u8) -> u64 {
    splitmix64(0x7043_E2C1_0000 ^ u64::from(v)).1
}

/// An undirected simple graph (no loops, no multiple edges) on vertices `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    n: usize,
    edges: Vec<(u8, u8)>,
    adjacency: Vec<Vertices>,
    incident: Vec<Vec<(u8, u16)>>,
}

impl Graph {
    /// The graph on `n` vertices with these edges (numbered in the order given).
    ///
    /// # Errors
    /// When `n` is 0 or above [`MAX_VERTICES`], an endpoint is not below `n`, an edge is a loop
    /// or repeats another, or there are more than [`MAX_EDGES`] edges.
    pub fn new(n: usize, edges: &[(u8, u8)]) -> Result<Self, GraphError> {
        if n == 0 || n > MAX_VERTICES {
            return Err(GraphError(format!("a graph has 1 to {MAX_VERTICES} vertices, not {n}")));
        }
        if edges.len() > MAX_EDGES {
            return Err(GraphError(format!(
                "at most {MAX_EDGES} edges supported, got {}",
                edges.len()
            )));
        }
        let mut adjacency = vec![Vertices::EMPTY; n];
        let mut incident = vec![Vec::new(); n];
        for (i, &(a, b)) in edges.iter().enumerate() {
            if a as usize >= n || b as usize >= n {
                return Err(GraphError(format!("edge {a}-{b}: vertices are 0..{}", n - 1)));
            }
            if a == b {
                return Err(GraphError(format!("edge {a}-{b} is a loop")));
            }
            if adjacency[a as usize].contains(u32::from(b)) {
                return Err(GraphError(format!("edge {a}-{b} is given twice")));
            }
            adjacency[a as usize] = adjacency[a as usize].with(u32::from(b));
            adjacency[b as usize] = adjacency[b as usize].with(u32::from(a));
            incident[a as usize].push((b, i as u16));
            incident[b as usize].push((a, i as u16));
        }
        Ok(Graph { n, edges: edges.to_vec(), adjacency, incident })
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.n
    }

    /// The edges, by number.
    pub fn edges(&self) -> &[(u8, u8)] {
        &self.edges
    }

    /// The neighbours of `v` in the full graph.
    pub fn adjacency(&self, v: u8) -> Vertices {
        self.adjacency[v as usize]
    }

    /// `(neighbour, edge number)` for every edge at `v`.
    pub fn incident(&self, v: u8) -> &[(u8, u16)] {
        &self.incident[v as usize]
    }

    /// The number of the edge `{a, b}`, if the graph has it.
    pub fn edge_between(&self, a: u8, b: u8) -> Option<usize> {
        if a as usize >= self.n {
            return None;
        }
        self.incident[a as usize].iter().find(|&&(w, _)| w == b).map(|&(_, e)| e as usize)
    }

    /// Whether the graph (all its vertices) is connected.
    pub fn is_connected(&self) -> bool {
        let mut seen = Vertices::from_cell(0);
        let mut frontier = seen;
        while let Some(v) = frontier.pop_first() {
            let new = self.adjacency[v as usize].difference(seen);
            seen = seen.union(new);
            frontier = frontier.union(new);
        }
        seen.count() as usize == self.n
    }
}
