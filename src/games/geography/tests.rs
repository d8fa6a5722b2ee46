use std::sync::Arc;

use std::collections::HashMap;

use super::generator::{
    below, contest_graph, random_bipartite, random_chains, random_graph, random_sparse,
};
use super::graph::Graph;
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
    start_with_random_moves(graph, token, rng)
}

/// The plain position on `graph` with the token on `token`, after up to 3 random moves.
fn start_with_random_moves(graph: Graph, token: u8, rng: &mut KeyStream) -> Geography {
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
        let mut pos = Geography::contest_start(if seed % 2 == 0 { 100 } else { 16 }, seed)
            .unwrap()
            .with_reductions(Reductions::ALL);
        while pos.plain().outcome().is_none() {
            let mut moves = GeographyMoves::new();
            pos.generate_moves(&mut moves);
            pos.play(moves[below(&mut rng, moves.len() as u64) as usize]);
            assert_eq!(pos.full_hash(), pos.hash_from_scratch());
            assert_eq!(pos.plain().hash(), pos.full_hash());
            let inside = reductions::edges_hash(&pos, pos.component());
            assert_eq!(pos.component_hash(), inside ^ graph::token_key(pos.token()));
            let basic = pos.clone().with_reductions(Reductions::BASIC);
            assert_eq!(basic.hash(), pos.component_hash());
            if pos.outcome().is_none() {
                assert_eq!(pos.hash(), reductions::canonical_hash(&pos));
            }
            let n = pos.graph().vertex_count() as u8;
            let two = (0..n).filter(|&v| pos.degree(v) == 2).fold(0u128, |m, v| m | 1 << v);
            assert_eq!(pos.degree_two().0, two);
            let inside = reductions::edge_count(&pos, pos.component());
            assert_eq!(pos.component_edge_count(), inside);
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

/// A random small graph with bridges and chains: sparse (tree plus a few edges), chain-rich
/// (hubs joined by paths) or uniform, by `kind % 3`.
fn structured_graph(rng: &mut KeyStream, kind: u64) -> Graph {
    match kind % 3 {
        0 => {
            let n = 4 + below(rng, 9) as usize;
            random_sparse(n, below(rng, 4) as usize, rng)
        }
        1 => random_chains(2 + below(rng, 3) as usize, 2 + below(rng, 4) as usize, rng),
        _ => random_graph(3 + below(rng, 5) as usize, 30 + below(rng, 30), rng),
    }
}

/// A random position on a [`structured_graph`]: a random token and up to 3 random moves.
fn structured_position(rng: &mut KeyStream, kind: u64) -> Geography {
    let graph = structured_graph(rng, kind);
    let token = below(rng, graph.vertex_count() as u64) as u8;
    start_with_random_moves(graph, token, rng)
}

/// Whether the mover wins, by plain memoised negamax keyed by the full hash (an oracle
/// independent of the solvers and of every reduction).
fn oracle(pos: &Geography, memo: &mut HashMap<u64, bool>) -> bool {
    let plain = pos.plain();
    if let Some(&v) = memo.get(&plain.full_hash()) {
        return v;
    }
    let mut moves = GeographyMoves::new();
    plain.generate_moves(&mut moves);
    let win = moves.iter().any(|&mv| {
        let mut child = plain.clone();
        child.play(mv);
        !oracle(&child, memo)
    });
    memo.insert(plain.full_hash(), win);
    win
}

/// Every position reachable from `start` (at most `cap`), each once.
fn reachable(start: &Geography, cap: usize) -> Vec<Geography> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start.plain()];
    let mut out = Vec::new();
    while let Some(pos) = stack.pop() {
        if out.len() >= cap || !seen.insert(pos.full_hash()) {
            continue;
        }
        let mut moves = GeographyMoves::new();
        pos.generate_moves(&mut moves);
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            stack.push(child);
        }
        out.push(pos);
    }
    out
}

/// `pos` with the bridge gadgets applied by hand: every far side of [`reductions::small_far_sides`]
/// is solved by the oracle on a graph of its own and replaced by no edge (mover at the entry
/// loses) or the entry's edge to its lowest far neighbour (mover wins). Also returns how many
/// far sides there were.
fn apply_gadgets(pos: &Geography, memo: &mut HashMap<u64, bool>) -> (Geography, usize) {
    let n = pos.graph().vertex_count();
    let sides = reductions::small_far_sides(pos, subgame::SUBGAME_EDGE_LIMIT);
    let mut edges = pos.remaining_edges();
    for side in &sides {
        let inside = |&(a, b): &(u8, u8)| {
            side.vertices.contains(u32::from(a)) && side.vertices.contains(u32::from(b))
        };
        let far: Vec<(u8, u8)> = edges.iter().copied().filter(inside).collect();
        assert_eq!(far.len() as u32, side.edges);
        let sub = Geography::new(Arc::new(Graph::new(n, &far).unwrap()), side.entry).unwrap();
        let win = oracle(&sub, memo);
        let y = pos.neighbours(side.entry).intersection(side.vertices).first().unwrap() as u8;
        edges.retain(|e| !inside(e) || (win && (*e == (side.entry, y) || *e == (y, side.entry))));
    }
    let graph = Graph::new(n, &edges).unwrap();
    (Geography::new(Arc::new(graph), pos.token()).unwrap().plain(), sides.len())
}

#[test]
fn bridge_reduction_agrees_with_brute_force() {
    let mut rng = KeyStream::new(6);
    let mut memo = HashMap::new();
    let (mut sides, mut decided) = (0, 0);
    for i in 0..3000 {
        let pos = structured_position(&mut rng, i).with_reductions(Reductions::BRIDGES);
        let truth = oracle(&pos, &mut memo);
        // The hash is the component hash of a real position of equal value: the gadgets.
        let (gadgets, count) = apply_gadgets(&pos, &mut memo);
        sides += count;
        let text = pos.format_position();
        assert_eq!(oracle(&gadgets, &mut memo), truth, "gadgets of {text}");
        if pos.outcome().is_none() {
            assert_eq!(pos.hash(), gadgets.component_hash(), "{text}");
        }
        // A decided position (its component a cached far side, or the game over) is right, and
        // so is every child, which the crossing moves decide from the cache.
        let mut moves = GeographyMoves::new();
        pos.generate_moves(&mut moves);
        for child in moves.iter().map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            child
        }) {
            if let Some(o) = child.outcome() {
                let win = oracle(&child, &mut memo);
                assert_eq!(o == Outcome::Win, win, "{}", child.format_position());
                decided += usize::from(child.degree(child.token()) > 0);
            }
        }
    }
    assert!(sides > 300, "only {sides} far sides");
    assert!(decided > 300, "only {decided} decided by the cache");
}

/// The bridge reduction's cache and scan limit belong to the position: a position gets a
/// context with the reduction and passes it to its children, the plain game has none, a fresh
/// context gives the same outcome and hash as another fresh one, and a warm shared cache or a
/// context that scans nothing never contradicts it (a warm cache may decide more positions).
#[test]
fn bridge_context_is_owned_by_the_position() {
    let mut rng = KeyStream::new(61);
    let shared = Arc::new(BridgeContext::default());
    let (mut reduced, mut compared) = (0, 0);
    for i in 0..400 {
        let base = structured_position(&mut rng, i);
        assert!(base.bridge_context().is_none());
        let pos = base.clone().with_reductions(Reductions::BRIDGES);
        let own = pos.bridge_context().expect("the reduction brings a context");
        assert!(pos.plain().bridge_context().is_none());
        assert_eq!(own.scan_edge_limit(), reductions::BRIDGE_SCAN_EDGE_LIMIT);
        let warm = base.clone().with_bridge_context(shared.clone());
        let cold = base.clone().with_bridge_context(Arc::new(BridgeContext::default()));
        let unscanned = base.clone().with_bridge_context(Arc::new(BridgeContext::new(0)));
        assert_eq!(warm.reductions(), base.reductions().with(Reductions::BRIDGES));
        let text = pos.format_position();
        assert_eq!((cold.outcome(), cold.hash()), (pos.outcome(), pos.hash()), "{text}");
        for other in [&warm, &unscanned] {
            if let (Some(a), Some(b)) = (other.outcome(), pos.outcome()) {
                assert_eq!(a, b, "{text}");
            }
        }
        if pos.outcome().is_none() && unscanned.outcome().is_none() {
            compared += 1;
            reduced += usize::from(unscanned.hash() != pos.hash());
        }
        let mut moves = GeographyMoves::new();
        warm.generate_moves(&mut moves);
        if let Some(&mv) = moves.first() {
            let mut child = warm.clone();
            child.play(mv);
            assert!(Arc::ptr_eq(child.bridge_context().unwrap(), &shared));
        }
    }
    assert!(compared > 100 && reduced > 10, "{compared} compared, {reduced} reduced");
}

/// Checks that positions of equal hash under `reductions` have equal values, on every
/// position reachable from `starts` random structured starts; returns (positions, hashes that
/// merge positions of different components).
fn equal_hash_equal_value(reductions: Reductions, seed: u64, starts: u64) -> (usize, usize) {
    let mut rng = KeyStream::new(seed);
    let mut memo = HashMap::new();
    let (mut positions, mut merges) = (0, 0);
    for i in 0..starts {
        let graph = Arc::new(structured_graph(&mut rng, i));
        let token = below(&mut rng, graph.vertex_count() as u64) as u8;
        let start = Geography::new(graph, token).unwrap();
        let mut classes: HashMap<u64, (bool, u64)> = HashMap::new();
        for pos in reachable(&start, 4000) {
            let pos = pos.with_reductions(reductions);
            let win = oracle(&pos, &mut memo);
            if let Some(o) = pos.outcome() {
                assert_eq!(o == Outcome::Win, win, "{}", pos.format_position());
            }
            positions += 1;
            match classes.get(&pos.hash()) {
                Some(&(v, component)) => {
                    assert_eq!(v, win, "hash class of {}", pos.format_position());
                    merges += usize::from(component != pos.component_hash());
                }
                None => {
                    classes.insert(pos.hash(), (win, pos.component_hash()));
                }
            }
        }
    }
    (positions, merges)
}

#[test]
fn chain_hash_merges_only_equal_values() {
    let (positions, merges) = equal_hash_equal_value(Reductions::CHAINS, 7, 300);
    assert!(positions > 10_000 && merges > 500, "{positions} positions, {merges} merges");
}

#[test]
fn bridge_hash_merges_only_equal_values() {
    let (positions, merges) = equal_hash_equal_value(Reductions::BRIDGES, 8, 300);
    assert!(positions > 10_000 && merges > 100, "{positions} positions, {merges} merges");
}

#[test]
fn all_reductions_merge_only_equal_values() {
    all_reductions_merge_only_equal_values_on(100, 3_000, 50);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn all_reductions_merge_only_equal_values_deep() {
    all_reductions_merge_only_equal_values_on(300, 10_000, 500);
}

/// The check of `all_reductions_merge_only_equal_values` from `starts` random starts, which
/// must visit more than `least` positions and merge more than `least_merges` (merges grow
/// faster than the starts: 92 from 100 starts, over 500 from 300).
fn all_reductions_merge_only_equal_values_on(starts: u64, least: usize, least_merges: usize) {
    let (positions, merges) = equal_hash_equal_value(Reductions::ALL, 9, starts);
    assert!(positions > least && merges > least_merges, "{positions} positions, {merges} merges");
}

#[test]
#[ignore = "heavy: cargo test --release -- --ignored"]
fn hash_reductions_merge_only_equal_values_heavy() {
    for (i, r) in [Reductions::CHAINS, Reductions::BRIDGES, Reductions::ALL].into_iter().enumerate()
    {
        let (positions, merges) = equal_hash_equal_value(r, 100 + i as u64, 5000);
        eprintln!("{r:?}: {positions} positions, {merges} merges");
    }
}

#[test]
fn trap_hash_merges_only_equal_values() {
    let traps = Reductions::BASIC.with(Reductions::TRAPS);
    let (positions, merges) = equal_hash_equal_value(traps, 31, 300);
    assert!(positions > 5_000 && merges > 500, "{positions} positions, {merges} merges");
    let every = Reductions::ALL.with(Reductions::TRAPS).with(Reductions::PARITY_SET);
    let (positions, merges) = equal_hash_equal_value(every.with(Reductions::PARITY_WIN), 32, 300);
    assert!(positions > 5_000 && merges > 500, "{positions} positions, {merges} merges");
}

/// A [`structured_position`] for even `i`, a [`random_position`] for odd `i`.
fn mixed_position(rng: &mut KeyStream, i: u64) -> Geography {
    if i.is_multiple_of(2) { structured_position(rng, i) } else { random_position(rng, false) }
}

/// Asserts that the moves `kept` of `pos` alone decide it: one of them wins iff `truth` does.
fn assert_kept_moves_decide(pos: &Geography, kept: &GeographyMoves, truth: Outcome) {
    let win = kept.iter().any(|&w| {
        let mut child = pos.plain();
        child.play(w);
        brute(&child) == Some(Outcome::Loss)
    });
    assert_eq!(win, truth == Outcome::Win, "{}", pos.format_position());
}

#[test]
fn traps_decide_and_prune_like_brute_force() {
    traps_decide_and_prune_like_brute_force_on(1000);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn traps_decide_and_prune_like_brute_force_deep() {
    traps_decide_and_prune_like_brute_force_on(3000);
}

/// The check of `traps_decide_and_prune_like_brute_force` on `count` samples.
fn traps_decide_and_prune_like_brute_force_on(count: u64) {
    let mut rng = KeyStream::new(33);
    let (mut pruned, mut decided, mut dropped) = (0, 0, 0);
    for i in 0..count {
        let base = mixed_position(&mut rng, i);
        let flags = [
            Reductions::TRAPS,
            Reductions::BASIC.with(Reductions::TRAPS),
            Reductions::BASIC.with(Reductions::TRAPS).with(Reductions::PARITY_SET),
        ][(i % 3) as usize];
        let pos = base.with_reductions(flags);
        let Some(truth) = brute(&pos) else { continue };
        if let Some(o) = pos.outcome() {
            assert_eq!(o, truth, "{}", pos.format_position());
            decided += 1;
            continue;
        }
        let traps = reductions::traps(&pos.rows, pos.token, pos.component.0);
        assert_eq!(traps, pos.traps, "the kept leaf set finds every trap");
        dropped += usize::from(traps != 0);
        let mut kept = GeographyMoves::new();
        pos.generate_moves(&mut kept);
        assert!(!kept.is_empty(), "{}", pos.format_position());
        for w in pos.neighbours(pos.token) {
            let w = w as u8;
            if kept.contains(&w) {
                continue;
            }
            // A move left out enters a trap: the opponent wins at once.
            assert!(traps >> w & 1 == 1);
            let mut child = pos.plain();
            child.play(w);
            assert_eq!(brute(&child), Some(Outcome::Win), "{} -> {w}", pos.format_position());
            pruned += 1;
        }
        // The kept moves alone decide the position.
        assert_kept_moves_decide(&pos, &kept, truth);
    }
    let n = count as usize;
    assert!(
        pruned * 30 > n && decided * 10 > n && dropped * 30 > n,
        "{pruned} {decided} {dropped} of {n}"
    );
}

#[test]
fn the_settled_memo_changes_nothing() {
    let mut rng = KeyStream::new(34);
    let every = Reductions::BASIC
        .with(Reductions::TRAPS)
        .with(Reductions::PARITY_SET)
        .with(Reductions::PARITY_WIN)
        .with(Reductions::PARITY_DEEP)
        .with(Reductions::CHAINS);
    // Then the same with the pendant pieces, which take the traps' place in the update.
    for flags in [every, every.with(Reductions::PIECES)] {
        let mut hits = 0;
        for i in 0..2000 {
            let pos = structured_position(&mut rng, i).with_reductions(flags);
            let mut again = pos.clone();
            again.find_traps_and_settle();
            assert_eq!(
                (pos.traps, pos.decided, pos.canonical),
                (again.traps, again.decided, again.canonical),
                "{}",
                pos.format_position()
            );
            let key = pos.memo_key();
            hits += usize::from(caches::settled_lookup(key).is_some());
        }
        assert!(hits > 1000, "{hits} positions found in the memo");
    }
}

#[test]
fn the_shared_settled_table_gives_back_what_was_settled() {
    the_shared_settled_table_gives_back_what_was_settled_on(700);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn the_shared_settled_table_gives_back_what_was_settled_deep() {
    the_shared_settled_table_gives_back_what_was_settled_on(2000);
}

/// The check of `the_shared_settled_table_gives_back_what_was_settled` on `count` samples.
fn the_shared_settled_table_gives_back_what_was_settled_on(count: u64) {
    let mut rng = KeyStream::new(35);
    let flags = Reductions::BASIC
        .with(Reductions::TRAPS)
        .with(Reductions::PARITY_SET)
        .with(Reductions::PARITY_WIN)
        .with(Reductions::PARITY_DEEP);
    let (mut found, mut with_traps) = (0, 0);
    for i in 0..count {
        let pos = structured_position(&mut rng, i).with_reductions_and_shared_table(flags);
        let key = pos.memo_key();
        // Settled by `with_reductions_and_shared_table`; another thread would find it so.
        let Some(shared) = pos.root.caches.shared_lookup(key) else { continue };
        found += 1;
        with_traps += usize::from(pos.traps != 0);
        assert_eq!(shared, (pos.decided, pos.canonical, pos.parity_numbers));
        // Another thread (its own memo empty) takes it from the shared table: the same
        // traps (found again), result, canonical hash and numbers.
        let fresh = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let mut fresh = pos.clone();
                    fresh.refresh(None);
                    fresh
                })
                .join()
                .expect("no panic")
        });
        assert_eq!(
            (fresh.traps, fresh.decided, fresh.canonical, fresh.parity_numbers),
            (pos.traps, pos.decided, pos.canonical, pos.parity_numbers)
        );
        // Another root has its own table (each solve is cold), and its memo keys differ.
        let other = pos.clone().with_reductions_and_shared_table(flags);
        assert_ne!(other.memo_key(), key);
        assert_eq!(other.root.caches.shared_lookup(key), None);
        // A slot half overwritten reads as empty.
        if other.root.caches.shared_lookup(other.memo_key()).is_some() {
            other.root.caches.tear_shared(other.memo_key());
            assert_eq!(other.root.caches.shared_lookup(other.memo_key()), None);
        }
    }
    let n = count as usize;
    assert!(found * 4 > n * 3 && with_traps * 20 > n, "{found} found, {with_traps} with traps");
}

#[test]
fn a_part_cut_off_behind_a_trap_takes_its_edges_out_of_the_view() {
    // 1 is a trap (beside the leaf 6); dropping it cuts off the triangle 2-3-4 with its three
    // edges, so the view is the triangle 0-7-8 alone, hashed and counted as such.
    let pos = Geography::parse_position("9 0 9 0 1 1 6 1 2 2 3 3 4 2 4 0 7 7 8 8 0")
        .unwrap()
        .with_reductions(Reductions::BASIC.with(Reductions::TRAPS));
    assert_eq!(pos.traps, 1 << 1);
    let view = pos.without_traps();
    assert_eq!(view.component.0, 1 << 0 | 1 << 7 | 1 << 8);
    let triangle = Geography::parse_position("9 0 3 0 7 7 8 8 0").unwrap();
    assert_eq!(view.component_hash(), triangle.full_hash());
    assert_eq!(view.component_edge_count(), 3);
}

#[test]
fn traps_cascade_along_a_path() {
    // A path 0-1-2-3-4-5 with the token on 0: 4 is next to the leaf 5, so 4 is a trap; then
    // 3 is a leaf, so 2 is a trap too; 1 is then a leaf next to the token, an immediate win.
    let pos = Geography::parse_position("6 0 5 0 1 1 2 2 3 3 4 4 5")
        .unwrap()
        .with_reductions(Reductions::TRAPS.with(Reductions::IMMEDIATE_WIN));
    assert_eq!(reductions::traps(&pos.rows, 0, pos.component.0), 1 << 2 | 1 << 4);
    assert_eq!(pos.outcome(), Some(Outcome::Win));
    assert_eq!(brute(&pos), Some(Outcome::Win));
}

#[test]
fn pieces_decide_and_prune_like_brute_force() {
    pieces_decide_and_prune_like_brute_force_on(2000);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn pieces_decide_and_prune_like_brute_force_deep() {
    pieces_decide_and_prune_like_brute_force_on(6000);
}

/// The check of `pieces_decide_and_prune_like_brute_force` on `count` samples.
fn pieces_decide_and_prune_like_brute_force_on(count: u64) {
    let mut rng = KeyStream::new(35);
    let (mut decided, mut dropped) = (0, 0);
    for i in 0..count {
        let base = mixed_position(&mut rng, i);
        let flags = [
            Reductions::PIECES,
            Reductions::BASIC.with(Reductions::PIECES),
            Reductions::BASIC.with(Reductions::TRAPS).with(Reductions::PIECES),
            Reductions::BASIC
                .with(Reductions::TRAPS)
                .with(Reductions::PIECES)
                .with(Reductions::PARITY_SET),
        ][(i % 4) as usize];
        let pos = base.with_reductions(flags);
        let Some(truth) = brute(&pos) else { continue };
        if let Some(o) = pos.outcome() {
            assert_eq!(o, truth, "{}", pos.format_position());
            decided += 1;
            continue;
        }
        dropped += usize::from(pos.traps != 0);
        let mut kept = GeographyMoves::new();
        pos.generate_moves(&mut kept);
        assert!(!kept.is_empty(), "{}", pos.format_position());
        // The moves kept (none into a dropped piece or a hot vertex) alone decide the position.
        assert_kept_moves_decide(&pos, &kept, truth);
    }
    // Small graphs are mostly decided by the pieces at once; some keep a dropped part.
    let n = count as usize;
    assert!(decided * 2 > n && dropped * 40 > n, "{decided} decided, {dropped} with drops");
}

#[test]
fn piece_hash_merges_only_equal_values() {
    piece_hash_merges_only_equal_values_on(100);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn piece_hash_merges_only_equal_values_deep() {
    piece_hash_merges_only_equal_values_on(300);
}

/// The check of `piece_hash_merges_only_equal_values` from `starts` random starts.
fn piece_hash_merges_only_equal_values_on(starts: u64) {
    let n = starts as usize;
    let pieces = Reductions::BASIC.with(Reductions::PIECES);
    let (positions, merges) = equal_hash_equal_value(pieces, 36, starts);
    assert!(positions * 3 > n * 50 && merges * 3 > n * 5, "{positions} positions, {merges} merges");
    let every = Reductions::ALL
        .with(Reductions::TRAPS)
        .with(Reductions::PIECES)
        .with(Reductions::PARITY_SET);
    let (positions, merges) = equal_hash_equal_value(every, 37, starts);
    assert!(positions * 3 > n * 50 && merges * 3 > n * 5, "{positions} positions, {merges} merges");
}

#[test]
fn hanging_cycles_are_dropped_or_make_their_vertex_hot() {
    let parse = |text| {
        Geography::parse_position(text)
            .unwrap()
            .with_reductions(Reductions::PIECES.with(Reductions::IMMEDIATE_WIN))
    };
    // An even cycle 1-2-3-4 hangs at 1: entering it comes back to 1 with the same mover, so it
    // is dropped; then 1 is a leaf next to the token: the mover wins.
    let even = parse("7 0 7 0 1 1 2 2 3 3 4 4 1 0 5 5 6");
    let mut rows = even.rows;
    assert_eq!(reductions::pieces(&mut rows, 0).dropped, 0b11100);
    assert_eq!(even.outcome(), Some(Outcome::Win));
    assert_eq!(brute(&even), Some(Outcome::Win));
    // An odd cycle 1-2-3 hanging at 1 is a pass (whoever enters it hands the move back at 1):
    // left alone. The piece 1-2-3 at the token loses for the one entering it, and so does the
    // path 0-5-6: both are dropped, and the mover, stuck, loses.
    let odd = parse("7 0 6 0 1 1 2 2 3 3 1 0 5 5 6");
    let mut rows = odd.rows;
    assert_eq!(reductions::pieces(&mut rows, 0).dropped, 0b10_1110);
    assert_eq!(odd.outcome(), Some(Outcome::Loss));
    assert_eq!(brute(&odd), Some(Outcome::Loss));
    // A pass next to another: 0 holds two hanging triangles. The mover loses (the opponent
    // answers a pass with the other), so neither triangle may make 0 a win.
    let passes = parse("8 0 6 0 2 2 3 3 0 0 4 4 5 5 0");
    assert_ne!(passes.outcome(), Some(Outcome::Win));
    assert_eq!(brute(&passes), Some(Outcome::Loss));
    // A triangle 1-2-3 with a leaf 4 at 2 hangs at 1: whoever enters it wins (1 -> 3 -> 2 -> 4),
    // so 1 is hot; the path 0-5-6 is dropped too, and the mover loses.
    let hot = parse("7 0 7 0 1 1 2 1 3 2 3 2 4 0 5 5 6");
    assert_eq!(hot.outcome(), Some(Outcome::Loss));
    assert_eq!(brute(&hot), Some(Outcome::Loss));
    assert_ne!(hot.traps & 0b10, 0, "1 is hot");
}

#[test]
fn forced_chains_of_equal_parity_hash_alike() {
    // Token on 0; 0 and 1 joined by a direct edge, and by a chain of length 2 or 4.
    let parse = |text| Geography::parse_position(text).unwrap().with_reductions(Reductions::CHAINS);
    let short = parse("7 0 3 0 1 0 2 2 1");
    let long = parse("7 0 5 0 1 0 3 3 4 4 5 5 1");
    let odd = parse("7 0 4 0 1 0 3 3 4 4 1");
    assert_eq!(short.hash(), long.hash());
    assert_ne!(short.hash(), odd.hash());
    assert_ne!(short.component_hash(), long.component_hash());
}

/// The search guidance flags and the two-ply rule (added for the reach of issue 16).
const GUIDANCE: Reductions = Reductions::BASIC
    .with(Reductions::ORDERING)
    .with(Reductions::PN_HINT)
    .with(Reductions::PN_GUESS);

/// [`GUIDANCE`] with the parity rules (set, win, three-move) and the leaf traps.
const GUIDED_DEEP: Reductions = GUIDANCE
    .with(Reductions::PARITY_SET)
    .with(Reductions::PARITY_WIN)
    .with(Reductions::PARITY_DEEP)
    .with(Reductions::TRAPS);

#[test]
fn two_ply_rule_agrees_with_brute_force() {
    let mut rng = KeyStream::new(21);
    let mut decided = [0usize; 3];
    for _ in 0..1500 {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::TWO_PLY);
        if let (Some(o), Some(truth)) = (pos.outcome(), brute(&pos)) {
            assert_eq!(o, truth, "{}", pos.format_position());
            decided[o as usize] += 1;
        }
    }
    assert!(decided[0] > 50 && decided[2] > 50, "loss/-/win {decided:?}");
}

#[test]
fn safe_replies_match_the_children() {
    let mut rng = KeyStream::new(22);
    for _ in 0..3000 {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::IMMEDIATE_WIN);
        let mut moves = GeographyMoves::new();
        pos.generate_moves(&mut moves);
        let (mut safe, mut wins) = (0, false);
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            if child.neighbours(child.token()).is_empty() {
                wins = true;
            } else if child.outcome() != Some(Outcome::Win) {
                safe += 1;
            }
            // The same count seen from the parent, with the edge still there.
            let t = pos.token();
            let from_parent = pos.safe_replies(mv, t, mv);
            let from_child = child.safe_replies(mv, 0, 0);
            assert_eq!(from_parent, from_child, "{} move {mv}", pos.format_position());
        }
        assert_eq!(pos.safe_replies(pos.token(), 0, 0), (safe, wins), "{}", pos.format_position());
    }
}

#[test]
fn ordering_permutes_the_moves() {
    let mut rng = KeyStream::new(23);
    for _ in 0..2000 {
        let pos = random_position(&mut rng, false);
        let ordered = pos.clone().with_reductions(GUIDANCE);
        let (mut a, mut b) = (GeographyMoves::new(), GeographyMoves::new());
        pos.generate_moves(&mut a);
        ordered.generate_moves(&mut b);
        let mut sorted = b.clone();
        sorted.sort_unstable();
        assert_eq!(a, sorted, "{}", pos.format_position());
        // A move that leaves the opponent stuck comes first.
        if let Some(&first) = b.first()
            && a.iter().any(|&w| pos.degree(w) == 1)
        {
            assert_eq!(pos.degree(first), 1, "{}", pos.format_position());
        }
    }
}

#[test]
fn bipartite_guess_is_exact_on_bipartite_components() {
    let mut rng = KeyStream::new(24);
    let mut compared = 0;
    for _ in 0..4000 {
        let pos = random_position(&mut rng, true);
        if pos.neighbours(pos.token()).is_empty() {
            continue;
        }
        if let Some(o) = reductions::bipartite_outcome(&pos) {
            assert_eq!(reductions::bipartite_guess(&pos), o, "{}", pos.format_position());
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn hints_give_numbers_of_at_least_one() {
    let mut rng = KeyStream::new(25);
    for _ in 0..2000 {
        let pos = random_position(&mut rng, false).with_reductions(GUIDANCE);
        let (phi, delta) = pos.proof_numbers_hint().expect("hint on");
        assert!(phi >= 1 && delta >= 1);
        assert_eq!(pos.plain().proof_numbers_hint(), None);
    }
}

#[test]
fn deep_numbers_follow_their_formula() {
    use reductions::{FEWEST_WEIGHT, ParityNumbers, deep_numbers};
    let mut last = 0;
    for open in 1..=200u16 {
        for fewest in [1u16, 2, 7, reductions::FEWEST_CAP] {
            let (phi, delta) = deep_numbers(ParityNumbers { open, fewest });
            assert_eq!(phi, u64::from(fewest) * FEWEST_WEIGHT);
            let exact = 4.0 * f64::from(open).powf(2.5);
            assert!((delta as f64 - exact).abs() <= 0.5 + 1e-9, "{open}: {delta} vs {exact}");
        }
        let (_, delta) = deep_numbers(ParityNumbers { open, fewest: 1 });
        assert!(delta > last, "grows with the open moves");
        last = delta;
    }
    assert_eq!(deep_numbers(ParityNumbers { open: 1, fewest: 1 }), (FEWEST_WEIGHT, 4));
    assert_eq!(deep_numbers(ParityNumbers { open: 2, fewest: 1 }).1, 23);
}

#[test]
fn incremental_component_equals_the_component_from_scratch() {
    let mut rng = KeyStream::new(26);
    for i in 0..400 {
        let graph = if i % 2 == 0 {
            random_graph(6 + below(&mut rng, 20) as usize, 15 + below(&mut rng, 30), &mut rng)
        } else {
            contest_graph(10 + below(&mut rng, 40) as usize, i).unwrap()
        };
        let token = below(&mut rng, graph.vertex_count() as u64) as u8;
        let mut pos = Geography::new(Arc::new(graph), token).unwrap();
        loop {
            assert_eq!(pos.component(), reductions::component_of(&pos));
            let outside = pos.edge_count() - pos.component_edge_count();
            let scratch = reductions::edge_count(&pos, pos.component_complement());
            assert_eq!(outside, scratch);
            let mut moves = GeographyMoves::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[below(&mut rng, moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn solvers_with_guidance_agree_with_brute_force() {
    use crate::search::{SolverKind, SolverOptions, make_solver};
    let mut rng = KeyStream::new(27);
    let options = SolverOptions { tt_mib: 1, ..SolverOptions::default() };
    let mut checked = 0;
    for i in 0..1350 {
        let flags = [
            GUIDANCE,
            GUIDANCE.with(Reductions::TWO_PLY),
            Reductions::BASIC.with(Reductions::PN_HINT),
            GUIDANCE.with(Reductions::PARITY_SET),
            GUIDANCE.with(Reductions::PARITY_SET).with(Reductions::PARITY_WIN),
            GUIDANCE.with(Reductions::TRAPS),
            GUIDANCE.with(Reductions::PARITY_SET).with(Reductions::TRAPS),
            GUIDANCE.with(Reductions::PARITY_SET).with(Reductions::TRAPS).with(Reductions::PIECES),
            GUIDED_DEEP,
        ][i % 9];
        let pos = random_position(&mut rng, i % 9 == 0).with_reductions(flags);
        let Some(truth) = brute(&pos) else { continue };
        for kind in [SolverKind::Dfpn, SolverKind::Pns, SolverKind::Alphabeta] {
            let mut solver = make_solver::<Geography>(kind, &options);
            let got = solver.solve(&pos, &Limits::default()).outcome;
            assert_eq!(got, Some(truth), "{kind:?} {}", pos.format_position());
        }
        checked += 1;
    }
    assert!(checked > 800, "{checked}");
}

#[test]
fn parity_set_rule_agrees_with_brute_force() {
    let mut rng = KeyStream::new(28);
    let (mut losses, mut odd) = (0, 0);
    for _ in 0..1500 {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::PARITY_SET);
        if reductions::independent_set_loss(&pos) {
            let truth = brute(&pos);
            assert!(truth.is_none() || truth == Some(Outcome::Loss), "{}", pos.format_position());
            losses += 1;
            odd += usize::from(reductions::bipartite_outcome(&pos).is_none());
        }
    }
    // Fires on components with odd cycles too, not only where the bipartite rule does.
    assert!(losses > 100 && odd > 20, "{losses} losses, {odd} with odd cycles");
}

#[test]
fn parity_set_rule_is_the_losing_half_of_the_bipartite_rule() {
    let mut rng = KeyStream::new(29);
    for _ in 0..3000 {
        let pos = random_position(&mut rng, true);
        if let Some(o) = reductions::bipartite_outcome(&pos) {
            assert_eq!(reductions::independent_set_loss(&pos), o == Outcome::Loss);
        }
    }
}

#[test]
fn parity_win_rule_agrees_with_brute_force() {
    parity_win_rule_agrees_with_brute_force_on(1000);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn parity_win_rule_agrees_with_brute_force_deep() {
    parity_win_rule_agrees_with_brute_force_on(3000);
}

/// The check of `parity_win_rule_agrees_with_brute_force` on `count` samples.
fn parity_win_rule_agrees_with_brute_force_on(count: u64) {
    let mut rng = KeyStream::new(30);
    let (mut wins, mut odd) = (0, 0);
    for _ in 0..count {
        let pos = random_position(&mut rng, false).with_reductions(Reductions::PARITY_WIN);
        if reductions::parity_win(&pos) {
            let truth = brute(&pos);
            assert!(truth.is_none() || truth == Some(Outcome::Win), "{}", pos.format_position());
            wins += 1;
            odd += usize::from(reductions::bipartite_outcome(&pos).is_none());
        }
        // Through the position's own decision as well (with the loss rule first).
        let pos = pos.with_reductions(Reductions::PARITY_SET.with(Reductions::PARITY_WIN));
        if let Some(o) = pos.outcome() {
            let truth = brute(&pos);
            assert!(truth.is_none() || truth == Some(o), "{}", pos.format_position());
        }
    }
    // Fires on components with odd cycles too, not only where the bipartite rule does.
    let n = count as usize;
    assert!(wins * 10 > n && odd * 60 > n, "{wins} wins, {odd} with odd cycles");
}

#[test]
fn parity_win_rule_is_the_winning_half_of_the_bipartite_rule() {
    let mut rng = KeyStream::new(31);
    let mut checked = 0;
    for _ in 0..3000 {
        let pos = random_position(&mut rng, true);
        if let Some(o) = reductions::bipartite_outcome(&pos) {
            assert_eq!(
                reductions::parity_win(&pos),
                o == Outcome::Win,
                "{}",
                pos.format_position()
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn parity_deep_rule_agrees_with_brute_force() {
    parity_deep_rule_agrees_with_brute_force_on(2700);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn parity_deep_rule_agrees_with_brute_force_deep() {
    parity_deep_rule_agrees_with_brute_force_on(8000);
}

/// The check of `parity_deep_rule_agrees_with_brute_force` on `count` samples.
fn parity_deep_rule_agrees_with_brute_force_on(count: u64) {
    // The three-move certificate (a move after which every reply can be answered into a parity
    // set) decides wins that the one-move rule does not; each must be a brute-force win.
    let mut rng = KeyStream::new(35);
    let parity = Reductions::PARITY_SET.with(Reductions::PARITY_WIN);
    let (mut deep_only, mut checked) = (0, 0);
    for i in 0..count {
        let base = mixed_position(&mut rng, i);
        let flags = if i % 2 == 0 { parity } else { parity.with(Reductions::TRAPS) };
        let pos = base.clone().with_reductions(flags.with(Reductions::PARITY_DEEP));
        let Some(o) = pos.outcome() else { continue };
        let Some(truth) = brute(&pos) else { continue };
        assert_eq!(o, truth, "{}", pos.format_position());
        checked += 1;
        deep_only += usize::from(base.with_reductions(flags).outcome().is_none());
    }
    assert!(
        checked * 8 > count as usize * 5 && deep_only * 200 > count as usize * 3,
        "{checked} decided, {deep_only} by the deep rule alone"
    );
}

/// A random graph of 10 to 79 vertices (2 to 8 % of the pairs joined) after a few random
/// moves from a random token, with the parity-set rule.
fn random_parity_position(rng: &mut KeyStream) -> Geography {
    let n = 10 + below(rng, 70) as usize;
    let percent = 2 + below(rng, 7);
    let token = below(rng, n as u64) as u8;
    let graph = random_graph(n, percent, rng);
    start_with_random_moves(graph, token, rng).with_reductions(Reductions::PARITY_SET)
}

#[test]
fn nearby_parity_tests_match_the_tests_from_scratch() {
    // The parity test of a position a few moves away, worked out from this position's
    // elimination (low-rank change), against the test from scratch on the position reached.
    let mut rng = KeyStream::new(36);
    let (mut compared, mut losses, mut long_paths) = (0, 0, 0);
    for _ in 0..1500 {
        let pos = random_parity_position(&mut rng);
        let mut nearby = reductions::Nearby::new(&pos);
        for _ in 0..4 {
            // A random walk of 1 to 4 moves from the token.
            let (mut path, mut child) = (vec![pos.token], pos.clone());
            for _ in 0..=below(&mut rng, 4) {
                let moves: Vec<u8> =
                    child.neighbours(child.token).into_iter().map(|v| v as u8).collect();
                if moves.is_empty() {
                    break;
                }
                let next = moves[below(&mut rng, moves.len() as u64) as usize];
                child.play(next);
                path.push(next);
            }
            if path.len() < 2 {
                break;
            }
            let Some(loss) = nearby.loss_after(&path) else {
                continue;
            };
            let expected = child.neighbours(child.token).is_empty()
                || reductions::independent_set_loss(&child);
            assert_eq!(loss, expected, "{} after {path:?}", pos.format_position());
            compared += 1;
            losses += usize::from(loss);
            long_paths += usize::from(path.len() == 5);
        }
    }
    assert!(
        compared > 3000 && losses > 300 && long_paths > 500,
        "{compared} {losses} {long_paths}"
    );
}

#[test]
fn batched_parity_tests_match_the_single_tests() {
    // The tests of every last move after one path, sharing the path's work, against the test
    // of each path on its own (in vertex order: the first parity set found, and whether a test
    // before it gave up).
    let mut rng = KeyStream::new(39);
    let (mut compared, mut answered, mut revisits) = (0, 0, 0);
    for _ in 0..1500 {
        let pos = random_parity_position(&mut rng);
        let mut nearby = reductions::Nearby::new(&pos);
        for _ in 0..8 {
            // A path of 2 or 3 distinct vertices from the token.
            let (mut path, mut rows) = (vec![pos.token], pos.rows);
            for _ in 0..=below(&mut rng, 2) {
                let at = *path.last().unwrap_or(&pos.token);
                let moves: Vec<u8> = Bitboard128(rows[at as usize])
                    .into_iter()
                    .map(|v| v as u8)
                    .filter(|v| !path.contains(v))
                    .collect();
                if moves.is_empty() {
                    break;
                }
                let next = moves[below(&mut rng, moves.len() as u64) as usize];
                rows[at as usize] &= !(1u128 << next);
                rows[next as usize] &= !(1u128 << at);
                path.push(next);
            }
            let at = *path.last().unwrap_or(&pos.token);
            if path.len() < 2 || rows[at as usize] == 0 {
                continue;
            }
            // A random subset of the last vertex's remaining edges.
            let lasts = rows[at as usize]
                & (u128::from(rng.next_key()) << 64 | u128::from(rng.next_key()))
                    .rotate_left(below(&mut rng, 128) as u32);
            let mut expected = (false, false);
            for z in Bitboard128(lasts) {
                let mut full = path.clone();
                full.push(z as u8);
                match nearby.loss_after(&full) {
                    Some(true) => {
                        expected.0 = true;
                        break;
                    }
                    Some(false) => {}
                    None => expected.1 = true,
                }
            }
            let mut got = nearby.any_loss_after(&path, lasts);
            // Whether a test gave up matters only when no parity set was found.
            if got.0 {
                (got.1, expected.1) = (false, false);
            }
            assert_eq!(got, expected, "{} after {path:?} then {lasts:#x}", pos.format_position());
            compared += 1;
            answered += usize::from(got.0);
            revisits +=
                usize::from(Bitboard128(lasts).into_iter().any(|z| path.contains(&(z as u8))));
        }
    }
    assert!(compared > 6000 && answered > 600 && revisits > 50, "{compared} {answered} {revisits}");
    // Both halves of the split test found parity sets.
    let (free, held) = caches::SPLIT_FOUND.with(std::cell::Cell::get);
    assert!(free > 500 && held > 50, "{free} {held}");
}

#[test]
#[ignore = "heavy: cargo test --release -- --ignored"]
fn parity_rules_agree_with_brute_force_heavy() {
    let mut rng = KeyStream::new(32);
    for _ in 0..100_000 {
        let pos = random_position(&mut rng, false)
            .with_reductions(Reductions::PARITY_SET.with(Reductions::PARITY_WIN));
        if let Some(o) = pos.outcome() {
            let truth = brute(&pos);
            assert!(truth.is_none() || truth == Some(o), "{}", pos.format_position());
        }
    }
}

#[test]
fn shared_parity_elimination_matches_the_tests_from_scratch() {
    // With both parity rules the position's own test and its children's come from one
    // elimination of the component (the children's as low-rank changes); their answers must be
    // those of the test run from scratch on every position, on graphs large enough for kernels
    // of several dimensions and for moves that cut bridges.
    let mut rng = KeyStream::new(33);
    let (mut losses, mut wins, mut bigger_kernels) = (0, 0, 0);
    for _ in 0..1500 {
        let n = 10 + below(&mut rng, 70) as usize;
        let percent = 2 + below(&mut rng, 7);
        let token = below(&mut rng, n as u64) as u8;
        let pos = start_with_random_moves(random_graph(n, percent, &mut rng), token, &mut rng);
        let pos = pos.with_reductions(Reductions::PARITY_SET.with(Reductions::PARITY_WIN));
        let mut moves = GeographyMoves::new();
        pos.generate_moves(&mut moves);
        // From scratch: a child is lost for the opponent when it is stuck or in a parity set.
        let win_from_scratch = moves.iter().any(|&x| {
            let mut child = pos.clone();
            child.play(x);
            child.neighbours(x).is_empty() || reductions::independent_set_loss(&child)
        });
        assert_eq!(reductions::parity_win(&pos), win_from_scratch, "{}", pos.format_position());
        let loss_from_scratch = moves.is_empty() || reductions::independent_set_loss(&pos);
        let expected = if loss_from_scratch {
            Some(Outcome::Loss)
        } else if win_from_scratch {
            Some(Outcome::Win)
        } else {
            None
        };
        assert_eq!(pos.outcome(), expected, "{}", pos.format_position());
        losses += usize::from(loss_from_scratch && !moves.is_empty());
        wins += usize::from(expected == Some(Outcome::Win));
        bigger_kernels += usize::from(pos.component().count() > 20);
    }
    assert!(losses > 50 && wins > 50 && bigger_kernels > 500, "{losses} {wins} {bigger_kernels}");
}

#[test]
fn fewest_open_replies_is_the_least_open_count_of_the_children() {
    // df-pn's initial proof number with the three-move rule is what expanding the position
    // gives: the least open-move count over the moves that do not let the opponent step onto a
    // vertex left without edges, each child's count worked out from the child's own
    // elimination. Positions where a test from this position's elimination gives up (a kernel
    // too large to enumerate: counted as open here, perhaps not from the child's) are skipped.
    let mut rng = KeyStream::new(37);
    let (mut compared, mut wins, mut above_one) = (0, 0, 0);
    for _ in 0..1500 {
        let pos = random_parity_position(&mut rng);
        let s = pos.token;
        let mut nearby = reductions::Nearby::new(&pos);
        let fewest = reductions::fewest_open_replies(&pos, &mut nearby);
        let mut expected = reductions::FEWEST_CAP;
        let mut gave_up = false;
        for x in pos.neighbours(s) {
            let x = x as u8;
            let mut child = pos.clone();
            child.play(x);
            if child.neighbours(x).into_iter().any(|y| child.degree(y as u8) == 1) {
                continue; // the opponent steps onto a vertex left without edges
            }
            for y in child.neighbours(x) {
                for z in child.neighbours(y as u8) {
                    if z as u8 != x {
                        gave_up |= nearby.loss_after(&[s, x, y as u8, z as u8]).is_none();
                    }
                }
            }
            let open = reductions::open_moves(&child, &mut reductions::Nearby::new(&child));
            expected = expected.min(open);
        }
        if gave_up {
            continue;
        }
        assert_eq!(fewest, expected, "{}", pos.format_position());
        compared += 1;
        wins += usize::from(fewest == 0);
        above_one += usize::from(fewest > 1 && fewest < reductions::FEWEST_CAP);
    }
    assert!(compared > 1200 && wins > 50 && above_one > 100, "{compared} {wins} {above_one}");
}

#[test]
fn shared_base_elimination_and_inherited_tests_give_the_plain_answers() {
    // The positions after the moves of one position share the elimination of the rows outside
    // the mover's neighbourhood (in their views without traps too), and take the answers their
    // parent's tests already found; settling them that way must give what settling each one
    // from its own plain elimination, asking every question again, gives.
    let mut rng = KeyStream::new(38);
    let rules = Reductions::PARITY_SET
        .with(Reductions::PARITY_WIN)
        .with(Reductions::PARITY_DEEP)
        .with(Reductions::PN_HINT);
    let (mut compared, mut undecided, mut with_traps) = (0, 0, 0);
    for round in 0..2500 {
        let traps = round % 2 == 1;
        let rules = if traps { rules.with(Reductions::TRAPS) } else { rules };
        let pos = random_parity_position(&mut rng).with_reductions(rules);
        for x in pos.neighbours(pos.token) {
            let mut child = pos.clone();
            child.play(x as u8);
            // Settled from scratch: the view without traps, or the position itself.
            let plain = if child.traps != 0 {
                let view = child.without_traps();
                (view.decided, view.parity_numbers)
            } else {
                reductions::decide_with_open_moves(&child)
            };
            assert_eq!((child.decided, child.parity_numbers), plain, "{}", pos.format_position());
            compared += 1;
            undecided += usize::from(plain.0.is_none());
            with_traps += usize::from(child.traps != 0);
        }
    }
    let inherited = caches::INHERITED.with(std::cell::Cell::get);
    assert!(
        compared > 3000 && undecided > 1500 && with_traps > 500 && inherited > 1000,
        "{compared} {undecided} {with_traps} {inherited}"
    );
}

/// df-pn's remembered children ([`crate::search::dfpn::DfpnSolver::with_child_cache`]) change
/// nothing but the work: on random graphs of 8 to 12 vertices, with the plain rules and with the
/// default reductions, the cache from the first node gives the same outcome and the same node
/// count as no cache (one thread), and the outcome of brute force where that finishes.
#[test]
fn remembered_children_change_no_search() {
    use crate::search::dfpn::DfpnSolver;
    use crate::search::{Solver, SolverOptions};
    let mut rng = KeyStream::new(33);
    let options = SolverOptions { tt_mib: 4, epsilon: Some(0.5), ..SolverOptions::default() };
    let (mut remembered_nodes, mut brute_checked) = (0, 0);
    for i in 0..240 {
        let n = 8 + below(&mut rng, 5) as usize;
        let graph = random_graph(n, 25 + below(&mut rng, 20), &mut rng);
        let token = below(&mut rng, n as u64) as u8;
        let pos = start_with_random_moves(graph, token, &mut rng);
        let pos = if i % 2 == 0 { pos } else { pos.with_reductions(GUIDED_DEEP) };
        let mut with = DfpnSolver::new(&options).with_child_cache(Some(0));
        let mut without = DfpnSolver::new(&options).with_child_cache(None);
        let a = with.solve(&pos, &Limits::default());
        let b = without.solve(&pos, &Limits::default());
        let what = pos.format_position();
        assert!(a.outcome.is_some(), "{what}");
        assert_eq!(a.outcome, b.outcome, "{what}");
        assert_eq!(a.stats.nodes, b.stats.nodes, "{what}");
        remembered_nodes += a.stats.nodes;
        if n <= 10
            && let Some(truth) = brute(&pos)
        {
            assert_eq!(a.outcome, Some(truth), "{what}");
            brute_checked += 1;
        }
    }
    println!("{remembered_nodes} nodes, {brute_checked} checked by brute force");
    assert!(remembered_nodes > 50_000, "{remembered_nodes}");
    assert!(brute_checked > 100, "{brute_checked}");
}
