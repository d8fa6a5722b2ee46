//! GIPF speed, with the before/after comparisons side by side in one run:
//!
//! * `gipf-moves`: moves generated and applied per second on fixed S=4 positions (the start and
//!   three mid-game positions), asserting the move counts;
//! * `gipf-rows`: row detection after every push of those positions, by the `(S, K)` window
//!   tables against the older scan of the lines through the gained cells;
//! * `gipf-probe`: df-pn on the S=4 positions of official test 9, with the win probe finding the
//!   first reply by `capability::FirstMove` against generating every reply (the default method);
//! * `gipf-children`: the distinct child states of 2000 S=3 K=3 7+7 positions from random play
//!   (`Gipf::for_each_child_state`, what the retrograde solver `retro2` generates once per
//!   position in its reachability pass and again in its scan), asserting their count;
//! * `gipf-official-9`: the whole of official test 9 (11 `SOLVE_GAME_STATE`) through the
//!   interpreter's library path, asserting the expected output, with and without the small
//!   persistent table of the first attempt.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bitsolve::games::gipf::GipfMoves;
use bitsolve::protocol::gipf::Interpreter;
use bitsolve::search::dfpn::DfpnSolver;
use bitsolve::{Game, Gipf, Limits, Notation, Outcome, Solver, SolverKind, SolverOptions};

/// S=4 positions and their numbers of distinct moves: the standard start and three mid-game
/// positions (8, 14 and 20 random plies from the start).
const POSITIONS: [(&str, &str, usize); 4] = [
    ("start", "4 4 15 15/12 12 W/W__B/_____/______/B_____W/______/_____/W__B", 24),
    ("ply8", "4 4 15 15/8 8 W/W__W/____B/_____B/B_W__WB/_B____/W___B/W_BW", 27),
    ("ply14", "4 4 15 15/9 5 W/BW_B/_W_BW/_B____/BB____W/B___BW/____W/B__B", 29),
    ("ply20", "4 4 15 15/2 2 W/BB_B/_W_WW/B__BW_/WBWW_WW/__B_B_/BWBBW/WBBW", 25),
];

/// Generates the moves of `pos` and plays each on a copy; returns the number of moves.
fn generate_and_apply(pos: &Gipf) -> usize {
    let mut moves = GipfMoves::new();
    pos.generate_moves(&mut moves);
    let mut reserves = 0;
    for &mv in &moves {
        let mut child = pos.clone();
        child.play(mv);
        reserves += child.state().reserve.first;
    }
    black_box(reserves);
    moves.len()
}

fn moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("gipf-moves");
    for (name, text, count) in POSITIONS {
        let pos = Gipf::parse_position(text).expect("valid position");
        assert_eq!(generate_and_apply(&pos), count, "{name}");
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(generate_and_apply(black_box(&pos)), count));
        });
    }
    group.finish();
}

fn rows(c: &mut Criterion) {
    let mut group = c.benchmark_group("gipf-rows");
    // Every raw push result of every position.
    let cases: Vec<(Gipf, Vec<_>)> = POSITIONS
        .iter()
        .map(|(_, text, _)| {
            let pos = Gipf::parse_position(text).expect("valid position");
            let states = (0..pos.geometry().pushes.len()).filter_map(|p| pos.pushed(p)).collect();
            (pos, states)
        })
        .collect();
    let total: usize = cases.iter().map(|(_, s)| s.len()).sum();
    let count = |by_lines: bool| -> usize {
        cases
            .iter()
            .map(|(pos, states)| {
                states
                    .iter()
                    .filter(|st| {
                        if by_lines {
                            pos.push_makes_run_by_lines(black_box(st))
                        } else {
                            pos.push_makes_run(black_box(st))
                        }
                    })
                    .count()
            })
            .sum()
    };
    let expected = count(true);
    assert_eq!(count(false), expected);
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("windows", |b| b.iter(|| assert_eq!(count(false), expected)));
    group.bench_function("lines", |b| b.iter(|| assert_eq!(count(true), expected)));
    group.finish();
}

/// GIPF without the `FirstMove` capability (the probe generates every move and takes the
/// first): the win probe as it was before `Gipf::first_move`.
#[derive(Clone)]
struct FullProbe(Gipf);

impl Game for FullProbe {
    type Move = <Gipf as Game>::Move;
    type Moves = <Gipf as Game>::Moves;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        self.0.generate_moves(moves);
    }

    fn play(&mut self, mv: Self::Move) {
        self.0.play(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn hash(&self) -> u64 {
        self.0.hash()
    }
}

/// The S=4 positions of official test 9 with their values for the side to move.
const TEST9_S4: [(&str, Outcome); 5] = [
    ("4 4 15 15/1 2 B/W__B/WB__W/B_W_B_/B_W_BBW/W_B_W_/_W___/W_WB", Outcome::Win),
    ("4 4 15 15/3 4 B/____/_____/______/_______/______/_____/____", Outcome::Win),
    ("4 4 15 15/3 3 B/____/_____/______/_______/______/_____/____", Outcome::Loss),
    ("4 4 15 15/3 1 B/____/_____/______/_______/___B__/___B_/___B", Outcome::Win),
    ("4 4 15 15/2 2 B/W__B/_B__W/B_W_W_/__W__BW/W_B_W_/_____/__WB", Outcome::Loss),
];

fn probe(c: &mut Criterion) {
    let mut group = c.benchmark_group("gipf-probe");
    group.sample_size(20);
    let options = SolverOptions {
        threads: 1,
        tt_mib: 1,
        epsilon: Some(2.0),
        mobility: false,
        win_probe: true,
        ..SolverOptions::default()
    };
    let positions: Vec<(Gipf, Outcome)> = TEST9_S4
        .iter()
        .map(|&(text, value)| (Gipf::parse_position(text).expect("valid position"), value))
        .collect();
    let mut solver = DfpnSolver::new(&options);
    group.bench_function("first-move", |b| {
        b.iter(|| {
            for (pos, value) in &positions {
                let report = Solver::<Gipf>::solve(&mut solver, pos, &Limits::none());
                assert_eq!(report.outcome, Some(*value));
            }
        });
    });
    group.bench_function("generate-all", |b| {
        b.iter(|| {
            for (pos, value) in &positions {
                let pos = FullProbe(pos.clone());
                let report = Solver::<FullProbe>::solve(&mut solver, &pos, &Limits::none());
                assert_eq!(report.outcome, Some(*value));
            }
        });
    });
    group.finish();
}

fn normalise(text: &str) -> Vec<&str> {
    text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect()
}

fn official_9(c: &mut Criterion) {
    let input = include_str!("../datasets/gipf/official/9.in");
    let expected = include_str!("../datasets/gipf/official/9.out");
    let mut group = c.benchmark_group("gipf-official-9");
    group.sample_size(20);
    for (name, quick) in [("quick-table", true), ("fresh-16mib-table", false)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut interp = Interpreter::new(16, SolverKind::Dfpn).with_quick_attempt(quick);
                let out = interp.run(black_box(input));
                assert_eq!(normalise(&out), normalise(expected));
            });
        });
    }
    group.finish();
}

/// 2000 positions of S=3 K=3 7+7 from random play (seeded), 0 to 29 plies from the start.
fn s3_positions() -> Vec<Gipf> {
    let start = Gipf::parse_position("3 3 7 7/4 4 W/W_B/____/B___W/____/W_B").expect("valid");
    let mut rng = bitsolve::zobrist::KeyStream::new(2026);
    let mut out = Vec::new();
    while out.len() < 2000 {
        let mut pos = start.clone();
        for _ in 0..rng.next_key() % 30 {
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = GipfMoves::new();
            pos.generate_moves(&mut moves);
            let mv = moves[(rng.next_key() % moves.len() as u64) as usize];
            pos.play(mv);
        }
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

fn children(c: &mut Criterion) {
    let positions = s3_positions();
    let count = |ps: &[Gipf]| {
        let mut n = 0usize;
        for p in ps {
            p.for_each_child_state(|st, plain| {
                n += 1 + usize::from(plain) + st.reserve.first as usize % 2;
            });
        }
        n
    };
    let expected = count(&positions);
    let mut group = c.benchmark_group("gipf-children");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("s3-k3-7+7", |b| {
        b.iter(|| assert_eq!(count(black_box(&positions)), expected));
    });
    group.finish();
}

criterion_group!(benches, moves, rows, probe, children, official_9);
criterion_main!(benches);
