use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::game::Game;
use crate::games::ataxx::{AtaxxPolish, AtaxxStandard};
use crate::games::digraph::Digraph;
use crate::notation::Notation;
use crate::search::{Limits, SolverKind, SolverOptions, Value, make_solver};
use crate::zobrist::KeyStream;

impl Evaluate for Digraph {
    fn evaluate(&self) -> i32 {
        0
    }
}

fn search<G: Evaluate>(pos: &G, history: &[u64], limits: &SearchLimits) -> SearchResult<G::Move> {
    Engine::<G>::new(&EngineOptions::default()).search(pos, history, limits, &mut |_| {})
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits { depth: Some(d), ..SearchLimits::default() }
}

/// A position reached by `plies` random legal moves from `start` (fewer if the game ends).
fn random_position<G: Game>(start: &G, plies: u32, rng: &mut KeyStream) -> G {
    let mut pos = start.clone();
    for _ in 0..plies {
        let mut moves = G::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_key() % moves.len() as u64) as usize];
        pos.play(mv);
    }
    pos
}

fn is_legal<G: Game>(pos: &G, mv: G::Move) -> bool {
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    moves.contains(&mv)
}

#[test]
fn finds_a_forced_win_on_a_small_graph() {
    // 0 -> 1 -> (2 stuck): moving to 1 leaves the opponent a move to 2, after which we are
    // stuck; moving to 3 (no successors) wins at once.
    let pos = Digraph::parse_position("0|1 3;2;;;").unwrap();
    let result = search(&pos, &[], &depth(4));
    assert_eq!(pos.format_move(result.best_move.unwrap()), "3");
    assert_eq!(mate_distance(result.info.score), Some(1));
}

#[test]
fn repetition_is_a_draw_on_the_path_and_in_the_history() {
    // A pure cycle: play goes round forever.
    let cycle = Digraph::parse_position("0|1;0").unwrap();
    let result = search(&cycle, &[], &depth(8));
    assert_eq!(result.info.score, 0);
    // 0 -> 1 -> 2 -> 3 (stuck): a win in 3, unless reaching 2 repeats the game's history; 0 -> 4
    // -> 5 -> 5 ... is a draw.
    let line = Digraph::parse_position("0|1 4;2;3;;5;5;").unwrap();
    assert_eq!(mate_distance(search(&line, &[], &depth(8)).info.score), Some(3));
    let at_two = Digraph::parse_position("2|1 4;2;3;;5;5;").unwrap();
    let result = search(&line, &[at_two.hash()], &depth(8));
    assert_eq!(result.info.score, 0);
}

/// Mate distances agree with the exact alpha-beta solver on random small-board positions
/// whose value is a short win or loss.
#[test]
fn mate_distances_match_the_exact_solver_on_small_boards() {
    let mut rng = KeyStream::new(0xE61E);
    let mut solver = make_solver::<AtaxxStandard>(SolverKind::Alphabeta, &SolverOptions::default());
    let mut checked = 0;
    for attempt in 0..160 {
        let (w, h) = [(3, 3), (3, 4), (4, 4), (4, 3)][attempt % 4];
        let pos = random_position(&AtaxxStandard::start(w, h), 2 + (attempt % 9) as u32, &mut rng);
        if pos.outcome().is_some() {
            continue;
        }
        let report = solver.solve(&pos, &Limits::nodes(200_000));
        let expected = match report.value() {
            Some(Value::Win(d)) if d <= 9 => d.cast_signed(),
            Some(Value::Loss(d)) if d <= 9 => -d.cast_signed(),
            _ => continue,
        };
        let result = search(&pos, &[], &depth(24));
        assert_eq!(
            mate_distance(result.info.score),
            Some(expected),
            "position {} (engine pv {:?})",
            pos.format_position(),
            result.info.pv
        );
        if expected > 0 {
            let mut child = pos.clone();
            child.play(result.best_move.unwrap());
            let after = solver.solve(&child, &Limits::nodes(200_000)).value();
            assert_eq!(after, Some(Value::Loss(expected.unsigned_abs() - 1)));
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} positions checked");
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = KeyStream::new(7);
    for i in 0..60u32 {
        let budget = [1, 300, 3000][i as usize % 3];
        let limits = SearchLimits { nodes: Some(budget), ..SearchLimits::default() };
        if i % 2 == 0 {
            let pos = random_position(&AtaxxStandard::startpos(), i * 2, &mut rng);
            let result = search(&pos, &[], &limits);
            match result.best_move {
                Some(mv) => assert!(is_legal(&pos, mv), "{mv} in {}", pos.format_position()),
                None => assert!(pos.outcome().is_some()),
            }
        } else {
            let pos = random_position(&AtaxxPolish::start(5 + i % 3, 5 + i % 3), i, &mut rng);
            let result = search(&pos, &[], &limits);
            match result.best_move {
                Some(mv) => assert!(is_legal(&pos, mv), "{mv} in {}", pos.format_position()),
                None => assert!(pos.outcome().is_some()),
            }
        }
    }
}

#[test]
fn hard_time_is_respected() {
    let pos = AtaxxStandard::startpos();
    let limits =
        SearchLimits { hard_time: Some(Duration::from_millis(50)), ..SearchLimits::default() };
    let start = Instant::now();
    let result = search(&pos, &[], &limits);
    // Generous: the machine may be loaded; the point is that the search does stop.
    assert!(start.elapsed() < Duration::from_secs(1), "took {:?}", start.elapsed());
    assert!(is_legal(&pos, result.best_move.unwrap()));
}

#[test]
fn stop_flag_works_from_another_thread() {
    let pos = AtaxxStandard::startpos();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = SearchLimits { stop: Some(Arc::clone(&stop)), ..SearchLimits::default() };
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::Relaxed);
        });
        search(&pos, &[], &limits)
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(is_legal(&pos, result.best_move.unwrap()));
}

#[test]
fn two_threads_search_and_agree_on_proven_results() {
    let options = EngineOptions { threads: 2, hash_mib: 4, eval_cache: false };
    let mut engine = Engine::<AtaxxStandard>::new(&options);
    let pos = AtaxxStandard::startpos();
    let mut iterations = 0;
    let result = engine.search(&pos, &[], &depth(5), &mut |_| iterations += 1);
    assert_eq!(iterations, 5);
    assert!(is_legal(&pos, result.best_move.unwrap()));
    // 4x4 from the start: a first-player win in 3 plies (README).
    let small = AtaxxStandard::start(4, 4);
    engine.clear();
    let result = engine.search(&small, &[], &depth(12), &mut |_| {});
    assert_eq!(mate_distance(result.info.score), Some(3));
}

#[test]
fn info_is_reported_per_iteration_with_a_legal_pv() {
    let pos = AtaxxPolish::startpos();
    let mut engine = Engine::<AtaxxPolish>::new(&EngineOptions::default());
    let mut depths = Vec::new();
    let result = engine.search(&pos, &[], &depth(4), &mut |info| {
        depths.push(info.depth);
        let mut p = pos.clone();
        for &mv in &info.pv {
            assert!(is_legal(&p, mv));
            p.play(mv);
        }
        assert!(!info.pv.is_empty() && info.pv.len() <= info.depth as usize);
    });
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(result.info.depth, 4);
    assert_eq!(result.best_move, result.info.pv.first().copied());
}
