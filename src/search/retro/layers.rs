//! Around the one-layer solve of [`super::solve`]: the forward reachability pass
//! ([`reachable`]) and the tally of a solved layer ([`Tally`]). (Whole indexes solved in memory:
//! [`super::driver::solve_in_memory`].)

use rayon::prelude::*;

use super::model::LayerModel;
use super::solve::{CHUNK, Control, ENTRY_CHUNK, EngineError, MAX_LAYER};
use super::values::{DRAW, LOSS, PackedValues, WIN, cell};

/// The solved cells of a layer as a run keeps them for the layers below: in memory (a
/// `Vec<u16>`) or mapped from a file ([`super::store::MappedCells`]).
pub type KeptCells = Box<dyn AsRef<[u16]> + Send + Sync>;

/// Positions reachable from `start` (`layer`, rank, and side: 0 when the first player is to
/// move), per layer as 2-bit sets (empty below the start's layer): bit 0 if the position is reached with the first player to
/// move, bit 1 with the second (ranks are relative to the side to move).
///
/// # Errors
/// [`EngineError::Stopped`] if the stop flag is raised.
pub fn reachable<M: LayerModel>(
    model: &M,
    (layer, rank, side): (usize, u64, u8),
    control: &Control<'_>,
) -> Result<Vec<PackedValues>, EngineError> {
    let layers = model.layers();
    let mut sets: Vec<PackedValues> = (0..layers)
        .map(|l| PackedValues::new(if l < layer { 0 } else { model.layer_size(l) }))
        .collect();
    sets[layer].or(rank, 1 << side);
    for l in layer..layers {
        let (here, rest) = sets.split_at_mut(l + 1);
        let here = &here[l];
        let rest = &*rest;
        let size = model.layer_size(l);
        if size > MAX_LAYER {
            return Err(EngineError::LayerTooLarge(size));
        }
        // Everything reached so far in the layer is the first frontier.
        let mut frontier: Vec<u32> = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|c| {
                let (s, e) = (c * CHUNK, ((c + 1) * CHUNK).min(size));
                (s..e).flat_map(move |i| {
                    let bits = here.get(i);
                    (0..2u32).filter(move |b| bits >> b & 1 != 0).map(move |b| (i as u32) << 1 | b)
                })
            })
            .collect();
        while !frontier.is_empty() {
            if control.stopped() {
                return Err(EngineError::Stopped);
            }
            frontier = frontier
                .par_chunks(ENTRY_CHUNK)
                .flat_map_iter(|chunk| {
                    let mut found = Vec::new();
                    let mut at = 0;
                    while at < chunk.len() {
                        // A rank reached with both sides to move (two neighbouring entries of
                        // the sorted frontier) is expanded once for both.
                        let i = chunk[at] >> 1;
                        let mut sides = 1u8 << (chunk[at] & 1);
                        at += 1;
                        if at < chunk.len() && chunk[at] >> 1 == i {
                            sides |= 1 << (chunk[at] & 1);
                            at += 1;
                        }
                        let pos = model.position(l, u64::from(i));
                        if model.outcome(pos).is_some() {
                            continue;
                        }
                        // The children have the other side to move.
                        let bits = (sides & 1) << 1 | sides >> 1;
                        model.for_each_layer_child(pos, |r| {
                            let new = here.insert(r, bits);
                            for b in 0..2 {
                                if new >> b & 1 != 0 {
                                    found.push((r as u32) << 1 | b);
                                }
                            }
                        });
                        model.for_each_later_child(pos, |j, r| {
                            rest[j - 1].insert(r, bits);
                        });
                    }
                    found
                })
                .collect();
            frontier.par_sort_unstable();
        }
        if let Some(p) = control.progress {
            p(size);
        }
    }
    Ok(sets)
}

/// Counts of a solved layer's reachable positions by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions (board and side to move) reached.
    pub positions: u64,
    /// Of them, wins for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Tally {
    /// Adds `other`.
    pub fn add(&mut self, other: Tally) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// The reachable positions of a layer (`reached`, from [`reachable`]) by the value of their
    /// cells.
    pub fn of_layer(cells: &[u16], reached: &PackedValues) -> Tally {
        if reached.is_empty() {
            return Tally::default();
        }
        (0..cells.len())
            .into_par_iter()
            .with_min_len(1 << 14)
            .map(|i| {
                let n = u64::from(reached.get(i as u64).count_ones());
                let v = cell::value(cells[i]);
                Tally {
                    positions: n,
                    wins: if v == WIN { n } else { 0 },
                    draws: if v == DRAW { n } else { 0 },
                    losses: if v == LOSS { n } else { 0 },
                }
            })
            .reduce(Tally::default, |mut a, b| {
                a.add(b);
                a
            })
    }
}
