//! `bitsolve ataxx uai`: the Universal Ataxx Interface (UCI with `uai`/`uaiok`).
//!
//! Standard rules by default; `setoption name Rules value polish` switches (and resets the
//! position). The search runs on its own thread, so `stop`, `isready` and `quit` are answered
//! while it thinks. Moves are written the UAI way: a clone as its destination (`f1`), a jump as
//! from+to (`g1e3`), a pass as `0000`; both that and the arbiter's from+to form are read.
//! Extensions: `perft <d>`, `splitperft <d>`, `bench`, `d`, `eval` (the static evaluation of
//! the current position by the hand-made evaluation and by the net).
//!
//! Evaluation: the embedded net by default (`nets/ataxx/default.nnue`, see
//! `nets/ataxx/README.md`); `setoption name UseNNUE value false` (or `--classic`) switches to the
//! hand-made evaluation. `setoption name EvalFile value PATH` (or `--eval-file PATH`) loads
//! another net and switches to it; `EvalFile` set to `<embedded>` goes back to the embedded net.
//! A file that does not load is reported on stderr and changes nothing.
//!
//! Time: under `go wtime/btime`, `TimeUse` (percent of the default budget, `--time-use`),
//! `TimeHorizon` (at most this many moves assumed left, `--time-horizon`), `TimeReserve`
//! (percent of the clock kept back, `--time-reserve`) and `TimeByNodes` (stretch the soft limit
//! when the best move took a small share of the nodes, `--time-by-nodes`) shape how the clock
//! is spent (`timeman`). `EvalCache` (`--eval-cache`) keeps a cache of the net's evaluations:
//! the same search, faster in short searches.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bitsolve::games::ataxx::nnue::{NetAtaxx, Network};
use bitsolve::games::ataxx::record::GameRecord;
use bitsolve::games::ataxx::timeman::{self, LagTracker, TimeControl};
use bitsolve::lineio::LineReader;
use bitsolve::search::engine::{EngineOptions, SearchInfo, SearchLimits, WIN, mate_distance};
use bitsolve::{Ataxx, AtaxxMove, Evaluate, Game, Notation, Perft, Player};

use super::EngineArgs;
use super::watchdog::Searcher;

/// Arguments of `bitsolve ataxx uai`.
#[derive(clap::Args, Debug)]
pub struct UaiArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Start with the Polish rules instead of the standard ones.
    #[arg(long)]
    polish: bool,
    /// Evaluate with the net (the default; the embedded one unless `--eval-file` names another).
    #[arg(long, conflicts_with = "classic")]
    nnue: bool,
    /// Evaluate with the hand-made evaluation instead of the net (`UseNNUE` false).
    #[arg(long, conflicts_with = "eval_file")]
    classic: bool,
    /// Evaluate with the net in this file.
    #[arg(long)]
    eval_file: Option<String>,
}

/// The evaluation the engine uses: the hand-made one or a net.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The net to use when enabled.
    net: &'static Network,
    /// The net's name for `uai`: `<embedded>` or the file it came from.
    name: String,
    /// Whether the net evaluates (else the hand-made evaluation).
    enabled: bool,
}

/// The name `EvalFile` shows for the embedded net.
const EMBEDDED_NAME: &str = "<embedded>";

impl Evaluation {
    /// The hand-made evaluation, with the embedded net ready.
    fn classic() -> Self {
        Evaluation { net: Network::embedded(), name: EMBEDDED_NAME.into(), enabled: false }
    }

    /// The embedded net (the default evaluation).
    fn embedded() -> Self {
        Evaluation { enabled: true, ..Evaluation::classic() }
    }

    /// The net if enabled.
    fn net(&self) -> Option<&'static Network> {
        self.enabled.then_some(self.net)
    }

    /// Loads the net in `path` (or the embedded one for `<embedded>`) and enables it.
    fn load(&mut self, path: &str) -> Result<(), String> {
        self.net = if path == EMBEDDED_NAME {
            Network::embedded()
        } else {
            let net = Network::load_file(path).map_err(|e| format!("EvalFile {path:?}: {e}"))?;
            Box::leak(Box::new(net))
        };
        self.name = path.into();
        self.enabled = true;
        Ok(())
    }
}

/// Writes protocol lines: one lock per line, flushed, shared by the reader and search threads.
#[derive(Clone)]
struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    fn line(&self, text: &str) {
        let mut out = lock(&self.0);
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// Bounds on the work of every command, so that each fuzz input ends quickly: searches,
/// `perft` and `bench` at most this deep, searches at most this many nodes, hash and threads
/// at their minimum.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Deepest search, perft or bench depth.
    pub depth: u32,
    /// Most nodes per search.
    pub nodes: u64,
}

/// A search running on its own thread; joining it gives the searcher back.
struct Running<const POLISH: bool> {
    /// `go infinite`: the search ends only on `stop`, so a command that must wait for it
    /// stops it first.
    infinite: bool,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Searcher<NetAtaxx<POLISH>>>,
}

/// How long after the hard limit the watchdog answers without the engine.
const WATCHDOG_SLACK: Duration = Duration::from_millis(5);

/// The interface's state under one rule set.
struct Session<const POLISH: bool> {
    game: GameRecord<POLISH>,
    searcher: Option<Searcher<NetAtaxx<POLISH>>>,
    eval: Evaluation,
    /// Clock lag per move, learnt from successive `go wtime/btime` (see [`LagTracker`]).
    lag: Arc<Mutex<LagTracker>>,
    running: Option<Running<POLISH>>,
    options: EngineOptions,
    args: EngineArgs,
    out: Output,
    caps: Option<Caps>,
}

/// What the reader loop does next.
enum Next {
    Continue,
    Quit,
    SwitchRules(bool),
}

/// Runs the interface on stdin until `quit` or the end of input.
#[allow(clippy::unnecessary_wraps)] // the signature every command has
pub fn run(args: &UaiArgs) -> anyhow::Result<ExitCode> {
    let out = Output(Arc::new(Mutex::new(io::stdout())));
    // `--nnue` and `--classic` exclude each other (clap), so `--nnue` only confirms the default.
    let classic = args.classic && !args.nnue;
    let mut eval = if classic { Evaluation::classic() } else { Evaluation::embedded() };
    if let Some(path) = &args.eval_file {
        eval.load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let stdin = io::stdin();
    serve_all(&mut LineReader::new(stdin.lock()), &args.engine, eval, args.polish, &out, None);
    Ok(ExitCode::SUCCESS)
}

/// Serves every line of `lines` (switching rule sets as asked) until `quit` or the end.
fn serve_all(
    lines: &mut LineReader<impl BufRead>,
    engine: &EngineArgs,
    mut eval: Evaluation,
    polish: bool,
    out: &Output,
    caps: Option<Caps>,
) {
    let mut options = engine.options();
    let mut engine = engine.clone();
    let mut polish = polish;
    loop {
        let next = if polish {
            Session::<true>::new(&options, &eval, &engine, out.clone(), caps).serve(
                lines,
                &mut options,
                &mut eval,
                &mut engine,
            )
        } else {
            Session::<false>::new(&options, &eval, &engine, out.clone(), caps).serve(
                lines,
                &mut options,
                &mut eval,
                &mut engine,
            )
        };
        match next {
            Next::SwitchRules(p) => polish = p,
            Next::Quit | Next::Continue => return,
        }
    }
}

/// Collects the session's output for [`fuzz`].
struct Collect(Arc<Mutex<Vec<u8>>>);

impl Write for Collect {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        lock(&self.0).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The fuzz target of the UAI loop: runs a whole session on `input` under [`Caps`] and checks
/// that every `uai` before the first `quit` is answered `uaiok` and every `isready`
/// `readyok`, in order, and that each `bestmove` names a move or `0000`.
///
/// # Errors
/// The property that failed, with the output.
pub fn fuzz(input: &[u8]) -> Result<(), String> {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let out = Output(Arc::new(Mutex::new(Collect(buffer.clone()))));
    let engine = EngineArgs::minimal();
    let caps = Caps { depth: 2, nodes: 2_000 };
    serve_all(&mut LineReader::new(input), &engine, Evaluation::classic(), false, &out, Some(caps));
    let output = String::from_utf8(lock(&buffer).clone()).map_err(|e| e.to_string())?;
    let mut want = Vec::new();
    for line in LineReader::new(input).map_while(Result::ok) {
        let Ok(text) = line.text() else { continue };
        match text.split_whitespace().next() {
            Some("quit") => break,
            Some("uai") => want.push("uaiok"),
            Some("isready") => want.push("readyok"),
            _ => {}
        }
    }
    let got: Vec<&str> = output.lines().filter(|l| *l == "uaiok" || *l == "readyok").collect();
    if got != want {
        return Err(format!("answers {got:?}, expected {want:?}; output:\n{output}"));
    }
    for line in output.lines() {
        if let Some(mv) = line.strip_prefix("bestmove ")
            && (mv.is_empty() || mv.len() > 4 || !mv.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            return Err(format!("bad bestmove line {line:?}"));
        }
    }
    Ok(())
}

/// Locks a mutex, ignoring poisoning (the data are plain values).
fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The words of `line` after the keyword `key`, up to the next of `stops` (or the end).
fn words_after<'a>(words: &[&'a str], key: &str, stops: &[&str]) -> Option<Vec<&'a str>> {
    let at = words.iter().position(|w| *w == key)?;
    Some(words[at + 1..].iter().take_while(|w| !stops.contains(w)).copied().collect())
}

/// `score cp N` or `score mate N` (moves, negative when losing).
fn score_text(score: i32) -> String {
    match mate_distance(score) {
        Some(p) if p >= 0 => format!("mate {}", (p + 1) / 2),
        Some(p) => format!("mate -{}", (-p + 1) / 2),
        None => format!("cp {}", score.clamp(-WIN, WIN)),
    }
}

/// An `info` line for a finished iteration.
fn info_line(info: &SearchInfo<AtaxxMove>) -> String {
    let ms = info.elapsed.as_millis().max(1);
    let nps = u128::from(info.nodes) * 1000 / ms;
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} time {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
    }
    line
}

/// A text picture of the board, `x` on top as in FEN, then the FEN and the side to move.
fn display<const POLISH: bool>(pos: &Ataxx<POLISH>) -> String {
    let mut out = String::new();
    for rank in (0..pos.height()).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..pos.width() {
            let sq = rank * 8 + file;
            let c = if pos.stones(Player::First).contains(sq) {
                'x'
            } else if pos.stones(Player::Second).contains(sq) {
                'o'
            } else if pos.valid().contains(sq) {
                '.'
            } else {
                ' '
            };
            out.push(c);
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..pos.width() {
        out.push(char::from(b'a' + file as u8));
        out.push(' ');
    }
    out.push('\n');
    let side = if pos.side_to_move() == Player::First { "x" } else { "o" };
    let _ = write!(
        out,
        "FEN: {}\nSide to move: {side}\nRules: {}\nStones: x {} o {}",
        pos.format_position(),
        if POLISH { "polish" } else { "standard" },
        pos.stones(Player::First).count(),
        pos.stones(Player::Second).count()
    );
    out
}

/// The positions and depths of `bench`: a fixed node count is the engine's signature.
const BENCH: [(&str, u32); 4] = [
    ("x5o/7/7/7/7/7/o5x x 0 1", 5),
    ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 5),
    ("7/7/7/2x1o2/7/7/7 x 0 1", 5),
    ("xxoo3/xoxo3/ooxx3/7/3xo2/7/o5x o 0 12", 4),
];

impl<const POLISH: bool> Session<POLISH> {
    fn new(
        options: &EngineOptions,
        eval: &Evaluation,
        args: &EngineArgs,
        out: Output,
        caps: Option<Caps>,
    ) -> Self {
        Session {
            eval: eval.clone(),
            game: GameRecord::new(Ataxx::startpos()),
            searcher: Some(Searcher::new(options)),
            lag: Arc::default(),
            running: None,
            options: options.clone(),
            args: args.clone(),
            out,
            caps,
        }
    }

    /// Reads commands until `quit`, the end of input, or a change of rule set.
    /// A line that is not text (bad UTF-8, control bytes, too long) is reported on stderr and
    /// changes nothing, like any bad command.
    fn serve(
        mut self,
        lines: &mut LineReader<impl BufRead>,
        options: &mut EngineOptions,
        eval: &mut Evaluation,
        args: &mut EngineArgs,
    ) -> Next {
        while let Ok(Some(line)) = lines.next_line() {
            let line = match line.content {
                Ok(text) => text,
                Err(e) => {
                    eprintln!(
                        "uai: line {}, column {}: {e} (line ignored)",
                        line.number,
                        e.column()
                    );
                    continue;
                }
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let next = match self.command(&words) {
                Ok(next) => next,
                Err(message) => {
                    eprintln!("uai: {message} (line {:?} ignored)", line.trim());
                    Next::Continue
                }
            };
            *options = self.options.clone();
            eval.clone_from(&self.eval);
            args.clone_from(&self.args);
            match next {
                Next::Continue => {}
                Next::Quit | Next::SwitchRules(_) => {
                    self.stop_search();
                    return next;
                }
            }
        }
        self.stop_search();
        Next::Quit
    }

    /// Handles one command; an error leaves the state unchanged.
    fn command(&mut self, words: &[&str]) -> Result<Next, String> {
        let Some(&cmd) = words.first() else { return Ok(Next::Continue) };
        match cmd {
            "uai" => {
                for line in [
                    format!("id name bitsolve {}", env!("CARGO_PKG_VERSION")),
                    "id author the bitsolve authors".into(),
                    format!(
                        "option name Hash type spin default {} min 1 max 65536",
                        self.options.hash_mib
                    ),
                    format!(
                        "option name Threads type spin default {} min 1 max 256",
                        self.options.threads
                    ),
                    format!(
                        "option name Rules type combo default {} var standard var polish",
                        if POLISH { "polish" } else { "standard" }
                    ),
                    format!(
                        "option name TimeUse type spin default {} min 10 max 1000",
                        self.args.time_use
                    ),
                    format!(
                        "option name TimeByNodes type check default {}",
                        self.args.time_by_nodes
                    ),
                    format!(
                        "option name TimeHorizon type spin default {} min 0 max 1000",
                        self.args.time_horizon
                    ),
                    format!(
                        "option name TimeReserve type spin default {} min 0 max 90",
                        self.args.time_reserve
                    ),
                    format!("option name EvalCache type check default {}", self.options.eval_cache),
                    format!("option name UseNNUE type check default {}", self.eval.enabled),
                    format!("option name EvalFile type string default {}", self.eval.name),
                    "uaiok".into(),
                ] {
                    self.out.line(&line);
                }
            }
            "isready" => self.out.line("readyok"),
            "uainewgame" => {
                self.stop_search();
                self.searcher_mut().clear();
                *lock(&self.lag) = LagTracker::default();
                self.game = GameRecord::new(Ataxx::startpos());
            }
            "setoption" => return self.set_option(words),
            "position" => self.position(words)?,
            "go" => self.go(words)?,
            "stop" => self.stop_search(),
            "quit" => return Ok(Next::Quit),
            "d" => self.out.line(&display(self.game.position())),
            "eval" => self.eval_command(),
            "perft" | "splitperft" => self.perft(cmd == "splitperft", words)?,
            "bench" => self.bench(),
            _ => return Err(format!("unknown command {cmd:?}")),
        }
        Ok(Next::Continue)
    }

    /// The searcher, waiting for a running search first.
    fn searcher_mut(&mut self) -> &mut Searcher<NetAtaxx<POLISH>> {
        self.join_search();
        self.searcher.get_or_insert_with(|| Searcher::new(&self.options))
    }

    /// Waits for the running search (which prints its `bestmove`) and takes the engine back.
    fn join_search(&mut self) {
        if let Some(running) = self.running.take() {
            if running.infinite {
                running.stop.store(true, Ordering::Relaxed);
            }
            if let Ok(searcher) = running.thread.join() {
                self.searcher = Some(searcher);
            } else {
                eprintln!("uai: the search thread panicked; starting a fresh engine");
                self.searcher = Some(Searcher::new(&self.options));
            }
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    /// `setoption name <name> value <value>`.
    fn set_option(&mut self, words: &[&str]) -> Result<Next, String> {
        let name = words_after(words, "name", &["value"]).ok_or("setoption without a name")?;
        let value = words_after(words, "value", &[]).unwrap_or_default();
        let (name, value) = (name.join(" "), value.join(" "));
        let number =
            || value.parse::<usize>().map_err(|_| format!("bad value {value:?} for {name}"));
        // A spin option's value, refused outside `lo..=hi` (named as the engine lists it).
        let spin = |shown: &str, lo: usize, hi: usize| {
            let v = number()?;
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(format!("{shown} {v} out of range {lo}..{hi}"))
            }
        };
        // A check option's value.
        let check = |shown: &str| match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{shown} must be true or false, not {value:?}")),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => self.options.hash_mib = spin("Hash", 1, 65_536)?,
            "threads" => self.options.threads = spin("Threads", 1, 256)?,
            "evalcache" => self.options.eval_cache = check("EvalCache")?,
            "usennue" => {
                self.eval.enabled = check("UseNNUE")?;
                self.searcher_mut().clear();
                return Ok(Next::Continue);
            }
            "evalfile" => {
                self.eval.load(&value)?;
                self.searcher_mut().clear();
                return Ok(Next::Continue);
            }
            "timeuse" => {
                self.args.time_use = spin("TimeUse", 10, 1000)? as u32;
                return Ok(Next::Continue);
            }
            "timehorizon" => {
                self.args.time_horizon = spin("TimeHorizon", 0, 1000)? as u32;
                return Ok(Next::Continue);
            }
            "timereserve" => {
                self.args.time_reserve = spin("TimeReserve", 0, 90)? as u32;
                return Ok(Next::Continue);
            }
            "timebynodes" => {
                self.args.time_by_nodes = check("TimeByNodes")?;
                return Ok(Next::Continue);
            }
            "rules" => {
                return match value.to_ascii_lowercase().as_str() {
                    "polish" if POLISH => Ok(Next::Continue),
                    "standard" if !POLISH => Ok(Next::Continue),
                    "polish" => Ok(Next::SwitchRules(true)),
                    "standard" => Ok(Next::SwitchRules(false)),
                    _ => Err(format!("Rules must be standard or polish, not {value:?}")),
                };
            }
            _ => return Err(format!("unknown option {name:?}")),
        }
        if self.caps.is_some() {
            self.options.hash_mib = 1;
            self.options.threads = 1;
        }
        let options = self.options.clone();
        self.searcher_mut().set_options(&options);
        Ok(Next::Continue)
    }

    /// `position startpos|fen <fen> [moves ...]`: replaces the game only if all of it is valid.
    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let start = match words.get(1) {
            Some(&"startpos") => Ataxx::startpos(),
            Some(&"fen") => {
                let fen = words_after(words, "fen", &["moves"]).unwrap_or_default().join(" ");
                Ataxx::parse_position(&fen).map_err(|e| format!("bad FEN {fen:?}: {e}"))?
            }
            _ => return Err("expected `position startpos` or `position fen <fen>`".into()),
        };
        let moves = words_after(words, "moves", &[]).unwrap_or_default();
        self.game = GameRecord::with_moves(start, moves).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// `go ...`: starts a search on its own thread.
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let value = |key: &str| -> Result<Option<u64>, String> {
            match words.iter().position(|w| *w == key) {
                None => Ok(None),
                Some(i) => {
                    let w = words.get(i + 1).ok_or(format!("{key} without a value"))?;
                    let n = w.parse::<i64>().map_err(|_| format!("bad {key} value {w:?}"))?;
                    Ok(Some(n.max(0) as u64))
                }
            }
        };
        let infinite = words.contains(&"infinite");
        let pos = self.game.position().clone();
        let (time_key, inc_key) = match pos.side_to_move() {
            Player::First => ("btime", "binc"),
            Player::Second => ("wtime", "winc"),
        };
        let mut limits = SearchLimits {
            depth: value("depth")?.map(|d| d.clamp(1, 1000) as u32).or(self.args.depth),
            nodes: value("nodes")?.or(self.args.nodes),
            ..SearchLimits::default()
        };
        let received = Instant::now();
        let mut clock_after = None;
        let budget = if let Some(ms) = value("movetime")? {
            Some(timeman::fixed(Duration::from_millis(ms)))
        } else if let Some(ms) = value(time_key)? {
            let clock = TimeControl {
                left: Duration::from_millis(ms),
                increment: Duration::from_millis(value(inc_key)?.unwrap_or(0)),
            };
            clock_after = Some(clock);
            if timeman::is_panic(&clock) {
                limits.depth = Some(1);
            }
            let mut lag = lock(&self.lag);
            lag.told(clock.left);
            let empties = pos.empties().count();
            Some(timeman::budget_planned(&clock, empties, lag.per_move(), &self.args.time_plan()))
        } else {
            None
        };
        if let Some(caps) = self.caps {
            limits.depth = Some(limits.depth.map_or(caps.depth, |d| d.min(caps.depth)));
            limits.nodes = Some(limits.nodes.map_or(caps.nodes, |n| n.min(caps.nodes)));
        }
        let mut deadline = None;
        if !infinite && let Some(b) = budget {
            limits.soft_time = Some(b.soft);
            limits.hard_time = Some(b.hard);
            limits.soft_by_nodes = self.args.time_by_nodes && clock_after.is_some();
            deadline = Some(b.hard + WATCHDOG_SLACK);
        }
        self.stop_search();
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(&self.options));
        let history = self.game.history().to_vec();
        let out = self.out.clone();
        let stop_flag = stop.clone();
        let lag = self.lag.clone();
        let net = self.eval.net();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let info_out = out.clone();
                let root = NetAtaxx::new(pos.clone(), net);
                let answer = searcher.search(&root, &history, limits, deadline, move |info| {
                    info_out.line(&info_line(info));
                });
                if infinite {
                    // UAI: under `go infinite` the best move waits for `stop`.
                    while !stop_flag.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                let best = answer.best.filter(|&m| pos.is_legal(m)).or_else(|| {
                    let mut moves = <Ataxx<POLISH> as Game>::Moves::default();
                    pos.generate_moves(&mut moves);
                    moves.first().copied()
                });
                out.line(&format!("bestmove {}", best.map_or("0000".into(), |m| m.to_string())));
                if let Some(clock) = clock_after {
                    let left = clock.left.saturating_sub(received.elapsed()) + clock.increment;
                    lock(&lag).answered(left);
                }
                searcher
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { infinite, stop, thread });
        Ok(())
    }

    /// `perft <d>`: one `info` line per depth; `splitperft <d>`: each move's count, then the
    /// total.
    fn perft(&mut self, split: bool, words: &[&str]) -> Result<(), String> {
        let depth: u32 = words
            .get(1)
            .and_then(|w| w.parse().ok())
            .filter(|d| (1..=12).contains(d))
            .ok_or("perft needs a depth 1..12")?;
        let depth = self.caps.map_or(depth, |c| depth.min(c.depth));
        self.join_search();
        let pos = self.game.position();
        if split {
            let mut total = 0;
            for (mv, n) in pos.split_perft(depth) {
                self.out.line(&format!("{mv} {n}"));
                total += n;
            }
            self.out.line(&format!("nodes {total}"));
        } else {
            for d in 1..=depth {
                let start = Instant::now();
                let n = pos.perft(d);
                let ms = start.elapsed().as_millis();
                let nps = u128::from(n) * 1000 / ms.max(1);
                self.out.line(&format!("info depth {d} nodes {n} time {ms} nps {nps}"));
            }
        }
        Ok(())
    }

    /// `eval`: the static evaluation of the current position, side to move's view.
    fn eval_command(&self) {
        let pos = self.game.position();
        let classic = pos.evaluate();
        let net = NetAtaxx::new(pos.clone(), Some(self.eval.net)).evaluate();
        let using = if self.eval.enabled { "nnue" } else { "classic" };
        self.out.line(&format!("eval classic {classic} nnue {net} using {using}"));
    }

    /// `bench`: fixed-depth searches of fixed positions; the total node count is a signature.
    fn bench(&mut self) {
        let start = Instant::now();
        let cap = self.caps.map_or(u32::MAX, |c| c.depth);
        let net = self.eval.net();
        let nodes = self.searcher_mut().with_engine(|engine| {
            let mut nodes = 0;
            for (fen, depth) in BENCH {
                let depth = depth.min(cap);
                let pos = Ataxx::<POLISH>::parse_position(fen).expect("bench positions are valid");
                let pos = NetAtaxx::new(pos, net);
                engine.clear();
                let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
                nodes += engine.search(&pos, &[], &limits, &mut |_| {}).info.nodes;
            }
            engine.clear();
            nodes
        });
        let ms = start.elapsed().as_millis();
        let nps = u128::from(nodes) * 1000 / ms.max(1);
        self.out.line(&format!("nodes {nodes} time {ms} nps {nps}"));
    }
}
