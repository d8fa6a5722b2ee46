//! Random digraphs with their brute-force values: the fixtures the proof-number solvers'
//! tests (df-pn and PNS) share.

use crate::game::{Game, Outcome};
use crate::games::digraph::Digraph;
use crate::search::brute::BruteSolver;
use crate::search::{Limits, Report, Solver};
use crate::zobrist::KeyStream;

/// A random acyclic digraph: edges only to higher vertices.
pub(crate) fn acyclic(n: usize, seed: u64) -> Digraph {
    let mut s = KeyStream::new(seed ^ 0xAC1C);
    let successors = (0..n)
        .map(|v| {
            let degree = if v + 1 == n { 0 } else { s.next_key() % 4 };
            (0..degree)
                .map(|_| (v + 1 + (s.next_key() % (n - v - 1).max(1) as u64) as usize) as u8)
                .filter(|&w| (w as usize) < n)
                .collect()
        })
        .collect();
    Digraph::new(successors, 0)
}

/// A random digraph with few dead ends (1 in `terminal_one_in`) and out-degrees 1 to 3:
/// long games, many cycles, hard for the solvers.
pub(crate) fn dense(n: usize, seed: u64, terminal_one_in: u64) -> Digraph {
    let mut s = KeyStream::new(seed ^ 0xDE45E);
    let successors = (0..n)
        .map(|_| {
            let degree =
                if s.next_key().is_multiple_of(terminal_one_in) { 0 } else { 1 + s.next_key() % 3 };
            (0..degree).map(|_| (s.next_key() % n as u64) as u8).collect()
        })
        .collect();
    Digraph::new(successors, 0)
}

/// A long game: edges go 1 to 4 vertices forward (the last vertex is the only dead end),
/// and one vertex in `back_one_in` also has an edge back to a random earlier vertex.
/// Many transpositions, few and long cycles.
pub(crate) fn layered(n: usize, seed: u64, back_one_in: u64) -> Digraph {
    let mut s = KeyStream::new(seed ^ 0x1A7E);
    let successors = (0..n)
        .map(|v| {
            let mut succ = Vec::new();
            if v + 1 < n {
                for _ in 0..=s.next_key() % 3 {
                    let step = 1 + s.next_key() % 4;
                    succ.push((v as u64 + step).min(n as u64 - 1) as u8);
                }
                if v > 0 && s.next_key().is_multiple_of(back_one_in) {
                    succ.push((s.next_key() % v as u64) as u8);
                }
            }
            succ
        })
        .collect();
    Digraph::new(successors, 0)
}

/// The test positions: `cyclic` random digraphs, `acyclic` acyclic ones (4 to 14 vertices) and
/// `cyclic` dense ones (4 to 12 vertices) and `cyclic / 2` layered ones (6 to 16 vertices).
pub(crate) fn positions(cyclic: u64, acyclic_count: u64) -> Vec<Digraph> {
    let mut v: Vec<Digraph> =
        (0..cyclic).map(|seed| Digraph::random(4 + (seed % 11) as usize, seed)).collect();
    v.extend((0..acyclic_count).map(|seed| acyclic(4 + (seed % 11) as usize, seed)));
    v.extend((0..cyclic).map(|seed| dense(4 + (seed % 9) as usize, seed, 6)));
    v.extend((0..cyclic / 2).map(|seed| layered(6 + (seed % 11) as usize, seed, 5)));
    v
}

/// Brute-force outcome of `pos`.
pub(crate) fn brute(pos: &Digraph) -> Outcome {
    BruteSolver::new().solve(pos, &Limits::none()).outcome.expect("brute always finishes")
}

/// Checks `report` for `pos` against the oracle: same outcome, a best move that keeps it.
pub(crate) fn check(pos: &Digraph, expected: Outcome, report: &Report<u8>, what: &str) {
    use crate::notation::Notation;
    let text = pos.format_position();
    assert_eq!(report.outcome, Some(expected), "{what} on {text}");
    assert_eq!(report.plies, None);
    if pos.outcome().is_some() {
        assert_eq!(report.best_move, None, "{what} on {text}");
        return;
    }
    let mv = report.best_move.unwrap_or_else(|| panic!("{what}: no best move on {text}"));
    let mut child = pos.clone();
    child.play(mv);
    let after = brute(&child).flip();
    if expected == Outcome::Draw {
        assert_ne!(after, Outcome::Loss, "{what}: move {mv} loses on {text}");
    } else {
        assert_eq!(after, expected, "{what}: move {mv} on {text}");
    }
    assert!(report.stats.nodes > 0);
}
