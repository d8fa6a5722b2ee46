//! `bitsolve compare`: several solvers, option sets and thread counts on the same positions in
//! one run: totals, ratios against a baseline, thread speedup, and a loud error on any
//! disagreement.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use bitsolve::results::{Baseline, Format, ratio_table, summary_table};
use bitsolve::{GameKind, Notation, SolverKind, SolverOptions, with_game};
use clap::ValueEnum as _;

use crate::cli::batch;
use crate::cli::batch::rows::{effective_threads, options_signature, report_disagreements};

/// Arguments of `bitsolve compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game.
    #[arg(long, short)]
    game: GameKind,
    /// Solvers, comma-separated.
    #[arg(long, short, value_delimiter = ',', default_value = "alphabeta,pns,dfpn")]
    solver: Vec<SolverKind>,
    /// A solver with its own options, repeatable (replaces `--solver`):
    /// `SOLVER[:OPT,...]` with `eps=E` (0: plain thresholds), `probe`/`noprobe`, `mob`/`nomob`,
    /// `weak`/`noweak`,
    /// `tt=MiB`, `t=N` (threads; default: each of `--threads`), e.g. `--config
    /// "dfpn:eps=2,probe" --config dfpn:nomob`.
    #[arg(long = "config", value_name = "SOLVER[:OPT,...]", conflicts_with = "solver")]
    configs: Vec<String>,
    /// Thread counts inside one search, comma-separated; every solver runs with each (solvers
    /// without threads run once).
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
    /// The baseline of the ratios: `solver`, `solver/tN` or `solver/tN@options` (default: the
    /// first solver or configuration, 1 thread).
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
    /// A game option `NAME=VALUE` set on every position, repeatable (as for `bitsolve solve`;
    /// geography's `reductions` defaults to `default,guided,parity-set,parity-win,parity-deep,traps`).
    #[arg(long = "game-option", value_name = "NAME=VALUE", value_parser = crate::cli::args::parse_game_option)]
    game_options: Vec<(String, String)>,
    /// Positions solved at once (keep 1, the default, when measuring thread speedup).
    #[arg(long, short, default_value_t = 1)]
    jobs: usize,
    /// Memory budget of all jobs' tables in GiB (default: 3/4 of the machine's memory).
    #[arg(long)]
    memory: Option<f64>,
    /// Allow --jobs x threads above the number of cores.
    #[arg(long)]
    oversubscribe: bool,
    /// Dataset files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Reads a baseline `solver[/tN][@options]` (default: `default_solver` at one thread).
///
/// # Errors
/// A bad thread count.
pub fn baseline_of(text: Option<&str>, default_solver: &str) -> Result<Baseline> {
    Baseline::parse(text.unwrap_or(default_solver)).map_err(anyhow::Error::msg)
}

/// A configuration of `--config`: the solver, its options, and its thread count if fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigSpec {
    /// The solver.
    pub kind: SolverKind,
    /// Its options (threads from `t=` or 1).
    pub options: SolverOptions,
    /// Whether `t=N` fixed the threads.
    pub fixed_threads: bool,
}

/// Reads `SOLVER[:OPT,...]` on top of `base` options.
///
/// # Errors
/// An unknown solver or option, or a bad number.
pub fn parse_config(text: &str, base: SolverOptions) -> Result<ConfigSpec, String> {
    let (solver, opts) = text.split_once(':').unwrap_or((text, ""));
    let kind = SolverKind::from_str(solver.trim(), true)
        .map_err(|_| format!("config `{text}`: unknown solver `{}`", solver.trim()))?;
    let mut options = base;
    let mut fixed_threads = false;
    for opt in opts.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let (key, value) = opt.split_once('=').map_or((opt, None), |(k, v)| (k, Some(v.trim())));
        let number = |v: Option<&str>| -> Result<f64, String> {
            v.and_then(|v| v.parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("config `{text}`: `{opt}` needs a number, e.g. `{key}=2`"))
        };
        match key.trim() {
            "eps" | "epsilon" => options = options.with_epsilon_flag(Some(number(value)?)),
            "probe" => options.win_probe = true,
            "noprobe" => options.win_probe = false,
            "weak" => options.weak_numbers = true,
            "noweak" => options.weak_numbers = false,
            "mob" => options.mobility = true,
            "nomob" => options.mobility = false,
            "tt" => options.tt_mib = number(value)? as usize,
            "t" | "threads" => {
                options.threads = (number(value)? as usize).max(1);
                fixed_threads = true;
            }
            other => {
                return Err(format!(
                    "config `{text}`: unknown option `{other}` (eps=E, probe, noprobe, weak, noweak, mob, \
                     nomob, tt=MiB, t=N)"
                ));
            }
        }
    }
    if options.weak_numbers && !matches!(kind, SolverKind::Dfpn | SolverKind::Pns) {
        return Err(format!("config `{text}`: `weak` needs a proof-number solver (dfpn, pns)"));
    }
    Ok(ConfigSpec { kind, options, fixed_threads })
}

/// Runs the command.
pub fn run(args: &CompareArgs) -> Result<ExitCode> {
    with_game!(args.game, G => compare::<G>(args))
}

/// Every (solver, options) to run: each configuration with each thread count, a solver without
/// threads once, and no configuration twice.
fn configurations<G: Notation>(args: &CompareArgs) -> Result<Vec<(SolverKind, SolverOptions)>> {
    let mut base = SolverOptions::for_game::<G>().with_epsilon_flag(args.epsilon);
    base.tt_mib = args.tt_mib;
    let specs: Vec<ConfigSpec> = if args.configs.is_empty() {
        let fixed_threads = false;
        args.solver
            .iter()
            .map(|&kind| ConfigSpec { kind, options: base.clone(), fixed_threads })
            .collect()
    } else {
        args.configs
            .iter()
            .map(|c| parse_config(c, base.clone()))
            .collect::<Result<_, _>>()
            .map_err(anyhow::Error::msg)?
    };
    let limits = limits(args);
    let mut configs: Vec<(SolverKind, SolverOptions)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        let threads =
            if spec.fixed_threads { vec![spec.options.threads] } else { args.threads.clone() };
        for t in threads {
            let mut options = spec.options.clone();
            options.threads = t.max(1);
            let key = (
                spec.kind,
                effective_threads(spec.kind, &options, false),
                options_signature(&options, &limits, false),
            );
            if seen.insert(key) {
                configs.push((spec.kind, options));
            } else if t > 1 {
                eprintln!(
                    "{} has no threads: t{t} is the same run as t1 (skipped)",
                    spec.kind.name()
                );
            }
        }
    }
    if configs.is_empty() {
        bail!("no configuration to run");
    }
    Ok(configs)
}

fn limits(args: &CompareArgs) -> bitsolve::Limits {
    bitsolve::Limits {
        nodes: args.node_limit,
        time: args.time_limit.map(std::time::Duration::from_secs_f64),
        stop: None,
    }
}

fn compare<G: Notation>(args: &CompareArgs) -> Result<ExitCode> {
    let configs = configurations::<G>(args)?;
    let limits = limits(args);
    // The default baseline: the first configuration at one thread, with its own options when
    // configurations differ in options.
    let (first_kind, first_options) = configs[0].clone();
    let baseline = match (&args.baseline, args.configs.is_empty()) {
        (Some(text), _) => baseline_of(Some(text), first_kind.name())?,
        (None, true) => baseline_of(None, first_kind.name())?,
        (None, false) => Baseline {
            solver: first_kind.name().to_string(),
            threads: 1,
            options: Some(options_signature(&first_options, &limits, false)),
        },
    };
    let request = batch::JobRequest {
        jobs: Some(args.jobs),
        threads: configs
            .iter()
            .map(|(k, o)| effective_threads(*k, o, false) as usize)
            .max()
            .unwrap_or(1),
        mib_per_job: configs.iter().map(|(_, o)| o.tt_mib).max().unwrap_or(1),
        memory_gib: args.memory,
        oversubscribe: args.oversubscribe,
    };
    let jobs = batch::choose_jobs(&request, batch::cores())?.jobs;
    let spec = batch::BatchSpec {
        game: args.game,
        files: &args.files,
        configs,
        score: false,
        limits,
        out: args.out.clone(),
        resume: args.resume,
        shard: None,
        jobs,
        game_options: crate::cli::args::effective_game_options::<G>(&args.game_options)?,
    };
    let signatures = batch::signatures(&spec);
    let workers = batch::outcome_workers::<G>(&spec, &signatures);
    let outcome = batch::run::<G>(&spec, &workers)?;
    let rows = &outcome.rows;
    println!("{}", summary_table(rows).render(args.format));
    print!("{}", ratio_table(rows, &baseline).render(args.format));
    let disagree = report_disagreements(rows);
    if outcome.bad_lines > 0 {
        eprintln!("{} bad line(s) skipped", outcome.bad_lines);
    }
    Ok(if disagree || outcome.bad_lines > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_parse_with_their_options() {
        let base = SolverOptions::default();
        let c = parse_config("dfpn:eps=2,probe,nomob,tt=8,t=2", base.clone()).unwrap();
        assert_eq!(c.kind, SolverKind::Dfpn);
        assert_eq!(c.options.epsilon, Some(2.0));
        assert!(c.options.win_probe && !c.options.mobility);
        assert_eq!((c.options.tt_mib, c.options.threads, c.fixed_threads), (8, 2, true));
        let plain = parse_config("alphabeta", base.clone()).unwrap();
        assert_eq!((plain.options, plain.fixed_threads), (base.clone(), false));
        assert_eq!(parse_config("dfpn:eps=0", base.clone()).unwrap().options.epsilon, None);
        assert!(parse_config("pns:weak", base.clone()).unwrap().options.weak_numbers);
        assert!(!parse_config("dfpn:weak,noweak", base.clone()).unwrap().options.weak_numbers);
        assert!(parse_config("alphabeta:weak", base.clone()).unwrap_err().contains("proof-number"));
        assert!(
            parse_config("dfpn:fast", base.clone()).unwrap_err().contains("unknown option `fast`")
        );
        assert!(parse_config("nosuch", base.clone()).unwrap_err().contains("unknown solver"));
        assert!(parse_config("dfpn:eps=x", base.clone()).is_err());
    }
}
