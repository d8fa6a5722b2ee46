//! `bitsolve szochy`: solves szochy instances with the matching method, either the official test
//! format (`--tests FILE.json`, one JSON line per case and a summary) or one instance
//! (`--board "N M" --holes "i,j ..." --pieces "k2,2 ..."` or `--position LINE`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitsolve::games::szochy::enumerate::{BYTES_PER_ARC, BYTES_PER_POSITION, position_bound};
use bitsolve::games::szochy::instance::parse_line;
use bitsolve::games::szochy::{Instance, SolveOptions, parse_tests, solve};

/// Arguments of `bitsolve szochy`.
#[derive(clap::Args, Debug)]
pub struct SzochyArgs {
    /// A JSON file of test cases in the official format.
    #[arg(long, conflicts_with_all = ["board", "position"])]
    tests: Option<PathBuf>,
    /// Board size `N M` (N columns, M rows) of one instance.
    #[arg(long, requires = "pieces", conflicts_with = "position")]
    board: Option<String>,
    /// Holes of that instance: `i,j` squares separated by spaces (1-based).
    #[arg(long, default_value = "")]
    holes: String,
    /// Pieces of that instance: `k2,2 n1,1 ...` (letters k q b n r).
    #[arg(long)]
    pieces: Option<String>,
    /// One instance in the one-line notation `N M|holes|pieces`.
    #[arg(long)]
    position: Option<String>,
    /// Also print a line of play: the winner follows the maximum matching.
    #[arg(long)]
    line: bool,
    /// Refuse instances with more positions than this.
    #[arg(long, default_value_t = 100_000_000)]
    max_positions: usize,
    /// Worker threads for the enumeration.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// Runs the command.
pub fn run(args: &SzochyArgs) -> Result<ExitCode> {
    let pool = bitsolve::search::thread_pool(usize::from(args.threads));
    pool.install(|| run_in_pool(args))
}

/// One JSON line of output: an instance or a test case with its solution or error.
#[derive(serde::Serialize, Default)]
struct Answer {
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instance: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    solution: Option<Solution>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<bool>,
}

/// What solving one instance found.
#[derive(serde::Serialize)]
struct Solution {
    first_player_wins: bool,
    positions: u64,
    moves: u64,
    matching: u64,
    enumerate_ms: f64,
    matching_ms: f64,
    millis: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<Vec<String>>,
}

/// The summary line of `--tests` (its `summary` key marks the line).
#[derive(serde::Serialize)]
#[allow(clippy::struct_field_names)]
struct Summary {
    summary: bool,
    cases: usize,
    correct: usize,
    wrong: usize,
    errors: usize,
    millis: f64,
}

fn json_line<T: serde::Serialize>(value: &T) -> String {
    // Plain strings, booleans and numbers: serialising cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1000.0
}

fn run_in_pool(args: &SzochyArgs) -> Result<ExitCode> {
    let options = SolveOptions { max_positions: args.max_positions };
    if let Some(path) = &args.tests {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        // Bytes first, through the shared line reader: a bad line is located, not a panic or
        // a vague JSON error (one JSON document cannot skip a line, so it is fatal).
        let lines = bitsolve::lineio::lines_of(&bytes);
        if let Some(bad) = lines.iter().find_map(bitsolve::lineio::Line::describe_error) {
            bail!("{}: {bad}", path.display());
        }
        let text = String::from_utf8_lossy(&bytes);
        let cases = parse_tests(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let start = Instant::now();
        let (mut correct, mut wrong, mut errors) = (0, 0, 0);
        for case in &cases {
            let mut answer =
                Answer { test: Some(serde_json::json!(case.test)), ..Answer::default() };
            match case.instance().and_then(|inst| solve_one(&inst, options, args.line)) {
                Ok(solution) => {
                    match case.expected {
                        Some(e) if e == solution.first_player_wins => correct += 1,
                        Some(_) => wrong += 1,
                        None => {}
                    }
                    answer.solution = Some(solution);
                }
                Err(err) => {
                    errors += 1;
                    answer.error = Some(err);
                }
            }
            answer.expected = case.expected;
            println!("{}", json_line(&answer));
        }
        let summary = Summary {
            summary: true,
            cases: cases.len(),
            correct,
            wrong,
            errors,
            millis: ms(start.elapsed()),
        };
        println!("{}", json_line(&summary));
        return Ok(if wrong == 0 && errors == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    let line = match (&args.position, &args.board) {
        (Some(p), _) => p.clone(),
        (None, Some(b)) => format!("{b}|{}|{}", args.holes, args.pieces.as_deref().unwrap_or("")),
        (None, None) => bail!("give --tests FILE, --position LINE, or --board with --pieces"),
    };
    let (inst, rest) = parse_line(&line).with_context(|| format!("instance `{line}`"))?;
    if rest.is_some() {
        bail!("instance `{line}`: `bitsolve szochy` solves start positions (no history field)");
    }
    let solution = solve_one(&inst, options, args.line).map_err(anyhow::Error::msg)?;
    let answer =
        Answer { instance: Some(inst.to_line()), solution: Some(solution), ..Answer::default() };
    println!("{}", json_line(&answer));
    Ok(ExitCode::SUCCESS)
}

/// Solves `inst`: the fields of its JSON answer.
fn solve_one(inst: &Instance, options: SolveOptions, line: bool) -> Result<Solution, String> {
    for w in &inst.warnings {
        eprintln!("warning: {w}");
    }
    let bound = position_bound(&inst.board, &inst.start);
    if bound > 1_000_000 {
        let mut start_moves = 0u64;
        inst.board.for_each_child(&inst.start, |_, _| start_moves += 1);
        let n = bound.min(options.max_positions as u128) as u64;
        let bytes = n * (BYTES_PER_POSITION + BYTES_PER_ARC * start_moves.max(1));
        eprintln!(
            "szochy: at most {bound} positions (cap {}); memory estimate up to {:.2} GiB",
            options.max_positions,
            bytes as f64 / f64::from(1u32 << 30)
        );
    }
    let s = solve(inst, &options)?;
    if bound > 1_000_000 {
        let phases: Vec<String> =
            s.phases.iter().map(|(name, d)| format!("{name} {:.3} s", d.as_secs_f64())).collect();
        eprintln!("szochy: phases: {}", phases.join("; "));
    }
    Ok(Solution {
        first_player_wins: s.first_player_wins,
        positions: s.positions as u64,
        moves: s.moves as u64,
        matching: s.matching_size as u64,
        enumerate_ms: ms(s.enumerate_time),
        matching_ms: ms(s.matching_time),
        millis: ms(s.enumerate_time + s.matching_time),
        line: line
            .then(|| s.winning_line().into_iter().map(|m| inst.board.format_move(m)).collect()),
    })
}
