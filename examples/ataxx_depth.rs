//! How deep the engine gets in one second from the Ataxx start position, with 1 and 2 threads.
//!
//! ```text
//! cargo run --release --example ataxx_depth -- 1000
//! ```
//! Argument: milliseconds per search (default 1000). Prints every finished iteration, then one
//! summary line per thread count (depth, nodes, nodes per second).

use std::time::Duration;

use bitsolve::AtaxxStandard;
use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};

fn main() {
    let millis = std::env::args().nth(1).map_or(1000, |a| a.parse().expect("milliseconds"));
    let time = Duration::from_millis(millis);
    let mut summary = Vec::new();
    for threads in [1, 2] {
        let mut engine = Engine::<AtaxxStandard>::new(&EngineOptions {
            threads,
            hash_mib: 64,
            eval_cache: false,
        });
        let limits = SearchLimits {
            soft_time: Some(time),
            hard_time: Some(time),
            ..SearchLimits::default()
        };
        let result = engine.search(&AtaxxStandard::startpos(), &[], &limits, &mut |info| {
            let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
            println!(
                "threads {threads} depth {} seldepth {} score {} nodes {} time_ms {} pv {}",
                info.depth,
                info.seldepth,
                info.score,
                info.nodes,
                info.elapsed.as_millis(),
                pv.join(" ")
            );
        });
        let info = result.info;
        summary.push(format!(
            "threads {threads}: depth {} in {} ms, {} nodes, {:.0} nodes/s, best {}",
            info.depth,
            info.elapsed.as_millis(),
            info.nodes,
            info.nodes as f64 / info.elapsed.as_secs_f64(),
            result.best_move.map_or("none".into(), |m| m.to_string())
        ));
    }
    for line in summary {
        println!("{line}");
    }
}
