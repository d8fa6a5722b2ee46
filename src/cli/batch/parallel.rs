//! `bitsolve parallel-study`: the scaling study of the parallel solvers on a suite.
//!
//! For each solver and thread count it solves every position of the dataset files once and sums
//! the nodes of all threads: the *search overhead* of `N` threads is that sum over the sum with
//! one thread (node counts do not depend on how busy the machine is, so they predict machines
//! with more cores than this one). On request (`--timed K`) it also times one and two threads,
//! best of `K` runs per position, for the wall-clock speedup on this machine (meaningful only
//! on a quiet machine). Outcomes and distances at every thread count must equal the
//! one-thread ones, or the command fails. The Markdown section goes to stdout and, with
//! `--out`, is appended to a file (`results/parallel.md`, written by `scripts/parallel.sh`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bitsolve::search::alphabeta::AlphaBetaSolver;
use bitsolve::search::{HELPER_JOIN_DEFAULT, SCORE_HELPER_JOIN_DEFAULT};
use bitsolve::{GameKind, Limits, Notation, Solver, SolverKind, SolverOptions, with_game};

use crate::cli::batch;

/// Arguments of `bitsolve parallel-study`.
#[derive(clap::Args, Debug)]
pub struct ParallelStudyArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Solvers, comma-separated: `alphabeta` (ABDADA deferral), `alphabeta-lazy` (plain Lazy
    /// SMP, no deferral), `dfpn`; for Gauss also `alphabeta-score` (the exact-score solver, alone
    /// in its run).
    #[arg(long, short, value_delimiter = ',', default_value = "alphabeta,dfpn")]
    solver: Vec<String>,
    /// Thread counts, comma-separated (the first must be 1: the baseline).
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,8,16")]
    threads: Vec<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    tt_mib: usize,
    /// The first helper starts at once, helper `k >= 2` once the threads have counted this many
    /// nodes times `2^(k-1)` (0: all threads start at once). Default: 16384, and 2048 in score
    /// searches.
    #[arg(long)]
    join_nodes: Option<u64>,
    /// Also time 1 and 2 threads, best of this many runs per position (0: no timing).
    #[arg(long, default_value_t = 0)]
    timed: usize,
    /// Give up on a position after this many seconds (a position given up is left out of the
    /// sums of every thread count of that solver).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Title of the Markdown section.
    #[arg(long)]
    title: Option<String>,
    /// Where the positions come from, for the section's text (default: the file names).
    #[arg(long)]
    source: Option<String>,
    /// Append the Markdown section to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Dataset files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(args: &ParallelStudyArgs) -> Result<ExitCode> {
    if args.threads.first() != Some(&1) || args.threads.contains(&0) {
        bail!("--threads must start with 1 (the baseline) and hold no 0");
    }
    if args.solver.iter().any(|s| s == "alphabeta-score") {
        if args.solver.len() > 1 || args.game != GameKind::Gauss {
            bail!("alphabeta-score runs alone, on --game gauss");
        }
        return score_study(args);
    }
    for s in &args.solver {
        if !matches!(s.as_str(), "alphabeta" | "alphabeta-lazy" | "dfpn") {
            bail!("unknown solver `{s}` (alphabeta, alphabeta-lazy, dfpn, alphabeta-score)");
        }
    }
    with_game!(args.game, G => study::<G>(args))
}

/// A solver of the study with `threads` threads.
fn solver_of<G: Notation>(
    name: &str,
    args: &ParallelStudyArgs,
    threads: usize,
) -> Box<dyn Solver<G>> {
    let mut options = SolverOptions::for_game::<G>();
    options.tt_mib = args.tt_mib;
    options.threads = threads;
    options.helper_join = args.join_nodes;
    match name {
        "alphabeta" => Box::new(AlphaBetaSolver::new(&options)),
        "alphabeta-lazy" => {
            Box::new(AlphaBetaSolver::new(&options).with_deferral(false).with_root_sharing(false))
        }
        _ => bitsolve::search::make_solver::<G>(SolverKind::Dfpn, &options),
    }
}

/// One thread count's figures over the suite.
#[derive(Default)]
struct Totals {
    nodes: u64,
    /// Largest per-position overhead.
    worst: f64,
    /// Best-of-K wall time summed over positions (timed runs only).
    time: Duration,
}

#[allow(clippy::too_many_lines, reason = "one table: runs, checks and rows")]
fn study<G: Notation>(args: &ParallelStudyArgs) -> Result<ExitCode> {
    let (items, bad) = batch::load::<G>(&args.files)?;
    if bad > 0 {
        bail!("{bad} bad line(s) in the dataset files");
    }
    if items.is_empty() {
        bail!("no positions");
    }
    let limits =
        Limits { nodes: None, time: args.time_limit.map(Duration::from_secs_f64), stop: None };
    let mut md = section_head(args, &args.game.to_string(), items.len(), false);
    let mut failed = false;
    for name in &args.solver {
        // Per position: the one-thread (outcome, plies, nodes); `None` if not solved.
        let mut base: Vec<Option<(bitsolve::Outcome, Option<u32>, u64)>> = Vec::new();
        let mut rows: Vec<(usize, usize, Totals)> = Vec::new();
        for &threads in &args.threads {
            let mut solver = solver_of::<G>(name, args, threads);
            let runs = if args.timed > 0 && threads <= 2 { args.timed } else { 1 };
            let mut totals = Totals::default();
            let mut solved = 0;
            for (i, item) in items.iter().enumerate() {
                let mut best_time = Duration::MAX;
                let mut report = None;
                for _ in 0..runs {
                    let r = solver.solve(&item.pos, &limits);
                    best_time = best_time.min(r.stats.elapsed);
                    report = Some(r);
                }
                let report = report.expect("at least one run");
                eprintln!(
                    "{name} t{threads} {}: {:?} plies={:?} nodes={} time={:.3}s",
                    item.entry.id,
                    report.outcome,
                    report.plies,
                    report.stats.nodes,
                    best_time.as_secs_f64()
                );
                if threads == 1 {
                    base.push(report.outcome.map(|o| (o, report.plies, report.stats.nodes)));
                }
                let Some((outcome, plies, base_nodes)) = base[i] else { continue };
                let Some(got) = report.outcome else { continue };
                if (got, report.plies) != (outcome, plies) {
                    eprintln!(
                        "error: {name} t{threads} {}: {got:?} plies={:?}, one thread: {outcome:?} plies={plies:?}",
                        item.entry.id, report.plies
                    );
                    failed = true;
                }
                solved += 1;
                totals.nodes += report.stats.nodes;
                totals.worst =
                    totals.worst.max(report.stats.nodes as f64 / base_nodes.max(1) as f64);
                totals.time += best_time;
            }
            rows.push((threads, solved, totals));
        }
        push_rows(&mut md, name, &rows, args.timed);
    }
    finish(args, md, failed)
}

/// The study of the Gauss exact-score solver ([`AlphaBetaScore`]): the same table as [`study`],
/// scores instead of outcomes (every thread count must give the one-thread score).
fn score_study(args: &ParallelStudyArgs) -> Result<ExitCode> {
    use bitsolve::games::gauss::Gauss;
    use bitsolve::search::score::{AlphaBetaScore, ScoreSolver};
    let (items, bad) = batch::load::<Gauss>(&args.files)?;
    if bad > 0 || items.is_empty() {
        bail!("no positions, or {bad} bad line(s) in the dataset files");
    }
    let limits =
        Limits { nodes: None, time: args.time_limit.map(Duration::from_secs_f64), stop: None };
    let mut md = section_head(args, "gauss scores", items.len(), true);
    let mut failed = false;
    // Per position: the one-thread (score, nodes).
    let mut base: Vec<Option<(i32, u64)>> = Vec::new();
    let mut rows: Vec<(usize, usize, Totals)> = Vec::new();
    for &threads in &args.threads {
        let options = SolverOptions {
            threads,
            tt_mib: args.tt_mib,
            helper_join: args.join_nodes,
            ..SolverOptions::default()
        };
        let mut solver = AlphaBetaScore::new(&options);
        let runs = if args.timed > 0 && threads <= 2 { args.timed } else { 1 };
        let (mut totals, mut solved) = (Totals::default(), 0);
        for (i, item) in items.iter().enumerate() {
            let mut best_time = Duration::MAX;
            let mut report = None;
            for _ in 0..runs {
                let r = solver.solve_score(&item.pos, &limits);
                best_time = best_time.min(r.stats.elapsed);
                report = Some(r);
            }
            let report = report.expect("at least one run");
            eprintln!(
                "alphabeta-score t{threads} {}: score={:?} nodes={} time={:.3}s",
                item.entry.id,
                report.score,
                report.stats.nodes,
                best_time.as_secs_f64()
            );
            if threads == 1 {
                base.push(report.score.map(|s| (s, report.stats.nodes)));
            }
            let (Some((score, base_nodes)), Some(got)) = (base[i], report.score) else { continue };
            if got != score {
                eprintln!("error: t{threads} {}: score {got}, one thread: {score}", item.entry.id);
                failed = true;
            }
            solved += 1;
            totals.nodes += report.stats.nodes;
            totals.worst = totals.worst.max(report.stats.nodes as f64 / base_nodes.max(1) as f64);
            totals.time += best_time;
        }
        rows.push((threads, solved, totals));
    }
    push_rows(&mut md, "alphabeta-score", &rows, args.timed);
    finish(args, md, failed)
}

/// The section's title, text and table head; `what` names the study in the default title.
fn section_head(args: &ParallelStudyArgs, what: &str, positions: usize, score: bool) -> String {
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let title = args.title.clone().unwrap_or_else(|| format!("{what} ({})", files.join(", ")));
    let source = args.source.clone().unwrap_or_else(|| files.join(", "));
    let default_join = if score { SCORE_HELPER_JOIN_DEFAULT } else { HELPER_JOIN_DEFAULT };
    let join = match args.join_nodes.unwrap_or(default_join) {
        0 => "every helper starts at once".to_string(),
        join if score => format!(
            "the first thread searches alone for {join} nodes, then the first helper joins, \
             helper k >= 2 after {join} x 2^(k-1) nodes"
        ),
        join => {
            format!("the first helper starts at once, helper k >= 2 after {join} x 2^(k-1) nodes")
        }
    };
    let mut md = format!(
        "### {title}\n\n{positions} positions: {source}; table {} MiB; {join}; nodes summed over all threads.\n\n",
        args.tt_mib
    );
    md.push_str("| solver | threads | solved | nodes | overhead | worst position |");
    if args.timed > 0 {
        let _ = write!(md, " time (s, best of {}) | speedup |", args.timed);
    }
    md.push_str("\n|---|---:|---:|---:|---:|---:|");
    md.push_str(if args.timed > 0 { "---:|---:|\n" } else { "\n" });
    md
}

/// One table row per thread count of a solver (the first row is the one-thread baseline).
fn push_rows(md: &mut String, name: &str, rows: &[(usize, usize, Totals)], timed: usize) {
    let (base_nodes, base_time) = (rows[0].2.nodes.max(1), rows[0].2.time);
    for (threads, solved, totals) in rows {
        let _ = write!(
            md,
            "| {name} | {threads} | {solved} | {} | {:.2} | {:.2} |",
            totals.nodes,
            totals.nodes as f64 / base_nodes as f64,
            totals.worst
        );
        if timed > 0 && *threads <= 2 {
            let speedup = base_time.as_secs_f64() / totals.time.as_secs_f64().max(1e-9);
            let _ = write!(md, " {:.3} | {speedup:.2} |", totals.time.as_secs_f64());
        } else if timed > 0 {
            md.push_str(" - | - |");
        }
        md.push('\n');
    }
}

/// Prints the section, appends it to `--out`, and fails if any thread count disagreed.
fn finish(args: &ParallelStudyArgs, mut md: String, failed: bool) -> Result<ExitCode> {
    md.push('\n');
    print!("{md}");
    if let Some(out) = &args.out {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(out)
            .with_context(|| format!("opening {}", out.display()))?;
        file.write_all(md.as_bytes()).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
