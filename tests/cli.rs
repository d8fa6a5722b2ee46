//! The binary: result-line format, and clear errors (never a panic) on bad input.

use crate::common;

use std::process::{Command, Output};

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args).output().expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A failure must be a clean exit with a message, not a panic (exit 101) or a signal.
fn assert_clean_failure(out: &Output, needle: &str) {
    let err = stderr(out);
    assert!(!out.status.success(), "should fail: {err}");
    assert!(matches!(out.status.code(), Some(1 | 2)), "exit {:?}: {err}", out.status.code());
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(needle), "`{needle}` not in: {err}");
}

#[test]
fn solve_prints_value_first_on_its_last_line() {
    let out = bitsolve(&[
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "alphabeta",
        "--fen",
        "x1o/3/o1x x 0 1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("win plies="), "{last}");
    assert!(last.contains(" move=") && last.contains(" nodes="), "{last}");
}

#[test]
fn perft_split_lists_moves_then_total() {
    let out = bitsolve(&["perft", "--game", "ataxx", "--depth", "2", "--split"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 17);
    assert_eq!(*lines.last().unwrap(), "256");
    let sum: u64 =
        lines[..16].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 256);
}

#[test]
fn broken_fen_is_reported_with_its_column() {
    let out = bitsolve(&["solve", "--game", "ataxx", "--fen", "x5o/7/7/7/7/7/o5q x 0 1"]);
    assert_clean_failure(&out, "column");
    let out = bitsolve(&[
        "perft",
        "--game",
        "ataxx",
        "--depth",
        "1",
        "--fen",
        "x5o/7/7/7/7/o5x x 0 1 extra words",
    ]);
    assert_clean_failure(&out, "invalid position");
}

#[test]
fn unknown_or_illegal_move_is_reported() {
    let out = bitsolve(&[
        "solve",
        "--game",
        "ataxx",
        "--fen",
        "x5o/7/7/7/7/7/o5x x 0 1",
        "--moves",
        "a7a4",
    ]);
    assert_clean_failure(&out, "move 1 `a7a4`");
    let out = bitsolve(&["perft", "--game", "ataxx", "--depth", "1", "--moves", "zz"]);
    assert_clean_failure(&out, "move 1 `zz`");
}

#[test]
fn bad_flags_are_refused() {
    assert_clean_failure(&bitsolve(&["solve", "--game", "chess", "--fen", "x"]), "invalid value");
    assert_clean_failure(
        &bitsolve(&["solve", "--game", "ataxx", "--solver", "magic"]),
        "invalid value",
    );
    assert_clean_failure(
        &bitsolve(&["solve", "--game", "ataxx", "--threads", "0", "--fen", "x"]),
        "threads",
    );
    assert_clean_failure(&bitsolve(&["perft", "--game", "ataxx"]), "--depth");
    assert_clean_failure(&bitsolve(&["solve", "--game", "ataxx"]), "nothing to solve");
    // A solver without threads refuses `--threads 2` instead of ignoring it.
    let fen = "x1o/3/o1x x 0 1";
    let pns = ["solve", "--game", "ataxx", "--solver", "dfpn,pns", "--threads", "2", "--fen", fen];
    assert_clean_failure(&bitsolve(&pns), "pns has no parallel mode");
    let score = ["solve", "--game", "gauss", "--score", "--solver", "brute", "--threads", "2"];
    assert_clean_failure(&bitsolve(&score), "brute has no parallel mode for exact scores");
    let ok =
        bitsolve(&["solve", "--game", "ataxx", "--solver", "dfpn", "--threads", "2", "--fen", fen]);
    assert!(ok.status.success());
    // Only retro2 folds positions by the board's symmetries.
    let gipf = "2 2 6 6/3 3 W/WB/B_W/WB";
    let sym = ["solve", "--game", "gipf", "--solver", "retro2,dfpn", "--symmetry", "--position"];
    let out = bitsolve(&[&sym[..], &[gipf]].concat());
    assert_clean_failure(
        &out,
        "--symmetry: only retro2 (on gipf) folds positions by symmetry, not dfpn",
    );
    let both = |flag: &str| {
        let args = ["solve", "--game", "gipf", "--solver", "retro2", flag, "--position", gipf];
        let out = bitsolve(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().find(|l| l.contains("plies=")).expect("a result line").to_owned();
        // The value and distance, without the counts and times.
        line.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(both("--symmetry"), both("--threads=1"));
}

#[test]
fn bad_dataset_lines_are_skipped_and_reported() {
    let dir = common::TempDir::new("cli");
    let file = dir.join("mixed.tsv");
    std::fs::write(&file, "# test\nok\tx1o/3/o1x x 0 1\twin\nbad\tx1o/3/o1q x 0 1\twin\nworse\tx1o/3/o1x x 0 1\tmaybe\n").unwrap();
    let csv = dir.join("out.csv");
    let _ = std::fs::remove_file(&csv);
    let out = bitsolve(&[
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "dfpn",
        file.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(err.contains("line 3, column"), "{err}");
    assert!(err.contains("line 4, column"), "{err}");
    assert!(!err.contains("panicked"));
    assert!(stdout(&out).contains("ok\tdfpn\tt1\twin"), "{}", stdout(&out));
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count(), 2, "{rows}");
    assert!(rows.lines().nth(1).unwrap().starts_with("ataxx,"));
}
