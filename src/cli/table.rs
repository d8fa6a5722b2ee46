//! `bitsolve table`: strong solves written as table files, for every game with an adapter of
//! the one retrograde driver ([`bitsolve::search::retro::driver`]): Ataxx boards from their
//! four-corner start (`--board RxC`) and GIPF roots (`--position LINE`). Lookups, checks and
//! the upgrade of first-format files.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use bitsolve::games::gipf::Gipf;
use bitsolve::search::retro::ataxx::{AtaxxStrong, v1_description};
use bitsolve::search::retro::driver::{
    self, BuildOptions, Hooks, assemble, layer_step, merge_step, reach_step,
};
use bitsolve::search::retro::file::{TableFile, upgrade_v1};
use bitsolve::search::retro::gipf::{GipfStrong, Spilling};
use bitsolve::search::retro::layers::Tally;
use bitsolve::search::retro::solve::Control;
use bitsolve::search::retro::store::Parts;
use bitsolve::search::retro::strong::Strong;
use bitsolve::search::retro::table::GameTable;
use bitsolve::search::retro::values::{self, cell};
use bitsolve::{GameKind, Notation, Outcome};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Table commands.
#[derive(clap::Subcommand, Debug)]
pub enum TableArgs {
    /// Strongly solves a root (an Ataxx board's start, or a GIPF position); writes the table
    /// file.
    Build(BuildArgs),
    /// Prints the layers and indexed positions of a root's table, `layers=N indexed=M` (for
    /// scripts that plan a sharded build).
    Info(StepArgs),
    /// Sharded build, step 1: the positions reachable from the root, stored in `FILE.parts/`
    /// (starts a fresh sharded build: the directory is cleared first).
    Reach(StepArgs),
    /// Sharded build, step 2: solves one layer, or with `--shard K/N` scans only shard K of N
    /// of its positions into a part file. Needs the reachable sets and the finished later
    /// layers.
    Layer(LayerArgs),
    /// Sharded build, step 3: joins the N part files of a layer and finishes the layer.
    Merge(MergeArgs),
    /// Sharded build, last step: writes the table file from the finished layers.
    Assemble(AssembleArgs),
    /// Looks a position up in a table file: value, plies (tables with distances) and a best
    /// move.
    Query(QueryArgs),
    /// Checks every layer's checksum of a table file.
    Verify(VerifyArgs),
    /// Draws positions of a table at random and prints them as a dataset (`id`, `position`,
    /// `expected`; the id holds the layer, rank and distance), for checks by other solvers.
    Sample(SampleArgs),
    /// Rewrites a table file of the first format (no checksums) in the current one.
    Upgrade(UpgradeArgs),
}

/// The root and files of a table command.
#[derive(clap::Args, Debug)]
pub struct Spec {
    /// The game: `ataxx`, `ataxx-polish` or `gipf`.
    #[arg(long, short)]
    game: GameKind,
    /// Ataxx: the board, `RxC`: R ranks (height) and C files (width), e.g. `4x5`.
    #[arg(long)]
    board: Option<String>,
    /// GIPF: the root, in the one-line form of `datasets/gipf/small-variants.tsv`.
    #[arg(long)]
    position: Option<String>,
    /// GIPF: one position per class under the twelve symmetries of the board.
    #[arg(long)]
    symmetry: bool,
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
    /// Print the results row on stdout (Ataxx: `board,rules,positions,wins,draws,losses,
    /// start,plies,method`; GIPF: `variant,symmetry,positions,wins,draws,losses,root,plies,
    /// method`).
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
    /// The layer (Ataxx: the number of stones).
    #[arg(long)]
    layer: usize,
    /// Scan only shard K of N (0-based `K/N`) of the layer's positions into a part file;
    /// `table merge` finishes the layer.
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
    /// Print the results row on stdout (as `table build --csv`).
    #[arg(long)]
    csv: bool,
}

/// Options of `table query`.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The table file.
    #[arg(long)]
    table: PathBuf,
    /// The position (Ataxx: FEN; GIPF: one-line form).
    #[arg(long)]
    position: String,
}

/// Options of `table verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The table file.
    #[arg(long)]
    table: PathBuf,
}

/// Options of `table sample`.
#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// The table file.
    #[arg(long)]
    table: PathBuf,
    /// How many positions.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// The seed of the draw.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Options of `table upgrade`.
#[derive(clap::Args, Debug)]
pub struct UpgradeArgs {
    /// The table file of the first format.
    #[arg(long)]
    table: PathBuf,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Runs a table command.
pub fn run(args: &TableArgs) -> anyhow::Result<ExitCode> {
    let spec = match args {
        TableArgs::Query(q) => return query(q),
        TableArgs::Verify(v) => return verify(&v.table),
        TableArgs::Sample(a) => return sample(a),
        TableArgs::Upgrade(u) => return upgrade(u),
        TableArgs::Build(a) => &a.spec,
        TableArgs::Info(a) | TableArgs::Reach(a) => &a.spec,
        TableArgs::Layer(a) => &a.spec,
        TableArgs::Merge(a) => &a.spec,
        TableArgs::Assemble(a) => &a.spec,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(spec.threads.max(1)).build()?;
    pool.install(|| match spec.game {
        GameKind::Ataxx => {
            let (r, c) = ataxx_board(spec)?;
            run_on(args, spec, &AtaxxStrong::<false>::new(r, c)?, &Row::Ataxx(r, c, "standard"))
        }
        GameKind::AtaxxPolish => {
            let (r, c) = ataxx_board(spec)?;
            run_on(args, spec, &AtaxxStrong::<true>::new(r, c)?, &Row::Ataxx(r, c, "polish"))
        }
        GameKind::Gipf => {
            if spec.board.is_some() {
                bail!("--board is for ataxx; give a GIPF root with --position");
            }
            let text = spec.position.as_deref().context("gipf tables need --position LINE")?;
            let root =
                Gipf::parse_position(text).with_context(|| format!("--position `{text}`"))?;
            let strong = GipfStrong::new(&root, spec.symmetry, Spilling::DEFAULT)?;
            let p = strong.root_position().params();
            let row = Row::Gipf(format!("S{}-K{}-W{}-B{}", p[0], p[1], p[2], p[3]), spec.symmetry);
            run_on(args, spec, &strong, &row)
        }
        other => bail!("tables exist for ataxx, ataxx-polish and gipf, not {other}"),
    })
}

/// The Ataxx board of `spec`, refusing the GIPF options.
fn ataxx_board(spec: &Spec) -> anyhow::Result<(u32, u32)> {
    if spec.position.is_some() || spec.symmetry {
        bail!(
            "--position and --symmetry are for gipf tables; an Ataxx table is of a board (--board RxC)"
        );
    }
    let text = spec.board.as_deref().context("ataxx tables need --board RxC, e.g. 4x5")?;
    let (r, c) = text.split_once(['x', 'X']).context("board must be RxC, e.g. 4x5")?;
    let r: u32 = r.trim().parse().context("bad number of ranks in --board")?;
    let c: u32 = c.trim().parse().context("bad number of files in --board")?;
    Ok((r, c))
}

/// How a table's results row starts.
enum Row {
    /// Ranks, files, rules.
    Ataxx(u32, u32, &'static str),
    /// Variant name, symmetry.
    Gipf(String, bool),
}

fn bar(len: Option<u64>, quiet: bool, what: &str) -> ProgressBar {
    let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
    let bar = ProgressBar::with_draw_target(len, target);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_string());
    bar
}

/// Runs a build command (`spec`: its root and files) on `strong`.
fn run_on<S: Strong>(
    args: &TableArgs,
    spec: &Spec,
    strong: &S,
    row: &Row,
) -> anyhow::Result<ExitCode> {
    if let TableArgs::Info(_) = args {
        println!("layers={} indexed={}", strong.layers(), strong.indexed());
        return Ok(ExitCode::SUCCESS);
    }
    let parts = Parts::new(&spec.out)
        .with_context(|| format!("creating the directory of {}", spec.out.display()))?;
    let quiet = spec.quiet;
    let log = |line: &str| {
        if !quiet {
            eprintln!("{line}");
        }
    };
    let began = Instant::now();
    let none = Control::default();
    match args {
        TableArgs::Build(a) => build(a, strong, parts, row),
        TableArgs::Reach(_) => {
            reach_step(strong, &parts, &Hooks { control: &none, log: &log })?;
            eprintln!("table: reach {:.1} s", began.elapsed().as_secs_f64());
            Ok(ExitCode::SUCCESS)
        }
        TableArgs::Layer(a) => {
            let shard = a.shard.map(|(k, n)| (k as u64, n as u64));
            let range = layer_step(strong, &parts, a.layer, shard, &none)?;
            eprintln!(
                "table: layer {} positions {}..{}{} in {:.2} s",
                a.layer,
                range.start,
                range.end,
                a.shard.map_or(String::new(), |(k, n)| format!(" (shard {k}/{n}, scanned)")),
                began.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        TableArgs::Merge(a) => {
            merge_step(strong, &parts, a.layer, a.shards as u64, &none)?;
            eprintln!(
                "table: layer {} merged from {} parts in {:.2} s",
                a.layer,
                a.shards,
                began.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        TableArgs::Assemble(a) => {
            let sets = strong.load_reach(&parts)?;
            let (tally, root) = assemble(strong, &sets, &parts, &spec.out)?;
            if a.csv {
                print_row(row, tally, root)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => unreachable!("lookups are run before"),
    }
}

fn build<S: Strong>(
    args: &BuildArgs,
    strong: &S,
    parts: Parts,
    row: &Row,
) -> anyhow::Result<ExitCode> {
    let spec = &args.spec;
    let gib = |bytes: u64| bytes as f64 / f64::from(1 << 30);
    let budget = args.memory.map(|m| (m * f64::from(1 << 30)) as u64);
    eprintln!(
        "table: {} positions indexed in {} layers, memory estimate {:.2} GiB ({:.2} GiB with the solved layers mapped)",
        strong.indexed(),
        strong.layers(),
        gib(strong.memory(None, false)),
        gib(strong.memory(None, true)),
    );
    let began = Instant::now();
    let solve_bar = bar(None, spec.quiet, "solve");
    let tick = |n: u64| solve_bar.inc(n);
    let control = Control { progress: Some(&tick), stop: None };
    let quiet = spec.quiet;
    let log = |line: &str| {
        if !quiet {
            solve_bar.suspend(|| eprintln!("{line}"));
        }
    };
    let options = BuildOptions {
        parts: Some(parts),
        resume: args.resume,
        map: args.map,
        memory: budget,
        cap: None,
        keep_all: false,
    };
    let built = driver::build(strong, &options, &Hooks { control: &control, log: &log })?;
    solve_bar.finish_and_clear();
    eprintln!(
        "table: reach {:.1} s, solve {:.1} s ({:.0} positions/s over {} positions, {} threads), total {:.1} s, {:.2} bytes per position at the peak estimate{}",
        built.reach_secs,
        built.solve_secs,
        built.scanned as f64 / built.solve_secs.max(1e-9),
        built.scanned,
        spec.threads,
        began.elapsed().as_secs_f64(),
        built.estimate as f64 / strong.indexed().max(1) as f64,
        if built.mapped { " (solved layers memory-mapped)" } else { "" },
    );
    let parts = options.parts.as_ref().expect("a build with files");
    let (tally, root) = assemble(strong, &built.sets, parts, &spec.out)?;
    if args.csv {
        print_row(row, tally, root)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the results row of a table.
fn print_row(row: &Row, tally: Tally, root: u16) -> anyhow::Result<()> {
    let outcome = values::outcome(cell::value(root)).context("undecided root")?;
    let plies =
        if outcome == Outcome::Draw { String::new() } else { cell::distance(root).to_string() };
    let head = match row {
        Row::Ataxx(r, c, rules) => format!("{r}x{c},{rules}"),
        Row::Gipf(name, sym) => format!("{name},{}", u8::from(*sym)),
    };
    let method = match row {
        Row::Ataxx(..) => "retro-index",
        Row::Gipf(..) => "retro-table",
    };
    writeln!(
        std::io::stdout().lock(),
        "{head},{},{},{},{},{outcome},{plies},{method}",
        tally.positions,
        tally.wins,
        tally.draws,
        tally.losses
    )?;
    Ok(())
}

/// Opens `path` and checks its header.
fn open(path: &Path) -> anyhow::Result<Arc<TableFile>> {
    Ok(Arc::new(TableFile::open(path).with_context(|| format!("opening {}", path.display()))?))
}

fn query(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    let file = open(&args.table)?;
    let game = game_of(&file)?;
    let line = bitsolve::with_game!(game, G => answer_line::<G>(file, &args.position))?;
    println!("{line}");
    Ok(ExitCode::SUCCESS)
}

/// `result=... [plies=...] best_move=...` for `text` in `file`.
fn answer_line<G: Notation>(file: Arc<TableFile>, text: &str) -> anyhow::Result<String> {
    let table = GameTable::<G>::new(file)?;
    let pos = G::parse_position(text).with_context(|| format!("--position `{text}`"))?;
    let a = table.answer(&pos)?;
    let best = a.best.map_or_else(|| "none".to_string(), |m| pos.format_move(m));
    let plies = a.plies.map_or(String::new(), |p| format!(" plies={p}"));
    Ok(format!("result={}{plies} best_move={best}", a.outcome))
}

/// The game of a table's description.
fn game_of(file: &TableFile) -> anyhow::Result<GameKind> {
    let name = file.description().require("game")?;
    GameKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .with_context(|| format!("the table is of an unknown game `{name}`"))
}

fn sample(args: &SampleArgs) -> anyhow::Result<ExitCode> {
    let file = open(&args.table)?;
    let game = game_of(&file)?;
    let text = bitsolve::with_game!(game, G => sample_rows::<G>(file, args))?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The dataset of `args.count` positions drawn from `file`.
fn sample_rows<G: Notation>(file: Arc<TableFile>, args: &SampleArgs) -> anyhow::Result<String> {
    let table = GameTable::<G>::new(file)?;
    let mut text = format!(
        "# {} positions drawn from {} (seed {}); id: sample-N-plies-P (P: - for a draw or a \
         table without distances)\nid\tposition\texpected\n",
        args.count,
        args.table.display(),
        args.seed
    );
    for (i, (pos, a)) in table.sample(args.count, args.seed)?.into_iter().enumerate() {
        let plies = a.plies.map_or_else(|| "-".to_string(), |p| p.to_string());
        writeln!(text, "sample-{i}-plies-{plies}\t{}\t{}", pos.format_position(), a.outcome)?;
    }
    Ok(text)
}

fn verify(path: &Path) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let file = open(path)?;
    file.verify()?;
    let cells: u64 = file.layers().iter().map(|e| e.cells).sum();
    println!(
        "{}: ok, {} layers, {cells} cells, every checksum verified in {:.2} s",
        path.display(),
        file.layers().len(),
        began.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn upgrade(args: &UpgradeArgs) -> anyhow::Result<ExitCode> {
    let (desc, sizes) = v1_description(&args.table)?;
    upgrade_v1(&args.table, &args.out, &desc, &sizes)
        .with_context(|| format!("upgrading {}", args.table.display()))?;
    TableFile::open(&args.out)?.verify()?;
    println!("{} -> {}: ok", args.table.display(), args.out.display());
    Ok(ExitCode::SUCCESS)
}
