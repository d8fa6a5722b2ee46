//! Engine search speed: a fixed-depth search of the Ataxx start position (one thread, a fresh
//! table each time, so the node count is the same every run). Criterion's throughput is in
//! nodes, so it reports nodes per second; the node count is asserted against a pinned
//! constant ([`NODES`]) so a change of search shape cannot pass as a change of speed.

use std::hint::black_box;

use bitsolve::AtaxxStandard;
use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const DEPTH: u32 = 8;

/// Nodes of the depth-[`DEPTH`] search, pinned (also what `bitsolve ataxx uai --hash 16` prints
/// for `position startpos` and `go depth 8`). A change of the engine's search shape changes
/// it: update it only on purpose.
const NODES: u64 = 16_424;

fn search_nodes(depth: u32) -> u64 {
    let mut engine = Engine::<AtaxxStandard>::new(&EngineOptions { threads: 1, hash_mib: 16 });
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let result = engine.search(black_box(&AtaxxStandard::startpos()), &[], &limits, &mut |_| {});
    assert_eq!(result.info.depth, depth);
    result.info.nodes
}

fn ataxx_startpos(c: &mut Criterion) {
    let nodes = search_nodes(DEPTH);
    assert_eq!(nodes, NODES, "the engine's search shape changed");
    let mut group = c.benchmark_group("engine-ataxx");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("startpos/depth{DEPTH}"), |b| {
        b.iter(|| assert_eq!(search_nodes(DEPTH), nodes));
    });
    group.finish();
}

criterion_group!(benches, ataxx_startpos);
criterion_main!(benches);
