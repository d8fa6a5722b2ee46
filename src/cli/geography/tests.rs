//! Client and server over loopback: full games, and hostile clients that must never crash or
//! hang the server.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use bitsolve::zobrist::KeyStream;
use bitsolve::{Game, Geography, Notation};

use super::client::{self, GameEnd};
use super::player::{EnginePlayer, Strategy};
use super::server::{GameRecord, ServerConfig, ServerEvent, serve};

/// A server for `games` games on an ephemeral port: its address and its events.
fn start_server(games: u64, time: Duration, gsize: usize) -> (SocketAddr, Receiver<ServerEvent>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let config = ServerConfig { gsize, time, seed: 42, max_games: Some(games) };
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || serve(&listener, &config, &tx));
    (addr, rx)
}

fn next_record(rx: &Receiver<ServerEvent>) -> GameRecord {
    loop {
        match rx.recv_timeout(Duration::from_secs(20)).expect("the game ends") {
            ServerEvent::Finished(r) => return r,
            ServerEvent::Accepted => {}
        }
    }
}

fn wait_accepted(rx: &Receiver<ServerEvent>) {
    match rx.recv_timeout(Duration::from_secs(5)).expect("accepted") {
        ServerEvent::Accepted => {}
        ServerEvent::Finished(r) => panic!("unexpected end {r:?}"),
    }
}

/// A raw connection reading lines with a timeout.
struct Raw {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Raw {
    fn connect(addr: SocketAddr) -> Raw {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Raw { writer: s.try_clone().unwrap(), reader: BufReader::new(s) }
    }
    fn line(&mut self) -> String {
        let mut l = String::new();
        self.reader.read_line(&mut l).unwrap();
        l.trim().to_string()
    }
    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
    }
    /// A legal move from a `200` line.
    fn legal_move(msg: &str) -> u8 {
        let pos = Geography::parse_position(msg.strip_prefix("200 ").unwrap()).unwrap();
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        moves[0]
    }
}

fn random_client(addr: SocketAddr, seed: u64) -> thread::JoinHandle<anyhow::Result<GameEnd>> {
    thread::spawn(move || {
        client::play(
            &addr.to_string(),
            &mut Strategy::Random(KeyStream::new(seed)),
            &mut Vec::new(),
        )
    })
}

#[test]
fn random_clients_play_full_games() {
    let (addr, rx) = start_server(3, Duration::from_secs(2), 32);
    for g in 0..3 {
        let a = random_client(addr, g);
        wait_accepted(&rx);
        let b = random_client(addr, g + 100);
        let record = next_record(&rx);
        let (ra, rb) = (a.join().unwrap().unwrap(), b.join().unwrap().unwrap());
        assert_eq!(record.reason, "rules");
        assert_ne!(ra.is_win(), rb.is_win());
        assert_eq!(ra.is_win(), record.winner == 0);
        // The moves replay legally from the start and end the game.
        let mut pos = Geography::parse_position(&record.start).unwrap().plain();
        for &mv in &record.moves {
            assert!(pos.outcome().is_none());
            pos.play(pos.parse_move(&mv.to_string()).unwrap());
        }
        assert!(pos.outcome().is_some());
    }
}

#[test]
fn engine_client_beats_random_clients() {
    let (addr, rx) = start_server(4, Duration::from_millis(400), 32);
    let mut wins = 0;
    for g in 0..4 {
        let engine = move || {
            let mut s = Strategy::Engine(Box::new(EnginePlayer::new(Duration::from_millis(150))));
            client::play(&addr.to_string(), &mut s, &mut Vec::new())
        };
        let (e, r) = if g % 2 == 0 {
            let e = thread::spawn(engine);
            wait_accepted(&rx);
            (e, random_client(addr, g))
        } else {
            let r = random_client(addr, g);
            wait_accepted(&rx);
            (thread::spawn(engine), r)
        };
        let record = next_record(&rx);
        assert_ne!(record.reason, "time", "the engine must not lose on time");
        let end = e.join().unwrap().unwrap();
        let _ = r.join().unwrap();
        wins += usize::from(end.is_win());
    }
    assert!(wins >= 3, "engine won only {wins} of 4");
}

/// A game where the first player is a raw connection and the second a random client.
fn raw_first(
    time: Duration,
) -> (Raw, String, Receiver<ServerEvent>, thread::JoinHandle<anyhow::Result<GameEnd>>) {
    let (addr, rx) = start_server(1, time, 16);
    let mut raw = Raw::connect(addr);
    wait_accepted(&rx);
    let b = random_client(addr, 7);
    let start = raw.line();
    assert!(start.starts_with("200 "), "{start}");
    (raw, start, rx, b)
}

#[test]
fn garbage_loses_with_999() {
    let (mut raw, _, rx, b) = raw_first(Duration::from_secs(2));
    raw.send(b"hello there\n");
    assert_eq!(raw.line(), "999 Unrecognized command");
    assert_eq!(raw.line(), "240");
    let r = next_record(&rx);
    assert_eq!((r.winner, r.reason.as_str()), (1, "unrecognized command"));
    // The random client saw a 999 and stops with an error.
    assert!(b.join().unwrap().is_err());
}

#[test]
fn binary_and_overlong_input_is_garbage() {
    let (mut raw, _, rx, _b) = raw_first(Duration::from_secs(2));
    raw.send(&[0xff; 600]);
    assert_eq!(raw.line(), "999 Unrecognized command");
    assert_eq!(next_record(&rx).reason, "unrecognized command");
}

#[test]
fn split_lines_are_reassembled() {
    let (mut raw, start, rx, _b) = raw_first(Duration::from_secs(2));
    let mv = Raw::legal_move(&start);
    raw.send(b"2");
    thread::sleep(Duration::from_millis(30));
    raw.send(b"10 ");
    thread::sleep(Duration::from_millis(30));
    raw.send(format!("{mv}\r\n").as_bytes());
    // The random opponent answers (or loses at once): the game goes on either way.
    let reply = raw.line();
    assert!(reply.starts_with("220 ") || reply == "230", "{reply}");
    drop(raw);
    let r = next_record(&rx);
    assert_eq!(r.moves.first(), Some(&mv));
}

#[test]
fn a_line_out_of_turn_loses() {
    // The opponent is a raw connection that never answers, so the second of two moves sent in
    // one chunk is out of turn whenever the server reads it (a random opponent could answer
    // before the server reads the second line, which then is a move in turn).
    let (addr, rx) = start_server(1, Duration::from_secs(5), 16);
    let mut raw = Raw::connect(addr);
    wait_accepted(&rx);
    let mut opp = Raw::connect(addr);
    let start = raw.line();
    let mv = Raw::legal_move(&start);
    raw.send(format!("210 {mv}\n210 {mv}\n").as_bytes());
    let r = next_record(&rx);
    if r.reason == "rules" {
        // The first move ended the game: the second line came after the end.
        assert_eq!((r.winner, r.moves.as_slice()), (0, [mv].as_slice()));
        return;
    }
    assert_eq!(
        (r.winner, r.reason.as_str(), r.moves.as_slice()),
        (1, "not your turn", [mv].as_slice())
    );
    assert_eq!(raw.line(), "999 Not your turn");
    assert_eq!(raw.line(), "240");
    assert!(opp.line().starts_with("200 "));
}

#[test]
fn illegal_move_loses() {
    let (mut raw, start, rx, _b) = raw_first(Duration::from_secs(2));
    let pos = Geography::parse_position(start.strip_prefix("200 ").unwrap()).unwrap();
    let bad = (0..16u8).find(|&v| pos.parse_move(&v.to_string()).is_err()).unwrap();
    raw.send(format!("210 {bad}\n").as_bytes());
    assert_eq!(raw.line(), format!("999 Illegal move ({bad})"));
    assert_eq!(raw.line(), "240");
    assert_eq!(next_record(&rx).reason, "illegal move");
}

#[test]
fn silence_loses_on_time() {
    let (mut raw, _, rx, b) = raw_first(Duration::from_millis(300));
    assert_eq!(raw.line(), "241");
    assert_eq!(next_record(&rx).reason, "time");
    assert_eq!(b.join().unwrap().unwrap(), GameEnd::WonOnTime);
}

#[test]
fn vanished_opponent_is_a_win() {
    let (raw, _, rx, b) = raw_first(Duration::from_secs(5));
    drop(raw);
    let r = next_record(&rx);
    assert_eq!((r.winner, r.reason.as_str()), (1, "disconnected"));
    assert_eq!(b.join().unwrap().unwrap(), GameEnd::Won);
}

#[test]
fn a_closed_waiting_connection_is_skipped() {
    let (addr, rx) = start_server(1, Duration::from_secs(2), 16);
    drop(TcpStream::connect(addr).unwrap());
    wait_accepted(&rx);
    thread::sleep(Duration::from_millis(50));
    let a = random_client(addr, 1);
    wait_accepted(&rx);
    let b = random_client(addr, 2);
    assert_eq!(next_record(&rx).reason, "rules");
    assert!(a.join().unwrap().is_ok() && b.join().unwrap().is_ok());
}

/// A scripted server: sends `script` lines (waiting for a `210` after each `200`/`220`) and
/// returns what the client sent.
fn scripted(script: &'static [&'static str]) -> (SocketAddr, thread::JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let h = thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        let mut raw = Raw { writer: s.try_clone().unwrap(), reader: BufReader::new(s) };
        let mut got = Vec::new();
        for line in script {
            raw.send(format!("{line}\n").as_bytes());
            if line.starts_with("200") || line.starts_with("220") {
                got.push(raw.line());
            }
        }
        got
    });
    (addr, h)
}

#[test]
fn client_handles_every_server_message() {
    // Path 0-1-2-3, token on 1. Whatever the client does, the script then ends the game.
    for (end, code) in [
        ("230", GameEnd::Won),
        ("231", GameEnd::WonOnTime),
        ("240", GameEnd::Lost),
        ("241", GameEnd::LostOnTime),
    ] {
        let script: &'static [&'static str] =
            Box::leak(Box::new(["200 5 1 4 0 1 1 2 2 3 3 4", end]));
        let (addr, h) = scripted(script);
        let mut s = Strategy::Engine(Box::new(EnginePlayer::new(Duration::from_millis(50))));
        assert_eq!(client::play(&addr.to_string(), &mut s, &mut Vec::new()).unwrap(), code);
        let sent = h.join().unwrap();
        assert!(sent[0] == "210 0" || sent[0] == "210 2", "{sent:?}");
    }
    // 999 and garbage are errors, never panics.
    for bad in ["999 Your opponent send wrong msg", "hello", "200 x"] {
        let script: &'static [&'static str] = Box::leak(Box::new([bad]));
        let (addr, _h) = scripted(script);
        let mut s = Strategy::Random(KeyStream::new(1));
        assert!(client::play(&addr.to_string(), &mut s, &mut Vec::new()).is_err(), "{bad}");
    }
}

#[test]
fn second_player_plays_from_its_200_and_220() {
    // Path 0-1-2-3 with the token on 0, as a second player's `200` could show it: each side has
    // exactly one move, so the client must answer 1, then 3 after `220 2`.
    let (addr, h) = scripted(&["200 4 0 3 0 1 1 2 2 3", "220 2", "240"]);
    let mut s = Strategy::Random(KeyStream::new(3));
    assert_eq!(client::play(&addr.to_string(), &mut s, &mut Vec::new()).unwrap(), GameEnd::Lost);
    assert_eq!(h.join().unwrap(), ["210 1", "210 3"]);
}

#[test]
fn plain_player_takes_a_win_in_one() {
    // Path 0-1-2-3, token on 1: moving to 0 leaves the opponent stuck.
    let pos = Geography::parse_position("4 1 3 0 1 1 2 2 3").unwrap();
    let mut plain = super::player::PlainPlayer::new(Duration::from_millis(200), None);
    assert_eq!(plain.choose(&pos, std::time::Instant::now()), Some(0));
    let mut fixed = super::player::PlainPlayer::new(Duration::from_millis(200), Some(1));
    assert_eq!(fixed.choose(&pos, std::time::Instant::now()), Some(0));
}

#[test]
fn players_keep_within_their_budget_on_contest_graphs() {
    let budget = Duration::from_millis(60);
    let mut engine = Strategy::Engine(Box::new(EnginePlayer::new(budget)));
    let mut plain = Strategy::Plain(super::player::PlainPlayer::new(budget, None));
    for seed in 0..2 {
        let mut pos = Geography::contest_start(100, seed).unwrap();
        for ply in 0..6 {
            let player = if ply % 2 == 0 { &mut engine } else { &mut plain };
            let start = std::time::Instant::now();
            let mv = player.choose(&pos, start).expect("a move");
            // Generous slack for a loaded machine and an unoptimised build.
            assert!(start.elapsed() < budget + Duration::from_millis(150), "{:?}", start.elapsed());
            assert!(pos.parse_move(&mv.to_string()).is_ok());
            pos.play(mv);
            if pos.plain().outcome().is_some() {
                break;
            }
        }
    }
}
