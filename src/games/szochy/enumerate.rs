//! Breadth-first enumeration of the position graph from a start placement: dense ids in BFS
//! order, packed keys, CSR adjacency.
//!
//! Each BFS level generates its children in parallel (rayon) and drops those already known with
//! lock-free reads of the map; only the insertion of new keys is sequential. The edges are built
//! in a second parallel pass (movegen again, look-ups only).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use std::sync::atomic::{AtomicU64, Ordering};

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

/// Perfect ranking of placements: a placement's index is the mixed-radix combination of each
/// type's colex rank among all squares (placements with two pieces on a square are never
/// reached). Used as an array index for ids when the space is small ([`DENSE_LIMIT`]), and as a
/// bit index of the reachable set by the ranked enumeration ([`RANK_LIMIT`]).
#[derive(Clone, Debug)]
pub struct Ranker {
    binom: Vec<[u64; 19]>,
    strides: [u64; 5],
    radix: [u64; 5],
    counts: [u8; 5],
    squares: u32,
    space: u64,
}

/// Largest index space (entries of 4 bytes) given an array of ids.
pub const DENSE_LIMIT: u64 = 1 << 29;

/// Largest index space of the ranked enumeration ([`enumerate_ranked`]): one bit of the
/// reachable set and half a byte of its prefix counts per index (6 GiB at the limit).
pub const RANK_LIMIT: u64 = 1 << 35;

impl Ranker {
    /// A ranker for `squares` squares and `counts` pieces per type, if the space fits
    /// [`DENSE_LIMIT`].
    pub fn new(squares: u32, counts: &[u8; 5]) -> Option<Ranker> {
        Self::with_limit(squares, counts, DENSE_LIMIT)
    }

    /// A ranker for `squares` squares and `counts` pieces per type, if the space has at most
    /// `limit` indices.
    pub fn with_limit(squares: u32, counts: &[u8; 5], limit: u64) -> Option<Ranker> {
        let mut binom = vec![[0u64; 19]; squares as usize + 1];
        for n in 0..=squares as usize {
            binom[n][0] = 1;
            for k in 1..19 {
                binom[n][k] =
                    if n == 0 { 0 } else { binom[n - 1][k - 1].saturating_add(binom[n - 1][k]) };
            }
        }
        let mut strides = [0u64; 5];
        let mut radix = [0u64; 5];
        let mut space: u64 = 1;
        for t in 0..5 {
            strides[t] = space;
            radix[t] = *binom[squares as usize].get(counts[t] as usize)?;
            space = space.checked_mul(radix[t])?;
        }
        (space <= limit).then_some(Ranker {
            binom,
            strides,
            radix,
            counts: *counts,
            squares,
            space,
        })
    }

    /// Number of indices (placements with overlaps included).
    pub fn space(&self) -> u64 {
        self.space
    }

    /// The colex rank of one type's set of squares.
    #[inline]
    fn term(&self, bb: u128) -> u64 {
        let mut set = bb;
        let mut i = 1;
        let mut c = 0;
        while set != 0 {
            c += self.binom[set.trailing_zeros() as usize][i];
            set &= set - 1;
            i += 1;
        }
        c
    }

    /// The index of a placement.
    #[inline]
    pub fn rank(&self, pl: &Placement) -> u64 {
        let mut r = 0;
        for (t, &bb) in pl.iter().enumerate() {
            r += self.term(bb) * self.strides[t];
        }
        r
    }

    /// The placement of an index (the inverse of [`Ranker::rank`]).
    pub fn unrank(&self, r: u64) -> Placement {
        let mut pl = [0u128; 5];
        #[expect(clippy::needless_range_loop, reason = "t indexes five parallel per-type arrays")]
        for t in 0..5 {
            let mut c = (r / self.strides[t]) % self.radix[t];
            let mut s = self.squares as usize;
            for i in (1..=self.counts[t] as usize).rev() {
                // The largest square below `s` whose binomial fits: colex digit `i`.
                s -= 1;
                while self.binom[s][i] > c {
                    s -= 1;
                }
                c -= self.binom[s][i];
                pl[t] |= 1u128 << s;
            }
        }
        pl
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
    /// Wall time of each phase of the enumeration, in order.
    pub phases: Vec<(&'static str, Duration)>,
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
/// visited in a game in progress): [`enumerate_ranked`] when the placements' index space fits
/// [`RANK_LIMIT`], else [`enumerate_bfs`] (hashed keys).
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
    match Ranker::with_limit(board.squares(), &counts, RANK_LIMIT) {
        Some(r) => enumerate_ranked(board, start, excluded, max_positions, &r),
        None => enumerate_bfs(board, start, excluded, max_positions),
    }
}

/// Enumerates the component of `start` by index arithmetic (no hashing): a parallel BFS marks
/// the reachable ranks in a bitset, the ids are the ranks' places among the marked ones (prefix
/// popcounts; the start and id 0 then swap places, so the start is id 0), and the CSR is built
/// in parallel over chunks of ids, each neighbour's id computed from its rank. A child's rank
/// differs from its parent's in the moving type's term only.
///
/// # Errors
/// When the component has more than `max_positions` positions (or `u32::MAX`).
#[expect(clippy::too_many_lines, reason = "one pipeline of phases sharing the rank arithmetic")]
pub fn enumerate_ranked<S: std::hash::BuildHasher + Sync>(
    board: &Board,
    start: &Placement,
    excluded: &HashSet<u128, S>,
    max_positions: usize,
    ranker: &Ranker,
) -> Result<Enumerated, String> {
    let max_positions = max_positions.min(u32::MAX as usize - 1);
    let mut phases = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str| {
        phases.push((name, clock.elapsed()));
        clock = Instant::now();
    };
    let too_many = || format!("more than {max_positions} positions (raise --max-positions)");
    let words = ranker.space.div_ceil(64) as usize;
    let seen: Vec<AtomicU64> = (0..words).into_par_iter().map(|_| AtomicU64::new(0)).collect();
    let mark = |r: u64| {
        let w = &seen[(r >> 6) as usize];
        let bit = 1u64 << (r & 63);
        w.load(Ordering::Relaxed) & bit == 0 && w.fetch_or(bit, Ordering::Relaxed) & bit == 0
    };
    // Excluded positions are marked first so the search never enters them, and unmarked after.
    let counts = super::board::counts(start);
    let excluded_ranks: Vec<u64> = excluded
        .iter()
        .map(|&k| decode(k, &counts))
        .filter(|pl| super::board::counts(pl) == counts && encode(pl) != encode(start))
        .map(|pl| ranker.rank(&pl))
        .collect();
    for &r in &excluded_ranks {
        mark(r);
    }
    let start_rank = ranker.rank(start);
    mark(start_rank);
    let mut frontier = vec![start_rank];
    let mut total = 1usize;
    while !frontier.is_empty() {
        let chunk = (frontier.len() / (8 * rayon::current_num_threads())).clamp(64, 1 << 14);
        let parts: Vec<Vec<u64>> = frontier
            .par_chunks(chunk)
            .map(|ranks| {
                let mut out = Vec::new();
                for &r in ranks {
                    child_ranks(board, ranker, r, &ranker.unrank(r), |c| {
                        if mark(c) {
                            out.push(c);
                        }
                    });
                }
                out
            })
            .collect();
        frontier = parts.concat();
        total += frontier.len();
        if total > max_positions {
            return Err(too_many());
        }
    }
    lap("reach (BFS over ranks)");
    for &r in &excluded_ranks {
        seen[(r >> 6) as usize].fetch_and(!(1u64 << (r & 63)), Ordering::Relaxed);
    }
    let seen: Vec<u64> = seen.into_iter().map(AtomicU64::into_inner).collect();
    // prefix[w]: marked ranks below word w (ids fit u32: total <= max_positions).
    let mut prefix = Vec::with_capacity(words);
    let mut acc = 0u32;
    for &w in &seen {
        prefix.push(acc);
        acc += w.count_ones();
    }
    debug_assert_eq!(acc as usize, total);
    let rank_id = |r: u64| {
        let w = (r >> 6) as usize;
        prefix[w] + (seen[w] & ((1u64 << (r & 63)) - 1)).count_ones()
    };
    let start_id = rank_id(start_rank);
    let fix = |id: u32| {
        if id == start_id {
            0
        } else if id == 0 {
            start_id
        } else {
            id
        }
    };
    // The rank of every id, by chunks of words.
    let word_chunk = 1 << 12;
    let mut ranks: Vec<u64> = seen
        .par_chunks(word_chunk)
        .enumerate()
        .flat_map_iter(|(c, ws)| {
            ws.iter().enumerate().flat_map(move |(i, &w)| {
                let base = ((c * word_chunk + i) as u64) << 6;
                BitIter(w).map(move |b| base + u64::from(b))
            })
        })
        .collect();
    ranks.swap(0, start_id as usize);
    let n = ranks.len();
    lap("number (prefix popcounts)");
    // Degrees: every move leads into the component unless it enters an excluded position.
    let degrees: Vec<u32> = ranks
        .par_iter()
        .map(|&r| {
            let pl = ranker.unrank(r);
            if excluded_ranks.is_empty() {
                let occupied = pl.iter().fold(0, |a, b| a | b);
                let mut d = 0;
                for (t, piece) in super::board::Piece::ALL.into_iter().enumerate() {
                    let mut from = pl[t];
                    while from != 0 {
                        let s = from.trailing_zeros() as u8;
                        from &= from - 1;
                        d += board.targets(piece, s, occupied).count_ones();
                    }
                }
                d
            } else {
                let mut d = 0;
                child_ranks(board, ranker, r, &pl, |c| {
                    d += u32::from(seen[(c >> 6) as usize] >> (c & 63) & 1 == 1);
                });
                d
            }
        })
        .collect();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut arcs = 0u64;
    offsets.push(0);
    for &d in &degrees {
        arcs += u64::from(d);
        offsets.push(arcs);
    }
    drop(degrees);
    lap("degrees");
    let mut targets = vec![0u32; arcs as usize];
    // Disjoint slices of `targets`, one per chunk of ids, filled in parallel.
    let id_chunk = 1 << 13;
    let mut jobs = Vec::with_capacity(n / id_chunk + 1);
    let mut rest: &mut [u32] = &mut targets;
    for lo in (0..n).step_by(id_chunk) {
        let hi = (lo + id_chunk).min(n);
        let (head, tail) = rest.split_at_mut((offsets[hi] - offsets[lo]) as usize);
        jobs.push((lo, hi, head));
        rest = tail;
    }
    jobs.into_par_iter().for_each(|(lo, hi, out)| {
        let mut at = 0;
        for &r in &ranks[lo..hi] {
            child_ranks(board, ranker, r, &ranker.unrank(r), |c| {
                if seen[(c >> 6) as usize] >> (c & 63) & 1 == 1 {
                    out[at] = fix(rank_id(c));
                    at += 1;
                }
            });
        }
        debug_assert_eq!(at, out.len());
    });
    lap("edges (CSR)");
    let keys: Vec<u128> = ranks.par_iter().map(|&r| encode(&ranker.unrank(r))).collect();
    drop(ranks);
    let graph = Csr::from_parts(offsets, targets).map_err(|e| format!("ranked CSR: {e}"))?;
    lap("keys and check");
    Ok(Enumerated { keys, graph, phases })
}

/// Calls `f` with the rank of every child of placement `pl` of rank `r`: only the moving type's
/// term of the rank changes.
#[inline]
fn child_ranks(board: &Board, ranker: &Ranker, r: u64, pl: &Placement, mut f: impl FnMut(u64)) {
    let terms = pl.map(|bb| ranker.term(bb));
    board.for_each_child(pl, |mv, child| {
        let t = mv.piece as usize;
        let base = r - terms[t] * ranker.strides[t];
        f(base + ranker.term(child[t]) * ranker.strides[t]);
    });
}

/// The set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            b
        })
    }
}

/// Enumerates the component of `start` by breadth-first search with a key-to-id index (an
/// array over ranks when the space fits [`DENSE_LIMIT`], else a hash map), leaving out the
/// positions in `excluded`. Ids are in BFS order (id 0 is the start).
///
/// One pass: vertices are expanded in id (BFS) order, so each expansion appends the vertex's
/// complete adjacency list to the CSR arrays. Within a BFS level the children are generated and
/// looked up in parallel; keys not yet known are inserted sequentially afterwards and their ids
/// patched in.
///
/// # Errors
/// When the component has more than `max_positions` positions.
pub fn enumerate_bfs<S: std::hash::BuildHasher + Sync>(
    board: &Board,
    start: &Placement,
    excluded: &HashSet<u128, S>,
    max_positions: usize,
) -> Result<Enumerated, String> {
    let clock = Instant::now();
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
    Ok(Enumerated { keys, graph, phases: vec![("BFS with edges (hashed)", clock.elapsed())] })
}

/// What one chunk of a BFS level produces: degrees, adjacency (new keys as placeholders), and
/// the new keys with their places in the adjacency.
type LevelPart = (Vec<u32>, Vec<u32>, Vec<(u32, u128)>);

/// Placeholder for an id not yet assigned.
const NONE_ID: u32 = u32::MAX;
