//! `bitsolve solve`: one position, or every position of dataset files, with one or more solvers.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use bitsolve::results::{Format, summary_table};
use bitsolve::{GameKind, Notation, Outcome, Report, SolverKind, make_solver, with_game};

use super::{SearchArgs, batch};

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
    /// Positions solved at once (rayon across positions; each has its own solver and table,
    /// so memory is jobs x tt-mib).
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// Compute the exact final score instead of the result (games with a score: gauss).
    #[arg(long, conflicts_with = "out")]
    score: bool,
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
    if args.score {
        let (position, moves, files) = (position.as_deref(), &args.moves, &args.files);
        let (game, solvers, search) = (args.game, &args.solver, &args.search);
        let job = super::score::ScoreJob { game, position, moves, files, solvers, search };
        return super::score::run(&job);
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

/// The result line: outcome first, then distance, best move and statistics.
pub fn result_line<G: Notation>(pos: &G, report: &Report<G::Move>) -> String {
    let mut line = String::new();
    let _ = write!(
        line,
        "{} plies={} move={} {}",
        report.outcome.map_or("unknown", Outcome::as_str),
        report.plies.map_or_else(|| "-".to_string(), |d| d.to_string()),
        report.best_move.map_or_else(|| "none".to_string(), |m| pos.format_move(m)),
        report.stats
    );
    line
}

fn solve_one<G: Notation>(text: &str, args: &SolveArgs) -> Result<()> {
    let pos: G = super::load_position(text, &args.moves)?;
    let options = args.search.options::<G>();
    println!("game {} position {}", args.game, pos.format_position());
    let limits = args.search.limits();
    let signature = batch::options_signature(&options, &limits);
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

fn solve_files<G: Notation>(args: &SolveArgs) -> Result<ExitCode> {
    let options = args.search.options::<G>();
    let spec = batch::BatchSpec {
        game: args.game,
        files: &args.files,
        configs: args.solver.iter().map(|&k| (k, options)).collect(),
        limits: args.search.limits(),
        out: args.out.clone(),
        resume: args.resume,
        shard: args.shard,
        jobs: args.jobs,
    };
    let outcome = batch::run::<G>(&spec)?;
    print!("{}", summary_table(&outcome.rows).render(Format::Md));
    let disagree = batch::report_disagreements(&outcome.rows);
    if outcome.bad_lines > 0 {
        eprintln!("{} bad line(s) skipped", outcome.bad_lines);
    }
    Ok(if disagree || outcome.bad_lines > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
