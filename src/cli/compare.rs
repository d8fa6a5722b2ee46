//! `bitsolve compare`: several solvers and thread counts on the same positions in one run:
//! totals, ratios against a baseline, thread speedup, and a loud error on any disagreement.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use bitsolve::results::{Config, Format, ratio_table, summary_table};
use bitsolve::{GameKind, Notation, SolverKind, SolverOptions, with_game};

use super::batch;

/// Arguments of `bitsolve compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Solvers, comma-separated.
    #[arg(long, short, value_delimiter = ',', default_value = "alphabeta,pns,dfpn")]
    solver: Vec<SolverKind>,
    /// Thread counts inside one search, comma-separated; every solver runs with each.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// Transposition table size in MiB (per solver and job).
    #[arg(long, default_value_t = bitsolve::search::TT_MIB_DEFAULT)]
    tt_mib: usize,
    /// df-pn 1+epsilon threshold factor (0 = plain thresholds); default: the game's own.
    #[arg(long)]
    epsilon: Option<f64>,
    /// Give up on a position after this many seconds.
    #[arg(long)]
    time_limit: Option<f64>,
    /// Give up on a position after this many nodes.
    #[arg(long)]
    node_limit: Option<u64>,
    /// The baseline of the ratios: `solver` or `solver/tN` (default: the first solver, 1 thread).
    #[arg(long)]
    baseline: Option<String>,
    /// Output format of the tables.
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Append rows to this CSV file (and `.jsonl`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Skip rows already in `--out`.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Positions solved at once (keep 1 when measuring thread speedup).
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// Dataset files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Reads a baseline `solver[/tN]` into a predicate on configurations.
pub fn baseline_matcher(text: Option<&str>, default_solver: &str) -> impl Fn(&Config) -> bool {
    let text = text.unwrap_or(default_solver);
    let (solver, threads) = match text.split_once("/t") {
        Some((s, t)) => (s.to_string(), t.parse::<u32>().unwrap_or(1)),
        None => (text.to_string(), 1),
    };
    move |c: &Config| c.1 == solver && c.3 == threads
}

/// Runs the command.
pub fn run(args: &CompareArgs) -> Result<ExitCode> {
    with_game!(args.game, G => compare::<G>(args))
}

fn compare<G: Notation>(args: &CompareArgs) -> Result<ExitCode> {
    let mut configs = Vec::new();
    for &kind in &args.solver {
        for &threads in &args.threads {
            let mut options = SolverOptions::for_game::<G>().with_epsilon_flag(args.epsilon);
            options.threads = threads.max(1);
            options.tt_mib = args.tt_mib;
            configs.push((kind, options));
        }
    }
    let spec = batch::BatchSpec {
        game: args.game,
        files: &args.files,
        configs,
        limits: bitsolve::Limits {
            nodes: args.node_limit,
            time: args.time_limit.map(std::time::Duration::from_secs_f64),
            stop: None,
        },
        out: args.out.clone(),
        resume: args.resume,
        shard: None,
        jobs: args.jobs,
    };
    let outcome = batch::run::<G>(&spec)?;
    let rows = &outcome.rows;
    println!("{}", summary_table(rows).render(args.format));
    let first = args.solver.first().map_or("alphabeta", |k| k.name());
    let is_base = baseline_matcher(args.baseline.as_deref(), first);
    print!("{}", ratio_table(rows, &is_base).render(args.format));
    let disagree = batch::report_disagreements(rows);
    if outcome.bad_lines > 0 {
        eprintln!("{} bad line(s) skipped", outcome.bad_lines);
    }
    Ok(if disagree || outcome.bad_lines > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
