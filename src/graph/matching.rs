//! Maximum matching on general (non-bipartite) graphs: Edmonds' blossom algorithm, iterative.
//!
//! The implementation grows one alternating tree at a time (breadth first) from an exposed
//! vertex, shrinking odd cycles (blossoms) into their base with a union-find structure instead of
//! rewriting every vertex's base. Nothing recurses, so graphs of 10^7 vertices are fine. Speed:
//! - a greedy initial matching leaves few exposed vertices to search from;
//! - per-search state is reset through the list of vertices the search touched, so a small search
//!   costs little even in a huge graph;
//! - a search that fails leaves a Hungarian tree, whose vertices are deleted for every later
//!   search (Edmonds: a maximum matching of the rest plus the tree's matching edges is maximum).
//!
//! On top of a maximum matching `M`:
//! - [`covered_by_every_maximum_matching`] decides `nu(G - v) < nu(G)` with one extra search
//!   (`v` exposed: no; else delete `v` and search from its mate);
//! - [`gallai_edmonds`] classifies every vertex at once: `D` (missed by some maximum matching:
//!   reachable from an exposed vertex by an even alternating path), `A` (neighbours of `D`
//!   outside it) and `C` (the rest), with one forest search from all exposed vertices.
//!
//! ```
//! use bitsolve::graph::Csr;
//! use bitsolve::graph::matching::{maximum_matching, covered_by_every_maximum_matching};
//! // A path 0-1-2: nu = 1; the middle vertex is in every maximum matching, the ends are not.
//! let g = Csr::from_lists(&[vec![1], vec![0, 2], vec![1]]);
//! let m = maximum_matching(&g);
//! assert_eq!(m.size(), 1);
//! assert!(covered_by_every_maximum_matching(&g, &m, 1));
//! assert!(!covered_by_every_maximum_matching(&g, &m, 0));
//! ```

#![allow(clippy::many_single_char_names)] // graph and board notation: g, m, n, u, v, w

use super::{Csr, NONE};

/// A matching: each vertex's mate or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matching {
    mate: Vec<u32>,
    size: usize,
}

impl Matching {
    /// The mate of `v`, if `v` is matched.
    #[inline]
    pub fn mate(&self, v: u32) -> Option<u32> {
        let m = self.mate[v as usize];
        (m != NONE).then_some(m)
    }

    /// Number of matching edges.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is a matching of `g`: mates are symmetric and joined by edges of `g`.
    pub fn is_valid_for(&self, g: &Csr) -> bool {
        if self.mate.len() != g.vertex_count() {
            return false;
        }
        let mut count = 0;
        for (v, &m) in self.mate.iter().enumerate() {
            if m == NONE {
                continue;
            }
            if self.mate[m as usize] != v as u32 || !g.neighbors(v as u32).contains(&m) {
                return false;
            }
            count += 1;
        }
        count == 2 * self.size
    }
}

/// The Gallai-Edmonds class of a vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GallaiEdmonds {
    /// Missed by some maximum matching (`nu(G - v) = nu(G)`).
    D,
    /// Not in `D`, adjacent to `D`.
    A,
    /// Neither: covered by every maximum matching, no neighbour in `D`.
    C,
}

/// The state of the alternating-tree search, reused across searches.
struct Forest<'g> {
    g: &'g Csr,
    mate: Vec<u32>,
    /// Odd vertices: the even vertex they were reached from. Even vertices inside a blossom: the
    /// vertex across the edge that closed it (so augmenting paths can go round the blossom).
    parent: Vec<u32>,
    /// Union-find over blossoms; a set's representative is its base.
    base: Vec<u32>,
    even: Vec<bool>,
    dead: Vec<bool>,
    mark: Vec<u32>,
    mark_stamp: u32,
    touched: Vec<u32>,
    queue: Vec<u32>,
    pending: Vec<u32>,
}

/// Why a forest search stopped.
enum Grown {
    /// No augmenting path: every tree is Hungarian.
    Hungarian,
    /// An augmenting path ends at this exposed vertex (parent pointers lead back to the root).
    Exposed(u32),
    /// Two trees touch (only when growing from several roots): the matching is not maximum.
    Touching,
}

impl<'g> Forest<'g> {
    fn new(g: &'g Csr, mate: Vec<u32>) -> Self {
        let n = g.vertex_count();
        Forest {
            g,
            mate,
            parent: vec![NONE; n],
            base: (0..n as u32).collect(),
            even: vec![false; n],
            dead: vec![false; n],
            mark: vec![0; n],
            mark_stamp: 0,
            touched: Vec::new(),
            queue: Vec::new(),
            pending: Vec::new(),
        }
    }

    #[inline]
    fn find(&mut self, mut v: u32) -> u32 {
        while self.base[v as usize] != v {
            let up = self.base[self.base[v as usize] as usize];
            self.base[v as usize] = up;
            v = up;
        }
        v
    }

    /// Forgets the labels of the last search (only the vertices it touched).
    fn reset(&mut self, kill: bool) {
        for &v in &self.touched {
            let v = v as usize;
            self.parent[v] = NONE;
            self.base[v] = v as u32;
            self.even[v] = false;
            if kill {
                self.dead[v] = true;
            }
        }
        self.touched.clear();
        self.queue.clear();
    }

    /// The base of the blossom where the tree paths from bases `a` and `b` meet, or `NONE` if
    /// they lie in different trees. Walks up from both alternately.
    fn lca(&mut self, a: u32, b: u32) -> u32 {
        if self.mark_stamp == u32::MAX {
            self.mark.fill(0);
            self.mark_stamp = 0;
        }
        self.mark_stamp += 1;
        let stamp = self.mark_stamp;
        let (mut x, mut y) = (a, b);
        loop {
            if x != NONE {
                if self.mark[x as usize] == stamp {
                    return x;
                }
                self.mark[x as usize] = stamp;
                x = self.up(x);
            }
            if y != NONE {
                if self.mark[y as usize] == stamp {
                    return y;
                }
                self.mark[y as usize] = stamp;
                y = self.up(y);
            }
            if x == NONE && y == NONE {
                return NONE;
            }
        }
    }

    /// The base of the blossom above blossom base `b` in its tree (`NONE` at a root).
    #[inline]
    fn up(&mut self, b: u32) -> u32 {
        let m = self.mate[b as usize];
        if m == NONE {
            return NONE;
        }
        let p = self.parent[m as usize];
        self.find(p)
    }

    /// Walks from even vertex `v` up to the blossom base `b`, pointing even vertices across the
    /// closing edge (`child` first) and queueing the odd vertices that become even.
    fn mark_path(&mut self, mut v: u32, b: u32, mut child: u32) {
        loop {
            let bv = self.find(v);
            if bv == b {
                break;
            }
            let m = self.mate[v as usize];
            let bm = self.find(m);
            self.pending.push(bv);
            self.pending.push(bm);
            if !self.even[m as usize] {
                self.even[m as usize] = true;
                self.queue.push(m);
            }
            self.parent[v as usize] = child;
            child = m;
            v = self.parent[m as usize];
        }
    }

    /// Grows alternating trees from `roots` (exposed, alive) breadth first.
    fn grow(&mut self, roots: &[u32]) -> Grown {
        for &r in roots {
            self.even[r as usize] = true;
            self.touched.push(r);
            self.queue.push(r);
        }
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &w in self.g.neighbors(v) {
                if self.dead[w as usize] || self.mate[v as usize] == w {
                    continue;
                }
                let bv = self.find(v);
                let bw = self.find(w);
                if bv == bw {
                    continue;
                }
                if self.even[w as usize] {
                    let l = self.lca(bv, bw);
                    if l == NONE {
                        return Grown::Touching;
                    }
                    self.mark_path(v, l, w);
                    self.mark_path(w, l, v);
                    while let Some(x) = self.pending.pop() {
                        let rx = self.find(x);
                        if rx != l {
                            self.base[rx as usize] = l;
                        }
                    }
                } else if self.parent[w as usize] == NONE {
                    self.parent[w as usize] = v;
                    self.touched.push(w);
                    let m = self.mate[w as usize];
                    if m == NONE {
                        return Grown::Exposed(w);
                    }
                    self.even[m as usize] = true;
                    self.touched.push(m);
                    self.queue.push(m);
                }
            }
        }
        Grown::Hungarian
    }

    /// Flips the augmenting path that ends at exposed vertex `w`.
    fn augment(&mut self, w: u32) {
        let mut v = w;
        while v != NONE {
            let pv = self.parent[v as usize];
            let next = self.mate[pv as usize];
            self.mate[v as usize] = pv;
            self.mate[pv as usize] = v;
            v = next;
        }
    }
}

/// A maximum matching of `g`.
pub fn maximum_matching(g: &Csr) -> Matching {
    let n = g.vertex_count();
    // Greedy start, vertices of small degree first within each pass.
    let mut mate = vec![NONE; n];
    for v in 0..n as u32 {
        if mate[v as usize] != NONE {
            continue;
        }
        let free = g.neighbors(v).iter().copied().filter(|&w| mate[w as usize] == NONE && w != v);
        if let Some(w) = free.min_by_key(|&w| g.neighbors(w).len()) {
            mate[v as usize] = w;
            mate[w as usize] = v;
        }
    }
    let mut forest = Forest::new(g, mate);
    for r in 0..n as u32 {
        if forest.mate[r as usize] != NONE || forest.dead[r as usize] {
            continue;
        }
        match forest.grow(&[r]) {
            Grown::Exposed(w) => {
                forest.augment(w);
                forest.reset(false);
            }
            Grown::Hungarian | Grown::Touching => forest.reset(true),
        }
    }
    let mate = forest.mate;
    let size = mate.iter().filter(|&&m| m != NONE).count() / 2;
    Matching { mate, size }
}

/// Whether every maximum matching of `g` covers `v`, i.e. `nu(g - v) < nu(g)`, given a maximum
/// matching `m` of `g`: one augmenting-path search from `v`'s mate with `v` deleted.
pub fn covered_by_every_maximum_matching(g: &Csr, m: &Matching, v: u32) -> bool {
    matching_missing(g, m, v).is_none()
}

/// A maximum matching of `g` that leaves `v` exposed, if there is one (given a maximum matching
/// `m`): `m` itself if it misses `v`, else `m` minus `v`'s edge plus the augmenting path found
/// from `v`'s mate in `g - v`. `None`: every maximum matching covers `v`.
///
/// A perfect `m` needs no search: every maximum matching is perfect and covers `v`.
pub fn matching_missing(g: &Csr, m: &Matching, v: u32) -> Option<Matching> {
    let Some(u) = m.mate(v) else { return Some(m.clone()) };
    if 2 * m.size == g.vertex_count() {
        return None;
    }
    let mut mate = m.mate.clone();
    mate[u as usize] = NONE;
    mate[v as usize] = NONE;
    let mut forest = Forest::new(g, mate);
    forest.dead[v as usize] = true;
    match forest.grow(&[u]) {
        Grown::Exposed(w) => {
            forest.augment(w);
            Some(Matching { mate: forest.mate, size: m.size })
        }
        Grown::Hungarian | Grown::Touching => None,
    }
}

/// The Gallai-Edmonds class of every vertex, given a maximum matching `m` of `g`.
///
/// # Panics
/// If `m` is not maximum (an augmenting path exists).
pub fn gallai_edmonds(g: &Csr, m: &Matching) -> Vec<GallaiEdmonds> {
    let roots: Vec<u32> = (0..g.vertex_count() as u32).filter(|&v| m.mate(v).is_none()).collect();
    let mut forest = Forest::new(g, m.mate.clone());
    let grown = forest.grow(&roots);
    assert!(matches!(grown, Grown::Hungarian), "gallai_edmonds needs a maximum matching");
    (0..g.vertex_count())
        .map(|v| {
            if forest.even[v] {
                GallaiEdmonds::D
            } else if forest.parent[v] != NONE {
                GallaiEdmonds::A
            } else {
                GallaiEdmonds::C
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zobrist::KeyStream;

    /// Maximum matching size by exhaustive search (small graphs).
    fn brute_nu(g: &Csr, removed: u64) -> usize {
        let n = g.vertex_count();
        let Some(v) = (0..n).find(|&v| removed & (1 << v) == 0) else { return 0 };
        let without = removed | (1 << v);
        let mut best = brute_nu(g, without);
        for &w in g.neighbors(v as u32) {
            if without & (1 << w) == 0 {
                best = best.max(1 + brute_nu(g, without | (1 << w)));
            }
        }
        best
    }

    fn random_graph(n: usize, density: u64, rng: &mut KeyStream) -> Csr {
        let mut lists = vec![Vec::new(); n];
        for u in 0..n {
            for v in u + 1..n {
                if rng.next_key() % 100 < density {
                    lists[u].push(v as u32);
                    lists[v].push(u as u32);
                }
            }
        }
        Csr::from_lists(&lists)
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut rng = KeyStream::new(0x5EED);
        for round in 0..3000 {
            let n = 1 + (rng.next_key() % 13) as usize;
            let density = 5 + rng.next_key() % 60;
            let g = random_graph(n, density, &mut rng);
            let m = maximum_matching(&g);
            assert!(m.is_valid_for(&g), "round {round}");
            let nu = brute_nu(&g, 0);
            assert_eq!(m.size(), nu, "round {round}: {g:?}");
            let classes = gallai_edmonds(&g, &m);
            for v in 0..n as u32 {
                let in_every = brute_nu(&g, 1 << v) < nu;
                assert_eq!(covered_by_every_maximum_matching(&g, &m, v), in_every, "round {round}");
                if let Some(other) = matching_missing(&g, &m, v) {
                    assert!(
                        other.is_valid_for(&g) && other.size() == nu && other.mate(v).is_none()
                    );
                }
                assert_eq!(classes[v as usize] != GallaiEdmonds::D, in_every, "round {round}");
                if classes[v as usize] == GallaiEdmonds::A {
                    let touches_d =
                        g.neighbors(v).iter().any(|&w| classes[w as usize] == GallaiEdmonds::D);
                    assert!(touches_d, "round {round}");
                }
            }
        }
    }

    #[test]
    fn long_odd_cycles_and_paths() {
        for n in [1usize, 2, 3, 5, 8, 101, 100_000, 100_001] {
            // A cycle of n vertices (a path for n < 3).
            let lists: Vec<Vec<u32>> = (0..n)
                .map(|v| {
                    let mut l = Vec::new();
                    if n >= 3 || v > 0 {
                        l.push(((v + n - 1) % n) as u32);
                    }
                    if n >= 3 || v + 1 < n {
                        l.push(((v + 1) % n) as u32);
                    }
                    l.sort_unstable();
                    l.dedup();
                    l
                })
                .collect();
            let g = Csr::from_lists(&lists);
            let m = maximum_matching(&g);
            assert!(m.is_valid_for(&g));
            assert_eq!(m.size(), n / 2);
        }
    }
}
