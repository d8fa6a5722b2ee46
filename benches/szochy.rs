//! Szochy at scale: position-graph enumeration speed (positions per second) and matching time on
//! a fixed mid-size instance, asserting its pinned sizes and answer. Prints one summary line per
//! measurement.

use std::hint::black_box;
use std::time::Instant;

use bitsolve::games::szochy::{Instance, SolveOptions, solve};
use bitsolve::graph::matching::{covered_by_every_maximum_matching, maximum_matching};

/// 6x6, no holes, king, knight and rook: 42,840 positions (a fixed mid-size instance).
fn instance() -> Instance {
    Instance::new(6, 6, &[], &[('k', 1, 1), ('n', 3, 3), ('r', 6, 6)]).unwrap()
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters nothing here.
    let inst = instance();
    let options = SolveOptions::default();
    let s = solve(&inst, &options).unwrap();
    // Pinned (`bitsolve szochy --position "6 6||k1,1 n3,3 r6,6"` prints the same numbers).
    assert_eq!((s.positions, s.moves, s.matching_size), (42_840, 399_660, 21_420));
    let expected = true;
    assert_eq!(s.first_player_wins, expected);
    let rounds = 5;
    let (mut enum_best, mut match_best) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let s = solve(black_box(&inst), &options).unwrap();
        assert_eq!(s.first_player_wins, expected);
        enum_best = enum_best.min(s.enumerate_time.as_secs_f64());
        let t = Instant::now();
        let m = maximum_matching(&s.graph.graph);
        let wins = covered_by_every_maximum_matching(&s.graph.graph, &m, 0);
        match_best = match_best.min(t.elapsed().as_secs_f64());
        assert_eq!(wins, expected);
    }
    println!(
        "szochy/enumerate 6x6 k+n+r: {} positions, {} moves, best of {rounds}: {:.2} ms, {:.2} M positions/s",
        s.positions,
        s.moves,
        enum_best * 1e3,
        s.positions as f64 / enum_best / 1e6
    );
    println!(
        "szochy/matching  6x6 k+n+r: nu = {}, best of {rounds}: {:.2} ms, {:.2} M positions/s; first player wins = {expected}",
        s.matching_size,
        match_best * 1e3,
        s.positions as f64 / match_best / 1e6
    );
}
