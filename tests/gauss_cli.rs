//! The Gauss commands of the binary, driven through pipes: scripted `gauss play` sessions,
//! `solve --score`, `gauss match`, and clean errors on bad input.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use bitsolve::games::gauss::{Gauss, GaussMoves};
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Notation};

fn bitsolve(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // A child that refuses its arguments may exit before reading its input (a closed pipe).
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A failure must be a clean exit with a message, not a panic.
fn assert_clean_failure(out: &Output, needle: &str) {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "should fail: {err}");
    assert!(matches!(out.status.code(), Some(1 | 2)), "exit {:?}: {err}", out.status.code());
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "`{needle}` not in: {err}");
}

/// The moves of a random game from the start, and its final position.
fn random_game(seed: u64) -> (Vec<String>, Gauss) {
    let mut rng = KeyStream::new(seed);
    let mut pos = Gauss::default();
    let mut moves = Vec::new();
    while pos.outcome().is_none() {
        let mut list = GaussMoves::new();
        pos.generate_moves(&mut list);
        let mv = list[(rng.next_key() % list.len() as u64) as usize];
        moves.push(pos.format_move(mv));
        pos.play(mv);
    }
    (moves, pos)
}

#[test]
fn a_whole_game_can_be_played_from_a_pipe() {
    let (moves, end) = random_game(5);
    assert_eq!(moves.len(), 30);
    let script = format!("names\n\nnot-a-move\n{}\n", moves.join("\n"));
    let out = bitsolve(&["gauss", "play", "--human", "both"], &script);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("(g4)"), "the names picture: {stdout}");
    assert!(stdout.contains("not a legal move"), "{stdout}");
    assert!(stdout.contains("game over after 30 placements"), "{stdout}");
    let tally = end.tally();
    let expected = format!("final: red {} - blue {}", tally.points[0], tally.points[1]);
    assert!(stdout.contains(&expected), "`{expected}` not in {stdout}");
}

#[test]
fn the_engine_answers_and_quit_ends_the_session() {
    let out = bitsolve(
        &["gauss", "play", "--human", "red", "--time", "10", "--nodes", "3000"],
        "d4r\nzz9r\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stdout.matches("engine plays").count(), 1, "{stdout}");
    assert!(stdout.contains("no point `zz9`"), "{stdout}");
    assert!(stdout.contains("bye"), "{stdout}");
}

#[test]
fn the_engine_solves_the_endgame_exactly() {
    let (moves, _) = random_game(9);
    let mut pos = Gauss::default();
    for m in &moves[..24] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
    let position = pos.format_position();
    let out = bitsolve(
        &["gauss", "play", "--human", "none", "--time", "10", "--position", &position],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stdout.matches("exact score").count(), 6, "{stdout}");
    assert!(stdout.contains("final: red"), "{stdout}");
}

#[test]
fn input_ending_early_is_a_clean_error() {
    let out = bitsolve(&["gauss", "play", "--human", "both"], "d4r\n");
    assert_clean_failure(&out, "input ended before the game did");
}

#[test]
fn solve_score_prints_the_exact_score() {
    let (moves, _) = random_game(3);
    let mut pos = Gauss::default();
    for m in &moves[..26] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
    }
    let truth = bitsolve::search::score::BruteScore::score(&pos, &mut 0);
    let position = pos.format_position();
    let out = bitsolve(
        &[
            "solve",
            "--game",
            "gauss",
            "--score",
            "--solver",
            "alphabeta,dfpn",
            "--position",
            &position,
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = format!("score={truth} ");
    assert_eq!(stdout.matches(&expected).count(), 2, "{stdout}");
}

#[test]
fn bad_gauss_input_is_a_clean_error() {
    let out = bitsolve(&["solve", "--game", "digraph", "--score", "--position", "0|1;;"], "");
    assert_clean_failure(&out, "--score needs a game with a final score");
    let out = bitsolve(&["gauss", "show", "--position", "..../...../ r"], "");
    assert_clean_failure(&out, "column");
    let out = bitsolve(&["gauss", "show", "--moves", "d4r,d4b"], "");
    assert_clean_failure(&out, "occupied");
    let out = bitsolve(&["gauss", "gen", "--remaining", "31"], "");
    assert_clean_failure(&out, "30 placements");
}

#[test]
fn a_short_match_runs() {
    let out = bitsolve(
        &[
            "gauss",
            "match",
            "--openings",
            "1",
            "--opening-plies",
            "20",
            "--time",
            "0.05",
            "--opponent",
            "random",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("in 2 games"), "{stdout}");
}
