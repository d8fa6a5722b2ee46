//! Random graphs: the contest's generator (degrees 3..7, connected, exactly `floor(sum/2)`
//! edges) and small uniform graphs for tests.
//!
//! The contest generator follows the reference server's description (see the spec): every
//! vertex draws a target degree uniformly in `3..=7` (capped at `n - 1`); edges are then added
//! one at a time, choosing among the pairs `{i, j}` that are not yet adjacent and both still have
//! a remaining degree `r_i, r_j > 0`, with weight `r_i * r_j * (1 - d_i * d_j / (4m))`
//! (Bayati, Kim and Saberi 2010, "A sequential algorithm for generating random graphs"), where
//! `d` are the target degrees and `m = floor(sum d / 2)`. A draw is accepted iff it ends with
//! exactly `m` edges and is connected; otherwise it starts over. Everything comes from one seed.

use super::graph::{Graph, GraphError};
use crate::zobrist::KeyStream;

/// Smallest graph the contest generator makes (a vertex needs 3 distinct neighbours and the
/// degree draw must be satisfiable often enough).
pub const MIN_CONTEST_VERTICES: usize = 8;

/// A uniform random number in `0..k` (`k > 0`).
pub fn below(rng: &mut KeyStream, k: u64) -> u64 {
    // Multiply-shift: unbiased enough for games, and never divides by zero for k > 0.
    ((u128::from(rng.next_key()) * u128::from(k)) >> 64) as u64
}

/// A uniform random float in `[0, 1)`.
fn unit(rng: &mut KeyStream) -> f64 {
    (rng.next_key() >> 11) as f64 / (1u64 << 53) as f64
}

/// A contest graph on `n` vertices from `seed`.
///
/// # Errors
/// When `n` is below [`MIN_CONTEST_VERTICES`] or above the vertex limit, or (never seen) no
/// draw is accepted after many attempts.
pub fn contest_graph(n: usize, seed: u64) -> Result<Graph, GraphError> {
    if !(MIN_CONTEST_VERTICES..=super::graph::MAX_VERTICES).contains(&n) {
        return Err(GraphError(format!(
            "contest graphs have {MIN_CONTEST_VERTICES} to {} vertices, not {n}",
            super::graph::MAX_VERTICES
        )));
    }
    let mut rng = KeyStream::new(seed ^ 0x6E0_6AF1);
    for _ in 0..10_000 {
        if let Some(edges) = draw(n, &mut rng) {
            let graph = Graph::new(n, &edges)?;
            if graph.is_connected() {
                return Ok(graph);
            }
        }
    }
    Err(GraphError(format!("no connected graph on {n} vertices accepted")))
}

/// One sequential draw; `None` when it gets stuck before `m` edges.
fn draw(n: usize, rng: &mut KeyStream) -> Option<Vec<(u8, u8)>> {
    let max_degree = 7.min(n as u64 - 1);
    let target: Vec<u64> = (0..n).map(|_| 3 + below(rng, max_degree - 2)).collect();
    let m = (target.iter().sum::<u64>() / 2) as usize;
    let mut left = target.clone();
    let mut adjacent = vec![0u128; n];
    let mut edges = Vec::with_capacity(m);
    let mut pairs: Vec<(usize, usize, f64)> = Vec::new();
    while edges.len() < m {
        pairs.clear();
        let mut total = 0.0;
        for i in 0..n {
            if left[i] == 0 {
                continue;
            }
            for j in i + 1..n {
                if left[j] == 0 || adjacent[i] >> j & 1 != 0 {
                    continue;
                }
                let dd = (target[i] * target[j]) as f64;
                let w = ((left[i] * left[j]) as f64 * (1.0 - dd / (4.0 * m as f64))).max(1e-9);
                total += w;
                pairs.push((i, j, w));
            }
        }
        if pairs.is_empty() {
            return None;
        }
        let mut point = unit(rng) * total;
        let mut chosen = pairs[pairs.len() - 1];
        for &p in &pairs {
            if point < p.2 {
                chosen = p;
                break;
            }
            point -= p.2;
        }
        let (i, j, _) = chosen;
        adjacent[i] |= 1 << j;
        adjacent[j] |= 1 << i;
        left[i] -= 1;
        left[j] -= 1;
        edges.push((i as u8, j as u8));
    }
    Some(edges)
}

/// A uniform random graph for tests: each of the `n (n-1) / 2` pairs is an edge with
/// probability `percent / 100`, edges in random order.
pub fn random_graph(n: usize, percent: u64, rng: &mut KeyStream) -> Graph {
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if below(rng, 100) < percent {
                edges.push(if below(rng, 2) == 0 {
                    (i as u8, j as u8)
                } else {
                    (j as u8, i as u8)
                });
            }
        }
    }
    for k in (1..edges.len()).rev() {
        let r = below(rng, k as u64 + 1) as usize;
        edges.swap(k, r);
    }
    Graph::new(n, &edges).expect("a random simple graph is valid")
}

/// A random bipartite graph for tests: sides of `left` and `right` vertices (interleaved
/// numbering), each cross pair an edge with probability `percent / 100`.
pub fn random_bipartite(left: usize, right: usize, percent: u64, rng: &mut KeyStream) -> Graph {
    let n = left + right;
    let mut side: Vec<bool> = (0..n).map(|i| i < left).collect();
    for k in (1..n).rev() {
        let r = below(rng, k as u64 + 1) as usize;
        side.swap(k, r);
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if side[i] != side[j] && below(rng, 100) < percent {
                edges.push((i as u8, j as u8));
            }
        }
    }
    Graph::new(n, &edges).expect("a random simple graph is valid")
}

/// A random sparse graph for tests, rich in bridges and cycles: a random spanning tree on `n`
/// vertices plus `extra` random further edges (fewer if the graph fills up), vertices and edges
/// in random order.
pub fn random_sparse(n: usize, extra: usize, rng: &mut KeyStream) -> Graph {
    let mut label: Vec<u8> = (0..n as u8).collect();
    for k in (1..n).rev() {
        let r = below(rng, k as u64 + 1) as usize;
        label.swap(k, r);
    }
    let mut adjacent = vec![0u128; n];
    let mut edges = Vec::new();
    let mut add = |a: usize, b: usize, edges: &mut Vec<(u8, u8)>| {
        if a != b && adjacent[a] >> b & 1 == 0 {
            adjacent[a] |= 1 << b;
            adjacent[b] |= 1 << a;
            edges.push((label[a], label[b]));
        }
    };
    for v in 1..n {
        add(v, below(rng, v as u64) as usize, &mut edges);
    }
    for _ in 0..extra {
        let (a, b) = (below(rng, n as u64) as usize, below(rng, n as u64) as usize);
        add(a, b, &mut edges);
    }
    for k in (1..edges.len()).rev() {
        let r = below(rng, k as u64 + 1) as usize;
        edges.swap(k, r);
    }
    Graph::new(n, &edges).expect("a random simple graph is valid")
}

/// A random graph of forced chains for tests: `hubs` hub vertices joined by `paths` paths of
/// 1 to 4 edges between random hubs (the same pair may get several paths, a path may return to
/// its hub), each inner vertex new; at most [`super::graph::MAX_VERTICES`] vertices.
pub fn random_chains(hubs: usize, paths: usize, rng: &mut KeyStream) -> Graph {
    let mut n = hubs;
    let mut edges: Vec<(u8, u8)> = Vec::new();
    for _ in 0..paths {
        let a = below(rng, hubs as u64) as usize;
        let b = below(rng, hubs as u64) as usize;
        let len = 1 + below(rng, 4) as usize;
        let inner = if a == b { len.max(3) - 1 } else { len - 1 };
        if n + inner > super::graph::MAX_VERTICES
            || (inner == 0
                && edges.iter().any(|&e| e == (a as u8, b as u8) || e == (b as u8, a as u8)))
        {
            continue;
        }
        let mut prev = a;
        for _ in 0..inner {
            edges.push((prev as u8, n as u8));
            prev = n;
            n += 1;
        }
        edges.push((prev as u8, b as u8));
    }
    Graph::new(n.max(1), &edges).expect("paths through new vertices keep the graph simple")
}
