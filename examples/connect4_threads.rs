//! Connect Four score searches on a set, one thread against two, with the refinements that
//! matter for threads switched (to measure what each gives).
//!
//! ```text
//! cargo run --release --example connect4_threads -- datasets/connect4/L1_R2.tsv 50 64
//! ```
//! Arguments: set file, positions (default all), table MiB (default 64), and `log` to print
//! each root test of one and two threads instead. Prints per variant the total time, nodes,
//! nodes per second and mismatches against the set's `pons_score` column.

use bitsolve::search::score::{AlphaBetaScore, ScoreFeatures, ScoreSolver};
use bitsolve::{Connect4, Limits, Notation, SolverOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("a set file");
    let count: usize = args.next().map_or(usize::MAX, |a| a.parse().expect("positions"));
    let mib: usize = args.next().map_or(64, |a| a.parse().expect("MiB"));
    let text = std::fs::read_to_string(&file).expect("readable set");
    let rows: Vec<(Connect4, i32)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t"))
        .take(count)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (Connect4::parse_position(f[1]).expect("position"), f[3].parse().expect("score"))
        })
        .collect();
    let base = ScoreFeatures::for_game::<Connect4>();
    if args.next().as_deref() == Some("log") {
        for threads in [1, 2] {
            let options = SolverOptions { threads, tt_mib: mib, ..SolverOptions::default() };
            let mut solver = AlphaBetaScore::new(&options).with_features(base).with_log(true);
            for (pos, _) in &rows {
                eprintln!("== {threads} threads");
                solver.solve_score(pos, &Limits::none());
            }
        }
        return;
    }
    let variants = [
        ("1t", 1, base),
        ("2t", 2, base),
        ("2t no defer", 2, ScoreFeatures { defer: false, ..base }),
        ("2t scramble", 2, ScoreFeatures { scramble: true, ..base }),
    ];
    for (name, threads, features) in variants {
        let options = SolverOptions { threads, tt_mib: mib, ..SolverOptions::default() };
        let mut solver = AlphaBetaScore::new(&options).with_features(features);
        let (mut secs, mut nodes, mut wrong) = (0.0, 0u64, 0);
        for (pos, score) in &rows {
            let report = solver.solve_score(pos, &Limits::none());
            secs += report.stats.elapsed.as_secs_f64();
            nodes += report.stats.nodes;
            wrong += usize::from(report.score != Some(*score));
        }
        println!(
            "{name:12} {:8.3} s {nodes:12} nodes {:10.0} nodes/s {wrong} wrong",
            secs,
            nodes as f64 / secs
        );
    }
}
