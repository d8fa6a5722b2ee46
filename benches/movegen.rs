//! Move-generation speed: Ataxx perft from the start position, and GIPF perft from S=4
//! mid-game positions, in nodes per second.
//!
//! Each run asserts its node count, so a broken generator cannot report a good speed.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bitsolve::games::gipf::GipfMoves;
use bitsolve::zobrist::KeyStream;
use bitsolve::{AtaxxStandard, Game, Gipf, Notation, Perft};

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

/// The standard S=4 GIPF start (K=4, 15 pieces each).
const GIPF_START: &str = "4 4 15 15/12 12 W/W__B/_____/______/B_____W/______/_____/W__B";

/// The position after `plies` pseudo-random moves (fixed seed) from the GIPF start.
fn gipf_playout(plies: usize, seed: u64) -> Gipf {
    let mut pos = Gipf::parse_position(GIPF_START).expect("valid start");
    let mut rng = KeyStream::new(seed);
    for _ in 0..plies {
        let mut moves = GipfMoves::new();
        pos.generate_moves(&mut moves);
        assert!(!moves.is_empty(), "the playout must not end the game");
        pos.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
    }
    pos
}

/// GIPF perft (moves generated and applied) on S=4 mid-game positions.
fn gipf_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft-gipf");
    group.sample_size(10);
    for (plies, seed, depth, nodes) in [
        (0, 0, 3, 15_828u64),
        (8, 1, 4, GIPF_NODES[0]),
        (14, 2, 4, GIPF_NODES[1]),
        (20, 3, 4, GIPF_NODES[2]),
    ] {
        let pos = gipf_playout(plies, seed);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("s4-ply{plies}-depth-{depth}"), |b| {
            b.iter(|| assert_eq!(black_box(&pos).perft(black_box(depth)), nodes));
        });
    }
    group.finish();
}

/// Perft counts of the mid-game GIPF positions of [`gipf_perft`].
/// (`4 4 15 15/8 8 W/W__W/____B/_____B/B_W__WB/_B____/W___B/W_BW`,
/// `4 4 15 15/9 5 W/BW_B/_W_BW/_B____/BB____W/B___BW/____W/B__B`,
/// `4 4 15 15/2 2 W/BB_B/_W_WW/B__BW_/WBWW_WW/__B_B_/BWBBW/WBBW`.)
const GIPF_NODES: [u64; 3] = [602_293, 505_138, 441_205];

criterion_group!(benches, ataxx_perft, gipf_perft);
criterion_main!(benches);
