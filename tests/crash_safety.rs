//! Crash-safe result files: a batch run killed with SIGKILL at random moments loses no finished
//! row, `--resume` repairs torn lines and completes the work, the CSV and JSON Lines files hold
//! the same rows, and the result equals a run that was never killed (time columns aside).
//! Also `solve --score` through the same path: killed and resumed.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use bitsolve::results::{Row, RowKey, complete_len, parse_csv, parse_jsonl};

fn bitsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args).output().expect("binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A directory of its own for the test `name`, removed when dropped.
fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("crash-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The rows of the complete lines of a result file (a torn last line is not a finished row).
fn finished_rows(path: &Path, json: bool) -> Vec<Row> {
    let bytes = std::fs::read(path).unwrap_or_default();
    let whole = &bytes[..complete_len(&bytes)];
    let (rows, errors) = if json { parse_jsonl(whole) } else { parse_csv(whole) };
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    rows
}

/// A row without its wall time: what must equal between runs.
fn timeless(row: &Row) -> Row {
    Row { millis: 0.0, ..row.clone() }
}

fn sorted(rows: &[Row]) -> Vec<Row> {
    let mut out: Vec<Row> = rows.iter().map(timeless).collect();
    out.sort_by_key(Row::key);
    out
}

/// Asserts the state of a result file after a kill: every row finished before is still there,
/// no key twice, and the JSON Lines rows are CSV rows (the CSV is written first).
fn check_after_kill(csv: &Path, before: &HashSet<RowKey>) -> HashSet<RowKey> {
    let rows = finished_rows(csv, false);
    let keys: HashSet<RowKey> = rows.iter().map(Row::key).collect();
    assert_eq!(keys.len(), rows.len(), "a row was written twice");
    assert!(before.is_subset(&keys), "finished rows were lost");
    let json = finished_rows(&csv.with_extension("jsonl"), true);
    let csv_rows: Vec<Row> = rows.iter().map(timeless).collect();
    for row in &json {
        assert!(csv_rows.contains(&timeless(row)), "JSON row not in the CSV: {row:?}");
    }
    keys
}

/// Both files complete and equal to the reference rows.
fn check_complete(csv: &Path, reference: &[Row]) {
    let rows = finished_rows(csv, false);
    let json = finished_rows(&csv.with_extension("jsonl"), true);
    assert_eq!(rows, json, "CSV and JSON Lines differ");
    assert_eq!(sorted(&rows), sorted(reference));
    let bytes = std::fs::read(csv).unwrap();
    assert_eq!(complete_len(&bytes), bytes.len(), "torn line left");
}

/// xorshift64*: a seeded source of kill moments.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }
}

#[test]
fn sigkill_at_100_random_moments_loses_no_finished_row() {
    let dir = temp_dir("kill100");
    let data = dir.join("d.tsv");
    let small = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/ataxx/small-boards.tsv");
    let r = bitsolve(&[
        "dataset",
        "--game",
        "ataxx",
        "--from",
        small,
        "--depth",
        "1,2,3,4",
        "-n",
        "13",
        "--seed",
        "5",
        "--out",
        s(&data),
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let run_args = |out: &Path| -> Vec<String> {
        [
            "solve",
            "--game",
            "ataxx",
            "--solver",
            "alphabeta,dfpn",
            "--tt-mib",
            "1",
            "--node-limit",
            "3000",
            "--out",
            s(out),
            "--resume",
            s(&data),
        ]
        .iter()
        .map(ToString::to_string)
        .collect()
    };
    // The reference: one run, never killed.
    let reference_csv = dir.join("reference.csv");
    let started = Instant::now();
    let r = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(run_args(&reference_csv))
        .output()
        .unwrap();
    let whole_ms = started.elapsed().as_millis() as u64;
    assert!(r.status.success(), "{}", text(&r.stderr));
    let reference = finished_rows(&reference_csv, false);
    let positions =
        std::fs::read_to_string(&data).unwrap().lines().filter(|l| l.starts_with('d')).count();
    assert!(positions >= 40, "{positions} positions");
    assert_eq!(reference.len(), 2 * positions, "every position x 2 solvers");
    check_complete(&reference_csv, &reference);

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut round, mut kills, mut completed) = (0, 0, 0);
    let mut csv = dir.join("round0.csv");
    let mut finished: HashSet<RowKey> = HashSet::new();
    let mut progress = Vec::new();
    while kills < 100 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
            .args(run_args(&csv))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Kill moments spread over the first half of a whole run, so a round takes several.
        std::thread::sleep(Duration::from_micros(rng.below(whole_ms * 500 + 1)));
        let exited = child.try_wait().unwrap();
        if exited.is_none() {
            child.kill().unwrap(); // SIGKILL
        }
        let status = child.wait().unwrap();
        if exited.is_some() || status.success() {
            // The run finished before the kill: the round is complete.
            assert!(status.success());
            check_complete(&csv, &reference);
            completed += 1;
            round += 1;
            csv = dir.join(format!("round{round}.csv"));
            finished.clear();
            continue;
        }
        kills += 1;
        let now = check_after_kill(&csv, &finished);
        progress.push(now.len() - finished.len());
        finished = now;
    }
    // Resume the last round to the end, unkilled.
    let r = Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(run_args(&csv)).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    check_complete(&csv, &reference);
    eprintln!(
        "{kills} kills, {completed} round(s) completed under kills, whole run {whole_ms} ms, \
         rows finished between kills: {progress:?}"
    );
    assert!(completed >= 1, "no round completed under kills: progress per kill {progress:?}");
    assert!(progress.iter().filter(|&&n| n > 0).count() >= 10, "kills too early: {progress:?}");
}

#[test]
fn exact_scores_are_killed_and_resumed() {
    let dir = temp_dir("score");
    // The bundled endgames with up to 7 placements left, solved in microseconds each, then two
    // with 8 and 9 left (about 70 and 100 ms on a release build): the run is killed when its
    // first row is written, so those two are still being solved then.
    let all = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/datasets/gauss/endgames.tsv"
    ))
    .unwrap();
    let mut quick: Vec<&str> = all
        .lines()
        .filter(|l| ["r04", "r05", "r06", "r07"].iter().any(|p| l.starts_with(p)))
        .collect();
    quick.extend(all.lines().filter(|l| ["r08-0\t", "r09-0\t"].iter().any(|p| l.starts_with(p))));
    let data_path = dir.join("endgames.tsv");
    std::fs::write(&data_path, quick.join("\n") + "\n").unwrap();
    let data = s(&data_path);
    let args = |out: &Path| -> Vec<String> {
        [
            "solve",
            "--game",
            "gauss",
            "--score",
            "--solver",
            "alphabeta",
            "--out",
            s(out),
            "--resume",
            data,
        ]
        .iter()
        .map(ToString::to_string)
        .collect()
    };
    let reference_csv = dir.join("reference.csv");
    let r =
        Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args(&reference_csv)).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    let reference = finished_rows(&reference_csv, false);
    assert_eq!(reference.len(), quick.len());
    assert!(quick.len() >= 10);
    assert!(reference.iter().all(|r| r.score.is_some() && r.options.ends_with("-score")));
    let out = text(&r.stdout);
    assert!(out.contains("| gauss | alphabeta | tt64-score | 1 |"), "{out}");
    assert!(out.contains("| game | solver | options | threads | positions | scored |"), "{out}");
    // Kill once the first row is written (a kill at half the whole run's time was flaky once
    // a run of tiny solves became mostly the program's start), resume, and get the same rows.
    let csv = dir.join("killed.csv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args(&csv))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_mins(1);
    while finished_rows(&csv, false).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = child.kill();
    child.wait().unwrap();
    let partial = check_after_kill(&csv, &HashSet::new());
    assert!(partial.len() < reference.len(), "the run was not cut short");
    let r = Command::new(env!("CARGO_BIN_EXE_bitsolve")).args(args(&csv)).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(
        text(&r.stderr).contains(&format!("{} row(s) already done", partial.len())),
        "{}",
        text(&r.stderr)
    );
    check_complete(&csv, &reference);
    // And the report has the score columns.
    let r = bitsolve(&["report", s(&csv)]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("## Exact scores"), "{}", text(&r.stdout));
}

/// A JSON Lines file that lost rows (or holds a torn line) is rebuilt from the CSV when the
/// files are opened again.
#[test]
fn resume_repairs_a_json_lines_file_behind_the_csv() {
    let dir = temp_dir("repair");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/ataxx/small-boards.tsv");
    let csv = dir.join("out.csv");
    let args = [
        "solve",
        "--game",
        "ataxx",
        "--solver",
        "dfpn",
        "--tt-mib",
        "1",
        "--node-limit",
        "20000",
        "--out",
        s(&csv),
        "--resume",
        data,
    ];
    let r = bitsolve(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let reference = finished_rows(&csv, false);
    let jsonl = csv.with_extension("jsonl");
    let json = std::fs::read_to_string(&jsonl).unwrap();
    // Drop the last two rows and leave half a line, as a kill between the writes could.
    let lines: Vec<&str> = json.lines().collect();
    let cut = lines[..lines.len() - 2].join("\n") + "\n" + &lines[lines.len() - 2][..10];
    std::fs::write(&jsonl, cut).unwrap();
    // And a torn CSV line.
    let mut bytes = std::fs::read(&csv).unwrap();
    bytes.extend_from_slice(b"ataxx,x,y,dfp");
    std::fs::write(&csv, bytes).unwrap();
    let r = bitsolve(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("rewritten from"), "{}", text(&r.stderr));
    assert!(text(&r.stderr).contains("0 to solve"), "{}", text(&r.stderr));
    check_complete(&csv, &reference);
}
