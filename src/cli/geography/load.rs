//! `bitsolve geography load`: the server under load. Many games at once on loopback, between a
//! mix of well-behaved and hostile clients, and a check that no game record is lost.
//!
//! Every client is a thread of this process that speaks the contest protocol over its own TCP
//! connection. Client `i` behaves as [`KINDS`]`[i % KINDS.len()]`:
//!
//! * well-behaved: `random` (uniformly random legal moves, one write per line), `split` (the same,
//!   but each line sent one byte per write), `crlf` (lines end in `\r\n`);
//! * hostile: `garbage` (invalid UTF-8, NUL and a CR for a move), `flood` (1 MiB without a line
//!   end), `silent` (never answers), `vanish` (closes the connection on its first turn),
//!   `doubled` (sends its move twice, so the second arrives out of turn).
//!
//! The server pairs connections in accept order, so any kind may meet any other. After the run
//! every game must have exactly one record; every record's moves must replay legally from its
//! start; every client must appear in exactly one record; every well-behaved client must have been
//! told the result the record gives; and a game between two well-behaved clients must end by the
//! rules. The peak resident memory of the process (server and all clients) is read from
//! `/proc/self/status` (`VmHWM`).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use bitsolve::lineio::LineReader;
use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Notation};

use super::server::{GameRecord, ServerConfig, ServerEvent, serve};

/// How a load-test client behaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Random legal moves, one write per line.
    Random,
    /// Random legal moves, each line written one byte at a time.
    Split,
    /// Random legal moves, lines ending in `\r\n`.
    Crlf,
    /// Sends bytes that are not a line of text on its first turn.
    Garbage,
    /// Sends 1 MiB without a line end on its first turn.
    Flood,
    /// Never sends anything.
    Silent,
    /// Closes the connection on its first turn.
    Vanish,
    /// Sends its first move twice.
    Doubled,
}

impl Kind {
    /// Whether the client follows the protocol.
    pub fn is_good(self) -> bool {
        matches!(self, Kind::Random | Kind::Split | Kind::Crlf)
    }
}

/// The kinds in the order clients are given them.
pub const KINDS: [Kind; 9] = [
    Kind::Random,
    Kind::Garbage,
    Kind::Split,
    Kind::Flood,
    Kind::Crlf,
    Kind::Silent,
    Kind::Random,
    Kind::Vanish,
    Kind::Doubled,
];

/// Settings of a load test.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// Games played at once (twice as many clients).
    pub games: u64,
    /// The server's time per move.
    pub time: Duration,
    /// Vertices per graph.
    pub gsize: usize,
    /// Seed of the graphs and of the clients' moves.
    pub seed: u64,
}

/// How a client's game ended, as the client saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Won,
    Lost,
    /// The connection closed without an end code (or the client closed it itself).
    Closed,
}

/// What one client saw.
#[derive(Debug)]
struct ClientLog {
    kind: Kind,
    addr: SocketAddr,
    seen: Seen,
}

/// The outcome of a load test.
#[derive(Debug)]
pub struct LoadReport {
    /// Games the server was asked to play.
    pub games: u64,
    /// Game records received.
    pub records: usize,
    /// Records by their `reason` field.
    pub reasons: BTreeMap<String, usize>,
    /// Clients by kind.
    pub clients: BTreeMap<String, usize>,
    /// Everything found wrong (empty when the server passed).
    pub problems: Vec<String>,
    /// Wall time from the first connection to the last record.
    pub wall: Duration,
    /// Peak resident memory of the process in KiB (`VmHWM`), if readable.
    pub peak_rss_kib: Option<u64>,
}

impl LoadReport {
    /// A Markdown summary.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "| games | records | problems | wall time | peak RSS |\n|---|---|---|---|---|\n\
             | {} | {} | {} | {:.2} s | {} |\n\nGame ends by reason:\n\n| reason | games |\n|---|---|\n",
            self.games,
            self.records,
            self.problems.len(),
            self.wall.as_secs_f64(),
            self.peak_rss_kib
                .map_or_else(|| "n/a".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
        );
        for (reason, n) in &self.reasons {
            let _ = writeln!(out, "| {reason} | {n} |");
        }
        out.push_str("\nClients by kind:\n\n| kind | clients |\n|---|---|\n");
        for (kind, n) in &self.clients {
            let _ = writeln!(out, "| {kind} | {n} |");
        }
        for p in &self.problems {
            let _ = writeln!(out, "\nPROBLEM: {p}");
        }
        out
    }
}

/// Runs a load test: a server on an ephemeral loopback port, `2 * games` clients at once.
///
/// # Errors
/// If the listening socket cannot be opened.
pub fn run(config: &LoadConfig) -> std::io::Result<LoadReport> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let server_config = ServerConfig {
        gsize: config.gsize,
        time: config.time,
        seed: config.seed,
        max_games: Some(config.games),
    };
    let (tx, rx) = mpsc::channel();
    let server = thread::spawn(move || serve(&listener, &server_config, &tx));
    let started = Instant::now();
    let mut clients = Vec::new();
    for i in 0..2 * config.games {
        let kind = KINDS[(i % KINDS.len() as u64) as usize];
        let seed = config.seed ^ (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        clients.push(thread::spawn(move || client(addr, kind, seed)));
    }
    // Generous: every game ends within a few move times of its start.
    let deadline = Instant::now() + config.time * 20 + Duration::from_secs(30);
    let mut records = Vec::new();
    let mut problems = Vec::new();
    while records.len() < config.games as usize {
        let wait = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(ServerEvent::Finished(r)) => records.push(r),
            Ok(ServerEvent::Accepted) => {}
            Err(_) => {
                problems.push(format!(
                    "only {} of {} game records arrived",
                    records.len(),
                    config.games
                ));
                break;
            }
        }
    }
    let wall = started.elapsed();
    let logs: Vec<ClientLog> = clients
        .into_iter()
        .filter_map(|c| match c.join() {
            Ok(Ok(log)) => Some(log),
            Ok(Err(e)) => {
                problems.push(format!("a client could not connect: {e}"));
                None
            }
            Err(_) => {
                problems.push("a client thread panicked".into());
                None
            }
        })
        .collect();
    if server.join().is_err() {
        problems.push("the server thread panicked".into());
    }
    problems.extend(check(&records, &logs));
    let mut reasons = BTreeMap::new();
    for r in &records {
        *reasons.entry(r.reason.clone()).or_insert(0) += 1;
    }
    let mut kinds = BTreeMap::new();
    for log in &logs {
        *kinds.entry(format!("{:?}", log.kind).to_lowercase()).or_insert(0) += 1;
    }
    Ok(LoadReport {
        games: config.games,
        records: records.len(),
        reasons,
        clients: kinds,
        problems,
        wall,
        peak_rss_kib: peak_rss_kib(),
    })
}

/// Cross-checks the records against what the clients saw.
fn check(records: &[GameRecord], logs: &[ClientLog]) -> Vec<String> {
    let mut problems = Vec::new();
    let by_addr: HashMap<String, &ClientLog> =
        logs.iter().map(|l| (l.addr.to_string(), l)).collect();
    let mut seen_in = HashMap::new();
    let mut ids: Vec<u64> = records.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != records.len() {
        problems.push("two records share a game id".into());
    }
    for r in records {
        if let Err(e) = replay(r) {
            problems.push(format!("game {}: {e}", r.id));
        }
        let mut good = 0;
        for (side, player) in r.players.iter().enumerate() {
            *seen_in.entry(player.clone()).or_insert(0) += 1;
            let Some(log) = by_addr.get(player) else {
                problems.push(format!("game {}: unknown player {player}", r.id));
                continue;
            };
            if !log.kind.is_good() {
                continue;
            }
            good += 1;
            let expected = if r.winner == side { Seen::Won } else { Seen::Lost };
            if log.seen != expected {
                problems.push(format!(
                    "game {} ({}): {:?} client {player} saw {:?}, the record says {expected:?}",
                    r.id, r.reason, log.kind, log.seen
                ));
            }
        }
        if good == 2 && r.reason != "rules" {
            problems.push(format!("game {} between good clients ended by {}", r.id, r.reason));
        }
    }
    for log in logs {
        match seen_in.get(&log.addr.to_string()) {
            Some(1) => {}
            n => problems.push(format!("client {} is in {} records", log.addr, n.unwrap_or(&0))),
        }
    }
    problems
}

/// Replays a record's moves from its start: each must be legal, and the game must be over
/// after them exactly when it ended by the rules.
fn replay(r: &GameRecord) -> Result<(), String> {
    let mut pos =
        Geography::parse_position(&r.start).map_err(|e| format!("bad start: {e}"))?.plain();
    for &v in &r.moves {
        if pos.outcome().is_some() {
            return Err("a move after the end".into());
        }
        let mv = pos.parse_move(&v.to_string()).map_err(|e| format!("illegal move {v}: {e}"))?;
        pos.play(mv);
    }
    if (r.reason == "rules") != pos.outcome().is_some() {
        return Err(format!("ended by {} but the rules say {:?}", r.reason, pos.outcome()));
    }
    Ok(())
}

/// One client's whole game.
fn client(addr: SocketAddr, kind: Kind, seed: u64) -> std::io::Result<ClientLog> {
    let stream = TcpStream::connect(addr)?;
    let _ = stream.set_nodelay(true);
    // A client never waits forever, even on a server that forgot it.
    stream.set_read_timeout(Some(Duration::from_mins(2)))?;
    let local = stream.local_addr()?;
    let mut writer = stream.try_clone()?;
    let mut lines = LineReader::new(BufReader::new(stream));
    let mut rng = KeyStream::new(seed);
    let mut pos: Option<Geography> = None;
    let mut first_turn = true;
    let seen = loop {
        let Ok(Some(line)) = lines.next_line() else { break Seen::Closed };
        let Ok(text) = line.text() else { continue };
        let mut words = text.split_whitespace();
        let code = words.next().unwrap_or("");
        match code {
            "230" | "231" => break Seen::Won,
            "240" | "241" => break Seen::Lost,
            "200" => pos = Geography::parse_position(text[3..].trim()).ok(),
            "220" => {
                let v = words.next().and_then(|w| w.parse::<u8>().ok());
                if let (Some(p), Some(v)) = (pos.as_mut(), v)
                    && let Ok(mv) = p.parse_move(&v.to_string())
                {
                    p.play(mv);
                }
            }
            _ => continue,
        }
        if !matches!(code, "200" | "220") {
            continue;
        }
        let Some(p) = pos.as_mut() else { continue };
        let mut moves = <Geography as Game>::Moves::default();
        p.generate_moves(&mut moves);
        if moves.is_empty() {
            continue;
        }
        let v = moves[(rng.next_key() % moves.len() as u64) as usize];
        p.play(v);
        let move_line = format!("210 {v}");
        let sent = match (kind, first_turn) {
            (Kind::Silent, _) => Ok(()),
            (Kind::Vanish, true) => break Seen::Closed,
            (Kind::Garbage, true) => writer.write_all(b"\xff\xfe 210\x00\r\n"),
            (Kind::Flood, true) => writer.write_all(&vec![b'7'; 1 << 20]),
            (Kind::Doubled, true) => {
                writer.write_all(format!("{move_line}\n{move_line}\n").as_bytes())
            }
            (Kind::Split, _) => move_line.bytes().chain(*b"\n").try_for_each(|b| {
                thread::sleep(Duration::from_millis(1));
                writer.write_all(&[b])
            }),
            (Kind::Crlf, _) => writer.write_all(format!("{move_line}\r\n").as_bytes()),
            _ => writer.write_all(format!("{move_line}\n").as_bytes()),
        };
        first_turn = false;
        // The server may close a hostile client's connection while it writes: read on, the
        // end code (or the close) follows.
        drop(sent);
    };
    Ok(ClientLog { kind, addr: local, seen })
}

/// `VmHWM` of `/proc/self/status` in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 100 games at once, a third of the clients well-behaved: every record arrives and agrees
    /// with what the clients saw.
    #[test]
    fn hundred_concurrent_games_with_hostile_clients() {
        let config =
            LoadConfig { games: 100, time: Duration::from_millis(1500), gsize: 32, seed: 7 };
        let report = run(&config).unwrap();
        assert!(report.problems.is_empty(), "{}", report.markdown());
        assert_eq!(report.records, 100);
        // Every hostile behaviour and the ordinary end all happened.
        for reason in ["rules", "time", "disconnected", "unrecognized command", "not your turn"] {
            assert!(report.reasons.contains_key(reason), "no game ended by {reason}: {report:?}");
        }
    }
}
