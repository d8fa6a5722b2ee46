//! `bitsolve solve`: one position, or every position of dataset files, with one or more solvers.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bitsolve::dataset::read_dataset;
use bitsolve::{GameKind, Notation, Outcome, Report, SolverKind, make_solver, with_game};
use indicatif::{ProgressBar, ProgressStyle};

use super::SearchArgs;

/// Arguments of `bitsolve solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Solver(s), comma-separated.
    #[arg(long, short, value_delimiter = ',', default_value = "alphabeta")]
    solver: Vec<SolverKind>,
    /// One position to solve (instead of files).
    #[arg(long, visible_alias = "fen", conflicts_with = "files")]
    position: Option<String>,
    /// Dataset files: one position per line, or TSV `id<TAB>position<TAB>expected`.
    /// Moves to play from the position first (space- or comma-separated).
    #[arg(long, value_delimiter = ',', requires = "position")]
    moves: Vec<String>,
    files: Vec<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
    /// Also write one CSV row per (position, solver) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Compute the exact final score instead of the result (games with a score: gauss).
    #[arg(long, conflicts_with = "out")]
    score: bool,
}

/// Runs the command.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    if args.score {
        let (position, moves, files) = (args.position.as_deref(), &args.moves, &args.files);
        let (game, solvers, search) = (args.game, &args.solver, &args.search);
        let job = super::score::ScoreJob { game, position, moves, files, solvers, search };
        return super::score::run(&job);
    }
    if let Some(text) = &args.position {
        with_game!(args.game, G => solve_one::<G>(text, args))?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.files.is_empty() {
        bail!("nothing to solve: give --position or dataset files (see `bitsolve solve --help`)");
    }
    with_game!(args.game, G => solve_files::<G>(args))
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
    let options = args.search.options();
    println!("game {} position {}", args.game, pos.format_position());
    for &kind in &args.solver {
        println!("solver {} threads={} tt_mib={}", kind.name(), options.threads, options.tt_mib);
        let report = make_solver::<G>(kind, &options).solve(&pos, &args.search.limits());
        println!("{}", result_line(&pos, &report));
    }
    Ok(())
}

/// Totals of one solver over a run.
#[derive(Default)]
struct Tally {
    solved: u64,
    unknown: u64,
    agree: u64,
    disagree: u64,
    nodes: u64,
    seconds: f64,
}

const CSV_HEADER: &str = "game,file,id,solver,threads,tt_mib,outcome,plies,best_move,expected,\
                          agree,nodes,tt_probes,tt_hits,max_depth,millis,git";

fn solve_files<G: Notation>(args: &SolveArgs) -> Result<ExitCode> {
    let options = args.search.options();
    let mut csv = match &args.out {
        Some(path) => {
            let new = !path.exists();
            let mut file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            if new {
                writeln!(file, "{CSV_HEADER}")?;
            }
            Some(file)
        }
        None => None,
    };
    let mut tallies: Vec<Tally> = args.solver.iter().map(|_| Tally::default()).collect();
    // One solver per kind for the whole run: its table is allocated once and cleared per position.
    let mut solvers: Vec<_> = args.solver.iter().map(|&k| make_solver::<G>(k, &options)).collect();
    let mut bad_lines = 0u64;
    for path in &args.files {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (entries, errors) = read_dataset(&text);
        for e in &errors {
            eprintln!("{}: {e}", path.display());
        }
        bad_lines += errors.len() as u64;
        let bar = ProgressBar::new((entries.len() * args.solver.len()) as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} eta {eta} {msg}")
                .expect("valid template"),
        );
        for entry in &entries {
            let pos = match G::parse_position(&entry.position) {
                Ok(p) => p,
                Err(e) => {
                    let e = e.shifted(entry.line - 1);
                    let column =
                        if e.line == entry.line { e.column + entry.column - 1 } else { e.column };
                    bar.suspend(|| {
                        eprintln!(
                            "{}: line {}, column {column}: {}",
                            path.display(),
                            e.line,
                            e.message
                        );
                    });
                    bad_lines += 1;
                    bar.inc(args.solver.len() as u64);
                    continue;
                }
            };
            for ((kind, tally), solver) in args.solver.iter().zip(&mut tallies).zip(&mut solvers) {
                let report = solver.solve(&pos, &args.search.limits());
                record(tally, entry.expected, &report);
                let verdict = match (entry.expected, report.outcome) {
                    (Some(e), Some(o)) if e != o => format!(" MISMATCH expected {e}"),
                    _ => String::new(),
                };
                bar.suspend(|| {
                    println!(
                        "{}\t{}\t{}{verdict}",
                        entry.id,
                        kind.name(),
                        result_line(&pos, &report)
                    );
                });
                if let Some(file) = csv.as_mut() {
                    writeln!(
                        file,
                        "{}",
                        csv_row(args, path, &entry.id, *kind, &pos, &report, entry.expected)
                    )?;
                    file.flush()?;
                }
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
    }
    print_summary(&args.solver, &tallies);
    let disagreements: u64 = tallies.iter().map(|t| t.disagree).sum();
    if disagreements > 0 {
        eprintln!("error: {disagreements} result(s) disagree with the expected values");
    }
    if bad_lines > 0 {
        eprintln!("{bad_lines} bad line(s) skipped");
    }
    Ok(if disagreements > 0 || bad_lines > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn record<M>(tally: &mut Tally, expected: Option<Outcome>, report: &Report<M>) {
    tally.nodes += report.stats.nodes;
    tally.seconds += report.stats.elapsed.as_secs_f64();
    match (report.outcome, expected) {
        (None, _) => tally.unknown += 1,
        (Some(o), Some(e)) => {
            tally.solved += 1;
            if o == e {
                tally.agree += 1;
            } else {
                tally.disagree += 1;
            }
        }
        (Some(_), None) => tally.solved += 1,
    }
}

fn csv_row<G: Notation>(
    args: &SolveArgs,
    path: &Path,
    id: &str,
    kind: SolverKind,
    pos: &G,
    report: &Report<G::Move>,
    expected: Option<Outcome>,
) -> String {
    let options = args.search.options();
    let agree = match (report.outcome, expected) {
        (Some(o), Some(e)) => (o == e).to_string(),
        _ => String::new(),
    };
    let s = &report.stats;
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{}",
        args.game,
        csv_field(&path.display().to_string()),
        csv_field(id),
        kind.name(),
        options.threads,
        options.tt_mib,
        report.outcome.map_or("unknown", Outcome::as_str),
        report.plies.map_or_else(String::new, |d| d.to_string()),
        report.best_move.map_or_else(String::new, |m| csv_field(&pos.format_move(m))),
        expected.map_or("", Outcome::as_str),
        agree,
        s.nodes,
        s.tt.probes,
        s.tt.hits,
        s.max_depth,
        s.elapsed.as_secs_f64() * 1000.0,
        env!("BITSOLVE_GIT"),
    )
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn print_summary(solvers: &[SolverKind], tallies: &[Tally]) {
    println!("| solver | solved | unknown | agree | disagree | nodes | time (s) | nodes/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (kind, t) in solvers.iter().zip(tallies) {
        let nps = if t.seconds > 0.0 { t.nodes as f64 / t.seconds } else { 0.0 };
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.3} | {:.0} |",
            kind.name(),
            t.solved,
            t.unknown,
            t.agree,
            t.disagree,
            t.nodes,
            t.seconds,
            nps
        );
    }
}
