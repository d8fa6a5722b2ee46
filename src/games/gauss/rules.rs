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

use super::board::{Board, POINTS};
use super::{Collection, Gauss, GaussMove};

/// Places `mv` (already taken from the supply), runs the magnet step and the collection;
/// keeps the hash up to date iff `HASH` (a final position scored at once needs none).
pub(super) fn place<const HASH: bool>(g: &mut Gauss, mv: GaussMove) {
    let board = Board::get();
    let trigger = mv.point();
    let placed = mv.colour().index();
    g.toggle::<HASH>(placed, trigger);
    let mut seeds = 1u64 << trigger;
    // The rays are disjoint and do not hold the trigger, so one snapshot of the occupied
    // points serves all six.
    let occupied = g.discs[0] | g.discs[1];
    for (d, ray) in board.rays[trigger as usize].iter().enumerate() {
        let hits = ray.mask & occupied;
        if hits == 0 {
            continue;
        }
        // Rays running E, SE, SW go up in point order, the others down: "nearest" is the
        // lowest bit for the first three and the highest for the others.
        let up = d < 3;
        let first = if up { hits.trailing_zeros() } else { hits.ilog2() } as u8;
        let colour = usize::from(g.discs[1] >> first & 1 != 0);
        let target = if colour == placed {
            // Repelled: to the farthest ray point nearer than the next disc (or the ray's end).
            let beyond = hits & !(1u64 << first);
            if up {
                let free = if beyond == 0 {
                    ray.mask
                } else {
                    ray.mask & ((1u64 << beyond.trailing_zeros()) - 1)
                };
                free.ilog2() as u8
            } else {
                let free =
                    if beyond == 0 { ray.mask } else { ray.mask & !((2u64 << beyond.ilog2()) - 1) };
                free.trailing_zeros() as u8
            }
        } else {
            // Attracted: to the ray's nearest point, next to the trigger.
            ray.points[0]
        };
        debug_assert_eq!(target, {
            let points = ray.as_slice();
            let at = points.iter().position(|&q| q == first).expect("first is on the ray");
            if colour == placed {
                let mut j = at;
                while j + 1 < points.len() && occupied >> points[j + 1] & 1 == 0 {
                    j += 1;
                }
                points[j]
            } else {
                points[0]
            }
        });
        if target != first {
            g.toggle::<HASH>(colour, first);
            g.toggle::<HASH>(colour, target);
            seeds |= 1 << target;
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
        let mut bits = mask;
        while bits != 0 {
            g.toggle::<HASH>(colour, bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
    }
}

/// The discs of each colour the collection step removes, looking only at groups (or rows)
/// through the points of `seeds`.
pub(super) fn collectable(g: &Gauss, seeds: u64) -> [u64; 2] {
    let board = Board::get();
    let mut out = [0u64; 2];
    for (c, removed) in out.iter_mut().enumerate() {
        let own = g.discs[c];
        let mut todo = seeds & own;
        while todo != 0 {
            let seed = todo.trailing_zeros() as u8;
            if board.neighbours[usize::from(seed)] & own == 0 {
                // A lone disc: no group or row of four through it.
                todo &= todo - 1;
                continue;
            }
            // A group is the same from each of its seeds; rows through another seed may differ.
            let found = match g.rules.collection {
                Collection::Group => group(own, seed),
                Collection::Row => rows(own, seed),
            };
            todo &= !(1 << seed);
            if g.rules.collection == Collection::Group {
                todo &= !found;
            }
            if found.count_ones() >= 4 {
                *removed |= found;
            }
        }
    }
    out
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
