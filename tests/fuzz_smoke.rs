//! A short slice of the fuzzing that CI runs: every target of `bitsolve::fuzzing` on its seeds
//! (from `datasets/`, GIPF's official inputs) and a few thousand mutations of them, each input
//! within a generous time bound; the binary's own targets (UAI, arbiter, geography server
//! reading) through `bitsolve fuzz`; and every crash the long runs found, as a regression.
//! The long run is `scripts/fuzz.sh` (results in `results/fuzz.md`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use bitsolve::fuzzing::{self, Rng, TARGETS};

/// Far above any input's time on a loaded machine: only a hang or a runaway search passes it.
const BOUND: Duration = Duration::from_secs(10);

#[test]
fn library_targets_survive_mutated_seeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for target in TARGETS {
        let seeds = fuzzing::seeds(target, root);
        assert!(!seeds.is_empty(), "{} has no seeds", target.name);
        let mut rng = Rng::new(0x5eed);
        // The GIPF interpreter runs whole streams with searches: fewer inputs.
        let inputs = if target.name == "gipf-interpreter" { 150 } else { 2000 };
        for i in 0..inputs {
            let mut input = seeds[i % seeds.len()].clone();
            if i >= seeds.len() {
                let other = &seeds[rng.below(seeds.len())];
                fuzzing::mutate(&mut input, other, target.words, &mut rng);
            }
            let start = Instant::now();
            (target.run)(&input);
            let took = start.elapsed();
            assert!(took < BOUND, "{}: an input took {took:?}: {input:?}", target.name);
        }
    }
}

#[test]
fn binary_targets_survive_mutated_seeds() {
    for (target, inputs) in [("uai", "150"), ("arbiter", "400"), ("geography-server", "3000")] {
        let crashes = std::env::temp_dir().join(format!("bitsolve-fuzz-smoke-{target}"));
        let out = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
            .args(["fuzz", "--target", target, "--inputs", inputs, "--seed", "7", "--hang", "10"])
            .arg("--root")
            .arg(env!("CARGO_MANIFEST_DIR"))
            .arg("--crashes")
            .arg(&crashes)
            .output()
            .unwrap();
        let summary = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{target}: {summary}\n{}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .join("\n")
        );
        let fields: Vec<&str> = summary.trim().split('\t').collect();
        assert_eq!(fields[..3], [target, inputs, "0"], "{summary}");
    }
}

/// Inputs that once crashed or hung a target (found by the fuzz runs), each with its target.
const REGRESSIONS: &[(&str, &[u8])] = &[
    // The UAI loop waited for ever for a `go infinite` search before `perft`, `bench` or
    // `setoption`: now such a command stops the search first.
    ("uai", b"position startpos\ngo infinite\nperft 1\nsetoption name Hash value 2\nisready\n"),
    // Hostile lines of the issue, through every loop.
    ("uai", b"uai\n\xff\xfe\nisready\r\0\nisready\n"),
    ("arbiter", b"czarne 1000\n\xff\xfe\nb6b5\r\0\n"),
    ("gipf-interpreter", b"LOAD_GAME_BOARD\n2 3 4 4\n2 1 W\n _ \xff\n_ _ _\n _ _\nIS_GAME_OVER\n"),
];

#[test]
fn fuzz_regressions() {
    for (name, input) in REGRESSIONS {
        if let Some(target) = fuzzing::target(name) {
            (target.run)(input);
            continue;
        }
        let file = std::env::temp_dir().join(format!("bitsolve-regression-{name}.bin"));
        std::fs::write(&file, input).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
            .args(["fuzz", "--target", name, "--hang", "10", "--replay"])
            .arg(&file)
            .arg("--root")
            .arg(env!("CARGO_MANIFEST_DIR"))
            .arg("--crashes")
            .arg(std::env::temp_dir().join("bitsolve-regression-crashes"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stdout));
    }
}
