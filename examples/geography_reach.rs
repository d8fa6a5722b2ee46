//! Solver reach on contest-like geography graphs, with and without reductions (an ablation).
//!
//! ```text
//! cargo run --release --example geography_reach -- [seeds] [step] [limit_s] [budget_s] [configs]
//! ```
//! For every seed in `1..=seeds` (default 3): the contest graph on 100 vertices and its random
//! start (`Geography::contest_start(100, seed)`), then one random game (moves drawn from the
//! seed) played to the end under the plain rules. Going backwards from the end every `step`
//! plies (default 3), each position is solved with df-pn (1 thread, 256 MiB table, cleared before every solve, as is the
//! sub-game cache) within
//! `limit_s` seconds (default 60), once per reduction set in `configs` (comma-separated, from
//! `basic` = immediate win + bipartite rule + component hash, `bridges` = basic + bridges,
//! `chains` = basic + chains, `all`; `bridges-everywhere` and `all-everywhere` also look for
//! bridges in components of any size, not only up to
//! `reductions::BRIDGE_SCAN_EDGE_LIMIT` edges; default `basic,all`). A config stops going backwards at
//! its first unsolved position, or once its solves on that seed took `budget_s` seconds
//! (default 300).
//!
//! Output: one line per solve (`seed config plies edges result time_s nodes`) on stderr, then a
//! markdown table on stdout: per seed and config, the largest number of remaining edges in the
//! token's component up to which every sampled position was solved within 1 s and within the
//! limit, and the largest solved at all.
//!
//! ```text
//! cargo run --release --example geography_reach -- bands [per_band] [limit_s] [low] [high] [width] [jobs] [config]
//! ```
//! ```text
//! cargo run --release --example geography_reach -- hard [limit_s] [configs] [seed:plies ...]
//! ```
//! Hard mode: each `seed:plies` position (ply `plies` of the random game of `seed`) solved
//! once per config (comma-separated), side by side (result, seconds, nodes), on a fresh
//! 256 MiB df-pn solver each time. A config is a name of [`config`] (`basic`, `bridges`, ...,
//! `order`, `hint`, `two`, `oh` = ordering + pn hint, `ohg` = with the bipartite guess, `oht` =
//! with the two-ply rule, `ohp` = with the parity set, `ohpv` = with the parity-set win too,
//! `ohpt` and `ohpvt` = those with the leaf traps, `ohpvdt` = `ohpvt` with the three-move
//! parity certificate, `ohpvdtc`, `ohpvdtq`, `ohpvdtb` = `ohpvdt` with chains, pendant pieces
//! or bridges, `ohptq` = with the pendant pieces too) with
//! an optional `/e`: df-pn's 1+epsilon thresholds with epsilon `e`, and an optional `/weak`:
//! weak proof numbers.
//! ```text
//! cargo run --release --example geography_reach -- predict [seeds] [low] [high]
//! ```
//! Predict mode: how often the bipartite guess names the winner of random-game positions.
//! ```text
//! cargo run --release --example geography_reach -- positions [seeds] [low] [high]
//! ```
//! Positions mode: a dataset file (`id`, `position`, `expected` = `-`) on stdout with, for each
//! seed in `1..=seeds` (default 3), one position of its random game whose token's component
//! has `low..=high` edges (default 170 to 180), drawn from the seed; used by
//! `scripts/parallel.sh` for the scaling study's geography part.
//!
//! Bands mode: the same random games for seeds 1, 2, ... (from `GEOGRAPHY_REACH_FIRST_SEED`
//! if set, for a fresh sample) until each band of `width`
//! (default 10) component edges from `low` to `high` (default 150 to 210) has `per_band`
//! positions (default 10; seeds whose game skips a band give none there): one position of
//! each game in each band (drawn from the seed among the game's positions in the band), the
//! first `per_band` in seed order, solved with `config` (as in hard mode, default `basic`; df-pn,
//! 1 thread unless `GEOGRAPHY_REACH_THREADS` says more, 256 MiB, cold) within `limit_s`
//! (default 60), `jobs` positions at a time (default 1). Output: one line per solve on stderr, then a table per band: positions sampled, solved
//! within 1 s, 10 s (60 s too when the limit is longer) and the limit, median time and the
//! most nodes of the solved ones.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bitsolve::games::geography::generator::below;
use bitsolve::games::geography::{BridgeContext, Reductions, reductions};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Limits, SolverKind, SolverOptions, make_solver};

/// One solve: component edges, solved?, seconds, nodes.
struct Sample {
    edges: u32,
    solved: bool,
    secs: f64,
}

fn component_edges(pos: &Geography) -> u32 {
    pos.component().into_iter().map(|v| pos.degree(v as u8)).sum::<u32>() / 2
}

/// Largest `e` such that every sample with at most `e` edges was solved within `secs`.
fn reach(samples: &[Sample], secs: f64) -> u32 {
    let first_fail = samples
        .iter()
        .filter(|s| !s.solved || s.secs > secs)
        .map(|s| s.edges)
        .min()
        .unwrap_or(u32::MAX);
    samples.iter().filter(|s| s.edges < first_fail).map(|s| s.edges).max().unwrap_or(0)
}

/// The df-pn table size of bands and hard mode in MiB: `GEOGRAPHY_REACH_TT_MIB`, default 256.
/// The table's pages are zeroed by the kernel as the search first touches them, which costs
/// short solves a noticeable part of a second at 256 MiB.
fn tt_mib() -> usize {
    std::env::var("GEOGRAPHY_REACH_TT_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
}

/// The df-pn threads of each solve in bands and hard mode: `GEOGRAPHY_REACH_THREADS`, default 1.
fn threads() -> usize {
    std::env::var("GEOGRAPHY_REACH_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(1)
}

/// The `ohp` reductions: the basic ones, move ordering, proof-number hints, parity set.
fn ohp() -> Reductions {
    Reductions::BASIC
        .with(Reductions::ORDERING)
        .with(Reductions::PN_HINT)
        .with(Reductions::PARITY_SET)
}

/// The reductions and the bridge scan limit of a named configuration.
fn config(name: &str) -> (Reductions, u32) {
    let default = reductions::BRIDGE_SCAN_EDGE_LIMIT;
    match name {
        "basic" => (Reductions::BASIC, default),
        "bridges" => (Reductions::BASIC.with(Reductions::BRIDGES), default),
        "bridges-everywhere" => (Reductions::BASIC.with(Reductions::BRIDGES), u32::MAX),
        "chains" => (Reductions::BASIC.with(Reductions::CHAINS), default),
        "all" => (Reductions::ALL, default),
        "all-everywhere" => (Reductions::ALL, u32::MAX),
        "order" => (Reductions::BASIC.with(Reductions::ORDERING), default),
        "hint" => (Reductions::BASIC.with(Reductions::PN_HINT), default),
        "two" => (Reductions::BASIC.with(Reductions::TWO_PLY), default),
        "oh" => (Reductions::BASIC.with(Reductions::ORDERING).with(Reductions::PN_HINT), default),
        "ohg" => (
            Reductions::BASIC
                .with(Reductions::ORDERING)
                .with(Reductions::PN_HINT)
                .with(Reductions::PN_GUESS),
            default,
        ),
        "p" => (Reductions::BASIC.with(Reductions::PARITY_SET), default),
        "ohp" => (
            Reductions::BASIC
                .with(Reductions::ORDERING)
                .with(Reductions::PN_HINT)
                .with(Reductions::PARITY_SET),
            default,
        ),
        "ohpv" => (ohp().with(Reductions::PARITY_WIN), default),
        "ohpt" => (ohp().with(Reductions::TRAPS), default),
        "ohpvt" => (ohp().with(Reductions::PARITY_WIN).with(Reductions::TRAPS), default),
        "ohpvdt" => (
            ohp()
                .with(Reductions::PARITY_WIN)
                .with(Reductions::PARITY_DEEP)
                .with(Reductions::TRAPS),
            default,
        ),
        "ohpvdtc" => (config("ohpvdt").0.with(Reductions::CHAINS), default),
        "ohpvdtq" => (config("ohpvdt").0.with(Reductions::PIECES), default),
        "ohpvdtb" => (config("ohpvdt").0.with(Reductions::BRIDGES), default),
        "ohptq" => (ohp().with(Reductions::TRAPS).with(Reductions::PIECES), default),
        "oht" => (
            Reductions::BASIC
                .with(Reductions::ORDERING)
                .with(Reductions::PN_HINT)
                .with(Reductions::TWO_PLY),
            default,
        ),
        other => panic!(
            "unknown config {other} (basic, bridges, bridges-everywhere, chains, all, \
             all-everywhere)"
        ),
    }
}

/// One random game under the plain rules from the contest start of `seed`, every position.
fn random_game(seed: u64) -> Vec<Geography> {
    let start = Geography::contest_start(100, seed).expect("contest graph");
    let mut game = vec![start.plain()];
    let mut rng = KeyStream::new(seed ^ 0x5EAC);
    loop {
        let pos = game.last().expect("non-empty").clone();
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return game;
        }
        let mut next = pos;
        next.play(moves[below(&mut rng, moves.len() as u64) as usize]);
        game.push(next);
    }
}

/// CPU seconds (user + system) used by this process so far, from `/proc/self/stat` (0 where
/// that file is missing).
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0.0 };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Solves `pos` until it is solved or the process has used `limit` CPU seconds on it (a
/// watcher thread polls the process's CPU time every 10 ms and raises the stop flag; a wall
/// limit of 10 x `limit` is a safety net). Returns the report and the CPU seconds used.
fn solve_on_cpu_clock(
    solver: &mut dyn bitsolve::Solver<Geography>,
    pos: &Geography,
    limit: f64,
) -> (bitsolve::search::Report<u8>, f64) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let start = process_cpu_seconds();
    let watcher = {
        let (stop, done) = (Arc::clone(&stop), Arc::clone(&done));
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if process_cpu_seconds() - start >= limit {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let limits = Limits {
        time: Some(Duration::from_secs_f64(10.0 * limit)),
        stop: Some(stop),
        ..Limits::default()
    };
    let report = solver.solve(pos, &limits);
    done.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    (report, process_cpu_seconds() - start)
}

/// `text` parsed as `what`, or a clear error and exit code 2.
fn parsed<T: std::str::FromStr>(what: &str, text: &str) -> T {
    text.parse().unwrap_or_else(|_| {
        eprintln!("geography_reach: expected {what}, got {text:?}");
        std::process::exit(2)
    })
}

/// Bands mode: the most seeds tried to fill the bands.
const MAX_SEEDS: u64 = 2000;

/// Bands mode's first seed: `GEOGRAPHY_REACH_FIRST_SEED`, default 1 (a fresh sample of
/// positions never used while tuning starts past the seeds used before).
fn first_seed() -> u64 {
    match std::env::var("GEOGRAPHY_REACH_FIRST_SEED") {
        Err(_) => 1,
        Ok(v) => parsed("a seed (a whole number) in GEOGRAPHY_REACH_FIRST_SEED", &v),
    }
}

/// Bands mode's work: `(band, seed, plies, position)` with one position of each game in each
/// band of `width` edges from `low` to `high`, drawn from the seed among the game's positions
/// in that band, for seeds `first` (from [`first_seed`]), the next, ... until every band has
/// `per_band` positions (or [`MAX_SEEDS`] seeds were tried), with the config `name`; and the
/// last seed used.
fn band_work(
    first: u64,
    per_band: u64,
    (low, high, width): (u64, u64, u64),
    name: &str,
) -> (Vec<(u64, u64, usize, Geography)>, u64) {
    let bands_total = (high - low).div_ceil(width);
    let band_of = |edges: u32| {
        let e = u64::from(edges);
        (low..high).contains(&e).then(|| (e - low) / width)
    };
    // (band, seed, plies, position): one position of each game in each band, drawn from the
    // seed among the game's positions in that band, for seeds from the first on until every
    // band has `per_band` positions (or MAX_SEEDS seeds were tried).
    let mut work = Vec::new();
    let mut filled = vec![0u64; bands_total as usize];
    let mut seed = first;
    for tried in 0..MAX_SEEDS {
        if filled.iter().all(|&f| f >= per_band) {
            break;
        }
        seed = first.wrapping_add(tried);
        let mut by_band = std::collections::BTreeMap::<u64, Vec<(usize, Geography)>>::new();
        for (plies, pos) in random_game(seed).into_iter().enumerate() {
            if let Some(band) = band_of(component_edges(&pos)) {
                by_band.entry(band).or_default().push((plies, pos));
            }
        }
        let mut rng = KeyStream::new(seed ^ 0xBA4D);
        for (band, mut positions) in by_band {
            let (plies, pos) =
                positions.swap_remove(below(&mut rng, positions.len() as u64) as usize);
            if filled[band as usize] < per_band {
                filled[band as usize] += 1;
                work.push((band, seed, plies, configured(&pos, name)));
            }
        }
    }
    (work, seed)
}

/// The reduction config's name and the df-pn options of a config `name[/e][/weak]`: df-pn's
/// 1+epsilon thresholds with epsilon `e` (`0`: plain), and weak proof numbers with `weak`.
fn solver_options(full: &str) -> (String, SolverOptions) {
    let mut parts = full.split('/');
    let name = parts.next().unwrap_or_default().to_string();
    let mut options =
        SolverOptions { threads: threads(), tt_mib: tt_mib(), ..SolverOptions::default() };
    for part in parts {
        if part == "weak" {
            options.weak_numbers = true;
        } else {
            let e: f64 = parsed("a config's epsilon (or `weak`)", part);
            options.epsilon = (e > 0.0).then_some(e);
        }
    }
    (name, options)
}

/// Bands mode (see the module docs).
fn bands(args: &[String]) {
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| parsed("a number", a));
    let limit: f64 = args.get(1).map_or(60.0, |a| parsed("the limit in seconds", a));
    let (per_band, low, high) = (arg(0, 10), arg(2, 150), arg(3, 210));
    let (width, jobs) = (arg(4, 10).max(1), arg(5, 1).max(1) as usize);
    let full = args.get(6).map_or("basic", String::as_str).to_string();
    let (name, options) = solver_options(&full);
    // `cpu` as the 8th argument: times are the process's CPU seconds (one solve at a time),
    // and the limit stops a solve after that much CPU time, so other work on the machine
    // does not count against the solver.
    let cpu_clock = args.get(7).is_some_and(|a| a == "cpu");
    let jobs = if cpu_clock { 1 } else { jobs };
    if cpu_clock && threads() > 1 {
        eprintln!("the cpu clock measures one-thread solves: unset GEOGRAPHY_REACH_THREADS");
        std::process::exit(2);
    }
    let first = first_seed();
    let (mut work, seed) = band_work(first, per_band, (low, high, width), &name);
    eprintln!("seeds {first}..={seed}, config {full}");
    println!("Seeds {first}..={seed} ({} positions), config `{full}`.", work.len());
    println!();
    // The hardest first, so the pool's jobs end together.
    work.sort_by_key(|w| std::cmp::Reverse(w.0));
    // Plain threads taking work items in turn (not a rayon pool: a rayon worker waiting for
    // the solver's own pool would steal and start further solves meanwhile, so solves would
    // overlap).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let solve_one = |(band, seed, plies, pos): &(u64, u64, usize, Geography)| {
        let mut solver = make_solver::<Geography>(SolverKind::Dfpn, &options);
        let t = Instant::now();
        let (report, secs) = if cpu_clock {
            solve_on_cpu_clock(solver.as_mut(), pos, limit)
        } else {
            let limits = Limits { time: Some(Duration::from_secs_f64(limit)), ..Limits::default() };
            let report = solver.solve(pos, &limits);
            (report, t.elapsed().as_secs_f64())
        };
        let wall = t.elapsed().as_secs_f64();
        let edges = component_edges(pos);
        let result = report.outcome.map_or("unknown", |o| o.as_str());
        let nodes = report.stats.nodes;
        eprintln!(
            "seed {seed} plies {plies} edges {edges} {result} time_s {secs:.3} nodes {nodes} \
                     wall_s {wall:.3}"
        );
        (*band, Sample { edges, solved: report.outcome.is_some(), secs }, nodes)
    };
    let mut results: Vec<(usize, (u64, Sample, u64))> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = work.get(i) else { break };
                        mine.push((i, solve_one(item)));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("solver thread")).collect()
    });
    results.sort_by_key(|r| r.0);
    let results: Vec<(u64, Sample, u64)> = results.into_iter().map(|r| r.1).collect();
    // A limit past 60 s also counts the solves within 60 s (the reach targets' limit).
    let mid = (limit > 60.0).then_some(60.0);
    let mid_head = mid.map_or(String::new(), |m| format!(" solved <= {m} s |"));
    println!(
        "| component edges | positions | solved <= 1 s | solved <= 10 s |{mid_head} solved <= \
         {limit} s | median time of solved (s) | most nodes solved |"
    );
    println!("|---|---|---|---|{}---|---|---|", if mid.is_some() { "---|" } else { "" });
    for band in 0..(high - low).div_ceil(width) {
        let in_band: Vec<&(u64, Sample, u64)> = results.iter().filter(|r| r.0 == band).collect();
        let within = |secs: f64| in_band.iter().filter(|r| r.1.solved && r.1.secs <= secs).count();
        let mut times: Vec<f64> = in_band.iter().filter(|r| r.1.solved).map(|r| r.1.secs).collect();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).map_or("-".to_string(), |t| format!("{t:.2}"));
        let most = in_band.iter().filter(|r| r.1.solved).map(|r| r.2).max();
        let lo = low + band * width;
        let mid_cell = mid.map_or(String::new(), |m| format!(" {} |", within(m)));
        println!(
            "| {lo}-{} | {} | {} | {} |{mid_cell} {} | {median} | {} |",
            (lo + width - 1).min(high - 1),
            in_band.len(),
            within(1.0),
            within(10.0),
            within(limit),
            most.map_or("-".to_string(), |n| n.to_string()),
        );
    }
}

/// Hard mode (see the module docs): every config on every `seed:plies` position, side by side.
fn hard(args: &[String]) {
    let limit: f64 = args.first().map_or(60.0, |a| parsed("the limit in seconds", a));
    let configs: Vec<String> =
        args.get(1).map_or("basic", String::as_str).split(',').map(str::to_string).collect();
    let specs: Vec<(u64, usize)> = args
        .iter()
        .skip(2)
        .map(|a| {
            let Some((s, p)) = a.split_once(':') else {
                eprintln!("geography_reach: expected a position as seed:plies, got {a:?}");
                std::process::exit(2)
            };
            (parsed("a seed", s), parsed("a ply count", p))
        })
        .collect();
    let mut header = "| position | edges |".to_string();
    let mut rule = "|---|---|".to_string();
    for name in &configs {
        let _ = write!(header, " {name} result | {name} s | {name} nodes |");
        rule += "---|---|---|";
    }
    println!("{header}");
    println!("{rule}");
    let mut totals = vec![(0.0f64, 0u64, 0usize); configs.len()];
    for &(seed, plies) in &specs {
        let game = random_game(seed);
        let Some(base) = game.get(plies) else { continue };
        let mut row = format!("| s{seed}:{plies} | {} |", component_edges(base));
        for (k, full) in configs.iter().enumerate() {
            let (name, options) = solver_options(full);
            let name = name.as_str();
            let mut solver = make_solver::<Geography>(SolverKind::Dfpn, &options);
            let pos = configured(base, name);
            let limits = Limits { time: Some(Duration::from_secs_f64(limit)), ..Limits::default() };
            let t = Instant::now();
            let report = solver.solve(&pos, &limits);
            let secs = t.elapsed().as_secs_f64();
            let result = report.outcome.map_or("unknown", |o| o.as_str());
            eprintln!(
                "s{seed}:{plies} {full} {result} time_s {secs:.3} nodes {}",
                report.stats.nodes
            );
            let _ = write!(row, " {result} | {secs:.2} | {} |", report.stats.nodes);
            totals[k].0 += secs;
            totals[k].1 += report.stats.nodes;
            totals[k].2 += usize::from(report.outcome.is_some());
        }
        println!("{row}");
    }
    let mut row = "| total | |".to_string();
    for (secs, nodes, solved) in totals {
        let _ = write!(row, " {solved} solved | {secs:.2} | {nodes} |");
    }
    println!("{row}");
}

/// A position of the plain game with the reductions of a named configuration.
fn configured(base: &Geography, name: &str) -> Geography {
    let (reductions, scan) = config(name);
    let mut pos = base.clone().with_reductions(reductions);
    if reductions.contains(Reductions::BRIDGES) {
        pos = pos.with_bridge_context(Arc::new(BridgeContext::new(scan)));
    }
    pos
}

/// Predict mode: how often [`reductions::bipartite_guess`] names the winner of solved
/// positions of `low..=high` component edges.
fn predict(args: &[String]) {
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| parsed("a number", a));
    let (seeds, low, high) = (arg(0, 20), arg(1, 40), arg(2, 120));
    let options = SolverOptions { threads: 1, tt_mib: 64, ..SolverOptions::default() };
    let mut solver = make_solver::<Geography>(SolverKind::Dfpn, &options);
    let (mut right, mut total, mut wins) = (0, 0, 0);
    for seed in 1..=seeds {
        for pos in random_game(seed) {
            let pos = pos.with_reductions(Reductions::DEFAULT);
            let e = u64::from(component_edges(&pos));
            if !(low..=high).contains(&e) || pos.outcome().is_some() {
                continue;
            }
            let limits = Limits { time: Some(Duration::from_secs(2)), ..Limits::default() };
            let Some(o) = solver.solve(&pos, &limits).outcome else { continue };
            total += 1;
            wins += usize::from(o == bitsolve::Outcome::Win);
            right += usize::from(reductions::bipartite_guess(&pos) == o);
        }
    }
    println!("positions {total} mover wins {wins} guess right {right}");
}

/// Positions mode (see the module docs): a dataset file on stdout.
fn positions(args: &[String]) {
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| parsed("a number", a));
    let (seeds, low, high) = (arg(0, 3), arg(1, 170), arg(2, 180));
    println!("id\tposition\texpected");
    for seed in 1..=seeds {
        let in_range: Vec<(usize, Geography)> = random_game(seed)
            .into_iter()
            .enumerate()
            .filter(|(_, pos)| (low..=high).contains(&u64::from(component_edges(pos))))
            .collect();
        if in_range.is_empty() {
            continue;
        }
        let mut rng = KeyStream::new(seed ^ 0xBA4D);
        let (plies, pos) = &in_range[below(&mut rng, in_range.len() as u64) as usize];
        println!(
            "s{seed}-p{plies}-e{}\t{}\t-",
            component_edges(pos),
            <Geography as bitsolve::Notation>::format_position(pos)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "bands") {
        bands(&args[1..]);
        return;
    }
    if args.first().is_some_and(|a| a == "predict") {
        predict(&args[1..]);
        return;
    }
    if args.first().is_some_and(|a| a == "hard") {
        hard(&args[1..]);
        return;
    }
    if args.first().is_some_and(|a| a == "positions") {
        positions(&args[1..]);
        return;
    }
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| parsed("a number", a));
    let seeds = arg(0, 3);
    let step = arg(1, 3).max(1) as usize;
    let limit = arg(2, 60) as f64;
    let budget = arg(3, 300) as f64;
    let configs: Vec<String> =
        args.get(4).map_or("basic,all", String::as_str).split(',').map(str::to_string).collect();
    let options = SolverOptions { threads: 1, tt_mib: 256, ..SolverOptions::default() };
    let mut rows = Vec::new();
    for seed in 1..=seeds {
        let game = random_game(seed);
        for name in &configs {
            let (reductions, scan) = config(name);
            let mut samples = Vec::new();
            let mut spent = 0.0;
            let mut solver = make_solver::<Geography>(SolverKind::Dfpn, &options);
            for plies in (0..game.len()).rev().step_by(step) {
                // Every solve starts cold: the df-pn table is cleared by `solve`, the sub-game
                // cache is new.
                let mut pos = game[plies].clone().with_reductions(reductions);
                if reductions.contains(Reductions::BRIDGES) {
                    pos = pos.with_bridge_context(Arc::new(BridgeContext::new(scan)));
                }
                let edges = component_edges(&pos);
                let limits =
                    Limits { time: Some(Duration::from_secs_f64(limit)), ..Limits::default() };
                let t = Instant::now();
                let report = solver.solve(&pos, &limits);
                let secs = t.elapsed().as_secs_f64();
                spent += secs;
                let result = report.outcome.map_or("unknown", |o| o.as_str());
                eprintln!(
                    "seed {seed} {name} plies {plies} edges {edges} {result} time_s {secs:.3} \
                     nodes {}",
                    report.stats.nodes
                );
                let solved = report.outcome.is_some();
                samples.push(Sample { edges, solved, secs });
                if !solved || spent > budget {
                    break;
                }
            }
            let most = samples.iter().filter(|s| s.solved).map(|s| s.edges).max().unwrap_or(0);
            let stopped = samples.last().map_or("-", |s| if s.solved { "budget" } else { "limit" });
            rows.push(format!(
                "| {seed} | {} | {name} | {} | {} | {most} | {} | {stopped} | {spent:.0} |",
                game.len() - 1,
                reach(&samples, 1.0),
                reach(&samples, limit),
                samples.len(),
            ));
        }
    }
    println!(
        "| seed | game plies | reductions | reach 1 s | reach {limit} s | largest solved | \
         positions | stopped by | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}
