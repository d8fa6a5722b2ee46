//! Gauss speed: random playouts (moves generated and played to the end), perft from the start,
//! and an exact score solve of a fixed endgame.
//!
//! Each run asserts its answer (node count, placement count, score), so a broken rule or
//! solver cannot report a good speed.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bitsolve::games::gauss::{Gauss, GaussMoves};
use bitsolve::search::score::{AlphaBetaScore, ScoreSolver};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Limits, Notation, Perft, Scored, SolverOptions};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("gauss-play");
    group.throughput(Throughput::Elements(100 * 30));
    group.bench_function("random-playouts-100", |b| {
        let mut rng = KeyStream::new(1);
        b.iter(|| {
            for _ in 0..100 {
                let mut pos = Gauss::default();
                let mut placements = 0;
                while pos.outcome().is_none() {
                    let mut moves = GaussMoves::new();
                    pos.generate_moves(&mut moves);
                    pos.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
                    placements += 1;
                }
                assert_eq!(placements, 30);
                black_box(pos.final_score());
            }
        });
    });
    let start = Gauss::default();
    group.throughput(Throughput::Elements(1_570_128));
    group.sample_size(10);
    group.bench_function("perft-start-depth-4", |b| {
        b.iter(|| assert_eq!(black_box(&start).perft(4), 1_570_128));
    });
    group.finish();
}

/// Seven placements left (from `bitsolve gauss gen --remaining 7 --count 1 --seed 11`).
const ENDGAME: &str = ".b../b...b/.b..r./..r...r/..br../...../.... b 3/0 0/4 6/5 2/1";

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("gauss-solve");
    group.sample_size(10);
    let pos = Gauss::parse_position(ENDGAME).expect("valid position");
    let mut solver = AlphaBetaScore::new(&SolverOptions { tt_mib: 16, ..SolverOptions::default() });
    group.bench_function("score-alphabeta-7-left", |b| {
        b.iter(|| {
            let report = solver.solve_score(black_box(&pos), &Limits::none());
            assert_eq!(report.score, Some(-1));
        });
    });
    group.finish();
}

criterion_group!(benches, playouts, solve);
criterion_main!(benches);
