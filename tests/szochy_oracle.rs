//! The matching solver agrees with the brute-force oracle (plain negamax over position and
//! visited set) on 10,000 random small szochy boards: every piece type, holes, and also games
//! already in progress (a visited history).

use bitsolve::games::szochy::{Instance, SolveOptions, Szochy, solve};
use bitsolve::search::brute::BruteSolver;
use bitsolve::search::matching::MatchingSolver;
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Limits, Notation, Outcome, Solver};

/// A random instance: board up to 4x4, some holes, 1 to 3 pieces of random types.
fn random_instance(rng: &mut KeyStream) -> Instance {
    let n = 1 + (rng.next_key() % 4) as i64;
    let m = 1 + (rng.next_key() % 4) as i64;
    let mut holes = Vec::new();
    let mut pieces: Vec<(char, i64, i64)> = Vec::new();
    let want = 1 + rng.next_key() % 3;
    for i in 1..=n {
        for j in 1..=m {
            let r = rng.next_key() % 100;
            if r < 15 {
                holes.push((i, j));
            } else if r < 40 && (pieces.len() as u64) < want {
                let letter = ['k', 'q', 'b', 'n', 'r'][(rng.next_key() % 5) as usize];
                pieces.push((letter, i, j));
            }
        }
    }
    Instance::new(n, m, &holes, &pieces).unwrap()
}

#[test]
fn matching_agrees_with_brute_force_on_random_boards() {
    let mut rng = KeyStream::new(0x50C4);
    let (mut checked, mut with_history, mut wins) = (0, 0, 0);
    let mut attempts = 0;
    while checked < 10_000 {
        attempts += 1;
        assert!(attempts < 100_000, "too few small instances");
        let inst = random_instance(&mut rng);
        let s = solve(&inst, &SolveOptions { max_positions: 40 }).ok();
        let Some(s) = s.filter(|s| s.positions <= 12) else { continue };
        let mut game = Szochy::new(&inst);
        let oracle = BruteSolver::new().solve(&game, &Limits::nodes(20_000));
        if oracle.outcome.is_none() {
            continue;
        }
        let text = game.format_position();
        assert_eq!(oracle.outcome == Some(Outcome::Win), s.first_player_wins, "{text}");
        wins += usize::from(s.first_player_wins);
        checked += 1;
        // A game in progress: a random move or two, then the matching solver through the Game
        // trait (the graph minus the visited positions) against the oracle.
        for _ in 0..=(rng.next_key() % 2) {
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves[(rng.next_key() % moves.len() as u64) as usize]);
        }
        let oracle = BruteSolver::new().solve(&game, &Limits::none());
        let m = MatchingSolver.solve(&game, &Limits::none());
        let text = game.format_position();
        assert_eq!(m.outcome, oracle.outcome, "{text}");
        if let (Some(Outcome::Win), Some(mv)) = (m.outcome, m.best_move) {
            let mut child = game.clone();
            child.play(mv);
            let reply = BruteSolver::new().solve(&child, &Limits::none());
            assert_eq!(
                reply.outcome,
                Some(Outcome::Loss),
                "winning move {} on {text}",
                game.format_move(mv)
            );
        }
        with_history += usize::from(game.visited().len() > 1);
    }
    assert!(wins > 1000 && wins < 9000, "{wins} wins: the sample should mix both results");
    assert!(with_history > 3000, "{with_history}");
}
