//! The GIPF command interpreter of the assignment (`LOAD_GAME_BOARD` ... `SOLVE_GAME_STATE`),
//! as specified in `datasets/gipf/PROTOCOL.md`: text in, text out. Bad input never panics and
//! never stops the interpreter; every command gets an answer.
//!
//! `bitsolve gipf` feeds it stdin; the tests and benches call [`Interpreter::run`].
//!
//! ```
//! use bitsolve::protocol::gipf::Interpreter;
//! use bitsolve::SolverKind;
//!
//! let mut interp = Interpreter::new(16, SolverKind::Auto);
//! let out = interp.run("LOAD_GAME_BOARD\n2 3 4 4\n2 1 W\n _ _\n_ _ _\n _ _\nSOLVE_GAME_STATE\n");
//! assert_eq!(out, "BOARD_STATE_OK\nWHITE_HAS_WINNING_STRATEGY\n");
//! // A draw (pieces go round for ever): proved by the retrograde rounds of `auto`.
//! let out = interp.run("LOAD_GAME_BOARD\n2 3 7 7\n3 3 W\n _ B\nW W B\n W _\nSOLVE_GAME_STATE\n");
//! assert_eq!(out, "BOARD_STATE_OK\nNO_WINNING_STRATEGY\n");
//! ```

use std::io::{self, BufRead, Write};

use crate::games::gipf::notation::{parse_params, parse_reserves, parse_row};
use crate::games::gipf::{BoardText, Gipf, LoadError, Run, State};
use crate::geometry::hex::{MAX_SIDE, MIN_SIDE, Point};
use crate::lineio::{LineError, LineReader};
use crate::search::retro::RetroSolver;
use crate::search::{Report, Solver};
use crate::{Game, Limits, Outcome, Player, SolverKind, SolverOptions, make_solver};

/// Table size of the interpreter's first, small df-pn attempt at a `SOLVE_GAME_STATE`.
pub const QUICK_TT_MIB: usize = 1;
/// Node budget of the first attempt (a third of the small table's slots at one entry per
/// node); a position it cannot solve is solved again with the full table.
pub const QUICK_NODES: u64 = 20_000;

/// The answer of `SOLVE_GAME_STATE` and `WINNING_SEQUENCE_EXIST` when the search gives up
/// without a limit having been set: only on a path deeper than
/// [`crate::search::dfpn::MAX_PLY`] plies (an answer the spec has no word for; never printed
/// on the official tests).
pub const GAVE_UP: &str = "SEARCH_GAVE_UP";

/// Node budget of the first, depth-bounded attempt at a `WINNING_SEQUENCE_EXIST`.
pub const SEQUENCE_NODES: u64 = 100_000;
/// Position cap of the retrograde attempt at a `WINNING_SEQUENCE_EXIST` (about 100 bytes each).
pub const SEQUENCE_RETRO_POSITIONS: u64 = 2_000_000;

/// The interpreter's state: the loaded game, if any.
pub struct Interpreter {
    game: Option<Gipf>,
    last_bad: Option<(Player, String)>,
    tt_mib: usize,
    kind: SolverKind,
    /// The small-table df-pn solver of the first attempt, kept from one solve to the next so
    /// its table is allocated (and its pages touched) once.
    quick: Option<Box<dyn Solver<Gipf>>>,
    use_quick: bool,
    /// A node cap on every search (see [`Interpreter::with_node_cap`]).
    node_cap: Option<u64>,
}

/// The side that wins, given the outcome for `mover` (none for a draw or no answer).
fn winner(mover: Player, outcome: Option<Outcome>) -> Option<Player> {
    match outcome? {
        Outcome::Win => Some(mover),
        Outcome::Loss => Some(!mover),
        Outcome::Draw => None,
    }
}

fn colour_name(p: Player) -> &'static str {
    if p == Player::First { "WHITE" } else { "BLACK" }
}

impl Interpreter {
    /// An interpreter with no board; the solving commands use solver `kind` with a table of
    /// `tt_mib` MiB.
    pub fn new(tt_mib: usize, kind: SolverKind) -> Self {
        Interpreter {
            game: None,
            last_bad: None,
            tt_mib,
            kind,
            quick: None,
            use_quick: true,
            node_cap: None,
        }
    }

    /// Turns the small-table first attempt of `SOLVE_GAME_STATE` on (the default) or off (then
    /// every solve gets a fresh table of the full size; the benches compare both).
    #[must_use]
    pub fn with_quick_attempt(mut self, on: bool) -> Self {
        self.use_quick = on;
        self
    }

    /// Caps every search of `SOLVE_GAME_STATE` and `WINNING_SEQUENCE_EXIST` at about `nodes`
    /// nodes; a position the cap leaves unsolved is answered [`GAVE_UP`]. For fuzzing, where
    /// every input must finish quickly; the protocol itself has no cap.
    #[must_use]
    pub fn with_node_cap(mut self, nodes: u64) -> Self {
        self.node_cap = Some(nodes);
        self
    }

    /// A node limit of `nodes` (`None`: none), lowered to the cap if there is one.
    fn limits(&self, nodes: Option<u64>) -> Limits {
        let nodes = match (nodes, self.node_cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits { nodes, ..Limits::default() }
    }

    /// Runs every command of `input` (one per line, blank lines ignored) and returns the
    /// output, as `bitsolve gipf` prints it.
    pub fn run(&mut self, input: &str) -> String {
        self.run_bytes(input.as_bytes())
    }

    /// [`Interpreter::run`] on raw bytes: lines that are not text (bad UTF-8, control bytes,
    /// longer than [`crate::lineio::MAX_LINE`]) are answered as any bad line (see
    /// [`Interpreter::serve`]).
    pub fn run_bytes(&mut self, input: &[u8]) -> String {
        let mut out = Vec::new();
        // Neither reading from a slice nor writing to a vector can fail.
        let _ = self.serve(&mut LineReader::new(input), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Answers every command read from `lines` on `out`, each as soon as its lines are read
    /// (flushed after each answer), until the end of input. A line that is not text is a bad
    /// line: as a command it is answered `UNKNOWN_COMMAND`; inside a board (after
    /// `LOAD_GAME_BOARD`) it makes the load fail (`WRONG_GAME_PARAMETERS` in the two header
    /// lines, `WRONG_BOARD_CONTENT` in a row). The interpreter reads on either way.
    ///
    /// # Errors
    /// Only an I/O error of `lines` or `out`.
    pub fn serve<R: BufRead, W: Write>(
        &mut self,
        lines: &mut LineReader<R>,
        out: &mut W,
    ) -> io::Result<()> {
        while let Some(line) = lines.next_line()? {
            let answer = match line.text() {
                Err(_) => "UNKNOWN_COMMAND\n".to_string(),
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => {
                    let mut more = || match lines.next_line() {
                        Ok(Some(l)) => Some(l.content),
                        Ok(None) | Err(_) => None,
                    };
                    self.command_with(text.trim(), &mut more)
                }
            };
            out.write_all(answer.as_bytes())?;
            out.flush()?;
        }
        Ok(())
    }

    /// Runs one command (`line`, trimmed); commands that read more lines advance `next`.
    /// Returns the output text.
    pub fn command(&mut self, line: &str, lines: &[String], next: &mut usize) -> String {
        let mut more = || {
            let l = lines.get(*next)?;
            *next += 1;
            Some(Ok(l.clone()))
        };
        self.command_with(line, &mut more)
    }

    /// Runs one command (`line`, trimmed); `more` gives the lines after it (the board after
    /// `LOAD_GAME_BOARD`), `None` at the end of input. Returns the output text.
    pub fn command_with(
        &mut self,
        line: &str,
        more: &mut dyn FnMut() -> Option<Result<String, LineError>>,
    ) -> String {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        if cmd == "LOAD_GAME_BOARD" {
            return self.load(more);
        }
        let known = [
            "PRINT_GAME_BOARD",
            "DO_MOVE",
            "PRINT_GAME_STATE",
            "IS_GAME_OVER",
            "GEN_ALL_POS_MOV",
            "GEN_ALL_POS_MOV_EXT",
            "GEN_ALL_POS_MOV_NUM",
            "GEN_ALL_POS_MOV_EXT_NUM",
            "WINNING_SEQUENCE_EXIST",
            "SOLVE_GAME_STATE",
        ];
        if !known.contains(&cmd) {
            return "UNKNOWN_COMMAND\n".into();
        }
        let Some(game) = self.game.clone() else { return "EMPTY_BOARD\n".into() };
        match cmd {
            "PRINT_GAME_BOARD" => format!("{}\n", game.board_text()),
            "DO_MOVE" => self.do_move(&game, &rest.join(" ")),
            "PRINT_GAME_STATE" => self.print_state(&game),
            "IS_GAME_OVER" => match game.winner() {
                None => "GAME_IN_PROGRESS\n".into(),
                Some(p) => format!("THE_WINNER_IS_{}\n", colour_name(p)),
            },
            "GEN_ALL_POS_MOV"
            | "GEN_ALL_POS_MOV_NUM"
            | "GEN_ALL_POS_MOV_EXT"
            | "GEN_ALL_POS_MOV_EXT_NUM" => generate(&game, cmd),
            "SOLVE_GAME_STATE" => self.solve(&game),
            _ => self.winning_sequence(&game, &rest),
        }
    }

    fn load(&mut self, more: &mut dyn FnMut() -> Option<Result<String, LineError>>) -> String {
        self.game = None;
        self.last_bad = None;
        // The next non-blank line (trimmed), a bad line as `Err`.
        let mut take = || -> Option<Result<String, LineError>> {
            loop {
                match more()? {
                    Ok(l) if l.trim().is_empty() => {}
                    Ok(l) => return Some(Ok(l.trim().to_string())),
                    Err(e) => return Some(Err(e)),
                }
            }
        };
        let params = take().and_then(|l| parse_params(&l.ok()?));
        let reserves = take().and_then(|l| parse_reserves(&l.ok()?));
        let (Some(params), Some((reserve, to_move))) = (params, reserves) else {
            return format!("{}\n", LoadError::Parameters.message());
        };
        let side = params[0] as usize;
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return format!("{}\n", LoadError::Parameters.message());
        }
        let mut rows = Vec::new();
        let mut bad_row = false;
        for _ in 0..2 * side - 1 {
            match take() {
                Some(Ok(l)) => rows.push(parse_row(&l)),
                Some(Err(_)) => bad_row = true,
                None => break,
            }
        }
        if bad_row {
            return format!("{}\n", LoadError::Content.message());
        }
        match Gipf::from_text(&BoardText { params, reserve, to_move, rows }) {
            Ok(g) => {
                self.game = Some(g);
                "BOARD_STATE_OK\n".into()
            }
            Err(e) => format!("{}\n", e.message()),
        }
    }

    fn print_state(&self, game: &Gipf) -> String {
        let letter = |p: Player| if p == Player::First { "W" } else { "B" };
        if let Some((p, mv)) = &self.last_bad {
            return format!("bad_move {} {mv}\n", letter(*p));
        }
        if game.is_deadlock() {
            return format!("dead_lock {}\n", letter(game.to_move()));
        }
        match game.winner() {
            None => "in_progress\n".into(),
            Some(Player::First) => "white_win\n".into(),
            Some(Player::Second) => "black_win\n".into(),
        }
    }

    fn do_move(&mut self, game: &Gipf, args: &str) -> String {
        match try_move(game, args) {
            Ok(next) => {
                self.game = Some(next);
                self.last_bad = None;
                "MOVE_COMMITTED\n".into()
            }
            Err(msg) => {
                let mv: String = args.split_whitespace().collect::<Vec<_>>().join(" ");
                self.last_bad = Some((game.to_move(), mv));
                format!("{msg}\n")
            }
        }
    }

    fn options(&self) -> SolverOptions {
        SolverOptions { threads: 1, tt_mib: self.tt_mib, ..SolverOptions::default() }
    }

    /// The solver for game `G`. df-pn runs with GIPF's own settings
    /// ([`SolverOptions::for_game`] from GIPF's search hints: no mobility
    /// initialisation, the first-reply probe, epsilon = 2); see the df-pn module docs.
    fn solver<G: Game>(&self) -> Box<dyn Solver<G>> {
        let options = if self.runs_dfpn() { self.dfpn_options() } else { self.options() };
        make_solver::<G>(self.kind, &options)
    }

    /// Whether the solver is df-pn or starts with it (`auto`).
    fn runs_dfpn(&self) -> bool {
        matches!(self.kind, SolverKind::Dfpn | SolverKind::Auto)
    }

    fn dfpn_options(&self) -> SolverOptions {
        SolverOptions { threads: 1, tt_mib: self.tt_mib, ..SolverOptions::for_game::<Gipf>() }
    }

    /// Solves `game`. df-pn first tries with a small table that is kept between commands and a
    /// node budget ([`QUICK_TT_MIB`], [`QUICK_NODES`]): most positions of the protocol's size
    /// are solved in a few thousand nodes, and a fresh multi-MiB table per command would cost
    /// more (page faults, clearing) than the search. Otherwise, and with other solvers, one
    /// search with the full table: with `auto` (the default of `bitsolve gipf`) df-pn and
    /// retrograde analysis in rounds, so a draw with few reachable positions is proved at once
    /// instead of by df-pn's re-searches of path-dependent repetitions.
    fn solve_report(&mut self, game: &Gipf) -> Report<<Gipf as Game>::Move> {
        if self.use_quick && self.runs_dfpn() && self.tt_mib > QUICK_TT_MIB {
            let options = SolverOptions { tt_mib: QUICK_TT_MIB, ..self.dfpn_options() };
            let limits = self.limits(Some(QUICK_NODES));
            let quick = self.quick.get_or_insert_with(|| make_solver(SolverKind::Dfpn, &options));
            let report = quick.solve(game, &limits);
            if report.outcome.is_some() {
                return report;
            }
        }
        self.solver::<Gipf>().solve(game, &self.limits(None))
    }

    fn solve(&mut self, game: &Gipf) -> String {
        let report = self.solve_report(game);
        let mover = game.to_move();
        match (report.outcome, winner(mover, report.outcome)) {
            (None, _) => format!("{GAVE_UP}\n"),
            (_, Some(p)) => format!("{}_HAS_WINNING_STRATEGY\n", colour_name(p)),
            (_, None) => "NO_WINNING_STRATEGY\n".into(),
        }
    }

    /// `WINNING_SEQUENCE_EXIST N`: can a side force a win within `N` plies? Three steps, each
    /// exact when it answers: the depth-bounded game ([`Bounded`]) with a node budget (small
    /// `N` and quick wins), then retrograde analysis of every reachable position with a cap
    /// ([`SEQUENCE_RETRO_POSITIONS`]; its distances are the shortest forced win and the longest
    /// resistance, so one solve answers every `N`, and a draw means no side can force a win at
    /// all), then the depth-bounded game without a budget.
    fn winning_sequence(&self, game: &Gipf, rest: &[&str]) -> String {
        let Some(n) = rest.first().and_then(|w| w.parse::<u32>().ok()) else {
            return "WRONG_NUMBER_OF_MOVES\n".into();
        };
        let mover = game.to_move();
        let answer = |winner: Option<Player>| match winner {
            Some(p) => format!("{}_HAS_WINNING_SEQUENCE\n", colour_name(p)),
            None => "NO_WINNING_SEQUENCE\n".into(),
        };
        let bounded = Bounded { pos: game.clone(), plies_left: n };
        let mut solver = self.solver::<Bounded>();
        let report = solver.solve(&bounded, &self.limits(Some(SEQUENCE_NODES)));
        if report.outcome.is_some() {
            return answer(winner(mover, report.outcome));
        }
        let retro = RetroSolver::quiet().solve(game, &self.limits(Some(SEQUENCE_RETRO_POSITIONS)));
        if let Some(outcome) = retro.outcome {
            let within = retro.plies.is_some_and(|d| d <= n);
            return answer(if within { winner(mover, Some(outcome)) } else { None });
        }
        match solver.solve(&bounded, &self.limits(None)).outcome {
            None => format!("{GAVE_UP}\n"),
            outcome => answer(winner(mover, outcome)),
        }
    }
}

/// A GIPF position with a ply budget: once it is spent, the game counts as a draw. Solving it
/// answers "can a side force a win within N plies"; the budget makes the game acyclic.
#[derive(Clone, Debug)]
struct Bounded {
    pos: Gipf,
    plies_left: u32,
}

impl Game for Bounded {
    type Move = <Gipf as Game>::Move;
    type Moves = <Gipf as Game>::Moves;
    const ACYCLIC: bool = true;

    fn generate_moves(&self, moves: &mut Self::Moves) {
        if self.outcome().is_none() {
            self.pos.generate_moves(moves);
        }
    }

    fn play(&mut self, mv: Self::Move) {
        self.pos.play(mv);
        self.plies_left -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or(if self.plies_left == 0 { Some(Outcome::Draw) } else { None })
    }

    fn hash(&self) -> u64 {
        self.pos.hash() ^ crate::zobrist::splitmix64(u64::from(self.plies_left)).1
    }
}

/// Prints the `GEN_ALL_POS_MOV` family.
fn generate(game: &Gipf, cmd: &str) -> String {
    let children = if game.outcome().is_some() { Vec::new() } else { game.children() };
    let next = !game.to_move();
    let ext = cmd.contains("EXT");
    let mut states: Vec<State> = children.iter().map(|(_, s)| *s).collect();
    if ext {
        let winning: Vec<State> = states
            .iter()
            .copied()
            .filter(|s| {
                let mut child = game.clone();
                child.set_state_and_pass(*s);
                child.outcome().is_some()
            })
            .collect();
        if let Some(last) = winning.last() {
            states = vec![*last];
        }
    }
    if cmd.ends_with("_NUM") {
        return format!("{}_UNIQUE_MOVES\n", states.len());
    }
    states.iter().map(|s| game.text_of(s, next)).collect()
}

/// One `w:`/`b:` choice: colour and the two end cells named.
struct Choice {
    colour: Player,
    ends: Option<(u8, u8)>,
    used: bool,
}

/// Validates and plays a `DO_MOVE`; the error is the message to print.
fn try_move(game: &Gipf, args: &str) -> Result<Gipf, String> {
    let geo = game.geometry();
    // Split the push from the choice groups.
    let mut tokens: Vec<String> = Vec::new();
    for t in args.split_whitespace() {
        // `w:e5` -> `w:` `e5`
        if let Some(rest) = t.strip_prefix("w:").or_else(|| t.strip_prefix("b:")) {
            tokens.push(t[..2].to_string());
            if !rest.is_empty() {
                tokens.push(rest.to_string());
            }
        } else {
            tokens.push(t.to_string());
        }
    }
    let split = tokens.iter().position(|t| t == "w:" || t == "b:").unwrap_or(tokens.len());
    let push_text: String = tokens[..split].concat();
    let mut choices = Vec::new();
    let mut rest = tokens[split..].iter();
    while let Some(tag) = rest.next() {
        let colour = if tag == "b:" { Player::Second } else { Player::First };
        let a = rest.next().and_then(|n| geo.point_by_name(n));
        let b = rest.next().and_then(|n| geo.point_by_name(n));
        let ends = match (a, b) {
            (Some(Point::Cell(a)), Some(Point::Cell(b))) => Some((a, b)),
            _ => None,
        };
        choices.push(Choice { colour, ends, used: false });
    }
    let (from, to) = push_text.split_once('-').unwrap_or((&push_text, ""));
    let from_point =
        geo.point_by_name(from).ok_or_else(|| format!("BAD_MOVE_{from}_IS_WRONG_INDEX"))?;
    let to_point = geo.point_by_name(to).ok_or_else(|| format!("BAD_MOVE_{to}_IS_WRONG_INDEX"))?;
    let Point::Dot(dot) = from_point else {
        return Err(format!("BAD_MOVE_{from}_IS_WRONG_STARTING_FIELD"));
    };
    let Some(dir) = geo.direction_between(from_point, to_point) else {
        return Err("UNKNOWN_MOVE_DIRECTION".into());
    };
    if matches!(to_point, Point::Dot(_)) {
        return Err(format!("BAD_MOVE_{to}_IS_WRONG_DESTINATION_FIELD"));
    }
    let push = geo.push_index(dot, dir).ok_or("UNKNOWN_MOVE_DIRECTION")?;
    if game.pushed(push).is_some() && game.outcome().is_some() {
        return Err("BAD_MOVE_GAME_IS_OVER".into());
    }
    let mut st = game.pushed(push).ok_or("BAD_MOVE_ROW_IS_FULL")?;
    let mover = game.to_move();
    for colour in [mover, !mover] {
        loop {
            let runs = game.runs_of(&st, colour);
            if runs.is_empty() {
                break;
            }
            let crossing = runs
                .iter()
                .enumerate()
                .any(|(i, a)| runs[i + 1..].iter().any(|b| a.segment.intersects(b.segment)));
            if !crossing {
                for r in &runs {
                    Gipf::remove_run(&mut st, r);
                }
                break;
            }
            let run = choose(game, &st, colour, &mut choices)?;
            Gipf::remove_run(&mut st, &run);
        }
    }
    let mut next = game.clone();
    next.set_state_and_pass(st);
    Ok(next)
}

/// The run chosen for `colour` by the next unused choice (one with that colour tag first).
fn choose(game: &Gipf, st: &State, colour: Player, choices: &mut [Choice]) -> Result<Run, String> {
    const INDEX: &str = "WRONG_INDEX_OF_CHOSEN_ROW";
    let pick = choices
        .iter()
        .position(|c| !c.used && c.colour == colour)
        .or_else(|| choices.iter().position(|c| !c.used))
        .ok_or(INDEX)?;
    let choice = &mut choices[pick];
    choice.used = true;
    let (a, b) = choice.ends.ok_or(INDEX)?;
    let all: Vec<Run> =
        game.runs_of(st, colour).into_iter().chain(game.runs_of(st, !colour)).collect();
    let found = all
        .iter()
        .find(|r| (r.first, r.last) == (a, b) || (r.first, r.last) == (b, a))
        .ok_or(INDEX)?;
    if found.colour != choice.colour || found.colour != colour {
        return Err("WRONG_COLOR_OF_CHOSEN_ROW".into());
    }
    Ok(*found)
}
