//! Storage of the positions reachable from a GIPF root, and nothing else: per layer the sorted
//! ranks of its reachable positions ([`KeySet`], 8 bytes each plus a directory of about 1 to 2
//! bytes per position), so the engine's cells and counters are kept per *reachable* position
//! (a dense id, the position's place in the sorted list) instead of per indexed one.
//!
//! * [`reach`] finds them: layer by layer, breadth-first inside a layer, each position's moves
//!   generated once (in parallel over the frontier; the new ranks go into a hash set per layer,
//!   by one thread).
//! * [`SparseModel`] shows the layered engine ([`solve_layer`](crate::search::retro::solve::solve_layer))
//!   the reachable positions as layers of dense ids: a child or a parent found by un-pushing
//!   is looked up by its rank; parents that are not reachable are skipped (the set is closed
//!   under moves, so every child is found).

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::GipfModel;
use crate::game::Outcome;
use crate::games::gipf::index::IndexedPos;
use crate::search::retro::model::LayerModel;

/// Positions per work item of the reachability pass.
const CHUNK: usize = 1 << 12;

/// The ranks of one layer's reachable positions, sorted, with a directory by the high bits of
/// the rank: [`KeySet::find`] looks at one directory entry and a short sorted slice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeySet {
    ranks: Vec<u64>,
    /// `dir[b]` is the first position whose rank `>> shift` is at least `b`.
    dir: Vec<u32>,
    shift: u32,
}

impl KeySet {
    /// The set of `ranks` (sorted, without duplicates, fewer than `2^32`).
    pub fn from_sorted(ranks: Vec<u64>) -> KeySet {
        debug_assert!(ranks.windows(2).all(|w| w[0] < w[1]));
        let Some(&max) = ranks.last() else { return KeySet::default() };
        // 4 to 8 positions per bucket on average: at most a byte of directory per position.
        let want = (ranks.len() / 8).max(1).next_power_of_two().trailing_zeros();
        let top = 64 - max.leading_zeros();
        let shift = top.saturating_sub(want);
        let buckets = (max >> shift) as usize + 1;
        let mut dir = Vec::with_capacity(buckets + 1);
        let mut at = 0usize;
        for b in 0..=buckets as u64 {
            while at < ranks.len() && ranks[at] >> shift < b {
                at += 1;
            }
            dir.push(at as u32);
        }
        KeySet { ranks, dir, shift }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// The rank of the position of id `i`.
    #[inline]
    pub fn rank(&self, i: usize) -> u64 {
        self.ranks[i]
    }

    /// The sorted ranks.
    pub fn ranks(&self) -> &[u64] {
        &self.ranks
    }

    /// The id of the position of rank `r`, if it is in the set.
    #[inline]
    pub fn find(&self, r: u64) -> Option<u32> {
        let b = (r >> self.shift) as usize;
        if b + 1 >= self.dir.len() {
            return None;
        }
        let (lo, hi) = (self.dir[b] as usize, self.dir[b + 1] as usize);
        let slice = &self.ranks[lo..hi];
        let at = slice.partition_point(|&x| x < r);
        (at < slice.len() && slice[at] == r).then_some((lo + at) as u32)
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        (self.ranks.capacity() * 8 + self.dir.capacity() * 4) as u64
    }
}

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

const MAGIC: u64 = 0x6769_7066_7265_6163; // "gipfreac"

/// Writes `layers` (finished ones sorted, the others as lists) after the number of finished
/// layers `done`, atomically (a temporary file renamed).
fn save_layers(path: &Path, done: usize, layers: &[Vec<u64>]) -> std::io::Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)?;
    }
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for x in [MAGIC, done as u64, layers.len() as u64] {
            f.write_all(&x.to_le_bytes())?;
        }
        for l in layers {
            f.write_all(&(l.len() as u64).to_le_bytes())?;
            for r in l {
                f.write_all(&r.to_le_bytes())?;
            }
        }
        f.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

/// Reads what [`save_layers`] wrote, if it is there and has `count` layers.
fn load_layers(path: &Path, count: usize) -> Option<(usize, Vec<Vec<u64>>)> {
    let mut f = std::io::BufReader::new(std::fs::File::open(path).ok()?);
    let mut word = || {
        let mut b = [0u8; 8];
        f.read_exact(&mut b).ok().map(|()| u64::from_le_bytes(b))
    };
    if word()? != MAGIC {
        return None;
    }
    let done = word()? as usize;
    if word()? != count as u64 || done > count {
        return None;
    }
    let mut layers = Vec::with_capacity(count);
    for _ in 0..count {
        let n = word()?;
        let mut l = Vec::with_capacity(n as usize);
        for _ in 0..n {
            l.push(word()?);
        }
        layers.push(l);
    }
    Some((done, layers))
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
    if let Some(p) = &final_path
        && let Some((done, layers)) = load_layers(p, count)
        && done == count
    {
        (run.log)("retro2: reachable sets loaded from the checkpoint");
        return Ok(layers.into_iter().map(KeySet::from_sorted).collect());
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
        let lists: Vec<Vec<u64>> = done.iter().map(|k| k.ranks().to_vec()).collect();
        save_layers(p, count, &lists).map_err(|e| ReachStop::Io(e.to_string()))?;
        if let Some(q) = &partial {
            let _ = std::fs::remove_file(q);
        }
    }
    Ok(done)
}

/// Logs the end of the reachability search of layer `l` and writes a partial checkpoint if the
/// last one is five minutes old (`lists()`: every layer's ranks so far).
fn layer_done(
    model: &GipfModel,
    run: &ReachRun<'_>,
    (l, set, total): (usize, &KeySet, u64),
    began: std::time::Instant,
    saved: &mut std::time::Instant,
    lists: impl FnOnce() -> Vec<Vec<u64>>,
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
        save_layers(&d.join("reach-partial.keys"), l + 1, &lists())
            .map_err(|e| ReachStop::Io(e.to_string()))?;
        *saved = std::time::Instant::now();
    }
    Ok(())
}

/// The ranks whose bit is set in `words`, in order.
fn set_bits(words: &[AtomicU64]) -> Vec<u64> {
    words
        .par_iter()
        .enumerate()
        .with_min_len(1 << 12)
        .flat_map_iter(|(i, w)| {
            let mut w = w.load(Ordering::Relaxed);
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = u64::from(w.trailing_zeros());
                    w &= w - 1;
                    i as u64 * 64 + b
                })
            })
        })
        .collect()
}

/// Sets bit `r` of `bits`; whether it was clear.
#[inline]
fn set_bit(bits: &[AtomicU64], r: u64) -> bool {
    let bit = 1u64 << (r % 64);
    bits[(r / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
}

/// [`reach`] with one bit per indexed position of every layer (atomic, so the threads set
/// them directly).
fn reach_bits(
    model: &GipfModel,
    (l0, r0): (usize, u64),
    resume: Option<(usize, Vec<Vec<u64>>)>,
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
        for (l, ranks) in layers.into_iter().enumerate() {
            if l < d {
                done.push(KeySet::from_sorted(ranks));
            } else {
                bits[l] = words(l);
                for r in ranks {
                    set_bit(&bits[l], r);
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
        let mut frontier = set_bits(here);
        let mut in_layer = frontier.len() as u64;
        while !frontier.is_empty() {
            if (run.stopped)() {
                return Err(ReachStop::Stopped);
            }
            frontier = frontier
                .par_chunks(CHUNK)
                .flat_map_iter(|chunk| {
                    let mut found = Vec::new();
                    if (run.stopped)() {
                        return found;
                    }
                    for &r in chunk {
                        model.children(idx.unrank(l, r), |cl, cr, _| {
                            let cl = cl as usize;
                            if cl == l {
                                if set_bit(here, cr) {
                                    found.push(cr);
                                }
                            } else {
                                set_bit(&rest[cl - l - 1], cr);
                            }
                        });
                    }
                    found
                })
                .collect();
            in_layer += frontier.len() as u64;
            if total + in_layer > run.cap {
                return Err(ReachStop::TooMany(total + in_layer));
            }
        }
        if (run.stopped)() {
            return Err(ReachStop::Stopped);
        }
        let keys = KeySet::from_sorted(set_bits(here));
        bits[l] = Vec::new();
        total += keys.len() as u64;
        done.push(keys);
        let (finished, bits) = (&done, &bits);
        layer_done(model, run, (l, &done[l], total), began, &mut saved, || {
            finished
                .iter()
                .map(|k| k.ranks().to_vec())
                .chain(bits[l + 1..].iter().map(|b| set_bits(b)))
                .collect()
        })?;
    }
    Ok(done)
}

/// [`reach`] with a hash set of ranks per layer (filled by one thread, the moves generated in
/// parallel): for indexes too large for [`reach_bits`].
fn reach_hash(
    model: &GipfModel,
    (l0, r0): (usize, u64),
    resume: Option<(usize, Vec<Vec<u64>>)>,
    run: &ReachRun<'_>,
) -> Result<Vec<KeySet>, ReachStop> {
    let idx = &model.layers.index;
    let count = idx.layer_count();
    let mut done: Vec<KeySet> = Vec::with_capacity(count);
    let mut open: Vec<RankSet> = vec![RankSet::default(); count];
    let start = if let Some((d, layers)) = resume {
        for (l, ranks) in layers.into_iter().enumerate() {
            if l < d {
                done.push(KeySet::from_sorted(ranks));
            } else {
                for r in ranks {
                    open[l].insert(r);
                }
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
            if (run.stopped)() {
                return Err(ReachStop::Stopped);
            }
            let found: Vec<Found> = frontier
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
            frontier.clear();
            for (same, later) in found {
                for r in same {
                    if open[l].insert(r) {
                        frontier.push(r);
                    }
                }
                for (cl, cr) in later {
                    open[cl as usize].insert(cr);
                }
            }
            let bytes: u64 = done.iter().map(KeySet::bytes).sum::<u64>()
                + open.iter().map(RankSet::bytes).sum::<u64>()
                + frontier.capacity() as u64 * 8;
            if bytes > run.budget {
                return Err(ReachStop::Budget(bytes));
            }
            let now = total + open[l..].iter().map(|s| s.len as u64).sum::<u64>();
            if now > run.cap {
                return Err(ReachStop::TooMany(now));
            }
        }
        let set = KeySet::from_sorted(std::mem::take(&mut open[l]).into_sorted());
        total += set.len() as u64;
        done.push(set);
        let (finished, open) = (&done, &open);
        layer_done(model, run, (l, &done[l], total), began, &mut saved, || {
            finished
                .iter()
                .map(|k| k.ranks().to_vec())
                .chain(open[l + 1..].iter().map(|s| s.ranks().collect()))
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

    fn layers(&self) -> usize {
        self.sets.len()
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.sets[layer].len() as u64
    }

    fn scan(&self, layer: usize, start: u64, end: u64, mut f: impl FnMut(u64, IndexedPos)) {
        for i in start..end {
            f(i, self.position(layer, i));
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
    fn key_sets_find_their_ranks_and_nothing_else() {
        for ranks in [
            vec![],
            vec![0],
            vec![5],
            vec![1, 2, 3, 100, 1 << 40, (1 << 40) + 1, u64::MAX >> 2],
            (0..5000u64).map(|i| i * i * 7 + (i % 3)).collect::<Vec<_>>(),
        ] {
            let set = KeySet::from_sorted(ranks.clone());
            assert_eq!(set.len(), ranks.len());
            for (i, &r) in ranks.iter().enumerate() {
                assert_eq!(set.find(r), Some(i as u32));
                assert_eq!(set.rank(i), r);
                if !ranks.contains(&(r + 1)) {
                    assert_eq!(set.find(r + 1), None);
                }
            }
            assert_eq!(set.find(u64::MAX >> 1), None);
        }
    }

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
        use crate::Notation;
        use crate::games::gipf::Gipf;
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

    #[test]
    fn layer_files_round_trip() {
        let dir = std::env::temp_dir().join(format!("bitsolve-keys-{}", std::process::id()));
        let path = dir.join("reach.keys");
        let layers = vec![vec![1, 5, 9], vec![], vec![u64::MAX >> 1]];
        save_layers(&path, 2, &layers).unwrap();
        assert_eq!(load_layers(&path, 3), Some((2, layers)));
        assert_eq!(load_layers(&path, 4), None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
