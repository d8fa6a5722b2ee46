//! The batch engine behind `solve FILE...`, `solve --score FILE...` and `compare`, in three
//! steps: [`load`] reads the dataset files, [`plan`] keeps one shard (`--shard i/n`) and skips
//! what a previous run already wrote (`--resume`), and [`execute`] solves the rest on `--jobs`
//! threads, appending one flushed row per (position, solver configuration) to the crash-safe
//! result files ([`ResultFiles`]) as soon as it is known.

pub mod compare;
pub mod merge;
pub mod parallel;
pub mod rows;
pub mod score;
pub mod solve;

use ahash::AHashSet as HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitsolve::dataset::{Entry, read_dataset_bytes};
use bitsolve::results::{Format, Row, RowKey, score_table, summary_table};
use bitsolve::{GameKind, Limits, Notation, SolverKind, SolverOptions, make_solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::batch::rows::{
    ResultFiles, Solved, effective_threads, options_signature, result_line,
};

/// What to run.
pub struct BatchSpec<'a> {
    /// The game of every file.
    pub game: GameKind,
    /// Dataset files.
    pub files: &'a [PathBuf],
    /// Solver configurations, run one after the other over the whole dataset.
    pub configs: Vec<(SolverKind, SolverOptions)>,
    /// Exact scores (`solve --score`) instead of outcomes.
    pub score: bool,
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
    /// Game options set on every position ([`crate::cli::args::effective_game_options`]; empty for games
    /// without options).
    pub game_options: Vec<(String, String)>,
}

/// How many positions a batch solves at once, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jobs {
    /// Positions solved at once.
    pub jobs: usize,
    /// Cores of the machine (`available_parallelism`).
    pub cores: usize,
}

/// What bounds the number of jobs.
#[derive(Clone, Copy, Debug)]
pub struct JobRequest {
    /// `--jobs` if given (else: as many as the cores, memory and threads allow).
    pub jobs: Option<usize>,
    /// The most threads one search of the batch uses.
    pub threads: usize,
    /// Memory of one job in MiB (its largest transposition table).
    pub mib_per_job: usize,
    /// `--memory` in GiB if given (else 3/4 of the machine's memory, when it can be read).
    pub memory_gib: Option<f64>,
    /// `--oversubscribe`: allow jobs x threads above the cores.
    pub oversubscribe: bool,
}

/// The machine's memory in MiB (`MemTotal` of `/proc/meminfo`), if readable.
fn machine_mib() -> Option<usize> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Chooses the jobs of a batch: by default one per free core (cores / threads per search),
/// fewer if the tables of all jobs would not fit the memory budget (`--memory`, default 3/4
/// of the machine). An explicit `--jobs` that would oversubscribe the cores (without
/// `--oversubscribe`) or overflow the budget is an error, never silently lowered.
///
/// # Errors
/// The reason the request cannot be honoured.
pub fn choose_jobs(req: &JobRequest, cores: usize) -> Result<Jobs> {
    let threads = req.threads.max(1);
    let budget_mib = match req.memory_gib {
        Some(g) if !(g.is_finite() && g > 0.0) => bail!("--memory {g}: expected GiB > 0"),
        Some(g) => Some((g * 1024.0) as usize),
        None => machine_mib().map(|m| m * 3 / 4),
    };
    let by_memory = budget_mib.map(|b| b / req.mib_per_job.max(1));
    if by_memory == Some(0) {
        bail!(
            "one job needs {} MiB of tables, more than the memory budget of {} MiB (--memory)",
            req.mib_per_job,
            budget_mib.unwrap_or(0)
        );
    }
    let jobs = match req.jobs {
        Some(0) => bail!("--jobs 0: need at least 1"),
        Some(j) => {
            if j * threads > cores && !req.oversubscribe {
                bail!(
                    "--jobs {j} x --threads {threads} = {} threads on {cores} cores; lower \
                     --jobs or --threads, or give --oversubscribe",
                    j * threads
                );
            }
            if let Some(m) = by_memory
                && j > m
            {
                bail!(
                    "--jobs {j} x {} MiB of tables exceeds the memory budget of {} MiB \
                     (--memory); at most {m} jobs fit",
                    req.mib_per_job,
                    budget_mib.unwrap_or(0)
                );
            }
            j
        }
        None => (cores / threads).max(1).min(by_memory.unwrap_or(usize::MAX)),
    };
    Ok(Jobs { jobs, cores })
}

/// The machine's cores, as the batch counts them.
#[must_use]
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
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

/// One position of the dataset.
pub struct Item<G> {
    /// Dataset file as given.
    pub file: String,
    /// Its entry.
    pub entry: Entry,
    /// The parsed position.
    pub pos: G,
}

/// Solves one item for one configuration: its row and the line printed for it.
pub type Worker<'a, G> = Box<dyn FnMut(&Item<G>) -> (Row, String) + 'a>;

/// Makes the worker of configuration `c` (one per job thread).
pub type WorkerFactory<'a, G> = dyn Fn(usize) -> Worker<'a, G> + Sync + 'a;

/// What configuration `c` of `spec` made of `item`, for its row.
pub fn solved<'b, G>(
    spec: &'b BatchSpec<'b>,
    signatures: &'b [String],
    c: usize,
    item: &'b Item<G>,
) -> Solved<'b, G> {
    let (kind, options) = &spec.configs[c];
    Solved {
        game: spec.game,
        file: &item.file,
        entry: &item.entry,
        pos: &item.pos,
        kind: *kind,
        options,
        signature: &signatures[c],
    }
}

/// The workers of an outcome batch: `make_solver` per configuration.
pub fn outcome_workers<'a, G: Notation>(
    spec: &'a BatchSpec<'a>,
    signatures: &'a [String],
) -> impl Fn(usize) -> Worker<'a, G> + Sync + 'a {
    move |c| {
        let (kind, options) = &spec.configs[c];
        let mut solver = make_solver::<G>(*kind, options);
        Box::new(move |item: &Item<G>| {
            let report = solver.solve(&item.pos, &spec.limits);
            let solved = solved(spec, signatures, c, item);
            (solved.outcome_row(&report), result_line(&item.pos, &report))
        })
    }
}

/// The options signature of every configuration.
pub fn signatures(spec: &BatchSpec) -> Vec<String> {
    let game = crate::cli::args::game_options_signature(&spec.game_options);
    spec.configs
        .iter()
        .map(|(_, o)| options_signature(o, &spec.limits, spec.score) + &game)
        .collect()
}

/// Reads every file; bad lines are reported on stderr with file, line and column and skipped.
pub fn load<G: Notation>(files: &[PathBuf]) -> Result<(Vec<Item<G>>, u64)> {
    let mut items = Vec::new();
    let mut bad = 0u64;
    for path in files {
        let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let (entries, errors) = read_dataset_bytes(&bytes);
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

/// The work left: for each configuration, the indices of the items to solve, and the rows
/// already done (resumed from the result file).
pub struct Plan {
    /// Rows of this run's work found in the result file.
    pub done: Vec<Row>,
    /// Per configuration, the items still to solve.
    pub pending: Vec<Vec<usize>>,
}

impl Plan {
    /// Rows still to solve.
    pub fn todo(&self) -> usize {
        self.pending.iter().map(Vec::len).sum()
    }
}

/// Keeps the shard's items (in place) and plans the work: with `resume`, rows of `existing`
/// whose key is this run's work are done (the first of a repeated key).
pub fn plan<G>(spec: &BatchSpec, items: &mut Vec<Item<G>>, existing: Vec<Row>) -> Plan {
    if let Some((i, n)) = spec.shard {
        let mut k = 0;
        items.retain(|_| {
            k += 1;
            (k - 1) % n == i
        });
    }
    let signatures = signatures(spec);
    let key_of = |item: &Item<G>, c: usize| -> RowKey {
        let (kind, options) = &spec.configs[c];
        RowKey {
            file: item.file.clone(),
            id: item.entry.id.clone(),
            solver: kind.name().to_string(),
            threads: effective_threads(*kind, options, spec.score),
            options: signatures[c].clone(),
        }
    };
    let mut done_rows = Vec::new();
    let mut done: HashSet<RowKey> = HashSet::new();
    if spec.resume {
        let wanted: HashSet<RowKey> = items
            .iter()
            .flat_map(|item| (0..spec.configs.len()).map(move |c| (item, c)))
            .map(|(item, c)| key_of(item, c))
            .collect();
        for row in existing {
            let key = row.key();
            if wanted.contains(&key) && done.insert(key) {
                done_rows.push(row);
            }
        }
    }
    let pending = (0..spec.configs.len())
        .map(|c| (0..items.len()).filter(|&k| !done.contains(&key_of(&items[k], c))).collect())
        .collect();
    Plan { done: done_rows, pending }
}

/// Runs the batch: load, plan, execute.
pub fn run<G: Notation>(spec: &BatchSpec, workers: &WorkerFactory<'_, G>) -> Result<BatchOutcome> {
    if spec.resume && spec.out.is_none() {
        bail!("--resume needs --out FILE.csv (the rows to resume from)");
    }
    let (mut items, bad_lines) = load::<G>(spec.files)?;
    for item in &mut items {
        crate::cli::args::apply_game_options(&mut item.pos, &spec.game_options)?;
    }
    let mut files = match &spec.out {
        Some(path) => Some(ResultFiles::open(path)?),
        None => None,
    };
    let existing = match &mut files {
        Some(files) if spec.resume => {
            for e in &files.errors {
                eprintln!(
                    "{}: {e} (ignored)",
                    spec.out.as_deref().unwrap_or(Path::new("")).display()
                );
            }
            std::mem::take(&mut files.existing)
        }
        _ => Vec::new(),
    };
    let mut plan = plan(spec, &mut items, existing);
    let todo = plan.todo();
    if spec.resume {
        eprintln!("resume: {} row(s) already done, {todo} to solve", plan.done.len());
    }
    let mut rows = std::mem::take(&mut plan.done);
    if todo == 0 {
        if spec.resume {
            eprintln!("nothing to do");
        }
        return Ok(BatchOutcome { rows, bad_lines });
    }
    rows.extend(execute(spec, &items, &plan, files, workers)?);
    Ok(BatchOutcome { rows, bad_lines })
}

/// Solves the planned work: `jobs` threads of a rayon pool pull (configuration, position) pairs
/// from a shared counter; each holds one worker (solver and table) at a time, so memory is
/// jobs x `tt_mib`.
/// Returns the new rows.
pub fn execute<G: Notation>(
    spec: &BatchSpec,
    items: &[Item<G>],
    plan: &Plan,
    files: Option<ResultFiles>,
    workers: &WorkerFactory<'_, G>,
) -> Result<Vec<Row>> {
    let sink = files.map(Mutex::new);
    let bar = ProgressBar::with_draw_target(Some(plan.todo() as u64), ProgressDrawTarget::stderr());
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
    // One rayon thread per job, all pulling (configuration, position) pairs from one shared
    // counter, configuration by configuration (dynamic balance: a hard position does not hold
    // up the others, and no job waits at the end of a configuration while another still
    // works). A job keeps the worker (solver and table) of the configuration it is on and
    // makes the next one when its pair moves on, so memory stays jobs x `tt_mib`. A parallel
    // solver inside a job runs its own pool of `--threads`, so jobs x threads is what
    // [`choose_jobs`] bounds.
    let queue: Vec<(usize, usize)> = plan
        .pending
        .iter()
        .enumerate()
        .flat_map(|(c, pending)| pending.iter().map(move |&k| (c, k)))
        .collect();
    let pool = (jobs > 1)
        .then(|| rayon::ThreadPoolBuilder::new().num_threads(jobs).build())
        .transpose()
        .context("starting the job threads")?;
    let next = AtomicUsize::new(0);
    let work = || {
        let mut current: Option<(usize, Worker<'_, G>)> = None;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(config, k)) = queue.get(i) else { break };
            if current.as_ref().is_none_or(|(on, _)| *on != config) {
                // Drop the previous configuration's table before making the next one.
                drop(current.take());
                current = Some((config, workers(config)));
            }
            let (_, worker) = current.as_mut().expect("a worker was just made");
            let (row, line) = worker(&items[k]);
            if row.solved() {
                solved.fetch_add(1, Ordering::Relaxed);
            }
            let total = nodes.fetch_add(row.nodes, Ordering::Relaxed) + row.nodes;
            let verdict = match (row.expected, row.outcome) {
                (Some(e), Some(o)) if e != o => format!(" MISMATCH expected {e}"),
                _ => String::new(),
            };
            bar.suspend(|| {
                println!("{}\t{}\tt{}\t{line}{verdict}", row.id, row.solver, row.threads);
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
        pool.as_ref().expect("a pool for jobs > 1").broadcast(|_| work());
    }
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().expect("error slot") {
        return Err(e.context("writing result rows"));
    }
    Ok(new_rows.into_inner().expect("rows"))
}

/// Prints the summary of a batch and its disagreements; the exit code.
pub fn finish(outcome: &BatchOutcome) -> ExitCode {
    print!("{}", summary_table(&outcome.rows).render(Format::Md));
    if outcome.rows.iter().any(bitsolve::results::Row::is_score_run) {
        print!("\n{}", score_table(&outcome.rows).render(Format::Md));
    }
    let disagree = rows::report_disagreements(&outcome.rows);
    if outcome.bad_lines > 0 {
        eprintln!("{} bad line(s) skipped", outcome.bad_lines);
    }
    if disagree || outcome.bad_lines > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(jobs: Option<usize>, threads: usize, mib: usize, gib: f64) -> JobRequest {
        JobRequest { jobs, threads, mib_per_job: mib, memory_gib: Some(gib), oversubscribe: false }
    }

    #[test]
    fn default_jobs_fill_the_cores_without_oversubscribing() {
        assert_eq!(choose_jobs(&request(None, 1, 64, 8.0), 2).unwrap().jobs, 2);
        assert_eq!(choose_jobs(&request(None, 2, 64, 8.0), 2).unwrap().jobs, 1);
        assert_eq!(choose_jobs(&request(None, 3, 64, 8.0), 16).unwrap().jobs, 5);
        // More threads than cores: still one job.
        assert_eq!(choose_jobs(&request(None, 4, 64, 8.0), 2).unwrap().jobs, 1);
    }

    #[test]
    fn default_jobs_stay_within_the_memory_budget() {
        // 1 GiB budget, 300 MiB tables: 3 jobs fit of 16 cores.
        assert_eq!(choose_jobs(&request(None, 1, 300, 1.0), 16).unwrap().jobs, 3);
        let err = choose_jobs(&request(None, 1, 2048, 1.0), 16).unwrap_err().to_string();
        assert!(err.contains("more than the memory budget of 1024 MiB"), "{err}");
    }

    #[test]
    fn explicit_jobs_are_honoured_or_refused_never_lowered() {
        assert_eq!(choose_jobs(&request(Some(2), 1, 64, 8.0), 2).unwrap().jobs, 2);
        let err = choose_jobs(&request(Some(2), 2, 64, 8.0), 2).unwrap_err().to_string();
        assert!(err.contains("4 threads on 2 cores"), "{err}");
        let mut over = request(Some(2), 2, 64, 8.0);
        over.oversubscribe = true;
        assert_eq!(choose_jobs(&over, 2).unwrap().jobs, 2);
        let err = choose_jobs(&request(Some(3), 1, 512, 1.0), 8).unwrap_err().to_string();
        assert!(err.contains("at most 2 jobs fit"), "{err}");
        assert!(choose_jobs(&request(Some(0), 1, 64, 8.0), 2).is_err());
        assert!(choose_jobs(&request(None, 1, 64, -1.0), 2).is_err());
    }
}
