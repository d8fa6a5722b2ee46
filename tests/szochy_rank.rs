//! The ranked enumeration (bitset BFS over colex ranks, ids by prefix popcounts) builds the same
//! graph as the hashed BFS on thousands of random small boards: the same positions, the same
//! edges between them (compared as pairs of packed keys), the start at id 0, and the same answer
//! from the matching; also with a random set of excluded (already visited) positions.

use std::collections::{BTreeSet, HashSet};

use bitsolve::games::szochy::Instance;
use bitsolve::games::szochy::board::counts;
use bitsolve::games::szochy::enumerate::{
    Enumerated, RANK_LIMIT, Ranker, enumerate_bfs, enumerate_ranked,
};
use bitsolve::graph::matching::{covered_by_every_maximum_matching, maximum_matching};
use bitsolve::zobrist::KeyStream;

/// A random instance: board up to 5x5, some holes, 1 to 4 pieces of random types.
fn random_instance(rng: &mut KeyStream) -> Instance {
    let n = 1 + (rng.next_key() % 5) as i64;
    let m = 1 + (rng.next_key() % 5) as i64;
    let mut holes = Vec::new();
    let mut pieces: Vec<(char, i64, i64)> = Vec::new();
    let want = 1 + rng.next_key() % 4;
    for i in 1..=n {
        for j in 1..=m {
            let r = rng.next_key() % 100;
            if r < 12 {
                holes.push((i, j));
            } else if r < 35 && (pieces.len() as u64) < want {
                let letter = ['k', 'q', 'b', 'n', 'r'][(rng.next_key() % 5) as usize];
                pieces.push((letter, i, j));
            }
        }
    }
    Instance::new(n, m, &holes, &pieces).unwrap()
}

/// The edges of a graph as ordered pairs of packed keys.
fn key_edges(e: &Enumerated) -> BTreeSet<(u128, u128)> {
    let mut edges = BTreeSet::new();
    for v in 0..e.graph.vertex_count() as u32 {
        let list = e.graph.neighbors(v);
        let distinct: HashSet<u32> = list.iter().copied().collect();
        assert_eq!(distinct.len(), list.len(), "a neighbour listed twice");
        for &w in list {
            assert_ne!(v, w, "a loop");
            edges.insert((e.keys[v as usize], e.keys[w as usize]));
        }
    }
    edges
}

fn first_player_wins(e: &Enumerated) -> bool {
    let m = maximum_matching(&e.graph);
    covered_by_every_maximum_matching(&e.graph, &m, 0)
}

#[test]
fn ranked_enumeration_matches_hashed_bfs_on_random_boards() {
    ranked_matches_bfs(500);
}

#[test]
#[ignore = "deep: the full sample; CI runs it (cargo test -- --ignored deep)"]
fn ranked_enumeration_matches_hashed_bfs_on_random_boards_deep() {
    ranked_matches_bfs(3000);
}

/// The ranked and hashed enumerations agree on `count` random boards.
fn ranked_matches_bfs(count: usize) {
    let mut rng = KeyStream::new(0x04A1_17ED);
    let (mut checked, mut with_excluded, mut wins, mut multi) = (0, 0, 0, 0);
    while checked < count {
        let inst = random_instance(&mut rng);
        if inst.start.iter().all(|&b| b == 0) {
            continue;
        }
        let c = counts(&inst.start);
        let ranker = Ranker::with_limit(inst.board.squares(), &c, RANK_LIMIT).unwrap();
        let none: HashSet<u128> = HashSet::new();
        let Ok(bfs) = enumerate_bfs(&inst.board, &inst.start, &none, 20_000) else { continue };
        let ranked = enumerate_ranked(&inst.board, &inst.start, &none, 20_000, &ranker).unwrap();
        let text = inst.to_line();
        assert_eq!(ranked.keys[0], bfs.keys[0], "{text}: start at id 0");
        assert_eq!(ranked.graph.vertex_count(), bfs.graph.vertex_count(), "{text}");
        assert_eq!(ranked.graph.edge_count(), bfs.graph.edge_count(), "{text}");
        let a: BTreeSet<u128> = ranked.keys.iter().copied().collect();
        let b: BTreeSet<u128> = bfs.keys.iter().copied().collect();
        assert_eq!(a, b, "{text}");
        assert_eq!(key_edges(&ranked), key_edges(&bfs), "{text}");
        let wins_here = first_player_wins(&ranked);
        assert_eq!(wins_here, first_player_wins(&bfs), "{text}");
        wins += usize::from(wins_here);
        multi += usize::from(c.iter().any(|&k| k > 1));
        // Leave out a few positions of the component other than the start (a game's history).
        let excluded: HashSet<u128> =
            bfs.keys[1..].iter().copied().filter(|_| rng.next_key() % 100 < 15).collect();
        if !excluded.is_empty() {
            let bfs = enumerate_bfs(&inst.board, &inst.start, &excluded, 20_000).unwrap();
            let ranked =
                enumerate_ranked(&inst.board, &inst.start, &excluded, 20_000, &ranker).unwrap();
            assert_eq!(ranked.keys[0], bfs.keys[0], "{text}");
            assert!(ranked.keys.iter().all(|k| !excluded.contains(k)), "{text}");
            assert_eq!(key_edges(&ranked), key_edges(&bfs), "{text} minus {excluded:?}");
            assert_eq!(first_player_wins(&ranked), first_player_wins(&bfs), "{text}");
            with_excluded += 1;
        }
        checked += 1;
    }
    assert!(
        wins > count / 10 && wins < count * 9 / 10,
        "{wins} wins: the sample should mix both results"
    );
    assert!(with_excluded > count / 3, "{with_excluded}");
    assert!(multi > count / 10, "{multi} instances with two pieces of a type");
}

#[test]
fn unrank_inverts_rank() {
    let mut rng = KeyStream::new(0x000C_01E7);
    for _ in 0..2000 {
        let inst = random_instance(&mut rng);
        let c = counts(&inst.start);
        let ranker = Ranker::with_limit(inst.board.squares(), &c, RANK_LIMIT).unwrap();
        let r = ranker.rank(&inst.start);
        assert!(r < ranker.space());
        assert_eq!(ranker.unrank(r), inst.start, "{}", inst.to_line());
    }
}

#[test]
fn too_many_positions_is_an_error() {
    let inst = Instance::new(4, 4, &[], &[('k', 1, 1), ('n', 2, 2)]).unwrap();
    let c = counts(&inst.start);
    let ranker = Ranker::with_limit(inst.board.squares(), &c, RANK_LIMIT).unwrap();
    let none: HashSet<u128> = HashSet::new();
    let all = enumerate_ranked(&inst.board, &inst.start, &none, 1000, &ranker).unwrap();
    let n = all.graph.vertex_count();
    assert_eq!(n, enumerate_bfs(&inst.board, &inst.start, &none, 1000).unwrap().keys.len());
    assert!(n > 100);
    assert!(enumerate_ranked(&inst.board, &inst.start, &none, n - 1, &ranker).is_err());
}
