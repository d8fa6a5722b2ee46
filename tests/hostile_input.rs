//! Hostile input never ends a session: every line protocol of the binary gets bytes that are
//! not text (`ff fe`), a bare CR inside and at the end of a line, NUL bytes, a 1 MiB line and a
//! CRLF line, each followed by a valid command that must be answered as usual.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use bitsolve::games::ataxx::record::GameRecord;
use bitsolve::{AtaxxPolish, Game, Geography, Notation};

/// The hostile lines, each with its terminator (or none, for the bare CR at the end).
fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let mut long = vec![b'x'; 1 << 20];
    long.push(b'\n');
    vec![
        ("ff fe", b"\xff\xfe\n".to_vec()),
        ("bare CR inside", b"junk\rmore junk\n".to_vec()),
        ("bare CR at the end", b"junk\r".to_vec()),
        ("NUL bytes", b"\0\0isready\0\n".to_vec()),
        ("1 MiB line", long),
        ("CRLF line", b"junk\r\n".to_vec()),
    ]
}

/// A running binary with its stdout lines on a channel and stderr discarded.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { child, stdin, lines: rx }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line within 10 s.
    fn line(&self, what: &str) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("no answer after {what}"))
    }

    /// Lines up to and including `want`.
    fn until(&self, want: &str, what: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.line(what);
            let done = line == want;
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn uai_answers_after_every_hostile_line_and_keeps_the_position() {
    let mut s = Session::start(&["ataxx", "uai", "--hash", "1"]);
    s.send(b"uai\n");
    s.until("uaiok", "uai");
    let fen = "x5o/7/7/3x3/7/7/o5x o 0 1";
    s.send(format!("position fen {fen}\nisready\n").as_bytes());
    assert_eq!(s.line("position"), "readyok");
    for (what, bytes) in hostile() {
        s.send(&bytes);
        // A bad `position` in between changes nothing either.
        s.send(b"position fen \xff/7/7/7/7/7/7 x 0 1\n");
        s.send(b"isready\n");
        assert_eq!(s.line(what), "readyok", "after {what}");
    }
    // A command ended by a bare CR is answered at once, without waiting for more input.
    s.send(b"isready\r");
    assert_eq!(s.line("isready CR"), "readyok");
    s.send(b"isready\r\n");
    assert_eq!(s.line("isready CRLF"), "readyok");
    s.send(b"d\n");
    let picture = s.until("Rules: standard", "d");
    assert!(picture.iter().any(|l| l == &format!("FEN: {fen}")), "{picture:?}");
    s.send(b"go depth 2\n");
    loop {
        let line = s.line("go depth 2");
        if let Some(mv) = line.strip_prefix("bestmove ") {
            // o to move in the FEN above: a real move, not a pass.
            assert_ne!(mv, "0000");
            break;
        }
    }
}

#[test]
fn uai_go_infinite_then_a_waiting_command_is_answered() {
    let mut s = Session::start(&["ataxx", "uai", "--hash", "1"]);
    s.send(b"position startpos\ngo infinite\nperft 1\nisready\n");
    let seen = s.until("readyok", "perft during go infinite");
    assert!(seen.iter().any(|l| l.starts_with("bestmove ")), "{seen:?}");
    assert!(seen.iter().any(|l| l.starts_with("info depth 1 nodes ")), "{seen:?}");
}

/// A legal opponent move in the arbiter's `<from><to>` form after `game`.
fn reply(game: &GameRecord<true>) -> String {
    let pos = game.position();
    let mut moves = <AtaxxPolish as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    assert!(!moves.is_empty(), "the game ended early: {}", pos.format_position());
    pos.format_move_long(moves[0])
}

#[test]
fn arbiter_game_goes_on_after_every_hostile_line() {
    // A crowded board, so neither side runs out of stones in the few moves played.
    let fen = "xxoo3/xoxo3/ooxx3/7/3xo2/7/o5x x 0 12";
    let mut s = Session::start(&["ataxx", "arbiter", "--depth", "2", "--hash", "1", "--fen", fen]);
    let mut game = GameRecord::<true>::new(AtaxxPolish::parse_position(fen).unwrap());
    s.send(b"czarne 100000\n");
    let ours = s.line("czarne");
    game.play_text(&ours).unwrap_or_else(|e| panic!("{ours}: {e}"));
    for (what, bytes) in hostile() {
        s.send(&bytes);
        let theirs = reply(&game);
        game.play_text(&theirs).unwrap();
        s.send(format!("{theirs} 90000\n").as_bytes());
        let ours = s.line(what);
        game.play_text(&ours).unwrap_or_else(|e| panic!("after {what}: {ours}: {e}"));
    }
    // A move line ended by a bare CR is answered at once.
    let theirs = reply(&game);
    game.play_text(&theirs).unwrap();
    s.send(format!("{theirs} 80000\r").as_bytes());
    let ours = s.line("a move ended by CR");
    game.play_text(&ours).unwrap_or_else(|e| panic!("{ours}: {e}"));
}

fn gipf(input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .arg("gipf")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    writer.join().unwrap().unwrap();
    assert!(child.wait().unwrap().success());
    out
}

const BOARD: &str = "LOAD_GAME_BOARD\n2 3 4 4\n2 1 W\n _ _\n_ _ _\n _ _\n";

#[test]
fn gipf_answers_a_bad_line_as_an_unknown_command_and_goes_on() {
    for (what, bytes) in hostile() {
        let mut input = BOARD.as_bytes().to_vec();
        input.extend_from_slice(&bytes);
        input.extend_from_slice(b"IS_GAME_OVER\n");
        // `junk\rmore junk` is two bad lines; every other hostile line is one.
        let bad = if what == "bare CR inside" { 2 } else { 1 };
        let mut want = vec!["BOARD_STATE_OK"];
        want.extend(std::iter::repeat_n("UNKNOWN_COMMAND", bad));
        want.push("GAME_IN_PROGRESS");
        assert_eq!(gipf(&input).lines().collect::<Vec<_>>(), want, "{what}");
    }
}

#[test]
fn gipf_bad_lines_inside_a_board_fail_the_load_only() {
    // A bad row: the board is read to its end and refused; the next command has no board.
    let input = b"LOAD_GAME_BOARD\n2 3 4 4\n2 1 W\n _ \xff\n_ _ _\n _ _\nIS_GAME_OVER\n";
    assert_eq!(gipf(input), "WRONG_BOARD_CONTENT\nEMPTY_BOARD\n");
    // A bad header line: the parameters are wrong; the rows are then read as commands.
    let input = b"LOAD_GAME_BOARD\n2 3 4 4\0\n2 1 W\n _ _\n_ _ _\n _ _\nIS_GAME_OVER\n";
    let out = gipf(input);
    assert!(out.starts_with("WRONG_GAME_PARAMETERS\n"), "{out}");
    assert!(out.ends_with("EMPTY_BOARD\n"), "{out}");
    // CRLF and bare CR line ends load the board like LF.
    let crlf = BOARD.replace('\n', "\r\n") + "IS_GAME_OVER\r";
    assert_eq!(gipf(crlf.as_bytes()), "BOARD_STATE_OK\nGAME_IN_PROGRESS\n");
}

#[test]
fn gipf_answers_each_command_before_the_next_arrives() {
    let mut s = Session::start(&["gipf"]);
    s.send(BOARD.as_bytes());
    assert_eq!(s.line("LOAD_GAME_BOARD"), "BOARD_STATE_OK");
    s.send(b"\xff\xfe\n");
    assert_eq!(s.line("ff fe"), "UNKNOWN_COMMAND");
    s.send(b"IS_GAME_OVER\r");
    assert_eq!(s.line("IS_GAME_OVER"), "GAME_IN_PROGRESS");
}

#[test]
fn gauss_play_reports_bad_lines_and_takes_the_next_move() {
    let pos = bitsolve::Gauss::start(bitsolve::games::gauss::Rules::default());
    let mut moves = <bitsolve::Gauss as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    let mv = pos.format_move(moves[0]);
    let mut input = Vec::new();
    for (_, bytes) in hostile() {
        input.extend_from_slice(&bytes);
    }
    input.extend_from_slice(format!("{mv}\nquit\n").as_bytes());
    let out = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(["gauss", "play", "--human", "both"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(&input)?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // ff fe, two lines around the inner CR, the CR-ended line, NUL, 1 MiB, CRLF junk.
    assert_eq!(text.matches("not a legal move").count(), 7, "{text}");
    assert!(text.contains("blue to move>"), "the move was not played:\n{text}");
    assert!(text.trim_end().ends_with("bye"), "{text}");
}

/// A raw client of the geography server.
struct Client {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn connect(port: u16) -> Client {
        let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        Client { writer: s.try_clone().unwrap(), reader: BufReader::new(s) }
    }
    fn line(&mut self) -> String {
        let mut l = String::new();
        self.reader.read_line(&mut l).unwrap();
        l.trim_end().to_string()
    }
    fn send(&mut self, bytes: &[u8]) {
        // The server may close the connection before a long line is all written.
        let _ = self.writer.write_all(bytes);
    }
}

#[test]
fn geography_server_answers_bad_lines_by_its_protocol_and_keeps_serving() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(["geography", "serve", "--port", "0", "--games", "6", "--gsize", "16"])
        .args(["--time", "5", "--seed", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let port: u16 =
        first.split_whitespace().nth(2).unwrap().rsplit(':').next().unwrap().parse().unwrap();
    let game = |bytes: &[u8]| {
        let mut a = Client::connect(port);
        let mut b = Client::connect(port);
        let start = a.line();
        assert!(start.starts_with("200 "), "{start}");
        a.send(bytes);
        (a, b.line(), b, start)
    };
    for (what, bytes) in hostile() {
        if what == "bare CR at the end" || what == "CRLF line" {
            continue; // a move ended so is a move (below)
        }
        let (mut a, b_first, _b, _) = game(&bytes);
        assert_eq!(a.line(), "999 Unrecognized command", "{what}");
        assert_eq!(a.line(), "240", "{what}");
        assert_eq!(b_first, "999 Your opponent send wrong msg", "{what}");
    }
    // A legal move ended by a bare CR (and one by CRLF) is played: the opponent gets its `200`.
    for end in ["\r", "\r\n"] {
        let mut a = Client::connect(port);
        let mut b = Client::connect(port);
        let start = a.line();
        let pos = Geography::parse_position(start.strip_prefix("200 ").unwrap()).unwrap();
        let mut moves = <Geography as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        a.send(format!("210 {}{end}", moves[0]).as_bytes());
        let got = b.line();
        assert!(got.starts_with("200 "), "move ended by {end:?}: {got}");
    }
    assert!(server.wait().unwrap().success());
}
