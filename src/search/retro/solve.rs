//! The layered engine: backward induction inside a layer with un-moves and child counters,
//! exact distances (the loops over layers and the forward reachability pass are in
//! [`super::layers`]).
//!
//! # One layer
//!
//! The later layers are solved (value and distance per position, [`cell`]; Ataxx needs only
//! the next one, GIPF any later one, [`LayerModel::reach`]). Then:
//!
//! 1. **Scan** (parallel over chunks of ranks). A finished position takes its outcome at
//!    distance 0. Otherwise its moves into later layers are looked up: a loss there gives a
//!    win candidate (shortest such loss + 1); wins there give a lower bound on the length of a
//!    loss (longest + 1); a draw there rules out a loss. Its moves inside the layer are only
//!    counted (a `u8` counter, plus one when a draw rules out a loss). A position without
//!    moves in the layer is decided at once. Hidden moves inside the layer (those the
//!    model's un-moves do not find, [`LayerModel::expand`]) are kept as reversed edges.
//! 2. **Propagate** in order of distance. Deciding a position at distance `d` visits its
//!    parents in the layer (un-moves, and the reversed hidden edges): a loss makes each
//!    undecided parent a win at `d + 1`; a win lowers each parent's counter and the parent
//!    whose counter reaches 0 is a loss at `max(d + 1, its bound)` (until then it waits). A
//!    waiting position (a win candidate from the scan, or such a loss) is decided when its
//!    distance comes, unless decided before. Since distances are taken in increasing order,
//!    the first decision of a position is its shortest win or its longest loss. Atomic
//!    compare-and-swap on the 16-bit cells makes the first decision the only one. The
//!    positions of each distance are found in buckets of ranks per distance (Dijkstra on
//!    integer distances) or by sweeps of the layer, as the model picks ([`Propagation`]).
//! 3. What is left undecided is a **draw**: neither side can force an end it wins.
//!
//! Memory while solving layer `k`: 2 bytes per position of layer `k` and of the later layers
//! kept ([`LayerModel::reach`] of them; they may be memory-mapped files), 1 byte of counter per
//! position of `k`, 8 bytes per hidden edge, and with buckets 4 bytes per bucket entry (at
//! most one firm and one tentative entry per position, far fewer in practice).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, Ordering};

use rayon::prelude::*;

use super::hidden::Hidden;
use super::model::{LayerModel, Propagation};
use super::values::{DRAW, LOSS, PackedValues, UNKNOWN, WIN, cell, code, zeroed_huge};

/// Positions per work item of a scan.
pub(super) const CHUNK: u64 = 1 << 14;
/// Bucket entries per work item of a propagation step.
pub(super) const ENTRY_CHUNK: usize = 1 << 12;
/// Tag of a tentative bucket entry.
const TENTATIVE: u32 = 1 << 31;
/// Largest layer the engine takes (ranks must leave the tag bit free).
pub const MAX_LAYER: u64 = 1 << 31;

/// Why a layer was not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The layer has more than [`MAX_LAYER`] positions.
    LayerTooLarge(u64),
    /// A distance does not fit in a cell ([`cell::MAX_DISTANCE`]).
    DistanceOverflow,
    /// The stop flag was raised.
    Stopped,
    /// A position has more than 255 moves inside its layer (the counters are bytes).
    TooManyMoves,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::LayerTooLarge(n) => {
                write!(f, "a layer of {n} positions is larger than the engine's {MAX_LAYER}")
            }
            EngineError::DistanceOverflow => {
                write!(f, "a distance exceeds {} plies", cell::MAX_DISTANCE)
            }
            EngineError::Stopped => f.write_str("stopped"),
            EngineError::TooManyMoves => {
                f.write_str("a position has more than 255 moves inside its layer")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Hooks of a run: progress and the stop flag.
#[derive(Default)]
pub struct Control<'a> {
    /// Called with the number of positions just scanned.
    pub progress: Option<&'a (dyn Fn(u64) + Sync)>,
    /// Raised by another thread to stop.
    pub stop: Option<&'a AtomicBool>,
}

impl Control<'_> {
    pub(super) fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Appends `entry` to the bucket of distance `d`.
fn push(buckets: &mut Vec<Vec<u32>>, d: usize, entry: u32) {
    if buckets.len() <= d {
        buckets.resize_with(d + 1, Vec::new);
    }
    buckets[d].push(entry);
}

/// Moves the buckets of `local` into `global`.
fn merge(global: &Mutex<Vec<Vec<u32>>>, local: Vec<Vec<u32>>) {
    let mut g = global.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if g.len() < local.len() {
        g.resize_with(local.len(), Vec::new);
    }
    for (d, mut v) in local.into_iter().enumerate() {
        if g[d].is_empty() {
            g[d] = v;
        } else {
            g[d].append(&mut v);
        }
    }
}

/// The ranks of shard `shard` of `shards` of a layer of `size` positions: consecutive ranges
/// of nearly equal length, in order, covering the layer (empty for `shards` 0).
pub fn shard_range(size: u64, shard: u64, shards: u64) -> std::ops::Range<u64> {
    if shards == 0 {
        return 0..0;
    }
    let at = |s: u64| (u128::from(size) * u128::from(s.min(shards)) / u128::from(shards)) as u64;
    at(shard)..at(shard + 1)
}

/// A layer, or a range of its ranks, after the scan (phase 1): the cells and counters of
/// the ranks scanned, and the hidden edges found. The propagation needs nothing else (the
/// bucket entries follow from the cells, [`propagate`]), so scans of consecutive ranges can be
/// done apart (by several processes) and joined by concatenation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scanned {
    /// The cells of the ranks scanned, in order ([`cell`]).
    pub cells: Vec<u16>,
    /// Per rank: the moves inside the layer not yet known to be wins for the opponent (plus
    /// one when a draw in a later layer rules out a loss); 0 for decided cells.
    pub counts: Vec<u8>,
    /// Hidden edges found, reversed: (child, parent), ranks in the layer, in parts (one per
    /// thread of the scan, none empty), so that they are never copied into one list.
    pub hidden: Vec<Vec<(u32, u32)>>,
}

impl Scanned {
    /// Appends the scan of the ranks that follow.
    pub fn append(&mut self, mut next: Scanned) {
        self.cells.append(&mut next.cells);
        self.counts.append(&mut next.counts);
        self.hidden.append(&mut next.hidden);
    }
}

/// Lists filled by the threads of a parallel loop, one per thread: a list grows in place (a
/// large block is remapped, not copied), and the lists are never joined.
struct PerThread<T>(Vec<Mutex<Vec<T>>>);

impl<T: Copy> PerThread<T> {
    fn new() -> Self {
        PerThread(
            (0..rayon::current_num_threads().max(1)).map(|_| Mutex::new(Vec::new())).collect(),
        )
    }

    /// Appends `items` to the list of the calling thread.
    fn extend(&self, items: &[T]) {
        if items.is_empty() {
            return;
        }
        let t = rayon::current_thread_index().unwrap_or(0) % self.0.len();
        self.0[t]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(items);
    }

    /// The lists that are not empty.
    fn into_parts(self) -> Vec<Vec<T>> {
        self.0
            .into_iter()
            .map(|h| h.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
            .filter(|h| !h.is_empty())
            .collect()
    }
}

/// Scans the ranks `range` of `layer` (phase 1 of [`solve_layer`]; same arguments), in
/// parallel over chunks of ranks.
///
/// # Errors
/// See [`EngineError`].
// Long: the per-cell rule (outcome, best win, worst loss bound, counter) is a closure over the
// chunk's cells, counts and hidden edges; lifting it out would pass six borrows per cell in the
// engine's hottest loop.
pub fn scan_range<M: LayerModel>(
    model: &M,
    layer: usize,
    range: std::ops::Range<u64>,
    later: &[&[u16]],
    only: Option<&PackedValues>,
    control: &Control<'_>,
) -> Result<Scanned, EngineError> {
    let size = model.layer_size(layer);
    if size > MAX_LAYER {
        return Err(EngineError::LayerTooLarge(size));
    }
    let range = range.start.min(size)..range.end.min(size);
    let len = (range.end - range.start.min(range.end)) as usize;
    let mut cells: Vec<u16> = zeroed_huge(len);
    let mut counts: Vec<u8> = zeroed_huge(len);
    let hidden = PerThread::new();
    let overflow = AtomicBool::new(false);
    let too_many = AtomicBool::new(false);
    cells
        .par_chunks_mut(CHUNK as usize)
        .zip(counts.par_chunks_mut(CHUNK as usize))
        .enumerate()
        .for_each(|(c, (cells, counts))| {
            if control.stopped() {
                return;
            }
            let start = range.start + c as u64 * CHUNK;
            let end = start + cells.len() as u64;
            let mut local_hidden: Vec<(u32, u32)> = Vec::new();
            if only.is_some() && model.sparse() {
                cells.fill(cell::SKIPPED);
            }
            let mut visit = |i: u64, pos: M::Pos| {
                let at = (i - start) as usize;
                if only.is_some_and(|o| o.get(i) == 0) {
                    cells[at] = cell::SKIPPED;
                    return;
                }
                if let Some(o) = model.outcome(pos) {
                    cells[at] = cell::decided(code(o), 0);
                    return;
                }
                let (mut win, mut bound, mut draw) = (u16::MAX, 0u16, false);
                let inside = model.expand(
                    pos,
                    |j, r| {
                        let c = later[j - 1][r as usize];
                        match cell::value(c) {
                            LOSS => win = win.min(cell::distance(c) + 1),
                            WIN => bound = bound.max(cell::distance(c) + 1),
                            _ => draw = true,
                        }
                    },
                    |r| local_hidden.push((r as u32, i as u32)),
                );
                let n = inside + u32::from(draw);
                if n > u32::from(u8::MAX) {
                    too_many.store(true, Ordering::Relaxed);
                    return;
                }
                if win != u16::MAX {
                    if win > cell::MAX_AUX {
                        overflow.store(true, Ordering::Relaxed);
                        return;
                    }
                    cells[at] = cell::HAS_WIN | win;
                } else if n == 0 {
                    cells[at] = cell::decided(LOSS, bound);
                } else {
                    if bound > cell::MAX_AUX {
                        overflow.store(true, Ordering::Relaxed);
                        return;
                    }
                    cells[at] = bound;
                    counts[at] = n as u8;
                }
            };
            match only {
                Some(o) if model.sparse() => {
                    // The ranks left out keep the cells filled in beforehand.
                    for i in (start..end).filter(|&i| o.get(i) != 0) {
                        visit(i, model.position(layer, i));
                    }
                }
                _ => model.scan(layer, start, end, visit),
            }
            hidden.extend(&local_hidden);
            if let Some(p) = control.progress {
                p(end - start);
            }
        });
    if control.stopped() {
        return Err(EngineError::Stopped);
    }
    if overflow.load(Ordering::Relaxed) {
        return Err(EngineError::DistanceOverflow);
    }
    if too_many.load(Ordering::Relaxed) {
        return Err(EngineError::TooManyMoves);
    }
    Ok(Scanned { cells, counts, hidden: hidden.into_parts() })
}

/// The bucket entries the scanned cells start with: decided wins and losses (firm, at their
/// distance) and win candidates (tentative, at the distance of the win).
fn seed_buckets(cells: &[u16]) -> Vec<Vec<u32>> {
    let buckets = Mutex::new(Vec::<Vec<u32>>::new());
    cells.par_chunks(CHUNK as usize).enumerate().for_each(|(c, chunk)| {
        let mut local: Vec<Vec<u32>> = Vec::new();
        for (j, &x) in chunk.iter().enumerate() {
            let i = (c * CHUNK as usize + j) as u32;
            match cell::value(x) {
                WIN | LOSS => push(&mut local, cell::distance(x) as usize, i),
                UNKNOWN if x & cell::HAS_WIN != 0 => {
                    push(&mut local, cell::aux(x) as usize, i | TENTATIVE);
                }
                _ => {}
            }
        }
        merge(&buckets, local);
    });
    buckets.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Solves `layer` given the cells of the later layers: `later[j - 1]` holds those of layer
/// `layer + j` for `j = 1..=`[`LayerModel::reach`] (fewer past the last layer; a layer no kept
/// position moves into may be empty). Returns its cells: value and distance per position ([`cell`]). With `only`, the positions
/// whose entry there is 0 are left out ([`cell::SKIPPED`]): every child of a position kept
/// must be kept too (a set closed under moves, such as the positions reachable from a start).
///
/// The same as [`scan_range`] over the whole layer, then [`propagate`].
///
/// # Errors
/// See [`EngineError`].
pub fn solve_layer<M: LayerModel>(
    model: &M,
    layer: usize,
    later: &[&[u16]],
    only: Option<&PackedValues>,
    control: &Control<'_>,
) -> Result<Vec<u16>, EngineError> {
    let size = model.layer_size(layer);
    let scanned = scan_range(model, layer, 0..size, later, only, control)?;
    propagate(model, layer, scanned, control)
}

/// Phases 2 and 3 of [`solve_layer`]: propagation in order of distance from the scan of the
/// whole layer (one [`Scanned`], or the scans of consecutive ranges joined with
/// [`Scanned::append`]), then the draws. Returns the cells of the layer.
///
/// Deciding a cell at `d` visits its parents, which decides cells at `d + 1` or makes a loss
/// wait for its bound; a waiting cell (a win candidate from the scan,
/// or such a loss) is decided when its distance comes unless decided before. The model picks
/// how the cells of each distance are found ([`Propagation`]).
///
/// # Errors
/// See [`EngineError`]; [`EngineError::LayerTooLarge`] also when the scan does not cover the
/// layer (its length differs from the layer's).
pub fn propagate<M: LayerModel>(
    model: &M,
    layer: usize,
    scanned: Scanned,
    control: &Control<'_>,
) -> Result<Vec<u16>, EngineError> {
    let size = model.layer_size(layer);
    if size > MAX_LAYER || scanned.cells.len() as u64 != size || scanned.counts.len() as u64 != size
    {
        return Err(EngineError::LayerTooLarge(size));
    }
    let Scanned { cells, counts, hidden } = scanned;
    propagate_with(model, layer, (cells, counts, Hidden::from_parts(hidden)), control)
}

/// [`propagate`] from the cells and counters of the scan of the whole layer and its hidden
/// edges in either form ([`Hidden`]).
///
/// # Errors
/// As [`propagate`].
pub fn propagate_with<M: LayerModel>(
    model: &M,
    layer: usize,
    (cells, counts, hidden): (Vec<u16>, Vec<u8>, Hidden),
    control: &Control<'_>,
) -> Result<Vec<u16>, EngineError> {
    let size = model.layer_size(layer);
    if size > MAX_LAYER || cells.len() as u64 != size || counts.len() as u64 != size {
        return Err(EngineError::LayerTooLarge(size));
    }
    let sweeps = model.propagation() == Propagation::Sweeps;
    let buckets = if sweeps { Vec::new() } else { seed_buckets(&cells) };
    // The first sweep: the smallest distance of a decided cell or of a waiting one's due.
    let first = if sweeps {
        cells
            .par_iter()
            .with_min_len(CHUNK as usize)
            .map(|&c| event(c, 0).unwrap_or(u16::MAX))
            .min()
            .unwrap_or(u16::MAX)
    } else {
        0
    };
    let cells: Vec<AtomicU16> = cells.into_iter().map(AtomicU16::new).collect();
    let counts: Vec<AtomicU8> = counts.into_iter().map(AtomicU8::new).collect();
    let open = Open { model, layer, cells: &cells, counts: &counts, hidden: &hidden };
    if sweeps {
        open.sweep_all(first, control)?;
    } else {
        open.bucket_all(buckets, control)?;
    }
    // 3. The rest is drawn.
    drop(counts);
    let mut cells: Vec<u16> = cells.into_iter().map(AtomicU16::into_inner).collect();
    cells.par_iter_mut().for_each(|c| {
        if cell::value(*c) == UNKNOWN {
            *c = cell::decided(DRAW, 0);
        }
    });
    Ok(cells)
}

/// A layer being propagated: its cells and counters, and its hidden edges (reversed, each
/// part sorted).
struct Open<'a, M> {
    model: &'a M,
    layer: usize,
    cells: &'a [AtomicU16],
    counts: &'a [AtomicU8],
    hidden: &'a Hidden,
}

impl<M: LayerModel> Open<'_, M> {
    /// Visits the parents in the layer (un-moves and hidden edges) of cell `i`, decided `v`
    /// at `next - 1`, calling `f(parent, what the visit did)`. `parents` is scratch.
    fn spread(
        &self,
        i: u32,
        v: u8,
        next: u16,
        parents: &mut Vec<u64>,
        mut f: impl FnMut(u64, Visit),
    ) {
        let pos = self.model.position(self.layer, u64::from(i));
        parents.clear();
        self.model.for_each_layer_parent(pos, |p| parents.push(p));
        self.hidden.extend_parents(i, parents);
        // Every parent's cell and counter read first: independent plain loads overlap their
        // cache misses, which the atomic updates below (one after the other) would not.
        let touched = parents.iter().fold(0u32, |t, &p| {
            t ^ u32::from(self.cells[p as usize].load(Ordering::Relaxed))
                ^ u32::from(self.counts[p as usize].load(Ordering::Relaxed))
        });
        std::hint::black_box(touched);
        for &p in parents.iter() {
            f(p, visit_parent(&self.cells[p as usize], &self.counts[p as usize], v, next));
        }
    }

    /// [`Propagation::Sweeps`]: sweep `d` propagates the cells decided at `d` and decides the
    /// waiting cells due at `d + 1`. Both only ever decide at `d + 1`, so one sweep does both,
    /// and every cell decided at `d + 1` is decided before the sweep that propagates it. When
    /// a sweep decides nothing at `d + 1`, the next sweep is at the smallest distance a cell
    /// then holds that is still to come ([`event`]), so the distances where nothing happens
    /// are skipped; the sweeps end when none is left.
    fn sweep_all(&self, first: u16, control: &Control<'_>) -> Result<(), EngineError> {
        let mut d = usize::from(first);
        while d != usize::from(u16::MAX) {
            if control.stopped() {
                return Err(EngineError::Stopped);
            }
            if d + 1 > cell::MAX_DISTANCE as usize {
                return Err(EngineError::DistanceOverflow);
            }
            let (dist, next) = (d as u16, d as u16 + 1);
            let decided_next = AtomicBool::new(false);
            // The sweep after this one if nothing is decided at `next`.
            let later = AtomicU16::new(u16::MAX);
            self.cells.par_chunks(CHUNK as usize).enumerate().for_each(|(c, chunk)| {
                let mut parents: Vec<u64> = Vec::new();
                let (mut any, mut soonest) = (false, u16::MAX);
                for (j, slot) in chunk.iter().enumerate() {
                    let x = slot.load(Ordering::Relaxed);
                    if let Some(e) = event(x, next) {
                        soonest = soonest.min(e);
                    }
                    let i = c * CHUNK as usize + j;
                    let v = cell::value(x);
                    if v == UNKNOWN {
                        // A waiting cell whose time has come.
                        let due = cell::aux(x) == next
                            && (x & cell::HAS_WIN != 0
                                || self.counts[i].load(Ordering::Relaxed) == 0);
                        if due {
                            let v = if x & cell::HAS_WIN != 0 { WIN } else { LOSS };
                            let now = cell::decided(v, next);
                            any |= slot
                                .compare_exchange(x, now, Ordering::Relaxed, Ordering::Relaxed)
                                .is_ok();
                        }
                    } else if (v == WIN || v == LOSS) && cell::distance(x) == dist {
                        self.spread(i as u32, v, next, &mut parents, |_, visit| {
                            any |= visit == Visit::Decided;
                        });
                    }
                }
                if any {
                    decided_next.store(true, Ordering::Relaxed);
                }
                later.fetch_min(soonest, Ordering::Relaxed);
            });
            d = if decided_next.load(Ordering::Relaxed) {
                d + 1
            } else {
                usize::from(later.load(Ordering::Relaxed))
            };
        }
        Ok(())
    }

    /// [`Propagation::Buckets`]: the buckets of ranks per distance, in increasing order. A
    /// bucket entry is *firm* (decided, to propagate) or *tentative* (a waiting cell, decided
    /// when its bucket comes unless decided before); tentative entries are taken first, so
    /// every decision at `d` precedes the propagation that makes decisions at `d + 1`.
    fn bucket_all(
        &self,
        mut buckets: Vec<Vec<u32>>,
        control: &Control<'_>,
    ) -> Result<(), EngineError> {
        let mut d = 0usize;
        while d < buckets.len() {
            let list = std::mem::take(&mut buckets[d]);
            if list.is_empty() {
                d += 1;
                continue;
            }
            if control.stopped() {
                return Err(EngineError::Stopped);
            }
            if d + 1 > cell::MAX_DISTANCE as usize {
                return Err(EngineError::DistanceOverflow);
            }
            let (dist, next) = (d as u16, d as u16 + 1);
            let firm: Vec<u32> = list
                .par_iter()
                .with_min_len(ENTRY_CHUNK)
                .filter_map(|&e| {
                    let i = e & !TENTATIVE;
                    if e & TENTATIVE == 0 {
                        return Some(i);
                    }
                    let slot = &self.cells[i as usize];
                    let c = slot.load(Ordering::Relaxed);
                    if cell::value(c) != UNKNOWN {
                        return None;
                    }
                    let v = if c & cell::HAS_WIN != 0 { WIN } else { LOSS };
                    let now = cell::decided(v, dist);
                    slot.compare_exchange(c, now, Ordering::Relaxed, Ordering::Relaxed)
                        .ok()
                        .map(|_| i)
                })
                .collect();
            drop(list);
            let found = Mutex::new(Vec::<Vec<u32>>::new());
            firm.par_chunks(ENTRY_CHUNK).for_each(|chunk| {
                let mut local: Vec<Vec<u32>> = Vec::new();
                let mut parents: Vec<u64> = Vec::new();
                for &i in chunk {
                    let v = cell::value(self.cells[i as usize].load(Ordering::Relaxed));
                    self.spread(i, v, next, &mut parents, |p, visit| match visit {
                        Visit::Decided => push(&mut local, d + 1, p as u32),
                        Visit::Waits(bound) => {
                            push(&mut local, usize::from(bound), p as u32 | TENTATIVE);
                        }
                        Visit::Nothing => {}
                    });
                }
                merge(&found, local);
            });
            let found = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
            for (level, mut v) in found.into_iter().enumerate() {
                if !v.is_empty() {
                    if buckets.len() <= level {
                        buckets.resize_with(level + 1, Vec::new);
                    }
                    buckets[level].append(&mut v);
                }
            }
            d += 1;
        }
        Ok(())
    }
}

/// What visiting a parent did ([`visit_parent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Visit {
    /// Nothing decided (the parent was decided before, or still has moves not refuted).
    Nothing,
    /// The parent was decided at the distance of the visit.
    Decided,
    /// The parent's last move in the layer was refuted; it is a loss at its bound (later than
    /// the distance of the visit), unless a win is found before.
    Waits(u16),
}

/// The sweep, at `from` or later, in which cell `c` does something: a decided win or loss is
/// propagated in the sweep of its distance; a waiting cell (undecided, with its aux) may be
/// due in the sweep before its aux. `None` for draws, skipped cells and undecided cells
/// without aux, or when that sweep is before `from`.
fn event(c: u16, from: u16) -> Option<u16> {
    let e = match cell::value(c) {
        UNKNOWN if cell::aux(c) > 0 => cell::aux(c) - 1,
        WIN | LOSS => cell::distance(c),
        _ => return None,
    };
    (e >= from).then_some(e)
}

/// A child decided `child` (its value) at `next - 1` seen from its undecided parent (cell
/// `ps`, counter `count`): a lost child makes the parent a win at `next`; a won child lowers
/// the counter, and the parent whose counter reaches 0 is a loss at `next`, or waits for its
/// bound if that is later (its aux is the bound, its counter 0).
fn visit_parent(ps: &AtomicU16, count: &AtomicU8, child: u8, next: u16) -> Visit {
    let mut c = ps.load(Ordering::Relaxed);
    if cell::value(c) != UNKNOWN {
        return Visit::Nothing;
    }
    if child == LOSS {
        let won = cell::decided(WIN, next);
        loop {
            match ps.compare_exchange_weak(c, won, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Visit::Decided,
                Err(now) if cell::value(now) == UNKNOWN => c = now,
                Err(_) => return Visit::Nothing,
            }
        }
    }
    if c & cell::HAS_WIN != 0 || count.fetch_sub(1, Ordering::Relaxed) != 1 {
        return Visit::Nothing;
    }
    let bound = cell::aux(c);
    if bound > next {
        return Visit::Waits(bound);
    }
    let lost = cell::decided(LOSS, next);
    if ps.compare_exchange(c, lost, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        Visit::Decided
    } else {
        Visit::Nothing
    }
}
