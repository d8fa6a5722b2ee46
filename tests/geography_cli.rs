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
    let random = bin()
        .args(["geography", "random", "--port", &port, "--seed", "9"])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let client = client.wait_with_output().unwrap();
    let mut record = String::new();
    out.read_line(&mut record).unwrap();
    assert!(server.wait().unwrap().success());
    // Exit codes: 0 won, 3 lost; exactly one winner, as the server recorded.
    let codes = (client.status.code(), random.status.code());
    assert!(matches!(codes, (Some(0), Some(3)) | (Some(3), Some(0))), "{codes:?}");
    let fields: Vec<&str> = record.trim_end().split('\t').collect();
    assert_eq!(fields[4], if codes.0 == Some(0) { "first" } else { "second" }, "{record}");
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
