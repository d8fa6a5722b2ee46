//! The batch engine behind `solve FILE...` and `compare`: reads dataset files, skips what a
//! previous run already wrote (`--resume`), keeps one shard (`--shard i/n`), solves the rest with
//! rayon across positions (`--jobs`), and appends one flushed row per (position, solver
//! configuration) to CSV and JSON Lines as soon as it is known.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitsolve::dataset::{Entry, read_dataset};
use bitsolve::results::{HEADER, Row, RowKey, parse_csv};
use bitsolve::{GameKind, Limits, Notation, Report, SolverKind, SolverOptions, make_solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// What to run.
pub struct BatchSpec<'a> {
    /// The game of every file.
    pub game: GameKind,
    /// Dataset files.
    pub files: &'a [PathBuf],
    /// Solver configurations, run one after the other over the whole dataset.
    pub configs: Vec<(SolverKind, SolverOptions)>,
    /// Per-position limits.
    pub limits: Limits,
    /// CSV output (JSON Lines next to it, extension `.jsonl`).
    pub out: Option<PathBuf>,
    /// Skip the rows already in `out`.
    pub resume: bool,
    /// Keep only positions `k` with `k % n == i` (0-based `i`).
    pub shard: Option<(usize, usize)>,
    /// Positions solved at once (each worker has its own solver and table).
    pub jobs: usize,
}

/// What a batch run produced.
pub struct BatchOutcome {
    /// Every row of this run's work: resumed ones from the file, then new ones.
    pub rows: Vec<Row>,
    /// Dataset lines that could not be read.
    pub bad_lines: u64,
}

/// Parses `i/n` (0-based shard `i` of `n`).
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text.split_once('/').ok_or("expected `i/n`, e.g. `0/4`")?;
    let i: usize = i.trim().parse().map_err(|_| format!("bad shard index `{i}`"))?;
    let n: usize = n.trim().parse().map_err(|_| format!("bad shard count `{n}`"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= i < n"));
    }
    Ok((i, n))
}

/// The options column: every setting that changes the work except threads (its own column).
pub fn options_signature(options: &SolverOptions, limits: &Limits) -> String {
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
    if let Some(t) = limits.time {
        let _ = write!(sig, "-tl{}", t.as_secs_f64());
    }
    if let Some(n) = limits.nodes {
        let _ = write!(sig, "-nl{n}");
    }
    sig
}

struct Item<G> {
    file: String,
    entry: Entry,
    pos: G,
}

/// Reads every file; bad lines are reported on stderr with file, line and column and skipped.
fn load<G: Notation>(files: &[PathBuf]) -> Result<(Vec<Item<G>>, u64)> {
    let mut items = Vec::new();
    let mut bad = 0u64;
    for path in files {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (entries, errors) = read_dataset(&text);
        for e in &errors {
            eprintln!("{}: {e} (skipped)", path.display());
        }
        bad += errors.len() as u64;
        let mut ids = HashSet::new();
        for entry in entries {
            if !ids.insert(entry.id.clone()) {
                eprintln!(
                    "{}: line {}, column 1: duplicate id `{}` (skipped)",
                    path.display(),
                    entry.line,
                    entry.id
                );
                bad += 1;
                continue;
            }
            match G::parse_position(&entry.position) {
                Ok(pos) => {
                    items.push(Item { file: path.display().to_string(), entry, pos });
                }
                Err(e) => {
                    let e = e.shifted(entry.line - 1);
                    let column =
                        if e.line == entry.line { e.column + entry.column - 1 } else { e.column };
                    eprintln!(
                        "{}: line {}, column {column}: {} (skipped)",
                        path.display(),
                        e.line,
                        e.message
                    );
                    bad += 1;
                }
            }
        }
    }
    Ok((items, bad))
}

/// Drops a partial last line (a run killed mid-write) so appended rows start on a fresh line.
fn truncate_partial_line(path: &Path) -> Result<()> {
    let Ok(bytes) = fs::read(path) else { return Ok(()) };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let file = OpenOptions::new().write(true).open(path)?;
    file.set_len(keep as u64)?;
    eprintln!("{}: dropped an unfinished last line", path.display());
    Ok(())
}

/// The JSON Lines file written next to a CSV file.
pub fn json_path(csv: &Path) -> PathBuf {
    csv.with_extension("jsonl")
}

struct Sink {
    csv: File,
    json: File,
}

impl Sink {
    fn open(path: &Path) -> Result<Sink> {
        let json_path = json_path(path);
        truncate_partial_line(path)?;
        truncate_partial_line(&json_path)?;
        let fresh = fs::metadata(path).map_or(true, |m| m.len() == 0);
        let open = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))
        };
        let mut csv = open(path)?;
        if fresh {
            csv.write_all(format!("{}\n", HEADER.join(",")).as_bytes())?;
        }
        Ok(Sink { csv, json: open(&json_path)? })
    }

    /// One `write` per file and row, so a killed run leaves whole rows (at most a partial last
    /// line, which the next run drops).
    fn write(&mut self, row: &Row) -> Result<()> {
        self.csv.write_all(format!("{}\n", row.to_csv()).as_bytes())?;
        self.json.write_all(format!("{}\n", row.to_json()).as_bytes())?;
        self.csv.flush()?;
        self.json.flush()?;
        Ok(())
    }
}

fn make_row<G: Notation>(
    game: GameKind,
    item: &Item<G>,
    kind: SolverKind,
    options: &SolverOptions,
    signature: &str,
    report: &Report<G::Move>,
) -> Row {
    let s = &report.stats;
    let expected = item.entry.expected;
    Row {
        game: game.name().to_string(),
        file: item.file.clone(),
        id: item.entry.id.clone(),
        solver: kind.name().to_string(),
        threads: options.threads as u32,
        tt_mib: options.tt_mib as u64,
        options: signature.to_string(),
        outcome: report.outcome,
        plies: report.plies,
        best_move: report.best_move.map_or_else(String::new, |m| item.pos.format_move(m)),
        expected,
        agree: match (report.outcome, expected) {
            (Some(o), Some(e)) => Some(o == e),
            _ => None,
        },
        nodes: s.nodes,
        tt_probes: s.tt.probes,
        tt_hits: s.tt.hits,
        max_depth: s.max_depth,
        millis: s.elapsed.as_secs_f64() * 1000.0,
        git: env!("BITSOLVE_GIT").to_string(),
    }
}

/// Runs the batch.
#[expect(
    clippy::too_many_lines,
    reason = "resume, solve and disagreement report in one pass; being reworked by the batch helper"
)]
pub fn run<G: Notation>(spec: &BatchSpec) -> Result<BatchOutcome> {
    if spec.resume && spec.out.is_none() {
        bail!("--resume needs --out FILE.csv (the rows to resume from)");
    }
    let (mut items, bad_lines) = load::<G>(spec.files)?;
    if let Some((i, n)) = spec.shard {
        items = items.into_iter().enumerate().filter(|(k, _)| k % n == i).map(|(_, x)| x).collect();
    }
    let signatures: Vec<String> =
        spec.configs.iter().map(|(_, o)| options_signature(o, &spec.limits)).collect();
    let key_of = |item: &Item<G>, c: usize| -> RowKey {
        let (kind, options) = &spec.configs[c];
        (
            item.file.clone(),
            item.entry.id.clone(),
            kind.name().to_string(),
            options.threads as u32,
            signatures[c].clone(),
        )
    };
    let mut rows = Vec::new();
    let mut done: HashSet<RowKey> = HashSet::new();
    if let (true, Some(path)) = (spec.resume, &spec.out)
        && path.exists()
    {
        truncate_partial_line(path)?;
        let text =
            fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (old, errors) = parse_csv(&text);
        for e in &errors {
            eprintln!("{}: {e} (ignored)", path.display());
        }
        let wanted: HashSet<RowKey> = items
            .iter()
            .flat_map(|item| (0..spec.configs.len()).map(move |c| (item, c)))
            .map(|(item, c)| key_of(item, c))
            .collect();
        for row in old {
            let key = row.key();
            if wanted.contains(&key) && done.insert(key) {
                rows.push(row);
            }
        }
    }
    let pending: Vec<Vec<usize>> = (0..spec.configs.len())
        .map(|c| (0..items.len()).filter(|&k| !done.contains(&key_of(&items[k], c))).collect())
        .collect();
    let todo: usize = pending.iter().map(Vec::len).sum();
    if spec.resume {
        eprintln!("resume: {} row(s) already done, {todo} to solve", rows.len());
    }
    if todo == 0 {
        if spec.resume {
            eprintln!("nothing to do");
        }
        return Ok(BatchOutcome { rows, bad_lines });
    }
    let sink = match &spec.out {
        Some(path) => Some(Mutex::new(Sink::open(path)?)),
        None => None,
    };
    let bar = ProgressBar::with_draw_target(Some(todo as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} {bar:30} {pos}/{len} eta {eta} {per_sec} {msg}",
        )
        .expect("valid template"),
    );
    let solved = AtomicU64::new(0);
    let nodes = AtomicU64::new(0);
    let started = Instant::now();
    let new_rows = Mutex::new(Vec::new());
    let write_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let jobs = spec.jobs.max(1);
    for (c, (kind, options)) in spec.configs.iter().enumerate() {
        // `jobs` plain threads pull positions from a shared counter; each has one solver (and
        // table) for this configuration, so memory is jobs x tt_mib. Plain threads, not a rayon
        // pool: a parallel solver runs its own rayon pool inside a job.
        let next = AtomicUsize::new(0);
        let work = || {
            let mut solver = make_solver::<G>(*kind, options);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&k) = pending[c].get(i) else { break };
                let item = &items[k];
                let report = solver.solve(&item.pos, &spec.limits);
                let row = make_row(spec.game, item, *kind, options, &signatures[c], &report);
                if row.outcome.is_some() {
                    solved.fetch_add(1, Ordering::Relaxed);
                }
                let total = nodes.fetch_add(row.nodes, Ordering::Relaxed) + row.nodes;
                let verdict = match (row.expected, row.outcome) {
                    (Some(e), Some(o)) if e != o => format!(" MISMATCH expected {e}"),
                    _ => String::new(),
                };
                bar.suspend(|| {
                    println!(
                        "{}\t{}\tt{}\t{}{verdict}",
                        row.id,
                        row.solver,
                        row.threads,
                        super::solve::result_line(&item.pos, &report)
                    );
                });
                if let Some(sink) = &sink
                    && let Err(e) = sink.lock().expect("sink").write(&row)
                {
                    write_error.lock().expect("error slot").get_or_insert(e);
                }
                new_rows.lock().expect("rows").push(row);
                let secs = started.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!(
                    "solved {} | {:.0} nodes/s",
                    solved.load(Ordering::Relaxed),
                    total as f64 / secs
                ));
                bar.inc(1);
            }
        };
        if jobs == 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..jobs {
                    scope.spawn(work);
                }
            });
        }
    }
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().expect("error slot") {
        return Err(e.context("writing result rows"));
    }
    rows.extend(new_rows.into_inner().expect("rows"));
    Ok(BatchOutcome { rows, bad_lines })
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
