//! The one retrograde driver: reach, then the layers from the last down, then the table file,
//! for every game with a [`Strong`] adapter, in one process ([`build`]) or in steps over
//! processes and machines ([`reach_step`], [`layer_step`], [`merge_step`], [`assemble`]).
//!
//! Checkpoints and resume ([`Parts`]): each finished layer is stored, so a killed run started
//! again with `resume` continues below the lowest layer finished (the reachable sets come
//! back from the game's own checkpoints). The memory budget decides whether solved layers stay
//! in memory or are read through maps of their files, and refuses a run that would not fit
//! either way. Progress goes through [`Control`] (positions scanned) and a log function.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::file::{CellFormat, LayerSource, write_table};
use super::hidden::{Hidden, Spill};
use super::layers::{KeptCells, Tally};
use super::model::LayerModel;
use super::solve::{
    Control, EngineError, Scanned, propagate, propagate_with, scan_range, shard_range,
};
use super::store::Parts;
use super::strong::{ReachLimits, Strong, StrongError};
use super::values::PackedValues;
use super::values::{cell, zeroed_huge};

/// How [`build`] runs.
#[derive(Debug, Default)]
pub struct BuildOptions {
    /// The checkpoint directory (`None`: nothing is written, every layer stays in memory).
    pub parts: Option<Parts>,
    /// Continue from the checkpoints in `parts` (else they are cleared first).
    pub resume: bool,
    /// Read the solved layers through maps of their files (needs `parts`).
    pub map: bool,
    /// Memory budget in bytes (`None`: no budget).
    pub memory: Option<u64>,
    /// Most positions to reach (`None`: no cap).
    pub cap: Option<u64>,
    /// Keep every solved layer's cells (to answer positions afterwards); else only those the
    /// layers still to solve read.
    pub keep_all: bool,
}

/// What a build found.
pub struct Built<S: Strong> {
    /// The reachable positions of every layer.
    pub sets: Vec<S::Set>,
    /// The cells of the layers kept (all with [`BuildOptions::keep_all`]), `None` for the others.
    pub cells: Vec<Option<KeptCells>>,
    /// The root's cell (value and distance).
    pub root: u16,
    /// Reachable positions by value, all layers.
    pub tally: Tally,
    /// Seconds of the reachability pass.
    pub reach_secs: f64,
    /// Seconds of the layer loop.
    pub solve_secs: f64,
    /// Positions scanned by the layer loop (this run; resumed layers are not counted).
    pub scanned: u64,
    /// The memory estimate the run went by, in bytes.
    pub estimate: u64,
    /// Whether solved layers were read through maps of their files.
    pub mapped: bool,
    /// Most hidden edges of one layer.
    pub hidden: u64,
}

/// Stop or log lines.
pub struct Hooks<'a> {
    /// Progress (positions scanned) and the stop flag.
    pub control: &'a Control<'a>,
    /// Progress lines.
    pub log: &'a (dyn Fn(&str) + Sync),
}

fn io(e: impl std::fmt::Display) -> StrongError {
    StrongError::Io(e.to_string())
}

/// Strongly solves `strong`'s root: reach, then every layer from the last down.
///
/// # Errors
/// See [`StrongError`].
// Long: the run in the order a reader follows it (memory decision, reach, resume, the layer
// loop with its root cell, checkpoint and kept cells); each step is a call.
pub fn build<S: Strong>(
    strong: &S,
    options: &BuildOptions,
    hooks: &Hooks<'_>,
) -> Result<Built<S>, StrongError> {
    let parts = options.parts.as_ref();
    if let Some(p) = parts
        && !options.resume
    {
        p.clear().map_err(io)?;
    }
    let budget = options.memory.unwrap_or(u64::MAX);
    let mut mapped = options.map;
    if mapped && parts.is_none() {
        return Err(StrongError::Other("mapped layers need a checkpoint directory".into()));
    }
    // Before the reach: the index's estimate decides whether layers are mapped.
    mapped = mapping(strong, None, (mapped, parts.is_some()), budget)?;
    let t = Instant::now();
    let limits = ReachLimits {
        cap: options.cap.unwrap_or(u64::MAX),
        budget,
        control: hooks.control,
        log: hooks.log,
    };
    let sets = strong.reach(parts, &limits)?;
    let reach_secs = t.elapsed().as_secs_f64();
    mapped = mapping(strong, Some(&sets), (mapped, parts.is_some()), budget)?;
    let estimate = strong.memory(Some(&sets), mapped);
    let model = strong.solving(&sets);
    let layers = strong.layers();
    let window = model.reach();
    let format = strong.cell_format();
    let (root_layer, root_id) = strong.root(&sets);
    let (top, mut tally, mut kept) = match parts {
        Some(p) => resumed(&model, p, (layers, format), (mapped, options.keep_all))?,
        None => (layers, Tally::default(), (0..layers).map(|_| None).collect()),
    };
    if top < layers {
        (hooks.log)(&format!("retro: resuming below layer {top}"));
    }
    let began = Instant::now();
    let scanned = AtomicU64::new(0);
    let mut hidden_most = 0;
    let mut root_cell = None;
    for layer in (0..top).rev() {
        let (cells, hidden) = if strong.is_empty(&sets[layer]) {
            (vec![cell::SKIPPED; model.layer_size(layer) as usize], 0)
        } else {
            let later: Vec<&[u16]> = (layer + 1..(layer + 1 + window).min(layers))
                .map(|l| kept[l].as_ref().map_or(&[][..], |k| (**k).as_ref()))
                .collect();
            let only = strong.only(&sets[layer]);
            let solved = solve_one(strong, &model, (layer, only), &later, parts, hooks.control)?;
            scanned.fetch_add(model.layer_size(layer), Ordering::Relaxed);
            solved
        };
        hidden_most = hidden_most.max(hidden);
        let t = strong.tally(&cells, &sets[layer]);
        tally.add(t);
        if layer == root_layer {
            let c = cells[root_id as usize];
            root_cell = Some(c);
            if let Some(p) = parts {
                p.save_root(c).map_err(io)?;
            }
        }
        kept[layer] = Some(store(parts, (layer, format, t), cells, mapped)?);
        // The layer no layer left to solve reads (they are below this one).
        let gone = layer + window;
        if gone < layers {
            if !options.keep_all {
                kept[gone] = None;
            }
            if let Some(p) = parts
                && format == CellFormat::Values2
            {
                p.drop_cells(gone).map_err(io)?;
            }
        }
        (hooks.log)(&format!(
            "retro: layer {layer} solved ({} positions, {hidden} hidden edges) at {:.1} s{}",
            model.layer_size(layer),
            began.elapsed().as_secs_f64(),
            crate::memory::in_use()
        ));
    }
    // Solved in this run, or stored by the run that solved its layer.
    let root = match (root_cell, parts) {
        (Some(c), _) => c,
        (None, Some(p)) => {
            p.root().ok_or_else(|| StrongError::Other("the root's cell is lost".into()))?
        }
        (None, None) => unreachable!("without checkpoints every layer is solved in this run"),
    };
    drop(model);
    Ok(Built {
        sets,
        cells: kept,
        root,
        tally,
        reach_secs,
        solve_secs: began.elapsed().as_secs_f64(),
        scanned: scanned.into_inner(),
        estimate,
        mapped,
        hidden: hidden_most,
    })
}

/// Stores a finished layer in `parts` (if any) and returns how the run keeps its cells: in
/// memory, or mapped from the file just written.
fn store(
    parts: Option<&Parts>,
    (layer, format, t): (usize, CellFormat, Tally),
    cells: Vec<u16>,
    mapped: bool,
) -> Result<KeptCells, StrongError> {
    let Some(p) = parts else { return Ok(Box::new(cells)) };
    p.save(layer, &cells, format, [t.positions, t.wins, t.draws, t.losses]).map_err(io)?;
    if !mapped {
        return Ok(Box::new(cells));
    }
    let n = cells.len() as u64;
    drop(cells);
    p.map_cells(layer, n).map_err(io)
}

/// Whether solved layers must be mapped from their files (`mapped`, with a checkpoint
/// directory `files`) for the run to fit `budget`; a run that does not fit either way is
/// refused.
fn mapping<S: Strong>(
    strong: &S,
    sets: Option<&[S::Set]>,
    (mapped, files): (bool, bool),
    budget: u64,
) -> Result<bool, StrongError> {
    let mapped = mapped || (files && strong.memory(sets, false) > budget);
    let need = strong.memory(sets, mapped);
    if need > budget {
        return Err(StrongError::Budget(need, budget));
    }
    Ok(mapped)
}

/// What a resumed run finds in `parts`: the lowest layer finished in an unbroken run from the
/// top, the tally of the finished layers, and the cells of those the layers left to solve read
/// (all with `keep_all`), mapped or read into memory.
fn resumed<M: LayerModel>(
    model: &M,
    parts: &Parts,
    (layers, format): (usize, CellFormat),
    (mapped, keep_all): (bool, bool),
) -> Result<(usize, Tally, Vec<Option<KeptCells>>), StrongError> {
    let mut kept: Vec<Option<KeptCells>> = (0..layers).map(|_| None).collect();
    let mut tally = Tally::default();
    let mut top = layers;
    while top > 0 && parts.finished(top - 1, format) {
        top -= 1;
        let [positions, wins, draws, losses] = parts.tally(top).unwrap_or_default();
        tally.add(Tally { positions, wins, draws, losses });
    }
    for (l, k) in kept.iter_mut().enumerate().skip(top) {
        if (keep_all || l < top + model.reach()) && parts.has_cells(l) {
            let n = model.layer_size(l);
            *k = Some(if mapped {
                parts.map_cells(l, n).map_err(io)?
            } else {
                Box::new(parts.read_cells(l, n).map_err(io)?)
            });
        }
    }
    Ok((top, tally, kept))
}

/// Solves one layer; its cells and its number of hidden edges. A layer larger than the
/// adapter's spilling size, with a checkpoint directory, is scanned in ranges and its hidden
/// edges go through a file ([`Spill`]).
fn solve_one<S: Strong>(
    strong: &S,
    model: &S::Solving<'_>,
    (layer, only): (usize, Option<&super::values::PackedValues>),
    later: &[&[u16]],
    parts: Option<&Parts>,
    control: &Control<'_>,
) -> Result<(Vec<u16>, u64), StrongError> {
    let n = model.layer_size(layer);
    if let (Some((from, range)), Some(p)) = (strong.spilling(), parts)
        && n > from
    {
        let path = p.dir().join(format!("layer-{layer}.hidden"));
        let name = |e: &dyn std::fmt::Display| StrongError::Io(format!("{}: {e}", path.display()));
        let mut spill = Spill::create(&path).map_err(|e| name(&e))?;
        let mut cells: Vec<u16> = zeroed_huge(n as usize);
        let mut counts: Vec<u8> = zeroed_huge(n as usize);
        let mut start = 0;
        while start < n {
            let end = (start + range.max(1)).min(n);
            let part = scan_range(model, layer, start..end, later, only, control)?;
            let at = start as usize..end as usize;
            cells[at.clone()].copy_from_slice(&part.cells);
            counts[at].copy_from_slice(&part.counts);
            for edges in &part.hidden {
                spill.write(edges).map_err(|e| name(&e))?;
            }
            start = end;
        }
        let hidden = spill.len();
        let grouped = spill.group(n).map_err(|e| name(&e))?;
        let cells =
            propagate_with(model, layer, (cells, counts, Hidden::Grouped(grouped)), control)?;
        return Ok((cells, hidden));
    }
    let scanned = scan_range(model, layer, 0..n, later, only, control)?;
    let hidden = scanned.hidden.iter().map(|h| h.len() as u64).sum();
    Ok((propagate(model, layer, scanned, control)?, hidden))
}

/// The sharded build's first step: clears `parts` and stores the reachable sets.
///
/// # Errors
/// See [`StrongError`].
pub fn reach_step<S: Strong>(
    strong: &S,
    parts: &Parts,
    hooks: &Hooks<'_>,
) -> Result<(), StrongError> {
    parts.clear().map_err(io)?;
    let limits =
        ReachLimits { cap: u64::MAX, budget: u64::MAX, control: hooks.control, log: hooks.log };
    let sets = strong.reach(Some(parts), &limits)?;
    strong.save_reach(parts, &sets)
}

/// The cells of the finished layers a move from `layer` reaches, mapped from their files.
fn later_cells<S: Strong>(
    model: &S::Solving<'_>,
    layers: usize,
    layer: usize,
    parts: &Parts,
) -> Result<Vec<KeptCells>, StrongError> {
    (layer + 1..(layer + 1 + model.reach()).min(layers))
        .map(|l| {
            parts.map_cells(l, model.layer_size(l)).map_err(|e| {
                StrongError::Other(format!(
                    "layer {l} is not finished (run its `table merge` or `table layer` first): {e}"
                ))
            })
        })
        .collect()
}

/// The sharded build's second step: scans shard `shard` (`K` of `N`) of `layer` into a part
/// file, or without a shard solves the whole layer. Needs the reachable sets and the finished
/// later layers.
///
/// # Errors
/// See [`StrongError`]; a layer out of range.
pub fn layer_step<S: Strong>(
    strong: &S,
    parts: &Parts,
    layer: usize,
    shard: Option<(u64, u64)>,
    control: &Control<'_>,
) -> Result<std::ops::Range<u64>, StrongError> {
    let layers = strong.layers();
    let sets = stepped(strong, parts, layer)?;
    let model = strong.solving(&sets);
    let n = model.layer_size(layer);
    let (k, count) = shard.unwrap_or((0, 1));
    let range = shard_range(n, k, count);
    let scanned = if strong.is_empty(&sets[layer]) {
        let len = (range.end - range.start) as usize;
        Scanned { cells: vec![cell::SKIPPED; len], counts: vec![0; len], hidden: Vec::new() }
    } else {
        let later = later_cells::<S>(&model, layers, layer, parts)?;
        let later: Vec<&[u16]> = later.iter().map(|k| (**k).as_ref()).collect();
        scan_range(&model, layer, range.clone(), &later, strong.only(&sets[layer]), control)?
    };
    if shard.is_some() {
        parts.save_part(layer, k, count, &scanned).map_err(io)?;
    } else {
        let cells = propagate(&model, layer, scanned, control)?;
        finish(strong, parts, (layer, &sets), &cells)?;
    }
    Ok(range)
}

/// The reachable sets of a stepped build, after checking that `layer` exists.
fn stepped<S: Strong>(strong: &S, parts: &Parts, layer: usize) -> Result<Vec<S::Set>, StrongError> {
    let layers = strong.layers();
    if layer >= layers {
        return Err(StrongError::Other(format!(
            "no layer {layer}: the table has layers 0..={}",
            layers - 1
        )));
    }
    strong.load_reach(parts)
}

/// Stores a finished layer of a stepped build and, when it holds the root, the root's cell.
fn finish<S: Strong>(
    strong: &S,
    parts: &Parts,
    (layer, sets): (usize, &[S::Set]),
    cells: &[u16],
) -> Result<(), StrongError> {
    let t = strong.tally(cells, &sets[layer]);
    let (root_layer, root_id) = strong.root(sets);
    if layer == root_layer {
        parts.save_root(cells[root_id as usize]).map_err(io)?;
    }
    parts
        .save(layer, cells, strong.cell_format(), [t.positions, t.wins, t.draws, t.losses])
        .map_err(io)
}

/// The sharded build's third step: joins the `shards` parts of `layer` and finishes it.
///
/// # Errors
/// See [`StrongError`].
pub fn merge_step<S: Strong>(
    strong: &S,
    parts: &Parts,
    layer: usize,
    shards: u64,
    control: &Control<'_>,
) -> Result<(), StrongError> {
    if shards == 0 {
        return Err(StrongError::Other("--shards must be at least 1".into()));
    }
    let sets = stepped(strong, parts, layer)?;
    let model = strong.solving(&sets);
    let n = model.layer_size(layer);
    let ranges: Vec<_> = (0..shards).map(|k| shard_range(n, k, shards)).collect();
    let scanned = parts.load_parts(layer, &ranges).map_err(io)?;
    let cells = propagate(&model, layer, scanned, control)?;
    finish(strong, parts, (layer, &sets), &cells)?;
    parts.remove_parts(layer, shards).map_err(io)
}

/// The last step: writes the table file `out` from the finished layers in `parts` and removes
/// the directory. Returns the tally of every layer and the root's cell.
///
/// # Errors
/// A layer not finished, or a read or write error.
pub fn assemble<S: Strong>(
    strong: &S,
    sets: &[S::Set],
    parts: &Parts,
    out: &std::path::Path,
) -> Result<(Tally, u16), StrongError> {
    let model = strong.solving(sets);
    let format = strong.cell_format();
    let mut tally = Tally::default();
    let mut sources = Vec::with_capacity(strong.layers());
    for (layer, set) in sets.iter().enumerate() {
        let [positions, wins, draws, losses] = parts
            .tally(layer)
            .filter(|_| parts.finished(layer, format))
            .ok_or_else(|| StrongError::Other(format!("layer {layer} is not finished")))?;
        tally.add(Tally { positions, wins, draws, losses });
        sources.push(LayerSource {
            form: strong.form(),
            set: strong.set_bytes(set),
            cells: model.layer_size(layer),
            path: parts.payload(layer, format),
        });
    }
    let root =
        parts.root().ok_or_else(|| StrongError::Other("the root's cell is missing".into()))?;
    write_table(out, &strong.description(), format, &sources).map_err(io)?;
    parts.remove().map_err(io)?;
    Ok((tally, root))
}

/// Solves every layer of `model` (every position of its index) with the driver
/// ([`super::driver::build`]) and keeps them all in memory (for small boards, tests and
/// benches): the cells of layer `l` are `result[l]`.
///
/// # Errors
/// See [`EngineError`].
pub fn solve_in_memory<M: LayerModel + Clone>(model: &M) -> Result<Vec<Vec<u16>>, EngineError> {
    solve_whole(model, None)
}

/// [`solve_in_memory`] on the positions of `only` (per layer; a set closed under moves, such as
/// [`super::layers::reachable`]'s): the others are left out ([`cell::SKIPPED`]), as are the layers whose set
/// is empty.
///
/// # Errors
/// See [`EngineError`].
pub fn solve_only<M: LayerModel + Clone>(
    model: &M,
    only: Vec<PackedValues>,
) -> Result<Vec<Vec<u16>>, EngineError> {
    solve_whole(model, Some(only))
}

fn solve_whole<M: LayerModel + Clone>(
    model: &M,
    only: Option<Vec<PackedValues>>,
) -> Result<Vec<Vec<u16>>, EngineError> {
    let whole = Whole { model: model.clone(), only: std::sync::Mutex::new(only) };
    let options = BuildOptions { keep_all: true, ..Default::default() };
    let control = Control::default();
    let hooks = Hooks { control: &control, log: &|_| {} };
    let built = build(&whole, &options, &hooks).map_err(|e| match e {
        StrongError::Engine(e) => e,
        other => unreachable!("a build in memory without a cap or budget: {other}"),
    })?;
    Ok(built
        .cells
        .into_iter()
        .map(|c| c.map_or_else(Vec::new, |k| (*k).as_ref().to_vec()))
        .collect())
}

/// A model's whole index (or the given sets) as a root for the driver, in memory.
struct Whole<M> {
    model: M,
    /// The sets to solve, taken by the reachability step (`None`: every position).
    only: std::sync::Mutex<Option<Vec<PackedValues>>>,
}

impl<M: LayerModel + Clone> Strong for Whole<M> {
    /// The positions kept (`None`: all).
    type Set = Option<PackedValues>;
    type Solving<'a>
        = M
    where
        M: 'a;

    fn layers(&self) -> usize {
        self.model.layers()
    }

    fn indexed(&self) -> u64 {
        (0..self.model.layers()).map(|l| self.model.layer_size(l)).sum()
    }

    fn cell_format(&self) -> super::file::CellFormat {
        super::file::CellFormat::Cells16
    }

    fn form(&self) -> super::file::Form {
        super::file::Form::Dense
    }

    fn description(&self) -> super::file::Description {
        super::file::Description::default()
    }

    fn reach(
        &self,
        _parts: Option<&super::store::Parts>,
        _limits: &ReachLimits<'_>,
    ) -> Result<Vec<Self::Set>, StrongError> {
        let sets = self.only.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        Ok(match sets {
            Some(sets) => sets.into_iter().map(Some).collect(),
            None => (0..self.model.layers()).map(|_| None).collect(),
        })
    }

    fn load_reach(&self, _parts: &super::store::Parts) -> Result<Vec<Self::Set>, StrongError> {
        Err(StrongError::Other("a whole index is not stepped".into()))
    }

    fn save_reach(
        &self,
        _parts: &super::store::Parts,
        _sets: &[Self::Set],
    ) -> Result<(), StrongError> {
        Err(StrongError::Other("a whole index is not stepped".into()))
    }

    fn solving<'a>(&'a self, _sets: &'a [Self::Set]) -> M {
        self.model.clone()
    }

    fn only<'s>(&self, set: &'s Self::Set) -> Option<&'s PackedValues> {
        set.as_ref()
    }

    fn is_empty(&self, set: &Self::Set) -> bool {
        set.as_ref().is_some_and(PackedValues::is_empty)
    }

    fn set_bytes(&self, _set: &Self::Set) -> Vec<u8> {
        Vec::new()
    }

    fn tally(&self, _cells: &[u16], _set: &Self::Set) -> Tally {
        Tally::default()
    }

    /// The first position of the first layer that has one (the driver records a root cell).
    fn root(&self, _sets: &[Self::Set]) -> (usize, u64) {
        ((0..self.model.layers()).find(|&l| self.model.layer_size(l) > 0).unwrap_or(0), 0)
    }

    fn memory(&self, _sets: Option<&[Self::Set]>, _mapped: bool) -> u64 {
        0
    }
}
