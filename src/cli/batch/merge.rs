//! `bitsolve merge`: joins result files (the shards of a cluster run) into one.

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use bitsolve::results::{Row, csv_header, dedup, parse_csv};

use crate::cli::batch::rows::json_path;

/// Arguments of `bitsolve merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged CSV file (overwritten; JSON Lines next to it with `.jsonl`).
    #[arg(long, short)]
    out: PathBuf,
    /// Result CSV files to join.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

/// Reads result CSV files; bad rows are reported with file and line and skipped. Returns the
/// rows and the number of bad rows.
pub fn read_results(paths: &[PathBuf]) -> Result<(Vec<Row>, u64)> {
    let mut rows = Vec::new();
    let mut bad = 0u64;
    for path in paths {
        let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let (mut r, errors) = parse_csv(&bytes);
        for e in &errors {
            eprintln!("{}: {e} (skipped)", path.display());
        }
        bad += errors.len() as u64;
        rows.append(&mut r);
    }
    Ok((rows, bad))
}

/// Runs the command: rows with the same key (file, id, solver, threads, options) keep the last.
pub fn run(args: &MergeArgs) -> Result<ExitCode> {
    let (rows, bad) = read_results(&args.inputs)?;
    let merged = dedup(&rows);
    let mut csv = format!("{}\n", csv_header());
    let mut json = String::new();
    for row in &merged {
        csv.push_str(&row.to_csv());
        csv.push('\n');
        json.push_str(&row.to_json());
        json.push('\n');
    }
    let write = |path: &PathBuf, text: &str| -> Result<()> {
        fs::File::create(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .with_context(|| format!("writing {}", path.display()))
    };
    write(&args.out, &csv)?;
    write(&json_path(&args.out), &json)?;
    eprintln!(
        "merged {} file(s): {} row(s), {} duplicate(s) dropped, {bad} bad row(s) -> {}",
        args.inputs.len(),
        merged.len(),
        rows.len() - merged.len(),
        args.out.display()
    );
    Ok(if bad > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
