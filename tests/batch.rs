//! The research workflow end to end: batch rows, resume, interruption, shards, merge, compare,
//! report and dataset generation, through the real binary.

use crate::common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use bitsolve::results::parse_csv;

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args).output().expect("binary runs")
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A directory of its own for the test `name`, removed when dropped.
fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("batch-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Whole rows in a CSV (a partial last line does not count).
fn complete_rows(path: &Path) -> usize {
    let data = std::fs::read_to_string(path).unwrap_or_default();
    let whole = data.rfind('\n').map_or("", |i| &data[..=i]);
    whole.lines().count().saturating_sub(1)
}

const QUICK: &str = "x1o/3/o1x x 0 1";

#[test]
fn second_run_with_resume_does_nothing() {
    let dir = temp_dir("resume");
    let data = dir.join("d.tsv");
    std::fs::write(
        &data,
        format!("id\tposition\texpected\na\t{QUICK}\twin\nb\tx2o/o2x x 0 1\tloss\n"),
    )
    .unwrap();
    let csv = dir.join("out.csv");
    let args = [
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "alphabeta,dfpn",
        "--out",
        s(&csv),
        "--resume",
        s(&data),
    ];
    let first = bitsolve(&args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).contains("| ataxx | dfpn | tt64 | 1 | 2 | 2 | 1 | 1 | 0 |"),
        "{}",
        text(&first.stdout)
    );
    let before = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(before.lines().count(), 5);
    assert_eq!(std::fs::read_to_string(csv.with_extension("jsonl")).unwrap().lines().count(), 4);
    let second = bitsolve(&args);
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(
        text(&second.stderr).contains("4 row(s) already done, 0 to solve"),
        "{}",
        text(&second.stderr)
    );
    assert!(!text(&second.stdout).contains("\tdfpn\t"), "solved again: {}", text(&second.stdout));
    // The summary still covers the run's rows (read back from the file).
    assert!(text(&second.stdout).contains("| ataxx | alphabeta | tt64 | 1 | 2 | 2 |"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
    // Other options are other work: not resumed.
    let mut other = args.to_vec();
    other.extend(["--tt-mib", "8"]);
    let third = bitsolve(&other);
    assert!(
        text(&third.stderr).contains("0 row(s) already done, 4 to solve"),
        "{}",
        text(&third.stderr)
    );
}

/// Kills a run (SIGTERM, then SIGKILL) half-way: every finished row stays, and
/// `--resume` completes the rest without repeating a row.
#[test]
fn killed_runs_keep_every_finished_row() {
    let dir = temp_dir("kill");
    let data = dir.join("d.tsv");
    // Six quick positions, then three slow ones that each run into the 1 s time limit.
    let mut lines = String::from("id\tposition\texpected\n");
    for (i, fen) in
        ["xo/ox", "x1o/o1x", "x2o/o2x", "x3o/o3x", "x4o/o4x", "x5o/o5x"].iter().enumerate()
    {
        let _ = writeln!(lines, "q{i}\t{fen} x 0 1\t-");
    }
    for i in 0..3 {
        let _ = writeln!(lines, "slow{i}\tx3o/5/o3x x 0 1\t-");
    }
    std::fs::write(&data, lines).unwrap();
    let csv = dir.join("out.csv");
    let args = [
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "alphabeta",
        "--time-limit",
        "1",
        "--out",
        s(&csv),
        "--resume",
        s(&data),
    ];
    let wait_for_rows = |n: usize| {
        let start = Instant::now();
        while complete_rows(&csv) < n {
            assert!(start.elapsed() < Duration::from_mins(1), "no progress");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let mut child = spawn(&args);
    wait_for_rows(6);
    std::thread::sleep(Duration::from_millis(300));
    // SIGTERM, not SIGINT: a shell that starts the tests in the background (`cmd &` without
    // job control) makes them and their children ignore SIGINT, and the run would finish.
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    assert!(!child.wait().unwrap().success());
    let after_int = complete_rows(&csv);
    assert!((6..9).contains(&after_int), "{after_int} rows");
    let mut child = spawn(&args);
    wait_for_rows(after_int + 1);
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let out = bitsolve(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (rows, errors) = parse_csv(&std::fs::read(&csv).unwrap());
    assert!(errors.is_empty(), "{errors:?}");
    let mut ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["q0", "q1", "q2", "q3", "q4", "q5", "slow0", "slow1", "slow2"]);
    let json = std::fs::read_to_string(csv.with_extension("jsonl")).unwrap();
    assert_eq!(json.lines().count(), 9);
    assert!(json.lines().all(|l| l.starts_with('{') && l.ends_with('}')));
}

#[test]
fn shards_merge_into_the_whole_run() {
    let dir = temp_dir("shard");
    let data = dir.join("g.tsv");
    let mut graphs = String::new();
    for i in 0..7 {
        let _ = writeln!(graphs, "g{i}\t{i}|1 2;2 0;3;;4 5 6;;0;\t-");
    }
    std::fs::write(&data, format!("id\tposition\texpected\n{graphs}")).unwrap();
    let mut parts = Vec::new();
    for i in 0..3 {
        let out = dir.join(format!("part{i}.csv"));
        let shard = format!("{i}/3");
        let r = bitsolve(&[
            "solve",
            "--game",
            "digraph",
            "--solver",
            "dfpn,pns",
            "--shard",
            &shard,
            "--out",
            s(&out),
            s(&data),
        ]);
        assert!(r.status.success(), "{}", text(&r.stderr));
        parts.push(out);
    }
    assert_eq!(complete_rows(&parts[0]), 6);
    assert_eq!(complete_rows(&parts[2]), 4);
    let merged = dir.join("all.csv");
    let mut args = vec!["merge", "--out", s(&merged)];
    args.extend(parts.iter().map(|p| s(p)));
    args.push(s(&parts[1])); // a repeated file: duplicates are dropped
    let r = bitsolve(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("14 row(s), 4 duplicate(s)"), "{}", text(&r.stderr));
    assert_eq!(complete_rows(&merged), 14);
    assert_eq!(
        std::fs::read_to_string(merged.with_extension("jsonl")).unwrap().lines().count(),
        14
    );
    // The report of the merged file: tables and plots.
    let plots = dir.join("plots");
    let md = dir.join("README.md");
    let r = bitsolve(&["report", s(&merged), "--plots", s(&plots), "--out", s(&md)]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let doc = std::fs::read_to_string(&md).unwrap();
    assert!(doc.contains("| digraph | dfpn | tt64 | 1 | 7 | 7 |"), "{doc}");
    assert!(doc.contains("(plots/nodes-time-digraph.svg)"), "{doc}");
    let svg = std::fs::read_to_string(plots.join("nodes-time-digraph.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    for format in ["csv", "tex"] {
        let r = bitsolve(&["report", s(&merged), "--format", format]);
        assert!(r.status.success());
        assert!(text(&r.stdout).contains("digraph"));
    }
}

#[test]
fn compare_reports_ratios_speedup_and_fails_loudly_on_disagreement() {
    let dir = temp_dir("compare");
    let data = dir.join("d.tsv");
    std::fs::write(&data, format!("a\t{QUICK}\twin\nb\tx2o/o2x x 0 1\tloss\n")).unwrap();
    let r = bitsolve(&[
        "compare",
        "--game",
        "ataxx",
        "--solver",
        "alphabeta,dfpn",
        "--threads",
        "1,2",
        s(&data),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(out.contains("| ataxx | dfpn | tt64 | 2 | 2 | 2 |"), "{out}");
    assert!(out.contains("alphabeta/t1"), "{out}");
    std::fs::write(&data, format!("a\t{QUICK}\tloss\n")).unwrap();
    let r = bitsolve(&[
        "compare",
        "--game",
        "ataxx",
        "--solver",
        "alphabeta,dfpn",
        "--threads",
        "1",
        s(&data),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("DISAGREEMENT"), "{}", text(&r.stderr));
}

#[test]
fn dataset_is_reproducible_and_solvable() {
    let dir = temp_dir("dataset");
    let args = ["dataset", "--game", "ataxx", "--depth", "3,6", "-n", "4", "--seed", "9"];
    let a = bitsolve(&args);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(a.stdout, bitsolve(&args).stdout);
    let file = dir.join("r.tsv");
    std::fs::write(&file, &a.stdout).unwrap();
    let body = text(&a.stdout);
    assert_eq!(body.lines().filter(|l| l.starts_with("d3-") || l.starts_with("d6-")).count(), 8);
    // Every generated line reads back (node limit: 7x7 mid-game positions are not solvable here).
    let r = bitsolve(&[
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "dfpn",
        "--node-limit",
        "100",
        s(&file),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let r = bitsolve(&["dataset", "--game", "digraph"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("--from"));
}

/// `compare --config`: option sets side by side, the first one the baseline of the others; a
/// solver without threads runs once whatever `--threads` says.
#[test]
fn compare_configurations_with_their_own_options() {
    let dir = temp_dir("configs");
    let data = dir.join("d.tsv");
    std::fs::write(&data, format!("a\t{QUICK}\twin\nb\tx2o/o2x x 0 1\tloss\n")).unwrap();
    let r = bitsolve(&[
        "compare",
        "--game",
        "ataxx",
        "--config",
        "dfpn:eps=2,probe",
        "--config",
        "dfpn:nomob,tt=8",
        "--config",
        "pns",
        "--threads",
        "1,2",
        "--format",
        "csv",
        s(&data),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let out = text(&r.stdout);
    assert!(out.contains("ataxx,dfpn,tt64-eps2-probe,2,2,2,"), "{out}");
    assert!(out.contains("ataxx,dfpn,tt8-nomob,1,2,2,"), "{out}");
    assert!(out.contains("ataxx,pns,tt64,1,2,2,"), "{out}");
    assert!(!out.contains("ataxx,pns,tt64,2,"), "pns ran at two threads: {out}");
    assert!(text(&r.stderr).contains("pns has no threads"), "{}", text(&r.stderr));
    // Ratios against the first configuration, named with its options.
    assert!(out.contains("ataxx,dfpn,tt8-nomob,1,dfpn/t1 tt64-eps2-probe,2,"), "{out}");
    let r = bitsolve(&["compare", "--game", "ataxx", "--config", "dfpn:fast", s(&data)]);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("unknown option `fast`"), "{}", text(&r.stderr));
}

#[test]
fn jobs_share_one_queue_over_solvers_and_agree_with_one_job() {
    let dir = temp_dir("jobs");
    let data = dir.join("g.tsv");
    let mut graphs = String::new();
    for i in 0..9 {
        let _ = writeln!(graphs, "g{i}\t{}|1 2;2 0;3;;4 5 6;;0;\t-", i % 7);
    }
    std::fs::write(&data, format!("id\tposition\texpected\n{graphs}")).unwrap();
    let mut outcomes = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.join(format!("jobs{jobs}.csv"));
        let r = bitsolve(&[
            "solve",
            "--game",
            "digraph",
            "--solver",
            "dfpn,pns,alphabeta",
            "--jobs",
            jobs,
            "--oversubscribe",
            "--out",
            s(&out),
            s(&data),
        ]);
        assert!(r.status.success(), "{}", text(&r.stderr));
        let (rows, errors) = parse_csv(&std::fs::read(&out).unwrap());
        assert!(errors.is_empty(), "{errors:?}");
        // Every (position, solver) pair exactly once, whatever job solved it.
        let mut keys: Vec<(String, String, String)> = rows
            .iter()
            .map(|r| (r.id.clone(), r.solver.clone(), format!("{:?}", r.outcome)))
            .collect();
        keys.sort();
        assert_eq!(keys.len(), 27);
        keys.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        assert_eq!(keys.len(), 27, "a pair solved twice");
        outcomes.push(keys);
    }
    assert_eq!(outcomes[0], outcomes[1]);
    // The three solvers agree on every position.
    for chunk in outcomes[0].chunk_by(|a, b| a.0 == b.0) {
        assert!(chunk.iter().all(|k| k.2 == chunk[0].2), "{chunk:?}");
    }
}
