//! `bitsolve solve`: one position, or every position of dataset files, with one or more solvers.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use bitsolve::{GameKind, Notation, SolverKind, make_solver, with_game};

use crate::cli::args::SearchArgs;
use crate::cli::batch;
use crate::cli::batch::rows::{effective_threads, options_signature, result_line};

/// Arguments of `bitsolve solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Solver(s), comma-separated.
    #[arg(long, short, value_delimiter = ',', default_value = "alphabeta")]
    solver: Vec<SolverKind>,
    /// One position to solve (instead of files), in the game's notation (`bitsolve info`).
    #[arg(long, visible_alias = "fen", conflicts_with_all = ["files", "position_file"])]
    position: Option<String>,
    /// One position to solve, read from this file (`-`: standard input); the whole text is
    /// the position, so multi-line forms (the GIPF load format) can be given as they are.
    #[arg(long, conflicts_with = "files")]
    position_file: Option<PathBuf>,
    /// Dataset files: one position per line, or TSV `id<TAB>position<TAB>expected`.
    /// Moves to play from the position first (space- or comma-separated).
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    files: Vec<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
    /// Append one row per (position, solver) to this CSV file (and to the same name with
    /// `.jsonl`), flushed as soon as it is known.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Skip the (file, id, solver, threads, options) rows already in `--out`.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Solve only positions k with k % n == i (0-based `i/n`, e.g. a Slurm array task id).
    #[arg(long, value_parser = batch::parse_shard)]
    shard: Option<(usize, usize)>,
    /// Positions solved at once (a rayon pool across positions; each has its own solver and
    /// table, so memory is jobs x tt-mib). Default: cores / --threads, within --memory.
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Memory budget of all jobs' tables in GiB (default: 3/4 of the machine's memory).
    #[arg(long)]
    memory: Option<f64>,
    /// Allow --jobs x --threads above the number of cores.
    #[arg(long)]
    oversubscribe: bool,
    /// Compute the exact final score instead of the result (games with a score: gauss); with
    /// files, rows carry a `score` column and take `--out`, `--resume`, `--shard` and `--jobs`.
    #[arg(long)]
    score: bool,
    /// A game option `NAME=VALUE`, repeatable (`bitsolve info --game G` lists a game's options
    /// and their defaults; geography: `reductions`, default
    /// `default,guided,parity-set,parity-win,parity-deep,traps`). Games without options refuse it.
    #[arg(long = "game-option", value_name = "NAME=VALUE", value_parser = crate::cli::args::parse_game_option)]
    game_options: Vec<(String, String)>,
}

/// Runs the command.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let position = match &args.position_file {
        Some(path) => Some(read_position_file(path)?),
        None => args.position.clone(),
    };
    if !args.moves.is_empty() && position.is_none() {
        bail!("--moves needs one position (--position or --position-file)");
    }
    check_threads(args)?;
    open_table(args)?;
    if args.score {
        if !args.game_options.is_empty() {
            bail!("--game-option: not with --score (no game with a score has options)");
        }
        let (position, moves) = (position.as_deref(), &args.moves);
        let (game, solvers, search) = (args.game, &args.solver, &args.search);
        let batch = (position.is_none() && !args.files.is_empty())
            .then(|| batch_spec(args, true))
            .transpose()?;
        let job =
            crate::cli::batch::score::ScoreJob { game, position, moves, solvers, search, batch };
        return crate::cli::batch::score::run(&job);
    }
    if let Some(text) = &position {
        with_game!(args.game, G => solve_one::<G>(text, args))?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.files.is_empty() {
        bail!("nothing to solve: give --position or dataset files (see `bitsolve solve --help`)");
    }
    with_game!(args.game, G => solve_files::<G>(args))
}

/// Refuses `--threads N > 1` for a solver that would run its sequential search anyway, and
/// options a chosen solver cannot honour.
fn check_threads(args: &SolveArgs) -> Result<()> {
    if args.search.symmetry
        && let Some(k) = args.solver.iter().find(|k| k.name() != "retro2")
    {
        bail!("--symmetry: only retro2 (on gipf) folds positions by symmetry, not {}", k.name());
    }
    if args.search.weak_numbers
        && let Some(k) = args.solver.iter().find(|k| !matches!(k.name(), "dfpn" | "pns"))
    {
        bail!("--weak-numbers: only dfpn and pns count proof numbers, not {}", k.name());
    }
    if args.search.join_nodes.is_some()
        && let Some(k) = args.solver.iter().find(|k| k.name() == "retro2")
    {
        bail!("--join-nodes: {} has no helper threads (its threads scan the index)", k.name());
    }
    let threads = args.search.threads;
    if threads <= 1 {
        return Ok(());
    }
    let sequential: Vec<&str> = args
        .solver
        .iter()
        .map(|k| k.name())
        .filter(|name| !bitsolve::results::uses_threads(name, args.score))
        .collect();
    if sequential.is_empty() {
        return Ok(());
    }
    let parallel = "alphabeta, dfpn, auto";
    bail!(
        "--threads {threads}: {} {} no parallel mode{}; run {} with --threads 1 (solvers with threads: {parallel})",
        sequential.join(", "),
        if sequential.len() == 1 { "has" } else { "have" },
        if args.score { " for exact scores" } else { "" },
        if sequential.len() == 1 { "it" } else { "them" },
    )
}

/// Opens `--table FILE` for the table solver (or refuses the table solver without it), and
/// refuses the retrograde options for solvers that would ignore them.
fn open_table(args: &SolveArgs) -> Result<()> {
    use anyhow::Context;
    use bitsolve::search::retro::file::TableFile;
    use bitsolve::search::retro::table::GameTable;
    let wanted = args.solver.contains(&SolverKind::Table);
    if (args.search.checkpoint.is_some() || args.search.progress)
        && let Some(k) = args.solver.iter().find(|k| k.name() != "retro2")
    {
        bail!("--checkpoint and --progress are retro2's options, not {}'s", k.name());
    }
    let Some(path) = &args.search.table else {
        if wanted {
            bail!("--solver table needs --table FILE (a table file of `bitsolve table build`)");
        }
        return Ok(());
    };
    if !wanted {
        bail!("--table is the table solver's file: add --solver table");
    }
    let file = std::sync::Arc::new(
        TableFile::open(path).with_context(|| format!("opening the table {}", path.display()))?,
    );
    // The table must be of this game (and rule set, board or parameters).
    with_game!(args.game, G => GameTable::<G>::new(file.clone()).map(|_| ()))
        .with_context(|| format!("the table {}", path.display()))?;
    let _ = args.search.opened_table.set(file);
    Ok(())
}

/// The text of a position file (`-`: standard input).
fn read_position_file(path: &std::path::Path) -> Result<String> {
    use anyhow::Context;
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("reading the position from standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn solve_one<G: Notation>(text: &str, args: &SolveArgs) -> Result<()> {
    let mut pos: G = crate::cli::args::load_position(text, &args.moves)?;
    let game_options = crate::cli::args::effective_game_options::<G>(&args.game_options)?;
    crate::cli::args::apply_game_options(&mut pos, &game_options)?;
    let options = args.search.options::<G>();
    println!("game {} position {}", args.game, pos.format_position());
    let limits = args.search.limits();
    let signature = options_signature(&options, &limits, false)
        + &crate::cli::args::game_options_signature(&game_options);
    for &kind in &args.solver {
        let threads = options.threads;
        println!(
            "solver {} threads={threads} tt_mib={} options={signature}",
            kind.name(),
            options.tt_mib
        );
        let report = make_solver::<G>(kind, &options).solve(&pos, &limits);
        println!("{}", result_line(&pos, &report));
    }
    Ok(())
}

/// The batch over the dataset files (`score`: exact scores).
///
/// # Errors
/// `--jobs`, `--threads` and `--memory` that cannot be honoured together.
pub fn batch_spec(args: &SolveArgs, score: bool) -> Result<batch::BatchSpec<'_>> {
    let options = bitsolve::with_game!(args.game, G => args.search.options::<G>());
    let game_options = if score {
        Vec::new()
    } else {
        bitsolve::with_game!(args.game, G => crate::cli::args::effective_game_options::<G>(&args.game_options))?
    };
    let threads = args
        .solver
        .iter()
        .map(|&k| effective_threads(k, &options, score) as usize)
        .max()
        .unwrap_or(1);
    let request = batch::JobRequest {
        jobs: args.jobs,
        threads,
        mib_per_job: options.tt_mib,
        memory_gib: args.memory,
        oversubscribe: args.oversubscribe,
    };
    let jobs = batch::choose_jobs(&request, batch::cores())?.jobs;
    Ok(batch::BatchSpec {
        game: args.game,
        files: &args.files,
        configs: args.solver.iter().map(|&k| (k, options.clone())).collect(),
        score,
        limits: args.search.limits(),
        out: args.out.clone(),
        resume: args.resume,
        shard: args.shard,
        jobs,
        game_options,
    })
}

fn solve_files<G: Notation>(args: &SolveArgs) -> Result<ExitCode> {
    let spec = batch_spec(args, false)?;
    let signatures = batch::signatures(&spec);
    let workers = batch::outcome_workers::<G>(&spec, &signatures);
    let outcome = batch::run::<G>(&spec, &workers)?;
    Ok(batch::finish(&outcome))
}
