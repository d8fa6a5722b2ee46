//! Engine search speed: a fixed-depth search of the Ataxx start position (one thread, a fresh
//! table each time, so the node count is the same every run), with the hand-made evaluation
//! and with the embedded net (the UAI default). Criterion's throughput is in nodes, so it
//! reports nodes per second; the node counts are asserted against pinned constants
//! ([`NODES`], [`NET_NODES`]) so a change of search shape cannot pass as a change of speed.
//! The depth reached in 1 s is in `results/ataxx/speed.md` (`scripts/ataxx-speed.sh`).

use std::hint::black_box;

use bitsolve::AtaxxStandard;
use bitsolve::games::ataxx::nnue::{NetAtaxx, Network};
use bitsolve::search::engine::{Engine, EngineOptions, SearchLimits};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const DEPTH: u32 = 8;

/// Nodes of the depth-[`DEPTH`] search, pinned (also what `bitsolve ataxx uai --hash 16` prints
/// for `position startpos` and `go depth 8`). A change of the engine's search shape changes
/// it: update it only on purpose. Re-pinned on 2026-11-28 (16,424 -> 14,710, and 33,873 ->
/// 7,226 with the net): the adopted engine changes and net8a since the first pins had changed
/// both without this bench being run; CI now runs every bench once (`cargo test -p
/// bitsolve-benches --benches`), so a stale pin fails there.
const NODES: u64 = 14_710;

/// Nodes of the depth-[`DEPTH`] search with the embedded net, pinned like [`NODES`].
const NET_NODES: u64 = 6_035;

fn net_search_nodes(depth: u32) -> u64 {
    let mut engine = Engine::<NetAtaxx<false>>::new(&EngineOptions::default());
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let root = NetAtaxx::new(AtaxxStandard::startpos(), Some(Network::embedded()));
    let result = engine.search(black_box(&root), &[], &limits, &mut |_| {});
    assert_eq!(result.info.depth, depth);
    result.info.nodes
}

fn search_nodes(depth: u32) -> u64 {
    let mut engine = Engine::<AtaxxStandard>::new(&EngineOptions::default());
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
    let net_nodes = net_search_nodes(DEPTH);
    assert_eq!(net_nodes, NET_NODES, "the engine's search shape with the net changed");
    group.throughput(Throughput::Elements(net_nodes));
    group.bench_function(format!("startpos-net/depth{DEPTH}"), |b| {
        b.iter(|| assert_eq!(net_search_nodes(DEPTH), net_nodes));
    });
    group.finish();
}

criterion_group!(benches, ataxx_startpos);
criterion_main!(benches);
