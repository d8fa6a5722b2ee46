//! The table solver (`--solver table --table FILE`) against alpha-beta, and its file checks.
//! Tables are built by the binary (`bitsolve table build`) into a temporary directory.

use crate::common;
use common::TempDir;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use bitsolve::games::ataxx::index::AtaxxIndex;
use bitsolve::search::retro::file::{TableError, TableFile};
use bitsolve::search::retro::table::{GameTable, TableSolver};
use bitsolve::unmove::LayeredIndex;
use bitsolve::{
    Ataxx, Game, Limits, Notation, Outcome, Solver, SolverKind, SolverOptions, make_solver,
};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
}

fn tmp_dir(name: &str) -> TempDir {
    TempDir::new(&format!("retro-table-{name}"))
}

/// Builds the table of `board` under `game` (`ataxx` or `ataxx-polish`) into `dir`.
fn build(dir: &Path, game: &str, board: &str) -> PathBuf {
    let out = dir.join(format!("{board}-{game}.tbl"));
    let status = bin()
        .args(["table", "build", "--game", game, "--board", board, "--threads", "1", "--quiet"])
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    out
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Every position of the table (or every `stride`-th): the table solver's value equals
/// alpha-beta's, and its move reaches a position of the opposite value (same for a draw).
/// Returns the number of positions compared.
fn agrees_with_alphabeta<const P: bool>(path: &Path, stride: u64) -> usize {
    let file = Arc::new(TableFile::open(path).unwrap());
    let table = GameTable::<Ataxx<P>>::new(file.clone()).unwrap();
    let number = |k: &str| file.description().get(k).unwrap().to_owned();
    let valid = u64::from_str_radix(number("valid").trim_start_matches("0x"), 16).unwrap();
    let index = AtaxxIndex::<P>::new(
        number("width").parse().unwrap(),
        number("height").parse().unwrap(),
        valid,
    );
    let mut solver = TableSolver::<Ataxx<P>>::new(Some(file.clone()));
    let mut ab = make_solver::<Ataxx<P>>(SolverKind::Alphabeta, &SolverOptions::default());
    let mut compared = 0;
    let mut missing = 0;
    for layer in 0..index.layers() {
        for rank in
            (0..index.layer_size(layer)).filter(|r| (r + layer as u64).is_multiple_of(stride))
        {
            let pos = index.unrank(layer, rank);
            if file.cell(layer, rank).unwrap().is_none() {
                // Not reachable from the start: unknown, with the reason.
                assert_eq!(table.answer(&pos), Err(TableError::NotInTable));
                assert_eq!(
                    Solver::<Ataxx<P>>::solve(&mut solver, &pos, &Limits::none()).outcome,
                    None
                );
                missing += 1;
                continue;
            }
            let got = Solver::<Ataxx<P>>::solve(&mut solver, &pos, &Limits::none());
            let want = ab.solve(&pos, &Limits::none());
            assert_eq!(got.outcome, want.outcome, "{}", pos.format_position());
            assert_eq!(got.plies, None);
            let outcome = got.outcome.unwrap();
            match got.best_move {
                None => assert!(pos.outcome().is_some(), "no move at {}", pos.format_position()),
                Some(m) => {
                    let mut child = pos.clone();
                    child.play(m);
                    let reply = ab.solve(&child, &Limits::none()).outcome.unwrap();
                    let expected = match outcome {
                        Outcome::Win => Outcome::Loss,
                        Outcome::Loss => Outcome::Win,
                        Outcome::Draw => Outcome::Draw,
                    };
                    assert_eq!(reply, expected, "{} then {m:?}", pos.format_position());
                }
            }
            compared += 1;
        }
    }
    assert!(missing > 0, "a table from the start leaves positions out");
    compared
}

#[test]
fn three_by_three_tables_agree_with_alphabeta_everywhere() {
    let dir = tmp_dir("3x3");
    let std = build(&dir, "ataxx", "3x3");
    let pol = build(&dir, "ataxx-polish", "3x3");
    // Every position of the table, both rule sets.
    assert!(agrees_with_alphabeta::<false>(&std, 1) > 1000);
    assert!(agrees_with_alphabeta::<true>(&pol, 1) > 1000);
}

#[test]
fn three_by_four_table_agrees_with_alphabeta() {
    let dir = tmp_dir("3x4");
    let std = build(&dir, "ataxx", "3x4");
    // Every 1999th rank of the 3^12 indexed positions.
    assert!(agrees_with_alphabeta::<false>(&std, 1999) > 10);
}

#[test]
fn other_boards_and_rules_are_unknown() {
    let dir = tmp_dir("other");
    let path = build(&dir, "ataxx", "2x4");
    let file = Arc::new(TableFile::open(&path).unwrap());
    let table = GameTable::<Ataxx<false>>::new(file.clone()).unwrap();
    let wider = Ataxx::<false>::start(5, 2);
    let why = table.answer(&wider).unwrap_err().to_string();
    assert!(why.contains("not on the table's board"), "{why}");
    let why = GameTable::<Ataxx<true>>::new(file.clone()).unwrap_err().to_string();
    assert!(why.contains("the table is of ataxx, the position of ataxx-polish"), "{why}");
    let mut solver = TableSolver::<Ataxx<false>>::new(Some(file));
    assert_eq!(Solver::<Ataxx<false>>::solve(&mut solver, &wider, &Limits::none()).outcome, None);
    let start = Ataxx::<false>::start(4, 2);
    // 2x4 from the start: a loss for the first player (results/ataxx/solved-boards.csv).
    let ab = make_solver::<Ataxx<false>>(SolverKind::Alphabeta, &SolverOptions::default())
        .solve(&start, &Limits::none());
    let got = Solver::<Ataxx<false>>::solve(&mut solver, &start, &Limits::none());
    assert_eq!(got.outcome, ab.outcome);
}

#[test]
fn the_command_line_answers_from_a_table() {
    let dir = tmp_dir("cli");
    let path = build(&dir, "ataxx", "3x3");
    let file = path.to_str().unwrap();
    let start = Ataxx::<false>::start(3, 3).format_position();
    let table_out =
        run(&["solve", "-g", "ataxx", "--solver", "table", "--table", file, "--position", &start]);
    assert!(table_out.status.success(), "{}", String::from_utf8_lossy(&table_out.stderr));
    let ab_out = run(&["solve", "-g", "ataxx", "--solver", "alphabeta", "--position", &start]);
    let line = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find_map(|l| {
                l.split_whitespace()
                    .next()
                    .filter(|w| ["win", "loss", "draw", "unknown"].contains(w))
                    .map(str::to_owned)
            })
            .unwrap()
    };
    assert_eq!(line(&table_out), line(&ab_out));
    assert!(String::from_utf8_lossy(&table_out.stdout).contains("plies=-"));
    // The batch path: a dataset of three positions, one of them on another board.
    let data = dir.join("positions.txt");
    let other = Ataxx::<false>::start(4, 3).format_position();
    let after = {
        let mut p = Ataxx::<false>::start(3, 3);
        let mut moves = <Ataxx<false> as Game>::Moves::default();
        p.generate_moves(&mut moves);
        p.play(moves[0]);
        p.format_position()
    };
    std::fs::write(&data, format!("{start}\n{after}\n{other}\n")).unwrap();
    let out_csv = dir.join("rows.csv");
    let batch = run(&[
        "solve",
        "-g",
        "ataxx",
        "--solver",
        "table",
        "--table",
        file,
        "--out",
        out_csv.to_str().unwrap(),
        data.to_str().unwrap(),
    ]);
    let rows = std::fs::read_to_string(&out_csv).unwrap();
    assert_eq!(rows.lines().count(), 4, "{rows}\n{}", String::from_utf8_lossy(&batch.stderr));
    assert!(rows.lines().filter(|l| l.contains(",table,")).count() == 3, "{rows}");
    // The position on another board is unknown, with the reason on its result line.
    let printed = String::from_utf8_lossy(&batch.stdout);
    assert!(
        printed.contains("unknown") && printed.contains("not on the table's board"),
        "{printed}"
    );
    // Threads, a missing --table, the other rule set: refused.
    let threads = run(&[
        "solve",
        "-g",
        "ataxx",
        "--solver",
        "table",
        "--table",
        file,
        "--threads",
        "2",
        "--position",
        &start,
    ]);
    assert!(!threads.status.success());
    assert!(String::from_utf8_lossy(&threads.stderr).contains("--threads 2"));
    let missing = run(&["solve", "-g", "ataxx", "--solver", "table", "--position", &start]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("needs --table"));
    let rules = run(&[
        "solve",
        "-g",
        "ataxx-polish",
        "--solver",
        "table",
        "--table",
        file,
        "--position",
        &start,
    ]);
    assert!(!rules.status.success());
    assert!(String::from_utf8_lossy(&rules.stderr).contains("the table is of ataxx,"));
}

#[test]
fn bad_table_files_are_refused_with_the_reason() {
    let dir = tmp_dir("bad");
    let path = build(&dir, "ataxx", "2x5");
    let bytes = std::fs::read(&path).unwrap();
    let start = Ataxx::<false>::start(5, 2).format_position();
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("truncated", bytes[..bytes.len() - 8].to_vec(), "truncated"),
        ("magic", [b"NOTATABL".as_slice(), &bytes[8..]].concat(), "bad magic"),
        ("empty", Vec::new(), "bad magic"),
        ("header", bytes[..30].to_vec(), "cut short"),
        ("long", [bytes.as_slice(), &[0u8; 8]].concat(), "its header says"),
    ];
    for (name, content, want) in cases {
        let bad = dir.join(format!("{name}.tbl"));
        std::fs::write(&bad, &content).unwrap();
        let err = TableFile::open(&bad).unwrap_err().to_string();
        assert!(err.contains(want), "{name}: {err}");
        let out = run(&[
            "solve",
            "-g",
            "ataxx",
            "--solver",
            "table",
            "--table",
            bad.to_str().unwrap(),
            "--position",
            &start,
        ]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains(want), "{name}");
    }
    // A header whose bytes were changed: its checksum differs.
    let mut sizes = bytes.clone();
    sizes[30] ^= 1;
    let bad = dir.join("header.tbl");
    std::fs::write(&bad, &sizes).unwrap();
    let err = TableFile::open(&bad).unwrap_err().to_string();
    assert!(err.contains("header's checksum differs"), "{err}");
}
