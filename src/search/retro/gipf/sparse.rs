//! Storage of the positions reachable from a GIPF root, and nothing else: per layer the set of
//! the ranks of its reachable positions ([`KeySet`]: one bit per indexed position with count
//! and select directories when the set is dense, as on the GIPF tables, about 0.3 bytes per
//! reachable position; sorted ranks when it is sparse, about 9), so the engine's cells and
//! counters are kept per *reachable* position (a dense id, the position's place in the sorted
//! set) instead of per indexed one.
//!
//! * [`reach`] finds them, layer by layer, each position's moves generated once. With one
//!   atomic bit per indexed position (when the index's bits fit in half the budget), a layer
//!   is swept until a sweep finds no new bit: the threads expand, chunk by chunk of words, the
//!   set bits not yet expanded (one more bit per indexed position of the layer), setting the
//!   bits of the children in this and later layers. Else with a hash set per layer (filled by
//!   one thread, the moves generated in parallel over the frontier).
//! * [`SparseModel`] shows the layered engine ([`solve_layer`](crate::search::retro::solve::solve_layer))
//!   the reachable positions as layers of dense ids: a child or a parent found by un-pushing
//!   is looked up by its rank; parents that are not reachable are skipped (the set is closed
//!   under moves, so every child is found).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::search::retro::model::Propagation;

use super::GipfModel;
use crate::game::Outcome;
use crate::games::gipf::index::IndexedPos;
pub use crate::search::retro::keyset::KeySet;
use crate::search::retro::keyset::{BITS, LIST, Layer, read_layer, read_word, read_words};
use crate::search::retro::model::LayerModel;

/// Positions per work item of the hash pass.
const CHUNK: usize = 1 << 12;
/// Words (64 indexed positions each) per work item of a sweep of the bit pass.
const WORD_CHUNK: usize = 1 << 8;

/// An open-addressing set of ranks (`< 2^63`; slots hold `rank + 1`, 0 is empty), at most
/// half full.
#[derive(Clone, Debug, Default)]
struct RankSet {
    slots: Vec<u64>,
    len: usize,
}

impl RankSet {
    #[inline]
    fn slot(r: u64, mask: usize) -> usize {
        let h = r.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h ^ (h >> 31)) as usize) & mask
    }

    /// Adds `r`; whether it is new.
    fn insert(&mut self, r: u64) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(r, mask);
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = r + 1;
                    self.len += 1;
                    return true;
                }
                s if s == r + 1 => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let mut i = Self::slot(s - 1, mask);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }

    /// The ranks, in no order.
    fn ranks(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().filter(|&&s| s != 0).map(|&s| s - 1)
    }

    /// The ranks, sorted (the set is emptied).
    fn into_sorted(self) -> Vec<u64> {
        let mut v: Vec<u64> = self.ranks().collect();
        drop(self);
        v.par_sort_unstable();
        v
    }

    fn bytes(&self) -> u64 {
        self.slots.len() as u64 * 8
    }
}

/// Why the reachability pass stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReachStop {
    /// The stop flag or the time limit.
    Stopped,
    /// More positions than the cap: this many were reached.
    TooMany(u64),
    /// The sets took more bytes than the budget: this many.
    Budget(u64),
    /// A checkpoint could not be written.
    Io(String),
}

/// Limits and hooks of [`reach`].
pub struct ReachRun<'a> {
    /// Largest number of positions (more: [`ReachStop::TooMany`]).
    pub cap: u64,
    /// Largest number of bytes of the sets ([`ReachStop::Budget`]).
    pub budget: u64,
    /// Whether to stop (time limit or stop flag).
    pub stopped: &'a (dyn Fn() -> bool + Sync),
    /// Progress lines.
    pub log: &'a dyn Fn(&str),
    /// Where to keep the finished layers (`reach.keys` at the end, `reach-partial.keys` every
    /// few minutes), and to resume from.
    pub checkpoint: Option<&'a Path>,
}

/// First word of a layer file of the first version (every layer a list of ranks).
const MAGIC: u64 = 0x6769_7066_7265_6163; // "gipfreac"
/// First word of a layer file of the second version (every layer with its form).
const MAGIC2: u64 = 0x6769_7066_7265_6132; // "gipfrea2"

/// A layer to write: a finished set, the open bits of a layer, or a list of ranks.
enum Out<'a> {
    Keys(&'a KeySet),
    Atomic(&'a [AtomicU64]),
    Ranks(Vec<u64>),
}

/// Writes `layers` after the number of finished layers `done`, atomically (a temporary file
/// renamed): the magic word, `done`, the number of layers, then each layer in the form of
/// [`crate::search::retro::keyset::write_layer`] (form tag, count, values; little-endian).
fn save_layers(path: &Path, done: usize, layers: &[Out<'_>]) -> std::io::Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)?;
    }
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for x in [MAGIC2, done as u64, layers.len() as u64] {
            f.write_all(&x.to_le_bytes())?;
        }
        for l in layers {
            match l {
                Out::Keys(k) => k.write_to(&mut f)?,
                Out::Ranks(r) => crate::search::retro::keyset::write_layer(&mut f, LIST, r)?,
                Out::Atomic(a) => {
                    for x in [BITS, a.len() as u64] {
                        f.write_all(&x.to_le_bytes())?;
                    }
                    for w in *a {
                        f.write_all(&w.load(Ordering::Relaxed).to_le_bytes())?;
                    }
                }
            }
        }
        f.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

/// Reads what [`save_layers`] wrote (or the first version's lists), if it is there and has
/// `count` layers.
fn load_layers(path: &Path, count: usize) -> Option<(usize, Vec<Layer>)> {
    let mut f = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    let magic = read_word(&mut f).ok()?;
    if magic != MAGIC && magic != MAGIC2 {
        return None;
    }
    let done = read_word(&mut f).ok()? as usize;
    if read_word(&mut f).ok()? != count as u64 || done > count {
        return None;
    }
    let mut layers = Vec::with_capacity(count);
    for _ in 0..count {
        layers.push(if magic == MAGIC {
            let n = read_word(&mut f).ok()?;
            Layer::Ranks(read_words(&mut f, n).ok()?)
        } else {
            read_layer(&mut f).ok()?
        });
    }
    Some((done, layers))
}

/// A finished layer as read from a file.
fn finished(layer: Layer) -> KeySet {
    KeySet::from_layer(layer)
}

/// What one work item of the reachability pass found: ranks in the layer being explored, and
/// `(layer, rank)` in later layers.
type Found = (Vec<u64>, Vec<(u32, u64)>);

/// The positions reachable from rank `r0` of layer `l0`, per layer (empty sets before `l0`),
/// each position's moves generated once. With one bit per indexed position (`reach_bits`)
/// when the index's bits take at most half the budget, else with hash sets (`reach_hash`).
///
/// # Errors
/// See [`ReachStop`].
pub fn reach(
    model: &GipfModel,
    root: (usize, u64),
    run: &ReachRun<'_>,
) -> Result<Vec<KeySet>, ReachStop> {
    let idx = &model.layers.index;
    let count = idx.layer_count();
    let final_path = run.checkpoint.map(|d| d.join("reach.keys"));
    if let Some(sets) = run.checkpoint.and_then(|d| load_reach(d, count)) {
        (run.log)("retro2: reachable sets loaded from the checkpoint");
        return Ok(sets);
    }
    let partial = run.checkpoint.map(|d| d.join("reach-partial.keys"));
    let resume = partial.as_deref().and_then(|p| load_layers(p, count));
    if let Some((d, _)) = &resume {
        (run.log)(&format!("retro2: reachability resumed at layer {d} from the checkpoint"));
    }
    let done = if idx.total_size() / 8 <= run.budget / 2 {
        reach_bits(model, root, resume, run)?
    } else {
        reach_hash(model, root, resume, run)?
    };
    if let Some(p) = &final_path {
        let out: Vec<Out<'_>> = done.iter().map(Out::Keys).collect();
        save_layers(p, count, &out).map_err(|e| ReachStop::Io(e.to_string()))?;
        if let Some(q) = &partial {
            let _ = std::fs::remove_file(q);
        }
    }
    Ok(done)
}

/// Stores the reachable sets of a finished pass in `dir` (`reach.keys`).
///
/// # Errors
/// A write error.
pub fn save_reach(dir: &Path, sets: &[KeySet]) -> std::io::Result<()> {
    let out: Vec<Out<'_>> = sets.iter().map(Out::Keys).collect();
    save_layers(&dir.join("reach.keys"), sets.len(), &out)
}

/// The reachable sets of a finished reachability pass kept in `dir` (`reach.keys`), if they
/// are there and have `count` layers.
pub fn load_reach(dir: &Path, count: usize) -> Option<Vec<KeySet>> {
    let (done, layers) = load_layers(&dir.join("reach.keys"), count)?;
    (done == count).then(|| layers.into_iter().map(finished).collect())
}

/// Logs the end of the reachability search of layer `l` and, if the last partial checkpoint
/// is five minutes old, writes one (`layers()`: every layer so far, the first `l + 1`
/// finished).
fn layer_done<'a>(
    model: &GipfModel,
    run: &ReachRun<'_>,
    (l, set, total): (usize, &KeySet, u64),
    began: std::time::Instant,
    saved: &mut std::time::Instant,
    layers: impl FnOnce() -> Vec<Out<'a>>,
) -> Result<(), ReachStop> {
    let idx = &model.layers.index;
    if !set.is_empty() {
        let secs = began.elapsed().as_secs_f64();
        (run.log)(&format!(
            "retro2: layer {l} {:?}: {} reachable ({total} in all, {secs:.1} s, {:.0} positions/s)",
            idx.layer_totals(l),
            set.len(),
            total as f64 / secs.max(1e-9)
        ));
    }
    if let Some(d) = run.checkpoint
        && l + 1 < idx.layer_count()
        && saved.elapsed().as_secs() >= 300
    {
        save_layers(&d.join("reach-partial.keys"), l + 1, &layers())
            .map_err(|e| ReachStop::Io(e.to_string()))?;
        *saved = std::time::Instant::now();
    }
    Ok(())
}

/// Sets bit `r` of `bits`; whether it was clear.
#[inline]
fn set_bit(bits: &[AtomicU64], r: u64) -> bool {
    let bit = 1u64 << (r % 64);
    bits[(r / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
}

/// [`reach`] with one bit per indexed position of every layer (atomic, so the threads set
/// them directly), each layer swept until no bit is new.
// Long: one sweep loop whose per-layer state (bit sets, outputs for the later layers, the
// budget check) would only be passed around if split; issue 48 gives reachability one home.
fn reach_bits(
    model: &GipfModel,
    (l0, r0): (usize, u64),
    resume: Option<(usize, Vec<Layer>)>,
    run: &ReachRun<'_>,
) -> Result<Vec<KeySet>, ReachStop> {
    let idx = &model.layers.index;
    let count = idx.layer_count();
    let words = |l: usize| -> Vec<AtomicU64> {
        (0..idx.size_of(l).div_ceil(64)).map(|_| AtomicU64::new(0)).collect()
    };
    let mut bits: Vec<Vec<AtomicU64>> = (0..count).map(|_| Vec::new()).collect();
    let mut done: Vec<KeySet> = Vec::with_capacity(count);
    let start = if let Some((d, layers)) = resume {
        for (l, layer) in layers.into_iter().enumerate() {
            if l < d {
                done.push(finished(layer));
                continue;
            }
            bits[l] = words(l);
            match layer {
                Layer::Ranks(ranks) => ranks.into_iter().for_each(|r| {
                    set_bit(&bits[l], r);
                }),
                Layer::Words(w) => {
                    for (a, w) in bits[l].iter().zip(w) {
                        a.store(w, Ordering::Relaxed);
                    }
                }
            }
        }
        d
    } else {
        done.resize(l0, KeySet::default());
        for (l, b) in bits.iter_mut().enumerate().skip(l0) {
            *b = words(l);
        }
        set_bit(&bits[l0], r0);
        l0
    };
    let began = std::time::Instant::now();
    let mut saved = std::time::Instant::now();
    let mut total: u64 = done.iter().map(|k| k.len() as u64).sum();
    for l in start..count {
        let (head, rest) = bits.split_at(l + 1);
        let here = &head[l];
        // The bits of `here` whose positions have been expanded.
        let mut expanded = vec![0u64; here.len()];
        let mut in_layer = 0u64;
        loop {
            let fresh = AtomicU64::new(0);
            expanded.par_chunks_mut(WORD_CHUNK).enumerate().for_each(|(c, chunk)| {
                if (run.stopped)() {
                    return;
                }
                let mut n = 0u64;
                for (j, e) in chunk.iter_mut().enumerate() {
                    let w = c * WORD_CHUNK + j;
                    // Expansions may set bits of this very word: look again until none is new.
                    let mut new = here[w].load(Ordering::Relaxed) & !*e;
                    while new != 0 {
                        *e |= new;
                        n += u64::from(new.count_ones());
                        while new != 0 {
                            let r = w as u64 * 64 + u64::from(new.trailing_zeros());
                            new &= new - 1;
                            model.children(idx.unrank(l, r), |cl, cr, _| {
                                let cl = cl as usize;
                                if cl == l {
                                    set_bit(here, cr);
                                } else {
                                    set_bit(&rest[cl - l - 1], cr);
                                }
                            });
                        }
                        new = here[w].load(Ordering::Relaxed) & !*e;
                    }
                }
                fresh.fetch_add(n, Ordering::Relaxed);
            });
            // A stopped sweep skips chunks: its count means nothing.
            if (run.stopped)() {
                return Err(ReachStop::Stopped);
            }
            let n = fresh.into_inner();
            if n == 0 {
                break;
            }
            in_layer += n;
            if total + in_layer > run.cap {
                return Err(ReachStop::TooMany(total + in_layer));
            }
        }
        drop(expanded);
        let layer_words: Vec<u64> =
            std::mem::take(&mut bits[l]).into_iter().map(AtomicU64::into_inner).collect();
        let keys = KeySet::from_words(layer_words);
        total += keys.len() as u64;
        done.push(keys);
        let (finished, bits) = (&done, &bits);
        layer_done(model, run, (l, &done[l], total), began, &mut saved, || {
            finished
                .iter()
                .map(Out::Keys)
                .chain(bits[l + 1..].iter().map(|b| Out::Atomic(b)))
                .collect()
        })?;
    }
    Ok(done)
}

/// Frontier positions whose moves [`reach_hash`] generates at once.
const HASH_BATCH: usize = 1 << 18;

/// [`reach`] with a hash set of ranks per layer (filled by one thread, the moves generated in
/// parallel): for indexes too large for [`reach_bits`].
// Long: the batched frontier loop of `reach_bits` over hash sets (fill, generate in parallel,
// merge, check the budget); kept beside it so the two read alike (issue 48 unifies them).
fn reach_hash(
    model: &GipfModel,
    (l0, r0): (usize, u64),
    resume: Option<(usize, Vec<Layer>)>,
    run: &ReachRun<'_>,
) -> Result<Vec<KeySet>, ReachStop> {
    let idx = &model.layers.index;
    let count = idx.layer_count();
    let mut done: Vec<KeySet> = Vec::with_capacity(count);
    let mut open: Vec<RankSet> = vec![RankSet::default(); count];
    let start = if let Some((d, layers)) = resume {
        for (l, layer) in layers.into_iter().enumerate() {
            if l < d {
                done.push(finished(layer));
                continue;
            }
            match layer {
                Layer::Ranks(ranks) => ranks.into_iter().for_each(|r| {
                    open[l].insert(r);
                }),
                Layer::Words(w) => crate::search::retro::keyset::set_ranks(&w).for_each(|r| {
                    open[l].insert(r);
                }),
            }
        }
        d
    } else {
        done.resize(l0, KeySet::default());
        open[l0].insert(r0);
        l0
    };
    let began = std::time::Instant::now();
    let mut saved = std::time::Instant::now();
    let mut total: u64 = done.iter().map(|k| k.len() as u64).sum();
    for l in start..count {
        let mut frontier: Vec<u64> = open[l].ranks().collect();
        while !frontier.is_empty() {
            // The frontier's moves in batches, so that the moves found (16 bytes each, tens
            // per position) stay small beside the sets, and the budget is checked often.
            let mut next: Vec<u64> = Vec::new();
            for batch in frontier.chunks(HASH_BATCH) {
                if (run.stopped)() {
                    return Err(ReachStop::Stopped);
                }
                let found: Vec<Found> = batch
                    .par_chunks(CHUNK)
                    .map(|chunk| {
                        let (mut same, mut later) = (Vec::new(), Vec::new());
                        if (run.stopped)() {
                            return (same, later);
                        }
                        for &r in chunk {
                            model.children(idx.unrank(l, r), |cl, cr, _| {
                                if cl as usize == l {
                                    same.push(cr);
                                } else {
                                    later.push((cl, cr));
                                }
                            });
                        }
                        (same, later)
                    })
                    .collect();
                if (run.stopped)() {
                    return Err(ReachStop::Stopped);
                }
                for (same, later) in found {
                    for r in same {
                        if open[l].insert(r) {
                            next.push(r);
                        }
                    }
                    for (cl, cr) in later {
                        open[cl as usize].insert(cr);
                    }
                }
                // The sets, the frontiers, and the growth of the largest open set (its new
                // table beside the old one while it is rehashed).
                let largest = open.iter().map(RankSet::bytes).max().unwrap_or(0);
                let bytes: u64 = done.iter().map(KeySet::bytes).sum::<u64>()
                    + open.iter().map(RankSet::bytes).sum::<u64>()
                    + 2 * largest
                    + (frontier.capacity() + next.capacity()) as u64 * 8;
                if bytes > run.budget {
                    return Err(ReachStop::Budget(bytes));
                }
                let now = total + open[l..].iter().map(|s| s.len as u64).sum::<u64>();
                if now > run.cap {
                    return Err(ReachStop::TooMany(now));
                }
            }
            frontier = next;
        }
        let set = KeySet::from_sorted(std::mem::take(&mut open[l]).into_sorted());
        total += set.len() as u64;
        done.push(set);
        let (finished, open) = (&done, &open);
        layer_done(model, run, (l, &done[l], total), began, &mut saved, || {
            finished
                .iter()
                .map(Out::Keys)
                .chain(open[l + 1..].iter().map(|s| Out::Ranks(s.ranks().collect())))
                .collect()
        })?;
    }
    Ok(done)
}

/// The reachable positions as the layered engine's layers: the position of id `i` in layer
/// `l` is the one of rank `sets[l].rank(i)` of the index.
pub struct SparseModel<'a> {
    /// The index and the rules.
    pub model: &'a GipfModel,
    /// The reachable positions of each layer.
    pub sets: &'a [KeySet],
}

impl SparseModel<'_> {
    /// The id of the position of rank `r` in `layer`; it must be reachable.
    #[inline]
    fn id(&self, layer: usize, r: u64) -> u64 {
        u64::from(self.sets[layer].find(r).expect("a child of a reachable position is reachable"))
    }
}

impl LayerModel for SparseModel<'_> {
    type Pos = IndexedPos;

    /// Sweeps: the largest layers of the S=3 variants hold hundreds of millions of
    /// positions, where buckets would add about 5.5 bytes per position (measured on 5+5:
    /// peak 1.49 GiB with buckets, 1.00 GiB with sweeps, the same cells).
    fn propagation(&self) -> Propagation {
        Propagation::Sweeps
    }

    fn layers(&self) -> usize {
        self.sets.len()
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.sets[layer].len() as u64
    }

    fn scan(&self, layer: usize, start: u64, end: u64, mut f: impl FnMut(u64, IndexedPos)) {
        let ranks = self.sets[layer].iter_from(start as usize);
        for (i, r) in (start..end).zip(ranks) {
            f(i, self.model.layers.index.unrank(layer, r));
        }
    }

    #[inline]
    fn position(&self, layer: usize, index: u64) -> IndexedPos {
        self.model.layers.index.unrank(layer, self.sets[layer].rank(index as usize))
    }

    fn outcome(&self, pos: IndexedPos) -> Option<Outcome> {
        self.model.outcome(pos)
    }

    fn for_each_next_child(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        self.for_each_later_child(pos, |j, r| {
            if j == 1 {
                f(r);
            }
        });
    }

    fn for_each_layer_child(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        self.model.children(pos, |l, r, _| {
            if l == pos.layer {
                f(self.id(l as usize, r));
            }
        });
    }

    fn layer_children(&self, pos: IndexedPos) -> u32 {
        let mut n = 0;
        self.model.children(pos, |l, _, _| n += u32::from(l == pos.layer));
        n
    }

    fn for_each_layer_parent(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        let set = &self.sets[pos.layer as usize];
        self.model.for_each_layer_parent(pos, |r| {
            if let Some(i) = set.find(r) {
                f(u64::from(i));
            }
        });
    }

    fn reach(&self) -> usize {
        self.sets.len()
    }

    fn for_each_later_child(&self, pos: IndexedPos, mut f: impl FnMut(usize, u64)) {
        self.model.children(pos, |l, r, _| {
            if l > pos.layer {
                f((l - pos.layer) as usize, self.id(l as usize, r));
            }
        });
    }

    fn expand(
        &self,
        pos: IndexedPos,
        mut later: impl FnMut(usize, u64),
        mut hidden: impl FnMut(u64),
    ) -> u32 {
        let mut n = 0;
        self.model.children(pos, |l, r, plain| {
            let id = self.id(l as usize, r);
            if l > pos.layer {
                later((l - pos.layer) as usize, id);
            } else {
                n += 1;
                if !plain {
                    hidden(id);
                }
            }
        });
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_sets_keep_each_rank_once() {
        let mut s = RankSet::default();
        for i in 0..10_000u64 {
            assert!(s.insert(i * 977 % 12_345));
        }
        for i in 0..10_000u64 {
            assert!(!s.insert(i * 977 % 12_345));
        }
        let sorted = s.into_sorted();
        let mut want: Vec<u64> = (0..10_000u64).map(|i| i * 977 % 12_345).collect();
        want.sort_unstable();
        assert_eq!(sorted, want);
    }

    /// Bits over the index and hash sets find the same positions (each pass called directly,
    /// since the budget alone picks one), and `reach` keeps the root.
    #[test]
    fn both_reachability_passes_agree() {
        use crate::games::gipf::Gipf;
        use crate::notation::Notation;
        for (text, at_least) in [
            ("3 3 4 4/1 1 W/W_B/____/B___W/____/W_B", 300),
            ("3 3 4 4/1 1 B/W_B/____/B___W/____/W_B", 100),
            ("2 2 6 5/3 2 W/WB/B_W/WB", 20),
        ] {
            let root = Gipf::parse_position(text).unwrap();
            let model = GipfModel::new(&root).unwrap();
            let (l0, r0) = crate::unmove::LayeredIndex::rank(&model.layers, &root).unwrap();
            let stopped = || false;
            let log = |_: &str| {};
            let run = ReachRun {
                cap: u64::MAX,
                budget: u64::MAX,
                stopped: &stopped,
                log: &log,
                checkpoint: None,
            };
            let a = reach_bits(&model, (l0, r0), None, &run).unwrap();
            let b = reach_hash(&model, (l0, r0), None, &run).unwrap();
            assert_eq!(a, b, "{text}");
            let n = a.iter().map(KeySet::len).sum::<usize>();
            assert!(n >= at_least, "{text}: {n} reachable positions");
            assert!(a[l0].find(r0).is_some());
            assert_eq!(reach(&model, (l0, r0), &run).unwrap(), a, "{text}");
        }
    }

    /// The hash pass stops at its budget with what it needed, between batches of moves
    /// (S=3 K=3 5+5 has 226,789,246 reachable positions; 4 MiB holds a small part of them).
    #[test]
    fn the_hash_pass_stops_at_its_budget() {
        use crate::games::gipf::Gipf;
        use crate::notation::Notation;
        let root = Gipf::parse_position("3 3 5 5/2 2 W/W_B/____/B___W/____/W_B").unwrap();
        let model = GipfModel::new(&root).unwrap();
        let (l0, r0) = crate::unmove::LayeredIndex::rank(&model.layers, &root).unwrap();
        let (stopped, log) = (|| false, |_: &str| {});
        let budget = 4 << 20;
        let run =
            ReachRun { cap: u64::MAX, budget, stopped: &stopped, log: &log, checkpoint: None };
        match reach_hash(&model, (l0, r0), None, &run) {
            Err(ReachStop::Budget(bytes)) => assert!(bytes > budget && bytes < 16 * budget),
            other => {
                panic!("expected the budget to stop the pass, got {:?}", other.map(|s| s.len()))
            }
        }
    }

    /// Files of both versions round trip, with every form of layer (a set in either form,
    /// open bits, a list).
    #[test]
    fn layer_files_round_trip() {
        let dir = std::env::temp_dir().join(format!("bitsolve-keys-{}", std::process::id()));
        let path = dir.join("reach.keys");
        let dense: Vec<u64> = (0..5000u64).filter(|r| r % 3 != 0).collect();
        let (a, b) =
            (KeySet::from_sorted(vec![1, 5, 9, 1 << 40]), KeySet::from_sorted(dense.clone()));
        let atomic: Vec<AtomicU64> = (0..3).map(|i| AtomicU64::new(i * 5 + 1)).collect();
        let layers = [Out::Keys(&a), Out::Keys(&b), Out::Atomic(&atomic), Out::Ranks(vec![7, 3])];
        save_layers(&path, 2, &layers).unwrap();
        let (done, back) = load_layers(&path, 4).unwrap();
        assert_eq!(done, 2);
        assert_eq!(finished(back[0].clone()), a);
        assert_eq!(finished(back[1].clone()), b);
        assert_eq!(back[2], Layer::Words(vec![1, 6, 11]));
        assert_eq!(back[3], Layer::Ranks(vec![7, 3]));
        assert_eq!(load_layers(&path, 5), None);
        // The first version: the magic word, done, count, then each layer's count and ranks.
        let words = [MAGIC, 1, 2, 2, 4, 8, 0];
        std::fs::write(&path, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>())
            .unwrap();
        assert_eq!(
            load_layers(&path, 2),
            Some((1, vec![Layer::Ranks(vec![4, 8]), Layer::Ranks(vec![])]))
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
