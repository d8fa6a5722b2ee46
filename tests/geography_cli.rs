//! The `bitsolve geography` commands as separate processes over loopback: the server on an
//! ephemeral port, the engine client against the random client, and `solve` on the `200` body.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
}

#[test]
fn server_and_clients_play_a_game_as_processes() {
    let mut server = bin()
        .args(["geography", "serve", "--port", "0", "--gsize", "32", "--time", "1"])
        .args(["--seed", "3", "--games", "1"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let port = first.split(':').nth(1).unwrap().split(' ').next().unwrap().to_string();
    let client = bin()
        .args(["geography", "client", "--port", &port, "--time-ms", "400"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let random =
        bin().args(["geography", "random", "--port", &port, "--seed", "9"]).output().unwrap();
    let client = client.wait_with_output().unwrap();
    let mut record = String::new();
    out.read_line(&mut record).unwrap();
    assert!(server.wait().unwrap().success());
    // Exit codes: 0 won, 3 lost; exactly one winner, as the server recorded.
    let codes = (client.status.code(), random.status.code());
    assert!(matches!(codes, (Some(0), Some(3)) | (Some(3), Some(0))), "{codes:?}");
    let fields: Vec<&str> = record.trim_end().split('\t').collect();
    // The server pairs in accept order. The engine client usually connects first, but on a
    // loaded machine the random one may beat it: the first mover is the one whose opening
    // `200` message is the record's initial graph (the second one's already has a move played).
    let random_log = String::from_utf8_lossy(&random.stderr);
    let opening = random_log.lines().find_map(|l| l.split("Received: 200 ").nth(1));
    let random_first = opening == Some(fields[7]);
    let engine_won = codes.0 == Some(0);
    let winner = if engine_won == random_first { "second" } else { "first" };
    assert_eq!(fields[4], winner, "{record}\nrandom client's log:\n{random_log}");
    assert_eq!(fields[5], "rules");
}

#[test]
fn solve_prints_the_value_first_on_its_last_line() {
    let out = bin()
        .args(["solve", "--game", "geography", "--solver", "dfpn,alphabeta"])
        .args(["--position", "5 0 6 0 1 1 2 2 0 2 3 3 4 4 2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().last().unwrap().starts_with("win "), "{text}");
    let bad =
        bin().args(["solve", "--game", "geography", "--position", "3 0 1 0 7"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not below"));
}

#[test]
fn client_reports_a_missing_server_cleanly() {
    let out = bin().args(["geography", "client", "--port", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("connecting"));
}

#[test]
fn solve_takes_game_options_and_records_them() {
    let position = "6 0 9 0 1 1 2 2 0 2 3 3 4 4 5 5 3 0 5 1 4";
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["solve", "--game", "geography", "--solver", "dfpn", "--position", position])
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string(), out.stderr)
    };
    // The solve default is the measured-best set; the options line says which one ran.
    let (code, text, _) = run(&[]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("-reductions=default+guided+parity-set+parity-win+parity-deep+traps"),
        "{text}"
    );
    let value = text.lines().last().unwrap().split(' ').next().unwrap().to_string();
    let (code, plain, _) = run(&["--game-option", "reductions=none"]);
    assert_eq!(code, Some(0));
    assert!(plain.contains("-reductions=none"), "{plain}");
    assert!(plain.lines().last().unwrap().starts_with(&format!("{value} ")), "{plain}");
    // Exit 2: the argument parser's own usage error.
    for (extra, exit, message) in [
        ("colour=red", 1, "unknown game option `colour` (this game has: reductions)"),
        ("reductions=fast", 1, "unknown reduction `fast`"),
        ("reductions", 2, "is not NAME=VALUE"),
    ] {
        let (code, _, err) = run(&["--game-option", extra]);
        assert_eq!(code, Some(exit), "{extra}");
        assert!(String::from_utf8_lossy(&err).contains(message), "{extra}: {err:?}");
    }
    let (code, _, err) =
        run(&["--game-option", "reductions=none", "--game-option", "reductions=all"]);
    assert_eq!(code, Some(1));
    assert!(String::from_utf8_lossy(&err).contains("given twice"));
    let ataxx = bin()
        .args(["solve", "--game", "ataxx", "--position", "x5o/7/7/7/7/7/o5x x 0 1"])
        .args(["--game-option", "reductions=none"])
        .output()
        .unwrap();
    assert_eq!(ataxx.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&ataxx.stderr).contains("this game has no options"));
}

#[test]
fn batch_rows_carry_the_game_options() {
    let dir = std::env::temp_dir().join(format!("bitsolve-geo-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("g.tsv");
    std::fs::write(&data, "id\tposition\texpected\na\t5 0 6 0 1 1 2 2 0 2 3 3 4 4 2\t-\n").unwrap();
    let out = dir.join("rows.csv");
    let status = bin()
        .args(["solve", "--game", "geography", "--solver", "dfpn"])
        .args(["--game-option", "reductions=default,traps", "--out"])
        .arg(&out)
        .arg(&data)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let rows = std::fs::read_to_string(&out).unwrap();
    assert!(rows.contains("reductions=default+traps"), "{rows}");
    std::fs::remove_dir_all(&dir).unwrap();
}
