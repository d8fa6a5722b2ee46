//! Breadth-first enumeration of the position graph from a start placement: dense ids in BFS
//! order, packed keys, CSR adjacency.
//!
//! Each BFS level generates its children in parallel (rayon) and drops those already known with
//! lock-free reads of the map; only the insertion of new keys is sequential. The edges are built
//! in a second parallel pass (movegen again, look-ups only).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use super::board::{Board, Placement, decode, encode};
use crate::graph::Csr;

/// A fast hasher for packed keys (multiply and fold; keys are already well spread).
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3).rotate_left(5);
        }
    }
    #[inline]
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = x ^ (x >> 32);
    }
}

/// Map from packed key to dense id.
pub type KeyMap = HashMap<u128, u32, BuildHasherDefault<KeyHasher>>;

/// The enumerated component.
#[derive(Clone, Debug)]
pub struct Enumerated {
    /// Packed key of each vertex id (BFS order; id 0 is the start).
    pub keys: Vec<u128>,
    /// Adjacency.
    pub graph: Csr,
}

/// Rough bytes per position of enumeration plus matching (key, map entry, CSR offset, matching
/// arrays), excluding edges.
pub const BYTES_PER_POSITION: u64 = 16 + 64 + 8 + 30;
/// Bytes per adjacency entry (each edge is stored twice).
pub const BYTES_PER_ARC: u64 = 4;

/// An upper bound on the positions of an instance: the number of arrangements of its pieces on
/// the squares they can ever stand on (saturating).
pub fn position_bound(board: &Board, start: &Placement) -> u128 {
    let occupied = start.iter().fold(0, |a, b| a | b);
    let free = u128::from(
        board.squares() - board.holes().count_ones() + (occupied & board.holes()).count_ones(),
    );
    let mut bound: u128 = 1;
    let mut left = free;
    for bb in start {
        let k = u128::from(bb.count_ones());
        // C(left, k)
        let mut c: u128 = 1;
        for i in 0..k {
            c = c.saturating_mul(left.saturating_sub(i)) / (i + 1);
        }
        bound = bound.saturating_mul(c);
        left = left.saturating_sub(k);
    }
    bound
}

/// Enumerates the component of `start`, leaving out the positions in `excluded` (already
/// visited in a game in progress).
///
/// # Errors
/// When the component has more than `max_positions` positions.
pub fn enumerate(
    board: &Board,
    start: &Placement,
    excluded: &HashSet<u128>,
    max_positions: usize,
) -> Result<Enumerated, String> {
    let counts = super::board::counts(start);
    let start_key = encode(start);
    let mut map = KeyMap::default();
    map.insert(start_key, 0);
    let mut keys = vec![start_key];
    let mut lo = 0;
    while lo < keys.len() {
        let hi = keys.len();
        let level = &keys[lo..hi];
        let found: Vec<Vec<u128>> = level
            .par_chunks(2048)
            .map(|chunk| {
                let mut out = Vec::new();
                for &k in chunk {
                    let pl = decode(k, &counts);
                    board.for_each_child(&pl, |_, child| {
                        let ck = encode(child);
                        if !map.contains_key(&ck) && !excluded.contains(&ck) {
                            out.push(ck);
                        }
                    });
                }
                out
            })
            .collect();
        for ck in found.into_iter().flatten() {
            if let std::collections::hash_map::Entry::Vacant(e) = map.entry(ck) {
                if keys.len() >= max_positions {
                    return Err(format!(
                        "more than {max_positions} positions (raise --max-positions)"
                    ));
                }
                e.insert(keys.len() as u32);
                keys.push(ck);
            }
        }
        lo = hi;
    }
    let graph = build_edges(board, &keys, &map, &counts);
    Ok(Enumerated { keys, graph })
}

/// The CSR adjacency of the enumerated vertices.
fn build_edges(board: &Board, keys: &[u128], map: &KeyMap, counts: &[u8; 5]) -> Csr {
    let parts: Vec<(Vec<u32>, Vec<u32>)> = keys
        .par_chunks(4096)
        .map(|chunk| {
            let mut degrees = Vec::with_capacity(chunk.len());
            let mut targets = Vec::new();
            for &k in chunk {
                let before = targets.len();
                board.for_each_child(&decode(k, counts), |_, child| {
                    if let Some(&id) = map.get(&encode(child)) {
                        targets.push(id);
                    }
                });
                degrees.push((targets.len() - before) as u32);
            }
            (degrees, targets)
        })
        .collect();
    let total: usize = parts.iter().map(|p| p.1.len()).sum();
    let mut offsets = Vec::with_capacity(keys.len() + 1);
    let mut targets = Vec::with_capacity(total);
    offsets.push(0u64);
    for (degrees, t) in parts {
        for d in degrees {
            offsets.push(offsets.last().unwrap() + u64::from(d));
        }
        targets.extend_from_slice(&t);
    }
    Csr::from_parts(offsets, targets).expect("consistent CSR")
}
