//! A round-robin tournament of client commands on our own server.
//!
//! Every pair of players meets `rounds` times with colours alternating (a player moves first in
//! half of its games, rounded). Each game gets its own server on an ephemeral loopback port and a
//! seed derived from the tournament seed; the first player's command is started, and the second
//! only once the server has accepted the first connection, so colours are as scheduled. Results
//! go to `<out>/games.tsv` (every game) and `<out>/standings.tsv`.

use std::fmt::Write as _;
use std::fs;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bitsolve::zobrist::splitmix64;

use super::server::{GameRecord, ServerConfig, ServerEvent, serve};

/// Settings of a tournament.
pub struct TournamentConfig {
    /// Client commands; `{host}` and `{port}` are replaced, else `--host H --port P` appended.
    pub players: Vec<String>,
    /// Games per pair.
    pub rounds: u32,
    /// Tournament seed.
    pub seed: u64,
    /// Vertices per graph.
    pub gsize: usize,
    /// Time per move.
    pub time: Duration,
}

/// Starts `command` for the server at `port`.
fn spawn(command: &str, port: u16) -> Result<Child> {
    let line = if command.contains("{port}") {
        command.replace("{host}", "127.0.0.1").replace("{port}", &port.to_string())
    } else {
        format!("{command} --host 127.0.0.1 --port {port}")
    };
    Command::new("sh")
        .arg("-c")
        .arg(&line)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting `{line}`"))
}

/// Kills `child` if it has not exited by `deadline`.
fn reap(child: &mut Child, deadline: Instant) {
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Plays one game: `first` moves first. Returns the record.
fn play_one(config: &TournamentConfig, first: &str, second: &str, seed: u64) -> Result<GameRecord> {
    let listener = TcpListener::bind("127.0.0.1:0").context("binding a loopback port")?;
    let port = listener.local_addr()?.port();
    let server_config =
        ServerConfig { gsize: config.gsize, time: config.time, seed, max_games: Some(1) };
    let (tx, rx) = mpsc::channel();
    let server = thread::spawn(move || serve(&listener, &server_config, &tx));
    let mut a = spawn(first, port)?;
    let start_timeout = Duration::from_secs(20);
    if !matches!(rx.recv_timeout(start_timeout), Ok(ServerEvent::Accepted)) {
        let _ = a.kill();
        let _ = a.wait();
        bail!("`{first}` did not connect within {start_timeout:?}");
    }
    let mut b = spawn(second, port)?;
    // A game has at most as many moves as edges (7 * 128 / 2); each within the limit.
    let game_timeout = config.time * 450 + Duration::from_secs(30);
    let record = loop {
        match rx.recv_timeout(game_timeout) {
            Ok(ServerEvent::Finished(r)) => break Some(r),
            Ok(ServerEvent::Accepted) => {}
            Err(_) => break None,
        }
    };
    let grace = Instant::now() + Duration::from_secs(5);
    reap(&mut a, grace);
    reap(&mut b, grace);
    let Some(record) = record else {
        bail!("the game between `{first}` and `{second}` did not finish");
    };
    let _ = server.join();
    Ok(record)
}

/// Runs the tournament and writes `games.tsv` and `standings.tsv` under `out`.
///
/// # Errors
/// Fewer than two players, a player that cannot be started, or files that cannot be written.
pub fn run(config: &TournamentConfig, out: &Path) -> Result<String> {
    let count = config.players.len();
    if count < 2 {
        bail!("a tournament needs at least two players (--players CMD1,CMD2)");
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut points = vec![0u32; count];
    let mut played = vec![0u32; count];
    let mut games = String::from("round\tfirst\tsecond\twinner\treason\tseed\tmoves\n");
    let mut played_games = 0u64;
    for round in 0..config.rounds {
        for i in 0..count {
            for j in i + 1..count {
                let (f, s) =
                    if (round + (i + j) as u32).is_multiple_of(2) { (i, j) } else { (j, i) };
                let seed = splitmix64(config.seed.wrapping_add(played_games)).1;
                played_games += 1;
                let r = play_one(config, &config.players[f], &config.players[s], seed)?;
                let winner = if r.winner == 0 { f } else { s };
                points[winner] += 1;
                played[f] += 1;
                played[s] += 1;
                let _ = writeln!(
                    games,
                    "{}\t{f}\t{s}\t{winner}\t{}\t{}\t{}",
                    round + 1,
                    r.reason,
                    r.seed,
                    r.moves.len()
                );
                eprintln!(
                    "round {} game {played_games}: {f} vs {s}: {winner} wins ({})",
                    round + 1,
                    r.reason
                );
            }
        }
    }
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(points[i]), i));
    let mut standings = String::from("rank\tplayer\tpoints\tgames\tcommand\n");
    for (rank, &i) in order.iter().enumerate() {
        let _ = writeln!(
            standings,
            "{}\t{i}\t{}\t{}\t{}",
            rank + 1,
            points[i],
            played[i],
            config.players[i]
        );
    }
    fs::write(out.join("games.tsv"), &games).context("writing games.tsv")?;
    fs::write(out.join("standings.tsv"), &standings).context("writing standings.tsv")?;
    Ok(standings)
}
