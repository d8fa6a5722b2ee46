//! The contest's own published game (`datasets/geography/contest-transcript.txt`) replays
//! under our rules and notation: every move is legal, the second player's `200` is the first
//! player's `200` after the first move, both logs show the same game, and the game ends when
//! the loser is stuck.

use bitsolve::{Game, Geography, Notation, Outcome};

/// The two client logs as message lists (`Received: ...` / `Sent: ...`), wrapped lines joined.
fn logs() -> Vec<Vec<String>> {
    let text = include_str!("../datasets/geography/contest-transcript.txt");
    let mut logs: Vec<Vec<String>> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let line = line.trim();
        if line.starts_with('>') {
            logs.push(Vec::new());
        } else if line.starts_with("Received:") || line.starts_with("Sent:") {
            logs.last_mut().expect("a log").push(line.to_string());
        } else if !line.is_empty() && line.chars().all(|c| c.is_ascii_digit() || c == ' ') {
            let last = logs.last_mut().and_then(|l| l.last_mut()).expect("a message");
            last.push(' ');
            last.push_str(line);
        }
    }
    logs
}

/// Replays one log: the start position and every move in order (ours and the opponent's), and
/// the final code.
fn replay(log: &[String]) -> (Geography, Vec<u8>, String) {
    let start = log[0].strip_prefix("Received: 200 ").expect("starts with 200");
    let start = Geography::parse_position(start).expect("valid 200").plain();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut end = String::new();
    for msg in &log[1..] {
        let (_, body) = msg.split_once(": ").unwrap();
        let (code, arg) = body.split_once(' ').unwrap_or((body, ""));
        match code {
            "210" | "220" => {
                assert!(pos.outcome().is_none(), "move after the end: {msg}");
                let mv = pos.parse_move(arg).unwrap_or_else(|e| panic!("{msg}: {e}"));
                pos.play(mv);
                moves.push(mv);
            }
            _ => end = code.to_string(),
        }
    }
    (start, moves, end)
}

#[test]
fn the_published_game_replays_under_our_rules() {
    let logs = logs();
    assert_eq!(logs.len(), 2);
    let (a_start, a_moves, a_end) = replay(&logs[0]);
    let (b_start, b_moves, b_end) = replay(&logs[1]);
    assert_eq!((a_end.as_str(), b_end.as_str()), ("230", "240"));
    assert_eq!(a_start.edge_count(), 72);
    // B's 200 is A's start after A's first move (B never sees that move as a 220).
    let mut after_first = a_start.clone();
    after_first.play(a_moves[0]);
    let mut b_edges =
        b_start.remaining_edges().iter().map(|&(a, b)| (a.min(b), a.max(b))).collect::<Vec<_>>();
    let mut a_edges = after_first
        .remaining_edges()
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect::<Vec<_>>();
    a_edges.sort_unstable();
    b_edges.sort_unstable();
    assert_eq!((b_start.token(), b_edges), (after_first.token(), a_edges));
    // Both logs show the same game (B gets `240` instead of A's last move); that move leaves B
    // stuck.
    assert_eq!(&a_moves[1..a_moves.len() - 1], &b_moves[..]);
    let mut pos = a_start;
    for &mv in &a_moves {
        pos.play(mv);
    }
    assert_eq!(pos.outcome(), Some(Outcome::Loss));
}
