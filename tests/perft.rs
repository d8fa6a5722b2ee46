//! Perft of the Ataxx move generator against the reference numbers in
//! `datasets/perft/ataxx.txt` (standard rules).

use bitsolve::{AtaxxPolish, AtaxxStandard, Notation, Perft};

/// Largest node count checked by the default (not ignored) test.
const DEFAULT_LIMIT: u64 = 200_000_000;

/// One reference number: position, depth, node count.
struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/perft/ataxx.txt");
    let text = std::fs::read_to_string(path).expect("perft dataset");
    let mut fen = None;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(f) = line.strip_prefix("fen ") {
            fen = Some(f.to_owned());
            continue;
        }
        let (depth, nodes) = line.split_once(' ').unwrap_or_else(|| panic!("line {}", n + 1));
        out.push(Case {
            fen: fen.clone().unwrap_or_else(|| panic!("line {}: no fen yet", n + 1)),
            depth: depth.parse().expect("depth"),
            nodes: nodes.parse().expect("nodes"),
        });
    }
    out
}

fn check(selected: impl Fn(&Case) -> bool) -> usize {
    let mut checked = 0;
    for case in cases().iter().filter(|c| selected(c)) {
        let pos = AtaxxStandard::parse_position(&case.fen).expect("valid fen");
        assert_eq!(pos.perft(case.depth), case.nodes, "{} depth {}", case.fen, case.depth);
        checked += 1;
    }
    checked
}

#[test]
fn perft_reference_numbers() {
    let checked = check(|c| c.nodes <= DEFAULT_LIMIT);
    assert!(checked >= 30, "only {checked} cases");
}

#[test]
fn dataset_holds_every_spec_number() {
    assert_eq!(cases().len(), 40);
}

#[test]
fn polish_rules_agree_from_the_start() {
    let pos = AtaxxPolish::parse_position("x5o/7/7/7/7/7/o5x x 0 1").unwrap();
    assert_eq!(pos.perft(5), 4_752_668);
    // x is stuck: a pass under standard rules, a loss under Polish rules.
    let stuck = AtaxxPolish::parse_position("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1").unwrap();
    assert_eq!(stuck.perft(3), 0);
}

#[test]
#[ignore = "about 5 billion nodes"]
fn perft_depth_7() {
    let start = std::time::Instant::now();
    let checked = check(|c| c.nodes > DEFAULT_LIMIT && c.depth == 7);
    let seconds = start.elapsed().as_secs_f64();
    eprintln!("perft 7: {seconds:.2} s, {:.3} G nodes/s", 5_023_479_496.0 / seconds / 1e9);
    assert_eq!(checked, 1);
}

#[test]
#[ignore = "about 177 billion nodes"]
fn perft_depth_8() {
    assert_eq!(check(|c| c.nodes > DEFAULT_LIMIT && c.depth == 8), 1);
}
