//! GIPF on the layered engine ([`super::solve`]): [`GipfModel`] and the solver `retro2`
//! ([`Retro2Solver`]).
//!
//! # Model
//!
//! Positions are indexed by [`GipfIndex`](crate::games::gipf::index::GipfIndex): one layer per
//! pair of totals (board plus reserve of each side), ordered by the pieces captured, so a
//! move stays in its layer or reaches any later one ([`LayerModel::reach`] is the number of
//! layers). Inside a layer, pushes that remove no row are undone by un-pushes
//! ([`Gipf::for_each_plain_parent`]); moves that remove rows without capturing (the run's
//! own pieces go back to the reserve, so play can cycle) are *hidden* moves, whose edges the
//! engine keeps (8 bytes each, [`LayerModel::expand`]).
//!
//! # Why hidden edges
//!
//! Undoing a move that removed rows needs the removed runs back, which could lie on any empty
//! segment of the board: a complete un-move generator is large and easy to get wrong. Value
//! iteration (recomputing undecided positions from their children pass after pass) needs no
//! un-moves but rescans a layer once per ply of distance. Only moves that remove rows and
//! capture nothing stay in their layer without being un-pushes, and they are a small share of
//! the moves, so the engine stores just those edges (found while it scans the layer anyway)
//! and keeps the counter algorithm with its exact distances.
//!
//! # Solver
//!
//! [`Retro2Solver`] answers a GIPF root in two passes over the positions reachable from it,
//! and never touches the other positions of the index:
//!
//! 1. [`sparse::reach`] finds them, layer by layer, generating each position's moves once;
//!    each layer's reachable positions become a set of ranks ([`KeySet`]), and a position's
//!    *id* is its place in that set, in order of rank.
//! 2. Every layer holding one is solved from the last to the root's with [`scan_range`] and
//!    [`propagate`] on [`SparseModel`] (the layers of ids, propagated by sweeps): one move generation per position, one un-push
//!    generation per decided position. The 16-bit cells (value and exact distance: the
//!    winner's shortest, the loser's longest) of every solved layer are kept, since a capture
//!    can reach any later layer.
//!
//! A root with more white pieces than black (`GW > GB`) is solved as its colour-swapped
//! position ([`Gipf::colour_swapped`]: same value, distance and moves), so the two starts of
//! a pair of variants such as 5 + 7 and 7 + 5 are roots of one index.
//!
//! # Symmetry
//!
//! With `--symmetry` ([`Retro2Options::symmetry`]) the engine keeps one position per class
//! under the twelve symmetries of the hexagon ([`BoardSymmetry`]: the rules are the same
//! under each, so a position and its images share value and distance). The root and every
//! child and un-pushed parent are put in canonical form, and each is counted once per
//! parent (or child) even when several moves reach the class, so that a parent's counter of
//! children equals the notifications it gets. Most positions have no symmetry, so there are
//! close to 12 times fewer positions to reach and solve; the reachable count is then of
//! classes. Tables of classes live in their own checkpoint directories (`gipf-sym-reach-`).
//! The positions the classes stand for (the sum of their orbit sizes,
//! [`Retro2Info::positions`], logged) are the reachable positions and their images: as many
//! as the reachable positions when those are closed under the symmetries (S=3 K=3 5+5:
//! 226,789,246 both ways), up to twice as many on short games from the start, whose
//! rotation by a sixth of a turn swaps the corner colours.
//!
//! # Cost
//!
//! Memory per reachable position: 2 bytes of cell (with checkpoint files, the solved layers
//! are mapped from their files, so they live in the page cache, which keeps the layers being
//! read and may drop the others), and the sets: when at least about one
//! indexed position in 70 is reachable (on the GIPF variants about one in two is), one bit
//! per indexed position with its count and select directories (about 0.3 bytes per
//! reachable position), else 8 bytes of rank and 1 of directory. For the layer being solved,
//! 2 bytes of cell, 1 byte of counter and 8 bytes per hidden edge (on S=3 K=3 about one per
//! position). While the
//! reachability pass runs, it holds one bit per indexed position of the layers not finished
//! and one more per position of the layer it explores (or, when the index's bits would take
//! more than half the budget, a hash set of 16 to 32 bytes per position). `--tt-mib` is the
//! memory budget: past it the answer is `unknown` with the reason, and a node limit caps the
//! reachable positions.
//!
//! # Checkpoints and tables
//!
//! With the environment variable `BITSOLVE_RETRO_CHECKPOINT=DIR` ([`solve_gipf_in`] takes
//! the directory), the reachable sets (when found, and every five minutes while they are
//! searched) and each solved layer's cells are written under
//! `DIR/gipf-reach-<parameters>-<root key>/`, and a later run on the same root resumes from
//! them. A directory whose every layer is solved is marked with a file `complete`, and is
//! then a table: a later run on any root of the same parameters whose position is in its
//! reachable sets answers from it at once (values do not depend on the root a table was
//! built from; the report's node count is then the table's positions). The layer files:
//! `reach.keys` holds a magic word, the number of finished layers and of layers, then per
//! layer a form tag (0: sorted ranks, 1: bit words), a count and the values, all
//! little-endian `u64`; `layer-<k>.cells` the 16-bit cells of layer `k` by id
//! ([`cell`]). `BITSOLVE_RETRO_LOG` prints progress (positions per second, bytes per position)
//! on standard error.

use std::any::Any;

use arrayvec::ArrayVec;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::hidden::{Hidden, Spill};
use super::layers::KeptCells;
use super::model::LayerModel;
use super::solve::{Control, EngineError, propagate, propagate_with, scan_range};
use super::store::MappedCells;
use super::values::zeroed_huge;
use super::values::{DRAW, LOSS, WIN, cell};
use crate::game::{Game, Outcome, Player};
use crate::games::gipf::index::{GipfLayers, IndexedPos};
use crate::games::gipf::symmetry::BoardSymmetry;
use crate::games::gipf::{Gipf, GipfMove, GipfMoves, MAX_MOVES, State};
use crate::search::{Limits, Report, Solver, SolverOptions, Stats, Unknown};
use crate::unmove::LayeredIndex;

pub mod sparse;

use sparse::{KeySet, ReachRun, ReachStop, SparseModel, reach};

mod checkpoint;
pub use checkpoint::Spilling;
#[allow(clippy::wildcard_imports)]
use checkpoint::*;

/// GIPF as seen by the layered engine.
#[derive(Clone, Debug)]
pub struct GipfModel {
    layers: GipfLayers,
    /// With [`GipfModel::with_symmetry`]: children and parents in canonical form.
    sym: Option<&'static BoardSymmetry>,
}

impl GipfModel {
    /// The model of the positions below `root` (same parameters, totals at most the root's),
    /// or `None` for boards of more than 64 cells (`S >= 6`).
    pub fn new(root: &Gipf) -> Option<GipfModel> {
        GipfLayers::new(root).map(|layers| GipfModel { layers, sym: None })
    }

    /// This model on classes of positions under the twelve board symmetries
    /// ([`BoardSymmetry`]: a position and its images have the same value and distance): every
    /// child and parent is given in canonical form, once per parent (or child) even when
    /// several moves reach the class. For the sparse engine, which reaches only canonical
    /// positions from a canonical root ([`GipfModel::rank_of`]); the dense scan of every
    /// indexed position would not notify non-canonical parents.
    #[must_use]
    pub fn with_symmetry(mut self) -> GipfModel {
        self.sym = BoardSymmetry::get(self.layers.template.side());
        self
    }

    /// Whether positions are folded by the board's symmetries.
    pub fn symmetric(&self) -> bool {
        self.sym.is_some()
    }

    /// The canonical form of `pos` (itself without symmetry).
    #[inline]
    fn canon(&self, mut pos: IndexedPos) -> IndexedPos {
        if let Some(sym) = self.sym {
            (pos.white, pos.black) = sym.canonical(pos.white, pos.black);
        }
        pos
    }

    /// The layer and rank of `g` (of its canonical form with symmetry), if it is in the index.
    pub fn rank_of(&self, g: &Gipf) -> Option<(usize, u64)> {
        let (l, r) = self.layers.rank(g)?;
        if self.sym.is_none() {
            return Some((l, r));
        }
        let p = self.canon(self.layers.index.unrank(l, r));
        Some((l, self.layers.index.rank(&p)))
    }

    /// The index with the root's parameters.
    pub fn layers_index(&self) -> &GipfLayers {
        &self.layers
    }

    fn gipf(&self, pos: IndexedPos) -> Gipf {
        let to_move = if pos.side == 0 { Player::First } else { Player::Second };
        self.layers.template.with_state_unhashed(self.layers.index.state(&pos), to_move)
    }

    /// Calls `f(layer, rank, plain)` for each distinct child of `pos` (each distinct
    /// canonical child with symmetry, `plain` if some move gives one of the class plainly).
    fn children(&self, pos: IndexedPos, mut f: impl FnMut(u32, u64, bool)) {
        let game = self.gipf(pos);
        let to = !game.to_move();
        let index = &self.layers.index;
        let pos_of = |st: &State| index.pos_of(st, to).expect("a child's totals are in the index");
        if self.sym.is_none() {
            game.for_each_child_state(|st, plain| {
                let child = pos_of(&st);
                f(child.layer, index.rank(&child), plain);
            });
            return;
        }
        let mut seen: ArrayVec<(u32, u64, bool), MAX_MOVES> = ArrayVec::new();
        game.for_each_child_state(|st, plain| {
            let child = self.canon(pos_of(&st));
            let r = index.rank(&child);
            match seen.iter_mut().find(|e| e.0 == child.layer && e.1 == r) {
                Some(e) => e.2 |= plain,
                None => seen.push((child.layer, r, plain)),
            }
        });
        for &(l, r, plain) in &seen {
            f(l, r, plain);
        }
    }
}

impl LayerModel for GipfModel {
    type Pos = IndexedPos;

    fn layers(&self) -> usize {
        self.layers.index.layer_count()
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.layers.index.size_of(layer)
    }

    fn scan(&self, layer: usize, start: u64, end: u64, mut f: impl FnMut(u64, IndexedPos)) {
        for i in start..end {
            f(i, self.layers.index.unrank(layer, i));
        }
    }

    fn position(&self, layer: usize, index: u64) -> IndexedPos {
        self.layers.index.unrank(layer, index)
    }

    fn outcome(&self, pos: IndexedPos) -> Option<Outcome> {
        self.gipf(pos).outcome()
    }

    fn for_each_next_child(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        self.for_each_later_child(pos, |j, r| {
            if j == 1 {
                f(r);
            }
        });
    }

    fn for_each_layer_child(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        self.children(pos, |l, r, _| {
            if l == pos.layer {
                f(r);
            }
        });
    }

    fn layer_children(&self, pos: IndexedPos) -> u32 {
        let mut n = 0;
        self.for_each_layer_child(pos, |_| n += 1);
        n
    }

    fn for_each_layer_parent(&self, pos: IndexedPos, mut f: impl FnMut(u64)) {
        let index = &self.layers.index;
        let mut seen: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
        self.gipf(pos).for_each_plain_parent(|p| {
            let q = self.canon(index.pos_of(&p.state(), p.to_move()).expect("same layer"));
            let r = index.rank(&q);
            // With symmetry, several un-pushes may give one class: notify it once.
            if self.sym.is_some() {
                if seen.contains(&r) {
                    return;
                }
                seen.push(r);
            }
            f(r);
        });
    }

    fn sparse(&self) -> bool {
        true
    }

    fn reach(&self) -> usize {
        self.layers.index.layer_count()
    }

    fn for_each_later_child(&self, pos: IndexedPos, mut f: impl FnMut(usize, u64)) {
        self.children(pos, |l, r, _| {
            if l > pos.layer {
                f((l - pos.layer) as usize, r);
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
        self.children(pos, |l, r, plain| {
            if l > pos.layer {
                later((l - pos.layer) as usize, r);
            } else {
                n += 1;
                if !plain {
                    hidden(r);
                }
            }
        });
        n
    }
}

/// The indexed retrograde solver for GIPF (`--solver retro2`); `unsupported` for other games.
#[derive(Clone, Copy, Debug)]
pub struct Retro2Solver {
    budget_mib: usize,
    threads: usize,
    symmetry: bool,
}

impl Retro2Solver {
    /// A solver with the memory budget `options.tt_mib` and `options.threads` threads, on
    /// classes of positions under the board's symmetries with `options.symmetry`.
    pub fn new(options: &SolverOptions) -> Self {
        Retro2Solver {
            budget_mib: options.tt_mib,
            threads: options.threads.max(1),
            symmetry: options.symmetry,
        }
    }
}

/// What a solve of a GIPF root found, beyond the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Retro2Info {
    /// Positions in the index (all layers).
    pub indexed: u64,
    /// Positions reachable from the root (classes of them with symmetry).
    pub reachable: u64,
    /// The positions the reachable classes stand for (the sum of their orbits under the
    /// board's symmetries; `reachable` without symmetry).
    pub positions: u64,
    /// The engine's memory estimate in bytes.
    pub estimate: u64,
    /// Hidden edges at most in one layer.
    pub hidden: u64,
    /// Whether the answer came from a table solved earlier from another root
    /// (a checkpoint directory marked complete, see the module); then `reachable` counts that
    /// table's positions.
    pub reused: bool,
}

/// The process's memory for the log: peak and current resident memory, the current split
/// into heap (anonymous) and mapped files (Linux; empty elsewhere).
fn memory_in_use() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0.0, |kib| kib as f64 / (1 << 20) as f64)
    };
    format!(
        ", memory peak {:.2} GiB, now {:.2} GiB (heap {:.2}, files {:.2})",
        field("VmHWM:"),
        field("VmRSS:"),
        field("RssAnon:"),
        field("RssFile:")
    )
}

/// Progress on standard error when `BITSOLVE_RETRO_LOG` is set.
fn log(line: &str) {
    if std::env::var_os("BITSOLVE_RETRO_LOG").is_some() {
        eprintln!("{line}");
    }
}

/// Why a solve ended without an answer.
enum Fail {
    Unknown(Unknown),
    Engine(EngineError),
}

/// The `unknown` answer of a solve that needs `bytes`, more than its `budget`.
fn over_budget(bytes: u64, budget: u64) -> Fail {
    Fail::Unknown(Unknown::GaveUp(format!(
        "retro2 needs more than {} MiB, more than its budget of {} MiB (--tt-mib)",
        bytes >> 20,
        budget >> 20
    )))
}

/// Why a solve ends when its reachability pass stopped.
fn reach_failed(stop: ReachStop, limits: &Limits, budget: u64) -> Fail {
    match stop {
        ReachStop::Stopped => Fail::Engine(EngineError::Stopped),
        ReachStop::TooMany(n) => {
            Fail::Unknown(Unknown::TooLarge { positions: n, max: limits.nodes.unwrap_or(u64::MAX) })
        }
        ReachStop::Budget(b) => over_budget(b, budget),
        ReachStop::Io(e) => Fail::Unknown(Unknown::GaveUp(format!("writing a checkpoint: {e}"))),
    }
}

/// The log line of the reachability pass (or of the table read instead, `from_table`) that
/// took `secs`, and with symmetry the positions the classes stand for.
fn log_reach(info: &Retro2Info, (from_table, symmetric): (bool, bool), keys: u64, secs: f64) {
    let found = if from_table {
        format!("read from the table in {secs:.1} s")
    } else {
        format!("found in {secs:.1} s ({:.0} positions/s)", info.reachable as f64 / secs.max(1e-9))
    };
    log(&format!(
        "retro2: {} indexed, {} reachable {found}, keys {:.2} bytes per position, estimate {} \
         MiB",
        info.indexed,
        info.reachable,
        keys as f64 / info.reachable.max(1) as f64,
        info.estimate >> 20
    ));
    if symmetric {
        log(&format!(
            "retro2: {} classes stand for {} positions ({:.2} per class)",
            info.reachable,
            info.positions,
            info.positions as f64 / info.reachable.max(1) as f64
        ));
    }
}

/// The positions the classes of `sets` stand for: with symmetry the sum of their orbit sizes
/// (in parallel over runs of each layer's ranks), else the number of ranks.
fn positions_of(model: &GipfModel, sets: &[KeySet]) -> u64 {
    use rayon::prelude::*;
    const RUN: usize = 1 << 16;
    let Some(sym) = model.sym else {
        return sets.iter().map(|s| s.len() as u64).sum();
    };
    let idx = &model.layers.index;
    sets.iter()
        .enumerate()
        .map(|(layer, set)| {
            (0..set.len().div_ceil(RUN))
                .into_par_iter()
                .map(|run| {
                    set.iter_from(run * RUN)
                        .take(RUN)
                        .map(|r| {
                            let p = idx.unrank(layer, r);
                            sym.orbit_size(p.white, p.black)
                        })
                        .sum::<u64>()
                })
                .sum::<u64>()
        })
        .sum()
}

/// The reachable positions of every layer, their cells and what the solve found.
type Solved = (Vec<KeySet>, Vec<KeptCells>, Retro2Info);

/// Solves `root` with `model`: returns the reachable positions of every layer, their solved
/// cells (by id in the layer's [`KeySet`]) and what it found.
///
/// # Errors
/// The reason of an `unknown` answer.
// Long: the whole retro2 run in one place (reach, the layer loop from the last layer down, and
// per layer its checkpoint, kept cells and progress line), in the order a reader follows it;
// issue 48 replaces this driver with the one retrograde engine.
fn solve_all(
    model: &GipfModel,
    root: &Gipf,
    (budget, checkpoint, spilling): (u64, Option<&Path>, Spilling),
    limits: &Limits,
    began: Instant,
) -> Result<Solved, Fail> {
    let idx = &model.layers.index;
    let mut info = Retro2Info { indexed: idx.total_size(), ..Retro2Info::default() };
    let over = |bytes: u64| over_budget(bytes, budget);
    let stop = AtomicBool::new(false);
    let stopped = || {
        if limits.time.is_some_and(|t| began.elapsed() >= t)
            || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        {
            stop.store(true, Ordering::Relaxed);
        }
        stop.load(Ordering::Relaxed)
    };
    let check = |_: u64| {
        stopped();
    };
    let control = Control { progress: Some(&check), stop: Some(&stop) };
    let (l0, r0) = model.rank_of(root).expect("the root is in its own index");
    let own = checkpoint.map(|base| checkpoint_dir(base, model, root));
    let table = checkpoint.and_then(|base| solved_table_holding(base, model, root));
    info.reused = table.as_ref().is_some_and(|(d, _)| Some(d) != own.as_ref());
    let from_table = table.is_some();
    let (dir, table) = match table {
        Some((d, sets)) => (Some(d), Some(sets)),
        None => (own, None),
    };
    let t = Instant::now();
    let run = ReachRun {
        cap: limits.nodes.unwrap_or(u64::MAX),
        budget,
        stopped: &stopped,
        log: &log,
        checkpoint: dir.as_deref(),
    };
    let found = match table {
        Some(sets) => Ok(sets),
        None => reach(model, (l0, r0), &run),
    };
    let sets = found.map_err(|e| reach_failed(e, limits, budget))?;
    info.reachable = sets.iter().map(|s| s.len() as u64).sum();
    let keys: u64 = sets.iter().map(KeySet::bytes).sum();
    let largest = sets.iter().map(|s| s.len() as u64).max().unwrap_or(0);
    // Keys, and for the layer being solved 2 bytes of cell and 1 byte of counter per position
    // (and 8 bytes per hidden edge, not known before the layer is scanned); without
    // checkpoint files, 2 bytes of cell per position of every solved layer (with them, the
    // solved layers are mapped from their files, and the page cache holds them).
    let kept = if dir.is_some() { 0 } else { 2 * info.reachable };
    info.estimate = keys + kept + 3 * largest;
    if info.estimate > budget {
        return Err(over(info.estimate));
    }
    info.positions = positions_of(model, &sets);
    log_reach(&info, (from_table, model.symmetric()), keys, t.elapsed().as_secs_f64());
    let sparse = SparseModel { model, sets: &sets };
    let layers = idx.layer_count();
    // Solved layers: mapped from their checkpoint files when there are some (the page cache
    // holds them, and may drop the ones no longer read), else in memory.
    let mut cells: Vec<KeptCells> =
        (0..layers).map(|_| Box::new(Vec::new()) as KeptCells).collect();
    let t = Instant::now();
    let mut solved = 0u64;
    for layer in (l0..layers).rev() {
        let n = sets[layer].len() as u64;
        if n == 0 {
            continue;
        }
        if let Some(d) = &dir
            && let Some(c) = load_cells(d, layer, n)
        {
            cells[layer] = c;
            continue;
        }
        let later: Vec<&[u16]> = cells[layer + 1..].iter().map(|c| (**c).as_ref()).collect();
        let (c, hidden) = match dir.as_deref() {
            Some(d) if n > spilling.from => {
                solve_spilled(&sparse, (layer, n, spilling.range), &later, d, &control)?
            }
            _ => {
                let scanned = scan_range(&sparse, layer, 0..n, &later, None, &control)
                    .map_err(Fail::Engine)?;
                let hidden: u64 = scanned.hidden.iter().map(|h| h.len() as u64).sum();
                (propagate(&sparse, layer, scanned, &control).map_err(Fail::Engine)?, hidden)
            }
        };
        info.hidden = info.hidden.max(hidden);
        drop(later);
        cells[layer] = keep_cells(dir.as_deref(), layer, c)?;
        solved += n;
        log(&format!(
            "retro2: layer {layer} {:?}: {n} reachable solved, {hidden} hidden edges, done at \
             {:.1} s ({:.0} positions/s){}",
            idx.layer_totals(layer),
            began.elapsed().as_secs_f64(),
            solved as f64 / t.elapsed().as_secs_f64().max(1e-9),
            memory_in_use()
        ));
    }
    if let Some(d) = &dir
        && !d.join(COMPLETE).is_file()
    {
        let line =
            format!("{} {}\n", crate::notation::Notation::format_position(root), info.reachable);
        std::fs::write(d.join(COMPLETE), line)
            .map_err(|e| Fail::Unknown(Unknown::GaveUp(format!("writing a checkpoint: {e}"))))?;
    }
    Ok((sets, cells, info))
}

/// Solves a GIPF root: the report and what the solve found. Checkpoints go under the
/// directory named by the environment variable `BITSOLVE_RETRO_CHECKPOINT`, if set
/// ([`solve_gipf_in`]).
pub fn solve_gipf(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
) -> (Report<GipfMove>, Retro2Info) {
    let base = std::env::var_os("BITSOLVE_RETRO_CHECKPOINT").map(PathBuf::from);
    solve_gipf_in(root, limits, budget_mib, base.as_deref())
}

/// [`solve_gipf`] with checkpoints under `checkpoint` (none: no files). A root with more
/// white pieces than black (`GW > GB`) is solved as its colour-swapped position
/// ([`Gipf::colour_swapped`]), which has the same value, distance and moves.
pub fn solve_gipf_in(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
    checkpoint: Option<&Path>,
) -> (Report<GipfMove>, Retro2Info) {
    solve_gipf_with(root, limits, budget_mib, checkpoint, Retro2Options::default())
}

/// How [`solve_gipf_with`] solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retro2Options {
    /// When the hidden edges of a layer are spilled to a file.
    pub spilling: Spilling,
    /// Whether positions are folded by the twelve symmetries of the board
    /// ([`GipfModel::with_symmetry`]): about 12 times fewer positions, and `reachable`
    /// then counts classes.
    pub symmetry: bool,
}

impl Default for Retro2Options {
    fn default() -> Self {
        Retro2Options { spilling: Spilling::DEFAULT, symmetry: false }
    }
}

/// [`solve_gipf_in`] with the options `options`.
pub fn solve_gipf_with(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
    checkpoint: Option<&Path>,
    options: Retro2Options,
) -> (Report<GipfMove>, Retro2Info) {
    let [_, _, gw, gb] = root.params();
    if gw > gb {
        let swapped = root.colour_swapped();
        return solve_gipf_with(&swapped, limits, budget_mib, checkpoint, options);
    }
    let began = Instant::now();
    let unknown = |why: Unknown, nodes: u64| {
        let stats = Stats { nodes, elapsed: began.elapsed(), ..Stats::default() };
        Report::unknown_because(why, stats)
    };
    let model = GipfModel::new(root).map(|m| if options.symmetry { m.with_symmetry() } else { m });
    let Some(model) = model else {
        let why =
            Unknown::Unsupported("retro2 indexes GIPF boards of at most 64 cells (S <= 5)".into());
        return (unknown(why, 0), Retro2Info::default());
    };
    let budget = (budget_mib as u64) << 20;
    let run = (budget, checkpoint, options.spilling);
    let (sets, cells, info) = match solve_all(&model, root, run, limits, began) {
        Ok(x) => x,
        Err(Fail::Unknown(why)) => return (unknown(why, 0), Retro2Info::default()),
        Err(Fail::Engine(EngineError::Stopped)) => {
            return (unknown(Unknown::Limit, 0), Retro2Info::default());
        }
        Err(Fail::Engine(e)) => {
            return (unknown(Unknown::GaveUp(e.to_string()), 0), Retro2Info::default());
        }
    };
    let cell_of = |g: &Gipf| {
        let (l, r) = model.rank_of(g).expect("in the index");
        let i = sets[l].find(r).expect("a child of the root is reachable");
        (*cells[l]).as_ref()[i as usize]
    };
    let c0 = cell_of(root);
    log(&format!(
        "retro2: solved in {:.1} s, {} reachable positions",
        began.elapsed().as_secs_f64(),
        info.reachable
    ));
    let (v0, d0) = (cell::value(c0), cell::distance(c0));
    let wanted = match v0 {
        WIN => LOSS,
        LOSS => WIN,
        _ => DRAW,
    };
    let mut moves = GipfMoves::default();
    root.generate_moves(&mut moves);
    let best_move = moves.iter().copied().find(|&mv| {
        let mut child = root.clone();
        child.play(mv);
        let c = cell_of(&child);
        cell::value(c) == wanted && (wanted == DRAW || cell::distance(c) + 1 == d0)
    });
    let (outcome, plies) = match v0 {
        WIN => (Outcome::Win, Some(u32::from(d0))),
        LOSS => (Outcome::Loss, Some(u32::from(d0))),
        _ => (Outcome::Draw, None),
    };
    let stats = Stats { nodes: info.reachable, elapsed: began.elapsed(), ..Stats::default() };
    (Report::solved(outcome, plies, best_move, stats), info)
}

impl<G: Game> Solver<G> for Retro2Solver {
    /// Solves a GIPF root (see the module); any other game is `unsupported`.
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let began = Instant::now();
        let Some(gipf) = (root as &dyn Any).downcast_ref::<Gipf>() else {
            let stats = Stats { elapsed: began.elapsed(), ..Stats::default() };
            return Report::unknown_because(
                Unknown::Unsupported("retro2 solves GIPF positions only".into()),
                stats,
            );
        };
        let pool = crate::search::thread_pool(self.threads);
        let base = std::env::var_os("BITSOLVE_RETRO_CHECKPOINT").map(PathBuf::from);
        let options = Retro2Options { symmetry: self.symmetry, ..Retro2Options::default() };
        let (report, _) = pool
            .install(|| solve_gipf_with(gipf, limits, self.budget_mib, base.as_deref(), options));
        // The move type is GIPF's: carry it over through `Any`.
        let best_move =
            report.best_move.and_then(|m| (&m as &dyn Any).downcast_ref::<G::Move>().copied());
        Report {
            outcome: report.outcome,
            plies: report.plies,
            best_move,
            stats: report.stats,
            unknown: report.unknown,
        }
    }
}

#[cfg(test)]
mod tests;
