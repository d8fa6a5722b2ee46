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
//! 2. Every layer holding one is solved from the last to the root's with [`super::solve::scan_range`] and
//!    [`super::solve::propagate`] on [`sparse::SparseModel`] (the layers of ids, propagated by sweeps): one move generation per position, one un-push
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
//! With a checkpoint directory (`--checkpoint DIR`, [`Retro2Options::checkpoint`]) the solve
//! runs on the one retrograde driver ([`super::driver`]) with its checkpoints in
//! `DIR/<name>.tbl.parts/` (the reachable sets when found, and every five minutes while they
//! are searched; each solved layer's cells), so a later run on the same root resumes from them;
//! once every layer is solved they become the table file `DIR/<name>.tbl`
//! ([`super::file`], readable with `--solver table`), `<name>` being `gipf-S-K-GW-GB-` (or
//! `gipf-sym-...` for tables of classes) and the root's exact key in hex. A later run on any
//! root of the same parameters found in one of the tables of `DIR` answers from it at once
//! (values do not depend on the root a table was built from; the report's node count is then
//! the table's positions). `--progress` ([`Retro2Options::progress`]) prints progress lines
//! (positions per second, memory) on standard error.

use arrayvec::ArrayVec;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::driver::{BuildOptions, Hooks, assemble, build};
use super::file::TableFile;
use super::model::LayerModel;
use super::solve::{Control, EngineError};
use super::store::Parts;
use super::strong::{Strong, StrongError};
use super::table::GameTable;
use super::values::{DRAW, LOSS, WIN, cell};
use crate::game::capability::StrongSolve;
use crate::game::{Game, Outcome, Player};
use crate::games::gipf::index::{GipfLayers, IndexedPos};
use crate::games::gipf::symmetry::BoardSymmetry;
use crate::games::gipf::{Gipf, GipfMove, GipfMoves, MAX_MOVES, State};
use crate::search::{Limits, Report, Solver, SolverOptions, Stats, Unknown};
use crate::unmove::LayeredIndex;

pub mod sparse;
pub mod strong;

use sparse::KeySet;
pub use strong::GipfStrong;

/// When a layer's hidden edges are spilled: with a checkpoint directory, a layer of more than
/// `from` positions is scanned in ranges of `range` positions, its hidden edges written to a
/// file and then grouped by child ([`super::hidden::Hidden::Grouped`]: 4 bytes per edge
/// instead of 8, and the pairs never all in memory at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spilling {
    /// Layers of more positions than this are spilled.
    pub from: u64,
    /// Positions per range scanned.
    pub range: u64,
}

impl Spilling {
    /// The default: layers of more than 2^26 positions, in ranges of 2^25.
    pub const DEFAULT: Spilling = Spilling { from: 1 << 26, range: 1 << 25 };
}

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

/// The layered retrograde solver (`--solver retro2`) for the games with the
/// [`StrongSolve`] capability (GIPF); `unsupported` for the others.
#[derive(Clone, Debug)]
pub struct Retro2Solver {
    options: SolverOptions,
}

impl Retro2Solver {
    /// A solver with the memory budget `options.tt_mib`, `options.threads` threads, classes
    /// of positions under the board's symmetries with `options.symmetry`, checkpoints and
    /// tables under `options.checkpoint` and progress lines with `options.progress`.
    pub fn new(options: &SolverOptions) -> Self {
        Retro2Solver { options: options.clone() }
    }
}

impl StrongSolve for Gipf {
    fn strong_solve(&self, limits: &Limits, options: &SolverOptions) -> Report<GipfMove> {
        let retro2 = Retro2Options {
            symmetry: options.symmetry,
            checkpoint: options.checkpoint.as_deref().map(Path::to_path_buf),
            progress: options.progress,
            ..Retro2Options::default()
        };
        solve_gipf_with(self, limits, options.tt_mib, &retro2).0
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
    /// Whether the answer came from a table built earlier from another root (a table file in
    /// the checkpoint directory); then `reachable` counts that table's positions.
    pub reused: bool,
}

/// How [`solve_gipf_with`] solves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retro2Options {
    /// When the hidden edges of a layer are spilled to a file.
    pub spilling: Spilling,
    /// Whether positions are folded by the twelve symmetries of the board
    /// ([`GipfModel::with_symmetry`]): about 12 times fewer positions, and `reachable`
    /// then counts classes.
    pub symmetry: bool,
    /// The directory of checkpoints and tables (see the module).
    pub checkpoint: Option<PathBuf>,
    /// Progress lines on standard error.
    pub progress: bool,
}

impl Default for Retro2Options {
    fn default() -> Self {
        Retro2Options {
            spilling: Spilling::DEFAULT,
            symmetry: false,
            checkpoint: None,
            progress: false,
        }
    }
}

/// Solves a GIPF root in memory: the report and what the solve found.
pub fn solve_gipf(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
) -> (Report<GipfMove>, Retro2Info) {
    solve_gipf_with(root, limits, budget_mib, &Retro2Options::default())
}

/// [`solve_gipf`] with checkpoints and tables under `checkpoint` (none: no files).
pub fn solve_gipf_in(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
    checkpoint: Option<&Path>,
) -> (Report<GipfMove>, Retro2Info) {
    let options =
        Retro2Options { checkpoint: checkpoint.map(Path::to_path_buf), ..Retro2Options::default() };
    solve_gipf_with(root, limits, budget_mib, &options)
}

/// The `unknown` reason of a failed build.
fn unknown_of(e: StrongError, limits: &Limits) -> Unknown {
    match e {
        StrongError::Engine(EngineError::Stopped) => Unknown::Limit,
        StrongError::TooMany(n, _) => {
            Unknown::TooLarge { positions: n, max: limits.nodes.unwrap_or(u64::MAX) }
        }
        StrongError::Budget(need, budget) => Unknown::GaveUp(format!(
            "retro2 needs more than {} MiB, more than its budget of {} MiB (--tt-mib)",
            need >> 20,
            budget >> 20
        )),
        other => Unknown::GaveUp(other.to_string()),
    }
}

/// The report of `root` from a cell lookup `cell_of` (the root's cell, then the children's for
/// a best move: the first child that keeps the value, one ply shorter).
fn report_from(
    root: &Gipf,
    cell_of: impl Fn(&Gipf) -> Option<u16>,
    stats: Stats,
) -> Report<GipfMove> {
    let Some(c0) = cell_of(root) else {
        return Report::unknown_because(
            Unknown::GaveUp("the root is not in the table".into()),
            stats,
        );
    };
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
        cell_of(&child).is_some_and(|c| {
            cell::value(c) == wanted && (wanted == DRAW || cell::distance(c) + 1 == d0)
        })
    });
    let (outcome, plies) = match v0 {
        WIN => (Outcome::Win, Some(u32::from(d0))),
        LOSS => (Outcome::Loss, Some(u32::from(d0))),
        _ => (Outcome::Draw, None),
    };
    Report::solved(outcome, plies, best_move, stats)
}

/// A table in `dir` built for `strong`'s parameters that holds `root`, and its number of
/// positions. Values do not depend on the root a table was built from, and a table is closed
/// under moves, so it answers `root` and every position below it.
fn table_holding(
    dir: &Path,
    strong: &GipfStrong,
    root: &Gipf,
) -> Option<(PathBuf, GameTable<Gipf>, u64)> {
    let prefix = table_prefix(strong);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix))
                && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("tbl"))
        })
        .collect();
    files.sort();
    files.into_iter().find_map(|p| {
        let file = std::sync::Arc::new(TableFile::open(&p).ok()?);
        let table = GameTable::<Gipf>::new(file).ok()?;
        table.cell(root).ok()?;
        let positions = table.file().layers().iter().map(|e| e.cells).sum();
        Some((p, table, positions))
    })
}

/// The start of the names of the tables of `strong`'s parameters (`gipf-sym-` for tables of
/// classes under the board's symmetries).
fn table_prefix(strong: &GipfStrong) -> String {
    let kind = if strong.model().symmetric() { "gipf-sym" } else { "gipf" };
    let p = strong.root_position().params();
    format!("{kind}-{}-{}-{}-{}-", p[0], p[1], p[2], p[3])
}

/// [`solve_gipf`] with the options `options`. A root with more white pieces than black
/// (`GW > GB`) is solved as its colour-swapped position ([`Gipf::colour_swapped`]), which has
/// the same value, distance and moves.
// Long: the three ways to an answer (a table built earlier, a fresh or resumed build, and the
// table file written after it) side by side, each a few calls.
pub fn solve_gipf_with(
    root: &Gipf,
    limits: &Limits,
    budget_mib: usize,
    options: &Retro2Options,
) -> (Report<GipfMove>, Retro2Info) {
    let [_, _, gw, gb] = root.params();
    if gw > gb {
        return solve_gipf_with(&root.colour_swapped(), limits, budget_mib, options);
    }
    let began = Instant::now();
    let stats = |nodes: u64| Stats { nodes, elapsed: began.elapsed(), ..Stats::default() };
    let unknown = |why: Unknown| (Report::unknown_because(why, stats(0)), Retro2Info::default());
    let strong = match GipfStrong::new(root, options.symmetry, options.spilling) {
        Ok(s) => s,
        Err(e) => return unknown(Unknown::Unsupported(e.to_string())),
    };
    let log = |line: &str| {
        if options.progress {
            eprintln!("{line}");
        }
    };
    let indexed = strong.indexed();
    let dir = options.checkpoint.as_deref();
    let name = format!("{}{:032x}", table_prefix(&strong), root.exact_key().unwrap_or_default());
    if let Some(d) = dir
        && let Some((path, table, positions)) = table_holding(d, &strong, root)
    {
        log(&format!("retro2: answered from the table {}", path.display()));
        let own = path == d.join(format!("{name}.tbl"));
        let info = Retro2Info {
            indexed,
            reachable: positions,
            positions,
            reused: !own,
            ..Retro2Info::default()
        };
        return (report_from(root, |g| table.cell(g).ok(), stats(positions)), info);
    }
    let stop = AtomicBool::new(false);
    let check = |_: u64| {
        if limits.time.is_some_and(|t| began.elapsed() >= t)
            || limits.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
        {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let control = Control { progress: Some(&check), stop: Some(&stop) };
    let parts = match dir.map(|d| Parts::new(&d.join(format!("{name}.tbl")))).transpose() {
        Ok(p) => p,
        Err(e) => return unknown(Unknown::GaveUp(format!("the checkpoint directory: {e}"))),
    };
    let build_options = BuildOptions {
        map: parts.is_some(),
        parts,
        resume: true,
        memory: Some((budget_mib as u64) << 20),
        cap: limits.nodes,
        keep_all: true,
    };
    let built = match build(&strong, &build_options, &Hooks { control: &control, log: &log }) {
        Ok(b) => b,
        Err(e) => return unknown(unknown_of(e, limits)),
    };
    let reachable = built.sets.iter().map(|s| s.len() as u64).sum();
    let info = Retro2Info {
        indexed,
        reachable,
        positions: strong.positions(&built.sets),
        estimate: built.estimate,
        hidden: built.hidden,
        reused: false,
    };
    if strong.model().symmetric() {
        log(&format!(
            "retro2: {} classes stand for {} positions ({:.2} per class)",
            info.reachable,
            info.positions,
            info.positions as f64 / info.reachable.max(1) as f64
        ));
    }
    let model = strong.model();
    let cell_of = |g: &Gipf| {
        let (l, r) = model.rank_of(g)?;
        let i = built.sets[l].find(r)?;
        built.cells[l].as_ref().map(|c| (**c).as_ref()[i as usize])
    };
    let report = report_from(root, cell_of, stats(reachable));
    if let (Some(d), Some(parts)) = (dir, &build_options.parts) {
        let out = d.join(format!("{name}.tbl"));
        if let Err(e) = assemble(&strong, &built.sets, parts, &out) {
            return unknown(Unknown::GaveUp(format!("writing the table {}: {e}", out.display())));
        }
        log(&format!("retro2: table written to {}", out.display()));
    }
    log(&format!(
        "retro2: solved in {:.1} s, {reachable} reachable positions",
        began.elapsed().as_secs_f64()
    ));
    (report, info)
}

impl<G: Game> Solver<G> for Retro2Solver {
    /// Solves `root` with the game's [`StrongSolve`] (see the module); `unsupported` for a
    /// game without it.
    fn solve(&mut self, root: &G, limits: &Limits) -> Report<G::Move> {
        let Some(solve) = G::CAPABILITIES.strong_solve else {
            let stats = Stats::default();
            return Report::unknown_because(
                Unknown::Unsupported("retro2 solves GIPF positions only".into()),
                stats,
            );
        };
        let pool = crate::search::thread_pool(self.options.threads.max(1));
        pool.install(|| solve(root, limits, &self.options))
    }
}

/// The positions the classes of `sets` stand for: with symmetry the sum of their orbit sizes
/// (in parallel over runs of each layer's ranks), else the number of ranks.
pub(crate) fn positions_of(model: &GipfModel, sets: &[KeySet]) -> u64 {
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

#[cfg(test)]
mod tests;
