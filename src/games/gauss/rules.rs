//! The two steps of a turn after the disc is placed: magnets, then collection.
//!
//! Magnets: along each of the six rays from the placed disc (the trigger) only the first disc
//! met is affected, at any distance and on the void too. A disc of the trigger's colour is
//! repelled outward as far as it can go (to the cell before the next disc, or to the void cell
//! ending the ray); one of the other colour is attracted to the cell next to the trigger. The
//! rays are disjoint and a moved disc stays on its ray, so the order does not matter.
//!
//! Collection: discs that did not move and were not placed belonged to no collectable group
//! before the turn (groups are collected at once), and emptied cells only split groups, so
//! only groups through the placed disc and the moved discs' new cells need looking at.

use super::board::{Board, POINTS, Ray};
use super::{Collection, Gauss, GaussMove};

/// Places `mv` (already taken from the supply), runs the magnet step and the collection;
/// keeps the hash up to date iff `HASH` (a final position scored at once needs none).
pub(super) fn place<const HASH: bool>(g: &mut Gauss, mv: GaussMove) {
    let board = Board::get();
    let trigger = mv.point();
    let placed = mv.colour().index();
    let before = g.discs;
    g.discs[placed] |= 1 << trigger;
    let seeds = 1u64 << trigger | magnets(&mut g.discs, trigger, placed);
    if HASH {
        // The placed disc, and each moved disc's old and new point.
        let changed = [before[0] ^ g.discs[0], before[1] ^ g.discs[1]];
        for (c, &bits) in changed.iter().enumerate() {
            g.rehash::<HASH>(c, bits);
        }
    }
    let removed = collectable(g, seeds);
    for (colour, &mask) in removed.iter().enumerate() {
        if mask == 0 {
            continue;
        }
        g.collect::<HASH>(
            colour,
            (mask & board.inner).count_ones() as u8,
            (mask & board.void).count_ones() as u8,
        );
        g.discs[colour] ^= mask;
        g.rehash::<HASH>(colour, mask);
    }
}

/// The magnet step around the disc of colour index `placed` just put on `trigger`: moves the
/// first disc of each ray (repelled outward if it has the placed colour, attracted next to the
/// trigger otherwise) and returns the points the moved discs reached.
///
/// Written without branches on the discs met (they are data-dependent, and mispredicted
/// branches were most of the step's cost): an empty ray computes a move of the non-point 63
/// that is then masked away, and the repelled disc's target is picked with bit masks whether
/// or not a next disc exists.
#[inline]
fn magnets(discs: &mut [u64; 2], trigger: u8, placed: usize) -> u64 {
    let rays = &Board::get().rays[usize::from(trigger)];
    // The rays are disjoint and do not hold the trigger, and a moved disc stays on its ray, so
    // one snapshot of the occupied points serves all six.
    let occupied = discs[0] | discs[1];
    let mut reached = 0u64;
    // Rays running E, SE, SW go up in point order, the others down: "nearest" is the lowest
    // bit for the first three and the highest for the others.
    for ray in &rays[..3] {
        reached |= ray_step::<true>(discs, ray, occupied, placed);
    }
    for ray in &rays[3..] {
        reached |= ray_step::<false>(discs, ray, occupied, placed);
    }
    reached
}

/// One ray of [`magnets`]: moves its first disc, if any, and returns the point it reached as a
/// one-point set (empty if nothing moved).
#[inline]
fn ray_step<const UP: bool>(discs: &mut [u64; 2], ray: &Ray, occupied: u64, placed: usize) -> u64 {
    let (hits, first, repelled) = nearest::<UP>(ray, occupied);
    // All ones when the ray holds a disc, else 0 (and then nothing below may move).
    let live = 0u64.wrapping_sub(u64::from(hits != 0));
    let colour = (discs[1] >> first & 1) as usize;
    // Repelled or attracted: a coin toss for the branch predictor, so the choice is made
    // with a mask (hidden from the optimiser, which would turn it back into a branch).
    let same = std::hint::black_box(u32::from(colour == placed).wrapping_neg());
    let target = (repelled & same) | (u32::from(ray.points[0]) & !same);
    debug_assert!(
        hits == 0
            || target == {
                let points = ray.as_slice();
                let at = points.iter().position(|&q| u32::from(q) == first).expect("on the ray");
                if colour == placed {
                    let mut j = at;
                    while j + 1 < points.len() && occupied >> points[j + 1] & 1 == 0 {
                        j += 1;
                    }
                    u32::from(points[j])
                } else {
                    u32::from(points[0])
                }
            }
    );
    // Nothing moves when the target is the disc's own point, or the ray is empty.
    let moved = (1u64 << first ^ 1u64 << target) & live;
    discs[colour] ^= moved;
    moved & !(1u64 << first)
}

/// The discs on `ray` (`hits`), the nearest of them (`first`; 63, no point, on an empty ray)
/// and the point it goes to if repelled (the last point before the next disc, or the ray's
/// end), without branches on the discs met.
///
/// `63 - leading_zeros` stands for `ilog2`, whose check for 0 let the optimiser branch.
#[inline]
#[allow(clippy::manual_ilog2)]
fn nearest<const UP: bool>(ray: &Ray, occupied: u64) -> (u64, u32, u32) {
    let hits = ray.mask & occupied;
    let first = if UP {
        (hits | 1 << 63).trailing_zeros()
    } else {
        63u32.wrapping_sub(hits.leading_zeros()) & 63
    };
    let beyond = hits & !(1u64 << first);
    let repelled = if UP {
        // The points below the next disc up (all of them when there is none).
        63 - (ray.mask & (beyond & beyond.wrapping_neg()).wrapping_sub(1)).leading_zeros()
    } else {
        // The points above the next disc down (all of them when there is none: the shift is
        // 0 then, and at most 37 otherwise).
        (ray.mask & u64::MAX.wrapping_shl(64 - beyond.leading_zeros())).trailing_zeros()
    };
    (hits, first, repelled)
}

/// Whether placing a disc of the colour whose discs are `own` on the empty inner point
/// `trigger` collects a disc of that colour (groups rule). Only that colour's discs matter
/// here, and of them only the repelled ones move: each ray whose nearest disc has the colour
/// moves it outward; the attracted discs of the other colour change no group of this one.
pub(super) fn collects_own(own: u64, occupied: u64, trigger: u8) -> bool {
    let board = Board::get();
    let rays = &board.rays[usize::from(trigger)];
    let mut own = own | 1 << trigger;
    let mut seeds = 1u64 << trigger;
    for ray in &rays[..3] {
        let (first, moved) = own_step::<true>(ray, occupied, own);
        own ^= moved;
        seeds |= moved & !(1u64 << first);
    }
    for ray in &rays[3..] {
        let (first, moved) = own_step::<false>(ray, occupied, own);
        own ^= moved;
        seeds |= moved & !(1u64 << first);
    }
    collected(own, seeds, Collection::Group) != 0
}

/// One ray of [`collects_own`]: the nearest disc's point and, if it has the placed colour
/// (in `own`), its old and new points (else 0).
#[inline]
fn own_step<const UP: bool>(ray: &Ray, occupied: u64, own: u64) -> (u32, u64) {
    let (_, first, repelled) = nearest::<UP>(ray, occupied);
    // The non-point 63 is in no colour's set, so an empty ray moves nothing.
    let mine = 0u64.wrapping_sub(own >> first & 1);
    (first, (1u64 << first ^ 1u64 << repelled) & mine)
}

/// The discs of each colour the collection step removes, looking only at groups (or rows)
/// through the points of `seeds`.
pub(super) fn collectable(g: &Gauss, seeds: u64) -> [u64; 2] {
    let collection = g.rules.collection;
    [collected(g.discs[0], seeds, collection), collected(g.discs[1], seeds, collection)]
}

/// The discs of `own` (one colour's) in the groups (or rows) of four or more through the points
/// of `seeds`.
#[inline]
fn collected(own: u64, seeds: u64, collection: Collection) -> u64 {
    let board = Board::get();
    let mut removed = 0;
    let mut todo = seeds & own;
    while todo != 0 {
        let seed = todo.trailing_zeros() as u8;
        if board.neighbours[usize::from(seed)] & own == 0 {
            // A lone disc: no group or row of four through it.
            todo &= todo - 1;
            continue;
        }
        // A group is the same from each of its seeds; rows through another seed may differ.
        let found = match collection {
            Collection::Group => group(own, seed),
            Collection::Row => rows(own, seed),
        };
        todo &= !(1 << seed);
        if collection == Collection::Group {
            todo &= !found;
        }
        if found.count_ones() >= 4 {
            removed |= found;
        }
    }
    removed
}

/// The 6-connected group of `own` containing `seed`.
pub fn group(own: u64, seed: u8) -> u64 {
    let b = Board::get();
    let mut found = 1u64 << seed;
    let mut frontier = found;
    while frontier != 0 {
        let p = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = b.neighbours[p] & own & !found;
        found |= new;
        frontier |= new;
    }
    found
}

/// The union of the straight runs of 4 or more discs of `own` through `seed` (empty if none).
pub fn rows(own: u64, seed: u8) -> u64 {
    let b = Board::get();
    let mut out = 0;
    for d in 0..3 {
        let mut run = 1u64 << seed;
        for dir in [d, d + 3] {
            let mut at = seed as usize;
            while let Some(q) = b.step[at][dir] {
                if own >> q & 1 == 0 {
                    break;
                }
                run |= 1 << q;
                at = q as usize;
            }
        }
        if run.count_ones() >= 4 {
            out |= run;
        }
    }
    debug_assert!(out >> POINTS == 0);
    out
}
