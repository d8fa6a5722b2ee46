//! `bitsolve geography tournament` end to end: client processes on our server over loopback,
//! Swiss (with a bye for an odd count) and round robin, and the files they write.

use crate::common;
use common::TempDir;

use std::path::Path;
use std::process::Command;

fn tournament(format: &str, players: usize, rounds: u32, out: &Path) -> String {
    let bin = env!("CARGO_BIN_EXE_bitsolve");
    // Player 0's moves vary with the game; the others' follow their own fixed seeds.
    let commands: Vec<String> = (0..players)
        .map(|i| {
            let seed = if i == 0 { "{seed}".to_string() } else { i.to_string() };
            format!("{bin} geography random --seed {seed}")
        })
        .collect();
    let result = Command::new(bin)
        .args(["geography", "tournament", "--format", format, "--rounds", &rounds.to_string()])
        .args(["--seed", "3", "--gsize", "32", "--time", "2", "--players", &commands.join(",")])
        .arg("--out")
        .arg(out)
        .output()
        .expect("the binary runs");
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    String::from_utf8(result.stdout).unwrap()
}

/// The data rows of a TSV file, split into fields.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().skip(1).map(|l| l.split('\t').map(str::to_string).collect()).collect()
}

#[test]
fn swiss_with_an_odd_count_gives_distinct_byes() {
    let out = TempDir::new("swiss");
    let printed = tournament("swiss", 5, 3, &out);
    let games = rows(&out.join("games.tsv"));
    let standings = rows(&out.join("standings.tsv"));
    // Three rounds of two games and a bye each.
    let byes: Vec<&Vec<String>> = games.iter().filter(|g| g[4] == "bye").collect();
    assert_eq!((games.len(), byes.len()), (9, 3), "{games:?}");
    let mut bye_players: Vec<&str> = byes.iter().map(|g| g[1].as_str()).collect();
    bye_players.sort_unstable();
    bye_players.dedup();
    assert_eq!(bye_players.len(), 3, "a player had two byes: {games:?}");
    // No rematches, every game decided by the rules.
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .filter(|g| g[4] != "bye")
        .map(|g| {
            assert_eq!(g[4], "rules", "{g:?}");
            let (a, b) = (g[1].clone(), g[2].clone());
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "a rematch: {games:?}");
    // Standings: every player, 9 points in all (6 games, 3 byes), sorted by points.
    assert_eq!(standings.len(), 5);
    let points: Vec<u32> = standings.iter().map(|s| s[2].parse().unwrap()).collect();
    assert_eq!(points.iter().sum::<u32>(), 9);
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert!(printed.starts_with("rank\tplayer\tpoints"));
}

#[test]
fn round_robin_plays_every_pair() {
    let out = TempDir::new("rr");
    tournament("round-robin", 3, 1, &out);
    let games = rows(&out.join("games.tsv"));
    assert_eq!(games.len(), 3);
    let standings = rows(&out.join("standings.tsv"));
    let played: u32 = standings.iter().map(|s| s[3].parse::<u32>().unwrap()).sum();
    assert_eq!(played, 6);
}
