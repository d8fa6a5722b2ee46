//! The players a match can seat: built-in random and most-captures players, and engines run as
//! child processes speaking either the arbiter protocol or UAI.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use bitsolve::games::ataxx::record::GameRecord;
use bitsolve::lineio::LineReader;
use bitsolve::{Ataxx, AtaxxMove, Game, Notation, Player};

/// How a player is specified on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The move that leaves the most own stones minus opponent stones (ties at random).
    Greedy,
    /// A program speaking the arbiter protocol (Polish rules only).
    Arbiter(Vec<String>),
    /// A program speaking UAI.
    Uai(Vec<String>),
}

impl PlayerSpec {
    /// Reads `random`, `greedy` (or `most-captures`), `self-arbiter[:ARGS]`, `self-uai[:ARGS]`,
    /// `arbiter:COMMAND ARGS` or `uai:COMMAND ARGS` (words split on whitespace; `self-*` runs
    /// this very binary).
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let words: Vec<String> = rest.split_whitespace().map(str::to_owned).collect();
        let this = || -> Result<String, String> {
            std::env::current_exe()
                .map(|p| p.to_string_lossy().into_owned())
                .map_err(|e| format!("cannot find this program: {e}"))
        };
        let with = |mode: &str| -> Result<Vec<String>, String> {
            let mut v = vec![this()?, "ataxx".into(), mode.into()];
            v.extend(words.iter().cloned());
            Ok(v)
        };
        match kind {
            "random" if rest.is_empty() => Ok(PlayerSpec::Random),
            "greedy" | "most-captures" if rest.is_empty() => Ok(PlayerSpec::Greedy),
            "self-arbiter" => Ok(PlayerSpec::Arbiter(with("arbiter")?)),
            "self-uai" => Ok(PlayerSpec::Uai(with("uai")?)),
            "arbiter" | "uai" if words.is_empty() => Err(format!("{kind}: needs a command")),
            "arbiter" => Ok(PlayerSpec::Arbiter(words)),
            "uai" => Ok(PlayerSpec::Uai(words)),
            _ => Err(format!(
                "unknown player {text:?}: expected random, greedy, self-arbiter[:ARGS], \
                 self-uai[:ARGS], arbiter:COMMAND or uai:COMMAND"
            )),
        }
    }

    /// Whether the player speaks the arbiter protocol.
    pub fn is_arbiter(&self) -> bool {
        matches!(self, PlayerSpec::Arbiter(_))
    }
}

/// A small deterministic generator (`SplitMix64`) for the built-in players and openings.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// What a player answered.
pub enum Reply {
    /// A move as text, and the time from sending the request to receiving it.
    Move(String, Duration),
    /// Nothing came within the time left.
    Timeout,
    /// The player stopped working (the reason).
    Failed(String),
}

/// One seat of a game.
pub trait Seat<const POLISH: bool> {
    /// Asks for a move in the current position of `game`: `clock` is the mover's time left and
    /// `clocks` both players' (first player first), `increment` the increment.
    fn ask(
        &mut self,
        game: &GameRecord<POLISH>,
        me: Player,
        clocks: [Duration; 2],
        increment: Duration,
    ) -> Reply;
    /// The game is over: lets the player go.
    fn finish(&mut self);
}

/// Built-in players: random or most-captures.
pub struct BuiltIn {
    greedy: bool,
    rng: Rng,
}

impl BuiltIn {
    /// A built-in player.
    pub fn new(greedy: bool, seed: u64) -> Self {
        BuiltIn { greedy, rng: Rng::new(seed) }
    }

    /// The move this player picks, if any.
    pub fn pick<const POLISH: bool>(&mut self, pos: &Ataxx<POLISH>) -> Option<AtaxxMove> {
        let mut moves = <Ataxx<POLISH> as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        if !self.greedy {
            return Some(moves[self.rng.below(moves.len())]);
        }
        let me = pos.side_to_move();
        let gain = |mv: AtaxxMove| {
            let mut child = pos.clone();
            child.play(mv);
            child.stones(me).count() as i32 - child.stones(!me).count() as i32
        };
        let best = moves.iter().map(|&m| gain(m)).max()?;
        let top: Vec<AtaxxMove> = moves.iter().copied().filter(|&m| gain(m) == best).collect();
        Some(top[self.rng.below(top.len())])
    }
}

impl<const POLISH: bool> Seat<POLISH> for BuiltIn {
    fn ask(
        &mut self,
        game: &GameRecord<POLISH>,
        _: Player,
        _: [Duration; 2],
        _: Duration,
    ) -> Reply {
        let start = Instant::now();
        match self.pick(game.position()) {
            Some(mv) => Reply::Move(mv.to_string(), start.elapsed()),
            None => Reply::Failed("no legal move".into()),
        }
    }

    fn finish(&mut self) {}
}

/// A child process with its output lines arriving on a channel.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    name: String,
}

impl Process {
    fn spawn(command: &[String], show_stderr: bool) -> Result<Process, String> {
        let (program, args) = command.split_first().ok_or("empty command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .map_err(|e| format!("cannot start {program:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // A line that is not text reaches the referee as a note that no move parses from
            // (an arbiter engine's answer is then an illegal move; a UAI engine's is skipped).
            for line in LineReader::new(BufReader::new(stdout)) {
                let Ok(line) = line else { break };
                let text = line.content.unwrap_or_else(|e| format!("(unreadable line: {e})"));
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines: rx, name: command.join(" ") })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }

    /// The next line, waiting at most `timeout`; `Ok(None)` on timeout.
    fn receive(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{} closed its output", self.name)),
        }
    }

    /// Lets the process end by itself for a moment, then kills it.
    fn close(&mut self, last_words: Option<&str>) {
        if let Some(words) = last_words {
            let _ = self.send(words);
        }
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An engine speaking the arbiter protocol: one process per game.
pub struct ArbiterSeat {
    process: Option<Process>,
    command: Vec<String>,
    show_stderr: bool,
}

impl ArbiterSeat {
    /// A seat for `command`; the process starts at the first request.
    pub fn new(command: Vec<String>, show_stderr: bool) -> Self {
        ArbiterSeat { process: None, command, show_stderr }
    }
}

/// Whether `text` has the arbiter form `<from><to>`, such as `a7a6`.
fn is_from_to(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && (b'a'..=b'g').contains(&b[0])
        && (b'1'..=b'7').contains(&b[1])
        && (b'a'..=b'g').contains(&b[2])
        && (b'1'..=b'7').contains(&b[3])
}

impl<const POLISH: bool> Seat<POLISH> for ArbiterSeat {
    fn ask(
        &mut self,
        game: &GameRecord<POLISH>,
        me: Player,
        clocks: [Duration; 2],
        _: Duration,
    ) -> Reply {
        let clock = clocks[me.index()];
        let first_request = self.process.is_none();
        if first_request {
            match Process::spawn(&self.command, self.show_stderr) {
                Ok(p) => self.process = Some(p),
                Err(e) => return Reply::Failed(e),
            }
        }
        let process = self.process.as_mut().expect("just started");
        // The arbiter's clock runs from sending a line to receiving the answer.
        let mut line = None;
        if first_request {
            let intro = if me == Player::First { "czarne" } else { "biale" };
            let intro = format!("{intro} {}", clock.as_millis());
            if me == Player::First {
                line = Some(intro);
            } else if let Err(e) = process.send(&intro) {
                return Reply::Failed(e);
            }
        }
        if line.is_none() {
            // The opponent's last move, in the position before it, as <from><to>.
            let Some((&last, earlier)) = game.moves().split_last() else {
                return Reply::Failed("no opponent move to send".into());
            };
            let mut before = game.start().clone();
            for &mv in earlier {
                before.play(mv);
            }
            line = Some(format!("{} {}", before.format_move_long(last), clock.as_millis()));
        }
        let sent = Instant::now();
        if let Err(e) = process.send(line.as_deref().unwrap_or_default()) {
            return Reply::Failed(e);
        }
        match process.receive(clock) {
            Ok(Some(text)) => {
                let elapsed = sent.elapsed();
                let text = text.trim().to_owned();
                if is_from_to(&text) {
                    Reply::Move(text, elapsed)
                } else {
                    // Not the arbiter form: the referee flags it as an illegal move.
                    Reply::Move(format!("{text} (not <from><to>)"), elapsed)
                }
            }
            Ok(None) => Reply::Timeout,
            Err(e) => Reply::Failed(e),
        }
    }

    fn finish(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.close(Some("koniec"));
        }
    }
}

/// An engine speaking UAI: one process per game.
pub struct UaiSeat {
    process: Option<Process>,
    command: Vec<String>,
    show_stderr: bool,
    polish: bool,
    handshake: Duration,
}

impl UaiSeat {
    /// A seat for `command`; the process starts (with `uai`, `uainewgame`, `isready`) at the
    /// first request. Under Polish rules, `setoption name Rules value polish` is sent if the
    /// engine lists a `Rules` option.
    pub fn new(command: Vec<String>, show_stderr: bool, polish: bool) -> Self {
        UaiSeat { process: None, command, show_stderr, polish, handshake: Duration::from_secs(10) }
    }

    fn start(&mut self) -> Result<(), String> {
        let mut p = Process::spawn(&self.command, self.show_stderr)?;
        p.send("uai")?;
        let mut has_rules = false;
        loop {
            let line = p.receive(self.handshake)?.ok_or("no `uaiok` within 10 s")?;
            if line.starts_with("option name Rules ") {
                has_rules = true;
            }
            if line.trim() == "uaiok" {
                break;
            }
        }
        if self.polish {
            if !has_rules {
                return Err("the engine has no Rules option for the Polish rules".into());
            }
            p.send("setoption name Rules value polish")?;
        }
        p.send("uainewgame")?;
        p.send("isready")?;
        while p.receive(self.handshake)?.ok_or("no `readyok` within 10 s")?.trim() != "readyok" {}
        self.process = Some(p);
        Ok(())
    }
}

impl<const POLISH: bool> Seat<POLISH> for UaiSeat {
    fn ask(
        &mut self,
        game: &GameRecord<POLISH>,
        me: Player,
        clocks: [Duration; 2],
        increment: Duration,
    ) -> Reply {
        if self.process.is_none()
            && let Err(e) = self.start()
        {
            return Reply::Failed(e);
        }
        let process = self.process.as_mut().expect("just started");
        let start = game.start().format_position();
        let mut position = if start == Ataxx::<POLISH>::startpos().format_position() {
            "position startpos".to_owned()
        } else {
            format!("position fen {start}")
        };
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for mv in game.moves() {
                position.push(' ');
                position.push_str(&mv.to_string());
            }
        }
        let inc = increment.as_millis();
        let go = format!(
            "go btime {} wtime {} binc {inc} winc {inc}",
            clocks[0].as_millis(),
            clocks[1].as_millis()
        );
        if let Err(e) = process.send(&position) {
            return Reply::Failed(e);
        }
        let sent = Instant::now();
        if let Err(e) = process.send(&go) {
            return Reply::Failed(e);
        }
        let clock = clocks[me.index()];
        loop {
            let left = clock.saturating_sub(sent.elapsed());
            match process.receive(left) {
                Ok(Some(line)) => {
                    let mut words = line.split_whitespace();
                    if words.next() == Some("bestmove") {
                        let mv = words.next().unwrap_or("(none)").to_owned();
                        return Reply::Move(mv, sent.elapsed());
                    }
                }
                Ok(None) => return Reply::Timeout,
                Err(e) => return Reply::Failed(e),
            }
        }
    }

    fn finish(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.close(Some("quit"));
        }
    }
}

/// Reads a player's opening or move text (used for openings files): a FEN (it has a `/`) or
/// a list of moves from the standard start.
pub fn opening_game<const POLISH: bool>(line: &str) -> Result<GameRecord<POLISH>, String> {
    if line.contains('/') {
        let pos = Ataxx::<POLISH>::parse_position(line).map_err(|e| e.to_string())?;
        Ok(GameRecord::new(pos))
    } else {
        GameRecord::with_moves(Ataxx::startpos(), line.split_whitespace())
            .map_err(|e| e.to_string())
    }
}
