//! The Ataxx front ends through the binary (arbiter protocol, UAI, match referee), and the
//! library parts they stand on: adjudication under both rule sets, notation conversion, Elo.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use bitsolve::games::ataxx::elo::{Score, elo_from_score};
use bitsolve::games::ataxx::record::{
    GameRecord, GameResult, Termination, to_arbiter_notation, to_uai_notation,
};
use bitsolve::{AtaxxPolish, AtaxxStandard, Game, Notation};

fn bitsolve(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // A child that refuses its arguments exits without reading its input: the pipe is then
    // closed, which is not the test's failure (its exit status and output are checked).
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A running process with its stdout lines on a channel.
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

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        while let Some(line) = self.receive(deadline.saturating_duration_since(Instant::now())) {
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
        panic!("no `{prefix}` within {timeout:?}; got {seen:?}");
    }

    /// Waits for the process to exit; `true` if it did within `timeout`.
    fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        false
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_from_to(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && (b'a'..=b'g').contains(&b[0])
        && (b'1'..=b'7').contains(&b[1])
        && (b'a'..=b'g').contains(&b[2])
        && (b'1'..=b'7').contains(&b[3])
}

// ---------------------------------------------------------------------------------------------
// Arbiter protocol

#[test]
fn arbiter_black_answers_at_once_with_from_to() {
    let out = bitsolve(&["ataxx", "arbiter"], "czarne 1000\nkoniec\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let answers = lines(&out);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(is_from_to(&answers[0]), "{answers:?}");
    let mut game = GameRecord::new(AtaxxPolish::startpos());
    game.play_text(&answers[0]).expect("a legal first move");
}

#[test]
fn arbiter_white_waits_then_answers() {
    let out = bitsolve(&["ataxx", "arbiter"], "biale 1000\na7a6 950\nkoniec\n");
    let answers = lines(&out);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let mut game = GameRecord::new(AtaxxPolish::startpos());
    game.play_text("a7a6").unwrap();
    game.play_text(&answers[0]).expect("a legal reply");
    assert!(is_from_to(&answers[0]));
}

#[test]
fn arbiter_bad_lines_are_reported_and_change_nothing() {
    let input = "a7a6 900\nbiale\nbiale 1000\nhello\nz9z9 900\na7a4 900\na1a2 900\na7a6 abc\n\
                 a7a6 900 7\na7a6 900\nkoniec\n";
    let out = bitsolve(&["ataxx", "arbiter"], input);
    assert!(out.status.success());
    let answers = lines(&out);
    assert_eq!(answers.len(), 1, "only the good move is answered: {answers:?}");
    let mut game = GameRecord::new(AtaxxPolish::startpos());
    game.play_text("a7a6").unwrap();
    game.play_text(&answers[0]).expect("answer to the state after the one good move");
    let err = stderr(&out);
    assert!(err.contains("before `czarne"), "{err}");
    assert!(err.contains("missing time"), "{err}");
    assert!(err.contains("illegal move `z9z9`") || err.contains("z9z9"), "{err}");
    assert!(err.contains("a7a4"), "{err}");
    assert!(err.contains("bad time"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn arbiter_koniec_ends_at_once() {
    let mut s = Session::start(&["ataxx", "arbiter"]);
    s.send("biale 1000");
    s.send("koniec");
    assert!(s.exits_within(Duration::from_secs(2)));
}

#[test]
fn arbiter_stuck_side_does_not_answer() {
    // x on a1 is walled in by o while empty squares remain: under Polish rules x has lost.
    let fen = "7/7/7/7/ooo4/ooo4/xoo4 x 0 1";
    let out = bitsolve(&["ataxx", "arbiter", "--fen", fen], "czarne 1000\nkoniec\n");
    assert!(out.status.success());
    assert!(lines(&out).is_empty());
    assert!(stderr(&out).contains("no move"), "{}", stderr(&out));
}

/// Plays a whole game against the arbiter front end, as an arbiter would, with the random
/// built-in choices replaced by the first legal move; every answer must be legal, in from+to
/// form, and within the clock (generously: the whole game's thinking under 1 s plus slack).
#[test]
fn arbiter_full_game_is_legal_and_within_time() {
    for (colour, me_first) in [("czarne", true), ("biale", false)] {
        let mut s = Session::start(&["ataxx", "arbiter"]);
        let mut game = GameRecord::new(AtaxxPolish::startpos());
        let mut clock = Duration::from_secs(1);
        let mut sent = Instant::now();
        s.send(&format!("{colour} 1000"));
        let mut engine_to_move = me_first;
        let mut plies = 0;
        while game.adjudicate().is_none() && plies < 400 {
            if engine_to_move {
                let answer = s.receive(Duration::from_secs(3)).expect("an answer in time");
                clock = clock.checked_sub(sent.elapsed()).expect("answered within the clock");
                assert!(is_from_to(&answer), "{answer}");
                game.play_text(&answer).expect("legal");
            } else {
                let mut moves = <AtaxxPolish as Game>::Moves::default();
                game.position().generate_moves(&mut moves);
                // Prefer jumps, to make the game long.
                let mv = *moves.last().unwrap();
                let text = game.position().format_move_long(mv);
                game.play(mv).unwrap();
                if game.adjudicate().is_some() {
                    break;
                }
                sent = Instant::now();
                s.send(&format!("{text} {}", clock.as_millis()));
            }
            engine_to_move = !engine_to_move;
            plies += 1;
        }
        s.send("koniec");
        assert!(s.exits_within(Duration::from_secs(2)));
        assert!(game.adjudicate().is_some(), "the game ended");
    }
}

// ---------------------------------------------------------------------------------------------
// UAI

#[test]
fn uai_handshake_and_fixed_depth_search() {
    let out =
        bitsolve(&["ataxx", "uai"], "uai\nisready\nposition startpos moves f1\ngo depth 2\nquit\n");
    let text = lines(&out);
    assert_eq!(text[0], format!("id name bitsolve {}", env!("CARGO_PKG_VERSION")));
    assert!(text.iter().any(|l| l.starts_with("option name Hash type spin")), "{text:?}");
    assert!(text.iter().any(|l| l.starts_with("option name Threads type spin")));
    assert!(text.iter().any(|l| l.starts_with("option name Rules type combo")));
    let uaiok = text.iter().position(|l| l == "uaiok").unwrap();
    assert_eq!(text[uaiok + 1], "readyok");
    assert!(text.iter().any(|l| l.starts_with("info depth 2 ") && l.contains(" score cp ")));
    let best = text.iter().find_map(|l| l.strip_prefix("bestmove ")).expect("bestmove");
    let mut game = GameRecord::new(AtaxxStandard::startpos());
    game.play_text("f1").unwrap();
    let mv = game.play_text(best).expect("legal bestmove");
    // UAI form: a clone is its destination only.
    assert_eq!(best.len(), if mv.is_clone() { 2 } else { 4 });
}

#[test]
fn uai_evaluates_with_the_embedded_net_unless_classic() {
    let input = "uai\nposition startpos moves f1\neval\nquit\n";
    let net = lines(&bitsolve(&["ataxx", "uai"], input));
    assert!(net.iter().any(|l| l == "option name UseNNUE type check default true"), "{net:?}");
    let eval = net.iter().find(|l| l.starts_with("eval ")).expect("eval line");
    assert!(eval.ends_with(" using nnue"), "{eval}");
    // The embedded net is a trained one (not the old all-zero placeholder): it tells this
    // position from an equal one.
    assert!(!eval.contains(" nnue 0 "), "{eval}");
    let classic = lines(&bitsolve(&["ataxx", "uai", "--classic"], input));
    assert!(classic.iter().any(|l| l == "option name UseNNUE type check default false"));
    assert!(classic.iter().any(|l| l.starts_with("eval ") && l.ends_with(" using classic")));
    let both = bitsolve(&["ataxx", "uai", "--classic", "--nnue"], "quit\n");
    assert!(!both.status.success(), "--classic with --nnue must be refused");
}

#[test]
fn uai_eval_cache_option_is_listed_set_and_changes_no_search() {
    let search = "position startpos moves f1 b7\ngo nodes 20000\nposition startpos moves f1 b7 f2\n\
                  go nodes 20000\nquit\n";
    // The search lines without their times: `info` (depth, score, nodes, line) and `bestmove`.
    let searched = |text: &[String]| -> Vec<String> {
        let timed = |w: &&str| *w != "nps" && *w != "time";
        text.iter()
            .filter(|l| l.starts_with("info depth ") || l.starts_with("bestmove"))
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if timed(&words[i]) {
                        kept.push(words[i]);
                        i += 1;
                    } else {
                        i += 2;
                    }
                }
                kept.join(" ")
            })
            .collect()
    };
    // On by default; off by the flag or the option.
    let cached = lines(&bitsolve(&["ataxx", "uai"], &format!("uai\n{search}")));
    assert!(cached.iter().any(|l| l == "option name EvalCache type check default true"));
    let plain =
        lines(&bitsolve(&["ataxx", "uai", "--eval-cache", "false"], &format!("uai\n{search}")));
    assert!(plain.iter().any(|l| l == "option name EvalCache type check default false"));
    let set = "setoption name EvalCache value maybe\nsetoption name EvalCache value false\nuai\n";
    let option = bitsolve(&["ataxx", "uai"], &format!("{set}{search}"));
    assert!(stderr(&option).contains("EvalCache must be true or false"), "{}", stderr(&option));
    let option = lines(&option);
    assert!(option.iter().any(|l| l == "option name EvalCache type check default false"));
    // The same searches node for node (the second one after the first, as in a game).
    let want = searched(&plain);
    assert_eq!(want.iter().filter(|l| l.starts_with("bestmove")).count(), 2, "{plain:?}");
    assert!(want.len() > 8, "{want:?}");
    assert_eq!(searched(&cached), want);
    assert_eq!(searched(&option), want);
}

#[test]
fn uai_time_options_are_listed_set_and_checked() {
    let input = "setoption name TimeUse value 250\nsetoption name TimeByNodes value true\n\
                 setoption name TimeUse value 5\nsetoption name TimeByNodes value maybe\n\
                 setoption name TimeHorizon value 24\nsetoption name TimeReserve value 10\n\
                 setoption name TimeHorizon value 2000\nsetoption name TimeReserve value 95\n\
                 setoption name Rules value polish\nsetoption name Rules value standard\nuai\n\
                 position startpos\ngo wtime 2000 btime 2000 winc 20 binc 20\nquit\n";
    let out = bitsolve(&["ataxx", "uai", "--time-use", "150"], input);
    assert!(out.status.success());
    let text = lines(&out);
    // Set values survive the rule switches; bad ones are refused and change nothing.
    assert!(text.iter().any(|l| l == "option name TimeUse type spin default 250 min 10 max 1000"));
    assert!(text.iter().any(|l| l == "option name TimeByNodes type check default true"));
    assert!(
        text.iter().any(|l| l == "option name TimeHorizon type spin default 24 min 0 max 1000")
    );
    assert!(text.iter().any(|l| l == "option name TimeReserve type spin default 10 min 0 max 90"));
    assert!(text.iter().any(|l| l.starts_with("bestmove ")), "{text:?}");
    let err = stderr(&out);
    assert!(err.contains("TimeUse 5 out of range") && err.contains("TimeByNodes must be"), "{err}");
    assert!(err.contains("TimeHorizon 2000 out of range"), "{err}");
    assert!(err.contains("TimeReserve 95 out of range"), "{err}");
    for bad in [
        ["--time-use", "5"],
        ["--time-by-nodes", "maybe"],
        ["--time-horizon", "2000"],
        ["--time-reserve", "95"],
    ] {
        let out = bitsolve(&["ataxx", "uai", bad[0], bad[1]], "quit\n");
        assert!(!out.status.success(), "{bad:?} must be refused");
    }
}

#[test]
fn uai_bad_input_keeps_the_position() {
    let input = "position startpos moves f1 b1\nposition startpos moves f1 zz\nposition fen 8/8 x\n\
                 position sideways\nsetoption name Hash value -3\nsetoption name Nope value 1\n\
                 go depth x\nfrobnicate\nd\nquit\n";
    let out = bitsolve(&["ataxx", "uai"], input);
    assert!(out.status.success());
    let text = lines(&out).join("\n");
    assert!(text.contains("FEN: x5o/7/7/7/7/7/oo3xx x 0 2"), "{text}");
    let err = stderr(&out);
    for needle in
        ["zz", "bad FEN", "expected `position", "Hash", "unknown option", "depth", "frobnicate"]
    {
        assert!(err.contains(needle), "`{needle}` not in {err}");
    }
    assert!(!err.contains("panicked"));
}

#[test]
fn uai_stop_ends_infinite_search_and_quit_is_prompt() {
    let mut s = Session::start(&["ataxx", "uai"]);
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // Still thinking (no bestmove before stop), but answering.
    s.send("isready");
    let seen = s.until("readyok", Duration::from_secs(2));
    assert!(seen.iter().all(|l| !l.starts_with("bestmove")), "{seen:?}");
    s.send("stop");
    let seen = s.until("bestmove", Duration::from_secs(2));
    let best = seen.last().unwrap().strip_prefix("bestmove ").unwrap().to_owned();
    GameRecord::new(AtaxxStandard::startpos()).play_text(&best).expect("legal");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    s.send("quit");
    assert!(s.exits_within(Duration::from_secs(2)), "quit while searching");
    assert!(asked.elapsed() < Duration::from_secs(2));
}

#[test]
fn uai_clock_search_respects_the_budget() {
    let mut s = Session::start(&["ataxx", "uai"]);
    s.send("position startpos moves f1 b1");
    let start = Instant::now();
    s.send("go btime 500 wtime 500 binc 0 winc 0");
    s.until("bestmove", Duration::from_secs(3));
    // An eighth of the clock at most, plus generous slack for a loaded machine.
    assert!(start.elapsed() < Duration::from_millis(63 + 400), "{:?}", start.elapsed());
    let start = Instant::now();
    s.send("go movetime 100");
    s.until("bestmove", Duration::from_secs(3));
    assert!(start.elapsed() < Duration::from_millis(100 + 400), "{:?}", start.elapsed());
    s.send("go nodes 500");
    s.until("bestmove", Duration::from_secs(3));
    s.send("quit");
    assert!(s.exits_within(Duration::from_secs(2)));
}

#[test]
fn uai_extensions_perft_splitperft_bench_d() {
    let out = bitsolve(&["ataxx", "uai"], "perft 3\nsplitperft 2\nbench\nd\nquit\n");
    let text = lines(&out);
    assert!(text.iter().any(|l| l.starts_with("info depth 3 nodes 6460 ")), "{text:?}");
    assert!(text.iter().any(|l| l == "nodes 256"), "{text:?}");
    assert_eq!(text.iter().filter(|l| l.ends_with(" 16") && l.len() <= 7).count(), 16);
    assert!(text.iter().any(|l| l.starts_with("nodes ") && l.contains(" nps ")), "{text:?}");
    assert!(text.iter().any(|l| l == "FEN: x5o/7/7/7/7/7/o5x x 0 1"), "{text:?}");
}

#[test]
fn uai_rules_option_switches_to_polish() {
    // x must pass under standard rules (one move: 0000) and has lost under Polish rules.
    let fen = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1";
    let input = format!(
        "position fen {fen}\nperft 1\ngo depth 1\nsetoption name Rules value polish\n\
         position fen {fen}\nperft 1\nd\nsetoption name Rules value chess\nquit\n"
    );
    let out = bitsolve(&["ataxx", "uai"], &input);
    let text = lines(&out);
    let perfts: Vec<&String> =
        text.iter().filter(|l| l.starts_with("info depth 1 nodes")).collect();
    assert!(perfts[0].starts_with("info depth 1 nodes 1 "), "{text:?}");
    assert!(perfts[1].starts_with("info depth 1 nodes 0 "), "{text:?}");
    assert!(text.iter().any(|l| l == "bestmove 0000"), "{text:?}");
    assert!(text.iter().any(|l| l == "Rules: polish"), "{text:?}");
    assert!(stderr(&out).contains("Rules must be standard or polish"));
}

// ---------------------------------------------------------------------------------------------
// Referee

#[test]
fn match_between_built_in_players_reports_score_and_pgn() {
    let dir = std::env::temp_dir().join(format!("bitsolve-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let out = bitsolve(
        &[
            "ataxx",
            "match",
            "--p1",
            "greedy",
            "--p2",
            "random",
            "--games",
            "4",
            "--rules",
            "standard",
            "--pgn",
            pgn.to_str().unwrap(),
            "--openings",
            concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/ataxx/openings.txt"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = lines(&out).join("\n");
    assert!(text.contains("score of p1 (wins, draws, losses): +"), "{text}");
    assert!(text.contains("p2: illegal moves 0, time losses 0"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Result ").count(), 4);
    assert_eq!(games.matches("[Black \"greedy\"]").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_flags_illegal_moves_and_time_losses() {
    // `cat` echoes `czarne 300` back: not a move.
    let out = bitsolve(
        &["ataxx", "match", "--p1", "arbiter:cat", "--p2", "random", "--games", "1", "--tc", "300"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = lines(&out).join("\n");
    assert!(text.contains("p1: illegal moves 1, time losses 0"), "{text}");
    assert!(text.contains("+0 =0 -1"), "{text}");
    // `sleep` never answers: a loss on time after the 200 ms clock.
    let out = bitsolve(
        &[
            "ataxx",
            "match",
            "--p1",
            "random",
            "--p2",
            "arbiter:sleep 3",
            "--games",
            "1",
            "--tc",
            "200",
        ],
        "",
    );
    let text = lines(&out).join("\n");
    assert!(text.contains("p2: illegal moves 0, time losses 1"), "{text}");
    // A program that cannot start is a disconnection; the match still ends cleanly.
    let out = bitsolve(
        &["ataxx", "match", "--p1", "uai:/nonexistent/engine", "--p2", "random", "--games", "2"],
        "",
    );
    let text = lines(&out).join("\n");
    assert!(text.contains("p1: illegal moves 0, time losses 0, disconnections 2"), "{text}");
}

#[test]
fn match_rejects_bad_setups() {
    for args in [
        &["ataxx", "match", "--p1", "self-arbiter", "--p2", "random", "--rules", "standard"][..],
        &["ataxx", "match", "--p1", "nobody", "--p2", "random"][..],
        &["ataxx", "match", "--p1", "random", "--p2", "random", "--tc", "fast"][..],
        &["ataxx", "match", "--p1", "random", "--p2", "random", "--openings", "/nonexistent"][..],
    ] {
        let out = bitsolve(args, "");
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}: {:?}", out.status);
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

// ---------------------------------------------------------------------------------------------
// Adjudication (library)

#[test]
fn polish_stuck_side_loses_standard_side_passes() {
    let fen = "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1";
    let polish = GameRecord::new(AtaxxPolish::parse_position(fen).unwrap());
    assert_eq!(polish.adjudicate(), Some((GameResult::SecondWins, Termination::Stuck)));
    let mut standard = GameRecord::new(AtaxxStandard::parse_position(fen).unwrap());
    assert_eq!(standard.adjudicate(), None);
    assert!(standard.clone().play_text("a1a2").is_err());
    standard.play_text("0000").expect("the pass");
    assert_eq!(standard.adjudicate(), None);
    let mut p = polish.clone();
    assert!(p.play_text("0000").is_err(), "no pass under Polish rules");
}

#[test]
fn polish_threefold_repetition_is_a_draw() {
    let start = AtaxxPolish::parse_position("x5o/7/7/7/7/7/7 x 0 1").unwrap();
    let cycle = ["a7c7", "g7e7", "c7a7", "e7g7"];
    let mut game = GameRecord::new(start);
    for (i, mv) in cycle.iter().cycle().take(8).enumerate() {
        assert_eq!(game.adjudicate(), None, "ply {i}");
        game.play_text(mv).unwrap();
    }
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.adjudicate(), Some((GameResult::Draw, Termination::Repetition)));
    assert!(game.play_text("a7c7").is_err(), "no move after the end");
    // Standard rules have no repetition rule.
    let mut standard =
        GameRecord::new(AtaxxStandard::parse_position("x5o/7/7/7/7/7/7 x 0 1").unwrap());
    for mv in cycle.iter().cycle().take(12) {
        standard.play_text(mv).unwrap();
    }
    assert_eq!(standard.adjudicate(), None);
}

#[test]
fn jump_and_halfmove_rules() {
    let mut polish =
        GameRecord::new(AtaxxPolish::parse_position("x5o/7/7/7/7/7/7 x 49 30").unwrap());
    assert_eq!(polish.adjudicate(), None);
    polish.play_text("a7c7").unwrap();
    assert_eq!(polish.adjudicate(), Some((GameResult::Draw, Termination::JumpRule)));
    // A clone resets the count.
    let mut polish =
        GameRecord::new(AtaxxPolish::parse_position("x5o/7/7/7/7/7/7 x 49 30").unwrap());
    polish.play_text("b7").unwrap();
    assert_eq!(polish.adjudicate(), None);
    let mut standard =
        GameRecord::new(AtaxxStandard::parse_position("x5o/7/7/7/7/7/7 x 99 60").unwrap());
    standard.play_text("a7c7").unwrap();
    assert_eq!(standard.adjudicate(), Some((GameResult::Draw, Termination::HalfmoveClock)));
}

#[test]
fn full_board_and_wipe_out() {
    let full = AtaxxPolish::parse_position(
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo x 0 1",
    );
    let game = GameRecord::new(full.unwrap());
    assert_eq!(game.adjudicate(), Some((GameResult::FirstWins, Termination::BoardFull)));
    let mut game = GameRecord::new(AtaxxStandard::parse_position("x1o/3/3 x 0 1").unwrap());
    game.play_text("b3").unwrap();
    assert_eq!(game.adjudicate(), Some((GameResult::FirstWins, Termination::WipeOut)));
    let pgn = game
        .pgn(&[("Black", "a"), ("White", "b")], game.adjudicate().as_ref().map(|(r, t)| (*r, t)));
    assert!(pgn.contains("[FEN \"x1o/3/3 x 0 1\"]") && pgn.contains("1. b3 1-0"), "{pgn}");
}

#[test]
fn notation_conversion_between_protocols() {
    let pos = AtaxxPolish::startpos();
    assert_eq!(to_arbiter_notation(&pos, "f1").unwrap(), "g1f1");
    assert_eq!(to_arbiter_notation(&pos, "g1e3").unwrap(), "g1e3");
    assert_eq!(to_uai_notation(&pos, "g1f1").unwrap(), "f1");
    assert_eq!(to_uai_notation(&pos, "a7a6").unwrap(), "a6");
    assert_eq!(to_uai_notation(&pos, "a7a5").unwrap(), "a7a5");
    assert!(to_uai_notation(&pos, "a1a2").is_err(), "o's stone, x to move");
    assert!(to_arbiter_notation(&pos, "a7a4").is_err());
}

// ---------------------------------------------------------------------------------------------
// Elo

#[test]
fn elo_estimates_and_error_bars() {
    assert!(elo_from_score(0.5).abs() < 1e-12);
    assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
    assert!((elo_from_score(0.25) + 190.848).abs() < 0.01);
    let s = Score { wins: 60, draws: 0, losses: 40 };
    assert!((s.elo().unwrap() - 70.437).abs() < 0.01);
    let err = s.elo_error().unwrap();
    assert!((err - 70.6).abs() < 1.0, "{err}");
    // Draws carry information: same mean, smaller error.
    let drawish = Score { wins: 40, draws: 40, losses: 20 };
    let decisive = Score { wins: 60, draws: 0, losses: 40 };
    assert_eq!(drawish.mean(), decisive.mean());
    assert!(drawish.elo_error().unwrap() < decisive.elo_error().unwrap());
    assert_eq!(Score { wins: 3, draws: 0, losses: 0 }.elo(), None);
}
