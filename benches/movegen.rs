//! Move-generation speed: Ataxx perft from the start position, in nodes per second.
//!
//! Each run asserts its node count, so a broken generator cannot report a good speed.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bitsolve::{AtaxxStandard, Perft};

fn ataxx_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft-ataxx");
    group.sample_size(10);
    let start = AtaxxStandard::startpos();
    for (depth, nodes) in [(5, 4_752_668u64), (6, 141_865_520), (7, 5_023_479_496)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("startpos-depth-{depth}"), |b| {
            b.iter(|| assert_eq!(black_box(&start).perft(black_box(depth)), nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, ataxx_perft);
criterion_main!(benches);
