//! `bitsolve ataxx datagen` and `bitsolve ataxx data`: the version 3 file format (records,
//! game trailers, CRCs), determinism, resume after a cut, the opening filter, blocked squares,
//! and damage found.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::TempDir;

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args).output().expect("binary runs")
}

fn datagen(out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().expect("UTF-8 path");
    let mut args = vec!["ataxx", "datagen", "--out", out, "--depth", "2", "--seed", "7", "--quiet"];
    args.extend_from_slice(extra);
    bitsolve(&args)
}

fn ok(output: &Output) {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
}

/// One record of a data file.
#[derive(Debug, PartialEq, Eq)]
struct Record {
    x: u64,
    o: u64,
    blocked: u64,
    score: i16,
    side: u8,
    result: i8,
    game: u32,
}

/// The 7x7 board in stride-8 squares.
const BOARD: u64 = 0x007F_7F7F_7F7F_7F7F;

/// Checks the header and every record and trailer (with an independent CRC-32); returns the
/// records and the results for `x` from the trailers.
fn parse(bytes: &[u8]) -> (Vec<Record>, Vec<i8>) {
    assert_eq!(&bytes[0..8], b"BSAXDATA");
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(word(8), 3);
    assert_eq!(word(12), 32);
    assert_eq!(word(56), crc32(&bytes[0..56]), "header CRC");
    assert_eq!((bytes.len() - 64) % 32, 0, "whole records");
    let (mut records, mut results, mut game_start) = (Vec::new(), Vec::new(), 64);
    for (k, r) in bytes[64..].chunks(32).enumerate() {
        let at = 64 + 32 * k;
        let game = u32::from_le_bytes(r[28..32].try_into().unwrap());
        if r[26] == 0xFF {
            assert_eq!(&r[0..8], b"BSAXGAME");
            let count = u32::from_le_bytes(r[8..12].try_into().unwrap()) as usize;
            assert_eq!(count, (at - game_start) / 32, "trailer count");
            let crc = u32::from_le_bytes(r[12..16].try_into().unwrap());
            assert_eq!(crc, crc32(&bytes[game_start..at]), "game {game} CRC");
            assert_eq!(game as usize, results.len(), "games in index order");
            results.push(r[27] as i8);
            game_start = at + 32;
            continue;
        }
        let rec = Record {
            x: u64::from_le_bytes(r[0..8].try_into().unwrap()),
            o: u64::from_le_bytes(r[8..16].try_into().unwrap()),
            blocked: u64::from_le_bytes(r[16..24].try_into().unwrap()),
            score: i16::from_le_bytes([r[24], r[25]]),
            side: r[26],
            result: r[27] as i8,
            game,
        };
        assert_eq!(game as usize, results.len(), "{rec:?} belongs to the open game");
        assert_eq!(rec.x & rec.o, 0, "{rec:?}");
        assert_eq!((rec.x | rec.o) & (rec.blocked | !BOARD), 0, "{rec:?}");
        assert!(rec.side <= 1 && (-1..=1).contains(&rec.result), "{rec:?}");
        records.push(rec);
    }
    assert_eq!(game_start, bytes.len(), "the file ends with a trailer");
    (records, results)
}

/// CRC-32 (IEEE), bit by bit: an oracle independent of the program's table.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

#[test]
fn files_are_deterministic_and_resume_after_a_cut() {
    let dir = TempDir::new("datagen-resume");
    let whole = dir.join("whole.bin");
    ok(&datagen(&whole, &["--games", "4"]));
    let bytes = std::fs::read(&whole).unwrap();
    let (records, results) = parse(&bytes);
    assert_eq!(results.len(), 4);
    // Within a game the side to move alternates unless a side passes, and the result of a
    // game is seen from each side to move: opposite for the two sides unless drawn; the
    // trailer's result is the one of x.
    for g in 0..4 {
        let game: Vec<&Record> = records.iter().filter(|r| r.game == g).collect();
        assert!(!game.is_empty());
        for pair in game.windows(2) {
            if pair[0].side != pair[1].side {
                assert_eq!(pair[0].result, -pair[1].result, "{pair:?}");
            }
        }
        let r = game[0];
        assert_eq!(if r.side == 0 { r.result } else { -r.result }, results[g as usize]);
        assert!(game.iter().all(|r| r.blocked == 0), "no blocked squares by default");
    }
    // The same arguments again: nothing to do, the file unchanged.
    ok(&datagen(&whole, &["--games", "4"]));
    assert_eq!(std::fs::read(&whole).unwrap(), bytes);

    // Two games, then extended to four: the same file as in one run.
    let grown = dir.join("grown.bin");
    ok(&datagen(&grown, &["--games", "2"]));
    assert_eq!(parse(&std::fs::read(&grown).unwrap()).1.len(), 2);
    ok(&datagen(&grown, &["--games", "4"]));
    assert_eq!(std::fs::read(&grown).unwrap(), bytes);

    // A crash in the middle of a record, of a trailer, or just after a header: the
    // incomplete game is played again and the file comes out the same.
    for cut_bytes in [32 * 3 + 5, 7, bytes.len() - 64 - 3] {
        let cut = dir.join("cut.bin");
        std::fs::write(&cut, &bytes[..bytes.len() - cut_bytes]).unwrap();
        ok(&datagen(&cut, &["--games", "4"]));
        assert_eq!(std::fs::read(&cut).unwrap(), bytes, "cut {cut_bytes} bytes");
    }

    // `ataxx data` agrees and finds a flipped byte, naming the game; resume refuses it too.
    let path = whole.to_str().unwrap();
    let checked = bitsolve(&["ataxx", "data", "--unique", path]);
    ok(&checked);
    let text = String::from_utf8_lossy(&checked.stdout);
    assert!(text.contains(&format!("games=4 positions={}", records.len())), "{text}");
    let mut bad = bytes.clone();
    let last_trailer = bytes.len() - 32;
    bad[last_trailer - 40] ^= 1;
    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, &bad).unwrap();
    let refused = bitsolve(&["ataxx", "data", path, damaged.to_str().unwrap()]);
    assert!(!refused.status.success());
    let text = String::from_utf8_lossy(&refused.stdout);
    assert!(text.contains("game 3 damaged"), "{text}");
    assert!(text.contains(&format!("{path}: ok")), "the good file is still reported: {text}");
    let resumed = datagen(&damaged, &["--games", "5"]);
    assert!(!resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("damaged"));
    assert_eq!(std::fs::read(&damaged).unwrap(), bad, "a damaged file is left as it was");
}

#[test]
fn the_opening_filter_and_blocked_squares_guard_resume() {
    let dir = TempDir::new("datagen-filter");
    let out = dir.join("filtered.bin");
    let filter =
        ["--games", "6", "--min-plies", "10", "--max-plies", "14", "--blocked-share", "0.5"];
    ok(&datagen(&out, &[&filter[..], &["--max-opening-score", "150"]].concat()));
    let bytes = std::fs::read(&out).unwrap();
    let (records, results) = parse(&bytes);
    assert_eq!(u32::from_le_bytes(bytes[48..52].try_into().unwrap()), 150);
    assert_eq!(u32::from_le_bytes(bytes[52..56].try_into().unwrap()), 500);
    assert_eq!(results.len(), 6);
    let mut with_blocked = 0;
    for g in 0..6 {
        let game: Vec<&Record> = records.iter().filter(|r| r.game == g).collect();
        // The first position of each game is a filtered opening: its search score is within
        // the bound unless all the tries failed (not with these seeds at depth 2).
        assert!(game[0].score.unsigned_abs() <= 150, "{:?}", game[0]);
        // A game keeps its blocked squares; they are symmetric in both axes and spare the
        // corners.
        let blocked = game[0].blocked;
        assert!(game.iter().all(|r| r.blocked == blocked));
        for sq in (0..64).filter(|sq| blocked >> sq & 1 == 1) {
            let (r, f) = (sq / 8, sq % 8);
            assert!(r < 7 && f < 7);
            for (rr, ff) in [(r, 6 - f), (6 - r, f)] {
                assert_eq!(
                    blocked >> (8 * rr + ff) & 1,
                    1,
                    "square {sq} of {blocked:#x} unmirrored"
                );
            }
            assert!(![(0, 0), (0, 6), (6, 0), (6, 6)].contains(&(r, f)));
        }
        with_blocked += usize::from(blocked != 0);
    }
    assert!((1..6).contains(&with_blocked), "about half of six games: {with_blocked}");
    // Resuming without the filter, with another bound or another share is refused, the file
    // unchanged.
    let no_filter = &filter[..];
    let other_bound = [&filter[..], &["--max-opening-score", "100"]].concat();
    let other_share =
        [&filter[..6], &["--blocked-share", "0.25", "--max-opening-score", "150"]].concat();
    for other in [no_filter, &other_bound, &other_share] {
        let refused = datagen(&out, other);
        assert!(!refused.status.success());
        let message = String::from_utf8_lossy(&refused.stderr);
        assert!(message.contains("header differs"), "{message}");
        assert_eq!(std::fs::read(&out).unwrap(), bytes);
    }
    // A bound of 0 and a share outside 0..1 are rejected.
    for bad in [["--max-opening-score", "0"], ["--blocked-share", "1.5"]] {
        let refused = datagen(&dir.join("zero.bin"), &[&["--games", "1"][..], &bad[..]].concat());
        assert!(!refused.status.success(), "{bad:?}");
    }
}
