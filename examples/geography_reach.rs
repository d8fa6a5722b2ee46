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

use std::time::{Duration, Instant};

use bitsolve::games::geography::generator::below;
use bitsolve::games::geography::{Reductions, reductions, subgame};
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
        other => panic!(
            "unknown config {other} (basic, bridges, bridges-everywhere, chains, all, \
             all-everywhere)"
        ),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("number"));
    let seeds = arg(0, 3);
    let step = arg(1, 3).max(1) as usize;
    let limit = arg(2, 60) as f64;
    let budget = arg(3, 300) as f64;
    let configs: Vec<String> =
        args.get(4).map_or("basic,all", String::as_str).split(',').map(str::to_string).collect();
    let options = SolverOptions { threads: 1, tt_mib: 256, ..SolverOptions::default() };
    let mut rows = Vec::new();
    for seed in 1..=seeds {
        let start = Geography::contest_start(100, seed).expect("contest graph");
        let mut game = vec![start.plain()];
        let mut rng = KeyStream::new(seed ^ 0x5EAC);
        loop {
            let pos = game.last().expect("non-empty").clone();
            let mut moves = <Geography as Game>::Moves::default();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut next = pos;
            next.play(moves[below(&mut rng, moves.len() as u64) as usize]);
            game.push(next);
        }
        for name in &configs {
            let (reductions, scan) = config(name);
            reductions::set_bridge_scan_edge_limit(scan);
            let mut samples = Vec::new();
            let mut spent = 0.0;
            let mut solver = make_solver::<Geography>(SolverKind::Dfpn, &options);
            for plies in (0..game.len()).rev().step_by(step) {
                let pos = game[plies].clone().with_reductions(reductions);
                let edges = component_edges(&pos);
                let limits =
                    Limits { time: Some(Duration::from_secs_f64(limit)), ..Limits::default() };
                // Every solve starts cold: the df-pn table is cleared by `solve`, the sub-game
                // cache here.
                subgame::clear();
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
