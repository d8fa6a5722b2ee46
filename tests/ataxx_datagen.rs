//! `bitsolve ataxx datagen`: the file format, determinism, resume after a cut, and the opening
//! filter's version 2 header.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::TempDir;

fn datagen(out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("UTF-8 path");
    let mut args = vec!["ataxx", "datagen", "--out", out, "--depth", "2", "--seed", "7", "--quiet"];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(&args).output().expect("binary runs")
}

fn ok(output: &Output) {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
}

/// One record of a data file.
#[derive(Debug, PartialEq, Eq)]
struct Record {
    x: u64,
    o: u64,
    score: i16,
    side: u8,
    result: i8,
    game: u32,
}

/// Checks the header (`version`, `header` bytes) and every record; returns the records.
fn parse(bytes: &[u8], version: u32, header: usize) -> Vec<Record> {
    assert_eq!(&bytes[0..8], b"BSAXDATA");
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(word(8), version);
    assert_eq!(word(12), 24);
    assert_eq!((bytes.len() - header) % 24, 0, "whole records");
    // The 7x7 board in stride-8 squares.
    let board: u64 = (0..7).map(|r| 0x7Fu64 << (8 * r)).sum();
    bytes[header..]
        .chunks(24)
        .map(|r| {
            let rec = Record {
                x: u64::from_le_bytes(r[0..8].try_into().unwrap()),
                o: u64::from_le_bytes(r[8..16].try_into().unwrap()),
                score: i16::from_le_bytes([r[16], r[17]]),
                side: r[18],
                result: r[19] as i8,
                game: u32::from_le_bytes(r[20..24].try_into().unwrap()),
            };
            assert_eq!(rec.x & rec.o, 0, "{rec:?}");
            assert_eq!((rec.x | rec.o) & !board, 0, "{rec:?}");
            assert!(rec.side <= 1 && (-1..=1).contains(&rec.result), "{rec:?}");
            rec
        })
        .collect()
}

/// The game indices in file order, deduplicated.
fn games(records: &[Record]) -> Vec<u32> {
    let mut games: Vec<u32> = records.iter().map(|r| r.game).collect();
    games.dedup();
    games
}

#[test]
fn files_are_deterministic_and_resume_after_a_cut() {
    let dir = TempDir::new("datagen-resume");
    let whole = dir.join("whole.bin");
    ok(&datagen(&whole, &["--games", "4"]));
    let bytes = std::fs::read(&whole).unwrap();
    let records = parse(&bytes, 1, 48);
    assert_eq!(games(&records), vec![0, 1, 2, 3], "games in index order");
    // Within a game the side to move alternates unless a side passes, and the result of a
    // game is seen from each side to move: opposite for the two sides unless drawn.
    for g in 0..4 {
        let game: Vec<&Record> = records.iter().filter(|r| r.game == g).collect();
        assert!(!game.is_empty());
        for pair in game.windows(2) {
            if pair[0].side != pair[1].side {
                assert_eq!(pair[0].result, -pair[1].result, "{pair:?}");
            }
        }
    }
    // The same arguments again: nothing to do, the file unchanged.
    ok(&datagen(&whole, &["--games", "4"]));
    assert_eq!(std::fs::read(&whole).unwrap(), bytes);

    // Two games, then extended to four: the same file as in one run.
    let grown = dir.join("grown.bin");
    ok(&datagen(&grown, &["--games", "2"]));
    assert_eq!(games(&parse(&std::fs::read(&grown).unwrap(), 1, 48)), vec![0, 1]);
    ok(&datagen(&grown, &["--games", "4"]));
    assert_eq!(std::fs::read(&grown).unwrap(), bytes);

    // A crash in the middle of a record: the partial record and the last game are redone.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 24 * 3 - 5]).unwrap();
    ok(&datagen(&cut, &["--games", "4"]));
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
}

#[test]
fn the_opening_filter_writes_version_2_and_guards_resume() {
    let dir = TempDir::new("datagen-filter");
    let out = dir.join("filtered.bin");
    let filter = ["--games", "3", "--min-plies", "10", "--max-plies", "14"];
    ok(&datagen(&out, &[&filter[..], &["--max-opening-score", "150"]].concat()));
    let bytes = std::fs::read(&out).unwrap();
    let records = parse(&bytes, 2, 56);
    assert_eq!(u32::from_le_bytes(bytes[48..52].try_into().unwrap()), 150);
    assert_eq!(&bytes[52..56], &[0; 4]);
    assert_eq!(games(&records), vec![0, 1, 2]);
    // The first position of each game is a filtered opening: its search score is within the
    // bound unless all the tries failed (not with these seeds at depth 2).
    for g in 0..3 {
        let first = records.iter().find(|r| r.game == g).unwrap();
        assert!(first.score.unsigned_abs() <= 150, "{first:?}");
    }
    // Resuming without the filter (or with another bound) is refused, the file unchanged.
    for other in [&filter[..], &[&filter[..], &["--max-opening-score", "100"]].concat()] {
        let refused = datagen(&out, other);
        assert!(!refused.status.success());
        let message = String::from_utf8_lossy(&refused.stderr);
        assert!(message.contains("header differs"), "{message}");
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
    }
    // A bound of 0 is rejected by the parser.
    let zero = datagen(&dir.join("zero.bin"), &["--games", "1", "--max-opening-score", "0"]);
    assert!(!zero.status.success());
}
