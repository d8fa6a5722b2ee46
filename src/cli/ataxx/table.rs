//! `bitsolve table`: strong solves of whole Ataxx boards with the indexed layered engine
//! ([`bitsolve::search::retro::solve`]), written as table files
//! ([`bitsolve::search::retro::store`]), and lookups in them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use bitsolve::games::ataxx::index::AtaxxIndex;
use bitsolve::search::retro::layers::{KeptCells, Tally, reachable, solve_layers_kept};
use bitsolve::search::retro::model::{AtaxxModel, LayerModel};
use bitsolve::search::retro::solve::{Control, Scanned, propagate, scan_range, shard_range};
use bitsolve::search::retro::store::{Header, Parts, TableFile};
use bitsolve::search::retro::table::AtaxxTable;
use bitsolve::search::retro::values::PackedValues;
use bitsolve::search::retro::values::{self, cell};
use bitsolve::unmove::LayeredIndex;
use bitsolve::{Ataxx, GameKind, Notation};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Table commands.
#[derive(clap::Subcommand, Debug)]
pub enum TableArgs {
    /// Strongly solves an Ataxx board from the four-corner start; writes the table file.
    Build(BuildArgs),
    /// Sharded build, step 1: the positions reachable from the start, one file per layer in
    /// `FILE.parts/` (starts a fresh sharded build: the directory is cleared first).
    Reach(StepArgs),
    /// Sharded build, step 2: solves one layer (stone count), or with `--shard K/N` scans
    /// only shard K of N of its ranks into a part file. Needs the reach files and the
    /// finished next layer.
    Layer(LayerArgs),
    /// Sharded build, step 3: joins the N part files of a layer and finishes the layer.
    Merge(MergeArgs),
    /// Sharded build, last step: writes the table file from the finished layers.
    Assemble(AssembleArgs),
    /// Looks a position up in a table file: value and a best move.
    Query(QueryArgs),
}

/// The board and files of a table command.
#[derive(clap::Args, Debug)]
pub struct Spec {
    /// The game: `ataxx` (standard rules) or `ataxx-polish`.
    #[arg(long, short)]
    game: GameKind,
    /// The board, `RxC`: R ranks (height) and C files (width), e.g. `4x5`.
    #[arg(long)]
    board: String,
    /// The table file to write (checkpoints and the files of a sharded build go to
    /// `FILE.parts/`).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Options of `table build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    spec: Spec,
    /// Memory budget in GiB. If the run's estimate is larger, the solved layers are read
    /// through memory maps of their checkpoint files (as with `--map`); if even that estimate
    /// is larger, the run refuses to start.
    #[arg(long)]
    memory: Option<f64>,
    /// Read the solved layers through memory maps of their checkpoint files instead of
    /// keeping them in memory.
    #[arg(long)]
    map: bool,
    /// Continue from the checkpoints in `FILE.parts/` (else they are discarded).
    #[arg(long)]
    resume: bool,
    /// Print the row `board,rules,positions,wins,draws,losses,start,plies,method` on stdout.
    #[arg(long)]
    csv: bool,
}

/// Options of `table reach`.
#[derive(clap::Args, Debug)]
pub struct StepArgs {
    #[command(flatten)]
    spec: Spec,
}

/// Options of `table layer`.
#[derive(clap::Args, Debug)]
pub struct LayerArgs {
    #[command(flatten)]
    spec: Spec,
    /// The layer: the number of stones.
    #[arg(long)]
    layer: usize,
    /// Scan only shard K of N (0-based `K/N`) of the layer's ranks into a part file; `table
    /// merge` finishes the layer.
    #[arg(long, value_parser = crate::cli::batch::parse_shard)]
    shard: Option<(usize, usize)>,
}

/// Options of `table merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    #[command(flatten)]
    spec: Spec,
    /// The layer.
    #[arg(long)]
    layer: usize,
    /// The number of shards its parts were scanned in.
    #[arg(long)]
    shards: usize,
}

/// Options of `table assemble`.
#[derive(clap::Args, Debug)]
pub struct AssembleArgs {
    #[command(flatten)]
    spec: Spec,
    /// Print the row `board,rules,positions,wins,draws,losses,start,plies,method` on stdout.
    #[arg(long)]
    csv: bool,
}

/// Options of `table query`.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The table file.
    #[arg(long)]
    table: PathBuf,
    /// The position (FEN), on the table's board.
    #[arg(long)]
    position: String,
}

/// Runs a table command.
pub fn run(args: &TableArgs) -> anyhow::Result<ExitCode> {
    let spec = match args {
        TableArgs::Query(q) => return query(q),
        TableArgs::Build(a) => &a.spec,
        TableArgs::Reach(a) => &a.spec,
        TableArgs::Layer(a) => &a.spec,
        TableArgs::Merge(a) => &a.spec,
        TableArgs::Assemble(a) => &a.spec,
    };
    match spec.game {
        GameKind::Ataxx => run_on::<false>(args, &Board::<false>::new(spec)?),
        GameKind::AtaxxPolish => run_on::<true>(args, &Board::<true>::new(spec)?),
        other => bail!("tables exist for ataxx and ataxx-polish only, not {other:?}"),
    }
}

fn run_on<const POLISH: bool>(args: &TableArgs, b: &Board<POLISH>) -> anyhow::Result<ExitCode> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(b.threads.max(1)).build()?;
    pool.install(|| match args {
        TableArgs::Build(a) => build(a, b),
        TableArgs::Reach(_) => reach_step(b),
        TableArgs::Layer(a) => layer_step(b, a.layer, a.shard),
        TableArgs::Merge(a) => merge_step(b, a.layer, a.shards),
        TableArgs::Assemble(a) => b.assemble(a.csv),
        TableArgs::Query(q) => query(q),
    })
}

/// Reads `RxC`.
fn parse_board(text: &str) -> anyhow::Result<(u32, u32)> {
    let (r, c) = text.split_once(['x', 'X']).context("board must be RxC, e.g. 4x5")?;
    let r: u32 = r.trim().parse().context("bad number of ranks in --board")?;
    let c: u32 = c.trim().parse().context("bad number of files in --board")?;
    if !(2..=7).contains(&r) || !(2..=7).contains(&c) {
        bail!("board sides must be 2..=7, got {r}x{c}");
    }
    if r * c > bitsolve::games::ataxx::index::MAX_INDEXED {
        bail!("{r}x{c} has more than {} squares", bitsolve::games::ataxx::index::MAX_INDEXED);
    }
    Ok((r, c))
}

fn bar(len: u64, quiet: bool, what: &str) -> ProgressBar {
    let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// Peak bytes of a run on the layers `sizes`: all reachability sets (2 bits per position),
/// then per layer its cells and counters, bucket entries (estimated at one per position of
/// the layer) and, unless `mapped` (read through a memory map of its file), the next layer's
/// cells.
pub fn memory_estimate(sizes: &[u64], mapped: bool) -> u64 {
    let total: u64 = sizes.iter().sum();
    let reach = total / 4;
    let next = if mapped { 0 } else { 2 };
    let layer = (0..sizes.len())
        .map(|k| sizes[k] * (2 + 1 + 4) + sizes.get(k + 1).copied().unwrap_or(0) * next)
        .max()
        .unwrap_or(0);
    reach + layer
}

/// A board being tabled: the start, its index and model, the layer sizes and the
/// checkpoint directory.
struct Board<const POLISH: bool> {
    ranks: u32,
    files: u32,
    out: PathBuf,
    threads: usize,
    quiet: bool,
    model: AtaxxModel<POLISH>,
    sizes: Vec<u64>,
    /// Layer and rank of the start.
    start: (usize, u64),
    parts: Parts,
}

impl<const POLISH: bool> Board<POLISH> {
    fn new(spec: &Spec) -> anyhow::Result<Self> {
        let (ranks, files) = parse_board(&spec.board)?;
        let start = Ataxx::<POLISH>::start(files, ranks);
        let index = AtaxxIndex::<POLISH>::for_position(&start);
        let model = AtaxxModel::new(index.clone());
        let sizes: Vec<u64> = (0..model.layers()).map(|l| model.layer_size(l)).collect();
        let start = index.rank(&start).context("start not on the board")?;
        let parts = Parts::new(&spec.out)
            .with_context(|| format!("creating the directory of {}", spec.out.display()))?;
        Ok(Board {
            ranks,
            files,
            out: spec.out.clone(),
            threads: spec.threads,
            quiet: spec.quiet,
            model,
            sizes,
            start,
            parts,
        })
    }

    /// The rule set's name.
    const RULES: &'static str = if POLISH { "polish" } else { "standard" };

    fn layer_size(&self, layer: usize) -> anyhow::Result<u64> {
        self.sizes.get(layer).copied().with_context(|| {
            format!("no layer {layer}: the board has layers 0..={}", self.sizes.len() - 1)
        })
    }

    /// The positions reachable from the start, every layer.
    fn reachable(&self) -> anyhow::Result<Vec<PackedValues>> {
        let total = self.sizes.iter().sum();
        let reach_bar = bar(total, self.quiet, "reach");
        let seen = |n: u64| reach_bar.inc(n);
        let (layer, rank) = self.start;
        let reached = reachable(
            &self.model,
            (layer, rank, 0),
            &Control { progress: Some(&seen), stop: None },
        )?;
        reach_bar.finish_and_clear();
        Ok(reached)
    }

    /// Stores a finished layer: its values, tally and cells, and the start's cell if it is
    /// in this layer.
    fn finish_layer(
        &self,
        layer: usize,
        cells: &[u16],
        reached: &PackedValues,
    ) -> anyhow::Result<()> {
        let t = Tally::of_layer(cells, reached);
        self.parts
            .save(layer, cells, [t.positions, t.wins, t.draws, t.losses])
            .with_context(|| format!("writing the checkpoint of layer {layer}"))?;
        if layer == self.start.0 {
            self.parts.save_start(cells[self.start.1 as usize])?;
        }
        Ok(())
    }

    /// Writes the table file from the finished layers and, with `csv`, prints the row.
    fn assemble(&self, csv: bool) -> anyhow::Result<ExitCode> {
        let mut tally = Tally::default();
        for layer in 0..self.sizes.len() {
            let [positions, wins, draws, losses] = self
                .parts
                .tally(layer)
                .with_context(|| format!("layer {layer} is not finished (no tally)"))?;
            tally.add(Tally { positions, wins, draws, losses });
        }
        let start_cell = self.parts.start();
        let header = Header {
            polish: POLISH,
            width: self.files,
            height: self.ranks,
            valid: self.model.index().valid(),
            layer_sizes: self.sizes.clone(),
        };
        self.parts.assemble(&header, &self.out).context("writing the table file")?;
        let (layer, rank) = self.start;
        let c = match start_cell {
            Some(c) => c,
            // Checkpoints of an older run without the start's cell: read the value only.
            None => cell::decided(TableFile::open(&self.out)?.value(layer, rank)?, 0),
        };
        let outcome = values::outcome(cell::value(c)).context("undecided start")?;
        let plies = if outcome == bitsolve::Outcome::Draw || start_cell.is_none() {
            String::new()
        } else {
            cell::distance(c).to_string()
        };
        if csv {
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "{}x{},{},{},{},{},{},{},{plies},retro-index",
                self.ranks,
                self.files,
                Self::RULES,
                tally.positions,
                tally.wins,
                tally.draws,
                tally.losses,
                outcome
            )?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

fn build<const POLISH: bool>(args: &BuildArgs, b: &Board<POLISH>) -> anyhow::Result<ExitCode> {
    let total: u64 = b.sizes.iter().sum();
    let gib = |bytes: u64| bytes as f64 / f64::from(1 << 30);
    let in_memory = memory_estimate(&b.sizes, false);
    let map = args.map || args.memory.is_some_and(|m| gib(in_memory) > m);
    let estimate = memory_estimate(&b.sizes, map);
    eprintln!(
        "table: {}x{} {} rules, {} squares, {total} positions in {} layers, memory estimate {:.2} GiB{}",
        b.ranks,
        b.files,
        Board::<POLISH>::RULES,
        b.sizes.len() - 1,
        b.sizes.len(),
        gib(estimate),
        if map { " (solved layers memory-mapped)" } else { "" },
    );
    if let Some(m) = args.memory
        && gib(estimate) > m
    {
        bail!("the run needs about {:.2} GiB, over the budget of {m} GiB", gib(estimate));
    }
    let began = Instant::now();
    if !args.resume {
        b.parts.clear()?;
    }
    let resume: Option<(usize, KeptCells)> = match b.parts.resume_layer(b.sizes.len()) {
        Some(l) if args.resume && map => Some((l, b.parts.map_cells(l, b.sizes[l])?)),
        Some(_) if args.resume => {
            b.parts.resume(&b.sizes)?.map(|(l, cells)| (l, Box::new(cells) as KeptCells))
        }
        _ => None,
    };
    let t_reach = Instant::now();
    let reached = b.reachable()?;
    let reach_secs = t_reach.elapsed().as_secs_f64();
    let t_solve = Instant::now();
    let solve_bar = bar(total, b.quiet, "solve");
    if let Some((l, _)) = &resume {
        solve_bar.inc(b.sizes[*l..].iter().sum());
        eprintln!("table: resuming below layer {l}");
    }
    let scanned = AtomicU64::new(0);
    let tick = |n: u64| {
        scanned.fetch_add(n, Ordering::Relaxed);
        solve_bar.inc(n);
    };
    let control = Control { progress: Some(&tick), stop: None };
    solve_layers_kept::<_, anyhow::Error>(
        &b.model,
        resume,
        0,
        Some(&reached),
        &control,
        |layer, cells| {
            b.finish_layer(layer, &cells, &reached[layer])?;
            if map {
                drop(cells);
                Ok(b.parts.map_cells(layer, b.sizes[layer])?)
            } else {
                Ok(Box::new(cells))
            }
        },
    )?;
    solve_bar.finish_and_clear();
    let solve_secs = t_solve.elapsed().as_secs_f64();
    let scanned = scanned.load(Ordering::Relaxed);
    eprintln!(
        "table: reach {reach_secs:.1} s, solve {solve_secs:.1} s ({:.0} positions/s over {scanned} positions, {} threads), total {:.1} s, {:.2} bytes per position at the peak estimate",
        scanned as f64 / solve_secs.max(1e-9),
        b.threads,
        began.elapsed().as_secs_f64(),
        estimate as f64 / total as f64,
    );
    b.assemble(args.csv)
}

/// `table reach`: clears the directory and writes the reachable set of every layer.
fn reach_step<const POLISH: bool>(b: &Board<POLISH>) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    b.parts.clear()?;
    let reached = b.reachable()?;
    for (layer, set) in reached.iter().enumerate() {
        b.parts.save_reach(layer, set)?;
    }
    eprintln!("table: reach {:.1} s", began.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// The reachable set of `layer` and the cells of the finished next layer (mapped).
fn inputs<const POLISH: bool>(
    b: &Board<POLISH>,
    layer: usize,
) -> anyhow::Result<(PackedValues, Vec<KeptCells>)> {
    let size = b.layer_size(layer)?;
    let reached = b.parts.load_reach(layer, size)?;
    let later = if layer + 1 < b.sizes.len() && !reached.is_empty() {
        vec![b.parts.map_cells(layer + 1, b.sizes[layer + 1]).with_context(|| {
            format!(
                "layer {} is not finished (run its `table merge` or `table layer` first)",
                layer + 1
            )
        })?]
    } else {
        Vec::new()
    };
    Ok((reached, later))
}

/// Scans the ranks `range` of `layer` (all skipped below the start's layer).
fn scan<const POLISH: bool>(
    b: &Board<POLISH>,
    layer: usize,
    range: std::ops::Range<u64>,
    reached: &PackedValues,
    later: &[KeptCells],
) -> anyhow::Result<Scanned> {
    if reached.is_empty() {
        let n = (range.end - range.start) as usize;
        return Ok(Scanned {
            cells: vec![cell::SKIPPED; n],
            counts: vec![0; n],
            hidden: Vec::new(),
        });
    }
    let later: Vec<&[u16]> = later.iter().map(|k| (**k).as_ref()).collect();
    Ok(scan_range(&b.model, layer, range, &later, Some(reached), &Control::default())?)
}

/// `table layer`: one layer, or one shard of its ranks.
fn layer_step<const POLISH: bool>(
    b: &Board<POLISH>,
    layer: usize,
    shard: Option<(usize, usize)>,
) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let size = b.layer_size(layer)?;
    let (reached, later) = inputs(b, layer)?;
    let (k, n) = shard.map_or((0, 1), |(k, n)| (k as u64, n as u64));
    let range = shard_range(size, k, n);
    let scanned = scan(b, layer, range.clone(), &reached, &later)?;
    if shard.is_some() {
        b.parts.save_part(layer, k, n, &scanned)?;
    } else {
        let cells = propagate(&b.model, layer, scanned, &Control::default())?;
        b.finish_layer(layer, &cells, &reached)?;
    }
    eprintln!(
        "table: layer {layer} ranks {}..{} of {size}{} in {:.2} s",
        range.start,
        range.end,
        shard.map_or(String::new(), |(k, n)| format!(" (shard {k}/{n}, scanned)")),
        began.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `table merge`: joins the parts of `layer` and finishes it.
fn merge_step<const POLISH: bool>(
    b: &Board<POLISH>,
    layer: usize,
    shards: usize,
) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    if shards == 0 {
        bail!("--shards must be at least 1");
    }
    let size = b.layer_size(layer)?;
    let reached = b.parts.load_reach(layer, size)?;
    let n = shards as u64;
    let ranges: Vec<_> = (0..n).map(|k| shard_range(size, k, n)).collect();
    let scanned = b.parts.load_parts(layer, &ranges)?;
    let cells = propagate(&b.model, layer, scanned, &Control::default())?;
    b.finish_layer(layer, &cells, &reached)?;
    b.parts.remove_parts(layer, n)?;
    eprintln!(
        "table: layer {layer} merged from {shards} parts in {:.2} s",
        began.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn query(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    let table = AtaxxTable::open(&args.table)
        .with_context(|| format!("opening {}", args.table.display()))?;
    let (outcome, best) = if table.file().header().polish {
        let pos = Ataxx::<true>::parse_position(&args.position)?;
        table.answer(&pos)?
    } else {
        let pos = Ataxx::<false>::parse_position(&args.position)?;
        table.answer(&pos)?
    };
    let best = best.map_or_else(|| "none".to_string(), |m| m.to_string());
    println!("result={outcome} best_move={best}");
    Ok(ExitCode::SUCCESS)
}
