//! `bitsolve ataxx arbiter`: one game under the assignment's protocol, Polish rules.
//!
//! Input lines: `czarne <ms>` (we are black, `x`, and move first) or `biale <ms>` (white, `o`),
//! with the whole game's time in milliseconds; then `<move> <ms>`: the opponent's move as
//! `<from><to>` and our time left; finally `koniec`. Each answer is one `<from><to>` line,
//! flushed at once. A bad line is reported on stderr and changes nothing.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitsolve::games::ataxx::record::GameRecord;
use bitsolve::games::ataxx::timeman::{self, LagTracker, TimeControl};
use bitsolve::lineio::LineReader;
use bitsolve::search::engine::SearchLimits;
use bitsolve::{AtaxxMove, AtaxxPolish, Game, Notation, Player};

use super::EngineArgs;
use super::watchdog::{Searcher, fallback};

/// Arguments of `bitsolve ataxx arbiter`.
#[derive(clap::Args, Debug)]
pub struct ArbiterArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Start from this FEN instead of the standard start (for tests and research).
    #[arg(long)]
    fen: Option<String>,
    /// Print one line per finished search iteration on stderr.
    #[arg(long, short)]
    verbose: bool,
}

/// The player's state between lines.
struct Session {
    start: AtaxxPolish,
    game: GameRecord<true>,
    /// Our colour, once the first line has told it.
    colour: Option<Player>,
    /// Our clock as last told by the arbiter, and when we were told.
    clock: Duration,
    searcher: Searcher<AtaxxPolish>,
    lag: LagTracker,
    args: EngineArgs,
    verbose: bool,
    /// Fuzzing: every search at most this deep (and a few thousand nodes).
    depth_cap: Option<u32>,
}

/// How long after the hard limit the watchdog answers without the engine.
const WATCHDOG_SLACK: Duration = Duration::from_millis(5);

/// What to do after a line.
enum Step {
    Continue,
    Quit,
}

/// Runs the protocol on stdin until `koniec` or the end of input.
pub fn run(args: &ArbiterArgs) -> anyhow::Result<ExitCode> {
    let start = match &args.fen {
        Some(fen) => AtaxxPolish::parse_position(fen)
            .map_err(|e| anyhow::anyhow!("invalid --fen `{fen}`: {e}"))?,
        None => AtaxxPolish::startpos(),
    };
    let mut session = Session {
        game: GameRecord::new(start.clone()),
        start,
        colour: None,
        clock: Duration::ZERO,
        searcher: Searcher::new(&args.engine.options()),
        lag: LagTracker::default(),
        args: args.engine.clone(),
        verbose: args.verbose,
        depth_cap: None,
    };
    let stdin = io::stdin();
    serve(&mut session, &mut LineReader::new(stdin.lock()), &mut io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// Handles every line of `lines` until `koniec` or the end of input; a bad line is reported on
/// stderr and changes nothing.
fn serve(
    session: &mut Session,
    lines: &mut LineReader<impl BufRead>,
    out: &mut impl Write,
) -> io::Result<()> {
    while let Some(line) = lines.next_line()? {
        let received = Instant::now();
        let line = match line.content {
            Ok(text) => text,
            Err(e) => {
                eprintln!(
                    "arbiter: line {}, column {}: {e} (line ignored)",
                    line.number,
                    e.column()
                );
                continue;
            }
        };
        match session.line(line.trim(), received, out) {
            Ok(Step::Continue) => {}
            Ok(Step::Quit) => break,
            Err(message) => eprintln!("arbiter: {message} (line {line:?} ignored)"),
        }
    }
    Ok(())
}

/// The fuzz target of the arbiter loop: a whole game's input from the standard start, every
/// search capped at depth 2; every answer must be one `<from><to>` line.
///
/// # Errors
/// The property that failed, with the output.
pub fn fuzz(input: &[u8]) -> Result<(), String> {
    let start = AtaxxPolish::startpos();
    let engine = EngineArgs::minimal();
    let mut session = Session {
        game: GameRecord::new(start.clone()),
        start,
        colour: None,
        clock: Duration::ZERO,
        searcher: Searcher::new(&engine.options()),
        lag: LagTracker::default(),
        args: engine,
        verbose: false,
        depth_cap: Some(2),
    };
    let mut out = Vec::new();
    serve(&mut session, &mut LineReader::new(input), &mut out).map_err(|e| e.to_string())?;
    let text = String::from_utf8(out).map_err(|e| e.to_string())?;
    for line in text.lines() {
        let b = line.as_bytes();
        let square = |f: u8, r: u8| (b'a'..=b'g').contains(&f) && (b'1'..=b'7').contains(&r);
        if b.len() != 4 || !square(b[0], b[1]) || !square(b[2], b[3]) {
            return Err(format!("answer {line:?} is not <from><to>; output:\n{text}"));
        }
    }
    Ok(())
}

/// Reads a millisecond count.
fn parse_ms(word: Option<&str>) -> Result<Duration, String> {
    let word = word.ok_or("missing time in milliseconds")?;
    word.parse::<u64>().map(Duration::from_millis).map_err(|_| format!("bad time {word:?}"))
}

impl Session {
    /// Handles one input line; an error leaves the state as it was.
    fn line(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut impl Write,
    ) -> Result<Step, String> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { return Ok(Step::Continue) };
        match first {
            "koniec" => return Ok(Step::Quit),
            "czarne" | "biale" => {
                let clock = parse_ms(words.next())?;
                if let Some(extra) = words.next() {
                    return Err(format!("unexpected {extra:?} after the time"));
                }
                let colour = if first == "czarne" { Player::First } else { Player::Second };
                self.game = GameRecord::new(self.start.clone());
                self.searcher.clear();
                self.colour = Some(colour);
                self.lag = LagTracker::default();
                self.clock = clock;
                if self.game.position().side_to_move() == colour {
                    self.answer(received, out)?;
                }
            }
            _ => {
                let Some(colour) = self.colour else {
                    return Err("a move before `czarne <ms>` or `biale <ms>`".into());
                };
                if self.game.position().side_to_move() == colour {
                    return Err(format!("a move for the opponent, but it is our turn ({first})"));
                }
                let clock = match words.next() {
                    Some(w) => Some(parse_ms(Some(w))?),
                    None => None,
                };
                if let Some(extra) = words.next() {
                    return Err(format!("unexpected {extra:?} after the time"));
                }
                if first.len() != 4 {
                    return Err(format!("expected a move <from><to> such as a7a6, got {first:?}"));
                }
                let mut next = self.game.clone();
                next.play_text(first).map_err(|e| e.to_string())?;
                self.game = next;
                match clock {
                    Some(c) => {
                        self.lag.told(c);
                        self.clock = c;
                    }
                    None => eprintln!("arbiter: no time given with the move; using our own count"),
                }
                self.answer(received, out)?;
            }
        }
        Ok(Step::Continue)
    }

    /// Searches the current position within the time budget, plays and prints the move.
    fn answer(&mut self, received: Instant, out: &mut impl Write) -> Result<(), String> {
        let pos = self.game.position().clone();
        let mut moves = <AtaxxPolish as Game>::Moves::default();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            let why = self
                .game
                .adjudicate()
                .map_or("no legal move".into(), |(r, t)| format!("{} ({t})", r.pgn()));
            eprintln!("arbiter: no move to play: {why}");
            return Ok(());
        }
        let clock = TimeControl { left: self.clock, increment: Duration::ZERO };
        if timeman::is_panic(&clock) {
            let mv = fallback(&pos).unwrap_or(moves[0]);
            return self.send(&pos, mv, received, out);
        }
        let empties = pos.empties().count();
        let budget =
            timeman::budget_planned(&clock, empties, self.lag.per_move(), &self.args.time_plan());
        let limits = SearchLimits {
            soft_time: Some(budget.soft),
            hard_time: Some(budget.hard),
            depth: match (self.args.depth, self.depth_cap) {
                (Some(d), Some(c)) => Some(d.min(c)),
                (d, c) => d.or(c),
            },
            nodes: if self.depth_cap.is_some() { Some(2_000) } else { self.args.nodes },
            stop: None,
            soft_by_nodes: self.args.time_by_nodes,
        };
        let verbose = self.verbose;
        if verbose {
            eprintln!(
                "clock {} ms, lag {} ms/move, budget {}..{} ms",
                self.clock.as_millis(),
                self.lag.per_move().as_millis(),
                budget.soft.as_millis(),
                budget.hard.as_millis()
            );
        }
        // The engine is stopped at its hard limit; the watchdog answers shortly after it in any
        // case, always before the reserve is touched.
        let since = received.elapsed();
        let deadline = (budget.hard + WATCHDOG_SLACK)
            .min(self.clock.saturating_sub(timeman::MIN_RESERVE / 2))
            .saturating_sub(since)
            .max(Duration::from_millis(1));
        let answer =
            self.searcher.search(&pos, self.game.history(), limits, Some(deadline), move |info| {
                if verbose {
                    eprintln!(
                        "info depth {} score {} nodes {} time {}",
                        info.depth,
                        info.score,
                        info.nodes,
                        info.elapsed.as_millis()
                    );
                }
            });
        if answer.overran {
            eprintln!(
                "arbiter: the engine ran past its deadline; answering with its last best move"
            );
        }
        let mv = answer.best.filter(|&m| pos.is_legal(m)).unwrap_or(moves[0]);
        self.send(&pos, mv, received, out)
    }

    /// Plays `mv` (legal in `pos`, the current position), prints it as `<from><to>` and
    /// counts the time since the request was `received`.
    fn send(
        &mut self,
        pos: &AtaxxPolish,
        mv: AtaxxMove,
        received: Instant,
        out: &mut impl Write,
    ) -> Result<(), String> {
        let text = pos.format_move_long(mv);
        self.game.play(mv).map_err(|e| format!("internal error: {e}"))?;
        writeln!(out, "{text}").and_then(|()| out.flush()).map_err(|e| e.to_string())?;
        self.clock = self.clock.saturating_sub(received.elapsed());
        self.lag.answered(self.clock);
        Ok(())
    }
}
