//! Node counts of the Gauss score solver with its refinements switched on and off, to measure
//! what each gives (`results/gauss/`).
//!
//! ```text
//! cargo run --release --example gauss_score -- FILE [COUNT] [FEATURES] [THREADS] [SECONDS] [TT_MIB]
//! ```
//!
//! FILE is a dataset of Gauss positions (`bitsolve gauss gen`); COUNT the positions to take from
//! it (default all); FEATURES a comma-separated list of `etc`, `history`, `symmetry`, `mtdf`,
//! `shallow`, `killer`, `guess`, `default` (the solver's set) or `none`, read left to right,
//! where `-killer`, `-guess`, `-history`, `-etc` remove one again (default: `default`); THREADS
//! the solver's threads (default 1); SECONDS the time limit a position (default 60); `TT_MIB` the
//! table's size (default 256). One line a position: id, score, nodes, milliseconds; then the
//! totals.

use std::time::Duration;

use bitsolve::games::gauss::Gauss;
use bitsolve::search::score::{AlphaBetaScore, ScoreFeatures, ScoreSolver};
use bitsolve::{Limits, Notation, SolverOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: gauss_score FILE [COUNT] [FEATURES] [THREADS] [SECONDS] [TT_MIB]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    let count = args.get(1).and_then(|c| c.parse().ok()).unwrap_or(usize::MAX);
    let mut features = ScoreFeatures::default();
    if let Some(list) = args.get(2) {
        if list != "default" {
            features = ScoreFeatures::NONE;
        }
        for name in list.split(',') {
            match name {
                "etc" => features.etc = true,
                "history" => features.history = true,
                "symmetry" => features.symmetry = true,
                "mtdf" => features.mtdf = true,
                "shallow" => features.shallow = true,
                "killer" => features.killer = true,
                "guess" => features.guess = true,
                "-guess" => features.guess = false,
                "-killer" => features.killer = false,
                "-history" => features.history = false,
                "-etc" => features.etc = false,
                "default" => features = ScoreFeatures::default(),
                "none" => {}
                other => {
                    eprintln!("unknown feature `{other}`");
                    std::process::exit(2);
                }
            }
        }
    }
    let threads = args.get(3).and_then(|c| c.parse().ok()).unwrap_or(1);
    let seconds: f64 = args.get(4).and_then(|c| c.parse().ok()).unwrap_or(60.0);
    let tt_mib = args.get(5).and_then(|c| c.parse().ok()).unwrap_or(256);
    let options = SolverOptions { threads, tt_mib, ..SolverOptions::default() };
    let mut solver = AlphaBetaScore::new(&options).with_features(features);
    let limits = Limits { time: Some(Duration::from_secs_f64(seconds)), ..Limits::default() };
    let (mut nodes, mut millis, mut solved, mut total) = (0u64, 0f64, 0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.starts_with("id\t")) {
        if total == count {
            break;
        }
        let mut fields = line.split('\t');
        let (Some(id), Some(position)) = (fields.next(), fields.next()) else { continue };
        let Ok(pos) = Gauss::parse_position(position) else {
            eprintln!("{id}: bad position");
            continue;
        };
        let report = solver.solve_score(&pos, &limits);
        let ms = report.stats.elapsed.as_secs_f64() * 1000.0;
        let score = report.score.map_or_else(|| "unknown".to_string(), |s| s.to_string());
        println!("{id}\t{score}\t{}\t{ms:.0}", report.stats.nodes);
        total += 1;
        if report.score.is_some() {
            solved += 1;
            nodes += report.stats.nodes;
            millis += ms;
        }
    }
    println!(
        "# {features:?} threads={threads}: solved {solved}/{total}, nodes {nodes}, {millis:.0} ms"
    );
}
