//! Tournaments of client commands on our own server: Swiss (the default) or round robin.
//!
//! * **Swiss** (`--format swiss`): `rounds` rounds paired by [`super::swiss`] (score groups,
//!   no rematches, colours balanced, one bye per player for odd counts, counted as a win).
//!   Default rounds: `ceil(log2(players))`, at least 1.
//! * **Round robin** (`--format round-robin`): every pair meets `rounds` times (default 2) with
//!   colours alternating (a player moves first in half of its games, rounded).
//!
//! Each game gets its own server on an ephemeral loopback port and a seed derived from the
//! tournament seed and the game number (so graphs differ between games and the whole event
//! replays from the seed); the first player's command is started, and the second only once the
//! server has accepted the first connection, so colours are as scheduled. A command may contain
//! `{seed}`, replaced by the game's seed (e.g. `random --seed {seed}` varies its moves).
//!
//! Written to `<out>` after every game: `games.tsv` (every game and bye, with the longest move
//! of each side as the server measured it), `standings.tsv` (points, then Buchholz, then
//! Sonneborn-Berger; wins and losses as first and as second mover, losses on time, illegal or
//! malformed moves, disconnects, byes, the longest move) and, if a Swiss round needed a
//! relaxation, `notes.txt`.

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

use super::server::{GameRecord, ServerConfig, ServerEvent, ms, serve};
use super::swiss::{Swiss, tie_breaks};

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Swiss system: pairing by score, no rematches, colours balanced, byes.
    Swiss,
    /// Every pair meets `rounds` times.
    RoundRobin,
}

/// Settings of a tournament.
pub struct TournamentConfig {
    /// Client commands; `{host}` and `{port}` are replaced, else `--host H --port P` appended;
    /// `{seed}` becomes the game's seed.
    pub players: Vec<String>,
    /// Pairing system.
    pub format: Format,
    /// Swiss rounds, or games per pair in a round robin (`None`: the format's default).
    pub rounds: Option<u32>,
    /// Tournament seed.
    pub seed: u64,
    /// Vertices per graph.
    pub gsize: usize,
    /// Time per move.
    pub time: Duration,
}

/// Starts `command` for the server at `port` in the game with `seed`.
fn spawn(command: &str, port: u16, seed: u64) -> Result<Child> {
    let command = command.replace("{seed}", &seed.to_string());
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
    let mut a = spawn(first, port, seed)?;
    let start_timeout = Duration::from_secs(20);
    let started = Instant::now();
    loop {
        if let Ok(ServerEvent::Accepted) = rx.recv_timeout(Duration::from_millis(20)) {
            break;
        }
        if let Ok(Some(status)) = a.try_wait() {
            bail!("`{first}` exited ({status}) before connecting");
        }
        if started.elapsed() > start_timeout {
            let _ = a.kill();
            let _ = a.wait();
            bail!("`{first}` did not connect within {start_timeout:?}");
        }
    }
    let mut b = spawn(second, port, seed)?;
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

/// One line of `games.tsv`: a game, or a bye (`record` is `None`, `first` sits out).
struct Row {
    round: u32,
    first: usize,
    second: usize,
    record: Option<GameRecord>,
}

impl Row {
    /// Whether the first mover won (a bye counts as a win for its player).
    fn first_won(&self) -> bool {
        self.record.as_ref().is_none_or(|r| r.winner == 0)
    }
}

/// A running tournament: its settings, where it writes, and what has happened.
struct Event<'a> {
    config: &'a TournamentConfig,
    out: &'a Path,
    rows: Vec<Row>,
    notes: Vec<String>,
}

impl Event<'_> {
    /// Plays game number `self.rows.len()` and records it.
    fn play(&mut self, round: u32, first: usize, second: usize) -> Result<bool> {
        let game = self.rows.len() as u64;
        let seed = splitmix64(self.config.seed.wrapping_add(game)).1;
        let players = &self.config.players;
        let r = play_one(self.config, &players[first], &players[second], seed)?;
        let first_won = r.winner == 0;
        eprintln!(
            "round {round} game {}: {first} vs {second}: {} wins ({})",
            game + 1,
            if first_won { first } else { second },
            r.reason
        );
        self.rows.push(Row { round, first, second, record: Some(r) });
        self.write()?;
        Ok(first_won)
    }

    /// Records a bye.
    fn bye(&mut self, round: u32, player: usize) -> Result<()> {
        eprintln!("round {round}: {player} has a bye");
        self.rows.push(Row { round, first: player, second: player, record: None });
        self.write()
    }

    /// The games table.
    fn games_tsv(&self) -> String {
        let mut t = String::from(
            "round\tfirst\tsecond\twinner\treason\tseed\tmoves\tmax_ms_first\tmax_ms_second\n",
        );
        for row in &self.rows {
            let _ = match &row.record {
                None => {
                    writeln!(t, "{}\t{}\t-\t{}\tbye\t-\t0\t-\t-", row.round, row.first, row.first)
                }
                Some(r) => writeln!(
                    t,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}",
                    row.round,
                    row.first,
                    row.second,
                    if r.winner == 0 { row.first } else { row.second },
                    r.reason,
                    r.seed,
                    r.moves.len(),
                    ms(r.max_think[0]),
                    ms(r.max_think[1]),
                ),
            };
        }
        t
    }

    /// The standings table, best first.
    fn standings_tsv(&self) -> String {
        let count = self.config.players.len();
        let games: Vec<(usize, usize, bool)> = self
            .rows
            .iter()
            .filter(|r| r.record.is_some())
            .map(|r| (r.first, r.second, r.first_won()))
            .collect();
        let byes: Vec<usize> =
            self.rows.iter().filter(|r| r.record.is_none()).map(|r| r.first).collect();
        let ties = tie_breaks(count, &games, &byes);
        // Per player: wins/losses as first, as second; time losses; illegal; disconnects;
        // games; longest move.
        let mut stats = vec![[0u32; 8]; count];
        let mut longest = vec![0f64; count];
        for row in &self.rows {
            let Some(r) = &row.record else { continue };
            for (side, p) in [(0, row.first), (1, row.second)] {
                let s = &mut stats[p];
                let won = r.winner == side;
                s[2 * side + usize::from(!won)] += 1;
                s[7] += 1;
                longest[p] = longest[p].max(ms(r.max_think[side]));
                if !won {
                    match r.reason.as_str() {
                        "time" => s[4] += 1,
                        "illegal move" | "unrecognized command" | "not your turn" => s[5] += 1,
                        "disconnected" => s[6] += 1,
                        _ => {}
                    }
                }
            }
        }
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&i| {
            let (p, b, sb) = ties[i];
            (std::cmp::Reverse((p, b, sb)), i)
        });
        let mut t = String::from(
            "rank\tplayer\tpoints\tgames\tbuchholz\tsonneborn_berger\twins_first\tlosses_first\t\
             wins_second\tlosses_second\ttime_losses\tillegal\tdisconnects\tbyes\tmax_ms\tcommand\n",
        );
        for (rank, &i) in order.iter().enumerate() {
            let (p, b, sb) = ties[i];
            let s = stats[i];
            let byes = byes.iter().filter(|&&b| b == i).count();
            let _ = writeln!(
                t,
                "{}\t{i}\t{p}\t{}\t{b}\t{sb}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{byes}\t{:.1}\t{}",
                rank + 1,
                s[7],
                s[0],
                s[1],
                s[2],
                s[3],
                s[4],
                s[5],
                s[6],
                longest[i],
                self.config.players[i]
            );
        }
        t
    }

    /// Writes every file (after each game, so an interrupted event keeps its results).
    fn write(&self) -> Result<()> {
        fs::write(self.out.join("games.tsv"), self.games_tsv()).context("writing games.tsv")?;
        fs::write(self.out.join("standings.tsv"), self.standings_tsv())
            .context("writing standings.tsv")?;
        if !self.notes.is_empty() {
            fs::write(self.out.join("notes.txt"), self.notes.join("\n") + "\n")
                .context("writing notes.txt")?;
        }
        Ok(())
    }
}

/// `ceil(log2(n))`, at least 1: enough Swiss rounds to separate `n` players.
fn swiss_rounds(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// Runs the tournament and writes `games.tsv` and `standings.tsv` (and `notes.txt` if any)
/// under `out`; returns the standings.
///
/// # Errors
/// Fewer than two players, a player that cannot be started, or files that cannot be written.
pub fn run(config: &TournamentConfig, out: &Path) -> Result<String> {
    let count = config.players.len();
    if count < 2 {
        bail!("a tournament needs at least two players (--players CMD1,CMD2)");
    }
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let _ = fs::remove_file(out.join("notes.txt"));
    let mut event = Event { config, out, rows: Vec::new(), notes: Vec::new() };
    match config.format {
        Format::RoundRobin => {
            for round in 1..=config.rounds.unwrap_or(2) {
                for i in 0..count {
                    for j in i + 1..count {
                        let (f, s) = if (round - 1 + (i + j) as u32).is_multiple_of(2) {
                            (i, j)
                        } else {
                            (j, i)
                        };
                        event.play(round, f, s)?;
                    }
                }
            }
        }
        Format::Swiss => {
            let mut swiss = Swiss::new(count, config.seed);
            for round in 1..=config.rounds.unwrap_or_else(|| swiss_rounds(count)) {
                let pairing = swiss.pair();
                for note in &pairing.notes {
                    eprintln!("note: {note}");
                }
                event.notes.extend(pairing.notes);
                if let Some(b) = pairing.bye {
                    swiss.record_bye(b);
                    event.bye(round, b)?;
                }
                for (f, s) in pairing.games {
                    let first_won = event.play(round, f, s)?;
                    swiss.record_game(f, s, first_won);
                }
            }
        }
    }
    event.write()?;
    Ok(event.standings_tsv())
}

#[cfg(test)]
mod tests {
    use super::swiss_rounds;

    #[test]
    fn default_swiss_rounds() {
        let got: Vec<u32> = [2, 3, 4, 5, 8, 9, 16, 17].iter().map(|&n| swiss_rounds(n)).collect();
        assert_eq!(got, [1, 2, 2, 3, 3, 4, 4, 5]);
    }
}
