//! Result rows of the batch commands: building a row from a solver's report, the result line
//! printed per position, the options signature, and the crash-safe pair of result files (CSV
//! and JSON Lines) that rows are appended to.

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use bitsolve::dataset::Entry;
use bitsolve::results::{
    Row, RowError, complete_len, csv_header, parse_csv, parse_jsonl, uses_threads,
};
use bitsolve::search::score::ScoreReport;
use bitsolve::{GameKind, Limits, Notation, Outcome, Report, Scored, SolverKind, SolverOptions};

/// The options column: every setting that changes the work except threads (its own column);
/// `score`: an exact-score run (`solve --score`).
pub fn options_signature(options: &SolverOptions, limits: &Limits, score: bool) -> String {
    let mut sig = format!("tt{}", options.tt_mib);
    if let Some(e) = options.epsilon {
        let _ = write!(sig, "-eps{e}");
    }
    if !options.mobility {
        sig.push_str("-nomob");
    }
    if options.win_probe {
        sig.push_str("-probe");
    }
    if options.weak_numbers {
        sig.push_str("-weak");
    }
    if let Some(join) = options.helper_join
        && options.threads > 1
    {
        let _ = write!(sig, "-join{join}");
    }
    if let Some(t) = limits.time {
        let _ = write!(sig, "-tl{}", t.as_secs_f64());
    }
    if let Some(n) = limits.nodes {
        let _ = write!(sig, "-nl{n}");
    }
    if options.symmetry {
        sig.push_str("-sym");
    }
    if score {
        sig.push_str("-score");
    }
    sig
}

/// The threads a solver really searches with: its `--threads`, or 1 for a solver without
/// threads (which runs the same sequential search at any count).
pub fn effective_threads(kind: SolverKind, options: &SolverOptions, score: bool) -> u32 {
    if uses_threads(kind.name(), score) { options.threads.max(1) as u32 } else { 1 }
}

/// The result line: outcome first, then distance, best move and statistics; for an unknown
/// outcome, its reason in parentheses at the end.
pub fn result_line<G: Notation>(pos: &G, report: &Report<G::Move>) -> String {
    let line = format!(
        "{} plies={} move={} {}",
        report.outcome.map_or("unknown", Outcome::as_str),
        report.plies.map_or_else(|| "-".to_string(), |d| d.to_string()),
        report.best_move.map_or_else(|| "none".to_string(), |m| pos.format_move(m)),
        report.stats
    );
    match &report.unknown {
        Some(reason) if report.outcome.is_none() => format!("{line} ({reason})"),
        _ => line,
    }
}

/// The result line of a score solve: `score=<n|unknown> move=<best|none> <stats>`.
pub fn score_line<G: Notation + Scored>(pos: &G, report: &ScoreReport<G::Move>) -> String {
    format!(
        "score={} move={} {}",
        report.score.map_or_else(|| "unknown".to_string(), |s| s.to_string()),
        report.best_move.map_or_else(|| "none".to_string(), |m| pos.format_move(m)),
        report.stats
    )
}

/// What one solved position is: the dataset file, its entry and the parsed position.
pub struct Solved<'a, G> {
    /// The game.
    pub game: GameKind,
    /// Dataset file as given.
    pub file: &'a str,
    /// The dataset entry.
    pub entry: &'a Entry,
    /// The position.
    pub pos: &'a G,
    /// The solver.
    pub kind: SolverKind,
    /// Its options.
    pub options: &'a SolverOptions,
    /// The options signature.
    pub signature: &'a str,
}

impl<G: Notation> Solved<'_, G> {
    fn base_row(&self, stats: &bitsolve::Stats, score: bool) -> Row {
        Row {
            game: self.game.name().to_string(),
            file: self.file.to_string(),
            id: self.entry.id.clone(),
            solver: self.kind.name().to_string(),
            threads: effective_threads(self.kind, self.options, score),
            tt_mib: self.options.tt_mib as u64,
            options: self.signature.to_string(),
            outcome: None,
            plies: None,
            best_move: String::new(),
            expected: self.entry.expected,
            agree: None,
            nodes: stats.nodes,
            tt_probes: stats.tt.probes,
            tt_hits: stats.tt.hits,
            max_depth: stats.max_depth,
            // Nanosecond resolution (the files had microseconds until 2026-11-29: Connect Four's
            // easiest solves take well under one, and rounding made them 0 or 1).
            millis: stats.elapsed.as_nanos() as f64 / 1e6,
            git: env!("BITSOLVE_GIT").to_string(),
            score: None,
        }
    }

    /// The row of an outcome solve.
    pub fn outcome_row(&self, report: &Report<G::Move>) -> Row {
        let mut row = self.base_row(&report.stats, false);
        row.outcome = report.outcome;
        row.plies = report.plies;
        row.best_move = report.best_move.map_or_else(String::new, |m| self.pos.format_move(m));
        row.agree = agree(row.outcome, row.expected);
        row
    }

    /// The row of a score solve: the outcome is the sign of a non-zero score; a zero score is
    /// a draw in games where it always is ([`Scored::ZERO_IS_DRAW`]), else `unknown` (tie-breaks
    /// may still split it).
    pub fn score_row(&self, report: &ScoreReport<G::Move>) -> Row
    where
        G: Scored,
    {
        let mut row = self.base_row(&report.stats, true);
        row.score = report.score.map(i64::from);
        row.outcome = report.score.and_then(|s| match s.signum() {
            1 => Some(Outcome::Win),
            -1 => Some(Outcome::Loss),
            _ => G::ZERO_IS_DRAW.then_some(Outcome::Draw),
        });
        row.best_move = report.best_move.map_or_else(String::new, |m| self.pos.format_move(m));
        row.agree = agree(row.outcome, row.expected);
        row
    }
}

fn agree(outcome: Option<Outcome>, expected: Option<Outcome>) -> Option<bool> {
    match (outcome, expected) {
        (Some(o), Some(e)) => Some(o == e),
        _ => None,
    }
}

/// The JSON Lines file written next to a CSV file.
pub fn json_path(csv: &Path) -> PathBuf {
    csv.with_extension("jsonl")
}

/// Prints the loud error for rows that disagree with each other or with `expected`; returns
/// whether there were any.
pub fn report_disagreements(rows: &[Row]) -> bool {
    let bad = bitsolve::results::disagreements(rows);
    for msg in &bad {
        eprintln!("DISAGREEMENT {msg}");
    }
    if !bad.is_empty() {
        eprintln!("error: {} position(s) with disagreeing values", bad.len());
    }
    !bad.is_empty()
}

/// The pair of result files of a batch run, crash-safe: the CSV is the record, the JSON Lines
/// file is derived from it.
///
/// Each finished row is appended to the CSV, then to the JSON Lines file, one `write` per line,
/// so a run killed at any moment (SIGKILL included) leaves at most a torn last line in either
/// file, or a row in the CSV that the JSON Lines file lacks. [`ResultFiles::open`] repairs
/// both: it truncates each file to its last complete line and, if the JSON Lines rows are not
/// exactly the CSV rows, rewrites the JSON Lines file from the CSV (into a temporary file that
/// is then renamed over it, so a kill during the repair leaves the old file). A row is done
/// once its CSV line is complete; after `open`, both files hold the same rows.
pub struct ResultFiles {
    csv: File,
    json: File,
    /// The rows the CSV already held.
    pub existing: Vec<Row>,
    /// Lines of the CSV that could not be read (kept in the file, left out of the JSON Lines).
    pub errors: Vec<RowError>,
}

impl ResultFiles {
    /// Opens (or creates) `path` and its JSON Lines twin for appending, after the repair.
    ///
    /// # Errors
    /// I/O errors on either file.
    pub fn open(path: &Path) -> Result<ResultFiles> {
        let json_path = json_path(path);
        let csv_bytes = truncate_torn_line(path)?;
        let json_bytes = truncate_torn_line(&json_path)?;
        let (existing, errors) = parse_csv(&csv_bytes);
        let (json_rows, _) = parse_jsonl(&json_bytes);
        if json_rows != existing {
            let mut text = String::new();
            for row in &existing {
                text.push_str(&row.to_json());
                text.push('\n');
            }
            let tmp = json_path.with_extension("jsonl.tmp");
            fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
            fs::rename(&tmp, &json_path)
                .with_context(|| format!("replacing {}", json_path.display()))?;
            if !json_bytes.is_empty() || !existing.is_empty() {
                eprintln!(
                    "{}: rewritten from {} ({} row(s))",
                    json_path.display(),
                    path.display(),
                    existing.len()
                );
            }
        }
        let open = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))
        };
        let mut csv = open(path)?;
        if csv_bytes.is_empty() {
            csv.write_all(format!("{}\n", csv_header()).as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(ResultFiles { csv, json: open(&json_path)?, existing, errors })
    }

    /// Appends one row to both files: the CSV line first (the record), then the JSON line.
    ///
    /// # Errors
    /// I/O errors.
    pub fn write(&mut self, row: &Row) -> Result<()> {
        self.csv.write_all(format!("{}\n", row.to_csv()).as_bytes())?;
        self.csv.flush()?;
        self.json.write_all(format!("{}\n", row.to_json()).as_bytes())?;
        self.json.flush()?;
        Ok(())
    }
}

/// Drops a torn last line (a run killed mid-write) so appended rows start on a fresh line;
/// returns the complete lines (empty when the file does not exist).
fn truncate_torn_line(path: &Path) -> Result<Vec<u8>> {
    let Ok(mut bytes) = fs::read(path) else { return Ok(Vec::new()) };
    let keep = complete_len(&bytes);
    if keep < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.set_len(keep as u64).with_context(|| format!("truncating {}", path.display()))?;
        bytes.truncate(keep);
        eprintln!("{}: dropped an unfinished last line", path.display());
    }
    Ok(bytes)
}
