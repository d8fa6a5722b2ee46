//! Undirected graphs in compressed sparse row (CSR) form, and algorithms on them
//! ([`matching`]: maximum matching on general graphs).
//!
//! Solvers that see a game as a graph of positions (undirected vertex geography) build a
//! [`PositionGraph`] through [`crate::capability::GraphGame`].

pub mod matching;

/// "No vertex": the value of an absent mate, parent or id.
pub const NONE: u32 = u32::MAX;

/// An undirected graph with vertices `0..n`: each edge `{u, v}` is stored twice, once in the
/// list of `u` and once in that of `v`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    offsets: Vec<u64>,
    targets: Vec<u32>,
}

impl Csr {
    /// A graph from its adjacency lists (every edge must appear in both lists).
    pub fn from_lists(lists: &[Vec<u32>]) -> Self {
        let mut offsets = Vec::with_capacity(lists.len() + 1);
        offsets.push(0);
        let mut targets = Vec::new();
        for list in lists {
            targets.extend_from_slice(list);
            offsets.push(targets.len() as u64);
        }
        Csr { offsets, targets }
    }

    /// A graph from raw CSR arrays: the neighbours of `v` are `targets[offsets[v]..offsets[v+1]]`.
    ///
    /// # Errors
    /// When the arrays are inconsistent (offsets not starting at 0, decreasing, not ending at
    /// `targets.len()`, or a target out of range).
    pub fn from_parts(offsets: Vec<u64>, targets: Vec<u32>) -> Result<Self, String> {
        if offsets.first() != Some(&0) || offsets.last() != Some(&(targets.len() as u64)) {
            return Err("CSR offsets must run from 0 to the number of targets".into());
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err("CSR offsets must not decrease".into());
        }
        let n = offsets.len() - 1;
        if targets.iter().any(|&t| t as usize >= n) {
            return Err("CSR target out of range".into());
        }
        Ok(Csr { offsets, targets })
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of undirected edges (half the stored adjacency entries).
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// The neighbours of `v`.
    #[inline]
    pub fn neighbors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// Bytes held by the two arrays.
    pub fn memory_bytes(&self) -> usize {
        self.offsets.len() * 8 + self.targets.len() * 4
    }
}

/// The graph of positions reachable from a root, for games that are undirected vertex
/// geography: moves are reversible and a position may not be entered twice.
#[derive(Clone, Debug)]
pub struct PositionGraph<M> {
    /// The component of the root.
    pub graph: Csr,
    /// The root's vertex id.
    pub root: u32,
    /// The root's legal moves with the vertex each one leads to.
    pub root_moves: Vec<(u32, M)>,
}
