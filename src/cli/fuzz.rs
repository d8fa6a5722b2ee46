//! `bitsolve fuzz` (hidden): the stable fuzz driver. Runs a target of
//! [`bitsolve::fuzzing::TARGETS`] (or one of the binary's own: the UAI and arbiter loops, the
//! geography server's line reading) on mutated seed inputs, with a time bound per input.
//! A panic (in any thread) or a failed property is a crash: its input is saved and counted; an
//! input that runs past the bound is a hang: it is saved and the run stops with exit code 2.
//! Prints one tab-separated summary line: target, inputs, crashes, slowest input in ms,
//! seconds, inputs per second.

use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bitsolve::fuzzing::{self, Rng, Target};

/// Arguments of `bitsolve fuzz`.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// The target (`list` prints every name).
    #[arg(long)]
    target: String,
    /// How many inputs to run.
    #[arg(long, default_value_t = 10_000)]
    inputs: u64,
    /// Seed of the mutations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The repository root, where the seed files are.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Where crash and hang inputs are written.
    #[arg(long, default_value = "fuzz/crashes")]
    crashes: PathBuf,
    /// Seconds one input may take before it counts as a hang.
    #[arg(long, default_value_t = 10.0)]
    hang: f64,
    /// Stop after this many seconds even if fewer inputs ran (the summary gives the count).
    #[arg(long)]
    seconds: Option<f64>,
    /// Run only the seeds and these input files (a crash's regression check), no mutations.
    #[arg(long)]
    replay: Vec<PathBuf>,
}

/// The binary's own targets: code that lives in the command line, not in the library.
fn binary_targets() -> Vec<Target> {
    vec![
        Target {
            name: "uai",
            run: |data| {
                if let Err(e) = crate::cli::ataxx::fuzz_uai(data) {
                    panic!("{e}");
                }
            },
            seed_files: &[],
            whole_files: true,
            seeds: &[
                "uai\nisready\nposition startpos moves f1 a2\ngo depth 3\nisready\nperft 2\nd\nquit\n",
                "uainewgame\nposition fen x5o/7/7/7/7/7/o5x o 0 1 moves 0000\ngo infinite\nisready\nstop\n",
                "setoption name Rules value polish\nposition startpos\ngo wtime 1000 btime 1000 winc 10 binc 10\nsplitperft 2\nbench\nisready\n",
                "setoption name Hash value 4\nsetoption name Threads value 2\ngo nodes 100\ngo movetime 5\nisready\n",
            ],
            words: &[
                "uai\n",
                "isready\n",
                "position startpos",
                "position fen ",
                " moves ",
                "go ",
                "infinite",
                "depth ",
                "movetime ",
                "wtime ",
                "stop\n",
                "quit\n",
                "perft ",
                "setoption name ",
                " value ",
                "Rules",
                "polish",
                "x5o/7/7/7/7/7/o5x x 0 1",
                "g1e3",
                "0000",
            ],
        },
        Target {
            name: "arbiter",
            run: |data| {
                if let Err(e) = crate::cli::ataxx::fuzz_arbiter(data) {
                    panic!("{e}");
                }
            },
            seed_files: &[],
            whole_files: true,
            seeds: &[
                "czarne 1000\nb6b5 900\ng1f1 800\nkoniec\n",
                "biale 500\na7a6 400\na1b2\ng7g5 300\n",
                "czarne 0\nb7b6 1\n",
            ],
            words: &["czarne ", "biale ", "koniec", "a7a6", "g1e3", " 1000", "\n"],
        },
        Target {
            name: "geography-server",
            run: crate::cli::geography::fuzz_server_lines,
            seed_files: &[],
            whole_files: true,
            seeds: &["210 5\r\n210 7\n\n210  3 \n210 x\n999\n"],
            words: &["210 ", "\r\n", "256", "0"],
        },
    ]
}

/// Every target name, library ones first.
pub fn names() -> Vec<&'static str> {
    fuzzing::TARGETS.iter().map(|t| t.name).chain(binary_targets().iter().map(|t| t.name)).collect()
}

/// Panics seen by the hook (in any thread), and the last message.
static PANICS: AtomicUsize = AtomicUsize::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Saves an input that crashed or hung, with the reason beside it.
fn save(dir: &std::path::Path, name: &str, input: &[u8], why: &str) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let hash = input
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let path = dir.join(format!("{name}-{hash:016x}.bin"));
    std::fs::write(&path, input)?;
    std::fs::write(path.with_extension("txt"), why)?;
    Ok(path)
}

/// Runs the driver.
pub fn run(args: &FuzzArgs) -> anyhow::Result<ExitCode> {
    if args.target == "list" {
        println!("{}", names().join("\n"));
        return Ok(ExitCode::SUCCESS);
    }
    let own = binary_targets();
    let target = fuzzing::target(&args.target)
        .copied()
        .or_else(|| own.iter().find(|t| t.name == args.target).copied())
        .with_context(|| format!("no target {:?}; targets: {}", args.target, names().join(" ")))?;
    let mut seeds = fuzzing::seeds(&target, &args.root);
    for file in &args.replay {
        seeds.push(std::fs::read(file).with_context(|| format!("reading {}", file.display()))?);
    }
    if seeds.is_empty() {
        bail!("target {} has no seeds under {}", target.name, args.root.display());
    }
    panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        let mut last = LAST_PANIC.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        last.clear();
        let _ = write!(last, "{info}");
    }));
    // The watchdog: an input running past the bound is saved and ends the run.
    let started_ms = Arc::new(AtomicU64::new(u64::MAX));
    let current = Arc::new(Mutex::new(Vec::<u8>::new()));
    let origin = Instant::now();
    let hang = Duration::from_secs_f64(args.hang);
    {
        let (started_ms, current) = (started_ms.clone(), current.clone());
        let (dir, name) = (args.crashes.clone(), target.name);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let at = started_ms.load(Ordering::SeqCst);
                let now = origin.elapsed().as_millis() as u64;
                if at != u64::MAX && now.saturating_sub(at) > hang.as_millis() as u64 {
                    let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                    let why = format!("hang: one input ran past {} s", hang.as_secs_f64());
                    let path = save(&dir, name, &input, &why);
                    eprintln!("fuzz {name}: {why}; input saved to {path:?}");
                    println!("{name}\thang");
                    std::process::exit(2);
                }
            }
        });
    }
    let mut rng = Rng::new(args.seed);
    let (mut crashes, mut slowest) = (0u64, Duration::ZERO);
    let total = if args.replay.is_empty() { args.inputs } else { seeds.len() as u64 };
    let start = Instant::now();
    let budget = args.seconds.map(Duration::from_secs_f64);
    let mut ran = 0;
    for i in 0..total {
        if i % 256 == 0 && budget.is_some_and(|b| start.elapsed() > b) {
            break;
        }
        ran += 1;
        let mut input = seeds[(i as usize) % seeds.len()].clone();
        if args.replay.is_empty() && i >= seeds.len() as u64 {
            let other = &seeds[rng.below(seeds.len())];
            fuzzing::mutate(&mut input, other, target.words, &mut rng);
            // Now and then keep a mutant as a seed, so edits pile up.
            if rng.below(64) == 0 && seeds.len() < 4096 {
                seeds.push(input.clone());
            }
        }
        if let Ok(mut c) = current.lock() {
            c.clear();
            c.extend_from_slice(&input);
        }
        let panics_before = PANICS.load(Ordering::SeqCst);
        let t0 = Instant::now();
        started_ms.store(origin.elapsed().as_millis() as u64, Ordering::SeqCst);
        let result = panic::catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        started_ms.store(u64::MAX, Ordering::SeqCst);
        slowest = slowest.max(t0.elapsed());
        if result.is_err() || PANICS.load(Ordering::SeqCst) != panics_before {
            crashes += 1;
            let why = LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default();
            if crashes <= 20 {
                let path = save(&args.crashes, target.name, &input, &why)?;
                eprintln!("fuzz {}: crash saved to {}: {why}", target.name, path.display());
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}\t{ran}\t{crashes}\t{:.1}\t{secs:.1}\t{:.0}",
        target.name,
        slowest.as_secs_f64() * 1000.0,
        ran as f64 / secs.max(1e-9)
    );
    Ok(if crashes == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
