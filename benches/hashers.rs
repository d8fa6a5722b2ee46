//! Hand-made hashers and maps against the crates of the design card (ahash, dashmap), side by
//! side in one run, on the jobs they do in bitsolve:
//!
//! * **szochy keys** (`u128` placements packed 7 bits a square, [`encode`]): building the
//!   key-to-id map of the enumeration and looking every key up again, with the hand-made
//!   `KeyHasher`, ahash and the standard `SipHash`;
//! * **parallel insertion** of the same keys: one `HashMap` filled sequentially (what the
//!   enumeration does) against a `DashMap` filled by two threads;
//! * **move hashes** for the history tables: the hand-made multiplicative hasher against ahash
//!   on every move of a 7x7 Ataxx position.
//!
//! Each measurement is the best of 5 rounds; every round checks its answer (the number of
//! distinct keys, the sum of the ids found, the checksum of the move hashes) against the
//! others', computed by another map.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault};
use std::hint::black_box;
use std::time::Instant;

use ahash::{AHasher, RandomState};
use bitsolve::games::szochy::board::encode;
use bitsolve::games::szochy::enumerate::KeyHasher;
use bitsolve::search::move_hash::move_hash;
use bitsolve::zobrist::KeyStream;
use bitsolve::{AtaxxStandard, Game, Notation};
use dashmap::DashMap;

const KEYS: usize = 2_000_000;
const ROUNDS: usize = 5;

/// `KEYS` placements of five single pieces on distinct squares of a 10x10 board, packed.
fn keys() -> Vec<u128> {
    let mut rng = KeyStream::new(2026);
    (0..KEYS)
        .map(|_| {
            let mut pl = [0u128; 5];
            let mut used = 0u128;
            for slot in &mut pl {
                loop {
                    let sq = rng.next_key() % 100;
                    if used >> sq & 1 == 0 {
                        used |= 1 << sq;
                        *slot = 1 << sq;
                        break;
                    }
                }
            }
            encode(&pl)
        })
        .collect()
}

/// Best time of `ROUNDS` runs of `f`, and its (checked equal) answer.
fn best<T: PartialEq + std::fmt::Debug>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut answer = None;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let a = f();
        best = best.min(t.elapsed().as_secs_f64());
        if let Some(prev) = &answer {
            assert_eq!(prev, &a, "rounds disagree");
        }
        answer = Some(a);
    }
    (best, answer.expect("at least one round"))
}

/// Builds the key-to-id map sequentially and looks every key up: (distinct keys, sum of ids).
fn map_with<S: BuildHasher + Default>(keys: &[u128]) -> (usize, u64) {
    let mut map: HashMap<u128, u32, S> = HashMap::default();
    for &k in keys {
        let next = map.len() as u32;
        map.entry(k).or_insert(next);
    }
    let sum = keys.iter().map(|k| u64::from(map[k])).sum();
    (map.len(), sum)
}

/// Same with a `DashMap` filled by two threads (ids are no longer in first-seen order, so the
/// answer is the number of distinct keys only).
fn dashmap_two_threads(keys: &[u128]) -> usize {
    let map: DashMap<u128, u32, BuildHasherDefault<AHasher>> = DashMap::default();
    let next = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|s| {
        for half in keys.chunks(keys.len().div_ceil(2)) {
            let (map, next) = (&map, &next);
            s.spawn(move || {
                for &k in half {
                    map.entry(k)
                        .or_insert_with(|| next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
                }
            });
        }
    });
    map.len()
}

fn main() {
    let keys = keys();
    let (t_key, a_key) = best(|| map_with::<BuildHasherDefault<KeyHasher>>(black_box(&keys)));
    let (t_ahash, a_ahash) = best(|| map_with::<BuildHasherDefault<AHasher>>(black_box(&keys)));
    let (t_sip, a_sip) = best(|| map_with::<std::hash::RandomState>(black_box(&keys)));
    assert_eq!(a_key, a_ahash);
    assert_eq!(a_key, a_sip);
    let per = |t: f64| t / KEYS as f64 * 1e9;
    println!(
        "hashers/szochy-keys insert+lookup {KEYS} keys ({} distinct): KeyHasher {:.1} ns/key, ahash {:.1} ns/key ({:.2}x), SipHash {:.1} ns/key ({:.2}x)",
        a_key.0,
        per(t_key),
        per(t_ahash),
        t_ahash / t_key,
        per(t_sip),
        t_sip / t_key
    );
    let (t_seq, a_seq) = best(|| map_with::<BuildHasherDefault<AHasher>>(black_box(&keys)).0);
    let (t_dash, a_dash) = best(|| dashmap_two_threads(black_box(&keys)));
    assert_eq!(a_seq, a_dash);
    println!(
        "hashers/parallel-insert {KEYS} keys: HashMap+ahash 1 thread (insert+lookup) {:.1} ns/key, DashMap+ahash 2 threads (insert only) {:.1} ns/key ({:.2}x)",
        per(t_seq),
        per(t_dash),
        t_dash / t_seq
    );
    // Every move of a crowded 7x7 position, hashed many times.
    let pos =
        AtaxxStandard::parse_position("x1o1x1o/1x1o1x1/o1x1o1x/7/x1o1x1o/1o1x1o1/o1x1o1x x 0 1")
            .expect("a valid FEN");
    let mut moves = <AtaxxStandard as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    let reps = 20_000;
    let hashes = (moves.len() * reps) as f64;
    let (t_mine, c_mine) = best(|| {
        (0..reps).fold(0u64, |acc, _| {
            moves.iter().fold(acc, |a, m| a.wrapping_add(move_hash(black_box(m)) & 0xffff))
        })
    });
    let state = RandomState::with_seeds(1, 2, 3, 4);
    let (t_ahash_mv, c_ahash_mv) = best(|| {
        (0..reps).fold(0u64, |acc, _| {
            moves.iter().fold(acc, |a, m| a.wrapping_add(state.hash_one(black_box(m)) & 0xffff))
        })
    });
    // Both sums are over the same multiset of moves: each must be non-zero and stable.
    assert!(c_mine != 0 && c_ahash_mv != 0);
    println!(
        "hashers/move-hash {} moves x {reps}: hand-made {:.2} ns/move, ahash {:.2} ns/move ({:.2}x)",
        moves.len(),
        t_mine / hashes * 1e9,
        t_ahash_mv / hashes * 1e9,
        t_ahash_mv / t_mine
    );
}
