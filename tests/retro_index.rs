//! The indexed layered engine against the graph retrograde solver on small Ataxx boards:
//! every position reachable from the start, value and distance.

use bitsolve::game::Outcome;
use bitsolve::games::ataxx::index::AtaxxIndex;
use bitsolve::search::retro::RetroSolver;
use bitsolve::search::retro::ataxx::AtaxxModel;
use bitsolve::search::retro::driver::{solve_in_memory, solve_only};
use bitsolve::search::retro::layers::{Tally, reachable};
use bitsolve::search::retro::model::{LayerModel, Propagation};
use bitsolve::search::retro::solve::Control;
use bitsolve::search::retro::values::{DRAW, LOSS, WIN, cell};
use bitsolve::unmove::LayeredIndex;
use bitsolve::{Ataxx, Limits, Player, Solver};

fn lcg(s: &mut u64) -> u64 {
    *s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    *s >> 33
}

/// Solves the board of `start` both ways and compares every reachable position (or every
/// `stride`-th one). Returns the number compared.
fn compare<const P: bool>(start: &Ataxx<P>, stride: usize) -> usize {
    let index = AtaxxIndex::<P>::for_position(start);
    let model = AtaxxModel::new(index.clone());
    let table = solve_in_memory(&model).unwrap();
    let (layer, rank) = index.rank(start).unwrap();
    let side = u8::from(start.side_to_move() == Player::Second);
    let reached = reachable(&model, (layer, rank, side), &Control::default()).unwrap();
    let mut compared = 0;
    let mut tally = Tally::default();
    for (l, cells) in table.iter().enumerate() {
        tally.add(Tally::of_layer(cells, &reached[l]));
        for (i, &c) in cells.iter().enumerate() {
            if reached[l].is_empty() || reached[l].get(i as u64) == 0 || (l + i) % stride != 0 {
                continue;
            }
            let pos = index.unrank(l, i as u64);
            let report = RetroSolver::new().solve(&pos, &Limits::none());
            let want = report.outcome.unwrap();
            let got = match cell::value(c) {
                WIN => Outcome::Win,
                LOSS => Outcome::Loss,
                DRAW => Outcome::Draw,
                _ => panic!("undecided cell"),
            };
            assert_eq!(got, want, "{pos:?}");
            if want != Outcome::Draw {
                assert_eq!(Some(u32::from(cell::distance(c))), report.plies, "{pos:?}");
            }
            compared += 1;
        }
    }
    // The tally counts both sides to move, each once.
    assert_eq!(tally.positions, tally.wins + tally.draws + tally.losses);
    assert!(tally.positions >= compared as u64);
    compared
}

/// The root value of the graph solver on `start` and of the table.
fn root_agrees<const P: bool>(start: &Ataxx<P>) {
    let index = AtaxxIndex::<P>::for_position(start);
    let model = AtaxxModel::new(index.clone());
    let table = solve_in_memory(&model).unwrap();
    let (l, i) = index.rank(start).unwrap();
    let report = RetroSolver::new().solve(start, &Limits::none());
    let c = table[l][i as usize];
    let v = match report.outcome.unwrap() {
        Outcome::Win => WIN,
        Outcome::Loss => LOSS,
        Outcome::Draw => DRAW,
    };
    assert_eq!(cell::value(c), v);
    if let Some(p) = report.plies {
        assert_eq!(u32::from(cell::distance(c)), p);
    }
}

#[test]
fn tiny_boards_match_the_graph_solver_standard() {
    for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2)] {
        assert!(compare(&Ataxx::<false>::start(w, h), 1) > 0);
    }
}

#[test]
fn tiny_boards_match_the_graph_solver_polish() {
    for (w, h) in [(2, 2), (3, 2), (2, 3), (4, 2)] {
        assert!(compare(&Ataxx::<true>::start(w, h), 1) > 0);
    }
}

#[test]
fn three_by_three_with_blockers_matches() {
    let mut s = 5u64;
    for round in 0..6 {
        let mut std_pos = Ataxx::<false>::start(3, 3);
        let mut pol_pos = Ataxx::<true>::start(3, 3);
        // Block one or two of the non-corner squares.
        for _ in 0..=round % 2 {
            let sq = [1u32, 8, 9, 10, 17][lcg(&mut s) as usize % 5];
            if std_pos.empties().contains(sq) {
                std_pos.block(sq);
                pol_pos.block(sq);
            }
        }
        assert!(compare(&std_pos, 7) > 0);
        assert!(compare(&pol_pos, 7) > 0);
    }
}

#[test]
fn three_by_three_start_matches() {
    root_agrees(&Ataxx::<false>::start(3, 3));
    root_agrees(&Ataxx::<true>::start(3, 3));
    assert!(compare(&Ataxx::<false>::start(3, 3), 13) > 0);
    assert!(compare(&Ataxx::<true>::start(3, 3), 13) > 0);
}

#[test]
fn solved_cells_are_locally_consistent() {
    // A win has a child that is a loss one ply shorter, a loss has only winning children
    // and one of them one ply shorter, a draw has no losing child and a drawn one.
    for polish in [false, true] {
        let start = Ataxx::<false>::start(4, 2);
        let index = AtaxxIndex::<false>::for_position(&start);
        if polish {
            check_consistency(&AtaxxModel::new(AtaxxIndex::<true>::new(4, 2, index.valid())));
        } else {
            check_consistency(&AtaxxModel::new(index));
        }
    }
}

fn check_consistency<M: LayerModel + Clone>(model: &M) {
    let table = solve_in_memory(model).unwrap();
    for (l, cells) in table.iter().enumerate() {
        model.scan(l, 0, cells.len() as u64, |i, pos| {
            let c = cells[i as usize];
            let (v, d) = (cell::value(c), cell::distance(c));
            if model.outcome(pos).is_some() {
                assert_eq!(d, 0);
                return;
            }
            let mut kids = Vec::new();
            model.for_each_layer_child(pos, |r| kids.push(table[l][r as usize]));
            model.for_each_next_child(pos, |r| kids.push(table[l + 1][r as usize]));
            let vals: Vec<(u8, u16)> =
                kids.iter().map(|&k| (cell::value(k), cell::distance(k))).collect();
            match v {
                WIN => {
                    let best = vals.iter().filter(|k| k.0 == LOSS).map(|k| k.1).min();
                    assert_eq!(best.map(|b| b + 1), Some(d));
                }
                LOSS => {
                    assert!(vals.iter().all(|k| k.0 == WIN));
                    assert_eq!(vals.iter().map(|k| k.1 + 1).max(), Some(d));
                }
                _ => {
                    assert!(vals.iter().all(|k| k.0 != LOSS));
                    assert!(vals.iter().any(|k| k.0 == DRAW));
                }
            }
        });
    }
}

#[test]
fn grouped_parent_ranks_match_parents_one_by_one() {
    use bitsolve::games::ataxx::unmove::for_each_layer_parent;
    let mut s = 11u64;
    for (w, h, polish) in [(4, 4, false), (5, 3, true), (4, 5, false)] {
        let index = AtaxxIndex::<false>::new(
            w,
            h,
            AtaxxIndex::<false>::for_position(&Ataxx::<false>::start(w, h)).valid(),
        );
        let valid = index.valid();
        let model = AtaxxModel::new(index.clone());
        for _ in 0..3_000 {
            let (mut own, mut opp) = (0u64, 0u64);
            for sq in bitsolve::Bitboard64(valid) {
                match lcg(&mut s) % 3 {
                    0 => own |= 1 << sq,
                    1 => opp |= 1 << sq,
                    _ => {}
                }
            }
            let mut grouped = Vec::new();
            model.for_each_layer_parent((own, opp), |r| grouped.push(r));
            let mut single = Vec::new();
            let mut add = |a: u64, b: u64| single.push(index.rank_in_layer(a, b));
            if polish {
                for_each_layer_parent::<true>(own, opp, valid, &mut add);
            } else {
                for_each_layer_parent::<false>(own, opp, valid, &mut add);
            }
            if polish {
                // The model is standard; drop the un-pass, which Polish rules lack.
                continue;
            }
            grouped.sort_unstable();
            single.sort_unstable();
            assert_eq!(grouped, single);
        }
    }
}

#[test]
fn reachable_only_solve_agrees_with_the_full_solve() {
    for polish in [false, true] {
        let start = Ataxx::<false>::start(4, 3);
        let valid = AtaxxIndex::<false>::for_position(&start).valid();
        if polish {
            reachable_only(&AtaxxModel::new(AtaxxIndex::<true>::new(4, 3, valid)), &start);
        } else {
            reachable_only(&AtaxxModel::new(AtaxxIndex::<false>::new(4, 3, valid)), &start);
        }
    }
}

fn reachable_only<M: LayerModel + Clone>(model: &M, start: &Ataxx<false>) {
    let index = AtaxxIndex::<false>::for_position(start);
    let (l0, r0) = index.rank(start).unwrap();
    let full = solve_in_memory(model).unwrap();
    let reached = reachable(model, (l0, r0, 0), &Control::default()).unwrap();
    let mut kept = 0;
    let only = reachable(model, (l0, r0, 0), &Control::default()).unwrap();
    for (l, cells) in solve_only(model, only).unwrap().iter().enumerate() {
        for (i, &c) in cells.iter().enumerate() {
            if !reached[l].is_empty() && reached[l].get(i as u64) != 0 {
                assert_eq!(c, full[l][i]);
                kept += 1;
            } else {
                assert_eq!(c, cell::SKIPPED);
            }
        }
    }
    assert!(kept > 1000);
}

/// The two ways of propagating inside a layer (buckets of ranks per distance, sweeps of the
/// layer per distance) give the same cells, value and distance, on every position of whole
/// boards of both rule sets.
#[test]
fn buckets_and_sweeps_give_the_same_cells() {
    fn both<const P: bool>(start: &Ataxx<P>) {
        let index = AtaxxIndex::<P>::for_position(start);
        let buckets = solve_in_memory(&AtaxxModel::new(index.clone())).unwrap();
        let sweeps =
            solve_in_memory(&AtaxxModel::new(index).with_propagation(Propagation::Sweeps)).unwrap();
        assert_eq!(buckets, sweeps);
        assert!(buckets.iter().flatten().any(|&c| cell::distance(c) > 5), "long distances");
    }
    for (rows, cols) in [(3, 3), (2, 5), (3, 4)] {
        both(&Ataxx::<false>::start(rows, cols));
        both(&Ataxx::<true>::start(rows, cols));
    }
}
