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
/// One pass: vertices are expanded in id (BFS) order, so each expansion appends the vertex's
/// complete adjacency list to the CSR arrays. Within a BFS level the children are generated and
/// looked up in parallel; keys not yet known are inserted sequentially afterwards and their ids
/// patched in.
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
    let mut offsets = vec![0u64];
    let mut targets: Vec<u32> = Vec::new();
    let mut lo = 0;
    while lo < keys.len() {
        let hi = keys.len();
        let level = &keys[lo..hi];
        let chunk_size = (level.len() / (4 * rayon::current_num_threads())).clamp(64, 8192);
        let parts: Vec<(Vec<u32>, Vec<u32>, Vec<(u32, u128)>)> = level
            .par_chunks(chunk_size)
            .map(|chunk| {
                let mut degrees = Vec::with_capacity(chunk.len());
                let mut out = Vec::with_capacity(chunk.len() * 8);
                let mut fresh = Vec::new();
                for &k in chunk {
                    let before = out.len();
                    board.for_each_child(&decode(k, &counts), |_, child| {
                        let ck = encode(child);
                        if let Some(&id) = map.get(&ck) {
                            out.push(id);
                        } else if !excluded.contains(&ck) {
                            fresh.push((out.len() as u32, ck));
                            out.push(NONE_ID);
                        }
                    });
                    degrees.push((out.len() - before) as u32);
                }
                (degrees, out, fresh)
            })
            .collect();
        for (degrees, mut out, fresh) in parts {
            for (at, ck) in fresh {
                let next = keys.len() as u32;
                let id = *map.entry(ck).or_insert(next);
                if id == next {
                    if keys.len() >= max_positions {
                        return Err(format!(
                            "more than {max_positions} positions (raise --max-positions)"
                        ));
                    }
                    keys.push(ck);
                }
                out[at as usize] = id;
            }
            for d in degrees {
                offsets.push(offsets.last().unwrap() + u64::from(d));
            }
            targets.extend_from_slice(&out);
        }
        lo = hi;
    }
    drop(map);
    let graph = Csr::from_parts(offsets, targets).expect("consistent CSR");
    Ok(Enumerated { keys, graph })
}

/// Placeholder for an id not yet assigned.
const NONE_ID: u32 = u32::MAX;
