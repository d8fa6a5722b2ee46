//! The indexed layered retrograde engine: a whole Ataxx board (every position of the index,
//! 3^n) on 1 and 2 threads. Positions per second = `3^n / time`; the 1-to-2-thread speedup is
//! the ratio of the two times. Run alone: `cargo bench -p bitsolve-benches --bench retro`.

use std::hint::black_box;

use bitsolve::games::ataxx::index::AtaxxIndex;
use bitsolve::search::retro::ataxx::AtaxxModel;
use bitsolve::search::retro::driver::solve_in_memory;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn whole_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("retro-index");
    group.sample_size(10);
    for (w, h) in [(4u32, 3u32), (5, 3)] {
        let start = bitsolve::AtaxxStandard::start(w, h);
        let model = AtaxxModel::new(AtaxxIndex::for_position(&start));
        group.throughput(Throughput::Elements(3u64.pow(w * h)));
        for threads in [1usize, 2] {
            let pool = bitsolve::search::thread_pool(threads);
            group.bench_function(format!("{h}x{w}/threads={threads}"), |b| {
                b.iter(|| pool.install(|| black_box(solve_in_memory(&model).map(|t| t.len()))));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, whole_board);
criterion_main!(benches);
