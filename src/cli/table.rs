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
use bitsolve::search::retro::model::{AtaxxModel, LayerModel};
use bitsolve::search::retro::solve::{Control, Tally, reachable, solve_layers};
use bitsolve::search::retro::store::{Header, Parts, TableFile};
use bitsolve::search::retro::table::AtaxxTable;
use bitsolve::search::retro::values::{self, cell};
use bitsolve::unmove::LayeredIndex;
use bitsolve::{Ataxx, GameKind, Notation};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Table commands.
#[derive(clap::Subcommand, Debug)]
pub enum TableArgs {
    /// Strongly solves an Ataxx board from the four-corner start; writes the table file.
    Build(BuildArgs),
    /// Looks a position up in a table file: value and a best move.
    Query(QueryArgs),
}

/// Options of `table build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The game: `ataxx` (standard rules) or `ataxx-polish`.
    #[arg(long, short)]
    game: GameKind,
    /// The board, `RxC`: R ranks (height) and C files (width), e.g. `4x5`.
    #[arg(long)]
    board: String,
    /// The table file to write (checkpoints go to `FILE.parts/`).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Memory budget in GiB: refuse to start if the run's estimate is larger.
    #[arg(long)]
    memory: Option<f64>,
    /// Continue from the checkpoints in `FILE.parts/` (else they are discarded).
    #[arg(long)]
    resume: bool,
    /// Print the row `board,rules,positions,wins,draws,losses,start,plies,method` on stdout.
    #[arg(long)]
    csv: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
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
    match args {
        TableArgs::Build(b) => match b.game {
            GameKind::Ataxx => build::<false>(b),
            GameKind::AtaxxPolish => build::<true>(b),
            other => bail!("tables exist for ataxx and ataxx-polish only, not {other:?}"),
        },
        TableArgs::Query(q) => query(q),
    }
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
/// then per layer its cells and counters, the next layer's cells, and bucket entries
/// (estimated at one per position of the layer).
pub fn memory_estimate(sizes: &[u64]) -> u64 {
    let total: u64 = sizes.iter().sum();
    let reach = total / 4;
    let layer = (0..sizes.len())
        .map(|k| sizes[k] * (2 + 1 + 4) + sizes.get(k + 1).copied().unwrap_or(0) * 2)
        .max()
        .unwrap_or(0);
    reach + layer
}

#[expect(
    clippy::too_many_lines,
    reason = "the build command: index, resume, layers, table file and row"
)]
fn build<const POLISH: bool>(args: &BuildArgs) -> anyhow::Result<ExitCode> {
    let (ranks, files) = parse_board(&args.board)?;
    let start = Ataxx::<POLISH>::start(files, ranks);
    let index = AtaxxIndex::<POLISH>::for_position(&start);
    let model = AtaxxModel::new(index.clone());
    let sizes: Vec<u64> = (0..model.layers()).map(|l| model.layer_size(l)).collect();
    let total: u64 = sizes.iter().sum();
    let estimate = memory_estimate(&sizes);
    eprintln!(
        "table: {}x{} {} rules, {} squares, {total} positions in {} layers, memory estimate {:.2} GiB",
        ranks,
        files,
        if POLISH { "polish" } else { "standard" },
        index.squares(),
        sizes.len(),
        estimate as f64 / f64::from(1 << 30),
    );
    if let Some(gib) = args.memory
        && estimate as f64 > gib * f64::from(1 << 30)
    {
        bail!(
            "the run needs about {:.2} GiB, over the budget of {gib} GiB",
            estimate as f64 / f64::from(1 << 30)
        );
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads.max(1)).build()?;
    let began = Instant::now();
    let parts = Parts::new(&args.out)?;
    if !args.resume {
        parts.clear()?;
    }
    let resume = if args.resume { parts.resume(&sizes)? } else { None };
    let (start_layer, start_rank) = index.rank(&start).context("start not on the board")?;
    // Reachability from the start.
    let t_reach = Instant::now();
    let reach_bar = bar(total, args.quiet, "reach");
    let seen = |n: u64| reach_bar.inc(n);
    let reached = pool.install(|| {
        reachable(
            &model,
            (start_layer, start_rank, 0),
            &Control { progress: Some(&seen), stop: None },
        )
    })?;
    reach_bar.finish_and_clear();
    let reach_secs = t_reach.elapsed().as_secs_f64();
    // Solve.
    let t_solve = Instant::now();
    let solve_bar = bar(total, args.quiet, "solve");
    if let Some((l, _)) = &resume {
        solve_bar.inc(sizes[*l..].iter().sum());
        eprintln!("table: resuming below layer {l}");
    }
    let scanned = AtomicU64::new(0);
    let tick = |n: u64| {
        scanned.fetch_add(n, Ordering::Relaxed);
        solve_bar.inc(n);
    };
    let mut tally = Tally::default();
    let mut start_cell = None;
    let resume_layer = resume.as_ref().map(|(l, _)| *l);
    if let Some(l) = resume_layer {
        for (k, _) in sizes.iter().enumerate().skip(l) {
            let [positions, wins, draws, losses] =
                parts.tally(k).context("missing tally in the checkpoints")?;
            tally.add(Tally { positions, wins, draws, losses });
        }
        if start_layer >= l {
            let cells = parts.resume(&sizes)?.context("checkpoint vanished")?;
            if cells.0 == start_layer {
                start_cell = Some(cells.1[start_rank as usize]);
            }
        }
    }
    let control = Control { progress: Some(&tick), stop: None };
    pool.install(|| {
        solve_layers::<_, anyhow::Error>(
            &model,
            resume,
            0,
            Some(&reached),
            &control,
            |layer, cells| {
                let t = Tally::of_layer(cells, &reached[layer]);
                tally.add(t);
                if layer == start_layer {
                    start_cell = Some(cells[start_rank as usize]);
                }
                parts
                    .save(layer, cells, [t.positions, t.wins, t.draws, t.losses])
                    .with_context(|| format!("writing the checkpoint of layer {layer}"))?;
                Ok(())
            },
        )
    })?;
    solve_bar.finish_and_clear();
    let solve_secs = t_solve.elapsed().as_secs_f64();
    let header = Header {
        polish: POLISH,
        width: files,
        height: ranks,
        valid: index.valid(),
        layer_sizes: sizes,
    };
    parts.assemble(&header, &args.out).context("writing the table file")?;
    let Some(c) = start_cell.or_else(|| {
        // Resumed below the start's layer: read the start's value from the table.
        let t = TableFile::open(&args.out).ok()?;
        Some(cell::decided(t.value(start_layer, start_rank).ok()?, 0))
    }) else {
        bail!("the start position was not solved");
    };
    let scanned = scanned.load(Ordering::Relaxed);
    eprintln!(
        "table: reach {reach_secs:.1} s, solve {solve_secs:.1} s ({:.0} positions/s over {scanned} positions, {} threads), total {:.1} s, {:.2} bytes per position at the peak estimate",
        scanned as f64 / solve_secs.max(1e-9),
        args.threads,
        began.elapsed().as_secs_f64(),
        estimate as f64 / total as f64,
    );
    let outcome = values::outcome(cell::value(c)).context("undecided start")?;
    let plies = if outcome == bitsolve::Outcome::Draw || start_cell.is_none() {
        String::new()
    } else {
        cell::distance(c).to_string()
    };
    if args.csv {
        let rules = if POLISH { "polish" } else { "standard" };
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "{ranks}x{files},{rules},{},{},{},{},{},{plies},retro-index",
            tally.positions, tally.wins, tally.draws, tally.losses, outcome
        )?;
    }
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
