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

/// Dense ids by perfect ranking: a placement's index is the mixed-radix combination of each
/// type's colex rank among all squares (placements with two pieces on a square are never
/// indexed). Used when that index space is small enough for an array of ids; replaces hashing
/// by one array access.
#[derive(Clone, Debug)]
pub struct Ranker {
    binom: Vec<[u64; 19]>,
    strides: [u64; 5],
    space: u64,
}

/// Largest index space (entries of 4 bytes) given an array of ids.
pub const DENSE_LIMIT: u64 = 1 << 29;

impl Ranker {
    /// A ranker for `squares` squares and `counts` pieces per type, if the space fits
    /// [`DENSE_LIMIT`].
    pub fn new(squares: u32, counts: &[u8; 5]) -> Option<Ranker> {
        let mut binom = vec![[0u64; 19]; squares as usize + 1];
        for n in 0..=squares as usize {
            binom[n][0] = 1;
            for k in 1..19 {
                binom[n][k] =
                    if n == 0 { 0 } else { binom[n - 1][k - 1].saturating_add(binom[n - 1][k]) };
            }
        }
        let mut strides = [0u64; 5];
        let mut space: u64 = 1;
        for t in 0..5 {
            strides[t] = space;
            space = space.checked_mul(binom[squares as usize][counts[t] as usize])?;
        }
        (space <= DENSE_LIMIT).then_some(Ranker { binom, strides, space })
    }

    /// The index of a placement.
    #[inline]
    pub fn rank(&self, pl: &Placement) -> u64 {
        let mut r = 0;
        for (t, &bb) in pl.iter().enumerate() {
            let mut set = bb;
            let mut i = 1;
            let mut c = 0;
            while set != 0 {
                c += self.binom[set.trailing_zeros() as usize][i];
                set &= set - 1;
                i += 1;
            }
            r += c * self.strides[t];
        }
        r
    }
}

/// Key to id: an array over ranks, or a hash map.
enum Index {
    Dense(Ranker, Vec<u32>),
    Hash(KeyMap),
}

impl Index {
    #[inline]
    fn get(&self, key: u128, pl: &Placement) -> Option<u32> {
        match self {
            Index::Dense(r, ids) => Some(ids[r.rank(pl) as usize]).filter(|&id| id != NONE_ID),
            Index::Hash(map) => map.get(&key).copied(),
        }
    }

    /// The id of `key`, inserting `next` if it has none.
    #[inline]
    fn get_or_insert(&mut self, key: u128, counts: [u8; 5], next: u32) -> u32 {
        match self {
            Index::Dense(r, ids) => {
                let slot = &mut ids[r.rank(&decode(key, &counts)) as usize];
                if *slot == NONE_ID {
                    *slot = next;
                }
                *slot
            }
            Index::Hash(map) => *map.entry(key).or_insert(next),
        }
    }
}

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
pub fn enumerate<S: std::hash::BuildHasher + Sync>(
    board: &Board,
    start: &Placement,
    excluded: &HashSet<u128, S>,
    max_positions: usize,
) -> Result<Enumerated, String> {
    let counts = super::board::counts(start);
    let start_key = encode(start);
    let mut map = if let Some(r) = Ranker::new(board.squares(), &counts) {
        let mut ids = vec![NONE_ID; r.space as usize];
        ids[r.rank(start) as usize] = 0;
        Index::Dense(r, ids)
    } else {
        let mut m = KeyMap::default();
        m.insert(start_key, 0);
        Index::Hash(m)
    };
    let mut keys = vec![start_key];
    let mut offsets = vec![0u64];
    let mut targets: Vec<u32> = Vec::new();
    let mut lo = 0;
    while lo < keys.len() {
        let hi = keys.len();
        let level = &keys[lo..hi];
        let chunk_size = (level.len() / (4 * rayon::current_num_threads())).clamp(64, 8192);
        let parts: Vec<LevelPart> = level
            .par_chunks(chunk_size)
            .map(|chunk| {
                let mut degrees = Vec::with_capacity(chunk.len());
                let mut out = Vec::with_capacity(chunk.len() * 8);
                let mut fresh = Vec::new();
                for &k in chunk {
                    let before = out.len();
                    board.for_each_child(&decode(k, &counts), |_, child| {
                        let ck = encode(child);
                        if let Some(id) = map.get(ck, child) {
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
                let id = map.get_or_insert(ck, counts, next);
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

/// What one chunk of a BFS level produces: degrees, adjacency (new keys as placeholders), and
/// the new keys with their places in the adjacency.
type LevelPart = (Vec<u32>, Vec<u32>, Vec<(u32, u128)>);

/// Placeholder for an id not yet assigned.
const NONE_ID: u32 = u32::MAX;
