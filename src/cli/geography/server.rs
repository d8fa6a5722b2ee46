//! The contest server: pairs connections in accept order and plays each pair's game in its own
//! thread, speaking the contest protocol so contest clients connect unchanged.
//!
//! Unlike the reference server it frames messages by lines (a line split over several TCP
//! chunks, or several lines in one chunk, are read correctly; empty lines are ignored),
//! enforces turns (a line from the side not to move is an error), has a watchdog (a side silent
//! past the time limit loses with `241`, the opponent gets `231`), reports a vanished opponent as
//! a win (`230`), and draws every graph from a seed. An error (`999 ...`) loses the game for the
//! side that made it: it gets `999 <reason>` then `240`, the opponent `999 <notice>` then `230`.

use std::io::{BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use bitsolve::lineio::{Line, LineReader};
use bitsolve::zobrist::splitmix64;
use bitsolve::{Game, Geography, Notation};

/// Longest line a client may send (a move is a few bytes).
const MAX_LINE: usize = 256;

/// Server settings.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Vertices per graph.
    pub gsize: usize,
    /// Time per move.
    pub time: Duration,
    /// Seed of the first game; game `i` uses a seed derived from it and `i`.
    pub seed: u64,
    /// Stop after this many games (`None`: serve forever).
    pub max_games: Option<u64>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, from 0 in accept order.
    pub id: u64,
    /// The game's own seed (reproduces the graph and the token).
    pub seed: u64,
    /// Peer addresses: first mover, second.
    pub players: [String; 2],
    /// 0 if the first mover won, 1 otherwise.
    pub winner: usize,
    /// Why: `rules`, `time`, `illegal move`, `unrecognized command`, `not your turn`,
    /// `disconnected`.
    pub reason: String,
    /// The start position.
    pub start: String,
    /// The moves played (target vertices).
    pub moves: Vec<u8>,
    /// The longest time each side (first mover, second) took for a move, as the server measures
    /// it: from sending `200`/`220` to receiving the reply.
    pub max_think: [Duration; 2],
}

impl GameRecord {
    /// One tab-separated line: id, seed, first, second, winner, reason, moves, start, and the
    /// longest move of the first and of the second side in milliseconds.
    pub fn tsv(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(u8::to_string).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}",
            self.id,
            self.seed,
            self.players[0],
            self.players[1],
            if self.winner == 0 { "first" } else { "second" },
            self.reason,
            moves.join(" "),
            self.start,
            ms(self.max_think[0]),
            ms(self.max_think[1]),
        )
    }
}

/// A duration in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// What the server tells its owner.
#[derive(Debug)]
pub enum ServerEvent {
    /// A connection was accepted (the tournament starts the next player after this).
    Accepted,
    /// A game ended.
    Finished(GameRecord),
}

/// Serves games on `listener` until `config.max_games` games have been played (forever if
/// `None`), sending events to `events` (ignored when nobody listens).
pub fn serve(listener: &TcpListener, config: &ServerConfig, events: &Sender<ServerEvent>) {
    let mut pending: Option<(TcpStream, SocketAddr)> = None;
    let mut games = Vec::new();
    let mut id = 0u64;
    while config.max_games.is_none_or(|m| id < m) {
        let (stream, addr) = match listener.accept() {
            Ok(x) => x,
            Err(e) => {
                eprintln!("accept failed: {e}");
                thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let _ = events.send(ServerEvent::Accepted);
        match pending.take() {
            Some((first, first_addr)) if is_alive(&first) => {
                let config = config.clone();
                let events = events.clone();
                let seed = splitmix64(config.seed.wrapping_add(id)).1;
                let game_id = id;
                id += 1;
                games.push(thread::spawn(move || {
                    let record =
                        run_game(game_id, seed, &config, [first, stream], [first_addr, addr]);
                    let _ = events.send(ServerEvent::Finished(record));
                }));
            }
            _ => pending = Some((stream, addr)),
        }
    }
    for g in games {
        let _ = g.join();
    }
}

/// Whether a waiting connection is still open (a closed one is replaced by the next).
fn is_alive(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let alive = match stream.peek(&mut [0u8; 1]) {
        Ok(0) => false,
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
    };
    stream.set_nonblocking(false).is_ok() && alive
}

/// What a connection's reader thread reports.
enum Input {
    /// A complete non-empty line (without its terminator), and when it arrived.
    Line(String, Instant),
    /// Bytes that are not a line of text (too long or not UTF-8).
    Garbage(Instant),
    /// The connection closed or failed.
    Closed,
}

/// Reads `stream` line by line and forwards each line as `(side, Input)`: a line longer than
/// [`MAX_LINE`] is garbage as soon as its bytes pass the cap, one that is not text (bad UTF-8,
/// control bytes) when its end arrives.
fn read_lines(side: usize, stream: TcpStream, tx: &Sender<(usize, Input)>) {
    let mut lines = LineReader::with_limit(BufReader::new(stream), MAX_LINE).eager();
    loop {
        let Ok(Some(line)) = lines.next_line() else {
            let _ = tx.send((side, Input::Closed));
            return;
        };
        let Some(input) = input_of(line, Instant::now()) else { continue };
        if tx.send((side, input)).is_err() {
            return;
        }
    }
}

/// What a line read at `now` is for the referee; `None` for a blank line (ignored).
fn input_of(line: Line, now: Instant) -> Option<Input> {
    match line.content {
        Ok(text) if text.trim().is_empty() => None,
        Ok(text) => Some(Input::Line(text.trim().to_string(), now)),
        Err(_) => Some(Input::Garbage(now)),
    }
}

/// The fuzz target of the server's reading: the bytes a client sends, read as the server reads
/// them; a line that reads as a move is two words, `210` and a number.
pub fn fuzz_lines(data: &[u8]) {
    let now = Instant::now();
    for line in LineReader::with_limit(data, MAX_LINE).eager().map_while(Result::ok) {
        if let Some(Input::Line(text, _)) = input_of(line, now)
            && let Some(v) = parse_move(&text)
        {
            let words: Vec<&str> = text.split_ascii_whitespace().collect();
            assert_eq!((words.len(), words[0]), (2, "210"), "{text:?} read as move {v}");
            assert_eq!(words[1].parse::<u8>().ok(), Some(v), "{text:?} read as move {v}");
        }
    }
}

/// The two connections of a game.
struct Table {
    streams: [TcpStream; 2],
}

impl Table {
    /// Sends one line to `side`; errors are ignored (a vanished peer is noticed by its reader).
    fn send(&mut self, side: usize, msg: &str) {
        let _ = self.streams[side].write_all(format!("{msg}\n").as_bytes());
    }

    /// Ends the game: `side` loses with `code` after an optional error line; the other side
    /// gets `other_code` after its optional notice.
    fn end(&mut self, loser: usize, lines: [(&str, Option<&str>); 2]) {
        let winner = 1 - loser;
        for (side, (code, notice)) in [(loser, lines[0]), (winner, lines[1])] {
            if let Some(n) = notice {
                self.send(side, n);
            }
            self.send(side, code);
        }
    }
}

/// Plays one game between `streams[0]` (moves first) and `streams[1]`.
fn run_game(
    id: u64,
    seed: u64,
    config: &ServerConfig,
    streams: [TcpStream; 2],
    addrs: [SocketAddr; 2],
) -> GameRecord {
    let (tx, rx) = mpsc::channel();
    for (side, s) in streams.iter().enumerate() {
        if let Ok(clone) = s.try_clone() {
            let tx = tx.clone();
            thread::spawn(move || read_lines(side, clone, &tx));
        } else {
            let _ = tx.send((side, Input::Closed));
        }
    }
    drop(tx);
    // The referee needs the plain rules only; reductions would cost time for nothing.
    let pos = match Geography::contest_start(config.gsize, seed) {
        Ok(p) => p.plain(),
        Err(e) => {
            eprintln!("cannot make a graph: {e}");
            Geography::parse_position("2 0 1 0 1").unwrap_or_else(|_| unreachable!())
        }
    };
    let mut record = GameRecord {
        id,
        seed,
        players: addrs.map(|a| a.to_string()),
        winner: 0,
        reason: String::new(),
        start: pos.format_position(),
        moves: Vec::new(),
        max_think: [Duration::ZERO; 2],
    };
    let mut table = Table { streams };
    let (loser, reason) = referee(pos, config.time, &mut table, &rx, &mut record);
    record.winner = 1 - loser;
    record.reason = reason.to_string();
    for s in &table.streams {
        let _ = s.shutdown(Shutdown::Both);
    }
    record
}

/// Runs the turns; returns the loser and the reason.
fn referee(
    mut pos: Geography,
    limit: Duration,
    table: &mut Table,
    rx: &Receiver<(usize, Input)>,
    record: &mut GameRecord,
) -> (usize, &'static str) {
    let mut turn = 0;
    table.send(0, &format!("200 {}", pos.format_position()));
    let mut sent_at = Instant::now();
    loop {
        let wait = (sent_at + limit).saturating_duration_since(Instant::now());
        let (side, input) = match rx.recv_timeout(wait) {
            Ok(x) => x,
            Err(RecvTimeoutError::Timeout) => {
                record.max_think[turn] = record.max_think[turn].max(sent_at.elapsed());
                table.end(turn, [("241", None), ("231", None)]);
                return (turn, "time");
            }
            Err(RecvTimeoutError::Disconnected) => return (turn, "disconnected"),
        };
        let (text, at) = match input {
            Input::Closed => {
                table.send(1 - side, "230");
                return (side, "disconnected");
            }
            Input::Garbage(at) => (None, at),
            Input::Line(t, at) => (Some(t), at),
        };
        if side != turn {
            table.end(side, [("240", Some("999 Not your turn")), ("230", Some(OPP_WRONG))]);
            return (side, "not your turn");
        }
        let took = at.saturating_duration_since(sent_at);
        record.max_think[turn] = record.max_think[turn].max(took);
        if took > limit {
            table.end(turn, [("241", None), ("231", None)]);
            return (turn, "time");
        }
        let Some(v) = text.as_deref().and_then(parse_move) else {
            let notice = Some("999 Unrecognized command");
            table.end(turn, [("240", notice), ("230", Some(OPP_WRONG))]);
            return (turn, "unrecognized command");
        };
        if pos.parse_move(&v.to_string()).is_err() {
            let notice = format!("999 Illegal move ({v})");
            let opp = Some("999 Your opponent made an illegal move");
            table.end(turn, [("240", Some(&notice)), ("230", opp)]);
            return (turn, "illegal move");
        }
        pos.play(v);
        record.moves.push(v);
        let other = 1 - turn;
        if pos.plain().outcome().is_some() {
            table.end(other, [("240", None), ("230", None)]);
            return (other, "rules");
        }
        if record.moves.len() == 1 {
            table.send(other, &format!("200 {}", pos.format_position()));
        } else {
            table.send(other, &format!("220 {v}"));
        }
        turn = other;
        sent_at = Instant::now();
    }
}

/// The notice to the opponent of a side that sent a malformed line.
const OPP_WRONG: &str = "999 Your opponent send wrong msg";

/// Reads `210 <v>`.
fn parse_move(text: &str) -> Option<u8> {
    let mut words = text.split_ascii_whitespace();
    if words.next()? != "210" {
        return None;
    }
    let v = words.next()?.parse().ok()?;
    words.next().is_none().then_some(v)
}
