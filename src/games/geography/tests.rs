use std::sync::Arc;

use super::generator::{below, contest_graph, random_bipartite, random_graph};
use super::*;
use crate::notation::Notation;
use crate::search::brute::BruteSolver;
use crate::search::{Limits, Solver};

/// A random small position: a random graph, the token on a random vertex, a few random moves.
fn random_position(rng: &mut KeyStream, bipartite: bool) -> Geography {
    let n = 3 + below(rng, 6) as usize;
    let percent = 25 + below(rng, 40);
    let graph = if bipartite {
        let left = 1 + below(rng, n as u64 - 1) as usize;
        random_bipartite(left, n - left, percent, rng)
    } else {
        random_graph(n, percent, rng)
    };
    let token = below(rng, n as u64) as u8;
    let mut pos = Geography::new(Arc::new(graph), token).unwrap().plain();
    for _ in 0..below(rng, 4) {
        let mut moves = GeographyMoves::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play(moves[below(rng, moves.len() as u64) as usize]);
    }
    pos
}

fn brute(pos: &Geography) -> Option<Outcome> {
    BruteSolver::new().solve(&pos.plain(), &Limits::nodes(300_000)).outcome
}

#[test]
fn notation_round_trips_and_rejects_bad_input() {
    let mut rng = KeyStream::new(1);
    for _ in 0..200 {
        let pos = random_position(&mut rng, false);
        let text = pos.format_position();
        let again = Geography::parse_position(&text).unwrap();
        assert_eq!(again.format_position(), text);
        assert_eq!(again.full_hash(), pos.full_hash(), "hash depends only on the position");
    }
    for bad in [
        "",
        "3",
        "3 0",
        "3 3 0",
        "3 0 1 0",
        "3 0 1 0 0",
        "3 0 2 0 1 1 0",
        "3 0 1 0 5",
        "3 0 1 0 1 9",
        "x 0 0",
        "200 0 0",
        "3 0 1 0 -1",
    ] {
        assert!(Geography::parse_position(bad).is_err(), "{bad}");
    }
    let err = Geography::parse_position("3 0 1 0 x").unwrap_err();
    assert_eq!((err.line, err.column), (1, 9));
    let pos = Geography::parse_position("3 0 2 0 1 1 2").unwrap();
    assert!(pos.parse_move("2").is_err());
    assert_eq!(pos.parse_move("1"), Ok(1));
}

#[test]
fn incremental_hash_equals_hash_from_scratch() {
    let mut rng = KeyStream::new(2);
    for seed in 0..20 {
        let mut pos = Geography::contest_start(if seed % 2 == 0 { 100 } else { 16 }, seed).unwrap();
        while pos.plain().outcome().is_none() {
            let mut moves = GeographyMoves::new();
            pos.generate_moves(&mut moves);
            pos.play(moves[below(&mut rng, moves.len() as u64) as usize]);
            assert_eq!(pos.full_hash(), pos.hash_from_scratch());
            assert_eq!(pos.plain().hash(), pos.full_hash());
            let inside = reductions::edges_hash(&pos, pos.component());
            assert_eq!(pos.hash(), inside ^ graph::token_key(pos.token()));
            assert_eq!(pos.component(), reductions::component_of(&pos));
        }
    }
}

#[test]
fn contest_graphs_have_the_contest_shape() {
    for seed in 0..20 {
        let n = [32, 100, 128, 8][seed as usize % 4];
        let g = contest_graph(n, seed).unwrap();
        assert!(g.is_connected());
        for v in 0..n as u8 {
            let d = g.incident(v).len();
            assert!(d <= 7, "degree {d}");
        }
        let sum: usize = (0..n as u8).map(|v| g.incident(v).len()).sum();
        assert_eq!(sum, 2 * g.edges().len());
        // Degrees are the targets (3..7) except for at most one vertex short of its target.
        let low = (0..n as u8).filter(|&v| g.incident(v).len() < 3).count();
        assert!(low <= 1, "{low} vertices below degree 3");
        assert_eq!(contest_graph(n, seed).unwrap(), g, "reproducible from the seed");
    }
    assert!(contest_graph(4, 1).is_err());
    assert!(contest_graph(129, 1).is_err());
}

#[test]
fn component_hash_ignores_unreachable_edges() {
    // Token on 0 in 0-1; a separate edge 2-3 is removed in one position only.
    let a = Geography::parse_position("4 0 2 0 1 2 3").unwrap();
    let b = Geography::parse_position("4 0 1 0 1").unwrap();
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.full_hash(), b.full_hash());
}

#[test]
fn immediate_win_rule_agrees_with_brute_force() {
    let mut rng = KeyStream::new(3);
    let mut decided = 0;
    for _ in 0..1500 {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::IMMEDIATE_WIN);
        if let (Some(o), Some(truth)) = (pos.outcome(), brute(&pos)) {
            assert_eq!(o, truth, "{}", pos.format_position());
            decided += 1;
        }
    }
    assert!(decided > 150, "only {decided} decided");
}

#[test]
fn bipartite_rule_agrees_with_brute_force() {
    let mut rng = KeyStream::new(4);
    let mut counts = [0usize; 3];
    for i in 0..1500 {
        let pos = random_position(&mut rng, i % 4 != 0).with_reductions(Reductions::BIPARTITE);
        let Some(truth) = brute(&pos) else { continue };
        match reductions::bipartite_outcome(&pos) {
            Some(o) => {
                assert_eq!(o, truth, "{}", pos.format_position());
                counts[o as usize] += 1;
            }
            None => counts[1] += 1,
        }
    }
    assert!(counts[0] > 100 && counts[2] > 100, "loss/undecided/win {counts:?}");
}

#[test]
fn decisive_move_wins() {
    let mut rng = KeyStream::new(5);
    for _ in 0..400 {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::ALL);
        if pos.outcome() == Some(Outcome::Win) {
            let mv = pos.decisive_move().expect("a decided win has a decisive move");
            let mut child = pos.plain();
            child.play(mv);
            let truth = brute(&child);
            assert!(truth.is_none_or(|o| o == Outcome::Loss), "{}", pos.format_position());
        }
    }
}
