//! Solves small fixed positions with every solver, asserting the known result (pinned, or for
//! the random digraph the retrograde solver's).

use std::hint::black_box;

use bitsolve::{
    AtaxxStandard, Digraph, Gipf, Limits, Notation, Outcome, SolverKind, SolverOptions, make_solver,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn solve<G: Notation>(pos: &G, kind: SolverKind, threads: usize) -> Option<Outcome> {
    let options = SolverOptions { threads, tt_mib: 16, epsilon: None, ..SolverOptions::default() };
    make_solver::<G>(kind, &options).solve(pos, &Limits::none()).outcome
}

fn ataxx_small_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve-ataxx");
    group.sample_size(10);
    for (name, fen, expected) in [
        ("3x4", "x2o/4/o2x x 0 1", Outcome::Win),
        ("2x5", "x3o/o3x x 0 1", Outcome::Win),
        ("2x6", "x4o/o4x x 0 1", Outcome::Win),
    ] {
        let pos = AtaxxStandard::parse_position(fen).unwrap();
        for kind in [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn] {
            for threads in [1, 2] {
                if kind == SolverKind::Pns && threads > 1 {
                    continue;
                }
                group.bench_function(format!("{name}/{}/t{threads}", kind.name()), |b| {
                    b.iter(|| assert_eq!(solve(black_box(&pos), kind, threads), Some(expected)));
                });
            }
        }
    }
    group.finish();
}

fn digraphs(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve-digraph");
    let pos = Digraph::random(60, 7);
    // The value by another path: retrograde analysis of every reachable position.
    let expected = solve(&pos, SolverKind::Retro, 1);
    assert!(expected.is_some(), "retro solves the digraph");
    for kind in [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn] {
        group.bench_function(format!("n60/{}", kind.name()), |b| {
            b.iter(|| assert_eq!(solve(black_box(&pos), kind, 1), expected));
        });
    }
    group.finish();
}

fn gipf_small(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve-gipf");
    group.sample_size(10);
    for (name, position, expected) in [
        ("s2-k3-empty", "2 3 4 4/2 2 W/__/___/__", Outcome::Loss),
        ("s3-k4-ply2", "3 4 6 5/2 1 W/W_B/____/B___W/__B_/BWW", Outcome::Win),
    ] {
        let pos = Gipf::parse_position(position).unwrap();
        for kind in [SolverKind::Alphabeta, SolverKind::Pns, SolverKind::Dfpn] {
            group.bench_function(format!("{name}/{}", kind.name()), |b| {
                b.iter(|| assert_eq!(solve(black_box(&pos), kind, 1), Some(expected)));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, ataxx_small_boards, digraphs, gipf_small);
criterion_main!(benches);
