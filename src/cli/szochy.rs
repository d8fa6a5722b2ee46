//! `bitsolve szochy`: solves szochy instances with the matching method, either the official test
//! format (`--tests FILE.json`, one JSON line per case and a summary) or one instance
//! (`--board "N M" --holes "i,j ..." --pieces "k2,2 ..."` or `--position LINE`).

use std::fmt::Write as _;
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

fn run_in_pool(args: &SzochyArgs) -> Result<ExitCode> {
    let options = SolveOptions { max_positions: args.max_positions };
    if let Some(path) = &args.tests {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let cases = parse_tests(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let start = Instant::now();
        let (mut correct, mut wrong, mut errors) = (0, 0, 0);
        for case in &cases {
            let mut json = format!("{{\"test\": {}", case.test);
            match case.instance().and_then(|inst| solve_one(&inst, options, args.line, &mut json)) {
                Ok(wins) => match case.expected {
                    Some(e) if e == wins => correct += 1,
                    Some(_) => wrong += 1,
                    None => {}
                },
                Err(err) => {
                    errors += 1;
                    let _ = write!(json, ", \"error\": {}", serde_json::Value::from(err));
                }
            }
            if let Some(e) = case.expected {
                let _ = write!(json, ", \"expected\": {e}");
            }
            println!("{json}}}");
        }
        println!(
            "{{\"summary\": true, \"cases\": {}, \"correct\": {correct}, \"wrong\": {wrong}, \"errors\": {errors}, \"millis\": {:.3}}}",
            cases.len(),
            start.elapsed().as_secs_f64() * 1000.0
        );
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
    let mut json = String::from("{\"instance\": ");
    json.push_str(&serde_json::Value::from(inst.to_line()).to_string());
    solve_one(&inst, options, args.line, &mut json).map_err(anyhow::Error::msg)?;
    println!("{json}}}");
    Ok(ExitCode::SUCCESS)
}

/// Solves `inst`, appending the JSON fields to `json`; returns whether the first player wins.
fn solve_one(
    inst: &Instance,
    options: SolveOptions,
    line: bool,
    json: &mut String,
) -> Result<bool, String> {
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
    let _ = write!(
        json,
        ", \"first_player_wins\": {}, \"positions\": {}, \"moves\": {}, \"matching\": {}, \"enumerate_ms\": {:.3}, \"matching_ms\": {:.3}, \"millis\": {:.3}",
        s.first_player_wins,
        s.positions,
        s.moves,
        s.matching_size,
        s.enumerate_time.as_secs_f64() * 1000.0,
        s.matching_time.as_secs_f64() * 1000.0,
        (s.enumerate_time + s.matching_time).as_secs_f64() * 1000.0
    );
    if line {
        let moves: Vec<String> = s
            .winning_line()
            .into_iter()
            .map(|m| format!("\"{}\"", inst.board.format_move(m)))
            .collect();
        let _ = write!(json, ", \"line\": [{}]", moves.join(", "));
    }
    Ok(s.first_player_wins)
}
